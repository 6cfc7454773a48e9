//! `postfacto moves`: every legal move of the side to move on a board.

use std::io::Write;

use postfacto::board::Color;
use postfacto::notation::parse_board_on;
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
    let board = parse_board_on(text, variant.topology())
        .map_err(|e| fail(Status::BadInput, format!("{}: {e}", input.name)))?;
    let rules = variant.rules();
    if let Some(problem) = rules.start_problems(&board).first() {
        return Err(fail(
            Status::BadInput,
            format!("{}: not a valid position: {problem}", input.name),
        ));
    }
    let side = match turn {
        TurnArg::White => Color::White,
        TurnArg::Black => Color::Black,
    };
    let mut moves: Vec<String> = rules
        .legal_moves(&board, side)
        .iter()
        .map(|m| variant.write_move(m))
        .collect();
    moves.sort();
    moves.dedup();
    for mv in moves {
        writeln!(out, "{mv}").map_err(write_err)?;
    }
    Ok(Status::Ok)
}
