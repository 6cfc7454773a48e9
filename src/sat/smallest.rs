//! The smallest unsatisfiable subset of assumptions: the fewest rules that
//! cannot all hold, not only a set from which none can be dropped.
//!
//! A minimal core (`core.rs`) is minimal by deletion: which one it finds
//! depends on the order it drops rules in, and a conflict over several
//! plies may hide a smaller one inside a single ply. The smallest is
//! found by implicit hitting sets: every satisfiable set of rules `S`
//! says that every conflict holds a rule outside `S` (a correction set);
//! the smallest set that meets every correction set found so far is the
//! next candidate. If it is unsatisfiable, no smaller conflict exists (a
//! conflict must meet every correction set, and nothing smaller does);
//! if not, it is grown to a larger satisfiable set, whose complement is
//! one more correction set. The hitting sets are found by a second SAT
//! solver with a cardinality bound ([`Optimizer`]).

use std::time::Instant;

use rustsat::encodings::card::Totalizer;
use varisat::{Lit, Solver};

use super::optimize::Optimizer;
use super::SatError;

/// What [`smallest_core_within`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmallestCore {
    /// An unsatisfiable subset of the candidates.
    pub core: Vec<Lit>,
    /// No subset with fewer assumptions is unsatisfiable: the search
    /// finished before its deadline.
    pub proved: bool,
}

/// How a set of assumptions fares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Satisfiable,
    Unsatisfiable,
    /// Unsatisfiable only with the limits: proves nothing either way.
    Unknown,
}

/// The main solver asked about subsets of the candidates.
struct Oracle<'s, 'f> {
    solver: &'s mut Solver<'f>,
    fixed: &'s [Lit],
    limits: &'s [Lit],
}

impl Oracle<'_, '_> {
    fn check(&mut self, kept: &[Lit]) -> Result<Verdict, SatError> {
        let mut assumptions = self.fixed.to_vec();
        assumptions.extend_from_slice(self.limits);
        assumptions.extend_from_slice(kept);
        self.solver.assume(&assumptions);
        if self.solver.solve().map_err(SatError::from)? {
            return Ok(Verdict::Satisfiable);
        }
        let failed = self.solver.failed_core().unwrap_or(&[]);
        Ok(if self.limits.iter().any(|l| failed.contains(l)) {
            Verdict::Unknown
        } else {
            Verdict::Unsatisfiable
        })
    }

    /// `base` (satisfiable) with as many of `rest` added as keep it so,
    /// tried in halves: a large satisfiable set, whose complement is a
    /// small correction set.
    fn grow(
        &mut self,
        base: Vec<Lit>,
        rest: Vec<Lit>,
        deadline: Option<Instant>,
    ) -> Result<Vec<Lit>, SatError> {
        let mut kept = base;
        let mut pending = vec![rest];
        while let Some(chunk) = pending.pop() {
            if chunk.is_empty() || deadline.is_some_and(|d| Instant::now() >= d) {
                continue;
            }
            let trial: Vec<Lit> = kept.iter().chain(&chunk).copied().collect();
            if self.check(&trial)? == Verdict::Satisfiable {
                kept = trial;
            } else if chunk.len() > 1 {
                let (a, b) = chunk.split_at(chunk.len() / 2);
                pending.push(b.to_vec());
                pending.push(a.to_vec());
            }
        }
        Ok(kept)
    }
}

/// The smallest unsatisfiable subset of `candidates` (with `fixed` and
/// `limits` assumed too, as [`super::minimal_core_within`] does), starting
/// from the unsatisfiable subset `start`, which is returned when nothing
/// smaller is found by `deadline` (then not proved).
///
/// # Errors
/// varisat's errors.
pub fn smallest_core_within(
    solver: &mut Solver<'_>,
    fixed: &[Lit],
    limits: &[Lit],
    candidates: &[Lit],
    start: Vec<Lit>,
    deadline: Option<Instant>,
) -> Result<SmallestCore, SatError> {
    let mut oracle = Oracle {
        solver,
        fixed,
        limits,
    };
    // The start must be a conflict under these limits, or none at all.
    if oracle.check(&start)? != Verdict::Unsatisfiable {
        oracle.limits = &[];
    }
    let found = search(&mut oracle, candidates, start, deadline);
    oracle.solver.assume(&[]);
    found
}

/// The hitting-set loop behind [`smallest_core_within`].
fn search(
    oracle: &mut Oracle<'_, '_>,
    candidates: &[Lit],
    mut best: Vec<Lit>,
    deadline: Option<Instant>,
) -> Result<SmallestCore, SatError> {
    let mut hitting = HittingSets::over(candidates);
    let mut bound = 1;
    let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d);
    while bound < best.len() {
        if out_of_time() {
            return Ok(SmallestCore {
                core: best,
                proved: false,
            });
        }
        let Some(chosen) = hitting.pick(bound)? else {
            // No set of `bound` rules meets every correction set.
            bound += 1;
            continue;
        };
        match oracle.check(&chosen)? {
            Verdict::Unsatisfiable => {
                best = chosen;
                break;
            }
            Verdict::Unknown => hitting.never(&chosen),
            Verdict::Satisfiable => {
                let kept = oracle.grow_all(candidates, chosen, deadline)?;
                hitting.meet_all_but(&kept);
            }
        }
    }
    Ok(SmallestCore {
        core: best,
        proved: true,
    })
}

/// The sets of candidates still possible as a smallest core: each must meet
/// every correction set found, and none is a set the oracle could not decide.
struct HittingSets<'c> {
    candidates: &'c [Lit],
    optimizer: Optimizer,
    /// Variable i + 1 stands for candidates[i].
    inputs: Vec<Lit>,
    count: Totalizer,
}

impl<'c> HittingSets<'c> {
    fn over(candidates: &'c [Lit]) -> HittingSets<'c> {
        let n = candidates.len();
        let mut optimizer = Optimizer::new(&varisat::CnfFormula::new(), n);
        let inputs: Vec<Lit> = (1..=n).map(|v| Lit::from_dimacs(v as isize)).collect();
        let count = optimizer.counter(&inputs);
        HittingSets {
            candidates,
            optimizer,
            inputs,
            count,
        }
    }

    /// A set of at most `bound` candidates that meets every correction set.
    fn pick(&mut self, bound: usize) -> Result<Option<Vec<Lit>>, SatError> {
        let at_most = self.optimizer.at_most(&mut self.count, bound)?;
        let Some(model) = self.optimizer.solve(&at_most)? else {
            return Ok(None);
        };
        let picked = (0..self.candidates.len())
            .filter(|&i| model.get(i).is_some_and(|l| l.is_positive()))
            .map(|i| self.candidates[i])
            .collect();
        Ok(Some(picked))
    }

    /// Not `chosen` again (nor a set holding it).
    fn never(&mut self, chosen: &[Lit]) {
        let clause: Vec<Lit> = chosen
            .iter()
            .filter_map(|&l| self.candidates.iter().position(|c| *c == l))
            .map(|i| !self.inputs[i])
            .collect();
        self.optimizer.add_clause(&clause);
    }

    /// Every set from now on takes a candidate outside `kept`.
    fn meet_all_but(&mut self, kept: &[Lit]) {
        let correction: Vec<Lit> = (0..self.candidates.len())
            .filter(|&i| !kept.contains(&self.candidates[i]))
            .map(|i| self.inputs[i])
            .collect();
        self.optimizer.add_clause(&correction);
    }
}

impl Oracle<'_, '_> {
    /// `chosen`, which holds together, grown by as many of the other
    /// candidates as still hold with it: what is left out is a
    /// correction set, which every core must meet.
    fn grow_all(
        &mut self,
        candidates: &[Lit],
        chosen: Vec<Lit>,
        deadline: Option<Instant>,
    ) -> Result<Vec<Lit>, SatError> {
        let rest: Vec<Lit> = candidates
            .iter()
            .copied()
            .filter(|c| !chosen.contains(c))
            .collect();
        self.grow(chosen, rest, deadline)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use varisat::{CnfFormula, ExtendFormula};

    #[test]
    fn the_smallest_core_beats_a_minimal_one() {
        // Selectors 10..=14 switch on: 10: x1, 11: x2, 12: x3,
        // 13: (¬x1 ∨ ¬x2 ∨ ¬x3), 14: ¬x1. Both {10, 11, 12, 13} and
        // {10, 14} are minimal conflicts; the smallest is {10, 14}.
        let l = Lit::from_dimacs;
        let mut f = CnfFormula::new();
        f.add_clause(&[l(-10), l(1)]);
        f.add_clause(&[l(-11), l(2)]);
        f.add_clause(&[l(-12), l(3)]);
        f.add_clause(&[l(-13), l(-1), l(-2), l(-3)]);
        f.add_clause(&[l(-14), l(-1)]);
        let mut solver = Solver::new();
        solver.add_formula(&f);
        let candidates = [l(10), l(11), l(12), l(13), l(14)];
        let start = vec![l(10), l(11), l(12), l(13)];
        let found = smallest_core_within(&mut solver, &[], &[], &candidates, start, None).unwrap();
        assert!(found.proved);
        let mut core = found.core;
        core.sort();
        assert_eq!(core, vec![l(10), l(14)]);
        // A start that is the smallest already is kept, proved.
        let kept =
            smallest_core_within(&mut solver, &[], &[], &candidates, vec![l(14), l(10)], None)
                .unwrap();
        assert_eq!(kept.core.len(), 2);
        assert!(kept.proved);
    }
}
