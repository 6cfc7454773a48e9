//! Small CNF building blocks: terms that may be constants, clauses built
//! from them, cardinality and definition gadgets, and a variable map that
//! allocates (and names) variables in a fixed order.
//!
//! Each gadget is tested under every assignment of its inputs: the clauses
//! (auxiliary variables left to the solver) must hold exactly when the
//! relation they stand for holds.

use std::collections::HashMap;
use std::ops::Not;

use varisat::{Lit, Var};

use super::sink::ClauseSink;

/// A literal, or a constant when the symbolic replay already knows the
/// fact (a square a move emptied is empty whatever the start board).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// Known to be true or false.
    Const(bool),
    /// The value of a literal.
    Lit(Lit),
}

impl std::ops::Not for Term {
    type Output = Term;

    /// The negation.
    fn not(self) -> Term {
        match self {
            Term::Const(b) => Term::Const(!b),
            Term::Lit(l) => Term::Lit(!l),
        }
    }
}

impl Term {
    /// The term's value in an assignment given as one flag per variable.
    pub fn value(self, truth: &[bool]) -> bool {
        match self {
            Term::Const(b) => b,
            Term::Lit(l) => truth.get(l.index()).copied().unwrap_or(false) == l.is_positive(),
        }
    }
}

impl From<Lit> for Term {
    fn from(l: Lit) -> Term {
        Term::Lit(l)
    }
}

impl From<bool> for Term {
    fn from(b: bool) -> Term {
        Term::Const(b)
    }
}

impl From<Option<Lit>> for Term {
    /// A variable that may not exist: a missing one is false.
    fn from(l: Option<Lit>) -> Term {
        l.map_or(Term::Const(false), Term::Lit)
    }
}

/// Writes clauses built from terms into a sink and counts them.
pub struct Writer<'a, S> {
    sink: &'a mut S,
    /// Clauses written.
    pub clauses: usize,
    buf: Vec<Lit>,
}

impl<S> std::fmt::Debug for Writer<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer")
            .field("clauses", &self.clauses)
            .finish_non_exhaustive()
    }
}

impl<'a, S: ClauseSink> Writer<'a, S> {
    /// A writer into `sink`.
    pub fn new(sink: &'a mut S) -> Self {
        Writer {
            sink,
            clauses: 0,
            buf: Vec::with_capacity(8),
        }
    }

    /// The sink, to open a group.
    pub fn sink(&mut self) -> &mut S {
        self.sink
    }

    /// One clause: the disjunction of `terms`. A true term satisfies it
    /// (nothing is written); false terms drop out.
    pub fn clause(&mut self, terms: impl IntoIterator<Item = Term>) {
        self.buf.clear();
        for term in terms {
            match term {
                Term::Const(true) => return,
                Term::Const(false) => {}
                Term::Lit(l) => self.buf.push(l),
            }
        }
        self.buf.sort_unstable();
        self.buf.dedup();
        if self.buf.windows(2).any(|w| w[0] == !w[1]) {
            return;
        }
        self.sink.add_clause(&self.buf);
        self.clauses += 1;
    }

    /// `guard` (a conjunction) implies `term`.
    pub fn implies(&mut self, guard: &[Term], term: Term) {
        let negated = guard.iter().map(|g| g.not());
        self.clause(negated.chain([term]));
    }

    /// `guard` implies `a` ↔ `b`.
    pub fn equal(&mut self, guard: &[Term], a: Term, b: Term) {
        let negated = || guard.iter().map(|g| g.not());
        self.clause(negated().chain([a.not(), b]));
        self.clause(negated().chain([a, b.not()]));
    }

    /// At most one of `lits`: pairs up to six, a sequential counter (with
    /// `lits.len() - 1` variables from `vars`) beyond.
    pub fn at_most_one(&mut self, lits: &[Lit], vars: &mut VarMap, name: &str) {
        if lits.len() <= 6 {
            for (i, &a) in lits.iter().enumerate() {
                for &b in &lits[i + 1..] {
                    self.clause([Term::Lit(!a), Term::Lit(!b)]);
                }
            }
            return;
        }
        // s_i: one of lits[..=i] is true.
        let mut previous: Option<Lit> = None;
        for (i, &l) in lits[..lits.len() - 1].iter().enumerate() {
            let s = vars.fresh(|| format!("{name}: one of the first {} so far", i + 1));
            self.implies(&[l.into()], s.into());
            if let Some(p) = previous {
                self.implies(&[p.into()], s.into());
                self.implies(&[l.into(), p.into()], false.into());
            }
            previous = Some(s);
        }
        if let (Some(p), Some(&last)) = (previous, lits.last()) {
            self.implies(&[last.into(), p.into()], false.into());
        }
    }

    /// Exactly one of `lits` when `guard` holds, none when it does not.
    pub fn exactly_one_if(&mut self, guard: Term, lits: &[Lit], vars: &mut VarMap, name: &str) {
        self.clause(std::iter::once(guard.not()).chain(lits.iter().map(|&l| l.into())));
        for &l in lits {
            self.implies(&[l.into()], guard);
        }
        self.at_most_one(lits, vars, name);
    }

    /// `target` ↔ the disjunction of `inputs`.
    pub fn define_or(&mut self, target: Lit, inputs: &[Term]) {
        self.clause(std::iter::once(Term::Lit(!target)).chain(inputs.iter().copied()));
        for &input in inputs {
            self.implies(&[input], target.into());
        }
    }

    /// `target` ↔ the conjunction of `inputs`.
    pub fn define_and(&mut self, target: Lit, inputs: &[Term]) {
        for &input in inputs {
            self.implies(&[target.into()], input);
        }
        self.clause(inputs.iter().map(|i| i.not()).chain([Term::Lit(target)]));
    }
}

/// Allocates variables after a first free one, in the order asked, and
/// keeps their names when asked to (for `postfacto cnf`): the same record
/// always gets the same numbering.
#[derive(Clone, Debug, Default)]
pub struct VarMap {
    next: usize,
    names: Option<HashMap<usize, String>>,
}

impl VarMap {
    /// A map whose first variable has index `first`; names kept if `named`.
    pub fn new(first: usize, named: bool) -> VarMap {
        VarMap {
            next: first,
            names: named.then(HashMap::new),
        }
    }

    /// A fresh variable, positive literal; `name` is called only when
    /// names are kept.
    pub fn fresh(&mut self, name: impl FnOnce() -> String) -> Lit {
        let var = Var::from_index(self.next);
        if let Some(names) = &mut self.names {
            names.insert(self.next, name());
        }
        self.next += 1;
        var.positive()
    }

    /// `count` consecutive fresh variables; the index of the first.
    pub fn block(&mut self, count: usize, name: impl Fn(usize) -> String) -> usize {
        let first = self.next;
        if let Some(names) = &mut self.names {
            for i in 0..count {
                names.insert(first + i, name(i));
            }
        }
        self.next += count;
        first
    }

    /// Makes the next variable `first` unless it is already past it (a
    /// solver may have made variables of its own after these).
    pub fn skip_to(&mut self, first: usize) {
        self.next = self.next.max(first);
    }

    /// How many variables exist (the next free index).
    pub fn count(&self) -> usize {
        self.next
    }

    /// The name of a variable allocated here, if names are kept.
    pub fn name(&self, var: Var) -> Option<&str> {
        self.names.as_ref()?.get(&var.index()).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use varisat::{CnfFormula, Solver};

    /// The clauses a gadget writes, over inputs 0..n and fresh variables after.
    fn gadget(
        n: usize,
        write: impl FnOnce(&mut Writer<CnfFormula>, &[Lit], &mut VarMap),
    ) -> CnfFormula {
        let mut formula = CnfFormula::new();
        let inputs: Vec<Lit> = (0..n).map(|i| Var::from_index(i).positive()).collect();
        let mut vars = VarMap::new(n, false);
        let mut writer = Writer::new(&mut formula);
        write(&mut writer, &inputs, &mut vars);
        formula.set_var_count(vars.count());
        formula
    }

    /// Checks `formula` under every assignment of its `n` inputs: solvable
    /// (auxiliaries free) exactly when `holds`.
    fn check_all(formula: &CnfFormula, n: usize, holds: impl Fn(&[bool]) -> bool) {
        let mut solver = Solver::new();
        solver.add_formula(formula);
        for code in 0..1u32 << n {
            let values: Vec<bool> = (0..n).map(|i| code >> i & 1 == 1).collect();
            let assumptions: Vec<Lit> = values
                .iter()
                .enumerate()
                .map(|(i, &v)| Var::from_index(i).lit(v))
                .collect();
            solver.assume(&assumptions);
            assert_eq!(solver.solve().unwrap(), holds(&values), "{values:?}");
        }
    }

    #[test]
    fn at_most_one_pairwise_and_by_counter() {
        for n in [1, 2, 5, 6, 7, 9] {
            let f = gadget(n, |w, lits, vars| w.at_most_one(lits, vars, "amo"));
            check_all(&f, n, |v| v.iter().filter(|&&b| b).count() <= 1);
        }
    }

    #[test]
    fn exactly_one_under_a_guard() {
        for n in [2, 4, 8] {
            // Input 0 is the guard.
            let f = gadget(n, |w, lits, vars| {
                w.exactly_one_if(lits[0].into(), &lits[1..], vars, "one")
            });
            check_all(&f, n, |v| {
                let ones = v[1..].iter().filter(|&&b| b).count();
                if v[0] {
                    ones == 1
                } else {
                    ones == 0
                }
            });
        }
    }

    #[test]
    fn definitions_of_or_and_and() {
        let f = gadget(4, |w, lits, _| {
            w.define_or(lits[0], &[lits[1].into(), lits[2].into(), lits[3].into()])
        });
        check_all(&f, 4, |v| v[0] == (v[1] || v[2] || v[3]));
        let f = gadget(3, |w, lits, _| {
            w.define_and(lits[0], &[lits[1].into(), lits[2].into()])
        });
        check_all(&f, 3, |v| v[0] == (v[1] && v[2]));
        // Constants inside: OR with a false constant, AND with a true one.
        let f = gadget(2, |w, lits, _| {
            w.define_or(lits[0], &[Term::Const(false), lits[1].into()]);
        });
        check_all(&f, 2, |v| v[0] == v[1]);
        let f = gadget(2, |w, lits, _| {
            w.define_and(lits[0], &[Term::Const(true), lits[1].into()]);
        });
        check_all(&f, 2, |v| v[0] == v[1]);
    }

    #[test]
    fn implications_and_equalities_with_constants() {
        let f = gadget(3, |w, lits, _| {
            w.equal(&[lits[0].into()], lits[1].into(), Term::Lit(!lits[2]))
        });
        check_all(&f, 3, |v| !v[0] || v[1] != v[2]);
        let f = gadget(2, |w, lits, _| {
            w.implies(&[lits[0].into()], Term::Const(false))
        });
        check_all(&f, 2, |v| !v[0]);
        let f = gadget(2, |w, lits, _| {
            w.implies(&[lits[0].into(), lits[1].into()], Term::Const(true))
        });
        assert_eq!(f.len(), 0, "a true conclusion writes nothing");
        // A clause with a literal and its negation is true: not written.
        let f = gadget(1, |w, lits, _| {
            w.clause([lits[0].into(), Term::Lit(!lits[0])])
        });
        assert_eq!(f.len(), 0);
    }

    #[test]
    fn the_var_map_numbers_and_names_in_order() {
        let mut vars = VarMap::new(96, true);
        let a = vars.fresh(|| "ply 3 from 22".into());
        let block = vars.block(3, |i| format!("after ply 3 fact {i}"));
        assert_eq!((a.index(), block, vars.count()), (96, 97, 100));
        assert_eq!(vars.name(Var::from_index(98)), Some("after ply 3 fact 1"));
        let mut silent = VarMap::new(0, false);
        silent.fresh(|| unreachable!("names are not kept"));
        assert_eq!(silent.name(Var::from_index(0)), None);
    }
}
