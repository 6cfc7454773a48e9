//! The `--hard K` family: solvable records on which the DFS engine's work
//! grows exponentially with K (see `docs/hard-instances.md`).
//!
//! Gadget i is two plies: a black man steps from `u` to `b`, next to a white man
//! on `s`; White then makes a simple move `s-t` instead of capturing `s x b`
//! landing on `l`. So `l` must be occupied: a blocker of unknown colour. The
//! record ends with White moving off gadget 1's `l`, so only a white blocker
//! there works, which the DFS (black first) learns only at the last ply, after
//! trying every colour combination of the later gadgets' blockers.

use crate::board::{Color, Direction, Square};
use crate::notation::{MoveText, Record};
use crate::solve::{solve_sat, Found};

/// One gadget's squares.
#[derive(Clone, Copy, Debug)]
struct Gadget {
    u: Square,
    b: Square,
    s: Square,
    t: Square,
    l: Square,
}

const UP: [Direction; 2] = [Direction::UpLeft, Direction::UpRight];

fn candidates() -> Vec<Gadget> {
    let mut out = Vec::new();
    for s in Square::all() {
        for (i, &threat) in UP.iter().enumerate() {
            let step = UP[1 - i];
            let (Some(t), Some((b, l))) = (s.step(step), s.jump(threat)) else {
                continue;
            };
            // The black man arrives on b from the up-neighbour of b that is not l.
            let other_up = if threat == Direction::UpLeft {
                Direction::UpRight
            } else {
                Direction::UpLeft
            };
            let Some(u) = b.step(other_up) else { continue };
            out.push(Gadget { u, b, s, t, l });
        }
    }
    out
}

fn squares(g: &Gadget) -> [Square; 5] {
    [g.u, g.b, g.s, g.t, g.l]
}

/// The record for `gadgets`, with the tail that refutes a black blocker on gadget 1.
fn record_of(gadgets: &[Gadget], tail: (Square, Square, Square, Square)) -> Record {
    let mut moves = Vec::new();
    for g in gadgets {
        moves.push(MoveText::simple(g.u, g.b));
        moves.push(MoveText::simple(g.s, g.t));
    }
    let (f, g, l1, m) = tail;
    moves.push(MoveText::simple(f, g));
    moves.push(MoveText::simple(l1, m));
    Record::new(Color::Black, moves)
}

fn solvable(record: &Record) -> bool {
    matches!(solve_sat(record), Ok(Found::Start(..)))
}

/// A member with `k` gadgets, or `None` if the board has no room for `k`
/// (with five fresh squares per gadget, this greedy placement fits at most 4).
pub fn hard_instance(k: usize) -> Option<Record> {
    assert!(k >= 1);
    let all = candidates();
    // Try each first gadget and tail, then add gadgets greedily on fresh squares.
    for first in &all {
        for tail in tails(first) {
            let mut used: Vec<Square> = squares(first).to_vec();
            used.extend([tail.0, tail.1, tail.3]);
            let mut chosen = vec![*first];
            for g in &all {
                if chosen.len() == k {
                    break;
                }
                if squares(g).iter().any(|s| used.contains(s)) {
                    continue;
                }
                let mut trial = chosen.clone();
                trial.push(*g);
                if solvable(&record_of(&trial, tail)) {
                    used.extend(squares(g));
                    chosen = trial;
                }
            }
            if chosen.len() == k {
                return Some(record_of(&chosen, tail));
            }
        }
    }
    None
}

/// Ways to end the record: a black filler move f-g, then White moving l1-m.
fn tails(first: &Gadget) -> Vec<(Square, Square, Square, Square)> {
    let mut out = Vec::new();
    let used = squares(first);
    for m in UP.iter().filter_map(|&d| first.l.step(d)) {
        if used.contains(&m) {
            continue;
        }
        for f in Square::all().filter(|s| !used.contains(s) && *s != m) {
            for g in [Direction::DownLeft, Direction::DownRight]
                .iter()
                .filter_map(|&d| f.step(d))
            {
                if used.contains(&g) || g == m {
                    continue;
                }
                let tail = (f, g, first.l, m);
                if solvable(&record_of(&[*first], tail)) {
                    out.push(tail);
                }
            }
        }
    }
    out
}
