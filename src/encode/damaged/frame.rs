//! The board after a damaged ply: a fresh block of variables, each square
//! tied to the board before unless the move changed it (the frame axiom),
//! and what the move leaves on the squares it changed.

use std::ops::Not;

use varisat::{Lit, Var};

use crate::board::{Color, Square, Topology};

use super::super::gadgets::{Term, Writer};
use super::super::sink::ClauseSink;
use super::super::symbolic::KnownFacts;
use super::super::vars::{lit, Fact};
use super::moves::{Before, MoveVars};

const FACTS: [Fact; 3] = [Fact::Occupied, Fact::White, Fact::King];

/// The literal of `fact` of `square` in the block starting at `offset`.
fn after_lit(square: Square, fact: Fact, offset: usize) -> Lit {
    Var::from_index(lit(square, fact, true).index() + offset).positive()
}

/// Writes the ties between the board before (`before`) and the block
/// after (`after`), given the move's variables. Returns what is known of
/// the board after, as unit facts over the block (for the plies that
/// follow): every square the move cannot change keeps its known facts.
pub(super) fn board_after<S: ClauseSink>(
    out: &mut Writer<'_, S>,
    before: &Before<'_>,
    known_before: &KnownFacts,
    mv: &MoveVars,
    after: usize,
) -> KnownFacts {
    let topology: Topology = before.board.topology();
    let mut known = KnownFacts::default();
    for square in topology.squares() {
        let changes = [
            mv.from.get(square),
            mv.ends.get(square),
            mv.removed.get(square),
        ];
        let unchanged: Vec<Term> = changes.iter().flatten().map(|&l| Term::Lit(!l)).collect();
        for fact in FACTS {
            let was = before.fact(square, fact);
            out.equal(&unchanged, after_lit(square, fact, after).into(), was);
            if unchanged.is_empty() {
                if let Some(value) = known_value(was, known_before, before.offset) {
                    known.learn(lit(square, fact, value));
                }
            }
        }
        let leaves = |out: &mut Writer<'_, S>, guard: &[Term], piece: [Term; 3]| {
            for (fact, value) in FACTS.into_iter().zip(piece) {
                out.equal(guard, after_lit(square, fact, after).into(), value);
            }
        };
        if let Some(end) = mv.ends.get(square) {
            let white = Term::Const(mv.side == Color::White);
            leaves(
                out,
                &[end.into()],
                [true.into(), white, mv.king_after.into()],
            );
        }
        let end = mv.ends.term(square);
        for emptied in [changes[0], changes[2]].into_iter().flatten() {
            leaves(out, &[emptied.into(), end.not()], [false.into(); 3]);
        }
    }
    known
}

/// The value of a fact of the board before, when it is a constant or a
/// literal of the block whose value the unit facts know.
fn known_value(term: Term, known: &KnownFacts, offset: usize) -> Option<bool> {
    match term {
        Term::Const(b) => Some(b),
        Term::Lit(l) => {
            let relative = l.index().checked_sub(offset)?;
            known.value_of(Var::from_index(relative).lit(l.is_positive()))
        }
    }
}
