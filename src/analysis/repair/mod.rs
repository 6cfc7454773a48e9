//! Miswritten records (`shared/spec/repair.md`, `encodings/repair.md`): the
//! fewest edits to what is written that make a record possible.
//!
//! An edit turns part of the record into a damaged move (a square into
//! `?`, a move into a lone `?`, an inserted lone `?`), deletes a move,
//! swaps two moves of one side, or gives the first move to the other side
//! (`edits`). Two searches find the
//! fewest, both deepening on the number of edits so that the minimum is
//! proved by the level below it:
//!
//! - from a start board known on every square (`replayed`), every edited
//!   record is a sequence of known positions: the native rules search them,
//!   sharing every dead end between branches and levels;
//! - otherwise (`window`), each edit set is a damaged record solved by the
//!   SAT engine, and the sets tried are narrowed by the record's conflict
//!   window.
//!
//! Either way every repair is replayed by the native replayer before it is
//! returned, and a limit on time ends the search with the minimum proved so
//! far ([`RepairOutcome::Undecided`]).

mod edits;
mod replayed;
mod window;

use crate::notation::plural;
use std::time::Instant;

use crate::board::PartialBoard;
use crate::encode::BoardFacts;
use crate::notation::{MoveNumbers, Record};
use crate::rules::Variant;
use crate::solve::{check_facts, check_filled, checked_answer, Solution, SolveError};

pub use edits::{Edit, EditKind, EditSpot};

use edits::Edits;

/// A repair: its edits and the answer of the repaired record.
#[derive(Clone, Debug)]
pub struct Repair {
    /// The edits, in the order of the plies they concern.
    pub edits: Vec<Edit>,
    /// The same edits by the written record's moves (sorted).
    pub spots: Vec<EditSpot>,
    /// The repaired record, every move filled in.
    pub record: Record,
    /// Its answer (replayed).
    pub solution: Solution,
}

/// The repairs of the fewest edits, in the spec's fixed order (the first
/// is the one printed), up to the search's limit.
#[derive(Clone, Debug)]
pub struct Repairs {
    found: Vec<Repair>,
    /// Whether every repair of that many edits is here (the search did
    /// not stop at its limit).
    pub complete: bool,
}

impl Repairs {
    /// `found` in the spec's order: fewer moves changed first, then the
    /// earliest first edit, then the edit kinds in the order listed, then
    /// the read move's squares (as numbers; a move filled in by the solver
    /// last of all, see [`order_key`]). Ties keep the search's order.
    pub fn ordered(mut found: Vec<Repair>, complete: bool) -> Repairs {
        found.sort_by_cached_key(|repair| order_key(&repair.edits));
        Repairs { found, complete }
    }

    /// Each correction once: a repair whose moves another before it also
    /// plays (a square or the whole move misread) is the same repair.
    pub fn distinct(&self) -> Vec<&Repair> {
        let mut seen: Vec<&Record> = Vec::new();
        self.found
            .iter()
            .filter(|r| {
                let new = !seen.contains(&&r.record);
                seen.push(&r.record);
                new
            })
            .collect()
    }

    /// How many other repairs of the same cost there are, in words: `1
    /// other repair of 1 edit`, `at least 99 other repairs of 2 edits`
    /// (the limit reached), `no other repair of 1 edit`, and `other
    /// repairs of 3 edits not ruled out` when the limit came before any
    /// other was found ("at least 0" would tell the reader nothing).
    pub fn others(&self) -> String {
        let others = self.distinct().len().saturating_sub(1);
        let cost = plural(self.found.first().map_or(0, |r| r.edits.len()), "edit");
        match (others, self.complete) {
            (0, true) => format!("no other repair of {cost}"),
            (0, false) => format!("other repairs of {cost} not ruled out"),
            (n, true) => format!("{} of {cost}", plural(n, "other repair")),
            (n, false) => format!("at least {} of {cost}", plural(n, "other repair")),
        }
    }
}

impl std::ops::Deref for Repairs {
    type Target = [Repair];
    fn deref(&self) -> &[Repair] {
        &self.found
    }
}

impl<'a> IntoIterator for &'a Repairs {
    type Item = &'a Repair;
    type IntoIter = std::slice::Iter<'a, Repair>;
    fn into_iter(self) -> Self::IntoIter {
        self.found.iter()
    }
}

/// Moves changed; each edit's ply, kind and squares read (none for a
/// move filled in); the squares of the moves filled in.
type OrderKey = (usize, Vec<(usize, EditKind, Vec<u64>)>, Vec<Vec<u64>>);

/// A repair's place in the spec's order (see [`Repairs::ordered`]). The
/// move filled in for a `missing` or `move` edit is one of those that fit,
/// as the solver's model gave it: it is ordered by last, so that which of
/// two repairs comes first does not hang on a model.
fn order_key(edits: &[Edit]) -> OrderKey {
    let changed = edits.iter().map(|e| e.kind.moves_changed()).sum();
    let filled = |kind| matches!(kind, EditKind::Missing | EditKind::Move);
    let fillings = edits
        .iter()
        .filter(|e| filled(e.kind))
        .map(|e| square_key(&e.read))
        .collect();
    let edits = edits
        .iter()
        .map(|e| {
            let squares = if filled(e.kind) {
                Vec::new()
            } else {
                square_key(&e.read)
            };
            (e.ply, e.kind, squares)
        })
        .collect();
    (changed, edits, fillings)
}

/// A move's squares to order by: each run of digits as its number, each
/// letter (an algebraic file) as itself, ahead of every number.
fn square_key(text: &str) -> Vec<u64> {
    let mut key = Vec::new();
    let mut number: Option<u64> = None;
    for c in text.chars() {
        match c.to_digit(10) {
            Some(d) => {
                number = Some(
                    number
                        .unwrap_or(0)
                        .saturating_mul(10)
                        .saturating_add(d.into()),
                )
            }
            None => {
                key.extend(number.take().map(|n| n + 256));
                if c.is_ascii_alphabetic() {
                    key.push(u64::from(c));
                }
            }
        }
    }
    key.extend(number.map(|n| n + 256));
    key
}

/// What `--repair` found.
#[derive(Clone, Debug)]
pub enum RepairOutcome {
    /// The record is possible as written.
    NotNeeded(Box<Solution>),
    /// The fewest edits that make it possible: every repair of that many
    /// edits found, in the spec's order. No repair of fewer edits exists.
    Repaired(Repairs),
    /// No repair of at most this many edits exists.
    NoneWithin(usize),
    /// The time limit passed first: no repair of fewer than `at_least`
    /// edits exists (proved), and whether one of `at_least` exists is not
    /// known.
    Undecided {
        /// The proved lower bound on the number of edits.
        at_least: usize,
    },
}

impl RepairOutcome {
    /// The word JSON gives it (`outcome` of `verify --pdn --format json`
    /// and of the page's repair).
    pub fn name(&self) -> &'static str {
        match self {
            RepairOutcome::NotNeeded(_) => "not needed",
            RepairOutcome::Repaired(_) => "repaired",
            RepairOutcome::NoneWithin(_) => "none within",
            RepairOutcome::Undecided { .. } => "undecided",
        }
    }
}

/// How to search.
#[derive(Clone, Copy, Debug)]
pub struct RepairOptions {
    /// The most edits tried.
    pub max_edits: usize,
    /// Every minimum repair under each of its names (a move misread as a
    /// square and as a whole move), not each correction under one, and
    /// with no budget on the search for them but `limit`.
    pub all: bool,
    /// The most repairs sought: the first in order is certain, and the
    /// count of the others exact, only when fewer are found.
    pub limit: usize,
    /// When to stop searching and answer [`RepairOutcome::Undecided`]:
    /// the clock is read between steps, and every solver call stops there
    /// too (see [`crate::sat::under`]). A deadline in force on the calling
    /// thread counts as well.
    pub deadline: Option<Instant>,
}

impl Default for RepairOptions {
    fn default() -> RepairOptions {
        RepairOptions {
            max_edits: 3,
            all: false,
            limit: 100,
            deadline: None,
        }
    }
}

/// Edit sets that make the record possible, each with its answer.
pub(super) type Found = Vec<(Vec<EditSpot>, Solution)>;

/// Why a search stopped before its verdict.
#[derive(Debug)]
pub(super) enum Stop {
    /// The deadline passed.
    OutOfTime,
    /// The solver failed (a bug, or varisat failing).
    Failed(SolveError),
}

impl From<SolveError> for Stop {
    /// A solver call the deadline stopped is the search running out of time.
    fn from(e: SolveError) -> Stop {
        if e.is_undecided() {
            Stop::OutOfTime
        } else {
            Stop::Failed(e)
        }
    }
}

/// The time a search may take, looked at every so many steps.
#[derive(Clone, Copy, Debug)]
pub(super) struct Budget {
    deadline: Option<Instant>,
    steps: u32,
}

impl Budget {
    fn new(deadline: Option<Instant>) -> Budget {
        Budget { deadline, steps: 0 }
    }

    /// Counts a cheap step, and looks at the clock every 256 of them.
    fn tick(&mut self) -> Result<(), Stop> {
        self.steps = self.steps.wrapping_add(1);
        if self.steps.is_multiple_of(256) {
            self.check()
        } else {
            Ok(())
        }
    }

    /// Looks at the clock (before a costly step).
    fn check(&self) -> Result<(), Stop> {
        match self.deadline {
            Some(deadline) if Instant::now() >= deadline => Err(Stop::OutOfTime),
            _ => Ok(()),
        }
    }
}

/// [`repair`], telling `progress` each number of edits as the search
/// starts on it (for a progress line on long searches).
///
/// # Errors
/// As [`repair`].
pub fn repair_observed(
    record: &Record,
    variant: Variant,
    known: BoardFacts,
    options: RepairOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<RepairOutcome, SolveError> {
    let deadline = crate::sat::earlier(options.deadline, crate::sat::current_deadline());
    crate::sat::under(deadline, || {
        repair_until(record, variant, known, options, deadline, progress)
    })
}

/// [`repair_observed`] with every solver made under `deadline`.
fn repair_until(
    record: &Record,
    variant: Variant,
    known: BoardFacts,
    options: RepairOptions,
    deadline: Option<Instant>,
    progress: &mut dyn FnMut(usize),
) -> Result<RepairOutcome, SolveError> {
    let edits = Edits::new(record, variant);
    let budget = Budget::new(deadline);
    let (searched, cut) = match fully_known(known, variant) {
        Some(start) => {
            let mut search = replayed::Replayed::new(&edits, start, known.end, options, budget);
            (deepen(options, progress, |k| search.with_edits(k)), false)
        }
        None => {
            let search = window::Window::new(&edits, known, budget);
            let searched = deepen(options, progress, |k| search.with_edits(k, options));
            (searched, search.cut())
        }
    };
    let (k, found) = match searched {
        Ok(Some(found)) => found,
        Ok(None) => return Ok(RepairOutcome::NoneWithin(options.max_edits)),
        Err((at_least, Stop::OutOfTime)) => return Ok(RepairOutcome::Undecided { at_least }),
        Err((_, Stop::Failed(e))) => return Err(e),
    };
    let complete = found.len() < options.limit && !cut;
    let mut repairs = Vec::with_capacity(found.len());
    for (spots, solution) in found {
        let repair = edits.named(&spots, solution);
        checked(&edits, &repair, known)?;
        repairs.push(repair);
    }
    if k == 0 {
        let solution = repairs.swap_remove(0).solution;
        return Ok(RepairOutcome::NotNeeded(Box::new(solution)));
    }
    Ok(RepairOutcome::Repaired(Repairs::ordered(repairs, complete)))
}

/// Runs `level` for 0, 1, ... edits up to the most allowed, until one
/// finds repairs: that number and what it found, `None` when none did, or
/// the number of edits being searched when it stopped.
fn deepen<F>(
    options: RepairOptions,
    progress: &mut dyn FnMut(usize),
    mut level: F,
) -> Result<Option<(usize, Found)>, (usize, Stop)>
where
    F: FnMut(usize) -> Result<Found, Stop>,
{
    for k in 0..=options.max_edits {
        progress(k);
        let found = level(k).map_err(|stop| (k, stop))?;
        if !found.is_empty() {
            return Ok(Some((k, found)));
        }
    }
    Ok(None)
}

/// The start board when `known` gives every square of it.
fn fully_known(known: BoardFacts, variant: Variant) -> Option<crate::board::Board> {
    let start: PartialBoard = known.start?;
    let all = variant.topology().all_bits();
    (start.known & all == all && start.board.topology() == variant.topology())
        .then_some(start.board)
}

/// Checks a repair as every answer is checked: its moves fit the edited
/// record, replay from its start board to its end board, and keep the facts.
fn checked(edits: &Edits<'_>, repair: &Repair, known: BoardFacts) -> Result<(), SolveError> {
    let (edited, _) = edits.edited(&repair.spots);
    check_filled(&edited, &repair.record, "the repair")?;
    let answer = checked_answer(
        &repair.record,
        repair.solution.answer.start,
        "the repair",
        edits.variant,
    )?;
    if answer.end != repair.solution.answer.end {
        return Err(SolveError::RepairEndBoardDiffers);
    }
    check_facts(&answer, known)
}

/// `record` with the edits `spots` applied (square and move edits become
/// `?`, a missing move a lone `?`): the damaged record whose answers are
/// the repairs by those edits.
pub fn edited_record(record: &Record, spots: &[EditSpot]) -> Record {
    Edits::new(record, Variant::default()).edited(spots).0
}

/// Every edit of `record` on its own: each written square, each move,
/// each move deleted, a move inserted before each move and at the end,
/// and the other side first. (Exhaustive searches start here.)
pub fn every_edit(record: &Record) -> Vec<EditSpot> {
    Edits::new(record, Variant::default()).every_edit()
}

/// The fewest edits that make `game`, read under `variant`, replay from
/// its start (its `[FEN]`, else the opening; every square known), as
/// `options` say, telling `progress` each number of edits as the search
/// starts on it. `None` when it cannot be read under `variant`.
///
/// # Errors
/// [`SolveError`] from the solver.
pub fn repair_game(
    game: &crate::notation::RawGame<'_>,
    variant: Variant,
    options: RepairOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<Option<RepairOutcome>, SolveError> {
    let Ok(read) = crate::archive::read_judged(game, variant) else {
        return Ok(None);
    };
    repair_read(&read, variant, options, progress).map(Some)
}

/// [`repair_game`] of a game already read as verify judges it.
///
/// # Errors
/// As [`repair_game`].
pub fn repair_read(
    read: &crate::notation::PdnGame,
    variant: Variant,
    options: RepairOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<RepairOutcome, SolveError> {
    let start = PartialBoard::whole(crate::archive::start_of(read, variant));
    let known = BoardFacts {
        start: Some(start),
        end: None,
    };
    repair_observed(&read.record, variant, known, options, progress)
}

/// One line for a repair outcome: `repaired with 1 edit (none with 0): ply
/// 5: 23-18 read as 23-19 (square)`.
pub fn repair_summary(outcome: &RepairOutcome) -> String {
    repair_summary_numbered(outcome, None)
}

/// [`repair_summary`] naming plies as PDN numbers them in the repaired
/// game (`3. 23-18 read as 23-19 (square)`) when `numbers` are given.
pub fn repair_summary_numbered(outcome: &RepairOutcome, numbers: Option<&MoveNumbers>) -> String {
    match outcome {
        RepairOutcome::NotNeeded(_) => "no edit needed".into(),
        RepairOutcome::NoneWithin(most) => {
            format!(
                "no repair of at most {} makes it possible",
                plural(*most, "edit")
            )
        }
        RepairOutcome::Undecided { at_least: 0 } => {
            "undecided: the time limit passed before the record as written was checked".into()
        }
        RepairOutcome::Undecided { at_least: 1 } => {
            "undecided: the time limit passed; the record is impossible as written, and whether one edit makes it possible is not known".into()
        }
        RepairOutcome::Undecided { at_least } => format!(
            "undecided: the time limit passed; no repair of fewer than {} exists",
            plural(*at_least, "edit")
        ),
        RepairOutcome::Repaired(repairs) => {
            let edits = &repairs[0].edits;
            let numbered = numbers.map(|n| (n, &repairs[0].record));
            let named: Vec<String> = edits.iter().map(|e| e.words(numbered)).collect();
            format!(
                "repaired with {} (no repair of {} exists; {}): {}",
                plural(edits.len(), "edit"),
                edits.len() - 1,
                repairs.others(),
                named.join("; ")
            )
        }
    }
}

/// The smallest `x` in `lo..=hi` for which the monotone `test` (false,
/// then true) holds, by bisection.
fn first_true<E>(
    lo: usize,
    hi: usize,
    mut test: impl FnMut(usize) -> Result<bool, E>,
) -> Result<Option<usize>, E> {
    if lo > hi || !test(hi)? {
        return Ok(None);
    }
    let (mut lo, mut hi) = (lo, hi);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if test(mid)? {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Ok(Some(lo))
}

/// The largest `x` in `lo..=hi` for which the monotone `test` (true, then
/// false) holds: just before the first `x` where it fails.
fn last_true<E>(
    lo: usize,
    hi: usize,
    mut test: impl FnMut(usize) -> Result<bool, E>,
) -> Result<Option<usize>, E> {
    if lo > hi {
        return Ok(None);
    }
    Ok(match first_true(lo, hi, |x| test(x).map(|holds| !holds))? {
        None => Some(hi),
        Some(fails) if fails == lo => None,
        Some(fails) => Some(fails - 1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_records;

    fn repair(
        record: &Record,
        variant: Variant,
        known: BoardFacts,
        options: RepairOptions,
    ) -> Result<RepairOutcome, SolveError> {
        repair_observed(record, variant, known, options, &mut |_| {})
    }

    #[test]
    fn the_move_filled_in_is_ordered_by_last_so_the_model_does_not_choose() {
        let edit = |kind, ply, read: &str| Edit {
            kind,
            ply,
            written: String::new(),
            read: read.into(),
            other_ply: 0,
        };
        let extra_at_16 = [
            edit(EditKind::Missing, 9, "44x27x1"),
            edit(EditKind::Extra, 16, ""),
        ];
        let missing_at_18 = [
            edit(EditKind::Missing, 9, "44x22x11"),
            edit(EditKind::Missing, 18, "32x43"),
        ];
        // Whichever move a model filled in at ply 9, the edit at 16 comes first.
        assert!(order_key(&extra_at_16) < order_key(&missing_at_18));
        let extra_at_16 = [
            edit(EditKind::Missing, 9, "44x22x11"),
            edit(EditKind::Extra, 16, ""),
        ];
        assert!(order_key(&extra_at_16) < order_key(&missing_at_18));
        // A square read is the edit itself: its squares order at once.
        let later = [
            edit(EditKind::Square, 5, "23-19"),
            edit(EditKind::Square, 7, "30-26"),
        ];
        let sooner = [
            edit(EditKind::Square, 5, "23-18"),
            edit(EditKind::Square, 6, "9-14"),
        ];
        assert!(order_key(&sooner) < order_key(&later));
        // Equal edits: the fillings decide, by their squares.
        let a = [edit(EditKind::Move, 4, "11-15")];
        let b = [edit(EditKind::Move, 4, "9-14")];
        assert!(order_key(&b) < order_key(&a));
    }

    #[test]
    fn bisection_finds_the_edge_of_a_monotone_test() {
        for edge in 1..=9 {
            let first = first_true::<()>(1, 9, |x| Ok(x >= edge)).unwrap();
            assert_eq!(first, Some(edge));
            let last = last_true::<()>(1, 9, |x| Ok(x <= edge)).unwrap();
            assert_eq!(last, Some(edge));
        }
        assert_eq!(first_true::<()>(1, 9, |_| Ok(false)).unwrap(), None);
        assert_eq!(last_true::<()>(1, 9, |_| Ok(false)).unwrap(), None);
    }

    #[test]
    fn one_misread_square_is_found_and_named() {
        // White cannot move from 22 twice: one edit mends it.
        let record = &parse_records("W 3\n22-18\n11-15\n22-17\n").unwrap()[0];
        let found = repair(
            record,
            Variant::English,
            BoardFacts::none(),
            RepairOptions::default(),
        )
        .unwrap();
        let RepairOutcome::Repaired(repairs) = found else {
            panic!("{found:?}");
        };
        assert_eq!(repairs[0].edits.len(), 1);
        let edit = &repairs[0].edits[0];
        assert!(!edit.to_string().is_empty());
        assert_eq!(judge_ok(&repairs[0]), Ok(()), "{}", repairs[0].record);
    }

    #[test]
    fn the_others_line_never_says_at_least_none() {
        let record = &parse_records("W 3\n22-18\n11-15\n22-17\n").unwrap()[0];
        let options = RepairOptions::default();
        let RepairOutcome::Repaired(repairs) =
            repair(record, Variant::English, BoardFacts::none(), options).unwrap()
        else {
            panic!("no repair");
        };
        let first = repairs[0].clone();
        let stopped = Repairs::ordered(vec![first.clone()], false);
        assert_eq!(stopped.others(), "other repairs of 1 edit not ruled out");
        // The same correction found twice is one repair.
        let twice = Repairs::ordered(vec![first.clone(), first], true);
        assert_eq!(twice.others(), "no other repair of 1 edit");
    }

    #[test]
    fn from_the_opening_the_search_replays_and_keeps_the_start() {
        // From the opening, 22-17 then 17-14 by White: Black's move is missing.
        let record = &parse_records("B 3\n11-15\n22-17\n17-14\n").unwrap()[0];
        let opening = Variant::English.topology().opening();
        let known = BoardFacts {
            start: Some(PartialBoard::whole(opening)),
            end: None,
        };
        let options = RepairOptions {
            all: true,
            ..RepairOptions::default()
        };
        let RepairOutcome::Repaired(repairs) =
            repair(record, Variant::English, known, options).unwrap()
        else {
            panic!("no repair");
        };
        assert!(repairs.iter().all(|r| r.edits.len() == 1));
        assert!(repairs.iter().all(|r| r.solution.answer.start == opening));
        assert!(repairs.iter().all(|r| judge_ok(r).is_ok()));
        let kinds: Vec<EditKind> = repairs.iter().map(|r| r.edits[0].kind).collect();
        assert!(kinds.contains(&EditKind::Missing), "{kinds:?}");
    }

    fn judge_ok(r: &Repair) -> Result<(), crate::replay::Rejection> {
        crate::replay::judge(Variant::English.rules(), &r.record, &r.solution.answer)
    }

    #[test]
    fn an_undecided_repair_says_what_was_proved_in_words() {
        // Issue 44, item 29: not "no repair of fewer than 1 edit exists".
        let one = repair_summary(&RepairOutcome::Undecided { at_least: 1 });
        assert!(one.contains("impossible as written"), "{one}");
        assert!(!one.contains("fewer than 1 edit"), "{one}");
        let two = repair_summary(&RepairOutcome::Undecided { at_least: 2 });
        assert!(
            two.ends_with("no repair of fewer than 2 edits exists"),
            "{two}"
        );
    }
}
