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
}

impl Topology {
    /// Every board and notation.
    pub const ALL: [Topology; 4] = [
        Topology::Eight,
        Topology::EightAlgebraic,
        Topology::Ten,
        Topology::EightMirrored,
    ];

    /// Rows (and columns) of the board.
    pub const fn size(self) -> u8 {
        match self {
            Topology::Eight | Topology::EightAlgebraic | Topology::EightMirrored => 8,
            Topology::Ten => 10,
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
        match self {
            Topology::Eight | Topology::EightAlgebraic | Topology::EightMirrored => 32,
            Topology::Ten => 50,
        }
    }

    /// The first raw value of this board's squares (see [`Square`]).
    pub(super) const fn base(self) -> u8 {
        match self {
            Topology::Eight => 0,
            Topology::Ten => 64,
            Topology::EightAlgebraic => 128,
            Topology::EightMirrored => 192,
        }
    }

    /// The square with 0-based index `index` on this board, if there is one.
    pub const fn square_at(self, index: usize) -> Option<Square> {
        if index < self.count() {
            Some(Square::from_raw(self.base() + index as u8))
        } else {
            None
        }
    }

    /// Every dark square, in numbering order.
    pub fn squares(self) -> impl Iterator<Item = Square> + Clone {
        (0..self.count()).filter_map(move |i| self.square_at(i))
    }

    /// Whether the board is drawn and numbered in a mirror (see
    /// [`Topology::EightMirrored`]).
    pub const fn mirrored(self) -> bool {
        matches!(self, Topology::EightMirrored)
    }

    /// The 1-based number of the square with index `index`.
    pub const fn number_of(self, index: usize) -> usize {
        if self.mirrored() {
            let half = self.half() as usize;
            index / half * half + (half - 1 - index % half) + 1
        } else {
            index + 1
        }
    }

    /// The square with 1-based number `number`, if it is on this board.
    pub fn square(self, number: u32) -> Option<Square> {
        let position = usize::try_from(number).ok()?.checked_sub(1)?;
        if position >= self.count() {
            return None;
        }
        // Numbering is its own inverse: the mirror of a row's order.
        self.square_at(self.number_of(position) - 1)
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
    pub const fn all_bits(self) -> u64 {
        (1u64 << self.count()) - 1
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
