//! Printing `solve`'s results in the chosen format, in input order.

use std::io::Write;
use std::path::Path;

use rayon::prelude::*;
use std::time::Duration;

use postfacto::analysis::EditKind;
use postfacto::board::Color;
use postfacto::notation::{plural, to_fen, write_game, Answer, GameText, MoveText, Record};
use postfacto::render::svg_named;
use postfacto::rules::Variant;
use postfacto::solve::SolveStats;

use super::args::FormatArg;
use super::settings::Settings;
use super::{fail, write_err, Failure, Status};

/// How messages name a record: its input, and which of its records when
/// it has several. Written out only when a message or JSON needs it.
#[derive(Clone, Copy, Debug)]
pub struct Name<'a> {
    pub input: &'a str,
    /// 1-based instance (or PDN game) and the line where it starts, for
    /// inputs of several records and for PDN games.
    pub instance: Option<(usize, usize)>,
    /// The instance is a PDN game.
    pub game: bool,
}

impl std::fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.game { "game" } else { "instance" };
        match self.instance {
            None => f.write_str(self.input),
            Some((n, line)) => write!(f, "{}: {what} {n} (line {line})", self.input),
        }
    }
}

/// Everything `solve` has to say about one record (or one unreadable input).
#[derive(Debug)]
pub struct Report<'r> {
    pub name: Name<'r>,
    /// The record, when it could be read (borrowed from the parsed input:
    /// a batch is not held in memory twice).
    pub record: Option<&'r Record>,
    pub status: Status,
    /// Answers to print (several with `--all`).
    pub answers: Vec<Answer>,
    /// For a damaged record, each answer's moves filled in (same order).
    pub filled: Vec<Record>,
    /// Further text for standard output (explanations, counts).
    pub text: String,
    /// Messages for standard error (without the `postfacto: ` prefix).
    pub err: Vec<String>,
    pub stats: Option<SolveStats>,
    pub micros: u128,
    /// Why the record is impossible, when it is.
    pub explanation: Option<String>,
    /// The rule set the record was read under.
    pub variant: Variant,
    /// That rule set was inferred (not named, not a PDN tag's).
    pub inferred: bool,
    /// A PDN game without moves: nothing was reconstructed.
    pub no_moves: bool,
    /// The edits of the (first) repair, with `--repair`.
    pub repairs: Option<Vec<postfacto::analysis::Edit>>,
    /// With `--from-opening`: the game from the opening to the answer's start.
    pub prefix: Option<PrefixReport>,
    /// The results of the analyses, for JSON (the text carries them too).
    pub analysed: Analysed,
    /// A PDN game's tags, move numbers and result, to write it back.
    pub pdn: Option<&'r GameText>,
    /// Where the start board came from (given, a FEN, the opening, unknown).
    pub start_from: Option<postfacto::request::StartFrom>,
}

/// What an analysis option found, as data (`--count`, `--unique`,
/// `--minimize`, `--explain`).
#[derive(Clone, Debug, Default)]
pub struct Analysed {
    /// Answers found, and whether that is all of them (`--count`, `--all`).
    pub count: Option<(usize, bool)>,
    /// Whether every answer agrees on the used squares (`--unique`).
    pub unique: Option<bool>,
    /// Where two answers differ, when not unique.
    pub differs_on: Vec<String>,
    /// The fewest pieces and kings, proved minimal (`--minimize`).
    pub minimum: Option<(usize, usize)>,
    /// The start board's squares every answer shares, and why (`--explain`).
    pub forced: Vec<String>,
    /// The rules in conflict, one per line (`--explain`, impossible).
    pub core: Vec<String>,
    /// The same conflict as the `c` lines of `postfacto cnf`'s formula.
    pub core_cnf: Vec<String>,
}

/// The game from the opening to a fragment's start (`solve --from-opening`).
#[derive(Clone, Debug)]
pub struct PrefixReport {
    /// Its moves, from the opening.
    pub record: Record,
    /// No shorter prefix reaches any start board of the fragment.
    pub minimal: bool,
    /// The fewest plies a prefix can have, as far as proved.
    pub lower_bound: u32,
}

impl<'r> Report<'r> {
    pub fn new(name: Name<'r>, record: &'r Record) -> Report<'r> {
        Report {
            name,
            record: Some(record),
            status: Status::Ok,
            answers: Vec::new(),
            filled: Vec::new(),
            text: String::new(),
            err: Vec::new(),
            stats: None,
            micros: 0,
            explanation: None,
            variant: Variant::English,
            inferred: false,
            repairs: None,
            no_moves: false,
            prefix: None,
            analysed: Analysed::default(),
            pdn: None,
            start_from: None,
        }
    }

    /// The report without its record and name, to outlive them (they are
    /// put back by whoever holds the originals).
    pub fn without_record(self) -> Report<'static> {
        Report {
            record: None,
            name: Name {
                input: "",
                instance: None,
                game: false,
            },
            status: self.status,
            answers: self.answers,
            filled: self.filled,
            text: self.text,
            err: self.err,
            stats: self.stats,
            micros: self.micros,
            explanation: self.explanation,
            variant: self.variant,
            inferred: self.inferred,
            no_moves: self.no_moves,
            repairs: self.repairs,
            prefix: self.prefix,
            analysed: self.analysed,
            pdn: None,
            start_from: self.start_from,
        }
    }

    pub fn bad_input(input: &'r str, message: &str) -> Report<'r> {
        Report {
            name: Name {
                input,
                instance: None,
                game: false,
            },
            record: None,
            status: Status::BadInput,
            answers: Vec::new(),
            filled: Vec::new(),
            text: String::new(),
            err: vec![message.to_string()],
            stats: None,
            micros: 0,
            explanation: None,
            variant: Variant::English,
            inferred: false,
            no_moves: false,
            repairs: None,
            prefix: None,
            analysed: Analysed::default(),
            pdn: None,
            start_from: None,
        }
    }

    fn status_word(&self) -> &'static str {
        if self.no_moves {
            return "no moves";
        }
        match self.status {
            Status::Ok | Status::Code(_) => "solved",
            Status::Rejected => "impossible",
            Status::Undecided => "undecided",
            Status::BadInput => "bad input",
            Status::Internal => "internal error",
        }
    }
}

/// "2000 records: 1998 solved, 2 impossible, 0 bad input, 0 undecided, 0 internal errors; 0.41 s".
pub fn summary(reports: &[Report], elapsed: Duration) -> String {
    let count = |s: Status| reports.iter().filter(|r| r.status == s).count();
    format!(
        "{}: {} solved, {} impossible, {} bad input, {} undecided, {} internal errors; {:.2} s",
        plural(reports.len(), "record"),
        count(Status::Ok),
        count(Status::Rejected),
        count(Status::BadInput),
        count(Status::Undecided),
        count(Status::Internal),
        elapsed.as_secs_f64()
    )
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
    let written = record.written_moves();
    let text = |w: &postfacto::notation::WrittenMove| {
        if variant.algebraic() {
            w.algebraic()
        } else {
            w.numbered()
        }
    };
    written.iter().map(text).collect()
}

/// The moves the first answer plays: the record's own, or for a damaged
/// record the filling found (none before an answer).
fn played<'a>(report: &'a Report) -> Option<&'a Record> {
    match (report.filled.first(), report.record) {
        (Some(filled), _) => Some(filled),
        (None, Some(record)) if !record.is_damaged() => Some(record),
        _ => None,
    }
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
fn rows(board: &postfacto::board::Board) -> Vec<String> {
    (0..board.topology().size())
        .map(|r| board.row_text(r))
        .collect()
}

fn json_of(report: &Report, settings: &Settings) -> serde_json::Value {
    let variant = report.variant;
    let algebraic = variant.fen_algebraic();
    let board_json = |answer: &Answer, record: &Record| {
        let lines = rows;
        serde_json::json!({
            "start": lines(&answer.start),
            "end": lines(&answer.end),
            "start_fen": to_fen(&answer.start, record.first, algebraic),
            "end_fen": to_fen(&answer.end, turn_after(record), algebraic),
        })
    };
    let mut value = serde_json::json!({
        "name": report.name.to_string(),
        "status": report.status_word(),
        "rules": variant.name(),
        "rules_inferred": report.inferred,
        "engine": settings.engine.name(),
        "time_us": report.micros,
    });
    let object = value.as_object_mut().expect("an object");
    if let Some(record) = report.record {
        object.insert("first".into(), record.first.name().into());
        // The moves as played (filled in, for a damaged record that has
        // an answer), and as written: shared/spec/damaged.md.
        if let Some(played) = played(report) {
            object.insert("moves".into(), moves_of(played, variant).into());
        }
        object.insert("record".into(), written_of(record, variant).into());
        if let Some(answer) = report.answers.first() {
            if let serde_json::Value::Object(boards) = board_json(answer, record) {
                object.extend(boards);
            }
        }
        // Every answer (one, or all of them with --all), each with its moves.
        let answers: Vec<serde_json::Value> = answers_played(report)
            .into_iter()
            .map(|(answer, played)| {
                let played = played.unwrap_or(record);
                let mut one = board_json(answer, played);
                if let Some(fields) = one.as_object_mut() {
                    fields.insert("moves".into(), moves_of(played, variant).into());
                }
                one
            })
            .collect();
        object.insert("answers".into(), answers.into());
    }
    if let Some(stats) = report.stats {
        if settings.engine.name() == "sat" {
            object.insert("variables".into(), stats.vars.into());
            // The shortcut builds no formula: no clause count to give.
            if !stats.shortcut {
                object.insert("clauses".into(), stats.clauses.into());
            }
            if stats.learned > 0 {
                object.insert("learned".into(), stats.learned.into());
            }
            if report.status == Status::Ok && settings.solver.is_none() {
                let by = match (stats.shortcut, stats.lucky) {
                    (true, _) => "unit facts",
                    (false, true) => "lucky assignment",
                    (false, false) => "varisat",
                };
                object.insert("decided_by".into(), by.into());
            }
        } else {
            object.insert("dfs_nodes".into(), stats.nodes.into());
        }
    }
    if let Some(why) = &report.explanation {
        object.insert("explanation".into(), why.clone().into());
    }
    if let Some(edits) = &report.repairs {
        let repairs: Vec<serde_json::Value> = edits
            .iter()
            .map(|e| {
                serde_json::json!({
                    "ply": e.ply,
                    "kind": e.kind.name(),
                    "written": e.written,
                    "read": e.read,
                })
            })
            .collect();
        object.insert("repairs".into(), repairs.into());
    }
    if let Some(prefix) = &report.prefix {
        object.insert("prefix".into(), moves_of(&prefix.record, variant).into());
        object.insert("prefix_plies".into(), prefix.record.moves.len().into());
        object.insert("prefix_minimal".into(), prefix.minimal.into());
        object.insert("prefix_lower_bound".into(), prefix.lower_bound.into());
    }
    if report.status != Status::Ok && report.explanation.is_none() {
        object.insert("message".into(), report.err.join("; ").into());
    }
    let analysed = &report.analysed;
    if let Some((found, complete)) = analysed.count {
        object.insert("count".into(), found.into());
        object.insert("count_complete".into(), complete.into());
    }
    if let Some(unique) = analysed.unique {
        object.insert("unique".into(), unique.into());
        object.insert("differs_on".into(), analysed.differs_on.clone().into());
    }
    if let Some((pieces, kings)) = analysed.minimum {
        object.insert("pieces".into(), pieces.into());
        object.insert("kings".into(), kings.into());
        object.insert("proved_minimal".into(), true.into());
    }
    if !analysed.forced.is_empty() {
        object.insert("forced".into(), analysed.forced.clone().into());
    }
    if !analysed.core.is_empty() {
        object.insert("core".into(), analysed.core.clone().into());
    }
    if !analysed.core_cnf.is_empty() {
        object.insert("core_cnf".into(), analysed.core_cnf.clone().into());
    }
    if let Some((game, line)) = report.name.instance {
        object.insert(
            if report.name.game { "game" } else { "instance" }.into(),
            game.into(),
        );
        object.insert("line".into(), line.into());
    }
    object.insert("input".into(), report.name.input.into());
    if let Some(from) = report.start_from {
        object.insert("start_from".into(), from.name().into());
    }
    object.insert(
        "repaired".into(),
        report
            .repairs
            .as_ref()
            .is_some_and(|e| !e.is_empty())
            .into(),
    );
    // One schema: every key present in every object, null when it does
    // not apply (docs/cli.md lists them).
    for key in JSON_KEYS {
        object.entry(*key).or_insert(serde_json::Value::Null);
    }
    value
}

/// The keys of every `solve --format json` object.
pub const JSON_KEYS: &[&str] = &[
    "name",
    "input",
    "game",
    "instance",
    "start_from",
    "line",
    "status",
    "message",
    "rules",
    "rules_inferred",
    "engine",
    "time_us",
    "first",
    "record",
    "moves",
    "start",
    "end",
    "start_fen",
    "end_fen",
    "answers",
    "variables",
    "clauses",
    "learned",
    "decided_by",
    "dfs_nodes",
    "explanation",
    "core",
    "core_cnf",
    "forced",
    "count",
    "count_complete",
    "unique",
    "differs_on",
    "pieces",
    "kings",
    "proved_minimal",
    "repaired",
    "repairs",
    "prefix",
    "prefix_plies",
    "prefix_minimal",
    "prefix_lower_bound",
];

/// What one report puts on standard output: its answers (each 8 lines,
/// separated later), then further text.
struct Rendered {
    answers: Vec<String>,
    text: String,
}

/// Renders one report in `format`; writes its SVG file when asked.
fn render(index: usize, report: &Report, settings: &Settings) -> Result<Rendered, Failure> {
    let variant = report.variant;
    let mut rendered = Rendered {
        answers: Vec::new(),
        text: String::new(),
    };
    let algebraic = variant.fen_algebraic();
    match settings.format {
        FormatArg::Icpc => {
            rendered.answers = report.answers.iter().map(Answer::text).collect();
            rendered.text.clone_from(&report.text);
        }
        FormatArg::Json => rendered.text = format!("{}\n", json_of(report, settings)),
        FormatArg::Fen => {
            if let Some(record) = report.record {
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
                rendered.text = pairs.join("\n");
            }
        }
        FormatArg::Pdn => {
            let games: Vec<String> = answers_played(report)
                .into_iter()
                .filter_map(|(answer, played)| Some((answer, played?)))
                .map(|(answer, record)| pdn_game(report, answer, record))
                .collect();
            rendered.text = games.join("\n");
        }
        FormatArg::Svg => {
            let dir = settings.out_dir.as_deref().unwrap_or(Path::new("."));
            for (k, (answer, played)) in answers_played(report).into_iter().enumerate() {
                let Some(record) = played else { continue };
                // 0001.svg, and with --all 0001-2.svg, 0001-3.svg, ...
                let name = match k {
                    0 => format!("{:04}.svg", index + 1),
                    k => format!("{:04}-{}.svg", index + 1, k + 1),
                };
                let file = dir.join(name);
                let marked: Vec<usize> = changed_moves(report, record)
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| c.as_ref().map(|_| i + 1))
                    .collect();
                let name = report.name.to_string();
                let picture = svg_named(answer, record, variant, Some(&name), &marked);
                std::fs::write(&file, picture).map_err(|e| {
                    fail(
                        Status::BadInput,
                        format!("cannot write '{}': {e}", file.display()),
                    )
                })?;
                rendered.text.push_str(&format!("{}\n", file.display()));
            }
        }
    }
    Ok(rendered)
}

/// How a batch's answer is named: `==> file: instance 2 (line 9) <==`.
pub const ANSWER_NAME: &str = "==> ";

/// Prints every report in order (rendered in parallel); returns the worst status.
pub fn print(
    reports: &[Report],
    settings: &Settings,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let rendered: Vec<Result<Rendered, Failure>> = reports
        .par_iter()
        .enumerate()
        .map(|(index, report)| render(index, report, settings))
        .collect();
    let mut status = Status::Ok;
    let mut printed = 0;
    // A batch's answers are named, so each can be matched to its record
    // (one without an answer is a name alone); `verify` skips the names.
    let named = reports.len() > 1 && matches!(settings.format, FormatArg::Icpc | FormatArg::Fen);
    for (report, rendered) in reports.iter().zip(rendered) {
        status = status.max(report.status);
        for line in &report.err {
            super::report(line);
        }
        let rendered = rendered?;
        if named {
            if printed > 0 {
                writeln!(out).map_err(write_err)?;
            }
            writeln!(out, "{ANSWER_NAME}{} <==", report.name).map_err(write_err)?;
            printed = 0;
        }
        for answer in &rendered.answers {
            if printed > 0 {
                writeln!(out).map_err(write_err)?;
            }
            printed += 1;
            out.write_all(answer.as_bytes()).map_err(write_err)?;
        }
        out.write_all(rendered.text.as_bytes()).map_err(write_err)?;
    }
    Ok(status)
}
