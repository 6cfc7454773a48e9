//! Solving and repairing a fragment: the first rule set under which it
//! solves, its answer replayed, and why when there is none.

use std::sync::Arc;
use std::time::Duration;

use crate::analysis::{Edit, RepairOptions};
use crate::board::Color;
use crate::notation::{to_fen, Answer, Record};
use crate::replay::replay;
use crate::rules::Variant;
use crate::solve::{Engine, Solution, SolveError, SolveStats};

use super::{
    silent, solve_problems, Analyses, Fragment, InputError, Name, Problem, Report, RequestError,
    SolveOptions, Verdict,
};

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
    /// [`SolveError::AnswerDoesNotReplay`] or [`SolveError::EndBoardDiffers`] when it does not (a bug).
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
            .map_err(|e| SolveError::AnswerDoesNotReplay(Box::new(e)))?;
        if end != answer.end {
            return Err(SolveError::EndBoardDiffers);
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
    /// algebraically or not (pydraughts and lidraughts name them as the
    /// moves do, as PDN's GameType 26 does for Brazilian: `W:Wa1`).
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
        self.record
            .written_moves()
            .iter()
            .map(|w| self.variant.write_written(w))
            .collect()
    }
}

/// Reconstruct a fragment: the first rule set it may follow under which
/// it solves, its answer replayed; with analyses, what they find, as the
/// binary's `solve` reports it.
#[derive(Clone, Debug)]
pub struct SolveRequest {
    fragment: Fragment,
    engine: Engine,
    limit: Option<Duration>,
    analyses: Analyses,
}

/// How the report of a request names its fragment in notes.
const FRAGMENT: &str = "the fragment";

impl SolveRequest {
    /// Solve `fragment` with the SAT engine, no time limit.
    pub fn new(fragment: Fragment) -> SolveRequest {
        SolveRequest {
            fragment,
            engine: Engine::Sat,
            limit: None,
            analyses: Analyses::default(),
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

    /// With these analyses (counts, explanations, a minimum, a repair).
    #[must_use]
    pub fn analyses(mut self, analyses: Analyses) -> SolveRequest {
        self.analyses = analyses;
        self
    }

    /// The options the binary's `solve` would run this request with.
    fn options(&self) -> SolveOptions {
        SolveOptions {
            engine: self.engine,
            time_limit: self.limit,
            analyses: self.analyses.clone(),
            ..SolveOptions::default()
        }
    }

    /// The whole report, as `solve --format json` prints it (the verdict
    /// is in it: only input that cannot be read is an error).
    ///
    /// # Errors
    /// [`RequestError::BadInput`] (the options too).
    pub fn json(&self) -> Result<String, RequestError> {
        self.reported(|report, options| Ok(crate::output::to_json(report, options)))
    }

    /// The answer.
    ///
    /// # Errors
    /// [`RequestError`]: bad input, impossible (with the smallest set of
    /// rules in conflict), undecided, or a bug.
    pub fn run(&self) -> Result<Solved, RequestError> {
        self.reported(|report, _| Solved::of(report))
    }

    /// What `then` makes of the record job's report on this fragment.
    fn reported<T>(
        &self,
        then: impl FnOnce(&Report, &SolveOptions) -> Result<T, RequestError>,
    ) -> Result<T, RequestError> {
        let problems = self.fragment.problems_reading(self.analyses.repair)?;
        let options = Arc::new(self.options());
        options
            .check(self.fragment.rule_choice().given())
            .map_err(InputError::from)?;
        let report = solve_problems(Name::input(FRAGMENT), &problems, &options, &silent());
        then(&report, &options)
    }
}

/// Why a report has no answer, as one request error: its notes without
/// the name they start with.
fn refusal(report: &Report) -> RequestError {
    let prefix = format!("{}: ", report.name);
    let said: Vec<&str> = report
        .err
        .iter()
        .map(|line| line.strip_prefix(&prefix).unwrap_or(line))
        .collect();
    let said = said.join("; ");
    match report.status {
        Verdict::Impossible => RequestError::Impossible {
            reason: report.explanation.clone().unwrap_or(said),
        },
        Verdict::Undecided => RequestError::Undecided {
            reason: said
                .strip_prefix("undecided: ")
                .unwrap_or(&said)
                .to_string(),
        },
        Verdict::BadInput => InputError::Unsupported(said).into(),
        Verdict::Solved | Verdict::Internal => SolveError::Reported(said).into(),
    }
}

impl Solved {
    /// The first answer of a report (replayed and fact-checked where the
    /// report was made), or why it has none.
    ///
    /// # Errors
    /// The report's verdict, when it is not solved.
    pub fn of(report: &Report) -> Result<Solved, RequestError> {
        let (Verdict::Solved, Some(record), Some(answer)) =
            (report.status, report.record, report.answers.first())
        else {
            return Err(refusal(report));
        };
        Ok(Solved {
            variant: report.variant,
            inferred: report.inferred,
            record: record.clone(),
            filled: report.filled.first().unwrap_or(record).clone(),
            answer: *answer,
            stats: report.stats.unwrap_or_default(),
        })
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

    /// The repair, as `solve --repair` finds it: under the first rule set
    /// the fragment solves under as written, else the first it may follow.
    ///
    /// # Errors
    /// [`RequestError`]: bad input, impossible (no repair within the
    /// edits allowed), undecided (with the bound proved), or a bug.
    pub fn run(&self) -> Result<Repaired, RequestError> {
        let analyses = Analyses {
            repair: true,
            max_edits: self.max_edits,
            ..Analyses::default()
        };
        let problems = self.fragment.problems_reading(true)?;
        let options = Arc::new(SolveOptions {
            time_limit: self.limit,
            analyses,
            ..SolveOptions::default()
        });
        let report = solve_problems(Name::input(FRAGMENT), &problems, &options, &silent());
        let solved = Solved::of(&report)?;
        Ok(Repaired {
            edits: report.repairs.clone().unwrap_or_default(),
            solved,
        })
    }
}
