//! The variable map: three variables per start-board square, in a fixed order.
//!
//! Square `s` (1-based number `n`) owns DIMACS variables `3n-2` (occupied),
//! `3n-1` (white) and `3n` (king). The order never changes, so golden DIMACS
//! files stay stable.

use varisat::{Lit, Var};

use crate::board::{Board, Color, Piece, Role, Square, Topology};

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

/// Number of variables of the start-board encoding on the 8x8 board.
pub const VAR_COUNT: usize = 3 * Square::COUNT;

/// Number of variables on the largest board (12x12).
pub const MAX_VAR_COUNT: usize = 3 * 72;

/// Number of variables of the start-board encoding on `topology`'s board.
pub const fn var_count(topology: Topology) -> usize {
    3 * topology.count()
}

/// The square a start-board variable is about, if it is one on `topology`'s board.
pub fn square_of(v: Var, topology: Topology) -> Option<Square> {
    topology.square_at(v.index() / 3)
}

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

/// A readable name such as `start sq5 king` (8x8 board).
pub fn name(v: Var) -> String {
    name_on(Topology::Eight)(v)
}

/// [`name`] for the variables of `topology`'s board.
pub fn name_on(topology: Topology) -> impl Fn(Var) -> String {
    move |v: Var| {
        let fact = Fact::ALL[v.index() % 3].name();
        let prefix = if topology.algebraic() { "" } else { "sq" };
        match square_of(v, topology) {
            Some(square) => format!("start {prefix}{square} {fact}"),
            None => format!("auxiliary {}", v.index() + 1),
        }
    }
}

/// Reads the 8x8 start board off a model (a list of true and false literals).
pub fn decode(model: &[Lit]) -> Board {
    decode_on(model, Topology::Eight)
}

/// Reads the start board of `topology` off a model.
pub fn decode_on(model: &[Lit], topology: Topology) -> Board {
    let mut value = [false; MAX_VAR_COUNT];
    for l in model {
        if l.index() < var_count(topology) {
            value[l.index()] = l.is_positive();
        }
    }
    let mut board = Board::empty_on(topology);
    for sq in topology.squares() {
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
    board
        .topology()
        .squares()
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
