//! The SAT engine: encode, solve, read the start board off the model.

use varisat::{CnfFormula, Solver};

use crate::board::{Color, Piece, Role, Square};
use crate::encode::vars::{self, Fact};
use crate::encode::{encode_english, encode_russian, unit_facts, KnownFacts};
use crate::notation::{Answer, Record};
use crate::replay::{replay, ReplayError};
use crate::rules::Variant;
use crate::rules::Violation;

use super::{Found, SolveError, SolveStats};
use crate::sat::lucky_model;

/// How many blockers [`solve_by_unit_facts`] adds before it gives up.
const MAX_BLOCKERS: usize = 8;

/// The SAT engine's shortcut: the start board of the facts the moves state
/// by themselves (see [`unit_facts`]), *false* everywhere else, replayed by
/// the native replayer; `None` when that does not lead to an answer.
///
/// A replay that fails because a jump would be available over a square the
/// board leaves empty only by default is repaired once per such square: if
/// the jumping piece and the jumped one stand there whatever the start board
/// (forced facts, or pieces the moves brought), the landing square must hold
/// a piece at the start, and it gets one (a black man, the default colour
/// and kind) before the next replay.
///
/// Every piece this puts on the board is forced, so any start board that
/// replays has them all. When the shortcut answers, the answer is therefore
/// the board of the forced pieces with nothing more: exactly the lucky
/// assignment of the full formula whenever that satisfies it. When it does
/// not answer, the full engine runs as before, and nothing is lost but a
/// few replays.
pub fn solve_by_unit_facts(record: &Record, variant: Variant) -> Option<Answer> {
    let facts = unit_facts(variant, record).ok()?;
    let mut start = facts.lucky_board();
    let rules = variant.rules();
    let mut blockers = 0u32;
    for _ in 0..=MAX_BLOCKERS {
        if !rules.start_problems(&start).is_empty() {
            return None;
        }
        match replay(rules, &start, record) {
            Ok(end) => return Some(Answer { start, end }),
            Err(e) => {
                let blocker = forced_blocker(record, &e, &facts, blockers)?;
                blockers |= blocker.bit();
                start.set(blocker, Some(Piece::new(Color::Black, Role::Man)));
            }
        }
    }
    None
}

/// The square that must hold a piece at the start because the jump that
/// `failure` names would otherwise be available (see [`solve_by_unit_facts`]).
fn forced_blocker(
    record: &Record,
    failure: &ReplayError,
    facts: &KnownFacts,
    blockers: u32,
) -> Option<Square> {
    let (from, landing) = match &failure.violation {
        Violation::CaptureAvailable { example } => (example.from(), example.path()[1]),
        Violation::MustContinue { at, to, .. } => (*at, *to),
        _ => return None,
    };
    let (dir, 2) = from.diagonal_to(landing)? else {
        return None;
    };
    let over = from.step(dir)?;
    let touched = touched_through(record, failure.ply);
    // The landing is empty only because the start board says nothing of it...
    let untouched = touched & landing.bit() == 0;
    let may_hold = facts.value_of(vars::lit(landing, Fact::Occupied, true)) != Some(false);
    // ...while the two pieces are there whatever the start board: brought
    // by the moves, or start pieces of known colour (not blockers, whose
    // colour is only the default).
    let forced = |sq: Square| {
        touched & sq.bit() != 0
            || blockers & sq.bit() == 0
                && facts.value_of(vars::lit(sq, Fact::White, true)).is_some()
    };
    (untouched && may_hold && forced(from) && forced(over)).then_some(landing)
}

/// The squares plies 1 to `ply` start from, pass over or land on.
fn touched_through(record: &Record, ply: usize) -> u32 {
    let mut touched = 0;
    for mv in record.moves.iter().take(ply) {
        touched |= mv.from().bit();
        for (a, b) in mv.steps() {
            let mut at = a;
            while at != b {
                let Some((dir, _)) = at.diagonal_to(b) else {
                    break;
                };
                let Some(next) = at.step(dir) else {
                    break;
                };
                at = next;
                touched |= at.bit();
            }
        }
    }
    touched
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
