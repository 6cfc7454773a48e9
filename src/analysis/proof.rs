//! Certificates of impossibility: a DRAT proof (or varisat's own format) of
//! the formula `postfacto cnf` prints, and a small checker for DRAT proofs.
//!
//! With the proof, a reader trusts only the encoding (documented clause by
//! clause) and a proof checker, not the solver's search. Check a DRAT proof
//! with any DRAT checker (`drat-trim record.cnf record.drat`), or with
//! [`check_drat`]; a varisat-format proof with `varisat::checker`.

use std::collections::HashMap;
use std::io::Write;

use varisat::{CnfFormula, Lit, ProofFormat, Solver};

use crate::encode::dimacs;
use crate::notation::Record;
use crate::rules::Variant;
use crate::solve::InternalError;

/// Solves the formula of `record` (exactly as `cnf` prints it) while writing a
/// proof to `out`. `Ok(true)`: the record is impossible and the proof is
/// complete; `Ok(false)`: the record is solvable and `out` holds no proof.
///
/// # Errors
/// [`InternalError`] if varisat fails or cannot write the proof.
pub fn write_proof(
    record: &Record,
    variant: Variant,
    format: ProofFormat,
    out: &mut impl Write,
) -> Result<bool, InternalError> {
    let cnf = dimacs(record, variant);
    let mut buffer = Vec::new();
    let impossible = {
        let mut solver = Solver::new();
        solver.write_proof(&mut buffer, format);
        solver.add_formula(cnf.formula());
        let sat = solver
            .solve()
            .map_err(|e| InternalError(format!("varisat failed: {e}")))?;
        solver
            .close_proof()
            .map_err(|e| InternalError(format!("varisat could not finish the proof: {e}")))?;
        !sat
    };
    if impossible {
        out.write_all(&buffer)
            .map_err(|e| InternalError(format!("cannot write the proof: {e}")))?;
    }
    Ok(impossible)
}

/// Checks a textual DRAT proof of `formula`'s unsatisfiability by reverse
/// unit propagation: every added clause must follow from the clauses before
/// it by unit propagation, and the proof must reach the empty clause. (RAT
/// steps are not accepted; varisat does not produce them.) Returns the number
/// of lemmas checked.
///
/// # Errors
/// Which line fails, in words.
pub fn check_drat(formula: &CnfFormula, proof: &str) -> Result<usize, String> {
    let mut clauses: Vec<Option<Vec<Lit>>> = formula.iter().map(|c| Some(c.to_vec())).collect();
    let key = |c: &[Lit]| {
        let mut k = c.to_vec();
        k.sort_unstable();
        k
    };
    let mut index: HashMap<Vec<Lit>, Vec<usize>> = HashMap::new();
    for (i, c) in clauses.iter().enumerate() {
        if let Some(c) = c {
            index.entry(key(c)).or_default().push(i);
        }
    }
    let var_count = formula.var_count();
    let mut lemmas = 0;
    for (n, line) in proof.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        let (delete, body) = match line.strip_prefix("d ") {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let mut lits = Vec::new();
        for word in body.split_whitespace() {
            let value: isize = word
                .parse()
                .map_err(|_| format!("proof line {}: '{word}' is not a literal", n + 1))?;
            if value == 0 {
                break;
            }
            lits.push(Lit::from_dimacs(value));
        }
        if delete {
            if let Some(i) = index.get_mut(&key(&lits)).and_then(Vec::pop) {
                clauses[i] = None;
            }
            continue;
        }
        if !implied_by_propagation(&clauses, &lits, var_count) {
            return Err(format!(
                "proof line {}: clause '{body}' does not follow by unit propagation",
                n + 1
            ));
        }
        lemmas += 1;
        if lits.is_empty() {
            return Ok(lemmas);
        }
        index.entry(key(&lits)).or_default().push(clauses.len());
        clauses.push(Some(lits));
    }
    if implied_by_propagation(&clauses, &[], var_count) {
        Ok(lemmas)
    } else {
        Err("the proof never reaches the empty clause".into())
    }
}

/// Does unit propagation on `clauses` plus the negation of `lemma` reach a conflict?
fn implied_by_propagation(clauses: &[Option<Vec<Lit>>], lemma: &[Lit], var_count: usize) -> bool {
    let vars = lemma
        .iter()
        .map(|l| l.index() + 1)
        .max()
        .unwrap_or(0)
        .max(var_count);
    let mut value: Vec<Option<bool>> = vec![None; vars];
    for &l in lemma {
        match value[l.index()] {
            // The lemma holds a literal and its negation: a tautology.
            Some(v) if v == l.is_positive() => return true,
            _ => value[l.index()] = Some(!l.is_positive()),
        }
    }
    let holds = |value: &[Option<bool>], l: Lit| {
        value
            .get(l.index())
            .copied()
            .flatten()
            .map(|v| v == l.is_positive())
    };
    loop {
        let mut changed = false;
        for clause in clauses.iter().flatten() {
            let mut unassigned = None;
            let mut open = 0;
            let mut satisfied = false;
            for &l in clause {
                match holds(&value, l) {
                    Some(true) => {
                        satisfied = true;
                        break;
                    }
                    Some(false) => {}
                    None => {
                        open += 1;
                        unassigned = Some(l);
                    }
                }
            }
            if satisfied {
                continue;
            }
            match (open, unassigned) {
                (0, _) => return true,
                (1, Some(l)) => {
                    if l.index() >= value.len() {
                        value.resize(l.index() + 1, None);
                    }
                    value[l.index()] = Some(l.is_positive());
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_records;

    fn dimacs_en(r: &Record) -> crate::encode::AnnotatedCnf {
        dimacs(r, Variant::English)
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
