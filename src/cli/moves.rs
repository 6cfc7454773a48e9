//! `postfacto moves`: every legal move of the side to move on a board
//! given as a FEN or as rows.

use std::io::Write;

use postfacto::request::{BoardText, MovesRequest, RulesChoice, Source};

use super::args::TurnArg;
use super::{write_err, Failure, Status};

/// Prints the legal moves, sorted by square, each once; none says why
/// on standard error.
pub fn run(
    file: Option<&std::path::Path>,
    rules: RulesChoice,
    turn: Option<TurnArg>,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let input = Source::board(file)?;
    let text = input.text("the board")?;
    let board = BoardText::of_text(text);
    let variant = rules.for_board(&board);
    let mut request = MovesRequest::new(board, variant);
    if let Some(turn) = turn {
        request = request.turn(turn.into());
    }
    let listed = request
        .listed()
        .map_err(|e| Failure::request(Some(&input.name), e))?;
    for mv in &listed.moves {
        writeln!(out, "{mv}").map_err(write_err)?;
    }
    if let Some(why) = listed.why_none {
        // Nothing on standard output (a script reads an empty list); a
        // person at a terminal learns why rather than see nothing.
        eprintln!("postfacto: {} has no legal move: {why}", listed.side);
    }
    Ok(Status::Ok)
}
