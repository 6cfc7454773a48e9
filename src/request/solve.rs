//! Solving and repairing a fragment: the first rule set under which it
//! solves, its answer replayed, and why when there is none.

use crate::notation::plural;
use std::time::{Duration, Instant};

use crate::analysis::{Analysis, Edit, RepairOptions, RepairOutcome};
use crate::board::Color;
use crate::notation::{to_fen, Answer, Record};
use crate::replay::replay;
use crate::rules::Variant;
use crate::sat::within;
use crate::solve::{Engine, Outcome, Reconstructor, Solution, SolveError, SolveStats};

use super::input::first_solving;
use super::{Fragment, Problem, RequestError};

/// A fragment reconstructed: the rule set, the moves as written and as
/// played, and the answer, replayed by the native replayer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The rule set it was solved under.
    pub variant: Variant,
    /// Whether that rule set was inferred (`auto`).
    pub inferred: bool,
    /// The moves as written (unknowns and short captures as given).
    pub record: Record,
    /// The moves as played: every move whole, every landing written.
    pub filled: Record,
    /// The start board and the end board the moves lead to.
    pub answer: Answer,
    /// What the solver did.
    pub stats: SolveStats,
}

impl Solved {
    /// The answer of `problem` given by `solution`, replayed: the filled
    /// record must fit what is written and lead from the start to the end.
    ///
    /// # Errors
    /// [`SolveError::Internal`] when it does not (a bug).
    pub fn checked(problem: &Problem, solution: Solution) -> Result<Solved, SolveError> {
        let filled = solution.filled.unwrap_or_else(|| problem.record.clone());
        crate::solve::check_filled(&problem.record, &filled, "the solver")?;
        Solved::replayed(problem, filled, solution.answer, solution.stats)
    }

    /// As [`Solved::checked`], for a record `filled` that need not fit
    /// the written one (a repair changes it).
    fn replayed(
        problem: &Problem,
        filled: Record,
        answer: Answer,
        stats: SolveStats,
    ) -> Result<Solved, SolveError> {
        let end = replay(problem.variant.rules(), &answer.start, &filled)
            .map_err(|e| SolveError::Internal(format!("the answer does not replay: {e}")))?;
        if end != answer.end {
            return Err(SolveError::Internal(
                "the answer's end board is not the replayer's".into(),
            ));
        }
        crate::solve::check_facts(&answer, problem.known)?;
        Ok(Solved {
            variant: problem.variant,
            inferred: problem.inferred,
            record: problem.record.clone(),
            filled,
            answer,
            stats,
        })
    }

    /// The side to move on the end board.
    pub fn end_turn(&self) -> Color {
        self.filled.mover(self.filled.moves.len() + 1)
    }

    /// The start board as a FEN string, as PDN writes it for this rule
    /// set (`shared/spec/pdn.md`), the first side to move.
    pub fn start_fen(&self) -> String {
        self.fens(self.variant.fen_algebraic()).0
    }

    /// The end board as a FEN string, the side to move next to move.
    pub fn end_fen(&self) -> String {
        self.fens(self.variant.fen_algebraic()).1
    }

    /// The start and end boards as FEN strings, squares named
    /// algebraically or not: pydraughts and lidraughts name them as the
    /// moves do (Brazilian `W:Wa1`, where PDN numbers them).
    pub fn fens(&self, algebraic: bool) -> (String, String) {
        (
            to_fen(&self.answer.start, self.filled.first, algebraic),
            to_fen(&self.answer.end, self.end_turn(), algebraic),
        )
    }

    /// The moves as played, every landing written (`13x22x31x24`).
    pub fn moves(&self) -> Vec<String> {
        self.filled
            .moves
            .iter()
            .map(|m| self.variant.write_move(m))
            .collect()
    }

    /// The moves as written, in the rule set's notation (`?` where a move
    /// was not legible).
    pub fn written(&self) -> Vec<String> {
        let algebraic = self.variant.algebraic();
        self.record
            .written_moves()
            .iter()
            .map(|w| {
                if algebraic {
                    w.algebraic()
                } else {
                    w.numbered()
                }
            })
            .collect()
    }
}

/// Reconstruct a fragment: the first rule set it may follow under which
/// it solves, its answer replayed.
#[derive(Clone, Debug)]
pub struct SolveRequest {
    fragment: Fragment,
    engine: Engine,
    limit: Option<Duration>,
}

impl SolveRequest {
    /// Solve `fragment` with the SAT engine, no time limit.
    pub fn new(fragment: Fragment) -> SolveRequest {
        SolveRequest {
            fragment,
            engine: Engine::Sat,
            limit: None,
        }
    }

    /// With this engine.
    #[must_use]
    pub fn engine(mut self, engine: Engine) -> SolveRequest {
        self.engine = engine;
        self
    }

    /// Answer undecided when `limit` passes first (rule inference
    /// included: one limit for the whole request).
    #[must_use]
    pub fn limit(mut self, limit: Option<Duration>) -> SolveRequest {
        self.limit = limit;
        self
    }

    /// The answer.
    ///
    /// # Errors
    /// [`RequestError`]: bad input, impossible (with the smallest set of
    /// rules in conflict), undecided, or a bug.
    pub fn run(&self) -> Result<Solved, RequestError> {
        let problems = self.fragment.problems()?;
        let engine = self.engine;
        limited(self.limit, move || solve_first(&problems, engine))
    }
}

/// Runs `job`, or on a thread of its own that is abandoned (undecided)
/// when `limit` passes: varisat cannot be interrupted.
fn limited<T: Send + 'static>(
    limit: Option<Duration>,
    job: impl FnOnce() -> Result<T, RequestError> + Send + 'static,
) -> Result<T, RequestError> {
    let Some(limit) = limit else {
        return job();
    };
    within(limit, job).unwrap_or_else(|| {
        Err(RequestError::Undecided {
            reason: format!("the time limit of {limit:?} passed before a verdict"),
        })
    })
}

/// The first of `problems` that solves, else the verdict on the first.
fn solve_first(problems: &[Problem], engine: Engine) -> Result<Solved, RequestError> {
    let solve = |p: &Problem| {
        Reconstructor::new(p.variant)
            .engine(engine)
            .facts(p.known)
            .solve(&p.record)
    };
    let (chosen, outcome) =
        first_solving(problems, solve, None).map_err(RequestError::from_solve)?;
    let problem = &problems[chosen];
    let outcome = match outcome {
        Some(outcome) => outcome,
        None => solve(problem).map_err(RequestError::from_solve)?,
    };
    match outcome {
        Outcome::Solved(solution) => Ok(Solved::checked(problem, solution)?),
        Outcome::Impossible { reason, .. } => {
            let analysis = Analysis::new(problem.variant).facts(problem.known);
            let (reason, _) =
                analysis.confirm_impossible(&problem.record, reason, engine.name())?;
            Err(RequestError::Impossible { reason })
        }
        Outcome::GaveUp { reason, .. } => Err(RequestError::Undecided { reason }),
    }
}

/// A repair: the fewest edits (a square misread, a move misread, a move
/// missing or extra, the other side first) after which the fragment is
/// possible, and its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repaired {
    /// The edits, in the order of the plies they concern (none when the
    /// fragment is possible as written).
    pub edits: Vec<Edit>,
    /// The repaired fragment's answer, replayed.
    pub solved: Solved,
}

/// Repair a fragment: the fewest edits that make it possible.
#[derive(Clone, Debug)]
pub struct RepairRequest {
    fragment: Fragment,
    max_edits: usize,
    limit: Option<Duration>,
}

impl RepairRequest {
    /// Repair `fragment` with at most 3 edits, no time limit.
    pub fn new(fragment: Fragment) -> RepairRequest {
        RepairRequest {
            fragment,
            max_edits: RepairOptions::default().max_edits,
            limit: None,
        }
    }

    /// With at most `max_edits` edits.
    #[must_use]
    pub fn max_edits(mut self, max_edits: usize) -> RepairRequest {
        self.max_edits = max_edits;
        self
    }

    /// Answer undecided, with the bound proved, when `limit` passes.
    #[must_use]
    pub fn limit(mut self, limit: Option<Duration>) -> RepairRequest {
        self.limit = limit;
        self
    }

    /// The repair: under the first rule set that needs none or the
    /// fewest edits, tried in order.
    ///
    /// # Errors
    /// [`RequestError`]: bad input, impossible (no repair within the
    /// edits allowed), undecided (with the bound proved), or a bug.
    pub fn run(&self) -> Result<Repaired, RequestError> {
        let problems = self.fragment.problems_reading(true)?;
        let options = RepairOptions {
            max_edits: self.max_edits,
            deadline: self.limit.map(|limit| Instant::now() + limit),
            ..RepairOptions::default()
        };
        // The repair reads the clock itself; its thread gets a grace before
        // it is abandoned (one solver call is not interrupted).
        let waited = self
            .limit
            .map(|limit| limit + (limit / 4).max(Duration::from_millis(500)));
        limited(waited, move || repair_first(&problems, options))
    }
}

/// The repair under the first of `problems` that has one.
fn repair_first(problems: &[Problem], options: RepairOptions) -> Result<Repaired, RequestError> {
    let mut verdict = None;
    for problem in problems {
        let outcome = Analysis::new(problem.variant)
            .facts(problem.known)
            .repair(&problem.record, options, &mut |_| {})
            .map_err(RequestError::from_solve)?;
        match outcome {
            RepairOutcome::NotNeeded(solution) => {
                let solved = Solved::checked(problem, *solution)?;
                return Ok(Repaired {
                    edits: Vec::new(),
                    solved,
                });
            }
            RepairOutcome::Repaired(repairs) => {
                let Some(first) = repairs.into_iter().next() else {
                    return Err(SolveError::Internal("a repair without edits".into()).into());
                };
                let solution = first.solution;
                let solved =
                    Solved::replayed(problem, first.record, solution.answer, solution.stats)?;
                return Ok(Repaired {
                    edits: first.edits,
                    solved,
                });
            }
            other => {
                verdict.get_or_insert(other);
            }
        }
    }
    Err(match verdict {
        Some(RepairOutcome::Undecided { at_least }) => RequestError::Undecided {
            reason: format!(
                "the time limit passed: no repair of fewer than {} exists; whether one of {at_least} does is not known",
                plural(at_least, "edit")
            ),
        },
        _ => RequestError::Impossible {
            reason: format!(
                "no repair of at most {} edits makes the moves legal",
                options.max_edits
            ),
        },
    })
}
