//! Going round the refinement loop with an outside solver: a model of the
//! `cnf` formula that the replayer rejects comes back with the clauses
//! `solve` would learn from it, in DIMACS, so `cnf | solver | decode` can
//! be iterated (add them to the formula and solve again) until a model
//! is an answer or the formula is unsatisfiable.

use std::fmt::Write as _;

use varisat::Lit;

use crate::encode::{AnnotatedCnf, BoardFacts};
use crate::notation::Record;
use crate::rules::Variant;
use crate::solve::refine::Check;
use crate::solve::{checked_answer, Formula, Learned, Solution, SolveError, SolveStats};

use super::decode::Decoded;
use super::proof::{refined_formula, unrefined_formula};

/// [`super::decode_model`], with the clauses that rule the model out when
/// the replayer rejects it: the one `solve` learns first, then one for
/// every other rule the model breaks that a witness shows. Each is implied
/// by the rules and false under the model. Empty for an answer, a clause
/// the model breaks, or a capture that needs more steps than the formula
/// writes (no clause over its variables says that).
///
/// # Errors
/// As [`super::decode_model`].
pub fn decode_learning(
    record: &Record,
    variant: Variant,
    known: BoardFacts,
    model: &[Lit],
) -> Result<(Decoded, Vec<Learned>), SolveError> {
    let (cnf, formula) = refined_formula(record, variant, known)?;
    decode_against(&cnf, &formula, model)
}

/// [`decode_learning`] for the formula without the clauses refinement
/// learns (`reach --cnf K --unrefined` prints it).
///
/// # Errors
/// As [`super::decode_model`].
pub fn decode_learning_unrefined(
    record: &Record,
    variant: Variant,
    known: BoardFacts,
    model: &[Lit],
) -> Result<(Decoded, Vec<Learned>), SolveError> {
    let (cnf, formula) = unrefined_formula(record, variant, known);
    decode_against(&cnf, &formula, model)
}

/// `model` read as an assignment of `cnf`, written from `formula`.
fn decode_against(
    cnf: &AnnotatedCnf,
    formula: &Formula,
    model: &[Lit],
) -> Result<(Decoded, Vec<Learned>), SolveError> {
    let (record, variant) = (&formula.record, formula.variant);
    let vars = cnf.formula().var_count();
    if let Some(far) = model.iter().find(|l| l.index() >= vars) {
        return Err(SolveError::Unsupported(format!(
            "the model names variable {}, but the formula has {vars}",
            far.index() + 1
        )));
    }
    if let Some((clause, group)) = cnf.first_unsatisfied(model) {
        let group = group.unwrap_or_default().to_string();
        return Ok((Decoded::Unsatisfied { clause, group }, Vec::new()));
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
    let refiner = formula.refiner();
    match refiner.check(&full)? {
        Check::Answer { start, filled, .. } => {
            let answer = checked_answer(&filled, start, "the model", variant)?;
            let solution = Solution {
                answer,
                stats: SolveStats {
                    vars,
                    clauses: cnf.formula().len(),
                    ..SolveStats::default()
                },
                filled: record.is_damaged().then_some(filled),
            };
            Ok((Decoded::Answer(solution), Vec::new()))
        }
        Check::Learn { ply, clause, why } => {
            let more = refiner.more_witnesses(&full, (ply, &clause));
            let mut learned = vec![Learned { ply, clause, why }];
            learned.extend(
                more.into_iter()
                    .map(|(ply, clause)| Learned { ply, clause, why }),
            );
            let why = why.to_string();
            Ok((Decoded::Rejected { ply, why }, learned))
        }
        Check::Deepen { ply, .. } => {
            let why = "the capture needs more steps than the formula writes".to_string();
            Ok((Decoded::Rejected { ply, why }, Vec::new()))
        }
    }
}

/// `learned` as DIMACS clauses, each after a `c` line naming its ply and
/// rule, to add to the `cnf` formula (its `p` line counting them too).
pub fn learned_dimacs(learned: &[Learned]) -> String {
    let mut out = String::new();
    for l in learned {
        let _ = writeln!(
            out,
            "c learned at ply {} from a model the replayer rejected: {}",
            l.ply, l.why
        );
        for lit in &l.clause {
            let _ = write!(out, "{} ", lit.to_dimacs());
        }
        out.push_str("0\n");
    }
    out
}

/// What `decode` says of the `count` clauses it prints for a rejected
/// model: how to go round the loop, or why there is no clause to add.
pub fn learned_advice(count: usize) -> String {
    match count {
        0 => "a capture step the formula does not write: `solve` adds the steps; no clause over the formula's variables rules this model out".to_string(),
        n => format!(
            "a rule the formula leaves to refinement: the {} that rule this model out {} on standard output; add {} to the formula, count {} on its p line, and solve again",
            crate::notation::plural(n, "clause"),
            if n == 1 { "is" } else { "are" },
            if n == 1 { "it" } else { "them" },
            if n == 1 { "it" } else { "them" },
        ),
    }
}
