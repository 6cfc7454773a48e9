//! Raw arguments turned into a validated request before any work starts
//! (as ripgrep turns its low-level arguments into high-level ones): every
//! combination clap cannot check is refused here, once, with exit 2.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use postfacto::encode::BoardFacts;
use postfacto::request::{
    board_files, engine_with_limit, InputError, JudgeRequest, OptionsError, ReadAs, RepairLimits,
    RulesChoice, VerifyRequest,
};
use postfacto::solve::{Engine, Limit};

use super::against::outside_program;
use super::args::{
    Args, CnfArgs, Command, CompareArgs, EngineArg, FactArgs, LimitArg, PawnsArgs, RecordArgs,
    RulesArg, SolveArgs, VerifyArgs, VerifyFormatArg,
};
use super::settings::Settings;
use super::{fail, generate, Failure, Status};

/// What the command line asks for, checked.
pub enum Request {
    Solve {
        files: Vec<PathBuf>,
        settings: Arc<Settings>,
    },
    /// `verify INPUT ANSWER`: the library's request, its files read;
    /// `quiet`: no summary line.
    Verify {
        request: JudgeRequest,
        quiet: bool,
    },
    VerifyPdn {
        file: PathBuf,
        options: super::verify::PdnOptions,
    },
    Cnf {
        target: Target,
        output: Option<PathBuf>,
    },
    Decode {
        target: Target,
        model: PathBuf,
        /// Of `reach --cnf K`'s formula, not `cnf`'s.
        reach: Option<super::cnf::ReachModel>,
    },
    Moves {
        file: Option<PathBuf>,
        /// Named, or inferred from the board.
        rules: RulesChoice,
        turn: Option<super::args::TurnArg>,
    },
    Sat {
        file: Option<PathBuf>,
        limit: Option<Duration>,
        proof: Option<PathBuf>,
    },
    Generate(generate::Request),
    Pawns {
        file: Option<PathBuf>,
        settings: super::pawns::Settings,
    },
    Completions(clap_complete::Shell),
    Man(Option<String>),
    Compare {
        paths: Vec<PathBuf>,
        limit: Limit,
        rules: RulesChoice,
        against: Option<Vec<String>>,
        json: bool,
    },
    /// The benchmark, and whether its tables are JSON Lines.
    Bench(super::bench::Request, bool),
    Reach(super::reach::ReachCommand),
    Serve(super::serve::Request),
}

/// The rule choice of `--rules` for commands that read records or boards.
pub(super) fn rules_choice(rules: Option<RulesArg>) -> RulesChoice {
    match rules {
        None => RulesChoice::Default,
        Some(r) => r.variant().map_or(RulesChoice::Auto, RulesChoice::Given),
    }
}

impl Request {
    /// Checks the arguments and reads what they point at that every
    /// record shares (board facts).
    ///
    /// # Errors
    /// A combination of options that cannot be served (exit 2).
    pub fn from_args(args: Args) -> Result<Request, Failure> {
        Ok(match args.command {
            Command::Solve(args) => solve_request(args)?,
            Command::Verify(args) => verify_request(args)?,
            Command::Cnf(args) => cnf_request(args)?,
            Command::Decode(args) => {
                let model = ("MODEL", Some(args.model.as_path()));
                one_standard_input(&[("RECORD", Some(&args.file)), model])?;
                Request::Decode {
                    reach: super::cnf::ReachModel::of(&args),
                    target: Target::of(Some(args.file), args.record)?,
                    model: args.model,
                }
            }
            Command::Moves { file, rules, turn } => Request::Moves {
                file,
                rules: rules_choice(rules),
                turn,
            },
            Command::Sat { file, limit, proof } => Request::Sat { file, limit, proof },
            Command::Generate(args) => Request::Generate(generate::Request::from_args(args)?),
            Command::Pawns(args) => pawns_request(args),
            Command::Completions { shell } => Request::Completions(shell),
            Command::Man { command } => Request::Man(command),
            Command::Compare(args) => compare_request(args)?,
            Command::Bench(args) => {
                let json = args.format == super::args::VerifyFormatArg::Json;
                Request::Bench(super::bench::Request::from_args(args)?, json)
            }
            Command::Reach(args) => Request::Reach(super::reach::ReachCommand::from_args(args)?),
            Command::Serve(args) => Request::Serve(super::serve::Request::from_args(args)?),
        })
    }
}

fn solve_request(args: SolveArgs) -> Result<Request, Failure> {
    let from_stdin = args.files.is_empty() || args.files.iter().any(|f| f == Path::new("-"));
    one_standard_input(&[
        ("the records", from_stdin.then_some(Path::new("-"))),
        ("--start-board", args.facts.start_board.as_deref()),
        ("--end-board", args.facts.end_board.as_deref()),
    ])?;
    let (engine, time_limit) = engine_of(args.engine, args.limit)?;
    let rules = rules_choice(args.rules);
    let solver: Vec<String> = args.solver.split_whitespace().map(str::to_string).collect();
    let quiet = args.quiet;
    let solve = postfacto::request::SolveOptions {
        solver: (solver != ["varisat"]).then_some(solver),
        engine,
        time_limit,
        known: known_facts(&args.facts, rules)?,
        fragment: args.fragment,
        quiet,
        analyses: args.analysis.analyses(),
    };
    if args.arrows.is_some()
        && !matches!(args.format.format(), postfacto::output::Format::Svg { .. })
    {
        return Err(super::fail(
            Status::BadInput,
            "--arrows is for --format svg's pictures; other formats draw no arrows",
        ));
    }
    let settings = Settings {
        solve: Arc::new(solve),
        rules,
        short_captures: args.short_captures,
        format: match args.format.format() {
            postfacto::output::Format::Svg { .. } => postfacto::output::Format::Svg {
                arrows: args.arrows,
            },
            other => other,
        },
        out_dir: args.out,
        quiet,
    };
    settings.check()?;
    Ok(Request::Solve {
        files: args
            .files
            .into_iter()
            .filter(|f| f != Path::new("-"))
            .collect(),
        settings: Arc::new(settings),
    })
}

fn verify_request(args: VerifyArgs) -> Result<Request, Failure> {
    let rules = rules_choice(args.rules);
    let repair = args.repair.then_some(RepairLimits {
        max_edits: args.max_edits,
        limit: args.limit,
    });
    let pdn = match args.pdn {
        Some(Some(file)) => Some(file),
        // No file named: standard input.
        Some(None) => Some(args.input.clone().unwrap_or_else(|| PathBuf::from("-"))),
        None => None,
    };
    match (pdn, args.input, args.answer) {
        (Some(file), _, _) => Ok(Request::VerifyPdn {
            file,
            options: super::verify::PdnOptions {
                checks: VerifyRequest::new(Vec::new())
                    .rules(rules.given())
                    .strict(args.strict)
                    .legal(args.legal)
                    .limit(args.limit)
                    .repair(repair.map(|r| r.max_edits)),
                json: args.format == VerifyFormatArg::Json,
                quiet: args.quiet,
            },
        }),
        (None, Some(input), Some(answer)) => {
            refuse_pdn_only(args.legal, args.strict, args.format)?;
            one_standard_input(&[("INPUT", Some(&input)), ("ANSWER", Some(&answer))])?;
            // The answer's start, not the opening, is where the games start.
            let reading = ReadAs::as_written(rules, args.short_captures).repairing(args.repair);
            let request = JudgeRequest::new().repair(repair).limit(args.limit);
            Ok(Request::Verify {
                request: request.files(&input, &answer, reading)?,
                quiet: args.quiet,
            })
        }
        _ => Err(fail(
            Status::BadInput,
            "verify needs INPUT and ANSWER, or --pdn FILE",
        )),
    }
}

/// `verify INPUT ANSWER` refuses the options only a PDN file's games can
/// take, rather than run without them (a script asking for JSON would get
/// text and exit 0).
fn refuse_pdn_only(legal: bool, strict: bool, format: VerifyFormatArg) -> Result<(), Failure> {
    let named = [
        (legal, "--legal"),
        (strict, "--strict"),
        (format == VerifyFormatArg::Json, "--format json"),
    ]
    .into_iter()
    .find_map(|(given, name)| given.then_some(name));
    match named {
        Some(name) => Err(fail(
            Status::BadInput,
            format!("{name} applies to --pdn (a PDN file's games), not to INPUT and ANSWER"),
        )),
        None => Ok(()),
    }
}

/// One record of an input whose formula `cnf` writes and `decode` reads.
#[derive(Debug)]
pub struct Target {
    pub file: Option<PathBuf>,
    pub instance: Option<usize>,
    pub reading: ReadAs,
    pub known: BoardFacts,
    pub fragment: bool,
}

impl Target {
    fn of(file: Option<PathBuf>, args: RecordArgs) -> Result<Target, Failure> {
        let record = file.as_deref().unwrap_or(Path::new("-"));
        one_standard_input(&[
            ("the record", Some(record)),
            ("--start-board", args.facts.start_board.as_deref()),
            ("--end-board", args.facts.end_board.as_deref()),
        ])?;
        let rules = rules_choice(args.rules);
        let known = known_facts(&args.facts, rules)?;
        Ok(Target {
            file,
            instance: args.instance,
            // Read as `solve` reads it, so the formula is the one it solves.
            reading: ReadAs::as_written(rules, args.short_captures).solving(args.fragment, &known),
            known,
            fragment: args.fragment,
        })
    }
}

fn cnf_request(args: CnfArgs) -> Result<Request, Failure> {
    Ok(Request::Cnf {
        target: Target::of(args.file, args.record)?,
        output: args.output,
    })
}

fn pawns_request(args: PawnsArgs) -> Request {
    Request::Pawns {
        file: args.file,
        settings: super::pawns::Settings {
            limit: args.limit,
            engine: args.engine.engine(),
            cnf: args.cnf,
            at_most: args.at_most,
            board: args.board,
            proof: args.proof,
            stats: args.stats,
        },
    }
}

fn compare_request(args: CompareArgs) -> Result<Request, Failure> {
    let against = args.against.as_deref().map(super::against::command_words);
    if let Some(command) = &against {
        outside_program(command)?;
    }
    Ok(Request::Compare {
        paths: args.paths,
        limit: dfs_limit(args.limit),
        rules: rules_choice(args.rules),
        against,
        json: args.json,
    })
}

/// The engine the flags ask for, and the SAT engine's time limit (see
/// [`engine_with_limit`]).
fn engine_of(
    engine: EngineArg,
    limit: Option<LimitArg>,
) -> Result<(Engine, Option<Duration>), Failure> {
    engine_with_limit(engine.into(), dfs_limit(limit)).map_err(options)
}

/// Options that cannot be used together (exit 2).
fn options(error: OptionsError) -> Failure {
    Failure::request(None, InputError::from(error))
}

/// The DFS engine's limit from `--limit`.
pub fn dfs_limit(limit: Option<LimitArg>) -> Limit {
    match limit {
        None => Limit::default(),
        Some(LimitArg::Nodes(n)) => Limit {
            nodes: Some(n),
            time: None,
        },
        Some(LimitArg::Time(t)) => Limit {
            nodes: None,
            time: Some(t),
        },
    }
}

/// At most one of the named `inputs` is standard input (`-`): it is one
/// stream, and the second reader would find it empty or read the first's
/// text as its own.
///
/// # Errors
/// Two inputs named `-` (exit 2).
fn one_standard_input(inputs: &[(&str, Option<&Path>)]) -> Result<(), Failure> {
    let mut named = inputs
        .iter()
        .filter(|(_, path)| *path == Some(Path::new("-")))
        .map(|(name, _)| *name);
    match (named.next(), named.next()) {
        (Some(first), Some(second)) => Err(fail(
            Status::BadInput,
            format!(
                "{first} and {second} cannot both be standard input ('-'): name a file for one"
            ),
        )),
        _ => Ok(()),
    }
}

/// The facts `--start-board` and `--end-board` name. A fact file is a
/// board text, so its rule set must be known: named, or English by default.
fn known_facts(facts: &FactArgs, rules: RulesChoice) -> Result<BoardFacts, Failure> {
    if facts.start_board.is_none() && facts.end_board.is_none() {
        return Ok(BoardFacts::none());
    }
    let variant = rules
        .fixed()
        .ok_or(OptionsError::FactsNeedRules)
        .map_err(options)?;
    let (start, end) = (facts.start_board.as_deref(), facts.end_board.as_deref());
    Ok(board_files(start, end, variant)?)
}
