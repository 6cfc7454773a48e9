//! The edits of one written record (`shared/spec/repair.md`): which exist,
//! the record a set of them makes, and how a repair names them. Both
//! searches (`replayed` from a known start, `hitting` otherwise) share it,
//! so they count and name edits alike.

use std::collections::HashSet;

use crate::notation::{MoveNumbers, MovePattern, Record, WrittenMove};
use crate::rules::Variant;
use crate::solve::Solution;

use super::Repair;

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
    /// Two moves of one side written in each other's place: a written
    /// move and the next written move of the same side (two plies on).
    Swap,
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
            EditKind::Swap => "swap",
        }
    }

    /// How many moves an edit of this kind changes (the first criterion
    /// of the order among repairs of one cost): `first` changes none,
    /// only who plays them; a swap changes two.
    pub fn moves_changed(self) -> usize {
        match self {
            EditKind::First => 0,
            EditKind::Swap => 2,
            _ => 1,
        }
    }
}

/// One edit of the written record, by the written record's plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EditSpot {
    /// What it does.
    pub kind: EditKind,
    /// The written move it applies to (0-based); for a missing move, the
    /// written move it is inserted before (the number of moves: at the
    /// end); for a swap, the earlier of the two (the other is two on).
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
    /// What it is read as (empty for an extra move); for a swap, the move
    /// played at `ply`, written at `other_ply`.
    pub read: String,
    /// For a swap, the ply of the other move (0 otherwise).
    pub other_ply: usize,
}

impl Edit {
    /// The edit in words, its ply named as PDN numbers it in `repaired`
    /// (`2... 22-17 read as 22-18 (square)`) when `numbers` are given, by
    /// ply number otherwise. A move not played is named by its ply as
    /// written either way: it has no number in the repaired game.
    pub fn words(&self, numbers: Option<(&MoveNumbers, &Record)>) -> String {
        let at = match numbers {
            Some((numbers, repaired)) => numbers.label(repaired, self.ply),
            None => format!("ply {}:", self.ply),
        };
        match self.kind {
            EditKind::Swap => self.swap_words(numbers),
            EditKind::First => format!("the other side moved first, {} (first)", self.read),
            EditKind::Missing => format!("{at} a missing move, played {} (missing)", self.read),
            EditKind::Extra => format!(
                "written ply {}: {} was not played (extra)",
                self.ply, self.written
            ),
            kind => format!(
                "{at} {} read as {} ({})",
                self.written,
                self.read,
                kind.name()
            ),
        }
    }
}

impl Edit {
    /// A swap in words: `plies 19 and 21: 15x24 and 11-15 swapped (swap)`,
    /// or by move numbers (`10. 15x24 and 11. 11-15 swapped (swap)`).
    fn swap_words(&self, numbers: Option<(&MoveNumbers, &Record)>) -> String {
        let (written, read) = (&self.written, &self.read);
        match numbers {
            Some((numbers, repaired)) => format!(
                "{} {written} and {} {read} swapped (swap)",
                numbers.label(repaired, self.ply),
                numbers.label(repaired, self.other_ply)
            ),
            None => format!(
                "plies {} and {}: {written} and {read} swapped (swap)",
                self.ply, self.other_ply
            ),
        }
    }
}

impl std::fmt::Display for Edit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words(None))
    }
}

/// An edit of written move `index` (no square).
pub(super) fn spot(kind: EditKind, index: usize) -> EditSpot {
    EditSpot {
        kind,
        index,
        square: 0,
    }
}

/// The swap of written move `index` with the one two on.
pub(super) fn swap(index: usize) -> EditSpot {
    spot(EditKind::Swap, index)
}

/// Where a ply of an edited record comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Origin {
    /// Written move `i` (0-based), as written or edited.
    Written(usize),
    /// A move inserted before written move `i` (`i` = the number of
    /// written moves: at the end).
    Inserted(usize),
}

impl Origin {
    /// The written move, unless inserted.
    pub fn written(self) -> Option<usize> {
        match self {
            Origin::Written(i) => Some(i),
            Origin::Inserted(_) => None,
        }
    }
}

/// The edits of one written record.
pub(super) struct Edits<'a> {
    /// The record as written.
    pub original: &'a Record,
    /// Its moves as written.
    pub written: Vec<WrittenMove>,
    /// The rule set (for writing moves).
    pub variant: Variant,
}

impl<'a> Edits<'a> {
    pub fn new(original: &'a Record, variant: Variant) -> Edits<'a> {
        Edits {
            original,
            written: original.written_moves(),
            variant,
        }
    }

    /// The number of written moves.
    pub fn len(&self) -> usize {
        self.written.len()
    }

    /// Every edit on its own: each written square, each move, each move
    /// deleted, a move inserted before each move and at the end, and the
    /// other side first.
    pub fn every_edit(&self) -> Vec<EditSpot> {
        let n = self.len();
        let mut spots: Vec<EditSpot> = (0..n).flat_map(|i| self.edits_of(i)).collect();
        spots.extend((0..=n).map(|i| spot(EditKind::Missing, i)));
        spots.extend((0..n).filter(|&i| self.swappable(i)).map(swap));
        spots.push(spot(EditKind::First, 0));
        spots
    }

    /// The edits of written move `index` itself: each written square, the
    /// whole move, and deleting it.
    pub fn edits_of(&self, index: usize) -> Vec<EditSpot> {
        let written = &self.written[index];
        let squares = match written {
            WrittenMove::Known(mv) => mv.path().len(),
            WrittenMove::Pattern(MovePattern::Path { squares, .. }) => squares.len(),
            WrittenMove::Pattern(MovePattern::Miswritten(m)) => m.squares.len(),
            WrittenMove::Pattern(_) => 0,
        };
        let mut spots: Vec<EditSpot> = (0..squares)
            .filter(|&square| square_written(written, square))
            .map(|square| EditSpot {
                kind: EditKind::Square,
                index,
                square,
            })
            .collect();
        if !matches!(written, WrittenMove::Pattern(MovePattern::Unknown)) {
            spots.push(spot(EditKind::Move, index));
        }
        spots.push(spot(EditKind::Extra, index));
        spots
    }

    /// Whether written move `index` and the one two on can be swapped: both
    /// exist and differ (swapping a move with its copy changes nothing).
    pub fn swappable(&self, index: usize) -> bool {
        self.written
            .get(index + 2)
            .is_some_and(|later| *later != self.written[index])
    }

    /// The swaps that move written move `index`: with the one two on, and
    /// with the one two before.
    pub fn swaps_of(&self, index: usize) -> Vec<EditSpot> {
        let before = index.checked_sub(2).filter(|&i| self.swappable(i));
        let after = Some(index).filter(|&i| self.swappable(i));
        before.into_iter().chain(after).map(swap).collect()
    }

    /// Whether an edit set is one the searches count: at most one edit of
    /// a written move (a second would be a `move` edit's job; a swap edits
    /// both its moves), no two swaps interleaved (`i`, `i + 1`), and the
    /// first side changed at most once.
    pub fn compatible(spots: &[EditSpot]) -> bool {
        let mut touched = HashSet::new();
        let firsts = spots.iter().filter(|s| s.kind == EditKind::First).count();
        let swaps: HashSet<usize> = spots
            .iter()
            .filter(|s| s.kind == EditKind::Swap)
            .map(|s| s.index)
            .collect();
        firsts <= 1
            && !swaps.iter().any(|i| swaps.contains(&(i + 1)))
            && spots.iter().all(|s| match s.kind {
                EditKind::Square | EditKind::Move | EditKind::Extra => touched.insert(s.index),
                EditKind::Swap => touched.insert(s.index) && touched.insert(s.index + 2),
                EditKind::Missing | EditKind::First => true,
            })
    }

    /// What written move `index` becomes under the edit `edit` of it (a
    /// square, the move): the damaged move whose fillings are its readings.
    pub fn edited_move(&self, edit: EditSpot) -> WrittenMove {
        let written = &self.written[edit.index];
        match edit.kind {
            EditKind::Square => blank_square(written, edit.square),
            _ => WrittenMove::Pattern(MovePattern::Unknown),
        }
    }

    /// The record as `spots` edit it, and where each of its plies comes from.
    pub fn edited(&self, spots: &[EditSpot]) -> (Record, Vec<Origin>) {
        let mut moves = Vec::new();
        let mut origins = Vec::new();
        let missing_before = |i: usize| {
            spots
                .iter()
                .filter(|s| s.kind == EditKind::Missing && s.index == i)
                .count()
        };
        for i in 0..=self.len() {
            for _ in 0..missing_before(i) {
                moves.push(WrittenMove::Pattern(MovePattern::Unknown));
                origins.push(Origin::Inserted(i));
            }
            let Some(written) = self.written.get(i) else {
                break;
            };
            let here = spots
                .iter()
                .find(|s| s.index == i && !matches!(s.kind, EditKind::Missing | EditKind::First));
            let swapped_in = |from: usize| spots.contains(&swap(from)).then_some(from);
            let edited = match here {
                Some(s) if s.kind == EditKind::Extra => continue,
                Some(s) if s.kind == EditKind::Swap => self.written[i + 2].clone(),
                Some(&s) => self.edited_move(s),
                None => match i.checked_sub(2).and_then(swapped_in) {
                    Some(from) => self.written[from].clone(),
                    None => written.clone(),
                },
            };
            moves.push(edited);
            origins.push(Origin::Written(i));
        }
        let first = if spots.iter().any(|s| s.kind == EditKind::First) {
            self.original.first.opposite()
        } else {
            self.original.first
        };
        (
            Record::from_written(first, moves, self.original.line),
            origins,
        )
    }

    /// The repair `spots` make, its edits named by the moves `solution`
    /// played (its filled record).
    pub fn named(&self, spots: &[EditSpot], solution: Solution) -> Repair {
        let (record, origins) = self.edited(spots);
        let origins: Vec<Option<usize>> = origins.into_iter().map(Origin::written).collect();
        let filled = solution.filled.clone().unwrap_or_else(|| record.clone());
        let read_at = |ply: usize| {
            filled
                .moves
                .get(ply.wrapping_sub(1))
                .map(|mv| self.variant.write_move(mv))
                .unwrap_or_default()
        };
        let written_text = |i: usize| self.variant.write_written(&self.written[i]);
        let mut edits: Vec<Edit> = spots
            .iter()
            .enumerate()
            .map(|(k, spot)| match spot.kind {
                EditKind::First => Edit {
                    kind: EditKind::First,
                    ply: 0,
                    written: self.original.first.name().to_string(),
                    read: record.first.name().to_string(),
                    other_ply: 0,
                },
                EditKind::Extra => Edit {
                    kind: EditKind::Extra,
                    ply: spot.index + 1,
                    written: written_text(spot.index),
                    read: String::new(),
                    other_ply: 0,
                },
                EditKind::Missing => {
                    let ply = inserted_ply(&origins, spots, k);
                    Edit {
                        kind: EditKind::Missing,
                        ply,
                        written: String::new(),
                        read: read_at(ply),
                        other_ply: 0,
                    }
                }
                kind => {
                    let ply = ply_of(&origins, spot.index);
                    let swapped =
                        (kind == EditKind::Swap).then(|| ply_of(&origins, spot.index + 2));
                    Edit {
                        kind,
                        ply,
                        written: written_text(spot.index),
                        read: read_at(ply),
                        other_ply: swapped.unwrap_or(0),
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

/// The 1-based ply of written move `index` in the record whose plies come
/// from the written moves `origins` says (0: deleted).
fn ply_of(origins: &[Option<usize>], index: usize) -> usize {
    origins
        .iter()
        .position(|&o| o == Some(index))
        .map_or(0, |p| p + 1)
}

/// The 1-based ply of the move `spots[k]` inserts, in the record whose
/// plies come from the written moves `origins` says (`None`: inserted).
/// The moves inserted before written move `i` come just before it (or
/// before the first written move after it, when it is deleted), in order.
pub(super) fn inserted_ply(origins: &[Option<usize>], spots: &[EditSpot], k: usize) -> usize {
    let index = spots[k].index;
    let end = origins
        .iter()
        .position(|o| o.is_some_and(|o| o >= index))
        .unwrap_or(origins.len());
    let here = spots.iter().filter(|s| **s == spots[k]).count();
    let rank = spots[..k].iter().filter(|s| **s == spots[k]).count();
    end - here + rank + 1
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_records;

    #[test]
    fn edits_make_the_records_they_say() {
        let record = &parse_records("W 3\n22-18\n11-15\n18x11\n").unwrap()[0];
        let edits = Edits::new(record, Variant::English);
        let text = |spots: &[EditSpot]| edits.edited(spots).0.to_string();
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
        // insertion points, the first side, 1 swap.
        assert_eq!(edits.every_edit().len(), 6 + 3 + 3 + 4 + 1 + 1);
    }

    #[test]
    fn a_swap_exchanges_a_move_with_the_next_of_its_side() {
        let record = &parse_records("W 4\n22-18\n11-15\n18x11\n8x15\n").unwrap()[0];
        let edits = Edits::new(record, Variant::English);
        let text = |spots: &[EditSpot]| edits.edited(spots).0.to_string();
        assert_eq!(text(&[swap(0)]), "W 4\n18x11\n11-15\n22-18\n8x15\n");
        // A move inserted between keeps the two moves in place.
        assert_eq!(
            text(&[spot(EditKind::Missing, 1), swap(1)]),
            "W 5\n22-18\n?\n8x15\n18x11\n11-15\n"
        );
        assert_eq!(edits.swaps_of(2), vec![swap(0)]);
        assert_eq!(edits.swaps_of(1), vec![swap(1)]);
        // Every edit: 8 squares, 4 moves, 4 deletions, 5 insertion
        // points, the first side, 2 swaps.
        assert_eq!(edits.every_edit().len(), 8 + 4 + 4 + 5 + 1 + 2);
        // A swap edits both its moves; interleaved swaps are not counted.
        assert!(!Edits::compatible(&[spot(EditKind::Move, 2), swap(0)]));
        assert!(Edits::compatible(&[spot(EditKind::Move, 1), swap(0)]));
        assert!(!Edits::compatible(&[swap(0), swap(1)]));
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
    fn one_edit_per_written_move() {
        let square = EditSpot {
            kind: EditKind::Square,
            index: 1,
            square: 0,
        };
        assert!(Edits::compatible(&[square, spot(EditKind::Missing, 1)]));
        assert!(!Edits::compatible(&[square, spot(EditKind::Extra, 1)]));
        assert!(!Edits::compatible(&[
            spot(EditKind::First, 0),
            spot(EditKind::First, 0)
        ]));
    }
}
