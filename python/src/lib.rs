//! `postfacto._native`: the Python face of the postfacto library. Every
//! call builds one of the library's requests (`postfacto::request`) from
//! the strings a Python user has, runs it with the GIL released, and hands
//! back its checked answer as plain Python values; its errors become the
//! package's exceptions. No logic of its own beyond that translation.

use std::path::PathBuf;
use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use postfacto::archive::RulesFrom;
use postfacto::board::{Board, Color};
use postfacto::request::{
    side_named, BoardText, CheckedGame, CnfRequest, Fragment, InputError, MovesRequest,
    ReachRequest, Reached, RepairRequest, RequestError, RulesChoice, SolveRequest, Solved,
    VerifyRequest,
};
use postfacto::rules::Variant;

create_exception!(
    postfacto,
    PostfactoError,
    PyException,
    "Every error postfacto raises."
);
create_exception!(
    postfacto,
    BadInput,
    PostfactoError,
    "The input cannot be read (the binary exits 2 for it): a move, a FEN, a rule set's name."
);
create_exception!(
    postfacto,
    Impossible,
    PostfactoError,
    "No answer exists (the binary exits 1): `.reason` says why."
);
create_exception!(
    postfacto,
    Undecided,
    PostfactoError,
    "A time limit passed before a verdict (the binary exits 3)."
);
create_exception!(
    postfacto,
    InternalError,
    PostfactoError,
    "The solver failed or an answer did not replay: a bug (the binary exits 4)."
);

/// A library error as the exception the package raises for it; an
/// `Impossible` carries `.reason`.
fn raised(py: Python<'_>, error: RequestError) -> PyErr {
    let message = error.to_string();
    match error {
        RequestError::BadInput(_) => BadInput::new_err(message),
        RequestError::Impossible { reason } => {
            let err = Impossible::new_err(message);
            // Setting an attribute on a fresh exception cannot fail.
            let _ = err.value(py).setattr("reason", reason);
            err
        }
        RequestError::Undecided { .. } => Undecided::new_err(message),
        _ => InternalError::new_err(message),
    }
}

fn bad(error: InputError) -> PyErr {
    BadInput::new_err(error.to_string())
}

/// A file that cannot be read as the `OSError` Python raises for it
/// (`FileNotFoundError` for a missing one: `OSError` picks the subclass
/// by its errno), naming the file; any other error as `BadInput`.
fn file_error(error: InputError) -> PyErr {
    match error {
        InputError::Io { path, source } => {
            let errno = source.raw_os_error().unwrap_or(0);
            let reason = source.to_string();
            let reason = reason.split(" (os error").next().unwrap_or_default();
            PyOSError::new_err((errno, reason.to_string(), path))
        }
        other => bad(other),
    }
}

/// Moves: a list of strings, or one movetext string (`1. 32-28 18-23`).
fn fragment_of(moves: &Bound<'_, PyAny>) -> PyResult<Fragment> {
    if let Ok(text) = moves.downcast::<PyString>() {
        return Ok(Fragment::from_movetext(&text.to_cow()?));
    }
    let list: Vec<String> = moves
        .extract()
        .map_err(|_| BadInput::new_err("moves: a list of strings, or one movetext string"))?;
    Ok(Fragment::new(list))
}

/// A board: a FEN string, one string of rows, or a list of row strings.
fn board_of(board: &Bound<'_, PyAny>, which: &str) -> PyResult<BoardText> {
    if let Ok(text) = board.downcast::<PyString>() {
        return Ok(BoardText::of_text(&text.to_cow()?));
    }
    board
        .extract::<Vec<String>>()
        .map(BoardText::Rows)
        .map_err(|_| {
            BadInput::new_err(format!(
                "{which}: a FEN string or board rows (a list of strings)"
            ))
        })
}

/// The fragment a call describes.
fn described(
    moves: &Bound<'_, PyAny>,
    rules: &str,
    first: Option<&str>,
    start: Option<&Bound<'_, PyAny>>,
    end: Option<&Bound<'_, PyAny>>,
    short_captures: bool,
) -> PyResult<Fragment> {
    let mut fragment = fragment_of(moves)?
        .rules_named(rules)
        .map_err(bad)?
        .short_captures(short_captures);
    if let Some(first) = first {
        fragment = fragment.first_named(first).map_err(bad)?;
    }
    if let Some(start) = start {
        fragment = fragment.start(board_of(start, "start")?);
    }
    if let Some(end) = end {
        fragment = fragment.end(board_of(end, "end")?);
    }
    Ok(fragment)
}

/// One rule set, named (calls on boards need it: `auto` infers from moves).
fn one_rule_set(rules: &str) -> PyResult<Variant> {
    match RulesChoice::named(rules).map_err(bad)? {
        RulesChoice::Auto => Err(BadInput::new_err(
            "a rule set must be named here: 'auto' infers one from moves only",
        )),
        choice => Ok(choice.fixed().unwrap_or_default()),
    }
}

/// The rule set of a call on a board: the named one, else (`auto`) the
/// board's own, as the binary's `moves` and `reach` choose it.
fn board_rules(rules: &str, board: &BoardText) -> PyResult<Variant> {
    Ok(RulesChoice::named(rules).map_err(bad)?.for_board(board))
}

fn seconds(limit: Option<f64>) -> PyResult<Option<Duration>> {
    limit
        .map(|s| {
            Duration::try_from_secs_f64(s)
                .map_err(|_| BadInput::new_err(format!("limit: {s} is not a number of seconds")))
        })
        .transpose()
}

fn side_name(color: Color) -> String {
    match color {
        Color::White => "white".into(),
        Color::Black => "black".into(),
    }
}

fn rows(board: &Board) -> Vec<String> {
    (0..board.topology().size())
        .map(|row| board.row_text(row))
        .collect()
}

/// A reconstruction: the start board, the board the moves lead to, and
/// the moves as played, all checked by postfacto's replayer.
#[pyclass(frozen, get_all, module = "postfacto")]
#[derive(Clone)]
struct Answer {
    /// The rule set used (`english`, `international`, ...).
    rules: String,
    /// Whether the rule set was inferred (`rules="auto"`).
    inferred: bool,
    /// The side that made the first move (`white` or `black`).
    first: String,
    /// The start board as a FEN string, the first side to move.
    start_fen: String,
    /// The end board as a FEN string, the next side to move.
    end_fen: String,
    /// The start board's rows as the binary prints them.
    start: Vec<String>,
    /// The end board's rows.
    end: Vec<String>,
    /// The moves as played, every landing of a capture written.
    moves: Vec<String>,
    /// The moves as written (`?` where they were illegible).
    record: Vec<String>,
}

impl Answer {
    fn of(solved: &Solved) -> Answer {
        // pydraughts names FEN squares as the moves name them.
        let (start_fen, end_fen) = solved.fens(solved.variant.algebraic());
        Answer {
            rules: solved.variant.name().into(),
            inferred: solved.inferred,
            first: side_name(solved.filled.first),
            start_fen,
            end_fen,
            start: rows(&solved.answer.start),
            end: rows(&solved.answer.end),
            moves: solved.moves(),
            record: solved.written(),
        }
    }
}

#[pymethods]
impl Answer {
    fn __repr__(&self) -> String {
        format!(
            "Answer(rules={:?}, start_fen={:?}, end_fen={:?}, moves={:?})",
            self.rules, self.start_fen, self.end_fen, self.moves
        )
    }
}

/// Finds a start position from which `moves` are legal, and the position
/// they lead to.
#[pyfunction]
#[pyo3(signature = (moves, rules="english", first=None, start=None, end=None, short_captures=false, limit=None))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    moves: &Bound<'_, PyAny>,
    rules: &str,
    first: Option<&str>,
    start: Option<&Bound<'_, PyAny>>,
    end: Option<&Bound<'_, PyAny>>,
    short_captures: bool,
    limit: Option<f64>,
) -> PyResult<Answer> {
    let fragment = described(moves, rules, first, start, end, short_captures)?;
    let request = SolveRequest::new(fragment).limit(seconds(limit)?);
    py.allow_threads(|| request.run())
        .map(|solved| Answer::of(&solved))
        .map_err(|e| raised(py, e))
}

/// One edit of a repair.
#[pyclass(frozen, get_all, eq, module = "postfacto")]
#[derive(Clone, PartialEq, Eq)]
struct Edit {
    /// The 1-based ply it concerns (0 for the side that moved first).
    ply: usize,
    /// `square`, `move`, `missing`, `extra` or `first`.
    kind: String,
    /// What was written there (empty for a missing move).
    written: String,
    /// What it is read as (empty for an extra move).
    read: String,
}

#[pymethods]
impl Edit {
    #[new]
    fn new(ply: usize, kind: String, written: String, read: String) -> Edit {
        Edit {
            ply,
            kind,
            written,
            read,
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "Edit(ply={}, kind={:?}, written={:?}, read={:?})",
            self.ply, self.kind, self.written, self.read
        )
    }
}

/// A repair: the fewest edits after which the moves are legal, and the
/// answer of the repaired record.
#[pyclass(frozen, get_all, module = "postfacto")]
struct Repair {
    /// The edits, in ply order (empty when the record is possible as written).
    edits: Vec<Edit>,
    /// The answer of the repaired record.
    answer: Answer,
}

#[pymethods]
impl Repair {
    fn __repr__(&self) -> String {
        let edits: Vec<String> = self.edits.iter().map(Edit::__repr__).collect();
        format!(
            "Repair(edits=[{}], answer={})",
            edits.join(", "),
            self.answer.__repr__()
        )
    }
}

/// The fewest edits (a square or move misread, a move missing or extra,
/// the other side first) that make `moves` legal.
#[pyfunction]
#[pyo3(signature = (moves, rules="english", first=None, start=None, end=None, max_edits=3, limit=None, short_captures=false))]
#[allow(clippy::too_many_arguments)]
fn repair(
    py: Python<'_>,
    moves: &Bound<'_, PyAny>,
    rules: &str,
    first: Option<&str>,
    start: Option<&Bound<'_, PyAny>>,
    end: Option<&Bound<'_, PyAny>>,
    max_edits: usize,
    limit: Option<f64>,
    short_captures: bool,
) -> PyResult<Repair> {
    let fragment = described(moves, rules, first, start, end, short_captures)?;
    repair_fragment(py, fragment, max_edits, limit)
}

/// The repair of `fragment`, as the package's `Repair`.
fn repair_fragment(
    py: Python<'_>,
    fragment: Fragment,
    max_edits: usize,
    limit: Option<f64>,
) -> PyResult<Repair> {
    let request = RepairRequest::new(fragment)
        .max_edits(max_edits)
        .limit(seconds(limit)?);
    let repaired = py
        .allow_threads(|| request.run())
        .map_err(|e| raised(py, e))?;
    Ok(Repair::of(&repaired))
}

impl Repair {
    /// The package's `Repair` of a request's.
    fn of(repaired: &postfacto::request::Repaired) -> Repair {
        Repair {
            edits: repaired
                .edits
                .iter()
                .map(|e| Edit {
                    ply: e.ply,
                    kind: e.kind.name().into(),
                    written: e.written.clone(),
                    read: e.read.clone(),
                })
                .collect(),
            answer: Answer::of(&repaired.solved),
        }
    }
}

/// The CNF formula `solve` hands its SAT solver, in DIMACS with named
/// variables and clause groups.
#[pyfunction]
#[pyo3(signature = (moves, rules="english", first=None, start=None, end=None, short_captures=false))]
fn cnf(
    py: Python<'_>,
    moves: &Bound<'_, PyAny>,
    rules: &str,
    first: Option<&str>,
    start: Option<&Bound<'_, PyAny>>,
    end: Option<&Bound<'_, PyAny>>,
    short_captures: bool,
) -> PyResult<String> {
    let fragment = described(moves, rules, first, start, end, short_captures)?;
    let request = CnfRequest::new(fragment);
    py.allow_threads(|| request.run())
        .map_err(|e| raised(py, e))
}

/// A SAT solver's model of `cnf`'s formula for the same moves and options
/// (its `s` and `v` lines, or the literals alone) read back into the
/// answer it stands for, replayed; `Impossible` when it is no answer (the
/// binary exits 1), `BadInput` when it cannot be read.
#[pyfunction]
#[pyo3(signature = (moves, model, rules="english", first=None, start=None, end=None, short_captures=false))]
#[allow(clippy::too_many_arguments)]
fn decode(
    py: Python<'_>,
    moves: &Bound<'_, PyAny>,
    model: &str,
    rules: &str,
    first: Option<&str>,
    start: Option<&Bound<'_, PyAny>>,
    end: Option<&Bound<'_, PyAny>>,
    short_captures: bool,
) -> PyResult<Answer> {
    let fragment = described(moves, rules, first, start, end, short_captures)?;
    let request = CnfRequest::new(fragment);
    py.allow_threads(|| request.decode(model))
        .map(|solved| Answer::of(&solved))
        .map_err(|e| raised(py, e))
}

/// The legal moves of the side to move, every landing of a capture
/// written, sorted by square (`9-13` before `10-14`).
#[pyfunction]
#[pyo3(signature = (position, rules="auto", turn=None))]
fn legal_moves(
    position: &Bound<'_, PyAny>,
    rules: &str,
    turn: Option<&str>,
) -> PyResult<Vec<String>> {
    let board = board_of(position, "position")?;
    let variant = board_rules(rules, &board)?;
    let mut request = MovesRequest::new(board, variant);
    if let Some(turn) = turn {
        request = request.turn(side_named(turn).map_err(bad)?);
    }
    request.run().map_err(bad)
}

/// A legal game from the start to a position: a shortest one unless
/// `minimal` is false (`reach(any=True)`).
#[pyclass(frozen, get_all, module = "postfacto")]
struct Game {
    /// The rule set.
    rules: String,
    /// The moves from the start, every landing written.
    moves: Vec<String>,
    /// How many plies.
    plies: usize,
    /// Whether no legal game of fewer plies reaches the position (proved).
    minimal: bool,
    /// No game of fewer plies reaches it (proved).
    lower_bound: u32,
    /// The board the game starts from (the opening, or `start`), as a FEN string.
    start_fen: String,
    /// The board the game ends on, as a FEN string.
    end_fen: String,
    /// Its rows.
    end: Vec<String>,
}

#[pymethods]
impl Game {
    fn __repr__(&self) -> String {
        format!(
            "Game(rules={:?}, plies={}, minimal={}, moves={:?})",
            self.rules,
            self.plies,
            if self.minimal { "True" } else { "False" },
            self.moves
        )
    }
}

impl Game {
    fn of(reached: &Reached, start_fen: String) -> Game {
        Game {
            start_fen,
            rules: reached.variant.name().into(),
            moves: reached.moves(),
            plies: reached.record.moves.len(),
            minimal: reached.minimal(),
            lower_bound: reached.lower_bound,
            end_fen: reached.end_fen_naming(reached.variant.algebraic()),
            end: rows(&reached.end),
        }
    }
}

/// The shortest legal game from the rule set's opening (or `start`) to
/// `position` (a FEN, or rows with `?` for squares that may hold
/// anything); with `any`, a legal game found fast, not the shortest.
#[pyfunction]
#[pyo3(signature = (position, rules="auto", turn=None, limit=None, *, any=false, max_plies=None, start=None, start_turn=None))]
#[allow(clippy::too_many_arguments)]
fn reach(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    rules: &str,
    turn: Option<&str>,
    limit: Option<f64>,
    any: bool,
    max_plies: Option<u32>,
    start: Option<&Bound<'_, PyAny>>,
    start_turn: Option<&str>,
) -> PyResult<Game> {
    let goal = board_of(position, "position")?;
    let variant = board_rules(rules, &goal)?;
    let mut request = ReachRequest::new(goal, variant)
        .limit(seconds(limit)?)
        .any(any)
        .max_plies(max_plies);
    if let Some(turn) = turn {
        request = request.turn(side_named(turn).map_err(bad)?);
    }
    match (start, start_turn) {
        (Some(start), turn) => {
            let side = turn.map(side_named).transpose().map_err(bad)?;
            request = request.from(board_of(start, "start")?, side);
        }
        (None, Some(_)) => {
            return Err(BadInput::new_err("reach: start_turn needs start"));
        }
        (None, None) => {}
    }
    let (start, first) = request.start().map_err(|e| raised(py, e))?;
    let start_fen = postfacto::notation::to_fen(&start, first, variant.fen_algebraic());
    py.allow_threads(|| request.run())
        .map(|reached| Game::of(&reached, start_fen))
        .map_err(|e| raised(py, e))
}

/// One game of a PDN archive, checked as `postfacto verify --pdn` checks it.
#[pyclass(frozen, module = "postfacto")]
struct PdnGame {
    /// The archive it was read from, to repair it as `verify` does.
    archive: std::sync::Arc<VerifyRequest>,
    /// Its 1-based position in the file.
    #[pyo3(get)]
    number: usize,
    /// The 1-based line where it starts.
    #[pyo3(get)]
    line: usize,
    /// The rule set it was checked under (None when none could be chosen).
    #[pyo3(get)]
    rules: Option<String>,
    /// Whether that rule set was inferred from its notation and moves.
    #[pyo3(get)]
    inferred: bool,
    /// `ok`, `illegal`, `no moves`, `unreadable` or `unsupported`.
    #[pyo3(get)]
    status: String,
    /// The ply an illegal game breaks a rule at (0: its FEN position).
    #[pyo3(get)]
    ply: Option<usize>,
    /// Why, for a game that is not ok.
    #[pyo3(get)]
    reason: Option<String>,
    /// What was read leniently, one note each.
    #[pyo3(get)]
    notes: Vec<String>,
    /// The moves as read (`?` where illegible).
    #[pyo3(get)]
    moves: Vec<String>,
    /// Where it starts, as a FEN: its `[FEN]`, or its rule set's opening
    /// (None when it could not be read).
    #[pyo3(get)]
    start_fen: Option<String>,
    /// Its tags, in order.
    #[pyo3(get)]
    headers: Py<PyDict>,
}

#[pymethods]
impl PdnGame {
    fn __repr__(&self) -> String {
        let rules = self
            .rules
            .as_ref()
            .map_or_else(|| "None".to_string(), |r| format!("{r:?}"));
        format!(
            "PdnGame(number={}, line={}, rules={rules}, status={:?})",
            self.number, self.line, self.status
        )
    }

    /// The fewest edits that make its moves legal from where it starts
    /// (`start_fen`: a game without `[FEN]` from the opening, not as a
    /// fragment), as `postfacto verify --pdn --repair` repairs it.
    #[pyo3(signature = (max_edits=3, limit=None))]
    fn repair(&self, py: Python<'_>, max_edits: usize, limit: Option<f64>) -> PyResult<Repair> {
        let (Some(rules), Some(_)) = (&self.rules, &self.start_fen) else {
            return Err(BadInput::new_err(format!(
                "game {} (line {}): {}, so it has no moves to repair",
                self.number, self.line, self.status
            )));
        };
        let variant = one_rule_set(rules)?;
        let request = (*self.archive).clone().limit(seconds(limit)?);
        let number = self.number;
        let repaired = py
            .allow_threads(|| request.repair_game(number, variant, max_edits))
            .map_err(|e| raised(py, e))?;
        Ok(Repair::of(&repaired))
    }
}

impl PdnGame {
    fn of(
        py: Python<'_>,
        game: CheckedGame,
        archive: &std::sync::Arc<VerifyRequest>,
    ) -> PyResult<PdnGame> {
        let report = game.report;
        let headers = PyDict::new(py);
        for (name, value) in &report.tags {
            headers.set_item(name, value)?;
        }
        Ok(PdnGame {
            archive: std::sync::Arc::clone(archive),
            number: report.number,
            line: report.line,
            rules: report.rules.as_ref().map(|r| r.variant.name().to_string()),
            inferred: report
                .rules
                .as_ref()
                .is_some_and(|r| r.from == RulesFrom::Inferred),
            status: report.verdict.status().into(),
            ply: report.ply,
            reason: report.verdict.reason(),
            notes: report.notes.iter().map(ToString::to_string).collect(),
            moves: game.moves,
            start_fen: game.start_fen,
            headers: headers.unbind(),
        })
    }
}

/// Every game of a PDN archive, checked: `read_pdn(path)` or
/// `read_pdn(text=...)`.
#[pyfunction]
#[pyo3(signature = (path=None, *, text=None, rules=None, strict=false))]
fn read_pdn<'py>(
    py: Python<'py>,
    path: Option<PathBuf>,
    text: Option<String>,
    rules: Option<&str>,
    strict: bool,
) -> PyResult<Bound<'py, PyList>> {
    let request = archive_request(path, text, rules, "read_pdn")?.strict(strict);
    let checked = py
        .allow_threads(|| request.run())
        .map_err(|e| raised(py, e))?;
    let archive = std::sync::Arc::new(request);
    let games = checked
        .games
        .into_iter()
        .map(|g| PdnGame::of(py, g, &archive))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, games)
}

/// The request for a PDN archive given as `path` or `text=` (not both),
/// under `rules` when named; `call` names the function in errors.
fn archive_request(
    path: Option<PathBuf>,
    text: Option<String>,
    rules: Option<&str>,
    call: &str,
) -> PyResult<VerifyRequest> {
    let request = match (path, text) {
        (Some(path), None) => VerifyRequest::from_path(&path).map_err(file_error)?,
        (None, Some(text)) => VerifyRequest::new(text),
        _ => {
            return Err(BadInput::new_err(format!(
                "{call}: give a path or text=, not both"
            )))
        }
    };
    Ok(request.rules(rules.map(one_rule_set).transpose()?))
}

/// The rule sets postfacto plays, by the names its calls take (`AUTO`,
/// `"auto"`, asks a call to infer one of them from its moves or board).
fn rule_names() -> Vec<&'static str> {
    Variant::ALL.iter().map(|v| v.name()).collect()
}

mod judge;
mod report;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PostfactoError", py.get_type::<PostfactoError>())?;
    m.add("BadInput", py.get_type::<BadInput>())?;
    m.add("Impossible", py.get_type::<Impossible>())?;
    m.add("Undecided", py.get_type::<Undecided>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    m.add("RULES", rule_names())?;
    m.add("AUTO", "auto")?;
    m.add_class::<Answer>()?;
    m.add_class::<Edit>()?;
    m.add_class::<Repair>()?;
    m.add_class::<Game>()?;
    m.add_class::<PdnGame>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(repair, m)?)?;
    m.add_function(wrap_pyfunction!(cnf, m)?)?;
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(reach, m)?)?;
    m.add_function(wrap_pyfunction!(read_pdn, m)?)?;
    m.add_function(wrap_pyfunction!(judge::judge, m)?)?;
    m.add_function(wrap_pyfunction!(report::solve_json, m)?)?;
    m.add_function(wrap_pyfunction!(report::verify_json, m)?)?;
    Ok(())
}
