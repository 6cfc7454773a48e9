//! The variable map: three variables per start-board square, in a fixed order.
//!
//! Square `s` (1-based number `n`) owns DIMACS variables `3n-2` (occupied),
//! `3n-1` (white) and `3n` (king). The order never changes, so golden DIMACS
//! files stay stable.

use varisat::{Lit, Var};

use crate::board::{Board, Color, Piece, Role, Square};

/// One boolean fact about a start-board square.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Fact {
    /// A piece stands on the square.
    Occupied,
    /// The piece is white (false: black). Forced false on empty squares.
    White,
    /// The piece is a king (false: man). Forced false on empty squares.
    King,
}

impl Fact {
    const ALL: [Fact; 3] = [Fact::Occupied, Fact::White, Fact::King];

    fn name(self) -> &'static str {
        match self {
            Fact::Occupied => "occupied",
            Fact::White => "white",
            Fact::King => "king",
        }
    }
}

/// Number of variables of the start-board encoding.
pub const VAR_COUNT: usize = 3 * Square::COUNT;

/// The variable for `fact` about `square` on the start board.
pub fn var(square: Square, fact: Fact) -> Var {
    Var::from_index(3 * square.index() + fact as usize)
}

/// The literal "`fact` holds on `square`" (or its negation when `value` is false).
pub fn lit(square: Square, fact: Fact, value: bool) -> Lit {
    var(square, fact).lit(value)
}

/// The literal "the piece on `square` is of `color`".
pub fn color_lit(square: Square, color: Color) -> Lit {
    lit(square, Fact::White, color == Color::White)
}

/// A readable name such as `start sq5 king`.
pub fn name(v: Var) -> String {
    let index = v.index();
    let square = Square::new((index / 3) as u8);
    let prefix = if crate::board::writes_squares_algebraically() {
        ""
    } else {
        "sq"
    };
    format!("start {prefix}{square} {}", Fact::ALL[index % 3].name())
}

/// Reads the start board off a model (a list of true and false literals).
pub fn decode(model: &[Lit]) -> Board {
    let mut value = [false; VAR_COUNT];
    for l in model {
        if l.index() < VAR_COUNT {
            value[l.index()] = l.is_positive();
        }
    }
    let mut board = Board::empty();
    for sq in Square::all() {
        let at = |fact: Fact| value[var(sq, fact).index()];
        if at(Fact::Occupied) {
            let color = if at(Fact::White) {
                Color::White
            } else {
                Color::Black
            };
            let role = if at(Fact::King) {
                Role::King
            } else {
                Role::Man
            };
            board.set(sq, Some(Piece::new(color, role)));
        }
    }
    board
}

/// The three literals that say `square` holds `piece` (or nothing).
pub fn square_lits(square: Square, piece: Option<Piece>) -> [Lit; 3] {
    [
        lit(square, Fact::Occupied, piece.is_some()),
        lit(
            square,
            Fact::White,
            piece.is_some_and(|p| p.color == Color::White),
        ),
        lit(square, Fact::King, piece.is_some_and(Piece::is_king)),
    ]
}

/// The model (as literals over all variables) that describes `board`.
pub fn encode_board(board: &Board) -> Vec<Lit> {
    Square::all()
        .flat_map(|sq| square_lits(sq, board.get(sq)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_is_fixed() {
        let sq5 = Square::from_number(5).unwrap();
        assert_eq!(var(sq5, Fact::Occupied).to_dimacs(), 13);
        assert_eq!(var(sq5, Fact::King).to_dimacs(), 15);
        assert_eq!(name(Var::from_dimacs(15)), "start sq5 king");
        assert_eq!(name(Var::from_dimacs(96)), "start sq32 king");
    }

    #[test]
    fn boards_round_trip_through_models() {
        let board = Board::opening();
        assert_eq!(decode(&encode_board(&board)), board);
    }
}
