//! `postfacto bench`: times engines on generated instances and prints a table.

use std::io::Write;
use std::time::{Duration, Instant};

use postfacto::hard::hard_instance;
use postfacto::notation::Record;
use postfacto::rules::Variant;
use postfacto::solve::{solve_with, Engine, Limit, Outcome};

/// Runs per engine per hard member (the table shows the median).
const HARD_RUNS: usize = 11;

/// Summary statistics of a list of durations.
pub struct Summary {
    pub median: Duration,
    pub p90: Duration,
    pub p99: Duration,
    pub max: Duration,
    pub total: Duration,
}

impl Summary {
    pub fn of(times: &[Duration]) -> Summary {
        let mut sorted = times.to_vec();
        sorted.sort();
        let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
        Summary {
            median: at(0.5),
            p90: at(0.9),
            p99: at(0.99),
            max: *sorted.last().expect("at least one time"),
            total: sorted.iter().sum(),
        }
    }
}

/// Microseconds with one decimal, for tables.
pub fn micros(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e6)
}

/// Times `engine` on every record (whole `solve`: encode, solve, replay check).
pub fn time_engine(
    records: &[Record],
    engine: Engine,
    variant: Variant,
) -> Result<(Vec<Duration>, Vec<Outcome>), String> {
    let mut times = Vec::with_capacity(records.len());
    let mut outcomes = Vec::with_capacity(records.len());
    for record in records {
        let started = Instant::now();
        let outcome = solve_with(record, engine, variant).map_err(|e| e.to_string())?;
        times.push(started.elapsed());
        outcomes.push(outcome);
    }
    Ok((times, outcomes))
}

pub fn run(
    count: usize,
    plies: usize,
    seed: u64,
    variant: Variant,
    out: &mut impl Write,
) -> Result<(), String> {
    let records =
        super::generate::fragments(count, plies, seed, super::args::FromArg::Random, variant)?;
    writeln!(
        out,
        "# {count} random {} fragments of {plies} moves, seed {seed}",
        variant.name()
    )
    .map_err(|e| e.to_string())?;
    writeln!(
        out,
        "{:<8} {:>10} {:>10} {:>10} {:>10} {:>12} {:>8} {:>8}",
        "engine", "median_us", "p90_us", "p99_us", "max_us", "inst_per_s", "vars", "clauses"
    )
    .map_err(|e| e.to_string())?;
    let mut medians = Vec::new();
    let mut lucky = 0;
    // The DFS engine knows English only.
    let engines = match variant {
        Variant::English => vec![Engine::Sat, Engine::Dfs(Limit::default())],
        _ => vec![Engine::Sat],
    };
    for &engine in &engines {
        let (times, outcomes) = time_engine(&records, engine, variant)?;
        let solved = outcomes
            .iter()
            .filter(|o| matches!(o, Outcome::Solved(_)))
            .count();
        if solved != records.len() {
            return Err(format!(
                "{} engine solved only {solved} of {} fragments",
                engine.name(),
                records.len()
            ));
        }
        let (vars, clauses) = outcomes.iter().fold((0, 0), |(v, c), o| match o {
            Outcome::Solved(s) => (v + s.stats.vars, c + s.stats.clauses),
            _ => (v, c),
        });
        let s = Summary::of(&times);
        medians.push(s.median);
        writeln!(
            out,
            "{:<8} {:>10} {:>10} {:>10} {:>10} {:>12.0} {:>8} {:>8}",
            engine.name(),
            micros(s.median),
            micros(s.p90),
            micros(s.p99),
            micros(s.max),
            records.len() as f64 / s.total.as_secs_f64(),
            vars / records.len(),
            clauses / records.len()
        )
        .map_err(|e| e.to_string())?;
        if engine == Engine::Sat {
            lucky = outcomes
                .iter()
                .filter(|o| matches!(o, Outcome::Solved(s) if s.stats.lucky))
                .count();
        }
    }
    writeln!(
        out,
        "sat models from the lucky assignment: {lucky} of {} (the rest from varisat)",
        records.len()
    )
    .map_err(|e| e.to_string())?;
    if variant != Variant::English {
        return Ok(());
    }
    writeln!(
        out,
        "sat/dfs ratio of medians: {:.2}",
        medians[0].as_secs_f64() / medians[1].as_secs_f64()
    )
    .map_err(|e| e.to_string())?;
    writeln!(out, "\n# hard family (docs/hard-instances.md)").map_err(|e| e.to_string())?;
    writeln!(
        out,
        "{:<3} {:>5} {:>10} {:>10} {:>10} {:>8}",
        "K", "moves", "sat_us", "dfs_us", "dfs_nodes", "dfs/sat"
    )
    .map_err(|e| e.to_string())?;
    for k in 1.. {
        let Some(record) = hard_instance(k) else {
            break;
        };
        // Median of several runs: single runs of a few microseconds are noisy.
        let runs = vec![record.clone(); HARD_RUNS];
        let (sat_times, _) = time_engine(&runs, Engine::Sat, Variant::English)?;
        let (dfs_times, outcomes) =
            time_engine(&runs, Engine::Dfs(Limit::default()), Variant::English)?;
        let nodes = match &outcomes[0] {
            Outcome::Solved(s) => s.stats.nodes,
            _ => return Err(format!("the DFS did not solve hard member {k}")),
        };
        let (sat, dfs) = (
            Summary::of(&sat_times).median,
            Summary::of(&dfs_times).median,
        );
        writeln!(
            out,
            "{k:<3} {:>5} {:>10} {:>10} {:>10} {:>8.1}",
            record.moves.len(),
            micros(sat),
            micros(dfs),
            nodes,
            dfs.as_secs_f64() / sat.as_secs_f64()
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}
