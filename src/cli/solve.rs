//! `postfacto solve`: answers for every record of every input, in parallel,
//! printed in input order; with options, explanations, proofs, optimal
//! answers and counts.
//!
//! Each record comes with the rule sets to read it under (one when the
//! user, or a PDN game's tag, names it; the candidates its notation allows
//! otherwise, tried in order: the first it solves under is its rule set).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use postfacto::request::{solve_item, summary, Name, Progress, Report};

use super::input::{read_input, read_items, read_or_report, record_files, Input, Item};
use super::output;
use super::settings::Settings;
use super::ticker::Ticker;
use super::{fail, Failure, Status};

/// Batches at least this large show a progress bar (when stderr is a terminal).
const PROGRESS_FROM: usize = 64;

/// One input file (or standard input) and what could be read from it.
struct Source {
    input: Input,
    items: Result<Vec<Item>, Failure>,
}

/// Runs `solve` on every record of every input: files, folders (every `*.in`
/// and `*.pdn` inside), or standard input when there are none.
pub fn run(
    paths: &[PathBuf],
    settings: &Arc<Settings>,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let started = Instant::now();
    let sources: Vec<Source> = expand(paths)?
        .into_par_iter()
        .map(|input| Source {
            items: read_items(&input, settings.reading()),
            input,
        })
        .collect();
    let total: usize = sources
        .iter()
        .map(|s| s.items.as_ref().map_or(1, Vec::len))
        .sum();
    if settings.solve.analyses.proof.is_some() && total != 1 {
        return Err(fail(
            Status::BadInput,
            format!("--proof needs an input with exactly one record (this one has {total})"),
        ));
    }
    let reports = solve_all(&sources, settings);
    let status = output::print(&reports, settings, out)?;
    if total > 1 && !settings.quiet {
        eprintln!("postfacto: {}", summary(&reports, started.elapsed()));
    }
    let positions = reports.iter().filter(|r| r.no_moves).count();
    if settings.quiet && positions > 0 {
        // Quiet: the games without moves in one line, not one each.
        eprintln!(
            "postfacto: {} without moves (positions only): nothing to reconstruct",
            postfacto::notation::plural(positions, "game")
        );
    }
    Ok(status)
}

/// Every record of every source solved, in parallel, in input order (an
/// unreadable source is one report); a progress bar for large batches on
/// a terminal, a progress line for a few long repairs.
fn solve_all<'s>(sources: &'s [Source], settings: &Settings) -> Vec<Report<'s>> {
    let jobs: Vec<(&Source, Option<usize>)> = sources
        .iter()
        .flat_map(|s| match &s.items {
            Ok(items) => (0..items.len()).map(|i| (s, Some(i))).collect::<Vec<_>>(),
            Err(_) => vec![(s, None)],
        })
        .collect();
    let ticker = Arc::new(Ticker::start(
        settings.solve.analyses.repair && !settings.quiet && jobs.len() < PROGRESS_FROM,
    ));
    let said = Arc::clone(&ticker);
    let say: Progress = Arc::new(move |line| said.say(line));
    let bar = progress_bar(settings, jobs.len());
    let reports = jobs
        .par_iter()
        .map(|&(source, index)| {
            let report = match (index, &source.items) {
                (Some(i), Ok(items)) => solve_item(
                    name_of(&source.input, &items[i], i, items.len()),
                    &items[i],
                    &settings.solve,
                    &say,
                ),
                (_, Err(failure)) => Report::bad_input(&source.input.name, &failure.message),
                (None, Ok(_)) => unreachable!("a readable source has a job per record"),
            };
            if let Some(bar) = &bar {
                bar.inc(1);
            }
            report
        })
        .collect();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    ticker.finish();
    reports
}

/// A bar for a batch of `jobs` records, when it is large and standard
/// error is a terminal.
fn progress_bar(settings: &Settings, jobs: usize) -> Option<indicatif::ProgressBar> {
    let shown = !settings.quiet && jobs >= PROGRESS_FROM && std::io::stderr().is_terminal();
    shown.then(|| {
        let bar = indicatif::ProgressBar::new(jobs as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} records, {eta} left")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    })
}

/// The inputs: standard input when `paths` is empty; a folder stands for
/// every `*.in` and `*.pdn` file in it, in name order.
fn expand(paths: &[PathBuf]) -> Result<Vec<Input>, Failure> {
    if paths.is_empty() {
        return Ok(vec![read_input(None)?]);
    }
    Ok(record_files(paths)?
        .par_iter()
        .map(|file: &PathBuf| read_or_report(Path::new(file)))
        .collect())
}

/// Names an instance in messages: just the file for a single record, the
/// game for a PDN file.
fn name_of<'a>(input: &'a Input, item: &Item, index: usize, count: usize) -> Name<'a> {
    Name {
        input: &input.name,
        instance: (count > 1 || item.game.is_some())
            .then_some((item.game.unwrap_or(index + 1), item.line)),
        game: item.game.is_some(),
    }
}
