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
/// each trial is a hard solve).
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
    // The failed candidates of an unsatisfiable call that needed no limit;
    // `Err(())` when the call was satisfiable or needed one.
    let unsat_core = |solver: &mut Solver<'_>, limits: &[Lit], kept: &[Lit]| {
        let mut assumptions = fixed.to_vec();
        assumptions.extend_from_slice(limits);
        assumptions.extend_from_slice(kept);
        solver.assume(&assumptions);
        Ok::<_, varisat::solver::SolverError>(if solver.solve()? {
            Err(true)
        } else {
            let failed = solver.failed_core().unwrap_or(&[]).to_vec();
            if limits.iter().any(|l| failed.contains(l)) {
                return Ok(Err(false));
            }
            // Keep the candidates' order; the failed core is a subset.
            Ok(kept
                .iter()
                .copied()
                .filter(|l| failed.contains(l))
                .collect::<Vec<_>>())
        })
    };
    let (mut core, limits) = match unsat_core(solver, limits, candidates)? {
        Ok(core) => (core, limits),
        Err(false) => match unsat_core(solver, &[], candidates)? {
            Ok(core) => (core, &[][..]),
            Err(_) => return Ok(None),
        },
        Err(true) => return Ok(None),
    };
    while let Ok(smaller) = unsat_core(solver, limits, &core)? {
        if smaller.len() >= core.len() {
            break;
        }
        core = smaller;
    }
    let mut i = 0;
    while i < core.len() && deadline.is_none_or(|d| std::time::Instant::now() < d) {
        let mut trial = core.clone();
        trial.remove(i);
        match unsat_core(solver, limits, &trial)? {
            // Still impossible without it: it was not needed.
            Ok(smaller) => core = smaller,
            Err(_) => i += 1,
        }
    }
    solver.assume(&[]);
    Ok(Some(core))
}

#[cfg(test)]
mod tests {
    use super::*;
    use varisat::CnfFormula;

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
}
