//! The move of one damaged ply as variables (`encodings/damaged.md`): its
//! origin, whether it captures, the destination of a simple move, and for
//! each capture step whether it happens, where it lands and which piece it
//! takes; then where the move ends and whether the piece is a king after.
//!
//! Only the rules of the move itself are written here (the piece belongs
//! to the side, each leg is open except for the one piece it takes, pieces
//! taken stay or leave as the rule set says, men go forward and kings
//! fly). The rules that range over every other move on the board (a
//! capture is compulsory, a capture goes on while it can, the most pieces
//! must be taken, a king lands where it can go on) are added lazily, when
//! the replayer finds them broken (`crate::solve`).

use std::ops::Not;

use varisat::Lit;

use crate::board::{Color, Square, Topology};
use crate::notation::{MovePattern, MoveText};
use crate::rules::{Crowning, Movement};

use super::super::gadgets::{Term, VarMap, Writer};
use super::super::sink::ClauseSink;
use super::super::symbolic::{wide_mask as mask, SymBoard};
use super::super::vars::{lit, Fact};
use super::domains::{Domains, Segment};
use crate::board::Bits as Mask;

/// Literals indexed by square, absent (false) off their domain.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SquareLits(Vec<Option<Lit>>);

impl SquareLits {
    /// One fresh variable per square of `domain` on `topology`.
    pub(super) fn fresh(
        domain: Mask,
        topology: Topology,
        vars: &mut VarMap,
        name: impl Fn(Square) -> String,
    ) -> SquareLits {
        let mut lits = vec![None; topology.count()];
        for square in topology.squares().filter(|s| domain & mask(s) != 0) {
            lits[square.index()] = Some(vars.fresh(|| name(square)));
        }
        SquareLits(lits)
    }

    /// The literal of `square`, if it has one.
    pub fn get(&self, square: Square) -> Option<Lit> {
        self.0.get(square.index()).copied().flatten()
    }

    /// The literal of `square` as a term (false off the domain).
    pub fn term(&self, square: Square) -> Term {
        self.get(square).into()
    }

    /// Every literal, in square order.
    pub fn lits(&self) -> Vec<Lit> {
        self.0.iter().flatten().copied().collect()
    }

    /// The square whose literal is true in `truth`, if any.
    pub fn chosen(&self, truth: &[bool], topology: Topology) -> Option<Square> {
        topology
            .squares()
            .find(|&s| self.get(s).is_some_and(|l| Term::Lit(l).value(truth)))
    }
}

/// One capture step's variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepVars {
    /// The step happens.
    pub active: Lit,
    /// Where it lands.
    pub lands: SquareLits,
    /// The piece it takes.
    pub taken: SquareLits,
    /// The pieces taken so far, this step included.
    pub taken_so_far: SquareLits,
    /// The moving piece is a king during this step.
    pub king: Term,
}

/// The variables of a damaged ply's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveVars {
    /// 1-based ply.
    pub ply: usize,
    /// The side making it.
    pub side: Color,
    /// Where the piece starts.
    pub from: SquareLits,
    /// The move is a capture (a simple move otherwise).
    pub capture: Term,
    /// The piece is a king before it moves.
    pub king_before: Lit,
    /// A simple move's destination.
    pub simple_to: SquareLits,
    /// Capture steps 1, 2, ... written so far.
    pub steps: Vec<StepVars>,
    /// While steps the domains allow are not written yet: the `happens`
    /// variable of the first of them, "the move goes on past the steps
    /// written". A solve assumes it false until it writes that step.
    pub more: Option<Lit>,
    /// How many capture steps the domains allow.
    pub most_steps: usize,
    /// Where the move ends.
    pub ends: SquareLits,
    /// The pieces the move takes, at whichever step.
    pub removed: SquareLits,
    /// The piece is a king after the move.
    pub king_after: Lit,
    /// Squares a capture lands on at some step, or starts from (only where
    /// the summary of the move's captures is written).
    pub visits: SquareLits,
    /// The summary is written (`summary.rs`): once, at the first deepening.
    pub summarised: bool,
    /// What the steps written so far say of the move's end.
    closing: Closing,
}

/// The terms the clauses that close a move are made of, as far as its
/// steps are written: each is extended by a step, and the closing clauses
/// written again (the older ones, weaker, stay true).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Closing {
    /// Per square: the terms that say the move stops there.
    stops: Vec<Vec<Term>>,
    /// The reasons the piece is a king after the move.
    king_reasons: Vec<Term>,
    /// A short pattern's middle squares: `matched[j]` says the first `j`
    /// fit the landings so far.
    matched: Vec<Term>,
}

impl MoveVars {
    /// The move a model plays (`truth`: one flag per variable); `None`
    /// when it plays none or goes on past the steps written.
    pub fn decode(&self, truth: &[bool], topology: Topology) -> Option<MoveText> {
        let from = self.from.chosen(truth, topology)?;
        if !self.capture.value(truth) {
            let to = self.simple_to.chosen(truth, topology)?;
            return MoveText::along(vec![from, to], false);
        }
        if self.steps.iter().all(|s| Term::Lit(s.active).value(truth))
            && Term::from(self.more).value(truth)
        {
            return None;
        }
        let mut path = vec![from];
        for step in self
            .steps
            .iter()
            .take_while(|s| Term::Lit(s.active).value(truth))
        {
            path.push(step.lands.chosen(truth, topology)?);
        }
        MoveText::along(path, true)
    }

    /// The literals that say "this ply plays `mv`": its origin, its kind,
    /// each landing, and that it goes no further; `None` while the steps
    /// it needs are not written.
    pub fn playing(&self, mv: &MoveText) -> Option<Vec<Term>> {
        let mut lits = vec![self.from.term(mv.from())];
        if !mv.is_capture() {
            lits.push(self.capture.not());
            lits.push(self.simple_to.term(mv.to()));
            return Some(lits);
        }
        let landings = mv.landings();
        if landings.len() > self.steps.len() && landings.len() <= self.most_steps {
            return None;
        }
        lits.push(self.capture);
        for (step, &to) in self.steps.iter().zip(landings) {
            lits.push(step.lands.term(to));
        }
        if landings.len() > self.steps.len() {
            lits.push(Term::Const(false));
        }
        lits.push(self.happens(landings.len() + 1).not());
        Some(lits)
    }

    /// "The move takes at least `n` pieces"; `None` while step `n` is
    /// neither written nor the next one.
    pub fn takes_at_least(&self, n: usize) -> Option<Term> {
        match n {
            0 => Some(Term::Const(true)),
            n if n > self.most_steps => Some(Term::Const(false)),
            n if n > self.steps.len() + 1 => None,
            n => Some(self.happens(n)),
        }
    }

    /// "Step `k` (1-based) happens", for a step written or the next one
    /// (false past the most the domains allow).
    fn happens(&self, k: usize) -> Term {
        match self.steps.get(k - 1) {
            Some(step) => step.active.into(),
            None if k == self.steps.len() + 1 => self.more.into(),
            None => Term::Const(false),
        }
    }
}

/// The board before the ply, as terms over absolute variables.
pub(super) struct Before<'b> {
    pub board: &'b SymBoard,
    /// First variable of the block the board's contents refer to.
    pub offset: usize,
}

impl Before<'_> {
    /// `fact` of `square`: a constant, or a variable of the block.
    pub fn fact(&self, square: Square, fact: Fact) -> Term {
        use super::super::symbolic::Content;
        let shifted = |s: Square, f: Fact| {
            let l = lit(s, f, true);
            Term::Lit(varisat::Var::from_index(l.index() + self.offset).positive())
        };
        match self.board.get(square) {
            Content::Start => shifted(square, fact),
            Content::Emptied { .. } => Term::Const(false),
            Content::Moved {
                color,
                crowned,
                origin,
                ..
            } => match fact {
                Fact::Occupied => Term::Const(true),
                Fact::White => Term::Const(color == Color::White),
                Fact::King if crowned => Term::Const(true),
                Fact::King => shifted(origin, Fact::King),
            },
        }
    }

    /// "`square` is empty".
    pub fn empty(&self, square: Square) -> Term {
        self.fact(square, Fact::Occupied).not()
    }

    /// "`square` holds a piece of `color`", as two terms that must both hold.
    pub fn holds(&self, square: Square, color: Color) -> [Term; 2] {
        let white = self.fact(square, Fact::White);
        let colour = if color == Color::White {
            white
        } else {
            white.not()
        };
        [self.fact(square, Fact::Occupied), colour]
    }
}

/// Everything [`encode_move`] needs.
pub(super) struct MoveInput<'a, 'b> {
    pub ply: usize,
    pub side: Color,
    pub pattern: &'a MovePattern,
    pub movement: Movement,
    pub domains: &'a Domains,
    pub before: Before<'b>,
}

/// Writes the clauses of a damaged ply's move with its first `depth`
/// capture steps (all of them for a capture written whole); its variables.
pub(super) fn encode_move<S: ClauseSink>(
    out: &mut Writer<'_, S>,
    vars: &mut VarMap,
    input: &MoveInput<'_, '_>,
    depth: usize,
) -> MoveVars {
    let topology = input.before.board.topology();
    let ply = input.ply;
    let mut mv = origin(out, vars, input, topology);
    simple_move(out, vars, input, &mut mv, topology);
    mv.ends = SquareLits::fresh(input.domains.ends, topology, vars, |s| {
        format!("ply {ply} ends on {s}")
    });
    let removable = input.domains.steps.iter().fold(0, |all, s| all | s.taken);
    mv.removed = SquareLits::fresh(removable, topology, vars, |s| {
        format!("ply {ply} takes {s}")
    });
    mv.king_after = vars.fresh(|| format!("ply {ply}: the piece is a king after it"));
    simple_ends(out, input, &mut mv, topology);
    if !input.domains.steps.is_empty() {
        let first = vars.fresh(|| format!("ply {ply} step 1 happens"));
        out.equal(&[], first.into(), mv.capture);
        mv.more = Some(first);
    }
    let depth = match input.domains.exact_steps {
        Some(_) => mv.most_steps,
        None => depth,
    };
    grow(out, vars, input, &mut mv, depth);
    if let Some(n) = input.domains.exact_steps {
        let all = mv.takes_at_least(n).unwrap_or(Term::Const(false));
        out.implies(&[mv.capture], all);
    }
    mv
}

/// Writes steps of `mv` up to `depth` (as far as the domains allow), then
/// the clauses that close the move as far as it is written.
pub(super) fn grow<S: ClauseSink>(
    out: &mut Writer<'_, S>,
    vars: &mut VarMap,
    input: &MoveInput<'_, '_>,
    mv: &mut MoveVars,
    depth: usize,
) {
    let topology = input.before.board.topology();
    let first = mv.steps.len() + 1;
    for k in first..=depth.min(mv.most_steps) {
        capture_step(out, vars, input, mv, k, topology);
    }
    close(out, mv, topology);
}

/// The origin (exactly one), its piece (the side's), whether it is a king,
/// and whether the move captures.
fn origin<S: ClauseSink>(
    out: &mut Writer<'_, S>,
    vars: &mut VarMap,
    input: &MoveInput<'_, '_>,
    topology: Topology,
) -> MoveVars {
    let (ply, domains) = (input.ply, input.domains);
    let from = SquareLits::fresh(domains.origins, topology, vars, |s| {
        format!("ply {ply} starts on {s}")
    });
    out.exactly_one_if(
        Term::Const(true),
        &from.lits(),
        vars,
        &format!("ply {ply} origin"),
    );
    let king_before = vars.fresh(|| format!("ply {ply}: the piece is a king"));
    for square in topology.squares() {
        if let Some(f) = from.get(square) {
            for term in input.before.holds(square, input.side) {
                out.implies(&[f.into()], term);
            }
            let king = input.before.fact(square, Fact::King);
            out.equal(&[f.into()], king_before.into(), king);
        }
    }
    let capture = match (domains.simple.is_empty(), domains.steps.is_empty()) {
        (true, true) => Term::Const(false),
        (true, false) => Term::Const(true),
        (false, true) => Term::Const(false),
        (false, false) => vars.fresh(|| format!("ply {ply} is a capture")).into(),
    };
    let middle = match input.pattern {
        MovePattern::Path {
            squares,
            short: true,
            ..
        } => squares.len().saturating_sub(2),
        _ => 0,
    };
    let mut matched = vec![Term::Const(true)];
    matched.extend((0..middle).map(|_| Term::Const(false)));
    MoveVars {
        ply,
        side: input.side,
        from,
        capture,
        king_before,
        simple_to: SquareLits::default(),
        steps: Vec::new(),
        more: None,
        most_steps: domains.steps.len(),
        ends: SquareLits::default(),
        removed: SquareLits::default(),
        king_after: king_before,
        visits: SquareLits::default(),
        summarised: false,
        closing: Closing {
            stops: vec![Vec::new(); topology.count()],
            king_reasons: vec![king_before.into()],
            matched,
        },
    }
}

/// A simple move: one destination among the targets of its origin, the
/// way there and the destination empty, a king for a long or backward step.
fn simple_move<S: ClauseSink>(
    out: &mut Writer<'_, S>,
    vars: &mut VarMap,
    input: &MoveInput<'_, '_>,
    mv: &mut MoveVars,
    topology: Topology,
) {
    let ply = input.ply;
    let targets = input
        .domains
        .simple
        .iter()
        .fold(0, |all, s| all | mask(s.to));
    mv.simple_to = SquareLits::fresh(targets, topology, vars, |s| {
        format!("ply {ply} steps to {s}")
    });
    let simple = mv.capture.not();
    let name = format!("ply {ply} destination");
    out.exactly_one_if(simple, &mv.simple_to.lits(), vars, &name);
    for square in topology.squares() {
        let Some(f) = mv.from.get(square) else {
            continue;
        };
        let to: Vec<Term> = input
            .domains
            .simple
            .iter()
            .filter(|s| s.from == square)
            .map(|s| mv.simple_to.term(s.to))
            .collect();
        out.clause([simple.not(), Term::Lit(!f)].into_iter().chain(to));
    }
    for segment in &input.domains.simple {
        let guard = [
            simple,
            mv.from.term(segment.from),
            mv.simple_to.term(segment.to),
        ];
        for &q in segment.between.iter().chain([&segment.to]) {
            out.implies(&guard, input.before.empty(q));
        }
        if segment.needs_king {
            out.implies(&guard, mv.king_before.into());
        }
    }
}

/// A simple move ends on its destination, and crowns there.
fn simple_ends<S: ClauseSink>(
    out: &mut Writer<'_, S>,
    input: &MoveInput<'_, '_>,
    mv: &mut MoveVars,
    topology: Topology,
) {
    for square in topology.squares() {
        if let Some(to) = mv.simple_to.get(square) {
            stops_on(out, mv, square, Term::Lit(to));
        }
        if square.crowns(input.side) && mv.ends.get(square).is_some() {
            king_reason(out, mv, mv.ends.term(square));
        }
    }
    out.implies(&[mv.king_before.into()], mv.king_after.into());
}

/// `stop` says the move ends on `square`.
fn stops_on<S: ClauseSink>(out: &mut Writer<'_, S>, mv: &mut MoveVars, square: Square, stop: Term) {
    out.implies(&[stop], mv.ends.term(square));
    mv.closing.stops[square.index()].push(stop);
}

/// `reason` makes the piece a king after the move.
fn king_reason<S: ClauseSink>(out: &mut Writer<'_, S>, mv: &mut MoveVars, reason: Term) {
    out.implies(&[reason], mv.king_after.into());
    mv.closing.king_reasons.push(reason);
}

/// Capture step `k`: whether it happens, where it lands, which piece it
/// takes, the rules of its leg, and what it says of the move's end.
fn capture_step<S: ClauseSink>(
    out: &mut Writer<'_, S>,
    vars: &mut VarMap,
    input: &MoveInput<'_, '_>,
    mv: &mut MoveVars,
    k: usize,
    topology: Topology,
) {
    let (ply, domain) = (input.ply, &input.domains.steps[k - 1]);
    let active = mv.more.take().expect("a step to write is announced");
    let lands = SquareLits::fresh(domain.lands, topology, vars, |s| {
        format!("ply {ply} step {k} lands on {s}")
    });
    let taken = SquareLits::fresh(domain.taken, topology, vars, |s| {
        format!("ply {ply} step {k} takes {s}")
    });
    out.exactly_one_if(
        active.into(),
        &lands.lits(),
        vars,
        &format!("ply {ply} step {k} landing"),
    );
    out.exactly_one_if(
        active.into(),
        &taken.lits(),
        vars,
        &format!("ply {ply} step {k} piece"),
    );
    for square in topology.squares() {
        if let (Some(l), Some(v)) = (lands.get(square), mv.visits.get(square)) {
            out.implies(&[l.into()], v.into());
        }
    }
    let king = king_during(out, vars, input, mv, k, topology);
    let step = StepVars {
        active,
        lands,
        taken,
        taken_so_far: SquareLits::default(),
        king,
    };
    successors(out, input, mv, &step, k, topology);
    for segment in &domain.segments {
        leg(out, input, mv, &step, segment);
    }
    let step = taken_pieces(out, vars, input, mv, step, k, topology);
    if k < mv.most_steps {
        let next = vars.fresh(|| format!("ply {ply} step {} happens", k + 1));
        out.implies(&[next.into()], active.into());
        mv.more = Some(next);
    }
    mv.steps.push(step);
    step_ends(out, vars, input, mv, topology);
    short_pattern_step(out, vars, input, mv);
}

/// The piece's kind during step `k`: a king from the start, or (Russian)
/// crowned on an earlier landing.
fn king_during<S: ClauseSink>(
    out: &mut Writer<'_, S>,
    vars: &mut VarMap,
    input: &MoveInput<'_, '_>,
    mv: &MoveVars,
    k: usize,
    topology: Topology,
) -> Term {
    let Some(previous) = mv.steps.last() else {
        return mv.king_before.into();
    };
    if input.movement.crowning != Crowning::ContinuesAsKing {
        return previous.king;
    }
    let crowned: Vec<Term> = topology
        .squares()
        .filter(|s| s.crowns(input.side))
        .map(|s| previous.lands.term(s))
        .collect();
    if crowned.iter().all(|t| *t == Term::Const(false)) {
        return previous.king;
    }
    let king = vars.fresh(|| format!("ply {} step {k}: the piece is a king", input.ply));
    let inputs: Vec<Term> = std::iter::once(previous.king).chain(crowned).collect();
    out.define_or(king, &inputs);
    king.into()
}

/// Where step `k` may go from where step `k - 1` left the piece; a man
/// crowned there (English) stops.
fn successors<S: ClauseSink>(
    out: &mut Writer<'_, S>,
    input: &MoveInput<'_, '_>,
    mv: &MoveVars,
    step: &StepVars,
    k: usize,
    topology: Topology,
) {
    let segments = &input.domains.steps[k - 1].segments;
    for a in topology.squares() {
        let at = match mv.steps.last() {
            None => mv.from.term(a),
            Some(previous) => previous.lands.term(a),
        };
        if at == Term::Const(false) {
            continue;
        }
        let next = segments
            .iter()
            .filter(|s| s.from == a)
            .map(|s| step.lands.term(s.to));
        out.clause([at.not(), Term::Lit(!step.active)].into_iter().chain(next));
        let crowned_stop = input.movement.crowning == Crowning::EndsMove && a.crowns(input.side);
        if crowned_stop && !mv.steps.is_empty() {
            // A man reaching its crowning row is crowned and the move ends.
            let king = mv.steps.last().map_or(mv.king_before.into(), |s| s.king);
            out.implies(&[at, king.not()], Term::Lit(!step.active));
        }
    }
}

/// One leg `segment` of step `k`: exactly the piece taken stands between,
/// the rest of the way is open, the landing is free, a king if needed.
fn leg<S: ClauseSink>(
    out: &mut Writer<'_, S>,
    input: &MoveInput<'_, '_>,
    mv: &MoveVars,
    step: &StepVars,
    segment: &Segment,
) {
    let at = match mv.steps.last() {
        None => mv.from.term(segment.from),
        Some(previous) => previous.lands.term(segment.from),
    };
    let guard = [at, step.lands.term(segment.to)];
    let taken_between = segment.between.iter().map(|&c| step.taken.term(c));
    let not_guard = guard.iter().map(|g| g.not());
    out.clause(not_guard.chain(taken_between));
    for &d in &segment.between {
        let taken = step.taken.term(d);
        let open = [input.before.empty(d), mv.from.term(d)];
        out.clause(guard.iter().map(|g| g.not()).chain([taken]).chain(open));
        if let Some(previous) = mv.steps.last() {
            out.implies(
                &[guard[0], guard[1], taken.not()],
                previous.taken_so_far.term(d).not(),
            );
        }
    }
    if segment.needs_king {
        out.implies(&guard, step.king);
    }
}

/// The pieces taken: each an enemy not taken before; the landing free
/// (captured pieces stay and block, or leave at once, as the rules say).
fn taken_pieces<S: ClauseSink>(
    out: &mut Writer<'_, S>,
    vars: &mut VarMap,
    input: &MoveInput<'_, '_>,
    mv: &MoveVars,
    mut step: StepVars,
    k: usize,
    topology: Topology,
) -> StepVars {
    let ply = input.ply;
    let before_taken = mv.steps.last().map(|s| &s.taken_so_far);
    let earlier = |s: Square| before_taken.map_or(Term::Const(false), |t| t.term(s));
    let enemy = input.side.opposite();
    for square in topology.squares() {
        if let Some(t) = step.taken.get(square) {
            for term in input.before.holds(square, enemy) {
                out.implies(&[t.into()], term);
            }
            out.implies(&[t.into()], earlier(square).not());
        }
        if let Some(l) = step.lands.get(square) {
            let free = [input.before.empty(square), mv.from.term(square)];
            if input.movement.removed_at_once {
                out.clause(
                    [Term::Lit(!l)]
                        .into_iter()
                        .chain(free)
                        .chain([earlier(square)]),
                );
            } else {
                out.clause([Term::Lit(!l)].into_iter().chain(free));
                out.implies(&[l.into()], earlier(square).not());
            }
        }
    }
    let domain = (0..k).fold(0, |all, i| all | input.domains.steps[i].taken);
    step.taken_so_far = SquareLits::fresh(domain, topology, vars, |s| {
        format!("ply {ply} has taken {s} by step {k}")
    });
    for square in topology.squares() {
        if let Some(so_far) = step.taken_so_far.get(square) {
            out.define_or(so_far, &[earlier(square), step.taken.term(square)]);
        }
    }
    step
}

/// What step `k` (the last written) says of the move's end: it stops on
/// its landing unless the next step happens (a landing the pattern does
/// not let it end on needs one), it removes its piece, and (Russian) a
/// landing on the crowning row crowns.
fn step_ends<S: ClauseSink>(
    out: &mut Writer<'_, S>,
    vars: &mut VarMap,
    input: &MoveInput<'_, '_>,
    mv: &mut MoveVars,
    topology: Topology,
) {
    let ply = input.ply;
    let k = mv.steps.len();
    let step = mv.steps[k - 1].clone();
    let next = mv.more;
    for square in topology.squares() {
        if let Some(taken) = step.taken.get(square) {
            out.implies(&[taken.into()], mv.removed.term(square));
        }
        let Some(land) = step.lands.get(square) else {
            continue;
        };
        if input.movement.crowning == Crowning::ContinuesAsKing && square.crowns(input.side) {
            king_reason(out, mv, land.into());
        }
        if mv.ends.get(square).is_none() {
            // The pattern does not let the move end here: it goes on.
            out.implies(&[land.into()], next.into());
            continue;
        }
        let stop = match next {
            None => Term::Lit(land),
            Some(next) => {
                let stop = vars.fresh(|| format!("ply {ply} stops on {square} after step {k}"));
                out.define_and(stop, &[land.into(), Term::Lit(!next)]);
                stop.into()
            }
        };
        stops_on(out, mv, square, stop);
    }
}

/// The clauses that close the move as far as its steps are written: it
/// ends only where a stop says, takes only the pieces its steps take, and
/// is a king after only for a reason; each "or it goes on" while steps
/// are left to write.
fn close<S: ClauseSink>(out: &mut Writer<'_, S>, mv: &MoveVars, topology: Topology) {
    let more = Term::from(mv.more);
    for square in topology.squares() {
        if let Some(end) = mv.ends.get(square) {
            let stops = mv.closing.stops[square.index()].iter().copied();
            out.clause([Term::Lit(!end), more].into_iter().chain(stops));
        }
        if let Some(removed) = mv.removed.get(square) {
            let so_far = mv
                .steps
                .last()
                .map_or(Term::Const(false), |s| s.taken_so_far.term(square));
            out.clause([Term::Lit(!removed), more, so_far]);
        }
    }
    let reasons = mv.closing.king_reasons.iter().copied();
    out.clause([Term::Lit(!mv.king_after), more].into_iter().chain(reasons));
}

/// A capture written short with squares between its first and last: they
/// are landings of the way, in order, before the last one. After step
/// `k`: the move stops only once every middle square fit.
fn short_pattern_step<S: ClauseSink>(
    out: &mut Writer<'_, S>,
    vars: &mut VarMap,
    input: &MoveInput<'_, '_>,
    mv: &mut MoveVars,
) {
    let MovePattern::Path {
        squares,
        short: true,
        ..
    } = input.pattern
    else {
        return;
    };
    let middle = &squares[1..squares.len().saturating_sub(1)];
    if middle.is_empty() {
        return;
    }
    let (ply, k) = (input.ply, mv.steps.len());
    let step = &mv.steps[k - 1];
    let matched = &mv.closing.matched;
    out.clause([
        Term::Lit(!step.active),
        mv.more.into(),
        matched[middle.len()],
    ]);
    let mut next_matched = vec![Term::Const(true)];
    for (j, written) in middle.iter().enumerate() {
        let here = written.map_or(step.active.into(), |w| step.lands.term(w));
        let m = vars.fresh(|| format!("ply {ply}: {} written squares fit by step {k}", j + 1));
        let extended = vars.fresh(|| format!("ply {ply}: square {} fits step {k}", j + 1));
        out.define_and(extended, &[matched[j], here]);
        out.define_or(m, &[matched[j + 1], extended.into()]);
        next_matched.push(m.into());
    }
    mv.closing.matched = next_matched;
}
