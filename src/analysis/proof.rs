//! Certificates of impossibility: a DRAT proof (or varisat's own format) of
//! the formula `postfacto cnf` prints, and a small checker for DRAT proofs.
//!
//! With the proof, a reader trusts only the encoding (documented clause by
//! clause) and a proof checker, not the solver's search. Check a DRAT proof
//! with any DRAT checker (`drat-trim record.cnf record.drat`), or with
//! [`check_drat`](crate::sat::check_drat); a varisat-format proof with
//! `varisat::checker`.

use std::io::Write;
use std::path::Path;

use varisat::ProofFormat;

use crate::encode::{dimacs_encoded, AnnotatedCnf, BoardFacts};
use crate::notation::Record;
use crate::rules::Variant;
use crate::sat::{
    binary_drat_to_text, check_drat, prove_unsat, run_solver_proving, DratError, SatError, Verdict,
};
use crate::solve::{solve_canonically, Formula, SolveError};

/// [`write_proof`] for the formula with what is `known` of the boards
/// (`postfacto cnf` prints it without them: the proof refers to the
/// formula `solve` builds with the same facts).
///
/// # Errors
/// As [`write_proof`].
pub fn write_proof_knowing(
    record: &Record,
    variant: Variant,
    known: BoardFacts,
    format: ProofFormat,
    out: &mut impl Write,
) -> Result<bool, SolveError> {
    let cnf = refined_dimacs(record, variant, known)?;
    Ok(prove_unsat(cnf.formula(), format, out)?)
}

/// What an outside solver's proof of a record's impossibility came to.
#[derive(Debug)]
pub enum SolverProof {
    /// The formula is satisfiable: the record is possible, no proof is
    /// kept.
    Solvable,
    /// The solver refuted the formula and wrote its DRAT proof; the
    /// number of lemmas [`check_drat`] followed by unit propagation, or why
    /// it did not accept the proof (RAT steps, which a full DRAT checker
    /// such as drat-trim takes).
    Refuted(Result<usize, DratError>),
}

/// Runs the outside solver `command` on the formula `postfacto cnf`
/// prints for `record` (with what is `known`), asking it for a DRAT proof
/// at `path` (given after the formula's path, as CaDiCaL and Kissat take
/// it), and checks the proof, binary or textual.
///
/// # Errors
/// [`SolveError`] if the solver cannot be run, gives no verdict (a time
/// `limit`), or its proof cannot be read.
pub fn prove_with_solver(
    record: &Record,
    variant: Variant,
    known: BoardFacts,
    command: &[String],
    limit: Option<std::time::Duration>,
    path: &Path,
) -> Result<SolverProof, SolveError> {
    let cnf = refined_dimacs(record, variant, known)?;
    match run_solver_proving(command, &cnf, limit, Some(path))? {
        Verdict::Satisfiable(_) => {
            // What it wrote is no proof of anything: not left behind.
            let _ = std::fs::remove_file(path);
            Ok(SolverProof::Solvable)
        }
        Verdict::Unsatisfiable => {
            let bytes = std::fs::read(path).map_err(|e| SatError::Io {
                what: format!("the solver's proof '{}'", path.display()),
                message: e.to_string(),
            })?;
            // A binary proof ends every step with a zero byte; text never has one.
            let text = if bytes.contains(&0) {
                binary_drat_to_text(&bytes)
            } else {
                String::from_utf8(bytes).ok()
            };
            Ok(SolverProof::Refuted(match text {
                Some(text) => check_drat(cnf.formula(), &text),
                None => Err(DratError::Unreadable),
            }))
        }
        Verdict::Unknown => Err(SatError::Undecided("the solver says 's UNKNOWN'".into()).into()),
    }
}

/// The formula `postfacto cnf` prints: the record's formula, solved the
/// canonical way ([`solve_canonically`]), with the clauses learned on the
/// way (implied by the rules) in a group at its end. Its satisfiability is
/// the record's answer; a proof of impossibility refers to it.
///
/// # Errors
/// [`SolveError`] if the record cannot be encoded or varisat fails.
pub fn refined_dimacs(
    record: &Record,
    variant: Variant,
    known: BoardFacts,
) -> Result<AnnotatedCnf, SolveError> {
    refined_formula(record, variant, known).map(|(cnf, _)| cnf)
}

/// The formula of `record` as encoded, without the clauses refinement
/// learns (`reach --cnf K --unrefined`), with the formula its models are
/// read back with.
pub(crate) fn unrefined_formula(
    record: &Record,
    variant: Variant,
    known: BoardFacts,
) -> (AnnotatedCnf, Formula) {
    let (cnf, encoded) = dimacs_encoded(record, variant, known);
    let formula = Formula {
        variant,
        record: record.clone(),
        known,
        encoded,
    };
    (cnf, formula)
}

/// [`refined_dimacs`] with the formula it was written from, whose
/// refiner reads its models back (`decode`).
///
/// # Errors
/// As [`refined_dimacs`].
pub(crate) fn refined_formula(
    record: &Record,
    variant: Variant,
    known: BoardFacts,
) -> Result<(AnnotatedCnf, Formula), SolveError> {
    let (mut cnf, mut formula) = unrefined_formula(record, variant, known);
    let whole = formula.encoded.layout.is_none() && formula.encoded.deferred.is_empty();
    if whole && !variant.facts().movement.choice_learned() {
        return Ok((cnf, formula));
    }
    let canonical = solve_canonically(&mut formula, cnf.formula())?;
    if !canonical.learned.is_empty() {
        cnf.comment(format!(
            "{} {} learned from models the replayer rejected (encodings/damaged.md); they end the formula",
            crate::notation::plural(canonical.learned.len(), "clause"),
            if canonical.learned.len() == 1 { "was" } else { "were" }
        ));
    }
    for learned in &canonical.learned {
        cnf.begin_group(format!("learned at ply {}: {}", learned.ply, learned.why));
        cnf.add_clause(&learned.clause);
    }
    Ok((cnf, formula))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_records;

    fn write_proof(
        record: &Record,
        variant: Variant,
        format: ProofFormat,
        out: &mut impl Write,
    ) -> Result<bool, SolveError> {
        write_proof_knowing(record, variant, BoardFacts::none(), format, out)
    }
    use crate::sat::check_drat;

    fn dimacs_en(r: &Record) -> crate::encode::AnnotatedCnf {
        crate::encode::english_dimacs(r)
    }

    fn record(text: &str) -> Record {
        parse_records(text).unwrap().remove(0)
    }

    /// Impossible only through the solver (issue 3's note), and impossible on its face.
    const IMPOSSIBLE: [&str; 2] = ["B 4\n14-17\n24-28\n23x14\n12x3\n", "W 2\n21-17\n21-17\n"];

    #[test]
    fn drat_proofs_of_impossible_records_check() {
        for text in IMPOSSIBLE {
            let r = record(text);
            let mut proof = Vec::new();
            assert!(write_proof(&r, Variant::English, ProofFormat::Drat, &mut proof).unwrap());
            let formula = dimacs_en(&r);
            check_drat(formula.formula(), &String::from_utf8(proof).unwrap())
                .unwrap_or_else(|e| panic!("{text:?}: {e}"));
        }
    }

    #[test]
    fn varisat_format_proofs_pass_varisat_s_own_checker() {
        for text in IMPOSSIBLE {
            let r = record(text);
            let mut proof = Vec::new();
            assert!(write_proof(&r, Variant::English, ProofFormat::Varisat, &mut proof).unwrap());
            let mut checker = varisat::checker::Checker::new();
            checker.add_formula(dimacs_en(&r).formula()).unwrap();
            checker
                .check_proof(&proof[..])
                .unwrap_or_else(|e| panic!("{text:?}: {e}"));
        }
    }

    /// A record impossible only by a rule refinement learns (Spanish: the
    /// most kings) gets a proof of the formula with the learned clauses.
    #[test]
    fn a_proof_covers_the_clauses_refinement_learns() {
        use crate::board::PartialBoard;
        use crate::notation::{parse_board_on, parse_records_with};
        let spanish = Variant::Spanish;
        let text =
            ".-.-.-.-\n-.-.-.-.\n.-.-.-.-\n-.-.-.-.\n.-b-B-.-\n-.-w-.-.\n.-.-.-.-\n-.-.-.-.\n";
        let board = parse_board_on(text, spanish.topology()).unwrap();
        let known = BoardFacts {
            start: Some(PartialBoard {
                board,
                known: spanish.topology().all_bits(),
            }),
            end: None,
        };
        let r = parse_records_with("W 1\n11x20\n", spanish.geometry())
            .unwrap()
            .remove(0);
        let mut proof = Vec::new();
        assert!(write_proof_knowing(&r, spanish, known, ProofFormat::Drat, &mut proof).unwrap());
        let formula = refined_dimacs(&r, spanish, known).unwrap();
        check_drat(formula.formula(), &String::from_utf8(proof).unwrap()).unwrap();
    }

    #[test]
    fn solvable_records_get_no_proof_and_bad_proofs_are_refused() {
        let sample = record("W 3\n21-17\n13x22x31x24\n19x28\n");
        let mut proof = Vec::new();
        assert!(!write_proof(&sample, Variant::English, ProofFormat::Drat, &mut proof).unwrap());
        assert!(proof.is_empty());
        // Claiming the empty clause of a satisfiable formula must fail.
        let formula = dimacs_en(&sample);
        assert!(check_drat(formula.formula(), "0\n").is_err());
        assert!(check_drat(formula.formula(), "").is_err());
    }
}
