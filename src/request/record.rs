//! `solve` on one record of an input (or one PDN game): the reading it
//! solves under, solved and analysed as the options ask, every answer
//! replayed and fact-checked, reported as a [`Report`] that every front
//! end prints the same way.
//!
//! Each record comes with the rule sets to read it under (one when the
//! user, or a PDN game's tag, names it; the candidates its notation allows
//! otherwise, tried in order: the first it solves under is its rule set).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::analysis::Analysis;
use crate::archive::{Reading, RulesFrom};
use crate::encode::BoardFacts;
use crate::notation::{GameText, MoveNumbers, Record};
use crate::rules::Variant;
use crate::sat::within;
use crate::solve::{Engine, Limit, Reconstructor};

use super::analyses::Job;
use super::report::{Name, Report, Verdict};
use super::{first_solving, start_facts, Item, Problem, StartFrom};

/// Where long work says how far it is (a progress line, a log); called
/// from the work's thread.
pub type Progress = Arc<dyn Fn(String) + Send + Sync>;

/// A progress sink that says nothing.
pub fn silent() -> Progress {
    Arc::new(|_| {})
}

/// What `solve` is asked to do, the same for every record of a batch.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// The engine.
    pub engine: Engine,
    /// An outside SAT solver command instead of varisat.
    pub solver: Option<Vec<String>>,
    /// A time limit per record for the SAT engine (embedded or outside);
    /// the DFS engine carries its own in `engine`.
    pub time_limit: Option<Duration>,
    /// What is known of the start and end boards besides the moves.
    pub known: BoardFacts,
    /// PDN games without `[FEN]` are fragments (start unknown), not games
    /// from the opening.
    pub fragment: bool,
    /// Leave out the notes that only say which rule set was inferred.
    pub quiet: bool,
    /// What to find out besides an answer.
    pub analyses: Analyses,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            engine: Engine::Sat,
            solver: None,
            time_limit: None,
            known: BoardFacts::default(),
            fragment: false,
            quiet: false,
            analyses: Analyses::default(),
        }
    }
}

/// The analyses `solve` can run on a record besides finding an answer.
#[derive(Clone, Debug)]
pub struct Analyses {
    /// Why an impossible record is so, in detail; for a solvable one,
    /// which squares every answer shares and why.
    pub explain: bool,
    /// Write a proof of unsatisfiability of `cnf`'s formula here.
    pub proof: Option<PathBuf>,
    /// The format of that proof.
    pub proof_format: varisat::ProofFormat,
    /// The answer with the fewest pieces, then kings, proved optimal.
    pub minimize: bool,
    /// At most this many pieces of each colour on the start board.
    pub max_per_side: Option<usize>,
    /// Count start boards.
    pub count: bool,
    /// Every start board counted (or every minimum repair with `repair`).
    pub all: bool,
    /// Stop counting after this many.
    pub count_limit: usize,
    /// Whether every answer puts the same pieces on the used squares.
    pub unique: bool,
    /// The fewest edits that make an impossible record possible.
    pub repair: bool,
    /// The most edits a repair tries.
    pub max_edits: usize,
    /// The start board must be one a legal game from the opening reaches.
    pub from_opening: bool,
}

impl Default for Analyses {
    fn default() -> Analyses {
        Analyses {
            explain: false,
            proof: None,
            proof_format: varisat::ProofFormat::Drat,
            minimize: false,
            max_per_side: None,
            count: false,
            all: false,
            count_limit: 100_000,
            unique: false,
            repair: false,
            max_edits: crate::analysis::RepairOptions::default().max_edits,
            from_opening: false,
        }
    }
}

impl Analyses {
    /// True when any analysis is asked for (each needs the SAT engine).
    pub fn any(&self) -> bool {
        self.explain
            || self.proof.is_some()
            || self.minimize
            || self.max_per_side.is_some()
            || self.count
            || self.all
            || self.unique
            || self.repair
            || self.from_opening
    }
}

/// A combination of options no record can be solved under.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OptionsError {
    /// The DFS engine plays some rule sets only (the table's `dfs`).
    #[error("--engine dfs knows English rules only; use the SAT engine for {}", .0.name())]
    DfsRules(Variant),
    /// An outside solver writes DRAT only.
    #[error("--solver writes DRAT proofs only: --proof-format varisat needs the embedded varisat")]
    SolverProofFormat,
    /// An outside solver with an analysis it cannot run.
    #[error("--solver works with the SAT engine's plain solve and --proof only (no --engine dfs, no other analysis options)")]
    SolverAnalyses,
    /// `--solver` with no program.
    #[error("--solver needs a command")]
    SolverEmpty,
    /// `--solver` naming a program that is not there.
    #[error("--solver: cannot find the program '{0}'")]
    SolverMissing(String),
    /// Board facts with the DFS engine.
    #[error("--start-board and --end-board need the SAT engine (the DFS engine does not take board facts)")]
    FactsNeedSat,
    /// Analyses with the DFS engine.
    #[error("--explain, --proof, --minimize, --max-per-side, --count, --all and --unique need the SAT engine")]
    AnalysesNeedSat,
    /// A node limit for the SAT engine (varisat has no conflict budget).
    #[error("a node limit applies to --engine dfs only; give the SAT engine a time (2s, 500ms)")]
    SatNodeLimit,
    /// Board facts under `auto`: a board text is read under a rule set.
    #[error("--start-board and --end-board need a rule set named (their boards are read under it), not --rules auto")]
    FactsNeedRules,
}

/// Which engine a front end asks for, before a limit is given to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EngineKind {
    /// The SAT encoding ([`Engine::Sat`]).
    #[default]
    Sat,
    /// The search ([`Engine::Dfs`]).
    Dfs,
}

/// The engine asked for under `limit`, and the SAT engine's time limit:
/// the DFS carries its limit itself, the SAT engine takes a time only (a
/// node count is a search's limit: varisat has no conflict budget).
///
/// # Errors
/// A node limit for the SAT engine.
pub fn engine_with_limit(
    kind: EngineKind,
    limit: Limit,
) -> Result<(Engine, Option<Duration>), OptionsError> {
    match (kind, limit.nodes) {
        (EngineKind::Dfs, _) => Ok((Engine::Dfs(limit), None)),
        (EngineKind::Sat, None) => Ok((Engine::Sat, limit.time)),
        (EngineKind::Sat, Some(_)) => Err(OptionsError::SatNodeLimit),
    }
}

impl SolveOptions {
    /// Refuses combinations no record could be solved under; `rules` is
    /// the rule set named, if one was.
    ///
    /// # Errors
    /// The first combination that cannot work.
    pub fn check(&self, rules: Option<Variant>) -> Result<(), OptionsError> {
        let (engine, analyses) = (self.engine, &self.analyses);
        if let (Engine::Dfs(_), Some(variant)) = (engine, rules) {
            if !variant.has_dfs() {
                return Err(OptionsError::DfsRules(variant));
            }
        }
        if let Some(command) = &self.solver {
            self.check_solver(command)?;
        }
        if !self.known.is_empty() && engine != Engine::Sat {
            return Err(OptionsError::FactsNeedSat);
        }
        if analyses.any() && engine != Engine::Sat {
            return Err(OptionsError::AnalysesNeedSat);
        }
        Ok(())
    }

    /// An outside solver: a program that exists, the plain solve or a
    /// DRAT proof only (which it writes itself).
    fn check_solver(&self, command: &[String]) -> Result<(), OptionsError> {
        let analyses = &self.analyses;
        let proof_only = Analyses {
            proof: None,
            ..analyses.clone()
        };
        if analyses.proof.is_some() && analyses.proof_format != varisat::ProofFormat::Drat {
            return Err(OptionsError::SolverProofFormat);
        }
        if self.engine != Engine::Sat || proof_only.any() {
            return Err(OptionsError::SolverAnalyses);
        }
        match command.first() {
            None => Err(OptionsError::SolverEmpty),
            Some(program) if !crate::solve::program_exists(program) => {
                Err(OptionsError::SolverMissing(program.clone()))
            }
            Some(_) => Ok(()),
        }
    }

    /// The reconstruction these options ask for under `variant`, with `known`.
    pub(super) fn reconstructor(&self, variant: Variant, known: BoardFacts) -> Reconstructor {
        let reconstructor = Reconstructor::new(variant).engine(self.engine).facts(known);
        match &self.solver {
            Some(command) => reconstructor.outside_solver(command.clone(), self.time_limit),
            None => reconstructor,
        }
    }

    /// What is known of a record's boards, and where its start comes from:
    /// the facts given; when `--start-board` does not say, a PDN game's
    /// `[FEN]`, else its rule set's opening unless `fragment` (see
    /// [`start_facts`]). For the SAT engine only: the DFS engine takes no
    /// facts (a PDN game is then a fragment).
    fn known_for(&self, reading: &Reading, pdn_game: bool) -> (BoardFacts, StartFrom) {
        if self.engine == Engine::Sat {
            start_facts(self.known, reading, pdn_game, self.fragment)
        } else if self.known.start.is_some() {
            (self.known, StartFrom::Given)
        } else {
            (self.known, StartFrom::Unknown)
        }
    }
}

/// Solves one record (or PDN game) of an input as `options` ask: its own
/// problem, nothing to do for a game without moves, or the reading it
/// solves under, solved and analysed. `progress` hears how a long repair
/// or proof-game search is going.
pub fn solve_item<'r>(
    name: Name<'r>,
    item: &'r Item,
    options: &Arc<SolveOptions>,
    progress: &Progress,
) -> Report<'r> {
    if let Some(error) = &item.error {
        let mut report = Report::bad_input(name.input, &format!("{name}: {error}"));
        report.name = name;
        return report;
    }
    let mut report = if item.no_moves {
        position_only(name, &item.readings[0], options.quiet)
    } else {
        let pdn_first = item.pdn.as_ref().map(GameText::first_move);
        solve_limited(name, &item.readings, pdn_first, options, progress)
    };
    report.pdn = item.pdn.as_ref();
    if let Some(warning) = &item.warning {
        report.err.insert(0, format!("{name}: {warning}"));
    }
    if item.rules_from == RulesFrom::Inferred {
        note_inferred(&mut report, item, options.quiet);
    }
    report
}

/// Says which rule set an inferred record was read under, or that none of
/// those its notation allows makes it legal.
fn note_inferred(report: &mut Report, item: &Item, quiet: bool) {
    let name = report.name;
    report.inferred = true;
    let solved = report.status == Verdict::Solved;
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
    // Quiet keeps only what says why a record has no answer.
    if !quiet || (!solved && item.readings.len() > 1) {
        report.err.insert(0, line);
    }
}

/// A PDN game without moves: nothing to reconstruct; its `[FEN]`
/// position, if it has one, is its start and end. Quiet, it says nothing
/// (the batch counts them in one line).
fn position_only<'r>(name: Name<'r>, reading: &'r Reading, quiet: bool) -> Report<'r> {
    let mut report = Report::new(name, &reading.record);
    report.variant = reading.variant;
    report.no_moves = true;
    if let Some(board) = reading.fen {
        report.start_from = Some(StartFrom::Fen);
        // Its position is its answer only if a game can stand there (the
        // judge would reject a man on its crowning row).
        if let Some(problem) = reading.variant.rules().start_problems(&board).first() {
            let why = format!("its [FEN] position is not a legal position: {problem}");
            report.status = Verdict::Impossible;
            report.err.push(format!("{name}: no moves, and {why}"));
            report.explanation = Some(why);
            return report;
        }
        report.answers.push(crate::notation::Answer {
            start: board,
            end: board,
        });
    }
    if !quiet {
        report.err.push(format!(
            "{name}: no moves (a position only): nothing to reconstruct"
        ));
    }
    report
}

/// One way to read a record: a rule set, the moves read under it, and
/// what is known of its boards. A file's records come as
/// [`Reading`]s (their facts given once for the batch, a PDN game's
/// `[FEN]` or opening added), a fragment's as [`Problem`]s (their facts
/// read under each rule set).
pub(super) trait Candidate: Clone + Send + 'static {
    /// Its rule set.
    fn variant(&self) -> Variant;
    /// Its moves.
    fn record(&self) -> &Record;
    /// What is known of its boards, and where its start comes from.
    fn facts(&self, options: &SolveOptions, pdn_game: bool) -> (BoardFacts, StartFrom);
}

impl Candidate for Reading {
    fn variant(&self) -> Variant {
        self.variant
    }

    fn record(&self) -> &Record {
        &self.record
    }

    fn facts(&self, options: &SolveOptions, pdn_game: bool) -> (BoardFacts, StartFrom) {
        options.known_for(self, pdn_game)
    }
}

impl Candidate for Problem {
    fn variant(&self) -> Variant {
        self.variant
    }

    fn record(&self) -> &Record {
        &self.record
    }

    fn facts(&self, _: &SolveOptions, _: bool) -> (BoardFacts, StartFrom) {
        let from = if self.known.start.is_some() {
            StartFrom::Given
        } else {
            StartFrom::Unknown
        };
        (self.known, from)
    }
}

/// Solves a fragment read under each rule set it may follow (see
/// [`solve_item`]); `options.known` is not used: each problem has its own.
pub fn solve_problems<'r>(
    name: Name<'r>,
    problems: &'r [Problem],
    options: &Arc<SolveOptions>,
    progress: &Progress,
) -> Report<'r> {
    let mut report = solve_limited(name, problems, None, options, progress);
    report.inferred = problems.first().is_some_and(|p| p.inferred);
    report
}

/// Which of `candidates` a record is worked on under: the first the
/// engine solves (the first of all when none does), with the outcome found
/// while choosing (not computed again). At `deadline` the choice stops and
/// the first is taken.
fn choose<C: Candidate>(
    candidates: &[C],
    options: &SolveOptions,
    pdn_game: bool,
    deadline: Option<Instant>,
) -> (
    usize,
    Option<Result<crate::solve::Outcome, crate::solve::SolveError>>,
) {
    let solve = |c: &C| {
        let known = c.facts(options, pdn_game).0;
        options.reconstructor(c.variant(), known).solve(c.record())
    };
    match first_solving(candidates, solve, deadline) {
        Ok((i, outcome)) => (i, outcome.map(Ok)),
        Err(e) => (0, Some(Err(e))),
    }
}

/// The reading whose formula `cnf` writes and `decode` reads, with the
/// analysis of its rule set and facts: the one `solve` works on.
fn formula_reading<'c, C: Candidate>(
    candidates: &'c [C],
    options: &SolveOptions,
    pdn_game: bool,
) -> Result<(Analysis, &'c C), crate::solve::SolveError> {
    let (chosen, outcome) = choose(candidates, options, pdn_game, None);
    if let Some(Err(e)) = outcome {
        return Err(e);
    }
    let candidate = &candidates[chosen];
    let known = candidate.facts(options, pdn_game).0;
    Ok((Analysis::new(candidate.variant()).facts(known), candidate))
}

/// The record of `item` whose formula `cnf` writes (and `decode` reads):
/// under the rule set `solve` works on it under, with `known` and, for a
/// PDN game, its `[FEN]` or (unless `fragment`) its opening.
///
/// # Errors
/// A solver error while choosing among several rule sets.
pub fn item_formula(
    item: &Item,
    known: BoardFacts,
    fragment: bool,
) -> Result<(Analysis, Record), crate::solve::SolveError> {
    let options = SolveOptions {
        known,
        fragment,
        ..SolveOptions::default()
    };
    let (analysis, reading) = formula_reading(&item.readings, &options, item.pdn.is_some())?;
    Ok((analysis, reading.record.clone()))
}

/// As [`item_formula`], for a fragment read under each rule set it may follow.
pub(super) fn problem_formula(
    problems: Vec<Problem>,
) -> Result<(Analysis, Problem), crate::solve::SolveError> {
    let options = SolveOptions::default();
    let (analysis, problem) = formula_reading(&problems, &options, false)?;
    let problem = problem.clone();
    Ok((analysis, problem))
}

/// Solves one record (under the first of its readings that solves);
/// under a time limit, on a thread of its own that is abandoned when the
/// limit passes: the choice of reading counts against the limit too. A
/// repair or a proof-game search watches the clock itself and answers
/// with the bound it proved, so its thread is given a little longer.
fn solve_limited<'r, C: Candidate>(
    name: Name<'r>,
    readings: &'r [C],
    pdn_first: Option<usize>,
    options: &Arc<SolveOptions>,
    progress: &Progress,
) -> Report<'r> {
    let limit = match options.time_limit {
        Some(limit) if options.solver.is_none() => limit,
        _ => return solve_readings(name, readings, pdn_first, options, None, progress),
    };
    let deadline = Instant::now() + limit;
    let analyses = &options.analyses;
    let waited = if analyses.repair || analyses.from_opening {
        limit + (limit / 4).max(Duration::from_millis(500))
    } else {
        limit
    };
    let (owned, shared, job_name) = (readings.to_vec(), Arc::clone(options), name.to_string());
    let job_progress = Arc::clone(progress);
    let finished = within(waited, move || {
        let name = Name::input(&job_name);
        solve_readings(
            name,
            &owned,
            pdn_first,
            &shared,
            Some(deadline),
            &job_progress,
        )
        .without_record()
    });
    if let Some(mut report) = finished {
        let chosen = readings.iter().find(|r| r.variant() == report.variant);
        report.record = Some(chosen.unwrap_or(&readings[0]).record());
        report.name = name;
        return report;
    }
    let mut report = Report::new(name, readings[0].record());
    report.variant = readings[0].variant();
    report.status = Verdict::Undecided;
    report.micros = limit.as_micros();
    report.err.push(format!(
        "{name}: undecided: the time limit of {} passed before a verdict",
        crate::sat::in_seconds(limit)
    ));
    report
}

/// The first of `readings` whose record the engine solves (the first of
/// all when none does: its verdict is given), solved and analysed; the
/// outcome found while choosing is not computed again. `pdn_first` is the
/// first move number of a PDN game (`None` for the task's format).
fn solve_readings<'r, C: Candidate>(
    name: Name<'r>,
    readings: &'r [C],
    pdn_first: Option<usize>,
    options: &SolveOptions,
    deadline: Option<Instant>,
    progress: &Progress,
) -> Report<'r> {
    let pdn_game = pdn_first.is_some();
    let (chosen, solved) = choose(readings, options, pdn_game, deadline);
    let reading = &readings[chosen];
    let variant = reading.variant();
    let (known, start_from) = reading.facts(options, pdn_game);
    let mut report = Job {
        name,
        record: reading.record(),
        variant,
        options,
        known,
        deadline,
        progress,
        solved,
        numbers: pdn_first.map(|first_number| MoveNumbers {
            first_player: variant.first_player(),
            first_number,
        }),
    }
    .run();
    report.variant = variant;
    report.start_from = Some(start_from);
    if start_from == StartFrom::Opening && report.status == Verdict::Impossible {
        let hint = StartFrom::opening_hint(pdn_first.unwrap_or(1));
        report.err.insert(0, format!("{name}: {hint}"));
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_limit_is_the_dfs_engines_only() {
        let nodes = Limit {
            nodes: Some(100),
            time: None,
        };
        let time = Limit {
            nodes: None,
            time: Some(Duration::from_secs(2)),
        };
        assert_eq!(
            engine_with_limit(EngineKind::Dfs, nodes),
            Ok((Engine::Dfs(nodes), None))
        );
        assert_eq!(
            engine_with_limit(EngineKind::Sat, time),
            Ok((Engine::Sat, Some(Duration::from_secs(2))))
        );
        assert_eq!(
            engine_with_limit(EngineKind::Sat, Limit::default()),
            Ok((Engine::Sat, None))
        );
        assert_eq!(
            engine_with_limit(EngineKind::Sat, nodes),
            Err(OptionsError::SatNodeLimit)
        );
    }
}
