//! The board's geometry: how many dark squares, how they are numbered, which
//! rows crown, where the pieces start. A rule set owns one [`Topology`], and
//! every layer that needs a size reads it there instead of assuming 8x8.
//!
//! Both boards number their dark squares row by row from the top, and on
//! both the first row's dark squares are in the odd columns (0-based), so
//! one formula serves: square index `i` is on row `i / half` and column
//! `2 * (i % half) + 1 - row % 2`, where `half` is the number of dark
//! squares per row.

use super::piece::{Color, Piece, Role};
use super::position::Board;
use super::square::{Direction, Square};
use super::Bits;

/// A board size, its numbering and how its squares are written.
///
/// The 8x8 board comes twice: with numbered squares (English) and with
/// algebraic ones (Russian, Brazilian). The geometry is the same; the squares
/// of each remember which they are, so a square prints through the notation
/// of its rule set without any global switch.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub enum Topology {
    /// The 8x8 board, squares written 1..32 (English).
    #[default]
    Eight,
    /// The 8x8 board, squares written `a1`..`h8` (Russian, Brazilian).
    EightAlgebraic,
    /// The 10x10 board: 50 dark squares written 1..50 (International).
    Ten,
    /// The 8x8 board whose bottom-left corner is light (Italian): the
    /// same geometry seen in a mirror. Inside, its squares are those of
    /// the other 8x8 boards (rules are symmetric, so play is the same);
    /// only how they are numbered and drawn differs: square 1 is the top
    /// left corner, numbers run left to right along each row, and board
    /// text is mirrored.
    EightMirrored,
    /// The mirrored 8x8 board numbered from the bottom right (Spanish,
    /// Portuguese): square 1 is White's right corner and numbers run
    /// right to left along each row, up the board; square `n` is the
    /// Italian board's `33 - n`.
    EightMirroredFromBottom,
    /// The 12x12 board: 72 dark squares written 1..72 from the top left,
    /// like the 10x10 one (Canadian).
    Twelve,
}

/// [`Topology::base`] by [`Topology::id`]: the boards' squares follow
/// each other.
const BASES: [u8; Topology::ALL.len()] = {
    let mut bases = [0; Topology::ALL.len()];
    let mut i = 1;
    while i < bases.len() {
        bases[i] = bases[i - 1] + Topology::ALL[i - 1].count() as u8;
        i += 1;
    }
    bases
};

/// The largest board's number of squares.
const MOST_SQUARES: usize = 72;

/// [`Topology::square`] by [`Topology::id`] and number: the square's raw
/// value, or `NO_SQUARE` (reading a record looks up every square written,
/// so this is one load, not the numbering worked out each time).
const BY_NUMBER: [[u8; MOST_SQUARES + 1]; Topology::ALL.len()] = {
    let mut table = [[NO_SQUARE; MOST_SQUARES + 1]; Topology::ALL.len()];
    let mut id = 0;
    while id < Topology::ALL.len() {
        let topology = Topology::ALL[id];
        let mut index = 0;
        while index < topology.count() {
            table[id][topology.number_of(index)] = BASES[id] + index as u8;
            index += 1;
        }
        id += 1;
    }
    table
};

/// No square, in [`BY_NUMBER`].
const NO_SQUARE: u8 = u8::MAX;

/// The index at the mirror of `index`'s place in its row of `half` squares.
const fn mirrored_in_row(index: usize, half: usize) -> usize {
    index / half * half + (half - 1 - index % half)
}

impl Topology {
    /// Every board and notation, in the order of their raw square values.
    pub const ALL: [Topology; 6] = [
        Topology::Eight,
        Topology::EightAlgebraic,
        Topology::Ten,
        Topology::EightMirrored,
        Topology::EightMirroredFromBottom,
        Topology::Twelve,
    ];

    /// Rows (and columns) of the board.
    pub const fn size(self) -> u8 {
        match self {
            Topology::Eight
            | Topology::EightAlgebraic
            | Topology::EightMirrored
            | Topology::EightMirroredFromBottom => 8,
            Topology::Ten => 10,
            Topology::Twelve => 12,
        }
    }

    /// Whether squares are written algebraically (`c3`) rather than by number.
    pub const fn algebraic(self) -> bool {
        matches!(self, Topology::EightAlgebraic)
    }

    /// The same board with numbered squares.
    pub const fn numbered(self) -> Topology {
        match self {
            Topology::EightAlgebraic => Topology::Eight,
            other => other,
        }
    }

    /// Dark squares per row.
    pub const fn half(self) -> u8 {
        self.size() / 2
    }

    /// Number of dark squares.
    pub const fn count(self) -> usize {
        let size = self.size() as usize;
        size * size / 2
    }

    /// Position in [`Topology::ALL`].
    pub const fn id(self) -> usize {
        self as usize
    }

    /// The first raw value of this board's squares (see [`Square`]): the
    /// boards' squares follow each other in [`Topology::ALL`] order.
    pub(super) const fn base(self) -> u8 {
        BASES[self.id()]
    }

    /// The square with 0-based index `index` on this board, if there is one.
    pub const fn square_at(self, index: usize) -> Option<Square> {
        if index < self.count() {
            Some(Square::from_raw(self.base() + index as u8))
        } else {
            None
        }
    }

    /// The squares of the set `bits` (bit `i` for index `i`), by index.
    pub fn squares_in(self, bits: impl Into<Bits>) -> SquaresIn {
        let bits = bits.into();
        SquaresIn {
            topology: self,
            low: bits as u64,
            high: (bits >> 64) as u64,
        }
    }

    /// Every dark square, in numbering order.
    pub fn squares(self) -> impl Iterator<Item = Square> + Clone {
        (0..self.count()).filter_map(move |i| self.square_at(i))
    }

    /// Whether the board is drawn and numbered in a mirror (see
    /// [`Topology::EightMirrored`]).
    pub const fn mirrored(self) -> bool {
        matches!(
            self,
            Topology::EightMirrored | Topology::EightMirroredFromBottom
        )
    }

    /// The 1-based number of the square with index `index`.
    pub const fn number_of(self, index: usize) -> usize {
        match self {
            Topology::EightMirrored => mirrored_in_row(index, 4) + 1,
            Topology::EightMirroredFromBottom => self.count() - mirrored_in_row(index, 4),
            _ => index + 1,
        }
    }

    /// The square with 1-based number `number`, if it is on this board.
    pub fn square(self, number: u32) -> Option<Square> {
        let raw = *BY_NUMBER[self.id()].get(usize::try_from(number).ok()?)?;
        (raw != NO_SQUARE).then(|| Square::from_raw(raw))
    }

    /// The dark square at `row`, `col` (0-based, row 0 at the top, as the
    /// board is drawn), if that square is dark.
    pub fn from_coords(self, row: u8, col: u8) -> Option<Square> {
        let n = self.size();
        let col = if self.mirrored() && col < n {
            n - 1 - col
        } else {
            col
        };
        let dark = row < n && col < n && (row + col) % 2 == 1;
        dark.then(|| self.square_at(usize::from(row * self.half() + col / 2)))?
    }

    /// The row where `color`'s men are crowned: White at the top, Black at the bottom.
    pub const fn crowning_row(self, color: Color) -> u8 {
        match color {
            Color::White => 0,
            Color::Black => self.size() - 1,
        }
    }

    /// A bitboard with every square of this board (bit `index`).
    pub const fn all_bits(self) -> Bits {
        (1 << self.count()) - 1
    }

    /// The opening position: Black men on the top rows, White men on the
    /// bottom rows, two rows empty in the middle.
    pub fn opening(self) -> Board {
        let men = (usize::from(self.size()) / 2 - 1) * usize::from(self.half());
        let mut board = Board::empty_on(self);
        for sq in self.squares() {
            let color = if sq.index() < men {
                Color::Black
            } else if sq.index() >= self.count() - men {
                Color::White
            } else {
                continue;
            };
            board.set(sq, Some(Piece::new(color, Role::Man)));
        }
        board
    }

    /// The neighbour of square index `index` one step away in `dir`, as an
    /// index, if it is on the board (for building step tables).
    pub(super) const fn step_index(self, index: u8, dir: Direction) -> Option<u8> {
        let half = self.half();
        let row = index / half;
        let col = 2 * (index % half) + 1 - row % 2;
        let r = row as i8 + dir.row_delta();
        let c = col as i8 + dir.col_delta();
        let n = self.size() as i8;
        if r >= 0 && r < n && c >= 0 && c < n {
            Some(r as u8 * half + c as u8 / 2)
        } else {
            None
        }
    }
}

/// The squares of a set, by index ([`Topology::squares_in`]). The set is
/// walked as two words: a 128-bit walk costs twice as much, and boards of
/// at most 64 squares never reach the second.
#[derive(Clone, Debug)]
pub struct SquaresIn {
    topology: Topology,
    low: u64,
    high: u64,
}

impl Iterator for SquaresIn {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let index = if self.low != 0 {
            let index = self.low.trailing_zeros() as usize;
            self.low &= self.low - 1;
            index
        } else if self.high != 0 {
            let index = self.high.trailing_zeros() as usize;
            self.high &= self.high - 1;
            64 + index
        } else {
            return None;
        };
        self.topology.square_at(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ten_board_is_numbered_as_the_spec_says() {
        let ten = Topology::Ten;
        let sq = |n| ten.square(n).expect("on the board");
        assert_eq!((sq(1).row(), sq(1).col()), (0, 1));
        assert_eq!((sq(5).row(), sq(5).col()), (0, 9));
        assert_eq!((sq(6).row(), sq(6).col()), (1, 0));
        assert_eq!((sq(46).row(), sq(46).col()), (9, 0));
        assert_eq!(ten.square(51), None);
        assert_eq!(ten.square(0), None);
        assert_eq!(ten.count(), 50);
        // 46 is a corner: one neighbour, up-right (41).
        assert_eq!(sq(46).step(Direction::UpRight), Some(sq(41)));
        assert_eq!(sq(46).step(Direction::UpLeft), None);
        assert_eq!(sq(46).diagonal_to(sq(5)), Some((Direction::UpRight, 9)));
        let opening = ten.opening();
        assert_eq!(opening.piece_count(), 40);
        assert_eq!(opening.get(sq(20)).map(|p| p.color), Some(Color::Black));
        assert_eq!(opening.get(sq(25)), None);
        assert_eq!(opening.get(sq(31)).map(|p| p.color), Some(Color::White));
    }

    #[test]
    fn the_spanish_board_is_the_italian_one_numbered_backwards() {
        let (italian, spanish) = (Topology::EightMirrored, Topology::EightMirroredFromBottom);
        for n in 1..=32 {
            let (i, s) = (italian.square(n).unwrap(), spanish.square(33 - n).unwrap());
            assert_eq!((i.row(), i.col()), (s.row(), s.col()), "{n}");
            assert_eq!(s.number() as u32, 33 - n);
        }
        // Square 1 is White's right corner, at the bottom right of the text.
        let one = spanish.square(1).unwrap();
        assert_eq!(spanish.from_coords(7, 7), Some(one));
        assert_eq!(
            spanish.from_coords(7, 0),
            None,
            "the bottom-left corner is light"
        );
        let opening = spanish.opening();
        assert_eq!(opening.get(one).map(|p| p.color), Some(Color::White));
        assert_eq!(
            opening.get(spanish.square(21).unwrap()).map(|p| p.color),
            Some(Color::Black)
        );
    }

    #[test]
    fn the_twelve_board_has_72_squares_and_sets_reach_them_all() {
        let twelve = Topology::Twelve;
        assert_eq!(twelve.count(), 72);
        let sq = |n| twelve.square(n).expect("on the board");
        assert_eq!((sq(1).row(), sq(1).col()), (0, 1));
        assert_eq!((sq(7).row(), sq(7).col()), (1, 0));
        assert_eq!((sq(72).row(), sq(72).col()), (11, 10));
        assert_eq!(twelve.square(73), None);
        assert_eq!(sq(67).step(Direction::UpRight), Some(sq(61)));
        let opening = twelve.opening();
        assert_eq!(opening.piece_count(), 60);
        assert_eq!(opening.squares_of(Color::White).count(), 30);
        assert_eq!(opening.squares_of(Color::White).last(), Some(sq(72)));
        let mut board = opening;
        board.set(sq(72), Some(Piece::new(Color::White, Role::King)));
        assert_eq!(
            board.get(sq(72)),
            Some(Piece::new(Color::White, Role::King))
        );
        assert_eq!(board.king_count(), 1);
        assert_eq!(board.kings(), sq(72).bit());
        board.set(sq(72), None);
        assert!(board.is_empty(sq(72)));
        assert_eq!(board.topology(), twelve);
        assert_eq!(twelve.squares_in(twelve.all_bits()).count(), 72);
    }

    #[test]
    fn the_eight_board_keeps_its_numbering() {
        let eight = Topology::Eight;
        for (n, sq) in (1..).zip(eight.squares()) {
            assert_eq!(Square::from_number(n), Some(sq));
            assert_eq!(eight.from_coords(sq.row(), sq.col()), Some(sq));
        }
        assert_eq!(eight.opening(), Board::opening());
        assert_eq!(
            eight.crowning_row(Color::Black),
            Color::Black.crowning_row()
        );
    }
}
