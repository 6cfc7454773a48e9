//! Writing a game as PDN: its tags, a `[FEN]` tag for the start board, and
//! the moves with move numbers.

use crate::board::{Board, Color};

use super::super::fen::to_fen;
use super::super::movetext::MoveText;
use super::super::record::Record;

/// A game as PDN text: the `tags` (a `[FEN]` tag for `start` is added
/// after them, squares algebraic if `fen_algebraic`; none when the game
/// starts from the opening), a blank line, then the moves with move
/// numbers ([`numbered_moves`]) and `*`.
pub fn write_pdn(
    tags: &[(&str, String)],
    start: Option<&Board>,
    record: &Record,
    first_player: Color,
    fen_algebraic: bool,
    write_move: impl Fn(&MoveText) -> String,
) -> String {
    let mut text = String::new();
    for (key, value) in tags {
        text.push_str(&format!("[{key} \"{}\"]\n", value.replace('"', "'")));
    }
    if let Some(start) = start {
        let fen = to_fen(start, record.first, fen_algebraic);
        text.push_str(&format!("[FEN \"{fen}\"]\n"));
    }
    text.push('\n');
    let moves = numbered_moves(record, first_player, write_move);
    if moves.is_empty() {
        text.push('*');
    } else {
        text.push_str(&moves);
        text.push_str(" *");
    }
    text.push('\n');
    text
}

/// The moves of `record` with move numbers counted from `first_player`
/// (`12...` when the other side moves first), each written by `write_move`.
pub fn numbered_moves(
    record: &Record,
    first_player: Color,
    write_move: impl Fn(&MoveText) -> String,
) -> String {
    // Half-move 0 is the first player's move of move 1.
    let offset = usize::from(record.first != first_player);
    let mut words: Vec<String> = Vec::new();
    for (i, mv) in record.moves.iter().enumerate() {
        let half = i + offset;
        if half % 2 == 0 {
            words.push(format!("{}.", half / 2 + 1));
        } else if i == 0 {
            words.push(format!("{}...", half / 2 + 1));
        }
        words.push(write_move(mv));
    }
    words.join(" ")
}
