//! The formula request: the DIMACS text `solve` hands its solver for a
//! record, and a solver's model of it read back (`cnf`, `decode`). Which
//! record and which rule set the formula is written for is chosen here,
//! once, so a model of the one is read by the other.

use crate::analysis::{Analysis, Decoded};
use crate::encode::BoardFacts;
use std::sync::Arc;
use std::time::Duration;

use crate::sat::{
    new_solver, parse_model, prove_unsat, stopped_by_deadline, within, AnnotatedCnf, SatError,
};
use crate::solve::{Learned, SolveError};

use super::input::{read_items, Item, ReadAs};
use super::{Fragment, InputError, Problem, RequestError, Solved};

/// The formula `solve` hands its solver for a fragment or a record of an
/// input, in DIMACS with named variables and clause groups.
#[derive(Clone, Debug)]
pub struct CnfRequest {
    source: Source,
}

/// Where the record comes from.
#[derive(Clone, Debug)]
enum Source {
    /// Moves in hand (Python).
    Fragment(Fragment),
    /// One record of an input (the binary), with what is known of its
    /// boards and whether a PDN game without `[FEN]` is a fragment.
    Item {
        item: Box<Item>,
        known: BoardFacts,
        fragment: bool,
    },
}

/// A solver's model read back: the answer it stands for, or why it is none.
#[derive(Clone, Debug)]
pub struct ModelRead {
    /// The answer, the clause it leaves false or the ply the replayer
    /// rejects; `None` when the solver found no model.
    pub decoded: Option<Decoded>,
    /// For a model the replayer rejects: the clauses that rule it out
    /// (to add to the formula and solve again).
    pub learned: Vec<Learned>,
    /// The rule set the formula is written for.
    pub variant: crate::rules::Variant,
}

impl CnfRequest {
    /// The formula of `fragment`.
    pub fn new(fragment: Fragment) -> CnfRequest {
        CnfRequest {
            source: Source::Fragment(fragment),
        }
    }

    /// The formula of record `instance` (1-based; needed when there are
    /// several) of the input `name` holding `bytes`, read as `read_as`,
    /// with `known` of its boards; a PDN game without `[FEN]` starts at
    /// the opening unless `fragment`.
    ///
    /// # Errors
    /// The input cannot be read, has several records and none is chosen,
    /// has no record `instance`, or that record cannot be read.
    pub fn of_input(
        name: &str,
        bytes: &[u8],
        read_as: ReadAs,
        instance: Option<usize>,
        known: BoardFacts,
        fragment: bool,
    ) -> Result<CnfRequest, RequestError> {
        let mut items = read_items(name, bytes, read_as)?;
        let index = match instance {
            None if items.len() == 1 => 0,
            Some(n) if (1..=items.len()).contains(&n) => n - 1,
            asked => {
                return Err(InputError::Instance {
                    records: items.len(),
                    asked,
                }
                .into())
            }
        };
        let item = items.swap_remove(index);
        if let Some(error) = item.error {
            return Err(InputError::Game(error).into());
        }
        Ok(CnfRequest {
            source: Source::Item {
                item: Box::new(item),
                known,
                fragment,
            },
        })
    }

    /// The formula: under the first rule set the record solves under when
    /// several may be its own; for a damaged record with the clauses
    /// `solve` learns (see `encodings/damaged.md`).
    ///
    /// # Errors
    /// Bad input, or the formula cannot be built.
    pub fn formula(&self) -> Result<AnnotatedCnf, RequestError> {
        let (problem, analysis) = self.chosen()?;
        analysis
            .dimacs(&problem.record)
            .map_err(RequestError::from_solve)
    }

    /// [`CnfRequest::formula`] as DIMACS text.
    ///
    /// # Errors
    /// As [`CnfRequest::formula`].
    pub fn run(&self) -> Result<String, RequestError> {
        let mut text = Vec::new();
        self.formula()?
            .write_dimacs(&mut text)
            .map_err(|e| SolveError::Dimacs(e.to_string()))?;
        Ok(String::from_utf8_lossy(&text).into_owned())
    }

    /// A solver's model of the formula (its `s` and `v` lines, or the
    /// literals alone) read back, with the clauses that rule it out when
    /// the replayer rejects it.
    ///
    /// # Errors
    /// [`InputError::Model`] for a model that cannot be read or names a
    /// variable the formula does not have; bad input as for the formula.
    pub fn read_model(&self, model: &str) -> Result<ModelRead, RequestError> {
        Ok(self.read_chosen(model)?.0)
    }

    /// [`CnfRequest::read_model`] with the record it read the model of
    /// (choosing it may solve: done once).
    fn read_chosen(&self, model: &str) -> Result<(ModelRead, Problem), RequestError> {
        let bad = |reason: String| RequestError::BadInput(InputError::Model { reason });
        let literals = parse_model(model).map_err(|e| bad(e.to_string()))?;
        let (problem, analysis) = self.chosen()?;
        let variant = analysis.variant();
        let Some(literals) = literals else {
            let read = ModelRead {
                decoded: None,
                learned: Vec::new(),
                variant,
            };
            return Ok((read, problem));
        };
        let (decoded, learned) = analysis
            .decode_learning(&problem.record, &literals)
            .map_err(|e| match e {
                SolveError::Unsupported(m) => bad(m),
                other => RequestError::from_solve(other),
            })?;
        let read = ModelRead {
            decoded: Some(decoded),
            learned,
            variant,
        };
        Ok((read, problem))
    }

    /// A solver's model of the formula read back into the answer it stands
    /// for, replayed.
    ///
    /// # Errors
    /// [`RequestError::Impossible`] for a model that is no answer (not a
    /// model of the formula, rejected by the replayer, or none: the
    /// binary's exit 1); [`InputError::Model`] for one that cannot be read.
    pub fn decode(&self, model: &str) -> Result<Solved, RequestError> {
        let (read, problem) = self.read_chosen(model)?;
        let reason = match read.decoded {
            Some(Decoded::Answer(solution)) => return Ok(Solved::checked(&problem, solution)?),
            None => "the solver found no model (s UNSATISFIABLE or UNKNOWN)".to_string(),
            Some(Decoded::Unsatisfied { clause, group }) => {
                format!("not a model of the formula: clause {clause} is false ({group})")
            }
            Some(Decoded::Rejected { ply, why }) => {
                format!("a model of the formula, but the replayer rejects ply {ply}: {why}")
            }
        };
        Err(RequestError::Impossible { reason })
    }

    /// The record under the first rule set it solves under (the one its
    /// formula is written for), with its analysis.
    fn chosen(&self) -> Result<(Problem, Analysis), RequestError> {
        match &self.source {
            Source::Fragment(fragment) => {
                let problems = fragment.problems()?;
                let (analysis, problem) =
                    super::record::problem_formula(problems).map_err(RequestError::from_solve)?;
                Ok((problem, analysis))
            }
            Source::Item {
                item,
                known,
                fragment,
            } => {
                // Choosing among rule sets solves: a limit is undecided,
                // any other failure a bug, as for a fragment.
                let (analysis, record) = super::record::item_formula(item, *known, *fragment)
                    .map_err(RequestError::from_solve)?;
                let problem = Problem {
                    variant: analysis.variant(),
                    record,
                    known: analysis.known(),
                    inferred: item.readings.len() > 1,
                };
                Ok((problem, analysis))
            }
        }
    }
}

/// Any DIMACS formula, solved by the embedded varisat (`postfacto sat`),
/// so the outside-solver path can be tried against postfacto itself.
#[derive(Clone, Debug)]
pub struct SatRequest {
    formula: Arc<varisat::CnfFormula>,
    limit: Option<Duration>,
    proof: bool,
}

/// What varisat says of a formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatAnswer {
    /// A model (none in a proof run: it does not keep one).
    Satisfiable(Option<Vec<varisat::Lit>>),
    /// No model; in a proof run, the DRAT proof.
    Unsatisfiable(Option<Vec<u8>>),
    /// The limit passed first.
    Unknown,
}

impl SatRequest {
    /// The formula of the DIMACS text `dimacs`.
    ///
    /// # Errors
    /// [`InputError::Dimacs`] when it is no DIMACS CNF.
    pub fn new(dimacs: &[u8]) -> Result<SatRequest, InputError> {
        let formula = varisat::dimacs::DimacsParser::parse(dimacs)
            .map_err(|e| InputError::Dimacs(e.to_string()))?;
        // An empty file is a slip (a failed download, a wrong name), not
        // the empty formula: that one is written with its header.
        let headed = dimacs
            .split(|&b| b == b'\n')
            .any(|line| line.trim_ascii_start().starts_with(b"p "));
        if formula.is_empty() && !headed {
            return Err(InputError::Dimacs(
                "no clause and no header ('p cnf VARIABLES CLAUSES')".into(),
            ));
        }
        Ok(SatRequest {
            formula: Arc::new(formula),
            limit: None,
            proof: false,
        })
    }

    /// Give up after `limit` ([`SatAnswer::Unknown`]).
    #[must_use]
    pub fn limit(mut self, limit: Option<Duration>) -> SatRequest {
        self.limit = limit;
        self
    }

    /// Write a DRAT proof of unsatisfiability.
    #[must_use]
    pub fn proof(mut self, proof: bool) -> SatRequest {
        self.proof = proof;
        self
    }

    /// The verdict.
    ///
    /// # Errors
    /// [`RequestError::Internal`] when varisat fails.
    pub fn run(&self) -> Result<SatAnswer, RequestError> {
        let formula = Arc::clone(&self.formula);
        let answer = match self.proof {
            false => self.within(move || solve(&formula)),
            true => self.within(move || prove(&formula)),
        };
        Ok(answer
            .transpose()
            .map_err(SolveError::Sat)?
            .unwrap_or(SatAnswer::Unknown))
    }

    /// `job` under the limit: `None` when it passes first (or the job
    /// stops at it).
    fn within(
        &self,
        job: impl FnOnce() -> Option<Result<SatAnswer, SatError>> + Send + 'static,
    ) -> Option<Result<SatAnswer, SatError>> {
        match self.limit {
            None => job(),
            Some(limit) => within(limit, job).flatten(),
        }
    }
}

/// `formula` solved: `None` when a deadline stopped the solver.
fn solve(formula: &varisat::CnfFormula) -> Option<Result<SatAnswer, SatError>> {
    let mut solver = new_solver();
    solver.add_formula(formula);
    match solver.solve() {
        Ok(true) => Some(Ok(SatAnswer::Satisfiable(Some(
            solver.model().unwrap_or_default(),
        )))),
        Ok(false) => Some(Ok(SatAnswer::Unsatisfiable(None))),
        Err(e) if stopped_by_deadline(&e) => None,
        Err(e) => Some(Err(e.into())),
    }
}

/// `formula` solved while writing a DRAT proof: `None` when a deadline
/// stopped the solver.
fn prove(formula: &varisat::CnfFormula) -> Option<Result<SatAnswer, SatError>> {
    let mut drat = Vec::new();
    match prove_unsat(formula, varisat::ProofFormat::Drat, &mut drat) {
        Ok(true) => Some(Ok(SatAnswer::Unsatisfiable(Some(drat)))),
        Ok(false) => Some(Ok(SatAnswer::Satisfiable(None))),
        Err(e) if e.is_undecided() => None,
        Err(e) => Some(Err(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> CnfRequest {
        let fragment = Fragment::new(["11-15"]).first_named("black").unwrap();
        CnfRequest::new(fragment)
    }

    #[test]
    fn an_empty_file_is_no_formula_but_the_empty_formula_is() {
        for text in ["", "\n", "c only a comment\n"] {
            let refused = SatRequest::new(text.as_bytes()).unwrap_err();
            assert!(
                refused.to_string().contains("no clause and no header"),
                "{text:?}"
            );
        }
        let empty = SatRequest::new(b"p cnf 0 0\n").unwrap().run().unwrap();
        assert!(matches!(empty, SatAnswer::Satisfiable(_)));
        let unheaded = SatRequest::new(b"1 -2 0\n").unwrap().run().unwrap();
        assert!(matches!(unheaded, SatAnswer::Satisfiable(_)));
    }

    #[test]
    fn a_model_that_is_no_answer_is_impossible_as_the_binary_exits() {
        let wrong = format!(
            "s SATISFIABLE\nv {} 0\n",
            (1..50)
                .map(|i| format!("-{i}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let error = request().decode(&wrong).unwrap_err();
        assert!(matches!(error, RequestError::Impossible { .. }), "{error}");
        assert_eq!(error.exit_status(), 1);
        assert!(error.to_string().contains("not a model of the formula"));
        let none = request().decode("s UNSATISFIABLE\n").unwrap_err();
        assert_eq!(none.exit_status(), 1, "{none}");
        let unreadable = request().decode("v x 0\n").unwrap_err();
        assert_eq!(unreadable.exit_status(), 2, "{unreadable}");
    }

    #[test]
    fn a_record_of_an_input_is_chosen_by_its_number() {
        let text = b"B 1\n11-15\nW 1\n22-18\n";
        let of = |instance| {
            CnfRequest::of_input(
                "two.in",
                text,
                ReadAs::default(),
                instance,
                BoardFacts::none(),
                false,
            )
        };
        let none = of(None).unwrap_err();
        assert_eq!(none.to_string(), "2 records; choose one with --instance N");
        let third = of(Some(3)).unwrap_err();
        assert_eq!(third.to_string(), "--instance 3: the input has 2 records");
        let second = of(Some(2)).unwrap().run().unwrap();
        assert_eq!(second, request_of("W 1\n22-18\n"));
    }

    /// The formula of the one record of `text`.
    fn request_of(text: &str) -> String {
        let read = ReadAs::default();
        let only = CnfRequest::of_input(
            "one.in",
            text.as_bytes(),
            read,
            None,
            BoardFacts::none(),
            false,
        );
        only.unwrap().run().unwrap()
    }
}
