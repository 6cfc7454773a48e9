//! The SAT engine: encode, solve, read the start board off the model.

use varisat::CnfFormula;

use crate::board::{Bits, Color, Piece, Role, Square};
use crate::encode::vars::{self, Fact};
use crate::encode::{unit_facts, BoardFacts, EncodeOptions};
use crate::notation::{Answer, Record};
use crate::replay::{replay, ReplayError};
use crate::rules::Variant;
use crate::rules::Violation;

use super::formula::{solve_canonically_with, Formula, Refined};
use super::{Outcome, Solution, SolveError, SolveStats};

/// How many blockers [`solve_by_unit_facts`] adds before it gives up.
const MAX_BLOCKERS: usize = 8;

/// The SAT engine's shortcut: the start board of the facts the moves state
/// by themselves (see [`unit_facts`]), empty everywhere else, replayed by
/// the native replayer, and repaired where a replay fails on a jump that
/// must not be there; `None` when that does not lead to an answer.
///
/// A repair is made only when it is forced: when the two pieces of the jump
/// stand there whatever the start board (brought by the moves, or start
/// pieces whose colour is known),
/// - and the landing square is untouched by the moves so far, it must hold
///   a piece at the start: it gets one (a *blocker*: of its known colour
///   and kind, else a black man, whose colour is then not known);
/// - and the landing is empty whatever the start board, but one of the two
///   pieces is of unknown colour (black by default), it must be white.
///
/// So every piece on the board is forced, and so is every white colour and
/// every king (black and man are the lucky defaults): any start board that
/// replays has them all. When the shortcut answers, its answer
/// is therefore the board of the forced facts with nothing more: exactly
/// the lucky assignment of the full formula whenever that satisfies it.
/// When it gives up, the full engine runs as before, and nothing is lost
/// but a few replays.
pub fn solve_by_unit_facts(record: &Record, variant: Variant) -> Option<Answer> {
    let facts = unit_facts(variant, record)?;
    let mut start = facts.lucky_board(variant.topology());
    let rules = variant.rules();
    // Blockers placed, and those whose colour is known (from the facts, or
    // forced white).
    let (mut blockers, mut colour_known) = (0 as Bits, 0 as Bits);
    for _ in 0..=2 * MAX_BLOCKERS {
        if !rules.start_problems(&start).is_empty() {
            return None;
        }
        let failure = match replay(rules, &start, record) {
            Ok(end) => return Some(Answer { start, end }),
            Err(failure) => failure,
        };
        let (from, over, landing) = failed_jump(&failure)?;
        let touched = touched_through(record, failure.ply);
        // A piece there whatever the start board, of a known colour.
        let forced = |sq: Square| {
            touched & sq.bit() != 0
                || colour_known & sq.bit() != 0
                || blockers & sq.bit() == 0
                    && facts.value_of(vars::lit(sq, Fact::White, true)).is_some()
        };
        let may_hold = facts.value_of(vars::lit(landing, Fact::Occupied, true)) != Some(false);
        let blockable = touched & landing.bit() == 0 && may_hold;
        match (forced(from), forced(over)) {
            (true, true) if blockable && (blockers.count_ones() as usize) < MAX_BLOCKERS => {
                blockers |= landing.bit();
                if facts
                    .value_of(vars::lit(landing, Fact::White, true))
                    .is_some()
                {
                    colour_known |= landing.bit();
                }
                start.set(landing, Some(facts.lucky_piece(landing)));
            }
            (true, false) | (false, true) if !blockable => {
                let piece = if forced(from) { over } else { from };
                colour_known |= piece.bit();
                // A known king stays one; a white man cannot start on row 0.
                let king =
                    start.get(piece).is_some_and(Piece::is_king) || piece.crowns(Color::White);
                let role = if king { Role::King } else { Role::Man };
                start.set(piece, Some(Piece::new(Color::White, role)));
            }
            _ => return None,
        }
    }
    None
}

/// The jumper's, the jumped and the landing square of the one-square jump
/// that `failure` says is available, if it says so.
fn failed_jump(failure: &ReplayError) -> Option<(Square, Square, Square)> {
    let (from, landing) = match &failure.violation {
        Violation::CaptureAvailable { example } => (example.from(), example.path()[1]),
        Violation::MustContinue { at, to, .. } => (*at, *to),
        _ => return None,
    };
    let (dir, 2) = from.diagonal_to(landing)? else {
        return None;
    };
    Some((from, from.step(dir)?, landing))
}

/// The squares plies 1 to `ply` start from, pass over or land on.
fn touched_through(record: &Record, ply: usize) -> Bits {
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

/// The SAT engine: the unit-facts shortcut for a clean record with
/// nothing else known, else the formula solved canonically (the lucky
/// assignment, then varisat, refining until a model replays).
///
/// # Errors
/// [`SolveError`] if varisat fails or a model breaks a rule the formula
/// states in full.
/// The searches' shortcuts to a verdict (see [`super::Reconstructor`]'s
/// `units_first` and `open_steps_first`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Shortcuts {
    pub units_first: bool,
    pub open_steps_first: bool,
}

pub(super) fn solve_sat(
    variant: Variant,
    record: &Record,
    known: BoardFacts,
    shortcuts: Shortcuts,
) -> Result<Outcome, SolveError> {
    if !record.is_damaged() && known.is_empty() {
        if let Some(answer) = solve_by_unit_facts(record, variant) {
            let stats = SolveStats {
                vars: crate::encode::vars::var_count(variant.topology()),
                lucky: true,
                shortcut: true,
                ..SolveStats::default()
            };
            return Ok(Outcome::Solved(Solution {
                answer,
                stats,
                filled: None,
            }));
        }
    }
    let mut cnf = CnfFormula::new();
    let mut formula = Formula::encode(variant, record, known, &mut cnf, EncodeOptions::default())?;
    let mut stats = SolveStats {
        vars: formula.vars(),
        clauses: formula.encoded.stats.clauses,
        ..SolveStats::default()
    };
    if let Some(c) = formula.contradiction() {
        return Ok(Outcome::Impossible {
            reason: Some(contradiction_reason(c, record)),
            stats,
        });
    }
    if shortcuts.units_first && crate::sat::refuted_by_units(&cnf) {
        return Ok(Outcome::Impossible {
            reason: None,
            stats,
        });
    }
    if let Some(layout) = formula.encoded.layout.as_mut() {
        layout.want_eager();
    }
    let canonical = solve_canonically_with(&mut formula, &cnf, shortcuts.open_steps_first)?;
    stats.lucky = canonical.lucky;
    // The eager clauses are the formula's, written late: handed to the
    // solver, not learned.
    stats.learned = canonical
        .learned
        .iter()
        .filter(|l| l.why != super::refine::EAGER_CLAUSE)
        .count();
    stats.clauses += canonical.learned.len();
    Ok(outcome(record, canonical.answer, stats))
}

/// The outcome of a solve that found `answer` (or none).
pub(super) fn outcome(record: &Record, answer: Option<Refined>, stats: SolveStats) -> Outcome {
    match answer {
        None => Outcome::Impossible {
            reason: None,
            stats,
        },
        Some(refined) => Outcome::Solved(Solution {
            answer: Answer {
                start: refined.start,
                end: refined.end,
            },
            stats,
            filled: record.is_damaged().then_some(refined.filled),
        }),
    }
}

/// Why a record is impossible on its face, in words: the ply (and its
/// move as written) or the fact.
pub(super) fn contradiction_reason(c: &crate::encode::Contradiction, record: &Record) -> String {
    let written = record.written_moves();
    match written.get(c.ply.wrapping_sub(1)) {
        Some(_) if matches!(c.rule, crate::encode::Rule::OneMove { .. }) => {
            format!("ply {}: {}", c.ply, c.reason)
        }
        Some(mv) if !c.rule.is_fact() => format!("ply {} ({mv}): {}", c.ply, c.reason),
        _ => format!("{}: {}", c.rule, c.reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_records;
    use crate::rules::English;

    #[test]
    fn an_encoding_stopped_by_the_deadline_is_undecided() {
        let record = &parse_records("W 3\n21-17\n13x?x?x24\n19x28\n").expect("damaged")[0];
        let encode = || {
            let mut cnf = CnfFormula::new();
            let options = EncodeOptions::default();
            Formula::encode(
                Variant::English,
                record,
                BoardFacts::none(),
                &mut cnf,
                options,
            )
        };
        let late = crate::sat::under(Some(std::time::Instant::now()), encode);
        let error = late.expect_err("the deadline has passed");
        assert!(error.is_undecided(), "{error}");
        assert!(error.to_string().contains("time limit"), "{error}");
        assert!(encode().is_ok());
    }

    /// The full path (no shortcut): the formula solved canonically.
    fn solved(text: &str) -> (crate::board::Board, bool) {
        let record = &parse_records(text).expect("valid record")[0];
        let mut cnf = CnfFormula::new();
        let mut formula = Formula::encode(
            Variant::English,
            record,
            BoardFacts::none(),
            &mut cnf,
            EncodeOptions::default(),
        )
        .expect("English is encoded");
        let canonical =
            super::super::formula::solve_canonically(&mut formula, &cnf).expect("varisat works");
        let answer = canonical.answer.expect("an answer");
        replay(&English, &answer.start, record).expect("the model replays");
        (answer.start, canonical.lucky)
    }

    #[test]
    fn most_records_are_satisfied_by_the_lucky_assignment() {
        let (_, lucky) = solved("B 2\n9-13\n22-18\n");
        assert!(lucky);
    }

    #[test]
    fn the_shortcut_blocks_a_jump_no_move_names() {
        // After 2x9 the black man on 9 could jump on over 14 to 18 unless
        // 18 is occupied: the shortcut puts a black man there.
        let record = &parse_records("B 2\n2x9\n14x5\n").expect("valid record")[0];
        let answer = solve_by_unit_facts(record, Variant::English).expect("a forced blocker");
        let sq = |n| Square::from_number(n).expect("a square");
        let black_man = Some(Piece::new(Color::Black, Role::Man));
        assert_eq!(answer.start.get(sq(18)), black_man);
        assert_eq!(answer.start.piece_count(), 4);
        let (full, _) = solved("B 2\n2x9\n14x5\n");
        assert_eq!(answer.start, full);
    }

    #[test]
    fn the_shortcut_stays_silent_on_impossible_records() {
        // A square emptied by ply 1 moves again; a square ply 1 filled
        // with a black man moves for White.
        for text in ["W 2\n21-17\n21-17\n", "B 2\n9-13\n13-9\n"] {
            let record = &parse_records(text).expect("valid record")[0];
            assert_eq!(
                solve_by_unit_facts(record, Variant::English),
                None,
                "{text}"
            );
            assert!(
                matches!(
                    solve_sat(
                        Variant::English,
                        record,
                        BoardFacts::none(),
                        Shortcuts::default()
                    ),
                    Ok(Outcome::Impossible { .. })
                ),
                "{text}"
            );
        }
    }

    #[test]
    fn varisat_takes_over_when_the_lucky_assignment_fails() {
        // After 2x9 Black's man must not be able to jump on, which needs a
        // piece the unit clauses do not name: not the all-false assignment.
        let (_, lucky) = solved("B 2\n2x9\n14x5\n");
        assert!(!lucky);
    }
}
