//! `bench`'s main tables: both engines on random fragments, timed as the
//! binary's `solve` runs them, and the SAT engine's path through one
//! record stage by stage.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::encode::BoardFacts;
use crate::notation::Record;
use crate::request::SolveOptions;
use crate::rules::Variant;
use crate::solve::{Engine, Limit, Outcome, SolveStats};

use super::{is_verdict, problem, run_job, HarnessError, Summary};

/// The engines `bench` times under `variant`: the SAT engine, and the DFS
/// where the rule set has one.
pub fn engines_of(variant: Variant) -> Vec<Engine> {
    if variant.has_dfs() {
        vec![Engine::Sat, Engine::Dfs(Limit::default())]
    } else {
        vec![Engine::Sat]
    }
}

/// Times `engine` on every record, solved as `solve --engine` solves it
/// (solved, replayed); gives the times and what the solver did (`None`
/// for an impossible or undecided record).
///
/// # Errors
/// A job that fails (a bug).
pub fn time_engine(
    records: &[Record],
    engine: Engine,
    variant: Variant,
) -> Result<(Vec<Duration>, Vec<Option<SolveStats>>), HarnessError> {
    let options = Arc::new(SolveOptions {
        engine,
        ..SolveOptions::default()
    });
    let mut times = Vec::with_capacity(records.len());
    let mut answers = Vec::with_capacity(records.len());
    for record in records {
        let problem = problem(record, variant, BoardFacts::default());
        let started = Instant::now();
        let answer = run_job(&problem, &options);
        times.push(started.elapsed());
        match answer {
            Ok(figures) => answers.push(Some(figures.stats)),
            Err(e) if is_verdict(&e) => answers.push(None),
            Err(e) => return Err(e.into()),
        }
    }
    Ok((times, answers))
}

/// One engine's row: its times, and (SAT) the mean size of the formulas
/// it built.
#[derive(Clone, Debug)]
pub struct EngineRow {
    /// The engine.
    pub engine: Engine,
    /// Its times per record.
    pub times: Summary,
    /// Records per second.
    pub per_second: f64,
    /// Mean variables and clauses over the records that built a formula.
    pub formula: Option<(usize, usize)>,
}

/// Where the SAT engine's answers came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnswerSources {
    /// Records in all.
    pub records: usize,
    /// Settled by the unit facts (no formula built).
    pub unit_facts: usize,
    /// Settled by the lucky check.
    pub lucky: usize,
    /// Solved by varisat.
    pub varisat: usize,
}

/// The engines table: a row per engine, where the SAT answers came from,
/// and the ratio of the medians (with two engines).
#[derive(Clone, Debug)]
pub struct EnginesTable {
    /// A row per engine.
    pub rows: Vec<EngineRow>,
    /// The SAT engine's answers.
    pub sources: AnswerSources,
    /// SAT's median over the DFS's.
    pub ratio: Option<f64>,
}

/// Both engines (where there are two) on `records`, which each must all solve.
///
/// # Errors
/// A job that fails, or an engine that leaves a record unsolved.
pub fn engines(records: &[Record], variant: Variant) -> Result<EnginesTable, HarnessError> {
    let mut rows = Vec::new();
    let mut sources = sources_of(&[]);
    for engine in engines_of(variant) {
        let (times, answers) = time_engine(records, engine, variant)?;
        let stats: Vec<SolveStats> = answers.into_iter().flatten().collect();
        if stats.len() != records.len() {
            return Err(HarnessError::EngineMissed {
                engine: engine.name(),
                solved: stats.len(),
                total: records.len(),
            });
        }
        if engine == Engine::Sat {
            sources = sources_of(&stats);
        }
        let times = Summary::of(&times);
        rows.push(EngineRow {
            engine,
            times,
            per_second: times.per_second(records.len()),
            formula: (engine == Engine::Sat)
                .then(|| formula_size(&stats))
                .flatten(),
        });
    }
    let ratio = match &rows[..] {
        [sat, dfs] => Some(sat.times.median.as_secs_f64() / dfs.times.median.as_secs_f64()),
        _ => None,
    };
    Ok(EnginesTable {
        rows,
        sources,
        ratio,
    })
}

/// The mean size of the formulas the engine built: the records the unit
/// facts settled build none, and a mean over them said `clauses 2` where
/// 991 of 1,000 built no formula (issue 44, item 28). `None` when none did.
fn formula_size(stats: &[SolveStats]) -> Option<(usize, usize)> {
    let built: Vec<&SolveStats> = stats.iter().filter(|s| !s.shortcut).collect();
    if built.is_empty() {
        return None;
    }
    let mean =
        |f: fn(&SolveStats) -> usize| built.iter().map(|s| f(s)).sum::<usize>() / built.len();
    Some((mean(|s| s.vars), mean(|s| s.clauses)))
}

/// How many SAT answers came from the unit facts, and how many more from
/// the lucky check.
fn sources_of(stats: &[SolveStats]) -> AnswerSources {
    let unit_facts = stats.iter().filter(|s| s.shortcut).count();
    let lucky = stats.iter().filter(|s| s.lucky && !s.shortcut).count();
    AnswerSources {
        records: stats.len(),
        unit_facts,
        lucky,
        varisat: stats.len() - unit_facts - lucky,
    }
}

/// The medians of the SAT engine's stages on one record.
#[derive(Clone, Copy, Debug)]
pub struct StageMedians {
    /// Reading the record's text.
    pub parse: Duration,
    /// The shortcut whole (unit facts, replay, forced blockers).
    pub shortcut: Duration,
    /// Its unit facts alone.
    pub unit_facts: Duration,
    /// One replay alone.
    pub one_replay: Duration,
    /// Printing the answer.
    pub output: Duration,
    /// The whole record.
    pub whole: Duration,
}

/// The full path of the records the shortcut does not settle.
#[derive(Clone, Copy, Debug)]
pub struct FullPath {
    /// Records that took it.
    pub records: usize,
    /// Their median time, if any did.
    pub median: Option<Duration>,
    /// The mean whole-record time over all records.
    pub mean_whole: Duration,
}

/// The SAT engine's path through each record, stage by stage: what each
/// costs, and the floor (reading the record and replaying it once), which
/// every engine pays whatever it does in between. The shortcut (unit facts,
/// replay, forced blockers) is timed whole, and its two parts apart; records
/// it does not settle take the full path (encode, lucky check or varisat,
/// replay check), timed over those records only. This table times the
/// pipeline's stages themselves, below the request layer, on purpose.
///
/// # Errors
/// A record that does not read back or replay, or that has no answer.
pub fn stages(
    records: &[Record],
    variant: Variant,
) -> Result<(StageMedians, FullPath), HarnessError> {
    let mut times = StageTimes::default();
    for record in records {
        times.time(record, variant)?;
    }
    let median = |i: usize| Summary::of(&times.stage[i]).median;
    let medians = StageMedians {
        parse: median(0),
        shortcut: median(1),
        output: median(2),
        whole: median(3),
        unit_facts: median(4),
        one_replay: median(5),
    };
    let full = &times.full_path;
    let full_path = FullPath {
        records: full.len(),
        median: (!full.is_empty()).then(|| Summary::of(full).median),
        mean_whole: Summary::of(&times.stage[3]).total / records.len().max(1) as u32,
    };
    Ok((medians, full_path))
}

/// The times of [`stages`]: parse, shortcut, output, whole record, then
/// the shortcut's parts (unit facts, one replay); and the full path of the
/// records the shortcut does not settle.
#[derive(Default)]
struct StageTimes {
    stage: [Vec<Duration>; 6],
    full_path: Vec<Duration>,
}

impl StageTimes {
    /// Times one record through every stage.
    fn time(&mut self, record: &Record, variant: Variant) -> Result<(), HarnessError> {
        use crate::encode::unit_facts;
        use crate::notation::{parse_records_with, Answer};
        use crate::replay::replay;
        use crate::solve::{solve_by_unit_facts, solve_with};
        let times = &mut self.stage;
        let text = variant.write_record(record);
        let whole = Instant::now();
        let started = Instant::now();
        let parsed = parse_records_with(&text, variant.geometry())?;
        let record = &parsed[0];
        times[0].push(started.elapsed());
        let started = Instant::now();
        let shortcut = solve_by_unit_facts(record, variant);
        times[1].push(started.elapsed());
        let answer = match shortcut {
            Some(answer) => answer,
            None => {
                let started = Instant::now();
                let Outcome::Solved(solution) = solve_with(record, Engine::Sat, variant)? else {
                    return Err(HarnessError::NoStartBoard);
                };
                self.full_path.push(started.elapsed());
                solution.answer
            }
        };
        let started = Instant::now();
        let printed = answer.to_string();
        times[2].push(started.elapsed());
        times[3].push(whole.elapsed());
        if printed.is_empty() {
            return Err(HarnessError::EmptyAnswer);
        }
        // The shortcut's parts, for the table only.
        let started = Instant::now();
        let facts = unit_facts(variant, record).map(|f| f.lucky_board(variant.topology()));
        times[4].push(started.elapsed());
        let Answer { start, .. } = answer;
        let started = Instant::now();
        replay(variant.rules(), &start, record)?;
        times[5].push(started.elapsed());
        std::hint::black_box(facts);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::generate::{fragments, FragmentStart};

    #[test]
    fn both_engines_solve_every_fragment_and_the_sources_add_up() {
        let records = fragments(5, 16, 2, FragmentStart::Random, Variant::English).unwrap();
        let table = engines(&records, Variant::English).unwrap();
        assert_eq!(table.rows.len(), 2);
        assert_eq!(table.rows[1].formula, None, "the DFS builds no formula");
        let s = table.sources;
        assert_eq!(s.records, 5);
        assert_eq!(s.unit_facts + s.lucky + s.varisat, 5);
        assert!(table.ratio.is_some_and(|r| r > 0.0));
        let (medians, full) = stages(&records, Variant::English).unwrap();
        assert!(medians.whole >= medians.parse);
        assert_eq!(full.records, 5 - s.unit_facts);
    }
}
