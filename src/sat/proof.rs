//! Certificates of unsatisfiability: varisat writes a proof (DRAT, or its
//! own format) while it solves, and [`check_drat`] checks a DRAT proof by
//! reverse unit propagation, so a reader can trust an "impossible" or an
//! "optimal" without trusting the solver's search.

use std::collections::HashMap;
use std::io::Write;

use varisat::{CnfFormula, Lit, ProofFormat, Solver};

use super::units::{clause_state, ClauseState};
use super::SatError;

/// Solves `formula` while writing a proof in `format` to `out`. `Ok(true)`:
/// the formula is unsatisfiable and `out` holds a complete proof;
/// `Ok(false)`: it is satisfiable and nothing was written.
///
/// # Errors
/// [`SatError`] if varisat fails or the proof cannot be written.
pub fn prove_unsat(
    formula: &CnfFormula,
    format: ProofFormat,
    out: &mut impl Write,
) -> Result<bool, SatError> {
    let mut buffer = Vec::new();
    let unsat = {
        let mut solver = Solver::new();
        match super::current_deadline() {
            Some(deadline) => solver.write_proof(super::StopAt::new(deadline, &mut buffer), format),
            None => solver.write_proof(&mut buffer, format),
        }
        solver.add_formula(formula);
        let sat = solver.solve().map_err(SatError::from)?;
        solver.close_proof().map_err(SatError::from)?;
        !sat
    };
    if unsat {
        out.write_all(&buffer).map_err(|e| SatError::Io {
            what: "the proof".into(),
            message: e.to_string(),
        })?;
    }
    Ok(unsat)
}

/// Why a DRAT proof is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DratError {
    /// A word that is not a literal.
    #[error("proof line {line}: '{word}' is not a literal")]
    NotALiteral {
        /// The 1-based line.
        line: usize,
        /// The word.
        word: String,
    },
    /// A lemma that does not follow by unit propagation.
    #[error("proof line {line}: clause '{clause}' does not follow by unit propagation")]
    NotImplied {
        /// The 1-based line.
        line: usize,
        /// The clause as written.
        clause: String,
    },
    /// The proof is neither textual nor binary DRAT.
    #[error("the proof is neither textual nor binary DRAT")]
    Unreadable,
    /// The proof ends before the empty clause.
    #[error("the proof never reaches the empty clause")]
    Unfinished,
}

/// A binary DRAT proof (as CaDiCaL and Kissat write by default) in the
/// textual format [`check_drat`] reads; `None` when `bytes` are not one.
/// Each step is `a` or `d`, then literals `2v + sign` (`sign` 1 for a
/// negative one) in 7-bit groups, low first, the high bit set on all but
/// the last, ending with 0.
pub fn binary_drat_to_text(bytes: &[u8]) -> Option<String> {
    let mut text = String::new();
    let mut rest = bytes.iter().copied();
    while let Some(kind) = rest.next() {
        match kind {
            b'a' => {}
            b'd' => text.push_str("d "),
            _ => return None,
        }
        loop {
            let (mut value, mut shift) = (0u64, 0u32);
            loop {
                let byte = rest.next()?;
                value |= u64::from(byte & 0x7f).checked_shl(shift)?;
                if byte & 0x80 == 0 {
                    break;
                }
                shift += 7;
            }
            if value == 0 {
                text.push_str("0\n");
                break;
            }
            let var = value >> 1;
            let sign = if value & 1 == 1 { "-" } else { "" };
            text.push_str(&format!("{sign}{var} "));
        }
    }
    Some(text)
}

/// Checks a textual DRAT proof of `formula`'s unsatisfiability by reverse
/// unit propagation: every added clause must follow from the clauses before
/// it by unit propagation, and the proof must reach the empty clause. (RAT
/// steps are not accepted; varisat does not produce them.) Returns the number
/// of lemmas checked.
///
/// # Errors
/// Which line fails, in words.
pub fn check_drat(formula: &CnfFormula, proof: &str) -> Result<usize, DratError> {
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
            let value: isize = word.parse().map_err(|_| DratError::NotALiteral {
                line: n + 1,
                word: word.to_string(),
            })?;
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
            return Err(DratError::NotImplied {
                line: n + 1,
                clause: body.to_string(),
            });
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
        Err(DratError::Unfinished)
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
            match clause_state(clause, |l| holds(&value, l)) {
                ClauseState::Falsified => return true,
                ClauseState::Unit(l) => {
                    if l.index() >= value.len() {
                        value.resize(l.index() + 1, None);
                    }
                    value[l.index()] = Some(l.is_positive());
                    changed = true;
                }
                ClauseState::Satisfied | ClauseState::Open => {}
            }
        }
        if !changed {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn binary_drat_reads_as_its_text() {
        // a 1 -2 0, d 3 0, a 70 0: literal 2v + sign in 7-bit groups; 70 needs two.
        let bytes = [b'a', 2, 5, 0, b'd', 6, 0, b'a', 0x8c, 0x01, 0];
        assert_eq!(
            binary_drat_to_text(&bytes).as_deref(),
            Some("1 -2 0\nd 3 0\n70 0\n")
        );
        assert_eq!(binary_drat_to_text(b"1 2 0\n"), None);
        assert_eq!(binary_drat_to_text(&[b'a', 0x82]), None);
    }

    use super::*;
    use crate::sat::formula_of as formula;

    #[test]
    fn proofs_of_unsatisfiable_formulas_check_and_satisfiable_ones_get_none() {
        // Pigeonhole 3 into 2: unsatisfiable, not by unit propagation alone.
        let php = formula(&[
            &[1, 2],
            &[3, 4],
            &[5, 6],
            &[-1, -3],
            &[-1, -5],
            &[-3, -5],
            &[-2, -4],
            &[-2, -6],
            &[-4, -6],
        ]);
        let mut proof = Vec::new();
        assert!(prove_unsat(&php, ProofFormat::Drat, &mut proof).unwrap());
        let lemmas = check_drat(&php, &String::from_utf8(proof).unwrap()).unwrap();
        assert!(lemmas >= 1);
        let sat = formula(&[&[1, 2], &[-1]]);
        let mut none = Vec::new();
        assert!(!prove_unsat(&sat, ProofFormat::Drat, &mut none).unwrap());
        assert!(none.is_empty());
        // A lemma that does not follow is refused.
        assert!(check_drat(&sat, "-2 0\n0\n").is_err());
    }
}
