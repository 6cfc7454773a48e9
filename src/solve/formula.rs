//! One formula per record, and one way to solve it.
//!
//! [`Formula::encode`] is the only builder of a record's clauses: `solve`,
//! `cnf`, proofs, explanations (with selectors), the minimum (with a
//! totalizer) and counts (with blocking clauses) all start from it and
//! extend it. [`solve_refining`] is the only way any of them gets a model:
//! every model is replayed, and one the replayer rejects adds the clause
//! that rules it out ([`super::refine`]) before the solver goes on. So the
//! formulas of one record say the same thing by construction: the same
//! clauses, and clauses the rules imply.

use varisat::{CnfFormula, ExtendFormula, Lit, Solver};

use crate::board::Board;
use crate::encode::{encode_within, BoardFacts, ClauseSink, Contradiction, EncodeOptions, Encoded};
use crate::notation::Record;
use crate::rules::Variant;
use crate::sat::lucky_model;

use super::refine::{Check, Refiner, EAGER_CLAUSE};
use super::SolveError;
use crate::encode::Layout;

/// A record's formula: where its clauses went, and what it takes to read
/// its models back and learn from them.
#[derive(Clone, Debug)]
pub struct Formula {
    /// The rule set.
    pub variant: Variant,
    /// The record as written.
    pub record: Record,
    /// What is known of its boards besides the moves.
    pub known: BoardFacts,
    /// What the encoder says of it.
    pub encoded: Encoded,
}

impl Formula {
    /// Encodes `record` under `variant`, with what is `known`, into `sink`
    /// as `options` say (their own facts are replaced by `known`).
    ///
    /// It stops at the deadline in force on this thread (see
    /// [`crate::sat::under`]), as the solver does.
    ///
    /// # Errors
    /// [`SolveError::Unsupported`] when the rule set has no encoding; an
    /// undecided [`SolveError::Sat`] when the deadline passes first.
    pub fn encode(
        variant: Variant,
        record: &Record,
        known: BoardFacts,
        sink: &mut impl ClauseSink,
        options: EncodeOptions,
    ) -> Result<Formula, SolveError> {
        let options = EncodeOptions { known, ..options };
        let encoded = encode_within(variant, record, sink, options)
            .map_err(|late| SolveError::Sat(crate::sat::SatError::Undecided(late.to_string())))?;
        Ok(Formula {
            variant,
            record: record.clone(),
            known,
            encoded,
        })
    }

    /// The replayer of this formula's models.
    pub(crate) fn refiner(&self) -> Refiner<'_> {
        Refiner::new(
            self.variant.rules(),
            &self.record,
            self.encoded.layout.as_ref(),
            self.known,
        )
        .with_deferred(&self.encoded.deferred)
    }

    /// Variables of the formula (before any solver adds its own).
    pub fn vars(&self) -> usize {
        self.encoded.stats.vars
    }

    /// A ply that cannot be played whatever the start board, if one was found.
    pub fn contradiction(&self) -> Option<&Contradiction> {
        self.encoded.contradiction.as_ref()
    }
}

/// A clause learned from a model the replayer rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Learned {
    /// 1-based ply whose rule the model broke.
    pub ply: usize,
    /// The clause.
    pub clause: Vec<Lit>,
    /// What it says.
    pub why: &'static str,
}

/// A model that replays, and what it plays.
#[derive(Clone, Debug)]
pub struct Refined {
    /// The model.
    pub model: Vec<Lit>,
    /// Its start board.
    pub start: Board,
    /// The record with every move filled in.
    pub filled: Record,
    /// The replayer's end board.
    pub end: Board,
}

/// A SAT solver [`solve_refining`] can drive: it solves under assumptions,
/// names the assumptions an unsatisfiable call failed on, and takes the
/// clauses that belong to a ply's rules (learned ones, and capture steps
/// written late; a solver with selectors guards them by the ply's).
pub(crate) trait Backend {
    /// Adds a clause of the rules of `ply`.
    fn add_at(&mut self, ply: usize, clause: &[Lit]);

    /// Solves under `assumptions`; the model when satisfiable.
    ///
    /// # Errors
    /// [`SolveError`] when the solver fails.
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Option<Vec<Lit>>, SolveError>;

    /// The assumptions the last (unsatisfiable) call failed on.
    fn failed_core(&self) -> Vec<Lit>;

    /// A variable from which on no variable is in use.
    fn first_free_var(&mut self) -> usize;

    /// Tells the solver that variables below `count` are in use.
    fn claim_vars(&mut self, count: usize);
}

impl Backend for Solver<'_> {
    fn add_at(&mut self, _ply: usize, clause: &[Lit]) {
        ExtendFormula::add_clause(self, clause);
    }

    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Option<Vec<Lit>>, SolveError> {
        self.assume(assumptions);
        let sat = self.solve()?;
        let model = sat.then(|| self.model().unwrap_or_default());
        Ok(model)
    }

    fn failed_core(&self) -> Vec<Lit> {
        Solver::failed_core(self)
            .map(<[Lit]>::to_vec)
            .unwrap_or_default()
    }

    fn first_free_var(&mut self) -> usize {
        self.new_var().index()
    }

    fn claim_vars(&mut self, count: usize) {
        while self.new_var().index() + 1 < count {}
    }
}

impl Backend for crate::sat::Optimizer {
    fn add_at(&mut self, _ply: usize, clause: &[Lit]) {
        self.add_clause(clause);
    }

    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Option<Vec<Lit>>, SolveError> {
        Ok(self.solve(assumptions)?)
    }

    fn failed_core(&self) -> Vec<Lit> {
        self.failed_core()
    }

    fn first_free_var(&mut self) -> usize {
        self.next_free_var()
    }

    fn claim_vars(&mut self, count: usize) {
        self.claim_vars(count);
    }
}

/// A sink that hands a ply's clauses to a backend.
struct AtPly<'b, B> {
    backend: &'b mut B,
    ply: usize,
}

impl<B: Backend> ClauseSink for AtPly<'_, B> {
    fn begin_group(&mut self, _group: &crate::encode::Group<'_>) {}

    fn add_clause(&mut self, clause: &[Lit]) {
        self.backend.add_at(self.ply, clause);
    }

    fn note(&mut self, _reason: &str) {}
}

impl Formula {
    /// The assumptions that keep each damaged ply's move to the capture
    /// steps written so far.
    pub fn limits(&self) -> Vec<Lit> {
        self.encoded
            .layout
            .as_ref()
            .map_or_else(Vec::new, crate::encode::Layout::limits)
    }

    /// Writes the capture steps of `ply` up to `depth` into `backend`;
    /// false when there was nothing left to write.
    pub(crate) fn deepen<B: Backend>(&mut self, backend: &mut B, ply: usize, depth: usize) -> bool {
        let Some(layout) = self.encoded.layout.as_mut() else {
            return false;
        };
        let first = backend.first_free_var();
        let grown = layout.deepen(ply, depth, first, &mut AtPly { backend, ply });
        backend.claim_vars(layout.vars.count());
        grown
    }

    /// After an unsatisfiable call: the plies whose limit the call failed
    /// on, with the steps each is to get next (twice as many).
    fn failed_limits<B: Backend>(&self, backend: &B) -> Vec<(usize, usize)> {
        let Some(layout) = self.encoded.layout.as_ref() else {
            return Vec::new();
        };
        backend
            .failed_core()
            .into_iter()
            .filter_map(|l| layout.limited_ply(l))
            .filter_map(|ply| {
                let mv = layout.moves.iter().find(|m| m.ply == ply)?;
                let lone = layout.is_lone_unknown(ply);
                Some((ply, next_depth(mv.steps.len(), mv.most_steps, lone)))
            })
            .collect()
    }

    /// Writes the steps [`Formula::failed_limits`] asked for; false when
    /// there were none, so the steps not written played no part.
    fn deepen_all<B: Backend>(&mut self, backend: &mut B, wanted: Vec<(usize, usize)>) -> bool {
        let mut grown = false;
        for (ply, depth) in wanted {
            grown |= self.deepen(backend, ply, depth);
        }
        grown
    }
}

/// A lone `?` whose limit a failed call names again once it has this many
/// capture steps gets every step its domains allow. An impossible record
/// ends only when no limit is left in the failed core, which for a lone `?`
/// means its most steps (63-72 on 12x12): the doubling's calls past 8 steps
/// are the slow ones, and the call with every step written is often quick
/// (encodings/damaged.md has the numbers).
const ALL_STEPS_FROM: usize = 8;

/// How many capture steps a damaged ply with `steps` written (of `most`
/// its domains allow) gets after a failed call named its limit: twice as
/// many, or all of them for a lone `?` past [`ALL_STEPS_FROM`].
fn next_depth(steps: usize, most: usize, lone_unknown: bool) -> usize {
    if lone_unknown && steps >= ALL_STEPS_FROM {
        return most;
    }
    (2 * steps).max(1)
}

/// Solves under `assumptions` until a model replays (it is returned) or
/// none is left; each model the replayer rejects adds its clause to
/// `backend` and to `learned`. Damaged plies keep to the capture steps
/// written while that is satisfiable; when it is not because of them,
/// their next steps are written and the solve goes on, so `None` means
/// the record itself (under `assumptions`) has no answer.
///
/// # Errors
/// [`SolveError`] when the solver fails or a model breaks a rule the
/// formula states in full (a bug).
pub(crate) fn solve_refining<B: Backend>(
    backend: &mut B,
    formula: &mut Formula,
    assumptions: &[Lit],
    learned: &mut Vec<Learned>,
) -> Result<Option<Refined>, SolveError> {
    solve_refining_with(backend, formula, assumptions, learned, false)
}

/// The eager compulsory-capture clauses, the first time a solve loop
/// enters (see [`Layout::take_eager`]).
fn write_eager<B: Backend>(backend: &mut B, formula: &mut Formula, learned: &mut Vec<Learned>) {
    if formula
        .encoded
        .layout
        .as_mut()
        .is_some_and(Layout::take_eager)
    {
        for (ply, clause) in formula.refiner().eager_clauses() {
            backend.add_at(ply, &clause);
            learned.push(Learned {
                ply,
                clause,
                why: EAGER_CLAUSE,
            });
        }
    }
}

/// [`solve_refining`]; with `open_steps`, before the steps of damaged plies
/// are deepened, one call with their steps left open (no limits assumed):
/// the formula with every step written implies it, so when it is
/// unsatisfiable so is the record (`Reconstructor::open_steps_first`).
pub(crate) fn solve_refining_with<B: Backend>(
    backend: &mut B,
    formula: &mut Formula,
    assumptions: &[Lit],
    learned: &mut Vec<Learned>,
    open_steps: bool,
) -> Result<Option<Refined>, SolveError> {
    write_eager(backend, formula, learned);
    loop {
        // Checking a model (decoding, replaying) between solves takes time
        // too: past the deadline no more rounds.
        if crate::sat::out_of_time() {
            return Err(crate::sat::SatError::Undecided(
                "the time limit passed before a verdict".into(),
            )
            .into());
        }
        let mut all = assumptions.to_vec();
        all.extend(formula.limits());
        let Some(model) = backend.solve_under(&all)? else {
            let wanted = formula.failed_limits(backend);
            if wanted.is_empty() || open_steps && backend.solve_under(assumptions)?.is_none() {
                return Ok(None);
            }
            if formula.deepen_all(backend, wanted) {
                continue;
            }
            return Ok(None);
        };
        match formula.refiner().check(&model)? {
            Check::Answer { start, filled, end } => {
                return Ok(Some(Refined {
                    model,
                    start,
                    filled,
                    end,
                }))
            }
            Check::Learn { ply, clause, why } => {
                let more = formula.refiner().more_witnesses(&model, (ply, &clause));
                backend.add_at(ply, &clause);
                learned.push(Learned { ply, clause, why });
                for (ply, clause) in more {
                    backend.add_at(ply, &clause);
                    learned.push(Learned { ply, clause, why });
                }
            }
            Check::Deepen { ply, depth } => {
                if !formula.deepen(backend, ply, depth) {
                    return Err(SolveError::NoCaptureStepsLeft { ply, depth });
                }
            }
        }
    }
}

/// How the canonical solve of a formula ended.
#[derive(Clone, Debug)]
pub struct Canonical {
    /// The answer, if the formula (with what was learned) is satisfiable.
    pub answer: Option<Refined>,
    /// The clauses learned on the way, in order.
    pub learned: Vec<Learned>,
    /// The answer is the lucky assignment (no solver call).
    pub lucky: bool,
}

/// Solves `cnf` (the clauses `formula` wrote) the one canonical way: the
/// lucky assignment first, then varisat, refining until a model replays
/// or the formula with what was learned is unsatisfiable. `solve`, `cnf`
/// and proofs all take this path, so `cnf` prints (with the clauses
/// learned) exactly the formula `solve` ended with.
///
/// # Errors
/// As [`solve_refining`].
pub fn solve_canonically(formula: &mut Formula, cnf: &CnfFormula) -> Result<Canonical, SolveError> {
    solve_canonically_with(formula, cnf, false)
}

/// [`solve_canonically`], with the open steps' call of
/// [`solve_refining_with`] when `open_steps` (not canonical: the repair's
/// verdicts only).
pub(crate) fn solve_canonically_with(
    formula: &mut Formula,
    cnf: &CnfFormula,
    open_steps: bool,
) -> Result<Canonical, SolveError> {
    let mut learned = Vec::new();
    let limits = formula.limits();
    let lucky = lucky_model(cnf).filter(|m| limits.iter().all(|l| m.get(l.index()) == Some(l)));
    if let Some(model) = lucky {
        match formula.refiner().check(&model)? {
            Check::Answer { start, filled, end } => {
                let answer = Refined {
                    model,
                    start,
                    filled,
                    end,
                };
                return Ok(Canonical {
                    answer: Some(answer),
                    learned,
                    lucky: true,
                });
            }
            Check::Learn { ply, clause, why } => learned.push(Learned { ply, clause, why }),
            Check::Deepen { .. } => {}
        }
    }
    let mut solver = crate::sat::new_solver();
    solver.add_formula(cnf);
    for l in &learned {
        ExtendFormula::add_clause(&mut solver, &l.clause);
    }
    let answer = solve_refining_with(&mut solver, formula, &[], &mut learned, open_steps)?;
    Ok(Canonical {
        answer,
        learned,
        lucky: false,
    })
}

#[cfg(test)]
mod tests {
    use super::{next_depth, Formula};
    use crate::board::{Color, PartialBoard};
    use crate::encode::{BoardFacts, EncodeOptions, Term};
    use crate::notation::{MovePattern, Record, WrittenMove};
    use crate::random::{random_board_on, Rng};
    use crate::rules::Variant;
    use varisat::Solver;

    /// How many legal captures of random boards of `variant` the solve's
    /// formula of a lone `?` (its move summarised, every step written)
    /// lets the ply play; panics on one it rules out.
    fn captures_the_summary_keeps(variant: Variant, seed: u64) -> (usize, usize) {
        let topology = variant.topology();
        let mut rng = Rng::new(seed);
        let (mut kept, mut summaries) = (0, 0);
        for _ in 0..12 {
            let board = random_board_on(&mut rng, topology, 45, 35);
            let legal = variant.rules().legal_moves(&board, Color::White);
            let record = Record::from_written(
                Color::White,
                vec![WrittenMove::Pattern(MovePattern::Unknown)],
                0,
            );
            let known = BoardFacts {
                start: Some(PartialBoard::whole(board)),
                end: None,
            };
            let mut cnf = varisat::CnfFormula::new();
            let mut formula =
                Formula::encode(variant, &record, known, &mut cnf, EncodeOptions::default())
                    .unwrap();
            let mut solver = Solver::new();
            solver.add_formula(&cnf);
            let deepened = formula.encoded.layout.as_ref().unwrap().moves[0]
                .more
                .is_some();
            formula.deepen(&mut solver, 1, usize::MAX);
            let layout = formula.encoded.layout.as_ref().unwrap();
            // A move deepened has its summary, which this test is about
            // (one whose steps were all written at once needs none).
            assert_eq!(layout.moves[0].summarised, deepened, "{variant:?}");
            summaries += usize::from(deepened);
            for mv in legal.iter().filter(|m| m.is_capture()) {
                let mut assumptions = formula.limits();
                for term in layout.moves[0].playing(mv).unwrap() {
                    match term {
                        Term::Lit(l) => assumptions.push(l),
                        Term::Const(true) => {}
                        Term::Const(false) => panic!("{variant:?}: {mv:?} has no variables"),
                    }
                }
                solver.assume(&assumptions);
                assert!(
                    solver.solve().unwrap(),
                    "{variant:?}: {mv:?} ruled out on {board:?}"
                );
                kept += 1;
            }
        }
        (kept, summaries)
    }

    /// The summary of a move (`encode::damaged::summary`) is implied by its
    /// steps: every legal capture of random boards, long ones too, stays
    /// possible, on every rule set whose kings fly (the others get none).
    #[test]
    fn the_summary_of_a_move_keeps_every_legal_capture() {
        let flying: Vec<Variant> = Variant::ALL
            .into_iter()
            .filter(|v| v.rules().movement().flying_kings)
            .collect();
        assert!(flying.len() >= 6, "{flying:?}");
        for (i, &variant) in flying.iter().enumerate() {
            let (kept, summaries) = captures_the_summary_keeps(variant, 17 + i as u64);
            assert!(kept >= 6, "{variant:?}: only {kept} captures drawn");
            assert!(
                summaries >= 3,
                "{variant:?}: only {summaries} summaries written"
            );
        }
    }

    /// The capture steps of the lone `?` written when the solve of
    /// `text` ends, and whether it found an answer.
    fn steps_at_the_end(variant: Variant, text: &str, open_steps: bool) -> (usize, bool) {
        let record = &crate::notation::parse_records_with(text, variant.geometry()).unwrap()[0];
        let mut cnf = varisat::CnfFormula::new();
        let options = EncodeOptions::default();
        let mut formula =
            Formula::encode(variant, record, BoardFacts::none(), &mut cnf, options).unwrap();
        let found = super::solve_canonically_with(&mut formula, &cnf, open_steps).unwrap();
        let layout = formula.encoded.layout.as_ref().unwrap();
        (layout.moves[0].steps.len(), found.answer.is_some())
    }

    /// A record whose lone `?` fits no move (repair session 11's
    /// International suffix, `encodings/repair.md`): with its steps left
    /// open the formula is already unsatisfiable, so the solve ends before
    /// writing every step; the verdict is the same.
    #[test]
    fn open_steps_refute_a_lone_unknown_before_every_step_is_written() {
        let text = "W 15\n25-48\n38-49\n4-10\n49-44\n26-31\n?\n23-14\n26-3\n10-4\n3-26\n48-39\n26-42\n2-8\n42-38\n8-13\n";
        let (all, found) = steps_at_the_end(Variant::International, text, false);
        let (open, found_open) = steps_at_the_end(Variant::International, text, true);
        assert!(!found && !found_open, "impossible either way");
        assert!(open < all, "{open} steps written, not fewer than {all}");
        // A possible record is solved either way.
        let text = "W 3\n26-31\n?\n31-36\n";
        assert!(steps_at_the_end(Variant::International, text, true).1);
    }

    #[test]
    fn a_lone_unknown_named_again_past_eight_steps_gets_all_of_them() {
        assert_eq!(next_depth(0, 72, true), 1);
        assert_eq!(next_depth(4, 72, true), 8);
        assert_eq!(next_depth(8, 72, true), 72);
        assert_eq!(next_depth(16, 38, true), 38);
        // Other damaged plies (a `?` square, a capture written short) double.
        assert_eq!(next_depth(8, 72, false), 16);
        assert_eq!(next_depth(32, 72, false), 64);
    }
}
