//! Solving with an outside SAT solver: write the formula `postfacto cnf`
//! would print as DIMACS, run any SAT-competition style solver on it, read
//! the model back from its `s` and `v` lines, and go on exactly as with
//! varisat: the model is replayed, and one the replayer rejects adds its
//! clause before the solver runs again.

use std::time::Duration;

use crate::encode::{dimacs_encoded, BoardFacts};
use crate::notation::Record;
use crate::rules::Variant;
use crate::sat::{run_solver, SatError, Verdict};

use super::formula::{Formula, Refined};
use super::refine::Check;
use super::{sat, Outcome, SolveError, SolveStats};

/// Reconstructs `record` (bound by what is `known` of the boards) with the
/// outside solver `command` (program and arguments; the DIMACS file's path
/// is added last), killed with its process group if `limit` passes first.
///
/// # Errors
/// [`SolveError`] if the solver cannot be run or its output makes no sense.
pub fn solve_external(
    variant: Variant,
    record: &Record,
    known: BoardFacts,
    command: &[String],
    limit: Option<Duration>,
) -> Result<Outcome, SolveError> {
    let (mut cnf, encoded) = dimacs_encoded(record, variant, known);
    let formula = Formula {
        variant,
        record: record.clone(),
        known,
        encoded,
    };
    let refiner = formula.refiner();
    let mut stats = SolveStats {
        vars: cnf.formula().var_count(),
        clauses: cnf.formula().len(),
        ..SolveStats::default()
    };
    if let Some(c) = formula.contradiction() {
        let reason = Some(sat::contradiction_reason(c, record));
        return Ok(Outcome::Impossible { reason, stats });
    }
    loop {
        let model = match run_solver(command, &cnf, limit) {
            Ok(Verdict::Satisfiable(model)) => model,
            Ok(Verdict::Unsatisfiable) => return Ok(sat::outcome(record, None, stats)),
            Ok(Verdict::Unknown) => {
                let reason = "the solver says 's UNKNOWN'".to_string();
                return Ok(Outcome::GaveUp { reason, stats });
            }
            Err(SatError::Undecided(reason)) => return Ok(Outcome::GaveUp { reason, stats }),
            Err(e) => return Err(e.into()),
        };
        match refiner.check(&model)? {
            Check::Answer { start, filled, end } => {
                let refined = Refined {
                    model,
                    start,
                    filled,
                    end,
                };
                return Ok(sat::outcome(record, Some(refined), stats));
            }
            Check::Deepen { ply, .. } => return Err(SolveError::OutsideFormulaDeepened(ply)),
            Check::Learn { ply, clause, .. } => {
                cnf.begin_group(format!(
                    "learned at ply {ply} from a model the replayer rejected"
                ));
                cnf.add_clause(&clause);
                stats.learned += 1;
                stats.clauses += 1;
            }
        }
    }
}

/// Whether `program` names an existing file, directly or through `PATH`
/// (an outside solver is checked before any record is read).
pub fn program_exists(program: &str) -> bool {
    if program.contains('/') {
        return std::path::Path::new(program).is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}
