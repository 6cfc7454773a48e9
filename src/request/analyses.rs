//! The analyses of one record under one rule set (`solve`'s options:
//! explanations, proofs, repairs, proof-game prefixes, counts, minimum
//! boards), each answer replayed and fact-checked before it is reported.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use crate::analysis::{
    repair_summary, Analysis, Count, RepairOptions, RepairOutcome, Repairs, SolverProof,
};
use crate::board::Board;
use crate::encode::BoardFacts;
use crate::notation::{plural, Answer, MoveNumbers, Record};
use crate::reach::{shortest_prefix, Prefix, PrefixOutcome, ReachError};
use crate::rules::Variant;
use crate::solve::{check_facts, checked_answer, Outcome, Reconstructor, SolveError};

use super::record::{Analyses, Progress, SolveOptions};
use super::report::{Name, PrefixReport, Report, Verdict};

/// What `--from-opening` says of the prefix's length: proved the
/// shortest, or the bound proved and over how many start boards.
fn prefix_line(prefix: &Prefix) -> String {
    let plies = prefix.game.record.moves.len();
    if prefix.minimal {
        return format!(
            "shortest prefix: {}; no legal game of fewer plies reaches a start board of these moves",
            crate::notation::plies(plies)
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
pub(super) struct Job<'a, 's> {
    pub(super) name: Name<'a>,
    pub(super) record: &'a Record,
    pub(super) variant: Variant,
    pub(super) options: &'s SolveOptions,
    /// What is known of this record's boards besides its moves.
    pub(super) known: BoardFacts,
    /// When a repair must stop (`--limit`).
    pub(super) deadline: Option<Instant>,
    /// Where long work says how far it is.
    pub(super) progress: &'s Progress,
    /// The record solved already (to choose its reading), if it was.
    pub(super) solved: Option<Result<Outcome, SolveError>>,
    /// How a PDN game numbers its moves (`None`: plies are named by number).
    pub(super) numbers: Option<MoveNumbers>,
}

impl<'a> Job<'a, '_> {
    pub(super) fn run(&self) -> Report<'a> {
        let started = Instant::now();
        let mut report = Report::new(self.name, self.record);
        let result = self.fill(&mut report);
        report.micros = started.elapsed().as_micros();
        if let Err(e) = result {
            if e.is_undecided() {
                report.status = Verdict::Undecided;
                report.err.push(format!("{}: undecided: {e}", self.name));
            } else if matches!(e, SolveError::Unsupported(_)) {
                // A request this engine cannot serve (a damaged record for DFS).
                report.status = Verdict::BadInput;
                report.err.push(format!("{}: {e}", self.name));
            } else {
                report.status = Verdict::Internal;
                report.err.push(format!("{}: {e}", self.name));
            }
        }
        report
    }

    /// Replays `start` with the record's moves (a damaged record's as
    /// `filled` fills them in, checked to fit what is written).
    fn checked(
        &self,
        start: Board,
        filled: Option<&Record>,
        who: &str,
    ) -> Result<Answer, SolveError> {
        match filled {
            Some(filled) => {
                crate::solve::check_filled(self.record, filled, who)?;
                checked_answer(filled, start, who, self.variant())
            }
            None => checked_answer(self.record, start, who, self.variant()),
        }
    }

    /// The reconstruction the settings ask for, under this record's rules.
    fn reconstructor(&self) -> Reconstructor {
        self.options.reconstructor(self.variant, self.known)
    }

    /// The analyses of this record's rule set and facts.
    fn analysis(&self) -> Analysis {
        Analysis::new(self.variant)
            .facts(self.known)
            .numbered(self.numbers)
    }

    fn options(&self) -> &Analyses {
        &self.options.analyses
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    /// Options no analysis can serve (the binary refuses them earlier;
    /// Python's calls come here): bad input, said in `report`.
    fn refused(&self, report: &mut Report) -> bool {
        if self.options().count_limit > 0 {
            return false;
        }
        // A count that keeps nothing has no answer to give.
        report.status = Verdict::BadInput;
        let name = self.name;
        report
            .err
            .push(format!("{name}: --count-limit must be at least 1"));
        true
    }

    fn fill(&self, report: &mut Report) -> Result<(), SolveError> {
        if self.refused(report) {
            return Ok(());
        }
        if let Some(path) = &self.options().proof {
            self.proof(path, report)?;
            if report.status == Verdict::BadInput {
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
        if options.minimize || options.max_per_side.is_some() {
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
                report.status = Verdict::Undecided;
                report
                    .err
                    .push(format!("{}: undecided: {reason}", self.name));
                Ok(())
            }
        }
    }

    /// Reports an impossible record with the smallest set of conflicting rules.
    fn impossible(
        &self,
        engine_reason: Option<String>,
        report: &mut Report,
    ) -> Result<(), SolveError> {
        let engine = self.options.engine.name();
        let (why, explanation) =
            self.analysis()
                .confirm_impossible(self.record, engine_reason, engine)?;
        report.status = Verdict::Impossible;
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
                !(v.is_forced()
                    && v.written.known().is_none()
                    && variant.write_written(&v.written) == variant.write_move(&v.played))
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
        if let Some(command) = &self.options.solver {
            return self.solver_proof(command, path, report);
        }
        let format = self.options().proof_format;
        let mut bytes = Vec::new();
        if self.analysis().proof(self.record, format, &mut bytes)? {
            if let Err(e) = std::fs::write(path, bytes) {
                report.status = Verdict::BadInput;
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
        let limit = self.options.time_limit;
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
            (self.progress)(format!(
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
            RepairOutcome::Repaired(found) => self.repaired(found, options.all, report)?,
            outcome @ RepairOutcome::Undecided { .. } => {
                report.status = Verdict::Undecided;
                report
                    .err
                    .push(format!("{}: {}", self.name, repair_summary(&outcome)));
            }
            outcome @ RepairOutcome::NoneWithin(_) => {
                report.status = Verdict::Impossible;
                report
                    .err
                    .push(format!("{}: {}", self.name, repair_summary(&outcome)));
            }
        }
        Ok(())
    }

    /// The repairs found, each correction once (one found under several
    /// labels, a square or a whole move misread, is one repair), each
    /// answer replayed with its repaired moves and checked against the
    /// facts: with `all`, every one, each named; else the first in the
    /// spec's order, and how many others there are.
    fn repaired(&self, found: Repairs, all: bool, report: &mut Report) -> Result<(), SolveError> {
        let distinct = found.distinct();
        let repairs = if all { &distinct[..] } else { &distinct[..1] };
        let edits = repairs[0].edits.len();
        let (many, others) = if all && !found.complete {
            // The search stopped at --count-limit: these are the first
            // found, and others may exist.
            (
                format!("at least {} of", plural(repairs.len(), "repair")),
                "; the search for more stopped at --count-limit".to_string(),
            )
        } else if all {
            (
                format!("{} of", plural(repairs.len(), "repair")),
                String::new(),
            )
        } else if distinct.len() > 1 || !found.complete {
            let others = format!("; {}; --all lists them", found.others());
            ("repaired with".to_string(), others)
        } else {
            ("repaired with".to_string(), format!("; {}", found.others()))
        };
        report.err.push(format!(
            "{}: {many} {}; no repair of {} exists{others}",
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
            let label = if all {
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
            report.answer_edits.push(found.edits.clone());
        }
        report.stats = Some(repairs[0].solution.stats);
        report.repairs = Some(repairs[0].edits.clone());
        if all {
            report.analysed.count = Some((repairs.len(), found.complete));
        }
        Ok(())
    }

    fn minimize(&self, report: &mut Report) -> Result<(), SolveError> {
        let most = self.options().max_per_side;
        let Some(minimum) = self.analysis().minimum(self.record, most)? else {
            if let Some(cap) = most {
                report.status = Verdict::Impossible;
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
        if self.options().minimize {
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
        (self.progress)(format!("{}: reach from the opening", self.name));
        let mut progress = |i: usize, of: usize, bound: u32| {
            (self.progress)(format!(
                "{}: reach from the opening: start board {} of {of}, a game of {bound} plies",
                self.name,
                i + 1
            ));
        };
        // Captures written whole (PDN) are moves, not damaged ones: the
        // search takes the reading solve takes (issue 44, item 2).
        let read = self.analysis().as_solved(self.record)?;
        let whole = matches!(read, std::borrow::Cow::Owned(_)).then(|| read.into_owned());
        let outcome = shortest_prefix(
            self.variant(),
            whole.as_ref().unwrap_or(self.record),
            self.known,
            self.deadline,
            &mut progress,
        )
        .map_err(|e| match e {
            ReachError::Formula(m) => SolveError::Unsupported(m),
            other => SolveError::ProofGame(Box::new(other)),
        })?;
        let name = self.name;
        match outcome {
            PrefixOutcome::Found(prefix) => self.found_prefix(prefix, whole, report),
            PrefixOutcome::Impossible => self.impossible(None, report),
            PrefixOutcome::Unreachable { reason } => {
                report.status = Verdict::Impossible;
                report.err.push(format!(
                    "{name}: no legal game from the opening reaches a start board of these moves: {reason}"
                ));
                Ok(())
            }
            PrefixOutcome::Undecided { at_least } => {
                report.status = Verdict::Undecided;
                report.err.push(format!(
                    "{name}: undecided: no prefix found; none of fewer than {at_least} plies from the opening"
                ));
                Ok(())
            }
        }
    }

    /// A prefix found: its start board's answer (replayed, held to the
    /// facts) and the game from the opening.
    fn found_prefix(
        &self,
        prefix: Prefix,
        whole: Option<Record>,
        report: &mut Report,
    ) -> Result<(), SolveError> {
        let name = self.name;
        let answer = self.checked(prefix.game.end, whole.as_ref(), "the proof-game search")?;
        check_facts(&answer, self.known)?;
        report.filled.extend(whole);
        let _ = writeln!(
            report.text,
            "{name}: from the opening: {}",
            self.numbered(&prefix.game.record)
        );
        let _ = writeln!(report.text, "{name}: {}", prefix_line(&prefix));
        report.answers.push(answer);
        report.prefix = Some(PrefixReport {
            record: prefix.game.record,
            minimal: prefix.minimal,
            lower_bound: prefix.lower_bound,
        });
        Ok(())
    }

    /// `record`'s moves with move numbers, as this rule set writes them.
    fn numbered(&self, record: &Record) -> String {
        let variant = self.variant();
        crate::notation::numbered_moves(record, variant.first_player(), |m| variant.write_move(m))
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
            self.tell_unique(&count, &squares, report);
        }
        Ok(())
    }

    /// `--unique`: whether every answer puts the same pieces on the
    /// squares told apart, or where two answers differ.
    fn tell_unique(&self, count: &Count, squares: &str, report: &mut Report) {
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
}
