//! Unit propagation before solving: the values unit clauses force, and the
//! formula that is left once they are known.

use varisat::{CnfFormula, ExtendFormula, Lit};

/// A clause under a partial assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ClauseState {
    /// Some literal is true.
    Satisfied,
    /// Every literal is false.
    Falsified,
    /// Exactly one literal is unassigned and the rest are false.
    Unit(Lit),
    /// Two or more literals are unassigned.
    Open,
}

/// The state of `clause` when `value` gives each literal's value, if any.
pub(crate) fn clause_state(clause: &[Lit], value: impl Fn(Lit) -> Option<bool>) -> ClauseState {
    let mut unassigned = None;
    let mut open = 0;
    for &l in clause {
        match value(l) {
            Some(true) => return ClauseState::Satisfied,
            Some(false) => {}
            None => {
                open += 1;
                unassigned = Some(l);
            }
        }
    }
    match (open, unassigned) {
        (0, _) => ClauseState::Falsified,
        (1, Some(l)) => ClauseState::Unit(l),
        _ => ClauseState::Open,
    }
}

/// What unit propagation leaves of a formula.
#[derive(Debug)]
pub struct Propagated {
    /// The forced value of each variable, `None` where units force nothing.
    pub fixed: Vec<Option<bool>>,
    /// The clauses not yet satisfied, without their false literals (over
    /// the same variables as the input).
    pub rest: CnfFormula,
}

/// Propagates unit clauses to a fixpoint; `None` if that reaches a
/// conflict (the formula is unsatisfiable).
pub fn propagate_units(formula: &CnfFormula) -> Option<Propagated> {
    let count = formula.var_count();
    let mut fixed: Vec<Option<bool>> = vec![None; count];
    let clauses: Vec<&[Lit]> = formula.iter().collect();
    // Clauses by variable, to revisit only those a new value touches.
    let mut occurs: Vec<Vec<u32>> = vec![Vec::new(); count];
    let mut queue = Vec::new();
    for (i, clause) in clauses.iter().enumerate() {
        for l in clause.iter() {
            occurs[l.index()].push(i as u32);
        }
        match clause {
            [] => return None,
            [unit] => queue.push(*unit),
            _ => {}
        }
    }
    let value = |fixed: &[Option<bool>], l: Lit| fixed[l.index()].map(|v| v == l.is_positive());
    while let Some(unit) = queue.pop() {
        match value(&fixed, unit) {
            Some(true) => continue,
            Some(false) => return None,
            None => fixed[unit.index()] = Some(unit.is_positive()),
        }
        for &c in &occurs[unit.index()] {
            match clause_state(clauses[c as usize], |l| value(&fixed, l)) {
                ClauseState::Falsified => return None,
                ClauseState::Unit(l) => queue.push(l),
                ClauseState::Satisfied | ClauseState::Open => {}
            }
        }
    }
    let mut rest = CnfFormula::new();
    rest.set_var_count(count);
    let mut lits = Vec::new();
    for clause in clauses {
        if clause.iter().any(|&l| value(&fixed, l) == Some(true)) {
            continue;
        }
        lits.clear();
        lits.extend(
            clause
                .iter()
                .copied()
                .filter(|&l| value(&fixed, l).is_none()),
        );
        rest.add_clause(&lits);
    }
    Some(Propagated { fixed, rest })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_spread_and_satisfied_clauses_go() {
        let l = Lit::from_dimacs;
        let f = CnfFormula::from([
            vec![l(-1)],
            vec![l(1), l(2)],
            vec![l(2), l(3), l(4)],
            vec![l(-2), l(3), l(5)],
        ]);
        let p = propagate_units(&f).unwrap();
        assert_eq!(&p.fixed[..3], [Some(false), Some(true), None]);
        let rest: Vec<Vec<Lit>> = p.rest.iter().map(|c| c.to_vec()).collect();
        assert_eq!(rest, vec![vec![l(3), l(5)]]);
        assert!(propagate_units(&CnfFormula::from([
            vec![l(1)],
            vec![l(-1), l(2)],
            vec![l(-2)]
        ]))
        .is_none());
    }
}
