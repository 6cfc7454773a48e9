//! A model of the `cnf` formula, from any solver, read back into boards:
//! the answer it stands for when it is one, else which clause it breaks or
//! which rule the replayer finds broken (one the formula leaves to
//! refinement, `encodings/damaged.md`).

use varisat::Lit;

use crate::encode::BoardFacts;
use crate::notation::Record;
use crate::rules::Variant;
use crate::solve::refine::Check;
use crate::solve::{checked_answer, Solution, SolveError, SolveStats};

use super::proof::refined_formula;

/// What a model of a record's formula is.
#[derive(Clone, Debug)]
pub enum Decoded {
    /// An answer, replayed from its start board.
    Answer(Solution),
    /// The model does not satisfy clause `clause` (1-based, in the order
    /// `cnf` prints them), of the group whose `c` line is `group`.
    Unsatisfied {
        /// The clause's number.
        clause: usize,
        /// Its group's text (empty when it has none).
        group: String,
    },
    /// The model satisfies the formula, but the replayer rejects it at
    /// `ply`: the formula leaves this rule to refinement (`solve` would
    /// learn a clause here and solve again).
    Rejected {
        /// The 1-based ply.
        ply: usize,
        /// The rule it breaks.
        why: String,
    },
}

/// Reads `model` (true literals; variables it does not list are false) as
/// an assignment of `record`'s formula, the one `cnf` prints for it.
///
/// # Errors
/// [`SolveError::Unsupported`] when the model names a variable the formula
/// does not have; other [`SolveError`]s if the record cannot be encoded.
pub fn decode_model(
    record: &Record,
    variant: Variant,
    known: BoardFacts,
    model: &[Lit],
) -> Result<Decoded, SolveError> {
    let (cnf, formula) = refined_formula(record, variant, known)?;
    let vars = cnf.formula().var_count();
    if let Some(far) = model.iter().find(|l| l.index() >= vars) {
        return Err(SolveError::Unsupported(format!(
            "the model names variable {}, but the formula has {vars}",
            far.index() + 1
        )));
    }
    if let Some((clause, group)) = cnf.first_unsatisfied(model) {
        return Ok(Decoded::Unsatisfied {
            clause,
            group: group.unwrap_or_default().to_string(),
        });
    }
    // Every variable the model leaves out is false, as a full assignment.
    let mut full = vec![false; vars];
    for lit in model {
        full[lit.index()] = lit.is_positive();
    }
    let full: Vec<Lit> = full
        .iter()
        .enumerate()
        .map(|(i, &v)| Lit::from_index(i, v))
        .collect();
    match formula.refiner().check(&full)? {
        Check::Answer { start, filled, .. } => {
            let answer = checked_answer(&filled, start, "the model", variant)?;
            Ok(Decoded::Answer(Solution {
                answer,
                stats: SolveStats {
                    vars,
                    clauses: cnf.formula().len(),
                    ..SolveStats::default()
                },
                filled: record.is_damaged().then_some(filled),
            }))
        }
        Check::Learn { ply, why, .. } => Ok(Decoded::Rejected {
            ply,
            why: why.to_string(),
        }),
        Check::Deepen { ply, .. } => Ok(Decoded::Rejected {
            ply,
            why: "the capture needs more steps than the formula writes".to_string(),
        }),
    }
}
