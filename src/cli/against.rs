//! Prints the whole-process timings against an outside command (`bench
//! --against`, `compare --against`) that [`postfacto::harness::against`]
//! makes, and the replayer's judgement of the command's answers.

use std::path::Path;
use std::time::Duration;

use postfacto::harness::against::{time_against, AgainstError, UnjudgedError};
use postfacto::notation::Record;
use postfacto::rules::Variant;

use super::tables::{Cell, Tables};
use super::{fail, Failure, Status};

pub use postfacto::harness::against::command_words;

/// One note per answer the replayer rejected, naming its record as
/// `verify` does (`FILE: instance 2 (line 5): ply 1 (21-17): ...`).
fn rejections(
    path: &Path,
    records: &[Record],
    verdicts: &[Option<String>],
    tables: &mut Tables<'_>,
) -> std::io::Result<()> {
    for (i, (record, why)) in records.iter().zip(verdicts).enumerate() {
        let Some(why) = why else { continue };
        let name = match records.len() {
            1 => path.display().to_string(),
            _ => format!(
                "{}: instance {} (line {})",
                path.display(),
                i + 1,
                record.line
            ),
        };
        let text = format!("rejected: {name}: {}", super::one_line(why));
        let fields = serde_json::json!({
            "input": path.display().to_string(),
            "instance": i + 1,
            "line": record.line,
            "reason": why,
        });
        tables.note("rejected", &text, fields)?;
    }
    Ok(())
}

/// Times `postfacto solve` (one thread, all cores) and `command` (the
/// file's path added last) on the records of `path`, prints the table and
/// the judgement of the command's answers; returns whether it passed.
///
/// # Errors
/// A process that cannot be run or fails, in words.
pub fn run(
    path: &Path,
    records: &[Record],
    variant: Variant,
    command: &[String],
    tables: &mut Tables<'_>,
) -> Result<bool, AgainstError> {
    let me = std::env::current_exe()?;
    let against = time_against(&me, path, records, variant, command)?;
    timings(path, records.len(), &against.times, tables)?;
    Ok(judgement(path, records, against.verdicts, tables)?)
}

/// The table of the three timings (`times`: each command's name and best
/// time) on `path`'s `count` records, and the ratio of ours on one
/// thread to the outside command's.
fn timings(
    path: &Path,
    count: usize,
    times: &[(String, Duration); 3],
    tables: &mut Tables<'_>,
) -> std::io::Result<()> {
    let title = format!(
        "whole process, {} in {} (best of 3)",
        postfacto::notation::plural(count, "record"),
        path.display()
    );
    tables.section("against", &title)?;
    // As wide as the longest command, so that a long one keeps the columns.
    let width = times
        .iter()
        .map(|(name, _)| name.chars().count())
        .max()
        .unwrap_or(0)
        .max(40);
    tables.columns(&[("command", width), ("seconds", 8), ("us_per_record", 13)])?;
    for (name, t) in times {
        tables.row(&[
            Cell::Text(name.to_string()),
            Cell::Num(t.as_secs_f64(), 3),
            Cell::Num(t.as_secs_f64() * 1e6 / count.max(1) as f64, 1),
        ])?;
    }
    let ratio = times[0].1.as_secs_f64() / times[2].1.as_secs_f64();
    tables.note(
        "ratio",
        &format!("ratio postfacto (1 thread) / outside command: {ratio:.2}"),
        serde_json::json!({"ratio": (ratio * 100.0).round() / 100.0}),
    )
}

/// The notes on the outside command's answers: how many the replayer
/// accepts and each it rejects, or why they could not be judged; whether
/// all were accepted.
fn judgement(
    path: &Path,
    records: &[Record],
    judged: Result<Vec<Option<String>>, UnjudgedError>,
    tables: &mut Tables<'_>,
) -> std::io::Result<bool> {
    match judged {
        Ok(verdicts) => {
            let accepted = verdicts.iter().filter(|v| v.is_none()).count();
            let text = format!(
                "outside command's answers accepted by the replayer: {accepted} of {}",
                records.len()
            );
            let fields = serde_json::json!({"accepted": accepted, "records": records.len()});
            tables.note("judged", &text, fields)?;
            rejections(path, records, &verdicts, tables)?;
            Ok(accepted == records.len())
        }
        Err(why) => {
            let text = format!("outside command's answers not judged: {why}");
            let fields = serde_json::json!({"accepted": null, "records": records.len()});
            tables.note("judged", &text, fields)?;
            Ok(false)
        }
    }
}

/// Checks that an outside command (`--against`) names a program that exists.
pub fn outside_program(command: &[String]) -> Result<(), Failure> {
    match command.first() {
        Some(program) if postfacto::solve::program_exists(program) => Ok(()),
        program => Err(fail(
            Status::BadInput,
            format!(
                "--against: cannot find the program '{}'",
                program.map_or("", String::as_str)
            ),
        )),
    }
}
