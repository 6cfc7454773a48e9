//! Why a record got no verdict, one variant per thing that can fail, so a
//! caller can tell a bug (exit 4) from a limit (exit 3) and a request that
//! cannot be served (2) without reading messages.

use crate::board::{Board, Piece, Square};
use crate::notation::{MoveText, WrittenMove};
use crate::reach::ReachError;
use crate::replay::ReplayError;
use crate::rules::{StartProblem, Violation};
use crate::sat::SatError;

/// Why a record got no verdict. Every variant but [`SolveError::Sat`] and
/// [`SolveError::Unsupported`] is a bug in postfacto: an answer that fails
/// its check, or machinery that contradicted itself.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// A start board an engine found breaks a start-board rule.
    #[error("internal error: {who}'s start board breaks a start rule: {problem}")]
    StartRuleBroken {
        /// The engine or analysis, e.g. "the dfs engine".
        who: String,
        /// The rule broken.
        problem: StartProblem,
    },
    /// A start board an engine found does not replay its record.
    #[error("internal error: {who}'s start board does not replay: {reason}\n{start}")]
    StartDoesNotReplay {
        /// The engine or analysis.
        who: String,
        /// The replayer's objection.
        reason: Box<ReplayError>,
        /// The board.
        start: Board,
    },
    /// An answer does not replay its (filled or repaired) record.
    #[error("internal error: the answer does not replay: {0}")]
    AnswerDoesNotReplay(Box<ReplayError>),
    /// An answer's end board is not the one the replayer reaches.
    #[error("internal error: the answer's end board is not the replayer's")]
    EndBoardDiffers,
    /// A repair's end board is not the one its moves reach.
    #[error("internal error: the repair's end board is not the one its moves reach")]
    RepairEndBoardDiffers,
    /// An answer breaks a fact given about one of its boards.
    #[error(
        "internal error: the answer's {board} board breaks the fact on square {square} ({fact:?})"
    )]
    FactBroken {
        /// "start" or "end".
        board: &'static str,
        /// The square.
        square: Square,
        /// What the fact says stands there.
        fact: Option<Piece>,
    },
    /// A filled-in record has another first side or another length.
    #[error("internal error: {who} filled in {filled} moves for a record of {written}")]
    FilledLengthDiffers {
        /// The engine or analysis.
        who: String,
        /// Moves it filled in.
        filled: usize,
        /// Moves written.
        written: usize,
    },
    /// A filled-in move does not fit the move written at its ply.
    #[error(
        "internal error: {who} filled ply {ply} ({written}) with {played}, which does not fit"
    )]
    FillingDoesNotFit {
        /// The engine or analysis.
        who: String,
        /// The ply, from 1.
        ply: usize,
        /// What is written there.
        written: Box<WrittenMove>,
        /// What was filled in.
        played: Box<MoveText>,
    },
    /// A model's start board breaks a rule the formula states in full.
    #[error("internal error: the model's start board breaks a start rule: {0}")]
    ModelStartRuleBroken(StartProblem),
    /// A model plays no move at a damaged ply.
    #[error("internal error: the model plays no move at ply {0}")]
    ModelPlaysNoMove(usize),
    /// A model breaks a rule the formula states in full (no clause can be learned).
    #[error("internal error: the model breaks a rule the formula states in full, at ply {ply} ({played}): {violation}")]
    RuleStatedInFullBroken {
        /// The ply, from 1.
        ply: usize,
        /// The move played there.
        played: Box<MoveText>,
        /// The rule it broke.
        violation: Box<Violation>,
    },
    /// No dependencies explain a break the replayer found.
    #[error("internal error: cannot explain the break at ply {ply}: {violation}")]
    BreakUnexplained {
        /// The ply, from 1.
        ply: usize,
        /// The rule broken.
        violation: Violation,
    },
    /// A learned clause is true under the model it was learned from.
    #[error(
        "internal error: the clause learned at ply {0} does not rule out the model that broke it"
    )]
    ClauseKeepsModel(usize),
    /// An outside solver's formula asked to be deepened, though it is written in full.
    #[error("internal error: ply {0}: every capture step is written for an outside solver")]
    OutsideFormulaDeepened(usize),
    /// A capture needs more steps than the formula can write.
    #[error("internal error: ply {ply} needs {depth} capture steps, but none are left to write")]
    NoCaptureStepsLeft {
        /// The ply, from 1.
        ply: usize,
        /// Steps needed.
        depth: usize,
    },
    /// An answer's move has no place in the formula.
    #[error("internal error: ply {0}: the answer's move does not fit the formula")]
    MoveOutsideFormula(usize),
    /// An engine called a record impossible, but the SAT formula has a model.
    #[error("internal error: the {0} engine found no start board, but the SAT formula has one")]
    ImpossibleHasModel(String),
    /// A tighter cardinality bound gave no lower count.
    #[error("internal error: a lower bound gave no lower count: the count does not read the totalizer's inputs")]
    BoundGaveNoLowerCount,
    /// The proof-game search behind an analysis failed.
    #[error("internal error: {0}")]
    ProofGame(Box<ReachError>),
    /// A game the proof-game search found does not replay.
    #[error("internal error: {0}")]
    ProofGameDoesNotReplay(Box<ReplayError>),
    /// A game the proof-game search found ends elsewhere than its goal.
    #[error("internal error: the game found does not end on the position asked for")]
    ProofGameMissesGoal,
    /// A formula could not be written as DIMACS text.
    #[error("internal error: writing DIMACS: {0}")]
    Dimacs(String),
    /// A report's answer failed its check where the report was made.
    #[error("internal error: {0}")]
    Reported(String),
    /// The SAT machinery failed, or gave no verdict (see [`SatError::is_undecided`]).
    #[error("{prefix}{0}", prefix = if .0.is_undecided() { "" } else { "internal error: " })]
    Sat(#[source] SatError),
    /// The request cannot be served, e.g. the DFS engine under Russian rules.
    #[error("{0}")]
    Unsupported(String),
}

impl SolveError {
    /// A limit or an outside solver's "unknown", not a failure.
    pub fn is_undecided(&self) -> bool {
        matches!(self, SolveError::Sat(e) if e.is_undecided())
    }

    /// A bug in postfacto (exit 4): neither a limit nor a refusal.
    pub fn is_internal(&self) -> bool {
        !self.is_undecided() && !matches!(self, SolveError::Unsupported(_))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bug_says_internal_error_and_a_limit_does_not() {
        let limit = SolveError::Sat(SatError::Undecided("the time limit passed".into()));
        assert_eq!(limit.to_string(), "the time limit passed");
        assert!(limit.is_undecided() && !limit.is_internal());
        let refused = SolveError::Unsupported("no dfs for russian".into());
        assert_eq!(refused.to_string(), "no dfs for russian");
        assert!(!refused.is_undecided() && !refused.is_internal());
        let broken = SolveError::Sat(SatError::Inconsistent("a model and a core".into()));
        assert!(broken.to_string().starts_with("internal error: "));
        assert!(broken.is_internal());
        for bug in [
            SolveError::EndBoardDiffers,
            SolveError::ClauseKeepsModel(3),
            SolveError::BoundGaveNoLowerCount,
            SolveError::Dimacs("disk full".into()),
        ] {
            assert!(bug.is_internal() && !bug.is_undecided(), "{bug:?}");
            assert!(bug.to_string().starts_with("internal error: "), "{bug}");
        }
    }

    #[test]
    fn an_error_is_no_bigger_than_before_the_split() {
        // Results carry it on every path; SatError set the size before.
        assert!(std::mem::size_of::<SolveError>() <= 64);
    }

    #[test]
    fn messages_are_the_ones_the_binary_printed_before_the_split() {
        let cases = [
            (
                SolveError::NoCaptureStepsLeft { ply: 7, depth: 3 },
                "internal error: ply 7 needs 3 capture steps, but none are left to write",
            ),
            (
                SolveError::FilledLengthDiffers {
                    who: "the repair".into(),
                    filled: 4,
                    written: 5,
                },
                "internal error: the repair filled in 4 moves for a record of 5",
            ),
            (
                SolveError::ImpossibleHasModel("dfs".into()),
                "internal error: the dfs engine found no start board, but the SAT formula has one",
            ),
            (
                SolveError::Dimacs("disk full".into()),
                "internal error: writing DIMACS: disk full",
            ),
        ];
        for (error, text) in cases {
            assert_eq!(error.to_string(), text);
        }
    }
}
