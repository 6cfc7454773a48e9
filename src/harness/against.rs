//! Whole-process timings against an outside command (`bench --against`,
//! `compare --against`): `postfacto solve` on one thread and on all cores,
//! then the command, each on the same file of records, best of three runs.
//! The command's answers are judged by the native replayer, so a fast
//! solver that prints wrong boards does not pass unnoticed.

use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::notation::{parse_answers_on, ParseAnswerError, Record};
use crate::replay::judge;
use crate::rules::Variant;

/// Why a timing against an outside command could not be made.
#[derive(Debug, thiserror::Error)]
pub enum AgainstError {
    /// `--against` named no program.
    #[error("--against needs a command")]
    NoCommand,
    /// A process could not be started.
    #[error("cannot run: {0}")]
    Spawn(#[source] std::io::Error),
    /// A process failed: its exit status and the first line it wrote on
    /// standard error (empty if none), so a user sees why without running it.
    #[error("failed ({status}){}", said_suffix(said))]
    Exited {
        /// How it ended (`exit status: 1`, `signal: 9`).
        status: ExitStatus,
        /// The first non-empty line of its standard error.
        said: String,
    },
    /// The outside command's runs failed.
    #[error("--against '{command}' on {}: {source}", file.display())]
    Outside {
        /// The command, as given.
        command: String,
        /// The file it was given.
        file: std::path::PathBuf,
        /// What went wrong.
        #[source]
        source: Box<AgainstError>,
    },
    /// The outside program cannot be found.
    #[error("--against: cannot find the program '{0}'")]
    NotFound(String),
    /// The records to time could not be generated.
    #[error(transparent)]
    Generate(#[from] super::GenerateError),
    /// This program cannot be found, or the tables cannot be written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Checks that an outside command (`--against`) names a program that exists.
///
/// # Errors
/// [`AgainstError::NotFound`], with the program's name (empty for none).
pub fn find_program(command: &[String]) -> Result<(), AgainstError> {
    match command.first() {
        Some(program) if crate::solve::program_exists(program) => Ok(()),
        program => Err(AgainstError::NotFound(
            program.map_or_else(String::new, String::clone),
        )),
    }
}

/// Why the outside command's answers cannot be judged.
#[derive(Debug, thiserror::Error)]
pub enum UnjudgedError {
    /// Its output is not UTF-8.
    #[error("its output is not text")]
    NotText,
    /// Its output is not answers.
    #[error("its output: {0}")]
    Answers(#[from] ParseAnswerError),
    /// Not one answer per record.
    #[error("it printed {answers} answers for {records} records")]
    Count {
        /// Answers printed.
        answers: usize,
        /// Records given.
        records: usize,
    },
}

/// The three timings of one file and the replayer's verdicts on the
/// outside command's answers.
#[derive(Debug)]
pub struct Against {
    /// Each command's name and best time: ours on one thread, ours on all
    /// cores, the outside command.
    pub times: [(String, Duration); 3],
    /// Per record: `None` accepted, else why not; or why the answers
    /// cannot be read.
    pub verdicts: Result<Vec<Option<String>>, UnjudgedError>,
}

/// Splits a command line given as one string ("prog --flag") into words.
pub fn command_words(command: &str) -> Vec<String> {
    command.split_whitespace().map(str::to_string).collect()
}

/// Times `me solve` (this program: one thread, all cores) and `command`
/// (the file's path added last) on the records of `path`, and judges the
/// command's answers.
///
/// # Errors
/// A process that cannot be run or fails.
pub fn time_against(
    me: &Path,
    path: &Path,
    records: &[Record],
    variant: Variant,
    command: &[String],
) -> Result<Against, AgainstError> {
    let (program, args) = command.split_first().ok_or(AgainstError::NoCommand)?;
    let ours = |threads: Option<&'static str>| {
        move || {
            let mut c = Command::new(me);
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
    let outside = command.join(" ");
    let (theirs, answers) = best_of_three(&|| {
        let mut c = Command::new(program);
        c.args(args).arg(path);
        c
    })
    .map_err(|e| AgainstError::Outside {
        command: outside.clone(),
        file: path.to_path_buf(),
        source: Box::new(e),
    })?;
    Ok(Against {
        times: [
            ("postfacto solve, 1 thread".to_string(), one),
            ("postfacto solve, all cores".to_string(), all),
            (outside, theirs),
        ],
        verdicts: judged(records, variant, &answers),
    })
}

/// The best of three runs of `make()`, with the last run's standard output.
fn best_of_three(make: &dyn Fn() -> Command) -> Result<(Duration, Vec<u8>), AgainstError> {
    let mut best = Duration::MAX;
    let mut stdout = Vec::new();
    for _ in 0..3 {
        let started = Instant::now();
        let output = make()
            .stdin(Stdio::null())
            .output()
            .map_err(AgainstError::Spawn)?;
        best = best.min(started.elapsed());
        if !output.status.success() {
            return Err(AgainstError::Exited {
                status: output.status,
                said: first_line(&output.stderr),
            });
        }
        stdout = output.stdout;
    }
    Ok((best, stdout))
}

/// The first non-empty line of a process's error output, trimmed.
fn first_line(stderr: &[u8]) -> String {
    String::from_utf8_lossy(stderr)
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or_default()
        .to_string()
}

/// `: it said "..."` after a failed process's status, or nothing.
fn said_suffix(said: &str) -> String {
    if said.is_empty() {
        String::new()
    } else {
        format!(": it said \"{said}\"")
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_records;

    #[test]
    fn answers_are_judged_one_per_record() {
        let records = parse_records("B 1\n11-15\n").unwrap();
        let answer = "-.-.-.-. -.-.-.-.\n.-.-.-.- .-.-.-.-\n".repeat(4);
        let twice = judged(
            &records,
            Variant::English,
            format!("{answer}\n{answer}").as_bytes(),
        );
        assert!(
            matches!(
                twice,
                Err(UnjudgedError::Count {
                    answers: 2,
                    records: 1
                })
            ),
            "{twice:?}"
        );
        let rejected = judged(&records, Variant::English, answer.as_bytes()).unwrap();
        assert!(rejected[0].is_some(), "an empty board cannot play 11-15");
        let not_text = judged(&records, Variant::English, &[0xff, 0xfe]);
        assert!(matches!(not_text, Err(UnjudgedError::NotText)));
    }
}
