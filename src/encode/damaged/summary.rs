//! What every move of a damaged ply leaves, whatever its capture steps
//! (`encodings/damaged.md`, "The move's summary"): one end, free before;
//! only enemy pieces taken, and only by a capture; a man's parity; and the
//! squares a capture visits, each reached by a leg over a piece it takes.
//!
//! All of it is implied by the steps, so it changes no answer. It is
//! written because the steps are numbered: a solver that refutes a lone `?`
//! step by step learns each fact about a square once per step (up to the
//! 72 steps of a 12x12 board), where over the summary it learns it once.

use std::ops::Not;

use crate::board::{Square, Topology};
use crate::rules::Crowning;

use super::super::gadgets::{Term, VarMap, Writer};
use super::super::sink::ClauseSink;
use super::domains::Segment;
use super::moves::{MoveInput, MoveVars, SquareLits};

/// Writes the summary of `mv`, and ties the landings of the steps written
/// so far to the squares it visits (later steps tie their own).
pub(super) fn summary<S: ClauseSink>(
    out: &mut Writer<'_, S>,
    vars: &mut VarMap,
    input: &MoveInput<'_, '_>,
    mv: &mut MoveVars,
) {
    // Where pieces are removed at once (English) a flying piece could end
    // on a square it emptied: the `end -> empty or from` clause below
    // assumes it cannot; the summary is written where kings fly only.
    debug_assert!(!input.movement.removed_at_once);
    mv.summarised = true;
    let topology = input.before.board.topology();
    let ends = mv.ends.lits();
    if ends.is_empty() {
        return;
    }
    out.at_most_one(&ends, vars, &format!("ply {} end", input.ply));
    out.clause(ends.iter().map(|&l| Term::Lit(l)));
    let enemy = input.side.opposite();
    for square in topology.squares() {
        if let Some(end) = mv.ends.get(square) {
            let free = [input.before.empty(square), mv.from.term(square)];
            out.clause(std::iter::once(Term::Lit(!end)).chain(free));
        }
        let Some(removed) = mv.removed.get(square) else {
            continue;
        };
        for term in input.before.holds(square, enemy) {
            out.implies(&[removed.into()], term);
        }
        out.implies(&[removed.into()], mv.capture);
        if !input.movement.removed_at_once {
            out.implies(&[removed.into()], mv.ends.term(square).not());
        }
    }
    let removed = mv.removed.lits().into_iter().map(Term::Lit);
    out.clause(std::iter::once(mv.capture.not()).chain(removed));
    if input.movement.crowning != Crowning::ContinuesAsKing {
        let crowned = topology
            .squares()
            .filter(|s| s.crowns(input.side))
            .map(|s| mv.ends.term(s));
        let reasons = [Term::Lit(!mv.king_after), mv.king_before.into()];
        out.clause(reasons.into_iter().chain(crowned));
        man_parity(out, vars, input, mv, topology);
    }
    if !input.domains.steps.is_empty() {
        visits(out, vars, input, mv, topology);
        for step in &mv.steps {
            for square in topology.squares() {
                if let (Some(l), Some(v)) = (step.lands.get(square), mv.visits.get(square)) {
                    out.implies(&[l.into()], v.into());
                }
            }
        }
    }
}

/// A man jumps two rows at a time and takes a piece one row off each
/// landing: its capture ends on a row of its origin's parity and takes
/// only pieces on rows of the other parity (where it stays a man for the
/// whole capture).
fn man_parity<S: ClauseSink>(
    out: &mut Writer<'_, S>,
    vars: &mut VarMap,
    input: &MoveInput<'_, '_>,
    mv: &MoveVars,
    topology: Topology,
) {
    let ply = input.ply;
    let odd = |lits: &SquareLits| -> Vec<Term> {
        topology
            .squares()
            .filter(|s| s.row() % 2 == 1)
            .map(|s| lits.term(s))
            .collect()
    };
    let from_odd = vars.fresh(|| format!("ply {ply} starts on an odd row"));
    out.define_or(from_odd, &odd(&mv.from));
    let end_odd = vars.fresh(|| format!("ply {ply} ends on an odd row"));
    out.define_or(end_odd, &odd(&mv.ends));
    let man = Term::Lit(!mv.king_before);
    out.equal(&[mv.capture, man], from_odd.into(), end_odd.into());
    for square in topology.squares() {
        if let Some(removed) = mv.removed.get(square) {
            let other_parity = if square.row() % 2 == 1 {
                Term::Lit(!from_odd)
            } else {
                Term::Lit(from_odd)
            };
            out.implies(&[removed.into(), man], other_parity);
        }
    }
}

/// The legs the capture steps' domains allow, each (from, to) once.
fn legs<'a>(input: &MoveInput<'a, '_>) -> Vec<&'a Segment> {
    let mut legs: Vec<&Segment> = Vec::new();
    for segment in input.domains.steps.iter().flat_map(|s| &s.segments) {
        if !legs
            .iter()
            .any(|l| l.from == segment.from && l.to == segment.to)
        {
            legs.push(segment);
        }
    }
    legs
}

/// Where pieces leave as they are taken, a square may be free because an
/// earlier step took its piece: that step's piece, or false.
fn gone(input: &MoveInput<'_, '_>, mv: &MoveVars, square: Square) -> Term {
    if input.movement.removed_at_once {
        mv.removed.term(square)
    } else {
        Term::Const(false)
    }
}

/// The squares a capture visits, in no order: each one it lands on is
/// reached by a leg from another it visits (or its origin) over one piece
/// it takes, the rest of the leg open; each piece it takes lies on such a
/// leg; it ends on a square it visits. The steps tie their landings to
/// these (`moves::capture_step`).
fn visits<S: ClauseSink>(
    out: &mut Writer<'_, S>,
    vars: &mut VarMap,
    input: &MoveInput<'_, '_>,
    mv: &mut MoveVars,
    topology: Topology,
) {
    let ply = input.ply;
    let landable = input.domains.steps.iter().fold(0, |all, s| all | s.lands);
    mv.visits = SquareLits::fresh(landable | input.domains.origins, topology, vars, |s| {
        format!("ply {ply}: a capture visits {s}")
    });
    let king = if input.movement.crowning == Crowning::ContinuesAsKing {
        mv.king_after
    } else {
        mv.king_before
    };
    // Per square: the legs that land on it, and the legs over it.
    let mut into: Vec<Vec<Term>> = vec![Vec::new(); topology.count()];
    let mut over: Vec<Vec<Term>> = vec![Vec::new(); topology.count()];
    for leg in legs(input) {
        for &t in &leg.between {
            let Some(taken) = mv.removed.get(t) else {
                continue;
            };
            let via = vars.fresh(|| format!("ply {ply}: a leg {}x{} over {t}", leg.from, leg.to));
            let via_term = Term::Lit(via);
            out.implies(&[via_term], mv.visits.term(leg.from));
            out.implies(&[via_term], mv.visits.term(leg.to));
            out.implies(&[via_term], taken.into());
            for &d in leg.between.iter().filter(|&&d| d != t) {
                let open = [input.before.empty(d), mv.from.term(d), gone(input, mv, d)];
                out.clause(std::iter::once(Term::Lit(!via)).chain(open));
            }
            if leg.needs_king {
                out.implies(&[via_term], king.into());
            }
            into[leg.to.index()].push(via_term);
            over[t.index()].push(via_term);
        }
    }
    supports(out, input, mv, topology, &into, &over);
}

/// Each square visited is free and reached by a leg (or the origin); the
/// origin and the end are visited; each piece taken lies on a leg.
fn supports<S: ClauseSink>(
    out: &mut Writer<'_, S>,
    input: &MoveInput<'_, '_>,
    mv: &MoveVars,
    topology: Topology,
    into: &[Vec<Term>],
    over: &[Vec<Term>],
) {
    for square in topology.squares() {
        if let Some(v) = mv.visits.get(square) {
            out.implies(&[v.into()], mv.capture);
            let free = [
                input.before.empty(square),
                mv.from.term(square),
                gone(input, mv, square),
            ];
            out.clause(std::iter::once(Term::Lit(!v)).chain(free));
            let reached = into[square.index()].iter().copied();
            out.clause(
                [Term::Lit(!v), mv.from.term(square)]
                    .into_iter()
                    .chain(reached),
            );
            if !input.movement.removed_at_once {
                out.implies(&[v.into()], mv.removed.term(square).not());
            }
        }
        if let Some(f) = mv.from.get(square) {
            out.implies(&[f.into(), mv.capture], mv.visits.term(square));
        }
        if let Some(e) = mv.ends.get(square) {
            out.implies(&[e.into(), mv.capture], mv.visits.term(square));
        }
        if let Some(r) = mv.removed.get(square) {
            let legs = over[square.index()].iter().copied();
            out.clause(std::iter::once(Term::Lit(!r)).chain(legs));
        }
    }
}
