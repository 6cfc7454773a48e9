//! Solving with an outside SAT solver: write the DIMACS file `postfacto cnf`
//! would print, run any SAT-competition style solver on it, read the model
//! back from its `s` and `v` lines, and go on exactly as with varisat.

use std::time::Duration;

use crate::encode::dimacs_encoded;
use crate::notation::Record;
use crate::rules::Variant;
use crate::sat::{run_solver, Verdict};

use super::{Found, SolveError, SolveStats};

/// Finds a start board (bound by what is `known` of the boards) with the outside solver `command` (program and
/// arguments; the DIMACS file's path is added last), killed with its
/// process group if `limit` passes first.
///
/// # Errors
/// [`SolveError`] if the solver cannot be run or its output makes no sense.
pub fn solve_external(
    record: &Record,
    variant: Variant,
    known: crate::encode::BoardFacts,
    command: &[String],
    limit: Option<Duration>,
) -> Result<Found, SolveError> {
    let (mut cnf, encoded) = dimacs_encoded(record, variant, known)?;
    // Captures longer than a damaged ply's listing are left out: the outside
    // solver takes no assumptions, so "unsatisfiable" then proves nothing.
    let longer = encoded.longer_captures();
    if !longer.is_empty() {
        cnf.begin_group("longer captures than those listed are left out (encodings/damaged.md)");
        for &l in &longer {
            cnf.add_clause(&[!l]);
        }
    }
    let verdict = run_solver(command, &cnf, limit)?;
    let formula = cnf.formula();
    let stats = SolveStats {
        vars: formula.var_count(),
        clauses: formula.len(),
        ..SolveStats::default()
    };
    Ok(match verdict {
        Verdict::Satisfiable(model) => {
            super::sat::found_in(record, variant, &model, &encoded.damaged, stats)?
        }
        Verdict::Unsatisfiable if !longer.is_empty() => Found::GaveUp(
            "no filling with the captures listed works; longer ones are too many to list".into(),
            stats,
        ),
        Verdict::Unsatisfiable => Found::Impossible(None, stats),
        Verdict::Unknown => Found::GaveUp("the solver says 's UNKNOWN'".into(), stats),
    })
}
