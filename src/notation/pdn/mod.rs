//! PDN (`shared/spec/pdn.md`): game files as real archives write them.
//!
//! Reading is in two steps, because which rules a game follows (and so
//! which board its squares are on) is known only once its tags and moves
//! have been looked at: [`games`] cuts the text into [`RawGame`]s, each
//! with its tags and move tokens; [`RawGame::read`] then reads one under a
//! board and move geometry into a [`PdnGame`]. Choosing the rule set is
//! the rules layer's business (`crate::archive`).

mod lenient;
mod lex;
mod write;

pub use lenient::{describe as describe_leniencies, Leniency};
pub use lex::{games, Games, RawGame, RawMove, Tag};
pub use write::{numbered_moves, write_game, write_pdn, GameText, MoveNumbers};

use crate::board::{Board, Color, Square, Topology};

use super::damaged::{Miswritten, MovePattern, WrittenMove};
use super::fen::parse_fen_on;
use super::movetext::{Geometry, ParseMoveError};
use super::record::Record;

/// One game of a PDN file, read under one board and geometry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// 1-based position of the game in its file.
    pub number: usize,
    /// Its tags, in order (`("Event", "...")`).
    pub tags: Vec<(String, String)>,
    /// The position before its first move, from the FEN tag, with the side to move.
    pub fen: Option<(Color, Board)>,
    /// The moves as a record (side to move from the FEN tag, else the move
    /// numbers, else the first player). A diagram has no moves.
    pub record: Record,
    /// What of the game was read leniently, in the order met.
    pub notes: Vec<Leniency>,
    /// The moves read with the other separator, each with its move as
    /// written: both readings are kept until a replay decides.
    pub rereads: Vec<Reread>,
}

/// A move read with the other separator (`15-24` as the capture 15x24, as
/// Spanish files write captures; `37-33` as 37x33), kept with the move as
/// written (no move on the board): a replay that finds the other reading
/// illegal at its ply takes the written one back
/// ([`PdnGame::as_written_at`]), so the move is named and repaired as
/// written (`37-33 read as 37-32`, a square).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reread {
    /// 1-based ply.
    pub ply: usize,
    /// The move as written.
    pub written: WrittenMove,
}

impl PdnGame {
    /// The game with the move of `ply` read as written rather than with
    /// the other separator, its note on that move dropped; `None` when
    /// that move was read as written already.
    pub fn as_written_at(&self, ply: usize) -> Option<PdnGame> {
        let reread = self.rereads.iter().find(|r| r.ply == ply)?;
        let mut moves = self.record.written_moves();
        *moves.get_mut(ply - 1)? = reread.written.clone();
        let mut game = self.clone();
        game.record = Record::from_written(self.record.first, moves, self.record.line);
        game.notes
            .retain(|n| !(matches!(n, Leniency::Separator { .. }) && n.ply() == Some(ply)));
        game.rereads.retain(|r| r.ply != ply);
        Some(game)
    }

    /// The game's `GameType` tag, if it has a readable one.
    pub fn game_type(&self) -> Option<GameType> {
        let (_, value) = self
            .tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("GameType"))?;
        GameType::parse(value)
    }
}

/// A `GameType` tag: `"20"`, or its long form `"20,W,10,10,N2,0"` (type,
/// colour that starts, board width and height, notation with where square
/// 1 lies, inverted board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameType {
    /// The type number (20 International, 21 English, ...).
    pub number: u32,
    /// The long form's fields after the number, as written.
    pub fields: Vec<String>,
}

impl GameType {
    /// Reads a tag value; `None` when its first field is not a number.
    pub fn parse(value: &str) -> Option<GameType> {
        let mut fields = value.split(',').map(str::trim);
        let number = fields.next()?.parse().ok()?;
        Some(GameType {
            number,
            fields: fields.map(str::to_string).collect(),
        })
    }
}

/// How a game's text names squares: what narrows the rule sets it can follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SquareNames {
    /// Some square is written algebraically (`c3`).
    pub algebraic: bool,
    /// The highest square number written (0 if none).
    pub highest: u32,
}

impl SquareNames {
    /// Adds the squares named in `text` (a move or a FEN).
    pub fn scan(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b.is_ascii_lowercase()
                && b != b'x'
                && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)
            {
                self.algebraic = true;
                i += 2;
            } else if b.is_ascii_digit() {
                let run = bytes[i..].iter().take_while(|d| d.is_ascii_digit()).count();
                let number = text[i..i + run].parse().unwrap_or(u32::MAX);
                self.highest = self.highest.max(number);
                i += run;
            } else {
                i += 1;
            }
        }
    }
}

/// How to read a game: its board and move distances, and who moves first
/// when neither a FEN nor a move number says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameReading {
    /// The board and how far moves go (captures are always read short).
    pub geometry: Geometry,
    /// The side that moves first in this game type.
    pub first_player: Color,
    /// Refuse what real archives write but the standard does not (damaged
    /// tag lines, upper-case squares, the other separator, moves that are
    /// no move on the board), instead of reading it leniently with a note.
    pub strict: bool,
}

/// Why a game (or a PDN text) could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ParsePdnError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl RawGame<'_> {
    /// The game's `GameType` tag, if it has a readable one.
    pub fn game_type(&self) -> Option<GameType> {
        GameType::parse(self.tag("GameType")?)
    }

    /// The squares its moves and FEN name.
    pub fn square_names(&self) -> SquareNames {
        let mut names = SquareNames::default();
        for mv in &self.moves {
            names.scan(&mv.text);
        }
        if let Some(fen) = self.tag("FEN") {
            // The side letters and `K` are capitals: only squares count.
            names.scan(fen);
        }
        names
    }

    /// True when the game has no moves (a diagram, or a problem with only its result).
    pub fn is_diagram(&self) -> bool {
        self.moves.is_empty()
    }

    /// Reads the game under `reading`: its FEN, its moves (captures read
    /// short, `shared/spec/damaged.md`), who moves first.
    ///
    /// # Errors
    /// The game's syntax problem, a FEN or a move that does not read on
    /// this board, with its line.
    pub fn read(&self, reading: GameReading) -> Result<PdnGame, ParsePdnError> {
        if let Some((line, message)) = &self.problem {
            return Err(ParsePdnError {
                line: *line,
                message: message.clone(),
            });
        }
        let (fen, turn_known) = self.fen(reading.geometry.topology)?;
        let mut notes = self.notes.clone();
        if let (true, Some(note)) = (reading.strict, notes.first()) {
            return Err(ParsePdnError {
                line: note.line(),
                message: note.as_error(),
            });
        }
        let mut rereads = Vec::new();
        let moves = self.written_moves(reading, &mut notes, &mut rereads)?;
        let first = match (&fen, self.second_first) {
            (Some((turn, _)), _) if turn_known => *turn,
            (_, Some(true)) => reading.first_player.opposite(),
            (_, Some(false)) => reading.first_player,
            (Some((_, board)), None) => {
                first_mover(board, moves.first()).unwrap_or(reading.first_player)
            }
            (None, None) => reading.first_player,
        };
        Ok(PdnGame {
            number: self.number,
            tags: self
                .tags
                .iter()
                .map(|t| (t.name.to_string(), t.value.to_string()))
                .collect(),
            fen,
            record: Record::from_written(first, moves, self.line),
            notes,
            rereads,
        })
    }

    /// The game's `[FEN]` read on `topology`, and whether it names the
    /// side to move (some files write `?` for a side they do not know).
    fn fen(&self, topology: Topology) -> Result<(Option<(Color, Board)>, bool), ParsePdnError> {
        let Some(tag) = self.find_tag("FEN") else {
            return Ok((None, true));
        };
        let value = tag.value.trim();
        let unknown = value.strip_prefix('?');
        let text = unknown.map_or_else(|| value.to_string(), |rest| format!("W{rest}"));
        let fen = parse_fen_on(&text, topology).map_err(|e| ParsePdnError {
            line: tag.line,
            message: e.to_string(),
        })?;
        Ok((Some(fen), unknown.is_none()))
    }

    /// The moves read (captures short), a final match score left out; a
    /// move that does not read is read leniently unless `reading` is
    /// strict, with a note in `notes` when its separator was swapped and
    /// its move as written in `rereads`.
    fn written_moves(
        &self,
        reading: GameReading,
        notes: &mut Vec<Leniency>,
        rereads: &mut Vec<Reread>,
    ) -> Result<Vec<WrittenMove>, ParsePdnError> {
        let geometry = reading.geometry.short_captures();
        let mut moves = Vec::with_capacity(self.moves.len());
        for (i, raw) in self.moves.iter().enumerate() {
            let error = match read_move(&raw.text, geometry) {
                Ok(mv) => {
                    moves.push(mv);
                    continue;
                }
                Err(e) => e,
            };
            // A match score some files write where the result goes.
            let last = i + 1 == self.moves.len();
            if last && self.result.is_none() && lex::looks_like_score(&raw.text) {
                continue;
            }
            let lenient = (!reading.strict)
                .then(|| reread(&raw.text, geometry, &error))
                .flatten();
            let Some((mv, read_as)) = lenient else {
                return Err(ParsePdnError {
                    line: raw.line,
                    message: error.to_string(),
                });
            };
            if let Some(read) = read_as {
                let ply = moves.len() + 1;
                notes.push(Leniency::Separator {
                    ply,
                    line: raw.line,
                    written: raw.text.to_string(),
                    read: Some(read),
                });
                if let Some(written) = Miswritten::read(&raw.text, geometry, &error) {
                    let written = WrittenMove::Pattern(MovePattern::Miswritten(Box::new(written)));
                    rereads.push(Reread { ply, written });
                }
            }
            moves.push(mv);
        }
        Ok(moves)
    }
}

/// A move that does not read as written on this board, read leniently:
/// with the other separator when that reads (`10x14` as the step 10-14,
/// `15-24` as the capture 15x24; the text read is returned for the note),
/// else as a miswritten move, a mistake at its ply. `None` for a text that
/// is no move at all.
fn reread(
    text: &str,
    geometry: Geometry,
    error: &ParseMoveError,
) -> Option<(WrittenMove, Option<String>)> {
    // One separator throughout, a capture's first (`42:33-50` mixes them).
    for separator in ["x", "-"] {
        let swapped = text.replace(['-', ':', 'x'], separator);
        if swapped != text {
            if let Ok(mv) = read_move(&swapped, geometry) {
                return Some((mv, Some(swapped)));
            }
        }
    }
    let miswritten = Miswritten::read(text, geometry, error)?;
    Some((
        WrittenMove::Pattern(MovePattern::Miswritten(Box::new(miswritten))),
        None,
    ))
}

/// The colour of the piece the first move starts from, when the move says
/// where it starts and the board has a piece there.
fn first_mover(board: &Board, first: Option<&WrittenMove>) -> Option<Color> {
    let from = match first? {
        WrittenMove::Known(mv) => mv.from(),
        WrittenMove::Pattern(pattern) => pattern.from()?,
    };
    board.color_at(from)
}

/// One PDN move: `?` for an unknown move, algebraic squares without a
/// separator (`a3b4`), leading zeros (`06-11`), `:` for `x` on any board.
fn read_move(text: &str, geometry: Geometry) -> Result<WrittenMove, ParseMoveError> {
    if text == "?" {
        return Ok(WrittenMove::Pattern(MovePattern::Unknown));
    }
    if let Some(squares) = unseparated(text, geometry) {
        return Ok(squares);
    }
    WrittenMove::parse_with(text, geometry)
}

/// A move of algebraic squares with no separator (`a3b4`, `c3e5g3`): two
/// diagonal neighbours are a step, three or more squares a capture, and
/// two further apart either a king's step or a capture
/// ([`MovePattern::Between`]).
fn unseparated(text: &str, geometry: Geometry) -> Option<WrittenMove> {
    let bytes = text.as_bytes();
    let algebraic = bytes.len() >= 4
        && bytes.len().is_multiple_of(2)
        && bytes
            .chunks(2)
            .all(|p| p[0].is_ascii_lowercase() && p[1].is_ascii_digit());
    if !algebraic || !geometry.topology.algebraic() {
        return None;
    }
    let squares: Vec<Square> = bytes
        .chunks(2)
        .map(|p| {
            geometry
                .topology
                .parse_square(std::str::from_utf8(p).ok()?)
                .ok()
        })
        .collect::<Option<_>>()?;
    let separator = match squares.as_slice() {
        [from, to] => match from.diagonal_to(*to) {
            Some((_, 1)) => "-",
            _ => {
                return Some(WrittenMove::Pattern(MovePattern::Between {
                    from: *from,
                    to: *to,
                }))
            }
        },
        _ => ":",
    };
    let written = squares
        .iter()
        .map(|s| s.algebraic())
        .collect::<Vec<_>>()
        .join(separator);
    WrittenMove::parse_with(&written, geometry).ok()
}

/// Reads every game of a PDN text under one reading, strictly (nothing
/// read leniently), failing at the first game that cannot be read. Archives are better read game by game
/// ([`games`], then [`RawGame::read`]); this is for texts of one rule set
/// that must be whole.
///
/// # Errors
/// The first problem, with its line; a text without any game.
pub fn parse_pdn(
    text: &str,
    first_player: Color,
    geometry: Geometry,
) -> Result<Vec<PdnGame>, ParsePdnError> {
    let reading = GameReading {
        geometry,
        first_player,
        strict: true,
    };
    let games = games(text)
        .map(|game| game.read(reading))
        .collect::<Result<Vec<_>, _>>()?;
    if games.is_empty() {
        return Err(ParsePdnError {
            line: 1,
            message: "no game found".into(),
        });
    }
    Ok(games)
}

/// Does this text look like PDN (tags or numbered moves) rather than the task's format?
pub fn looks_like_pdn(text: &str) -> bool {
    let first = text.trim_start_matches('\u{feff}').trim_start();
    first.starts_with('[')
        || first.starts_with('{')
        || first.split_whitespace().next().is_some_and(|w| {
            w.chars().next().is_some_and(|c| c.is_ascii_digit()) && w.contains('.')
        })
}

#[cfg(test)]
mod tests;
