//! `compare`: both engines on each record, their verdicts and times, and
//! whether they agree. It pits the engines themselves (the reconstruction
//! `solve` runs), not the request around them: the request explains an
//! impossible record (a search of up to half a second) and would swamp the
//! times it compares.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::archive::GameError;
use crate::notation::{plural, Record};
use crate::request::{ReadAs, RulesChoice, Source, SourceError};
use crate::rules::Variant;
use crate::solve::{Engine, Limit, Outcome, Reconstructor, SolveError};

use super::{micros, Summary};

/// An engine's verdict in one word: `solved`, `impossible`, `gave-up`.
pub fn verdict(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Solved(_) => "solved",
        Outcome::Impossible { .. } => "impossible",
        Outcome::GaveUp { .. } => "gave-up",
    }
}

/// Whether the two engines agree on a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// The same verdict.
    Yes,
    /// Different verdicts: a bug.
    No,
    /// The DFS gave up: nothing to compare.
    GaveUp,
}

/// The DFS's run on a record.
#[derive(Clone, Copy, Debug)]
pub struct DfsRun {
    /// Its verdict.
    pub verdict: &'static str,
    /// Its time.
    pub time: Duration,
    /// The nodes it searched.
    pub nodes: u64,
    /// Whether it agrees with the SAT engine.
    pub agreement: Agreement,
}

/// One record compared: the SAT engine's verdict and time, and the DFS's
/// run (`None` where the DFS does not play: another rule set, or moves not
/// whole).
#[derive(Clone, Copy, Debug)]
pub struct Comparison {
    /// The SAT engine's verdict.
    pub sat: &'static str,
    /// Its time.
    pub sat_time: Duration,
    /// The DFS's run.
    pub dfs: Option<DfsRun>,
}

/// What `compare` has seen so far: the engines' times and the counts of
/// its summary line.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// The SAT engine's times.
    pub sat_times: Vec<Duration>,
    /// The DFS's times.
    pub dfs_times: Vec<Duration>,
    /// Records compared.
    pub compared: usize,
    /// Records the engines disagree on.
    pub disagreements: usize,
    /// Records the DFS gave up on.
    pub gave_up: usize,
    /// Records the DFS does not play.
    pub not_english: usize,
}

/// `engine` on `record`, timed.
fn timed(
    record: &Record,
    variant: Variant,
    engine: Engine,
) -> (Result<Outcome, SolveError>, Duration) {
    let started = Instant::now();
    let outcome = Reconstructor::new(variant).engine(engine).solve(record);
    (outcome, started.elapsed())
}

impl Tally {
    /// Runs both engines on `record` and counts the result.
    ///
    /// # Errors
    /// An engine that fails (a bug): the record is not counted.
    pub fn compare(
        &mut self,
        record: &Record,
        variant: Variant,
        limit: Limit,
    ) -> Result<Comparison, SolveError> {
        let (sat, sat_time) = timed(record, variant, Engine::Sat);
        let sat = sat?;
        self.compared += 1;
        self.sat_times.push(sat_time);
        // The DFS engine knows some rule sets and whole moves only.
        // (PDN captures read short but written whole are whole moves.)
        let whole = !record.is_damaged() || record.as_written(variant.geometry()).is_some();
        let dfs = (variant.has_dfs() && whole).then(|| timed(record, variant, Engine::Dfs(limit)));
        let mut comparison = Comparison {
            sat: verdict(&sat),
            sat_time,
            dfs: None,
        };
        let (dfs, time) = match dfs {
            None | Some((Err(SolveError::Unsupported(_)), _)) => {
                self.not_english += 1;
                return Ok(comparison);
            }
            Some((dfs, time)) => (dfs?, time),
        };
        self.dfs_times.push(time);
        let nodes = match &dfs {
            Outcome::Solved(s) => s.stats.nodes,
            Outcome::Impossible { stats, .. } | Outcome::GaveUp { stats, .. } => stats.nodes,
        };
        comparison.dfs = Some(DfsRun {
            verdict: verdict(&dfs),
            time,
            nodes,
            agreement: self.agreement(&sat, &dfs),
        });
        Ok(comparison)
    }

    /// Agreement of the two verdicts, counted.
    fn agreement(&mut self, sat: &Outcome, dfs: &Outcome) -> Agreement {
        if matches!(dfs, Outcome::GaveUp { .. }) {
            self.gave_up += 1;
            Agreement::GaveUp
        } else if verdict(sat) == verdict(dfs) {
            Agreement::Yes
        } else {
            self.disagreements += 1;
            Agreement::No
        }
    }
}

/// The reading of a record to compare the engines on: under `--rules
/// auto`, the first rule set whose SAT engine solves it, else the first.
///
/// # Errors
/// A solver error while choosing (a bug).
fn chosen_reading(
    readings: Vec<crate::archive::Reading>,
) -> Result<Option<crate::archive::Reading>, SolveError> {
    let solve = |r: &crate::archive::Reading| Reconstructor::new(r.variant).solve(&r.record);
    let (chosen, _) = crate::request::first_solving(&readings, solve, None)?;
    Ok(readings.into_iter().nth(chosen))
}

/// The header of `compare`'s table of records.
pub fn header() -> String {
    let columns = [
        "instance",
        "rules",
        "plies",
        "sat_us",
        "dfs_us",
        "dfs_nodes",
        "agree",
    ];
    table_line(columns, "verdict")
}

/// A line of `compare`'s table: the header's and each row's, so their
/// columns line up (instance, rules, plies, sat_us, dfs_us, dfs_nodes,
/// agree), then the verdicts.
fn table_line(columns: [&str; 7], verdicts: &str) -> String {
    let [name, rules, plies, sat_us, dfs_us, nodes, agree] = columns;
    format!("{name:<28} {rules:<13} {plies:>5} {sat_us:>10} {dfs_us:>10} {nodes:>10} {agree:>6}  {verdicts}")
}

/// One record of a compared file: its name, rule set and moves.
#[derive(Clone, Debug)]
pub struct Compared {
    /// The file's name, with `#N` in a file of several records.
    pub name: String,
    /// The rule set it is compared under.
    pub variant: Variant,
    /// Its moves.
    pub record: Record,
}

/// A record of a compared file that is left out.
#[derive(Debug, thiserror::Error)]
pub enum LeftOut {
    /// It cannot be read (bad input).
    #[error("{name}: line {line}: {error}")]
    Unreadable {
        /// The record's name.
        name: String,
        /// The line where it starts.
        line: usize,
        /// Why.
        #[source]
        error: GameError,
    },
    /// Choosing its rule set failed (a bug).
    #[error("{name}: line {line}: internal error: {error}")]
    Internal {
        /// The record's name.
        name: String,
        /// The line where it starts.
        line: usize,
        /// What failed.
        #[source]
        error: SolveError,
    },
}

/// The records of `source` (the file `file`) under `rules`, each PDN game
/// under its own (the first reading its moves solve under), or why one is
/// left out. Games without moves are left out silently.
///
/// # Errors
/// The file as a whole cannot be read.
pub fn compared_records(
    source: &Source,
    file: &Path,
    rules: RulesChoice,
) -> Result<Vec<Result<Compared, LeftOut>>, SourceError> {
    let items = source.items(ReadAs::as_written(rules, false))?;
    let count = items.iter().filter(|i| !i.no_moves).count();
    let mut records = Vec::new();
    for (i, item) in items.into_iter().filter(|i| !i.no_moves).enumerate() {
        let (name, line) = (name_of(file, i, count), item.line);
        if let Some(error) = item.error {
            records.push(Err(LeftOut::Unreadable { name, line, error }));
            continue;
        }
        match chosen_reading(item.readings) {
            Ok(Some(reader)) => records.push(Ok(Compared {
                name,
                variant: reader.variant,
                record: reader.record,
            })),
            Ok(None) => {}
            Err(error) => records.push(Err(LeftOut::Internal { name, line, error })),
        }
    }
    Ok(records)
}

/// A compared record's name: the file's, with `#N` when it holds several.
fn name_of(file: &Path, index: usize, count: usize) -> String {
    let base = file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    if count == 1 {
        base
    } else {
        format!("{base}#{}", index + 1)
    }
}

impl Comparison {
    /// `yes`, `NO` (a bug) or `-` (the DFS gave up or did not run).
    pub fn agree(&self) -> &'static str {
        match self.dfs.map(|d| d.agreement) {
            Some(Agreement::Yes) => "yes",
            Some(Agreement::No) => "NO",
            Some(Agreement::GaveUp) | None => "-",
        }
    }

    /// The record's line of `compare`'s table (named `name`, of `plies`
    /// under `variant`); `-` for the DFS's figures where it did not run.
    pub fn text(&self, name: &str, variant: Variant, plies: usize) -> String {
        let dfs_verdict = self.dfs.map_or("n/a", |d| d.verdict);
        let (dfs_us, nodes) = self.dfs.map_or_else(
            || ("-".to_string(), "-".to_string()),
            |d| (micros(d.time), d.nodes.to_string()),
        );
        let (plies, sat_us) = (plies.to_string(), micros(self.sat_time));
        let columns = [
            name,
            variant.name(),
            &plies,
            &sat_us,
            &dfs_us,
            &nodes,
            self.agree(),
        ];
        table_line(columns, &format!("sat {} / dfs {dfs_verdict}", self.sat))
    }

    /// The record's object of `compare --json` (one line).
    pub fn json(&self, name: &str, variant: Variant, plies: usize) -> String {
        let dfs = self.dfs.as_ref();
        let row = serde_json::json!({
            "instance": name,
            "rules": variant.name(),
            "plies": plies,
            "sat_us": micros(self.sat_time).parse::<f64>().ok(),
            "dfs_us": dfs.and_then(|d| micros(d.time).parse::<f64>().ok()),
            "dfs_nodes": dfs.map(|d| d.nodes),
            "agree": self.agree(),
            "sat": self.sat,
            "dfs": dfs.map_or("n/a", |d| d.verdict),
        });
        row.to_string()
    }
}

impl Tally {
    /// The engines' timing table and the counts, a line each: a blank
    /// line, the header, a row per engine that ran, the summary line.
    pub fn summary_lines(&self) -> Vec<String> {
        let s = Summary::of(&self.sat_times);
        let d = (!self.dfs_times.is_empty()).then(|| Summary::of(&self.dfs_times));
        let mut lines = vec![
            String::new(),
            format!(
                "{:<8} {:>10} {:>10} {:>10}",
                "engine", "median_us", "p90_us", "max_us"
            ),
        ];
        for (engine, sum) in [("sat", Some(&s)), ("dfs", d.as_ref())] {
            let Some(sum) = sum else { continue };
            lines.push(format!(
                "{engine:<8} {:>10} {:>10} {:>10}",
                micros(sum.median),
                micros(sum.p90),
                micros(sum.max)
            ));
        }
        let ratio = d.map_or_else(
            || "no record for the DFS".to_string(),
            |d| {
                format!(
                    "sat/dfs ratio of medians {:.2}",
                    s.median.as_secs_f64() / d.median.as_secs_f64()
                )
            },
        );
        lines.push(format!(
            "{}; {ratio}; {} disagreements; dfs gave up on {}; dfs n/a (not English, or not whole moves) on {}",
            plural(self.compared, "record"),
            self.disagreements,
            self.gave_up,
            self.not_english
        ));
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::generate::{fragments, FragmentStart};

    #[test]
    fn both_engines_agree_on_fragments_of_legal_games() {
        let records = fragments(3, 12, 9, FragmentStart::Random, Variant::English).unwrap();
        let mut tally = Tally::default();
        for record in &records {
            let row = tally
                .compare(record, Variant::English, Limit::default())
                .unwrap();
            assert_eq!(row.sat, "solved");
            let dfs = row.dfs.expect("the DFS plays English");
            assert_eq!((dfs.verdict, dfs.agreement), ("solved", Agreement::Yes));
        }
        assert_eq!((tally.compared, tally.disagreements), (3, 0));
        assert_eq!(tally.dfs_times.len(), 3);
        let russian = fragments(1, 12, 9, FragmentStart::Random, Variant::Russian).unwrap();
        let row = tally
            .compare(&russian[0], Variant::Russian, Limit::default())
            .unwrap();
        assert_eq!(row.dfs.is_some(), Variant::Russian.has_dfs());
        assert_eq!(tally.not_english, usize::from(!Variant::Russian.has_dfs()));
    }
}
