//! CNF encodings of reconstruction problems.
//!
//! An encoding writes clauses into a [`ClauseSink`]: a varisat solver, or an
//! [`AnnotatedCnf`] that prints DIMACS with a comment for every variable and
//! every group of clauses.

mod damaged;
mod emitter;
mod english;
mod flying;
mod gadgets;
mod sink;
mod symbolic;
pub mod vars;

pub use crate::sat::AnnotatedCnf;
pub use damaged::{truth_of, Layout, MoveVars, PlyView, SquareLits, StepVars};
pub use emitter::{
    BoardFacts, Contradiction, Deferred, EncodeOptions, EncodeStats, Encoded,
    COMPLETE_MOST_PIECES_CAP, MOST_PIECES_BUDGET,
};
pub use english::{encode_english, encode_english_with, encode_short_with};
pub use flying::{encode_flying_with, encode_russian};
pub use gadgets::{Term, VarMap, Writer};
pub use sink::{ClauseSink, Discard, Group, NamedGroups, PlyRef, Rule};
pub use symbolic::KnownFacts;

use crate::notation::Record;
use crate::rules::Variant;

/// The encoder gave up: the deadline in force on its thread passed
/// (see [`crate::sat::under`]). The formula written so far is partial.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the time limit passed while the formula was written (at ply {ply})")]
pub struct OutOfTime {
    /// The ply the encoder was at.
    pub ply: usize,
}

/// Encodes `record` under the rules of `variant` into `sink`.
///
/// A damaged record (see [`Record::written`]) gets the encoding of
/// `encodings/damaged.md`; [`Encoded::layout`] then says where its
/// damaged plies' variables are. Every rule set of the table has an
/// encoding. It runs to the end whatever the clock says: see
/// [`encode_within`] to stop at a deadline.
pub fn encode_with(
    variant: Variant,
    record: &Record,
    sink: &mut impl ClauseSink,
    options: EncodeOptions,
) -> Encoded {
    match encode_watching(variant, record, sink, options, false) {
        Ok(encoded) => encoded,
        Err(_) => unreachable!("an encoder that does not watch the clock runs to the end"),
    }
}

/// [`encode_with`], stopping at the deadline in force on this thread: a
/// damaged record's encoding can take seconds, and a call with a limit
/// must not leave it running.
///
/// # Errors
/// [`OutOfTime`] when the deadline passes first (only a damaged record's
/// encoding looks at the clock: the others take milliseconds).
pub fn encode_within(
    variant: Variant,
    record: &Record,
    sink: &mut impl ClauseSink,
    options: EncodeOptions,
) -> Result<Encoded, OutOfTime> {
    encode_watching(variant, record, sink, options, true)
}

/// The encoder, stopping at the deadline when `watch`.
fn encode_watching(
    variant: Variant,
    record: &Record,
    sink: &mut impl ClauseSink,
    options: EncodeOptions,
    watch: bool,
) -> Result<Encoded, OutOfTime> {
    if record.is_damaged() {
        let (mut encoded, layout) = damaged::encode_damaged(variant, record, sink, options, watch)?;
        encoded.layout = Some(layout);
        return Ok(encoded);
    }
    let movement = variant.facts().movement;
    Ok(if movement.flying_kings {
        encode_flying_with(record, sink, options, movement)
    } else {
        encode_short_with(record, sink, options, movement)
    })
}

/// The start-board facts the moves of `record` state by themselves under
/// `variant`: what stands on each square a move starts from or jumps, and
/// that its landings are empty, as the encoder's unit clauses say them (see
/// [`EncodeOptions::units_only`]). Every fact holds on every start board
/// the moves replay from; a contradiction among them means there is none.
///
/// `None` when the facts contradict each other (there is no start board
/// then) or the record is damaged.
pub fn unit_facts(variant: Variant, record: &Record) -> Option<KnownFacts> {
    if record.is_damaged() {
        return None;
    }
    let encoded = encode_with(variant, record, &mut Discard, EncodeOptions::units_only());
    encoded.contradiction.is_none().then_some(encoded.facts)
}

/// The annotated English formula of `record` (see [`dimacs`]).
pub fn english_dimacs(record: &Record) -> AnnotatedCnf {
    let mut cnf = AnnotatedCnf::new();
    cnf.name_vars(vars::VAR_COUNT, vars::name);
    let mut sink = NamedGroups { cnf: &mut cnf };
    let encoded = encode_english_with(record, &mut sink, EncodeOptions::default());
    annotate(&mut cnf, record, Variant::English, &encoded);
    cnf
}

/// The annotated formula of `record` under `variant`, exactly as `solve`
/// hands it to varisat, with a preamble that names the record, the sizes and
/// the variable scheme.
pub fn dimacs(record: &Record, variant: Variant) -> AnnotatedCnf {
    dimacs_encoded(record, variant, BoardFacts::none()).0
}

/// [`dimacs`] with what is `known` of the boards (`--start-board`,
/// `--end-board`), and what the encoder says of the formula (a damaged
/// record's layout above all, to read a model back).
pub fn dimacs_encoded(
    record: &Record,
    variant: Variant,
    known: BoardFacts,
) -> (AnnotatedCnf, Encoded) {
    let mut cnf = AnnotatedCnf::new();
    let topology = variant.topology();
    cnf.name_vars(vars::var_count(topology), vars::name_on(topology));
    let mut sink = NamedGroups { cnf: &mut cnf };
    let options = EncodeOptions {
        known,
        named: true,
        complete: true,
        ..EncodeOptions::default()
    };
    let encoded = encode_with(variant, record, &mut sink, options);
    if let Some(layout) = &encoded.layout {
        let start_name = vars::name_on(topology);
        cnf.name_vars(encoded.stats.vars, |v| {
            layout
                .vars
                .name(v)
                .map_or_else(|| start_name(v), str::to_string)
        });
    }
    annotate(&mut cnf, record, variant, &encoded);
    (cnf, encoded)
}

/// The preamble of [`dimacs`]: the record, the sizes and the variable scheme.
fn annotate(cnf: &mut AnnotatedCnf, record: &Record, variant: Variant, encoded: &Encoded) {
    let moves: Vec<String> = record
        .written_moves()
        .iter()
        .map(|m| variant.write_written(m))
        .collect();
    let document = variant.facts().encoding_doc;
    cnf.comment(format!(
        "postfacto cnf: {} draughts, start-board encoding (see encodings/{document}.md)",
        variant.title(),
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
    if variant.topology().mirrored() {
        // Its numbers do not follow the squares' order: the names say them.
        cnf.comment(
            "a model is a start board: the k-th square, row by row from the top as stored (its number in the names below), has variables 3k-2 (occupied), 3k-1 (white), 3k (king)",
        );
    } else {
        cnf.comment(
            "a model is a start board: square n has variables 3n-2 (occupied), 3n-1 (white), 3n (king)",
        );
    }
    if let Some(layout) = &encoded.layout {
        let plies: Vec<String> = layout.moves.iter().map(|m| m.ply.to_string()).collect();
        cnf.comment(format!(
            "damaged plies {}: each move as variables, the board after each in a block of its own (see encodings/damaged.md)",
            plies.join(", ")
        ));
    }
    if !encoded.deferred.is_empty() {
        let plies: Vec<String> = encoded.deferred.iter().map(|d| d.ply.to_string()).collect();
        cnf.comment(format!(
            "not complete: the most-pieces rule of {} {} is over {COMPLETE_MOST_PIECES_CAP} clauses and left out (`decode` prints the clauses a model it rejects needs)",
            if plies.len() == 1 { "ply" } else { "plies" },
            plies.join(", ")
        ));
    }
    if let Some(c) = &encoded.contradiction {
        // A fact (`--start-board`, `--end-board`) that cannot hold is not
        // a ply that cannot be played: the plies before it can.
        let what = if c.rule.is_fact() {
            format!("{}: false", c.rule)
        } else {
            format!("ply {} cannot be played", c.ply)
        };
        cnf.comment(format!(
            "{what} whatever the start board ({}); the formula ends with the empty clause",
            c.reason
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_records;
    use std::time::{Duration, Instant};

    /// The clauses of `record`'s English formula, stopping at the deadline
    /// when `watch`.
    fn clauses(record: &Record, watch: bool) -> Result<usize, OutOfTime> {
        let mut cnf = varisat::CnfFormula::new();
        let options = EncodeOptions::default();
        if watch {
            encode_within(Variant::English, record, &mut cnf, options)?;
        } else {
            encode_with(Variant::English, record, &mut cnf, options);
        }
        Ok(cnf.len())
    }

    #[test]
    fn a_damaged_encoding_stops_at_a_passed_deadline_and_only_then() {
        let record = &parse_records("W 3\n21-17\n13x?x?x24\n19x28\n").expect("damaged")[0];
        let whole = clauses(record, false).expect("no deadline");
        assert_eq!(clauses(record, true), Ok(whole));
        crate::sat::under(Some(Instant::now()), || {
            assert_eq!(clauses(record, true), Err(OutOfTime { ply: 1 }));
            assert_eq!(clauses(record, false), Ok(whole), "encode_with ignores it");
        });
        let later = Some(Instant::now() + Duration::from_secs(3600));
        assert_eq!(
            crate::sat::under(later, || clauses(record, true)),
            Ok(whole)
        );
    }

    #[test]
    fn a_record_with_nothing_damaged_is_encoded_whatever_the_clock() {
        let record = &parse_records("B 2\n9-13\n22-18\n").expect("a record")[0];
        let whole = clauses(record, false).expect("no deadline");
        let late = crate::sat::under(Some(Instant::now()), || clauses(record, true));
        assert_eq!(late, Ok(whole));
    }
}
