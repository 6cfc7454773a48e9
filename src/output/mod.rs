//! `solve`'s reports written in each format (the task's boards, JSON, FEN
//! pairs, PDN games, SVG pictures), and `reach`'s answers
//! ([`ReachAnswer`]): one writer per format, used by the binary, the
//! Python package and the page alike, so each prints the same answer the
//! same way.

mod json;
mod reach;

use crate::analysis::EditKind;
use crate::board::{Board, Color};
use crate::notation::{to_fen, write_game, Answer, GameText, MoveText, Record};
use crate::render::{svg_drawn, Picture};
use crate::request::{Report, SolveOptions, WriteFileError};
use crate::rules::Variant;

pub use json::{to_json, JsonEdit, JsonReport};
pub use reach::{model_game_text, ReachAnswer};

/// The formats `solve` writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// The task's output: each answer's two boards.
    #[default]
    Icpc,
    /// One JSON object per record.
    Json,
    /// The start and end boards as FEN strings.
    Fen,
    /// Each answer as a PDN game.
    Pdn,
    /// Each answer as an SVG picture of both boards and the moves.
    Svg {
        /// Arrows for the last this many plies only (all when `None`).
        arrows: Option<usize>,
    },
}

/// What one report puts on standard output: its answers (each a board
/// pair, separated by the printer), then further text; with SVG, the
/// pictures to write (`0001.svg`, `0001-2.svg`, ...), named in order.
#[derive(Clone, Debug, Default)]
pub struct Rendered {
    /// Each answer's boards (the task's format).
    pub answers: Vec<String>,
    /// Further text (explanations, counts, JSON, FEN, PDN).
    pub text: String,
    /// SVG pictures: file name and content.
    pub pictures: Vec<(String, String)>,
}

impl Rendered {
    /// Writes the SVG pictures into `dir`, each file's path then named in
    /// the text (a line each), so the printed answer says where they are.
    ///
    /// # Errors
    /// A picture cannot be written.
    pub fn write_pictures(&mut self, dir: &std::path::Path) -> Result<(), WriteFileError> {
        for (name, picture) in std::mem::take(&mut self.pictures) {
            let file = dir.join(name);
            std::fs::write(&file, picture).map_err(|source| WriteFileError {
                action: "write",
                path: file.clone(),
                source,
            })?;
            self.text.push_str(&format!("{}\n", file.display()));
        }
        Ok(())
    }
}

/// The `index`-th report (0-based, for picture names) in `format`.
pub fn render(index: usize, report: &Report, format: Format, options: &SolveOptions) -> Rendered {
    let mut rendered = Rendered::default();
    match format {
        Format::Icpc => {
            rendered.answers = report.answers.iter().map(Answer::text).collect();
            rendered.text.clone_from(&report.text);
        }
        Format::Json => rendered.text = format!("{}\n", to_json(report, options)),
        Format::Fen => rendered.text = fen_pairs(report),
        Format::Pdn => {
            let games: Vec<String> = answers_played(report)
                .into_iter()
                .filter_map(|(answer, played)| Some((answer, played?)))
                .map(|(answer, record)| pdn_game(report, answer, record))
                .collect();
            rendered.text = games.join("\n");
        }
        Format::Svg { arrows } => rendered.pictures = pictures(index, report, arrows),
    }
    rendered
}

/// Each answer's start and end as FEN strings, a blank line between answers.
fn fen_pairs(report: &Report) -> String {
    let Some(record) = report.record else {
        return String::new();
    };
    let algebraic = report.variant.fen_algebraic();
    let pairs: Vec<String> = answers_played(report)
        .into_iter()
        .map(|(answer, played)| {
            let played = played.unwrap_or(record);
            format!(
                "{}\n{}\n",
                to_fen(&answer.start, played.first, algebraic),
                to_fen(&answer.end, turn_after(played), algebraic)
            )
        })
        .collect();
    pairs.join("\n")
}

/// Each answer as an SVG picture: `0001.svg`, and with `--all`
/// `0001-2.svg`, `0001-3.svg`, ...; moves not as written are marked.
fn pictures(index: usize, report: &Report, arrows: Option<usize>) -> Vec<(String, String)> {
    let mut pictures = Vec::new();
    for (k, (answer, played)) in answers_played(report).into_iter().enumerate() {
        let Some(record) = played else { continue };
        let file = match k {
            0 => format!("{:04}.svg", index + 1),
            k => format!("{:04}-{}.svg", index + 1, k + 1),
        };
        let marked: Vec<usize> = changed_moves(report, record)
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.as_ref().map(|_| i + 1))
            .collect();
        let name = report.name.to_string();
        let picture = Picture {
            name: Some(&name),
            marked: &marked,
            last_plies: arrows,
        };
        pictures.push((file, svg_drawn(answer, record, report.variant, &picture)));
    }
    pictures
}

/// Side to move after the record: the first mover, or the other after an odd count.
fn turn_after(record: &Record) -> Color {
    record.mover(record.plies() + 1)
}

/// The record's moves as the rule set writes them.
fn moves_of(record: &Record, variant: Variant) -> Vec<String> {
    record
        .moves
        .iter()
        .map(|m: &MoveText| variant.write_move(m))
        .collect()
}

/// The record's moves as written (`?` and short captures as they stand).
fn written_of(record: &Record, variant: Variant) -> Vec<String> {
    if !record.is_damaged() {
        return moves_of(record, variant);
    }
    record
        .written_moves()
        .iter()
        .map(|w| variant.write_written(w))
        .collect()
}

/// The moves the first answer plays: the record's own, or for a damaged
/// record the filling found; none without an answer (an impossible record
/// plays nothing, damaged or not: `record` holds what was written).
fn played<'a>(report: &'a Report) -> Option<&'a Record> {
    report.answers.first()?;
    let record = report.record.filter(|r| !r.is_damaged());
    report.filled.first().or(record)
}

/// Every answer with the moves it plays: its own filling for a damaged
/// record, else the record's (none before an answer for a damaged one).
fn answers_played<'a>(report: &'a Report) -> Vec<(&'a Answer, Option<&'a Record>)> {
    report
        .answers
        .iter()
        .enumerate()
        .map(|(k, answer)| {
            let own = report.filled.get(k);
            let record = report.record.filter(|r| !r.is_damaged());
            (answer, own.or(record))
        })
        .collect()
}

/// One answer as a PDN game: a PDN input's game written back as it was
/// (its tags, move numbers, result), with a `[FEN]` for the start found
/// (none when that is the opening of a game that had none), and a comment
/// after each move that is not as written (`{written 37-31}`).
fn pdn_game(report: &Report, answer: &Answer, record: &Record) -> String {
    let variant = report.variant;
    let own = GameText {
        tags: vec![
            ("Event".into(), report.name.to_string()),
            ("GameType".into(), variant.pdn_game_type().to_string()),
        ],
        ..GameText::default()
    };
    let game = report.pdn.unwrap_or(&own);
    let mut comments = changed_moves(report, record);
    // With a prefix, the whole game from the opening.
    let whole = report.prefix.as_ref().map(|prefix| {
        let mut moves = prefix.record.moves.clone();
        moves.extend(record.moves.iter().cloned());
        comments.splice(0..0, vec![None; prefix.record.moves.len()]);
        Record::new(prefix.record.first, moves)
    });
    let had_fen = game.tags.iter().any(|(k, _)| k.eq_ignore_ascii_case("FEN"));
    let opening =
        answer.start == variant.topology().opening() && record.first == variant.first_player();
    let start = (whole.is_none() && (had_fen || !opening)).then_some(&answer.start);
    write_game(
        game,
        start,
        whole.as_ref().unwrap_or(record),
        variant.first_player(),
        variant.fen_algebraic(),
        &comments,
        |mv| variant.write_move(mv),
    ) + "\n"
}

/// For each ply of `played`, what was written there when it differs: the
/// repair's edits, or the damaged moves as they were filled in.
fn changed_moves(report: &Report, played: &Record) -> Vec<Option<String>> {
    let mut comments = vec![None; played.moves.len()];
    let mut note = |ply: usize, text: String| {
        if let Some(slot) = ply.checked_sub(1).and_then(|i| comments.get_mut(i)) {
            let joined = slot
                .take()
                .map_or(text.clone(), |old| format!("{old}; {text}"));
            *slot = Some(joined);
        }
    };
    if let Some(edits) = report.repairs.as_ref().filter(|e| !e.is_empty()) {
        for edit in edits {
            match edit.kind {
                EditKind::Square | EditKind::Move => {
                    note(edit.ply, format!("written {}", edit.written))
                }
                EditKind::Missing => note(edit.ply, "not written".into()),
                EditKind::Extra => note(
                    edit.ply.max(1) - 1,
                    format!("then {} written, not played", edit.written),
                ),
                EditKind::First => note(1, "written with the other side first".into()),
                EditKind::Swap => {
                    note(edit.ply, format!("written {}", edit.written));
                    note(edit.other_ply, format!("written {}", edit.read));
                }
            }
        }
        return comments;
    }
    let Some(record) = report.record else {
        return comments;
    };
    let written = written_of(record, report.variant);
    for (i, mv) in played.moves.iter().enumerate() {
        if let Some(w) = written
            .get(i)
            .filter(|w| **w != report.variant.write_move(mv))
        {
            note(i + 1, format!("written {w}"));
        }
    }
    comments
}

/// A board's rows, top first: as many as the board has.
fn rows(board: &Board) -> Vec<String> {
    (0..board.topology().size())
        .map(|r| board.row_text(r))
        .collect()
}

/// `text` with control characters and Unicode line separators escaped
/// (`\n`, `\u{b}`, `\u{2028}`), so a message that quotes input stays on
/// one line. Tabs are kept.
pub fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c != '\t' && (c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}
