//! The board layer: squares, pieces and boards. Knows nothing of legality.

pub mod grid;
mod piece;
mod position;
mod square;
mod topology;

pub use piece::{Color, Piece, Role};
pub use position::{Board, PartialBoard};
pub use square::{Direction, ParseSquareError, Square};
pub use topology::Topology;
