//! Minimal unsatisfiable subsets of assumptions (deletion-based core
//! minimisation), the tool behind every "these rules cannot all hold".

use varisat::{Lit, Solver};

/// Shrinks an unsatisfiable set of assumptions to a minimal one: every
/// assumption left is needed (dropping any one makes the rest satisfiable).
/// `fixed` assumptions are always kept and never reported. `None` if
/// `fixed` and `candidates` together are satisfiable.
///
/// # Errors
/// varisat's errors.
pub fn minimal_core(
    solver: &mut Solver<'_>,
    fixed: &[Lit],
    candidates: &[Lit],
) -> Result<Option<Vec<Lit>>, varisat::solver::SolverError> {
    minimal_core_within(solver, fixed, &[], candidates, None)
}

/// [`minimal_core`] where every call also assumes `limits`: assumptions
/// that make the formula smaller but are not facts (a damaged ply's
/// capture steps not written yet). A call whose failure involves a limit
/// proves nothing, so the assumption it tried to drop is kept: the core
/// returned is unsatisfiable without the limits, and minimal as far as
/// the limited calls could tell. If even the first call needs a limit,
/// the limits are left out altogether.
///
/// The core is first trimmed (solved again on its own failed core while
/// that shrinks it), then shrunk one assumption at a time. Past
/// `deadline`, the shrinking stops: the core returned is still
/// unsatisfiable, but maybe not minimal (hard damaged records, where
/// each trial is a hard solve). A solver from
/// [`new_budgeted_solver`](super::new_budgeted_solver) stops a trial at
/// `deadline` too, and then cannot solve again.
///
/// # Errors
/// varisat's errors.
pub fn minimal_core_within(
    solver: &mut Solver<'_>,
    fixed: &[Lit],
    limits: &[Lit],
    candidates: &[Lit],
    deadline: Option<std::time::Instant>,
) -> Result<Option<Vec<Lit>>, varisat::solver::SolverError> {
    let unsat_core = |solver: &mut Solver<'_>, limits: &[Lit], kept: &[Lit]| {
        unsat_core(solver, (fixed, limits), kept)
    };
    let (mut core, limits) = match unsat_core(solver, limits, candidates)? {
        Ok(core) => (core, limits),
        Err(false) => match unsat_core(solver, &[], candidates)? {
            Ok(core) => (core, &[][..]),
            Err(_) => return Ok(None),
        },
        Err(true) => return Ok(None),
    };
    // A shrinking trial runs under the deadline: a solver that follows it
    // (`new_budgeted_solver`) stops there, and the core so far stands.
    // Past a deadline of the caller's own, its error is the caller's.
    let trial_core = |solver: &mut Solver<'_>, kept: &[Lit]| match super::under(deadline, || {
        unsat_core(solver, limits, kept)
    }) {
        Err(e) if super::stopped_by_deadline(&e) && !super::out_of_time() => Ok(None),
        other => other.map(Some),
    };
    while let Some(Ok(smaller)) = trial_core(solver, &core)? {
        if smaller.len() >= core.len() {
            break;
        }
        core = smaller;
    }
    let mut i = 0;
    while i < core.len() && deadline.is_none_or(|d| std::time::Instant::now() < d) {
        let mut trial = core.clone();
        trial.remove(i);
        match trial_core(solver, &trial)? {
            // Still impossible without it: it was not needed.
            Some(Ok(smaller)) => core = smaller,
            Some(Err(_)) => i += 1,
            None => break,
        }
    }
    solver.assume(&[]);
    Ok(Some(core))
}

/// The failed assumptions among `kept` of an unsatisfiable call with
/// `fixed` and `limits` assumed too, in `kept`'s order; `Err(true)` when
/// the call was satisfiable, `Err(false)` when its failure needed a limit.
fn unsat_core(
    solver: &mut Solver<'_>,
    (fixed, limits): (&[Lit], &[Lit]),
    kept: &[Lit],
) -> Result<Result<Vec<Lit>, bool>, varisat::solver::SolverError> {
    let mut assumptions = fixed.to_vec();
    assumptions.extend_from_slice(limits);
    assumptions.extend_from_slice(kept);
    solver.assume(&assumptions);
    if solver.solve()? {
        return Ok(Err(true));
    }
    let failed = solver.failed_core().unwrap_or(&[]);
    if limits.iter().any(|l| failed.contains(l)) {
        return Ok(Err(false));
    }
    // The failed core is a subset of the assumptions.
    Ok(Ok(kept
        .iter()
        .copied()
        .filter(|l| failed.contains(l))
        .collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use itertools::Itertools;
    use varisat::{CnfFormula, ExtendFormula};

    #[test]
    fn the_minimal_core_keeps_only_needed_assumptions() {
        // x1 and x2 are switched on by selectors 3, 4, 5: (¬3 ∨ 1), (¬4 ∨ ¬1), (¬5 ∨ 2).
        let l = Lit::from_dimacs;
        let f = CnfFormula::from([[l(-3), l(1)], [l(-4), l(-1)], [l(-5), l(2)]]);
        let mut solver = Solver::new();
        solver.add_formula(&f);
        let core = minimal_core(&mut solver, &[], &[l(5), l(3), l(4)]).unwrap();
        assert_eq!(core, Some(vec![l(3), l(4)]));
        assert_eq!(minimal_core(&mut solver, &[], &[l(3), l(5)]).unwrap(), None);
    }

    /// Selector `a` switches on "10 pigeons in 9 holes" (hard to refute)
    /// and z; `b`: z implies w; `c`: not w. Together they fail at once.
    fn pigeons_behind_a_quick_conflict() -> (CnfFormula, [Lit; 3]) {
        let (pigeons, holes) = (10, 9);
        let sits = |p: usize, h: usize| Lit::from_dimacs((p * holes + h + 1) as isize);
        let next = (pigeons * holes + 1) as isize;
        let [a, b, c, z, w] = [0, 1, 2, 3, 4].map(|i| Lit::from_dimacs(next + i));
        let mut f = CnfFormula::new();
        for p in 0..pigeons {
            let mut clause = vec![!a];
            clause.extend((0..holes).map(|h| sits(p, h)));
            f.add_clause(&clause);
        }
        for h in 0..holes {
            for (p, q) in (0..pigeons).tuple_combinations() {
                f.add_clause(&[!a, !sits(p, h), !sits(q, h)]);
            }
        }
        f.add_clause(&[!a, z]);
        f.add_clause(&[!b, !z, w]);
        f.add_clause(&[!c, !w]);
        (f, [a, b, c])
    }

    #[test]
    fn a_budgeted_solver_stops_a_hard_trial_and_keeps_the_core_so_far() {
        let (f, [a, b, c]) = pigeons_behind_a_quick_conflict();
        let mut solver = super::super::new_budgeted_solver();
        solver.add_formula(&f);
        let started = std::time::Instant::now();
        let deadline = started + std::time::Duration::from_millis(200);
        // Dropping `a` is quickly satisfiable; dropping `b` leaves the
        // pigeons to refute: that trial is stopped at the deadline.
        let core = minimal_core_within(&mut solver, &[], &[], &[a, b, c], Some(deadline));
        assert_eq!(core.unwrap(), Some(vec![a, b, c]));
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
}
