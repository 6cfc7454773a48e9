//! A model of the `cnf` formula, from any solver, read back into boards:
//! the answer it stands for when it is one, else which clause it breaks or
//! which rule the replayer finds broken (one the formula leaves to
//! refinement, `encodings/damaged.md`).

use varisat::Lit;

use crate::encode::BoardFacts;
use crate::notation::Record;
use crate::rules::Variant;
use crate::solve::{Solution, SolveError};

use super::learn::decode_learning;

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
    decode_learning(record, variant, known, model).map(|(decoded, _)| decoded)
}
