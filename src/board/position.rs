//! [`Board`]: any arrangement of pieces on the 32 squares, with no rules attached.

use std::fmt;

use super::piece::{Color, Piece, Role};
use super::square::Square;

/// Pieces on the 32 dark squares, as three bitboards.
///
/// A board accepts any arrangement; whether it may start a record is a question
/// for [`crate::rules`]. Bit `i` stands for the square with index `i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    black: u32,
    white: u32,
    kings: u32,
}

impl Board {
    /// The board with no pieces.
    pub const fn empty() -> Board {
        Board {
            black: 0,
            white: 0,
            kings: 0,
        }
    }

    /// The standard opening position: Black men on 1..=12, White men on 21..=32.
    pub const fn opening() -> Board {
        Board {
            black: 0x0000_0FFF,
            white: 0xFFF0_0000,
            kings: 0,
        }
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
        self.black &= !bit;
        self.white &= !bit;
        self.kings &= !bit;
        if let Some(piece) = piece {
            match piece.color {
                Color::Black => self.black |= bit,
                Color::White => self.white |= bit,
            }
            if piece.is_king() {
                self.kings |= bit;
            }
        }
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
    pub fn occupied_by(&self, color: Color) -> u32 {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// Bitboard of the squares holding kings (of either colour).
    pub fn kings(&self) -> u32 {
        self.kings
    }

    /// The squares holding `color`'s pieces, in numbering order.
    pub fn squares_of(&self, color: Color) -> impl Iterator<Item = Square> {
        let bits = self.occupied_by(color);
        Square::all().filter(move |s| bits & s.bit() != 0)
    }

    /// Number of pieces on the board.
    pub fn piece_count(&self) -> u32 {
        (self.black | self.white).count_ones()
    }

    /// Number of kings on the board.
    pub fn king_count(&self) -> u32 {
        self.kings.count_ones()
    }

    /// Row `row` (0 at the top) as 8 characters: `-` light, `.` empty, `b w B W` pieces.
    pub fn row_text(&self, row: u8) -> String {
        self.row_bytes(row).iter().map(|&b| char::from(b)).collect()
    }

    /// [`Board::row_text`] as ASCII bytes, without allocating.
    pub fn row_bytes(&self, row: u8) -> [u8; 8] {
        let mut out = [b'-'; 8];
        for (col, cell) in (0..8).zip(out.iter_mut()) {
            if let Some(sq) = Square::from_coords(row, col) {
                *cell = self.get(sq).map_or(b'.', |p| p.letter() as u8);
            }
        }
        out
    }
}

impl fmt::Display for Board {
    /// The 8 rows, one per line, in the answer format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..8 {
            writeln!(f, "{}", self.row_text(row))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows: Vec<String> = (0..8).map(|r| self.row_text(r)).collect();
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
