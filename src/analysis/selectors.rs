//! A formula in which every ply's rule groups can be switched off.
//!
//! Each group of clauses that states a rule at some ply gets a *selector*
//! variable `s`, and each of its clauses `C` is written `¬s ∨ C`. Solving
//! under the assumption that every selector is true is solving the record;
//! leaving selectors out drops those rules. When the assumptions are
//! unsatisfiable, varisat's failed core names the groups that cannot all hold.
//! Start-board rules (no colour or kind on an empty square, no man on its
//! crowning row) have no selector: they define what a board is.
//!
//! The record is encoded with [`EncodeOptions::exact`], so a group's clauses
//! say exactly what its rule says, never simplified by another group's units.

use itertools::Itertools;
use varisat::{CnfFormula, ExtendFormula, Lit, Solver, Var};

use crate::board::Color;
use crate::board::Topology;
use crate::encode::vars::var_count;
use crate::encode::{encode_with, BoardFacts, ClauseSink, EncodeOptions, Group, Rule};
use crate::notation::{MoveNumbers, Record};
use crate::rules::Variant;
use crate::solve::{Backend, Formula, SolveError};

/// One group of clauses: a rule at a ply, or a start-board rule.
#[derive(Clone, Debug)]
pub struct RuleGroup {
    /// 1-based ply, or `None` for a start-board rule.
    pub ply: Option<usize>,
    /// The side making that ply.
    pub side: Option<Color>,
    /// The ply's move as written.
    pub text: Option<String>,
    /// The rule.
    pub rule: Rule,
    /// Why the rule fails whatever the start board is, if it does.
    pub note: Option<String>,
    /// Its clauses, without the selector.
    pub clauses: Vec<Vec<Lit>>,
    /// The board its variables are about.
    pub topology: Topology,
    /// The selector (`None` for start-board rules, which are always on).
    pub selector: Option<Lit>,
    /// The `c` lines `postfacto cnf` writes before its clauses (a damaged
    /// ply's one group gathers several of the formula's).
    pub labels: Vec<String>,
    /// The board its variables are about when it is not the start board:
    /// a ply after a damaged one reads the board that move left.
    pub board: Option<LaterBoard>,
}

/// The board after a damaged ply: its squares' variables are the start
/// board's, shifted by `offset`, so a rule over them reads in board terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaterBoard {
    /// The damaged ply (1-based) whose move made this board.
    pub after: usize,
    /// That ply's move as written (`?`, `9x?`).
    pub written: String,
    /// Where the board's block of variables starts.
    pub offset: usize,
}

impl RuleGroup {
    /// "ply 2 (14-10, Black)", "the start board" or "the end board".
    pub fn place(&self) -> String {
        self.place_in(None)
    }

    /// [`RuleGroup::place`], a ply named as PDN numbers it (`4... 18-15
    /// (ply 8, White)`) under `numbering`: the game's move numbers and the
    /// side of its first ply.
    pub fn place_in(&self, numbering: Option<(&MoveNumbers, Color)>) -> String {
        match (self.ply, &self.text, self.side) {
            (Some(ply), Some(text), Some(side)) => match numbering {
                Some((numbers, first)) => format!(
                    "{} {text} (ply {ply}, {})",
                    numbers.label_from(first, ply),
                    side.title()
                ),
                None => format!("ply {ply} ({text}, {})", side.title()),
            },
            _ if matches!(self.rule, Rule::EndFact { .. }) => "the end board".to_string(),
            _ => "the start board".to_string(),
        }
    }
}

/// The selector formula of a record.
#[derive(Debug)]
pub struct SelectorFormula {
    /// The record's formula (as [`Formula::encode`] built it, into this).
    record: Option<Formula>,
    /// The side that makes the record's first ply.
    first: Color,
    formula: CnfFormula,
    groups: Vec<RuleGroup>,
    variant: Variant,
    /// A damaged record's damaged plies, as written: all the rules of the
    /// moves that fit one of them form one group (one selector), since
    /// which move was played is the solver's choice, not a rule.
    damaged: Vec<(usize, String)>,
    /// The group the encoder is writing into (groups of a damaged ply
    /// are merged, so it is not always the last).
    current: usize,
    /// The `cnf` label of the last group that is not a fine one: fine
    /// groups are written under it.
    coarse_label: String,
}

impl SelectorFormula {
    /// Encodes `record` under `variant` with one selector per ply rule group.
    ///
    /// # Errors
    /// As [`Formula::encode`].
    pub fn of(record: &Record, variant: Variant) -> Result<SelectorFormula, SolveError> {
        SelectorFormula::of_knowing(record, variant, BoardFacts::none())
    }

    /// [`SelectorFormula::of`] with what is `known` of the boards; each
    /// fact is a group of its own, with a selector like a ply's rules, and
    /// a damaged ply's rules are one group.
    ///
    /// # Errors
    /// As [`Formula::encode`].
    pub fn of_knowing(
        record: &Record,
        variant: Variant,
        known: BoardFacts,
    ) -> Result<SelectorFormula, SolveError> {
        let mut formula = CnfFormula::new();
        let options = EncodeOptions {
            known,
            ..EncodeOptions::exact()
        };
        // Selectors come after the encoder's own variables: a damaged
        // record's choices and later boards (numbered the same every time).
        let vars = if record.is_damaged() {
            encode_with(variant, record, &mut crate::encode::Discard, options)
                .stats
                .vars
        } else {
            var_count(variant.topology())
        };
        formula.set_var_count(vars);
        let mut this = SelectorFormula {
            record: None,
            first: record.first,
            formula,
            groups: Vec::new(),
            variant,
            damaged: damaged_plies(record, variant),
            current: 0,
            coarse_label: String::new(),
        };
        let record = Formula::encode(variant, record, known, &mut this, options)?;
        if let Some(layout) = &record.encoded.layout {
            let offsets: Vec<usize> = layout.views.iter().map(|v| v.offset).collect();
            for group in &mut this.groups {
                group.board = group
                    .ply
                    .and_then(|ply| later_board(&offsets, &this.damaged, ply));
            }
        }
        this.record = Some(record);
        Ok(this)
    }

    /// The record's formula, to solve with [`crate::solve::solve_refining`]
    /// (which writes the capture steps left for later into it).
    pub fn record_mut(&mut self) -> &mut Formula {
        self.record
            .as_mut()
            .expect("the record is encoded when the formula is made")
    }

    /// A solver loaded with the formula that guards each clause added at
    /// a ply by that ply's selector (see [`crate::solve::solve_refining`]).
    pub fn backend(&self) -> Guarded {
        self.guarded(self.solver())
    }

    /// [`Self::backend`] on a solver that stops at any deadline set around
    /// one of its solves (see [`crate::sat::new_budgeted_solver`]).
    pub fn budgeted_backend(&self) -> Guarded {
        let mut solver = crate::sat::new_budgeted_solver();
        solver.add_formula(&self.formula);
        self.guarded(solver)
    }

    /// `solver`, loaded with the formula, with each ply's selector.
    fn guarded(&self, solver: Solver<'static>) -> Guarded {
        // A damaged ply's clauses join its one group. A known ply's are
        // rules of choice the formula leaves to refinement: the most
        // pieces if the ply has that rule, else (the Italian order) the
        // ply's first rule stands for them.
        let rank = |rule: &Rule| match rule {
            Rule::OneMove { .. } => 0,
            Rule::MostPieces { .. } => 1,
            _ => 2,
        };
        let mut selectors: Vec<(usize, Lit)> = Vec::new();
        for group in self.groups.iter().sorted_by_key(|g| rank(&g.rule)) {
            if let (Some(ply), Some(selector)) = (group.ply, group.selector) {
                if !selectors.iter().any(|&(p, _)| p == ply) {
                    selectors.push((ply, selector));
                }
            }
        }
        Guarded {
            solver,
            selectors,
            added: Vec::new(),
        }
    }

    /// The groups, in the order the encoder wrote them.
    pub fn groups(&self) -> &[RuleGroup] {
        &self.groups
    }

    /// Every selector, as assumptions that switch every rule on.
    pub fn all_selectors(&self) -> Vec<Lit> {
        self.groups.iter().filter_map(|g| g.selector).collect()
    }

    /// The group a selector literal switches on.
    pub fn group_of(&self, selector: Lit) -> Option<&RuleGroup> {
        self.groups
            .iter()
            .find(|g| g.selector.map(|s| s.var()) == Some(selector.var()))
    }

    /// A fresh solver loaded with the formula.
    pub fn solver(&self) -> Solver<'static> {
        let mut solver = crate::sat::new_solver();
        solver.add_formula(&self.formula);
        solver
    }

    /// The side making ply `number`.
    fn side_of(&self, number: usize) -> Color {
        if number % 2 == 1 {
            self.first
        } else {
            self.first.opposite()
        }
    }

    /// Is `var` a start-board variable (not a selector)?
    pub fn is_board_var(&self, var: Var) -> bool {
        var.index() < var_count(self.variant.topology())
    }
}

/// The board ply `ply` is played on, when a damaged ply before it made
/// it: `offsets` are the encoder's per ply, `damaged` the damaged plies.
fn later_board(offsets: &[usize], damaged: &[(usize, String)], ply: usize) -> Option<LaterBoard> {
    let offset = *offsets.get(ply.checked_sub(1)?)?;
    let (after, written) = damaged.iter().rfind(|(n, _)| *n < ply)?;
    (offset != 0).then(|| LaterBoard {
        after: *after,
        written: written.clone(),
        offset,
    })
}

/// The damaged plies of `record` with their written text.
fn damaged_plies(record: &Record, variant: Variant) -> Vec<(usize, String)> {
    if !record.is_damaged() {
        return Vec::new();
    }
    record
        .written_moves()
        .iter()
        .enumerate()
        .filter(|(_, w)| w.known().is_none())
        .map(|(i, w)| (i + 1, variant.write_written(w)))
        .collect()
}

/// A solver over a [`SelectorFormula`]: clauses added at a ply (learned,
/// or capture steps written late) are guarded by the selector of the ply's
/// group that stands for them, so switching that rule off switches them off.
pub struct Guarded {
    /// The solver.
    pub solver: Solver<'static>,
    /// Each ply's selector for the clauses added at it.
    selectors: Vec<(usize, Lit)>,
    /// The clauses added, with the selector guarding each.
    added: Vec<(Lit, Vec<Lit>)>,
}

impl Guarded {
    /// The clauses added under `selector` (learned at its ply).
    pub fn added_under(&self, selector: Lit) -> impl Iterator<Item = &Vec<Lit>> + '_ {
        self.added
            .iter()
            .filter(move |(s, _)| *s == selector)
            .map(|(_, clause)| clause)
    }
}

impl std::fmt::Debug for Guarded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guarded")
            .field("selectors", &self.selectors)
            .finish_non_exhaustive()
    }
}

impl Backend for Guarded {
    fn add_at(&mut self, ply: usize, clause: &[Lit]) {
        let mut guarded = clause.to_vec();
        let selector = self.selectors.iter().find(|(p, _)| *p == ply);
        guarded.extend(selector.map(|&(_, s)| !s));
        ExtendFormula::add_clause(&mut self.solver, &guarded);
        if let Some(&(_, s)) = selector {
            self.added.push((s, clause.to_vec()));
        }
    }

    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Option<Vec<Lit>>, SolveError> {
        self.solver.solve_under(assumptions)
    }

    fn failed_core(&self) -> Vec<Lit> {
        Backend::failed_core(&self.solver)
    }

    fn first_free_var(&mut self) -> usize {
        self.solver.first_free_var()
    }

    fn claim_vars(&mut self, count: usize) {
        self.solver.claim_vars(count);
    }
}

impl SelectorFormula {
    /// Makes the group of damaged ply `number` (written `text`) current,
    /// made at its first clause, with `label` among its labels.
    fn join_damaged_ply(&mut self, number: usize, text: String, label: String) {
        let made = self
            .groups
            .iter()
            .position(|g| g.ply == Some(number) && matches!(g.rule, Rule::OneMove { .. }));
        if let Some(at) = made {
            self.current = at;
            self.groups[at].labels.push(label);
            return;
        }
        let side = self.side_of(number);
        self.groups.push(RuleGroup {
            ply: Some(number),
            side: Some(side),
            note: Some(format!("plays a move that fits '{text}'")),
            text: Some(text),
            rule: Rule::OneMove {
                ply: number,
                candidates: 0,
            },
            topology: self.variant.topology(),
            clauses: Vec::new(),
            selector: Some(self.formula.new_var().positive()),
            labels: vec![label],
            board: None,
        });
        self.current = self.groups.len() - 1;
    }
}

impl ClauseSink for SelectorFormula {
    fn begin_group(&mut self, group: &Group<'_>) {
        let label = if group.rule.is_fine() {
            self.coarse_label.clone()
        } else {
            self.coarse_label = group.describe();
            self.coarse_label.clone()
        };
        // A damaged ply's move and board after it come with no ply of
        // their own: they join the ply's one group.
        let damaged_ply = match group.rule {
            Rule::OneMove { ply, .. } | Rule::BoardAfter { ply } => Some(ply),
            _ => group.ply.map(|p| p.number),
        };
        let damaged = damaged_ply.and_then(|p| self.damaged.iter().find(|(n, _)| *n == p));
        if let Some((number, text)) = damaged {
            let (number, text) = (*number, text.clone());
            self.join_damaged_ply(number, text, label);
            return;
        }
        self.current = self.groups.len();
        let switchable = group.ply.is_some() || group.rule.is_fact();
        let selector = switchable.then(|| self.formula.new_var().positive());
        self.groups.push(RuleGroup {
            ply: group.ply.map(|p| p.number),
            side: group.ply.map(|p| p.side),
            text: group.ply.map(|p| self.variant.write_move(p.text)),
            rule: group.rule,
            topology: self.variant.topology(),
            note: None,
            clauses: Vec::new(),
            selector,
            labels: vec![label],
            board: None,
        });
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        let group = self
            .groups
            .get_mut(self.current)
            .expect("the encoder opens a group before its clauses");
        group.clauses.push(clause.to_vec());
        match group.selector {
            Some(s) => {
                let mut guarded = Vec::with_capacity(clause.len() + 1);
                guarded.push(!s);
                guarded.extend_from_slice(clause);
                ExtendFormula::add_clause(&mut self.formula, &guarded);
            }
            None => ExtendFormula::add_clause(&mut self.formula, clause),
        }
    }

    fn note(&mut self, reason: &str) {
        if let Some(group) = self.groups.get_mut(self.current) {
            if !matches!(group.rule, Rule::OneMove { .. }) {
                group.note = Some(reason.to_string());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_records;

    #[test]
    fn every_ply_group_has_a_selector_and_all_on_is_the_record() {
        let record = &parse_records("W 3\n21-17\n13x22x31x24\n19x28\n").unwrap()[0];
        let sf = SelectorFormula::of(record, Variant::English).expect("English is encoded");
        assert!(sf
            .groups()
            .iter()
            .all(|g| g.ply.is_some() == g.selector.is_some()));
        let mut solver = sf.solver();
        solver.assume(&sf.all_selectors());
        assert!(solver.solve().unwrap(), "sample 1 is solvable");
    }
}
