//! SAT pieces that know nothing of draughts, shared by every puzzle the tool
//! encodes (the draughts reconstruction and the pawn-capture puzzle).
//!
//! - [`lucky`]: try "units, false elsewhere" before calling the solver;
//! - [`AnnotatedCnf`]: a formula with named variables and clause groups,
//!   written as readable DIMACS;
//! - [`minimal_core`]: shrink a failed set of assumptions to a minimal one;
//! - [`Optimizer`]: minimise a count of true literals with rustsat's
//!   incremental totalizer, the last call (one lower) proving optimality;
//! - [`minimize_true`]: the same by unsatisfiable cores (OLL), for large
//!   problems where one totalizer over everything is too big;
//! - [`prove_unsat`] and [`check_drat`]: certificates of unsatisfiability;
//! - [`run_solver`]: an outside SAT-competition solver on a DIMACS file;
//! - [`within`], [`under`] and [`new_solver`]: time limits that stop the
//!   work, varisat's search included;
//! - [`propagate_units`] and [`split`]: what unit clauses force, and the
//!   parts of the rest that share no variable.
//!
//! Nothing here depends on the rest of the crate, so every layer may use it.

mod core;
mod deadline;
mod dimacs;
mod external;
pub mod lucky;
mod oll;
mod optimize;
mod proof;
mod smallest;
mod split;
mod units;

pub use self::core::{minimal_core, minimal_core_within};
pub use self::smallest::{smallest_core_within, SmallestCore};
pub use deadline::{
    current_deadline, earlier, in_seconds, new_budgeted_solver, new_solver, out_of_time,
    stopped_by_deadline, under, within, DeadlinePassed, StopAt,
};
pub use dimacs::{AnnotatedCnf, GroupedClauses};
pub use external::{
    parse_model, parse_solver_output, run_solver, run_solver_proving, SolverOutputError, Verdict,
};
pub use lucky::lucky_model;
pub use oll::{minimize_true, CoreGuided};
pub use optimize::{at_most, bound_clauses, counter, from_rs, to_rs, totalizer, Optimizer};
pub use proof::{binary_drat_to_text, check_drat, prove_unsat, DratError};
pub use split::{lift, split, Part};
pub use units::{propagate_units, refuted_by_units, Propagated};

/// The SAT machinery gave no answer: never a wrong one. Callers tell
/// "undecided" (a limit, `s UNKNOWN`: exit 3) from failures (exit 4).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SatError {
    /// varisat failed (its error kept as the source).
    Varisat(VarisatFailure),
    /// rustsat refused a cardinality encoding.
    Totalizer(String),
    /// A file (a proof, a formula for an outside solver) could not be written.
    Io {
        /// What was being written, e.g. "the proof".
        what: String,
        /// The operating system's message.
        message: String,
    },
    /// An outside solver could not be run, or its output makes no sense.
    OutsideSolver {
        /// The program.
        program: String,
        /// What went wrong.
        problem: String,
    },
    /// No verdict: a time limit passed, or the solver said `s UNKNOWN`.
    Undecided(String),
    /// The machinery contradicted itself: a bug.
    Inconsistent(String),
}

impl SatError {
    /// A limit or the solver's own "unknown", not a failure.
    pub fn is_undecided(&self) -> bool {
        matches!(self, SatError::Undecided(_))
    }
}

impl std::fmt::Display for SatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SatError::Varisat(e) => write!(f, "varisat failed: {e}"),
            SatError::Totalizer(e) => write!(f, "totalizer: {e}"),
            SatError::Io { what, message } => write!(f, "cannot write {what}: {message}"),
            SatError::OutsideSolver { program, problem } => {
                write!(f, "solver '{program}': {problem}")
            }
            SatError::Undecided(why) => f.write_str(why),
            SatError::Inconsistent(what) => f.write_str(what),
        }
    }
}

impl From<varisat::solver::SolverError> for SatError {
    fn from(e: varisat::solver::SolverError) -> SatError {
        if stopped_by_deadline(&e) {
            return SatError::Undecided("the time limit passed before a verdict".into());
        }
        SatError::Varisat(VarisatFailure(std::sync::Arc::new(e)))
    }
}

impl std::error::Error for SatError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SatError::Varisat(failure) => Some(&*failure.0),
            _ => None,
        }
    }
}

/// varisat's own error, shared so that a [`SatError`] stays cheap to
/// clone; two are equal when they say the same.
#[derive(Clone, Debug)]
pub struct VarisatFailure(pub std::sync::Arc<varisat::solver::SolverError>);

impl PartialEq for VarisatFailure {
    fn eq(&self, other: &VarisatFailure) -> bool {
        self.0.to_string() == other.0.to_string()
    }
}

impl Eq for VarisatFailure {}

impl std::fmt::Display for VarisatFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// A formula from clauses of DIMACS numbers, for tests.
#[cfg(test)]
pub(crate) fn formula_of(clauses: &[&[isize]]) -> varisat::CnfFormula {
    use varisat::ExtendFormula;
    let mut f = varisat::CnfFormula::new();
    for c in clauses {
        let lits: Vec<varisat::Lit> = c.iter().map(|&d| varisat::Lit::from_dimacs(d)).collect();
        f.add_clause(&lits);
    }
    f
}
