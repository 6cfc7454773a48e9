//! [`Board`]: any arrangement of pieces on the dark squares of one board
//! ([`Topology`]), with no rules attached.

use std::fmt;

use super::piece::{Color, Piece, Role};
use super::square::Square;
use super::topology::Topology;

/// Pieces on the dark squares of one board, as three bitboards.
///
/// A board accepts any arrangement; whether it may start a record is a question
/// for [`crate::rules`]. Bit `i` stands for the square with index `i`; the
/// top bit of the white word, never a square, marks the 10x10 board (so a
/// board is three words, which replays copy at every move).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    black: u64,
    white: u64,
    kings: u64,
}

/// The bit of [`Board`]'s white word that marks the 10x10 board.
const TEN: u64 = 1 << 63;
/// The bit of [`Board`]'s white word that marks the algebraic 8x8 board.
const ALGEBRAIC: u64 = 1 << 62;
/// Both marks.
/// Marks the mirrored 8x8 board ([`Topology::EightMirrored`]).
const MIRRORED: u64 = 1 << 61;
const MARKS: u64 = TEN | ALGEBRAIC | MIRRORED;

impl Board {
    /// The 8x8 board with no pieces.
    pub const fn empty() -> Board {
        Board::empty_on(Topology::Eight)
    }

    /// The board of `topology` with no pieces.
    pub const fn empty_on(topology: Topology) -> Board {
        Board {
            black: 0,
            white: match topology {
                Topology::Eight => 0,
                Topology::EightAlgebraic => ALGEBRAIC,
                Topology::Ten => TEN,
                Topology::EightMirrored => MIRRORED,
            },
            kings: 0,
        }
    }

    /// The 8x8 opening position: Black men on 1..=12, White men on 21..=32.
    pub const fn opening() -> Board {
        Board {
            black: 0x0000_0FFF,
            white: 0xFFF0_0000,
            kings: 0,
        }
    }

    /// The board's geometry.
    pub const fn topology(&self) -> Topology {
        if self.white & TEN != 0 {
            Topology::Ten
        } else if self.white & ALGEBRAIC != 0 {
            Topology::EightAlgebraic
        } else if self.white & MIRRORED != 0 {
            Topology::EightMirrored
        } else {
            Topology::Eight
        }
    }

    /// The same pieces on the board of `topology` (of the same size: the
    /// other notation of the 8x8 board).
    pub const fn with_topology(self, topology: Topology) -> Board {
        let mut board = Board::empty_on(topology);
        board.black = self.black;
        board.white = self.white & !MARKS | board.white;
        board.kings = self.kings;
        board
    }

    /// The piece on `sq`, if any.
    pub fn get(&self, sq: Square) -> Option<Piece> {
        let bit = sq.bit();
        let color = if self.black & bit != 0 {
            Color::Black
        } else if self.white & bit != 0 {
            Color::White
        } else {
            return None;
        };
        let role = if self.kings & bit != 0 {
            Role::King
        } else {
            Role::Man
        };
        Some(Piece::new(color, role))
    }

    /// Puts `piece` on `sq` (or empties it with `None`).
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        let bit = sq.bit();
        // The same operations on all three words, without branches: mixed
        // scalar and vector stores to the words would stall the next call.
        let has = |yes: bool| if yes { bit } else { 0 };
        let (black, white, king) = match piece {
            None => (0, 0, 0),
            Some(p) => (
                has(p.color == Color::Black),
                has(p.color == Color::White),
                has(p.is_king()),
            ),
        };
        self.black = self.black & !bit | black;
        self.white = self.white & !bit | white;
        self.kings = self.kings & !bit | king;
    }

    /// True if `sq` holds no piece.
    pub fn is_empty(&self, sq: Square) -> bool {
        (self.black | self.white) & sq.bit() == 0
    }

    /// The colour of the piece on `sq`, if any.
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        self.get(sq).map(|p| p.color)
    }

    /// Bitboard of the squares holding `color`'s pieces.
    pub fn occupied_by(&self, color: Color) -> u64 {
        match color {
            Color::Black => self.black,
            Color::White => self.white & !MARKS,
        }
    }

    /// Bitboard of the squares holding kings (of either colour).
    pub fn kings(&self) -> u64 {
        self.kings
    }

    /// The squares holding `color`'s pieces, in numbering order.
    pub fn squares_of(&self, color: Color) -> impl Iterator<Item = Square> {
        let mut bits = self.occupied_by(color);
        let topology = self.topology();
        std::iter::from_fn(move || {
            let index = bits.trailing_zeros() as usize;
            bits &= bits.wrapping_sub(1);
            topology.square_at(index)
        })
    }

    /// Number of pieces on the board.
    pub fn piece_count(&self) -> u32 {
        (self.black | self.white & !MARKS).count_ones()
    }

    /// Number of kings on the board.
    pub fn king_count(&self) -> u32 {
        self.kings.count_ones()
    }

    /// Row `row` (0 at the top) as one character per column: `-` light,
    /// `.` empty, `b w B W` pieces.
    pub fn row_text(&self, row: u8) -> String {
        let mut text = Vec::with_capacity(usize::from(self.topology().size()));
        self.push_row(row, &mut text);
        text.into_iter().map(char::from).collect()
    }

    /// Appends [`Board::row_text`] to `out` as ASCII bytes.
    pub fn push_row(&self, row: u8, out: &mut Vec<u8>) {
        let half = usize::from(self.topology().half());
        let first = usize::from(row) * half;
        // One row at most 10 characters, written in one go.
        let mut line = [0u8; 10];
        let mut cells = line.chunks_exact_mut(2);
        for index in first..first + half {
            let bit = 1u64 << index;
            let cell = match (self.black & bit != 0, self.white & bit != 0) {
                (false, false) => b'.',
                (black, _) => {
                    let letter = if black { b'b' } else { b'w' };
                    if self.kings & bit != 0 {
                        letter.to_ascii_uppercase()
                    } else {
                        letter
                    }
                }
            };
            // Even rows start with a light square, odd rows end with one.
            let pair = if row.is_multiple_of(2) {
                [b'-', cell]
            } else {
                [cell, b'-']
            };
            if let Some(slot) = cells.next() {
                slot.copy_from_slice(&pair);
            }
        }
        let drawn = &mut line[..2 * half];
        if self.topology().mirrored() {
            drawn.reverse();
        }
        out.extend_from_slice(drawn);
    }
}

/// What is known of a board: the content of the squares in `known` (a
/// bitboard, bit = square index) is a fact, the rest is unknown.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct PartialBoard {
    /// The pieces on the known squares (the other squares are empty here).
    pub board: Board,
    /// The squares whose content is known.
    pub known: u64,
}

impl PartialBoard {
    /// The known squares, in numbering order, with what they hold.
    pub fn facts(&self) -> impl Iterator<Item = (Square, Option<Piece>)> + '_ {
        self.board
            .topology()
            .squares()
            .filter(|s| self.known & s.bit() != 0)
            .map(|s| (s, self.board.get(s)))
    }

    /// The same facts with the pieces on unknown squares removed (they
    /// say nothing).
    pub fn keep_known(self) -> PartialBoard {
        let mut board = self.board;
        for sq in board.topology().squares() {
            if self.known & sq.bit() == 0 {
                board.set(sq, None);
            }
        }
        PartialBoard {
            board,
            known: self.known,
        }
    }

    /// The first known square where `board` differs from the facts.
    pub fn first_difference(&self, board: &Board) -> Option<(Square, Option<Piece>)> {
        self.facts().find(|&(s, fact)| board.get(s) != fact)
    }
}

impl fmt::Display for Board {
    /// The rows, one per line, in the answer format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..self.topology().size() {
            writeln!(f, "{}", self.row_text(row))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows: Vec<String> = (0..self.topology().size())
            .map(|r| self.row_text(r))
            .collect();
        write!(f, "Board[{}]", rows.join("/"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_and_get_round_trip() {
        let mut board = Board::empty();
        let sq = Square::from_number(18).unwrap();
        for piece in Piece::ALL {
            board.set(sq, Some(piece));
            assert_eq!(board.get(sq), Some(piece));
            assert_eq!(board.piece_count(), 1);
        }
        board.set(sq, None);
        assert!(board.is_empty(sq));
        assert_eq!(board, Board::empty());
    }

    #[test]
    fn rows_print_light_squares_as_dashes() {
        let board = Board::opening();
        assert_eq!(board.row_text(0), "-b-b-b-b");
        assert_eq!(board.row_text(3), ".-.-.-.-");
        assert_eq!(board.row_text(7), "w-w-w-w-");
    }
}
