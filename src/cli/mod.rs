//! The binary's front end: arguments in, library calls, text and exit status out.
//! Errors are printed once to stderr as `postfacto: <message>`.

mod against;
mod args;
mod bench;
mod compare;
mod generate;
mod moves;
mod output;
mod pawns;
mod sat;
mod solve;
mod status;

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;

use postfacto::board::{Board, Color};
use postfacto::encode::dimacs_encoded;
use postfacto::notation::{
    looks_like_pdn, parse_answers_on, parse_pdn, parse_records_bytes_with, PdnGame, Record,
};
use postfacto::replay::judge;
use postfacto::replay::replay;
use postfacto::rules::Variant;
use postfacto::solve::Engine;

use args::{Args, Command, EngineArg, LimitArg};
use postfacto::solve::Limit as DfsLimit;
pub use status::Status;

/// A failure that ends the command: a message and a status.
#[derive(Debug)]
struct Failure {
    status: Status,
    message: String,
}

fn fail(status: Status, message: impl Into<String>) -> Failure {
    Failure {
        status,
        message: message.into(),
    }
}

/// Parses the command line, runs the command, maps the outcome to an exit code.
pub fn run() -> ExitCode {
    let args = Args::parse();
    let mut out = Guarded::new(io::BufWriter::new(io::stdout().lock()));
    let result = match args.command {
        Command::Sat { file, limit } => sat::run(file.as_deref(), limit, &mut out),
        Command::Solve {
            files,
            format,
            out: out_dir,
            solver,
            engine,
            limit,
            rules,
            quiet,
            facts,
            short_captures,
            analysis,
        } => engine_of(engine, limit).and_then(|(engine, time_limit)| {
            let variant = rules.variant();
            let known = known_facts(&facts, variant)?;
            let files: Vec<PathBuf> = files.into_iter().filter(|f| f != Path::new("-")).collect();
            let solver: Vec<String> = solver.split_whitespace().map(str::to_string).collect();
            let external = (solver != ["varisat"]).then_some(solver);
            let settings = std::sync::Arc::new(solve::Settings {
                solver: external,
                engine,
                variant: rules.variant(),
                options: analysis,
                format,
                out_dir,
                time_limit,
                quiet,
                known,
                short_captures,
            });
            solve::run(&files, &settings, &mut out)
        }),
        Command::Moves { file, rules, turn } => {
            moves::run(file.as_deref(), rules.variant(), turn, &mut out)
        }
        Command::Verify {
            input,
            answer,
            pdn,
            rules,
            short_captures,
        } => match (pdn, input, answer) {
            (Some(pdn), _, _) => cmd_verify_pdn(&pdn, rules.variant(), &mut out),
            (None, Some(input), Some(answer)) => cmd_verify(
                &input,
                &answer,
                reading(rules.variant(), short_captures),
                &mut out,
            ),
            _ => Err(fail(
                Status::BadInput,
                "verify needs INPUT and ANSWER, or --pdn FILE",
            )),
        },
        Command::Cnf {
            file,
            output,
            instance,
            rules,
            facts,
            short_captures,
        } => (|| {
            let variant = rules.variant();
            let known = known_facts(&facts, variant)?;
            cmd_cnf(
                file.as_deref(),
                output,
                instance,
                reading(variant, short_captures),
                known,
                &mut out,
            )
        })(),
        Command::Generate {
            plies,
            count,
            seed,
            from,
            hard,
            hard_search,
            beam,
            out: dir,
            rules,
            pawns,
            density,
            unknown_moves,
            unknown_squares,
            short_captures,
        } => {
            let variant = rules.variant();
            let damage = postfacto::random::Damage {
                unknown_moves,
                unknown_squares,
                short_captures,
            };
            match pawns {
                Some(size) => generate::pawn_boards(size, count, seed, density)
                    .map_err(|e| fail(Status::BadInput, e))
                    .and_then(|text| out.write_all(text.as_bytes()).map_err(write_err))
                    .map(|()| Status::Ok),
                None => {
                    let records = match hard {
                        _ if hard_search => generate::hard_search(beam),
                        Some(k) => generate::hard(k),
                        None if plies == 0 || count == 0 => {
                            Err("--plies and --count must be at least 1".into())
                        }
                        None if plies > generate::MAX_PLIES || count > generate::MAX_COUNT => {
                            Err(format!(
                                "--plies is at most {} and --count at most {} (generated records are held in memory)",
                                generate::MAX_PLIES,
                                generate::MAX_COUNT
                            ))
                        }
                        None => generate::fragments(count, plies, seed, from, variant)
                            .map(|records| generate::damaged(records, seed, damage)),
                    };
                    generate::run(records, variant, dir.as_deref(), &mut out)
                        .map(|()| Status::Ok)
                        .map_err(|e| fail(Status::BadInput, e))
                }
            }
        }
        Command::Pawns {
            file,
            engine,
            cnf,
            at_most,
            board,
            proof,
            stats,
            limit,
        } => {
            let settings = pawns::Settings {
                limit,
                engine: engine.engine(),
                cnf,
                at_most,
                board,
                proof,
                stats,
            };
            pawns::run(file.as_deref(), &settings, &mut out)
        }
        Command::Completions { shell } => {
            // Into a buffer first: clap_complete panics when its writer fails.
            let mut script = Vec::new();
            let mut command = <Args as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut command, "postfacto", &mut script);
            out.write_all(&script)
                .map(|()| Status::Ok)
                .map_err(write_err)
        }
        Command::Man => clap_mangen::Man::new(<Args as clap::CommandFactory>::command())
            .render(&mut out)
            .map(|()| Status::Ok)
            .map_err(write_err),
        Command::Compare {
            paths,
            limit,
            against,
        } => match against.as_deref().map(against::command_words) {
            None => compare::run(&paths, dfs_limit(limit), &mut out),
            Some(command) => outside_program(&command)
                .and_then(|()| compare::run_against(&paths, &command, &mut out)),
        },
        Command::Bench {
            count,
            plies,
            seed,
            rules,
            pawns,
            against,
        } => {
            let against = against.as_deref().map(against::command_words);
            if let Some(Err(failure)) = against.as_deref().map(outside_program) {
                Err(failure)
            } else if pawns {
                bench::run_pawns(seed, &mut out)
                    .map(|()| Status::Ok)
                    .map_err(|e| fail(Status::Internal, e))
            } else if plies > generate::MAX_PLIES || count > generate::MAX_COUNT {
                Err(fail(
                    Status::BadInput,
                    format!(
                        "--plies is at most {} and --count at most {}",
                        generate::MAX_PLIES,
                        generate::MAX_COUNT
                    ),
                ))
            } else if count == 0 || plies == 0 {
                Err(fail(
                    Status::BadInput,
                    "--count and --plies must be at least 1",
                ))
            } else if let Some(command) = against {
                // The outside command's failures are the user's to fix (2).
                bench::run_against(count, plies, seed, rules.variant(), &command, &mut out)
                    .map(|passed| if passed { Status::Ok } else { Status::Rejected })
                    .map_err(|e| fail(Status::BadInput, e))
            } else {
                bench::run(count, plies, seed, rules.variant(), &mut out)
                    .map(|()| Status::Ok)
                    .map_err(|e| fail(Status::Internal, e))
            }
        }
    };
    finish(result, out)
}

/// Flushes the output and turns the result into the exit code, printing
/// one line on stderr: the failure, or the output error that caused it (a
/// full disk is reported once, not once per failed write). A closed pipe
/// (`| head`) is not an error.
fn finish<W: Write>(result: Result<Status, Failure>, mut out: Guarded<W>) -> ExitCode {
    let _ = out.flush();
    let status = match (out.error.take(), result) {
        (Some(e), _) if e.kind() == io::ErrorKind::BrokenPipe => Status::Ok,
        (Some(e), result) => {
            report(&format!("cannot write output: {e}"));
            result.unwrap_or(Status::BadInput).max(Status::BadInput)
        }
        (None, Ok(status)) => status,
        (None, Err(failure)) => {
            report(&failure.message);
            failure.status
        }
    };
    status.into()
}

/// A writer that keeps its first error, so the error is reported once
/// however many writes fail after it.
struct Guarded<W> {
    inner: W,
    error: Option<io::Error>,
}

impl<W: Write> Guarded<W> {
    fn new(inner: W) -> Guarded<W> {
        Guarded { inner, error: None }
    }

    fn keep<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        if let Err(e) = &result {
            if self.error.is_none() {
                self.error = Some(io::Error::new(e.kind(), e.to_string()));
            }
        }
        result
    }
}

impl<W: Write> Write for Guarded<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let result = self.inner.write(buf);
        self.keep(result)
    }

    fn flush(&mut self) -> io::Result<()> {
        let result = self.inner.flush();
        self.keep(result)
    }
}

/// `text` with control characters and Unicode line separators escaped
/// (`\n`, `\u{b}`, `\u{2028}`), so a message that quotes input stays on one
/// line. Tabs are kept.
fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c != '\t' && (c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `program` names an existing file, directly or through `PATH`.
fn on_path(program: &str) -> bool {
    if program.contains('/') {
        return Path::new(program).is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// Prints `postfacto: <message>` on stderr, on one line whatever the message quotes.
fn report(message: &str) {
    eprintln!("postfacto: {}", one_line(message));
}

fn write_err(e: io::Error) -> Failure {
    fail(Status::BadInput, format!("cannot write output: {e}"))
}

/// A named input: its display name and bytes, or why it could not be read.
struct Input {
    name: String,
    bytes: Vec<u8>,
    error: Option<String>,
}

impl Input {
    /// The input as text; not UTF-8 is bad input, said with `what` ("the board").
    fn text(&self, what: &str) -> Result<&str, Failure> {
        std::str::from_utf8(&self.bytes).map_err(|_| {
            fail(
                Status::BadInput,
                format!("{}: {what} is not UTF-8 text", self.name),
            )
        })
    }
}

/// The largest input read (a file or standard input): 256 MiB, or
/// `POSTFACTO_MAX_INPUT` bytes. Everything read is held in memory, and the
/// parsed form takes a few times more, so a hostile input stops here.
fn max_input() -> u64 {
    std::env::var("POSTFACTO_MAX_INPUT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256 << 20)
}

/// Reads all of `reader`, refusing more than [`max_input`] bytes.
fn read_capped(reader: impl Read, name: &str) -> Result<Vec<u8>, Failure> {
    read_capped_sized(reader, name, 0)
}

/// [`read_capped`] with room for `expected` bytes from the start (a file's
/// size): a large batch is then read without copying it as it grows.
fn read_capped_sized(reader: impl Read, name: &str, expected: u64) -> Result<Vec<u8>, Failure> {
    let limit = max_input();
    let room = usize::try_from(expected.min(limit).saturating_add(1)).unwrap_or(0);
    let mut bytes = Vec::with_capacity(room);
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| fail(Status::BadInput, format!("cannot read {name}: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(fail(
            Status::BadInput,
            format!("{name} is larger than the input limit of {limit} bytes (POSTFACTO_MAX_INPUT)"),
        ));
    }
    Ok(bytes)
}

/// A `--start-board` or `--end-board` file: what is known of that board.
/// A start fact must obey the start rules (no man on its crowning row).
/// The facts `--start-board` and `--end-board` name, read under `variant`.
fn known_facts(
    facts: &args::FactArgs,
    variant: Variant,
) -> Result<postfacto::encode::BoardFacts, Failure> {
    Ok(postfacto::encode::BoardFacts {
        start: board_facts(facts.start_board.as_deref(), variant, true)?,
        end: board_facts(facts.end_board.as_deref(), variant, false)?,
    })
}

fn board_facts(
    path: Option<&Path>,
    variant: Variant,
    start: bool,
) -> Result<Option<postfacto::board::PartialBoard>, Failure> {
    let Some(path) = path else {
        return Ok(None);
    };
    let input = read_input(Some(path))?;
    let text = input.text("the board")?;
    let facts =
        postfacto::notation::parse_partial_board_on(text, variant.topology()).map_err(|e| {
            fail(
                Status::BadInput,
                format!("{}: line {}: {}", input.name, e.line, e.message),
            )
        })?;
    if start {
        if let Some(problem) = variant.rules().start_problems(&facts.board).first() {
            return Err(fail(
                Status::BadInput,
                format!("{}: not a start board: {problem}", input.name),
            ));
        }
    }
    Ok(Some(facts))
}

/// Checks that an outside command (`--against`) names a program that exists.
fn outside_program(command: &[String]) -> Result<(), Failure> {
    match command.first() {
        Some(program) if on_path(program) => Ok(()),
        program => Err(fail(
            Status::BadInput,
            format!(
                "--against: cannot find the program '{}'",
                program.map_or("", String::as_str)
            ),
        )),
    }
}

fn read_input(path: Option<&Path>) -> Result<Input, Failure> {
    match path {
        None => read_stdin(),
        Some(p) if p == Path::new("-") => read_stdin(),
        Some(p) => {
            let name = format!("'{}'", p.display());
            let file = fs::File::open(p)
                .map_err(|e| fail(Status::BadInput, format!("cannot read {name}: {e}")))?;
            let size = file.metadata().map_or(0, |m| m.len());
            Ok(Input {
                name: p.display().to_string(),
                bytes: read_capped_sized(file, &name, size)?,
                error: None,
            })
        }
    }
}

fn read_stdin() -> Result<Input, Failure> {
    Ok(Input {
        name: "<stdin>".to_string(),
        bytes: read_capped(io::stdin(), "standard input")?,
        error: None,
    })
}

/// How records are read: under a rule set, captures written short or not.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reading {
    pub variant: Variant,
    pub short_captures: bool,
}

/// The reading of `--rules` and `--short-captures`.
pub(crate) fn reading(variant: Variant, short_captures: bool) -> Reading {
    Reading {
        variant,
        short_captures,
    }
}

impl From<Variant> for Reading {
    fn from(variant: Variant) -> Reading {
        reading(variant, false)
    }
}

fn read_records(input: &Input, reading: impl Into<Reading>) -> Result<Vec<Record>, Failure> {
    read_records_with_starts(input, reading.into()).map(|(records, _)| records)
}

/// [`read_records`], with the start board a PDN game's `[FEN]` pins, per record.
fn read_records_with_starts(
    input: &Input,
    reading: Reading,
) -> Result<(Vec<Record>, Vec<Option<Board>>), Failure> {
    let variant = reading.variant;
    if let Some(error) = &input.error {
        return Err(fail(Status::BadInput, error.clone()));
    }
    if let Some(games) = read_pdn(input, variant)? {
        let starts = games
            .iter()
            .map(|g| g.fen.map(|(_, board)| board))
            .collect();
        return Ok((games.into_iter().map(|g| g.record).collect(), starts));
    }
    let geometry = if reading.short_captures {
        variant.geometry().short_captures()
    } else {
        variant.geometry()
    };
    let records = parse_records_bytes_with(&input.bytes, geometry)
        .map_err(|e| fail(Status::BadInput, format!("{}: {e}", input.name)))?;
    let starts = vec![None; records.len()];
    Ok((records, starts))
}

/// Every file named, with folders replaced by the record files in them
/// (`*.in` and `*.pdn`), in name order.
fn record_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = fs::read_dir(path)
                .map_err(|e| {
                    fail(
                        Status::BadInput,
                        format!("cannot read '{}': {e}", path.display()),
                    )
                })?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "in" || x == "pdn"))
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// Who moves first in a game of `variant` without a FEN tag.
fn first_player(variant: Variant) -> Color {
    variant.first_player()
}

/// The games of a PDN input (a `.pdn` file, or text that starts like PDN);
/// `None` for the task's own format.
fn read_pdn(input: &Input, variant: Variant) -> Result<Option<Vec<PdnGame>>, Failure> {
    let text = std::str::from_utf8(&input.bytes).ok();
    let is_pdn = input.name.ends_with(".pdn") || text.is_some_and(looks_like_pdn);
    if !is_pdn {
        return Ok(None);
    }
    let text = text.ok_or_else(|| {
        fail(
            Status::BadInput,
            format!("{}: the PDN is not UTF-8 text", input.name),
        )
    })?;
    let games = parse_pdn(text, first_player(variant), variant.geometry())
        .map_err(|e| fail(Status::BadInput, format!("{}: {e}", input.name)))?;
    // A game of another type would be read under the wrong rules.
    for (i, game) in games.iter().enumerate() {
        match game.game_type() {
            Some(number) if number != variant.pdn_game_type() => {
                let hint = Variant::from_pdn_game_type(number).map_or_else(
                    || "a game type postfacto does not know".to_string(),
                    |v| format!("{} draughts: use --rules {}", v.title(), v.name()),
                );
                return Err(fail(
                    Status::BadInput,
                    format!(
                        "{}: game {} (line {}) has GameType {number}, {hint}",
                        input.name,
                        i + 1,
                        game.record.line
                    ),
                ));
            }
            _ => {}
        }
    }
    Ok(Some(games))
}

/// `verify --pdn`: each game's moves must replay from its own FEN position.
fn cmd_verify_pdn(path: &Path, variant: Variant, out: &mut impl Write) -> Result<Status, Failure> {
    let input = read_input(Some(path))?;
    let games = read_pdn(&input, variant)?
        .ok_or_else(|| fail(Status::BadInput, format!("{}: not a PDN file", input.name)))?;
    let rules = variant.rules();
    let mut status = Status::Ok;
    for (i, game) in games.iter().enumerate() {
        let prefix = format!("game {} (line {}): ", i + 1, game.record.line);
        let verdict = match &game.fen {
            None => {
                status = status.max(Status::BadInput);
                "no [FEN] tag, so nothing to check the moves against".to_string()
            }
            Some((_, board)) => match rules
                .start_problems(board)
                .first()
                .map(|p| format!("FEN position: {p}"))
                .or_else(|| {
                    replay(rules, board, &game.record)
                        .err()
                        .map(|e| e.to_string())
                }) {
                None => "OK".to_string(),
                Some(problem) => {
                    status = status.max(Status::Rejected);
                    problem
                }
            },
        };
        writeln!(out, "{prefix}{}", one_line(&verdict)).map_err(write_err)?;
    }
    Ok(status)
}

/// The engine the flags ask for, and the SAT engine's time limit: a node
/// count is a search's limit only (varisat has no conflict budget).
fn engine_of(
    engine: EngineArg,
    limit: Option<LimitArg>,
) -> Result<(Engine, Option<std::time::Duration>), Failure> {
    match (engine, limit) {
        (EngineArg::Sat, None) => Ok((Engine::Sat, None)),
        (EngineArg::Sat, Some(LimitArg::Time(t))) => Ok((Engine::Sat, Some(t))),
        (EngineArg::Sat, Some(LimitArg::Nodes(_))) => Err(fail(
            Status::BadInput,
            "a node limit applies to --engine dfs only; give the SAT engine a time (2s, 500ms)",
        )),
        (EngineArg::Dfs, limit) => Ok((Engine::Dfs(dfs_limit(limit)), None)),
    }
}

fn dfs_limit(limit: Option<LimitArg>) -> DfsLimit {
    match limit {
        None => DfsLimit::default(),
        Some(LimitArg::Nodes(n)) => DfsLimit {
            nodes: Some(n),
            time: None,
        },
        Some(LimitArg::Time(t)) => DfsLimit {
            nodes: None,
            time: Some(t),
        },
    }
}

fn cmd_verify(
    input_path: &Path,
    answer_path: &Path,
    reading: Reading,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let variant = reading.variant;
    let input = read_input(Some(input_path))?;
    let records = read_records(&input, reading)?;
    let answer = read_input(Some(answer_path))?;
    let rules = variant.rules();
    let verdicts: Vec<Result<(), String>> = match std::str::from_utf8(&answer.bytes)
        .map_err(|_| "the answer is not UTF-8 text".to_string())
        .and_then(|text| parse_answers_on(text, variant.topology()).map_err(|e| e.to_string()))
    {
        Err(message) => vec![Err(message)],
        Ok(answers) if answers.len() != records.len() => vec![Err(format!(
            "the input has {} records but the answer has {} boards",
            records.len(),
            answers.len()
        ))],
        Ok(answers) => records
            .iter()
            .zip(&answers)
            .map(|(record, answer)| judge(rules, record, answer).map_err(|r| r.to_string()))
            .collect(),
    };
    let several = verdicts.len() > 1;
    let mut status = Status::Ok;
    for (i, verdict) in verdicts.iter().enumerate() {
        let prefix = if several {
            format!("instance {}: ", i + 1)
        } else {
            String::new()
        };
        match verdict {
            Ok(()) => writeln!(out, "{prefix}OK"),
            Err(problem) => {
                status = Status::Rejected;
                writeln!(out, "{prefix}{}", one_line(problem))
            }
        }
        .map_err(write_err)?;
    }
    Ok(status)
}

fn cmd_cnf(
    file: Option<&Path>,
    output: Option<PathBuf>,
    instance: Option<usize>,
    reading: Reading,
    known: postfacto::encode::BoardFacts,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let variant = reading.variant;
    let input = read_input(file)?;
    let records = read_records(&input, reading)?;
    let index = match instance {
        None if records.len() == 1 => 0,
        None => {
            return Err(fail(
                Status::BadInput,
                format!(
                    "{}: {} records; choose one with --instance N",
                    input.name,
                    records.len()
                ),
            ))
        }
        Some(n) if (1..=records.len()).contains(&n) => n - 1,
        Some(n) => {
            return Err(fail(
                Status::BadInput,
                format!("--instance {n}: the input has {} records", records.len()),
            ))
        }
    };
    let cnf = dimacs_encoded(&records[index], variant, known)
        .map(|(cnf, _)| cnf)
        .map_err(|e| match e {
            postfacto::encode::EncodeError::TooManyMoves(m) => {
                fail(Status::Undecided, format!("{}: undecided: {m}", input.name))
            }
            other => fail(Status::BadInput, other.to_string()),
        })?;
    match output {
        None => cnf.write_dimacs(out).map_err(write_err)?,
        Some(path) => {
            let mut file = fs::File::create(&path)
                .map(io::BufWriter::new)
                .map_err(|e| {
                    fail(
                        Status::BadInput,
                        format!("cannot create '{}': {e}", path.display()),
                    )
                })?;
            cnf.write_dimacs(&mut file)
                .and_then(|()| file.flush())
                .map_err(|e| {
                    fail(
                        Status::BadInput,
                        format!("cannot write '{}': {e}", path.display()),
                    )
                })?;
        }
    }
    Ok(Status::Ok)
}
