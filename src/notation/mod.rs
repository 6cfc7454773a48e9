//! Text formats: move text, records (the task's input) and answers (its output).
//! Nothing here knows whether a move is legal.

mod answer;
mod damaged;
mod fen;
mod movetext;
mod pdn;
mod record;

pub use answer::{
    named_blocks, parse_answers, parse_answers_on, parse_board, parse_board_on,
    parse_named_answers_on, parse_partial_board_on, Answer, AnswerBlock, BoardTextProblem,
    ParseAnswerError, NAME_MARK,
};
pub use damaged::{Miswritten, MovePattern, WrittenMove};
pub use fen::{parse_fen, parse_fen_on, to_fen, ParseFenError};

/// `text` without the byte order mark Windows editors put first: no
/// part of a record, an answer, a board or a PDN file.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// `1 game`, `2 games`: a count and its noun, in the plural when it is
/// not one.
pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}
/// `1 ply`, `2 plies`: [`plural`] for the one noun that is not `+s`.
pub fn plies(count: usize) -> String {
    if count == 1 {
        "1 ply".to_string()
    } else {
        format!("{count} plies")
    }
}
pub use movetext::{Geometry, MoveText, ParseMoveError};
pub use pdn::{
    describe_leniencies, games, looks_like_pdn, numbered_moves, parse_pdn, write_game, write_pdn,
    GameReading, GameText, GameType, Games, Leniency, MoveNumbers, ParsePdnError, PdnGame, RawGame,
    RawMove, Reread, SquareNames, Tag,
};
pub use record::{
    parse_records, parse_records_bytes, parse_records_bytes_with, parse_records_with,
    reads_as_records_only, ParseRecordError, Record, RecordErrorKind,
};
