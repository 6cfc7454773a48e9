//! Minimising a count of true literals: rustsat's incremental totalizer over
//! the literals, one varisat solver, and bounds given as assumptions (see
//! `encodings/cardinality.md`).
//!
//! The totalizer's clauses are added once; each bound `count <= k` is then a
//! few assumption literals, so every call reuses all the solver has learnt.
//! [`Optimizer::minimize`] lowers the bound below each model found until the
//! solver says unsatisfiable: that last call, one below the value returned,
//! is the proof of optimality.

use rustsat::encodings::card::{BoundUpper, BoundUpperIncremental, Totalizer};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Lit as RsLit, Var as RsVar};
use varisat::{CnfFormula, ExtendFormula, Lit, Solver, Var};

use super::SatError;

/// A varisat literal as rustsat's.
pub fn to_rs(l: Lit) -> RsLit {
    RsLit::new(l.index() as u32, l.is_negative())
}

/// A rustsat literal as varisat's.
pub fn from_rs(l: RsLit) -> Lit {
    Var::from_index(l.var().idx()).lit(!l.is_neg())
}

fn totalizer_failed(e: impl std::fmt::Display) -> SatError {
    SatError::Totalizer(e.to_string())
}

/// A totalizer over `inputs` encoded for every bound, its fresh variables
/// taken from `vars`; returns it with its clauses.
///
/// # Errors
/// [`SatError`] if rustsat refuses the encoding.
pub fn totalizer(
    inputs: &[Lit],
    vars: &mut BasicVarManager,
) -> Result<(Totalizer, Vec<Vec<Lit>>), SatError> {
    let mut tot: Totalizer = inputs.iter().map(|&l| to_rs(l)).collect();
    let mut cnf = Cnf::new();
    tot.encode_ub(0..=inputs.len(), &mut cnf, vars)
        .map_err(totalizer_failed)?;
    let clauses = cnf
        .into_iter()
        .map(|clause| clause.iter().map(|&l| from_rs(l)).collect())
        .collect();
    Ok((tot, clauses))
}

/// A totalizer over `inputs` with no bound encoded yet (see [`bound_clauses`]).
pub fn counter(inputs: &[Lit]) -> Totalizer {
    inputs.iter().map(|&l| to_rs(l)).collect()
}

/// The clauses `tot` still lacks to bound its count to `k`, with fresh
/// variables from `vars` (none when that bound is encoded already).
///
/// # Errors
/// [`SatError`] if rustsat refuses the encoding.
pub fn bound_clauses(
    tot: &mut Totalizer,
    k: usize,
    vars: &mut BasicVarManager,
) -> Result<Vec<Vec<Lit>>, SatError> {
    let mut cnf = Cnf::new();
    tot.encode_ub_change(k..=k, &mut cnf, vars)
        .map_err(totalizer_failed)?;
    Ok(cnf
        .into_iter()
        .map(|clause| clause.iter().map(|&l| from_rs(l)).collect())
        .collect())
}

/// The assumptions that say "at most `k` inputs of `tot` are true".
///
/// # Errors
/// [`SatError`] if `tot` was not encoded for `k`.
pub fn at_most(tot: &Totalizer, k: usize) -> Result<Vec<Lit>, SatError> {
    Ok(tot
        .enforce_ub(k)
        .map_err(totalizer_failed)?
        .into_iter()
        .map(from_rs)
        .collect())
}

/// A varisat solver holding a formula, with room for totalizers.
pub struct Optimizer {
    solver: Solver<'static>,
    vars: BasicVarManager,
    /// Assumptions every call makes (caps that always hold).
    fixed: Vec<Lit>,
    solves: usize,
}

impl std::fmt::Debug for Optimizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Optimizer")
            .field("fixed", &self.fixed)
            .field("solves", &self.solves)
            .finish_non_exhaustive()
    }
}

impl Optimizer {
    /// A solver loaded with `formula`; new variables start after
    /// `var_count` (or after the formula's, if larger).
    pub fn new(formula: &CnfFormula, var_count: usize) -> Optimizer {
        let mut solver = super::new_solver();
        solver.add_formula(formula);
        let next = formula.var_count().max(var_count) as u32;
        Optimizer {
            solver,
            vars: BasicVarManager::from_next_free(RsVar::new(next)),
            fixed: Vec::new(),
            solves: 0,
        }
    }

    /// A variable no clause uses yet.
    pub fn new_lit(&mut self) -> Lit {
        from_rs(self.vars.new_var().pos_lit())
    }

    /// Adds a clause for every later call.
    pub fn add_clause(&mut self, clause: &[Lit]) {
        self.solver.add_clause(clause);
    }

    /// Makes every later call assume `lits`.
    pub fn fix(&mut self, lits: impl IntoIterator<Item = Lit>) {
        self.fixed.extend(lits);
    }

    /// The first variable neither the formula nor a totalizer uses.
    pub fn next_free_var(&self) -> usize {
        self.vars.n_used() as usize
    }

    /// Variables below `count` are in use (added by someone else).
    pub fn claim_vars(&mut self, count: usize) {
        if let Ok(count) = u32::try_from(count) {
            self.vars.increase_next_free(RsVar::new(count));
        }
    }

    /// The assumptions the last unsatisfiable call failed on.
    pub fn failed_core(&self) -> Vec<Lit> {
        self.solver
            .failed_core()
            .map(<[Lit]>::to_vec)
            .unwrap_or_default()
    }

    /// Solver calls made so far.
    pub fn solves(&self) -> usize {
        self.solves
    }

    /// A totalizer over `inputs`, its clauses added to the solver.
    ///
    /// # Errors
    /// [`SatError`] if rustsat refuses the encoding.
    pub fn totalizer(&mut self, inputs: &[Lit]) -> Result<Totalizer, SatError> {
        let (tot, clauses) = totalizer(inputs, &mut self.vars)?;
        for clause in clauses {
            self.solver.add_clause(&clause);
        }
        Ok(tot)
    }

    /// A totalizer over `inputs` with no bound encoded yet: [`Optimizer::at_most`]
    /// adds the clauses of each bound when it is first asked for, so a
    /// search that only goes down from a good model never pays for the
    /// bounds above it (a full totalizer has a quadratic number of clauses).
    pub fn counter(&mut self, inputs: &[Lit]) -> Totalizer {
        counter(inputs)
    }

    /// The assumptions that say "at most `k` inputs of `tot` are true",
    /// encoding that bound first if it is not yet.
    ///
    /// # Errors
    /// [`SatError`] if rustsat refuses the encoding.
    pub fn at_most(&mut self, tot: &mut Totalizer, k: usize) -> Result<Vec<Lit>, SatError> {
        for clause in bound_clauses(tot, k, &mut self.vars)? {
            self.solver.add_clause(&clause);
        }
        at_most(tot, k)
    }

    /// Solves with the fixed and `extra` assumptions; the model if satisfiable.
    ///
    /// # Errors
    /// [`SatError`] if varisat fails.
    pub fn solve(&mut self, extra: &[Lit]) -> Result<Option<Vec<Lit>>, SatError> {
        let mut assumptions = self.fixed.clone();
        assumptions.extend_from_slice(extra);
        self.solver.assume(&assumptions);
        self.solves += 1;
        let sat = self.solver.solve().map_err(SatError::from)?;
        Ok(sat.then(|| self.solver.model().unwrap_or_default()))
    }

    /// Lowers `count(model)` from `best`'s value while the solver finds
    /// models with fewer (under the `keep` assumptions too); returns the
    /// best model. The last call, one below the returned count, was
    /// unsatisfiable: that is the proof of optimality.
    ///
    /// # Errors
    /// [`SatError`] if varisat or the totalizer fails.
    pub fn minimize(
        &mut self,
        tot: &mut Totalizer,
        mut best: Vec<Lit>,
        count: impl Fn(&[Lit]) -> usize,
        keep: &[Lit],
    ) -> Result<Vec<Lit>, SatError> {
        while count(&best) > 0 {
            let mut assumptions = self.at_most(tot, count(&best) - 1)?;
            assumptions.extend_from_slice(keep);
            match self.solve(&assumptions)? {
                Some(model) if count(&model) < count(&best) => best = model,
                Some(_) => {
                    return Err(SatError::Inconsistent(
                        "a lower bound gave no lower count: the count does not read the totalizer's inputs".into(),
                    ))
                }
                None => break,
            }
        }
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimises_a_count_under_clauses_and_proves_the_bound() {
        // Cover the path 1-2-3-4 (edges 12, 23, 34): the fewest vertices is 2.
        let l = Lit::from_dimacs;
        let f = CnfFormula::from([[l(1), l(2)], [l(2), l(3)], [l(3), l(4)]]);
        let mut opt = Optimizer::new(&f, 4);
        let inputs: Vec<Lit> = (1..=4).map(l).collect();
        let count = |m: &[Lit]| m[..4].iter().filter(|x| x.is_positive()).count();
        // Fully encoded, and lazily encoded: the same optimum.
        let mut tot = opt.totalizer(&inputs).unwrap();
        let first = opt.solve(&[]).unwrap().unwrap();
        let best = opt.minimize(&mut tot, first.clone(), count, &[]).unwrap();
        assert_eq!(count(&best), 2);
        assert_eq!(opt.solve(&at_most(&tot, 1).unwrap()).unwrap(), None);
        let mut lazy = opt.counter(&inputs);
        assert!(at_most(&lazy, 1).is_err(), "nothing is encoded yet");
        let best = opt.minimize(&mut lazy, first, count, &[]).unwrap();
        assert_eq!(count(&best), 2);
    }
}
