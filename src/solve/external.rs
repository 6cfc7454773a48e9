//! Solving with an outside SAT solver: write the DIMACS file `postfacto cnf`
//! would print, run any SAT-competition style solver on it, read the model
//! back from its `s` and `v` lines, and go on exactly as with varisat.

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use varisat::Lit;

use crate::encode::{dimacs, vars};
use crate::notation::Record;
use crate::rules::Variant;

use super::{Found, InternalError, SolveStats};

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

/// Finds a start board with the outside solver `command` (program and
/// arguments; the DIMACS file's path is added last).
///
/// # Errors
/// [`InternalError`] if the solver cannot be run or its output makes no sense.
pub fn solve_external(
    record: &Record,
    variant: Variant,
    command: &[String],
) -> Result<Found, InternalError> {
    let (program, args) = command
        .split_first()
        .ok_or_else(|| InternalError("the --solver command is empty".into()))?;
    let cnf = dimacs(record, variant);
    let path = scratch_path();
    let mut text = Vec::new();
    cnf.write_dimacs(&mut text)
        .and_then(|()| std::fs::write(&path, &text))
        .map_err(|e| InternalError(format!("cannot write '{}': {e}", path.display())))?;
    let output = Command::new(program).args(args).arg(&path).output();
    let _ = std::fs::remove_file(&path);
    let output =
        output.map_err(|e| InternalError(format!("cannot run the solver '{program}': {e}")))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let verdict = parse_solver_output(&stdout)
        .map_err(|e| InternalError(format!("solver '{program}': {e}")))?;
    let formula = cnf.formula();
    let stats = SolveStats {
        vars: formula.var_count(),
        clauses: formula.len(),
        ..SolveStats::default()
    };
    Ok(match verdict {
        Verdict::Satisfiable(model) => Found::Start(vars::decode(&model), stats),
        Verdict::Unsatisfiable => Found::Impossible(None, stats),
    })
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
