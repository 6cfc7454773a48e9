//! `bench`'s hard family (`docs/hard-instances.md`): both engines on each
//! member, then the longest member many times over as one batch.

use std::time::Duration;

use crate::hard::hard_instance;
use crate::rules::Variant;
use crate::solve::{Engine, Limit};

use super::engines::time_engine;
use super::{HarnessError, Summary};

/// Runs per engine per hard member (the table shows the median).
const HARD_RUNS: usize = 11;

/// Copies of the longest member in the batch.
pub const BATCH: usize = 20;

/// One member's row: medians of [`HARD_RUNS`] runs of each engine.
#[derive(Clone, Copy, Debug)]
pub struct HardRow {
    /// Blocker gadgets.
    pub k: usize,
    /// Its moves.
    pub moves: usize,
    /// The SAT engine's median.
    pub sat: Duration,
    /// The DFS's median.
    pub dfs: Duration,
    /// The DFS's nodes.
    pub dfs_nodes: u64,
}

/// The batch of [`BATCH`] copies of the longest member: time per record.
#[derive(Clone, Copy, Debug)]
pub struct HardBatch {
    /// The SAT engine.
    pub sat: Duration,
    /// The DFS.
    pub dfs: Duration,
}

/// Both engines on every member of the hard family (English), each run
/// as `solve` runs it; then the batch.
///
/// # Errors
/// A job that fails, a member the DFS does not solve, or no member.
pub fn hard_family() -> Result<(Vec<HardRow>, HardBatch), HarnessError> {
    let dfs = Engine::Dfs(Limit::default());
    let mut rows = Vec::new();
    for k in 1.. {
        let Some(record) = hard_instance(k) else {
            break;
        };
        // Median of several runs: single runs of a few microseconds are noisy.
        let runs = vec![record.clone(); HARD_RUNS];
        let (sat_times, _) = time_engine(&runs, Engine::Sat, Variant::English)?;
        let (dfs_times, answers) = time_engine(&runs, dfs, Variant::English)?;
        let Some(Some(stats)) = answers.first() else {
            return Err(HarnessError::DfsMissedHard(k));
        };
        rows.push(HardRow {
            k,
            moves: record.moves.len(),
            sat: Summary::of(&sat_times).median,
            dfs: Summary::of(&dfs_times).median,
            dfs_nodes: stats.nodes,
        });
    }
    let hardest = (1..)
        .map_while(hard_instance)
        .max_by_key(|r| r.moves.len())
        .ok_or(HarnessError::NoHardMember)?;
    let batch = vec![hardest; BATCH];
    let per_record = |engine| -> Result<Duration, HarnessError> {
        let (times, _) = time_engine(&batch, engine, Variant::English)?;
        Ok(times.iter().sum::<Duration>() / batch.len() as u32)
    };
    let batch = HardBatch {
        sat: per_record(Engine::Sat)?,
        dfs: per_record(dfs)?,
    };
    Ok((rows, batch))
}
