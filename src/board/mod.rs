//! The board layer: squares, pieces and boards. Knows nothing of legality.

pub mod grid;
pub mod hash;
mod piece;
mod position;
mod square;
mod topology;

pub use piece::{Color, Piece, Role};
pub use position::{Board, PartialBoard};
pub use square::{Direction, ParseSquareError, Square};
pub use topology::{SquaresIn, Topology};

/// A set of squares of one board: bit `i` for the square with index `i`.
/// 128 bits hold the largest board (12x12, 72 squares) and leave room for
/// the board's mark (see [`Board`]).
pub type Bits = u128;
