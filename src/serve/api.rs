//! The page's questions turned into the library's requests, and their
//! answers into the JSON the page shows. The one file that knows the
//! request types: when they change (`VerifyRequest` and `ReachRequest` are
//! moving to files of their own), this is what adapts.
//!
//! Where a request lacks what the page shows (the boards along a game, a
//! game's repair with its other repairs counted), this module asks the
//! library's public pieces directly and says so where it does.

use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use crate::serve::routes::ApiError;
use postfacto::analysis::{repair_game, RepairOptions, RepairOutcome, Repairs};
use postfacto::archive::{move_numbers, reading, start_of, GameReport, RulesFrom};
use postfacto::board::{Board, Color};
use postfacto::notation::{
    games, parse_fen_on, to_fen, write_game, GameText, MoveNumbers, RawGame, Record,
};
use postfacto::render::svg;
use postfacto::replay::replay_filling;
use postfacto::request::{
    item_formula, read_items, silent, solve_item, BoardText, CheckedGame, InputError, Name,
    ReachRequest, ReadAs, RequestError, RulesChoice, SolveOptions, VerifyRequest,
};
use postfacto::rules::Variant;

/// The rule set a request names (`auto` or none: inferred).
///
/// # Errors
/// A name postfacto does not know (400).
pub fn rules_choice(name: Option<&str>) -> Result<RulesChoice, ApiError> {
    match name.map(str::trim) {
        None | Some("") => Ok(RulesChoice::Default),
        Some(name) => RulesChoice::named(name).map_err(ApiError::input),
    }
}

/// One rule set, named (diagrams and reach need one).
fn variant_named(name: Option<&str>) -> Result<Variant, ApiError> {
    match rules_choice(name)? {
        RulesChoice::Given(variant) => Ok(variant),
        _ => Ok(Variant::English),
    }
}

/// An archive checked once: its text and a report per game, kept so the
/// page can page through its rows and open its games.
#[derive(Debug)]
pub struct Archive {
    /// The file's name (or `pasted`).
    pub name: String,
    text: String,
    checked: Vec<CheckedGame>,
    /// How long the check took.
    pub elapsed: Duration,
}

/// One row of the games table.
#[derive(Debug, Serialize)]
pub struct Row {
    number: usize,
    line: usize,
    event: Option<String>,
    date: Option<String>,
    white: Option<String>,
    black: Option<String>,
    result: Option<String>,
    rules: Option<&'static str>,
    rules_from: Option<&'static str>,
    inferred: bool,
    /// `ok`, `no moves`, `illegal`, `unreadable`, `unsupported`, `undecided`
    /// (as `verify --pdn --format json` says).
    status: &'static str,
    ply: Option<usize>,
    reason: Option<String>,
}

fn tag(report: &GameReport, name: &str) -> Option<String> {
    report
        .tags
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.clone())
}

fn rules_from(from: RulesFrom) -> &'static str {
    match from {
        RulesFrom::Given => "given",
        RulesFrom::Tag => "tag",
        RulesFrom::Inferred => "inferred",
    }
}

impl Row {
    fn of(report: &GameReport) -> Row {
        let rules = report.rules.as_ref();
        Row {
            number: report.number,
            line: report.line,
            event: tag(report, "Event"),
            date: tag(report, "Date"),
            white: tag(report, "White"),
            black: tag(report, "Black"),
            result: tag(report, "Result"),
            rules: rules.map(|r| r.variant.name()),
            rules_from: rules.map(|r| rules_from(r.from)),
            inferred: rules.is_some_and(|r| r.from == RulesFrom::Inferred),
            status: report.verdict.status(),
            ply: report.ply,
            reason: report.verdict.reason(),
        }
    }
}

impl Archive {
    /// `bytes` checked game by game, as `verify --pdn` checks them.
    ///
    /// # Errors
    /// Not text (400).
    pub fn check(name: String, bytes: Vec<u8>, rules: RulesChoice) -> Result<Archive, ApiError> {
        let started = Instant::now();
        let text = postfacto::request::pdn_text(&bytes)
            .map_err(ApiError::input)?
            .into_owned();
        let checked = VerifyRequest::new(bytes)
            .rules(rules.given())
            .games()
            .map_err(ApiError::input)?;
        Ok(Archive {
            name,
            text,
            checked,
            elapsed: started.elapsed(),
        })
    }

    /// How many games.
    pub fn len(&self) -> usize {
        self.checked.len()
    }

    /// How many games have each status, in the order first met.
    pub fn counts(&self) -> Vec<(&'static str, usize)> {
        let mut counts: Vec<(&'static str, usize)> = Vec::new();
        for game in &self.checked {
            let status = game.report.verdict.status();
            match counts.iter_mut().find(|(s, _)| *s == status) {
                Some((_, n)) => *n += 1,
                None => counts.push((status, 1)),
            }
        }
        counts
    }

    /// Rows `from..from + count`.
    pub fn rows(&self, from: usize, count: usize) -> Vec<Row> {
        self.checked
            .iter()
            .skip(from)
            .take(count)
            .map(|game| Row::of(&game.report))
            .collect()
    }

    /// Game `number` (1-based): its text read again, and its report.
    fn game(&self, number: usize) -> Result<(RawGame<'_>, &CheckedGame), ApiError> {
        let checked = number
            .checked_sub(1)
            .and_then(|i| self.checked.get(i))
            .ok_or_else(|| ApiError::not_found(format!("no game {number} in {}", self.name)))?;
        let raw = games(&self.text)
            .nth(number - 1)
            .ok_or_else(|| ApiError::not_found(format!("no game {number} in {}", self.name)))?;
        Ok((raw, checked))
    }
}

/// One ply of a game as the page lists it.
#[derive(Debug, Serialize)]
pub struct Ply {
    /// 1-based.
    ply: usize,
    /// Its PDN move number: `12.` or `12...`.
    label: String,
    /// The move as written on the sheet.
    written: String,
    /// The move as played (filled in, every landing), when it was.
    played: Option<String>,
    /// The board after it, as a FEN, when the replayer played it.
    fen: Option<String>,
    /// Why the replayer refused it.
    illegal: Option<String>,
}

/// A game opened: its boards along the moves, as the replayer plays them.
#[derive(Debug, Serialize)]
pub struct GameView {
    number: usize,
    tags: Vec<(String, String)>,
    rules: Option<&'static str>,
    size: u8,
    algebraic: bool,
    start_fen: Option<String>,
    status: &'static str,
    reason: Option<String>,
    ply: Option<usize>,
    plies: Vec<Ply>,
}

/// Game `number` of `archive`, with the board after each ply.
///
/// # Errors
/// No such game (404).
pub fn game(archive: &Archive, number: usize) -> Result<GameView, ApiError> {
    let (raw, checked) = archive.game(number)?;
    let report = &checked.report;
    let variant = report.rules.as_ref().map(|r| r.variant);
    let plies = match variant {
        Some(variant) => plies_of(&raw, variant, None)?,
        None => Vec::new(),
    };
    Ok(GameView {
        number,
        tags: report.tags.clone(),
        rules: variant.map(Variant::name),
        size: variant.unwrap_or(Variant::English).topology().size(),
        algebraic: variant.is_some_and(Variant::algebraic),
        start_fen: checked.start_fen.clone(),
        status: report.verdict.status(),
        reason: report.verdict.reason(),
        ply: report.ply,
        plies,
    })
}

/// The plies of `raw` under `variant`, each with the board after it: the
/// record as written, or `repaired` in its place (its written moves are
/// then the sheet's, where it has them).
fn plies_of(
    raw: &RawGame<'_>,
    variant: Variant,
    repaired: Option<&Record>,
) -> Result<Vec<Ply>, ApiError> {
    let Ok(read) = raw.read(reading(variant)) else {
        return Ok(Vec::new());
    };
    let start = start_of(&read, variant);
    let record = repaired.unwrap_or(&read.record);
    let numbers = move_numbers(raw, variant);
    Ok(boards_along(variant, start, record, &numbers))
}

/// Each ply of `record` from `start` as the replayer plays it: a damaged
/// record filled in first (the first filling that replays), and nothing
/// after the first ply it refuses.
fn boards_along(
    variant: Variant,
    start: Board,
    record: &Record,
    numbers: &MoveNumbers,
) -> Vec<Ply> {
    let rules = variant.rules();
    let filled = match record.is_damaged() {
        true => replay_filling(rules, &start, record, None)
            .ok()
            .map(|(_, f)| f),
        false => Some(record.clone()),
    };
    let written = record.written_moves();
    let mut board = Some(start);
    let mut plies = Vec::with_capacity(written.len());
    for (i, text) in written.iter().enumerate() {
        let ply = i + 1;
        let played = filled.as_ref().and_then(|f| f.moves.get(i));
        let mut view = Ply {
            ply,
            label: numbers.label(record, ply),
            written: variant.write_written(text),
            played: played.map(|m| variant.write_move(m)),
            fen: None,
            illegal: None,
        };
        if let (Some(now), Some(mv)) = (board, played) {
            board = match rules.play(&now, record.mover(ply), mv) {
                Ok(next) => {
                    view.fen = Some(to_fen(
                        &next,
                        record.mover(ply + 1),
                        variant.fen_algebraic(),
                    ));
                    Some(next)
                }
                Err(why) => {
                    view.illegal = Some(why.to_string());
                    None
                }
            };
        }
        plies.push(view);
    }
    plies
}

/// A game's repair as the page shows it.
#[derive(Debug, Serialize)]
pub struct RepairView {
    /// `repaired`, `not needed`, `none within`, `undecided`.
    outcome: &'static str,
    /// In words, as `verify --pdn --repair` says it.
    summary: String,
    edits: Vec<EditView>,
    /// No other repair of the same cost exists (proved).
    forced: bool,
    /// The other repairs of the same cost, in words.
    others: Option<String>,
    plies: Vec<Ply>,
    /// The repaired game as PDN, the written moves in comments.
    pdn: Option<String>,
}

/// One edit: the move as written and as read.
#[derive(Debug, Serialize)]
pub struct EditView {
    ply: usize,
    kind: &'static str,
    written: String,
    read: String,
    text: String,
}

/// The fewest edits that make game `number` replay, under `limit`.
///
/// # Errors
/// No such game (404), a game with no rule set (422), a bug (500).
pub fn repair(archive: &Archive, number: usize, limit: Duration) -> Result<RepairView, ApiError> {
    let (raw, checked) = archive.game(number)?;
    let variant = checked
        .report
        .rules
        .as_ref()
        .map(|r| r.variant)
        .ok_or_else(|| ApiError::unprocessable("the game has no rule set postfacto plays"))?;
    let options = RepairOptions {
        limit: 2,
        deadline: Some(Instant::now() + limit),
        ..RepairOptions::default()
    };
    let outcome = repair_game(&raw, variant, options, &mut |_| {})
        .map_err(|e| ApiError::internal(e.to_string()))?
        .ok_or_else(|| ApiError::unprocessable("the game cannot be read"))?;
    let numbers = move_numbers(&raw, variant);
    let summary = postfacto::analysis::repair_summary_numbered(&outcome, Some(&numbers));
    let mut view = RepairView {
        outcome: match outcome {
            RepairOutcome::NotNeeded(_) => "not needed",
            RepairOutcome::Repaired(_) => "repaired",
            RepairOutcome::NoneWithin(_) => "none within",
            RepairOutcome::Undecided { .. } => "undecided",
        },
        summary,
        edits: Vec::new(),
        forced: false,
        others: None,
        plies: Vec::new(),
        pdn: None,
    };
    if let RepairOutcome::Repaired(repairs) = &outcome {
        fill_repair(&mut view, &raw, variant, repairs)?;
    }
    Ok(view)
}

/// The first repair's edits, boards and PDN; whether it is the only one.
fn fill_repair(
    view: &mut RepairView,
    raw: &RawGame<'_>,
    variant: Variant,
    repairs: &Repairs,
) -> Result<(), ApiError> {
    let Some(first) = repairs.first() else {
        return Ok(());
    };
    let numbers = move_numbers(raw, variant);
    view.edits = first
        .edits
        .iter()
        .map(|e| EditView {
            ply: e.ply,
            kind: e.kind.name(),
            written: e.written.clone(),
            read: e.read.clone(),
            text: e.words(Some((&numbers, &first.record))),
        })
        .collect();
    view.forced = repairs.complete && repairs.distinct().len() == 1;
    view.others = Some(repairs.others());
    view.plies = plies_of(raw, variant, Some(&first.record))?;
    let mut comments = vec![None; first.record.moves.len()];
    for edit in &first.edits {
        if let Some(slot) = comments.get_mut(edit.ply.saturating_sub(1)) {
            *slot = Some(format!("written {}", edit.written));
        }
    }
    let text = GameText {
        tags: raw
            .tags
            .iter()
            .map(|t| (t.name.to_string(), t.value.to_string()))
            .collect(),
        first_number: raw.first_number,
        result: raw.result.map(str::to_string),
    };
    let start = raw
        .read(reading(variant))
        .ok()
        .and_then(|r| r.fen.map(|f| f.1));
    view.pdn = Some(write_game(
        &text,
        start.as_ref(),
        &first.record,
        variant.first_player(),
        variant.fen_algebraic(),
        &comments,
        |m| variant.write_move(m),
    ));
    Ok(())
}

/// What the page asks of a fragment besides its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FragmentAsk {
    /// The answer, with the squares every answer shares (`--explain`).
    Explain,
    /// How many start boards (`--count`).
    Count,
    /// The fewest pieces (`--minimize`).
    Minimize,
}

impl FragmentAsk {
    /// The analysis named `explain`, `count` or `minimize`.
    ///
    /// # Errors
    /// Any other name (400).
    pub fn named(name: Option<&str>) -> Result<FragmentAsk, ApiError> {
        match name.unwrap_or("explain") {
            "explain" => Ok(FragmentAsk::Explain),
            "count" => Ok(FragmentAsk::Count),
            "minimize" => Ok(FragmentAsk::Minimize),
            other => Err(ApiError::bad(format!(
                "unknown analysis '{other}' (explain, count or minimize)"
            ))),
        }
    }
}

/// A fragment's text (the task's format, or PDN movetext) read as the
/// CLI reads a file: its first record.
fn fragment_items(
    text: &str,
    rules: RulesChoice,
) -> Result<Vec<postfacto::request::Item>, ApiError> {
    let read_as = ReadAs {
        rules,
        short_captures: false,
    };
    let task = read_items("fragment", text.as_bytes(), read_as);
    let items = match task {
        Ok(items) => items,
        Err(first) => read_items("fragment.pdn", text.as_bytes(), read_as)
            .map_err(|_| ApiError::input(first))?,
    };
    if items.is_empty() {
        return Err(ApiError::input(InputError::NoMoves));
    }
    Ok(items)
}

/// `solve --format json` of a fragment's first record, with one analysis,
/// under `limit`.
///
/// # Errors
/// Text that cannot be read (400).
pub fn solve(
    text: &str,
    rules: RulesChoice,
    ask: FragmentAsk,
    limit: Duration,
) -> Result<Value, ApiError> {
    let items = fragment_items(text, rules)?;
    let mut options = SolveOptions {
        time_limit: Some(limit),
        fragment: true,
        quiet: true,
        ..SolveOptions::default()
    };
    match ask {
        FragmentAsk::Explain => options.analyses.explain = true,
        FragmentAsk::Count => options.analyses.count = true,
        FragmentAsk::Minimize => options.analyses.minimize = true,
    }
    let options = std::sync::Arc::new(options);
    let report = solve_item(Name::input("fragment"), &items[0], &options, &silent());
    let json = postfacto::output::to_json(&report, &options);
    serde_json::from_str(&json).map_err(|e| ApiError::internal(e.to_string()))
}

/// The formula `cnf` prints for a fragment's first record.
///
/// # Errors
/// Text that cannot be read (400), a formula that cannot be built (422).
pub fn cnf(text: &str, rules: RulesChoice) -> Result<String, ApiError> {
    let items = fragment_items(text, rules)?;
    let (analysis, record) = item_formula(&items[0], Default::default(), true)
        .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let formula = analysis
        .dimacs(&record)
        .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let mut bytes = Vec::new();
    formula
        .write_dimacs(&mut bytes)
        .map_err(|e| ApiError::internal(e.to_string()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The shortest game to a diagram, with its boards.
#[derive(Debug, Serialize)]
pub struct ReachView {
    /// `found`, `impossible` or `undecided`.
    status: &'static str,
    reason: Option<String>,
    start_fen: String,
    end_fen: Option<String>,
    plies: Vec<Ply>,
}

/// `reach` of the position `fen` under `rules`, under `limit`.
///
/// # Errors
/// A FEN that cannot be read, or no position (400); a bug (500).
pub fn reach(fen: &str, rules: Option<&str>, limit: Duration) -> Result<ReachView, ApiError> {
    let variant = variant_named(rules)?;
    let opening = variant.topology().opening();
    let first = variant.first_player();
    let mut view = ReachView {
        status: "found",
        reason: None,
        start_fen: to_fen(&opening, first, variant.fen_algebraic()),
        end_fen: None,
        plies: Vec::new(),
    };
    let request = ReachRequest::new(BoardText::Fen(fen.to_string()), variant).limit(Some(limit));
    match request.run() {
        Ok(reached) => {
            let numbers = MoveNumbers {
                first_player: first,
                first_number: 1,
            };
            view.end_fen = Some(reached.end_fen());
            view.plies = boards_along(variant, opening, &reached.record, &numbers);
        }
        Err(RequestError::Impossible { reason }) => {
            view.status = "impossible";
            view.reason = Some(reason);
        }
        Err(RequestError::Undecided { reason }) => {
            view.status = "undecided";
            view.reason = Some(reason);
        }
        Err(other) => return Err(ApiError::request(other)),
    }
    Ok(view)
}

/// The picture `solve --format svg` draws of a start and an end board
/// (the end the start when not given), without moves.
///
/// # Errors
/// A FEN that cannot be read (400).
pub fn picture(start: &str, end: Option<&str>, rules: Option<&str>) -> Result<String, ApiError> {
    let variant = variant_named(rules)?;
    let board = |fen: &str| -> Result<(Color, Board), ApiError> {
        parse_fen_on(fen, variant.topology()).map_err(|source| {
            ApiError::input(InputError::Fen {
                which: "given",
                source,
            })
        })
    };
    let (first, start) = board(start)?;
    let end = match end {
        Some(fen) => board(fen)?.1,
        None => start,
    };
    let answer = postfacto::notation::Answer { start, end };
    let record = Record::new(first, Vec::new());
    Ok(svg(&answer, &record, variant))
}
