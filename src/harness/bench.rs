//! `bench`'s tables, each made from its harness's typed rows: the binary
//! chooses which to run and prints them ([`Table`] writes itself).

use std::path::Path;
use std::time::Duration;

use serde_json::json;

use crate::notation::{plural, Record};
use crate::rules::Variant;

use super::against::{time_against, Against, AgainstError, UnjudgedError};
use super::damaged::{damaged_rows, DamagedRow, DAMAGED_RECORDS};
use super::engines::{engines, stages, EnginesTable, FullPath, StageMedians};
use super::generate::{fragments, FragmentStart};
use super::hard::{hard_family, HardBatch, HardRow, BATCH};
use super::pawns::{pawn_rows, PawnRow};
use super::reach::{any_rows, shortest_rows, AnyRow, Game, ReachRow};
use super::repair::{repair_rows, GamesRow};
use super::table::{Cell, Table};
use super::{micros, HarnessError};

/// Microseconds as a JSON number.
fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// `bench`'s main tables, each given to `emit` as soon as it is made:
/// both engines on `count` random fragments of `plies` plies with the SAT
/// engine's stages, damaged fragments, and (English) the hard family.
///
/// # Errors
/// A harness that stops, or `emit`'s error.
pub fn main_tables<E: From<HarnessError>>(
    (count, plies, seed): (usize, usize, u64),
    variant: Variant,
    emit: &mut dyn FnMut(Table) -> Result<(), E>,
) -> Result<(), E> {
    let records = fragments(count, plies, seed, FragmentStart::Random, variant)
        .map_err(HarnessError::from)?;
    let title = format!(
        "{count} random {} fragments of {plies} moves, seed {seed}",
        variant.name()
    );
    let mut table = engines_table(title, &engines(&records, variant)?);
    let (medians, full_path) = stages(&records, variant)?;
    stages_notes(&mut table, &medians, &full_path, records.len());
    emit(table)?;
    let rows = damaged_rows(&records, variant, seed)?;
    emit(damaged_table(records.len().min(DAMAGED_RECORDS), &rows))?;
    if variant == Variant::English {
        let (rows, batch) = hard_family()?;
        emit(hard_table(&rows, &batch))?;
    }
    Ok(())
}

/// The engines table: a row per engine, and where the SAT engine's
/// answers came from.
fn engines_table(title: String, table: &EnginesTable) -> Table {
    let mut out = Table::new(
        "engines",
        title,
        &[
            ("engine", 8),
            ("median_us", 10),
            ("p90_us", 10),
            ("p99_us", 10),
            ("max_us", 10),
            ("inst_per_s", 12),
            ("vars", 8),
            ("clauses", 8),
        ],
    );
    for row in &table.rows {
        let (vars, clauses) = row
            .formula
            .map_or((Cell::Missing, Cell::Missing), |(v, c)| {
                (Cell::Int(v), Cell::Int(c))
            });
        let s = &row.times;
        out.rows.push(vec![
            Cell::Text(row.engine.name().to_string()),
            Cell::micros(s.median),
            Cell::micros(s.p90),
            Cell::micros(s.p99),
            Cell::micros(s.max),
            Cell::Num(row.per_second, 0),
            vars,
            clauses,
        ]);
    }
    let s = &table.sources;
    out.note(
        "sat_answers",
        format!(
            "sat answers: {} of {} from the unit facts (no formula built), {} from the lucky check, {} from varisat",
            s.unit_facts, s.records, s.lucky, s.varisat
        ),
        json!({"unit_facts": s.unit_facts, "lucky": s.lucky, "varisat": s.varisat, "records": s.records}),
    );
    if let Some(ratio) = table.ratio {
        out.note(
            "sat_dfs_ratio",
            format!("sat/dfs ratio of medians: {ratio:.2}"),
            json!({"sat_dfs_ratio": (ratio * 100.0).round() / 100.0}),
        );
    }
    out
}

/// The notes of the SAT engine's stages and of its full path.
fn stages_notes(table: &mut Table, m: &StageMedians, full: &FullPath, records: usize) {
    table.note(
        "sat_stages",
        format!(
            "sat stages, median us: parse {} | shortcut {} (unit facts {}, one replay {}) | output {} || whole record {} | floor (parse + one replay) {}",
            micros(m.parse),
            micros(m.shortcut),
            micros(m.unit_facts),
            micros(m.one_replay),
            micros(m.output),
            micros(m.whole),
            micros(m.parse + m.one_replay),
        ),
        json!({
            "parse_us": us(m.parse),
            "shortcut_us": us(m.shortcut),
            "unit_facts_us": us(m.unit_facts),
            "one_replay_us": us(m.one_replay),
            "output_us": us(m.output),
            "whole_record_us": us(m.whole),
        }),
    );
    let median = full.median.map_or_else(
        || "none".to_string(),
        |d| format!("{} us median", micros(d)),
    );
    table.note(
        "full_path",
        format!(
            "full path (encode, lucky check or varisat, replay check) for the {} of {records} records the shortcut does not settle: {median}; mean whole record {} us",
            full.records,
            micros(full.mean_whole)
        ),
        json!({
            "records": full.records,
            "median_us": full.median.map(us),
            "mean_whole_record_us": us(full.mean_whole),
        }),
    );
}

/// The damaged-records table: `records` fragments per row.
fn damaged_table(records: usize, rows: &[DamagedRow]) -> Table {
    let title = format!(
        "damaged records: the first {records} fragments with unknown moves ('?'), sat engine",
    );
    let columns = [
        ("unknown", 8),
        ("median_us", 10),
        ("p90_us", 10),
        ("max_us", 10),
        ("solved", 8),
        ("vars", 8),
        ("clauses", 9),
    ];
    let mut table = Table::new("damaged", title, &columns);
    for row in rows {
        table.rows.push(vec![
            Cell::Int(row.unknown_moves),
            Cell::micros(row.times.median),
            Cell::micros(row.times.p90),
            Cell::micros(row.times.max),
            Cell::Int(row.solved),
            Cell::Int(row.vars),
            Cell::Int(row.clauses),
        ]);
    }
    table
}

/// The hard family's table and the note of its batch.
fn hard_table(rows: &[HardRow], batch: &HardBatch) -> Table {
    let columns = [
        ("K", 3),
        ("moves", 5),
        ("sat_us", 10),
        ("dfs_us", 10),
        ("dfs_nodes", 10),
        ("dfs/sat", 8),
    ];
    let title = "hard family (docs/hard-instances.md)".to_string();
    let mut table = Table::new("hard", title, &columns);
    for row in rows {
        table.rows.push(vec![
            Cell::Int(row.k),
            Cell::Int(row.moves),
            Cell::micros(row.sat),
            Cell::micros(row.dfs),
            Cell::Int(usize::try_from(row.dfs_nodes).unwrap_or(usize::MAX)),
            Cell::Num(row.dfs.as_secs_f64() / row.sat.as_secs_f64(), 1),
        ]);
    }
    let (sat, dfs) = (micros(batch.sat), micros(batch.dfs));
    table.note(
        "hard_batch",
        format!(
            "hard batch ({BATCH} copies of the longest member): sat {sat} us, dfs {dfs} us per record"
        ),
        json!({"sat_us": us(batch.sat), "dfs_us": us(batch.dfs)}),
    );
    table
}

/// `bench --pawns`: both pawn engines on random boards.
///
/// # Errors
/// A pawn engine that fails or disagrees.
pub fn pawns_table(seed: u64) -> Result<Table, HarnessError> {
    let columns = [
        ("N", 5),
        ("pct", 4),
        ("boards", 6),
        ("pawns", 8),
        ("captures", 9),
        ("parse_ms", 9),
        ("engine", 9),
        ("median_ms", 10),
        ("max_ms", 10),
        ("boards_per_s", 12),
        ("sat_calls", 10),
    ];
    let title = format!("pawn puzzle: random N x N boards, seed {seed}");
    let mut table = Table::new("pawns", title, &columns);
    let rows: Vec<PawnRow> = pawn_rows(seed)?;
    for row in &rows {
        table.rows.push(vec![
            Cell::Int(row.size),
            Cell::Int(row.percent as usize),
            Cell::Int(row.boards),
            Cell::Int(row.pawns),
            Cell::Int(row.captures),
            Cell::millis(row.parse),
            Cell::Text(row.engine.name().to_string()),
            Cell::millis(row.times.median),
            Cell::millis(row.times.max),
            Cell::Num(row.per_second, 1),
            Cell::Int(row.solver_calls),
        ]);
    }
    Ok(table)
}

/// `bench --repair`: the table of misread fragments repaired.
///
/// # Errors
/// A repair that fails.
pub fn repair_table(count: usize, seed: u64, variant: Variant) -> Result<Table, HarnessError> {
    let title = format!(
        "--repair on {count} random {} fragments per row, seed {seed}: squares misread",
        variant.name()
    );
    let lead = [("plies", 6), ("edits", 6)];
    let mut table = Table::timed("repair", title, &lead, &[("repaired", 9), ("fewer", 7)]);
    for row in repair_rows(count, seed, variant)? {
        table.timed_row(
            vec![Cell::Int(row.plies), Cell::Int(row.edits)],
            &row.times,
            vec![Cell::Int(row.repaired), Cell::Int(row.fewer)],
        );
    }
    Ok(table)
}

/// `bench --repair --games`: the table by rule set and mistakes.
pub fn repair_games_table(rows: &[GamesRow], seed: u64) -> Table {
    let title =
        format!("--repair on real games with copyist's mistakes, from their start, seed {seed}");
    let lead = [("rules", 14), ("mistakes", 8), ("games", 6)];
    let tail = [("repaired", 9), ("fewer", 6), ("undecided", 9)];
    let mut table = Table::timed("repair_games", title, &lead, &tail);
    for row in rows {
        table.timed_row(
            vec![
                Cell::Text(row.rules.to_string()),
                Cell::Int(row.mistakes),
                Cell::Int(row.games),
            ],
            &row.times,
            counts(&[row.repaired, row.fewer, row.undecided]),
        );
    }
    table
}

/// A row's tallies (found, shorter, undecided, ...) as its last cells.
fn counts(counts: &[usize]) -> Vec<Cell> {
    counts.iter().map(|&n| Cell::Int(n)).collect()
}

/// `bench --reach`'s table of shortest games to the positions `games`
/// (described by `source`) reached, by rule set and plies, each searched
/// within `limit`.
///
/// # Errors
/// A search that fails (a bug).
pub fn shortest_table(
    games: &[Game],
    source: &str,
    limit: Duration,
) -> Result<Table, HarnessError> {
    let title = format!(
        "reach: the shortest game to the position after N plies of {source}; {:.1} s each at most",
        limit.as_secs_f64()
    );
    let lead = [("rules", 14), ("plies", 5), ("games", 6)];
    let tail = [("found", 6), ("shorter", 8), ("undecided", 9)];
    let mut table = Table::timed("reach", title, &lead, &tail);
    let rows: Vec<ReachRow> = shortest_rows(games, limit)?;
    for row in rows {
        table.timed_row(
            vec![
                Cell::Text(row.rules.to_string()),
                Cell::Int(row.plies),
                Cell::Int(row.games),
            ],
            &row.times,
            counts(&[row.found, row.shorter, row.undecided]),
        );
    }
    Ok(table)
}

/// `bench --reach`'s `--any` table: a game to where each whole game
/// ends, by rule set.
///
/// # Errors
/// A search that fails (a bug).
pub fn any_table(games: &[Game], limit: Duration) -> Result<Table, HarnessError> {
    let title = format!(
        "reach --any: a game to the position at the end of each whole game; {:.1} s each at most",
        limit.as_secs_f64()
    );
    let lead = [
        ("rules", 14),
        ("games", 6),
        ("game_plies", 10),
        ("found_plies", 11),
    ];
    let tail = [
        ("found", 6),
        ("shorter", 8),
        ("longer", 7),
        ("undecided", 9),
    ];
    let mut table = Table::timed("reach-any", title, &lead, &tail);
    let rows: Vec<AnyRow> = any_rows(games, limit)?;
    for row in rows {
        table.timed_row(
            vec![
                Cell::Text(row.rules.to_string()),
                Cell::Int(row.games),
                Cell::Int(row.game_plies),
                Cell::Int(row.found_plies),
            ],
            &row.times,
            counts(&[row.found, row.shorter, row.longer, row.undecided]),
        );
    }
    Ok(table)
}

/// `bench --reach`: where the positions come from, for the title.
pub fn reach_source(games: usize, files: usize, seed: u64, variant: Variant) -> String {
    if files == 0 {
        format!("{games} random {} games, seed {seed}", variant.name())
    } else {
        format!(
            "{} of {} from the opening",
            plural(games, "game"),
            plural(files, "file")
        )
    }
}

/// Times `me solve` (one thread, all cores) and `command` (the file's
/// path added last) on the records of `path`: the table of the three
/// timings with the judgement of the command's answers, and whether the
/// replayer accepted them all.
///
/// # Errors
/// A process that cannot be run or fails.
pub fn against_table(
    me: &Path,
    path: &Path,
    records: &[Record],
    variant: Variant,
    command: &[String],
) -> Result<(Table, bool), AgainstError> {
    let Against { times, verdicts } = time_against(me, path, records, variant, command)?;
    let mut table = timings(path, records.len(), &times);
    let passed = judgement(&mut table, path, records, verdicts);
    Ok((table, passed))
}

/// `bench --against`: `count` random fragments of `plies` plies (of
/// `seed`, under `variant`) written to a temporary file, then
/// [`against_table`] on it.
///
/// # Errors
/// The fragments cannot be generated or written, or a process fails.
pub fn against_fragments_table(
    me: &Path,
    (count, plies, seed): (usize, usize, u64),
    variant: Variant,
    command: &[String],
) -> Result<(Table, bool), AgainstError> {
    let records = fragments(count, plies, seed, FragmentStart::Random, variant)?;
    let mut file = tempfile::Builder::new()
        .prefix("postfacto-bench-")
        .suffix(".in")
        .tempfile()?;
    let text: String = records.iter().map(|r| variant.write_record(r)).collect();
    std::io::Write::write_all(&mut file, text.as_bytes())?;
    against_table(me, file.path(), &records, variant, command)
}

/// The table of the three timings (each command's name and best time) on
/// `path`'s `count` records, and the ratio of ours on one thread to the
/// outside command's.
fn timings(path: &Path, count: usize, times: &[(String, Duration); 3]) -> Table {
    let title = format!(
        "whole process, {} in {} (best of 3)",
        plural(count, "record"),
        path.display()
    );
    // As wide as the longest command, so that a long one keeps the columns.
    let width = times
        .iter()
        .map(|(name, _)| name.chars().count())
        .max()
        .unwrap_or(0)
        .max(40);
    let columns = [("command", width), ("seconds", 8), ("us_per_record", 13)];
    let mut table = Table::new("against", title, &columns);
    for (name, t) in times {
        table.rows.push(vec![
            Cell::Text(name.to_string()),
            Cell::Num(t.as_secs_f64(), 3),
            Cell::Num(t.as_secs_f64() * 1e6 / count.max(1) as f64, 1),
        ]);
    }
    let ratio = times[0].1.as_secs_f64() / times[2].1.as_secs_f64();
    table.note(
        "ratio",
        format!("ratio postfacto (1 thread) / outside command: {ratio:.2}"),
        json!({"ratio": (ratio * 100.0).round() / 100.0}),
    );
    table
}

/// The notes on the outside command's answers: how many the replayer
/// accepts and each it rejects, or why they could not be judged; whether
/// all were accepted.
fn judgement(
    table: &mut Table,
    path: &Path,
    records: &[Record],
    judged: Result<Vec<Option<String>>, UnjudgedError>,
) -> bool {
    let verdicts = match judged {
        Ok(verdicts) => verdicts,
        Err(why) => {
            let text = format!("outside command's answers not judged: {why}");
            let fields = json!({"accepted": null, "records": records.len()});
            table.note("judged", text, fields);
            return false;
        }
    };
    let accepted = verdicts.iter().filter(|v| v.is_none()).count();
    let text = format!(
        "outside command's answers accepted by the replayer: {accepted} of {}",
        records.len()
    );
    table.note(
        "judged",
        text,
        json!({"accepted": accepted, "records": records.len()}),
    );
    for (i, (record, why)) in records.iter().zip(&verdicts).enumerate() {
        let Some(why) = why else { continue };
        // Named as `verify` names it (`FILE: instance 2 (line 5): ...`).
        let name = match records.len() {
            1 => path.display().to_string(),
            _ => format!(
                "{}: instance {} (line {})",
                path.display(),
                i + 1,
                record.line
            ),
        };
        let text = format!("rejected: {name}: {}", crate::output::one_line(why));
        let fields = json!({
            "input": path.display().to_string(),
            "instance": i + 1,
            "line": record.line,
            "reason": why,
        });
        table.note("rejected", text, fields);
    }
    accepted == records.len()
}
