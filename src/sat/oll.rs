//! Core-guided minimisation (the OLL algorithm of Morgado, Dodaro and
//! Marques-Silva, 2014, unweighted): instead of lowering an upper bound
//! from a model, raise a lower bound from unsatisfiable cores.
//!
//! Every variable to minimise starts as an assumption "false". When the
//! assumptions fail, the failed core says "at least one of these is true":
//! the lower bound goes up by one, the core's assumptions are dropped, and a
//! totalizer over the core is assumed to count at most one (at most k+1 for
//! a totalizer output that was in the core). When the assumptions hold, the
//! model's count equals the lower bound: optimal. The last unsatisfiable
//! call is the proof that one fewer is impossible, in the reformulated
//! problem. On covers of large graphs this needs one small core per unit of
//! the optimum, where one totalizer over everything grows with n x k.
//!
//! # References
//! - A. Morgado, C. Dodaro, J. Marques-Silva: *Core-Guided MaxSAT with Soft
//!   Cardinality Constraints*, CP 2014.

use std::collections::HashMap;

use rustsat::encodings::card::Totalizer;
use rustsat::instances::BasicVarManager;
use rustsat::types::Var as RsVar;
use varisat::{CnfFormula, ExtendFormula, Lit, Solver, Var};

use super::optimize::{at_most, bound_clauses, counter};
use super::SatError;

/// How many times a core is solved again on its own to shrink it.
const TRIM_ROUNDS: usize = 3;

/// A model with the fewest true variables among `minimise`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreGuided {
    /// The model, over the formula's variables.
    pub model: Vec<Lit>,
    /// How many of the minimised variables it makes true: no model has fewer.
    pub cost: usize,
    /// Solver calls made (cores found, plus the last, satisfiable, call).
    pub calls: usize,
}

/// The state of the search: the solver, the totalizers made so far, the
/// current assumptions and the lower bound they prove.
struct Search<'a> {
    solver: Solver<'a>,
    vars: BasicVarManager,
    totalizers: Vec<Totalizer>,
    /// Assumption literal -> (totalizer, the bound it enforces).
    bound_of: HashMap<Lit, (usize, usize)>,
    assumptions: Vec<Lit>,
    lower: usize,
}

impl Search<'_> {
    /// Takes in a core (assumptions that cannot all hold): the bound goes up
    /// by one and the core's assumptions are relaxed.
    fn relax(&mut self, core: &[Lit]) -> Result<(), SatError> {
        self.lower += 1;
        let mut in_core: Vec<Lit> = core.to_vec();
        in_core.sort_unstable();
        self.assumptions
            .retain(|a| in_core.binary_search(a).is_err());
        // A totalizer output in the core may now count one more.
        for a in core {
            if let Some(&(t, k)) = self.bound_of.get(a) {
                self.assume_at_most(t, k + 1)?;
            }
        }
        if core.len() > 1 {
            // At least one of the core is violated; more than one costs more.
            let violated: Vec<Lit> = core.iter().map(|&a| !a).collect();
            self.totalizers.push(counter(&violated));
            self.assume_at_most(self.totalizers.len() - 1, 1)?;
        }
        Ok(())
    }

    /// Encodes "at most `k`" on totalizer `t` and assumes it.
    fn assume_at_most(&mut self, t: usize, k: usize) -> Result<(), SatError> {
        let tot = &mut self.totalizers[t];
        for clause in bound_clauses(tot, k, &mut self.vars)? {
            self.solver.add_clause(&clause);
        }
        for l in at_most(tot, k)? {
            self.bound_of.insert(l, (t, k));
            self.assumptions.push(l);
        }
        Ok(())
    }
}

/// Minimises how many of `minimise` are true in a model of `formula`;
/// `None` if the formula has no model.
///
/// Before the first solver call, every clause made only of minimised
/// variables, positively, is a core read off the formula ("one of these is
/// true"); disjoint ones are taken in at once. On covers of graphs this is a
/// greedy matching, and it leaves the solver only the cores it misses.
///
/// # Errors
/// [`SatError`] if varisat or the totalizer fails, or the final model's
/// count differs from the proven lower bound (a bug).
pub fn minimize_true(
    formula: &CnfFormula,
    minimise: &[Var],
) -> Result<Option<CoreGuided>, SatError> {
    let mut search = Search::new(formula, minimise);
    search.relax_cores_of(formula, minimise)?;
    let mut calls = 0;
    loop {
        search.solver.assume(&search.assumptions);
        calls += 1;
        if search.solver.solve().map_err(SatError::from)? {
            return search.optimum(formula, minimise, calls).map(Some);
        }
        let core: Vec<Lit> = search.solver.failed_core().unwrap_or(&[]).to_vec();
        if core.is_empty() {
            // Unsatisfiable without any assumption.
            return Ok(None);
        }
        let core = search.trimmed(core, &mut calls)?;
        search.relax(&core)?;
    }
}

/// The variables of `formula` and of `minimise`, which may name variables
/// no clause uses.
fn var_count(formula: &CnfFormula, minimise: &[Var]) -> usize {
    let known = minimise.iter().map(|v| v.index() + 1).max().unwrap_or(0);
    formula.var_count().max(known)
}

impl Search<'static> {
    /// A search over `formula` with every variable of `minimise` assumed false.
    fn new(formula: &CnfFormula, minimise: &[Var]) -> Search<'static> {
        let var_count = var_count(formula, minimise);
        let mut search = Search {
            solver: super::new_solver(),
            vars: BasicVarManager::from_next_free(RsVar::new(var_count as u32)),
            totalizers: Vec::new(),
            bound_of: HashMap::new(),
            assumptions: minimise.iter().map(|v| v.negative()).collect(),
            lower: 0,
        };
        search.solver.add_formula(formula);
        search
    }
}

impl Search<'_> {
    /// Takes in the cores written in the formula: disjoint clauses made
    /// only of minimised variables, positively.
    fn relax_cores_of(&mut self, formula: &CnfFormula, minimise: &[Var]) -> Result<(), SatError> {
        let mut free = vec![false; var_count(formula, minimise)];
        for v in minimise {
            free[v.index()] = true;
        }
        let mut core = Vec::new();
        for clause in formula.iter() {
            if !clause.is_empty() && clause.iter().all(|l| l.is_positive() && free[l.index()]) {
                core.clear();
                for l in clause {
                    free[l.index()] = false;
                    core.push(!*l);
                }
                self.relax(&core)?;
            }
        }
        Ok(())
    }

    /// The model just found, checked to count what the bound proves.
    fn optimum(
        &self,
        formula: &CnfFormula,
        minimise: &[Var],
        calls: usize,
    ) -> Result<CoreGuided, SatError> {
        let mut model = self.solver.model().unwrap_or_default();
        model.truncate(formula.var_count());
        let cost = minimise
            .iter()
            .filter(|v| model.get(v.index()).is_some_and(|l| l.is_positive()))
            .count();
        if cost != self.lower {
            return Err(SatError::Inconsistent(format!(
                "core-guided search: the model has {cost} but the bound proves {}",
                self.lower
            )));
        }
        Ok(CoreGuided { model, cost, calls })
    }

    /// `core` made smaller by solving under it alone (small cores keep the
    /// totalizers small), counting the calls.
    fn trimmed(&mut self, mut core: Vec<Lit>, calls: &mut usize) -> Result<Vec<Lit>, SatError> {
        for _ in 0..TRIM_ROUNDS {
            self.solver.assume(&core);
            *calls += 1;
            if self.solver.solve().map_err(SatError::from)? {
                return Err(SatError::Inconsistent(
                    "core-guided search: a core was satisfiable".into(),
                ));
            }
            let smaller = self.solver.failed_core().unwrap_or(&[]).to_vec();
            if smaller.len() >= core.len() {
                break;
            }
            core = smaller;
        }
        Ok(core)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cover_of_path(n: usize) -> (CnfFormula, Vec<Var>) {
        let mut f = CnfFormula::new();
        for i in 1..n {
            f.add_clause(&[
                Var::from_index(i - 1).positive(),
                Var::from_index(i).positive(),
            ]);
        }
        (f, (0..n).map(Var::from_index).collect())
    }

    #[test]
    fn finds_the_smallest_cover_of_paths() {
        for n in 1..12 {
            let (f, vars) = cover_of_path(n);
            let best = minimize_true(&f, &vars).unwrap().unwrap();
            assert_eq!(best.cost, n / 2, "path of {n}");
            assert!(f
                .iter()
                .all(|c| c.iter().any(|l| best.model[l.index()] == *l)));
        }
    }

    #[test]
    fn unsatisfiable_formulas_have_no_minimum() {
        let l = Lit::from_dimacs;
        let f = CnfFormula::from([[l(1)], [l(-1)]]);
        assert_eq!(minimize_true(&f, &[Var::from_index(0)]).unwrap(), None);
    }
}
