//! The `--hard K` family: solvable records on which the DFS engine's work
//! grows exponentially while the SAT engine stays fast (see
//! `docs/hard-instances.md`).
//!
//! A member is built from *gadgets*, two plies each:
//! 1. a black man steps from `u` to `b`, next to a white piece on `w`;
//! 2. White makes a simple move (with any of its pieces) instead of capturing
//!    `w x b`, which would land on `l`.
//!
//! So `l` must be occupied on the start board: a *blocker* whose colour the
//! record does not say. The DFS tries black first. Blockers of different
//! gadgets sit next to each other and to the gadgets' men, so a black or white
//! blocker often creates new captures that need blockers of their own: the
//! DFS's tree branches far more than once per gadget. The record ends with a
//! black filler move and then White moving the piece on the first gadget's
//! `l`, which makes a black blocker there wrong, but the DFS learns that only
//! at the last ply, after exploring everything below its first choice. The
//! SAT engine gets the unit clause "the piece on `l` is white" from that ply
//! before it solves anything.
//!
//! Gadgets are placed by a beam search ([`search`]) that keeps the records
//! whose DFS tree is largest. The search takes minutes, so its results are
//! stored in `members.in` and [`hard_instance`] reads them from there;
//! `postfacto generate --hard-search` runs it again.

use crate::board::{Bits, Color, Direction, Square};
use crate::notation::{parse_records, MoveText, Record};
use crate::solve::{solve, solve_dfs, Engine, Found, Limit, Outcome};

/// The stored members, K = 1, 2, ..., as found by [`search`] with
/// [`Shuttles::corners`] and width 1000 (`postfacto generate --hard-search --beam 1000`).
const MEMBERS: &str = include_str!("members.in");

/// The stored member with `k` gadgets, if the search found one.
pub fn hard_instance(k: usize) -> Option<Record> {
    let members = parse_records(MEMBERS).expect("the stored hard family parses");
    k.checked_sub(1).and_then(|i| members.into_iter().nth(i))
}

/// The largest K stored.
pub fn largest_k() -> usize {
    parse_records(MEMBERS)
        .expect("the stored hard family parses")
        .len()
}

/// A member found by [`search`].
#[derive(Clone, Debug)]
pub struct Member {
    /// The record (Black moves first).
    pub record: Record,
    /// Start boards the DFS engine tries on it.
    pub dfs_nodes: u64,
}

/// A record under construction.
#[derive(Clone, Debug, Default)]
struct Build {
    /// Plies before the gadgets: two kings shuttling in corners, so that every
    /// replay the DFS makes starts with a long walk.
    prefix: Vec<MoveText>,
    /// The gadgets' plies.
    moves: Vec<MoveText>,
    /// The last two plies (chosen with the first gadget): a black filler move,
    /// then White moving off the first gadget's landing square.
    tail: Vec<MoveText>,
    /// Bitboards: squares some ply has moved from, to or over.
    touched: Bits,
    /// Squares holding a piece after the gadgets (men, kings or blockers).
    occupied: Bits,
    /// Squares kept for the tail.
    reserved: Bits,
    /// White pieces placed by gadgets, and which of them are kings.
    whites: Bits,
    kings: Bits,
    /// Black men placed by gadgets.
    blacks: Bits,
    /// Each gadget's blocker square, in order.
    landings: Vec<Square>,
}

impl Build {
    fn record(&self) -> Record {
        let mut moves = self.prefix.clone();
        moves.extend(self.moves.iter().cloned());
        moves.extend(self.tail.iter().cloned());
        Record::new(Color::Black, moves)
    }

    fn is_set(bits: Bits, sq: Square) -> bool {
        bits & sq.bit() != 0
    }

    /// Directions a white piece on `sq` may move or capture in.
    fn white_directions(&self, sq: Square) -> &'static [Direction] {
        if Build::is_set(self.kings, sq) {
            &Direction::ALL
        } else {
            &[Direction::UpLeft, Direction::UpRight]
        }
    }

    /// Every way to add one gadget that keeps the record solvable.
    fn next_gadgets(&self) -> Vec<Build> {
        let mut out = Vec::new();
        let used = self.touched | self.occupied | self.reserved;
        // The threatening piece: one already placed, or a new white man.
        let threats =
            Square::all().filter(|&s| Build::is_set(self.whites, s) || !Build::is_set(used, s));
        for w in threats {
            let mut base = self.clone();
            if !Build::is_set(self.whites, w) {
                base.whites |= w.bit();
                base.occupied |= w.bit();
                if w.row() == Color::White.crowning_row() {
                    base.kings |= w.bit();
                }
            }
            for &dir in base.white_directions(w) {
                let Some((b, l)) = w.jump(dir) else { continue };
                if Build::is_set(base.touched | base.occupied | base.reserved, l)
                    || Build::is_set(base.occupied | base.reserved, b)
                {
                    continue;
                }
                for u in [Direction::UpLeft, Direction::UpRight]
                    .into_iter()
                    .filter_map(|d| b.step(d))
                {
                    let fresh = !Build::is_set(base.touched | base.occupied, u);
                    if u == l
                        || Build::is_set(base.reserved, u)
                        || !(fresh || Build::is_set(base.blacks, u))
                    {
                        continue;
                    }
                    out.extend(base.white_replies(u, b, l));
                }
            }
        }
        out
    }

    /// The gadget's second ply: every white simple move after `u-b` that
    /// keeps the record solvable (with the tail, once it is chosen).
    fn white_replies(&self, u: Square, b: Square, l: Square) -> Vec<Build> {
        let mut out = Vec::new();
        for p in Square::all().filter(|&s| Build::is_set(self.whites, s)) {
            for t in self.white_directions(p).iter().filter_map(|&d| p.step(d)) {
                if t == b || t == l || t == u || Build::is_set(self.occupied | self.reserved, t) {
                    continue;
                }
                let mut next = self.clone();
                next.moves.push(MoveText::simple(u, b));
                next.moves.push(MoveText::simple(p, t));
                next.touched |= u.bit() | b.bit() | p.bit() | t.bit();
                next.occupied = (next.occupied & !p.bit() & !u.bit()) | b.bit() | l.bit() | t.bit();
                next.blacks = (next.blacks & !u.bit()) | b.bit();
                next.whites = (next.whites & !p.bit()) | t.bit();
                let king = Build::is_set(self.kings, p) || t.row() == Color::White.crowning_row();
                next.kings &= !p.bit();
                if king {
                    next.kings |= t.bit();
                }
                next.landings.push(l);
                if next.landings.len() == 1 {
                    out.extend(next.with_tails());
                } else if solvable(&next.record()) {
                    out.push(next);
                }
            }
        }
        out
    }

    /// The first gadget's record with every tail that refutes a black
    /// blocker on its landing square and keeps it solvable.
    fn with_tails(&self) -> Vec<Build> {
        let mut out = Vec::new();
        let l1 = self.landings[0];
        let busy = self.touched | self.occupied;
        for m in Direction::ALL.iter().filter_map(|&d| l1.step(d)) {
            if Build::is_set(self.occupied, m) {
                continue;
            }
            for f in Square::all().filter(|&f| f != m && !Build::is_set(busy, f)) {
                for g in [Direction::DownLeft, Direction::DownRight]
                    .iter()
                    .filter_map(|&d| f.step(d))
                {
                    if g == m || Build::is_set(busy, g) {
                        continue;
                    }
                    let mut next = self.clone();
                    next.tail = vec![MoveText::simple(f, g), MoveText::simple(l1, m)];
                    next.reserved = f.bit() | g.bit() | m.bit();
                    if solvable(&next.record()) {
                        out.push(next);
                    }
                }
            }
        }
        out
    }
}

fn solvable(record: &Record) -> bool {
    matches!(solve(record, Engine::Sat), Ok(Outcome::Solved(_)))
}

/// Start boards the DFS tries on `record` (capped, so the search stays bounded).
fn dfs_nodes(record: &Record) -> u64 {
    let limit = Limit {
        nodes: Some(1_000_000),
        time: None,
    };
    match solve_dfs(record, limit) {
        Found::Start(_, stats) | Found::Impossible(_, stats) | Found::GaveUp(_, stats) => {
            stats.nodes
        }
    }
}

/// Two kings shuttling between two squares each, black then white.
#[derive(Clone, Copy, Debug)]
pub struct Shuttles {
    /// The black king's squares (it starts on the first).
    pub black: (Square, Square),
    /// The white king's squares.
    pub white: (Square, Square),
}

impl Shuttles {
    /// The stored family's shuttles: a black king 1-6-1 in the top left
    /// corner, a white king 32-27-32 in the bottom right one.
    pub fn corners() -> Shuttles {
        let sq = |n| Square::from_number(n).expect("squares 1..=32 exist");
        Shuttles {
            black: (sq(1), sq(6)),
            white: (sq(32), sq(27)),
        }
    }
}

/// Most gadgets the search tries to place (the board is full long before).
pub const MAX_K: usize = 7;

/// Beam search for members with 1..=`max_k` gadgets: after each gadget,
/// keep the `width` records with the most DFS nodes (ties broken by the
/// record's text, so the search is deterministic). `progress` is told each
/// K's best member as soon as it is found.
pub fn search(
    max_k: usize,
    width: usize,
    shuttles: Option<Shuttles>,
    mut progress: impl FnMut(usize, &Member),
) -> Vec<Member> {
    let mut start = Build::default();
    if let Some(sh) = shuttles {
        let plies = 100usize.saturating_sub(2 * max_k + 2) / 4 * 4;
        for i in 0..plies / 2 {
            let (black, white) = if i % 2 == 0 {
                ((sh.black.0, sh.black.1), (sh.white.0, sh.white.1))
            } else {
                ((sh.black.1, sh.black.0), (sh.white.1, sh.white.0))
            };
            start.prefix.push(MoveText::simple(black.0, black.1));
            start.prefix.push(MoveText::simple(white.0, white.1));
        }
        for sq in [sh.black.0, sh.black.1, sh.white.0, sh.white.1] {
            start.touched |= sq.bit();
            start.occupied |= sq.bit();
        }
        start.reserved |= sh.black.1.bit() | sh.white.1.bit();
    }
    let mut layer = vec![start];
    let mut best = Vec::new();
    for k in 1..=max_k {
        let mut scored: Vec<(u64, String, Build)> = layer
            .iter()
            .flat_map(Build::next_gadgets)
            .map(|b| {
                let record = b.record();
                (dfs_nodes(&record), record.to_string(), b)
            })
            .collect();
        scored.sort_by(|x, y| y.0.cmp(&x.0).then_with(|| x.1.cmp(&y.1)));
        scored.dedup_by(|x, y| x.1 == y.1);
        scored.truncate(width);
        let Some((nodes, _, top)) = scored.first() else {
            break;
        };
        let member = Member {
            record: top.record(),
            dfs_nodes: *nodes,
        };
        progress(k, &member);
        best.push(member);
        layer = scored.into_iter().map(|(_, _, b)| b).collect();
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::replay;
    use crate::rules::English;

    #[test]
    fn stored_members_are_solvable_short_and_hard_for_the_dfs() {
        let mut previous_best = 0;
        for k in 1..=largest_k() {
            let record = hard_instance(k).expect("stored");
            assert!(record.moves.len() <= 100);
            let Ok(Outcome::Solved(solution)) = solve(&record, Engine::Sat) else {
                panic!("member {k} is not solvable");
            };
            replay(&English, &solution.answer.start, &record).expect("the SAT answer replays");
            previous_best = previous_best.max(dfs_nodes(&record));
        }
        assert!(
            previous_best >= 1000,
            "the hardest member costs the DFS {previous_best} nodes"
        );
        assert!(hard_instance(0).is_none());
        assert!(hard_instance(largest_k() + 1).is_none());
    }

    #[test]
    fn a_narrow_search_finds_members_whose_dfs_trees_grow() {
        let found = search(3, 4, None, |_, _| {});
        assert_eq!(found.len(), 3);
        for (i, member) in found.iter().enumerate() {
            assert_eq!(
                member.record.moves.len(),
                2 * (i + 1) + 2,
                "K gadgets and the tail"
            );
            assert!(solvable(&member.record));
        }
        assert!(found[2].dfs_nodes > 4 * found[0].dfs_nodes, "{found:?}");
    }
}
