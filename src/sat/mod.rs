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
//! - [`propagate_units`] and [`split`]: what unit clauses force, and the
//!   parts of the rest that share no variable.
//!
//! Nothing here depends on the rest of the crate, so every layer may use it.

mod core;
mod dimacs;
mod external;
pub mod lucky;
mod oll;
mod optimize;
mod proof;
mod split;
mod units;

pub use self::core::minimal_core;
pub use dimacs::{AnnotatedCnf, GroupedClauses};
pub use external::{parse_solver_output, run_solver, Verdict};
pub use lucky::lucky_model;
pub use oll::{minimize_true, CoreGuided};
pub use optimize::{at_most, bound_clauses, counter, from_rs, to_rs, totalizer, Optimizer};
pub use proof::{check_drat, prove_unsat};
pub use split::{lift, split, Part};
pub use units::{propagate_units, Propagated};

/// The SAT machinery failed (a solver error, an encoding error, I/O on a
/// proof or an outside solver): never an answer, always a bug or an
/// environment problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SatError(pub String);

impl std::fmt::Display for SatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SatError {}

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
