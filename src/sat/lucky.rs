//! A "lucky phase" check before calling the SAT solver.
//!
//! Modern solvers (CaDiCaL's `lucky` phases, for one) first try a few trivial
//! assignments and stop if one satisfies the formula. Here one is enough: the
//! unit clauses' values, and *false* for every other variable, which reads as
//! "the start board is empty wherever the record does not force a piece".
//! Most reconstructions are satisfied by it, because the encoder has already
//! turned nearly everything the record forces into unit clauses.
//!
//! The check is exact: it returns a model only when every clause has a true
//! literal under it, so a model from here is as good as one from varisat (and
//! goes through the same replay check).

use varisat::{CnfFormula, Lit, Var};

/// A model of `formula` in which every variable not fixed by a unit clause is
/// false, if that assignment satisfies every clause.
pub fn lucky_model(formula: &CnfFormula) -> Option<Vec<Lit>> {
    let mut value = vec![false; formula.var_count()];
    for clause in formula.iter() {
        if let [unit] = clause {
            value[unit.index()] = unit.is_positive();
        }
    }
    let satisfied = |clause: &[Lit]| clause.iter().any(|l| value[l.index()] == l.is_positive());
    if !formula.iter().all(satisfied) {
        return None;
    }
    Some(
        value
            .iter()
            .enumerate()
            .map(|(index, &v)| Var::from_index(index).lit(v))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::formula_of as formula;

    #[test]
    fn units_and_false_elsewhere_is_returned_when_it_satisfies() {
        let f = formula(&[&[1], &[-2, 3], &[-1, -3]]);
        let model = lucky_model(&f).expect("1 true, 2 and 3 false satisfies it");
        assert_eq!(
            model,
            vec![
                Lit::from_dimacs(1),
                Lit::from_dimacs(-2),
                Lit::from_dimacs(-3)
            ]
        );
    }

    #[test]
    fn a_clause_needing_an_unforced_true_variable_defeats_it() {
        // Satisfiable (2 true), but not by the lucky assignment.
        assert_eq!(lucky_model(&formula(&[&[1], &[-1, 2]])), None);
        // Unsatisfiable formulas never get a model.
        assert_eq!(lucky_model(&formula(&[&[1], &[-1]])), None);
        assert_eq!(lucky_model(&formula(&[&[]])), None);
    }
}
