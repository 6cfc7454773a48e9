//! The formula request: the DIMACS text `solve` hands its solver for a
//! record, and a solver's model of it read back (`cnf`, `decode`).

use crate::analysis::{Analysis, Decoded};
use crate::sat::parse_model;
use crate::solve::SolveError;

use super::{Fragment, InputError, Problem, RequestError, Solved};

/// The formula `solve` hands its solver for a fragment, in DIMACS with
/// named variables and clause groups.
#[derive(Clone, Debug)]
pub struct CnfRequest {
    fragment: Fragment,
}

impl CnfRequest {
    /// The formula of `fragment`.
    pub fn new(fragment: Fragment) -> CnfRequest {
        CnfRequest { fragment }
    }

    /// The DIMACS text: under the first rule set the fragment solves
    /// under when several may be its own; for a damaged fragment with the
    /// clauses `solve` learns (see `encodings/damaged.md`).
    ///
    /// # Errors
    /// Bad input, or the formula cannot be built.
    pub fn run(&self) -> Result<String, RequestError> {
        let (problem, analysis) = self.chosen()?;
        let cnf = analysis
            .dimacs(&problem.record)
            .map_err(RequestError::from_solve)?;
        let mut text = Vec::new();
        cnf.write_dimacs(&mut text)
            .map_err(|e| SolveError::Dimacs(e.to_string()))?;
        Ok(String::from_utf8_lossy(&text).into_owned())
    }

    /// A solver's model of the formula [`CnfRequest::run`] gives (its `s`
    /// and `v` lines, or the literals alone) read back into the answer it
    /// stands for, replayed.
    ///
    /// # Errors
    /// [`InputError::Model`] for a model that is no answer (unreadable,
    /// not a model of the formula, rejected by the replayer, or none).
    pub fn decode(&self, model: &str) -> Result<Solved, RequestError> {
        let bad = |reason: String| RequestError::BadInput(InputError::Model { reason });
        let literals = parse_model(model)
            .map_err(|e| bad(e.to_string()))?
            .ok_or_else(|| bad("the solver found none (s UNSATISFIABLE or UNKNOWN)".into()))?;
        let (problem, analysis) = self.chosen()?;
        let decoded = analysis
            .decode(&problem.record, &literals)
            .map_err(|e| match e {
                SolveError::Unsupported(m) => bad(m),
                other => RequestError::from_solve(other),
            })?;
        match decoded {
            Decoded::Answer(solution) => Ok(Solved::checked(&problem, solution)?),
            Decoded::Unsatisfied { clause, group } => Err(bad(format!(
                "not a model of the formula: clause {clause} is false ({group})"
            ))),
            Decoded::Rejected { ply, why } => Err(bad(format!(
                "a model of the formula, but the replayer rejects ply {ply}: {why}"
            ))),
        }
    }

    /// The fragment's problem under the first rule set it solves under
    /// (the one its formula is written for), with its analysis.
    fn chosen(&self) -> Result<(Problem, Analysis), RequestError> {
        let problems = self.fragment.problems()?;
        let (analysis, problem) =
            super::record::problem_formula(problems).map_err(RequestError::from_solve)?;
        Ok((problem, analysis))
    }
}
