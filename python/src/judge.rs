//! `judge`: `postfacto verify INPUT ANSWER` for records and an answer
//! given as text, through the same [`JudgeRequest`], so the two give the
//! same verdicts.

use pyo3::prelude::*;

use postfacto::request::{JudgeRequest, JudgeVerdict, ReadAs, RepairLimits, RulesChoice};

use crate::{bad, raised, seconds};

/// Each record's verdict on its answer, as `postfacto verify INPUT ANSWER`
/// gives it: `(name, status, reason)` per record, `status` one of
/// `"accepted"`, `"rejected"`, `"undecided"`, `reason` `None` when
/// accepted. `rules` as `verify --rules` (none: each record's notation or
/// PDN game type says, English by default). `text` holds the records (the task's format or PDN; `name`
/// names them, as a file would), `answer` their answers (in order, or
/// named as `solve` names a batch's). With `repair`, a rejected record
/// also gets the fewest edits that make its answer play.
#[pyfunction]
#[pyo3(signature = (text, answer, *, name="<text>", rules=None, short_captures=false, repair=false, max_edits=3, limit=None))]
#[allow(clippy::too_many_arguments)]
pub fn judge(
    py: Python<'_>,
    text: &str,
    answer: &str,
    name: &str,
    rules: Option<&str>,
    short_captures: bool,
    repair: bool,
    max_edits: usize,
    limit: Option<f64>,
) -> PyResult<Vec<(String, &'static str, Option<String>)>> {
    let limit = seconds(limit)?;
    let rules = rules
        .map_or(Ok(RulesChoice::Default), RulesChoice::named)
        .map_err(bad)?;
    // The answer's start, not the opening, is where the games start.
    // With a repair, a move that is no move is a mistake to mend, as the
    // binary reads it.
    let read_as = ReadAs::as_written(rules, short_captures).repairing(repair);
    // Reading the records is work too (a PDN file's rules are inferred):
    // off the interpreter's lock, as the judging is.
    let request = py
        .allow_threads(|| JudgeRequest::new().input(name, text.as_bytes(), read_as))
        .map_err(|e| raised(py, e))?
        .answer(answer.as_bytes().to_vec())
        .repair(repair.then_some(RepairLimits { max_edits, limit }))
        .limit(limit);
    let judgement = py.allow_threads(|| request.run(&mut |_| {}));
    let several = judgement.verdicts.len() > 1;
    Ok(judgement
        .verdicts
        .iter()
        .enumerate()
        .map(|(i, verdict)| {
            let name = match judgement.records.get(i) {
                Some(record) if several => record.name(),
                _ => name.to_string(),
            };
            match verdict {
                JudgeVerdict::Accepted => (name, "accepted", None),
                JudgeVerdict::Rejected(why) => (name, "rejected", Some(why.to_string())),
                JudgeVerdict::Undecided(why) => (name, "undecided", Some(why.to_string())),
            }
        })
        .collect())
}
