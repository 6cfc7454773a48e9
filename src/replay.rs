//! The native replayer: plays a record from a start board with every rule
//! checked. It is the judge behind `verify` and the check behind every answer
//! `solve` prints, and it never looks at the SAT code.

use std::fmt;

use crate::board::Board;
use crate::notation::{Answer, MoveText, Record};
use crate::rules::{Rules, StartProblem, Violation};

/// The first ply of a record that breaks a rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply} ({text}): {violation}")]
pub struct ReplayError {
    /// 1-based ply number.
    pub ply: usize,
    /// The move as written.
    pub text: MoveText,
    /// The rule it breaks.
    pub violation: Violation,
}

/// Plays every move of `record` from `start` and returns the end board.
///
/// The start board's own validity is not checked here (see [`judge`]).
///
/// # Errors
/// The first ply that breaks a rule.
pub fn replay(rules: &dyn Rules, start: &Board, record: &Record) -> Result<Board, ReplayError> {
    if rules.variant() == crate::rules::Variant::English {
        // The same rules, called directly: the commonest replay gets the
        // English play inlined into its loop.
        return replay_with(&crate::rules::English, start, record);
    }
    replay_with(rules, start, record)
}

fn replay_with<R: Rules + ?Sized>(
    rules: &R,
    start: &Board,
    record: &Record,
) -> Result<Board, ReplayError> {
    let mut board = *start;
    for (i, mv) in record.moves.iter().enumerate() {
        let ply = i + 1;
        board = rules
            .play(&board, record.mover(ply), mv)
            .map_err(|violation| ReplayError {
                ply,
                text: mv.clone(),
                violation,
            })?;
    }
    Ok(board)
}

/// Why an answer is rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rejection {
    /// The start board breaks a start rule.
    BadStart(StartProblem),
    /// A move is illegal from that start board.
    Illegal(ReplayError),
    /// The answer's end board is on another board than its start board.
    WrongBoard,
    /// The moves replay, but to another end board.
    WrongEnd {
        /// The first differing square (1-based number).
        square: u8,
        /// What the replay produced there.
        expected: char,
        /// What the answer claims.
        found: char,
    },
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::BadStart(p) => write!(f, "start board: {p}"),
            Rejection::WrongBoard => f.write_str("the end board is not on the start board's board"),
            Rejection::Illegal(e) => write!(f, "{e}"),
            Rejection::WrongEnd {
                square,
                expected,
                found,
            } => write!(
                f,
                "end board differs at square {square}: expected {expected}, found {found}"
            ),
        }
    }
}

impl std::error::Error for Rejection {}

/// Judges `answer` for `record`: the start board must obey the start rules, the
/// moves must replay from it, and they must reach exactly the answer's end board.
///
/// # Errors
/// The first problem found.
pub fn judge(rules: &dyn Rules, record: &Record, answer: &Answer) -> Result<(), Rejection> {
    if let Some(&problem) = rules.start_problems(&answer.start).first() {
        return Err(Rejection::BadStart(problem));
    }
    let end = replay(rules, &answer.start, record).map_err(Rejection::Illegal)?;
    let differs = |s: &crate::board::Square| end.get(*s) != answer.end.get(*s);
    let topology = answer.start.topology();
    if end.topology() != answer.end.topology() {
        return Err(Rejection::WrongBoard);
    }
    if let Some(sq) = topology.squares().find(differs) {
        let letter = |b: &Board| b.get(sq).map_or('.', |p| p.letter());
        return Err(Rejection::WrongEnd {
            square: sq.number(),
            expected: letter(&end),
            found: letter(&answer.end),
        });
    }
    Ok(())
}
