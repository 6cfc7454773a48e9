//! `postfacto compare`: both engines on every record; agreement and timings.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use postfacto::notation::{plural, Record};
use postfacto::request::first_solving;
use postfacto::rules::Variant;
use postfacto::solve::{Engine, Limit, Outcome, Reconstructor, SolveError};

use super::input::{
    read_input, read_items, read_records, record_files, Reader, Reading, RulesChoice,
};
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

fn timed(
    record: &Record,
    variant: Variant,
    engine: Engine,
) -> (Result<Outcome, SolveError>, Duration) {
    let started = Instant::now();
    let outcome = Reconstructor::new(variant).engine(engine).solve(record);
    (outcome, started.elapsed())
}

/// One record of a compared file: its name, rule set and moves.
struct Compared {
    name: String,
    variant: Variant,
    record: Record,
}

pub fn run(
    paths: &[PathBuf],
    limit: Limit,
    rules: RulesChoice,
    json: bool,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let w = |e: std::io::Error| super::write_err(e);
    let mut status = Status::Ok;
    let (mut sat_times, mut dfs_times) = (Vec::new(), Vec::new());
    let (mut compared, mut disagreements, mut gave_up, mut not_english) = (0, 0, 0, 0);
    if !json {
        writeln!(
            out,
            "{:<28} {:<13} {:>5} {:>10} {:>10} {:>10} {:>6}  verdict",
            "instance", "rules", "plies", "sat_us", "dfs_us", "dfs_nodes", "agree"
        )
        .map_err(w)?;
    }
    for file in record_files(paths)? {
        let Some(records) = readable(&file, rules, &mut status) else {
            continue;
        };
        for Compared {
            name,
            variant,
            record,
        } in records
        {
            let (sat, sat_time) = timed(&record, variant, Engine::Sat);
            let sat = match sat {
                Ok(sat) => sat,
                Err(e) => {
                    super::report(&format!("{name}: {e}"));
                    status = Status::Internal;
                    continue;
                }
            };
            compared += 1;
            sat_times.push(sat_time);
            // The DFS engine knows some rule sets and whole moves only.
            // (PDN captures read short but written whole are whole moves.)
            let whole = !record.is_damaged() || record.as_written(variant.geometry()).is_some();
            let dfs = if variant.has_dfs() && whole {
                Some(timed(&record, variant, Engine::Dfs(limit)))
            } else {
                None
            };
            let (dfs_us, nodes, agree, dfs_verdict) = match dfs {
                None | Some((Err(SolveError::Unsupported(_)), _)) => {
                    ("-".to_string(), "-".to_string(), "-", "n/a")
                }
                Some((Err(e), _)) => {
                    super::report(&format!("{name}: {e}"));
                    status = Status::Internal;
                    continue;
                }
                Some((Ok(dfs), dfs_time)) => {
                    dfs_times.push(dfs_time);
                    let nodes = match &dfs {
                        Outcome::Solved(s) => s.stats.nodes,
                        Outcome::Impossible { stats, .. } | Outcome::GaveUp { stats, .. } => {
                            stats.nodes
                        }
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
                    (
                        micros(dfs_time).to_string(),
                        nodes.to_string(),
                        agree,
                        verdict(&dfs),
                    )
                }
            };
            if dfs_verdict == "n/a" {
                not_english += 1;
            }
            if json {
                let row = serde_json::json!({
                    "instance": name,
                    "rules": variant.name(),
                    "plies": record.plies(),
                    "sat_us": micros(sat_time).parse::<f64>().ok(),
                    "dfs_us": dfs_us.parse::<f64>().ok(),
                    "dfs_nodes": nodes.parse::<u64>().ok(),
                    "agree": agree,
                    "sat": verdict(&sat),
                    "dfs": dfs_verdict,
                });
                writeln!(out, "{row}").map_err(w)?;
                continue;
            }
            writeln!(
                out,
                "{name:<28} {:<13} {:>5} {:>10} {dfs_us:>10} {nodes:>10} {agree:>6}  sat {} / dfs {dfs_verdict}",
                variant.name(),
                record.plies(),
                micros(sat_time),
                verdict(&sat),
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
    let s = Summary::of(&sat_times);
    let d = (!dfs_times.is_empty()).then(|| Summary::of(&dfs_times));
    // JSON Lines carry the rows only: the summary goes to stderr.
    let mut table = Vec::new();
    let out: &mut dyn Write = if json { &mut table } else { out };
    writeln!(
        out,
        "\n{:<8} {:>10} {:>10} {:>10}",
        "engine", "median_us", "p90_us", "max_us"
    )
    .map_err(w)?;
    for (engine, sum) in [("sat", Some(&s)), ("dfs", d.as_ref())] {
        let Some(sum) = sum else { continue };
        writeln!(
            out,
            "{engine:<8} {:>10} {:>10} {:>10}",
            micros(sum.median),
            micros(sum.p90),
            micros(sum.max)
        )
        .map_err(w)?;
    }
    let ratio = d.map_or_else(
        || "no record for the DFS".to_string(),
        |d| {
            format!(
                "sat/dfs ratio of medians {:.2}",
                s.median.as_secs_f64() / d.median.as_secs_f64()
            )
        },
    );
    writeln!(
        out,
        "{}; {ratio}; {disagreements} disagreements; dfs gave up on {gave_up}; dfs n/a (not English, or not whole moves) on {not_english}",
        plural(compared, "record")
    )
    .map_err(w)?;
    for line in String::from_utf8_lossy(&table)
        .lines()
        .filter(|l| !l.is_empty())
    {
        super::report(line);
    }
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
    json: bool,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let mut tables = super::tables::Tables::new(out, json);
    let mut status = Status::Ok;
    let mut files = 0;
    for file in record_files(paths)? {
        let Some(records) = english_records(&file, &mut status) else {
            continue;
        };
        files += 1;
        let passed = super::against::run(&file, &records, Variant::English, command, &mut tables)
            .map_err(|e| fail(Status::BadInput, e.to_string()))?;
        if !passed {
            status = status.max(Status::Rejected);
        }
    }
    if files == 0 && status == Status::Ok {
        return Err(fail(Status::BadInput, "no records to compare"));
    }
    Ok(status)
}

/// The records of `file` under `rules` (each PDN game under its own, the
/// first reading its moves solve under), or `None` after reporting why it
/// cannot be read (and marking `status` as bad input): `compare` goes on
/// with the others. Games without moves are left out; a game that cannot
/// be read is reported and left out.
fn readable(file: &Path, rules: RulesChoice, status: &mut Status) -> Option<Vec<Compared>> {
    let reading = Reading {
        rules,
        short_captures: false,
    };
    let items = match read_input(Some(file)).and_then(|input| read_items(&input, reading)) {
        Ok(items) => items,
        Err(failure) => {
            super::report(&failure.message);
            *status = (*status).max(Status::BadInput);
            return None;
        }
    };
    let count = items.iter().filter(|i| !i.no_moves).count();
    let mut records = Vec::new();
    for (i, item) in items.into_iter().filter(|i| !i.no_moves).enumerate() {
        let name = name_of(file, i, count);
        if let Some(error) = &item.error {
            super::report(&format!("{name}: line {}: {error}", item.line));
            *status = (*status).max(Status::BadInput);
            continue;
        }
        let solve = |r: &Reader| Reconstructor::new(r.variant).solve(&r.record);
        let chosen = first_solving(&item.readings, solve, None).map_or(0, |(i, _)| i);
        let Some(reader) = item.readings.into_iter().nth(chosen) else {
            continue;
        };
        records.push(Compared {
            name,
            variant: reader.variant,
            record: reader.record,
        });
    }
    Some(records)
}

/// The records of `file` read under English rules (the task's format, for
/// `--against`), or `None` after reporting why they cannot be read.
fn english_records(file: &Path, status: &mut Status) -> Option<Vec<Record>> {
    match read_input(Some(file)).and_then(|input| read_records(&input, Variant::English)) {
        Ok(records) => Some(records),
        Err(failure) => {
            super::report(&failure.message);
            *status = (*status).max(Status::BadInput);
            None
        }
    }
}
