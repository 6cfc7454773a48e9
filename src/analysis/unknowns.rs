//! Which unknowns of a damaged record are forced (`--explain` on a
//! solvable damaged record): for each damaged ply, is the move an answer
//! filled in the only one any answer can play there?

use std::fmt;

use varisat::{CnfFormula, ExtendFormula, Solver};

use crate::encode::{BoardFacts, EncodeOptions, Term};
use crate::notation::{MoveText, Record, WrittenMove};
use crate::rules::Variant;
use crate::solve::{solve_refining, Formula, SolveError};

/// What is known of one damaged ply's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVerdict {
    /// 1-based ply.
    pub ply: usize,
    /// The move as written.
    pub written: WrittenMove,
    /// The move the answer plays there.
    pub played: MoveText,
    /// Another move some other answer plays there, if there is one.
    pub other: Option<MoveText>,
    /// How the rule set writes moves.
    variant: Variant,
}

impl UnknownVerdict {
    /// True when every answer plays the same move at this ply.
    pub fn is_forced(&self) -> bool {
        self.other.is_none()
    }
}

impl fmt::Display for UnknownVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let played = self.variant.write_move(&self.played);
        let written = if self.variant.algebraic() {
            self.written.algebraic()
        } else {
            self.written.numbered()
        };
        match &self.other {
            None => write!(f, "ply {} ({written}): forced to {played}", self.ply),
            Some(other) => write!(
                f,
                "ply {} ({written}): not forced: {played} here, {} in another answer",
                self.ply,
                self.variant.write_move(other)
            ),
        }
    }
}

/// For each damaged ply of `record`, whether the move `filled` plays there
/// is forced: the formula (with what is `known`) is solved once more per
/// damaged ply with that move ruled out (under an assumption), every
/// model replayed as always.
///
/// # Errors
/// [`SolveError`] if the record cannot be encoded or varisat fails.
pub fn forced_unknowns(
    record: &Record,
    variant: Variant,
    known: BoardFacts,
    filled: &Record,
) -> Result<Vec<UnknownVerdict>, SolveError> {
    let mut cnf = CnfFormula::new();
    let formula = Formula::encode(variant, record, known, &mut cnf, EncodeOptions::default())?;
    let refiner = formula.refiner();
    let mut solver = Solver::new();
    solver.add_formula(&cnf);
    let written = record.written_moves();
    let mut learned = Vec::new();
    let mut verdicts = Vec::new();
    let moves = formula.encoded.layout.iter().flat_map(|l| &l.moves);
    for mv in moves {
        let played = filled.moves[mv.ply - 1].clone();
        // "Not this move", switched on by a fresh assumption.
        let other = solver.new_lit();
        let mut clause = vec![!other];
        for term in mv.playing(&played) {
            if let Term::Lit(l) = term {
                clause.push(!l);
            }
        }
        solver.add_clause(&clause);
        let found = solve_refining(&mut solver, &refiner, &[other], &mut learned)?;
        verdicts.push(UnknownVerdict {
            ply: mv.ply,
            written: written[mv.ply - 1].clone(),
            played,
            other: found.map(|f| f.filled.moves[mv.ply - 1].clone()),
            variant,
        });
    }
    Ok(verdicts)
}
