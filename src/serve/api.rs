//! The page's questions turned into the library's requests, and their
//! answers into the JSON the page shows. The one file that knows the
//! request types.
//!
//! Where no request gives what the page needs (the boards along a game, a
//! game's repair with its other repairs counted, an archive's rows as they
//! are checked), this module asks the library's public pieces directly and
//! says so where it does.

use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use super::archive::Archive;
use super::routes::ApiError;
use postfacto::analysis::{repair_game, RepairOptions, RepairOutcome, Repairs};
use postfacto::archive::{move_numbers, reading, start_of};
use postfacto::board::{Board, Color};
use postfacto::notation::{
    parse_fen_on, to_fen, write_game, GameText, MoveNumbers, MoveText, RawGame, Record,
};
use postfacto::output::JsonEdit;
use postfacto::render::svg;
use postfacto::replay::replay_filling;
use postfacto::request::{
    item_formula, read_items, side_named, side_to_move, silent, solve_item, undecided_reason,
    BoardRole, BoardText, InputError, Name, ReachRequest, ReachVerdict, Reached, ReadAs,
    RulesChoice, SolveOptions, Verdict,
};
use postfacto::rules::Variant;

/// The rule set a request names (none: each request's default; `auto`:
/// inferred where there are moves to infer it from).
///
/// # Errors
/// A name postfacto does not know (400).
pub fn rules_choice(name: Option<&str>) -> Result<RulesChoice, ApiError> {
    match name.map(str::trim) {
        None | Some("") => Ok(RulesChoice::Default),
        Some(name) => RulesChoice::named(name).map_err(ApiError::input),
    }
}

/// One rule set, named (an empty board's layout needs one).
fn variant_named(name: Option<&str>) -> Result<Variant, ApiError> {
    match rules_choice(name)? {
        RulesChoice::Given(variant) => Ok(variant),
        RulesChoice::Default => Ok(Variant::English),
        RulesChoice::Auto => Err(ApiError::bad(
            "an empty board needs a rule set named: 'auto' infers one from a board or moves",
        )),
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
    /// The same board as rows, top row first (`.` empty, `w b W B`).
    rows: Option<Vec<String>>,
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
    start_rows: Option<Vec<String>>,
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
    let (raw, report) = archive.game(number)?;
    let variant = report.rules.as_ref().map(|r| r.variant);
    let start = variant.and_then(|variant| start_of_game(&raw, variant));
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
        start_fen: start.as_ref().map(|(fen, _)| fen.clone()),
        start_rows: start.map(|(_, rows)| rows),
        status: report.verdict.status(),
        reason: report.verdict.reason(),
        ply: report.ply,
        plies,
    })
}

/// A board as rows, top row first, as the binary prints it.
fn rows_of(board: &Board) -> Vec<String> {
    (0..board.topology().size())
        .map(|row| board.row_text(row))
        .collect()
}

/// Where `raw` starts under `variant` (its `[FEN]`, or the opening), as
/// a FEN and as rows.
fn start_of_game(raw: &RawGame<'_>, variant: Variant) -> Option<(String, Vec<String>)> {
    let read = raw.read(reading(variant)).ok()?;
    let turn = read.fen.map_or(variant.first_player(), |(turn, _)| turn);
    let start = start_of(&read, variant);
    Some((
        to_fen(&start, turn, variant.fen_algebraic()),
        rows_of(&start),
    ))
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

/// The moves of `record` as the replayer plays them: a damaged record
/// filled in (the first filling that replays); when none does, the moves
/// known as written and the ply where every filling failed, with why.
fn played_moves(
    variant: Variant,
    start: &Board,
    record: &Record,
) -> (Vec<Option<MoveText>>, Option<(usize, String)>) {
    if !record.is_damaged() {
        return (record.moves.iter().cloned().map(Some).collect(), None);
    }
    let rules = variant.rules();
    let error = match replay_filling(rules, start, record, None) {
        Ok((_, filled)) => return (filled.moves.into_iter().map(Some).collect(), None),
        Err(e) => e,
    };
    // The plies before the one refused, filled in on their own.
    let written = record.written_moves();
    let before = written[..error.ply.saturating_sub(1).min(written.len())].to_vec();
    let prefix = Record::from_written(record.first, before, record.line);
    let moves = match replay_filling(rules, start, &prefix, None) {
        Ok((_, filled)) => filled.moves.into_iter().map(Some).collect(),
        Err(_) => written.iter().map(|w| w.known().cloned()).collect(),
    };
    (moves, Some((error.ply, error.violation.to_string())))
}

/// Each ply of `record` from `start` as the replayer plays it, with the
/// board after it; nothing after the first ply it refuses.
fn boards_along(
    variant: Variant,
    start: Board,
    record: &Record,
    numbers: &MoveNumbers,
) -> Vec<Ply> {
    let rules = variant.rules();
    let (played, refused) = played_moves(variant, &start, record);
    let written = record.written_moves();
    let mut board = Some(start);
    let mut plies = Vec::with_capacity(written.len());
    for (i, text) in written.iter().enumerate() {
        let ply = i + 1;
        let mv = played.get(i).and_then(Option::as_ref);
        let mut view = Ply {
            ply,
            label: numbers.label(record, ply),
            written: variant.write_written(text),
            played: mv.map(|m| variant.write_move(m)),
            fen: None,
            rows: None,
            illegal: None,
        };
        let outcome = match (&refused, board, mv) {
            (Some((at, why)), Some(_), _) if *at == ply => Err(why.clone()),
            (_, Some(now), Some(mv)) => rules
                .play(&now, record.mover(ply), mv)
                .map_err(|why| why.to_string()),
            _ => Err(String::new()),
        };
        board = match outcome {
            Ok(next) => {
                view.fen = Some(to_fen(
                    &next,
                    record.mover(ply + 1),
                    variant.fen_algebraic(),
                ));
                view.rows = Some(rows_of(&next));
                Some(next)
            }
            Err(why) => {
                // Said once, at the ply refused; later plies have no board.
                view.illegal = board.is_some().then_some(why).filter(|w| !w.is_empty());
                None
            }
        };
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
    edits: Vec<JsonEdit>,
    /// No other repair of the same cost exists (proved).
    forced: bool,
    /// The other repairs of the same cost, in words.
    others: Option<String>,
    plies: Vec<Ply>,
    /// The repaired game as PDN, the written moves in comments.
    pdn: Option<String>,
}

/// The fewest edits that make game `number` replay, under `limit`.
///
/// # Errors
/// No such game (404), a game with no rule set (422), a bug (500).
pub fn repair(archive: &Archive, number: usize, limit: Duration) -> Result<RepairView, ApiError> {
    let (raw, report) = archive.game(number)?;
    let variant = report
        .rules
        .as_ref()
        .map(|r| r.variant)
        .ok_or_else(|| ApiError::unprocessable("the game has no rule set postfacto plays"))?;
    // As `verify --pdn --repair` asks it, so the page shows its repair.
    let options = RepairOptions {
        deadline: Some(Instant::now() + limit),
        ..RepairOptions::default()
    };
    let outcome = repair_game(&raw, variant, options, &mut |_| {})
        .map_err(|e| ApiError::internal(e.to_string()))?
        .ok_or_else(|| ApiError::unprocessable("the game cannot be read"))?;
    let numbers = move_numbers(&raw, variant);
    let summary = postfacto::analysis::repair_summary_numbered(&outcome, Some(&numbers));
    let mut view = RepairView {
        outcome: outcome.name(),
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
        .map(|e| JsonEdit::worded(e, Some((&numbers, &first.record))))
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

/// A fragment's text read as the CLI reads a file: the task's format
/// when it starts with its header (`W 3`), else PDN movetext.
fn fragment_items(
    text: &str,
    rules: RulesChoice,
) -> Result<Vec<postfacto::request::Item>, ApiError> {
    let read_as = ReadAs::as_written(rules, false);
    let text = postfacto::notation::without_bom(text);
    let header = text.split_whitespace().next().unwrap_or("");
    let name = if header.eq_ignore_ascii_case("w") || header.eq_ignore_ascii_case("b") {
        "fragment"
    } else {
        "fragment.pdn"
    };
    let items = read_items(name, text.as_bytes(), read_as).map_err(ApiError::input)?;
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
    let said = || report.err.join("; ");
    match report.status {
        Verdict::BadInput => return Err(ApiError::bad(said())),
        Verdict::Internal => return Err(ApiError::internal(said())),
        _ => {}
    }
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

/// A game to a diagram (the shortest, proved, unless `any`), with its boards.
#[derive(Debug, Serialize)]
pub struct ReachView {
    /// `found`, `impossible` or `undecided`.
    status: &'static str,
    reason: Option<String>,
    start_fen: String,
    start_rows: Vec<String>,
    end_fen: Option<String>,
    plies: Vec<Ply>,
    /// The game found is proved the shortest.
    minimal: bool,
    /// No game shorter than this many plies exists (proved).
    lower_bound: u32,
}

/// `reach` of the position `goal` under `rules`, `turn` to move there
/// (rows need it; a FEN names it), under `limit`; with `any`, any legal
/// game found fast rather than the shortest (`reach --any`).
///
/// # Errors
/// A board that cannot be read, or no position (400); a bug (500).
pub fn reach(
    goal: BoardText,
    turn: Option<&str>,
    rules: Option<&str>,
    any: bool,
    limit: Duration,
) -> Result<ReachView, ApiError> {
    // As the binary's `reach` chooses it: named, else the position's own.
    let variant = rules_choice(rules)?.for_board(&goal);
    let opening = variant.topology().opening();
    let first = variant.first_player();
    let mut view = ReachView {
        status: "found",
        reason: None,
        start_fen: to_fen(&opening, first, variant.fen_algebraic()),
        start_rows: rows_of(&opening),
        end_fen: None,
        plies: Vec::new(),
        minimal: false,
        lower_bound: 0,
    };
    let mut request = ReachRequest::new(goal, variant).any(any).limit(Some(limit));
    if let Some(turn) = turn {
        request = request.turn(side_named(turn).map_err(ApiError::input)?);
    }
    let numbers = MoveNumbers {
        first_player: first,
        first_number: 1,
    };
    let show = |view: &mut ReachView, reached: &Reached| {
        view.end_fen = Some(reached.end_fen());
        view.minimal = reached.minimal();
        view.lower_bound = reached.lower_bound;
        view.plies = boards_along(variant, opening, &reached.record, &numbers);
    };
    // As the binary does: an undecided search keeps its bound and the
    // best game found so far.
    match request.search(&mut |_| {}) {
        Ok(ReachVerdict::Reached(reached)) => show(&mut view, &reached),
        Ok(ReachVerdict::Unreachable { reason, .. }) => {
            view.status = "impossible";
            view.reason = Some(reason);
        }
        Ok(ReachVerdict::Undecided {
            at_least,
            best,
            stopped,
        }) => {
            if let Some(best) = &best {
                show(&mut view, best);
            }
            view.status = "undecided";
            view.reason = Some(undecided_reason(at_least, best.as_ref(), stopped));
            view.lower_bound = at_least;
            view.minimal = false;
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
    let variant = rules_choice(rules)?.for_board(&BoardText::of_text(start));
    let board = |fen: &str| -> Result<(Color, Board), ApiError> {
        parse_fen_on(fen, variant.topology()).map_err(|source| {
            ApiError::input(InputError::Fen {
                which: BoardRole::Given,
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

/// Where each square of a rule set's board is, and its name.
#[derive(Debug, Serialize)]
pub struct Layout {
    rules: &'static str,
    size: u8,
    algebraic: bool,
    /// Each playing square: its row and column (0: top, left) and name.
    squares: Vec<(u8, u8, String)>,
    /// The opening position, as rows, and who moves first there.
    opening: Vec<String>,
    first: &'static str,
}

/// The board of `rules` (English when none is named).
///
/// # Errors
/// An unknown rule set (400).
pub fn layout(rules: Option<&str>) -> Result<Layout, ApiError> {
    let variant = variant_named(rules)?;
    let topology = variant.topology();
    let squares = topology
        .squares()
        .map(|square| {
            let name = if variant.algebraic() {
                square.algebraic()
            } else {
                square.number().to_string()
            };
            (square.row(), square.col(), name)
        })
        .collect();
    Ok(Layout {
        rules: variant.name(),
        size: topology.size(),
        algebraic: variant.algebraic(),
        squares,
        opening: rows_of(&topology.opening()),
        first: side_name(variant.first_player()),
    })
}

/// A board read and written back: its FEN and rows.
#[derive(Debug, Serialize)]
pub struct BoardView {
    fen: String,
    rows: Vec<String>,
    turn: &'static str,
}

/// `board` (a FEN, or rows with `turn`) under `rules`, as FEN and rows.
///
/// # Errors
/// A board that cannot be read, or with a square not known (400).
pub fn board(
    board: BoardText,
    turn: Option<&str>,
    rules: Option<&str>,
) -> Result<BoardView, ApiError> {
    // As `reach` reads it: named, else the board's own.
    let variant = rules_choice(rules)?.for_board(&board);
    let (read, fen_turn) = board
        .read(variant.topology(), BoardRole::Given)
        .map_err(ApiError::input)?;
    let named = turn.map(side_named).transpose().map_err(ApiError::input)?;
    let turn = side_to_move(named, fen_turn)
        .and_then(|side| side.ok_or(InputError::NoTurn))
        .map_err(ApiError::input)?;
    if read.known != variant.topology().all_bits() {
        return Err(ApiError::bad("every square must be known (no '?')"));
    }
    Ok(BoardView {
        fen: to_fen(&read.board, turn, variant.fen_algebraic()),
        rows: rows_of(&read.board),
        turn: side_name(turn),
    })
}

fn side_name(side: Color) -> &'static str {
    match side {
        Color::White => "white",
        Color::Black => "black",
    }
}
