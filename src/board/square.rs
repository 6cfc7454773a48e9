//! The dark squares of a board (32 on 8x8, 50 on 10x10, 72 on 12x12) and the
//! four diagonal directions between them.
//!
//! Squares are numbered from 1 row by row from the top, as in the ICPC task
//! and in PDN (the board's [`Topology`] says how its rule set numbers and
//! names them). Internally a [`Square`] carries its board and its 0-based
//! index (`number() - 1`), so it can index arrays and bitboards directly.

use std::fmt;
use std::str::FromStr;

use super::piece::Color;
use super::topology::Topology;
use super::Bits;

/// One playable (dark) square of one board ([`Topology`]).
///
/// Its raw value is the board's base plus the square's index (see
/// [`Topology::square_at`]), so a square knows its board and its notation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// The error for a square name that is not one of the board's squares.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown square '{text}' (squares are numbered 1 to {}{}{})", topology.count(),
    if topology.size() == 8 && !topology.mirrored() { ", or named a1 to h8 on dark squares" } else { "" },
    if past_the_board(text, *topology) { "; a larger board has it: name that board's rule set" } else { "" })]
pub struct ParseSquareError {
    /// The text that was read.
    pub text: String,
    /// The board it was read for.
    pub topology: Topology,
}

/// Whether `text` is a square number this board has not but a larger one
/// has (an International record read as English).
fn past_the_board(text: &str, topology: Topology) -> bool {
    let largest = Topology::Twelve.count();
    text.parse::<usize>()
        .is_ok_and(|n| n > topology.count() && n <= largest)
}

/// A diagonal direction. "Up" is towards row 0, where White crowns.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Direction {
    /// Towards row 0 and column 0.
    UpLeft,
    /// Towards row 0 and column 7.
    UpRight,
    /// Towards row 7 and column 0.
    DownLeft,
    /// Towards row 7 and column 7.
    DownRight,
}

impl Direction {
    /// All four directions, in a fixed order (the order move lists use).
    pub const ALL: [Direction; 4] = [
        Direction::UpLeft,
        Direction::UpRight,
        Direction::DownLeft,
        Direction::DownRight,
    ];

    /// Row change of one step.
    pub const fn row_delta(self) -> i8 {
        match self {
            Direction::UpLeft | Direction::UpRight => -1,
            Direction::DownLeft | Direction::DownRight => 1,
        }
    }

    /// Column change of one step.
    pub const fn col_delta(self) -> i8 {
        match self {
            Direction::UpLeft | Direction::DownLeft => -1,
            Direction::UpRight | Direction::DownRight => 1,
        }
    }

    /// Position in [`Direction::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How far one step moves a bit of a [`Square::grid_bit`] bitboard.
    pub const fn grid_offset(self) -> i32 {
        self.row_delta() as i32 * 8 + self.col_delta() as i32
    }

    /// True for the two directions that go down the board (towards row 7).
    pub const fn is_down(self) -> bool {
        self.row_delta() > 0
    }
}

const NONE: u8 = u8::MAX;

/// Raw values of squares: every board's squares, one board after the
/// other in [`Topology::ALL`] order (250 values, so a square stays one
/// byte and a move's path stays short).
const RAW_COUNT: usize = 256;

/// A colour's bit in [`Tables::crowns`].
const fn crowning_bit(color: Color) -> u8 {
    match color {
        Color::White => 1,
        Color::Black => 2,
    }
}

const fn topology_of(raw: u8) -> Topology {
    let mut i = Topology::ALL.len() - 1;
    while Topology::ALL[i].base() > raw {
        i -= 1;
    }
    Topology::ALL[i]
}

/// Per raw value: the neighbours' raw values by direction (`NONE` off the
/// board), and the square's row and column. Built once, at compile time.
struct Tables {
    steps: [[u8; 4]; RAW_COUNT],
    /// [`Square::index`].
    indices: [u8; RAW_COUNT],
    /// [`Square::topology`], as its [`Topology::id`].
    boards: [u8; RAW_COUNT],
    /// The size of the square's board (rows).
    sizes: [u8; RAW_COUNT],
    /// Which colours' men are crowned here ([`crowning_bit`]).
    crowns: [u8; RAW_COUNT],
    places: [(u8, u8); RAW_COUNT],
    /// [`Square::grid_bit`] (0 for squares not on an 8x8 board).
    grid_bits: [u64; RAW_COUNT],
    /// [`Square::number`].
    numbers: [u8; RAW_COUNT],
}

const TABLES: Tables = {
    let mut t = Tables {
        steps: [[NONE; 4]; RAW_COUNT],
        indices: [0; RAW_COUNT],
        boards: [0; RAW_COUNT],
        sizes: [0; RAW_COUNT],
        crowns: [0; RAW_COUNT],
        places: [(0, 0); RAW_COUNT],
        grid_bits: [0; RAW_COUNT],
        numbers: [0; RAW_COUNT],
    };
    let mut raw = 0;
    while raw < RAW_COUNT {
        let topology = topology_of(raw as u8);
        let index = raw as u8 - topology.base();
        t.indices[raw] = index;
        t.boards[raw] = topology.id() as u8;
        t.sizes[raw] = topology.size();
        if (index as usize) < topology.count() {
            let half = topology.half();
            let row = index / half;
            let col = 2 * (index % half) + 1 - row % 2;
            t.places[raw] = (row, col);
            let colors = [Color::White, Color::Black];
            let mut c = 0;
            while c < colors.len() {
                if row == topology.crowning_row(colors[c]) {
                    t.crowns[raw] |= crowning_bit(colors[c]);
                }
                c += 1;
            }
            t.numbers[raw] = topology.number_of(index as usize) as u8;
            if topology.size() == 8 {
                t.grid_bits[raw] = 1 << (row * 8 + col);
            }
            let mut d = 0;
            while d < 4 {
                if let Some(next) = topology.step_index(index, Direction::ALL[d]) {
                    t.steps[raw][d] = topology.base() + next;
                }
                d += 1;
            }
        }
        raw += 1;
    }
    t
};

impl Square {
    /// Number of dark squares of the 8x8 board.
    pub const COUNT: usize = 32;

    /// The square of raw value `raw` (see [`Topology::square_at`]).
    pub(super) const fn from_raw(raw: u8) -> Square {
        Square(raw)
    }

    /// The 8x8 board's square with 0-based index `index`.
    ///
    /// # Panics
    /// If `index >= 32`.
    pub const fn new(index: u8) -> Square {
        assert!(index < 32, "square index out of range");
        Square(index)
    }

    /// The 8x8 board's square with the 1-based ICPC/PDN number, if it is in 1..=32.
    pub fn from_number(number: u32) -> Option<Square> {
        Topology::Eight.square(number)
    }

    /// The 8x8 board's dark square at `row`, `col` (both 0..8, row 0 at the top).
    pub fn from_coords(row: u8, col: u8) -> Option<Square> {
        Topology::Eight.from_coords(row, col)
    }

    /// All 32 squares of the 8x8 board in numbering order.
    pub fn all() -> impl Iterator<Item = Square> + Clone {
        (0..32).map(Square)
    }

    /// The board this square is on.
    pub const fn topology(self) -> Topology {
        Topology::ALL[TABLES.boards[self.0 as usize] as usize]
    }

    /// 0-based index on its board, for arrays and bitboards.
    pub const fn index(self) -> usize {
        TABLES.indices[self.0 as usize] as usize
    }

    /// 1-based number as written in records (1..=32, or 1..=50 on 10x10).
    pub const fn number(self) -> u8 {
        TABLES.numbers[self.0 as usize]
    }

    /// Row, 0 at the top (Black's home row).
    pub const fn row(self) -> u8 {
        TABLES.places[self.0 as usize].0
    }

    /// Column, 0 on the left.
    pub const fn col(self) -> u8 {
        TABLES.places[self.0 as usize].1
    }

    /// True if a man of `color` is crowned here.
    pub const fn crowns(self, color: Color) -> bool {
        TABLES.crowns[self.0 as usize] & crowning_bit(color) != 0
    }

    /// This square's bit in a bitboard of its board (bit `index`).
    pub const fn bit(self) -> Bits {
        1 << TABLES.indices[self.0 as usize]
    }

    /// This square's bit in a 64-bit bitboard of the whole 8x8 grid (bit
    /// `8 * row + col`), where every diagonal step is the same shift. Only
    /// for squares of the 8x8 board.
    pub const fn grid_bit(self) -> u64 {
        TABLES.grid_bits[self.0 as usize]
    }

    /// The 8x8 board's dark square at grid bit `index` (see [`Square::grid_bit`]).
    pub const fn from_grid_index(index: u32) -> Option<Square> {
        let (row, col) = (index / 8, index % 8);
        if index >= 64 || (row + col) % 2 == 0 {
            None
        } else {
            Some(Square((row * 4 + col / 2) as u8))
        }
    }

    /// The same square on the board of `topology` (same index), if it has one.
    pub const fn on(self, topology: Topology) -> Option<Square> {
        topology.square_at(self.index())
    }

    /// The neighbour one step away in `dir`, if it is on the board.
    pub const fn step(self, dir: Direction) -> Option<Square> {
        let next = TABLES.steps[self.0 as usize][dir.index()];
        if next == NONE {
            None
        } else {
            Some(Square(next))
        }
    }

    /// The jumped square and the landing square of a jump in `dir`, if both are on the board.
    pub fn jump(self, dir: Direction) -> Option<(Square, Square)> {
        let over = self.step(dir)?;
        Some((over, over.step(dir)?))
    }

    /// The direction and number of steps from `self` to `other`, if they
    /// share a diagonal (of the same board).
    pub fn diagonal_to(self, other: Square) -> Option<(Direction, u8)> {
        if TABLES.sizes[self.0 as usize] != TABLES.sizes[other.0 as usize] {
            return None;
        }
        let dr = other.row() as i8 - self.row() as i8;
        let dc = other.col() as i8 - self.col() as i8;
        if dr == 0 || dr.abs() != dc.abs() {
            return None;
        }
        let dir = match (dr > 0, dc > 0) {
            (false, false) => Direction::UpLeft,
            (false, true) => Direction::UpRight,
            (true, false) => Direction::DownLeft,
            (true, true) => Direction::DownRight,
        };
        Some((dir, dr.unsigned_abs()))
    }

    /// Algebraic name (`b8` for square 1, `a1` for square 29 on the 8x8 board).
    pub fn algebraic(self) -> String {
        format!(
            "{}{}",
            (b'a' + self.col()) as char,
            self.topology().size() - self.row()
        )
    }
}

impl fmt::Display for Square {
    /// The square as its board writes it: a number, or an algebraic name on
    /// the algebraic 8x8 board.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.topology().algebraic() {
            f.write_str(&self.algebraic())
        } else {
            write!(f, "{}", self.number())
        }
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({})", self.number())
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses a square of the 8x8 board (see [`Topology::parse_square`]).
    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        Topology::Eight.parse_square(text)
    }
}

impl Topology {
    /// Parses a square number written with at most three decimal digits,
    /// or, on the 8x8 board, an algebraic name of a dark square (`a1`, `c3`,
    /// ..., `h8`).
    ///
    /// # Errors
    /// When the text names no square of this board.
    pub fn parse_square(self, text: &str) -> Result<Square, ParseSquareError> {
        let error = || ParseSquareError {
            text: text.to_string(),
            topology: self,
        };
        if let (false, 8, [file @ b'a'..=b'h', rank @ b'1'..=b'8']) =
            (self.mirrored(), self.size(), text.as_bytes())
        {
            return self.from_coords(b'8' - rank, file - b'a').ok_or_else(error);
        }
        if text.is_empty() || text.len() > 3 || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(error());
        }
        text.parse::<u32>()
            .ok()
            .and_then(|n| self.square(n))
            .ok_or_else(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u32) -> Square {
        Square::from_number(n).unwrap()
    }

    #[test]
    fn numbering_matches_the_spec_diagram() {
        assert_eq!((sq(1).row(), sq(1).col()), (0, 1));
        assert_eq!((sq(4).row(), sq(4).col()), (0, 7));
        assert_eq!((sq(5).row(), sq(5).col()), (1, 0));
        assert_eq!((sq(29).row(), sq(29).col()), (7, 0));
        assert_eq!((sq(32).row(), sq(32).col()), (7, 6));
        assert_eq!(sq(1).algebraic(), "b8");
        assert_eq!(sq(4).algebraic(), "h8");
        assert_eq!(sq(29).algebraic(), "a1");
        assert_eq!(sq(32).algebraic(), "g1");
        for s in Square::all() {
            assert_eq!(Square::from_coords(s.row(), s.col()), Some(s));
        }
        assert_eq!(Square::from_coords(0, 0), None);
    }

    #[test]
    fn algebraic_names_parse_to_the_same_squares() {
        for s in Square::all() {
            assert_eq!(s.algebraic().parse::<Square>(), Ok(s));
            assert_eq!(s.number().to_string().parse::<Square>(), Ok(s));
        }
        assert_eq!("c3".parse::<Square>(), Ok(sq(22)));
        for bad in ["a2", "b1", "i1", "a9", "A1", "c33", "0", "33"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn squares_are_written_as_their_board_writes_them() {
        assert_eq!(sq(22).to_string(), "22");
        let c3 = sq(22).on(Topology::EightAlgebraic).unwrap();
        assert_eq!(c3.to_string(), "c3");
        // The same place on the board, told apart only by its notation.
        assert_eq!(
            (c3.index(), c3.row(), c3.col()),
            (sq(22).index(), sq(22).row(), sq(22).col())
        );
        assert_eq!(c3.step(Direction::UpLeft).unwrap().to_string(), "b4");
        assert_eq!(c3.diagonal_to(sq(13)), sq(22).diagonal_to(sq(13)));
        let ten = Topology::Ten.square(50).unwrap();
        assert_eq!(ten.to_string(), "50");
    }

    #[test]
    fn steps_and_jumps_follow_the_diagonals() {
        // From the spec's sample 1: 21-17 is one step up-right, 13x22 jumps 17.
        assert_eq!(sq(21).step(Direction::UpRight), Some(sq(17)));
        assert_eq!(sq(13).jump(Direction::DownRight), Some((sq(17), sq(22))));
        assert_eq!(sq(22).jump(Direction::DownRight), Some((sq(26), sq(31))));
        assert_eq!(sq(31).jump(Direction::UpRight), Some((sq(27), sq(24))));
        assert_eq!(sq(5).step(Direction::UpLeft), None);
        assert_eq!(sq(4).step(Direction::UpRight), None);
        assert_eq!(sq(29).jump(Direction::DownRight), None);
        assert_eq!(sq(13).diagonal_to(sq(22)), Some((Direction::DownRight, 2)));
        assert_eq!(sq(13).diagonal_to(sq(14)), None);
        assert_eq!(sq(13).diagonal_to(sq(13)), None);
    }

    #[test]
    fn grid_bits_round_trip_and_steps_are_shifts() {
        for s in Square::all() {
            let index = s.grid_bit().trailing_zeros();
            assert_eq!(Square::from_grid_index(index), Some(s));
            for dir in Direction::ALL {
                if let Some(next) = s.step(dir) {
                    let moved = index as i32 + dir.grid_offset();
                    assert_eq!(next.grid_bit(), 1u64 << moved, "{s} {dir:?}");
                }
            }
        }
        let dark = Square::all().fold(0u64, |acc, s| acc | s.grid_bit());
        assert_eq!(dark.count_ones(), 32);
        assert_eq!(
            (0..64)
                .filter(|&i| Square::from_grid_index(i).is_some())
                .count(),
            32
        );
    }

    #[test]
    fn parsing_accepts_only_numbers_1_to_32() {
        assert_eq!("7".parse::<Square>(), Ok(sq(7)));
        assert_eq!("32".parse::<Square>(), Ok(sq(32)));
        for bad in ["0", "33", "", "a", "+5", "-1", "1000", "1 "] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?} parsed");
        }
    }
}
