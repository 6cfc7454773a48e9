//! What the SAT formulation can say beyond "here is a start board": why a
//! record is impossible, which start-board facts every answer shares, the
//! best answer, how many answers there are, certificates, and the fewest
//! edits that make a miswritten record possible.
//!
//! Everything here works on the encoding of the record's rule set (any
//! of them) through varisat's assumptions and failed cores.

mod builder;
mod count;
mod decode;
mod explain;
mod learn;
mod minimize;
mod proof;
mod repair;
mod selectors;
mod unknowns;

pub use crate::sat::check_drat;
pub use builder::Analysis;
pub use count::{Count, CountOptions};
pub use decode::Decoded;
pub use explain::{Explanation, FactVerdict, SquareReport};
pub use learn::{decode_learning, decode_learning_unrefined, learned_advice, learned_dimacs};
pub use minimize::Minimum;
pub use proof::SolverProof;
pub use repair::{
    edited_record, every_edit, repair_game, repair_read, repair_summary, repair_summary_numbered,
    Edit, EditKind, EditSpot, Repair, RepairOptions, RepairOutcome, Repairs,
};
pub use selectors::{Guarded, LaterBoard, RuleGroup, SelectorFormula};
pub use unknowns::UnknownVerdict;

// One way into each analysis: the builder ([`Analysis`]), which takes the
// rule set and the facts once. The free functions behind it serve the
// crate only.
pub(crate) use count::{count_start_boards, used_squares};
pub(crate) use decode::decode_model;
pub(crate) use explain::{explain_impossible_knowing, forced_facts_knowing};
pub(crate) use minimize::{minimize_pieces, Limits};
pub(crate) use proof::{prove_with_solver, refined_dimacs, write_proof_knowing};
pub(crate) use repair::repair_observed;
pub(crate) use unknowns::forced_unknowns;

/// The answer of a start board an analysis found for `record` (played as
/// `filled`, its filling, when it is damaged), replayed by `who`'s name
/// and held to the facts known: every answer an analysis gives passes here.
///
/// # Errors
/// [`crate::solve::SolveError`] naming `who` when the filling does not
/// fit, the board breaks a rule or a fact.
pub(crate) fn replayed_answer(
    record: &crate::notation::Record,
    filled: &crate::notation::Record,
    start: crate::board::Board,
    who: &str,
    variant: crate::rules::Variant,
    known: crate::encode::BoardFacts,
) -> Result<crate::notation::Answer, crate::solve::SolveError> {
    let played = if record.is_damaged() {
        crate::solve::check_filled(record, filled, who)?;
        filled
    } else {
        record
    };
    let answer = crate::solve::checked_answer(played, start, who, variant)?;
    crate::solve::check_facts(&answer, known)?;
    Ok(answer)
}
