//! DIMACS export with comments: every variable named, every group of clauses
//! introduced by a `c` line saying what it states (for draughts, which ply
//! and rule; for the pawn puzzle, which attack or bound).

use std::io::{self, Write};

use varisat::{CnfFormula, ExtendFormula, Lit, Var};

/// A formula that remembers the group of each clause, for readable DIMACS.
#[derive(Debug, Default)]
pub struct AnnotatedCnf {
    formula: CnfFormula,
    /// (group text, index of its first clause), in order.
    groups: Vec<(String, usize)>,
    var_names: Vec<String>,
    preamble: Vec<String>,
}

impl AnnotatedCnf {
    /// An empty formula.
    pub fn new() -> AnnotatedCnf {
        AnnotatedCnf::default()
    }

    /// Declares `count` variables, named by `name`, so every variable is listed
    /// even when no clause mentions it.
    pub fn name_vars(&mut self, count: usize, name: impl Fn(Var) -> String) {
        self.formula
            .set_var_count(self.formula.var_count().max(count));
        self.var_names = (0..count).map(|i| name(Var::from_index(i))).collect();
    }

    /// Adds a comment line written before the variable list.
    pub fn comment(&mut self, text: impl Into<String>) {
        self.preamble.push(text.into());
    }

    /// The plain formula, as a solver would get it.
    pub fn formula(&self) -> &CnfFormula {
        &self.formula
    }

    /// Writes the formula in DIMACS CNF: preamble comments, one `c var` line
    /// per variable, the `p cnf` header, then each group's comment and clauses.
    ///
    /// # Errors
    /// Any error of `out`.
    pub fn write_dimacs(&self, out: &mut impl Write) -> io::Result<()> {
        for line in &self.preamble {
            writeln!(out, "c {line}")?;
        }
        for (i, name) in self.var_names.iter().enumerate() {
            if !name.is_empty() {
                writeln!(out, "c var {} = {name}", i + 1)?;
            }
        }
        writeln!(
            out,
            "p cnf {} {}",
            self.formula.var_count(),
            self.formula.len()
        )?;
        let clauses: Vec<&[Lit]> = self.formula.iter().collect();
        let ungrouped = self.groups.first().map_or(clauses.len(), |g| g.1);
        for clause in &clauses[..ungrouped] {
            write_clause(out, clause)?;
        }
        for (i, (text, first)) in self.groups.iter().enumerate() {
            let end = self.groups.get(i + 1).map_or(clauses.len(), |g| g.1);
            if end == *first {
                writeln!(out, "c {text} (holds already: no clause needed)")?;
            } else {
                writeln!(out, "c {text}")?;
            }
            for clause in &clauses[*first..end] {
                write_clause(out, clause)?;
            }
        }
        Ok(())
    }

    /// The clauses added from now on state `text` (one `c` line before them).
    pub fn begin_group(&mut self, text: impl Into<String>) {
        let first = self.formula.len();
        self.groups.push((text.into(), first));
    }

    /// Adds one clause to the current group.
    pub fn add_clause(&mut self, clause: &[Lit]) {
        ExtendFormula::add_clause(&mut self.formula, clause);
    }

    /// The first clause `model` does not satisfy (a literal counts as true
    /// when the model lists it): its 1-based number in DIMACS order and the
    /// text of its group (the `c` line before it), if any.
    pub fn first_unsatisfied(&self, model: &[Lit]) -> Option<(usize, Option<&str>)> {
        let mut truth = vec![None; self.formula.var_count()];
        for lit in model {
            if let Some(slot) = truth.get_mut(lit.index()) {
                *slot = Some(lit.is_positive());
            }
        }
        let holds = |l: &Lit| truth.get(l.index()).copied().flatten() == Some(l.is_positive());
        let index = self.formula.iter().position(|c| !c.iter().any(holds))?;
        let group = self
            .groups
            .iter()
            .rev()
            .find(|(_, first)| *first <= index)
            .map(|(text, _)| text.as_str());
        Some((index + 1, group))
    }

    /// A fresh variable named `name` (listed with the others in the header).
    pub fn new_named_var(&mut self, name: impl Into<String>) -> Var {
        let var = self.formula.new_var();
        self.var_names.resize(var.index(), String::new());
        self.var_names.push(name.into());
        var
    }
}

fn write_clause(out: &mut impl Write, clause: &[Lit]) -> io::Result<()> {
    for l in clause {
        write!(out, "{} ", l.to_dimacs())?;
    }
    writeln!(out, "0")
}

/// Where an encoder that names its groups writes: an [`AnnotatedCnf`]
/// (names kept, for DIMACS) or a plain formula (names never even built).
pub trait GroupedClauses {
    /// The clauses that follow state what `describe` says.
    fn group(&mut self, describe: impl FnOnce() -> String);
    /// Adds one clause.
    fn clause(&mut self, lits: &[Lit]);
}

impl GroupedClauses for AnnotatedCnf {
    fn group(&mut self, describe: impl FnOnce() -> String) {
        self.begin_group(describe());
    }

    fn clause(&mut self, lits: &[Lit]) {
        self.add_clause(lits);
    }
}

impl GroupedClauses for CnfFormula {
    fn group(&mut self, _: impl FnOnce() -> String) {}

    fn clause(&mut self, lits: &[Lit]) {
        self.add_clause(lits);
    }
}
