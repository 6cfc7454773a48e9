//! `postfacto compare`: both engines on every record; agreement and timings.

use std::io::Write;
use std::path::{Path, PathBuf};

use postfacto::harness::compare::{chosen_reading, Agreement, Comparison, Tally};
use postfacto::harness::Summary;
use postfacto::notation::{plural, Record};
use postfacto::rules::Variant;
use postfacto::solve::Limit;

use super::input::{read_input, read_items, read_records, record_files, Reading, RulesChoice};
use super::timing::micros;
use super::{fail, Failure, Status};

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
    let mut tally = Tally::default();
    let mut status = Status::Ok;
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
        for compared in records {
            match tally.compare(&compared.record, compared.variant, limit) {
                Ok(row) => write_row(&row, &compared, json, out).map_err(w)?,
                Err(e) => {
                    super::report(&format!("{}: {e}", compared.name));
                    status = Status::Internal;
                }
            }
        }
    }
    if tally.compared == 0 {
        // Files that failed were reported already; say more only when there were none.
        return if status == Status::Ok {
            Err(fail(Status::BadInput, "no records to compare"))
        } else {
            Ok(status)
        };
    }
    summary(&tally, json, out).map_err(w)?;
    if tally.disagreements > 0 {
        eprintln!(
            "postfacto: the engines DISAGREE on {} records (rows marked NO): this is a bug",
            tally.disagreements
        );
        status = Status::Internal;
    }
    Ok(status)
}

/// The engines' timing table and the counts (on stderr with `json`:
/// JSON Lines carry the rows only).
fn summary(tally: &Tally, json: bool, out: &mut impl Write) -> std::io::Result<()> {
    let s = Summary::of(&tally.sat_times);
    let d = (!tally.dfs_times.is_empty()).then(|| Summary::of(&tally.dfs_times));
    let mut table = Vec::new();
    let out: &mut dyn Write = if json { &mut table } else { out };
    writeln!(
        out,
        "\n{:<8} {:>10} {:>10} {:>10}",
        "engine", "median_us", "p90_us", "max_us"
    )?;
    for (engine, sum) in [("sat", Some(&s)), ("dfs", d.as_ref())] {
        let Some(sum) = sum else { continue };
        writeln!(
            out,
            "{engine:<8} {:>10} {:>10} {:>10}",
            micros(sum.median),
            micros(sum.p90),
            micros(sum.max)
        )?;
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
        "{}; {ratio}; {} disagreements; dfs gave up on {}; dfs n/a (not English, or not whole moves) on {}",
        plural(tally.compared, "record"),
        tally.disagreements,
        tally.gave_up,
        tally.not_english
    )?;
    for line in String::from_utf8_lossy(&table)
        .lines()
        .filter(|l| !l.is_empty())
    {
        super::report(line);
    }
    Ok(())
}

/// The row of record `c`: a table line, or a JSON object with `json`;
/// `-` for the DFS's figures where it did not run.
fn write_row(
    row: &Comparison,
    c: &Compared,
    json: bool,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let dfs = row.dfs.as_ref();
    let agree = match dfs.map(|d| d.agreement) {
        Some(Agreement::Yes) => "yes",
        Some(Agreement::No) => "NO",
        Some(Agreement::GaveUp) | None => "-",
    };
    let dfs_verdict = dfs.map_or("n/a", |d| d.verdict);
    if json {
        let row = serde_json::json!({
            "instance": c.name,
            "rules": c.variant.name(),
            "plies": c.record.plies(),
            "sat_us": micros(row.sat_time).parse::<f64>().ok(),
            "dfs_us": dfs.and_then(|d| micros(d.time).parse::<f64>().ok()),
            "dfs_nodes": dfs.map(|d| d.nodes),
            "agree": agree,
            "sat": row.sat,
            "dfs": dfs_verdict,
        });
        return writeln!(out, "{row}");
    }
    let (dfs_us, nodes) = dfs.map_or_else(
        || ("-".to_string(), "-".to_string()),
        |d| (micros(d.time), d.nodes.to_string()),
    );
    writeln!(
        out,
        "{:<28} {:<13} {:>5} {:>10} {dfs_us:>10} {nodes:>10} {agree:>6}  sat {} / dfs {dfs_verdict}",
        c.name,
        c.variant.name(),
        c.record.plies(),
        micros(row.sat_time),
        row.sat,
    )
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
    let mut tables = postfacto::harness::table::Tables::new(out, json);
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
        replay_decides: false,
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
        let reader = match chosen_reading(item.readings) {
            Ok(Some(reader)) => reader,
            Ok(None) => continue,
            Err(e) => {
                super::report(&format!("{name}: line {}: internal error: {e}", item.line));
                *status = (*status).max(Status::Internal);
                continue;
            }
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
