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
    let unsat_core = |solver: &mut Solver<'_>, kept: &[Lit]| {
        let mut assumptions = fixed.to_vec();
        assumptions.extend_from_slice(kept);
        solver.assume(&assumptions);
        Ok::<_, varisat::solver::SolverError>(if solver.solve()? {
            None
        } else {
            let failed = solver.failed_core().unwrap_or(&[]).to_vec();
            // Keep the candidates' order; the failed core is a subset.
            Some(
                kept.iter()
                    .copied()
                    .filter(|l| failed.contains(l))
                    .collect::<Vec<_>>(),
            )
        })
    };
    let Some(mut core) = unsat_core(solver, candidates)? else {
        return Ok(None);
    };
    let mut i = 0;
    while i < core.len() {
        let mut trial = core.clone();
        trial.remove(i);
        match unsat_core(solver, &trial)? {
            // Still impossible without it: it was not needed.
            Some(smaller) => core = smaller,
            None => i += 1,
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
