//! The pawn puzzle's board: an N x N grid of pawns, its text format, and
//! the attack relation.

use std::fmt;

use crate::random::Rng;

/// A square of the board, 0-based inside the library; printed 1-based as
/// the puzzle numbers rows (from the top) and columns (from the left).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell {
    /// 0-based row, from the top.
    pub row: usize,
    /// 0-based column, from the left.
    pub col: usize,
}

impl fmt::Display for Cell {
    /// `r c`, 1-based, as in the puzzle's output.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.row + 1, self.col + 1)
    }
}

/// Which way a pawn captures: up-left or up-right.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// To (r-1, c-1), written `L`.
    Left,
    /// To (r-1, c+1), written `R`.
    Right,
}

impl Side {
    /// Both sides, left first.
    pub const BOTH: [Side; 2] = [Side::Left, Side::Right];

    /// `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Side::Left => 'L',
            Side::Right => 'R',
        }
    }
}

/// An N x N board of pawns (any pawn may capture any other).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PawnBoard {
    size: usize,
    /// Row-major occupancy, `size * size` entries.
    pawns: Vec<bool>,
}

impl PawnBoard {
    /// An empty `size` x `size` board.
    pub fn empty(size: usize) -> PawnBoard {
        PawnBoard {
            size,
            pawns: vec![false; size * size],
        }
    }

    /// A board from row-major occupancy (`size * size` entries).
    ///
    /// # Panics
    /// If `pawns` does not have `size * size` entries.
    pub fn from_occupancy(size: usize, pawns: Vec<bool>) -> PawnBoard {
        assert_eq!(
            Some(pawns.len()),
            size.checked_mul(size),
            "not {size} x {size}"
        );
        PawnBoard { size, pawns }
    }

    /// A random board: each square holds a pawn with probability `percent`/100.
    pub fn random(size: usize, percent: u32, rng: &mut Rng) -> PawnBoard {
        let mut board = PawnBoard::empty(size);
        for has in &mut board.pawns {
            *has = rng.chance(percent);
        }
        board
    }

    /// A board from rows of `O` (pawn) and `.` (empty), all of one length
    /// equal to their number (for tests and examples).
    ///
    /// # Panics
    /// If the rows do not make a square of `O` and `.`.
    pub fn from_rows(rows: &[&str]) -> PawnBoard {
        let mut board = PawnBoard::empty(rows.len());
        for (r, row) in rows.iter().enumerate() {
            assert_eq!(
                row.len(),
                rows.len(),
                "row {} is not {} long",
                r + 1,
                rows.len()
            );
            for (c, ch) in row.chars().enumerate() {
                assert!(ch == 'O' || ch == '.', "'{ch}' is not O or .");
                board.set(Cell { row: r, col: c }, ch == 'O');
            }
        }
        board
    }

    /// N.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Is there a pawn on `cell`? (False off the board.)
    pub fn has(&self, cell: Cell) -> bool {
        cell.row < self.size && cell.col < self.size && self.pawns[self.index(cell)]
    }

    /// Puts or removes a pawn.
    ///
    /// # Panics
    /// If `cell` is off the board.
    pub fn set(&mut self, cell: Cell, pawn: bool) {
        let i = self.index(cell);
        self.pawns[i] = pawn;
    }

    /// The row-major index of `cell` (`row * N + col`).
    pub fn index(&self, cell: Cell) -> usize {
        cell.row * self.size + cell.col
    }

    /// The cell of a row-major index.
    pub fn cell(&self, index: usize) -> Cell {
        Cell {
            row: index / self.size,
            col: index % self.size,
        }
    }

    /// Row-major occupancy, one entry per square.
    pub fn occupancy(&self) -> &[bool] {
        &self.pawns
    }

    /// Every pawn, in row-major order.
    pub fn pawns(&self) -> impl Iterator<Item = Cell> + '_ {
        self.pawns
            .iter()
            .enumerate()
            .filter(|(_, &p)| p)
            .map(|(i, _)| self.cell(i))
    }

    /// How many pawns.
    pub fn pawn_count(&self) -> usize {
        self.pawns.iter().filter(|&&p| p).count()
    }

    /// The square a pawn on `cell` attacks on `side`, if it is on the board.
    pub fn target(&self, cell: Cell, side: Side) -> Option<Cell> {
        let row = cell.row.checked_sub(1)?;
        let col = match side {
            Side::Left => cell.col.checked_sub(1)?,
            Side::Right => cell.col + 1,
        };
        (col < self.size).then_some(Cell { row, col })
    }

    /// The pawns the pawn on `cell` attacks now (up-left first).
    pub fn attacked_by(&self, cell: Cell) -> impl Iterator<Item = (Side, Cell)> + '_ {
        Side::BOTH
            .into_iter()
            .filter_map(move |side| self.target(cell, side).map(|t| (side, t)))
            .filter(|&(_, t)| self.has(t))
    }

    /// The first pair (attacker, attacked) of pawns, in row-major order of
    /// the attacker; `None` when no pawn attacks another.
    pub fn first_attack(&self) -> Option<(Cell, Cell)> {
        self.pawns()
            .find_map(|p| self.attacked_by(p).next().map(|(_, t)| (p, t)))
    }
}

impl fmt::Display for PawnBoard {
    /// N lines of `O` and `.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.pawns.chunks(self.size.max(1)) {
            let line: String = row.iter().map(|&p| if p { 'O' } else { '.' }).collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pawn_attacks_the_two_squares_diagonally_above_it() {
        let b = PawnBoard::from_rows(&["O.O", ".O.", "..."]);
        let attacked: Vec<_> = b.attacked_by(Cell { row: 1, col: 1 }).collect();
        assert_eq!(
            attacked,
            vec![
                (Side::Left, Cell { row: 0, col: 0 }),
                (Side::Right, Cell { row: 0, col: 2 })
            ]
        );
        // Top row and board edges: no target.
        assert_eq!(b.target(Cell { row: 0, col: 1 }, Side::Left), None);
        assert_eq!(b.target(Cell { row: 2, col: 0 }, Side::Left), None);
        assert_eq!(b.target(Cell { row: 2, col: 2 }, Side::Right), None);
        assert_eq!(
            b.first_attack(),
            Some((Cell { row: 1, col: 1 }, Cell { row: 0, col: 0 }))
        );
        assert_eq!(
            PawnBoard::from_rows(&["OO", "..",][..]).first_attack(),
            None
        );
    }

    #[test]
    fn prints_as_it_reads_with_one_based_cells() {
        let b = PawnBoard::from_rows(&["O.", ".O"]);
        assert_eq!(b.to_string(), "O.\n.O\n");
        assert_eq!(Cell { row: 1, col: 0 }.to_string(), "2 1");
        assert_eq!(b.pawn_count(), 2);
    }
}
