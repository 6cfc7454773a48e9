//! Refinement with the native replayer as the oracle
//! (`encodings/damaged.md`): a model is read back as a start board and the
//! moves of the damaged plies, and replayed. When the replay breaks a rule
//! the formula leaves to this stage (a capture was available, a capture
//! had to go on, more pieces could be taken, a king had to land where it
//! could go on), the replayer's board shows a capture that proves it: a
//! *witness*. The clause learned says "not (the board allows the witness
//! and the ply plays as it did)", over the board variables before that
//! ply. Every such clause is implied by the rules, so a formula that
//! becomes unsatisfiable with them is a proof that the record is
//! impossible; and each rules out the model it came from, so the solver
//! never sees the same mistake twice.

use std::ops::Not;

use varisat::Lit;

use crate::board::{Bits, Board, Color, Square};
use crate::encode::vars::{decode_on, lit, Fact};
use crate::encode::{truth_of, BoardFacts, Deferred, Layout, PlyView, Term};
use crate::notation::{MoveText, Record, WrittenMove};
use crate::rules::{taken_squares, Crowning, Movement, Rules, Violation};

use super::{check_facts, SolveError};

/// What a model is, once replayed.
#[derive(Clone, Debug)]
pub(crate) enum Check {
    /// An answer: the start board and the record with its moves filled in.
    Answer {
        /// The start board.
        start: Board,
        /// The moves played (the record itself when nothing is damaged).
        filled: Record,
        /// The replayer's end board.
        end: Board,
    },
    /// Not an answer: the clause that rules it out, learned at a ply.
    Learn {
        /// 1-based ply whose rule was broken.
        ply: usize,
        /// The clause (implied by the rules; false under the model).
        clause: Vec<Lit>,
        /// What the clause says, for listings.
        why: &'static str,
    },
    /// Not an answer, and the clause that rules it out speaks of capture
    /// steps of a damaged ply not written yet: write them first.
    Deepen {
        /// 1-based damaged ply.
        ply: usize,
        /// The capture steps it needs written.
        depth: usize,
    },
}

/// Replays models of one record's formula and explains the broken ones.
#[derive(Debug)]
pub(crate) struct Refiner<'a> {
    rules: &'a dyn Rules,
    record: &'a Record,
    layout: Option<&'a Layout>,
    known: BoardFacts,
    deferred: &'a [Deferred],
}

impl<'a> Refiner<'a> {
    /// A refiner of `record`'s models under `rules`; `layout` is the
    /// encoding's (damaged records), `known` the facts to check answers by.
    pub fn new(
        rules: &'a dyn Rules,
        record: &'a Record,
        layout: Option<&'a Layout>,
        known: BoardFacts,
    ) -> Refiner<'a> {
        Refiner {
            rules,
            record,
            layout,
            known,
            deferred: &[],
        }
    }

    /// The same refiner, told which plies' most-pieces rule the formula
    /// left out (see [`crate::encode::Encoded::deferred`]): a model that
    /// breaks it there teaches a witness clause, not an internal error.
    #[must_use]
    pub fn with_deferred(self, deferred: &'a [Deferred]) -> Refiner<'a> {
        Refiner { deferred, ..self }
    }

    /// The board before `ply` over the formula's variables, where a
    /// witness clause can be written: every ply of a damaged record, and
    /// the deferred plies of a clean one.
    fn view(&self, ply: usize) -> Option<&'a PlyView> {
        match self.layout {
            Some(layout) => layout.views.get(ply - 1),
            None => self.deferred.iter().find(|d| d.ply == ply).map(|d| &d.view),
        }
    }

    /// Reads `model` back and replays it.
    ///
    /// # Errors
    /// [`SolveError`] (a bug) when the model breaks a rule the formula
    /// writes in full (a bug of the encoding), or cannot be read back.
    pub fn check(&self, model: &[Lit]) -> Result<Check, SolveError> {
        let topology = self.rules.variant().topology();
        let start = decode_on(model, topology);
        if let Some(problem) = self.rules.start_problems(&start).first() {
            return Err(SolveError::ModelStartRuleBroken(*problem));
        }
        let filled = self.filled(model)?;
        let mut board = start;
        for (i, mv) in filled.moves.iter().enumerate() {
            let ply = i + 1;
            let side = filled.mover(ply);
            match self.rules.play(&board, side, mv) {
                Ok(next) => board = next,
                Err(violation) if self.learns_by_dependencies(&violation) => {
                    let played = Played {
                        start: &start,
                        moves: &filled.moves[..ply],
                        board: &board,
                        violation: &violation,
                    };
                    return self.learn_by_dependencies(&played, model);
                }
                Err(violation) => return self.learn(ply, &board, mv, &violation, model),
            }
        }
        let answer = crate::notation::Answer { start, end: board };
        check_facts(&answer, self.known)?;
        Ok(Check::Answer {
            start,
            filled,
            end: board,
        })
    }

    /// The record with the moves `model` plays at its damaged plies.
    fn filled(&self, model: &[Lit]) -> Result<Record, SolveError> {
        let Some(layout) = self.layout else {
            return Ok(self.record.clone());
        };
        let topology = self.rules.variant().topology();
        let mut chosen = layout.decode(model, topology).into_iter();
        let moves = self
            .record
            .written_moves()
            .into_iter()
            .enumerate()
            .map(|(i, written)| match written {
                WrittenMove::Known(mv) => Ok(mv),
                WrittenMove::Pattern(_) => match chosen.next() {
                    Some((ply, mv)) if ply == i + 1 => Ok(mv),
                    _ => Err(SolveError::ModelPlaysNoMove(i + 1)),
                },
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(self.record.filled(moves))
    }

    /// The clause for a broken rule at `ply`, checked to rule out `model`.
    fn learn(
        &self,
        ply: usize,
        board: &Board,
        played: &MoveText,
        violation: &Violation,
        model: &[Lit],
    ) -> Result<Check, SolveError> {
        let unexplained = || SolveError::RuleStatedInFullBroken {
            ply,
            played: Box::new(played.clone()),
            violation: Box::new(violation.clone()),
        };
        let view = self.view(ply).ok_or_else(unexplained)?;
        let side = self.record.mover(ply);
        let (witness, dominance) =
            witness(self.rules, board, side, played, violation).ok_or_else(unexplained)?;
        let clause = match clause(
            view,
            self.layout,
            &witness,
            dominance,
            side,
            self.rules.movement(),
            played,
        )
        .ok_or_else(unexplained)?
        {
            Ok(clause) => clause,
            Err(depth) => return Ok(Check::Deepen { ply, depth }),
        };
        let truth = truth_of(model);
        if clause.iter().any(|&l| Term::Lit(l).value(&truth)) {
            return Err(SolveError::ClauseKeepsModel(ply));
        }
        Ok(Check::Learn {
            ply,
            clause,
            why: WITNESS_CLAUSE,
        })
    }
}

impl Refiner<'_> {
    /// Witness clauses beyond the one [`Refiner::check`] learned (`first`:
    /// its ply and clause) for a rejected `model`: at each ply with a
    /// board over the formula's variables (every ply of a damaged record,
    /// written ones too; the deferred plies of a clean one) whose move, on
    /// the model's own board before it, breaks a rule a witness shows, a
    /// clause for every such witness. Each is implied by the rules and
    /// false under the model, so the solver learns the model's breaks at
    /// once, not one per call (many unknown moves on a large board would
    /// otherwise take hundreds; a written capture that is not the longest
    /// on an unknown start, a thousand).
    pub fn more_witnesses(&self, model: &[Lit], first: (usize, &[Lit])) -> Vec<(usize, Vec<Lit>)> {
        let Ok(filled) = self.filled(model) else {
            return Vec::new();
        };
        let truth = truth_of(model);
        let topology = self.rules.variant().topology();
        let mut found = Vec::new();
        for (i, mv) in filled.moves.iter().enumerate() {
            let ply = i + 1;
            let Some(view) = self.view(ply) else {
                continue;
            };
            let board = board_of(view, &truth, topology);
            let side = self.record.mover(ply);
            let Err(violation) = self.rules.play(&board, side, mv) else {
                continue;
            };
            if self.learns_by_dependencies(&violation) {
                continue;
            }
            for (witness, dominance) in witnesses(self.rules, &board, side, mv, &violation) {
                let made = clause(
                    view,
                    self.layout,
                    &witness,
                    dominance,
                    side,
                    self.rules.movement(),
                    mv,
                );
                let Some(Ok(clause)) = made else {
                    continue;
                };
                let false_here = clause.iter().all(|&l| !Term::Lit(l).value(&truth));
                if false_here && !(ply == first.0 && clause == first.1) {
                    found.push((ply, clause));
                }
            }
        }
        found
    }
}

impl Refiner<'_> {
    /// The compulsory-capture rule of every damaged ply that may be a
    /// simple move, written before the first solve: for each short first
    /// jump (over a neighbour) the ply's board may allow, "not (the board
    /// allows it and the ply is a simple move)". These are the clauses the
    /// replayer would teach a model at a time (`Capture` witnesses), and
    /// are implied by the rules; constants of the symbolic board drop the
    /// jumps that cannot be there. Flying kings' jumps from afar are left
    /// to refinement: writing them all measured slower
    /// (`encodings/damaged.md`).
    pub fn eager_clauses(&self) -> Vec<(usize, Vec<Lit>)> {
        let Some(layout) = self.layout else {
            return Vec::new();
        };
        let movement = self.rules.movement();
        if !movement.men_capture_kings {
            // A jump's conditions do not say whether a man may take the
            // piece jumped (`learns_by_dependencies`): no clause is sound.
            return Vec::new();
        }
        let jumps = short_jumps(self.rules.variant().topology());
        let mut out = Vec::new();
        for (i, view) in layout.views.iter().enumerate() {
            let Some(mv) = view.damaged.and_then(|d| layout.moves.get(d)) else {
                continue;
            };
            if mv.capture == Term::Const(true) {
                continue;
            }
            let (ply, side) = (i + 1, self.record.mover(i + 1));
            for witness in &jumps {
                let Some(played) = MoveText::along(witness.path.clone(), true) else {
                    continue;
                };
                let made = clause(
                    view,
                    self.layout,
                    witness,
                    Dominance::Capture,
                    side,
                    movement,
                    &played,
                );
                if let Some(Ok(clause)) = made {
                    out.push((ply, clause));
                }
            }
        }
        out
    }
}

/// Every short jump on `topology`: a piece, the neighbour it takes and the
/// square beyond, where it lands.
fn short_jumps(topology: crate::board::Topology) -> Vec<Witness> {
    let mut out = Vec::new();
    for origin in topology.squares() {
        for dir in crate::board::Direction::ALL {
            let Some(taken) = origin.step(dir) else {
                continue;
            };
            if let Some(landing) = taken.step(dir) {
                out.push(Witness {
                    path: vec![origin, landing],
                    taken: vec![taken],
                });
            }
        }
    }
    out
}

/// What `view`'s board holds under the assignment `truth`.
fn board_of(view: &PlyView, truth: &[bool], topology: crate::board::Topology) -> Board {
    let mut board = Board::empty_on(topology);
    for square in topology.squares() {
        if !view.fact(square, Fact::Occupied).value(truth) {
            continue;
        }
        let color = if view.fact(square, Fact::White).value(truth) {
            Color::White
        } else {
            Color::Black
        };
        let role = if view.fact(square, Fact::King).value(truth) {
            crate::board::Role::King
        } else {
            crate::board::Role::Man
        };
        board.set(square, Some(crate::board::Piece::new(color, role)));
    }
    board
}

/// [`Check::Learn`]'s words for a witness clause.
pub const WITNESS_CLAUSE: &str = "a capture the board allows rules out the move played";
/// [`Learned`](super::Learned)'s words for an eager compulsory-capture clause.
pub const EAGER_CLAUSE: &str = "a capture the board may allow rules out a simple move";
/// [`Check::Learn`]'s words for a dependency clause.
pub const DEPENDENCY_CLAUSE: &str =
    "the start squares the ply's break depends on are not all as in a model that broke it";

/// A model's replay up to the ply that broke a rule.
struct Played<'p> {
    /// The model's start board.
    start: &'p Board,
    /// The moves played, the breaking one last.
    moves: &'p [MoveText],
    /// The board before the breaking move.
    board: &'p Board,
    /// The rule it broke.
    violation: &'p Violation,
}

impl Refiner<'_> {
    /// Whether a break is learned by [`Refiner::learn_by_dependencies`]:
    /// the rules of choice no witness clause states (Spanish "the most
    /// kings", the Italian order), and every break under rules where men
    /// may not take kings (a witness's conditions would not say the
    /// capture is open).
    fn learns_by_dependencies(&self, violation: &Violation) -> bool {
        matches!(
            violation,
            Violation::NotTheMostKings { .. }
                | Violation::NotPreferred { .. }
                | Violation::ManTakesKing { .. }
        ) || !self.rules.movement().men_capture_kings
    }

    /// The clause for a break no witness clause states: not (the start
    /// board agrees with the model on every square the break depends on,
    /// and the damaged plies play as they did). The break depends on the
    /// contents of the lines of the move played and of every capture open
    /// to the side; any start that agrees on the squares those contents
    /// depend on, with the same moves, replays to the same contents there,
    /// so the same move breaks a rule again: the clause is implied by the
    /// rules, and rules the model out.
    fn learn_by_dependencies(&self, played: &Played, model: &[Lit]) -> Result<Check, SolveError> {
        let ply = played.moves.len();
        let unexplained = || SolveError::BreakUnexplained {
            ply,
            violation: played.violation.clone(),
        };
        let side = self.record.mover(ply);
        let mv = played.moves.last().ok_or_else(unexplained)?;
        let captures = self.rules.capture_sequences(played.board, side);
        let deps = dependencies(
            self.rules,
            self.record,
            played.start,
            &played.moves[..ply - 1],
        )
        .ok_or_else(unexplained)?;
        let relevant = std::iter::once(mv.path())
            .chain(captures.iter().map(MoveText::path))
            .flat_map(lines)
            .fold(0, |all, s| all | deps[s.index()]);
        let mut clause = differs_on(played.start, relevant);
        if let Some(layout) = self.layout {
            for (i, mv) in played.moves.iter().enumerate() {
                let Some(vars) = layout.views[i].damaged.and_then(|d| layout.moves.get(d)) else {
                    continue;
                };
                let Some(playing) = vars.playing(mv) else {
                    return Ok(Check::Deepen {
                        ply: i + 1,
                        depth: mv.landings().len(),
                    });
                };
                for term in playing {
                    match term.not() {
                        Term::Lit(l) => clause.push(l),
                        Term::Const(true) => return Err(unexplained()),
                        Term::Const(false) => {}
                    }
                }
            }
        }
        let truth = truth_of(model);
        if clause.iter().any(|&l| Term::Lit(l).value(&truth)) {
            return Err(SolveError::ClauseKeepsModel(ply));
        }
        clause.sort_unstable();
        clause.dedup();
        Ok(Check::Learn {
            ply,
            clause,
            why: DEPENDENCY_CLAUSE,
        })
    }
}

/// Every square on the legs of a move along `path`: its origin and each
/// leg's squares up to its landing.
fn lines(path: &[Square]) -> Vec<Square> {
    let mut out = vec![path[0]];
    for leg in path.windows(2) {
        if let Some((dir, _)) = leg[0].diagonal_to(leg[1]) {
            let way = std::iter::successors(leg[0].step(dir), |s| s.step(dir));
            out.extend(way.take_while(|&s| s != leg[1]).chain([leg[1]]));
        }
    }
    out
}

/// For each square (by index), the start squares whose contents decide
/// what it holds after `moves` are played from `start` (as long as they
/// replay at all): its own at first; after a move, nothing for the square
/// left (empty), the mover's for its landing (its colour is the side's,
/// its rank its own), and for each piece taken the squares from the leg's
/// start up to it (they decided which piece the leg took).
fn dependencies(
    rules: &dyn Rules,
    record: &Record,
    start: &Board,
    moves: &[MoveText],
) -> Option<Vec<Bits>> {
    let topology = start.topology();
    let mut deps: Vec<Bits> = topology.squares().map(Square::bit).collect();
    let mut board = *start;
    for (i, mv) in moves.iter().enumerate() {
        let origin = mv.from();
        let mut lifted = board;
        lifted.set(origin, None);
        let mut changed = vec![(origin, 0)];
        if mv.is_capture() {
            for (at, to) in mv.steps() {
                let (dir, _) = at.diagonal_to(to)?;
                let mut seen: Bits = 0;
                for s in std::iter::successors(at.step(dir), |s| s.step(dir)) {
                    if s == to {
                        break;
                    }
                    seen |= deps[s.index()];
                    if !lifted.is_empty(s) {
                        changed.push((s, seen));
                        break;
                    }
                }
            }
        }
        changed.push((mv.to(), deps[origin.index()]));
        for (s, d) in changed {
            deps[s.index()] = d;
        }
        board = rules.play(&board, record.mover(i + 1), mv).ok()?;
    }
    Some(deps)
}

/// The literals "the start differs from `start` on a square of `squares`".
fn differs_on(start: &Board, squares: Bits) -> Vec<Lit> {
    let mut out = Vec::new();
    for s in start.topology().squares_in(squares) {
        match start.get(s) {
            None => out.push(lit(s, Fact::Occupied, true)),
            Some(piece) => out.extend([
                lit(s, Fact::Occupied, false),
                lit(s, Fact::White, piece.color != Color::White),
                lit(s, Fact::King, !piece.is_king()),
            ]),
        }
    }
    out
}

/// A capture on the board before a ply that shows the ply's move illegal.
#[derive(Clone, Debug)]
struct Witness {
    /// Its squares: where the piece starts, then each landing.
    path: Vec<Square>,
    /// The square of the piece taken on each leg.
    taken: Vec<Square>,
}

/// What the witness proves of the ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dominance {
    /// A capture was available, so the ply had to capture.
    Capture,
    /// This many pieces could be taken, so the ply had to take as many.
    TakesAtLeast(usize),
    /// The ply's very move is illegal (it had to go on, or land elsewhere).
    ThisMove,
    /// A king could capture, so the ply's capture had to be a king's.
    KingCapture,
}

/// The witness of `violation` by `played`, found on `board` (the board
/// before the ply), and what it proves.
fn witness(
    rules: &dyn Rules,
    board: &Board,
    side: Color,
    played: &MoveText,
    violation: &Violation,
) -> Option<(Witness, Dominance)> {
    let starting = |prefix: &[Square]| {
        rules
            .capture_sequences(board, side)
            .into_iter()
            .find(|c| c.path().len() > prefix.len() && c.path().starts_with(prefix))
    };
    let (capture, dominance) = match violation {
        Violation::CaptureAvailable { example } => {
            let first = MoveText::along(example.path()[..2].to_vec(), true)?;
            (first, Dominance::Capture)
        }
        Violation::NotTheMost { most, .. } => {
            let longest = rules
                .legal_moves(board, side)
                .into_iter()
                .find(|m| m.is_capture() && m.landings().len() == *most)?;
            (longest, Dominance::TakesAtLeast(*most))
        }
        Violation::KingMustCapture { example } => {
            let first = MoveText::along(example.path()[..2].to_vec(), true)?;
            (first, Dominance::KingCapture)
        }
        Violation::MustContinue { .. } => (starting(played.path())?, Dominance::ThisMove),
        Violation::MustLandToContinue { instead, .. } => {
            let path = played.path();
            let mut prefix = path[..path.len() - 1].to_vec();
            prefix.push(*instead);
            (starting(&prefix)?, Dominance::ThisMove)
        }
        _ => return None,
    };
    witness_of(board, &capture, dominance)
}

/// The witness a capture on `board` gives, with what it proves (`None`
/// when its path takes nothing there).
fn witness_of(
    board: &Board,
    capture: &MoveText,
    dominance: Dominance,
) -> Option<(Witness, Dominance)> {
    let taken = taken_squares(board, capture.path())?;
    Some((
        Witness {
            path: capture.path().to_vec(),
            taken,
        },
        dominance,
    ))
}

/// Every witness of `violation` by `played` on `board` (at most
/// [`MAX_WITNESSES`]): each capture that shows the move illegal, not only
/// the first. Each gives a clause; a solver told them all at once does not
/// try the same mistake with another capture next time.
fn witnesses(
    rules: &dyn Rules,
    board: &Board,
    side: Color,
    played: &MoveText,
    violation: &Violation,
) -> Vec<(Witness, Dominance)> {
    let of = |capture: &MoveText, dominance| witness_of(board, capture, dominance);
    let found: Vec<(Witness, Dominance)> = match violation {
        Violation::CaptureAvailable { .. } => {
            let mut firsts: Vec<MoveText> = rules
                .capture_sequences(board, side)
                .iter()
                .filter_map(|c| MoveText::along(c.path()[..2].to_vec(), true))
                .collect();
            firsts.dedup();
            firsts
                .iter()
                .filter_map(|c| of(c, Dominance::Capture))
                .collect()
        }
        Violation::NotTheMost { taken, .. } => {
            // The shortest witnesses say the most: the first `taken + 1`
            // legs of each longer capture (the rule needs no more).
            let mut prefixes: Vec<MoveText> = rules
                .capture_sequences(board, side)
                .iter()
                .filter(|c| c.landings().len() > *taken)
                .filter_map(|c| MoveText::along(c.path()[..taken + 2].to_vec(), true))
                .collect();
            prefixes.sort_by(|a, b| a.path().cmp(b.path()));
            prefixes.dedup();
            prefixes
                .iter()
                .filter_map(|c| of(c, Dominance::TakesAtLeast(taken + 1)))
                .collect()
        }
        _ => witness(rules, board, side, played, violation)
            .into_iter()
            .collect(),
    };
    found.into_iter().take(MAX_WITNESSES).collect()
}

/// The most witness clauses learned at one ply of one model.
const MAX_WITNESSES: usize = 16;

/// Whether the witness's piece must have been a king when it started.
fn needs_king(witness: &Witness, side: Color, movement: Movement) -> bool {
    let mut king = false;
    let legs = witness.path.windows(2).count();
    for (i, leg) in witness.path.windows(2).enumerate() {
        if !king && movement.segment_needs_king(side, leg[0], leg[1]) {
            return true;
        }
        if leg[1].crowns(side) && !king {
            match movement.crowning {
                Crowning::ContinuesAsKing => king = true,
                Crowning::EndsMove if i + 1 < legs => return true,
                Crowning::EndsMove | Crowning::PassesAsMan => {}
            }
        }
    }
    false
}

/// What the board before the ply must hold for the witness to exist.
fn conditions(
    view: &PlyView,
    witness: &Witness,
    dominance: Dominance,
    side: Color,
    movement: Movement,
) -> Vec<Term> {
    let origin = witness.path[0];
    let mut terms: Vec<Term> = view.holds(origin, side).to_vec();
    if dominance == Dominance::KingCapture || needs_king(witness, side, movement) {
        terms.push(view.fact(origin, Fact::King));
    }
    let mut taken_so_far: Vec<Square> = Vec::new();
    for (leg, &taken) in witness.path.windows(2).zip(&witness.taken) {
        terms.extend(view.holds(taken, side.opposite()));
        let Some((dir, _)) = leg[0].diagonal_to(leg[1]) else {
            continue;
        };
        let way = std::iter::successors(leg[0].step(dir), |s| s.step(dir));
        for square in way.take_while(|&s| s != leg[1]).chain([leg[1]]) {
            let gone = movement.removed_at_once && taken_so_far.contains(&square);
            if square != taken && square != origin && !gone {
                terms.push(view.empty(square));
            }
        }
        taken_so_far.push(taken);
    }
    terms
}

/// The clause: not the witness's conditions, or the ply does what the
/// witness allows (a damaged ply's move is variables; a known ply's is
/// fixed). `Err(depth)` when it needs capture steps of the damaged ply
/// not written yet; `None` when the witness proves nothing.
fn clause(
    view: &PlyView,
    layout: Option<&Layout>,
    witness: &Witness,
    dominance: Dominance,
    side: Color,
    movement: Movement,
    played: &MoveText,
) -> Option<Result<Vec<Lit>, usize>> {
    let mut terms: Vec<Term> = conditions(view, witness, dominance, side, movement)
        .into_iter()
        .map(Term::not)
        .collect();
    let damaged = view.damaged.zip(layout);
    if let Some(mv) = damaged.and_then(|(i, layout)| layout.moves.get(i)) {
        match dominance {
            Dominance::Capture => terms.push(mv.capture),
            Dominance::TakesAtLeast(n) => match mv.takes_at_least(n) {
                Some(term) => terms.push(term),
                None => return Some(Err(n - 1)),
            },
            Dominance::ThisMove => match mv.playing(played) {
                Some(playing) => terms.extend(playing.into_iter().map(Term::not)),
                None => return Some(Err(played.landings().len())),
            },
            Dominance::KingCapture => terms.push(Term::Lit(mv.king_before)),
        }
    } else if dominance == Dominance::KingCapture {
        terms.push(view.fact(played.from(), Fact::King));
    }
    let mut lits = Vec::with_capacity(terms.len());
    for term in terms {
        match term {
            Term::Const(true) => return None,
            Term::Const(false) => {}
            Term::Lit(l) => lits.push(l),
        }
    }
    lits.sort_unstable();
    lits.dedup();
    Some(Ok(lits))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_board_on, parse_records_with};
    use crate::rules::Variant;

    /// The eager clauses of a lone `?` on an unknown start: many under
    /// English; none under Italian, whose men may not take kings (a
    /// jump's conditions cannot say so).
    #[test]
    fn no_eager_clauses_where_men_may_not_take_kings() {
        use crate::encode::EncodeOptions;
        use crate::notation::{MovePattern, WrittenMove};
        let eager = |variant: Variant| {
            let record = Record::from_written(
                Color::White,
                vec![WrittenMove::Pattern(MovePattern::Unknown)],
                0,
            );
            let mut cnf = varisat::CnfFormula::new();
            let formula = crate::solve::Formula::encode(
                variant,
                &record,
                BoardFacts::default(),
                &mut cnf,
                EncodeOptions::default(),
            )
            .unwrap();
            formula.refiner().eager_clauses().len()
        };
        assert!(eager(Variant::English) > 0);
        assert_eq!(eager(Variant::Italian), 0);
    }

    /// Whether a lone `?` as White's first ply may be a simple move on
    /// `text`, a start board known on every square but `hidden`, with
    /// `hidden` as `occupied` says, with or without the eager clauses.
    fn simple_move_possible(text: &str, hidden: u32, occupied: bool, eager: bool) -> bool {
        use crate::board::PartialBoard;
        use crate::encode::EncodeOptions;
        use crate::notation::{MovePattern, WrittenMove};
        use varisat::ExtendFormula;
        let english = Variant::English;
        let topology = english.topology();
        let board = parse_board_on(text, topology).unwrap();
        let record = Record::from_written(
            Color::White,
            vec![WrittenMove::Pattern(MovePattern::Unknown)],
            0,
        );
        let hidden = topology.square(hidden).unwrap();
        let known = BoardFacts {
            start: Some(PartialBoard {
                board,
                known: topology.all_bits() & !hidden.bit(),
            }),
            end: None,
        };
        let mut cnf = varisat::CnfFormula::new();
        let options = EncodeOptions {
            complete: true,
            ..EncodeOptions::default()
        };
        let formula =
            crate::solve::Formula::encode(english, &record, known, &mut cnf, options).unwrap();
        let mut solver = varisat::Solver::new();
        solver.add_formula(&cnf);
        if eager {
            for (_, clause) in formula.refiner().eager_clauses() {
                solver.add_clause(&clause);
            }
        }
        let mut assumptions = vec![lit(hidden, Fact::Occupied, occupied)];
        match formula.encoded.layout.as_ref().unwrap().moves[0].capture {
            Term::Lit(capture) => assumptions.push(!capture),
            Term::Const(true) => return false,
            Term::Const(false) => {}
        }
        solver.assume(&assumptions);
        solver.solve().unwrap()
    }

    /// A man that may jump if the square beyond (13) is empty: the formula
    /// alone lets the ply be a simple move; with the eager clauses only
    /// while 13 is occupied. With no piece to jump, a simple move stays.
    #[test]
    fn eager_clauses_forbid_a_simple_move_where_a_jump_is_open() {
        let jump =
            "-.-.-.-.\n.-.-.-.-\n-.-.-.-.\n.-.-.-.-\n-b-.-.-.\n.-w-.-.-\n-.-.-.-.\n.-.-.-.-\n";
        assert!(simple_move_possible(jump, 13, false, false));
        assert!(!simple_move_possible(jump, 13, false, true));
        assert!(simple_move_possible(jump, 13, true, true));
        let apart =
            "-b-.-.-.\n.-.-.-.-\n-.-.-.-.\n.-.-.-.-\n-.-.-.-.\n.-w-.-.-\n-.-.-.-.\n.-.-.-.-\n";
        assert!(simple_move_possible(apart, 13, false, true));
    }

    /// A written capture of one piece where two men could take more, in a
    /// damaged record on an unknown start: a model that plays it on that
    /// board teaches a clause per longer capture at the written ply, not
    /// only the first one the replayer meets (a round is a solver call).
    #[test]
    fn every_longer_capture_at_a_written_ply_is_learned_at_once() {
        use crate::encode::EncodeOptions;
        let international = Variant::International;
        let topology = international.topology();
        let text = "-.-.-.-.-.\n.-.-.-.-.-\n-.-.-.-.-.\n.-.-.-.-.-\n-.-.-.-.-.\n\
                    .-b-b-b-.-\n-.-w-.-.-.\n.-.-.-b-b-\n-.-.-.-w-w\n.-.-.-.-.-\n";
        let start = parse_board_on(text, topology).unwrap();
        let record = parse_records_with("W 2\n32x21\n?\n", international.geometry())
            .unwrap()
            .remove(0);
        let mut cnf = varisat::CnfFormula::new();
        let formula = crate::solve::Formula::encode(
            international,
            &record,
            BoardFacts::default(),
            &mut cnf,
            EncodeOptions::default(),
        )
        .unwrap();
        let mut solver = varisat::Solver::new();
        solver.add_formula(&cnf);
        let mut on_start: Vec<Lit> = Vec::new();
        for s in topology.squares() {
            let piece = start.get(s);
            on_start.push(lit(s, Fact::Occupied, piece.is_some()));
            on_start.push(lit(
                s,
                Fact::White,
                piece.is_some_and(|p| p.color == Color::White),
            ));
            on_start.push(lit(s, Fact::King, false));
        }
        on_start.extend(formula.limits());
        solver.assume(&on_start);
        assert!(solver.solve().unwrap());
        let model = solver.model().unwrap();
        let refiner = formula.refiner();
        let Ok(Check::Learn { ply, clause, .. }) = refiner.check(&model) else {
            panic!("the model is not refined");
        };
        assert_eq!(ply, 1);
        let more = refiner.more_witnesses(&model, (ply, &clause));
        let truth = truth_of(&model);
        let at_the_capture: Vec<_> = more.iter().filter(|(p, _)| *p == 1).collect();
        assert!(!at_the_capture.is_empty(), "{more:?}");
        for (_, other) in &at_the_capture {
            assert_ne!(other, &clause);
            assert!(other.iter().all(|&l| !Term::Lit(l).value(&truth)));
        }
    }

    /// A Spanish man that takes a man where it could take a king: the
    /// clause learned speaks of the squares both captures depend on, rules
    /// the model out, and lets a start where the king is a man through.
    #[test]
    fn the_most_kings_is_learned_from_the_squares_it_depends_on() {
        let spanish = Variant::Spanish;
        let topology = spanish.topology();
        let text =
            ".-.-.-.-\n-.-.-.-.\n.-.-.-.-\n-.-.-.-.\n.-b-B-.-\n-.-w-.-.\n.-.-.-.-\n-.-.-.-.\n";
        let start = parse_board_on(text, topology).unwrap();
        let record = parse_records_with("W 1\n11x20\n", spanish.geometry())
            .unwrap()
            .remove(0);
        let model: Vec<Lit> = topology
            .squares()
            .flat_map(|s| {
                let piece = start.get(s);
                [
                    lit(s, Fact::Occupied, piece.is_some()),
                    lit(
                        s,
                        Fact::White,
                        piece.is_some_and(|p| p.color == Color::White),
                    ),
                    lit(s, Fact::King, piece.is_some_and(|p| p.is_king())),
                ]
            })
            .collect();
        let refiner = Refiner::new(spanish.rules(), &record, None, BoardFacts::default());
        let Ok(Check::Learn { ply, clause, .. }) = refiner.check(&model) else {
            panic!("the model is not refined");
        };
        assert_eq!(ply, 1);
        let truth = truth_of(&model);
        assert!(clause.iter().all(|&l| !Term::Lit(l).value(&truth)));
        // The squares of the two captures, and no other.
        let sq = |n| topology.square(n).unwrap();
        let mut squares: Vec<u8> = topology
            .squares()
            .filter(|&s| {
                clause
                    .iter()
                    .any(|l| l.var() == lit(s, Fact::Occupied, true).var())
            })
            .map(|s| s.number())
            .collect();
        squares.sort_unstable();
        assert_eq!(squares, [11, 14, 15, 18, 20]);
        // With a man for the king, the clause holds: the start is not ruled out.
        let king = sq(14);
        assert_eq!(start.get(king).map(|p| p.is_king()), Some(true));
        let other = lit(king, Fact::King, false);
        assert!(clause.contains(&other));
    }
}
