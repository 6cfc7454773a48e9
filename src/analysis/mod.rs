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
mod minimize;
mod proof;
mod repair;
mod selectors;
mod unknowns;

pub use crate::sat::check_drat;
pub use builder::Analysis;
pub use count::{count_start_boards, used_squares, Count, CountOptions};
pub use decode::{decode_model, Decoded};
pub use explain::{
    explain_impossible, explain_impossible_knowing, forced_facts, forced_facts_knowing,
    Explanation, FactVerdict, SquareReport,
};
pub use minimize::{minimize_pieces, Limits, Minimum};
pub use proof::{prove_with_solver, refined_dimacs, write_proof, write_proof_knowing, SolverProof};
pub use repair::{
    edited_record, every_edit, repair, repair_game, repair_observed, repair_summary,
    repair_summary_numbered, Edit, EditKind, EditSpot, Repair, RepairOptions, RepairOutcome,
};
pub use selectors::{Guarded, RuleGroup, SelectorFormula};
pub use unknowns::{forced_unknowns, UnknownVerdict};
