//! `solve --from-opening`: the shortest game from the opening to a start
//! board of a fragment (`shared/spec/proof-games.md`).
//!
//! Every start board of a fragment agrees, on the squares its moves use,
//! with one of the contents the counter lists ([`crate::analysis::count_start_boards`]).
//! So a proof-game search per content, for a board with that content from
//! which the fragment's moves play, and the shortest of them, is the
//! shortest prefix of all when the list is complete.

use std::time::Instant;

use crate::analysis::{count_start_boards, used_squares, CountOptions};
use crate::board::{Board, PartialBoard};
use crate::encode::BoardFacts;
use crate::notation::Record;
use crate::replay::replay;
use crate::rules::Variant;

use super::{Goal, ProofGame, Reach, ReachError, ReachOutcome};

/// The shortest prefix found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prefix {
    /// The game from the opening to the fragment's start board (its end).
    pub game: ProofGame,
    /// No shorter prefix reaches any start board of the fragment: the
    /// contents were all listed and every search ended.
    pub minimal: bool,
    /// The fewest plies any prefix can have, as far as proved.
    pub lower_bound: u32,
    /// Start boards searched (told apart by the used squares).
    pub boards: usize,
    /// Whether they are all the fragment has.
    pub complete: bool,
}

/// Start boards (told apart by the squares the moves use) searched for a
/// prefix; past it the minimum is over those only, and said so.
pub const PREFIX_BOARDS: usize = 64;

/// What the prefix search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrefixOutcome {
    /// A prefix.
    Found(Prefix),
    /// The fragment has no start board at all (the solver's verdict).
    Impossible,
    /// No game from the opening reaches a start board of the fragment.
    Unreachable {
        /// Why (the first content's reason).
        reason: String,
    },
    /// No prefix found: the time ran out, or the contents were not all
    /// listed; none of fewer than `at_least` plies exists among those searched.
    Undecided {
        /// The proved lower bound.
        at_least: u32,
    },
}

/// The shortest game from `variant`'s opening to a board from which
/// `record` plays (and that agrees with `known`), searching one board per
/// content of the used squares (up to [`PREFIX_BOARDS`]) until `deadline`;
/// `progress` hears the board and the bound being searched.
///
/// # Errors
/// [`ReachError::Formula`] when the start boards cannot be listed (a
/// damaged record); [`ReachError::GameDoesNotReplay`] when a game found does not
/// replay (a bug).
pub fn shortest_prefix(
    variant: Variant,
    record: &Record,
    known: BoardFacts,
    deadline: Option<Instant>,
    progress: &mut dyn FnMut(usize, usize, u32),
) -> Result<PrefixOutcome, ReachError> {
    let count = start_boards(variant, record, known)?;
    if count.boards.is_empty() {
        return Ok(PrefixOutcome::Impossible);
    }
    let boards = &count.boards;
    let mut used = 0;
    for square in used_squares(record) {
        used |= square.bit();
    }
    let plays = |board: &Board| replay(variant.rules(), board, record).is_ok();
    let mut found = Findings::default();
    for (i, board) in boards.iter().enumerate() {
        let goal = Goal {
            board: PartialBoard {
                board: *board,
                known: used,
            },
            turn: record.first,
        };
        let mut reach = Reach::new(variant).deadline(deadline);
        if let Some(best) = &found.best {
            // Only a strictly shorter game is news.
            match (best.record.moves.len() as u32).checked_sub(2) {
                Some(most) => reach = reach.max_plies(most),
                None => break,
            }
        }
        found.add(
            reach.search_accepting(&goal, &plays, &mut |p| progress(i, boards.len(), p.bound))?,
        );
    }
    Ok(found.outcome(boards.len(), count.complete))
}

/// The start boards of `record` that agree with `known`, one per content
/// of the used squares (up to [`PREFIX_BOARDS`]).
fn start_boards(
    variant: Variant,
    record: &Record,
    known: BoardFacts,
) -> Result<crate::analysis::Count, ReachError> {
    if record.is_damaged() {
        return Err(ReachError::Formula(
            "--from-opening takes records whose moves are all written (no '?')".into(),
        ));
    }
    let options = CountOptions {
        limit: PREFIX_BOARDS,
        others_empty: false,
        known,
    };
    count_start_boards(record, variant, options).map_err(|e| ReachError::Formula(e.to_string()))
}

/// What the searches from the start boards found so far.
#[derive(Default)]
struct Findings {
    /// The shortest game found.
    best: Option<ProofGame>,
    /// The least lower bound of the searches that ran out of time.
    undecided: Option<u32>,
    /// The first proof that a board cannot be reached at all.
    reason: Option<String>,
}

impl Findings {
    /// Takes in one search's outcome.
    fn add(&mut self, outcome: ReachOutcome) {
        match outcome {
            ReachOutcome::Found { game, .. } => self.best = Some(game),
            ReachOutcome::Unreachable {
                reason: why,
                within,
            } => {
                if within.is_none() {
                    self.reason.get_or_insert(why);
                }
            }
            ReachOutcome::Undecided { at_least, .. } => {
                self.undecided = Some(self.undecided.map_or(at_least, |u| u.min(at_least)));
            }
        }
    }

    /// The verdict over `boards` start boards (all of them when `complete`).
    fn outcome(self, boards: usize, complete: bool) -> PrefixOutcome {
        let undecided = self.undecided;
        match self.best {
            Some(game) => {
                let plies = game.record.moves.len() as u32;
                let lower_bound = undecided.map_or(plies, |u| u.min(plies));
                PrefixOutcome::Found(Prefix {
                    minimal: complete && lower_bound == plies,
                    lower_bound,
                    game,
                    boards,
                    complete,
                })
            }
            None if complete && undecided.is_none() => PrefixOutcome::Unreachable {
                reason: self.reason.unwrap_or_else(|| {
                    "no game from the opening reaches a start board of these moves".into()
                }),
            },
            None => PrefixOutcome::Undecided {
                at_least: undecided.unwrap_or(0),
            },
        }
    }
}
