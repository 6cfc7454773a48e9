//! Repairs from a start board known on every square (a PDN game from the
//! opening or its `[FEN]`, the answer `verify --repair` judges): every
//! position of every edited record is known, so the search over edits is
//! a search over positions, played by the native rules with no formula.
//!
//! The search deepens on the number of edits `k`. From each position it
//! plays the written move (cost 0) and, while edits are left, each edit of
//! the written move there (another move that fits it with one square
//! blanked, any other move, the move deleted, a move inserted before it,
//! the move swapped with the next one of its side),
//! so edits are tried in the order of the plies, from where the record
//! fails backwards. A position (ply, board, side to move) from which the
//! rest could not be played with `b` edits is remembered, and never
//! searched again with `b` or fewer: the deepening and the branches share
//! every dead end. A swap begun is part of the position: the written move
//! two on is played at once, and the one swapped out is owed there. When
//! no position leads through with `k` edits, none does: that is the proof
//! of the minimum.

use std::collections::HashMap;

use smallvec::SmallVec;

use crate::board::{Board, Color, PartialBoard};
use crate::notation::{Answer, MoveText, WrittenMove};
use crate::rules::Rules;
use crate::solve::{Solution, SolveStats};

use super::edits::{spot, swap, EditKind, EditSpot, Edits};
use super::{Budget, Found, RepairOptions, Stop};

/// What one search step did: the edits it stands for (any one of them;
/// none for a move played as written) and the move played (none for a
/// deleted move).
#[derive(Clone, Debug)]
struct Step {
    labels: SmallVec<[EditSpot; 2]>,
    played: Option<MoveText>,
}

/// An edit set found: where in `found`, and whether by its first labels.
#[derive(Clone, Copy, Debug)]
struct Claim {
    at: usize,
    first_labels: bool,
}

/// The search from a known start.
pub(super) struct Replayed<'e, 'a> {
    edits: &'e Edits<'a>,
    rules: &'static dyn Rules,
    start: Board,
    end: Option<PartialBoard>,
    /// For each written move, its square edits with the pattern each makes.
    blanks: Vec<Vec<(EditSpot, WrittenMove)>>,
    /// Positions (next written move, board, side to move, swap owed) from
    /// which the rest was searched with this many edits and nothing found.
    dead: HashMap<(usize, Board, Color, Option<usize>), usize>,
    /// The written move where the move a swap took out is to be played.
    owed: Option<usize>,
    trail: Vec<Step>,
    /// Edit sets found, with the moves played.
    found: Vec<(Vec<EditSpot>, Vec<MoveText>)>,
    /// Each edit set found: its place in `found`, and whether its moves
    /// are a reading of the set by every step's first label.
    seen: HashMap<Vec<EditSpot>, Claim>,
    /// Successes reached, duplicates included (a subtree with one is not dead).
    reached: usize,
    options: RepairOptions,
    budget: Budget,
}

impl<'e, 'a> Replayed<'e, 'a> {
    pub fn new(
        edits: &'e Edits<'a>,
        start: Board,
        end: Option<PartialBoard>,
        options: RepairOptions,
        budget: Budget,
    ) -> Replayed<'e, 'a> {
        let blanks = (0..edits.len())
            .map(|i| {
                edits
                    .edits_of(i)
                    .into_iter()
                    .filter(|s| s.kind == EditKind::Square)
                    .map(|s| (s, edits.edited_move(s)))
                    .collect()
            })
            .collect();
        Replayed {
            edits,
            rules: edits.variant.rules(),
            start,
            end,
            blanks,
            dead: HashMap::new(),
            owed: None,
            trail: Vec::new(),
            found: Vec::new(),
            seen: HashMap::new(),
            reached: 0,
            options,
            budget,
        }
    }

    /// Every edit set of exactly `k` edits (fewer were tried before) that
    /// makes the record replay, as many as the options ask for.
    ///
    /// # Errors
    /// [`Stop`] when the budget runs out first.
    pub fn with_edits(&mut self, k: usize) -> Result<Found, Stop> {
        self.trail.clear();
        self.owed = None;
        let first = self.edits.original.first;
        self.from(0, self.start, first, k)?;
        if k > 0 && !self.enough() {
            self.trail.push(Step {
                labels: SmallVec::from_elem(spot(EditKind::First, 0), 1),
                played: None,
            });
            self.from(0, self.start, first.opposite(), k - 1)?;
            self.trail.pop();
        }
        Ok(std::mem::take(&mut self.found)
            .into_iter()
            .map(|(spots, moves)| {
                let solution = self.solution(&spots, moves);
                (spots, solution)
            })
            .collect())
    }

    /// Whether the search has found as many repairs as it may: every one
    /// is sought, so that the first in the spec's order is among them.
    fn enough(&self) -> bool {
        self.found.len() >= self.options.limit
    }

    /// Searches on from written move `i` on `board` with `side` to move
    /// and `left` edits; true when some repair was reached.
    fn from(&mut self, i: usize, board: Board, side: Color, left: usize) -> Result<bool, Stop> {
        if self.enough() {
            return Ok(false);
        }
        let key = (i, board, side, self.owed);
        if self.dead.get(&key).is_some_and(|&b| b >= left) {
            return Ok(false);
        }
        self.budget.tick()?;
        let before = self.reached;
        self.explore(i, board, side, left)?;
        let reached = self.reached > before;
        if !reached && !self.enough() {
            let b = self.dead.entry(key).or_insert(left);
            *b = (*b).max(left);
        }
        Ok(reached)
    }

    fn explore(&mut self, i: usize, board: Board, side: Color, left: usize) -> Result<(), Stop> {
        let n = self.edits.len();
        if i == n
            && self
                .end
                .is_none_or(|end| end.first_difference(&board).is_none())
        {
            self.succeed();
            return Ok(());
        }
        if i == n && left == 0 {
            return Ok(());
        }
        let legal = self.rules.legal_moves(&board, side);
        if i < n && self.owed == Some(i) {
            self.play_owed(i, &board, side, &legal, left)?;
        } else if i < n {
            let written = &self.edits.written[i];
            let (fitting, other): (Vec<&MoveText>, Vec<&MoveText>) =
                legal.iter().partition(|mv| written.matches(mv));
            for mv in fitting {
                self.play(i + 1, &board, side, mv, SmallVec::new(), left)?;
            }
            if left > 0 {
                // A square read otherwise first: the smaller change is the
                // likelier reading, and the one named when either does.
                let mut readings: Vec<_> = other
                    .into_iter()
                    .map(|mv| (self.labels(i, mv), mv))
                    .filter(|(labels, _)| !labels.is_empty())
                    .collect();
                readings.sort_by_key(|(labels, _)| labels[0].kind);
                for (labels, mv) in readings {
                    self.play(i + 1, &board, side, mv, labels, left - 1)?;
                }
                self.trail.push(Step {
                    labels: SmallVec::from_elem(spot(EditKind::Extra, i), 1),
                    played: None,
                });
                self.from(i + 1, board, side, left - 1)?;
                self.trail.pop();
                if self.owed.is_none() && self.edits.swappable(i) {
                    self.begin_swap(i, &board, side, &legal, left - 1)?;
                }
            }
        }
        if left > 0 {
            let missing = || SmallVec::from_elem(spot(EditKind::Missing, i), 1);
            for mv in &legal {
                self.play(i, &board, side, mv, missing(), left - 1)?;
            }
        }
        Ok(())
    }

    /// Swaps written move `i` with the one two on: plays that one here, and
    /// owes move `i` two written moves on.
    fn begin_swap(
        &mut self,
        i: usize,
        board: &Board,
        side: Color,
        legal: &[MoveText],
        left: usize,
    ) -> Result<(), Stop> {
        let later = &self.edits.written[i + 2];
        let fitting: Vec<&MoveText> = legal.iter().filter(|mv| later.matches(mv)).collect();
        self.owed = Some(i + 2);
        for mv in fitting {
            let labels = SmallVec::from_elem(swap(i), 1);
            self.play(i + 1, board, side, mv, labels, left)?;
        }
        self.owed = None;
        Ok(())
    }

    /// Plays at written move `i` the move a swap took out (two before), as
    /// written: no other edit of it.
    fn play_owed(
        &mut self,
        i: usize,
        board: &Board,
        side: Color,
        legal: &[MoveText],
        left: usize,
    ) -> Result<(), Stop> {
        let earlier = &self.edits.written[i - 2];
        let fitting: Vec<&MoveText> = legal.iter().filter(|mv| earlier.matches(mv)).collect();
        self.owed = None;
        for mv in fitting {
            self.play(i + 1, board, side, mv, SmallVec::new(), left)?;
        }
        self.owed = Some(i);
        Ok(())
    }

    /// The edits of written move `i` that `mv` (which does not fit it as
    /// written) is a reading of: each square whose blanking it fits, then
    /// the whole move.
    fn labels(&self, i: usize, mv: &MoveText) -> SmallVec<[EditSpot; 2]> {
        let mut labels: SmallVec<[EditSpot; 2]> = self.blanks[i]
            .iter()
            .filter(|(_, pattern)| pattern.matches(mv))
            .map(|&(s, _)| s)
            .collect();
        if !matches!(
            self.edits.written[i],
            WrittenMove::Pattern(crate::notation::MovePattern::Unknown)
        ) {
            labels.push(spot(EditKind::Move, i));
        }
        labels
    }

    /// Plays `mv` and searches on from written move `next`.
    fn play(
        &mut self,
        next: usize,
        board: &Board,
        side: Color,
        mv: &MoveText,
        labels: SmallVec<[EditSpot; 2]>,
        left: usize,
    ) -> Result<(), Stop> {
        let Ok(after) = self.rules.play(board, side, mv) else {
            return Ok(());
        };
        self.trail.push(Step {
            labels,
            played: Some(mv.clone()),
        });
        let result = self.from(next, after, side.opposite(), left);
        self.trail.pop();
        result.map(|_| ())
    }

    /// The trail reached the end: its edit sets (one per choice of label
    /// where a move is the reading of several edits, with `all`).
    ///
    /// A set is played as the first trail that reads it by every step's
    /// first label, as without `all`: `9-13` for `36-13` is a square
    /// misread, and the set "the move misread" is played by another move
    /// when one fits (`10-14`), not by `9-13` again (the same game, which
    /// would hide that repair), whichever of the two the search met first.
    fn succeed(&mut self) {
        self.reached += 1;
        let moves: Vec<MoveText> = self.trail.iter().filter_map(|s| s.played.clone()).collect();
        let mut sets: Vec<(Vec<EditSpot>, bool)> = vec![(Vec::new(), true)];
        for step in self.trail.iter().filter(|s| !s.labels.is_empty()) {
            let choices = if self.options.all {
                &step.labels[..]
            } else {
                &step.labels[..1]
            };
            sets = sets
                .iter()
                .flat_map(|(set, first)| {
                    choices.iter().enumerate().map(move |(i, &label)| {
                        let mut longer = set.clone();
                        longer.push(label);
                        (longer, *first && i == 0)
                    })
                })
                .collect();
        }
        for (mut set, first_labels) in sets {
            set.sort_unstable();
            if !Edits::compatible(&set) {
                continue;
            }
            let enough = self.enough();
            match self.seen.get_mut(&set) {
                Some(claim) if first_labels && !claim.first_labels => {
                    self.found[claim.at].1 = moves.clone();
                    claim.first_labels = true;
                }
                Some(_) => {}
                None if !enough => {
                    let claim = Claim {
                        at: self.found.len(),
                        first_labels,
                    };
                    self.seen.insert(set.clone(), claim);
                    self.found.push((set, moves.clone()));
                }
                None => {}
            }
        }
    }

    /// The answer of the record `spots` make, played as `moves`; its end
    /// board is the search's own (the caller replays it again).
    fn solution(&self, spots: &[EditSpot], moves: Vec<MoveText>) -> Solution {
        let (record, _) = self.edits.edited(spots);
        let filled = record.filled(moves);
        let mut end = self.start;
        for (ply, mv) in filled.moves.iter().enumerate() {
            match self.rules.play(&end, filled.mover(ply + 1), mv) {
                Ok(next) => end = next,
                Err(_) => break,
            }
        }
        Solution {
            answer: Answer {
                start: self.start,
                end,
            },
            stats: SolveStats::default(),
            filled: record.is_damaged().then_some(filled),
        }
    }
}
