//! CNF encodings of reconstruction problems.
//!
//! An encoding writes clauses into a [`ClauseSink`]: a varisat solver, or an
//! [`AnnotatedCnf`] that prints DIMACS with a comment for every variable and
//! every group of clauses.

mod dimacs;
mod emitter;
mod english;
mod sink;
mod symbolic;
pub mod vars;

pub use dimacs::AnnotatedCnf;
pub use emitter::{Contradiction, EncodeOptions, EncodeStats, Encoded};
pub use english::{encode_english, encode_english_with};
pub use sink::{ClauseSink, Group, PlyRef, Rule};

use crate::notation::Record;

/// The annotated formula of `record`, exactly as `solve` hands it to varisat,
/// with a preamble that names the record, the sizes and the variable scheme.
pub fn english_dimacs(record: &Record) -> AnnotatedCnf {
    let mut cnf = AnnotatedCnf::new();
    cnf.name_vars(vars::VAR_COUNT, vars::name);
    let encoded = encode_english(record, &mut cnf);
    let moves: Vec<String> = record.moves.iter().map(ToString::to_string).collect();
    cnf.comment("postfacto cnf: English draughts, start-board encoding (see encodings/english.md)");
    cnf.comment(format!(
        "record: {} {}: {}",
        record.first.letter(),
        moves.len(),
        moves.join(" ")
    ));
    cnf.comment(format!(
        "variables: {}; clauses: {} (left out: {} repeated, {} satisfied by earlier unit clauses)",
        encoded.stats.vars, encoded.stats.clauses, encoded.stats.repeated, encoded.stats.satisfied
    ));
    cnf.comment(
        "a model is a start board: square n has variables 3n-2 (occupied), 3n-1 (white), 3n (king)",
    );
    if let Some(c) = &encoded.contradiction {
        cnf.comment(format!(
            "ply {} cannot be played whatever the start board ({}); the formula ends with the empty clause",
            c.ply, c.reason
        ));
    }
    cnf
}
