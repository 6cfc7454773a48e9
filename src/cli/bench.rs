//! `postfacto bench`: checks the arguments, runs the harness
//! ([`postfacto::harness`]) and prints its tables.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use postfacto::harness::damaged::{damaged_rows, DamagedRow, DAMAGED_RECORDS};
use postfacto::harness::engines::{engines, stages, EnginesTable, FullPath, StageMedians};
use postfacto::harness::generate::{fragments, FragmentStart, MAX_COUNT, MAX_PLIES};
use postfacto::harness::hard::{hard_family, HardBatch, HardRow, BATCH};
use postfacto::harness::pawns::{pawn_rows, PawnRow};
use postfacto::harness::reach::{BENCH_LIMIT, REACH_GAMES};
use postfacto::harness::repair::{repair_games, repair_rows, GameFile, REPAIR_RECORDS};
use postfacto::harness::{HarnessError, Summary};
use postfacto::rules::Variant;

use super::tables::{Cell, Tables};
use super::timing::micros;
use super::{fail, write_err, Failure, Status};

/// Why a bench table stopped: the harness's reason, or output that could
/// not be written.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The harness stopped (a record not answered, engines that disagree).
    #[error(transparent)]
    Harness(#[from] HarnessError),
    /// A table or a temporary file could not be written.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// `--against`: the outside command failed (its harness's own words).
    #[error("{0}")]
    Against(postfacto::harness::against::AgainstError),
}

/// An internal error of `bench` (a harness that stopped on a bug).
fn internal(e: impl std::fmt::Display) -> Failure {
    fail(Status::Internal, e.to_string())
}

/// What `bench` was asked for, checked.
pub enum Request {
    /// Both pawn-puzzle engines.
    Pawns { seed: u64 },
    /// `--repair` on miswritten fragments.
    Repair {
        count: usize,
        seed: u64,
        variant: Variant,
    },
    /// `--repair --games`: real games with copyist's mistakes.
    RepairGames { files: Vec<PathBuf>, seed: u64 },
    /// `--reach`: shortest games to positions games reached.
    Reach {
        files: Vec<PathBuf>,
        count: usize,
        seed: u64,
        variant: Variant,
        limit: Duration,
        /// Only the `--any` table.
        any: bool,
    },
    /// The engines on random fragments, or against an outside command.
    Fragments {
        count: usize,
        plies: usize,
        seed: u64,
        variant: Variant,
        against: Option<Vec<String>>,
    },
}

impl Request {
    /// Checks `bench`'s arguments.
    pub fn from_args(args: super::args::BenchArgs) -> Result<Request, Failure> {
        let bad = |m: String| fail(Status::BadInput, m);
        let against = args.against.as_deref().map(super::against::command_words);
        if let Some(command) = &against {
            super::against::outside_program(command)?;
        }
        if args.pawns {
            return Ok(Request::Pawns { seed: args.seed });
        }
        if args.plies > MAX_PLIES || args.count > MAX_COUNT {
            return Err(bad(format!(
                "--plies is at most {MAX_PLIES} and --count at most {MAX_COUNT}"
            )));
        }
        if args.count == 0 || args.plies == 0 {
            return Err(bad("--count and --plies must be at least 1".into()));
        }
        let (variant, seed) = (args.rules.0, args.seed);
        if args.reach {
            return Ok(Request::Reach {
                files: args.games,
                count: args.count.min(REACH_GAMES),
                seed,
                variant,
                limit: args.limit.unwrap_or(BENCH_LIMIT),
                any: args.any,
            });
        }
        if !args.games.is_empty() && !args.repair {
            return Err(bad("--games goes with --repair or --reach".into()));
        }
        Ok(match (args.repair, args.games.is_empty()) {
            (true, false) => Request::RepairGames {
                files: args.games,
                seed,
            },
            (true, true) => Request::Repair {
                count: args.count.min(REPAIR_RECORDS),
                seed,
                variant,
            },
            (false, _) => Request::Fragments {
                count: args.count,
                plies: args.plies,
                seed,
                variant,
                against,
            },
        })
    }

    /// Runs the benchmark and prints its tables, as JSON Lines when `json`.
    pub fn run(self, json: bool, out: &mut impl Write) -> Result<Status, Failure> {
        let mut tables = Tables::new(out, json);
        let tables = &mut tables;
        match self {
            Request::Pawns { seed } => pawns_table(seed, tables).map_err(internal)?,
            Request::Repair {
                count,
                seed,
                variant,
            } => repair_table(count, seed, variant, tables).map_err(internal)?,
            Request::RepairGames { files, seed } => {
                let rows = repair_games(&game_files(&files)?, seed).map_err(internal)?;
                repair_games_table(&rows, seed, tables).map_err(write_err)?;
            }
            Request::Reach {
                files,
                count,
                seed,
                variant,
                limit,
                any,
            } => reach_tables::run(&files, count, seed, variant, (limit, any), tables)?,
            // The outside command's failures are the user's to fix (2).
            Request::Fragments {
                count,
                plies,
                seed,
                variant,
                against: Some(command),
            } => {
                let passed = run_against(count, plies, seed, variant, &command, tables)
                    .map_err(|e| fail(Status::BadInput, e.to_string()))?;
                if !passed {
                    return Ok(Status::Rejected);
                }
            }
            Request::Fragments {
                count,
                plies,
                seed,
                variant,
                against: None,
            } => main_tables(count, plies, seed, variant, tables).map_err(internal)?,
        }
        Ok(Status::Ok)
    }
}

/// The files of `--games`, read.
fn game_files(files: &[PathBuf]) -> Result<Vec<GameFile>, Failure> {
    let mut read = Vec::new();
    for file in files {
        let input = super::input::read_input(Some(file))?;
        read.push(GameFile {
            name: file.to_string_lossy().into_owned(),
            text: input.pdn_text()?.into_owned(),
        });
    }
    Ok(read)
}

/// `bench --against CMD`: the generated records written to one file, then
/// [`super::against::run`] on it.
fn run_against(
    count: usize,
    plies: usize,
    seed: u64,
    variant: Variant,
    command: &[String],
    tables: &mut Tables<'_>,
) -> Result<bool, BenchError> {
    let records = fragments(count, plies, seed, FragmentStart::Random, variant)
        .map_err(HarnessError::from)?;
    let mut file = tempfile::Builder::new()
        .prefix("postfacto-bench-")
        .suffix(".in")
        .tempfile()?;
    let text: String = records.iter().map(|r| variant.write_record(r)).collect();
    file.write_all(text.as_bytes())?;
    super::against::run(file.path(), &records, variant, command, tables)
        .map_err(BenchError::Against)
}

/// `bench`'s main tables: both engines on `count` random fragments of
/// `plies` plies, the SAT engine's stages, damaged fragments, and (English)
/// the hard family.
fn main_tables(
    count: usize,
    plies: usize,
    seed: u64,
    variant: Variant,
    tables: &mut Tables<'_>,
) -> Result<(), BenchError> {
    let records = fragments(count, plies, seed, FragmentStart::Random, variant)
        .map_err(HarnessError::from)?;
    tables.section(
        "engines",
        &format!(
            "{count} random {} fragments of {plies} moves, seed {seed}",
            variant.name()
        ),
    )?;
    engines_table(&engines(&records, variant)?, tables)?;
    let (medians, full_path) = stages(&records, variant)?;
    stages_notes(&medians, &full_path, records.len(), tables)?;
    damaged_table(
        records.len().min(DAMAGED_RECORDS),
        &damaged_rows(&records, variant, seed)?,
        tables,
    )?;
    if variant == Variant::English {
        let (rows, batch) = hard_family()?;
        hard_table(&rows, &batch, tables)?;
    }
    Ok(())
}

/// A row's times in microseconds: median, p90, max.
fn micros_cells(s: &Summary) -> [Cell; 3] {
    [
        Cell::micros(s.median),
        Cell::micros(s.p90),
        Cell::micros(s.max),
    ]
}

/// A row's times in milliseconds, one decimal: median, p90, max.
fn millis_cells(s: &Summary) -> [Cell; 3] {
    let ms = |d: Duration| Cell::Num(d.as_secs_f64() * 1000.0, 1);
    [ms(s.median), ms(s.p90), ms(s.max)]
}

/// The columns of a table of times in milliseconds: `lead`, the median,
/// p90 and max, then `tail`.
fn timed_columns(
    tables: &mut Tables<'_>,
    lead: &[(&'static str, usize)],
    tail: &[(&'static str, usize)],
) -> std::io::Result<()> {
    let millis = [("median_ms", 10), ("p90_ms", 10), ("max_ms", 10)];
    let columns: Vec<(&'static str, usize)> = [lead, &millis, tail].concat();
    tables.columns(&columns)
}

/// A row of such a table: `lead`, `times` in milliseconds, then `tail`.
fn timed_row(
    tables: &mut Tables<'_>,
    lead: Vec<Cell>,
    times: &Summary,
    tail: Vec<Cell>,
) -> std::io::Result<()> {
    let cells: Vec<Cell> = lead
        .into_iter()
        .chain(millis_cells(times))
        .chain(tail)
        .collect();
    tables.row(&cells)
}

/// The engines table's columns, a row per engine, and its notes.
fn engines_table(table: &EnginesTable, tables: &mut Tables<'_>) -> std::io::Result<()> {
    tables.columns(&[
        ("engine", 8),
        ("median_us", 10),
        ("p90_us", 10),
        ("p99_us", 10),
        ("max_us", 10),
        ("inst_per_s", 12),
        ("vars", 8),
        ("clauses", 8),
    ])?;
    for row in &table.rows {
        let (vars, clauses) = row
            .formula
            .map_or((Cell::Missing, Cell::Missing), |(v, c)| {
                (Cell::Int(v), Cell::Int(c))
            });
        let s = &row.times;
        tables.row(&[
            Cell::Text(row.engine.name().to_string()),
            Cell::micros(s.median),
            Cell::micros(s.p90),
            Cell::micros(s.p99),
            Cell::micros(s.max),
            Cell::Num(row.per_second, 0),
            vars,
            clauses,
        ])?;
    }
    let sources = &table.sources;
    let (records, shortcut, lucky, varisat) = (
        sources.records,
        sources.unit_facts,
        sources.lucky,
        sources.varisat,
    );
    tables.note(
        "sat_answers",
        &format!(
            "sat answers: {shortcut} of {records} from the unit facts (no formula built), {lucky} from the lucky check, {varisat} from varisat",
        ),
        serde_json::json!({"unit_facts": shortcut, "lucky": lucky, "varisat": varisat, "records": records}),
    )?;
    if let Some(ratio) = table.ratio {
        tables.note(
            "sat_dfs_ratio",
            &format!("sat/dfs ratio of medians: {ratio:.2}"),
            serde_json::json!({"sat_dfs_ratio": (ratio * 100.0).round() / 100.0}),
        )?;
    }
    Ok(())
}

/// Microseconds as a JSON number.
fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// The notes of the SAT engine's stages and of its full path.
fn stages_notes(
    m: &StageMedians,
    full: &FullPath,
    records: usize,
    tables: &mut Tables<'_>,
) -> std::io::Result<()> {
    tables.note(
        "sat_stages",
        &format!(
            "sat stages, median us: parse {} | shortcut {} (unit facts {}, one replay {}) | output {} || whole record {} | floor (parse + one replay) {}",
            micros(m.parse),
            micros(m.shortcut),
            micros(m.unit_facts),
            micros(m.one_replay),
            micros(m.output),
            micros(m.whole),
            micros(m.parse + m.one_replay),
        ),
        serde_json::json!({
            "parse_us": us(m.parse),
            "shortcut_us": us(m.shortcut),
            "unit_facts_us": us(m.unit_facts),
            "one_replay_us": us(m.one_replay),
            "output_us": us(m.output),
            "whole_record_us": us(m.whole),
        }),
    )?;
    let median = full.median.map_or_else(
        || "none".to_string(),
        |d| format!("{} us median", micros(d)),
    );
    tables.note(
        "full_path",
        &format!(
            "full path (encode, lucky check or varisat, replay check) for the {} of {records} records the shortcut does not settle: {median}; mean whole record {} us",
            full.records,
            micros(full.mean_whole)
        ),
        serde_json::json!({
            "records": full.records,
            "median_us": full.median.map(us),
            "mean_whole_record_us": us(full.mean_whole),
        }),
    )
}

/// The damaged-records table: `records` fragments per row.
fn damaged_table(
    records: usize,
    rows: &[DamagedRow],
    tables: &mut Tables<'_>,
) -> std::io::Result<()> {
    tables.section(
        "damaged",
        &format!(
            "damaged records: the first {records} fragments with unknown moves ('?'), sat engine",
        ),
    )?;
    tables.columns(&[
        ("unknown", 8),
        ("median_us", 10),
        ("p90_us", 10),
        ("max_us", 10),
        ("solved", 8),
        ("vars", 8),
        ("clauses", 9),
    ])?;
    for row in rows {
        let [median, p90, max] = micros_cells(&row.times);
        tables.row(&[
            Cell::Int(row.unknown_moves),
            median,
            p90,
            max,
            Cell::Int(row.solved),
            Cell::Int(row.vars),
            Cell::Int(row.clauses),
        ])?;
    }
    Ok(())
}

/// The hard family's table and the note of its batch.
fn hard_table(rows: &[HardRow], batch: &HardBatch, tables: &mut Tables<'_>) -> std::io::Result<()> {
    tables.section("hard", "hard family (docs/hard-instances.md)")?;
    tables.columns(&[
        ("K", 3),
        ("moves", 5),
        ("sat_us", 10),
        ("dfs_us", 10),
        ("dfs_nodes", 10),
        ("dfs/sat", 8),
    ])?;
    for row in rows {
        tables.row(&[
            Cell::Int(row.k),
            Cell::Int(row.moves),
            Cell::micros(row.sat),
            Cell::micros(row.dfs),
            Cell::Int(usize::try_from(row.dfs_nodes).unwrap_or(usize::MAX)),
            Cell::Num(row.dfs.as_secs_f64() / row.sat.as_secs_f64(), 1),
        ])?;
    }
    let (sat, dfs) = (micros(batch.sat), micros(batch.dfs));
    tables.note(
        "hard_batch",
        &format!(
            "hard batch ({BATCH} copies of the longest member): sat {sat} us, dfs {dfs} us per record"
        ),
        serde_json::json!({"sat_us": us(batch.sat), "dfs_us": us(batch.dfs)}),
    )
}

/// `bench --pawns`: both pawn engines on random boards.
fn pawns_table(seed: u64, tables: &mut Tables<'_>) -> Result<(), BenchError> {
    tables.section(
        "pawns",
        &format!("pawn puzzle: random N x N boards, seed {seed}"),
    )?;
    tables.columns(&[
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
    ])?;
    let rows: Vec<PawnRow> = pawn_rows(seed)?;
    for row in &rows {
        tables.row(&[
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
        ])?;
    }
    Ok(())
}

/// `bench --repair`: the table of misread fragments repaired.
fn repair_table(
    count: usize,
    seed: u64,
    variant: Variant,
    tables: &mut Tables<'_>,
) -> Result<(), BenchError> {
    tables.section(
        "repair",
        &format!(
            "--repair on {count} random {} fragments per row, seed {seed}: squares misread",
            variant.name()
        ),
    )?;
    timed_columns(
        tables,
        &[("plies", 6), ("edits", 6)],
        &[("repaired", 9), ("fewer", 7)],
    )?;
    for row in repair_rows(count, seed, variant)? {
        timed_row(
            tables,
            vec![Cell::Int(row.plies), Cell::Int(row.edits)],
            &row.times,
            vec![Cell::Int(row.repaired), Cell::Int(row.fewer)],
        )?;
    }
    Ok(())
}

/// `bench --repair --games`: the table by rule set and mistakes.
fn repair_games_table(
    rows: &[postfacto::harness::repair::GamesRow],
    seed: u64,
    tables: &mut Tables<'_>,
) -> std::io::Result<()> {
    tables.section(
        "repair_games",
        &format!("--repair on real games with copyist's mistakes, from their start, seed {seed}"),
    )?;
    timed_columns(
        tables,
        &[("rules", 14), ("mistakes", 8), ("games", 6)],
        &[("repaired", 9), ("fewer", 6), ("undecided", 9)],
    )?;
    for row in rows {
        timed_row(
            tables,
            vec![
                Cell::Text(row.rules.to_string()),
                Cell::Int(row.mistakes),
                Cell::Int(row.games),
            ],
            &row.times,
            vec![
                Cell::Int(row.repaired),
                Cell::Int(row.fewer),
                Cell::Int(row.undecided),
            ],
        )?;
    }
    Ok(())
}

/// `bench --reach`: the shortest games (and any games, `--any`) to the
/// positions real or random games reached.
mod reach_tables {
    use std::path::PathBuf;
    use std::time::Duration;

    use postfacto::harness::reach::{
        any_rows, archive_games, random_games, shortest_rows, AnyRow, ReachRow,
    };
    use postfacto::notation::plural;
    use postfacto::rules::Variant;

    use super::{internal, timed_columns, timed_row, write_err, Cell, Failure, Tables};

    /// Positions games reached after 4 to 40 plies (the games of `files`
    /// from the opening, else `count` random games of `variant`), each
    /// searched for its shortest game within `limit`, then (or only, with
    /// `any_only`) any game to where each whole game ends.
    pub(super) fn run(
        files: &[PathBuf],
        count: usize,
        seed: u64,
        variant: Variant,
        (limit, any_only): (Duration, bool),
        tables: &mut Tables<'_>,
    ) -> Result<(), Failure> {
        let games = if files.is_empty() {
            random_games(count, seed, variant)
        } else {
            archive_games(&super::game_files(files)?, count)
        };
        if !any_only {
            let rows = shortest_rows(&games, limit).map_err(internal)?;
            let source = if files.is_empty() {
                format!(
                    "{} random {} games, seed {seed}",
                    games.len(),
                    variant.name()
                )
            } else {
                format!(
                    "{} of {} from the opening",
                    plural(games.len(), "game"),
                    plural(files.len(), "file")
                )
            };
            shortest_table(&rows, &source, limit, tables).map_err(write_err)?;
        }
        let rows = any_rows(&games, limit).map_err(internal)?;
        any_table(&rows, limit, tables).map_err(write_err)
    }

    /// The table of shortest games, by rule set and plies.
    fn shortest_table(
        rows: &[ReachRow],
        source: &str,
        limit: Duration,
        tables: &mut Tables<'_>,
    ) -> std::io::Result<()> {
        let title = format!(
            "reach: the shortest game to the position after N plies of {source}; {:.1} s each at most",
            limit.as_secs_f64()
        );
        tables.section("reach", &title)?;
        timed_columns(
            tables,
            &[("rules", 14), ("plies", 5), ("games", 6)],
            &[("found", 6), ("shorter", 8), ("undecided", 9)],
        )?;
        for row in rows {
            timed_row(
                tables,
                vec![
                    Cell::Text(row.rules.to_string()),
                    Cell::Int(row.plies),
                    Cell::Int(row.games),
                ],
                &row.times,
                vec![
                    Cell::Int(row.found),
                    Cell::Int(row.shorter),
                    Cell::Int(row.undecided),
                ],
            )?;
        }
        Ok(())
    }

    /// The `--any` table, by rule set.
    fn any_table(rows: &[AnyRow], limit: Duration, tables: &mut Tables<'_>) -> std::io::Result<()> {
        let title = format!(
            "reach --any: a game to the position at the end of each whole game; {:.1} s each at most",
            limit.as_secs_f64()
        );
        tables.section("reach-any", &title)?;
        timed_columns(
            tables,
            &[
                ("rules", 14),
                ("games", 6),
                ("game_plies", 10),
                ("found_plies", 11),
            ],
            &[
                ("found", 6),
                ("shorter", 8),
                ("longer", 7),
                ("undecided", 9),
            ],
        )?;
        for row in rows {
            timed_row(
                tables,
                vec![
                    Cell::Text(row.rules.to_string()),
                    Cell::Int(row.games),
                    Cell::Int(row.game_plies),
                    Cell::Int(row.found_plies),
                ],
                &row.times,
                vec![
                    Cell::Int(row.found),
                    Cell::Int(row.shorter),
                    Cell::Int(row.longer),
                    Cell::Int(row.undecided),
                ],
            )?;
        }
        Ok(())
    }
}
