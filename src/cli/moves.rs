//! `postfacto moves`: every legal move of the side to move on a board
//! given as a FEN or as rows.

use std::io::Write;

use postfacto::board::Color;
use postfacto::notation::SquareNames;
use postfacto::request::{BoardText, MovesRequest};
use postfacto::rules::Variant;

use super::args::TurnArg;
use super::input::read_input;
use super::{write_err, Failure, Status};

/// Prints the legal moves, sorted by square, each once.
pub fn run(
    file: Option<&std::path::Path>,
    variant: Option<Variant>,
    turn: Option<TurnArg>,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let input = read_input(file)?;
    let text = input.text("the board")?;
    let board = if text.contains(':') {
        BoardText::Fen(text.trim().to_string())
    } else {
        BoardText::Rows(vec![text.to_string()])
    };
    let variant = variant.unwrap_or_else(|| board_rules(&board));
    let mut request = MovesRequest::new(board, variant);
    if let Some(turn) = turn {
        request = request.turn(match turn {
            TurnArg::White => Color::White,
            TurnArg::Black => Color::Black,
        });
    }
    let moves = request
        .run()
        .map_err(|e| Failure::request(Some(&input.name), e))?;
    for mv in moves {
        writeln!(out, "{mv}").map_err(write_err)?;
    }
    Ok(Status::Ok)
}

/// The rule set a board names by itself: by its rows (8, 10 or 12), or
/// by the squares its FEN names (the first rule set they allow).
fn board_rules(board: &BoardText) -> Variant {
    match board {
        BoardText::Fen(fen) => {
            let mut names = SquareNames::default();
            names.scan(fen);
            Variant::candidates(names)[0]
        }
        BoardText::Rows(rows) => {
            let lines = rows
                .iter()
                .flat_map(|r| r.lines())
                .filter(|l| !l.trim().is_empty())
                .count();
            Variant::ALL
                .into_iter()
                .find(|v| usize::from(v.topology().size()) == lines)
                .unwrap_or_default()
        }
    }
}
