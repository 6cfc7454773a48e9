//! Finding a start board, and the check every answer passes before anyone
//! sees it.
//!
//! One pipeline, behind one type ([`Reconstructor`], a builder with the
//! options: engine, facts, outside solver):
//!
//! encode ([`Formula`]) → solve → decode → replay → (refine) → answer.
//!
//! The SAT engine's models are read back and replayed by the native
//! replayer; a model it rejects teaches the formula a clause
//! (`refine`) and the solver goes on. An answer is printed only once it
//! replays; a model that breaks a rule the formula states in full is an
//! internal error (e.g. [`SolveError::RuleStatedInFullBroken`]), never a printed board.

mod dfs;
mod error;
mod external;
mod formula;
pub(crate) mod refine;
mod sat;

use std::time::Duration;

use crate::board::Board;
use crate::encode::BoardFacts;
use crate::notation::{Answer, Record};
use crate::replay::replay;
use crate::rules::Variant;

pub use crate::sat::{lucky, parse_solver_output, Verdict};
pub use dfs::{solve_dfs, Limit};
pub use error::SolveError;
pub use external::program_exists;
pub use formula::{solve_canonically, Canonical, Formula, Learned, Refined};
// The refinement loop's parts, for the analyses built on it (not the API).
pub(crate) use formula::{solve_refining, Backend};
pub use sat::solve_by_unit_facts;

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
    /// Clauses the SAT engine learned from models the replayer rejected
    /// (counted in `clauses` too).
    pub learned: usize,
}

/// What the DFS engine found, before the replay check.
#[derive(Clone, Debug)]
pub enum Found {
    /// A candidate start board.
    Start(Board, SolveStats),
    /// The search's exhaustion: no start board exists, with a reason when known.
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

/// Finds a start board for `record` with `engine` under English rules
/// and checks it with the replayer (see [`Reconstructor`] for the rest).
///
/// # Errors
/// [`SolveError`] when the engine fails or its board does not replay.
pub fn solve(record: &Record, engine: Engine) -> Result<Outcome, SolveError> {
    solve_with(record, engine, Variant::English)
}

/// [`solve`] under the rules of `variant`.
///
/// # Errors
/// As [`solve`]; the DFS engine knows English rules only.
pub fn solve_with(
    record: &Record,
    engine: Engine,
    variant: Variant,
) -> Result<Outcome, SolveError> {
    Reconstructor::new(variant).engine(engine).solve(record)
}

/// The reconstruction of records under one rule set, with its options.
///
/// ```
/// use postfacto::notation::parse_records;
/// use postfacto::rules::Variant;
/// use postfacto::solve::{Engine, Outcome, Reconstructor};
/// let record = &parse_records("W 3\n21-17\n13x22x31x24\n19x28\n")?[0];
/// let outcome = Reconstructor::new(Variant::English).engine(Engine::Sat).solve(record)?;
/// assert!(matches!(outcome, Outcome::Solved(_)));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reconstructor {
    variant: Variant,
    engine: Engine,
    known: BoardFacts,
    outside: Option<(Vec<String>, Option<Duration>)>,
    units_first: bool,
    open_steps_first: bool,
}

impl Reconstructor {
    /// The SAT engine under `variant`, nothing known besides the moves.
    pub fn new(variant: Variant) -> Reconstructor {
        Reconstructor {
            variant,
            engine: Engine::Sat,
            known: BoardFacts::none(),
            outside: None,
            units_first: false,
            open_steps_first: false,
        }
    }

    /// The engine.
    #[must_use]
    pub fn engine(mut self, engine: Engine) -> Reconstructor {
        self.engine = engine;
        self
    }

    /// What is known of the start and end boards besides the moves (the
    /// SAT engine only); every answer is checked against them.
    #[must_use]
    pub fn facts(mut self, known: BoardFacts) -> Reconstructor {
        self.known = known;
        self
    }

    /// An outside SAT solver (program and arguments; the DIMACS file's
    /// path is added last) instead of varisat, killed with its process
    /// group when `limit` passes.
    #[must_use]
    pub fn outside_solver(
        mut self,
        command: Vec<String>,
        limit: Option<Duration>,
    ) -> Reconstructor {
        self.outside = Some((command, limit));
        self
    }

    /// An impossible record that unit propagation refutes is answered with
    /// no solver loaded and nothing learned (its reason and figures are
    /// thin): for searches that want the verdicts of many records, most of
    /// them impossible (the repair's). Every other answer is the same.
    #[must_use]
    pub fn units_first(mut self) -> Reconstructor {
        self.units_first = true;
        self
    }

    /// Before a damaged ply's capture steps are deepened, the formula is
    /// solved once with every such ply's steps left open (the move may go
    /// on past them, ending anywhere and taking anything its domains
    /// allow): the formula with steps written is implied by the one with
    /// all of them, so when even that is unsatisfiable the record is
    /// impossible, with no more steps written. For searches that want the
    /// verdicts of many records, most of them impossible (the repair's):
    /// a possible record's model may differ (the solver saw one more
    /// call), so one whose model is printed is solved without it.
    #[must_use]
    pub fn open_steps_first(mut self) -> Reconstructor {
        self.open_steps_first = true;
        self
    }

    /// The rule set.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// What is known of the boards.
    pub fn known(&self) -> BoardFacts {
        self.known
    }

    /// Reconstructs `record`: encode, solve, decode, replay, refine, answer.
    ///
    /// # Errors
    /// [`SolveError`]: the engine fails, an answer does not replay (a bug),
    /// or the request cannot be served (the DFS engine and damaged
    /// records, facts or rules other than English).
    pub fn solve(&self, record: &Record) -> Result<Outcome, SolveError> {
        if let Some(whole) = record.as_written(self.variant.geometry()) {
            // A capture read short but written whole (PDN): as written
            // first, with every engine's speed.
            if let Outcome::Solved(mut solution) = self.solve_whole(&whole)? {
                solution.filled = Some(whole);
                return Ok(Outcome::Solved(solution));
            }
            if self.engine != Engine::Sat {
                return Err(SolveError::Unsupported(
                    "the DFS engine finds no answer with the captures as written; longer capture paths that also fit the text need the SAT engine".into(),
                ));
            }
        }
        self.solve_whole(record)
    }

    fn solve_whole(&self, record: &Record) -> Result<Outcome, SolveError> {
        match self.engine {
            Engine::Sat => match &self.outside {
                Some((command, limit)) => {
                    external::solve_external(self.variant, record, self.known, command, *limit)
                }
                None => sat::solve_sat(
                    self.variant,
                    record,
                    self.known,
                    sat::Shortcuts {
                        units_first: self.units_first,
                        open_steps_first: self.open_steps_first,
                    },
                ),
            },
            Engine::Dfs(limit) => self.solve_dfs(record, limit),
        }
    }

    fn solve_dfs(&self, record: &Record, limit: Limit) -> Result<Outcome, SolveError> {
        refuse_damaged(record, "the DFS engine")?;
        if !self.known.is_empty() {
            return Err(SolveError::Unsupported(
                "the DFS engine does not take board facts; the SAT engine does".into(),
            ));
        }
        if !self.variant.has_dfs() {
            return Err(SolveError::Unsupported(format!(
                "the DFS engine knows English rules only, not {}",
                self.variant.name()
            )));
        }
        match solve_dfs(record, limit) {
            Found::Impossible(reason, stats) => Ok(Outcome::Impossible { reason, stats }),
            Found::GaveUp(reason, stats) => Ok(Outcome::GaveUp { reason, stats }),
            Found::Start(start, stats) => {
                let answer = checked_answer(record, start, "the dfs engine", self.variant)?;
                Ok(Outcome::Solved(Solution {
                    answer,
                    stats,
                    filled: None,
                }))
            }
        }
    }
}

/// Checks an answer against what is `known` of its boards, square by square.
///
/// # Errors
/// [`SolveError::FactBroken`] naming the first fact the answer breaks (a bug:
/// the engines encode every fact).
pub fn check_facts(answer: &Answer, known: crate::encode::BoardFacts) -> Result<(), SolveError> {
    let boards = [
        ("start", known.start, &answer.start),
        ("end", known.end, &answer.end),
    ];
    for (name, facts, board) in boards {
        if let Some((square, fact)) = facts.and_then(|f| f.first_difference(board)) {
            return Err(SolveError::FactBroken {
                board: name,
                square,
                fact,
            });
        }
    }
    Ok(())
}

/// Checks a start board that `who` (e.g. "the dfs engine") found for
/// `record` under `variant`: it must obey the start-board rules and
/// replay; the answer is the start board and the replayer's end board.
///
/// # Errors
/// [`SolveError`] naming `who` when the board breaks a rule.
pub fn checked_answer(
    record: &Record,
    start: Board,
    who: &str,
    variant: Variant,
) -> Result<Answer, SolveError> {
    let rules = variant.rules();
    if let Some(problem) = rules.start_problems(&start).first() {
        return Err(SolveError::StartRuleBroken {
            who: who.to_string(),
            problem: *problem,
        });
    }
    let end = replay(rules, &start, record).map_err(|reason| SolveError::StartDoesNotReplay {
        who: who.to_string(),
        reason: Box::new(reason),
        start,
    })?;
    Ok(Answer { start, end })
}

/// Checks that `filled` is `record` with its moves filled in: same first
/// side, and each move fits what is written.
///
/// # Errors
/// [`SolveError::FilledLengthDiffers`], or [`SolveError::FillingDoesNotFit`]
/// naming the first move that does not fit.
pub fn check_filled(record: &Record, filled: &Record, who: &str) -> Result<(), SolveError> {
    let written = record.written_moves();
    if filled.first != record.first || filled.moves.len() != written.len() {
        return Err(SolveError::FilledLengthDiffers {
            who: who.to_string(),
            filled: filled.moves.len(),
            written: written.len(),
        });
    }
    for (i, (w, mv)) in written.iter().zip(&filled.moves).enumerate() {
        if !w.matches(mv) {
            return Err(SolveError::FillingDoesNotFit {
                who: who.to_string(),
                ply: i + 1,
                written: Box::new(w.clone()),
                played: Box::new(mv.clone()),
            });
        }
    }
    Ok(())
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
