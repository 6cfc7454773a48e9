//! The native checker: plays a list of captures one after the other and
//! checks the end, independently of how the captures were found.

use std::fmt;

use super::board::{Cell, PawnBoard, Side};

/// One capture: the pawn now on `from` takes the pawn on its `side`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Capture {
    /// Where the capturing pawn stands before the capture.
    pub from: Cell,
    /// Up-left or up-right.
    pub side: Side,
}

impl fmt::Display for Capture {
    /// `r c L` or `r c R`, 1-based.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.from, self.side.letter())
    }
}

/// Why a capture sequence is not a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PawnReplayError {
    /// Capture number `index` (1-based) starts from an empty square.
    NoPawn {
        /// 1-based capture number.
        index: usize,
        /// The capture.
        capture: Capture,
    },
    /// Capture `index` aims off the board or at an empty square.
    NothingToTake {
        /// 1-based capture number.
        index: usize,
        /// The capture.
        capture: Capture,
    },
    /// After the last capture, a pawn still attacks another.
    StillAttacks {
        /// The attacker.
        attacker: Cell,
        /// The pawn it attacks.
        attacked: Cell,
    },
}

impl fmt::Display for PawnReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PawnReplayError::NoPawn { index, capture } => {
                write!(
                    f,
                    "capture {index} ({capture}): no pawn stands on {}",
                    capture.from
                )
            }
            PawnReplayError::NothingToTake { index, capture } => write!(
                f,
                "capture {index} ({capture}): no pawn to take on that side"
            ),
            PawnReplayError::StillAttacks { attacker, attacked } => write!(
                f,
                "after the captures the pawn on {attacker} still attacks the pawn on {attacked}"
            ),
        }
    }
}

impl std::error::Error for PawnReplayError {}

/// Plays `captures` on `board` in order; the end board if every capture is
/// legal when made and no pawn attacks another at the end.
///
/// # Errors
/// [`PawnReplayError`] naming the first capture that is illegal, or an
/// attack left at the end.
pub fn replay_captures(
    board: &PawnBoard,
    captures: &[Capture],
) -> Result<PawnBoard, PawnReplayError> {
    let mut board = board.clone();
    for (i, &capture) in captures.iter().enumerate() {
        let index = i + 1;
        if !board.has(capture.from) {
            return Err(PawnReplayError::NoPawn { index, capture });
        }
        match board.target(capture.from, capture.side) {
            // The capturer replaces the taken pawn: only its old square empties.
            Some(to) if board.has(to) => board.set(capture.from, false),
            _ => return Err(PawnReplayError::NothingToTake { index, capture }),
        }
    }
    match board.first_attack() {
        Some((attacker, attacked)) => Err(PawnReplayError::StillAttacks { attacker, attacked }),
        None => Ok(board),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cap(r: usize, c: usize, side: Side) -> Capture {
        Capture {
            from: Cell {
                row: r - 1,
                col: c - 1,
            },
            side,
        }
    }

    #[test]
    fn accepts_legal_sequences_and_names_the_first_fault() {
        // Three pawns in a diagonal line: 3 1 attacks 2 2, which attacks 1 3.
        let b = PawnBoard::from_rows(&["..O", ".O.", "O.."]);
        let end = replay_captures(&b, &[cap(3, 1, Side::Right), cap(2, 2, Side::Right)]).unwrap();
        assert_eq!(end, PawnBoard::from_rows(&["..O", "...", "..."]));
        // The order matters: 2 2 first leaves 3 1 with nothing to take.
        assert_eq!(
            replay_captures(&b, &[cap(2, 2, Side::Right), cap(3, 1, Side::Right)]),
            Err(PawnReplayError::NothingToTake {
                index: 2,
                capture: cap(3, 1, Side::Right)
            })
        );
        assert!(matches!(
            replay_captures(&b, &[cap(1, 1, Side::Right)]),
            Err(PawnReplayError::NoPawn { index: 1, .. })
        ));
        let e = replay_captures(&b, &[cap(3, 1, Side::Right)]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "after the captures the pawn on 2 2 still attacks the pawn on 1 3"
        );
        assert!(replay_captures(&b, &[cap(3, 1, Side::Left)]).is_err());
    }
}
