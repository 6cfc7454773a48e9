//! Whole-process timings against an outside command (`bench --against`,
//! `compare --against`): `postfacto solve` on one thread and on all cores,
//! then the command, each on the same file of records, best of three runs.
//! The command's answers are judged by the native replayer, so a fast
//! solver that prints wrong boards does not pass unnoticed.

use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use postfacto::notation::{parse_answers_on, Record};
use postfacto::replay::judge;
use postfacto::rules::Variant;

use super::tables::{Cell, Tables};
use super::{fail, Failure, Status};

/// Why a timing against an outside command could not be made.
#[derive(Debug, thiserror::Error)]
pub enum AgainstError {
    /// `--against` named no program.
    #[error("--against needs a command")]
    NoCommand,
    /// A process could not be started.
    #[error("cannot run: {0}")]
    Spawn(#[source] std::io::Error),
    /// A process failed.
    #[error("exited with {0}")]
    Exited(ExitStatus),
    /// The outside command's runs failed.
    #[error("--against '{command}': {source}")]
    Outside {
        /// The command, as given.
        command: String,
        /// What went wrong.
        #[source]
        source: Box<AgainstError>,
    },
    /// This program cannot be found, or the tables cannot be written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Why the outside command's answers cannot be judged.
#[derive(Debug, thiserror::Error)]
enum UnjudgedError {
    #[error("its output is not text")]
    NotText,
    #[error("its output: {0}")]
    Answers(#[from] postfacto::notation::ParseAnswerError),
    #[error("it printed {answers} answers for {records} records")]
    Count { answers: usize, records: usize },
}

/// Splits a command line given as one string ("prog --flag") into words.
pub fn command_words(command: &str) -> Vec<String> {
    command.split_whitespace().map(str::to_string).collect()
}

/// The best of three runs of `make()`, with the last run's standard output.
fn best_of_three(make: &dyn Fn() -> Command) -> Result<(Duration, Vec<u8>), AgainstError> {
    let mut best = Duration::MAX;
    let mut stdout = Vec::new();
    for _ in 0..3 {
        let started = Instant::now();
        let output = make()
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .map_err(AgainstError::Spawn)?;
        best = best.min(started.elapsed());
        if !output.status.success() {
            return Err(AgainstError::Exited(output.status));
        }
        stdout = output.stdout;
    }
    Ok((best, stdout))
}

/// The replayer's verdict on each of `answers` (the outside command's
/// output) for `records`: `None` accepted, else why not; or why they
/// cannot be read.
fn judged(
    records: &[Record],
    variant: Variant,
    answers: &[u8],
) -> Result<Vec<Option<String>>, UnjudgedError> {
    let text = std::str::from_utf8(answers).map_err(|_| UnjudgedError::NotText)?;
    let answers = parse_answers_on(text, variant.topology())?;
    if answers.len() != records.len() {
        return Err(UnjudgedError::Count {
            answers: answers.len(),
            records: records.len(),
        });
    }
    let rules = variant.rules();
    Ok(records
        .iter()
        .zip(&answers)
        .map(|(record, answer)| judge(rules, record, answer).err().map(|r| r.to_string()))
        .collect())
}

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
    let (program, args) = command.split_first().ok_or(AgainstError::NoCommand)?;
    let me = std::env::current_exe()?;
    let ours = |threads: Option<&'static str>| {
        let me = me.clone();
        move || {
            let mut c = Command::new(&me);
            c.args(["solve", "--quiet", "--rules", variant.name()])
                .arg(path);
            if let Some(t) = threads {
                c.env("RAYON_NUM_THREADS", t);
            }
            c
        }
    };
    let (one, _) = best_of_three(&ours(Some("1")))?;
    let (all, _) = best_of_three(&ours(None))?;
    let (theirs, answers) = best_of_three(&|| {
        let mut c = Command::new(program);
        c.args(args).arg(path);
        c
    })
    .map_err(|e| AgainstError::Outside {
        command: command.join(" "),
        source: Box::new(e),
    })?;
    let outside = command.join(" ");
    let times = [
        ("postfacto solve, 1 thread", one),
        ("postfacto solve, all cores", all),
        (outside.as_str(), theirs),
    ];
    timings(path, records.len(), &times, tables)?;
    let judged = judged(records, variant, &answers);
    Ok(judgement(path, records, judged, tables)?)
}

/// The table of the three timings (`times`: each command's name and best
/// time) on `path`'s `count` records, and the ratio of ours on one
/// thread to the outside command's.
fn timings(
    path: &Path,
    count: usize,
    times: &[(&str, Duration); 3],
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
