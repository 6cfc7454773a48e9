//! The request on boards: legal moves.

use crate::board::Color;
use crate::rules::Variant;

use super::{side_to_move, BoardRole, BoardText, InputError, WholeBoard};

/// The legal moves on a board.
#[derive(Clone, Debug)]
pub struct MovesRequest {
    board: BoardText,
    variant: Variant,
    turn: Option<Color>,
}

impl MovesRequest {
    /// The moves on `board` under `variant`, for the side its FEN names.
    pub fn new(board: BoardText, variant: Variant) -> MovesRequest {
        MovesRequest {
            board,
            variant,
            turn: None,
        }
    }

    /// For `turn` (needed for board rows; a FEN's side must agree).
    #[must_use]
    pub fn turn(mut self, turn: Color) -> MovesRequest {
        self.turn = Some(turn);
        self
    }

    /// The legal moves as the rule set writes them (every landing of a
    /// capture), sorted by square, each once.
    ///
    /// # Errors
    /// The board cannot be read, has unknown squares, or breaks a rule
    /// of positions.
    pub fn run(&self) -> Result<Vec<String>, InputError> {
        self.listed().map(|listed| listed.moves)
    }

    /// The legal moves with the side they are for, and why there are
    /// none when there are none (a front end says so rather than print
    /// nothing).
    ///
    /// # Errors
    /// As [`MovesRequest::run`].
    pub fn listed(&self) -> Result<LegalMoves, InputError> {
        let (board, fen_turn) =
            self.board
                .position(self.variant, BoardRole::Given, WholeBoard::ForMoves)?;
        let side = side_to_move(self.turn, fen_turn)?.ok_or(InputError::NoTurn)?;
        let mut moves: Vec<String> = self
            .variant
            .rules()
            .legal_moves(&board, side)
            .iter()
            .map(|m| self.variant.write_move(m))
            .collect();
        // By their squares' numbers (`9-13` before `10-14`); algebraic
        // squares by file, then rank.
        moves.sort_by_cached_key(|mv| {
            mv.split(['-', 'x', ':'])
                .map(|square| {
                    let rank = square.trim_start_matches(|c: char| c.is_ascii_alphabetic());
                    let file = square[..square.len() - rank.len()].to_string();
                    (file, rank.parse::<u32>().ok())
                })
                .collect::<Vec<_>>()
        });
        moves.dedup();
        let why_none = match (moves.is_empty(), board.squares_of(side).next()) {
            (false, _) => None,
            (true, None) => Some(NoMove::NoPieces),
            (true, Some(_)) => Some(NoMove::Blocked),
        };
        Ok(LegalMoves {
            side,
            moves,
            why_none,
        })
    }
}

/// The legal moves of one side on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalMoves {
    /// The side to move.
    pub side: Color,
    /// Its moves, as [`MovesRequest::run`] lists them.
    pub moves: Vec<String>,
    /// Why there are none, when there are none.
    pub why_none: Option<NoMove>,
}

/// Why a side has no legal move: in draughts, either way it has lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoMove {
    /// It has no pieces left.
    #[error("it has no pieces")]
    NoPieces,
    /// Every piece it has is blocked.
    #[error("every piece it has is blocked")]
    Blocked,
}
