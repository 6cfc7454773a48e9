//! Outside SAT solvers: write a formula as DIMACS, run any SAT-competition
//! style solver on it, and read its verdict and model from the `s` and `v`
//! lines.

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use varisat::Lit;

use super::{AnnotatedCnf, SatError};

/// What a solver's output says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `s SATISFIABLE`, with the literals of its `v` lines.
    Satisfiable(Vec<Lit>),
    /// `s UNSATISFIABLE`.
    Unsatisfiable,
}

/// Reads SAT-competition output: one `s` line, and `v` lines ending with 0.
///
/// # Errors
/// When there is no `s` line, or a `v` line holds something else than literals.
pub fn parse_solver_output(text: &str) -> Result<Verdict, String> {
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
                    .map_err(|_| format!("'{word}' on a v line is not a literal"))?;
                if value != 0 {
                    model.push(Lit::from_dimacs(value));
                }
            }
        }
    }
    match status.as_deref() {
        Some("SATISFIABLE") => Ok(Verdict::Satisfiable(model)),
        Some("UNSATISFIABLE") => Ok(Verdict::Unsatisfiable),
        Some(other) => Err(format!("the solver says 's {other}'")),
        None => Err("the solver printed no 's' line".into()),
    }
}

/// A file name no other call of this process uses.
fn scratch_path() -> std::path::PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("postfacto-{}-{n}.cnf", std::process::id()))
}

/// Runs the outside solver `command` (program and arguments; the DIMACS
/// file's path is added last) on `cnf` and reads its verdict.
///
/// # Errors
/// [`SatError`] if the file cannot be written, the solver cannot be run, or
/// its output makes no sense.
pub fn run_solver(command: &[String], cnf: &AnnotatedCnf) -> Result<Verdict, SatError> {
    let (program, args) = command
        .split_first()
        .ok_or_else(|| SatError("the --solver command is empty".into()))?;
    let path = scratch_path();
    let mut text = Vec::new();
    cnf.write_dimacs(&mut text)
        .and_then(|()| std::fs::write(&path, &text))
        .map_err(|e| SatError(format!("cannot write '{}': {e}", path.display())))?;
    let output = Command::new(program).args(args).arg(&path).output();
    let _ = std::fs::remove_file(&path);
    let output = output.map_err(|e| SatError(format!("cannot run the solver '{program}': {e}")))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    parse_solver_output(&stdout).map_err(|e| SatError(format!("solver '{program}': {e}")))
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
        assert!(parse_solver_output("s UNKNOWN\n").is_err());
        assert!(parse_solver_output("s SATISFIABLE\nv x 0\n").is_err());
    }
}
