//! CNF encodings of reconstruction problems.
//!
//! An encoding writes clauses into a [`ClauseSink`]: a varisat solver, or an
//! [`AnnotatedCnf`] that prints DIMACS with a comment for every variable and
//! every group of clauses.

mod emitter;
mod english;
mod russian;
mod sink;
mod symbolic;
pub mod vars;

pub use crate::sat::AnnotatedCnf;
pub use emitter::{Contradiction, EncodeOptions, EncodeStats, Encoded};
pub use english::{encode_english, encode_english_with};
pub use russian::{encode_russian, encode_russian_with};
pub use sink::{ClauseSink, Discard, Group, NamedGroups, PlyRef, Rule};
pub use symbolic::KnownFacts;

use crate::notation::Record;
use crate::rules::Variant;

/// Encodes `record` under the rules of `variant` into `sink`.
pub fn encode_with(
    variant: Variant,
    record: &Record,
    sink: &mut impl ClauseSink,
    options: EncodeOptions,
) -> Encoded {
    match variant {
        Variant::English => encode_english_with(record, sink, options),
        Variant::Russian => encode_russian_with(record, sink, options),
    }
}

/// The start-board facts the moves of `record` state by themselves under
/// `variant`: what stands on each square a move starts from or jumps, and
/// that its landings are empty, as the encoder's unit clauses say them (see
/// [`EncodeOptions::units_only`]). Every fact holds on every start board
/// the moves replay from; a contradiction among them means there is none.
///
/// # Errors
/// The first ply whose own facts contradict the earlier ones'.
pub fn unit_facts(variant: Variant, record: &Record) -> Result<KnownFacts, Contradiction> {
    let encoded = encode_with(variant, record, &mut Discard, EncodeOptions::units_only());
    match encoded.contradiction {
        Some(c) => Err(c),
        None => Ok(encoded.facts),
    }
}

/// The annotated English formula of `record` (see [`dimacs`]).
pub fn english_dimacs(record: &Record) -> AnnotatedCnf {
    dimacs(record, Variant::English)
}

/// The annotated formula of `record` under `variant`, exactly as `solve`
/// hands it to varisat, with a preamble that names the record, the sizes and
/// the variable scheme.
pub fn dimacs(record: &Record, variant: Variant) -> AnnotatedCnf {
    let mut cnf = AnnotatedCnf::new();
    cnf.name_vars(vars::VAR_COUNT, vars::name);
    let mut sink = NamedGroups {
        cnf: &mut cnf,
        algebraic: variant == Variant::Russian,
    };
    let encoded = encode_with(variant, record, &mut sink, EncodeOptions::default());
    let moves: Vec<String> = record.moves.iter().map(|m| variant.write_move(m)).collect();
    let (title, document) = match variant {
        Variant::English => ("English", "english"),
        Variant::Russian => ("Russian", "russian"),
    };
    cnf.comment(format!(
        "postfacto cnf: {title} draughts, start-board encoding (see encodings/{document}.md)"
    ));
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
