//! `postfacto moves`: every legal move of the side to move on a board.

use std::io::Write;

use postfacto::board::Color;
use postfacto::request::{BoardText, MovesRequest};
use postfacto::rules::Variant;

use super::args::TurnArg;
use super::input::read_input;
use super::{fail, write_err, Failure, Status};

/// Prints the legal moves, sorted as plain strings, each once.
pub fn run(
    file: Option<&std::path::Path>,
    variant: Variant,
    turn: TurnArg,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let input = read_input(file)?;
    let text = input.text("the board")?;
    let side = match turn {
        TurnArg::White => Color::White,
        TurnArg::Black => Color::Black,
    };
    let moves = MovesRequest::new(BoardText::Rows(vec![text.to_string()]), variant)
        .turn(side)
        .run()
        .map_err(|e| fail(Status::BadInput, format!("{}: {e}", input.name)))?;
    for mv in moves {
        writeln!(out, "{mv}").map_err(write_err)?;
    }
    Ok(Status::Ok)
}
