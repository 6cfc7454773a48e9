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
    numbered_from(record, first_player, 1, &[], write_move)
}

/// How PDN numbers the plies of a game: a move number covers the rule
/// set's first player's ply and the other side's after it, and counts on
/// from the game's first number (`17... 19-23` when the other side moves
/// first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNumbers {
    /// The side whose ply opens a move number (the rule set's first player).
    pub first_player: Color,
    /// The number of the game's first move (1 when it wrote none).
    pub first_number: usize,
}

impl MoveNumbers {
    /// Half-move `0` is the first player's ply of the first move number.
    fn half(&self, first: Color, ply: usize) -> usize {
        ply.saturating_sub(1) + usize::from(first != self.first_player)
    }

    /// Ply `ply` (1-based) of `record` as PDN numbers it: `3.` for the
    /// first player's, `3...` for the other side's.
    pub fn label(&self, record: &Record, ply: usize) -> String {
        self.label_from(record.first, ply)
    }

    /// How many plies the sheet's number `written` (with `...`: the second
    /// player's) stands ahead of ply `ply` of a record whose first ply is
    /// `first`'s: positive when plies are missing before it, negative when
    /// the sheet repeats a number.
    pub fn gap(&self, first: Color, ply: usize, (number, second): (u32, bool)) -> isize {
        let written = (number as isize - self.first_number as isize) * 2 + isize::from(second);
        written - self.half(first, ply) as isize
    }

    /// The sheet's number as written before a move: `8.` or `7...`.
    pub fn written_label((number, second): (u32, bool)) -> String {
        format!("{number}{}", if second { "..." } else { "." })
    }

    /// [`MoveNumbers::label`] of a record whose first ply is `first`'s.
    pub fn label_from(&self, first: Color, ply: usize) -> String {
        self.label_shifted(first, ply, 0)
    }

    /// [`MoveNumbers::label_from`] on a sheet whose numbers stand `shift`
    /// plies ahead of the plies' own (its first number disagreed with the
    /// side to move, which is no mistake).
    pub fn label_shifted(&self, first: Color, ply: usize, shift: isize) -> String {
        let half = (self.half(first, ply) as isize + shift).max(0) as usize;
        let number = half / 2 + self.first_number;
        if half.is_multiple_of(2) {
            format!("{number}.")
        } else {
            format!("{number}...")
        }
    }
}

/// [`numbered_moves`] with the first move numbered `first_number`, and
/// after ply `i + 1` the comment `comments[i]` when there is one.
fn numbered_from(
    record: &Record,
    first_player: Color,
    first_number: usize,
    comments: &[Option<String>],
    write_move: impl Fn(&MoveText) -> String,
) -> String {
    let numbers = MoveNumbers {
        first_player,
        first_number,
    };
    let mut words: Vec<String> = Vec::new();
    for (i, mv) in record.moves.iter().enumerate() {
        // A number before the first player's ply, and before the first.
        if numbers.half(record.first, i + 1).is_multiple_of(2) || i == 0 {
            words.push(numbers.label(record, i + 1));
        }
        words.push(write_move(mv));
        if let Some(Some(comment)) = comments.get(i) {
            words.push(format!("{{{}}}", comment.replace('}', ")")));
        }
    }
    words.join(" ")
}

/// A game read from PDN, written back: what of it to keep.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameText {
    /// Its tags, in order (a `[FEN]` among them is replaced by the start
    /// board written; `[SetUp]` kept).
    pub tags: Vec<(String, String)>,
    /// The number of its first move (1 when it wrote none).
    pub first_number: Option<u32>,
    /// Its result (`*` when it had none).
    pub result: Option<String>,
}

impl GameText {
    /// The number its moves start at (1 when it wrote none, or 0).
    pub fn first_move(&self) -> usize {
        self.first_number.map_or(1, |n| n.max(1) as usize)
    }
}

/// `record` as the game `game` was written: its own tags, move numbers and
/// result; the `[FEN]` of `start` (none when it is the opening and the game
/// had none); after ply `i + 1` the comment `comments[i]` (what was
/// written there, where the moves differ from it).
#[allow(clippy::too_many_arguments)]
pub fn write_game(
    game: &GameText,
    start: Option<&Board>,
    record: &Record,
    first_player: Color,
    fen_algebraic: bool,
    comments: &[Option<String>],
    write_move: impl Fn(&MoveText) -> String,
) -> String {
    let mut text = String::new();
    let mut fen_written = false;
    for (key, value) in &game.tags {
        let value = if key.eq_ignore_ascii_case("FEN") {
            match start {
                Some(start) => {
                    fen_written = true;
                    to_fen(start, record.first, fen_algebraic)
                }
                None => continue,
            }
        } else {
            value.replace('"', "'")
        };
        text.push_str(&format!("[{key} \"{value}\"]\n"));
    }
    if let (Some(start), false) = (start, fen_written) {
        let fen = to_fen(start, record.first, fen_algebraic);
        text.push_str(&format!("[FEN \"{fen}\"]\n"));
    }
    text.push('\n');
    let first_number = game.first_number.map_or(1, |n| n.max(1) as usize);
    let moves = numbered_from(record, first_player, first_number, comments, write_move);
    let result = game.result.as_deref().unwrap_or("*");
    if moves.is_empty() {
        text.push_str(result);
    } else {
        text.push_str(&moves);
        text.push(' ');
        text.push_str(result);
    }
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_records;

    #[test]
    fn plies_are_labelled_as_pdn_numbers_them() {
        let numbers = MoveNumbers {
            first_player: Color::Black,
            first_number: 17,
        };
        let black_first = parse_records("B 3\n11-15\n23-19\n8-11\n")
            .unwrap()
            .remove(0);
        let labels: Vec<String> = (1..=3).map(|p| numbers.label(&black_first, p)).collect();
        assert_eq!(labels, ["17.", "17...", "18."]);
        let white_first = parse_records("W 2\n23-19\n11-15\n").unwrap().remove(0);
        assert_eq!(numbers.label(&white_first, 1), "17...");
        assert_eq!(numbers.label(&white_first, 2), "18.");
        assert_eq!(
            numbered_from(&white_first, Color::Black, 17, &[], |m| m.to_string()),
            "17... 23-19 18. 11-15"
        );
    }
}
