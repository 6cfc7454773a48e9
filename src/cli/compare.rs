//! `postfacto compare`: both engines on every record; agreement and timings.

use std::io::Write;
use std::path::{Path, PathBuf};

use postfacto::harness::compare::{compared_records, header, Compared, LeftOut, Tally};
use postfacto::notation::Record;
use postfacto::request::{record_files, RulesChoice, Source};
use postfacto::rules::Variant;
use postfacto::solve::Limit;

use super::{fail, Failure, Status};

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
        writeln!(out, "{}", header()).map_err(w)?;
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

/// The records of `file` to compare under `rules` (see
/// [`compared_records`]), or `None` after reporting why it cannot be read
/// (and marking `status` as bad input): `compare` goes on with the others.
/// A record left out is reported (and marks `status`).
fn readable(file: &Path, rules: RulesChoice, status: &mut Status) -> Option<Vec<Compared>> {
    let read = Source::read(Some(file)).and_then(|s| compared_records(&s, file, rules));
    let records = match read {
        Ok(records) => records,
        Err(e) => {
            super::report(&e.to_string());
            *status = (*status).max(Status::BadInput);
            return None;
        }
    };
    let mut compared = Vec::new();
    for record in records {
        match record {
            Ok(record) => compared.push(record),
            Err(left_out) => {
                super::report(&left_out.to_string());
                *status = (*status).max(match left_out {
                    LeftOut::Unreadable { .. } => Status::BadInput,
                    LeftOut::Internal { .. } => Status::Internal,
                });
            }
        }
    }
    Some(compared)
}

/// The records of `file` read under English rules (the task's format, for
/// `--against`), or `None` after reporting why they cannot be read.
fn english_records(file: &Path, status: &mut Status) -> Option<Vec<Record>> {
    match Source::read(Some(file)).and_then(|s| s.records(Variant::English)) {
        Ok(records) => Some(records),
        Err(e) => {
            super::report(&e.to_string());
            *status = (*status).max(Status::BadInput);
            None
        }
    }
}
