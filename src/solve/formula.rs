//! One formula per record, and one way to solve it.
//!
//! [`Formula::encode`] is the only builder of a record's clauses: `solve`,
//! `cnf`, proofs, explanations (with selectors), the minimum (with a
//! totalizer) and counts (with blocking clauses) all start from it and
//! extend it. [`solve_refining`] is the only way any of them gets a model:
//! every model is replayed, and one the replayer rejects adds the clause
//! that rules it out ([`super::refine`]) before the solver goes on. So the
//! formulas of one record say the same thing by construction: the same
//! clauses, and clauses the rules imply.

use varisat::{CnfFormula, ExtendFormula, Lit, Solver};

use crate::board::Board;
use crate::encode::{encode_with, BoardFacts, ClauseSink, Contradiction, EncodeOptions, Encoded};
use crate::notation::Record;
use crate::rules::Variant;
use crate::sat::lucky_model;

use super::refine::{Check, Refiner};
use super::SolveError;

/// A record's formula: where its clauses went, and what it takes to read
/// its models back and learn from them.
#[derive(Clone, Debug)]
pub struct Formula {
    /// The rule set.
    pub variant: Variant,
    /// The record as written.
    pub record: Record,
    /// What is known of its boards besides the moves.
    pub known: BoardFacts,
    /// What the encoder says of it.
    pub encoded: Encoded,
}

impl Formula {
    /// Encodes `record` under `variant`, with what is `known`, into `sink`
    /// as `options` say (their own facts are replaced by `known`).
    ///
    /// # Errors
    /// [`SolveError::Unsupported`] when the rule set has no encoding.
    pub fn encode(
        variant: Variant,
        record: &Record,
        known: BoardFacts,
        sink: &mut impl ClauseSink,
        options: EncodeOptions,
    ) -> Result<Formula, SolveError> {
        let options = EncodeOptions { known, ..options };
        let encoded = encode_with(variant, record, sink, options)?;
        Ok(Formula {
            variant,
            record: record.clone(),
            known,
            encoded,
        })
    }

    /// The replayer of this formula's models.
    pub fn refiner(&self) -> Refiner<'_> {
        Refiner::new(
            self.variant.rules(),
            &self.record,
            self.encoded.layout.as_ref(),
            self.known,
        )
    }

    /// Variables of the formula (before any solver adds its own).
    pub fn vars(&self) -> usize {
        self.encoded.stats.vars
    }

    /// A ply that cannot be played whatever the start board, if one was found.
    pub fn contradiction(&self) -> Option<&Contradiction> {
        self.encoded.contradiction.as_ref()
    }
}

/// A clause learned from a model the replayer rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Learned {
    /// 1-based ply whose rule the model broke.
    pub ply: usize,
    /// The clause.
    pub clause: Vec<Lit>,
}

/// A model that replays, and what it plays.
#[derive(Clone, Debug)]
pub struct Refined {
    /// The model.
    pub model: Vec<Lit>,
    /// Its start board.
    pub start: Board,
    /// The record with every move filled in.
    pub filled: Record,
    /// The replayer's end board.
    pub end: Board,
}

/// A SAT solver [`solve_refining`] can drive: it solves under assumptions
/// and takes the clauses learned (a solver with selectors guards them by
/// the ply's).
pub trait Backend {
    /// Adds a clause learned at `ply`.
    fn learn(&mut self, ply: usize, clause: &[Lit]);

    /// Solves under `assumptions`; the model when satisfiable.
    ///
    /// # Errors
    /// [`SolveError`] when the solver fails.
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Option<Vec<Lit>>, SolveError>;
}

impl Backend for Solver<'_> {
    fn learn(&mut self, _ply: usize, clause: &[Lit]) {
        ExtendFormula::add_clause(self, clause);
    }

    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Option<Vec<Lit>>, SolveError> {
        self.assume(assumptions);
        let sat = self.solve()?;
        let model = sat.then(|| self.model().unwrap_or_default());
        self.assume(&[]);
        Ok(model)
    }
}

impl Backend for crate::sat::Optimizer {
    fn learn(&mut self, _ply: usize, clause: &[Lit]) {
        self.add_clause(clause);
    }

    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Option<Vec<Lit>>, SolveError> {
        Ok(self.solve(assumptions)?)
    }
}

/// Solves under `assumptions` until a model replays (it is returned) or
/// none is left; each model the replayer rejects adds its clause to
/// `backend` and to `learned`.
///
/// # Errors
/// [`SolveError`] when the solver fails or a model breaks a rule the
/// formula states in full (a bug).
pub fn solve_refining<B: Backend>(
    backend: &mut B,
    refiner: &Refiner<'_>,
    assumptions: &[Lit],
    learned: &mut Vec<Learned>,
) -> Result<Option<Refined>, SolveError> {
    loop {
        let Some(model) = backend.solve_under(assumptions)? else {
            return Ok(None);
        };
        match refiner.check(&model)? {
            Check::Answer { start, filled, end } => {
                return Ok(Some(Refined {
                    model,
                    start,
                    filled,
                    end,
                }))
            }
            Check::Learn { ply, clause } => {
                backend.learn(ply, &clause);
                learned.push(Learned { ply, clause });
            }
        }
    }
}

/// How the canonical solve of a formula ended.
#[derive(Clone, Debug)]
pub struct Canonical {
    /// The answer, if the formula (with what was learned) is satisfiable.
    pub answer: Option<Refined>,
    /// The clauses learned on the way, in order.
    pub learned: Vec<Learned>,
    /// The answer is the lucky assignment (no solver call).
    pub lucky: bool,
}

/// Solves `cnf` (the clauses `formula` wrote) the one canonical way: the
/// lucky assignment first, then varisat, refining until a model replays
/// or the formula with what was learned is unsatisfiable. `solve`, `cnf`
/// and proofs all take this path, so `cnf` prints (with the clauses
/// learned) exactly the formula `solve` ended with.
///
/// # Errors
/// As [`solve_refining`].
pub fn solve_canonically(formula: &Formula, cnf: &CnfFormula) -> Result<Canonical, SolveError> {
    let refiner = formula.refiner();
    let mut learned = Vec::new();
    if let Some(model) = lucky_model(cnf) {
        match refiner.check(&model)? {
            Check::Answer { start, filled, end } => {
                let answer = Refined {
                    model,
                    start,
                    filled,
                    end,
                };
                return Ok(Canonical {
                    answer: Some(answer),
                    learned,
                    lucky: true,
                });
            }
            Check::Learn { ply, clause } => learned.push(Learned { ply, clause }),
        }
    }
    let mut solver = Solver::new();
    solver.add_formula(cnf);
    for l in &learned {
        ExtendFormula::add_clause(&mut solver, &l.clause);
    }
    let answer = solve_refining(&mut solver, &refiner, &[], &mut learned)?;
    Ok(Canonical {
        answer,
        learned,
        lucky: false,
    })
}

/// `cnf` with the clauses `learned` added: the formula a canonical solve
/// ended with.
pub fn with_learned(cnf: &CnfFormula, learned: &[Learned]) -> CnfFormula {
    let mut all = CnfFormula::new();
    all.set_var_count(cnf.var_count());
    for clause in cnf.iter() {
        ExtendFormula::add_clause(&mut all, clause);
    }
    for l in learned {
        ExtendFormula::add_clause(&mut all, &l.clause);
    }
    all
}
