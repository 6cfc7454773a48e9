//! [`Board`]: any arrangement of pieces on the dark squares of one board
//! ([`Topology`]), with no rules attached.

use std::fmt;

use super::piece::{Color, Piece, Role};
use super::square::Square;
use super::topology::Topology;
use super::Bits;

/// Pieces on the dark squares of one board, as three bitboards.
///
/// A board accepts any arrangement; whether it may start a record is a question
/// for [`crate::rules`]. Bit `i` of a set stands for the square with index
/// `i`. The three sets (black, white, kings) keep their first 64 squares in
/// words and the rest (only the 12x12 board has more) in one byte each of
/// a fourth word, whose fourth byte is the board's [`Topology::id`]: a board
/// is 32 bytes, which replays copy at every move, and on boards of at most 64
/// squares every operation stays on 64-bit words (`u128` sets made the
/// English batch 20% slower).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    /// Squares 0..64 of the black, white and king sets, and (`HIGH`)
    /// squares 64..72 of the three sets, a byte each, with the board's id.
    /// One array of words, so moving a board is two 16-byte copies; white
    /// and kings, the pair the compiler updates together, share one of
    /// them (a load straddling the two copies' stores would stall).
    words: [u64; 4],
}

/// Positions of the three sets in [`Board::words`]; `8 * set` is also
/// where the set's squares 64.. sit in the `HIGH` word.
const BLACK: usize = 0;
const WHITE: usize = 2;
const KINGS: usize = 3;
/// The word of squares 64.. and the board's id.
const HIGH: usize = 1;
/// Where the `HIGH` word keeps the board's [`Topology::id`].
const ID_SHIFT: u32 = 32;

impl Board {
    /// The 8x8 board with no pieces.
    pub const fn empty() -> Board {
        Board::empty_on(Topology::Eight)
    }

    /// The board of `topology` with no pieces.
    pub const fn empty_on(topology: Topology) -> Board {
        Board {
            words: [0, (topology.id() as u64) << ID_SHIFT, 0, 0],
        }
    }

    /// The 8x8 opening position: Black men on 1..=12, White men on 21..=32.
    pub const fn opening() -> Board {
        Board {
            words: [0x0000_0FFF, 0, 0xFFF0_0000, 0],
        }
    }

    /// The board's geometry.
    pub const fn topology(&self) -> Topology {
        Topology::ALL[(self.words[HIGH] >> ID_SHIFT) as usize]
    }

    /// The same pieces on the board of `topology` (of the same size: the
    /// other notation of the 8x8 board).
    pub const fn with_topology(self, topology: Topology) -> Board {
        let mut words = self.words;
        words[HIGH] = words[HIGH] & !(0xFF << ID_SHIFT) | (topology.id() as u64) << ID_SHIFT;
        Board { words }
    }

    /// Whether square index `index` is in set `set` (black, white, kings).
    #[inline]
    const fn has(&self, set: usize, index: usize) -> bool {
        if index < 64 {
            self.words[set] >> index & 1 != 0
        } else {
            self.words[HIGH] >> (8 * set + index - 64) & 1 != 0
        }
    }

    /// The whole set `set` (black, white, kings) as a bitboard.
    #[inline]
    const fn set_bits(&self, set: usize) -> Bits {
        self.words[set] as Bits | ((self.words[HIGH] >> (8 * set) & 0xFF) as Bits) << 64
    }

    /// The piece on `sq`, if any.
    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.piece_at(sq.index())
    }

    /// The piece on the square with index `index`, if any.
    fn piece_at(&self, index: usize) -> Option<Piece> {
        let color = if self.has(BLACK, index) {
            Color::Black
        } else if self.has(WHITE, index) {
            Color::White
        } else {
            return None;
        };
        let role = if self.has(KINGS, index) {
            Role::King
        } else {
            Role::Man
        };
        Some(Piece::new(color, role))
    }

    /// Puts `piece` on `sq` (or empties it with `None`).
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        // Per word: whether the square is in that set (never in `HIGH`).
        let mut wanted = [false; 4];
        if let Some(p) = piece {
            wanted[BLACK] = p.color == Color::Black;
            wanted[WHITE] = p.color == Color::White;
            wanted[KINGS] = p.is_king();
        }
        let index = sq.index();
        if index < 64 {
            let bit = 1u64 << index;
            let has = |yes: bool| if yes { bit } else { 0 };
            // The same operations on the three sets, without branches.
            for set in [BLACK, WHITE, KINGS] {
                self.words[set] = self.words[set] & !bit | has(wanted[set]);
            }
        } else {
            for set in [BLACK, WHITE, KINGS] {
                let (bit, yes) = (1u64 << (8 * set + index - 64), wanted[set]);
                self.words[HIGH] = self.words[HIGH] & !bit | if yes { bit } else { 0 };
            }
        }
    }

    /// True if `sq` holds no piece.
    pub fn is_empty(&self, sq: Square) -> bool {
        let index = sq.index();
        !self.has(BLACK, index) && !self.has(WHITE, index)
    }

    /// The colour of the piece on `sq`, if any.
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        self.get(sq).map(|p| p.color)
    }

    /// Bitboard of the squares holding `color`'s pieces.
    pub fn occupied_by(&self, color: Color) -> Bits {
        match color {
            Color::Black => self.set_bits(BLACK),
            Color::White => self.set_bits(WHITE),
        }
    }

    /// Bitboard of the squares holding kings (of either colour).
    pub fn kings(&self) -> Bits {
        self.set_bits(KINGS)
    }

    /// The squares holding `color`'s pieces, in numbering order.
    pub fn squares_of(&self, color: Color) -> impl Iterator<Item = Square> {
        self.topology().squares_in(self.occupied_by(color))
    }

    /// Number of pieces on the board.
    pub fn piece_count(&self) -> u32 {
        (self.set_bits(BLACK) | self.set_bits(WHITE)).count_ones()
    }

    /// Number of kings on the board.
    pub fn king_count(&self) -> u32 {
        self.set_bits(KINGS).count_ones()
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
        // One row at most 12 characters, written in one go.
        let mut line = [0u8; 12];
        let mut cells = line.chunks_exact_mut(2);
        for index in first..first + half {
            let cell = match self.piece_at(index) {
                None => b'.',
                Some(piece) => piece.letter() as u8,
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
    pub known: Bits,
}

impl PartialBoard {
    /// `board` known on every square.
    pub fn whole(board: Board) -> PartialBoard {
        PartialBoard {
            known: board.topology().all_bits(),
            board,
        }
    }

    /// Every square is known.
    pub fn is_whole(&self) -> bool {
        self.known == self.board.topology().all_bits()
    }

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
