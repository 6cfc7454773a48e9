//! PDN games as records: tags (`[FEN "..."]` above all), movetext with move
//! numbers, comments `{...}`, variations `(...)`, annotation marks and results.

use crate::board::{Board, Color};

use super::damaged::WrittenMove;
use super::fen::parse_fen_on;
use super::movetext::{Geometry, MoveText};
use super::record::Record;

/// One game of a PDN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// Its tags, in order (`("Event", "...")`).
    pub tags: Vec<(String, String)>,
    /// The position before its first move, from the FEN tag, with the side to move.
    pub fen: Option<(Color, Board)>,
    /// The moves as a record (side to move from the FEN tag or the move numbers).
    pub record: Record,
}

impl PdnGame {
    /// The number of its `GameType` tag, if it has a readable one (`"20"`
    /// or `"20,W,10,10,N2,0"`: the first field).
    pub fn game_type(&self) -> Option<u32> {
        let (_, value) = self
            .tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("GameType"))?;
        value.split(',').next()?.trim().parse().ok()
    }
}

/// A game as PDN text: the `tags` (a `[FEN]` tag for `start` is added
/// after them, squares algebraic if `fen_algebraic`), a blank line, then the
/// moves with move numbers counted from `first_player` (`12...` when the
/// other side moves first), each written by `write_move`, and `*`.
pub fn write_pdn(
    tags: &[(&str, String)],
    start: &Board,
    record: &Record,
    first_player: Color,
    fen_algebraic: bool,
    write_move: impl Fn(&MoveText) -> String,
) -> String {
    let mut text = String::new();
    for (key, value) in tags {
        text.push_str(&format!("[{key} \"{}\"]\n", value.replace('"', "'")));
    }
    let fen = super::fen::to_fen(start, record.first, fen_algebraic);
    text.push_str(&format!("[FEN \"{fen}\"]\n\n"));
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
    words.push("*".to_string());
    text.push_str(&words.join(" "));
    text.push('\n');
    text
}

/// Why a PDN text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ParsePdnError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn is_result(token: &str) -> bool {
    matches!(
        token,
        "1-0" | "0-1" | "1/2-1/2" | "*" | "2-0" | "0-2" | "1-1" | "0-0" | "½-½"
    )
}

/// A game being read.
#[derive(Default)]
struct Partial {
    tags: Vec<(String, String)>,
    moves: Vec<WrittenMove>,
    /// The first move number said `N...`: the second player moves first.
    second_first: Option<bool>,
    line: usize,
}

/// Reads every game of a PDN text. `first_player` is who moves first in
/// this game type (Black in English checkers, White in Russian draughts):
/// `12.` is followed by the first player's move, `12...` by the second's.
///
/// # Errors
/// The first problem, with its line.
pub fn parse_pdn(
    text: &str,
    first_player: Color,
    geometry: Geometry,
) -> Result<Vec<PdnGame>, ParsePdnError> {
    let chars: Vec<char> = text.chars().collect();
    let mut games = Vec::new();
    let mut game = Partial::default();
    let mut line = 1;
    let mut i = 0;
    let error = |line: usize, message: String| ParsePdnError { line, message };
    let finish = |game: &mut Partial, games: &mut Vec<PdnGame>| -> Result<(), ParsePdnError> {
        let done = std::mem::take(game);
        if done.moves.is_empty() {
            return if done.tags.is_empty() {
                Ok(())
            } else {
                Err(error(done.line, "a game has tags but no moves".into()))
            };
        }
        let fen = match done
            .tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("FEN"))
        {
            Some((_, value)) => Some(
                parse_fen_on(value, geometry.topology)
                    .map_err(|e| error(done.line, e.to_string()))?,
            ),
            None => None,
        };
        let first = match (&fen, done.second_first) {
            (Some((turn, _)), _) => *turn,
            (None, Some(true)) => first_player.opposite(),
            (None, _) => first_player,
        };
        let record = Record::from_written(first, done.moves, done.line);
        games.push(PdnGame {
            tags: done.tags,
            fen,
            record,
        });
        Ok(())
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            c if c.is_whitespace() => i += 1,
            '[' => {
                if !game.moves.is_empty() {
                    finish(&mut game, &mut games)?;
                }
                let start = i;
                while i < chars.len() && chars[i] != ']' && chars[i] != '\n' {
                    i += 1;
                }
                if i >= chars.len() || chars[i] != ']' {
                    return Err(error(line, "a tag is not closed with ']'".into()));
                }
                let inner: String = chars[start + 1..i].iter().collect();
                i += 1;
                let (name, value) = inner
                    .trim()
                    .split_once(char::is_whitespace)
                    .ok_or_else(|| error(line, format!("tag '[{inner}]' has no value")))?;
                if game.tags.is_empty() && game.moves.is_empty() {
                    game.line = line;
                }
                game.tags
                    .push((name.to_string(), value.trim().trim_matches('"').to_string()));
            }
            '{' | '(' => {
                let close = if c == '{' { '}' } else { ')' };
                let mut depth = 0;
                let opened = line;
                loop {
                    let Some(&d) = chars.get(i) else {
                        return Err(error(opened, format!("'{c}' is never closed")));
                    };
                    if d == '\n' {
                        line += 1;
                    }
                    if d == c {
                        depth += 1;
                    } else if d == close {
                        depth -= 1;
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    i += 1;
                }
            }
            ';' | '%' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            _ => {
                let start = i;
                while i < chars.len()
                    && !chars[i].is_whitespace()
                    && !matches!(chars[i], '{' | '(' | '[' | ';')
                {
                    i += 1;
                }
                let token: String = chars[start..i].iter().collect();
                if game.tags.is_empty() && game.moves.is_empty() {
                    game.line = line;
                }
                if is_result(&token) {
                    finish(&mut game, &mut games)?;
                    continue;
                }
                // "12." / "12..." / "12.11-15": a move number, maybe glued to a move.
                let digits = token.chars().take_while(char::is_ascii_digit).count();
                let rest = if digits > 0 && token[digits..].starts_with('.') {
                    let after = token[digits..].trim_start_matches('.');
                    let dots = token.len() - digits - after.len();
                    if game.moves.is_empty() && game.second_first.is_none() {
                        game.second_first = Some(dots >= 3);
                    }
                    after
                } else if token.chars().all(|c| c == '.') {
                    if game.moves.is_empty() && game.second_first.is_none() {
                        game.second_first = Some(true);
                    }
                    ""
                } else {
                    &token
                };
                let mv = strip_annotation(rest);
                if mv.is_empty() {
                    continue;
                }
                // PDN writes captures short (`shared/spec/damaged.md`).
                let parsed = WrittenMove::parse_with(mv, geometry.short_captures())
                    .map_err(|e| error(line, e.to_string()))?;
                game.moves.push(parsed);
            }
        }
    }
    finish(&mut game, &mut games)?;
    if games.is_empty() {
        return Err(error(1, "no game found (no moves)".into()));
    }
    Ok(games)
}

/// A move without its annotation (`11-15!?`, `24x15+`). A `?` after a
/// separator, or alone, is an unknown square or move, not an annotation.
fn strip_annotation(token: &str) -> &str {
    let bare = token.trim_end_matches(['!', '?', '+', '#', '*']);
    if bare.is_empty() && token.starts_with('?') {
        return "?";
    }
    if bare.ends_with(['-', 'x', ':']) {
        let marks = &token[bare.len()..];
        let unknown = marks.len() - marks.trim_start_matches('?').len();
        return &token[..bare.len() + unknown.min(1)];
    }
    bare
}

/// Does this text look like PDN (tags or numbered moves) rather than the task's format?
pub fn looks_like_pdn(text: &str) -> bool {
    let first = text.trim_start();
    first.starts_with('[')
        || first.starts_with('{')
        || first.split_whitespace().next().is_some_and(|w| {
            w.chars().next().is_some_and(|c| c.is_ascii_digit()) && w.contains('.')
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    const GAME: &str = r#"[Event "Club game"]
[White "A"]
[Black "B"]
[GameType "21"]
[FEN "B:W18,24,27,28,K10:B12,16,20,K22"]

1. 16-19 {forced} 24x15 2. 22-17! (2. 20-24 27x20) 28-24 1-0
"#;

    #[test]
    fn reads_tags_fen_moves_and_skips_comments_variations_and_results() {
        let games = parse_pdn(GAME, Color::Black, Geometry::SHORT).unwrap();
        assert_eq!(games.len(), 1);
        let game = &games[0];
        assert_eq!(game.tags[0], ("Event".to_string(), "Club game".to_string()));
        let (turn, board) = game.fen.unwrap();
        assert_eq!(turn, Color::Black);
        assert_eq!(board.piece_count(), 9);
        assert_eq!(
            board
                .get(Square::from_number(10).unwrap())
                .map(|p| p.letter()),
            Some('W')
        );
        let moves: Vec<String> = game
            .record
            .written_moves()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(moves, ["16-19", "24x15", "22-17", "28-24"]);
        assert_eq!(game.record.first, Color::Black);
        assert_eq!(game.record.line, 1);
    }

    #[test]
    fn move_numbers_with_three_dots_start_with_the_second_player() {
        let games = parse_pdn(
            "12... 22-18 13.11-15 1/2-1/2\n\n5. 9-13 *\n",
            Color::Black,
            Geometry::SHORT,
        )
        .unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].record.first, Color::White);
        assert_eq!(games[0].record.plies(), 2);
        assert_eq!(games[1].record.first, Color::Black);
        // Russian: White moves first, algebraic moves with ':'.
        let russian =
            parse_pdn("1. c3-d4 f6-e5 2. d4:f6 *", Color::White, Geometry::FLYING).unwrap();
        assert_eq!(russian[0].record.first, Color::White);
        assert_eq!(russian[0].record.plies(), 3);
    }

    #[test]
    fn problems_name_their_line() {
        let cases = [
            ("[Event \"x\"\n1. 9-13 *", "not closed"),
            ("1. 9-13 {never closed", "never closed"),
            ("[FEN \"Q:W1\"]\n1. 9-13 *", "FEN"),
            ("1. 9-13\n2. 9-99 *", "line 2"),
            ("", "no game"),
        ];
        for (text, want) in cases {
            let err = parse_pdn(text, Color::Black, Geometry::SHORT)
                .unwrap_err()
                .to_string();
            assert!(err.contains(want), "{text:?}: {err}");
        }
        assert!(looks_like_pdn(GAME));
        assert!(looks_like_pdn("1. 9-13 *"));
        assert!(!looks_like_pdn("B 1\n9-13\n"));
    }
}
