//! `reach --any`: a legal game to the target, found fast and not proved
//! shortest (`shared/spec/proof-games.md`).
//!
//! A weighted best-first search: positions are expanded in the order of
//! the plies played plus a multiple of a guess of the plies left. The
//! guess is the lower bound of [`super::bounds`] (pieces to bring, kings
//! to crown; without what captures save where kings do not fly) plus the
//! pieces still to be taken, which the bound nearly ignores: without that term the search brings every piece home and then
//! has no idea how to lose the rest. Weighting the guess over the plies
//! played makes the search dive instead of proving; the games it finds are
//! as long as the weight lets them be, bounded by `--max-plies` when given.
//! When the search back from the target ([`super::perimeter`]) was made,
//! its exact distances steer the last plies, and the search ends as soon as
//! it meets one of its positions (the table knows the rest of the way).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::board::{Board, Color};
use crate::notation::MoveText;

use super::search::{OutOfTime, Search};

/// How much more the guess of the plies left counts than the plies played
/// (1: games as short as the guess allows, slowly; 3 finds games at the end
/// of real games within seconds, 10-20% longer than the games played;
/// `encodings/reach.md` has the measures).
const WEIGHT: u32 = 3;

/// What a piece still to be taken counts in the guess (1 left a third of
/// the English and most International positions without a game in 10 s).
const TAKE_WEIGHT: u32 = 2;

/// The most positions kept; past it the search gives up (no game found).
pub(crate) const MOST_POSITIONS: usize = 3_000_000;

/// A position reached, with the one it was reached from.
struct Node {
    board: Board,
    side: Color,
    parent: u32,
    played: u32,
    /// The guess of the plies left that ordered it.
    guess: u32,
}

/// How the search for any game ended.
pub(crate) enum AnyEnd {
    /// A game's moves.
    Game(Vec<MoveText>),
    /// Every position within reach (within `most` plies) was searched:
    /// no game reaches the target.
    Exhausted,
    /// The positions kept reached their most before a game was found.
    GaveUp,
    /// The best guess stopped improving (when asked to stop then).
    Stalled,
    /// The search back from the target holds every position (this many)
    /// from which a game reaches it, and the start is not among them.
    NoWayBack(usize),
}

/// A game from `start` (`first` to move) to the search's target of at most
/// `most` plies, if one is found before `room` positions are kept.
///
/// # Errors
/// [`OutOfTime`] when the deadline passes first.
pub(crate) fn any_game(
    search: &mut Search<'_>,
    from: (&Board, Color),
    most: Option<u32>,
    room: usize,
) -> Result<AnyEnd, OutOfTime> {
    BestFirst::new(search, from, most, room).run(search, None)
}

/// The best-first search's state, kept between slices: it stops when its
/// best guess has not improved for a while ([`BestFirst::run`]'s `stall`)
/// and goes on later from where it stopped.
pub(crate) struct BestFirst {
    nodes: Vec<Node>,
    best_played: crate::board::hash::WordMap<(Board, Color), u32>,
    open: BinaryHeap<(Reverse<u32>, u32, u32)>,
    kept: [u32; 2],
    flying: bool,
    most: Option<u32>,
    room: usize,
    /// The least guess of a position expanded, and how many positions
    /// were expanded since it last fell.
    least_guess: u32,
    since_least: u64,
}

impl BestFirst {
    /// The search from `start` (`first` to move), for games of at most
    /// `most` plies, keeping at most `room` positions.
    pub(crate) fn new(
        search: &Search<'_>,
        (start, first): (&Board, Color),
        most: Option<u32>,
        room: usize,
    ) -> BestFirst {
        // Room for them all at once: growing a table of millions takes long
        // enough to miss a deadline by more than a tenth of a second.
        let mut nodes = Vec::with_capacity(room);
        nodes.push(Node {
            board: *start,
            side: first,
            parent: u32::MAX,
            played: 0,
            guess: u32::MAX,
        });
        let mut best_played =
            crate::board::hash::WordMap::with_capacity_and_hasher(room, Default::default());
        best_played.insert((*start, first), 0u32);
        let mut open = BinaryHeap::new();
        open.push((Reverse(0u32), 0u32, 0u32));
        BestFirst {
            nodes,
            best_played,
            open,
            kept: kept_by_target(search),
            flying: search.rules.movement().flying_kings,
            most,
            room,
            least_guess: u32::MAX,
            since_least: 0,
        }
    }

    /// Goes on searching; with `stall`, returns [`AnyEnd::Stalled`] once
    /// that many positions were expanded without a lower guess.
    ///
    /// # Errors
    /// [`OutOfTime`] when the deadline passes first (the search can go on
    /// later).
    pub(crate) fn run(
        &mut self,
        search: &mut Search<'_>,
        stall: Option<u64>,
    ) -> Result<AnyEnd, OutOfTime> {
        while let Some(&(_, _, index)) = self.open.peek() {
            search.tick()?;
            self.open.pop();
            let node = &self.nodes[index as usize];
            let (board, side, played, guess) = (node.board, node.side, node.played, node.guess);
            if self
                .best_played
                .get(&(board, side))
                .is_some_and(|&p| p < played)
            {
                continue;
            }
            if let Some(left) = way_left(search, (&board, side), played, self.most) {
                let mut moves = moves_to(search, &self.nodes, index);
                moves.extend(left);
                return Ok(AnyEnd::Game(moves));
            }
            if guess < self.least_guess {
                (self.least_guess, self.since_least) = (guess, 0);
            }
            self.since_least += 1;
            if stall.is_some_and(|s| self.since_least > s) {
                self.since_least = 0;
                self.open.push((Reverse(0), 0, index));
                return Ok(AnyEnd::Stalled);
            }
            search.nodes += 1;
            match self.expand(search, index) {
                Ok(Some(end)) => return Ok(end),
                Ok(None) => {}
                Err(late) => {
                    // Expanded again when the search goes on: none of its
                    // children is lost to an "exhausted" later.
                    self.open.push((Reverse(0), 0, index));
                    return Err(late);
                }
            }
        }
        Ok(AnyEnd::Exhausted)
    }

    /// Puts the children of `nodes[index]` in the queue; an end when the
    /// room is full.
    fn expand(&mut self, search: &Search<'_>, index: u32) -> Result<Option<AnyEnd>, OutOfTime> {
        let node = &self.nodes[index as usize];
        let (board, side, played) = (node.board, node.side, node.played);
        for mv in search.rules.legal_moves(&board, side) {
            let Ok(next) = search.rules.play(&board, side, &mv) else {
                continue;
            };
            let Ok(estimate) = search.bound_and_guess(&next, side.opposite()) else {
                continue;
            };
            let (h, moves) = (estimate.least, estimate.guess);
            let plies = played + 1;
            if self.most.is_some_and(|m| plies + h > m) {
                continue;
            }
            let key = (next, side.opposite());
            if self.best_played.get(&key).is_some_and(|&p| p <= plies) {
                continue;
            }
            if self.nodes.len() >= self.room {
                return Ok(Some(AnyEnd::GaveUp));
            }
            if self.best_played.len() == self.best_played.capacity() && too_late_to_grow(search) {
                return Err(OutOfTime);
            }
            self.best_played.insert(key, plies);
            // Measured: the moves without savings steer English games home (7 of
            // 8 ends in 10 s, 4 of 8 by the bound), and lose the flying-king
            // ones (International 4 of 8, 6 of 6 by the bound).
            let steer = if self.flying {
                estimate.steer
            } else {
                estimate.steer.max(moves)
            };
            let guess = steer + TAKE_WEIGHT * to_take(&next, self.kept);
            let id = self.nodes.len() as u32;
            self.nodes.push(Node {
                board: next,
                side: side.opposite(),
                parent: index,
                played: plies,
                guess,
            });
            self.open.push((Reverse(plies + WEIGHT * guess), plies, id));
        }
        Ok(None)
    }

    /// Up to `count` positions kept, not `tried` before: the one with the
    /// least guess (the fewest plies first among equals) of each count of
    /// pieces, the least guesses first, each with the moves to it.
    pub(crate) fn promising(
        &self,
        search: &Search<'_>,
        count: usize,
        tried: &mut std::collections::HashSet<(Board, Color)>,
    ) -> Vec<Kept> {
        let mut best: std::collections::HashMap<[u32; 2], u32> = std::collections::HashMap::new();
        for (i, node) in self.nodes.iter().enumerate().skip(1) {
            if self.best_played.get(&(node.board, node.side)) != Some(&node.played)
                || tried.contains(&(node.board, node.side))
            {
                continue;
            }
            let class = Color::ALL.map(|c| node.board.occupied_by(c).count_ones());
            let rank = |n: &Node| (n.guess, n.played);
            best.entry(class)
                .and_modify(|b| {
                    if rank(node) < rank(&self.nodes[*b as usize]) {
                        *b = i as u32;
                    }
                })
                .or_insert(i as u32);
        }
        let mut order: Vec<u32> = best.into_values().collect();
        order.sort_by_key(|&i| {
            let node = &self.nodes[i as usize];
            (node.guess, node.played)
        });
        order.truncate(count);
        order
            .into_iter()
            .map(|i| {
                let node = &self.nodes[i as usize];
                tried.insert((node.board, node.side));
                Kept {
                    board: node.board,
                    side: node.side,
                    moves: moves_to(search, &self.nodes, i),
                }
            })
            .collect()
    }
}

/// A position the best-first search kept, and the moves that reach it.
pub(crate) struct Kept {
    pub board: Board,
    pub side: Color,
    pub moves: Vec<MoveText>,
}

/// The moves from `board` to the target when they are known: none when
/// it is the target, the table's line when the search back from the
/// target holds it within `most` plies in all.
fn way_left(
    search: &Search<'_>,
    (board, side): (&Board, Color),
    played: u32,
    most: Option<u32>,
) -> Option<Vec<MoveText>> {
    if search.lower_bound(board, side) == Ok(0) && search.ends_here(board, side) {
        return Some(Vec::new());
    }
    let near = search.perimeter.as_ref()?;
    let left = near.distance(board, side)?;
    most.is_none_or(|m| played + left <= m)
        .then(|| near.line(search.rules, board, side))
}

/// Whether the deadline is too near to double a table of positions:
/// growing one of millions takes long enough to miss a limit by more than
/// a tenth of a second.
fn too_late_to_grow(search: &Search<'_>) -> bool {
    search.deadline.is_some_and(|d| {
        d.saturating_duration_since(std::time::Instant::now())
            < std::time::Duration::from_millis(300)
    })
}

/// How many pieces of each side (by colour) the target keeps.
fn kept_by_target(search: &Search<'_>) -> [u32; 2] {
    let mut kept = [0; 2];
    for (_, piece) in search.target.facts() {
        if let Some(piece) = piece {
            kept[piece.color as usize] += 1;
        }
    }
    kept
}

/// The pieces both sides have on `board` beyond the target's `kept`.
fn to_take(board: &Board, kept: [u32; 2]) -> u32 {
    Color::ALL
        .into_iter()
        .map(|color| {
            board
                .occupied_by(color)
                .count_ones()
                .saturating_sub(kept[color as usize])
        })
        .sum()
}

/// The moves from the first position to `nodes[last]`, found again among
/// each position's legal moves (cheaper than keeping every move).
fn moves_to(search: &Search<'_>, nodes: &[Node], last: u32) -> Vec<MoveText> {
    let mut chain = vec![last];
    while let Some(&i) = chain.last() {
        match nodes[i as usize].parent {
            u32::MAX => break,
            parent => chain.push(parent),
        }
    }
    chain.reverse();
    chain
        .windows(2)
        .filter_map(|pair| {
            let (from, to) = (&nodes[pair[0] as usize], &nodes[pair[1] as usize]);
            search
                .rules
                .legal_moves(&from.board, from.side)
                .into_iter()
                .find(|mv| search.rules.play(&from.board, from.side, mv).ok() == Some(to.board))
        })
        .collect()
}
