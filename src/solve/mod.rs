//! Engines that find a start board, and the check every answer passes before
//! anyone sees it.
//!
//! [`solve`] runs an engine, then replays the record from the engine's start
//! board with the native replayer. An answer the replayer rejects is an
//! [`SolveError`], never a printed board.

mod dfs;
mod external;
mod sat;

use std::fmt;

use crate::board::Board;
use crate::notation::{Answer, Record};
use crate::replay::replay;
use crate::rules::Variant;
use crate::sat::SatError;

pub use crate::sat::{lucky, parse_solver_output, Verdict};
pub use dfs::{solve_dfs, Limit};
pub use external::solve_external;
pub use sat::{filled_record, solve_by_unit_facts, solve_sat, solve_sat_knowing, solve_sat_with};

/// The method used to find a start board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[non_exhaustive]
pub enum Engine {
    /// The SAT encoding solved by varisat.
    #[default]
    Sat,
    /// The known repair-and-replay search, with its limit.
    Dfs(Limit),
}

impl Engine {
    /// Lower-case name, as on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Sat => "sat",
            Engine::Dfs(_) => "dfs",
        }
    }
}

/// Figures about one solve, for reports and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// SAT variables (0 for search engines).
    pub vars: usize,
    /// SAT clauses (0 for search engines).
    pub clauses: usize,
    /// Start boards tried (search engines only).
    pub nodes: u64,
    /// The SAT engine's model came from the lucky assignment, not varisat.
    pub lucky: bool,
    /// The SAT engine's answer is the board of the moves' own unit facts,
    /// which replayed, so no formula was built (`clauses` is 0); see
    /// [`solve_by_unit_facts`].
    pub shortcut: bool,
}

/// What an engine found, before the replay check.
#[derive(Clone, Debug)]
pub enum Found {
    /// A candidate start board.
    Start(Board, SolveStats),
    /// A candidate start board for a damaged record, with the record's
    /// moves filled in (see [`Record::written`]).
    Completed(Board, Record, SolveStats),
    /// Proof (or a search's exhaustion) that no start board exists, with a reason when known.
    Impossible(Option<String>, SolveStats),
    /// A limit was hit before a verdict.
    GaveUp(String, SolveStats),
}

/// A checked answer.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Start and end boards; the end board is the replayer's.
    pub answer: Answer,
    /// Figures from the engine.
    pub stats: SolveStats,
    /// For a damaged record, the record with every move filled in, as
    /// replayed to get `answer.end`.
    pub filled: Option<Record>,
}

/// The verdict on one record.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Outcome {
    /// A start board was found and replayed.
    Solved(Solution),
    /// No start board makes the moves legal.
    Impossible {
        /// Why, when the engine can tell.
        reason: Option<String>,
        /// Figures from the engine.
        stats: SolveStats,
    },
    /// A limit was hit before a verdict.
    GaveUp {
        /// Which limit, in words.
        reason: String,
        /// Figures from the engine.
        stats: SolveStats,
    },
}

/// Why a record got no verdict: a typed error, so callers can tell a bug
/// (exit 4) from a limit (exit 3) and a request that cannot be served (2).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolveError {
    /// An engine's answer fails the replay check, or the machinery
    /// contradicted itself: a bug in postfacto.
    Internal(String),
    /// The SAT machinery failed, or gave no verdict (see [`SatError::is_undecided`]).
    Sat(SatError),
    /// The request cannot be served, e.g. the DFS engine under Russian rules.
    Unsupported(String),
}

impl SolveError {
    /// A limit or an outside solver's "unknown", not a failure.
    pub fn is_undecided(&self) -> bool {
        matches!(self, SolveError::Sat(e) if e.is_undecided())
    }
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Internal(m) => write!(f, "internal error: {m}"),
            SolveError::Sat(e) if e.is_undecided() => write!(f, "{e}"),
            SolveError::Sat(e) => write!(f, "internal error: {e}"),
            SolveError::Unsupported(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for SolveError {}

impl From<crate::encode::Unsupported> for SolveError {
    fn from(e: crate::encode::Unsupported) -> SolveError {
        SolveError::Unsupported(e.to_string())
    }
}

impl From<crate::encode::EncodeError> for SolveError {
    fn from(e: crate::encode::EncodeError) -> SolveError {
        match e {
            crate::encode::EncodeError::Unsupported(u) => u.into(),
            crate::encode::EncodeError::TooManyMoves(m) => SolveError::Sat(SatError::Undecided(m)),
        }
    }
}

impl From<SatError> for SolveError {
    fn from(e: SatError) -> SolveError {
        SolveError::Sat(e)
    }
}

impl From<varisat::solver::SolverError> for SolveError {
    fn from(e: varisat::solver::SolverError) -> SolveError {
        SolveError::Sat(e.into())
    }
}

/// Finds a start board for `record` with `engine` and checks it with the replayer.
///
/// # Errors
/// [`SolveError`] when the engine fails or its board does not replay.
pub fn solve(record: &Record, engine: Engine) -> Result<Outcome, SolveError> {
    solve_with(record, engine, Variant::English)
}

/// [`solve_with`], but the SAT engine's formula goes to the outside solver
/// `command` (program and arguments) instead of varisat; its answer gets the
/// same replay check. A solver still running after `limit` is killed with
/// its process group, and the outcome is [`Outcome::GaveUp`].
///
/// # Errors
/// [`SolveError`] when the solver fails or its board does not replay.
pub fn solve_with_solver(
    record: &Record,
    variant: Variant,
    command: &[String],
    limit: Option<std::time::Duration>,
) -> Result<Outcome, SolveError> {
    let none = crate::encode::BoardFacts::none();
    solve_with_solver_knowing(record, variant, none, command, limit)
}

/// [`solve_with_solver`], the start board also bound by what is `known`
/// of the start and end boards; the answer is checked against the facts.
///
/// # Errors
/// As [`solve_with_solver`].
pub fn solve_with_solver_knowing(
    record: &Record,
    variant: Variant,
    known: crate::encode::BoardFacts,
    command: &[String],
    limit: Option<std::time::Duration>,
) -> Result<Outcome, SolveError> {
    let found = match solve_external(record, variant, known, command, limit) {
        Err(SolveError::Sat(SatError::Undecided(reason))) => {
            Found::GaveUp(reason, SolveStats::default())
        }
        other => other?,
    };
    let outcome = check(record, Engine::Sat, variant, found)?;
    if let Outcome::Solved(solution) = &outcome {
        check_facts(&solution.answer, known)?;
    }
    Ok(outcome)
}

/// [`solve_with`], the start board also bound by what is `known` of the
/// start and end boards (the SAT engine only). The answer's boards are
/// checked against those facts, as its moves are by the replayer.
///
/// # Errors
/// As [`solve_with`]; [`SolveError::Unsupported`] for facts with the DFS engine.
pub fn solve_knowing(
    record: &Record,
    engine: Engine,
    variant: Variant,
    known: crate::encode::BoardFacts,
) -> Result<Outcome, SolveError> {
    if known.is_empty() {
        return solve_with(record, engine, variant);
    }
    if engine != Engine::Sat {
        refuse_damaged(record, "the DFS engine")?;
        return Err(SolveError::Unsupported(
            "the DFS engine does not take board facts; the SAT engine does".into(),
        ));
    }
    let found = sat::solve_sat_knowing(record, variant, known)?;
    let outcome = check(record, engine, variant, found)?;
    if let Outcome::Solved(solution) = &outcome {
        check_facts(&solution.answer, known)?;
    }
    Ok(outcome)
}

/// Checks an answer against what is `known` of its boards, square by square.
///
/// # Errors
/// [`SolveError::Internal`] naming the first fact the answer breaks (a bug:
/// the engines encode every fact).
pub fn check_facts(answer: &Answer, known: crate::encode::BoardFacts) -> Result<(), SolveError> {
    let boards = [
        ("start", known.start, &answer.start),
        ("end", known.end, &answer.end),
    ];
    for (name, facts, board) in boards {
        if let Some((square, fact)) = facts.and_then(|f| f.first_difference(board)) {
            return Err(SolveError::Internal(format!(
                "the answer's {name} board breaks the fact on square {square} ({fact:?})"
            )));
        }
    }
    Ok(())
}

/// [`solve`] under the rules of `variant`.
///
/// # Errors
/// [`SolveError`] when the engine fails or its board does not replay, or
/// when the DFS engine is asked for rules other than English (it knows only those).
pub fn solve_with(
    record: &Record,
    engine: Engine,
    variant: Variant,
) -> Result<Outcome, SolveError> {
    if let Some(whole) = record.as_written(variant.geometry()) {
        return solve_as_written(record, &whole, engine, variant);
    }
    if engine != Engine::Sat {
        refuse_damaged(record, "the DFS engine")?;
    }
    let found = match (engine, variant) {
        (Engine::Sat, _) => {
            if let Some(answer) = solve_by_unit_facts(record, variant) {
                let stats = SolveStats {
                    vars: crate::encode::vars::var_count(variant.topology()),
                    lucky: true,
                    shortcut: true,
                    ..SolveStats::default()
                };
                return Ok(Outcome::Solved(Solution {
                    answer,
                    stats,
                    filled: None,
                }));
            }
            sat::solve_sat_with(record, variant)?
        }
        (Engine::Dfs(limit), Variant::English) => solve_dfs(record, limit),
        (Engine::Dfs(_), _) => {
            return Err(SolveError::Unsupported(format!(
                "the DFS engine knows English rules only, not {}",
                variant.name()
            )))
        }
    };
    check(record, engine, variant, found)
}

/// Checks a start board that `who` (e.g. "the sat engine") found for
/// `record`: it must obey the start-board rules and replay; the answer is
/// the start board and the replayer's end board.
///
/// # Errors
/// [`SolveError`] naming `who` when the board breaks a rule.
pub fn checked_answer(record: &Record, start: Board, who: &str) -> Result<Answer, SolveError> {
    checked_answer_with(record, start, who, Variant::English)
}

/// [`checked_answer`] under the rules of `variant`.
///
/// # Errors
/// [`SolveError`] naming `who` when the board breaks a rule.
pub fn checked_answer_with(
    record: &Record,
    start: Board,
    who: &str,
    variant: Variant,
) -> Result<Answer, SolveError> {
    let rules = variant.rules();
    if let Some(problem) = rules.start_problems(&start).first() {
        return Err(SolveError::Internal(format!(
            "{who}'s start board breaks a start rule: {problem}"
        )));
    }
    let end = replay(rules, &start, record).map_err(|e| {
        SolveError::Internal(format!(
            "{who}'s start board does not replay: {e}
{start}"
        ))
    })?;
    Ok(Answer { start, end })
}

/// Checks that `filled` is `record` with its moves filled in: same first
/// side, and each move fits what is written.
///
/// # Errors
/// [`SolveError::Internal`] naming the first move that does not fit.
pub fn check_filled(record: &Record, filled: &Record, who: &str) -> Result<(), SolveError> {
    let written = record.written_moves();
    if filled.first != record.first || filled.moves.len() != written.len() {
        return Err(SolveError::Internal(format!(
            "{who} filled in {} moves for a record of {}",
            filled.moves.len(),
            written.len()
        )));
    }
    for (i, (w, mv)) in written.iter().zip(&filled.moves).enumerate() {
        if !w.matches(mv) {
            return Err(SolveError::Internal(format!(
                "{who} filled ply {} ({w}) with {mv}, which does not fit",
                i + 1
            )));
        }
    }
    Ok(())
}

/// A record whose only damage is captures read short but written whole
/// (PDN): solved as written first, with every engine's speed; only if that
/// has no answer does the SAT engine try the longer paths that also fit
/// (a king's capture may loop through squares the text leaves out).
fn solve_as_written(
    record: &Record,
    whole: &Record,
    engine: Engine,
    variant: Variant,
) -> Result<Outcome, SolveError> {
    if let Outcome::Solved(mut solution) = solve_with(whole, engine, variant)? {
        solution.filled = Some(whole.clone());
        return Ok(Outcome::Solved(solution));
    }
    if engine != Engine::Sat {
        return Err(SolveError::Unsupported(
            "the DFS engine finds no answer with the captures as written; longer capture paths that also fit the text need the SAT engine".into(),
        ));
    }
    let found = sat::solve_sat_with(record, variant)?;
    check(record, engine, variant, found)
}

/// The refusal of engines that need every move written out.
fn refuse_damaged(record: &Record, who: &str) -> Result<(), SolveError> {
    if record.is_damaged() {
        return Err(SolveError::Unsupported(format!(
            "{who} does not take damaged records (a '?' or a short capture); the SAT engine does"
        )));
    }
    Ok(())
}

/// Replays an engine's candidate; turns a failed replay into an [`SolveError`].
fn check(
    record: &Record,
    engine: Engine,
    variant: Variant,
    found: Found,
) -> Result<Outcome, SolveError> {
    match found {
        Found::Impossible(reason, stats) => Ok(Outcome::Impossible { reason, stats }),
        Found::GaveUp(reason, stats) => Ok(Outcome::GaveUp { reason, stats }),
        Found::Start(start, stats) => {
            let who = format!("the {} engine", engine.name());
            if record.is_damaged() {
                return Err(SolveError::Internal(format!(
                    "{who} gave a start board without the moves of a damaged record"
                )));
            }
            let answer = checked_answer_with(record, start, &who, variant)?;
            Ok(Outcome::Solved(Solution {
                answer,
                stats,
                filled: None,
            }))
        }
        Found::Completed(start, filled, stats) => {
            let who = format!("the {} engine", engine.name());
            check_filled(record, &filled, &who)?;
            let answer = checked_answer_with(&filled, start, &who, variant)?;
            Ok(Outcome::Solved(Solution {
                answer,
                stats,
                filled: Some(filled),
            }))
        }
    }
}
