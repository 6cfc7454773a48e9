//! `bench`'s damaged-records table: the same fragments with 0, 1, 5 and 20
//! of their moves replaced by a lone `?` (`shared/spec/damaged.md`),
//! solved as `solve` solves them.

use std::sync::Arc;
use std::time::Instant;

use crate::encode::BoardFacts;
use crate::notation::Record;
use crate::random::{damage, Damage};
use crate::request::SolveOptions;
use crate::rules::Variant;

use super::generate::damage_rng;
use super::{problem, run_job, HarnessError, Summary};

/// Records per row of the damaged-records table (each takes milliseconds).
pub const DAMAGED_RECORDS: usize = 100;

/// Unknown moves per record, a row each.
const UNKNOWN_MOVES: [usize; 4] = [0, 1, 5, 20];

/// One row: the records with this many unknown moves.
#[derive(Clone, Copy, Debug)]
pub struct DamagedRow {
    /// Moves replaced by `?` in each record.
    pub unknown_moves: usize,
    /// Time per record.
    pub times: Summary,
    /// Records solved (all of them, or the table stops).
    pub solved: usize,
    /// Mean variables of the formulas.
    pub vars: usize,
    /// Mean clauses.
    pub clauses: usize,
}

/// The first [`DAMAGED_RECORDS`] of `records`, damaged for each row and
/// solved by the SAT engine. Every one must be solved: a fragment of a
/// legal game that is not (impossible, undecided, an error) stops the
/// table with the record.
///
/// # Errors
/// [`HarnessError::DamagedUnsolved`].
pub fn damaged_rows(
    records: &[Record],
    variant: Variant,
    seed: u64,
) -> Result<Vec<DamagedRow>, HarnessError> {
    let records = &records[..records.len().min(DAMAGED_RECORDS)];
    let options = Arc::new(SolveOptions::default());
    let mut rows = Vec::new();
    for unknown_moves in UNKNOWN_MOVES {
        let mut rng = damage_rng(seed);
        let how = Damage {
            unknown_moves,
            ..Damage::default()
        };
        let spoilt: Vec<Record> = records.iter().map(|r| damage(r, &mut rng, how)).collect();
        let (mut times, mut vars, mut clauses) = (Vec::new(), 0, 0);
        for record in &spoilt {
            let problem = problem(record, variant, BoardFacts::default());
            let started = Instant::now();
            let answer = run_job(&problem, &options);
            times.push(started.elapsed());
            let figures = answer.map_err(|e| HarnessError::DamagedUnsolved {
                outcome: Box::new(e),
                record: Box::new(record.clone()),
            })?;
            vars += figures.stats.vars;
            clauses += figures.stats.clauses;
        }
        let solved = spoilt.len().max(1);
        rows.push(DamagedRow {
            unknown_moves,
            times: Summary::of(&times),
            solved: spoilt.len(),
            vars: vars / solved,
            clauses: clauses / solved,
        });
    }
    Ok(rows)
}
