//! The SAT engine: encode, solve with varisat, read the start board off the model.

use varisat::Solver;

use crate::encode::{encode_english, vars};
use crate::notation::Record;

use super::{Found, InternalError, SolveStats};

/// Finds a start board for `record` with the English encoding and varisat.
///
/// # Errors
/// [`InternalError`] if varisat fails.
pub fn solve_sat(record: &Record) -> Result<Found, InternalError> {
    let mut solver = Solver::new();
    let encoded = encode_english(record, &mut solver);
    let stats = SolveStats {
        vars: encoded.stats.vars,
        clauses: encoded.stats.clauses,
        nodes: 0,
    };
    if let Some(c) = encoded.contradiction {
        let reason = format!("ply {} ({}): {}", c.ply, record.moves[c.ply - 1], c.reason);
        return Ok(Found::Impossible(Some(reason), stats));
    }
    match solver.solve() {
        Ok(true) => {
            let model = solver
                .model()
                .ok_or_else(|| InternalError("varisat said SAT but gave no model".into()))?;
            Ok(Found::Start(vars::decode(&model), stats))
        }
        Ok(false) => Ok(Found::Impossible(None, stats)),
        Err(e) => Err(InternalError(format!("varisat failed: {e}"))),
    }
}
