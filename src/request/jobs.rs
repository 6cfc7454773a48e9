//! The request on boards: legal moves.

use crate::board::Color;
use crate::rules::Variant;

use super::{BoardRole, BoardText, InputError};

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

    /// For `turn` (needed for board rows; over a FEN's side).
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
        let (facts, fen_turn) = self.board.read(self.variant.topology(), BoardRole::Given)?;
        let all = self.variant.topology().all_bits();
        if facts.known != all {
            return Err(InputError::Board {
                which: BoardRole::Given,
                line: 1,
                message: "an unknown square ('?'): legal moves need every square known".into(),
            });
        }
        let rules = self.variant.rules();
        if let Some(problem) = rules.start_problems(&facts.board).first() {
            return Err(InputError::NotAPosition {
                which: BoardRole::Given,
                problem: problem.to_string(),
            });
        }
        let side = self.turn.or(fen_turn).ok_or(InputError::NoTurn)?;
        let mut moves: Vec<String> = rules
            .legal_moves(&facts.board, side)
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
        Ok(moves)
    }
}
