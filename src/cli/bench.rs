//! `postfacto bench`: times engines on generated instances and prints a table.

use std::io::Write;
use std::time::{Duration, Instant};

use postfacto::hard::hard_instance;

use super::generate::GenerateError;
use super::tables::{Cell, Tables};
use super::timing::{micros, Summary};
use postfacto::notation::Record;
use postfacto::rules::Variant;
use postfacto::solve::{solve_with, Engine, Limit, Outcome, SolveError};

/// Why a bench table stopped: a record an engine should have solved and
/// did not, engines that disagree, or output that could not be written.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// An engine failed (a bug, or a limit).
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A generated record does not read back.
    #[error(transparent)]
    Parse(#[from] postfacto::notation::ParseRecordError),
    /// An answer does not replay.
    #[error(transparent)]
    Replay(#[from] postfacto::replay::ReplayError),
    /// A generated pawn board does not read back.
    #[error(transparent)]
    ParsePawns(#[from] postfacto::pawns::ParsePawnsError),
    /// A pawn engine failed.
    #[error(transparent)]
    Pawns(#[from] postfacto::pawns::PawnsError),
    /// The records could not be generated.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// A table or a temporary file could not be written.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// `--against`: the outside command failed (its harness's own words).
    #[error("{0}")]
    Against(super::against::AgainstError),
    /// A generated fragment (of a legal game) came out impossible.
    #[error("a generated fragment has no start board")]
    NoStartBoard,
    /// An answer printed as nothing.
    #[error("an empty answer")]
    EmptyAnswer,
    /// An engine left some fragments of legal games unsolved.
    #[error("{engine} engine solved only {solved} of {total} fragments")]
    EngineMissed {
        /// The engine's name.
        engine: &'static str,
        /// Fragments solved.
        solved: usize,
        /// Fragments in all.
        total: usize,
    },
    /// The hard family is empty.
    #[error("no hard member")]
    NoHardMember,
    /// The DFS did not solve a member of the hard family.
    #[error("the DFS did not solve hard member {0}")]
    DfsMissedHard(usize),
    /// A damaged fragment of a legal game got no answer.
    #[error("a damaged fragment of a legal game gave {outcome:?}:\n{record}")]
    DamagedUnsolved {
        /// What the engine gave.
        outcome: Box<Result<Outcome, SolveError>>,
        /// The damaged record.
        record: Box<Record>,
    },
    /// A pawn board does not read back as written.
    #[error("a {0} x {0} board does not read back")]
    PawnBoardDoesNotReadBack(usize),
    /// The pawn engines found different optima.
    #[error("the engines disagree on a {0} x {0} board")]
    PawnEnginesDisagree(usize),
    /// A misread record has no repair within the edits made to it.
    #[error("no repair within {edits} edits of\n{wrong}")]
    NoRepair {
        /// Edits allowed.
        edits: usize,
        /// The misread record.
        wrong: Box<Record>,
    },
}

/// Runs per engine per hard member (the table shows the median).
const HARD_RUNS: usize = 11;

/// Times `engine` on every record (whole `solve`: encode, solve, replay check).
pub fn time_engine(
    records: &[Record],
    engine: Engine,
    variant: Variant,
) -> Result<(Vec<Duration>, Vec<Outcome>), BenchError> {
    let mut times = Vec::with_capacity(records.len());
    let mut outcomes = Vec::with_capacity(records.len());
    for record in records {
        let started = Instant::now();
        let outcome = solve_with(record, engine, variant)?;
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
fn stages(records: &[Record], variant: Variant, tables: &mut Tables<'_>) -> Result<(), BenchError> {
    let mut times = StageTimes::default();
    for record in records {
        times.time(record, variant)?;
    }
    times.medians_note(tables)?;
    times.full_path_note(records.len(), tables)
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
    fn time(&mut self, record: &Record, variant: Variant) -> Result<(), BenchError> {
        use postfacto::encode::unit_facts;
        use postfacto::notation::{parse_records_with, Answer};
        use postfacto::replay::replay;
        use postfacto::solve::solve_by_unit_facts;
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
                    return Err(BenchError::NoStartBoard);
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
            return Err(BenchError::EmptyAnswer);
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

    /// The median of stage `i`.
    fn median(&self, i: usize) -> Duration {
        Summary::of(&self.stage[i]).median
    }

    /// The note of every stage's median.
    fn medians_note(&self, tables: &mut Tables<'_>) -> Result<(), BenchError> {
        let median = |i: usize| self.median(i);
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        tables.note(
            "sat_stages",
            &format!(
                "sat stages, median us: parse {} | shortcut {} (unit facts {}, one replay {}) | output {} || whole record {} | floor (parse + one replay) {}",
                micros(median(0)),
                micros(median(1)),
                micros(median(4)),
                micros(median(5)),
                micros(median(2)),
                micros(median(3)),
                micros(median(0) + median(5)),
            ),
            serde_json::json!({
                "parse_us": us(median(0)),
                "shortcut_us": us(median(1)),
                "unit_facts_us": us(median(4)),
                "one_replay_us": us(median(5)),
                "output_us": us(median(2)),
                "whole_record_us": us(median(3)),
            }),
        )?;
        Ok(())
    }

    /// The note of the full path, over the `records` records timed.
    fn full_path_note(&self, records: usize, tables: &mut Tables<'_>) -> Result<(), BenchError> {
        let full_path = &self.full_path;
        let full = if full_path.is_empty() {
            "none".to_string()
        } else {
            format!("{} us median", micros(Summary::of(full_path).median))
        };
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        let mean = Summary::of(&self.stage[3]).total / records.max(1) as u32;
        tables.note(
            "full_path",
            &format!(
                "full path (encode, lucky check or varisat, replay check) for the {} of {records} records the shortcut does not settle: {full}; mean whole record {} us",
                full_path.len(),
                micros(mean)
            ),
            serde_json::json!({
                "records": full_path.len(),
                "median_us": (!full_path.is_empty()).then(|| us(Summary::of(full_path).median)),
                "mean_whole_record_us": us(mean),
            }),
        )?;
        Ok(())
    }
}

/// `bench --against CMD`: the generated records written to one file, then
/// [`super::against::run`] on it.
pub fn run_against(
    count: usize,
    plies: usize,
    seed: u64,
    variant: Variant,
    command: &[String],
    tables: &mut Tables<'_>,
) -> Result<bool, BenchError> {
    let records =
        super::generate::fragments(count, plies, seed, super::args::FromArg::Random, variant)?;
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
/// the hard family; as text or JSON Lines.
pub fn run(
    count: usize,
    plies: usize,
    seed: u64,
    variant: Variant,
    tables: &mut Tables<'_>,
) -> Result<(), BenchError> {
    let records =
        super::generate::fragments(count, plies, seed, super::args::FromArg::Random, variant)?;
    engines_header(count, plies, seed, variant, tables)?;
    let mut medians = Vec::new();
    let (mut shortcut, mut lucky) = (0, 0);
    let engines = if variant.has_dfs() {
        vec![Engine::Sat, Engine::Dfs(Limit::default())]
    } else {
        vec![Engine::Sat]
    };
    for &engine in &engines {
        let (median, outcomes) = engine_row(&records, engine, variant, tables)?;
        medians.push(median);
        if engine == Engine::Sat {
            (shortcut, lucky) = sat_answer_sources(&outcomes);
        }
    }
    sat_answers_note(records.len(), shortcut, lucky, tables)?;
    if let [sat, dfs] = medians[..] {
        let ratio = sat.as_secs_f64() / dfs.as_secs_f64();
        tables.note(
            "sat_dfs_ratio",
            &format!("sat/dfs ratio of medians: {ratio:.2}"),
            serde_json::json!({"sat_dfs_ratio": (ratio * 100.0).round() / 100.0}),
        )?;
    }
    stages(&records, variant, tables)?;
    damaged(&records, variant, seed, tables)?;
    if variant != Variant::English {
        return Ok(());
    }
    hard_family(tables)
}

/// The engines table's section line and columns.
fn engines_header(
    count: usize,
    plies: usize,
    seed: u64,
    variant: Variant,
    tables: &mut Tables<'_>,
) -> Result<(), BenchError> {
    tables.section(
        "engines",
        &format!(
            "{count} random {} fragments of {plies} moves, seed {seed}",
            variant.name()
        ),
    )?;
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
    Ok(())
}

/// Times `engine` on every record, which it must all solve, and writes its
/// row; gives its median and its outcomes.
fn engine_row(
    records: &[Record],
    engine: Engine,
    variant: Variant,
    tables: &mut Tables<'_>,
) -> Result<(Duration, Vec<Outcome>), BenchError> {
    let (times, outcomes) = time_engine(records, engine, variant)?;
    let solved = outcomes
        .iter()
        .filter(|o| matches!(o, Outcome::Solved(_)))
        .count();
    if solved != records.len() {
        return Err(BenchError::EngineMissed {
            engine: engine.name(),
            solved,
            total: records.len(),
        });
    }
    let (vars, clauses) = match engine {
        Engine::Sat => formula_size(&outcomes),
        _ => (Cell::Missing, Cell::Missing),
    };
    let s = Summary::of(&times);
    tables.row(&[
        Cell::Text(engine.name().to_string()),
        Cell::micros(s.median),
        Cell::micros(s.p90),
        Cell::micros(s.p99),
        Cell::micros(s.max),
        Cell::Num(records.len() as f64 / s.total.as_secs_f64(), 0),
        vars,
        clauses,
    ])?;
    Ok((s.median, outcomes))
}

/// The mean size of the formulas the engine built: the records the unit
/// facts settled build none, and a mean over them said `clauses 2` where
/// 991 of 1,000 built no formula (issue 44, item 28). `-` when none did.
fn formula_size(outcomes: &[Outcome]) -> (Cell, Cell) {
    let built: Vec<_> = outcomes
        .iter()
        .filter_map(|o| match o {
            Outcome::Solved(s) if !s.stats.shortcut => Some(s.stats),
            _ => None,
        })
        .collect();
    if built.is_empty() {
        return (Cell::Missing, Cell::Missing);
    }
    let mean = |f: fn(&postfacto::solve::SolveStats) -> usize| {
        Cell::Int(built.iter().map(f).sum::<usize>() / built.len())
    };
    (mean(|s| s.vars), mean(|s| s.clauses))
}

/// How many SAT answers came from the unit facts, and how many more from
/// the lucky check.
fn sat_answer_sources(outcomes: &[Outcome]) -> (usize, usize) {
    let count = |test: fn(&postfacto::solve::SolveStats) -> bool| {
        outcomes
            .iter()
            .filter(|o| matches!(o, Outcome::Solved(s) if test(&s.stats)))
            .count()
    };
    (count(|s| s.shortcut), count(|s| s.lucky && !s.shortcut))
}

/// The note of where the SAT engine's `records` answers came from.
fn sat_answers_note(
    records: usize,
    shortcut: usize,
    lucky: usize,
    tables: &mut Tables<'_>,
) -> Result<(), BenchError> {
    let varisat = records - shortcut - lucky;
    tables.note(
        "sat_answers",
        &format!(
            "sat answers: {shortcut} of {records} from the unit facts (no formula built), {lucky} from the lucky check, {varisat} from varisat",
        ),
        serde_json::json!({"unit_facts": shortcut, "lucky": lucky, "varisat": varisat, "records": records}),
    )?;
    Ok(())
}

/// The hard family (`docs/hard-instances.md`): both engines on each
/// member, then the longest member 20 times over as one batch.
fn hard_family(tables: &mut Tables<'_>) -> Result<(), BenchError> {
    tables.section("hard", "hard family (docs/hard-instances.md)")?;
    tables.columns(&[
        ("K", 3),
        ("moves", 5),
        ("sat_us", 10),
        ("dfs_us", 10),
        ("dfs_nodes", 10),
        ("dfs/sat", 8),
    ])?;
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
            _ => return Err(BenchError::DfsMissedHard(k)),
        };
        let (sat, dfs) = (
            Summary::of(&sat_times).median,
            Summary::of(&dfs_times).median,
        );
        tables.row(&[
            Cell::Int(k),
            Cell::Int(record.moves.len()),
            Cell::micros(sat),
            Cell::micros(dfs),
            Cell::Int(usize::try_from(nodes).unwrap_or(usize::MAX)),
            Cell::Num(dfs.as_secs_f64() / sat.as_secs_f64(), 1),
        ])?;
    }
    // The hardest member 20 times over, as one batch: time per record.
    let hardest = (1..)
        .map_while(hard_instance)
        .max_by_key(|r| r.moves.len())
        .ok_or(BenchError::NoHardMember)?;
    let batch = vec![hardest; 20];
    let mut per_record = Vec::new();
    for engine in [Engine::Sat, Engine::Dfs(Limit::default())] {
        let (times, _) = time_engine(&batch, engine, Variant::English)?;
        let total: Duration = times.iter().sum();
        per_record.push(total / batch.len() as u32);
    }
    let (sat, dfs) = (micros(per_record[0]), micros(per_record[1]));
    tables
        .note(
            "hard_batch",
            &format!(
                "hard batch (20 copies of the longest member): sat {sat} us, dfs {dfs} us per record"
            ),
            serde_json::json!({
                "sat_us": per_record[0].as_secs_f64() * 1e6,
                "dfs_us": per_record[1].as_secs_f64() * 1e6,
            }),
        )
        .map_err(BenchError::Io)
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
    tables: &mut Tables<'_>,
) -> Result<(), BenchError> {
    use postfacto::random::{damage, Damage, Rng};
    let records = &records[..records.len().min(DAMAGED_RECORDS)];
    tables.section(
        "damaged",
        &format!(
            "damaged records: the first {} fragments with unknown moves ('?'), sat engine",
            records.len()
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
                    return Err(BenchError::DamagedUnsolved {
                        outcome: Box::new(other),
                        record: Box::new(record.clone()),
                    })
                }
            }
        }
        let s = Summary::of(&times);
        let per = solved.max(1);
        tables.row(&[
            Cell::Int(unknown_moves),
            Cell::micros(s.median),
            Cell::micros(s.p90),
            Cell::micros(s.max),
            Cell::Int(solved),
            Cell::Int(vars / per),
            Cell::Int(clauses / per),
        ])?;
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
pub fn run_pawns(seed: u64, tables: &mut Tables<'_>) -> Result<(), BenchError> {
    use postfacto::pawns::{PawnBoard, PawnEngine};
    use postfacto::random::Rng;
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
    let mut rng = Rng::new(seed);
    for (size, count, percent) in PAWN_BOARDS {
        let boards: Vec<PawnBoard> = (0..count)
            .map(|_| PawnBoard::random(size, percent, &mut rng))
            .collect();
        let parse = pawn_parse_median(&boards, size)?;
        let pawns = boards.iter().map(PawnBoard::pawn_count).sum::<usize>() / count;
        let mut optimum: Option<Vec<usize>> = None;
        let engines: &[PawnEngine] = if percent > 60 && size > 100 {
            &[PawnEngine::Matching]
        } else {
            &[PawnEngine::Matching, PawnEngine::Sat]
        };
        for &engine in engines {
            let (times, captures, calls) = time_pawn_engine(&boards, engine)?;
            match &optimum {
                Some(best) if *best != captures => {
                    return Err(BenchError::PawnEnginesDisagree(size))
                }
                _ => optimum = Some(captures.clone()),
            }
            let s = Summary::of(&times);
            tables.row(&[
                Cell::Int(size),
                Cell::Int(percent as usize),
                Cell::Int(count),
                Cell::Int(pawns),
                Cell::Int(captures.iter().sum::<usize>() / count),
                Cell::millis(parse),
                Cell::Text(engine.name().to_string()),
                Cell::millis(s.median),
                Cell::millis(s.max),
                Cell::Num(count as f64 / s.total.as_secs_f64(), 1),
                Cell::Int(calls / count),
            ])?;
        }
    }
    Ok(())
}

/// The median time to read each of `boards` (of side `size`) back from its
/// text, which must give the board again.
fn pawn_parse_median(
    boards: &[postfacto::pawns::PawnBoard],
    size: usize,
) -> Result<Duration, BenchError> {
    use postfacto::pawns::{format_pawn_boards, parse_pawn_boards};
    let mut parse_times = Vec::new();
    for board in boards {
        let text = format_pawn_boards(std::slice::from_ref(board));
        let started = Instant::now();
        let parsed = parse_pawn_boards(&text)?;
        parse_times.push(started.elapsed());
        if parsed[0] != *board {
            return Err(BenchError::PawnBoardDoesNotReadBack(size));
        }
    }
    Ok(Summary::of(&parse_times).median)
}

/// `engine` on each of `boards`: the times, the captures of each board,
/// and the solver calls in all.
fn time_pawn_engine(
    boards: &[postfacto::pawns::PawnBoard],
    engine: postfacto::pawns::PawnEngine,
) -> Result<(Vec<Duration>, Vec<usize>, usize), BenchError> {
    let mut times = Vec::new();
    let mut captures = Vec::new();
    let mut calls = 0;
    for board in boards {
        let started = Instant::now();
        let solution = postfacto::pawns::solve_pawns(board, engine)?;
        times.push(started.elapsed());
        captures.push(solution.captures.len());
        calls += solution.stats.solver_calls;
    }
    Ok((times, captures, calls))
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
                limit: args.limit.unwrap_or(reach_tables::BENCH_LIMIT),
                any: args.any,
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

    /// Runs the benchmark and prints its tables, as JSON Lines when `json`.
    pub fn run(self, json: bool, out: &mut impl Write) -> Result<super::Status, super::Failure> {
        use super::{fail, Status};
        let mut tables = Tables::new(out, json);
        let tables = &mut tables;
        match self {
            Request::Pawns { seed } => run_pawns(seed, tables)
                .map(|()| Status::Ok)
                .map_err(|e| fail(Status::Internal, e.to_string())),
            Request::Repair {
                count,
                seed,
                variant,
            } => run_repair(count, seed, variant, tables)
                .map(|()| Status::Ok)
                .map_err(|e| fail(Status::Internal, e.to_string())),
            Request::RepairGames { files, seed } => run_repair_games(&files, seed, tables),
            Request::Reach {
                files,
                count,
                seed,
                variant,
                limit,
                any,
            } => reach_tables::bench(&files, count, seed, variant, (limit, any), tables),
            // The outside command's failures are the user's to fix (2).
            Request::Fragments {
                count,
                plies,
                seed,
                variant,
                against: Some(command),
            } => run_against(count, plies, seed, variant, &command, tables)
                .map(|passed| if passed { Status::Ok } else { Status::Rejected })
                .map_err(|e| fail(Status::BadInput, e.to_string())),
            Request::Fragments {
                count,
                plies,
                seed,
                variant,
                against: None,
            } => run(count, plies, seed, variant, tables)
                .map(|()| Status::Ok)
                .map_err(|e| fail(Status::Internal, e.to_string())),
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
    tables: &mut Tables<'_>,
) -> Result<(), BenchError> {
    use postfacto::analysis::{Analysis, RepairOptions, RepairOutcome};
    use postfacto::random::Rng;
    tables.section(
        "repair",
        &format!(
            "--repair on {count} random {} fragments per row, seed {seed}: squares misread",
            variant.name()
        ),
    )?;
    tables.columns(&[
        ("plies", 6),
        ("edits", 6),
        ("median_ms", 10),
        ("p90_ms", 10),
        ("max_ms", 10),
        ("repaired", 9),
        ("fewer", 7),
    ])?;
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
                let outcome = Analysis::new(variant).repair(&wrong, options, &mut |_| {})?;
                times.push(started.elapsed());
                match outcome {
                    RepairOutcome::Repaired(found) => {
                        repaired += 1;
                        fewer += usize::from(found[0].edits.len() < edits);
                    }
                    RepairOutcome::NotNeeded(_) => fewer += 1,
                    RepairOutcome::NoneWithin(_) | RepairOutcome::Undecided { .. } => {
                        return Err(BenchError::NoRepair {
                            edits,
                            wrong: Box::new(wrong),
                        })
                    }
                }
            }
            let s = Summary::of(&times);
            let ms = |d: Duration| Cell::Num(d.as_secs_f64() * 1000.0, 1);
            tables.row(&[
                Cell::Int(plies),
                Cell::Int(edits),
                ms(s.median),
                ms(s.p90),
                ms(s.max),
                Cell::Int(repaired),
                Cell::Int(fewer),
            ])?;
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
    tables: &mut Tables<'_>,
) -> Result<super::Status, super::Failure> {
    let rows = time_repair_games(files, seed)?;
    repair_games_table(&rows, seed, tables)
}

/// The rows of [`run_repair_games`], by rule set and mistakes made.
type GameRows = std::collections::BTreeMap<(&'static str, usize), GameRow>;

/// Repairs every game of `files` that replays with 1, 2 and 3 mistakes.
fn time_repair_games(files: &[std::path::PathBuf], seed: u64) -> Result<GameRows, super::Failure> {
    use postfacto::archive::{reading, start_of, verify_games, Verdict, VerifyOptions};
    use postfacto::notation::games;
    let mut rows = GameRows::new();
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
                    .map_err(|e| super::fail(super::Status::Internal, e.to_string()))?;
            }
        }
    }
    Ok(rows)
}

/// The table of [`run_repair_games`].
fn repair_games_table(
    rows: &GameRows,
    seed: u64,
    tables: &mut Tables<'_>,
) -> Result<super::Status, super::Failure> {
    let w = super::write_err;
    tables
        .section(
            "repair_games",
            &format!(
                "--repair on real games with copyist's mistakes, from their start, seed {seed}"
            ),
        )
        .map_err(w)?;
    tables
        .columns(&[
            ("rules", 14),
            ("mistakes", 8),
            ("games", 6),
            ("median_ms", 10),
            ("p90_ms", 10),
            ("max_ms", 10),
            ("repaired", 9),
            ("fewer", 6),
            ("undecided", 9),
        ])
        .map_err(w)?;
    for ((rules, mistakes), row) in rows {
        let s = Summary::of(&row.times);
        let ms = |d: Duration| Cell::Num(d.as_secs_f64() * 1000.0, 1);
        tables
            .row(&[
                Cell::Text((*rules).to_string()),
                Cell::Int(*mistakes),
                Cell::Int(row.times.len()),
                ms(s.median),
                ms(s.p90),
                ms(s.max),
                Cell::Int(row.repaired),
                Cell::Int(row.fewer),
                Cell::Int(row.undecided),
            ])
            .map_err(w)?;
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
    ) -> Result<(), BenchError> {
        use postfacto::analysis::{Analysis, RepairOptions, RepairOutcome};
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
        let outcome = Analysis::new(variant)
            .facts(known)
            .repair(wrong, options, &mut |_| {})?;
        self.times.push(started.elapsed());
        match outcome {
            RepairOutcome::Repaired(found) => {
                self.repaired += 1;
                self.fewer += usize::from(found[0].edits.len() < mistakes);
            }
            RepairOutcome::NotNeeded(_) => self.fewer += 1,
            RepairOutcome::Undecided { .. } => self.undecided += 1,
            RepairOutcome::NoneWithin(_) => {
                return Err(BenchError::NoRepair {
                    edits: 3,
                    wrong: Box::new(wrong.clone()),
                })
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

/// `bench --reach`: the shortest games (and any games, `--any`) to the
/// positions real or random games reached.
mod reach_tables {
    use std::collections::BTreeMap;
    use std::path::PathBuf;
    use std::time::{Duration, Instant};

    use postfacto::board::{Board, PartialBoard};
    use postfacto::notation::{plural, MoveText, Record};
    use postfacto::reach::{Goal, Reach, ReachError, ReachOutcome};
    use postfacto::rules::Variant;

    use super::super::tables::{Cell, Tables};
    use super::super::timing::Summary;
    use super::super::{fail, write_err, Failure, Status};

    /// How long `bench --reach` gives each position.
    pub(super) const BENCH_LIMIT: Duration = Duration::from_secs(30);

    /// The plies after which `bench --reach` takes the position.
    const BENCH_PLIES: [usize; 8] = [4, 8, 12, 16, 20, 24, 30, 40];

    /// One row of the bench's table.
    #[derive(Default)]
    struct Row {
        times: Vec<Duration>,
        found: usize,
        shorter: usize,
        undecided: usize,
    }

    /// `bench --reach`: positions games reached after 4 to 40 plies (the
    /// games of `files` from the opening, else `count` random games of
    /// `variant`), each searched for its shortest game with a limit; a table by
    /// rule set and plies.
    pub(super) fn bench(
        files: &[PathBuf],
        count: usize,
        seed: u64,
        variant: Variant,
        (limit, any_only): (Duration, bool),
        tables: &mut Tables<'_>,
    ) -> Result<Status, Failure> {
        let games = if files.is_empty() {
            random_games(count, seed, variant)
        } else {
            archive_games(files, count)?
        };
        if any_only {
            return any_table(&games, limit, tables);
        }
        let mut rows: BTreeMap<(&'static str, usize), Row> = BTreeMap::new();
        for (variant, moves) in &games {
            for plies in BENCH_PLIES.into_iter().filter(|&n| n <= moves.len()) {
                let game = Record::new(variant.first_player(), moves[..plies].to_vec());
                let row = rows.entry((variant.name(), plies)).or_default();
                time_one(*variant, &game, limit, row)
                    .map_err(|e| fail(Status::Internal, e.to_string()))?;
            }
        }
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
        let title = format!(
            "reach: the shortest game to the position after N plies of {source}; {:.1} s each at most",
            limit.as_secs_f64()
        );
        tables.section("reach", &title).map_err(write_err)?;
        tables
            .columns(&[
                ("rules", 14),
                ("plies", 5),
                ("games", 6),
                ("median_ms", 10),
                ("p90_ms", 10),
                ("max_ms", 10),
                ("found", 6),
                ("shorter", 8),
                ("undecided", 9),
            ])
            .map_err(write_err)?;
        for ((rules, plies), row) in &rows {
            let s = Summary::of(&row.times);
            let ms = |d: Duration| Cell::Num(d.as_secs_f64() * 1000.0, 1);
            tables
                .row(&[
                    Cell::Text((*rules).to_string()),
                    Cell::Int(*plies),
                    Cell::Int(row.times.len()),
                    ms(s.median),
                    ms(s.p90),
                    ms(s.max),
                    Cell::Int(row.found),
                    Cell::Int(row.shorter),
                    Cell::Int(row.undecided),
                ])
                .map_err(write_err)?;
        }
        any_table(&games, limit, tables)
    }

    /// Why `bench --reach` stopped: a game that reached a position and a
    /// search that disagrees with it.
    #[derive(Debug, thiserror::Error)]
    enum ReachBenchError {
        /// The game itself does not replay.
        #[error(transparent)]
        Replay(#[from] postfacto::replay::ReplayError),
        /// The search could not be made.
        #[error(transparent)]
        Search(#[from] ReachError),
        /// The search's shortest game is longer than the game played.
        #[error(
            "a game of {played} plies reaches the position, but the shortest found has {found}"
        )]
        LongerThanPlayed {
            /// Plies of the game played.
            played: usize,
            /// Plies of the game found.
            found: usize,
        },
        /// The search calls a position a game reached unreachable.
        #[error("a position a game reached is called unreachable: {0}")]
        CalledUnreachable(String),
    }

    /// Searches the shortest game to where `game` ends, into `row`.
    fn time_one(
        variant: Variant,
        game: &Record,
        limit: Duration,
        row: &mut Row,
    ) -> Result<(), ReachBenchError> {
        let goal = goal_of(variant, game)?;
        let started = Instant::now();
        let outcome = Reach::new(variant)
            .deadline(Some(started + limit))
            .search(&goal, &mut |_| {})?;
        row.times.push(started.elapsed());
        match outcome {
            ReachOutcome::Found { game: found, .. } => {
                if found.record.moves.len() > game.moves.len() {
                    return Err(ReachBenchError::LongerThanPlayed {
                        played: game.moves.len(),
                        found: found.record.moves.len(),
                    });
                }
                row.found += 1;
                row.shorter += usize::from(found.record.moves.len() < game.moves.len());
            }
            ReachOutcome::Undecided { .. } => row.undecided += 1,
            ReachOutcome::Unreachable { reason, .. } => {
                return Err(ReachBenchError::CalledUnreachable(reason))
            }
        }
        Ok(())
    }

    /// `count` random games of 40 plies from the opening (played carefully).
    fn random_games(count: usize, seed: u64, variant: Variant) -> Vec<(Variant, Vec<MoveText>)> {
        use postfacto::random::{play_game, Play, Rng};
        let mut rng = Rng::new(seed);
        let opening = variant.topology().opening();
        (0..count)
            .map(|_| {
                let game = play_game(
                    variant.rules(),
                    &mut rng,
                    &opening,
                    variant.first_player(),
                    40,
                    Play::Careful,
                );
                (variant, game.moves)
            })
            .collect()
    }

    /// The games of `files` that start from the opening and replay, each with
    /// every move written out.
    fn archive_games(
        files: &[PathBuf],
        per_file: usize,
    ) -> Result<Vec<(Variant, Vec<MoveText>)>, Failure> {
        use postfacto::archive::{reading, verify_games, Verdict, VerifyOptions};
        let mut out = Vec::new();
        for file in files {
            let before = out.len();
            let input = super::super::input::read_input(Some(file))?;
            let text = input.pdn_text()?;
            let raw: Vec<_> = postfacto::notation::games(&text).collect();
            let reports = verify_games(&raw, VerifyOptions::default());
            for (game, report) in raw.iter().zip(&reports) {
                let (Verdict::Ok, Some(rules)) = (&report.verdict, &report.rules) else {
                    continue;
                };
                let variant = rules.variant;
                let Ok(read) = game.read(reading(variant)) else {
                    continue;
                };
                let start: Board = variant.topology().opening();
                let from_opening = read.fen.is_none_or(|(side, board)| {
                    side == variant.first_player() && board.with_topology(start.topology()) == start
                });
                if !from_opening || read.record.first != variant.first_player() {
                    continue;
                }
                if out.len() - before >= per_file {
                    break;
                }
                if let Ok((_, filled)) =
                    postfacto::replay::replay_filling(variant.rules(), &start, &read.record, None)
                {
                    out.push((variant, filled.moves));
                }
            }
        }
        Ok(out)
    }

    /// `bench --reach`'s `--any` table: the position at the end of each whole
    /// game, a game to it searched for with `--any` within `limit`.
    fn any_table(
        games: &[(Variant, Vec<MoveText>)],
        limit: Duration,
        tables: &mut Tables<'_>,
    ) -> Result<Status, Failure> {
        let mut rows: BTreeMap<&'static str, AnyRow> = BTreeMap::new();
        for (variant, moves) in games {
            let game = Record::new(variant.first_player(), moves.clone());
            let row = rows.entry(variant.name()).or_default();
            any_one(*variant, &game, limit, row)
                .map_err(|e| fail(Status::Internal, e.to_string()))?;
        }
        let title = format!(
            "reach --any: a game to the position at the end of each whole game; {:.1} s each at most",
            limit.as_secs_f64()
        );
        tables.section("reach-any", &title).map_err(write_err)?;
        tables
            .columns(&[
                ("rules", 14),
                ("games", 6),
                ("game_plies", 10),
                ("found_plies", 11),
                ("median_ms", 10),
                ("p90_ms", 10),
                ("max_ms", 10),
                ("found", 6),
                ("shorter", 8),
                ("longer", 7),
                ("undecided", 9),
            ])
            .map_err(write_err)?;
        for (rules, row) in &rows {
            let s = Summary::of(&row.times);
            let ms = |d: Duration| Cell::Num(d.as_secs_f64() * 1000.0, 1);
            let median = |v: &[usize]| {
                let mut v = v.to_vec();
                v.sort_unstable();
                v.get(v.len() / 2).copied().unwrap_or(0)
            };
            tables
                .row(&[
                    Cell::Text((*rules).to_string()),
                    Cell::Int(row.times.len()),
                    Cell::Int(median(&row.game_plies)),
                    Cell::Int(median(&row.found_plies)),
                    ms(s.median),
                    ms(s.p90),
                    ms(s.max),
                    Cell::Int(row.found_plies.len()),
                    Cell::Int(row.shorter),
                    Cell::Int(row.longer),
                    Cell::Int(row.undecided),
                ])
                .map_err(write_err)?;
        }
        Ok(Status::Ok)
    }

    /// One row of the `--any` table.
    #[derive(Default)]
    struct AnyRow {
        times: Vec<Duration>,
        game_plies: Vec<usize>,
        found_plies: Vec<usize>,
        shorter: usize,
        longer: usize,
        undecided: usize,
    }

    /// Searches any game to where `game` ends, into `row`.
    fn any_one(
        variant: Variant,
        game: &Record,
        limit: Duration,
        row: &mut AnyRow,
    ) -> Result<(), ReachBenchError> {
        let goal = goal_of(variant, game)?;
        let started = Instant::now();
        let outcome = Reach::new(variant)
            .any(true)
            .deadline(Some(started + limit))
            .search(&goal, &mut |_| {})?;
        row.times.push(started.elapsed());
        let played = game.moves.len();
        row.game_plies.push(played);
        match outcome {
            ReachOutcome::Found { game: found, .. } => {
                let plies = found.record.moves.len();
                row.found_plies.push(plies);
                row.shorter += usize::from(plies < played);
                row.longer += usize::from(plies > played);
            }
            ReachOutcome::Undecided { .. } => row.undecided += 1,
            ReachOutcome::Unreachable { reason, .. } => {
                return Err(ReachBenchError::CalledUnreachable(reason))
            }
        }
        Ok(())
    }

    /// The position where `game` (from the opening) ends, every square known.
    fn goal_of(variant: Variant, game: &Record) -> Result<Goal, ReachBenchError> {
        let start = variant.topology().opening();
        let end = postfacto::replay::replay(variant.rules(), &start, game)?;
        Ok(Goal {
            board: PartialBoard {
                board: end,
                known: variant.topology().all_bits(),
            },
            turn: game.mover(game.moves.len() + 1),
        })
    }
}
