//! The conflict-window search (the first repair search, kept while the
//! hitting-set search is measured against it): each edit set touching the
//! window of the record the earlier edits make is solved as its own
//! damaged record.

use std::cell::{Cell, RefCell};

use crate::board::hash::{WordMap, WordSet};
use crate::board::Color;
use crate::encode::BoardFacts;
use crate::notation::{MovePattern, Record, WrittenMove};
use crate::solve::{Outcome, Reconstructor, Solution, SolveStats};

use super::edits::{spot, EditKind, EditSpot, Edits, Origin};
use super::{first_true, last_true, Budget, Found, RepairOptions, Stop};

/// The search over edit sets of one record.
pub(super) struct Window<'e, 'a> {
    edits: &'e Edits<'a>,
    known: BoardFacts,
    verdicts: RefCell<WordMap<(RecordKey, bool, bool), bool>>,
    budget: RefCell<Budget>,
    /// Conflicts found, by the record.
    conflicts: RefCell<WordMap<RecordKey, Conflict>>,
    /// Solver calls made, and how many had been when the first repair
    /// was found.
    solves: Cell<usize>,
    first_found_at: Cell<Option<usize>>,
    /// Whether the search for the other repairs stopped at its budget.
    cut: Cell<bool>,
    /// Whole edit sets solved, by whether they were impossible; those
    /// solved ahead of their turn keep their outcome until it comes.
    impossible_sets: RefCell<WordMap<Vec<EditSpot>, bool>>,
    ahead: RefCell<WordMap<Vec<EditSpot>, Outcome>>,
    /// Verdicts on parts solved for [`Window::shift_floor`] (not counted,
    /// and kept apart from `verdicts`, whose misses are).
    side_verdicts: RefCell<WordMap<(RecordKey, bool, bool), bool>>,
    /// [`Window::shift_floor`] by the record.
    floors: RefCell<WordMap<RecordKey, usize>>,
}

/// A record as the caches know it: who moves first and its moves as
/// written, the parts of its text, compared as they are. Formatting each
/// record as text to look it up took 7% of a long English repair.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct RecordKey {
    first: Color,
    moves: Vec<WrittenMove>,
}

impl RecordKey {
    fn of(record: &Record) -> RecordKey {
        RecordKey {
            first: record.first,
            moves: record.written_moves(),
        }
    }
}

impl<'e, 'a> Window<'e, 'a> {
    pub fn new(edits: &'e Edits<'a>, known: BoardFacts, budget: Budget) -> Window<'e, 'a> {
        Window {
            edits,
            known,
            verdicts: RefCell::default(),
            budget: RefCell::new(budget),
            conflicts: RefCell::default(),
            solves: Cell::new(0),
            first_found_at: Cell::new(None),
            cut: Cell::new(false),
            impossible_sets: RefCell::default(),
            ahead: RefCell::default(),
            side_verdicts: RefCell::default(),
            floors: RefCell::default(),
        }
    }

    /// Every edit set of `k` edits that makes the record possible.
    pub fn with_edits(&self, k: usize, options: RepairOptions) -> Result<Found, Stop> {
        let mut found = Vec::new();
        if k == 0 {
            if let Outcome::Solved(solution) = self.solve(&[])? {
                found.push((Vec::new(), solution));
            }
            return Ok(found);
        }
        let mut seen = WordSet::default();
        self.deepen(&mut Vec::new(), k, options, &mut seen, &mut found)?;
        Ok(found)
    }

    fn deepen(
        &self,
        chosen: &mut Vec<EditSpot>,
        left: usize,
        options: RepairOptions,
        seen: &mut WordSet<Vec<EditSpot>>,
        found: &mut Vec<(Vec<EditSpot>, Solution)>,
    ) -> Result<(), Stop> {
        let mut spots = self.window(chosen, left)?;
        if left >= 3 && chosen.is_empty() {
            let (record, _) = self.edits.edited(chosen);
            let here = self.conflict_of(&record);
            let n = record.plies();
            let (p0, q0) = here.map_or((n, 1), |c| (c.prefix.unwrap_or(n), c.suffix.unwrap_or(1)));
            let n = record.plies();
            let mut scored = Vec::with_capacity(spots.len());
            for spot in spots {
                let mut key = chosen.to_vec();
                key.push(spot);
                key.sort_unstable();
                if !Edits::compatible(&key) {
                    continue;
                }
                let (edited, _) = self.edits.edited(&key);
                let tighter = self.tighter(chosen, spot);
                let c = self.conflict_near(&edited, here.map(|c| (&record, c)), &tighter)?;
                let (p, q) = (c.prefix.unwrap_or(edited.plies()), c.suffix.unwrap_or(1));
                let m = edited.plies();
                let gain = (p as isize - p0 as isize) + ((m - q) as isize - (n - q0) as isize);
                scored.push((std::cmp::Reverse(gain), spot));
            }
            scored.sort();
            spots = scored.into_iter().map(|(_, s)| s).collect();
        }
        for spot in spots {
            if found.len() >= options.limit || self.past_count_budget(options) {
                return Ok(());
            }
            chosen.push(spot);
            let mut key = chosen.clone();
            key.sort_unstable();
            if Edits::compatible(&key) && seen.insert(key.clone()) {
                if left == 1 {
                    let parent = &chosen[..chosen.len() - 1];
                    if let Outcome::Solved(solution) = self.solve_set(&key, parent, spot)? {
                        if found.is_empty() {
                            self.first_found_at.set(Some(self.solves.get()));
                        }
                        found.push((key, solution));
                    }
                } else {
                    self.deepen(chosen, left - 1, options, seen, found)?;
                }
            }
            chosen.pop();
        }
        Ok(())
    }

    /// Whether the search for the repairs after the first (to order them
    /// and count them: every one is sought) has spent its budget: as many
    /// solver calls as the first took, and at least 64. A fixed count, not
    /// a time, so every run prints the same; `--all` has none. (Four times
    /// and 256 made `bench --repair` 6x slower than before the order was
    /// sought, 100 plies with 3 edits 10x at the worst; this, about 2x.)
    fn past_count_budget(&self, options: RepairOptions) -> bool {
        let Some(at) = self.first_found_at.get() else {
            return false;
        };
        let past = !options.all && self.solves.get() - at > at.max(64);
        if past {
            self.cut.set(true);
        }
        past
    }

    /// The conflict of `record`, when it has been found.
    fn conflict_of(&self, record: &Record) -> Option<Conflict> {
        self.conflicts.borrow().get(&RecordKey::of(record)).copied()
    }

    /// Whether the search for the other repairs stopped at its budget
    /// (so that more may exist than it found).
    pub fn cut(&self) -> bool {
        self.cut.get()
    }

    fn solve(&self, spots: &[EditSpot]) -> Result<Outcome, Stop> {
        let (record, _) = self.edits.edited(spots);
        self.solves.set(self.solves.get() + 1);
        self.run_whole(&record, self.known)
    }

    /// The outcome of the whole edit set `key` (sorted), `added` its last
    /// edit, counted as one solver call whether or not the solver is
    /// called: the count budget, and so the repairs found, are those of a
    /// search that solves every set (see [`Window::ruled_out`]).
    fn solve_set(
        &self,
        key: &[EditSpot],
        parent: &[EditSpot],
        added: EditSpot,
    ) -> Result<Outcome, Stop> {
        self.solves.set(self.solves.get() + 1);
        if let Some(outcome) = self.ahead.borrow_mut().remove(key) {
            return Ok(outcome);
        }
        if self.shift_too_early(parent, added)? || self.ruled_out(key, added)? {
            return Ok(Outcome::Impossible {
                reason: None,
                stats: SolveStats::default(),
            });
        }
        self.solve_uncounted(key)
    }

    /// Whether `key` is impossible because a looser set is: each of its
    /// square edits read as the whole move (a lone `?` allows every
    /// reading `23-?` does). Known verdicts only, except for `added`'s
    /// move edit: that set comes in this same window after the square
    /// edits (a move's edits sort by kind), so it is solved ahead, and
    /// when it is impossible none of its square edits need a solve.
    fn ruled_out(&self, key: &[EditSpot], added: EditSpot) -> Result<bool, Stop> {
        let looser = |square: &EditSpot| {
            let mut set: Vec<EditSpot> = key.iter().filter(|s| *s != square).copied().collect();
            set.push(spot(EditKind::Move, square.index));
            set.sort_unstable();
            set
        };
        let squares = key.iter().filter(|s| s.kind == EditKind::Square);
        for square in squares {
            let set = looser(square);
            if self.impossible_sets.borrow().get(&set) == Some(&true) {
                return Ok(true);
            }
        }
        if added.kind != EditKind::Square {
            return Ok(false);
        }
        let set = looser(&added);
        if self.impossible_sets.borrow().contains_key(&set) {
            return Ok(false);
        }
        let outcome = self.solve_uncounted(&set)?;
        let impossible = matches!(outcome, Outcome::Impossible { .. });
        self.ahead.borrow_mut().insert(set, outcome);
        Ok(impossible)
    }

    /// Whether `added`, a shift (a move inserted or deleted, or the other
    /// side first), cannot be the one edit that mends `parent`'s record:
    /// the plies after it, each played by the other side, must be possible
    /// on their own, and they are not when they start before the record's
    /// [`Window::shift_floor`].
    fn shift_too_early(&self, parent: &[EditSpot], added: EditSpot) -> Result<bool, Stop> {
        let (record, origins) = self.edits.edited(parent);
        // Plies of `record` before written move `i` (and the moves
        // inserted before it, when `inserted` says).
        let before = |i: usize, inserted: bool| {
            origins
                .iter()
                .filter(|o| match **o {
                    Origin::Written(w) => w < i,
                    Origin::Inserted(a) => a < i || (inserted && a == i),
                })
                .count()
        };
        let tail = match added.kind {
            EditKind::First => 1,
            EditKind::Missing => before(added.index, false) + 1,
            EditKind::Extra => before(added.index, true) + 2,
            _ => return Ok(false),
        };
        Ok(tail < self.shift_floor(&record)?)
    }

    /// The first ply from which `record`'s plies, each played by the other
    /// side, are possible (with the end board, when known); one past the
    /// last when none are. A suffix of a possible record is possible, so
    /// the plies from any later ply are too. Searched from the conflict's
    /// suffix, where the answer usually is.
    fn shift_floor(&self, record: &Record) -> Result<usize, Stop> {
        let key = RecordKey::of(record);
        if let Some(&floor) = self.floors.borrow().get(&key) {
            return Ok(floor);
        }
        let written = record.written_moves();
        let n = written.len();
        let end_only = self.known.end_only();
        let shifted_possible = |j: usize| {
            let tail = Record::from_written(
                record.mover(j).opposite(),
                written[j - 1..].to_vec(),
                record.line,
            );
            self.possible_uncounted(&tail, end_only)
        };
        let conflict = self.conflicts.borrow().get(&key).copied();
        let floor = match conflict.and_then(|c| c.suffix.map(|q| (q, c.shifted))) {
            Some((q, true)) => gallop_down(1, q - 1, |j| shifted_possible(j).map(|p| !p))?
                .map_or(1, |last_impossible| last_impossible + 1),
            Some((q, false)) => gallop_up(q + 1, n, shifted_possible)?.unwrap_or(n + 1),
            None => first_true(1, n, shifted_possible)?.unwrap_or(n + 1),
        };
        self.floors.borrow_mut().insert(key, floor);
        Ok(floor)
    }

    /// [`Window::possible`] without counting a solver call: verdicts kept
    /// apart, so that the counted search misses its cache where it did.
    fn possible_uncounted(&self, record: &Record, known: BoardFacts) -> Result<bool, Stop> {
        let key = (
            RecordKey::of(record),
            known.start.is_some(),
            known.end.is_some(),
        );
        let known_verdict = self.verdicts.borrow().get(&key).copied();
        let side = known_verdict.or_else(|| self.side_verdicts.borrow().get(&key).copied());
        if let Some(verdict) = side {
            return Ok(verdict);
        }
        let verdict = matches!(self.run_solver(record, known)?, Outcome::Solved(_));
        self.side_verdicts.borrow_mut().insert(key, verdict);
        Ok(verdict)
    }

    /// Solves the edit set `key`, remembering whether it was impossible.
    fn solve_uncounted(&self, key: &[EditSpot]) -> Result<Outcome, Stop> {
        let (record, _) = self.edits.edited(key);
        let outcome = self.run_whole(&record, self.known)?;
        let impossible = matches!(outcome, Outcome::Impossible { .. });
        self.impossible_sets
            .borrow_mut()
            .insert(key.to_vec(), impossible);
        Ok(outcome)
    }

    /// The verdict on `record` (a possible one's model is only read by the
    /// prefixes' play-on, whose answers are verdicts too).
    fn run_solver(&self, record: &Record, known: BoardFacts) -> Result<Outcome, Stop> {
        self.run(record, known, true)
    }

    /// The outcome of a whole edit set: a possible one is solved again as
    /// before the open steps' call, so that the board a repair prints is
    /// the one it was (possible sets are the repairs, a few).
    fn run_whole(&self, record: &Record, known: BoardFacts) -> Result<Outcome, Stop> {
        let outcome = self.run_solver(record, known)?;
        if matches!(outcome, Outcome::Solved(_)) {
            return self.run(record, known, false);
        }
        Ok(outcome)
    }

    /// One solver call: unit propagation first, and with `open_steps` the
    /// call with a lone `?`'s capture steps left open before each deepening
    /// (`Reconstructor::open_steps_first`; the same verdicts, cheaper
    /// refutations).
    fn run(&self, record: &Record, known: BoardFacts, open_steps: bool) -> Result<Outcome, Stop> {
        self.budget.borrow_mut().check()?;
        let solver = Reconstructor::new(self.edits.variant)
            .facts(known)
            .units_first();
        let solver = if open_steps {
            solver.open_steps_first()
        } else {
            solver
        };
        Ok(solver.solve(record)?)
    }

    fn possible(&self, record: &Record, known: BoardFacts) -> Result<bool, Stop> {
        self.possible_unless(record, known, false)
    }

    /// [`Window::possible`], known possible with no solve when `free`
    /// (still a solver call in the count, as for [`Window::prefix_possible`]).
    fn possible_unless(
        &self,
        record: &Record,
        known: BoardFacts,
        free: bool,
    ) -> Result<bool, Stop> {
        self.cached_verdict(record, known, || {
            Ok(free || matches!(self.run_solver(record, known)?, Outcome::Solved(_)))
        })
    }

    /// The verdict on `record` from the caches, else from `decide`; a
    /// solver call in the count either way, so the search's budget does not
    /// depend on which answered.
    fn cached_verdict(
        &self,
        record: &Record,
        known: BoardFacts,
        decide: impl FnOnce() -> Result<bool, Stop>,
    ) -> Result<bool, Stop> {
        let key = (
            RecordKey::of(record),
            known.start.is_some(),
            known.end.is_some(),
        );
        if let Some(&verdict) = self.verdicts.borrow().get(&key) {
            return Ok(verdict);
        }
        self.solves.set(self.solves.get() + 1);
        let side = self.side_verdicts.borrow().get(&key).copied();
        let verdict = match side {
            Some(verdict) => verdict,
            None => decide()?,
        };
        self.verdicts.borrow_mut().insert(key, verdict);
        Ok(verdict)
    }

    /// [`Window::possible`] for `record`'s first `len` plies, knowing
    /// that its first `reached` plies are possible: when the solver finds
    /// a start board for these, the native rules play on from their end as
    /// far as the record's moves let them, and `reached` grows. A prefix
    /// within it counts as a solver call, as it did, but calls none, so
    /// the search is the same, faster.
    fn prefix_possible(
        &self,
        record: &Record,
        len: usize,
        known: BoardFacts,
        reached: &Cell<usize>,
    ) -> Result<bool, Stop> {
        let written = record.written_moves();
        let prefix = Record::from_written(record.first, written[..len].to_vec(), record.line);
        self.cached_verdict(&prefix, known, || {
            if len <= reached.get() {
                return Ok(true);
            }
            let Outcome::Solved(solution) = self.run_solver(&prefix, known)? else {
                return Ok(false);
            };
            let rules = self.edits.variant.rules();
            let side = record.mover(len + 1);
            let mut nodes = PLAY_ON_NODES;
            let on = plays_on(
                rules,
                &solution.answer.end,
                side,
                &written[len..],
                &mut nodes,
            );
            reached.set(reached.get().max(len + on));
            Ok(true)
        })
    }

    /// The edits worth adding to `chosen` when `left` more are allowed:
    /// enough that every repair of `left` more edits contains one of them.
    /// A repair changes the shortest impossible prefix (an edit or an
    /// insertion in it, or the other side first), and the shortest
    /// impossible suffix (likewise, or a shift of who plays it when the
    /// other side could play it). The last edit does both; an earlier one
    /// is sought on the smaller side.
    fn window(&self, chosen: &[EditSpot], left: usize) -> Result<Vec<EditSpot>, Stop> {
        let (record, origins) = self.edits.edited(chosen);
        let parent = match chosen.split_last() {
            Some((_, rest)) => {
                let (before, _) = self.edits.edited(rest);
                let known = self.conflict_of(&before);
                known.map(|c| (before, c))
            }
            None => None,
        };
        let tighter = match chosen.split_last() {
            Some((&last, rest)) => self.tighter(rest, last),
            None => Vec::new(),
        };
        let parent = parent.as_ref().map(|(r, c)| (r, *c));
        let conflict = self.conflict_near(&record, parent, &tighter)?;
        let n = origins.len();
        let end = spot(EditKind::Missing, self.edits.len());
        let touching = |plies| touching(self.edits, &origins, plies);
        let prefix_side = conflict.prefix.map(|p| {
            let mut spots = touching(1..=p);
            spots.push(spot(EditKind::First, 0));
            spots
        });
        let suffix_side = conflict.suffix.map(|q| {
            let mut spots = touching(q..=n);
            spots.push(end);
            if conflict.shifted {
                spots.extend(shifts(&origins, q));
            }
            spots
        });
        let mut spots = match (prefix_side, suffix_side) {
            (Some(mut a), Some(mut b)) if left == 1 => {
                a.sort_unstable();
                b.sort_unstable();
                a.retain(|s| b.binary_search(s).is_ok());
                a
            }
            (Some(a), Some(b)) => {
                if a.len() <= b.len() {
                    a
                } else {
                    b
                }
            }
            (Some(side), None) | (None, Some(side)) => side,
            (None, None) => {
                let mut all = touching(1..=n);
                all.push(end);
                all.push(spot(EditKind::First, 0));
                all
            }
        };
        spots.sort_unstable();
        spots.dedup();
        Ok(spots)
    }

    /// The records, with their conflicts where known, of the sets `rest`
    /// with a square edit of the move that `last` reads as a lone `?`:
    /// tighter than `rest` with `last`, which loosens each of them. (Edits
    /// sort by kind, so their conflicts come first when sought.)
    fn tighter(&self, rest: &[EditSpot], last: EditSpot) -> Vec<(Record, Conflict)> {
        if last.kind != EditKind::Move {
            return Vec::new();
        }
        let squares = self.edits.edits_of(last.index).into_iter();
        squares
            .filter(|s| s.kind == EditKind::Square)
            .filter_map(|square| {
                let mut key = rest.to_vec();
                key.push(square);
                let (record, _) = self.edits.edited(&key);
                let known = self.conflict_of(&record);
                known.map(|c| (record, c))
            })
            .collect()
    }

    /// [`Window::conflict`], knowing the conflict of a `parent` record that
    /// shares a start and an end with `record`: the parts they share need
    /// no solve, and the search starts where they part. The parts of
    /// `record` that loosen possible parts of the parent, or of the
    /// `tighter` records, are possible with no solve.
    fn conflict_near(
        &self,
        record: &Record,
        parent: Option<(&Record, Conflict)>,
        tighter: &[(Record, Conflict)],
    ) -> Result<Conflict, Stop> {
        let key = RecordKey::of(record);
        if let Some(&c) = self.conflicts.borrow().get(&key) {
            return Ok(c);
        }
        let written = record.written_moves();
        let n = written.len();
        let part = |from: usize, to: usize, first| {
            Record::from_written(first, written[from..to].to_vec(), record.line)
        };
        let (start_only, end_only) = (self.known.start_only(), self.known.end_only());
        let (free_prefix, free_suffix) = possible_without_solve(record, parent, tighter);
        let reached = Cell::new(free_prefix);
        let prefix_fails =
            |len: usize| Ok::<_, Stop>(!self.prefix_possible(record, len, start_only, &reached)?);
        let suffix_fails = |from: usize| {
            let tail = part(from - 1, n, record.mover(from));
            let free = n + 1 - from <= free_suffix;
            Ok::<_, Stop>(!self.possible_unless(&tail, end_only, free)?)
        };
        let (same_start, same_end) = parent.map_or((0, 0), |(p, _)| shared_plies(p, record));
        let known_parent = parent.map(|(p, c)| (p.plies(), c));
        let prefix = match known_parent {
            Some((
                _,
                Conflict {
                    prefix: Some(p0), ..
                },
            )) if p0 <= same_start => Some(p0),
            Some(_) => gallop_up(same_start + 1, n, prefix_fails)?,
            None => first_true(1, n, prefix_fails)?,
        };
        let suffix = match known_parent {
            Some((
                np,
                Conflict {
                    suffix: Some(q0), ..
                },
            )) if np + 1 - q0 <= same_end => Some(n + 1 - (np + 1 - q0)),
            Some(_) if same_end < n => gallop_down(1, n - same_end, suffix_fails)?,
            Some(_) => None,
            None => last_true(1, n, suffix_fails)?,
        };
        let shifted = match suffix {
            Some(q) => self.possible(&part(q - 1, n, record.mover(q).opposite()), end_only)?,
            None => false,
        };
        let found = Conflict {
            prefix,
            suffix,
            shifted,
        };
        self.conflicts.borrow_mut().insert(key, found);
        Ok(found)
    }
}

/// How many plies at the start and at the end of `record` are possible
/// with no solve: those that loosen possible parts of the `parent` or of
/// the `tighter` records (see [`loosened`]).
fn possible_without_solve(
    record: &Record,
    parent: Option<(&Record, Conflict)>,
    tighter: &[(Record, Conflict)],
) -> (usize, usize) {
    parent
        .into_iter()
        .chain(tighter.iter().map(|(r, c)| (r, *c)))
        .map(|(p, c)| loosened(p, c, record))
        .fold((0, 0), |(a, b), (x, y)| (a.max(x), b.max(y)))
}

/// Where a record's conflict lies: the end of its shortest impossible
/// prefix and the start of its shortest impossible suffix, when they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Conflict {
    prefix: Option<usize>,
    suffix: Option<usize>,
    shifted: bool,
}

/// The most positions [`plays_on`] visits: damaged plies branch, and a
/// bound keeps a record of many `?` from costing more than a solve.
const PLAY_ON_NODES: usize = 256;

/// How many of the moves `rest` the native rules play in turn from `board`
/// with `side` to move, each a legal move that fits what is written (the
/// most over the choices at damaged plies, within `nodes` positions).
fn plays_on(
    rules: &dyn crate::rules::Rules,
    board: &crate::board::Board,
    side: crate::board::Color,
    rest: &[WrittenMove],
    nodes: &mut usize,
) -> usize {
    let Some(written) = rest.first() else {
        return 0;
    };
    if *nodes == 0 {
        return 0;
    }
    *nodes -= 1;
    let mut most = 0;
    for mv in rules.legal_moves(board, side) {
        if !written.matches(&mv) {
            continue;
        }
        if let Ok(next) = rules.play(board, side, &mv) {
            most = most.max(1 + plays_on(rules, &next, side.opposite(), &rest[1..], nodes));
            if most == rest.len() || *nodes == 0 {
                break;
            }
        }
    }
    most
}

/// How many of `record`'s first plies, and of its last, are possible
/// because `parent`'s are (its `conflict` says which) and `record`
/// loosens them: each ply played by the same side and written the same,
/// or so that every move fitting the parent's fits it too (a square or the
/// whole move read as `?`), so that every play of the parent's plies is one
/// of `record`'s.
fn loosened(parent: &Record, conflict: Conflict, record: &Record) -> (usize, usize) {
    let (wp, wr) = (parent.written_moves(), record.written_moves());
    let (np, nr) = (wp.len(), wr.len());
    let start = (0..np.min(nr))
        .take_while(|&i| loosens(&wr[i], &wp[i]) && record.mover(i + 1) == parent.mover(i + 1))
        .count();
    let end = (0..np.min(nr))
        .take_while(|&k| {
            loosens(&wr[nr - 1 - k], &wp[np - 1 - k])
                && record.mover(nr - k) == parent.mover(np - k)
        })
        .count();
    // The parent's prefixes shorter than its shortest impossible one are
    // possible, and so are its suffixes shorter than its shortest
    // impossible one (every one, when there is none).
    let possible_prefix = conflict.prefix.map_or(np, |p| p - 1);
    let possible_suffix = conflict.suffix.map_or(np, |q| np - q);
    (start.min(possible_prefix), end.min(possible_suffix))
}

/// Whether every move that fits `tight` fits `loose`.
fn loosens(loose: &WrittenMove, tight: &WrittenMove) -> bool {
    match (loose, tight) {
        _ if loose == tight => true,
        (WrittenMove::Pattern(MovePattern::Unknown), _) => true,
        (_, WrittenMove::Known(mv)) => loose.matches(mv),
        _ => false,
    }
}

/// How many plies two records share at their start, and at their end
/// (the same moves as written, played by the same sides).
fn shared_plies(a: &Record, b: &Record) -> (usize, usize) {
    let (wa, wb) = (a.written_moves(), b.written_moves());
    let start = (0..wa.len().min(wb.len()))
        .take_while(|&i| wa[i] == wb[i] && a.mover(i + 1) == b.mover(i + 1))
        .count();
    let (na, nb) = (wa.len(), wb.len());
    let end = (0..na.min(nb))
        .take_while(|&k| wa[na - 1 - k] == wb[nb - 1 - k] && a.mover(na - k) == b.mover(nb - k))
        .count();
    (start, end)
}

/// The smallest `x` in `lo..=hi` for which the monotone `test` (false,
/// then true) holds, trying `lo`, `lo + 1`, `lo + 3`, ... before bisecting:
/// cheap when the answer is near `lo`.
fn gallop_up<E>(
    lo: usize,
    hi: usize,
    mut test: impl FnMut(usize) -> Result<bool, E>,
) -> Result<Option<usize>, E> {
    let (mut below, mut x, mut step) = (lo, lo, 1);
    while x <= hi {
        if test(x)? {
            return first_true(below, x, test);
        }
        below = x + 1;
        if x == hi {
            break;
        }
        x = (x + step).min(hi);
        step *= 2;
    }
    Ok(None)
}

/// The largest `x` in `lo..=hi` for which the monotone `test` (true, then
/// false) holds, trying `hi`, `hi - 1`, `hi - 3`, ... before bisecting.
fn gallop_down<E>(
    lo: usize,
    hi: usize,
    mut test: impl FnMut(usize) -> Result<bool, E>,
) -> Result<Option<usize>, E> {
    if lo > hi {
        return Ok(None);
    }
    let (mut above, mut x, mut step) = (hi, hi, 1);
    loop {
        if test(x)? {
            return last_true(x, above, test);
        }
        if x == lo {
            return Ok(None);
        }
        above = x - 1;
        x = x.saturating_sub(step).max(lo);
        step *= 2;
    }
}

/// The edits of plies `plies` of a record whose plies come from `origins`
/// (each edit of its written move, a swap moving it), and the insertions
/// before them.
fn touching(
    edits: &Edits<'_>,
    origins: &[Origin],
    plies: std::ops::RangeInclusive<usize>,
) -> Vec<EditSpot> {
    let mut spots = Vec::new();
    for origin in plies.map(|ply| origins[ply - 1]) {
        match origin {
            Origin::Written(i) => {
                spots.extend(edits.edits_of(i));
                spots.extend(edits.swaps_of(i));
                spots.push(spot(EditKind::Missing, i));
            }
            Origin::Inserted(a) => spots.push(spot(EditKind::Missing, a)),
        }
    }
    spots
}

/// The edits that change who plays ply `q` and after, and nothing from
/// it on: the other side first, a move missing or extra before it.
fn shifts(origins: &[Origin], q: usize) -> Vec<EditSpot> {
    let mut spots = vec![spot(EditKind::First, 0)];
    for ply in 1..=q {
        match origins[ply - 1] {
            Origin::Written(i) => {
                spots.push(spot(EditKind::Missing, i));
                if ply < q {
                    spots.push(spot(EditKind::Extra, i));
                }
            }
            Origin::Inserted(a) => spots.push(spot(EditKind::Missing, a)),
        }
    }
    spots
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{miswrite, random_fragment, Mistake, Rng};
    use crate::rules::Variant;

    /// The first ply from which `record`'s plies, played by the other
    /// sides, solve: every ply tried in turn.
    fn floor_by_scan(record: &Record, variant: Variant) -> usize {
        let written = record.written_moves();
        (1..=written.len())
            .find(|&j| {
                let tail = Record::from_written(
                    record.mover(j).opposite(),
                    written[j - 1..].to_vec(),
                    record.line,
                );
                let outcome = Reconstructor::new(variant).solve(&tail).unwrap();
                matches!(outcome, Outcome::Solved(_))
            })
            .unwrap_or(written.len() + 1)
    }

    /// The verdict of `record` by the search's solver (unit propagation
    /// first, the open steps' call) and by the solver alone.
    fn verdicts(record: &Record, variant: Variant) -> (bool, bool) {
        let solved = |solver: Reconstructor| {
            let outcome = solver.solve(record).unwrap();
            matches!(outcome, Outcome::Solved(_))
        };
        let alone = Reconstructor::new(variant);
        let shortcuts = alone.clone().units_first().open_steps_first();
        (solved(shortcuts), solved(alone))
    }

    #[test]
    fn unit_propagation_first_keeps_every_verdict_of_the_search() {
        let (mut impossible, mut possible) = (0, 0);
        for seed in 0..6 {
            let variant = [Variant::English, Variant::Russian][seed % 2];
            let mut rng = Rng::new(seed as u64);
            let Some((_, fragment)) = random_fragment(variant.rules(), &mut rng, 5, 10) else {
                continue;
            };
            let Some(record) = miswrite(&fragment, Mistake::Misread, &mut rng) else {
                continue;
            };
            let edits = Edits::new(&record, variant);
            let every = edits.every_edit();
            let sets = every
                .iter()
                .flat_map(|a| every.iter().map(move |b| [*a, *b]));
            for set in sets.step_by(29) {
                if !Edits::compatible(&set) {
                    continue;
                }
                let (edited, _) = edits.edited(&set);
                let (first, alone) = verdicts(&edited, variant);
                assert_eq!(first, alone, "{edited}");
                if alone {
                    possible += 1;
                } else {
                    impossible += 1;
                }
            }
        }
        assert!(
            impossible >= 100 && possible >= 50,
            "{impossible} impossible, {possible} possible"
        );
    }

    #[test]
    fn a_conflict_found_from_the_parents_is_the_one_found_afresh() {
        let (mut checked, mut loosened_plies, mut siblings) = (0, 0, 0);
        for seed in 0..6 {
            let variant = [Variant::English, Variant::Russian][seed % 2];
            let mut rng = Rng::new(seed as u64 + 40);
            let Some((_, fragment)) = random_fragment(variant.rules(), &mut rng, 5, 14) else {
                continue;
            };
            let Some(record) = miswrite(&fragment, Mistake::Misread, &mut rng) else {
                continue;
            };
            let edits = Edits::new(&record, variant);
            let search = Window::new(&edits, BoardFacts::none(), Budget::new(None));
            let parent = search.conflict_near(&record, None, &[]).unwrap();
            let mut every = edits.every_edit();
            every.sort_unstable();
            for spot in every.into_iter().step_by(2) {
                let (edited, _) = edits.edited(&[spot]);
                let (free_prefix, free_suffix) = loosened(&record, parent, &edited);
                loosened_plies += free_prefix + free_suffix;
                let tighter = search.tighter(&[], spot);
                siblings += tighter.len();
                let near = search.conflict_near(&edited, Some((&record, parent)), &tighter);
                let afresh = Window::new(&edits, BoardFacts::none(), Budget::new(None))
                    .conflict_near(&edited, None, &[]);
                assert_eq!(near.unwrap(), afresh.unwrap(), "{record}\n{edited}");
                checked += 1;
            }
        }
        assert!(checked >= 40, "only {checked} edited records");
        assert!(siblings >= 10, "only {siblings} tighter siblings");
        assert!(
            loosened_plies >= 100,
            "only {loosened_plies} plies loosened"
        );
    }

    #[test]
    fn the_shift_floor_is_where_the_shifted_plies_start_to_be_possible() {
        let mut checked = 0;
        for seed in 0..12 {
            let variant = [Variant::English, Variant::Russian][seed % 2];
            let mut rng = Rng::new(seed as u64);
            let Some((_, fragment)) = random_fragment(variant.rules(), &mut rng, 5, 16) else {
                continue;
            };
            let mistake = [Mistake::Missing, Mistake::Extra, Mistake::First][seed % 3];
            let Some(record) = miswrite(&fragment, mistake, &mut rng) else {
                continue;
            };
            let edits = Edits::new(&record, variant);
            let search = Window::new(&edits, BoardFacts::none(), Budget::new(None));
            // With the conflict known (the search's case) and without.
            let unguided = search.shift_floor(&record).unwrap();
            search.floors.borrow_mut().clear();
            search.conflict_near(&record, None, &[]).unwrap();
            let guided = search.shift_floor(&record).unwrap();
            let want = floor_by_scan(&record, variant);
            assert_eq!((unguided, guided), (want, want), "{record}");
            checked += 1;
        }
        assert!(checked >= 6, "only {checked} records");
    }
}
