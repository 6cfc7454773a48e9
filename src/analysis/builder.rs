//! Every analysis of a record behind one builder, the shape of
//! [`crate::solve::Reconstructor`]: the rule set and what is known of the
//! boards are given once, each analysis then takes just the record.

use std::borrow::Cow;
use std::io::Write;

use varisat::ProofFormat;

use crate::board::Board;
use crate::encode::BoardFacts;
use crate::notation::{MoveNumbers, Record};
use crate::rules::Variant;
use crate::sat::AnnotatedCnf;
use crate::solve::{Outcome, Reconstructor, SolveError};

use super::{
    count_start_boards, decode_learning, decode_model, explain_impossible_knowing,
    forced_facts_knowing, forced_unknowns, minimize_pieces, prove_with_solver, refined_dimacs,
    repair_observed, write_proof_knowing, Count, CountOptions, Decoded, Explanation, Limits,
    Minimum, RepairOptions, RepairOutcome, SolverProof, SquareReport, UnknownVerdict,
};

/// The analyses of records under one rule set, knowing what is known of
/// their boards besides the moves.
///
/// ```
/// use postfacto::analysis::Analysis;
/// use postfacto::notation::parse_records;
/// use postfacto::rules::Variant;
/// let record = &parse_records("B 2\n11-15\n11-15\n")?[0];
/// let why = Analysis::new(Variant::English).explain_impossible(record)?;
/// assert!(why.is_some());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Analysis {
    variant: Variant,
    known: BoardFacts,
    /// How the game numbers its moves (a PDN game): explanations name
    /// plies so.
    numbers: Option<MoveNumbers>,
}

impl Analysis {
    /// Analyses under `variant`, nothing known besides the moves.
    pub fn new(variant: Variant) -> Analysis {
        Analysis {
            variant,
            known: BoardFacts::none(),
            numbers: None,
        }
    }

    /// Plies named as a PDN game numbers them (`4... 18-15`), not by ply
    /// number alone.
    #[must_use]
    pub fn numbered(mut self, numbers: Option<MoveNumbers>) -> Analysis {
        self.numbers = numbers;
        self
    }

    /// What is known of the start and end boards.
    #[must_use]
    pub fn facts(mut self, known: BoardFacts) -> Analysis {
        self.known = known;
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

    /// Why no start board makes `record` legal: the smallest set of rules
    /// in conflict; `None` when one does.
    ///
    /// # Errors
    /// [`SolveError`] if varisat fails.
    pub fn explain_impossible(&self, record: &Record) -> Result<Option<Explanation>, SolveError> {
        let explanation = explain_impossible_knowing(record, self.variant, self.known)?;
        Ok(match self.numbers {
            Some(numbers) => explanation.map(|e| e.numbered(numbers, record.first)),
            None => explanation,
        })
    }

    /// An engine's "no start board" for `record`, confirmed by the SAT
    /// formula and explained: the reason in one line (the smallest set of
    /// rules in conflict, else `engine_reason`) and the whole explanation.
    ///
    /// # Errors
    /// [`SolveError::ImpossibleHasModel`] when the formula has a model after all
    /// (the engine named `engine` was wrong: a bug), or varisat fails.
    pub fn confirm_impossible(
        &self,
        record: &Record,
        engine_reason: Option<String>,
        engine: &str,
    ) -> Result<(String, Explanation), SolveError> {
        let explanation = self
            .explain_impossible(record)?
            .ok_or_else(|| SolveError::ImpossibleHasModel(engine.to_string()))?;
        let why = if explanation.groups.is_empty() && explanation.replayed.is_none() {
            engine_reason.unwrap_or_default()
        } else {
            explanation.one_line()
        };
        Ok((why, explanation))
    }

    /// Which squares of `start` (an answer) every answer shares, and why.
    ///
    /// # Errors
    /// [`SolveError`] if varisat fails, or `start` is not an answer.
    pub fn forced_facts(
        &self,
        record: &Record,
        start: &Board,
    ) -> Result<Vec<SquareReport>, SolveError> {
        forced_facts_knowing(record, self.variant, self.known, start, self.numbers)
    }

    /// For a damaged record, which moves of `filled` every answer plays.
    ///
    /// # Errors
    /// [`SolveError`] if the record cannot be encoded or varisat fails.
    pub fn forced_unknowns(
        &self,
        record: &Record,
        filled: &Record,
    ) -> Result<Vec<UnknownVerdict>, SolveError> {
        let verdicts = forced_unknowns(record, self.variant, self.known, filled)?;
        Ok(match self.numbers {
            Some(numbers) => verdicts
                .into_iter()
                .map(|v| v.numbered(numbers, record.first))
                .collect(),
            None => verdicts,
        })
    }

    /// The start board with the fewest pieces (then kings), at most
    /// `max_per_side` of each colour; `None` when none within that works.
    ///
    /// # Errors
    /// [`SolveError`] if varisat or the totalizer fails.
    pub fn minimum(
        &self,
        record: &Record,
        max_per_side: Option<usize>,
    ) -> Result<Option<Minimum>, SolveError> {
        let limits = Limits {
            max_per_side,
            known: self.known,
        };
        minimize_pieces(record, self.variant, limits)
    }

    /// The start boards, told apart on the squares the moves use, up to
    /// one more than `limit`.
    ///
    /// # Errors
    /// [`SolveError`] if varisat fails.
    pub fn count(&self, record: &Record, limit: usize) -> Result<Count, SolveError> {
        let options = CountOptions {
            limit,
            others_empty: false,
            known: self.known,
        };
        let read = self.as_solved(record)?;
        let mut count = count_start_boards(&read, self.variant, options)?;
        if let (Cow::Owned(whole), true) = (&read, count.fillings.is_empty()) {
            // Read whole: every answer plays the moves as written.
            count.fillings = vec![whole.clone(); count.boards.len()];
        }
        Ok(count)
    }

    /// The reading of `record` that `solve` takes: captures read short but
    /// written whole (PDN) as written when that solves, so they are not
    /// damaged moves (its count is of start boards, its formula has no
    /// damaged plies); else `record` itself.
    ///
    /// # Errors
    /// [`SolveError`] if the whole reading cannot be solved.
    pub fn as_solved<'r>(&self, record: &'r Record) -> Result<Cow<'r, Record>, SolveError> {
        if let Some(whole) = record.as_written(self.variant.geometry()) {
            let reconstructor = Reconstructor::new(self.variant).facts(self.known);
            if let Outcome::Solved(_) = reconstructor.solve(&whole)? {
                return Ok(Cow::Owned(whole));
            }
        }
        Ok(Cow::Borrowed(record))
    }

    /// The formula `solve` ends with, in DIMACS with names (`cnf`).
    ///
    /// # Errors
    /// [`SolveError`] if the record cannot be encoded or varisat fails.
    pub fn dimacs(&self, record: &Record) -> Result<AnnotatedCnf, SolveError> {
        refined_dimacs(&*self.as_solved(record)?, self.variant, self.known)
    }

    /// What `model` (a solver's true literals) of the formula [`Analysis::dimacs`]
    /// gives for `record` stands for: an answer, replayed, or why not.
    ///
    /// # Errors
    /// [`SolveError::Unsupported`] for a model with variables the formula
    /// does not have; other [`SolveError`]s if the record cannot be encoded.
    pub fn decode(&self, record: &Record, model: &[varisat::Lit]) -> Result<Decoded, SolveError> {
        decode_model(&*self.as_solved(record)?, self.variant, self.known, model)
    }

    /// [`Analysis::decode`], with the clauses that rule `model` out when
    /// the replayer rejects it (to add to the formula and solve again).
    ///
    /// # Errors
    /// As [`Analysis::decode`].
    pub fn decode_learning(
        &self,
        record: &Record,
        model: &[varisat::Lit],
    ) -> Result<(Decoded, Vec<crate::solve::Learned>), SolveError> {
        decode_learning(&*self.as_solved(record)?, self.variant, self.known, model)
    }

    /// Writes a proof that no start board exists to `out`: `Ok(true)`
    /// when the record is impossible, `Ok(false)` (no proof) otherwise.
    ///
    /// # Errors
    /// [`SolveError`] if varisat fails or cannot write the proof.
    pub fn proof(
        &self,
        record: &Record,
        format: ProofFormat,
        out: &mut impl Write,
    ) -> Result<bool, SolveError> {
        write_proof_knowing(record, self.variant, self.known, format, out)
    }

    /// [`Analysis::proof`] by the outside solver `command`, which writes
    /// its DRAT proof to `path`; checked when it says UNSATISFIABLE.
    ///
    /// # Errors
    /// [`SolveError`] if the solver cannot be run or gives no verdict
    /// within `limit`.
    pub fn proof_by_solver(
        &self,
        record: &Record,
        command: &[String],
        limit: Option<std::time::Duration>,
        path: &std::path::Path,
    ) -> Result<SolverProof, SolveError> {
        prove_with_solver(record, self.variant, self.known, command, limit, path)
    }

    /// The fewest edits that make `record` possible, telling `progress`
    /// each number of edits as the search starts on it.
    ///
    /// # Errors
    /// [`SolveError`] from the solver, or a repair that does not replay.
    pub fn repair(
        &self,
        record: &Record,
        options: RepairOptions,
        progress: &mut dyn FnMut(usize),
    ) -> Result<RepairOutcome, SolveError> {
        repair_observed(record, self.variant, self.known, options, progress)
    }
}
