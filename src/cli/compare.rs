//! `postfacto compare`: both engines on every record; agreement and timings.

use std::io::Write;
use std::path::{Path, PathBuf};

use postfacto::harness::compare::{chosen_reading, Tally, HEADER};
use postfacto::notation::Record;
use postfacto::rules::Variant;
use postfacto::solve::Limit;

use super::input::{read_input, read_items, read_records, record_files, Reading, RulesChoice};
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
        writeln!(out, "{HEADER}").map_err(w)?;
    }
    for file in record_files(paths)? {
        let Some(records) = readable(&file, rules, &mut status) else {
            continue;
        };
        for compared in records {
            match tally.compare(&compared.record, compared.variant, limit) {
                Ok(row) => {
                    let (name, plies) = (&compared.name, compared.record.plies());
                    let line = match json {
                        true => row.json(name, compared.variant, plies),
                        false => row.text(name, compared.variant, plies),
                    };
                    writeln!(out, "{line}").map_err(w)?;
                }
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
    for line in tally.summary_lines() {
        match json {
            true if line.is_empty() => {}
            true => super::report(&line),
            false => writeln!(out, "{line}")?,
        }
    }
    Ok(())
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
    let reading = Reading::as_written(rules, false);
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
