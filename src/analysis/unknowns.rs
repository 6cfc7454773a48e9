//! Which unknowns of a damaged record are forced (`--explain` on a
//! solvable damaged record): for each damaged ply, is the move an answer
//! filled in the only one any answer can play there?

use std::fmt;

use varisat::{CnfFormula, ExtendFormula, Solver};

use crate::encode::{encode_with, BoardFacts, EncodeOptions};
use crate::notation::{MoveText, Record, WrittenMove};
use crate::rules::Variant;
use crate::solve::{filled_record, SolveError};

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
/// damaged ply with that move ruled out.
///
/// # Errors
/// [`SolveError`] if the record cannot be encoded or varisat fails.
pub fn forced_unknowns(
    record: &Record,
    variant: Variant,
    known: BoardFacts,
    filled: &Record,
) -> Result<Vec<UnknownVerdict>, SolveError> {
    let mut formula = CnfFormula::new();
    let options = EncodeOptions {
        known,
        ..EncodeOptions::default()
    };
    let encoded = encode_with(variant, record, &mut formula, options)?;
    for l in encoded.longer_captures() {
        formula.add_clause(&[!l]);
    }
    let mut solver = Solver::new();
    solver.add_formula(&formula);
    let written = record.written_moves();
    let mut verdicts = Vec::new();
    for damaged in &encoded.damaged {
        let played = filled.moves[damaged.ply - 1].clone();
        let chosen = damaged
            .choices
            .iter()
            .find(|(_, mv)| *mv == played)
            .and_then(|(var, _)| *var);
        let other = match chosen {
            // The only move that fits on the board the plies before leave.
            None => None,
            Some(var) => {
                solver.assume(&[var.negative()]);
                if solver.solve().map_err(SolveError::from)? {
                    let model = solver.model().unwrap_or_default();
                    let another = filled_record(record, &model, &encoded.damaged)?;
                    Some(another.moves[damaged.ply - 1].clone())
                } else {
                    None
                }
            }
        };
        verdicts.push(UnknownVerdict {
            ply: damaged.ply,
            written: written[damaged.ply - 1].clone(),
            played,
            other,
            variant,
        });
    }
    Ok(verdicts)
}
