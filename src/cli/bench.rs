//! `postfacto bench`: times engines on generated instances and prints a table.

use std::io::Write;
use std::time::{Duration, Instant};

use postfacto::hard::hard_instance;

use super::timing::{micros, Summary};
use postfacto::notation::Record;
use postfacto::rules::Variant;
use postfacto::solve::{solve_with, Engine, Limit, Outcome};

/// Runs per engine per hard member (the table shows the median).
const HARD_RUNS: usize = 11;

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

/// The SAT engine's path through one record, stage by stage: what each
/// costs, and the floor (reading the record and replaying it once), which
/// every engine pays whatever it does in between. The shortcut (unit facts,
/// replay, forced blockers) is timed whole, and its two parts apart; records
/// it does not settle take the full path (encode, lucky check or varisat,
/// replay check), timed over those records only.
fn stages(records: &[Record], variant: Variant, out: &mut impl Write) -> Result<(), String> {
    use postfacto::encode::unit_facts;
    use postfacto::notation::{parse_records_with, Answer};
    use postfacto::replay::replay;
    use postfacto::solve::{solve_by_unit_facts, solve_with, Engine, Outcome};
    let rules = variant.rules();
    // parse, shortcut, output, whole record; then unit facts, one replay
    let mut times: [Vec<Duration>; 6] = Default::default();
    let mut full_path = Vec::new();
    for record in records {
        let text = if variant.algebraic() {
            record.algebraic()
        } else {
            record.to_string()
        };
        let whole = Instant::now();
        let started = Instant::now();
        let parsed = parse_records_with(&text, variant.geometry()).map_err(|e| e.to_string())?;
        let record = &parsed[0];
        times[0].push(started.elapsed());
        let started = Instant::now();
        let shortcut = solve_by_unit_facts(record, variant);
        times[1].push(started.elapsed());
        let answer = match shortcut {
            Some(answer) => answer,
            None => {
                let started = Instant::now();
                let Outcome::Solved(solution) =
                    solve_with(record, Engine::Sat, variant).map_err(|e| e.to_string())?
                else {
                    return Err("a generated fragment has no start board".into());
                };
                full_path.push(started.elapsed());
                solution.answer
            }
        };
        let started = Instant::now();
        let printed = answer.to_string();
        times[2].push(started.elapsed());
        times[3].push(whole.elapsed());
        if printed.is_empty() {
            return Err("an empty answer".into());
        }
        // The shortcut's parts, for the table only.
        let started = Instant::now();
        let facts = unit_facts(variant, record).map(|f| f.lucky_board(variant.topology()));
        times[4].push(started.elapsed());
        let Answer { start, .. } = answer;
        let started = Instant::now();
        replay(rules, &start, record).map_err(|e| e.to_string())?;
        times[5].push(started.elapsed());
        std::hint::black_box(facts);
    }
    let median = |i: usize| Summary::of(&times[i]).median;
    let full = if full_path.is_empty() {
        "none".to_string()
    } else {
        format!("{} us median", micros(Summary::of(&full_path).median))
    };
    let w = |e: std::io::Error| e.to_string();
    writeln!(
        out,
        "sat stages, median us: parse {} | shortcut {} (unit facts {}, one replay {}) | output {} || whole record {} | floor (parse + one replay) {}",
        micros(median(0)),
        micros(median(1)),
        micros(median(4)),
        micros(median(5)),
        micros(median(2)),
        micros(median(3)),
        micros(median(0) + median(5)),
    )
    .map_err(w)?;
    writeln!(
        out,
        "full path (encode, lucky check or varisat, replay check) for the {} of {} records the shortcut does not settle: {full}; mean whole record {} us",
        full_path.len(),
        records.len(),
        micros(Summary::of(&times[3]).total / records.len().max(1) as u32)
    )
    .map_err(w)
}

/// `bench --against CMD`: the generated records written to one file, then
/// [`super::against::run`] on it.
pub fn run_against(
    count: usize,
    plies: usize,
    seed: u64,
    variant: Variant,
    command: &[String],
    out: &mut impl Write,
) -> Result<bool, String> {
    let records =
        super::generate::fragments(count, plies, seed, super::args::FromArg::Random, variant)?;
    let mut file = tempfile::Builder::new()
        .prefix("postfacto-bench-")
        .suffix(".in")
        .tempfile()
        .map_err(|e| e.to_string())?;
    let text: String = records
        .iter()
        .map(|r| {
            if variant.algebraic() {
                r.algebraic()
            } else {
                r.to_string()
            }
        })
        .collect();
    file.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    super::against::run(file.path(), &records, variant, command, out)
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
    let (mut shortcut, mut lucky) = (0, 0);
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
            let count = |test: fn(&postfacto::solve::SolveStats) -> bool| {
                outcomes
                    .iter()
                    .filter(|o| matches!(o, Outcome::Solved(s) if test(&s.stats)))
                    .count()
            };
            shortcut = count(|s| s.shortcut);
            lucky = count(|s| s.lucky && !s.shortcut);
        }
    }
    writeln!(
        out,
        "sat answers: {shortcut} of {} from the unit facts (no formula built), {lucky} from the lucky check, {} from varisat",
        records.len(),
        records.len() - shortcut - lucky
    )
    .map_err(|e| e.to_string())?;
    stages(&records, variant, out)?;
    damaged(&records, variant, seed, out)?;
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
    // The hardest member 20 times over, as one batch: time per record.
    let hardest = (1..)
        .map_while(hard_instance)
        .max_by_key(|r| r.moves.len())
        .ok_or("no hard member")?;
    let batch = vec![hardest; 20];
    let mut per_record = Vec::new();
    for engine in [Engine::Sat, Engine::Dfs(Limit::default())] {
        let (times, _) = time_engine(&batch, engine, Variant::English)?;
        let total: Duration = times.iter().sum();
        per_record.push(total / batch.len() as u32);
    }
    writeln!(
        out,
        "hard batch (20 copies of the longest member): sat {} us, dfs {} us per record",
        micros(per_record[0]),
        micros(per_record[1])
    )
    .map_err(|e| e.to_string())?;
    Ok(())
}

/// Records per row of the damaged-records table (each takes milliseconds).
const DAMAGED_RECORDS: usize = 100;

/// The same fragments with 0, 1, 5 and 20 of their moves replaced by a
/// lone `?` (`shared/spec/damaged.md`), solved by the SAT engine: time per
/// record and the formula's size. Every one must be solved: a fragment of
/// a legal game that is not (impossible, undecided, an error) stops the
/// bench with the record.
fn damaged(
    records: &[Record],
    variant: Variant,
    seed: u64,
    out: &mut impl Write,
) -> Result<(), String> {
    use postfacto::random::{damage, Damage, Rng};
    let records = &records[..records.len().min(DAMAGED_RECORDS)];
    writeln!(
        out,
        "\n# damaged records: the first {} fragments with unknown moves ('?'), sat engine",
        records.len()
    )
    .map_err(|e| e.to_string())?;
    writeln!(
        out,
        "{:<8} {:>10} {:>10} {:>10} {:>8} {:>8} {:>9}",
        "unknown", "median_us", "p90_us", "max_us", "solved", "vars", "clauses"
    )
    .map_err(|e| e.to_string())?;
    for unknown_moves in [0, 1, 5, 20] {
        let mut rng = Rng::new(seed ^ 0xDA3A_6ED0);
        let spoilt: Vec<Record> = records
            .iter()
            .map(|r| {
                let damage_of = Damage {
                    unknown_moves,
                    ..Damage::default()
                };
                damage(r, &mut rng, damage_of)
            })
            .collect();
        let (mut times, mut solved, mut vars, mut clauses) = (Vec::new(), 0, 0, 0);
        for record in &spoilt {
            let started = Instant::now();
            let outcome = solve_with(record, Engine::Sat, variant);
            times.push(started.elapsed());
            match outcome {
                Ok(Outcome::Solved(s)) => {
                    solved += 1;
                    vars += s.stats.vars;
                    clauses += s.stats.clauses;
                }
                other => {
                    return Err(format!(
                        "a damaged fragment of a legal game gave {other:?}:\n{record}"
                    ))
                }
            }
        }
        let s = Summary::of(&times);
        let per = solved.max(1);
        writeln!(
            out,
            "{unknown_moves:<8} {:>10} {:>10} {:>10} {solved:>8} {:>8} {:>9}",
            micros(s.median),
            micros(s.p90),
            micros(s.max),
            vars / per,
            clauses / per
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Boards of the pawn benchmark: size, how many random boards, and the
/// percentage of squares with pawns (above about 60% the free pawns form
/// one giant connected part instead of many small ones, and the SAT engine
/// is left out above 100 x 100: from 200 x 200 its search there takes from
/// a second to minutes).
const PAWN_BOARDS: [(usize, usize, u32); 8] = [
    (8, 201, 50),
    (32, 201, 50),
    (100, 51, 50),
    (316, 11, 50),
    (700, 5, 50),
    (1000, 5, 50),
    (100, 51, 90),
    (1000, 5, 90),
];

/// `bench --pawns`: both pawn engines on random boards. The
/// engines must agree on every board's optimum; times are whole solves
/// (roles, engine, ordering and the replay check), parse times separate.
pub fn run_pawns(seed: u64, out: &mut impl Write) -> Result<(), String> {
    use postfacto::pawns::{
        format_pawn_boards, parse_pawn_boards, solve_pawns, PawnBoard, PawnEngine,
    };
    use postfacto::random::Rng;
    let w = |e: std::io::Error| e.to_string();
    writeln!(out, "# pawn puzzle: random N x N boards, seed {seed}").map_err(w)?;
    writeln!(
        out,
        "{:>5} {:>4} {:>6} {:>8} {:>9} {:>9} {:>9} {:>10} {:>10} {:>12} {:>10}",
        "N",
        "pct",
        "boards",
        "pawns",
        "captures",
        "parse_ms",
        "engine",
        "median_ms",
        "max_ms",
        "boards_per_s",
        "sat_calls"
    )
    .map_err(w)?;
    let mut rng = Rng::new(seed);
    for (size, count, percent) in PAWN_BOARDS {
        let boards: Vec<PawnBoard> = (0..count)
            .map(|_| PawnBoard::random(size, percent, &mut rng))
            .collect();
        let mut parse_times = Vec::new();
        for board in &boards {
            let text = format_pawn_boards(std::slice::from_ref(board));
            let started = Instant::now();
            let parsed = parse_pawn_boards(&text).map_err(|e| e.to_string())?;
            parse_times.push(started.elapsed());
            if parsed[0] != *board {
                return Err(format!("a {size} x {size} board does not read back"));
            }
        }
        let parse = Summary::of(&parse_times).median;
        let pawns = boards.iter().map(PawnBoard::pawn_count).sum::<usize>() / count;
        let mut optimum: Option<Vec<usize>> = None;
        let engines: &[PawnEngine] = if percent > 60 && size > 100 {
            &[PawnEngine::Matching]
        } else {
            &[PawnEngine::Matching, PawnEngine::Sat]
        };
        for &engine in engines {
            let mut times = Vec::new();
            let mut captures = Vec::new();
            let mut calls = 0;
            for board in &boards {
                let started = Instant::now();
                let solution = solve_pawns(board, engine).map_err(|e| e.to_string())?;
                times.push(started.elapsed());
                captures.push(solution.captures.len());
                calls += solution.stats.solver_calls;
            }
            match &optimum {
                Some(best) if *best != captures => {
                    return Err(format!("the engines disagree on a {size} x {size} board"))
                }
                _ => optimum = Some(captures.clone()),
            }
            let s = Summary::of(&times);
            writeln!(
                out,
                "{size:>5} {percent:>4} {count:>6} {pawns:>8} {:>9} {:>9.3} {:>9} {:>10.3} {:>10.3} {:>12.1} {:>10}",
                captures.iter().sum::<usize>() / count,
                parse.as_secs_f64() * 1e3,
                engine.name(),
                s.median.as_secs_f64() * 1e3,
                s.max.as_secs_f64() * 1e3,
                count as f64 / s.total.as_secs_f64(),
                calls / count
            )
            .map_err(w)?;
        }
    }
    Ok(())
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
    RepairGames {
        files: Vec<std::path::PathBuf>,
        seed: u64,
    },
    /// `--reach`: shortest games to positions games reached.
    Reach {
        files: Vec<std::path::PathBuf>,
        count: usize,
        seed: u64,
        variant: Variant,
        limit: std::time::Duration,
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
    pub fn from_args(args: super::args::BenchArgs) -> Result<Request, super::Failure> {
        let bad = |m: String| super::fail(super::Status::BadInput, m);
        let against = args.against.as_deref().map(super::against::command_words);
        if let Some(command) = &against {
            super::against::outside_program(command)?;
        }
        if args.pawns {
            return Ok(Request::Pawns { seed: args.seed });
        }
        let (max_plies, max_count) = (super::generate::MAX_PLIES, super::generate::MAX_COUNT);
        if args.plies > max_plies || args.count > max_count {
            return Err(bad(format!(
                "--plies is at most {max_plies} and --count at most {max_count}"
            )));
        }
        if args.count == 0 || args.plies == 0 {
            return Err(bad("--count and --plies must be at least 1".into()));
        }
        let variant = args.rules.0;
        if args.reach {
            return Ok(Request::Reach {
                files: args.games,
                count: args.count.min(REACH_GAMES),
                seed: args.seed,
                variant,
                limit: args.limit.unwrap_or(super::reach::BENCH_LIMIT),
            });
        }
        if !args.games.is_empty() && !args.repair {
            return Err(bad("--games goes with --repair or --reach".into()));
        }
        if args.repair && !args.games.is_empty() {
            return Ok(Request::RepairGames {
                files: args.games,
                seed: args.seed,
            });
        }
        if args.repair {
            return Ok(Request::Repair {
                count: args.count.min(REPAIR_RECORDS),
                seed: args.seed,
                variant,
            });
        }
        Ok(Request::Fragments {
            count: args.count,
            plies: args.plies,
            seed: args.seed,
            variant,
            against,
        })
    }

    /// Runs the benchmark and prints its tables.
    pub fn run(self, out: &mut impl Write) -> Result<super::Status, super::Failure> {
        use super::{fail, Status};
        match self {
            Request::Pawns { seed } => run_pawns(seed, out)
                .map(|()| Status::Ok)
                .map_err(|e| fail(Status::Internal, e)),
            Request::Repair {
                count,
                seed,
                variant,
            } => run_repair(count, seed, variant, out)
                .map(|()| Status::Ok)
                .map_err(|e| fail(Status::Internal, e)),
            Request::RepairGames { files, seed } => run_repair_games(&files, seed, out),
            Request::Reach {
                files,
                count,
                seed,
                variant,
                limit,
            } => super::reach::bench(&files, count, seed, variant, limit, out),
            // The outside command's failures are the user's to fix (2).
            Request::Fragments {
                count,
                plies,
                seed,
                variant,
                against: Some(command),
            } => run_against(count, plies, seed, variant, &command, out)
                .map(|passed| if passed { Status::Ok } else { Status::Rejected })
                .map_err(|e| fail(Status::BadInput, e)),
            Request::Fragments {
                count,
                plies,
                seed,
                variant,
                against: None,
            } => run(count, plies, seed, variant, out)
                .map(|()| Status::Ok)
                .map_err(|e| fail(Status::Internal, e)),
        }
    }
}

/// Random games of `bench --reach` (each gives a row's position).
const REACH_GAMES: usize = 20;

/// Records per row of the repair table (each may take seconds).
const REPAIR_RECORDS: usize = 20;

/// `bench --repair`: random fragments with `k` simple moves' destinations
/// misread as another neighbour of their origin, repaired with at most
/// `k` edits; time per record and how many needed fewer edits.
fn run_repair(
    count: usize,
    seed: u64,
    variant: Variant,
    out: &mut impl Write,
) -> Result<(), String> {
    use postfacto::analysis::{repair, RepairOptions, RepairOutcome};
    use postfacto::encode::BoardFacts;
    use postfacto::random::Rng;
    let w = |out: &mut dyn Write, line: String| writeln!(out, "{line}").map_err(|e| e.to_string());
    w(
        out,
        format!(
            "# --repair on {count} random {} fragments per row, seed {seed}: squares misread",
            variant.name()
        ),
    )?;
    w(
        out,
        format!(
            "{:<6} {:>6} {:>10} {:>10} {:>10} {:>9} {:>7}",
            "plies", "edits", "median_ms", "p90_ms", "max_ms", "repaired", "fewer"
        ),
    )?;
    for plies in [20, 50, 100] {
        let records =
            super::generate::fragments(count, plies, seed, super::args::FromArg::Random, variant)?;
        for edits in 1..=3 {
            let mut rng = Rng::new(seed ^ (plies * 10 + edits) as u64);
            let (mut times, mut repaired, mut fewer) = (Vec::new(), 0, 0);
            for record in &records {
                let wrong = misread(record, edits, &mut rng);
                let options = RepairOptions {
                    max_edits: edits,
                    ..RepairOptions::default()
                };
                let started = Instant::now();
                let outcome = repair(&wrong, variant, BoardFacts::none(), options)
                    .map_err(|e| e.to_string())?;
                times.push(started.elapsed());
                match outcome {
                    RepairOutcome::Repaired(found) => {
                        repaired += 1;
                        fewer += usize::from(found[0].edits.len() < edits);
                    }
                    RepairOutcome::NotNeeded(_) => fewer += 1,
                    RepairOutcome::NoneWithin(_) | RepairOutcome::Undecided { .. } => {
                        return Err(format!("no repair within {edits} edits of\n{wrong}"))
                    }
                }
            }
            let s = Summary::of(&times);
            let ms = |d: std::time::Duration| format!("{:.1}", d.as_secs_f64() * 1000.0);
            w(
                out,
                format!(
                    "{plies:<6} {edits:>6} {:>10} {:>10} {:>10} {repaired:>9} {fewer:>7}",
                    ms(s.median),
                    ms(s.p90),
                    ms(s.max)
                ),
            )?;
        }
    }
    Ok(())
}

/// The longest a game of `bench --repair --games` may take before it is
/// counted undecided.
const GAME_REPAIR_LIMIT: Duration = Duration::from_secs(60);

/// `bench --repair --games`: every game of `files` that replays, with 1,
/// 2 and 3 random copyist's mistakes, repaired (at most 3 edits) from its
/// known start; a table by rule set and mistakes.
fn run_repair_games(
    files: &[std::path::PathBuf],
    seed: u64,
    out: &mut impl Write,
) -> Result<super::Status, super::Failure> {
    use postfacto::archive::{reading, start_of, verify_games, Verdict, VerifyOptions};
    use postfacto::notation::games;
    use std::collections::BTreeMap;
    let mut rows: BTreeMap<(&'static str, usize), GameRow> = BTreeMap::new();
    for file in files {
        let input = super::input::read_input(Some(file))?;
        let text = input.pdn_text()?;
        let raw: Vec<_> = games(&text).collect();
        let reports = verify_games(&raw, VerifyOptions::default());
        for (number, (game, report)) in raw.iter().zip(&reports).enumerate() {
            let (Verdict::Ok, Some(rules)) = (&report.verdict, &report.rules) else {
                continue;
            };
            let variant = rules.variant;
            let Ok(read) = game.read(reading(variant)) else {
                continue;
            };
            if read.record.plies() < 4 {
                continue;
            }
            let start = start_of(&read, variant);
            for mistakes in 1..=3 {
                let mut rng = postfacto::random::Rng::new(
                    seed ^ ((number as u64) << 8) ^ (mistakes as u64) ^ file_salt(file),
                );
                let Some(wrong) = with_mistakes(&read.record, mistakes, &mut rng) else {
                    continue;
                };
                let row = rows.entry((variant.name(), mistakes)).or_default();
                row.time(&wrong, variant, start, mistakes)
                    .map_err(|e| super::fail(super::Status::Internal, e))?;
            }
        }
    }
    let w = |out: &mut dyn Write, line: String| writeln!(out, "{line}").map_err(super::write_err);
    w(
        out,
        format!("# --repair on real games with copyist's mistakes, from their start, seed {seed}"),
    )?;
    w(
        out,
        format!(
            "{:<14} {:>8} {:>6} {:>10} {:>10} {:>10} {:>9} {:>6} {:>9}",
            "rules",
            "mistakes",
            "games",
            "median_ms",
            "p90_ms",
            "max_ms",
            "repaired",
            "fewer",
            "undecided"
        ),
    )?;
    for ((rules, mistakes), row) in &rows {
        let s = Summary::of(&row.times);
        let ms = |d: Duration| format!("{:.1}", d.as_secs_f64() * 1000.0);
        w(
            out,
            format!(
                "{rules:<14} {mistakes:>8} {:>6} {:>10} {:>10} {:>10} {:>9} {:>6} {:>9}",
                row.times.len(),
                ms(s.median),
                ms(s.p90),
                ms(s.max),
                row.repaired,
                row.fewer,
                row.undecided
            ),
        )?;
    }
    Ok(super::Status::Ok)
}

/// A salt from a file's name, so that files draw different mistakes.
fn file_salt(file: &std::path::Path) -> u64 {
    file.to_string_lossy()
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)))
}

/// `record` with `mistakes` random copyist's mistakes.
fn with_mistakes(
    record: &Record,
    mistakes: usize,
    rng: &mut postfacto::random::Rng,
) -> Option<Record> {
    use postfacto::random::{miswrite, Mistake};
    let mut record = record.clone();
    for _ in 0..mistakes {
        let kind = Mistake::ALL[rng.below(Mistake::ALL.len())];
        record = miswrite(&record, kind, rng)?;
    }
    Some(record)
}

/// One row of the real games' table.
#[derive(Default)]
struct GameRow {
    times: Vec<Duration>,
    repaired: usize,
    fewer: usize,
    undecided: usize,
}

impl GameRow {
    fn time(
        &mut self,
        wrong: &Record,
        variant: Variant,
        start: postfacto::board::Board,
        mistakes: usize,
    ) -> Result<(), String> {
        use postfacto::analysis::{repair, RepairOptions, RepairOutcome};
        use postfacto::board::PartialBoard;
        use postfacto::encode::BoardFacts;
        let known = BoardFacts {
            start: Some(PartialBoard {
                board: start,
                known: variant.topology().all_bits(),
            }),
            end: None,
        };
        let started = Instant::now();
        let options = RepairOptions {
            deadline: Some(started + GAME_REPAIR_LIMIT),
            ..RepairOptions::default()
        };
        let outcome = repair(wrong, variant, known, options).map_err(|e| e.to_string())?;
        self.times.push(started.elapsed());
        match outcome {
            RepairOutcome::Repaired(found) => {
                self.repaired += 1;
                self.fewer += usize::from(found[0].edits.len() < mistakes);
            }
            RepairOutcome::NotNeeded(_) => self.fewer += 1,
            RepairOutcome::Undecided { .. } => self.undecided += 1,
            RepairOutcome::NoneWithin(_) => {
                return Err(format!("no repair within 3 edits of\n{wrong}"))
            }
        }
        Ok(())
    }
}

/// `record` with `edits` simple moves (or as many as it has) going to
/// another neighbour of their origin: a recorder's misread square.
fn misread(record: &Record, edits: usize, rng: &mut postfacto::random::Rng) -> Record {
    let mut moves = record.moves.clone();
    let mut simple: Vec<usize> = (0..moves.len())
        .filter(|&i| !moves[i].is_capture())
        .collect();
    for _ in 0..edits {
        if simple.is_empty() {
            break;
        }
        let i = simple.swap_remove(rng.below(simple.len()));
        if let Some(mv) = postfacto::random::misread_landing(&moves[i], rng) {
            moves[i] = mv;
        }
    }
    Record::new(record.first, moves)
}
