//! Proof games (`shared/spec/proof-games.md`, `encodings/reach.md`): the
//! shortest legal game from a start (the opening) to a position, with the
//! minimum proved.
//!
//! Cheap arguments first ([`bounds`]): which pieces of the start can
//! become which pieces of the target (men go only forward, a king's square
//! takes a promotion), and how many moves that takes each side; a target
//! no assignment reaches is unreachable, with the reason. Then a search
//! deepening on the plies with those bounds ([`search`]). Every game found
//! is replayed by the native replayer before it is returned.

mod any;
mod bounds;
mod perimeter;
mod prefix;
mod search;

pub use prefix::{shortest_prefix, Prefix, PrefixOutcome, PREFIX_BOARDS};
pub use search::Progress;

use std::time::{Duration, Instant};

/// The least time the search for the shortest game gives the search for
/// any game (under a limit, as long as the deepening has taken, at most a
/// third of the time left: given a third of the time left at once, it was
/// most of the CPU on positions the deepening settles, 1.3-1.6 s of 1.75 s
/// on English OCA game 5 after 20 plies): its game is what a limit gives
/// back, and where the deepening may stop.
const GUESS_TIME: Duration = Duration::from_millis(500);

/// The most positions the search back from the target keeps
/// ([`perimeter`]); its depth is what fits.
const PERIMETER_SIZE: usize = 1_600_000;

/// The shortest round after which a search back from the target is made:
/// it is given as long as the round took, and grown from where it stopped
/// for as long again after a round that took twice as long as it was last
/// given (the rounds that settle easy positions pay nothing for it; its
/// cost is at most the search's).
const PERIMETER_AFTER: Duration = Duration::from_millis(20);

/// A round this slow starts the search for any game and the search back
/// from the target even before the third round: with the bound over both
/// sides' moves together the first rounds are few and large (English
/// after 24 plies of OCA game 4: 37,000 and 715,000 positions, then a
/// third of 1.6 million that never ended, no table made).
const SLOW_ROUND: Duration = Duration::from_millis(200);

/// The least time `--any` spends making the game it found shorter (under
/// a limit, at least a third of the time left, up to [`SHORTEN_SHARE`]:
/// English ends of 41 and 36 plies came out at 43 and 56 plies in 1 s, 41
/// and 42 in 3 s).
const SHORTEN_TIME: Duration = Duration::from_secs(1);

/// The most of a limit's time left that shortening takes beyond what
/// finding took: a limit caps the search, it is no budget to spend (a
/// third of `--limit 60s` would be 20 s for a game already found).
const SHORTEN_SHARE: Duration = Duration::from_secs(3);

/// The time `--any` looks without the search back from the target, then
/// gives that search before it looks again (each at most a fifth of its
/// limit). Measured (encodings/reach.md): the table made first found
/// shorter games but cost 52% more CPU over Gould's 262 diagrams; made
/// only when the first look fails, 5% more for 3 more diagrams decided.
const ANY_PERIMETER_TIME: Duration = Duration::from_millis(500);

/// Positions the search for any game expands without a lower guess
/// before it stops to try the exact deepening search from the positions
/// it kept ([`DEEPENED`] of them, [`DEEPENED_TIME`] each, games at most
/// [`DEEPENED_PLIES`] plies past them). Measured on Gould's 34 undecided
/// diagrams (5 s each): one more found (`encodings/reach.md`).
const STALL: u64 = 100_000;

/// How many positions the deepening is tried from at each stall.
const DEEPENED: usize = 4;

/// The time the deepening is given from each of them.
const DEEPENED_TIME: Duration = Duration::from_millis(300);

/// The most plies the deepening looks for past each of them.
const DEEPENED_PLIES: u32 = 20;

use crate::board::{Board, Color, PartialBoard};
use crate::notation::{plural, Record};
use crate::replay::replay;
use crate::rules::Variant;

/// The position to reach: what is known of the board, and who is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Goal {
    /// The board's known squares (the others may hold anything).
    pub board: PartialBoard,
    /// The side to move there.
    pub turn: Color,
}

/// A shortest game found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofGame {
    /// The game: its first side and its moves (every landing written).
    pub record: Record,
    /// The board it ends on (the replayer's).
    pub end: Board,
}

/// Every shortest game, counted (with `--all`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortestGames {
    /// How many there are, up to the cap asked for.
    pub count: u64,
    /// Whether the count stopped at the cap.
    pub capped: bool,
    /// The first of them (as many as asked for).
    pub games: Vec<ProofGame>,
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReachOutcome {
    /// A game: a shortest one (no legal game of fewer plies reaches the
    /// goal) unless [`Reach::any`] asked for any and `lower_bound` is less
    /// than its plies.
    Found {
        /// The game.
        game: ProofGame,
        /// Every shortest game, when asked for.
        all: Option<ShortestGames>,
        /// No game of fewer plies reaches the goal (proved).
        lower_bound: u32,
    },
    /// No legal game reaches the goal (`within: None`), or none of at most
    /// `within` plies does.
    Unreachable {
        /// Why, in words.
        reason: String,
        /// The most plies searched, when the proof is a search.
        within: Option<u32>,
    },
    /// The search stopped: no game of fewer than `at_least` plies; the
    /// shortest game found so far, if any.
    Undecided {
        /// The proved lower bound.
        at_least: u32,
        /// A game found, not proved shortest.
        best: Option<ProofGame>,
        /// What stopped it.
        stopped: Stopped,
    },
}

/// What stopped a search before its verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stopped {
    /// The time limit passed.
    Limit,
    /// `--any` kept as many positions as it may hold (a bound on its
    /// memory) without finding a game.
    Positions,
}

impl Stopped {
    /// Its name in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Stopped::Limit => "limit",
            Stopped::Positions => "positions",
        }
    }
}

impl std::fmt::Display for Stopped {
    /// What happened, for messages: the limit's own wording names its time
    /// where it is known (`reach`'s text).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stopped::Limit => f.write_str("the limit was hit"),
            Stopped::Positions => write!(
                f,
                "the search kept as many positions as its memory allows ({} million) without a game",
                any::MOST_POSITIONS / 1_000_000
            ),
        }
    }
}

/// Whether the search for the shortest game (begun at `began`) tries the
/// first guess now: the first time, and under a limit again while it has
/// found nothing, once the deepening has taken twice as long as when it
/// was last tried (given as long: it stays at most about a third of the
/// search, and a limit still leaves a game to give back).
fn guess_due(
    best: Option<&ProofGame>,
    search: &search::Search<'_>,
    began: Instant,
    last: Option<Duration>,
) -> bool {
    match last {
        None => true,
        Some(at) => best.is_none() && search.deadline.is_some() && began.elapsed() >= 2 * at,
    }
}

/// The verdict when the search back from the target found every position
/// (`positions` of them) the target can be reached from, the start not
/// among them.
fn no_way_back(positions: usize) -> ReachOutcome {
    ReachOutcome::Unreachable {
        reason: match positions.saturating_sub(1) {
            0 => "no legal game reaches it: the search back from it finds no position that leads to it".to_string(),
            before => format!("no legal game reaches it: the search back from it finds only {} that lead to it, none of them the start", plural(before, "position")),
        },
        within: None,
    }
}

/// A proof-game search: the rule set, the start, and its limits.
#[derive(Clone, Debug)]
pub struct Reach {
    variant: Variant,
    start: Board,
    first: Color,
    max_plies: Option<u32>,
    deadline: Option<Instant>,
    all: Option<(u64, usize)>,
    any: bool,
    shorten: bool,
    perimeter: usize,
    /// The most positions the search for any game keeps.
    any_positions: usize,
}

/// Why a search cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReachError {
    /// The goal's board is not the rule set's board.
    #[error("the position is on a {found}x{found} board; {rules} is played on {size}x{size}")]
    WrongBoard {
        /// The rule set.
        rules: &'static str,
        /// Its board size.
        size: u8,
        /// The goal's board size.
        found: u8,
    },
    /// `--cnf K` with a K whose parity does not end with the goal's side to move.
    #[error("a game of {plies} plies from the start ends with {ends} to move, not {turn}")]
    WrongParity {
        /// The plies asked for.
        plies: u32,
        /// Who is to move after them.
        ends: &'static str,
        /// Who the goal says.
        turn: &'static str,
    },
    /// The formula could not be built.
    #[error("{0}")]
    Formula(String),
    /// A game found does not replay: a bug.
    #[error("internal error: the game found does not replay: {0}")]
    GameDoesNotReplay(Box<crate::replay::ReplayError>),
    /// A game found ends elsewhere than the goal: a bug.
    #[error(
        "internal error: the game found does not replay: the game found does not end on the position asked for"
    )]
    GameMissesGoal,
    /// The search back from the goal says no game reaches it, after a game
    /// to it was found and replayed: a bug in one of the two.
    #[error("internal error: the search back from the position finds no way to it, yet a game to it was found")]
    NoWayBackAfterAGame,
}

impl Reach {
    /// From `variant`'s opening, its first player to move.
    pub fn new(variant: Variant) -> Reach {
        Reach {
            variant,
            start: variant.topology().opening(),
            first: variant.first_player(),
            max_plies: None,
            deadline: None,
            all: None,
            any: false,
            shorten: true,
            perimeter: PERIMETER_SIZE,
            any_positions: any::MOST_POSITIONS,
        }
    }

    /// From `start` with `first` to move instead.
    #[must_use]
    pub fn from(mut self, start: Board, first: Color) -> Reach {
        self.start = start;
        self.first = first;
        self
    }

    /// No game longer than `plies` is searched for.
    #[must_use]
    pub fn max_plies(mut self, plies: u32) -> Reach {
        self.max_plies = Some(plies);
        self
    }

    /// The search stops when `deadline` passes ([`ReachOutcome::Undecided`]).
    #[must_use]
    pub fn deadline(mut self, deadline: Option<Instant>) -> Reach {
        self.deadline = deadline;
        self
    }

    /// Every shortest game is counted, up to `cap`, and `keep` of them kept.
    #[must_use]
    pub fn all(mut self, cap: u64, keep: usize) -> Reach {
        self.all = Some((cap, keep));
        self
    }

    /// A game of any length, found as fast as the search can: not proved
    /// shortest (its [`ReachOutcome::Found`] says what is proved).
    #[must_use]
    pub fn any(mut self, any: bool) -> Reach {
        self.any = any;
        self
    }

    /// With [`Reach::any`]: whether the game found is then made shorter
    /// (the default); a yes-or-no question of legality skips that second.
    #[must_use]
    pub fn shorten(mut self, shorten: bool) -> Reach {
        self.shorten = shorten;
        self
    }

    /// The search back from the target keeps at most `most` positions (0:
    /// none is made); for measuring what it buys.
    #[must_use]
    pub fn perimeter(mut self, most: usize) -> Reach {
        self.perimeter = most;
        self
    }

    /// The search for any game keeps at most `most` positions (3 million
    /// by default: the memory it may take); past them it stops undecided.
    #[must_use]
    pub fn any_positions(mut self, most: usize) -> Reach {
        self.any_positions = most;
        self
    }

    /// The shortest game to `goal` (any game, with [`Reach::any`]),
    /// telling `progress` how the search goes every so often.
    ///
    /// # Errors
    /// [`ReachError`] when the goal is on another board, or a game found
    /// does not replay (a bug).
    pub fn search(
        &self,
        goal: &Goal,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<ReachOutcome, ReachError> {
        self.search_accepting(goal, &|_| true, progress)
    }

    /// As [`Reach::search`], for a game that ends on a board of the goal's
    /// facts that `accept` takes too (a fragment's moves play from it).
    ///
    /// # Errors
    /// As [`Reach::search`].
    pub fn search_accepting(
        &self,
        goal: &Goal,
        accept: &dyn Fn(&Board) -> bool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<ReachOutcome, ReachError> {
        let target = self.target_of(goal)?;
        let rules = self.variant.rules();
        // A deadline in force on this thread (a limit around the call) too.
        let deadline = crate::sat::earlier(self.deadline, crate::sat::current_deadline());
        let mut search = search::Search::new(rules, &target, goal.turn, deadline, accept, progress);
        let h = match search.lower_bound(&self.start, self.first) {
            Ok(h) => h,
            Err(bounds::NoGame(reason)) => {
                return Ok(ReachOutcome::Unreachable {
                    reason,
                    within: None,
                })
            }
        };
        if self.any {
            return self.any_game(&mut search, h);
        }
        self.deepening(&mut search, h)
    }

    /// Any game (`--any`): the best-first search's, or why none.
    fn any_game(
        &self,
        search: &mut search::Search<'_>,
        h: u32,
    ) -> Result<ReachOutcome, ReachError> {
        let unreachable = |within: Option<u32>| {
            let reason = match within {
                Some(most) => format!("no legal game of at most {most} plies reaches it (every position within reach was searched)"),
                None => "no legal game reaches it: every position a game can reach on the way was searched".to_string(),
            };
            Ok(ReachOutcome::Unreachable { reason, within })
        };
        // The shortening gets as long again as finding the game took, the
        // table's time not counted.
        let (started, table_before) = (Instant::now(), search.perimeter_time);
        match self.any_end(search) {
            Ok(any::AnyEnd::Game(moves)) => {
                let game = self.checked(moves, search)?;
                let table = search.perimeter_time.saturating_sub(table_before);
                let spent = started.elapsed().saturating_sub(table);
                let (game, lower_bound) = if self.shorten {
                    self.shortened(search, game, h, spent)?
                } else {
                    (game, h)
                };
                Ok(ReachOutcome::Found {
                    game,
                    all: None,
                    lower_bound,
                })
            }
            Ok(any::AnyEnd::Exhausted) => unreachable(self.max_plies),
            Ok(any::AnyEnd::NoWayBack(positions)) => Ok(no_way_back(positions)),
            Ok(end @ (any::AnyEnd::GaveUp | any::AnyEnd::Stalled)) => {
                // `any_end` goes on past a stall: only running out of room ends it.
                debug_assert!(matches!(end, any::AnyEnd::GaveUp), "a stall leaked out");
                Ok(ReachOutcome::Undecided {
                    at_least: h,
                    best: None,
                    stopped: Stopped::Positions,
                })
            }
            Err(search::OutOfTime) => Ok(ReachOutcome::Undecided {
                at_least: h,
                best: None,
                stopped: Stopped::Limit,
            }),
        }
    }

    /// How the search for any game ends: first alone for
    /// [`ANY_PERIMETER_TIME`] (at most a fifth of the time left; most ends
    /// of real games and most diagrams are found well within it), then,
    /// when it found nothing, again after the search back from the target
    /// was made for as long (which alone proves the target unreachable
    /// when it runs out of positions without the start), stopping each
    /// time its guess stalls to try the exact deepening search from a few
    /// of the positions it kept.
    fn any_end(&self, search: &mut search::Search<'_>) -> Result<any::AnyEnd, search::OutOfTime> {
        let deadline = search.deadline;
        let now = Instant::now();
        let slice = ANY_PERIMETER_TIME
            .min(deadline.map_or(Duration::MAX, |d| d.saturating_duration_since(now) / 5));
        let from = (&self.start, self.first);
        let quick = search.until(now + slice, |s| {
            any::any_game(s, from, self.max_plies, self.any_positions)
        });
        match quick {
            Err(search::OutOfTime) if deadline.is_none_or(|d| Instant::now() < d) => {}
            ended => return ended,
        }
        self.surround(search, slice);
        if let Some(end) = self.closed_without_start(search) {
            return Ok(end);
        }
        let mut best_first = any::BestFirst::new(search, from, self.max_plies, self.any_positions);
        let mut tried = std::collections::HashSet::new();
        loop {
            match best_first.run(search, Some(STALL))? {
                any::AnyEnd::Stalled => {}
                ended => return Ok(ended),
            }
            // Choosing them reads every position kept (millions): not
            // within the last [`DEEPENED_TIME`], where it could miss the limit.
            if deadline.is_some_and(|d| d.saturating_duration_since(Instant::now()) < DEEPENED_TIME)
            {
                continue;
            }
            for kept in best_first.promising(search, DEEPENED, &mut tried) {
                let until = Instant::now() + DEEPENED_TIME;
                let deepened = search.until(until, |s| self.deepened(s, kept, DEEPENED_PLIES));
                if let Ok(Some(moves)) = deepened {
                    return Ok(any::AnyEnd::Game(moves));
                }
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    return Err(search::OutOfTime);
                }
            }
        }
    }

    /// [`any::AnyEnd::NoWayBack`] when the search back from the target
    /// is closed (it holds every position the target can be reached from)
    /// and the start is not among them.
    fn closed_without_start(&self, search: &search::Search<'_>) -> Option<any::AnyEnd> {
        let near = search.perimeter.as_ref().filter(|near| near.closed())?;
        near.distance(&self.start, self.first)
            .is_none()
            .then(|| any::AnyEnd::NoWayBack(near.len()))
    }

    /// A game through `kept` found by the exact deepening search from it
    /// (bounds raised by two until a game, no line, `left` plies after
    /// `kept`, `--max-plies` or the deadline): the exhaustive search finds
    /// the endings the best-first search dives past (`encodings/reach.md`).
    fn deepened(
        &self,
        search: &mut search::Search<'_>,
        kept: any::Kept,
        left: u32,
    ) -> Result<Option<Vec<crate::notation::MoveText>>, search::OutOfTime> {
        let (rounds, bound_shown) = (search.rounds, search.bound);
        let played = kept.moves.len() as u32;
        let most = self
            .max_plies
            .map_or(left, |m| left.min(m.saturating_sub(played)));
        let Ok(h) = search.lower_bound(&kept.board, kept.side) else {
            return Ok(None);
        };
        let mut bound = h;
        let found = loop {
            if bound > most {
                break Ok(None);
            }
            match search.within(&kept.board, kept.side, h, bound) {
                Ok(Some(path)) => break Ok(Some(path)),
                Ok(None) => {}
                Err(late) => break Err(late),
            }
            bound = match search.next_bound() {
                u32::MAX => break Ok(None),
                next => (next + (next - bound) % 2).max(bound + 2),
            };
        };
        (search.rounds, search.bound) = (rounds, bound_shown);
        let mut moves = kept.moves;
        Ok(found?.map(|path| {
            moves.extend(path);
            moves
        }))
    }

    /// `game` (found in `spent`) made shorter: games two plies shorter
    /// looked for again and again (the bound on the plies cuts hard) for
    /// as long again as it took, at least [`SHORTEN_TIME`] and a third of
    /// the time left under a limit (at most [`SHORTEN_SHARE`]); with the lower
    /// bound proved (`h`, or the game's plies when no shorter one exists).
    fn shortened(
        &self,
        search: &mut search::Search<'_>,
        mut game: ProofGame,
        h: u32,
        spent: Duration,
    ) -> Result<(ProofGame, u32), ReachError> {
        let now = Instant::now();
        let share = search
            .deadline
            .map_or(Duration::ZERO, |d| d.saturating_duration_since(now) / 3)
            .min(SHORTEN_SHARE);
        let until = now + spent.max(SHORTEN_TIME).max(share);
        search.until(until, |search| {
            let mut lower = h;
            loop {
                let plies = game.record.moves.len() as u32;
                if plies < lower + 2 {
                    break;
                }
                match any::any_game(
                    search,
                    (&self.start, self.first),
                    Some(plies - 2),
                    self.any_positions,
                ) {
                    Ok(any::AnyEnd::Game(moves)) => game = self.checked(moves, search)?,
                    Ok(any::AnyEnd::Exhausted) => {
                        lower = plies;
                        break;
                    }
                    Ok(any::AnyEnd::NoWayBack(_)) => return Err(ReachError::NoWayBackAfterAGame),
                    Ok(any::AnyEnd::GaveUp | any::AnyEnd::Stalled) | Err(search::OutOfTime) => {
                        break
                    }
                }
            }
            Ok((game, lower))
        })
    }

    /// A game found by the best-first search within a short time (as long
    /// as the deepening has taken since `began`, at least half a second and
    /// at most a third of the time left; half a second without a limit):
    /// the game to give when the limit stops the proof, and the bound at
    /// which it ends; with when in the deepening it was tried.
    fn first_guess(
        &self,
        search: &mut search::Search<'_>,
        began: Instant,
    ) -> Result<(Option<ProofGame>, Option<Duration>), ReachError> {
        let now = Instant::now();
        let spent = now.saturating_duration_since(began);
        let slice = search.deadline.map_or(GUESS_TIME, |d| {
            (d.saturating_duration_since(now) / 3).min(spent.max(GUESS_TIME))
        });
        let from = (&self.start, self.first);
        let found = search.until(now + slice, |s| {
            any::any_game(s, from, self.max_plies, self.any_positions)
        });
        #[cfg(test)]
        {
            search.guess_time += now.elapsed();
        }
        match found {
            Ok(any::AnyEnd::Game(moves)) => {
                let game = self.checked(moves, search)?;
                search.best = Some(game.record.moves.len() as u32);
                Ok((Some(game), Some(spent)))
            }
            _ => Ok((None, Some(spent))),
        }
    }

    /// The shortest game by iterative deepening from the bound `h`. From
    /// the third round on (positions the first two settle pay nothing), a
    /// game found by the search for any game is given back when the
    /// deepening reaches its length, or when the time runs out.
    fn deepening(
        &self,
        search: &mut search::Search<'_>,
        h: u32,
    ) -> Result<ReachOutcome, ReachError> {
        let mut bound = h;
        let (mut best, mut guessed) = (None, None);
        let mut given = PERIMETER_AFTER / 2;
        let began = Instant::now();
        loop {
            if bound >= h + 4 && guess_due(best.as_ref(), search, began, guessed) {
                (best, guessed) = self.first_guess(search, began)?;
            }
            let round = Instant::now();
            if let Some(most) = self.max_plies.filter(|&m| bound > m) {
                return Ok(ReachOutcome::Unreachable {
                    reason: format!(
                        "no legal game of at most {most} plies reaches it (every game needs at least {bound})"
                    ),
                    within: Some(most),
                });
            }
            let found = match &best {
                Some(game) if game.record.moves.len() as u32 <= bound => Some(game.clone()),
                _ => match search.within(&self.start, self.first, h, bound) {
                    Ok(found) => found.map(|moves| self.checked(moves, search)).transpose()?,
                    Err(search::OutOfTime) => {
                        return Ok(ReachOutcome::Undecided {
                            at_least: bound,
                            best,
                            stopped: Stopped::Limit,
                        })
                    }
                },
            };
            if let Some(game) = found {
                let all = match self.all {
                    Some(all) => self.all_shortest(search, bound, all)?,
                    None => None,
                };
                return Ok(ReachOutcome::Found {
                    game,
                    all,
                    lower_bound: bound,
                });
            }
            let took = round.elapsed();
            if guessed.is_none() && took >= SLOW_ROUND {
                (best, guessed) = self.first_guess(search, began)?;
            }
            if guessed.is_some() && took >= 2 * given {
                given = took;
                self.surround(search, took);
                if let Some(any::AnyEnd::NoWayBack(positions)) = self.closed_without_start(search) {
                    return Ok(no_way_back(positions));
                }
            }
            bound = match search.next_bound() {
                u32::MAX => return Ok(ReachOutcome::Unreachable {
                    reason: format!(
                        "no legal game reaches it: every line from the start ends (no move, or a position no game goes on from) before {bound} plies"
                    ),
                    within: None,
                }),
                // The parity of the plies is fixed: the next bound keeps it.
                next => (next + (next - bound) % 2).max(bound + 2),
            };
        }
    }

    /// Makes the search back from a wholly known target ([`perimeter`]),
    /// or grows the one made before, as deep as [`Reach::perimeter`]'s
    /// positions and `time` allow.
    fn surround(&self, search: &mut search::Search<'_>, time: Duration) {
        let target = search.target;
        if self.perimeter == 0 || !target.is_whole() || !(search.accept)(&target.board) {
            return;
        }
        let began = Instant::now();
        let until = crate::sat::earlier(search.deadline, Some(began + time));
        let rules = self.variant.rules();
        let goal = (&target.board, search.turn);
        // Grown from where it stopped, not made again.
        let near = search
            .perimeter
            .get_or_insert_with(|| perimeter::Perimeter::new(goal, &self.start));
        near.grow(rules, u32::MAX, self.perimeter, until);
        #[cfg(test)]
        search
            .table_log
            .push((search.rounds, near.len(), near.beyond()));
        search.perimeter_time += began.elapsed();
    }

    /// The goal's facts on this rule set's board, which must be its size.
    fn target_of(&self, goal: &Goal) -> Result<PartialBoard, ReachError> {
        let topology = self.variant.topology();
        if goal.board.board.topology().size() != topology.size() {
            return Err(ReachError::WrongBoard {
                rules: self.variant.name(),
                size: topology.size(),
                found: goal.board.board.topology().size(),
            });
        }
        Ok(PartialBoard {
            board: goal.board.board.with_topology(topology),
            known: goal.board.known,
        })
    }

    /// Every shortest game of `bound` plies (counted up to `cap`, `keep`
    /// of them replayed and kept), or none when time runs out counting.
    fn all_shortest(
        &self,
        search: &mut search::Search<'_>,
        bound: u32,
        (cap, keep): (u64, usize),
    ) -> Result<Option<ShortestGames>, ReachError> {
        let Ok((count, games)) = search.count(&self.start, self.first, bound, cap, keep) else {
            return Ok(None);
        };
        let games = games
            .into_iter()
            .map(|g| self.checked(g, search))
            .collect::<Result<_, _>>()?;
        Ok(Some(ShortestGames {
            count,
            capped: count >= cap,
            games,
        }))
    }

    /// The formula "a legal game of exactly `plies` plies goes from the
    /// start to the goal" (satisfiable exactly when one does): the
    /// damaged-record encoding of `plies` wholly unknown moves, the start
    /// and the goal as board facts (`encodings/reach.md`), with the
    /// parameters in its header comments. A SAT benchmark family: the
    /// shortest game's length K is satisfiable, K - 2 is not.
    ///
    /// # Errors
    /// [`ReachError::WrongParity`] when `plies` cannot end with the goal's
    /// side to move; [`ReachError::Formula`] when the encoder refuses.
    pub fn cnf(&self, goal: &Goal, plies: u32) -> Result<crate::sat::AnnotatedCnf, ReachError> {
        let (record, known) = self.cnf_record(goal, plies)?;
        let mut cnf = crate::analysis::refined_dimacs(&record, self.variant, known)
            .map_err(|e| ReachError::Formula(e.to_string()))?;
        self.cnf_header(&mut cnf, goal, plies);
        Ok(cnf)
    }

    /// [`Reach::cnf`] without the clauses refinement learns (it solves the
    /// formula to the end first, minutes at depth): printed at once, it
    /// may have models that break a rule it leaves to refinement, and says so.
    ///
    /// # Errors
    /// As [`Reach::cnf`].
    pub fn unrefined_cnf(
        &self,
        goal: &Goal,
        plies: u32,
    ) -> Result<crate::sat::AnnotatedCnf, ReachError> {
        let (record, known) = self.cnf_record(goal, plies)?;
        let (mut cnf, _) = crate::encode::dimacs_encoded(&record, self.variant, known);
        self.cnf_header(&mut cnf, goal, plies);
        cnf.comment(
            "unrefined: without the clauses refinement learns, so a model may break a rule the formula leaves to refinement (unsatisfiable still means no such game; encodings/reach.md)",
        );
        Ok(cnf)
    }

    /// The record of `plies` unknown moves and the board facts of the
    /// formula "a game of exactly `plies` plies reaches the goal": what a
    /// model of [`Reach::cnf`] is read back with (`decode --reach K`).
    ///
    /// # Errors
    /// As [`Reach::cnf`].
    pub fn cnf_record(
        &self,
        goal: &Goal,
        plies: u32,
    ) -> Result<(Record, crate::encode::BoardFacts), ReachError> {
        let topology = self.variant.topology();
        let ends = if plies.is_multiple_of(2) {
            self.first
        } else {
            self.first.opposite()
        };
        if ends != goal.turn {
            return Err(ReachError::WrongParity {
                plies,
                ends: ends.name(),
                turn: goal.turn.name(),
            });
        }
        let side = if self.first == Color::White { 'W' } else { 'B' };
        let text = format!("{side} {plies}\n{}", "?\n".repeat(plies as usize));
        let record = crate::notation::parse_records_with(&text, self.variant.geometry())
            .map_err(|e| ReachError::Formula(e.to_string()))?
            .remove(0);
        let known = crate::encode::BoardFacts {
            start: Some(PartialBoard {
                board: self.start,
                known: topology.all_bits(),
            }),
            end: Some(PartialBoard {
                board: goal.board.board.with_topology(topology),
                known: goal.board.known,
            }),
        };
        Ok((record, known))
    }

    /// The comments that say what the formula of `plies` plies asks.
    fn cnf_header(&self, cnf: &mut crate::sat::AnnotatedCnf, goal: &Goal, plies: u32) {
        let topology = self.variant.topology();
        let algebraic = self.variant.fen_algebraic();
        for line in [
            format!(
                "reach instance: {} rules, a game of exactly {plies} plies",
                self.variant.name()
            ),
            format!(
                "from {}",
                crate::notation::to_fen(&self.start, self.first, algebraic)
            ),
            format!(
                "to {} (known squares only; {} unknown)",
                crate::notation::to_fen(&goal.board.board, goal.turn, algebraic),
                (topology.all_bits() & !goal.board.known).count_ones()
            ),
            "satisfiable exactly when such a game exists (encodings/reach.md)".to_string(),
        ] {
            cnf.comment(line);
        }
    }

    /// The game `moves` plays, replayed from the start to the search's goal.
    fn checked(
        &self,
        moves: Vec<crate::notation::MoveText>,
        search: &search::Search<'_>,
    ) -> Result<ProofGame, ReachError> {
        let (target, turn) = (search.target, search.turn);
        let record = Record::new(self.first, moves);
        let rules = self.variant.rules();
        let end = replay(rules, &self.start, &record)
            .map_err(|e| ReachError::GameDoesNotReplay(Box::new(e)))?;
        let side = record.mover(record.moves.len() + 1);
        if side != turn || target.first_difference(&end).is_some() || !(search.accept)(&end) {
            return Err(ReachError::GameMissesGoal);
        }
        Ok(ProofGame { record, end })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{play_game, Play, Rng};

    /// A random game of `plies` from the opening (seeded `seed`), the goal
    /// it ends on, and each position before a move with its side to move
    /// and the plies left to the end.
    fn positions_along(
        variant: Variant,
        seed: u64,
        plies: usize,
    ) -> (Record, Goal, Vec<(Board, Color, u32)>) {
        let opening = variant.topology().opening();
        let record = play_game(
            variant.rules(),
            &mut Rng::new(seed),
            &opening,
            variant.first_player(),
            plies,
            Play::Uniform,
        );
        let goal = goal_after(variant, &record);
        let (mut board, n) = (opening, record.moves.len() as u32);
        let mut boards = Vec::new();
        for (played, mv) in record.moves.iter().enumerate() {
            let side = record.mover(played + 1);
            boards.push((board, side, n - played as u32));
            board = variant.rules().play(&board, side, mv).unwrap();
        }
        (record, goal, boards)
    }

    /// The position after `plies` plies of a random game from the opening
    /// (seeded), as a goal.
    fn random_goal(variant: Variant, seed: u64, plies: usize) -> Goal {
        let record = play_game(
            variant.rules(),
            &mut Rng::new(seed),
            &variant.topology().opening(),
            variant.first_player(),
            plies,
            Play::Uniform,
        );
        goal_after(variant, &record)
    }

    fn goal_after(variant: Variant, record: &Record) -> Goal {
        let start = variant.topology().opening();
        let end = replay(variant.rules(), &start, record).unwrap();
        Goal {
            board: PartialBoard {
                board: end,
                known: variant.topology().all_bits(),
            },
            turn: record.mover(record.moves.len() + 1),
        }
    }

    #[test]
    fn the_opening_is_reached_in_no_ply() {
        let variant = Variant::English;
        let goal = goal_after(variant, &Record::new(variant.first_player(), Vec::new()));
        let found = Reach::new(variant).search(&goal, &mut |_| {}).unwrap();
        let ReachOutcome::Found { game, .. } = found else {
            panic!("{found:?}");
        };
        assert!(game.record.moves.is_empty());
    }

    #[test]
    fn a_random_game_is_no_shorter_than_its_shortest() {
        for seed in 0..20 {
            let variant = Variant::ALL[seed as usize % Variant::ALL.len()];
            let mut rng = Rng::new(seed);
            let opening = variant.topology().opening();
            let record = play_game(
                variant.rules(),
                &mut rng,
                &opening,
                variant.first_player(),
                6,
                Play::Uniform,
            );
            let goal = goal_after(variant, &record);
            match Reach::new(variant).search(&goal, &mut |_| {}).unwrap() {
                ReachOutcome::Found { game, .. } => {
                    assert!(game.record.moves.len() <= record.moves.len());
                    assert_eq!(game.record.moves.len() % 2, record.moves.len() % 2);
                }
                other => panic!("{} {other:?}", variant.name()),
            }
        }
    }

    /// Each position of the first `depth` plies from the opening, with the
    /// fewest plies that reach it (breadth first).
    fn breadth_first(variant: Variant, depth: u32) -> Vec<((Board, Color), u32)> {
        let rules = variant.rules();
        let start = (variant.topology().opening(), variant.first_player());
        let mut seen = std::collections::HashMap::from([(start, 0u32)]);
        let mut layer = vec![start];
        for plies in 1..=depth {
            let mut next = Vec::new();
            for (board, side) in layer {
                for mv in rules.legal_moves(&board, side) {
                    let child = (rules.play(&board, side, &mv).unwrap(), side.opposite());
                    if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(child) {
                        e.insert(plies);
                        next.push(child);
                    }
                }
            }
            layer = next;
        }
        let mut all: Vec<_> = seen.into_iter().collect();
        all.sort_by_key(|((b, s), d)| (*d, format!("{b}{s:?}")));
        all
    }

    #[test]
    fn the_minimum_is_what_a_breadth_first_search_finds() {
        for variant in Variant::ALL {
            let depth = if variant.topology().size() == 8 { 5 } else { 4 };
            let positions = breadth_first(variant, depth);
            // Every 31st position, the deepest layers included.
            for ((board, turn), plies) in positions.into_iter().step_by(31) {
                let goal = Goal {
                    board: PartialBoard {
                        board,
                        known: variant.topology().all_bits(),
                    },
                    turn,
                };
                match Reach::new(variant).search(&goal, &mut |_| {}).unwrap() {
                    ReachOutcome::Found { game, .. } => assert_eq!(
                        game.record.moves.len() as u32,
                        plies,
                        "{}: {board}",
                        variant.name()
                    ),
                    other => panic!("{}: {other:?}", variant.name()),
                }
            }
        }
    }

    /// What `ask` reads of a quiet search to `goal` without a limit.
    fn searching_to<T>(
        variant: Variant,
        goal: &Goal,
        ask: impl FnOnce(&search::Search<'_>) -> T,
    ) -> T {
        let mut quiet = |_: &Progress| {};
        let search = search::Search::new(
            variant.rules(),
            &goal.board,
            goal.turn,
            None,
            &|_| true,
            &mut quiet,
        );
        ask(&search)
    }

    /// The lower bound from `board` (`side` to move) to `goal`.
    fn bound_to(variant: Variant, goal: &Goal, board: &Board, side: Color) -> u32 {
        searching_to(variant, goal, |search| search.lower_bound(board, side))
            .unwrap_or_else(|why| panic!("{}: {board} called unreachable: {why}", variant.name()))
    }

    /// The bound over both sides' moves together alone, from `board`.
    fn joint_to(variant: Variant, goal: &Goal, board: &Board, side: Color) -> Option<u32> {
        searching_to(variant, goal, |search| search.joint_bound(board, side))
    }

    #[test]
    fn the_joint_bound_alone_never_passes_the_breadth_first_minimum() {
        // Every position within 6 plies (4 where it does not hold), captures
        // and exchanges among them; where the argument holds, it must have
        // been tight at least once on a position with pieces taken, or the
        // test would check nothing (without captures it is the rows alone).
        for variant in Variant::ALL {
            let forward_8x8 =
                variant.topology().size() == 8 && !variant.rules().movement().men_capture_backwards;
            let depth = if forward_8x8 { 6 } else { 4 };
            let opening = variant.topology().opening();
            let (mut applied, mut tight) = (0, 0);
            for ((board, turn), plies) in breadth_first(variant, depth) {
                let goal = Goal {
                    board: PartialBoard {
                        board,
                        known: variant.topology().all_bits(),
                    },
                    turn,
                };
                let Some(bound) = joint_to(variant, &goal, &opening, variant.first_player()) else {
                    continue;
                };
                assert!(
                    bound <= plies,
                    "{}: {bound} > {plies} to {board}",
                    variant.name()
                );
                let pieces = |b: &Board| Color::ALL.map(|c| b.occupied_by(c).count_ones());
                let taken = pieces(&board) != pieces(&opening);
                applied += usize::from(taken);
                tight += usize::from(taken && bound == plies);
            }
            assert_eq!(applied > 0, forward_8x8, "{}", variant.name());
            assert_eq!(
                tight > 0,
                forward_8x8,
                "{}: {applied} applied",
                variant.name()
            );
        }
    }

    #[test]
    fn the_joint_bound_alone_never_passes_the_plies_a_random_game_took() {
        // Longer games: captures, kings crowned and lost, every position on
        // the way at most the plies left. Where a king is crowned later and
        // lost again the crowning case is what holds the bound down: the
        // test must meet such positions, or it checks nothing of it.
        let mut crowned_later = 0;
        for seed in 0..240 {
            let variant = Variant::ALL[seed as usize % Variant::ALL.len()];
            let plies = [10, 20, 30, 40, 60, 80][(seed / 10) as usize % 6];
            let (_, goal, boards) = positions_along(variant, 1000 + seed, plies);
            let mut king_ahead = false;
            for &(board, side, left) in boards.iter().rev() {
                if let Some(bound) = joint_to(variant, &goal, &board, side) {
                    assert!(
                        bound <= left,
                        "{} seed {seed}: {bound} > {left} from\n{board}\nto\n{}",
                        variant.name(),
                        goal.board.board,
                    );
                    crowned_later += usize::from(king_ahead);
                }
                king_ahead |= board.kings() != 0;
            }
        }
        assert!(
            crowned_later > 0,
            "no position before a king crowned and lost"
        );
    }

    #[test]
    fn the_joint_bound_never_passes_the_minimum_over_a_king_crowned_and_lost() {
        // Stretches of random games in which a man is crowned and its king
        // taken again (no king at either end): the joint bound from the
        // stretch's start to its end is at most the shortest game between
        // them, found by the search without the joint bound.
        let mut checked = 0;
        for seed in 0..400 {
            let variant = Variant::ALL[seed as usize % Variant::ALL.len()];
            let forward_8x8 =
                variant.topology().size() == 8 && !variant.rules().movement().men_capture_backwards;
            if !forward_8x8 {
                continue;
            }
            let mut rng = Rng::new(7000 + seed);
            let (rules, opening) = (variant.rules(), variant.topology().opening());
            let record = play_game(
                rules,
                &mut rng,
                &opening,
                variant.first_player(),
                90,
                Play::Uniform,
            );
            let mut boards = vec![(opening, variant.first_player())];
            for (played, mv) in record.moves.iter().enumerate() {
                let (board, side) = boards[played];
                boards.push((rules.play(&board, side, mv).unwrap(), side.opposite()));
            }
            checked += crowned_stretches(&boards, 10)
                .into_iter()
                .take(2)
                .map(|(from, to)| check_stretch(variant, boards[from], boards[to]))
                .sum::<usize>();
        }
        assert!(checked >= 10, "{checked} stretches checked");
    }

    /// The stretches `(from, to)` of at most `most` plies with no king at
    /// either end and a king between.
    fn crowned_stretches(boards: &[(Board, Color)], most: usize) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        for from in 0..boards.len() {
            if boards[from].0.kings() != 0 {
                continue;
            }
            let ends = (from + 2..boards.len().min(from + most + 1)).rev();
            let end = ends.clone().find(|&to| {
                boards[to].0.kings() == 0 && boards[from..to].iter().any(|b| b.0.kings() != 0)
            });
            if let Some(to) = end {
                found.push((from, to));
            }
        }
        found
    }

    /// Checks the joint bound from `from` to `to` against the shortest
    /// game between them: 1 when it applied, 0 when it did not.
    fn check_stretch(variant: Variant, from: (Board, Color), to: (Board, Color)) -> usize {
        let goal = Goal {
            board: PartialBoard {
                board: to.0,
                known: variant.topology().all_bits(),
            },
            turn: to.1,
        };
        let Some(bound) = joint_to(variant, &goal, &from.0, from.1) else {
            return 0;
        };
        bounds::JOINT_OFF.set(true);
        let found = Reach::new(variant)
            .from(from.0, from.1)
            .search(&goal, &mut |_| {});
        bounds::JOINT_OFF.set(false);
        let ReachOutcome::Found { game, .. } = found.unwrap() else {
            panic!("{}: no game from {} to {}", variant.name(), from.0, to.0);
        };
        let least = game.record.moves.len() as u32;
        assert!(
            bound <= least,
            "{}: joint bound {bound} > {least} from\n{}\nto\n{}",
            variant.name(),
            from.0,
            to.0
        );
        1
    }

    #[test]
    fn the_bound_never_passes_the_breadth_first_minimum() {
        for variant in Variant::ALL {
            let depth = if variant.topology().size() == 8 { 5 } else { 4 };
            let opening = variant.topology().opening();
            for ((board, turn), plies) in breadth_first(variant, depth).into_iter().step_by(7) {
                let goal = Goal {
                    board: PartialBoard {
                        board,
                        known: variant.topology().all_bits(),
                    },
                    turn,
                };
                let bound = bound_to(variant, &goal, &opening, variant.first_player());
                assert!(
                    bound <= plies,
                    "{}: {bound} > {plies} to {board}",
                    variant.name()
                );
            }
        }
    }

    #[test]
    fn the_bound_never_passes_the_plies_a_random_game_took() {
        // Games with captures (and kings, the longer ones): every position
        // on the way is at most the plies left from the end.
        for seed in 0..60 {
            let variant = Variant::ALL[seed as usize % Variant::ALL.len()];
            let plies = [12, 24, 40, 60][(seed / 10) as usize % 4];
            let (record, goal, boards) = positions_along(variant, seed, plies);
            for (played, &(board, side, left)) in boards.iter().enumerate() {
                let bound = bound_to(variant, &goal, &board, side);
                assert!(
                    bound <= left,
                    "{} seed {seed}: {bound} > {left} from\n{board}\n{side:?} to\n{}\nrest {:?}",
                    variant.name(),
                    goal.board.board,
                    &record.moves[played..]
                );
            }
        }
    }

    #[test]
    fn the_minimum_with_a_perimeter_is_what_a_breadth_first_search_finds() {
        for variant in Variant::ALL {
            let depth = if variant.topology().size() == 8 { 5 } else { 4 };
            let rules = variant.rules();
            let opening = variant.topology().opening();
            for ((board, turn), plies) in breadth_first(variant, depth).into_iter().step_by(37) {
                let goal = Goal {
                    board: PartialBoard::whole(board),
                    turn,
                };
                let reach = Reach::new(variant);
                let mut quiet = |_: &Progress| {};
                let mut search =
                    search::Search::new(rules, &goal.board, turn, None, &|_| true, &mut quiet);
                // Small tables: some positions of the search are beyond them.
                let most = [1, 30, 300][plies as usize % 3];
                search.perimeter = Some(perimeter::Perimeter::around(
                    rules,
                    (&board, turn),
                    &opening,
                    6,
                    most,
                    None,
                ));
                let h = search
                    .lower_bound(&opening, variant.first_player())
                    .unwrap();
                match reach.deepening(&mut search, h).unwrap() {
                    ReachOutcome::Found { game, .. } => {
                        let game = reach.checked(game.record.moves, &search).unwrap();
                        assert_eq!(
                            game.record.moves.len() as u32,
                            plies,
                            "{}: {board}",
                            variant.name()
                        );
                    }
                    other => panic!("{}: {other:?}", variant.name()),
                }
            }
        }
    }

    #[test]
    fn a_round_searched_again_skips_the_positions_proved_dead() {
        // A round that fails proves some positions reach no game at all; the
        // same round again does not search them (nor their lines) again.
        let mut skipped = 0;
        for seed in 0..6 {
            let variant = [Variant::English, Variant::Russian][seed as usize % 2];
            let record = play_game(
                variant.rules(),
                &mut Rng::new(seed),
                &variant.topology().opening(),
                variant.first_player(),
                12,
                Play::Uniform,
            );
            let goal = goal_after(variant, &record);
            let (opening, first) = (variant.topology().opening(), variant.first_player());
            let mut quiet = |_: &Progress| {};
            let rules = variant.rules();
            let mut search =
                search::Search::new(rules, &goal.board, goal.turn, None, &|_| true, &mut quiet);
            let h = search.lower_bound(&opening, first).unwrap();
            let below = record.moves.len() as u32 - 2;
            let mut rounds = Vec::new();
            for _ in 0..2 {
                let before = search.nodes;
                let found = search.within(&opening, first, h, below).unwrap();
                rounds.push((found.is_some(), search.nodes - before));
            }
            // Found both times, or neither: the positions skipped are dead.
            assert_eq!(rounds[0].0, rounds[1].0, "{}", variant.name());
            assert!(rounds[1].1 <= rounds[0].1, "{rounds:?}");
            skipped += rounds[0].1 - rounds[1].1;
        }
        assert!(skipped > 0, "no position proved dead in any round");
    }

    #[test]
    fn positions_next_to_the_table_are_searched_by_the_table_alone() {
        // Where the plies left cannot reach past the table, only moves into
        // it are tried: the same minimum, fewer positions.
        let (mut with, mut without) = (0, 0);
        // The positions proved dead left out either way: the table alone
        // makes the difference.
        search::NO_DEAD.set(true);
        for seed in 0..4 {
            let variant = Variant::English;
            let rules = variant.rules();
            let (opening, first) = (variant.topology().opening(), variant.first_player());
            let goal = random_goal(variant, seed, 14);
            let mut plies = Vec::new();
            for plain in [false, true] {
                search::PLAIN.set(plain);
                let mut quiet = |_: &Progress| {};
                let mut search =
                    search::Search::new(rules, &goal.board, goal.turn, None, &|_| true, &mut quiet);
                let around = (&goal.board.board, goal.turn);
                let near = perimeter::Perimeter::around(rules, around, &opening, 4, 100_000, None);
                search.perimeter = Some(near);
                let h = search.lower_bound(&opening, first).unwrap();
                let reach = Reach::new(variant);
                let ReachOutcome::Found { game, .. } = reach.deepening(&mut search, h).unwrap()
                else {
                    panic!("seed {seed}: no game");
                };
                plies.push(
                    reach
                        .checked(game.record.moves, &search)
                        .unwrap()
                        .record
                        .moves
                        .len(),
                );
                *if plain { &mut without } else { &mut with } += search.nodes;
            }
            search::PLAIN.set(false);
            assert_eq!(plies[0], plies[1], "seed {seed}");
        }
        search::NO_DEAD.set(false);
        assert!(with < without, "{with} positions with, {without} without");
    }

    #[test]
    fn a_side_that_loses_nothing_more_has_its_moves_counted_from_above() {
        // A side that loses nothing more and has no king makes at most its
        // men's rows to go less the pieces it takes: the same minima, fewer
        // positions (lines where the other side needs more moves end).
        let (mut with, mut without) = (0, 0);
        for seed in 0..8 {
            let variant = [Variant::English, Variant::Italian][seed as usize % 2];
            let rules = variant.rules();
            let (opening, first) = (variant.topology().opening(), variant.first_player());
            let goal = random_goal(variant, seed, 14);
            let mut plies = Vec::new();
            for off in [false, true] {
                search::TEMPO_OFF.set(off);
                let mut quiet = |_: &Progress| {};
                let mut search =
                    search::Search::new(rules, &goal.board, goal.turn, None, &|_| true, &mut quiet);
                let h = search.lower_bound(&opening, first).unwrap();
                // The rounds alone (no search for any game, no table: what
                // they search does not hang on the clock).
                let mut bound = h;
                let moves = loop {
                    if let Some(moves) = search.within(&opening, first, h, bound).unwrap() {
                        break moves;
                    }
                    let next = search.next_bound();
                    assert!(next < u32::MAX, "seed {seed}: no game");
                    bound = (next + (next - bound) % 2).max(bound + 2);
                };
                let game = Reach::new(variant).checked(moves, &search).unwrap();
                plies.push(game.record.moves.len());
                *if off { &mut without } else { &mut with } += search.nodes;
            }
            search::TEMPO_OFF.set(false);
            assert_eq!(plies[0], plies[1], "seed {seed}");
        }
        assert!(with < without, "{with} positions with, {without} without");
    }

    /// This thread's CPU time in seconds (user and system, in ticks of
    /// 10 ms), from `/proc`.
    fn thread_cpu() -> f64 {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
        let fields: Vec<&str> = stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        let ticks = |i: usize| {
            fields
                .get(i)
                .and_then(|f| f.parse::<f64>().ok())
                .unwrap_or(0.0)
        };
        (ticks(11) + ticks(12)) / 100.0
    }

    /// What the search back from the target buys: per position of real
    /// games (`MEASURE_FILES`, `MEASURE_GAMES` of each, after
    /// `MEASURE_PLIES`), each table size of `MEASURE_SIZES` (0: none),
    /// the plies found, positions searched, the table, CPU time.
    /// The archives of `../shared/pdn` named in `names` (comma-separated),
    /// for the measurements run by hand.
    fn measured_files(names: &str) -> Vec<crate::harness::repair::GameFile> {
        // MEASURE_JOINT=0: the bound without the joint bound.
        if std::env::var("MEASURE_JOINT").is_ok_and(|v| v == "0") {
            bounds::JOINT_OFF.set(true);
        }
        // MEASURE_JOINT=never: the joint bound without its crowning cases
        // (unsound: what they cost).
        if std::env::var("MEASURE_JOINT").is_ok_and(|v| v == "never") {
            bounds::CROWN_OFF.set(true);
        }
        // MEASURE_PLAIN=1: the search without the positions proved dead
        // and the children read from the table alone.
        if std::env::var("MEASURE_PLAIN").is_ok_and(|v| v == "1") {
            search::PLAIN.set(true);
        }
        // MEASURE_TEMPO=0: without the most moves of a side that loses
        // nothing more.
        if std::env::var("MEASURE_TEMPO").is_ok_and(|v| v == "0") {
            search::TEMPO_OFF.set(true);
        }
        // MEASURE_PLAIN=dead: without the positions proved dead only.
        if std::env::var("MEASURE_PLAIN").is_ok_and(|v| v == "dead") {
            search::NO_DEAD.set(true);
        }
        names
            .split(',')
            .map(|name| crate::harness::repair::GameFile {
                name: name.to_string(),
                text: std::fs::read_to_string(format!("../shared/pdn/{name}")).unwrap(),
            })
            .collect()
    }

    #[test]
    #[ignore = "a measurement, run by hand"]
    fn measure_perimeter() {
        let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
        let list = |k: &str, d: &str| -> Vec<usize> {
            env(k, d).split(',').map(|x| x.parse().unwrap()).collect()
        };
        let files = measured_files(&env("MEASURE_FILES", "OCA_2.0.pdn"));
        let games = crate::harness::reach::archive_games(&files, list("MEASURE_GAMES", "3")[0]);
        let limit = Duration::from_secs(list("MEASURE_LIMIT", "10")[0] as u64);
        for (variant, moves) in &games {
            for plies in list("MEASURE_PLIES", "20") {
                if plies > moves.len() {
                    continue;
                }
                let record = Record::new(variant.first_player(), moves[..plies].to_vec());
                let goal = goal_after(*variant, &record);
                for size in list("MEASURE_SIZES", "0,300000") {
                    measure_one(*variant, &goal, plies, size, limit);
                }
            }
        }
    }

    /// Where the bound is weak: along the first games of `MEASURE_FILES`,
    /// the bound from the position after each ply to the position after
    /// `MEASURE_PLIES` plies, against the plies the game took from there,
    /// and the pieces taken from there on.
    #[test]
    #[ignore = "a measurement, run by hand"]
    fn measure_bound_gap() {
        let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
        let files = measured_files(&env("MEASURE_FILES", "OCA_2.0.pdn"));
        let count = env("MEASURE_GAMES", "3").parse().unwrap();
        let plies: usize = env("MEASURE_PLIES", "24").parse().unwrap();
        for (variant, moves) in crate::harness::reach::archive_games(&files, count) {
            if plies > moves.len() {
                continue;
            }
            let goal = goal_after(
                variant,
                &Record::new(variant.first_player(), moves[..plies].to_vec()),
            );
            let (rules, mut board) = (variant.rules(), variant.topology().opening());
            let mut side = variant.first_player();
            let mut line = Vec::new();
            for (k, mv) in moves[..plies].iter().map(Some).chain([None]).enumerate() {
                let taken = board.piece_count() - goal.board.board.piece_count();
                let bound = bound_to(variant, &goal, &board, side);
                line.push(format!("{bound}/{}/{taken}", plies - k));
                if let Some(mv) = mv {
                    board = rules.play(&board, side, mv).unwrap();
                    side = side.opposite();
                }
            }
            eprintln!(
                "{} after {plies}: bound/plies left/pieces still to take at each ply: {}",
                variant.name(),
                line.join(" ")
            );
        }
    }

    /// What the bound over both sides' moves together gives at the start,
    /// for the positions real games (`MEASURE_FILES`, `MEASURE_GAMES`)
    /// reached after each of `MEASURE_PLIES`: the bound without it, with
    /// it, and its cases (never crowned; the crowning case as first built,
    /// both sides' shares capped and a ply less per two pieces taken).
    #[test]
    #[ignore = "a measurement, run by hand"]
    fn measure_joint() {
        use bounds::{moves_needed, plies_over_captures, savings, Need};
        let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
        let files = measured_files(&env("MEASURE_FILES", "OCA_2.0.pdn"));
        let count = env("MEASURE_GAMES", "6").parse().unwrap();
        for plies in env("MEASURE_PLIES", "20,24,30").split(',') {
            let plies: usize = plies.parse().unwrap();
            let mut line = Vec::new();
            for (variant, moves) in crate::harness::reach::archive_games(&files, count) {
                if plies > moves.len() {
                    continue;
                }
                let goal = goal_after(
                    variant,
                    &Record::new(variant.first_player(), moves[..plies].to_vec()),
                );
                let (board, side) = (variant.topology().opening(), variant.first_player());
                let needs = Color::ALL
                    .map(|c| moves_needed(&board, &goal.board, c, variant.rules().movement()));
                let mut p: [(u32, bool, Option<bounds::Split>); 2] =
                    [(0, false, None), (0, false, None)];
                for (c, need) in Color::ALL.into_iter().zip(&needs) {
                    if let Need::Moves {
                        least,
                        exact,
                        split,
                        ..
                    } = need
                    {
                        p[c as usize] = (*least, *exact, split.clone());
                    }
                }
                let refs = [0, 1].map(|i| (p[i].0, p[i].1, p[i].2.as_ref()));
                let kept = plies_over_captures(refs, side, goal.turn).unwrap();
                let with_joint = kept.max(bounds::joint_plies(refs, side, goal.turn));
                let joints: Vec<_> = p.iter().filter_map(|x| x.2.as_ref()?.joint).collect();
                let (never, old, capped, halved) = match joints[..] {
                    [w, b] => {
                        let saved = i64::from(savings(w.jumps) + savings(b.jumps));
                        let halves = i64::from(w.jumps / 2 + b.jumps / 2);
                        (
                            w.paired + b.paired - saved,
                            w.capped + b.capped - saved - halves,
                            w.capped + b.capped - saved,
                            w.paired + b.paired - saved - halves,
                        )
                    }
                    _ => (-1, -1, -1, -1),
                };
                line.push(format!(
                    "{kept}/{with_joint} (never {never}, first {old}, capped {capped}, halved {halved})",
                ));
            }
            eprintln!("after {plies}: kept/with joint: {}", line.join(", "));
        }
    }

    /// The wall time of whole searches under `MEASURE_LIMIT` (the limit
    /// must hold within 0.1 s), positions as [`measure_perimeter`]'s.
    #[test]
    #[ignore = "a measurement, run by hand"]
    fn measure_limit() {
        let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
        let files = measured_files(&env("MEASURE_FILES", "OCA_2.0.pdn"));
        let count = env("MEASURE_GAMES", "3").parse().unwrap();
        let limit = Duration::from_secs(env("MEASURE_LIMIT", "10").parse().unwrap());
        for plies in env("MEASURE_PLIES", "30").split(',') {
            let plies: usize = plies.parse().unwrap();
            for (variant, moves) in crate::harness::reach::archive_games(&files, count) {
                if plies > moves.len() {
                    continue;
                }
                let record = Record::new(variant.first_player(), moves[..plies].to_vec());
                let goal = goal_after(variant, &record);
                let began = Instant::now();
                let found = Reach::new(variant)
                    .deadline(Some(began + limit))
                    .search(&goal, &mut |_| {});
                let verdict = match found {
                    Ok(ReachOutcome::Found { game, .. }) => {
                        format!("{} plies", game.record.moves.len())
                    }
                    Ok(ReachOutcome::Undecided { at_least, .. }) => format!(">= {at_least}"),
                    other => format!("{other:?}"),
                };
                eprintln!(
                    "{} {plies}: {verdict} in {:.3} s",
                    variant.name(),
                    began.elapsed().as_secs_f64()
                );
            }
        }
    }

    fn measure_one(variant: Variant, goal: &Goal, plies: usize, size: usize, limit: Duration) {
        let reach = Reach::new(variant)
            .perimeter(size)
            .deadline(Some(Instant::now() + limit));
        let target = reach.target_of(goal).unwrap();
        let mut quiet = |_: &Progress| {};
        let cpu = thread_cpu();
        let mut search = search::Search::new(
            variant.rules(),
            &target,
            goal.turn,
            reach.deadline,
            &|_| true,
            &mut quiet,
        );
        let h = search.lower_bound(&reach.start, reach.first).unwrap();
        if let Ok(at) = std::env::var("MEASURE_SAMPLE") {
            let (at, every) = at.split_once(',').unwrap();
            search::SAMPLE.set((at.parse().unwrap(), every.parse().unwrap(), Vec::new()));
        }
        let found = reach.deepening(&mut search, h).unwrap();
        print_samples(variant, goal, &search);
        let verdict = match found {
            ReachOutcome::Found { game, .. } => format!("{} plies", game.record.moves.len()),
            ReachOutcome::Undecided { at_least, .. } => format!("undecided >= {at_least}"),
            other => format!("{other:?}"),
        };
        let table = search
            .perimeter
            .as_ref()
            .map_or((0, 0), |p| (p.len(), p.beyond()));
        eprintln!(
            "{} {plies} size {size}: {verdict}, start bound {h}, {} positions ({} rounds: {:?} then {}), table {} (beyond {}, {:.2} s, grown {:?}), guess {:.2} s, cpu {:.2} s",
            variant.name(),
            search.nodes,
            search.rounds,
            search.round_nodes,
            search.nodes - search.round_start,
            table.0,
            table.1,
            search.perimeter_time.as_secs_f64(),
            search.table_log,
            search.guess_time.as_secs_f64(),
            thread_cpu() - cpu
        );
    }

    /// The positions [`search::SAMPLE`] kept, as FENs with their plies
    /// played, their bound and its parts, for `reach --from` by hand.
    fn print_samples(variant: Variant, goal: &Goal, search: &search::Search<'_>) {
        let kept = search::SAMPLE.take().2;
        let fen = |b: &Board, c: Color| crate::notation::to_fen(b, c, variant.fen_algebraic());
        if !kept.is_empty() {
            eprintln!("target {}", fen(&goal.board.board, goal.turn));
        }
        for (board, side, played, h) in kept {
            let joint = search.joint_bound(&board, side);
            bounds::CROWN_OFF.set(true);
            let never = search.joint_bound(&board, side);
            bounds::CROWN_OFF.set(false);
            let left = goal.board.board.piece_count();
            eprintln!(
                "sample {} played {played} h {h} joint {joint:?} never {never:?} to take {}",
                fen(&board, side),
                board.piece_count() - left
            );
        }
    }

    /// What ends the lines from `MEASURE_FROM` to `MEASURE_TO` (English
    /// FENs): breadth first to `MEASURE_DEPTH` plies, the positions alive
    /// at each depth and why the others are unreachable (the bounds'
    /// reasons, counted by their first words).
    #[test]
    #[ignore = "a measurement, run by hand"]
    fn measure_dead() {
        let env = |k: &str| std::env::var(k).unwrap();
        let variant = Variant::English;
        let (turn, board) = crate::notation::parse_fen(&env("MEASURE_TO")).unwrap();
        let goal = Goal {
            board: PartialBoard {
                board,
                known: variant.topology().all_bits(),
            },
            turn,
        };
        let (side, from) = crate::notation::parse_fen(&env("MEASURE_FROM")).unwrap();
        let depth: usize = env("MEASURE_DEPTH").parse().unwrap();
        let rules = variant.rules();
        searching_to(variant, &goal, |search| {
            let mut layer = std::collections::HashSet::from([(from, side)]);
            let mut why = std::collections::BTreeMap::<String, usize>::new();
            for d in 1..=depth {
                let mut next = std::collections::HashSet::new();
                for (board, side) in &layer {
                    for mv in rules.legal_moves(board, *side) {
                        let child = (rules.play(board, *side, &mv).unwrap(), side.opposite());
                        match search.lower_bound(&child.0, child.1) {
                            Ok(_) => {
                                next.insert(child);
                            }
                            Err(e) => {
                                let key: String = e.0.chars().take(60).collect();
                                *why.entry(format!("{d}: {key}")).or_default() += 1;
                            }
                        }
                    }
                }
                eprintln!("depth {d}: {} alive", next.len());
                layer = next;
            }
            for (k, n) in why {
                eprintln!("{n:8} {k}");
            }
        });
    }

    #[test]
    fn a_thirteenth_piece_is_never_reached() {
        let variant = Variant::English;
        let mut board = variant.topology().opening();
        let extra = variant.topology().square(16).unwrap();
        board.set(
            extra,
            Some(crate::board::Piece::new(
                Color::White,
                crate::board::Role::Man,
            )),
        );
        let goal = Goal {
            board: PartialBoard {
                board,
                known: variant.topology().all_bits(),
            },
            turn: Color::Black,
        };
        let found = Reach::new(variant).search(&goal, &mut |_| {}).unwrap();
        assert!(
            matches!(&found, ReachOutcome::Unreachable { reason, within: None } if reason.contains("White has 13 pieces")),
            "{found:?}"
        );
    }

    #[test]
    fn any_game_says_it_stopped_at_its_most_positions() {
        // The end of OCA game 1 (44 plies): no game within 2,000 positions.
        let variant = Variant::English;
        let (turn, board) = crate::notation::parse_fen("B:WK1,8,12,31,32:B3,9,20,27,28").unwrap();
        let goal = Goal {
            board: PartialBoard {
                board,
                known: variant.topology().all_bits(),
            },
            turn,
        };
        let search = |room| {
            Reach::new(variant)
                .any(true)
                .perimeter(0)
                .any_positions(room)
                .search(&goal, &mut |_| {})
                .unwrap()
        };
        let found = search(2_000);
        assert!(
            matches!(
                found,
                ReachOutcome::Undecided {
                    best: None,
                    stopped: Stopped::Positions,
                    ..
                }
            ),
            "{found:?}"
        );
        let opening = goal_after(variant, &Record::new(variant.first_player(), vec![]));
        let found = Reach::new(variant)
            .any(true)
            .any_positions(2_000)
            .search(&opening, &mut |_| {})
            .unwrap();
        assert!(matches!(found, ReachOutcome::Found { .. }), "{found:?}");
    }

    #[test]
    fn any_game_ends_on_the_table_within_the_most_plies() {
        // Positions after 4-6 plies of random games, with a table around
        // them that holds the opening: the search for any game meets it at
        // once and takes its line, but never past the most plies allowed.
        for seed in 0..9 {
            let variant = [Variant::English, Variant::Russian, Variant::International][seed % 3];
            let mut rng = Rng::new(seed as u64 + 7);
            let opening = variant.topology().opening();
            let first = variant.first_player();
            let plies = 4 + seed % 3;
            let record = play_game(
                variant.rules(),
                &mut rng,
                &opening,
                first,
                plies,
                Play::Uniform,
            );
            let goal = goal_after(variant, &record);
            let rules = variant.rules();
            let shortest = match Reach::new(variant).search(&goal, &mut |_| {}).unwrap() {
                ReachOutcome::Found { game, .. } => game.record.moves.len() as u32,
                other => panic!("seed {seed}: {other:?}"),
            };
            let mut quiet = |_: &Progress| {};
            let mut search =
                search::Search::new(rules, &goal.board, goal.turn, None, &|_| true, &mut quiet);
            let table = perimeter::Perimeter::around(
                rules,
                (&goal.board.board, goal.turn),
                &opening,
                shortest,
                usize::MAX,
                None,
            );
            assert_eq!(
                table.distance(&opening, first),
                Some(shortest),
                "seed {seed}"
            );
            search.perimeter = Some(table);
            let from = (&opening, first);
            match any::any_game(&mut search, from, Some(shortest), 1_000).unwrap() {
                any::AnyEnd::Game(moves) => assert_eq!(moves.len() as u32, shortest, "seed {seed}"),
                _ => panic!("seed {seed}: no game"),
            }
            let fewer = any::any_game(&mut search, from, Some(shortest - 1), 1_000).unwrap();
            assert!(matches!(fewer, any::AnyEnd::Exhausted), "seed {seed}");
        }
    }

    #[test]
    fn a_closed_search_back_without_the_start_proves_a_diagram_unreachable() {
        // Gould's diagrams with a side to move no game leaves there: White
        // to move, so Black moved last, but every black man stands where no
        // black move lands (its start row, or a square whose only ways in
        // start from squares still held). `--any` left them undecided.
        let variant = Variant::English;
        let (rules, opening) = (variant.rules(), variant.topology().opening());
        for fen in [
            "W:W31,10:B3,1",
            "B:W31,29:B14,2",
            "W:W28,24,20,15,10:B12,8,4,3,1",
        ] {
            let (turn, board) = crate::notation::parse_fen(fen).unwrap();
            let table = perimeter::Perimeter::around(
                rules,
                (&board, turn),
                &opening,
                100,
                usize::MAX,
                None,
            );
            assert!(table.closed(), "{fen}: {} positions", table.len());
            assert_eq!(
                table.distance(&opening, variant.first_player()),
                None,
                "{fen}"
            );
            let target = PartialBoard::whole(board);
            let mut quiet = |_: &Progress| {};
            let mut search = search::Search::new(rules, &target, turn, None, &|_| true, &mut quiet);
            search.perimeter = Some(table);
            let found = Reach::new(variant).closed_without_start(&search);
            assert!(matches!(found, Some(any::AnyEnd::NoWayBack(_))), "{fen}");
        }
        // A position the opening reaches: its table grows back to the
        // opening and is never closed without it.
        let record = play_game(
            rules,
            &mut Rng::new(11),
            &opening,
            variant.first_player(),
            4,
            Play::Uniform,
        );
        let goal = goal_after(variant, &record);
        let table = perimeter::Perimeter::around(
            rules,
            (&goal.board.board, goal.turn),
            &opening,
            100,
            20_000,
            None,
        );
        assert!(table.distance(&opening, variant.first_player()).is_some());
    }

    #[test]
    fn the_search_for_any_game_goes_on_after_a_stall_and_the_deepening_finds_games() {
        for seed in 0..4u64 {
            let variant =
                [Variant::English, Variant::Russian, Variant::International][seed as usize % 3];
            let (rules, opening) = (variant.rules(), variant.topology().opening());
            let first = variant.first_player();
            let mut rng = Rng::new(seed + 40);
            let plies = 8 + seed as usize % 3;
            let record = play_game(rules, &mut rng, &opening, first, plies, Play::Uniform);
            let plies = record.moves.len() as u32;
            let goal = goal_after(variant, &record);
            let reach = Reach::new(variant);
            let mut quiet = |_: &Progress| {};
            let mut search =
                search::Search::new(rules, &goal.board, goal.turn, None, &|_| true, &mut quiet);
            // Stopped after every position, it goes on where it stopped.
            let mut best_first = any::BestFirst::new(&search, (&opening, first), None, 200_000);
            let mut stalls = 0;
            let moves = loop {
                match best_first.run(&mut search, Some(1)).unwrap() {
                    any::AnyEnd::Stalled => stalls += 1,
                    any::AnyEnd::Game(moves) => break moves,
                    _ => panic!("seed {seed}: no game"),
                }
            };
            assert!(stalls > 0, "seed {seed}");
            reach.checked(moves, &search).unwrap();
            // The deepening from the position after two plies of the game
            // finds a way no longer than the game's, and none shorter than
            // the shortest.
            let shortest = match reach.search(&goal, &mut |_| {}).unwrap() {
                ReachOutcome::Found { lower_bound, .. } => lower_bound,
                other => panic!("seed {seed}: {other:?}"),
            };
            let two = Record::new(first, record.moves[..2].to_vec());
            let kept = || any::Kept {
                board: replay(rules, &opening, &two).unwrap(),
                side: two.mover(3),
                moves: two.moves.clone(),
            };
            let found = reach.deepened(&mut search, kept(), plies - 2).unwrap();
            let game = reach.checked(found.expect("a game"), &search).unwrap();
            assert!(game.record.moves.len() as u32 <= plies, "seed {seed}");
            assert!(game.record.moves.len() as u32 >= shortest, "seed {seed}");
            if shortest >= 4 {
                let none = reach.deepened(&mut search, kept(), shortest - 4).unwrap();
                assert!(none.is_none(), "seed {seed}");
            }
        }
    }
}
