//! Where the parts of a damaged ply's move may be: its origin, its simple
//! moves, and for each capture step the segments it may make, as far as
//! the symbolic board (and the unit facts) and the written pattern allow.
//! The encoding allocates variables only there: a square a segment cannot
//! reach has no variable, which is the same as a false one.

use smallvec::SmallVec;

use crate::board::{Color, Direction, Square, Topology};
use crate::notation::MovePattern;
use crate::rules::{Crowning, Movement};

use super::super::flying::MayHold;
use super::super::symbolic::{all_mask, wide_mask as mask};
use crate::board::Bits as Mask;

/// One leg of a move: from a square to another along a diagonal, over the
/// squares `between` (for a capture, exactly one holds the piece taken).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Where the leg starts.
    pub from: Square,
    /// Where it ends.
    pub to: Square,
    /// The squares strictly between, in order.
    pub between: SmallVec<[Square; 8]>,
    /// Only a king can make it (far, or backwards for a man).
    pub needs_king: bool,
}

/// The capture step `k` (1-based): the segments it may make.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepDomain {
    /// Every segment step `k` may make.
    pub segments: Vec<Segment>,
    /// Squares it may land on.
    pub lands: Mask,
    /// Squares whose piece it may take.
    pub taken: Mask,
}

/// Where a damaged ply's move may go.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Domains {
    /// Squares the moving piece may start from.
    pub origins: Mask,
    /// Simple moves it may make (none when the pattern is a capture).
    pub simple: Vec<Segment>,
    /// Capture steps 1, 2, ... (none when the pattern is a simple move).
    pub steps: Vec<StepDomain>,
    /// Squares the move may end on.
    pub ends: Mask,
    /// The move's length is fixed by the pattern (an exactly written capture).
    pub exact_steps: Option<usize>,
}

/// The domains of `pattern`'s move by `side` on a board with `masks`.
/// When `in_time` says no, the capture steps stop where they are: the
/// domains are then partial, for a caller that gives up.
pub fn domains(
    pattern: &MovePattern,
    side: Color,
    masks: MayHold<Mask>,
    movement: Movement,
    topology: Topology,
    in_time: &dyn Fn() -> bool,
) -> Domains {
    let written_from = pattern.from().map_or(all_mask(topology), mask);
    let origins = masks.mover & written_from;
    let mut domains = Domains {
        origins,
        ..Domains::default()
    };
    if pattern.allows(false) {
        domains.simple = simple_moves(pattern, side, masks, movement, origins, topology);
    }
    if pattern.allows(true) {
        domains.exact_steps = pattern.max_len().map(|n| n - 1);
        domains.steps = capture_steps(pattern, side, masks, movement, origins, topology, in_time);
    }
    let lands = domains.steps.iter().fold(0, |all, s| all | s.lands);
    let targets = domains.simple.iter().fold(0, |all, s| all | mask(s.to));
    domains.ends = match (pattern, domains.exact_steps) {
        (_, Some(k)) => domains.steps.get(k.wrapping_sub(1)).map_or(0, |s| s.lands) | targets,
        _ => lands | targets,
    } & last_written(pattern, topology);
    prune(&mut domains, masks.enemy);
    domains
}

/// Leaves out what leads nowhere: a landing from which the move may
/// neither end nor go on to a landing that leads somewhere (backwards),
/// then what no kept landing leads to (forwards), and origins with no
/// move left.
fn prune(domains: &mut Domains, enemy: Mask) {
    let ends = domains.ends;
    let exact = domains.exact_steps;
    // Backwards: squares from which the rest of the move can be made.
    let mut next_starts = 0;
    for k in (1..=domains.steps.len()).rev() {
        let may_end = exact.is_none_or(|n| k == n);
        let useful = if may_end { ends } else { 0 } | next_starts;
        let step = &mut domains.steps[k - 1];
        step.segments.retain(|s| useful & mask(s.to) != 0);
        next_starts = step.segments.iter().fold(0, |all, s| all | mask(s.from));
    }
    domains.simple.retain(|s| ends & mask(s.to) != 0);
    let simple_starts = domains.simple.iter().fold(0, |all, s| all | mask(s.from));
    domains.origins &= next_starts | simple_starts;
    // Forwards: segments from squares the move can reach.
    let mut reached = domains.origins;
    for step in &mut domains.steps {
        step.segments.retain(|s| reached & mask(s.from) != 0);
        step.lands = step.segments.iter().fold(0, |all, s| all | mask(s.to));
        step.taken = step.segments.iter().fold(0, |all, s| {
            all | s.between.iter().fold(0, |b, q| b | mask(q)) & enemy
        });
        reached = step.lands;
    }
    if let Some(last) = domains.steps.iter().position(|s| s.segments.is_empty()) {
        domains.steps.truncate(last);
    }
    let lands = domains.steps.iter().fold(0, |all, s| all | s.lands);
    let targets = domains.simple.iter().fold(0, |all, s| all | mask(s.to));
    domains.ends &= lands | targets;
}

/// The squares the pattern lets the move end on.
fn last_written(pattern: &MovePattern, topology: Topology) -> Mask {
    match pattern {
        MovePattern::Unknown => all_mask(topology),
        MovePattern::Between { to, .. } => mask(to),
        MovePattern::Miswritten(_) => 0,
        MovePattern::Path { squares, .. } => squares
            .last()
            .copied()
            .flatten()
            .map_or(all_mask(topology), mask),
    }
}

/// Every simple move from `origins` the masks allow: a man one step
/// forward, a king (when one may stand there) along any open diagonal.
fn simple_moves(
    pattern: &MovePattern,
    side: Color,
    masks: MayHold<Mask>,
    movement: Movement,
    origins: Mask,
    topology: Topology,
) -> Vec<Segment> {
    let mut out = Vec::new();
    let target = pattern.exact_square(1).flatten().map_or(Mask::MAX, mask);
    for from in topology.squares().filter(|s| origins & mask(s) != 0) {
        let king = masks.king & mask(from) != 0;
        for dir in Direction::ALL {
            let mut path: SmallVec<[Square; 8]> = SmallVec::new();
            for to in std::iter::successors(from.step(dir), |s| s.step(dir)) {
                if masks.empty & mask(to) == 0 {
                    break;
                }
                let needs_king = !path.is_empty() || !side.is_forward(dir);
                if (!needs_king || king) && target & mask(to) != 0 {
                    out.push(Segment {
                        from,
                        to,
                        between: path.clone(),
                        needs_king,
                    });
                }
                if !(king && movement.flying_kings) {
                    break;
                }
                path.push(to);
            }
        }
    }
    out
}

/// The capture steps: from the origins, every segment a capturing piece
/// may make, step after step, as long as new landings appear and pieces
/// may be left to take (each step takes a different one), while `in_time`.
fn capture_steps(
    pattern: &MovePattern,
    side: Color,
    masks: MayHold<Mask>,
    movement: Movement,
    origins: Mask,
    topology: Topology,
    in_time: &dyn Fn() -> bool,
) -> Vec<StepDomain> {
    let most = match pattern.max_len() {
        Some(n) => n - 1,
        None => masks.enemy.count_ones() as usize,
    };
    // The origin is vacated: a capture may pass or land there.
    let passable = masks.empty | origins;
    let crowning_row = topology
        .squares()
        .filter(|s| s.crowns(side))
        .fold(0, |all, s| all | mask(s));
    let mut king_possible = masks.king & origins != 0;
    let mut from = origins;
    let mut steps = Vec::new();
    for k in (1..=most).take_while(|_| in_time()) {
        let written = pattern.exact_square(k).flatten().map_or(Mask::MAX, mask);
        let mut step = StepDomain::default();
        for a in topology.squares().filter(|s| from & mask(s) != 0) {
            segments_from(a, side, masks, movement, passable, king_possible, &mut step);
        }
        step.segments.retain(|s| written & mask(s.to) != 0);
        step.lands = step.segments.iter().fold(0, |all, s| all | mask(s.to));
        step.taken = step.segments.iter().fold(0, |all, s| {
            all | s.between.iter().fold(0, |b, q| b | mask(q)) & masks.enemy
        });
        if step.segments.is_empty() {
            break;
        }
        if movement.crowning == Crowning::ContinuesAsKing && step.lands & crowning_row != 0 {
            king_possible = true;
        }
        from = step.lands;
        steps.push(step);
    }
    steps
}

/// The segments a piece on `a` may capture along, added to `step`.
fn segments_from(
    a: Square,
    side: Color,
    masks: MayHold<Mask>,
    movement: Movement,
    passable: Mask,
    king_possible: bool,
    step: &mut StepDomain,
) {
    let flying = movement.flying_kings && king_possible;
    for dir in Direction::ALL {
        if !king_possible && !movement.man_captures(side, dir) {
            continue;
        }
        let mut path: SmallVec<[Square; 8]> = SmallVec::new();
        // Squares on the way that cannot be empty (at most one, the piece taken).
        let mut blocked = 0usize;
        let mut enemy_seen = false;
        for b in std::iter::successors(a.step(dir), |s| s.step(dir)) {
            if !path.is_empty() && passable & mask(b) != 0 && enemy_seen && blocked <= 1 {
                let needs_king = movement.segment_needs_king(side, a, b);
                if !needs_king || king_possible {
                    step.segments.push(Segment {
                        from: a,
                        to: b,
                        between: path.clone(),
                        needs_king,
                    });
                }
            }
            let (open, enemy) = (passable & mask(b) != 0, masks.enemy & mask(b) != 0);
            if !open && !enemy {
                break;
            }
            blocked += usize::from(!open);
            enemy_seen |= enemy;
            path.push(b);
            if blocked > 1 || !flying && path.len() > 1 {
                break;
            }
        }
    }
}
