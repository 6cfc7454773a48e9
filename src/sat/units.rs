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

/// Whether unit propagation alone reaches a conflict in `formula`, so that
/// it is unsatisfiable: [`propagate_units`]'s `None`, without building what
/// is left, for callers that refute thousands of formulas (the repair's
/// window search: most of its impossible records fall to this, and a
/// solver costs more to load than this costs to run).
pub fn refuted_by_units(formula: &CnfFormula) -> bool {
    let clauses: Vec<&[Lit]> = formula.iter().collect();
    if clauses.iter().any(|c| c.is_empty()) {
        return true;
    }
    let mut queue: Vec<Lit> = clauses
        .iter()
        .filter_map(|c| match c {
            [unit] => Some(*unit),
            _ => None,
        })
        .collect();
    let (lists, open) = Occurrences::of(&clauses, formula.var_count());
    let mut state = UnitState {
        value: vec![None; formula.var_count()],
        open,
        satisfied: vec![false; clauses.len()],
    };
    while let Some(unit) = queue.pop() {
        match state.value[unit.index()] {
            Some(v) if v == unit.is_positive() => continue,
            Some(_) => return true,
            None => state.value[unit.index()] = Some(unit.is_positive()),
        }
        for &c in lists.clauses_with(unit) {
            state.satisfied[c as usize] = true;
        }
        for &c in lists.clauses_with(!unit) {
            let c = c as usize;
            state.open[c] -= 1;
            if state.satisfied[c] {
                continue;
            }
            match state.open[c] {
                0 => return true,
                1 => queue.extend(state.unassigned(clauses[c])),
                _ => {}
            }
        }
    }
    false
}

/// Each literal's clauses, all in one array: those of the literal with
/// code `k` are `occurs[first[k]..end[k]]`.
struct Occurrences {
    first: Vec<u32>,
    end: Vec<u32>,
    occurs: Vec<u32>,
}

impl Occurrences {
    /// The lists of `clauses` over `var_count` variables, and how many
    /// distinct literals each clause has (a literal twice in a clause is
    /// listed once, and counted once).
    fn of(clauses: &[&[Lit]], var_count: usize) -> (Occurrences, Vec<u32>) {
        let mut first = vec![0u32; 2 * var_count + 1];
        for l in clauses.iter().flat_map(|c| c.iter()) {
            first[l.code() + 1] += 1;
        }
        for code in 1..first.len() {
            first[code] += first[code - 1];
        }
        let mut occurs = vec![0u32; first[first.len() - 1] as usize];
        let mut end = first.clone();
        let mut open = vec![0u32; clauses.len()];
        for (c, clause) in clauses.iter().enumerate() {
            for l in clause.iter() {
                let at = end[l.code()] as usize;
                if at > first[l.code()] as usize && occurs[at - 1] == c as u32 {
                    continue;
                }
                occurs[at] = c as u32;
                end[l.code()] += 1;
                open[c] += 1;
            }
        }
        (Occurrences { first, end, occurs }, open)
    }

    /// The clauses `l` is in.
    fn clauses_with(&self, l: Lit) -> &[u32] {
        &self.occurs[self.first[l.code()] as usize..self.end[l.code()] as usize]
    }
}

/// The assignment [`refuted_by_units`] builds: each variable's value, and
/// each clause's literals not yet false and whether one is true.
struct UnitState {
    value: Vec<Option<bool>>,
    open: Vec<u32>,
    satisfied: Vec<bool>,
}

impl UnitState {
    /// The literal of `clause` with no value yet (a clause with one left
    /// and none true has exactly one).
    fn unassigned(&self, clause: &[Lit]) -> Option<Lit> {
        clause
            .iter()
            .copied()
            .find(|l| self.value[l.index()].is_none())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether some assignment satisfies `clauses` (every one tried).
    fn satisfiable(clauses: &[Vec<Lit>], vars: usize) -> bool {
        (0..1u32 << vars).any(|bits| {
            let truth = |l: &Lit| (bits >> l.index() & 1 == 1) == l.is_positive();
            clauses.iter().all(|c| c.iter().any(truth))
        })
    }

    /// Random formulas of 2 and 3 literals over few variables, with unit
    /// clauses: refuted only when unsatisfiable, and exactly when
    /// [`propagate_units`] finds the conflict where no clause names a
    /// literal twice (there it may miss a unit this finds).
    #[test]
    fn refuted_by_units_is_sound_and_agrees_with_propagate_units() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut below = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let (mut refuted, mut open) = (0, 0);
        for _ in 0..2000 {
            let vars = 3 + below(8) as usize;
            let mut clauses: Vec<Vec<Lit>> = Vec::new();
            let (units, longer) = (2 + below(4), below(3 * vars as u64));
            for n in 0..units + longer {
                let len = if n < units { 1 } else { 2 + below(2) };
                let clause = (0..len).map(|_| {
                    let v = 1 + below(vars as u64) as isize;
                    Lit::from_dimacs(if below(2) == 0 { v } else { -v })
                });
                clauses.push(clause.collect());
            }
            let twice = clauses
                .iter()
                .any(|c| (1..c.len()).any(|i| c[..i].contains(&c[i])));
            let formula = CnfFormula::from(clauses.clone());
            let got = refuted_by_units(&formula);
            assert!(!got || !satisfiable(&clauses, vars), "{clauses:?}");
            if !twice {
                assert_eq!(got, propagate_units(&formula).is_none(), "{clauses:?}");
            }
            if got {
                refuted += 1;
            } else {
                open += 1;
            }
        }
        assert!(
            refuted > 200 && open > 200,
            "{refuted} refuted, {open} open"
        );
    }

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
