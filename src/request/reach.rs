//! The proof-game request: the shortest legal game from the opening to a
//! position (`encodings/reach.md`), as the binary and Python ask for it.

use std::time::{Duration, Instant};

use crate::board::{Board, Color};
use crate::notation::{to_fen, Record};
use crate::reach::{Goal, Reach, ReachError, ReachOutcome};
use crate::rules::Variant;
use crate::solve::SolveError;

use super::{BoardText, InputError, RequestError};

/// A shortest game found: its moves from the opening and the board it
/// ends on, which fits the position asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    /// The rule set.
    pub variant: Variant,
    /// The game, from the opening.
    pub record: Record,
    /// The board it ends on.
    pub end: Board,
}

impl Reached {
    /// The moves, every landing written.
    pub fn moves(&self) -> Vec<String> {
        self.record
            .moves
            .iter()
            .map(|m| self.variant.write_move(m))
            .collect()
    }

    /// The board it ends on as a FEN string, as PDN writes it.
    pub fn end_fen(&self) -> String {
        self.end_fen_naming(self.variant.fen_algebraic())
    }

    /// The board it ends on as a FEN string, squares named algebraically
    /// or not (see [`super::Solved::fens`]).
    pub fn end_fen_naming(&self, algebraic: bool) -> String {
        let turn = self.record.mover(self.record.moves.len() + 1);
        to_fen(&self.end, turn, algebraic)
    }
}

/// The shortest legal game from the opening to a position: no game of
/// fewer plies reaches it (`encodings/reach.md`).
#[derive(Clone, Debug)]
pub struct ReachRequest {
    goal: BoardText,
    variant: Variant,
    turn: Option<Color>,
    limit: Option<Duration>,
}

impl ReachRequest {
    /// The position `goal` (a FEN, or rows with `?` for squares that may
    /// hold anything) under `variant`.
    pub fn new(goal: BoardText, variant: Variant) -> ReachRequest {
        ReachRequest {
            goal,
            variant,
            turn: None,
            limit: None,
        }
    }

    /// With `turn` to move there (needed for rows; over a FEN's side).
    #[must_use]
    pub fn turn(mut self, turn: Color) -> ReachRequest {
        self.turn = Some(turn);
        self
    }

    /// Undecided, with the bound proved, when `limit` passes.
    #[must_use]
    pub fn limit(mut self, limit: Option<Duration>) -> ReachRequest {
        self.limit = limit;
        self
    }

    /// The shortest game.
    ///
    /// # Errors
    /// Bad input, impossible (no game reaches the position), undecided
    /// (with the bound proved), or a bug.
    pub fn run(&self) -> Result<Reached, RequestError> {
        let (board, fen_turn) = self.goal.read(self.variant.topology(), "given")?;
        let turn = self.turn.or(fen_turn).ok_or(InputError::NoTurn)?;
        if let Some(problem) = self.variant.rules().start_problems(&board.board).first() {
            return Err(InputError::NotAPosition {
                which: "given",
                problem: format!("it cannot occur in a game: {problem}"),
            }
            .into());
        }
        let deadline = self.limit.map(|limit| Instant::now() + limit);
        let search = Reach::new(self.variant).deadline(deadline);
        let outcome = search
            .search(&Goal { board, turn }, &mut |_| {})
            .map_err(|e| match e {
                ReachError::GameDoesNotReplay(why) => {
                    RequestError::Internal(SolveError::ProofGameDoesNotReplay(why))
                }
                ReachError::GameMissesGoal => {
                    RequestError::Internal(SolveError::ProofGameMissesGoal)
                }
                other => InputError::Unsupported(other.to_string()).into(),
            })?;
        match outcome {
            ReachOutcome::Found { game, .. } => Ok(Reached {
                variant: self.variant,
                record: game.record,
                end: game.end,
            }),
            ReachOutcome::Unreachable { reason, .. } => Err(RequestError::Impossible { reason }),
            ReachOutcome::Undecided { at_least } => Err(RequestError::Undecided {
                reason: format!("the time limit passed: no game of fewer than {at_least} plies reaches the position"),
            }),
        }
    }
}
