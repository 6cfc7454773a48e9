//! The conflict-window search (the first repair search, kept while the
//! hitting-set search is measured against it): each edit set touching the
//! window of the record the earlier edits make is solved as its own
//! damaged record.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use crate::encode::BoardFacts;
use crate::notation::Record;
use crate::solve::{Outcome, Reconstructor, Solution};

use super::edits::{spot, EditKind, EditSpot, Edits};
use super::{first_true, last_true, Budget, Found, RepairOptions, Stop};

/// The search over edit sets of one record.
pub(super) struct Window<'e, 'a> {
    edits: &'e Edits<'a>,
    known: BoardFacts,
    verdicts: RefCell<HashMap<(String, bool, bool), bool>>,
    budget: RefCell<Budget>,
}

impl<'e, 'a> Window<'e, 'a> {
    pub fn new(edits: &'e Edits<'a>, known: BoardFacts, budget: Budget) -> Window<'e, 'a> {
        Window {
            edits,
            known,
            verdicts: RefCell::default(),
            budget: RefCell::new(budget),
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
        let mut seen = HashSet::new();
        self.deepen(&mut Vec::new(), k, options, &mut seen, &mut found)?;
        Ok(found)
    }

    fn deepen(
        &self,
        chosen: &mut Vec<EditSpot>,
        left: usize,
        options: RepairOptions,
        seen: &mut HashSet<Vec<EditSpot>>,
        found: &mut Vec<(Vec<EditSpot>, Solution)>,
    ) -> Result<(), Stop> {
        for spot in self.window(chosen, left)? {
            if found.len() >= if options.all { options.limit } else { 1 } {
                return Ok(());
            }
            chosen.push(spot);
            let mut key = chosen.clone();
            key.sort_unstable();
            if Edits::compatible(&key) && seen.insert(key.clone()) {
                if left == 1 {
                    if let Outcome::Solved(solution) = self.solve(&key)? {
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

    fn solve(&self, spots: &[EditSpot]) -> Result<Outcome, Stop> {
        let (record, _) = self.edits.edited(spots);
        self.solve_record(&record, self.known)
    }

    fn solve_record(&self, record: &Record, known: BoardFacts) -> Result<Outcome, Stop> {
        self.budget.borrow_mut().check()?;
        Ok(Reconstructor::new(self.edits.variant)
            .facts(known)
            .solve(record)?)
    }

    fn possible(&self, record: &Record, known: BoardFacts) -> Result<bool, Stop> {
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

    fn window(&self, chosen: &[EditSpot], left: usize) -> Result<Vec<EditSpot>, Stop> {
        let (record, origins) = self.edits.edited(chosen);
        let bounds = self.conflict(&record)?;
        let origin_of = |ply: usize| origins.get(ply - 1).copied().flatten();
        let n = origins.len();
        let written = self.edits.len();
        let on_plies = |plies: std::ops::RangeInclusive<usize>, spots: &mut Vec<EditSpot>| {
            for index in plies.filter_map(origin_of) {
                spots.extend(self.edits.edits_of(index));
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
        let after = |ply: usize| (ply + 1..=n).find_map(origin_of).unwrap_or(written);
        let (p, q, shifted) = bounds;
        let mut spots = Vec::new();
        if left == 1 {
            on_plies(q..=p.max(q), &mut spots);
            spots.push(spot(EditKind::Missing, after(p.max(q))));
            if shifted || q == 1 {
                shifts(1..q, &mut spots);
            }
        } else if p <= n + 1 - q {
            on_plies(1..=p, &mut spots);
            spots.push(spot(EditKind::First, 0));
        } else {
            on_plies(q..=n, &mut spots);
            spots.push(spot(EditKind::Missing, written));
            shifts(1..q, &mut spots);
        }
        spots.sort_unstable();
        spots.dedup();
        Ok(spots)
    }

    fn conflict(&self, record: &Record) -> Result<(usize, usize, bool), Stop> {
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
            Ok::<_, Stop>(!self.possible(&part(0, len, record.first), start_only)?)
        })?
        .unwrap_or(n);
        let end_only = BoardFacts {
            start: None,
            end: self.known.end,
        };
        let suffix = last_true(1, n, |from| {
            Ok::<_, Stop>(!self.possible(&part(from - 1, n, record.mover(from)), end_only)?)
        })?
        .unwrap_or(1);
        let shifted = suffix > 1
            && self.possible(
                &part(suffix - 1, n, record.mover(suffix).opposite()),
                end_only,
            )?;
        Ok((prefix, suffix, shifted))
    }
}
