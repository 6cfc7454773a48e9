//! `postfacto solve`: answers for every record of every input, in parallel,
//! printed in input order; with options, explanations, proofs, optimal
//! answers and counts.
//!
//! Each record comes with the rule sets to read it under (one when the
//! user, or a PDN game's tag, names it; the candidates its notation allows
//! otherwise, tried in order: the first it solves under is its rule set).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use postfacto::request::{summary, Batch, Progress};

use super::output;
use super::settings::Settings;
use super::ticker::Ticker;
use super::{fail, Failure, Status};

/// Batches at least this large show a progress bar (when stderr is a terminal).
const PROGRESS_FROM: usize = 64;

/// Runs `solve` on every record of every input: files, folders (every `*.in`
/// and `*.pdn` inside), or standard input when there are none. The
/// library's [`Batch`] reads and solves; this shows its progress and
/// prints.
pub fn run(
    paths: &[PathBuf],
    settings: &Arc<Settings>,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let started = Instant::now();
    let batch = Batch::read(paths, settings.reading())?;
    let total = batch.records();
    if settings.solve.analyses.proof.is_some() && total != 1 {
        return Err(fail(
            Status::BadInput,
            format!("--proof needs an input with exactly one record (this one has {total})"),
        ));
    }
    // A progress bar for large batches on a terminal, a progress line for
    // a few long repairs.
    let ticker = Arc::new(Ticker::start(
        settings.solve.analyses.repair && !settings.quiet && total < PROGRESS_FROM,
    ));
    let said = Arc::clone(&ticker);
    let say: Progress = Arc::new(move |line| said.say(line));
    let bar = progress_bar(settings, total);
    let reports = batch.solve(&settings.solve, &say, || {
        if let Some(bar) = &bar {
            bar.inc(1);
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    ticker.finish();
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
