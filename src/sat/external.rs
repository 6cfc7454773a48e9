//! Outside SAT solvers: write a formula as DIMACS into a private temporary
//! file, run any SAT-competition style solver on it in its own process
//! group, and read its verdict and model from the `s` and `v` lines.
//!
//! A time limit kills the whole process group (a wrapper script's children
//! too); the temporary file is removed when it goes out of scope, on an
//! error or a panic as well.

use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use varisat::Lit;

use super::{AnnotatedCnf, SatError};

/// What a solver's output says.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// `s SATISFIABLE`, with the literals of its `v` lines.
    Satisfiable(Vec<Lit>),
    /// `s UNSATISFIABLE`.
    Unsatisfiable,
    /// `s UNKNOWN`: the solver gave up.
    Unknown,
}

/// Why an outside solver's output makes no sense.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolverOutputError {
    /// A `v` line holds something else than literals.
    #[error("{0:?} is not a literal")]
    NotALiteral(String),
    /// An `s` line of an unknown verdict.
    #[error("the solver says 's {0}'")]
    UnknownStatus(String),
    /// No `s` line at all.
    #[error("the solver printed no 's' line")]
    NoStatus,
}

/// Reads SAT-competition output: one `s` line, and `v` lines ending with 0.
///
/// # Errors
/// When there is no `s` line, an unknown one, or a `v` line holds something
/// else than literals.
pub fn parse_solver_output(text: &str) -> Result<Verdict, SolverOutputError> {
    let mut status = None;
    let mut model = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("s ") {
            status = Some(rest.trim().to_string());
        } else if let Some(rest) = line.strip_prefix("v ").or(line.strip_prefix("v\t")) {
            for word in rest.split_whitespace() {
                let value: isize = word
                    .parse()
                    .map_err(|_| SolverOutputError::NotALiteral(word.to_string()))?;
                if value != 0 {
                    model.push(Lit::from_dimacs(value));
                }
            }
        }
    }
    match status.as_deref() {
        Some("SATISFIABLE") => Ok(Verdict::Satisfiable(model)),
        Some("UNSATISFIABLE") => Ok(Verdict::Unsatisfiable),
        Some("UNKNOWN") => Ok(Verdict::Unknown),
        Some(other) => Err(SolverOutputError::UnknownStatus(other.to_string())),
        None => Err(SolverOutputError::NoStatus),
    }
}

/// The true literals of a model: a solver's `v` lines under `s
/// SATISFIABLE`, or, with no `s` line, every number of the text (the
/// literals alone; `c` lines skipped). `None` when the solver said
/// UNSATISFIABLE or UNKNOWN.
///
/// # Errors
/// A word that is not a literal, or an `s` line of no known status.
pub fn parse_model(text: &str) -> Result<Option<Vec<Lit>>, SolverOutputError> {
    if text.lines().any(|l| l.trim_start().starts_with("s ")) {
        return match parse_solver_output(text)? {
            Verdict::Satisfiable(model) => Ok(Some(model)),
            _ => Ok(None),
        };
    }
    let mut model = Vec::new();
    let words = text
        .lines()
        .filter(|l| !l.starts_with('c'))
        .flat_map(str::split_whitespace);
    for word in words {
        let word = word.strip_prefix('v').unwrap_or(word);
        if word.is_empty() {
            continue;
        }
        let value: isize = word
            .parse()
            .map_err(|_| SolverOutputError::NotALiteral(word.to_string()))?;
        if value != 0 {
            model.push(Lit::from_dimacs(value));
        }
    }
    Ok(Some(model))
}

/// Runs the outside solver `command` (program and arguments; the DIMACS
/// file's path is added last) on `cnf` and reads its verdict. With a
/// `limit`, a solver still running when it passes is killed with its whole
/// process group, and the answer is [`SatError::Undecided`].
///
/// # Errors
/// [`SatError`]: the file cannot be written, the solver cannot be run, its
/// output makes no sense, or the limit passed.
pub fn run_solver(
    command: &[String],
    cnf: &AnnotatedCnf,
    limit: Option<Duration>,
) -> Result<Verdict, SatError> {
    run_solver_proving(command, cnf, limit, None)
}

/// [`run_solver`] that asks the solver for a DRAT proof written to
/// `proof`: its path is given after the formula's, as CaDiCaL, Kissat and
/// most SAT-competition solvers take it.
///
/// # Errors
/// As [`run_solver`].
pub fn run_solver_proving(
    command: &[String],
    cnf: &AnnotatedCnf,
    limit: Option<Duration>,
    proof: Option<&std::path::Path>,
) -> Result<Verdict, SatError> {
    let (program, args) = command
        .split_first()
        .ok_or_else(|| SatError::OutsideSolver {
            program: String::new(),
            problem: "the --solver command is empty".into(),
        })?;
    let problem = |problem: String| SatError::OutsideSolver {
        program: program.clone(),
        problem,
    };
    let file = formula_file(cnf)?;
    let mut process = Command::new(program);
    process
        .args(args)
        .arg(file.path())
        .args(proof)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut process, 0);
    let mut child = process
        .spawn()
        .map_err(|e| problem(format!("cannot run it: {e}")))?;
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let finished = wait_until(&mut child, limit.map(|l| Instant::now() + l))
        .map_err(|e| problem(format!("cannot wait for it: {e}")))?;
    // Its children may still hold the pipe open: end the whole group.
    kill_group(&child);
    if finished.is_none() {
        let _ = child.wait();
        let _ = reader.join();
        let limit = super::in_seconds(limit.unwrap_or_default());
        return Err(SatError::Undecided(format!(
            "the solver '{program}' gave no answer within the limit of {limit}; it was stopped"
        )));
    }
    let bytes = reader
        .join()
        .map_err(|_| problem("its output could not be read".into()))?;
    parse_solver_output(&String::from_utf8_lossy(&bytes)).map_err(|e| problem(e.to_string()))
}

/// The formula written where the outside solver reads it: a private file
/// (mode 0600, an unpredictable name), removed when dropped.
fn formula_file(cnf: &AnnotatedCnf) -> Result<tempfile::NamedTempFile, SatError> {
    let io_failed = |e: std::io::Error| SatError::Io {
        what: "the formula for the outside solver".into(),
        message: e.to_string(),
    };
    let mut file = tempfile::Builder::new()
        .prefix("postfacto-")
        .suffix(".cnf")
        .tempfile()
        .map_err(io_failed)?;
    let mut text = Vec::new();
    cnf.write_dimacs(&mut text).map_err(io_failed)?;
    file.write_all(&text)
        .and_then(|()| file.flush())
        .map_err(io_failed)?;
    Ok(file)
}

/// Waits for `child`, until `deadline` at most; `None` if it is still running then.
fn wait_until(child: &mut Child, deadline: Option<Instant>) -> std::io::Result<Option<ExitStatus>> {
    let Some(deadline) = deadline else {
        return child.wait().map(Some);
    };
    let mut pause = Duration::from_millis(1);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        let now = Instant::now();
        if now >= deadline {
            return Ok(None);
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// Kills the process group `child` leads (no error if it is gone already).
fn kill_group(child: &Child) {
    #[cfg(unix)]
    {
        use nix::sys::signal::{killpg, Signal};
        use nix::unistd::Pid;
        if let Ok(id) = i32::try_from(child.id()) {
            let _ = killpg(Pid::from_raw(id), Signal::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = child;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_competition_output() {
        let text = "c comment\ns SATISFIABLE\nv 1 -2 3\nv -4 0\n";
        let l = Lit::from_dimacs;
        assert_eq!(
            parse_solver_output(text),
            Ok(Verdict::Satisfiable(vec![l(1), l(-2), l(3), l(-4)]))
        );
        assert_eq!(
            parse_solver_output("s UNSATISFIABLE\n"),
            Ok(Verdict::Unsatisfiable)
        );
        assert!(parse_solver_output("nothing\n").is_err());
        assert_eq!(parse_solver_output("s UNKNOWN\n"), Ok(Verdict::Unknown));
        assert!(parse_solver_output("s MAYBE\n").is_err());
        assert!(parse_solver_output("s SATISFIABLE\nv x 0\n").is_err());
    }
}
