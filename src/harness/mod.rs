//! The harnesses behind `bench`, `compare` and `generate`: they make the
//! records, run the jobs and time them, and give each table as typed rows
//! (times summarised in [`Summary`]); the binary only prints them.
//!
//! A table that runs a job runs it as the binary's `solve`, `solve
//! --repair` and `reach` do: through the request layer
//! ([`crate::request`]), whose answers are replayed and fact-checked, so
//! the times are those of the front door, not of a copy of its stages.
//! Two tables time below it on purpose: the SAT engine's stages
//! ([`engines::stages`]) and `compare`, which pits the engines themselves.

pub mod against;
pub mod bench;
pub mod compare;
pub mod damaged;
pub mod engines;
pub mod generate;
pub mod hard;
pub mod pawns;
pub mod reach;
pub mod repair;
mod stats;
pub mod table;

use std::sync::Arc;

use crate::encode::BoardFacts;
use crate::notation::Record;
use crate::request::{
    silent, solve_problems, Name, Problem, RequestError, SolveOptions, Solved, Verdict,
};
use crate::rules::Variant;
use crate::solve::SolveStats;

pub use generate::GenerateError;
pub use stats::{median_count, Summary};

/// Microseconds with one decimal, as the tables and the notes write them
/// (a [`table::Cell::micros`] rounds the same way).
pub(crate) fn micros(d: std::time::Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e6)
}

/// Why a harness stopped: a record a job should have answered and did
/// not, engines that disagree, or records that could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HarnessError {
    /// A job failed (a bug).
    #[error(transparent)]
    Request(#[from] RequestError),
    /// An engine failed (a bug, or a limit).
    #[error(transparent)]
    Solve(#[from] crate::solve::SolveError),
    /// A generated record does not read back.
    #[error(transparent)]
    Parse(#[from] crate::notation::ParseRecordError),
    /// An answer, or a game, does not replay.
    #[error(transparent)]
    Replay(#[from] crate::replay::ReplayError),
    /// A generated pawn board does not read back.
    #[error(transparent)]
    ParsePawns(#[from] crate::pawns::ParsePawnsError),
    /// A pawn engine failed.
    #[error(transparent)]
    Pawns(#[from] crate::pawns::PawnsError),
    /// The records could not be generated.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// A generated fragment (of a legal game) came out impossible.
    #[error("a generated fragment has no start board")]
    NoStartBoard,
    /// An answer printed as nothing.
    #[error("an empty answer")]
    EmptyAnswer,
    /// An engine left some fragments of legal games unsolved.
    #[error("{engine} engine solved only {solved} of {total} fragments")]
    EngineMissed {
        /// The engine's name.
        engine: &'static str,
        /// Fragments solved.
        solved: usize,
        /// Fragments in all.
        total: usize,
    },
    /// The hard family is empty.
    #[error("no hard member")]
    NoHardMember,
    /// The DFS did not solve a member of the hard family.
    #[error("the DFS did not solve hard member {0}")]
    DfsMissedHard(usize),
    /// A damaged fragment of a legal game got no answer.
    #[error("a damaged fragment of a legal game gave {outcome}:\n{record}")]
    DamagedUnsolved {
        /// What the job gave instead.
        outcome: Box<RequestError>,
        /// The damaged record.
        record: Box<Record>,
    },
    /// A pawn board does not read back as written.
    #[error("a {0} x {0} board does not read back")]
    PawnBoardDoesNotReadBack(usize),
    /// The pawn engines found different optima.
    #[error("the engines disagree on a {0} x {0} board")]
    PawnEnginesDisagree(usize),
    /// A misread record has no repair within the edits made to it.
    #[error("no repair within {edits} edits of\n{wrong}")]
    NoRepair {
        /// Edits allowed.
        edits: usize,
        /// The misread record.
        wrong: Box<Record>,
    },
    /// A proof-game search's shortest game is longer than the game played.
    #[error("a game of {played} plies reaches the position, but the shortest found has {found}")]
    LongerThanPlayed {
        /// Plies of the game played.
        played: usize,
        /// Plies of the game found.
        found: usize,
    },
    /// A proof-game search calls a position a game reached unreachable.
    #[error("a position a game reached is called unreachable: {0}")]
    CalledUnreachable(String),
}

/// What a job found for one record (its answer replayed where the job
/// ran): what the solver did, and with a repair how many edits it made
/// (0: possible as written).
#[derive(Clone, Copy, Debug)]
pub struct JobFigures {
    /// What the solver did.
    pub stats: SolveStats,
    /// The edits of the repair, with a repair.
    pub edits: Option<usize>,
}

/// What a job gave for one record: its figures, or why it has no answer.
pub type JobAnswer = Result<JobFigures, RequestError>;

/// `record` under `variant`, with `known`, as the request layer's runner
/// takes it: made before a clock starts, as a record read from a file is.
pub fn problem(record: &Record, variant: Variant, known: BoardFacts) -> [Problem; 1] {
    [Problem {
        variant,
        record: record.clone(),
        known,
        inferred: false,
    }]
}

/// Runs `problems` through the request layer's runner, as
/// [`crate::request::SolveRequest`] and [`crate::request::RepairRequest`]
/// run a fragment once read (a generated record has no text to read).
pub fn run_job(problems: &[Problem], options: &Arc<SolveOptions>) -> JobAnswer {
    let report = solve_problems(Name::input("the fragment"), problems, options, &silent());
    if report.status != Verdict::Solved || report.answers.is_empty() {
        // The request's own reading of a report with no answer.
        Solved::of(&report)?;
    }
    Ok(JobFigures {
        stats: report.stats.unwrap_or_default(),
        edits: report.repairs.as_ref().map(Vec::len),
    })
}

/// Whether a job's failure is a verdict (impossible, undecided) rather
/// than a bug or bad input.
pub fn is_verdict(error: &RequestError) -> bool {
    matches!(
        error,
        RequestError::Impossible { .. } | RequestError::Undecided { .. }
    )
}
