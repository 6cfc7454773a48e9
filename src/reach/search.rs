//! The shortest game to a target: iterative deepening on the number of
//! plies (IDA*), each position's lower bound ([`super::bounds`]) cutting
//! every line that cannot reach the target within the bound.
//!
//! A bound is searched to its end before the next: when a bound two plies
//! higher finds a game, no game of fewer plies exists (the number of plies
//! has a fixed parity, set by who is to move). Within a bound, a position
//! already searched with as many plies left is not searched again, so the
//! orders of moves that commute meet in one position and are searched once.

use std::collections::HashMap;
use std::time::Instant;

use crate::board::{Board, Color, PartialBoard};
use crate::notation::MoveText;
use crate::rules::Rules;

use crate::board::Bits;

use super::bounds::{joint_plies, moves_fit, moves_needed, plies_over_captures, Need, NoGame};
use super::perimeter::Perimeter;

/// Why a search ended before its verdict.
#[derive(Debug)]
pub(crate) struct OutOfTime;

/// A map keyed by positions (one multiply per word, not SipHash).
type PositionMap<K, V> = crate::board::hash::WordMap<K, V>;

// For the measurements, on this thread: every `.1`-th position searched
// in the round at bound `.0` (not cut there), with its plies played and
// bound, kept in `.2`.
#[cfg(test)]
thread_local! {
    pub(crate) static SAMPLE: std::cell::RefCell<(u32, u64, Vec<Sampled>)> =
        const { std::cell::RefCell::new((0, 0, Vec::new())) };
}

// For the measurements, on this thread: `PLAIN` leaves out the positions
// proved dead and the children read from the table alone (the search as
// it was before them), `NO_DEAD` the positions proved dead only.
#[cfg(test)]
thread_local! {
    pub(crate) static PLAIN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    pub(crate) static NO_DEAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Leaves out the most moves of a side that loses nothing more
    /// ([`moves_fit`]): the bound as it was before it.
    pub(crate) static TEMPO_OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// A position kept by [`SAMPLE`]: with its side to move, plies played and
/// bound.
#[cfg(test)]
pub(crate) type Sampled = (Board, Color, u32, u32);

/// A move to try, the position it leads to, and its (bound, guess).
type Child = ((u32, u32), MoveText, Board);

/// What the search from a position within a bound found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    /// A game to the target (its moves on the path).
    Found,
    /// None within the bound, or not known.
    Cut,
    /// None at all, within any bound: every line ends in a position the
    /// bounds call unreachable, or with no move.
    Dead,
}

/// The most positions proved dead kept; past it they are forgotten.
const DEAD_SIZE: usize = 4_000_000;

/// The most positions kept per bound; past it the table is emptied (the
/// search stays right, it only searches some positions again).
const TABLE_SIZE: usize = 4_000_000;

/// One search to one target.
pub(crate) struct Search<'a> {
    pub rules: &'static dyn Rules,
    pub target: &'a PartialBoard,
    pub turn: Color,
    pub deadline: Option<Instant>,
    /// What else a board on the target's facts must be to end a game.
    pub accept: &'a dyn Fn(&Board) -> bool,
    /// Positions searched in this bound, with the plies played when they were.
    seen: PositionMap<(Board, Color), u32>,
    /// Positions from which no game reaches the target at all, proved in
    /// any round (kept across rounds: each round searches them again
    /// otherwise, and most positions of a round that fails are such).
    dead: crate::board::hash::WordSet<(Board, Color)>,
    /// The smallest bound above the current one that some line needs.
    next: u32,
    steps: u64,
    /// Positions visited in all.
    pub nodes: u64,
    /// The bound (in plies) being searched, for the progress reports.
    pub bound: u32,
    /// Rounds of the deepening started.
    pub rounds: u32,
    /// Positions visited in each round before the current one (for the
    /// measurements).
    #[cfg(test)]
    pub round_nodes: Vec<u64>,
    /// Positions visited when the current round began.
    #[cfg(test)]
    pub round_start: u64,
    /// The plies of the shortest game found so far, for the reports.
    pub best: Option<u32>,
    /// Told how the search goes every so often.
    progress: &'a mut dyn FnMut(&Progress),
    /// Each side's need by its pieces and the other side's count: a move
    /// changes one side's pieces (and the other's count only by a
    /// capture), so most of a child's bound is the parent's.
    needs: std::cell::RefCell<PositionMap<NeedKey, Need>>,
    /// The positions near the target with their exact distances, when a
    /// search back from it was made.
    pub perimeter: Option<Perimeter>,
    /// Time spent making the perimeter (for the measurements).
    pub perimeter_time: std::time::Duration,
    /// After which round the perimeter grew, to how many positions and
    /// how deep (for the measurements).
    #[cfg(test)]
    pub table_log: Vec<(u32, usize, u32)>,
    /// Time spent in the search for any game (for the measurements).
    #[cfg(test)]
    pub guess_time: std::time::Duration,
}

/// Steps between looks at the clock (a step is one position's moves and
/// their bounds: well under a millisecond for 64 of them).
const CHECK_EVERY: u64 = 64;

/// Steps between progress reports.
const TELL_EVERY: u64 = 1 << 16;

/// How a search goes, told every so often.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The round of the deepening (0 while the search for any game runs).
    pub round: u32,
    /// The plies of the games searched for (in a search for the shortest),
    /// or of the longest game the search for any game keeps to.
    pub bound: u32,
    /// Positions searched so far.
    pub positions: u64,
    /// The plies of the shortest game found so far (not proved shortest).
    pub best: Option<u32>,
}

/// A position's bound and what the search for any game steers by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// The fewest plies left ([`Search::lower_bound`]).
    pub least: u32,
    /// The bound without the one over both sides' moves together: the
    /// search for any game steers by it (with it, English games after 20
    /// and 24 plies took 2-20 times as long to find).
    pub steer: u32,
    /// Both sides' moves left without what captures may save (a guess,
    /// see [`Need::Moves`]).
    pub guess: u32,
}

/// What a side's need depends on: its colour, its pieces and kings, how
/// many pieces the other side has, and whether any of them is a king.
type NeedKey = (Color, Bits, Bits, u32, bool);

/// The key of `color`'s need on `board`.
fn need_key(board: &Board, color: Color) -> NeedKey {
    let mine = board.occupied_by(color);
    let theirs = board.occupied_by(color.opposite());
    (
        color,
        mine,
        mine & board.kings(),
        theirs.count_ones(),
        theirs & board.kings() != 0,
    )
}

/// The most needs kept; past it the cache is emptied.
const NEEDS_SIZE: usize = 1_000_000;

impl<'a> Search<'a> {
    pub fn new(
        rules: &'static dyn Rules,
        target: &'a PartialBoard,
        turn: Color,
        deadline: Option<Instant>,
        accept: &'a dyn Fn(&Board) -> bool,
        progress: &'a mut dyn FnMut(&Progress),
    ) -> Search<'a> {
        Search {
            rules,
            target,
            turn,
            deadline,
            accept,
            seen: PositionMap::default(),
            dead: Default::default(),
            next: u32::MAX,
            steps: 0,
            nodes: 0,
            bound: 0,
            rounds: 0,
            #[cfg(test)]
            round_nodes: Vec::new(),
            #[cfg(test)]
            round_start: 0,
            best: None,
            progress,
            needs: std::cell::RefCell::new(PositionMap::default()),
            perimeter: None,
            perimeter_time: std::time::Duration::ZERO,
            #[cfg(test)]
            guess_time: std::time::Duration::ZERO,
            #[cfg(test)]
            table_log: Vec::new(),
        }
    }

    /// The fewest plies from `board` with `side` to move, or why never.
    pub fn lower_bound(&self, board: &Board, side: Color) -> Result<u32, NoGame> {
        self.bound_and_guess(board, side).map(|e| e.least)
    }

    /// The bound over both sides' moves together alone (`None` where it
    /// does not hold), for the tests that check it on its own.
    #[cfg(test)]
    pub(crate) fn joint_bound(&self, board: &Board, side: Color) -> Option<u32> {
        let mut by_color = [(0, false, None); 2];
        let needs =
            Color::ALL.map(|color| moves_needed(board, self.target, color, self.rules.movement()));
        for (color, need) in Color::ALL.into_iter().zip(&needs) {
            match need {
                Need::Moves {
                    least,
                    exact,
                    split,
                    ..
                } => by_color[color as usize] = (*least, *exact, split.as_ref()),
                Need::Never(_) => return None,
            }
        }
        super::bounds::joint_cases(by_color, side, self.turn)
    }

    /// [`Search::lower_bound`], the bound without the one over both sides'
    /// moves together, and both sides' guesses of the moves left (see
    /// [`Estimate`]).
    pub fn bound_and_guess(&self, board: &Board, side: Color) -> Result<Estimate, NoGame> {
        let keys = Color::ALL.map(|color| need_key(board, color));
        let mut cache = self.needs.borrow_mut();
        if cache.len() + 2 > NEEDS_SIZE {
            cache.clear();
        }
        for (color, key) in Color::ALL.into_iter().zip(keys) {
            cache
                .entry(key)
                .or_insert_with(|| moves_needed(board, self.target, color, self.rules.movement()));
        }
        let mut needs = [(0, false, None); 2];
        let mut most = [None; 2];
        let mut guess = 0;
        for (color, key) in Color::ALL.into_iter().zip(keys) {
            match &cache[&key] {
                Need::Moves {
                    least,
                    exact,
                    most: at_most,
                    guess: moves,
                    split,
                } => {
                    guess += moves;
                    needs[color as usize] = (*least, *exact, split.as_ref());
                    most[color as usize] = *at_most;
                }
                Need::Never(why) => return Err(NoGame(why.clone())),
            }
        }
        // After the exact sides' check, whose reason says more.
        let kept = plies_over_captures(needs, side, self.turn)?;
        #[cfg(test)]
        let tempo = !TEMPO_OFF.get();
        #[cfg(not(test))]
        let tempo = true;
        if tempo {
            moves_fit(needs.map(|n| n.0), most, side, self.turn)?;
        }
        let joint = joint_plies(needs, side, self.turn);
        let near = |least| match &self.perimeter {
            Some(near) => near.bound(board, side, least, side != self.turn),
            None => least,
        };
        let least = near(kept.max(joint));
        Ok(Estimate {
            least,
            steer: if joint > kept { near(kept) } else { least },
            guess,
        })
    }

    /// Runs `work` with the deadline brought forward to `until` (when that
    /// is earlier) and the search's own deadline restored after: the
    /// search for any game runs in slices of a longer search.
    pub fn until<T>(&mut self, until: Instant, work: impl FnOnce(&mut Self) -> T) -> T {
        let deadline = self.deadline;
        self.deadline = crate::sat::earlier(deadline, Some(until));
        let done = work(self);
        self.deadline = deadline;
        done
    }

    /// A game of at most `bound` plies from `board` (whose lower bound is
    /// `h`), its moves; `None` when there is none, with the least bound
    /// above that a line needs in [`Search::next_bound`].
    ///
    /// # Errors
    /// [`OutOfTime`] when the deadline passes.
    pub fn within(
        &mut self,
        board: &Board,
        side: Color,
        h: u32,
        bound: u32,
    ) -> Result<Option<Vec<MoveText>>, OutOfTime> {
        self.seen.clear();
        self.next = u32::MAX;
        self.bound = bound;
        #[cfg(test)]
        {
            if self.rounds > 0 {
                self.round_nodes.push(self.nodes - self.round_start);
            }
            self.round_start = self.nodes;
        }
        self.rounds += 1;
        self.tell();
        let mut path = Vec::new();
        let line = self.from(board, side, 0, h, bound, &mut path)?;
        Ok((line == Line::Found).then_some(path))
    }

    /// The least bound above the last one searched that some line needs
    /// (`u32::MAX`: no line goes on).
    pub fn next_bound(&self) -> u32 {
        self.next
    }

    fn from(
        &mut self,
        board: &Board,
        side: Color,
        played: u32,
        h: u32,
        bound: u32,
        path: &mut Vec<MoveText>,
    ) -> Result<Line, OutOfTime> {
        self.tick()?;
        self.nodes += 1;
        if played + h > bound {
            self.next = self.next.min(played + h);
            return Ok(Line::Cut);
        }
        if h == 0 && self.ends_here(board, side) {
            return Ok(Line::Found);
        }
        if let Some(near) = self.perimeter.as_ref().filter(|_| h > 0) {
            if near.distance(board, side) == Some(h) {
                // The table knows a line of exactly `h` plies to the target.
                path.extend(near.line(self.rules, board, side));
                return Ok(Line::Found);
            }
        }
        match self.seen.get(&(*board, side)) {
            Some(&before) if before <= played => return Ok(Line::Cut),
            _ => {}
        }
        if self.seen.len() >= TABLE_SIZE {
            self.seen.clear();
        }
        self.seen.insert((*board, side), played);
        #[cfg(test)]
        self.sample(board, side, played, h, bound);
        // Dead unless some line goes on past the bound (or is cut by the
        // table of positions searched, which knows no more).
        let (children, mut dead) = match self.outside_cut(side, bound - played) {
            Some(outside) => {
                // Only the table's positions fit: no bound is needed.
                self.next = self.next.min(played + 1 + outside);
                (self.children_in_table(board, side), false)
            }
            None => (self.children(board, side), true),
        };
        for ((h, _), mv, next) in children {
            path.push(mv);
            match self.from(&next, side.opposite(), played + 1, h, bound, path)? {
                Line::Found => return Ok(Line::Found),
                Line::Cut => dead = false,
                Line::Dead => {}
            }
            path.pop();
        }
        Ok(if dead {
            self.proved_dead(board, side)
        } else {
            Line::Cut
        })
    }

    /// Keeps `board` among the positions from which no game reaches the
    /// target.
    fn proved_dead(&mut self, board: &Board, side: Color) -> Line {
        #[cfg(test)]
        if PLAIN.get() || NO_DEAD.get() {
            return Line::Cut;
        }
        if self.dead.len() >= DEAD_SIZE {
            self.dead.clear();
        }
        self.dead.insert((*board, side));
        Line::Dead
    }

    /// Keeps the position in [`SAMPLE`] when it is one to keep.
    #[cfg(test)]
    fn sample(&self, board: &Board, side: Color, played: u32, h: u32, bound: u32) {
        SAMPLE.with_borrow_mut(|(at, every, kept)| {
            if *at == bound && *every > 0 && self.nodes.is_multiple_of(*every) {
                kept.push((*board, side, played, h));
            }
        });
    }

    /// The least plies from the children of a position (`side` to move,
    /// `left` plies left in the bound) outside the table, when that is
    /// more than the bound leaves them: then only the children in the
    /// table can reach the target within the bound.
    fn outside_cut(&self, side: Color, left: u32) -> Option<u32> {
        #[cfg(test)]
        if PLAIN.get() {
            return None;
        }
        let near = self.perimeter.as_ref()?;
        let outside = near.outside(side.opposite() != self.turn);
        (outside + 1 > left).then_some(outside)
    }

    /// The moves from `board` to positions in the table, with the positions
    /// and their distances, the nearest first.
    fn children_in_table(&self, board: &Board, side: Color) -> Vec<Child> {
        let Some(near) = self.perimeter.as_ref() else {
            return Vec::new();
        };
        self.ordered(board, side, |next| {
            near.distance(next, side.opposite()).map(|d| (d, 0))
        })
    }

    /// The moves from `board` with the positions they lead to, those
    /// `order` keeps, by its order.
    fn ordered(
        &self,
        board: &Board,
        side: Color,
        order: impl Fn(&Board) -> Option<(u32, u32)>,
    ) -> Vec<Child> {
        let mut children: Vec<Child> = self
            .rules
            .legal_moves(board, side)
            .into_iter()
            .filter_map(|mv| {
                let next = self.rules.play(board, side, &mv).ok()?;
                Some((order(&next)?, mv, next))
            })
            .collect();
        children.sort_by_key(|(order, _, _)| *order);
        children
    }

    /// The moves from `board` to positions a game to the target may pass
    /// (not proved dead), with the positions and their (bound, guess): the
    /// nearest first, and among those the least moves left without what
    /// captures may save, so the round that finds a game finds it sooner
    /// (English after 24 plies of OCA game 1: its last round searched
    /// 435,000 positions ordered by the bound alone, 6,500 so).
    fn children(&self, board: &Board, side: Color) -> Vec<Child> {
        self.ordered(board, side, |next| {
            if self.dead.contains(&(*next, side.opposite())) {
                return None;
            }
            let e = self.bound_and_guess(next, side.opposite()).ok()?;
            Some((e.least, e.guess))
        })
    }

    /// Whether a game may end on `board` with `side` to move.
    pub(crate) fn ends_here(&self, board: &Board, side: Color) -> bool {
        side == self.turn && self.target.first_difference(board).is_none() && (self.accept)(board)
    }

    /// Tells the progress how the search goes.
    fn tell(&mut self) {
        (self.progress)(&Progress {
            round: self.rounds,
            bound: self.bound,
            positions: self.nodes,
            best: self.best,
        });
    }

    /// Counts a step; every so often, checks the deadline and tells the
    /// progress.
    ///
    /// # Errors
    /// [`OutOfTime`] when the deadline has passed.
    pub(crate) fn tick(&mut self) -> Result<(), OutOfTime> {
        self.steps += 1;
        if !self.steps.is_multiple_of(CHECK_EVERY) {
            return Ok(());
        }
        if self.steps.is_multiple_of(TELL_EVERY) {
            self.tell();
        }
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(OutOfTime),
            _ => Ok(()),
        }
    }

    /// The number of games of exactly `bound` plies from `board` to the
    /// target (up to `cap`), and up to `keep` of them.
    ///
    /// # Errors
    /// [`OutOfTime`] when the deadline passes.
    pub fn count(
        &mut self,
        board: &Board,
        side: Color,
        bound: u32,
        cap: u64,
        keep: usize,
    ) -> Result<(u64, Vec<Vec<MoveText>>), OutOfTime> {
        let mut memo = HashMap::new();
        let total = self.count_from(board, side, 0, bound, cap, &mut memo)?;
        let mut games = Vec::new();
        let mut path = Vec::new();
        self.list(board, side, 0, bound, &memo, &mut path, &mut games, keep);
        Ok((total, games))
    }

    fn count_from(
        &mut self,
        board: &Board,
        side: Color,
        played: u32,
        bound: u32,
        cap: u64,
        memo: &mut HashMap<(Board, Color, u32), u64>,
    ) -> Result<u64, OutOfTime> {
        self.tick()?;
        if let Some(&n) = memo.get(&(*board, side, played)) {
            return Ok(n);
        }
        let n = match self.lower_bound(board, side) {
            Err(_) => 0,
            Ok(h) if played + h > bound => 0,
            Ok(_) if played == bound => u64::from(self.ends_here(board, side)),
            Ok(_) => {
                let mut n = 0u64;
                for mv in self.rules.legal_moves(board, side) {
                    if let Ok(next) = self.rules.play(board, side, &mv) {
                        n = n.saturating_add(self.count_from(
                            &next,
                            side.opposite(),
                            played + 1,
                            bound,
                            cap,
                            memo,
                        )?);
                    }
                    if n >= cap {
                        break;
                    }
                }
                n.min(cap)
            }
        };
        memo.insert((*board, side, played), n);
        Ok(n)
    }

    /// Lists up to `keep` games counted in `memo`.
    #[allow(clippy::too_many_arguments)]
    fn list(
        &self,
        board: &Board,
        side: Color,
        played: u32,
        bound: u32,
        memo: &HashMap<(Board, Color, u32), u64>,
        path: &mut Vec<MoveText>,
        games: &mut Vec<Vec<MoveText>>,
        keep: usize,
    ) {
        if games.len() >= keep || memo.get(&(*board, side, played)).copied().unwrap_or(0) == 0 {
            return;
        }
        if played == bound {
            games.push(path.clone());
            return;
        }
        for mv in self.rules.legal_moves(board, side) {
            if let Ok(next) = self.rules.play(board, side, &mv) {
                path.push(mv);
                self.list(
                    &next,
                    side.opposite(),
                    played + 1,
                    bound,
                    memo,
                    path,
                    games,
                    keep,
                );
                path.pop();
            }
        }
    }
}
