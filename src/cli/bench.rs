//! `postfacto bench`: checks the arguments, runs the harness
//! ([`postfacto::harness`]) and prints its tables.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use postfacto::harness::against::AgainstError;
use postfacto::harness::bench;
use postfacto::harness::generate::{MAX_COUNT, MAX_PLIES};
use postfacto::harness::reach::{archive_games, random_games, BENCH_LIMIT, REACH_GAMES};
use postfacto::harness::repair::{repair_games, GameFile, REPAIR_RECORDS};
use postfacto::harness::table::Tables;
use postfacto::harness::HarnessError;
use postfacto::rules::Variant;

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
        let table = match self {
            Request::Pawns { seed } => bench::pawns_table(seed).map_err(internal)?,
            Request::Repair {
                count,
                seed,
                variant,
            } => bench::repair_table(count, seed, variant).map_err(internal)?,
            Request::RepairGames { files, seed } => {
                let rows = repair_games(&game_files(&files)?, seed).map_err(internal)?;
                bench::repair_games_table(&rows, seed)
            }
            Request::Reach {
                files,
                count,
                seed,
                variant,
                limit,
                any,
            } => return reach_tables(&files, (count, seed, variant), (limit, any), tables),
            // The outside command's failures are the user's to fix (2).
            Request::Fragments {
                count,
                plies,
                seed,
                variant,
                against: Some(command),
            } => {
                let passed = against_fragments(count, plies, seed, variant, &command, tables)
                    .map_err(|e| fail(Status::BadInput, e.to_string()))?;
                return Ok(if passed { Status::Ok } else { Status::Rejected });
            }
            Request::Fragments {
                count,
                plies,
                seed,
                variant,
                against: None,
            } => {
                let mut emit = |table| tables.write(&table).map_err(BenchError::from);
                bench::main_tables((count, plies, seed), variant, &mut emit).map_err(internal)?;
                return Ok(Status::Ok);
            }
        };
        tables.write(&table).map_err(write_err)?;
        Ok(Status::Ok)
    }
}
/// `bench --against CMD`: the harness's table of the generated records
/// against the command ([`bench::against_fragments_table`]), printed.
fn against_fragments(
    count: usize,
    plies: usize,
    seed: u64,
    variant: Variant,
    command: &[String],
    tables: &mut Tables<'_>,
) -> Result<bool, AgainstError> {
    let me = std::env::current_exe()?;
    let against = bench::against_fragments_table(&me, (count, plies, seed), variant, command);
    super::against::print(against, tables)
}

/// `bench --reach`: positions games reached after 4 to 40 plies (the games
/// of `files` from the opening, else `count` random games of `variant`),
/// each searched for its shortest game within `limit`, then (or only, with
/// `any_only`) any game to where each whole game ends.
fn reach_tables(
    files: &[PathBuf],
    (count, seed, variant): (usize, u64, Variant),
    (limit, any_only): (Duration, bool),
    tables: &mut Tables<'_>,
) -> Result<Status, Failure> {
    let games = if files.is_empty() {
        random_games(count, seed, variant)
    } else {
        archive_games(&game_files(files)?, count)
    };
    if !any_only {
        let source = bench::reach_source(games.len(), files.len(), seed, variant);
        let table = bench::shortest_table(&games, &source, limit).map_err(internal)?;
        tables.write(&table).map_err(write_err)?;
    }
    let table = bench::any_table(&games, limit).map_err(internal)?;
    tables.write(&table).map_err(write_err)?;
    Ok(Status::Ok)
}

/// The files of `--games`, read.
fn game_files(files: &[PathBuf]) -> Result<Vec<GameFile>, Failure> {
    let mut read = Vec::new();
    for file in files {
        let input = postfacto::request::Source::read(Some(file))?;
        read.push(GameFile {
            name: file.to_string_lossy().into_owned(),
            text: input.pdn_text()?.into_owned(),
        });
    }
    Ok(read)
}
