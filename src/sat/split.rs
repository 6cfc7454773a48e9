//! Splitting a formula into parts that share no variable, so each can be
//! solved (and optimised) on its own: the minimum of a sum of independent
//! counts is the sum of their minima.

use varisat::{CnfFormula, ExtendFormula, Lit, Var};

/// One independent part of a formula, renumbered densely.
#[derive(Debug)]
pub struct Part {
    /// The part's clauses over variables `0..vars.len()`.
    pub formula: CnfFormula,
    /// The original variable of each of the part's variables.
    pub vars: Vec<Var>,
}

fn root(parent: &mut [u32], mut v: u32) -> u32 {
    while parent[v as usize] != v {
        let up = parent[parent[v as usize] as usize];
        parent[v as usize] = up;
        v = up;
    }
    v
}

/// The parts of `formula` (variables joined when a clause holds both), in
/// the order of their first variable. Variables in no clause belong to no
/// part; an empty clause makes a part of its own with no variables.
pub fn split(formula: &CnfFormula) -> Vec<Part> {
    let count = formula.var_count();
    let mut parent: Vec<u32> = (0..count as u32).collect();
    let mut used = vec![false; count];
    for clause in formula.iter() {
        let Some(first) = clause.first() else {
            continue;
        };
        let a = root(&mut parent, first.index() as u32);
        used[first.index()] = true;
        for l in &clause[1..] {
            used[l.index()] = true;
            let b = root(&mut parent, l.index() as u32);
            if a != b {
                parent[b as usize] = a;
            }
        }
    }
    let mut part_of_root = vec![u32::MAX; count];
    let mut local = vec![0u32; count];
    let mut parts: Vec<Part> = Vec::new();
    for v in 0..count {
        if !used[v] {
            continue;
        }
        let r = root(&mut parent, v as u32) as usize;
        if part_of_root[r] == u32::MAX {
            part_of_root[r] = parts.len() as u32;
            parts.push(Part {
                formula: CnfFormula::new(),
                vars: Vec::new(),
            });
        }
        let part = &mut parts[part_of_root[r] as usize];
        local[v] = part.vars.len() as u32;
        part.vars.push(Var::from_index(v));
    }
    let mut lits = Vec::new();
    for clause in formula.iter() {
        let Some(first) = clause.first() else {
            let mut empty = CnfFormula::new();
            empty.add_clause(&[]);
            parts.push(Part {
                formula: empty,
                vars: Vec::new(),
            });
            continue;
        };
        let r = root(&mut parent, first.index() as u32) as usize;
        lits.clear();
        lits.extend(
            clause
                .iter()
                .map(|l| Var::from_index(local[l.index()] as usize).lit(l.is_positive())),
        );
        parts[part_of_root[r] as usize].formula.add_clause(&lits);
    }
    parts
}

/// The value of every original variable in `model` of `part`, as literals
/// of the original formula.
pub fn lift(part: &Part, model: &[Lit]) -> Vec<Lit> {
    model
        .iter()
        .map(|l| part.vars[l.index()].lit(l.is_positive()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_sharing_no_variable_fall_apart() {
        let l = Lit::from_dimacs;
        let f = CnfFormula::from([vec![l(1), l(3)], vec![l(2)], vec![l(-3), l(5)]]);
        let parts = split(&f);
        assert_eq!(parts.len(), 2);
        let vars = |p: &Part| p.vars.iter().map(|v| v.to_dimacs()).collect::<Vec<_>>();
        assert_eq!(vars(&parts[0]), [1, 3, 5]);
        assert_eq!(vars(&parts[1]), [2]);
        assert_eq!(parts[0].formula.len(), 2);
        // Part-local literals map back to the original ones.
        let model = [l(1), l(-2), l(3)];
        assert_eq!(lift(&parts[0], &model), [l(1), l(-3), l(5)]);
    }
}
