//! `postfacto solve`: answers for every record of every input, in parallel,
//! printed in input order; with options, explanations, proofs, optimal
//! answers and counts.
//!
//! Each record comes with the rule sets to read it under (one when the
//! user, or a PDN game's tag, names it; the candidates its notation allows
//! otherwise, tried in order: the first it solves under is its rule set).

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use varisat::ProofFormat;

use postfacto::analysis::{repair_summary, Analysis, RepairOptions, RepairOutcome, SolverProof};
use postfacto::archive::RulesFrom;
use postfacto::encode::BoardFacts;
use postfacto::notation::{plural, Answer, MoveNumbers, Record};
use postfacto::reach::{shortest_prefix, PrefixOutcome, ReachError};
use postfacto::request::{first_solving, start_facts, StartFrom};
use postfacto::rules::Variant;
use postfacto::sat::within;
use postfacto::solve::{check_facts, checked_answer, Engine, Outcome, Reconstructor, SolveError};

use super::args::{AnalysisArgs, ProofFormatArg};
use super::input::{read_input, read_items, read_or_report, record_files, Input, Item, Reader};
use super::output::{self, Name, Report};
use super::settings::Settings;
use super::ticker::Ticker;
use super::{fail, Failure, Status};

/// Batches at least this large show a progress bar (when stderr is a terminal).
const PROGRESS_FROM: usize = 64;

/// One input file (or standard input) and what could be read from it.
struct Source {
    input: Input,
    items: Result<Vec<Item>, Failure>,
}

/// Runs `solve` on every record of every input: files, folders (every `*.in`
/// and `*.pdn` inside), or standard input when there are none.
pub fn run(
    paths: &[PathBuf],
    settings: &Arc<Settings>,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let started = Instant::now();
    let sources: Vec<Source> = expand(paths)?
        .into_par_iter()
        .map(|input| Source {
            items: read_items(&input, settings.reading()),
            input,
        })
        .collect();
    let total: usize = sources
        .iter()
        .map(|s| s.items.as_ref().map_or(1, Vec::len))
        .sum();
    if settings.options.proof.is_some() && total != 1 {
        return Err(fail(
            Status::BadInput,
            format!("--proof needs an input with exactly one record (this one has {total})"),
        ));
    }
    let jobs: Vec<(&Source, Option<usize>)> = sources
        .iter()
        .flat_map(|s| match &s.items {
            Ok(items) => (0..items.len()).map(|i| (s, Some(i))).collect::<Vec<_>>(),
            Err(_) => vec![(s, None)],
        })
        .collect();
    let show_progress =
        !settings.quiet && jobs.len() >= PROGRESS_FROM && std::io::stderr().is_terminal();
    // Repairs of a few records may take a while each: a line says how far.
    let ticker = Arc::new(Ticker::start(
        settings.options.repair && !settings.quiet && jobs.len() < PROGRESS_FROM,
    ));
    let progress = show_progress.then(|| {
        let bar = indicatif::ProgressBar::new(jobs.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} records, {eta} left")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let reports: Vec<Report> = jobs
        .par_iter()
        .map(|&(source, index)| {
            let report = match (index, &source.items) {
                (Some(i), Ok(items)) => run_item(
                    name_of(&source.input, &items[i], i, items.len()),
                    &items[i],
                    settings,
                    &ticker,
                ),
                (_, Err(failure)) => Report::bad_input(&source.input.name, &failure.message),
                (None, Ok(_)) => unreachable!("a readable source has a job per record"),
            };
            if let Some(bar) = &progress {
                bar.inc(1);
            }
            report
        })
        .collect();
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    ticker.finish();
    let status = output::print(&reports, settings, out)?;
    if total > 1 && !settings.quiet {
        eprintln!(
            "postfacto: {}",
            output::summary(&reports, started.elapsed())
        );
    }
    Ok(status)
}

/// The inputs: standard input when `paths` is empty; a folder stands for
/// every `*.in` and `*.pdn` file in it, in name order.
fn expand(paths: &[PathBuf]) -> Result<Vec<Input>, Failure> {
    if paths.is_empty() {
        return Ok(vec![read_input(None)?]);
    }
    Ok(record_files(paths)?
        .par_iter()
        .map(|file: &PathBuf| read_or_report(Path::new(file)))
        .collect())
}

/// Names an instance in messages: just the file for a single record, the
/// game for a PDN file.
fn name_of<'a>(input: &'a Input, item: &Item, index: usize, count: usize) -> Name<'a> {
    Name {
        input: &input.name,
        instance: (count > 1 || item.game.is_some())
            .then_some((item.game.unwrap_or(index + 1), item.line)),
        game: item.game.is_some(),
    }
}

/// One record (or PDN game): its own problem, nothing to do for a game
/// without moves, or the reading it solves under, solved and analysed.
fn run_item<'r>(
    name: Name<'r>,
    item: &'r Item,
    settings: &Arc<Settings>,
    ticker: &Arc<Ticker>,
) -> Report<'r> {
    if let Some(error) = &item.error {
        let mut report = Report::bad_input(name.input, &format!("{name}: {error}"));
        report.name = name;
        return report;
    }
    let mut report = if item.no_moves {
        position_only(name, &item.readings[0])
    } else {
        let pdn_first = item
            .pdn
            .as_ref()
            .map(|g| g.first_number.map_or(1, |n| n.max(1) as usize));
        run_job(name, &item.readings, pdn_first, settings, ticker)
    };
    report.pdn = item.pdn.as_ref();
    if let Some(warning) = &item.warning {
        report.err.insert(0, format!("{name}: {warning}"));
    }
    if item.rules_from == RulesFrom::Inferred {
        report.inferred = true;
        let solved = report.status == Status::Ok;
        let line = if solved || item.readings.len() == 1 {
            format!(
                "{name}: read under {} rules (inferred)",
                report.variant.name()
            )
        } else {
            let tried: Vec<&str> = item.readings.iter().map(|r| r.variant.name()).collect();
            format!(
                "{name}: no rule set its notation allows ({}) makes it legal; the verdict under {}, the first:",
                tried.join(", "),
                report.variant.name()
            )
        };
        // -q keeps only what says why a record has no answer.
        if !settings.quiet || (!solved && item.readings.len() > 1) {
            report.err.insert(0, line);
        }
    }
    report
}

/// A PDN game without moves: nothing to reconstruct; its `[FEN]`
/// position, if it has one, is its start and end.
fn position_only<'r>(name: Name<'r>, reader: &'r Reader) -> Report<'r> {
    let mut report = Report::new(name, &reader.record);
    report.variant = reader.variant;
    report.no_moves = true;
    if let Some(board) = reader.fen {
        report.answers.push(Answer {
            start: board,
            end: board,
        });
    }
    report.err.push(format!(
        "{name}: no moves (a position only): nothing to reconstruct"
    ));
    report
}

/// The reconstruction the settings ask for under `variant`, with `known`.
fn reconstructor(settings: &Settings, variant: Variant, known: BoardFacts) -> Reconstructor {
    let reconstructor = Reconstructor::new(variant)
        .engine(settings.engine)
        .facts(known);
    match &settings.solver {
        Some(command) => reconstructor.outside_solver(command.clone(), settings.time_limit),
        None => reconstructor,
    }
}

/// What is known of a record's boards, and where its start comes from:
/// the command line's facts; when `--start-board` does not say, a PDN
/// game's `[FEN]`, else its rule set's opening unless `--fragment` (see
/// [`start_facts`]). For the SAT engine only: the DFS engine takes no
/// facts (a PDN game is then a fragment).
fn known_for(settings: &Settings, reader: &Reader, pdn_game: bool) -> (BoardFacts, StartFrom) {
    if settings.engine == Engine::Sat {
        start_facts(settings.known, reader, pdn_game, settings.fragment)
    } else if settings.known.start.is_some() {
        (settings.known, StartFrom::Given)
    } else {
        (settings.known, StartFrom::Unknown)
    }
}

/// Solves one record (under the first of its readings that solves);
/// under a time limit, on a thread of its own that is abandoned when the
/// limit passes (varisat cannot be interrupted): the choice of reading
/// counts against the limit too. A repair watches the clock itself and
/// answers with the bound it proved, so its thread is given a little
/// longer before it is abandoned.
fn run_job<'r>(
    name: Name<'r>,
    readings: &'r [Reader],
    pdn_first: Option<usize>,
    settings: &Arc<Settings>,
    ticker: &Arc<Ticker>,
) -> Report<'r> {
    let limit = match settings.time_limit {
        Some(limit) if settings.solver.is_none() => limit,
        _ => {
            let ticker = Arc::clone(ticker);
            return solve_readings(name, readings, pdn_first, settings, None, ticker);
        }
    };
    let deadline = Instant::now() + limit;
    let waited = if settings.options.repair || settings.options.from_opening {
        limit + (limit / 4).max(Duration::from_millis(500))
    } else {
        limit
    };
    let (owned, shared, job_name) = (readings.to_vec(), Arc::clone(settings), name.to_string());
    let job_ticker = Arc::clone(ticker);
    let finished = within(waited, move || {
        let name = Name {
            input: &job_name,
            instance: None,
            game: false,
        };
        solve_readings(name, &owned, pdn_first, &shared, Some(deadline), job_ticker)
            .without_record()
    });
    if let Some(mut report) = finished {
        let chosen = readings.iter().find(|r| r.variant == report.variant);
        report.record = Some(&chosen.unwrap_or(&readings[0]).record);
        report.name = name;
        return report;
    }
    let mut report = Report::new(name, &readings[0].record);
    report.variant = readings[0].variant;
    report.status = Status::Undecided;
    report.micros = limit.as_micros();
    report.err.push(format!(
        "{name}: undecided: the time limit of {limit:?} passed before a verdict"
    ));
    report
}

/// The first of `readings` whose record the engine solves (the first of
/// all when none does: its verdict is given), solved and analysed; the
/// outcome found while choosing is not computed again. `pdn_first` is the
/// first move number of a PDN game (`None` for the task's format).
fn solve_readings<'r>(
    name: Name<'r>,
    readings: &'r [Reader],
    pdn_first: Option<usize>,
    settings: &Settings,
    deadline: Option<Instant>,
    ticker: Arc<Ticker>,
) -> Report<'r> {
    let pdn_game = pdn_first.is_some();
    let known = |r: &Reader| known_for(settings, r, pdn_game).0;
    let solve = |r: &Reader| reconstructor(settings, r.variant, known(r)).solve(&r.record);
    let (chosen, solved) = match first_solving(readings, solve, deadline) {
        Ok((i, outcome)) => (i, outcome.map(Ok)),
        Err(e) => (0, Some(Err(e))),
    };
    let reader = &readings[chosen];
    let (known, start_from) = known_for(settings, reader, pdn_game);
    let mut report = Job {
        name,
        record: &reader.record,
        variant: reader.variant,
        settings,
        known,
        deadline,
        ticker,
        solved,
        numbers: pdn_first.map(|first_number| MoveNumbers {
            first_player: reader.variant.first_player(),
            first_number,
        }),
    }
    .run();
    report.variant = reader.variant;
    report.start_from = Some(start_from);
    if start_from == StartFrom::Opening && report.status == Status::Rejected {
        let hint = StartFrom::opening_hint(pdn_first.unwrap_or(1));
        report.err.insert(0, format!("{name}: {hint}"));
    }
    report
}

/// What `--from-opening` says of the prefix's length: proved the
/// shortest, or the bound proved and over how many start boards.
fn prefix_line(prefix: &postfacto::reach::Prefix) -> String {
    let plies = prefix.game.record.moves.len();
    if prefix.minimal {
        return format!(
            "shortest prefix: {plies} plies; no legal game of fewer plies reaches a start board of these moves"
        );
    }
    let boards = if prefix.complete {
        format!("all {} start boards", prefix.boards)
    } else {
        format!("the first {} start boards", prefix.boards)
    };
    format!(
        "a prefix of {plies} plies; none of fewer than {} plies reaches {boards} searched",
        prefix.lower_bound
    )
}

/// One record to solve under one rule set.
struct Job<'a, 's> {
    name: Name<'a>,
    record: &'a Record,
    variant: Variant,
    settings: &'s Settings,
    /// What is known of this record's boards besides its moves.
    known: BoardFacts,
    /// When a repair must stop (`--limit`).
    deadline: Option<Instant>,
    /// The progress line of repairs.
    ticker: Arc<Ticker>,
    /// The record solved already (to choose its reading), if it was.
    solved: Option<Result<Outcome, SolveError>>,
    /// How a PDN game numbers its moves (`None`: plies are named by number).
    numbers: Option<MoveNumbers>,
}

impl<'a> Job<'a, '_> {
    fn run(&self) -> Report<'a> {
        let started = Instant::now();
        let mut report = Report::new(self.name, self.record);
        let result = self.fill(&mut report);
        report.micros = started.elapsed().as_micros();
        if let Err(e) = result {
            if e.is_undecided() {
                report.status = Status::Undecided;
                report.err.push(format!("{}: undecided: {e}", self.name));
            } else if matches!(e, SolveError::Unsupported(_)) {
                // A request this engine cannot serve (a damaged record for DFS).
                report.status = Status::BadInput;
                report.err.push(format!("{}: {e}", self.name));
            } else {
                report.status = Status::Internal;
                report.err.push(format!("{}: {e}", self.name));
            }
        }
        report
    }

    /// Replays `start` with the record's moves (a damaged record's as
    /// `filled` fills them in, checked to fit what is written).
    fn checked(
        &self,
        start: postfacto::board::Board,
        filled: Option<&Record>,
        who: &str,
    ) -> Result<Answer, SolveError> {
        match filled {
            Some(filled) => {
                postfacto::solve::check_filled(self.record, filled, who)?;
                checked_answer(filled, start, who, self.variant())
            }
            None => checked_answer(self.record, start, who, self.variant()),
        }
    }

    /// The reconstruction the settings ask for, under this record's rules.
    fn reconstructor(&self) -> Reconstructor {
        reconstructor(self.settings, self.variant, self.known)
    }

    /// The analyses of this record's rule set and facts.
    fn analysis(&self) -> Analysis {
        Analysis::new(self.variant)
            .facts(self.known)
            .numbered(self.numbers)
    }

    fn options(&self) -> &AnalysisArgs {
        &self.settings.options
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn fill(&self, report: &mut Report) -> Result<(), SolveError> {
        if let Some(path) = &self.options().proof {
            self.proof(path, report)?;
            if report.status == Status::BadInput {
                // The proof file cannot be written: that is the verdict (2).
                return Ok(());
            }
        }
        let options = self.options();
        if options.repair {
            return self.repair(report);
        }
        if options.from_opening {
            return self.prefix_from_opening(report);
        }
        if options.count || options.all || options.unique {
            return self.count(report);
        }
        if options.minimize.is_some() || options.max_per_side.is_some() {
            return self.minimize(report);
        }
        let outcome = match self.solved.clone() {
            Some(solved) => solved?,
            None => self.reconstructor().solve(self.record)?,
        };
        match outcome {
            Outcome::Solved(solution) => {
                report.stats = Some(solution.stats);
                report.answers.push(solution.answer);
                if options.explain {
                    if let Some(filled) = &solution.filled {
                        self.explain_unknowns(filled, report)?;
                    }
                    self.explain_solved(&solution.answer, report)?;
                }
                report.filled.extend(solution.filled);
                Ok(())
            }
            Outcome::Impossible { reason, stats } => {
                report.stats = Some(stats);
                self.impossible(reason, report)
            }
            Outcome::GaveUp { reason, stats } => {
                report.stats = Some(stats);
                report.status = Status::Undecided;
                report
                    .err
                    .push(format!("{}: undecided: {reason}", self.name));
                Ok(())
            }
            _ => Err(SolveError::Internal("unknown outcome".into())),
        }
    }

    /// Reports an impossible record with the smallest set of conflicting rules.
    fn impossible(
        &self,
        engine_reason: Option<String>,
        report: &mut Report,
    ) -> Result<(), SolveError> {
        let engine = self.settings.engine.name();
        let (why, explanation) =
            self.analysis()
                .confirm_impossible(self.record, engine_reason, engine)?;
        report.status = Status::Rejected;
        report.err.push(format!(
            "{}: no start position makes these moves legal: {why}",
            self.name
        ));
        report.explanation = Some(why);
        report.analysed.core = explanation.rule_names();
        report.analysed.core_cnf = explanation.cnf_labels();
        if self.options().explain {
            report.text.push_str(&explanation.detailed());
        }
        Ok(())
    }

    /// For a damaged record: which of its unknowns every answer fills the same way.
    fn explain_unknowns(&self, filled: &Record, report: &mut Report) -> Result<(), SolveError> {
        // Captures written whole (PDN) are not damaged moves: nothing to say.
        if self.record.as_written(self.variant.geometry()).as_ref() == Some(filled) {
            return Ok(());
        }
        let verdicts = self.analysis().forced_unknowns(self.record, filled)?;
        // A capture read short that was written whole says nothing new.
        let variant = self.variant();
        let news: Vec<_> = verdicts
            .iter()
            .filter(|v| {
                !(v.is_forced() && v.written.known().is_none() && {
                    let written = if variant.algebraic() {
                        v.written.algebraic()
                    } else {
                        v.written.numbered()
                    };
                    written == variant.write_move(&v.played)
                })
            })
            .collect();
        if news.is_empty() {
            return Ok(());
        }
        let text = &mut report.text;
        let _ = writeln!(text, "\nthe damaged moves, filled in:");
        for verdict in news {
            let _ = writeln!(text, "{verdict}");
        }
        Ok(())
    }

    fn explain_solved(&self, answer: &Answer, report: &mut Report) -> Result<(), SolveError> {
        let squares = self.analysis().forced_facts(self.record, &answer.start)?;
        let text = &mut report.text;
        let _ = writeln!(
            text,
            "\nstart board, square by square (forced: every answer has it, because of the plies named):"
        );
        let mut free = Vec::new();
        for square in squares {
            if square.is_free_empty() {
                free.push(square.square.to_string());
            } else {
                let _ = writeln!(text, "{square}");
                report
                    .analysed
                    .forced
                    .push(square.to_string().trim().to_string());
            }
        }
        if !free.is_empty() {
            let _ = writeln!(
                text,
                "empty here, but another answer may put a piece on: {}",
                free.join(" ")
            );
        }
        Ok(())
    }

    fn proof(&self, path: &Path, report: &mut Report) -> Result<(), SolveError> {
        if let Some(command) = &self.settings.solver {
            return self.solver_proof(command, path, report);
        }
        let format = match self.options().proof_format {
            ProofFormatArg::Drat => ProofFormat::Drat,
            ProofFormatArg::Varisat => ProofFormat::Varisat,
        };
        let mut bytes = Vec::new();
        if self.analysis().proof(self.record, format, &mut bytes)? {
            if let Err(e) = std::fs::write(path, bytes) {
                report.status = Status::BadInput;
                report
                    .err
                    .push(format!("cannot write '{}': {e}", path.display()));
                return Ok(());
            }
            report.err.push(format!(
                "{}: proof of impossibility written to {} (it refers to the formula `postfacto cnf` prints, given the same rules and facts)",
                self.name,
                path.display()
            ));
        } else {
            report.err.push(format!(
                "{}: no proof written: the record is solvable",
                self.name
            ));
        }
        Ok(())
    }

    /// `--proof` with `--solver`: the outside solver writes its DRAT
    /// proof, which is checked here (by unit propagation) when it can be.
    fn solver_proof(
        &self,
        command: &[String],
        path: &Path,
        report: &mut Report,
    ) -> Result<(), SolveError> {
        let limit = self.settings.time_limit;
        let proof = self
            .analysis()
            .proof_by_solver(self.record, command, limit, path)?;
        let line = match proof {
            SolverProof::Solvable => "no proof written: the record is solvable".to_string(),
            SolverProof::Refuted(Ok(lemmas)) => format!(
                "proof of impossibility written to {} by {} and checked: its {} follow by unit propagation (it refers to the formula `postfacto cnf` prints, given the same rules and facts)",
                path.display(),
                command[0],
                plural(lemmas, "lemma")
            ),
            SolverProof::Refuted(Err(why)) => format!(
                "proof of impossibility written to {} by {}, not checked here ({why}); a full DRAT checker such as drat-trim takes it",
                path.display(),
                command[0]
            ),
        };
        report.err.push(format!("{}: {line}", self.name));
        Ok(())
    }

    /// `--repair`: the record as written if it is possible, else the fewest
    /// edits that make it so (`shared/spec/repair.md`), each repair's
    /// answer replayed with its own moves.
    fn repair(&self, report: &mut Report) -> Result<(), SolveError> {
        let options = RepairOptions {
            max_edits: self.options().max_edits,
            all: self.options().all,
            limit: self.options().count_limit,
            deadline: self.deadline,
        };
        let mut progress = |k: usize| {
            self.ticker.say(format!(
                "{}: repair, trying {}",
                self.name,
                plural(k, "edit")
            ));
        };
        match self
            .analysis()
            .repair(self.record, options, &mut progress)?
        {
            RepairOutcome::NotNeeded(solution) => {
                report.stats = Some(solution.stats);
                report.answers.push(solution.answer);
                report.filled.extend(solution.filled);
                report.repairs = Some(Vec::new());
                // Notes on stderr: stdout holds only boards, for `verify`.
                report.err.push(format!("{}: no edit needed", self.name));
            }
            RepairOutcome::Repaired(mut repairs) => {
                // One correction found under several labels (a square or
                // a whole move misread) is one repair.
                let mut seen = Vec::new();
                repairs.retain(|r| {
                    let new = !seen.contains(&r.record);
                    seen.push(r.record.clone());
                    new
                });
                let edits = repairs[0].edits.len();
                let many = if options.all {
                    format!("{} of", plural(repairs.len(), "repair"))
                } else {
                    "repaired with".to_string()
                };
                report.err.push(format!(
                    "{}: {many} {}; no repair of {} exists",
                    self.name,
                    plural(edits, "edit"),
                    plural(edits - 1, "edit")
                ));
                for (i, found) in repairs.iter().enumerate() {
                    let answer = checked_answer(
                        &found.record,
                        found.solution.answer.start,
                        "the repair",
                        self.variant(),
                    )?;
                    check_facts(&answer, self.known)?;
                    let label = if options.all {
                        format!("{}: repair {} (answer {}): ", self.name, i + 1, i + 1)
                    } else {
                        format!("{}: ", self.name)
                    };
                    let numbered = self.numbers.as_ref().map(|n| (n, &found.record));
                    for edit in &found.edits {
                        report.err.push(format!("{label}{}", edit.words(numbered)));
                    }
                    report.answers.push(answer);
                    report.filled.push(found.record.clone());
                }
                report.stats = Some(repairs[0].solution.stats);
                report.repairs = Some(repairs[0].edits.clone());
            }
            outcome @ RepairOutcome::Undecided { .. } => {
                report.status = Status::Undecided;
                report
                    .err
                    .push(format!("{}: {}", self.name, repair_summary(&outcome)));
            }
            outcome @ RepairOutcome::NoneWithin(_) => {
                report.status = Status::Rejected;
                report
                    .err
                    .push(format!("{}: {}", self.name, repair_summary(&outcome)));
            }
        }
        Ok(())
    }

    fn minimize(&self, report: &mut Report) -> Result<(), SolveError> {
        let most = self.options().max_per_side;
        let Some(minimum) = self.analysis().minimum(self.record, most)? else {
            if let Some(cap) = most {
                report.status = Status::Rejected;
                report.err.push(format!(
                    "{}: no start position with at most {cap} pieces per side makes these moves legal",
                    self.name
                ));
                return Ok(());
            }
            return self.impossible(None, report);
        };
        let answer = minimum.answer;
        report.answers.push(answer);
        report.analysed.minimum = Some((minimum.pieces, minimum.kings));
        report.filled.extend(minimum.filled);
        if self.options().minimize.is_some() {
            let fewer = if minimum.pieces == 0 {
                String::new()
            } else {
                format!(
                    "; no start board has {} (unsatisfiable)",
                    minimum.pieces - 1
                )
            };
            report.err.push(format!(
                "{}: fewest pieces: {} with {}{fewer}; {}",
                self.name,
                minimum.pieces,
                plural(minimum.kings, "king"),
                plural(minimum.solves, "solver call")
            ));
        }
        if self.options().explain {
            self.explain_solved(&answer, report)?;
        }
        Ok(())
    }

    /// `--from-opening`: a start board a legal game from the opening
    /// reaches, and the shortest such game (`postfacto::reach`).
    fn prefix_from_opening(&self, report: &mut Report) -> Result<(), SolveError> {
        self.ticker
            .say(format!("{}: reach from the opening", self.name));
        let mut progress = |i: usize, of: usize, bound: u32| {
            self.ticker.say(format!(
                "{}: reach from the opening: start board {} of {of}, a game of {bound} plies",
                self.name,
                i + 1
            ));
        };
        let outcome = shortest_prefix(
            self.variant(),
            self.record,
            self.known,
            self.deadline,
            &mut progress,
        )
        .map_err(|e| match e {
            ReachError::Formula(m) => SolveError::Unsupported(m),
            other => SolveError::Internal(other.to_string()),
        })?;
        let name = self.name;
        match outcome {
            PrefixOutcome::Found(prefix) => {
                let answer = self.checked(prefix.game.end, None, "the proof-game search")?;
                check_facts(&answer, self.known)?;
                let _ = writeln!(
                    report.text,
                    "{name}: from the opening: {}",
                    self.numbered(&prefix.game.record)
                );
                let _ = writeln!(report.text, "{name}: {}", prefix_line(&prefix));
                report.answers.push(answer);
                report.prefix = Some(output::PrefixReport {
                    record: prefix.game.record,
                    minimal: prefix.minimal,
                    lower_bound: prefix.lower_bound,
                });
                Ok(())
            }
            PrefixOutcome::Impossible => self.impossible(None, report),
            PrefixOutcome::Unreachable { reason } => {
                report.status = Status::Rejected;
                report.err.push(format!(
                    "{name}: no legal game from the opening reaches a start board of these moves: {reason}"
                ));
                Ok(())
            }
            PrefixOutcome::Undecided { at_least } => {
                report.status = Status::Undecided;
                report.err.push(format!(
                    "{name}: undecided: no prefix found; none of fewer than {at_least} plies from the opening"
                ));
                Ok(())
            }
        }
    }

    /// `record`'s moves with move numbers, as this rule set writes them.
    fn numbered(&self, record: &Record) -> String {
        let variant = self.variant();
        postfacto::notation::numbered_moves(record, variant.first_player(), |m| {
            variant.write_move(m)
        })
    }

    fn count(&self, report: &mut Report) -> Result<(), SolveError> {
        let options = self.options();
        // --unique alone needs two boards at most: one, or two that differ.
        let limit = if options.unique && !(options.count || options.all) {
            2
        } else {
            options.count_limit.max(2 * usize::from(options.unique))
        };
        let count = self.analysis().count(self.record, limit)?;
        if count.boards.is_empty() {
            return self.impossible(None, report);
        }
        let squares = count
            .squares
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        report.analysed.count = Some((count.boards.len(), count.complete));
        if options.all {
            report.answers.extend(count.answers.iter().copied());
            report.filled.extend(count.fillings.iter().cloned());
        }
        if options.count || options.all {
            let line = format!(
                "{}: {} {}, told apart by squares {squares}",
                self.name,
                count.words(limit),
                // Captures written whole are counted as written: not completions.
                match (count.completions, count.words(limit) == "1") {
                    (true, true) => "completion (filled moves and start board)",
                    (true, false) => "completions (filled moves and start boards)",
                    (false, true) => "start board",
                    (false, false) => "start boards",
                }
            );
            if options.all {
                report.err.push(line);
            } else {
                let _ = writeln!(report.text, "{line}");
            }
        }
        if options.unique {
            let unique = matches!((count.boards.as_slice(), count.complete), ([_], true));
            report.analysed.unique = Some(unique);
            if unique {
                let _ = writeln!(
                    report.text,
                    "{}: unique: every answer puts the same pieces on squares {squares}",
                    self.name
                );
            } else {
                let differ = count.differences(self.variant());
                report.analysed.differs_on.clone_from(&differ);
                let _ = writeln!(
                    report.text,
                    "{}: not unique: answers differ on {}",
                    self.name,
                    differ.join(", ")
                );
            }
        }
        Ok(())
    }
}
