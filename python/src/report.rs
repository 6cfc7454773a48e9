//! `solve_json` and `verify_json`: the reports `postfacto solve --format
//! json` and `postfacto verify --pdn --format json` print, for input given
//! as the other calls take it, with the same options. One request and one
//! writer serve both, so the two agree key for key.

use std::path::PathBuf;

use pyo3::prelude::*;

use postfacto::request::{Analyses, SolveRequest};

use crate::{archive_request, described, raised, seconds};

/// The JSON object `postfacto solve --format json` prints for this
/// fragment and these options (`explain`, `count`, `all`, `unique`,
/// `minimize`, `max_per_side`, `repair`, `max_edits`, `count_limit`),
/// as text. The verdict is in it (`status`, `message`, `explanation`);
/// only input that cannot be read raises (`BadInput`).
#[pyfunction]
#[pyo3(signature = (moves, rules="english", first=None, start=None, end=None, short_captures=false, limit=None, explain=false, count=false, all=false, unique=false, minimize=false, max_per_side=None, repair=false, max_edits=3, count_limit=100_000))]
#[allow(clippy::too_many_arguments, clippy::fn_params_excessive_bools)]
pub fn solve_json(
    py: Python<'_>,
    moves: &Bound<'_, PyAny>,
    rules: &str,
    first: Option<&str>,
    start: Option<&Bound<'_, PyAny>>,
    end: Option<&Bound<'_, PyAny>>,
    short_captures: bool,
    limit: Option<f64>,
    explain: bool,
    count: bool,
    all: bool,
    unique: bool,
    minimize: bool,
    max_per_side: Option<usize>,
    repair: bool,
    max_edits: usize,
    count_limit: usize,
) -> PyResult<String> {
    let fragment = described(moves, rules, first, start, end, short_captures)?;
    let analyses = Analyses {
        explain,
        count,
        all,
        unique,
        minimize,
        max_per_side,
        repair,
        max_edits,
        count_limit,
        ..Analyses::default()
    };
    let request = SolveRequest::new(fragment)
        .limit(seconds(limit)?)
        .analyses(analyses);
    py.allow_threads(|| request.json())
        .map_err(|e| raised(py, e))
}

/// The JSON Lines `postfacto verify --pdn --format json` prints for this
/// archive (a path, or `text=`) and these options (`rules`, `strict`,
/// `repair`, `max_edits`, `legal`, `limit`): one object per game, in order, the
/// archive named `input` (the path; `<text>` for `text=`).
#[pyfunction]
#[pyo3(signature = (path=None, *, text=None, rules=None, strict=false, repair=false, max_edits=3, legal=false, limit=None))]
#[allow(clippy::too_many_arguments)]
pub fn verify_json(
    py: Python<'_>,
    path: Option<PathBuf>,
    text: Option<String>,
    rules: Option<&str>,
    strict: bool,
    repair: bool,
    max_edits: usize,
    legal: bool,
    limit: Option<f64>,
) -> PyResult<String> {
    let input = path
        .as_ref()
        .map_or_else(|| "<text>".to_string(), |p| p.display().to_string());
    let request = archive_request(path, text, rules, "verify_json")?
        .strict(strict)
        .legal(legal)
        .limit(seconds(limit)?)
        .repair(repair.then_some(max_edits));
    let checked = py
        .allow_threads(|| request.run())
        .map_err(|e| raised(py, e))?;
    Ok(checked
        .games
        .iter()
        .map(|game| game.json(&input) + "\n")
        .collect())
}
