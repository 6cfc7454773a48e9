//! Miswritten records (`shared/spec/repair.md`, `encodings/repair.md`): the
//! fewest edits to what is written that make a record possible.
//!
//! An edit turns part of the record into a damaged move (a square into
//! `?`, a move into a lone `?`, an inserted lone `?`), deletes a move, or
//! gives the first move to the other side; the damaged record is then
//! solved exactly as `solve` solves any (`encodings/damaged.md`), so every
//! repair is replayed before it is returned.
//!
//! The search deepens on the number of edits. Which edits are worth trying
//! is narrowed by the **conflict window** of the record: the shortest
//! impossible prefix ends at ply `p`, and the shortest impossible suffix
//! starts at ply `q`. A repair must change something at or before `p` (the
//! prefix is untouched otherwise) and something at or after `q`, or shift
//! who plays the suffix (a missing or extra move before it, or the other
//! side first). So a repair always contains one of the window's edits; the
//! search branches on those, and recurses on the edited record with one
//! edit fewer. When every branch at `k` edits fails, no repair of `k`
//! edits exists: that is the proof of the minimum.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use crate::encode::BoardFacts;
use crate::notation::{MovePattern, Record, WrittenMove};
use crate::rules::Variant;
use crate::solve::{Outcome, Reconstructor, Solution, SolveError};

/// What an edit does (each costs 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EditKind {
    /// One square of one move read as another.
    Square,
    /// One move read as a different move entirely.
    Move,
    /// A move that was not written, inserted.
    Missing,
    /// A written move that was not played, deleted.
    Extra,
    /// The other side moved first.
    First,
}

impl EditKind {
    /// The kind's name in output (`square`, `move`, ...).
    pub fn name(self) -> &'static str {
        match self {
            EditKind::Square => "square",
            EditKind::Move => "move",
            EditKind::Missing => "missing",
            EditKind::Extra => "extra",
            EditKind::First => "first",
        }
    }
}

/// One edit of the written record, by the written record's plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EditSpot {
    /// What it does.
    pub kind: EditKind,
    /// The written move it applies to (0-based); for a missing move, the
    /// written move it is inserted before (the number of moves: at the end).
    pub index: usize,
    /// For a square edit, which square of the move (0-based).
    pub square: usize,
}

/// One edit of a repair, as the output names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// What it does.
    pub kind: EditKind,
    /// The 1-based ply of the repaired record it concerns; for an extra
    /// move, its ply as written; 0 for `first`.
    pub ply: usize,
    /// What was written there (empty for a missing move or `first`).
    pub written: String,
    /// What it is read as (empty for an extra move).
    pub read: String,
}

impl std::fmt::Display for Edit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            EditKind::First => write!(f, "the other side moved first, {} (first)", self.read),
            EditKind::Missing => write!(
                f,
                "ply {}: a missing move, played {} (missing)",
                self.ply, self.read
            ),
            EditKind::Extra => write!(
                f,
                "written ply {}: {} was not played (extra)",
                self.ply, self.written
            ),
            kind => write!(
                f,
                "ply {}: {} read as {} ({})",
                self.ply,
                self.written,
                self.read,
                kind.name()
            ),
        }
    }
}

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

/// What `--repair` found.
#[derive(Clone, Debug)]
pub enum RepairOutcome {
    /// The record is possible as written.
    NotNeeded(Box<Solution>),
    /// The fewest edits that make it possible: every repair of that many
    /// edits found (one unless all were asked for). No repair of fewer
    /// edits exists.
    Repaired(Vec<Repair>),
    /// No repair of at most this many edits exists.
    NoneWithin(usize),
}

/// How to search.
#[derive(Clone, Copy, Debug)]
pub struct RepairOptions {
    /// The most edits tried.
    pub max_edits: usize,
    /// Every minimum repair, not just one (up to `limit`).
    pub all: bool,
    /// The most repairs listed with `all`.
    pub limit: usize,
}

impl Default for RepairOptions {
    fn default() -> RepairOptions {
        RepairOptions {
            max_edits: 3,
            all: false,
            limit: 100,
        }
    }
}

/// The fewest edits that make `record` possible under `variant` with the
/// facts `known`, as `options` say.
///
/// # Errors
/// [`SolveError`] from the solver (a bug, or varisat failing).
pub fn repair(
    record: &Record,
    variant: Variant,
    known: BoardFacts,
    options: RepairOptions,
) -> Result<RepairOutcome, SolveError> {
    let search = Search::new(record, variant, known);
    if let Outcome::Solved(solution) = search.solve(&[])? {
        return Ok(RepairOutcome::NotNeeded(Box::new(solution)));
    }
    for edits in 1..=options.max_edits {
        let mut found = Vec::new();
        let mut seen = HashSet::new();
        search.deepen(&mut Vec::new(), edits, options, &mut seen, &mut found)?;
        if !found.is_empty() {
            return Ok(RepairOutcome::Repaired(found));
        }
    }
    Ok(RepairOutcome::NoneWithin(options.max_edits))
}

/// `record` with the edits `spots` applied (square and move edits become
/// `?`, a missing move a lone `?`): the damaged record whose answers are
/// the repairs by those edits.
pub fn edited_record(record: &Record, spots: &[EditSpot]) -> Record {
    let search = Search::new(record, Variant::default(), BoardFacts::none());
    search.edited(spots).0
}

/// Every edit of `record` on its own: each written square, each move,
/// each move deleted, a move inserted before each move and at the end,
/// and the other side first. (Exhaustive searches start here.)
pub fn every_edit(record: &Record) -> Vec<EditSpot> {
    let search = Search::new(record, Variant::default(), BoardFacts::none());
    let n = search.written.len();
    let mut spots: Vec<EditSpot> = (0..n).flat_map(|i| search.edits_of(i)).collect();
    spots.extend((0..=n).map(|i| spot(EditKind::Missing, i)));
    spots.push(spot(EditKind::First, 0));
    spots
}

/// The fewest edits that make `game`, read under `variant`, replay from
/// its start (its `[FEN]`, else the opening; every square known), at most
/// `max_edits`. `None` when it cannot be read under `variant`.
///
/// # Errors
/// [`SolveError`] from the solver.
pub fn repair_game(
    game: &crate::notation::RawGame<'_>,
    variant: Variant,
    max_edits: usize,
) -> Result<Option<RepairOutcome>, SolveError> {
    let Ok(read) = game.read(crate::archive::reading(variant)) else {
        return Ok(None);
    };
    let start = crate::board::PartialBoard {
        board: crate::archive::start_of(&read, variant),
        known: variant.topology().all_bits(),
    };
    let known = BoardFacts {
        start: Some(start),
        end: None,
    };
    let options = RepairOptions {
        max_edits,
        ..RepairOptions::default()
    };
    repair(&read.record, variant, known, options).map(Some)
}

/// One line for a repair outcome: `repaired with 1 edit (none with 0): ply
/// 5: 23-18 read as 23-19 (square)`.
pub fn repair_summary(outcome: &RepairOutcome) -> String {
    match outcome {
        RepairOutcome::NotNeeded(_) => "no edit needed".into(),
        RepairOutcome::NoneWithin(most) => {
            format!("no repair of at most {most} edit(s) makes it possible")
        }
        RepairOutcome::Repaired(repairs) => {
            let edits = &repairs[0].edits;
            let named: Vec<String> = edits.iter().map(ToString::to_string).collect();
            format!(
                "repaired with {} edit(s) (no repair of {} exists): {}",
                edits.len(),
                edits.len() - 1,
                named.join("; ")
            )
        }
    }
}

/// The search over edit sets of one record.
struct Search<'a> {
    original: &'a Record,
    written: Vec<WrittenMove>,
    variant: Variant,
    known: BoardFacts,
    /// Whether a part of an edited record is possible, by its text and
    /// which facts apply (the search's start or end facts): the branches of
    /// the search share every part before (or after) their edits.
    verdicts: RefCell<HashMap<(String, bool, bool), bool>>,
}

impl<'a> Search<'a> {
    fn new(original: &'a Record, variant: Variant, known: BoardFacts) -> Search<'a> {
        Search {
            original,
            written: original.written_moves(),
            variant,
            known,
            verdicts: RefCell::default(),
        }
    }

    /// Tries every set of `left` more edits added to `chosen` that touches
    /// the conflict window of the record `chosen` makes; repairs found go
    /// to `found`.
    fn deepen(
        &self,
        chosen: &mut Vec<EditSpot>,
        left: usize,
        options: RepairOptions,
        seen: &mut HashSet<Vec<EditSpot>>,
        found: &mut Vec<Repair>,
    ) -> Result<(), SolveError> {
        for spot in self.window(chosen, left)? {
            if found.len() >= if options.all { options.limit } else { 1 } {
                return Ok(());
            }
            chosen.push(spot);
            let mut key = chosen.clone();
            key.sort_unstable();
            if self.compatible(&key) && seen.insert(key.clone()) {
                if left == 1 {
                    if let Outcome::Solved(solution) = self.solve(&key)? {
                        found.push(self.named(&key, solution));
                    }
                } else {
                    self.deepen(chosen, left - 1, options, seen, found)?;
                }
            }
            chosen.pop();
        }
        Ok(())
    }

    /// Whether an edit set is worth trying: at most one edit of a written
    /// move (a second would be a `move` edit's job), and no square edit of
    /// a square that is not written.
    fn compatible(&self, spots: &[EditSpot]) -> bool {
        let mut touched = HashSet::new();
        spots.iter().all(|s| match s.kind {
            EditKind::Square | EditKind::Move | EditKind::Extra => touched.insert(s.index),
            EditKind::Missing => true,
            EditKind::First => spots.iter().filter(|t| t.kind == EditKind::First).count() == 1,
        })
    }

    /// The record as `spots` edit it, and for each of its plies the written
    /// move it came from (`None` for an inserted one).
    fn edited(&self, spots: &[EditSpot]) -> (Record, Vec<Option<usize>>) {
        let mut first = self.original.first;
        let mut moves = Vec::new();
        let mut origins = Vec::new();
        let missing_before = |i: usize| {
            spots
                .iter()
                .filter(|s| s.kind == EditKind::Missing && s.index == i)
                .count()
        };
        for i in 0..=self.written.len() {
            for _ in 0..missing_before(i) {
                moves.push(WrittenMove::Pattern(MovePattern::Unknown));
                origins.push(None);
            }
            let Some(written) = self.written.get(i) else {
                break;
            };
            let here = spots
                .iter()
                .find(|s| s.index == i && s.kind != EditKind::Missing);
            let edited = match here.map(|s| s.kind) {
                Some(EditKind::Extra) => continue,
                Some(EditKind::Move) => WrittenMove::Pattern(MovePattern::Unknown),
                Some(EditKind::Square) => blank_square(written, here.map_or(0, |s| s.square)),
                _ => written.clone(),
            };
            moves.push(edited);
            origins.push(Some(i));
        }
        if spots.iter().any(|s| s.kind == EditKind::First) {
            first = first.opposite();
        }
        (
            Record::from_written(first, moves, self.original.line),
            origins,
        )
    }

    /// Solves the record `spots` make.
    fn solve(&self, spots: &[EditSpot]) -> Result<Outcome, SolveError> {
        let (record, _) = self.edited(spots);
        self.solve_record(&record, self.known)
    }

    fn solve_record(&self, record: &Record, known: BoardFacts) -> Result<Outcome, SolveError> {
        if record.plies() == 0 {
            // No move: any board that fits the facts is an answer; one
            // without moves cannot conflict, so call it possible.
            return Reconstructor::new(self.variant)
                .facts(known)
                .solve(&Record::new(record.first, Vec::new()));
        }
        Reconstructor::new(self.variant).facts(known).solve(record)
    }

    fn possible(&self, record: &Record, known: BoardFacts) -> Result<bool, SolveError> {
        let key = (
            record.to_string(),
            known.start.is_some(),
            known.end.is_some(),
        );
        if let Some(&verdict) = self.verdicts.borrow().get(&key) {
            return Ok(verdict);
        }
        let verdict = matches!(self.solve_record(record, known)?, Outcome::Solved(_));
        self.verdicts.borrow_mut().insert(key, verdict);
        Ok(verdict)
    }

    /// The edits worth adding to `chosen` when `left` more are allowed:
    /// enough that every repair of `left` more edits contains one of them
    /// (see the module's documentation).
    fn window(&self, chosen: &[EditSpot], left: usize) -> Result<Vec<EditSpot>, SolveError> {
        let (record, origins) = self.edited(chosen);
        let bounds = self.conflict(&record)?;
        let origin_of = |ply: usize| origins.get(ply - 1).copied().flatten();
        let n = origins.len();
        // Edits of the written moves at plies `plies`, with a missing move
        // before each.
        let on_plies = |plies: std::ops::RangeInclusive<usize>, spots: &mut Vec<EditSpot>| {
            for index in plies.filter_map(origin_of) {
                spots.extend(self.edits_of(index));
                spots.push(spot(EditKind::Missing, index));
            }
        };
        let shifts = |plies: std::ops::Range<usize>, spots: &mut Vec<EditSpot>| {
            spots.push(spot(EditKind::First, 0));
            for index in plies.filter_map(origin_of) {
                spots.push(spot(EditKind::Missing, index));
                spots.push(spot(EditKind::Extra, index));
            }
        };
        let after = |ply: usize| {
            (ply + 1..=n)
                .find_map(origin_of)
                .unwrap_or(self.written.len())
        };
        let Conflict {
            prefix: p,
            suffix: q,
            shifted,
        } = bounds;
        let mut spots = Vec::new();
        if left == 1 {
            // One edit mends both the prefix and the suffix.
            on_plies(q..=p.max(q), &mut spots);
            spots.push(spot(EditKind::Missing, after(p.max(q))));
            if shifted || q == 1 {
                shifts(1..q, &mut spots);
            }
        } else if p <= n + 1 - q {
            // Some edit touches the prefix.
            on_plies(1..=p, &mut spots);
            spots.push(spot(EditKind::First, 0));
        } else {
            // Some edit touches the suffix, or shifts who plays it.
            on_plies(q..=n, &mut spots);
            spots.push(spot(EditKind::Missing, self.written.len()));
            shifts(1..q, &mut spots);
        }
        spots.sort_unstable();
        spots.dedup();
        Ok(spots)
    }

    /// Where `record`'s conflict lies.
    fn conflict(&self, record: &Record) -> Result<Conflict, SolveError> {
        let written = record.written_moves();
        let n = written.len();
        let part = |from: usize, to: usize, first| {
            Record::from_written(first, written[from..to].to_vec(), record.line)
        };
        let start_only = BoardFacts {
            start: self.known.start,
            end: None,
        };
        let prefix = first_true(1, n, |len| {
            Ok(!self.possible(&part(0, len, record.first), start_only)?)
        })?
        .unwrap_or(n);
        let end_only = BoardFacts {
            start: None,
            end: self.known.end,
        };
        let suffix = last_true(1, n, |from| {
            Ok(!self.possible(&part(from - 1, n, record.mover(from)), end_only)?)
        })?
        .unwrap_or(1);
        let shifted = suffix > 1
            && self.possible(
                &part(suffix - 1, n, record.mover(suffix).opposite()),
                end_only,
            )?;
        Ok(Conflict {
            prefix,
            suffix,
            shifted,
        })
    }

    /// The edits of written move `index` itself: each written square, the
    /// whole move, and deleting it.
    fn edits_of(&self, index: usize) -> Vec<EditSpot> {
        let squares = match &self.written[index] {
            WrittenMove::Known(mv) => mv.path().len(),
            WrittenMove::Pattern(MovePattern::Path { squares, .. }) => squares.len(),
            WrittenMove::Pattern(MovePattern::Miswritten(m)) => m.squares.len(),
            WrittenMove::Pattern(_) => 0,
        };
        let mut spots: Vec<EditSpot> = (0..squares)
            .filter(|&square| square_written(&self.written[index], square))
            .map(|square| EditSpot {
                kind: EditKind::Square,
                index,
                square,
            })
            .collect();
        if !matches!(
            self.written[index],
            WrittenMove::Pattern(MovePattern::Unknown)
        ) {
            spots.push(EditSpot {
                kind: EditKind::Move,
                index,
                square: 0,
            });
        }
        spots.push(EditSpot {
            kind: EditKind::Extra,
            index,
            square: 0,
        });
        spots
    }

    /// The repair `spots` make, its edits named by the moves played.
    fn named(&self, spots: &[EditSpot], solution: Solution) -> Repair {
        let (record, origins) = self.edited(spots);
        let filled = solution.filled.clone().unwrap_or_else(|| record.clone());
        let read_at = |ply: usize| {
            filled
                .moves
                .get(ply.wrapping_sub(1))
                .map(|mv| self.variant.write_move(mv))
                .unwrap_or_default()
        };
        let written_text = |i: usize| {
            if self.variant.algebraic() {
                self.written[i].algebraic()
            } else {
                self.written[i].numbered()
            }
        };
        let mut edits: Vec<Edit> = spots
            .iter()
            .enumerate()
            .map(|(k, spot)| match spot.kind {
                EditKind::First => Edit {
                    kind: EditKind::First,
                    ply: 0,
                    written: self.original.first.name().to_string(),
                    read: record.first.name().to_string(),
                },
                EditKind::Extra => Edit {
                    kind: EditKind::Extra,
                    ply: spot.index + 1,
                    written: written_text(spot.index),
                    read: String::new(),
                },
                EditKind::Missing => {
                    let ply = inserted_ply(&origins, spots, k);
                    Edit {
                        kind: EditKind::Missing,
                        ply,
                        written: String::new(),
                        read: read_at(ply),
                    }
                }
                kind => {
                    let ply = origins
                        .iter()
                        .position(|&o| o == Some(spot.index))
                        .map_or(0, |p| p + 1);
                    Edit {
                        kind,
                        ply,
                        written: written_text(spot.index),
                        read: read_at(ply),
                    }
                }
            })
            .collect();
        edits.sort_by_key(|e| (e.ply, e.kind));
        Repair {
            edits,
            spots: spots.to_vec(),
            record: filled,
            solution,
        }
    }
}

/// The 1-based ply of the move `spots[k]` inserts, in the record whose
/// plies come from the written moves `origins` says (`None`: inserted).
/// The moves inserted before written move `i` come just before it (or
/// before the first written move after it, when it is deleted), in order.
fn inserted_ply(origins: &[Option<usize>], spots: &[EditSpot], k: usize) -> usize {
    let index = spots[k].index;
    let end = origins
        .iter()
        .position(|o| o.is_some_and(|o| o >= index))
        .unwrap_or(origins.len());
    let here = spots.iter().filter(|s| **s == spots[k]).count();
    let rank = spots[..k].iter().filter(|s| **s == spots[k]).count();
    end - here + rank + 1
}

/// Where a record's conflict lies: its shortest impossible prefix ends at
/// ply `prefix` (start facts only; the whole record when the end facts are
/// the conflict), its shortest impossible suffix starts at ply `suffix`
/// (end facts only), and `shifted` says whether that suffix is possible
/// with the other side to move.
#[derive(Clone, Copy, Debug)]
struct Conflict {
    prefix: usize,
    suffix: usize,
    shifted: bool,
}

/// An edit of written move `index` (no square).
fn spot(kind: EditKind, index: usize) -> EditSpot {
    EditSpot {
        kind,
        index,
        square: 0,
    }
}

/// Whether square `i` of `written` is written (not a `?`).
fn square_written(written: &WrittenMove, i: usize) -> bool {
    match written {
        WrittenMove::Known(_) => true,
        WrittenMove::Pattern(MovePattern::Path { squares, .. }) => {
            squares.get(i).is_some_and(Option::is_some)
        }
        // Every square of a miswritten move is written, on the board or not.
        WrittenMove::Pattern(MovePattern::Miswritten(m)) => i < m.squares.len(),
        WrittenMove::Pattern(_) => false,
    }
}

/// `written` with square `i` made a `?`.
fn blank_square(written: &WrittenMove, i: usize) -> WrittenMove {
    let (mut squares, capture, short) = match written {
        WrittenMove::Known(mv) => (
            mv.path()
                .iter()
                .copied()
                .map(Some)
                .collect::<smallvec::SmallVec<_>>(),
            mv.is_capture(),
            false,
        ),
        WrittenMove::Pattern(MovePattern::Path {
            squares,
            capture,
            short,
        }) => (squares.clone(), *capture, *short),
        WrittenMove::Pattern(MovePattern::Miswritten(m)) => {
            return WrittenMove::Pattern(m.with_unknown(i))
        }
        other => return other.clone(),
    };
    if let Some(square) = squares.get_mut(i) {
        *square = None;
    }
    WrittenMove::Pattern(MovePattern::Path {
        squares,
        capture,
        short,
    })
}

/// The smallest `x` in `lo..=hi` for which the monotone `test` (false,
/// then true) holds, by bisection.
fn first_true(
    lo: usize,
    hi: usize,
    mut test: impl FnMut(usize) -> Result<bool, SolveError>,
) -> Result<Option<usize>, SolveError> {
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
fn last_true(
    lo: usize,
    hi: usize,
    mut test: impl FnMut(usize) -> Result<bool, SolveError>,
) -> Result<Option<usize>, SolveError> {
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

    #[test]
    fn bisection_finds_the_edge_of_a_monotone_test() {
        for edge in 1..=9 {
            let first = first_true(1, 9, |x| Ok(x >= edge)).unwrap();
            assert_eq!(first, Some(edge));
            let last = last_true(1, 9, |x| Ok(x <= edge)).unwrap();
            assert_eq!(last, Some(edge));
        }
        assert_eq!(first_true(1, 9, |_| Ok(false)).unwrap(), None);
        assert_eq!(last_true(1, 9, |_| Ok(false)).unwrap(), None);
    }

    #[test]
    fn edits_make_the_records_they_say() {
        let record = &parse_records("W 3\n22-18\n11-15\n18x11\n").unwrap()[0];
        let text = |spots: &[EditSpot]| edited_record(record, spots).to_string();
        assert_eq!(
            text(&[EditSpot {
                kind: EditKind::Square,
                index: 0,
                square: 1
            }]),
            "W 3\n22-?\n11-15\n18x11\n"
        );
        assert_eq!(text(&[spot(EditKind::Move, 2)]), "W 3\n22-18\n11-15\n?\n");
        assert_eq!(text(&[spot(EditKind::Extra, 1)]), "W 2\n22-18\n18x11\n");
        assert_eq!(
            text(&[spot(EditKind::Missing, 0), spot(EditKind::Missing, 3)]),
            "W 5\n?\n22-18\n11-15\n18x11\n?\n"
        );
        assert_eq!(
            text(&[spot(EditKind::First, 0)]),
            "B 3\n22-18\n11-15\n18x11\n"
        );
        // Every edit of the record: 6 squares, 3 moves, 3 deletions, 4
        // insertion points, the first side.
        assert_eq!(every_edit(record).len(), 6 + 3 + 3 + 4 + 1);
    }

    #[test]
    fn inserted_moves_take_their_plies_in_order() {
        // Written moves 0, 1, 2; two moves inserted before 1, move 1 deleted.
        let spots = [
            spot(EditKind::Missing, 1),
            spot(EditKind::Missing, 1),
            spot(EditKind::Extra, 1),
        ];
        let origins = [Some(0), None, None, Some(2)];
        assert_eq!(inserted_ply(&origins, &spots, 0), 2);
        assert_eq!(inserted_ply(&origins, &spots, 1), 3);
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

    fn judge_ok(r: &Repair) -> Result<(), String> {
        crate::replay::judge(Variant::English.rules(), &r.record, &r.solution.answer)
            .map_err(|e| e.to_string())
    }
}
