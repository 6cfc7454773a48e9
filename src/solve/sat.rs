//! The SAT engine: encode, solve, read the start board off the model.

use varisat::{CnfFormula, Solver};

use crate::encode::{encode_english, encode_russian, unit_facts, vars};
use crate::notation::{Answer, Record};
use crate::replay::replay;
use crate::rules::Variant;

use super::{Found, SolveError, SolveStats};
use crate::sat::lucky_model;

/// The SAT engine's shortcut: the start board of the facts the moves state
/// by themselves (see [`unit_facts`]), *false* everywhere else, replayed by
/// the native replayer. `None` when it does not replay.
///
/// It decides most records without writing a formula. When it answers, the
/// answer is the one the full engine would give: every fact is forced, so
/// any start board that replays has all of them, and a board that has
/// nothing more is the lucky assignment of the full formula, which the
/// encoder would have handed to the lucky check first. When it does not,
/// nothing is lost but the time of one replay; the full engine follows.
pub fn solve_by_unit_facts(record: &Record, variant: Variant) -> Option<Answer> {
    let start = unit_facts(variant, record).ok()?.lucky_board();
    let rules = variant.rules();
    if !rules.start_problems(&start).is_empty() {
        return None;
    }
    let end = replay(rules, &start, record).ok()?;
    Some(Answer { start, end })
}

/// Finds a start board for `record` with the English encoding and varisat.
///
/// The formula is first checked against the [lucky assignment](crate::sat::lucky);
/// varisat is called only when that does not satisfy it.
///
/// # Errors
/// [`SolveError`] if varisat fails.
pub fn solve_sat(record: &Record) -> Result<Found, SolveError> {
    solve_sat_with(record, Variant::English)
}

/// [`solve_sat`] under the rules of `variant`.
///
/// # Errors
/// [`SolveError`] if varisat fails.
pub fn solve_sat_with(record: &Record, variant: Variant) -> Result<Found, SolveError> {
    let mut formula = CnfFormula::new();
    let encoded = match variant {
        Variant::English => encode_english(record, &mut formula),
        Variant::Russian => encode_russian(record, &mut formula),
    };
    let mut stats = SolveStats {
        vars: encoded.stats.vars,
        clauses: encoded.stats.clauses,
        ..SolveStats::default()
    };
    if let Some(c) = encoded.contradiction {
        let reason = format!("ply {} ({}): {}", c.ply, record.moves[c.ply - 1], c.reason);
        return Ok(Found::Impossible(Some(reason), stats));
    }
    if let Some(model) = lucky_model(&formula) {
        stats.lucky = true;
        return Ok(Found::Start(vars::decode(&model), stats));
    }
    let mut solver = Solver::new();
    solver.add_formula(&formula);
    match solver.solve() {
        Ok(true) => {
            let model = solver
                .model()
                .ok_or_else(|| SolveError::Internal("varisat said SAT but gave no model".into()))?;
            Ok(Found::Start(vars::decode(&model), stats))
        }
        Ok(false) => Ok(Found::Impossible(None, stats)),
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_records;
    use crate::rules::English;

    fn solved(text: &str) -> (crate::board::Board, SolveStats) {
        let record = &parse_records(text).expect("valid record")[0];
        match solve_sat(record).expect("varisat works") {
            Found::Start(start, stats) => {
                replay(&English, &start, record).expect("the model replays");
                (start, stats)
            }
            other => panic!("expected a start board, got {other:?}"),
        }
    }

    #[test]
    fn most_records_are_satisfied_by_the_lucky_assignment() {
        let (_, stats) = solved("B 2\n9-13\n22-18\n");
        assert!(stats.lucky);
    }

    #[test]
    fn varisat_takes_over_when_the_lucky_assignment_fails() {
        // After 2x9 Black's man must not be able to jump on, which needs a
        // piece the unit clauses do not name: not the all-false assignment.
        let (_, stats) = solved("B 2\n2x9\n14x5\n");
        assert!(!stats.lucky);
    }
}
