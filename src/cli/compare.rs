//! `postfacto compare`: both engines on every record; agreement and timings.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use postfacto::notation::{plural, Record};
use postfacto::request::first_solving;
use postfacto::rules::Variant;
use postfacto::solve::{Engine, Limit, Outcome, Reconstructor, SolveError};

use super::input::{
    read_input, read_items, read_records, record_files, Reader, Reading, RulesChoice,
};
use super::timing::{micros, Summary};
use super::{fail, Failure, Status};

fn verdict(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Solved(_) => "solved",
        Outcome::Impossible { .. } => "impossible",
        Outcome::GaveUp { .. } => "gave-up",
        _ => "unknown",
    }
}

fn timed(
    record: &Record,
    variant: Variant,
    engine: Engine,
) -> (Result<Outcome, SolveError>, Duration) {
    let started = Instant::now();
    let outcome = Reconstructor::new(variant).engine(engine).solve(record);
    (outcome, started.elapsed())
}

/// One record of a compared file: its name, rule set and moves.
struct Compared {
    name: String,
    variant: Variant,
    record: Record,
}

pub fn run(
    paths: &[PathBuf],
    limit: Limit,
    rules: RulesChoice,
    json: bool,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let w = |e: std::io::Error| super::write_err(e);
    let mut tally = Tally {
        status: Status::Ok,
        sat_times: Vec::new(),
        dfs_times: Vec::new(),
        compared: 0,
        disagreements: 0,
        gave_up: 0,
        not_english: 0,
    };
    if !json {
        writeln!(
            out,
            "{:<28} {:<13} {:>5} {:>10} {:>10} {:>10} {:>6}  verdict",
            "instance", "rules", "plies", "sat_us", "dfs_us", "dfs_nodes", "agree"
        )
        .map_err(w)?;
    }
    for file in record_files(paths)? {
        let Some(records) = readable(&file, rules, &mut tally.status) else {
            continue;
        };
        for compared in records {
            if let Some(row) = tally.compare(&compared, limit) {
                row.write(&compared, json, out).map_err(w)?;
            }
        }
    }
    if tally.compared == 0 {
        // Files that failed were reported already; say more only when there were none.
        return if tally.status == Status::Ok {
            Err(fail(Status::BadInput, "no records to compare"))
        } else {
            Ok(tally.status)
        };
    }
    tally.summary(json, out).map_err(w)?;
    if tally.disagreements > 0 {
        eprintln!(
            "postfacto: the engines DISAGREE on {} records (rows marked NO): this is a bug",
            tally.disagreements
        );
    }
    Ok(tally.status)
}

/// What `compare` has seen so far: the exit status, the engines' times and
/// the counts its summary line gives.
struct Tally {
    status: Status,
    sat_times: Vec<Duration>,
    dfs_times: Vec<Duration>,
    compared: usize,
    disagreements: usize,
    gave_up: usize,
    not_english: usize,
}

/// One record's row: both engines' verdicts and the DFS's figures (`-`
/// where it did not run).
struct Row {
    sat: &'static str,
    sat_time: Duration,
    dfs_us: String,
    nodes: String,
    agree: &'static str,
    dfs: &'static str,
}

impl Tally {
    /// Runs both engines on `c` and counts the result; `None` (reported,
    /// and the status an internal error) when an engine fails.
    fn compare(&mut self, c: &Compared, limit: Limit) -> Option<Row> {
        let (sat, sat_time) = timed(&c.record, c.variant, Engine::Sat);
        let sat = match sat {
            Ok(sat) => sat,
            Err(e) => return self.failed(&c.name, &e),
        };
        self.compared += 1;
        self.sat_times.push(sat_time);
        // The DFS engine knows some rule sets and whole moves only.
        // (PDN captures read short but written whole are whole moves.)
        let whole = !c.record.is_damaged() || c.record.as_written(c.variant.geometry()).is_some();
        let dfs =
            (c.variant.has_dfs() && whole).then(|| timed(&c.record, c.variant, Engine::Dfs(limit)));
        let (dfs, dfs_time) = match dfs {
            None | Some((Err(SolveError::Unsupported(_)), _)) => {
                self.not_english += 1;
                let none = "-".to_string();
                return Some(Row {
                    sat: verdict(&sat),
                    sat_time,
                    dfs_us: none.clone(),
                    nodes: none,
                    agree: "-",
                    dfs: "n/a",
                });
            }
            Some((Err(e), _)) => return self.failed(&c.name, &e),
            Some((Ok(dfs), dfs_time)) => (dfs, dfs_time),
        };
        self.dfs_times.push(dfs_time);
        let nodes = match &dfs {
            Outcome::Solved(s) => s.stats.nodes,
            Outcome::Impossible { stats, .. } | Outcome::GaveUp { stats, .. } => stats.nodes,
            _ => 0,
        };
        Some(Row {
            sat: verdict(&sat),
            sat_time,
            dfs_us: micros(dfs_time).to_string(),
            nodes: nodes.to_string(),
            agree: self.agreement(&sat, &dfs),
            dfs: verdict(&dfs),
        })
    }

    /// "yes", "NO" (a bug: the status becomes an internal error) or "-"
    /// when the DFS gave up.
    fn agreement(&mut self, sat: &Outcome, dfs: &Outcome) -> &'static str {
        if matches!(dfs, Outcome::GaveUp { .. }) {
            self.gave_up += 1;
            "-"
        } else if verdict(sat) == verdict(dfs) {
            "yes"
        } else {
            self.disagreements += 1;
            self.status = Status::Internal;
            "NO"
        }
    }

    /// Reports an engine's failure on `name`: an internal error.
    fn failed(&mut self, name: &str, e: &SolveError) -> Option<Row> {
        super::report(&format!("{name}: {e}"));
        self.status = Status::Internal;
        None
    }

    /// The engines' timing table and the counts (on stderr with `json`:
    /// JSON Lines carry the rows only).
    fn summary(&self, json: bool, out: &mut impl Write) -> std::io::Result<()> {
        let s = Summary::of(&self.sat_times);
        let d = (!self.dfs_times.is_empty()).then(|| Summary::of(&self.dfs_times));
        let mut table = Vec::new();
        let out: &mut dyn Write = if json { &mut table } else { out };
        writeln!(
            out,
            "\n{:<8} {:>10} {:>10} {:>10}",
            "engine", "median_us", "p90_us", "max_us"
        )?;
        for (engine, sum) in [("sat", Some(&s)), ("dfs", d.as_ref())] {
            let Some(sum) = sum else { continue };
            writeln!(
                out,
                "{engine:<8} {:>10} {:>10} {:>10}",
                micros(sum.median),
                micros(sum.p90),
                micros(sum.max)
            )?;
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
        writeln!(
            out,
            "{}; {ratio}; {} disagreements; dfs gave up on {}; dfs n/a (not English, or not whole moves) on {}",
            plural(self.compared, "record"),
            self.disagreements,
            self.gave_up,
            self.not_english
        )?;
        for line in String::from_utf8_lossy(&table)
            .lines()
            .filter(|l| !l.is_empty())
        {
            super::report(line);
        }
        Ok(())
    }
}

impl Row {
    /// The row of record `c`: a table line, or a JSON object with `json`.
    fn write(&self, c: &Compared, json: bool, out: &mut impl Write) -> std::io::Result<()> {
        let (name, dfs_us, nodes, agree, dfs) =
            (&c.name, &self.dfs_us, &self.nodes, self.agree, self.dfs);
        if json {
            let row = serde_json::json!({
                "instance": name,
                "rules": c.variant.name(),
                "plies": c.record.plies(),
                "sat_us": micros(self.sat_time).parse::<f64>().ok(),
                "dfs_us": dfs_us.parse::<f64>().ok(),
                "dfs_nodes": nodes.parse::<u64>().ok(),
                "agree": agree,
                "sat": self.sat,
                "dfs": dfs,
            });
            return writeln!(out, "{row}");
        }
        writeln!(
            out,
            "{name:<28} {:<13} {:>5} {:>10} {dfs_us:>10} {nodes:>10} {agree:>6}  sat {} / dfs {dfs}",
            c.variant.name(),
            c.record.plies(),
            micros(self.sat_time),
            self.sat,
        )
    }
}

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

/// `compare --against CMD`: whole-process timings and the judgement of the
/// command's answers, file by file (see [`super::against::run`]).
pub fn run_against(
    paths: &[PathBuf],
    command: &[String],
    json: bool,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let mut tables = super::tables::Tables::new(out, json);
    let mut status = Status::Ok;
    let mut files = 0;
    for file in record_files(paths)? {
        let Some(records) = english_records(&file, &mut status) else {
            continue;
        };
        files += 1;
        let passed = super::against::run(&file, &records, Variant::English, command, &mut tables)
            .map_err(|e| fail(Status::BadInput, e.to_string()))?;
        if !passed {
            status = status.max(Status::Rejected);
        }
    }
    if files == 0 && status == Status::Ok {
        return Err(fail(Status::BadInput, "no records to compare"));
    }
    Ok(status)
}

/// The records of `file` under `rules` (each PDN game under its own, the
/// first reading its moves solve under), or `None` after reporting why it
/// cannot be read (and marking `status` as bad input): `compare` goes on
/// with the others. Games without moves are left out; a game that cannot
/// be read is reported and left out.
fn readable(file: &Path, rules: RulesChoice, status: &mut Status) -> Option<Vec<Compared>> {
    let reading = Reading {
        rules,
        short_captures: false,
    };
    let items = match read_input(Some(file)).and_then(|input| read_items(&input, reading)) {
        Ok(items) => items,
        Err(failure) => {
            super::report(&failure.message);
            *status = (*status).max(Status::BadInput);
            return None;
        }
    };
    let count = items.iter().filter(|i| !i.no_moves).count();
    let mut records = Vec::new();
    for (i, item) in items.into_iter().filter(|i| !i.no_moves).enumerate() {
        let name = name_of(file, i, count);
        if let Some(error) = &item.error {
            super::report(&format!("{name}: line {}: {error}", item.line));
            *status = (*status).max(Status::BadInput);
            continue;
        }
        let solve = |r: &Reader| Reconstructor::new(r.variant).solve(&r.record);
        let chosen = first_solving(&item.readings, solve, None).map_or(0, |(i, _)| i);
        let Some(reader) = item.readings.into_iter().nth(chosen) else {
            continue;
        };
        records.push(Compared {
            name,
            variant: reader.variant,
            record: reader.record,
        });
    }
    Some(records)
}

/// The records of `file` read under English rules (the task's format, for
/// `--against`), or `None` after reporting why they cannot be read.
fn english_records(file: &Path, status: &mut Status) -> Option<Vec<Record>> {
    match read_input(Some(file)).and_then(|input| read_records(&input, Variant::English)) {
        Ok(records) => Some(records),
        Err(failure) => {
            super::report(&failure.message);
            *status = (*status).max(Status::BadInput);
            None
        }
    }
}
