//! `postfacto bench`: times engines on generated instances and prints a table.

use std::io::Write;
use std::time::{Duration, Instant};

use postfacto::notation::Record;
use postfacto::random::{random_fragment, Rng};
use postfacto::rules::English;
use postfacto::solve::{solve, Engine, Outcome};

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

/// `count` fragments of exactly `plies` moves (seeded), from random boards.
pub fn fragments(count: usize, plies: usize, seed: u64) -> Vec<Record> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        if let Some((_, record)) = random_fragment(&English, &mut rng, 10, plies) {
            if record.moves.len() == plies {
                out.push(record);
            }
        }
    }
    out
}

/// Times `engine` on every record (whole `solve`: encode, solve, replay check).
pub fn time_engine(
    records: &[Record],
    engine: Engine,
) -> Result<(Vec<Duration>, Vec<Outcome>), String> {
    let mut times = Vec::with_capacity(records.len());
    let mut outcomes = Vec::with_capacity(records.len());
    for record in records {
        let started = Instant::now();
        let outcome = solve(record, engine).map_err(|e| e.to_string())?;
        times.push(started.elapsed());
        outcomes.push(outcome);
    }
    Ok((times, outcomes))
}

pub fn run(count: usize, plies: usize, seed: u64, out: &mut impl Write) -> Result<(), String> {
    let records = fragments(count, plies, seed);
    writeln!(
        out,
        "# {count} random fragments of {plies} moves, seed {seed}"
    )
    .map_err(|e| e.to_string())?;
    writeln!(
        out,
        "{:<8} {:>10} {:>10} {:>10} {:>10} {:>12} {:>8} {:>8}",
        "engine", "median_us", "p90_us", "p99_us", "max_us", "inst_per_s", "vars", "clauses"
    )
    .map_err(|e| e.to_string())?;
    for engine in [Engine::Sat] {
        let (times, outcomes) = time_engine(&records, engine)?;
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
    }
    Ok(())
}
