//! `postfacto compare`: both engines on every record; agreement and timings.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use postfacto::notation::Record;
use postfacto::rules::Variant;
use postfacto::solve::{solve, Engine, Limit, Outcome};

use super::input::{read_input, read_records, record_files};
use super::timing::{micros, Summary};
use super::{fail, Failure, Status};

fn verdict(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Solved(_) => "solved",
        Outcome::Impossible { .. } => "impossible",
        Outcome::GaveUp { .. } => "gave-up",
        _ => "unknown",
    }
}

fn timed(record: &Record, engine: Engine) -> (Result<Outcome, String>, Duration) {
    let started = Instant::now();
    let outcome = solve(record, engine).map_err(|e| e.to_string());
    (outcome, started.elapsed())
}

pub fn run(paths: &[PathBuf], limit: Limit, out: &mut impl Write) -> Result<Status, Failure> {
    let w = |e: std::io::Error| super::write_err(e);
    let mut status = Status::Ok;
    let (mut sat_times, mut dfs_times) = (Vec::new(), Vec::new());
    let (mut compared, mut disagreements, mut gave_up) = (0, 0, 0);
    writeln!(
        out,
        "{:<28} {:>5} {:>10} {:>10} {:>10} {:>6}  verdict",
        "instance", "moves", "sat_us", "dfs_us", "dfs_nodes", "agree"
    )
    .map_err(w)?;
    for file in record_files(paths)? {
        let Some(records) = readable(&file, &mut status) else {
            continue;
        };
        for (i, record) in records.iter().enumerate() {
            let name = name_of(&file, i, records.len());
            let (sat, sat_time) = timed(record, Engine::Sat);
            let (dfs, dfs_time) = timed(record, Engine::Dfs(limit));
            let (sat, dfs) = match (sat, dfs) {
                (Ok(s), Ok(d)) => (s, d),
                (s, d) => {
                    let message = s.err().or(d.err()).unwrap_or_default();
                    super::report(&format!("{name}: {message}"));
                    status = Status::Internal;
                    continue;
                }
            };
            let nodes = match &dfs {
                Outcome::Solved(s) => s.stats.nodes,
                Outcome::Impossible { stats, .. } | Outcome::GaveUp { stats, .. } => stats.nodes,
                _ => 0,
            };
            let agree = if matches!(dfs, Outcome::GaveUp { .. }) {
                gave_up += 1;
                "-"
            } else if verdict(&sat) == verdict(&dfs) {
                "yes"
            } else {
                disagreements += 1;
                status = Status::Internal;
                "NO"
            };
            compared += 1;
            sat_times.push(sat_time);
            dfs_times.push(dfs_time);
            writeln!(
                out,
                "{name:<28} {:>5} {:>10} {:>10} {:>10} {agree:>6}  sat {} / dfs {}",
                record.moves.len(),
                micros(sat_time),
                micros(dfs_time),
                nodes,
                verdict(&sat),
                verdict(&dfs)
            )
            .map_err(w)?;
        }
    }
    if compared == 0 {
        // Files that failed were reported already; say more only when there were none.
        return if status == Status::Ok {
            Err(fail(Status::BadInput, "no records to compare"))
        } else {
            Ok(status)
        };
    }
    let (s, d) = (Summary::of(&sat_times), Summary::of(&dfs_times));
    writeln!(
        out,
        "\n{:<8} {:>10} {:>10} {:>10}",
        "engine", "median_us", "p90_us", "max_us"
    )
    .map_err(w)?;
    for (engine, sum) in [("sat", &s), ("dfs", &d)] {
        writeln!(
            out,
            "{engine:<8} {:>10} {:>10} {:>10}",
            micros(sum.median),
            micros(sum.p90),
            micros(sum.max)
        )
        .map_err(w)?;
    }
    writeln!(
        out,
        "{compared} records; sat/dfs ratio of medians {:.2}; {disagreements} disagreements; dfs gave up on {gave_up}",
        s.median.as_secs_f64() / d.median.as_secs_f64()
    )
    .map_err(w)?;
    if disagreements > 0 {
        eprintln!("postfacto: the engines DISAGREE on {disagreements} records (rows marked NO): this is a bug");
    }
    Ok(status)
}

fn name_of(file: &Path, index: usize, count: usize) -> String {
    let base = file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    if count == 1 {
        base
    } else {
        format!("{base}#{}", index + 1)
    }
}

/// `compare --against CMD`: whole-process timings and the judgement of the
/// command's answers, file by file (see [`super::against::run`]).
pub fn run_against(
    paths: &[PathBuf],
    command: &[String],
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let mut status = Status::Ok;
    let mut files = 0;
    for file in record_files(paths)? {
        let Some(records) = readable(&file, &mut status) else {
            continue;
        };
        files += 1;
        let passed = super::against::run(&file, &records, Variant::English, command, out)
            .map_err(|e| fail(Status::BadInput, e))?;
        if !passed {
            status = status.max(Status::Rejected);
        }
    }
    if files == 0 && status == Status::Ok {
        return Err(fail(Status::BadInput, "no records to compare"));
    }
    Ok(status)
}

/// The records of `file`, or `None` after reporting why it cannot be read
/// (and marking `status` as bad input): `compare` goes on with the others.
fn readable(file: &Path, status: &mut Status) -> Option<Vec<Record>> {
    match read_input(Some(file)).and_then(|input| read_records(&input, Variant::English)) {
        Ok(records) => Some(records),
        Err(failure) => {
            super::report(&failure.message);
            *status = (*status).max(Status::BadInput);
            None
        }
    }
}
