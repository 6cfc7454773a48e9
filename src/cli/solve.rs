//! `postfacto solve`: answers, and with options, explanations, proofs,
//! optimal answers and counts.

use std::io::Write;

use varisat::ProofFormat;

use postfacto::analysis::{
    count_start_boards, explain_impossible, forced_facts, minimize_pieces, write_proof,
    CountOptions, Limits,
};
use postfacto::notation::{Answer, Record};
use postfacto::rules::Variant;
use postfacto::solve::{checked_answer_with, solve_with, Engine, InternalError, Outcome};

use super::args::{AnalysisArgs, ProofFormatArg};
use super::{fail, instance_name, read_input, read_records, write_err, Failure, Input, Status};

/// Runs `solve` on every record of `file`.
pub fn run(
    file: Option<&std::path::Path>,
    engine: Engine,
    variant: Variant,
    options: &AnalysisArgs,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    if engine != Engine::Sat && variant != Variant::English {
        return Err(fail(
            Status::BadInput,
            format!(
                "--engine dfs knows English rules only; use the SAT engine for {}",
                variant.name()
            ),
        ));
    }
    if options.any() && engine != Engine::Sat {
        return Err(fail(
            Status::BadInput,
            "--explain, --proof, --minimize, --max-per-side, --count, --all and --unique need the SAT engine",
        ));
    }
    let input = read_input(file)?;
    let records = read_records(&input, variant)?;
    if options.proof.is_some() && records.len() != 1 {
        return Err(fail(
            Status::BadInput,
            format!(
                "--proof needs an input with exactly one record ({} has {})",
                input.name,
                records.len()
            ),
        ));
    }
    let mut solver = Solve {
        input: &input,
        records: &records,
        options,
        engine,
        variant,
        printed: 0,
    };
    let mut status = Status::Ok;
    for i in 0..records.len() {
        let name = instance_name(&input, &records, i);
        let verdict = solver.one(i, out).or_else(|e| match e {
            Problem::Internal(e) => {
                eprintln!("postfacto: {name}: {e}");
                Ok(Status::Internal)
            }
            Problem::Stop(failure) => Err(failure),
        })?;
        status = status.max(verdict);
    }
    Ok(status)
}

/// Why one record could not be finished.
enum Problem {
    /// A bug: reported, and the batch goes on.
    Internal(InternalError),
    /// Output failed: the command stops.
    Stop(Failure),
}

impl From<InternalError> for Problem {
    fn from(e: InternalError) -> Problem {
        Problem::Internal(e)
    }
}

impl From<std::io::Error> for Problem {
    fn from(e: std::io::Error) -> Problem {
        Problem::Stop(write_err(e))
    }
}

struct Solve<'a> {
    input: &'a Input,
    records: &'a [Record],
    options: &'a AnalysisArgs,
    engine: Engine,
    variant: Variant,
    printed: usize,
}

impl Solve<'_> {
    fn name(&self, i: usize) -> String {
        instance_name(self.input, self.records, i)
    }

    /// Prints an answer, a blank line between answers.
    fn print(&mut self, answer: &Answer, out: &mut impl Write) -> std::io::Result<()> {
        if self.printed > 0 {
            writeln!(out)?;
        }
        self.printed += 1;
        write!(out, "{answer}")
    }

    fn one(&mut self, i: usize, out: &mut impl Write) -> Result<Status, Problem> {
        let record = &self.records[i];
        if let Some(path) = &self.options.proof {
            self.proof(i, path)?;
        }
        if self.options.count || self.options.all || self.options.unique {
            return self.count(i, out);
        }
        if self.options.minimize.is_some() || self.options.max_per_side.is_some() {
            return self.minimize(i, out);
        }
        match solve_with(record, self.engine, self.variant)? {
            Outcome::Solved(solution) => {
                self.print(&solution.answer, out)?;
                if self.options.explain {
                    self.explain_solved(i, &solution.answer, out)?;
                }
                Ok(Status::Ok)
            }
            Outcome::Impossible { reason, .. } => self.impossible(i, reason, out),
            Outcome::GaveUp { reason, .. } => {
                eprintln!("postfacto: {}: undecided: {reason}", self.name(i));
                Ok(Status::Undecided)
            }
            _ => Err(InternalError("unknown outcome".into()).into()),
        }
    }

    /// Reports an impossible record with the smallest set of conflicting rules.
    fn impossible(
        &mut self,
        i: usize,
        engine_reason: Option<String>,
        out: &mut impl Write,
    ) -> Result<Status, Problem> {
        let record = &self.records[i];
        let explanation = explain_impossible(record, self.variant)?.ok_or_else(|| {
            InternalError(format!(
                "the {} engine found no start board, but the SAT formula has one",
                self.engine.name()
            ))
        })?;
        let why = if explanation.groups.is_empty() {
            engine_reason.unwrap_or_default()
        } else {
            explanation.one_line()
        };
        eprintln!(
            "postfacto: {}: no start position makes these moves legal: {why}",
            self.name(i)
        );
        if self.options.explain {
            write!(out, "{}", explanation.detailed())?;
        }
        Ok(Status::Rejected)
    }

    fn explain_solved(
        &mut self,
        i: usize,
        answer: &Answer,
        out: &mut impl Write,
    ) -> Result<(), Problem> {
        let reports = forced_facts(&self.records[i], self.variant, &answer.start)?;
        writeln!(
            out,
            "\nstart board, square by square (forced: every answer has it, because of the plies named):"
        )?;
        let mut free = Vec::new();
        for report in reports {
            if report.is_free_empty() {
                free.push(report.square.to_string());
            } else {
                writeln!(out, "{report}")?;
            }
        }
        if !free.is_empty() {
            writeln!(
                out,
                "empty here, but another answer may put a piece on: {}",
                free.join(" ")
            )?;
        }
        Ok(())
    }

    fn proof(&mut self, i: usize, path: &std::path::Path) -> Result<(), Problem> {
        let format = match self.options.proof_format {
            ProofFormatArg::Drat => ProofFormat::Drat,
            ProofFormatArg::Varisat => ProofFormat::Varisat,
        };
        let mut bytes = Vec::new();
        if write_proof(&self.records[i], self.variant, format, &mut bytes)? {
            std::fs::write(path, bytes).map_err(|e| {
                Problem::Stop(fail(
                    Status::BadInput,
                    format!("cannot write '{}': {e}", path.display()),
                ))
            })?;
            eprintln!(
                "postfacto: {}: proof of impossibility written to {} (it refers to the formula `postfacto cnf` prints)",
                self.name(i),
                path.display()
            );
        } else {
            eprintln!(
                "postfacto: {}: no proof written: the record is solvable",
                self.name(i)
            );
        }
        Ok(())
    }

    fn minimize(&mut self, i: usize, out: &mut impl Write) -> Result<Status, Problem> {
        let record = &self.records[i];
        let limits = Limits {
            max_per_side: self.options.max_per_side,
        };
        let Some(minimum) = minimize_pieces(record, self.variant, limits)? else {
            if limits.max_per_side.is_some() {
                eprintln!(
                    "postfacto: {}: no start position with at most {} pieces per side makes these moves legal",
                    self.name(i),
                    limits.max_per_side.unwrap_or_default()
                );
                return Ok(Status::Rejected);
            }
            return self.impossible(i, None, out);
        };
        let answer = checked_answer_with(record, minimum.start, "the minimizer", self.variant)?;
        self.print(&answer, out)?;
        if self.options.minimize.is_some() {
            let fewer = if minimum.pieces == 0 {
                String::new()
            } else {
                format!(
                    "; no start board has {} (unsatisfiable)",
                    minimum.pieces - 1
                )
            };
            eprintln!(
                "postfacto: {}: fewest pieces: {} with {} king(s){fewer}; {} solver calls",
                self.name(i),
                minimum.pieces,
                minimum.kings,
                minimum.solves
            );
        }
        if self.options.explain {
            self.explain_solved(i, &answer, out)?;
        }
        Ok(Status::Ok)
    }

    fn count(&mut self, i: usize, out: &mut impl Write) -> Result<Status, Problem> {
        let record = &self.records[i];
        // --unique alone needs two boards at most: one, or two that differ.
        let limit = if self.options.unique && !(self.options.count || self.options.all) {
            2
        } else {
            self.options
                .count_limit
                .max(2 * usize::from(self.options.unique))
        };
        let count = count_start_boards(
            record,
            self.variant,
            CountOptions {
                limit,
                others_empty: false,
            },
        )?;
        if count.boards.is_empty() {
            return self.impossible(i, None, out);
        }
        let squares = count
            .squares
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        let mut answers = Vec::with_capacity(count.boards.len());
        for &board in &count.boards {
            answers.push(checked_answer_with(
                record,
                board,
                "the counter",
                self.variant,
            )?);
        }
        if self.options.all {
            for answer in &answers {
                self.print(answer, out)?;
            }
        }
        if self.options.count || self.options.all {
            let line = format!(
                "{}: {} start boards, told apart by squares {squares}",
                self.name(i),
                count.words(limit)
            );
            if self.options.all {
                eprintln!("postfacto: {line}");
            } else {
                writeln!(out, "{line}")?;
            }
        }
        if self.options.unique {
            if let ([_], true) = (count.boards.as_slice(), count.complete) {
                writeln!(
                    out,
                    "{}: unique: every answer puts the same pieces on squares {squares}",
                    self.name(i)
                )?;
            } else {
                let (a, b) = (count.boards[0], count.boards[1]);
                let differ: Vec<String> = count
                    .squares
                    .iter()
                    .filter(|&&s| a.get(s) != b.get(s))
                    .map(|&s| {
                        let say = |p: Option<postfacto::board::Piece>| {
                            p.map_or("empty".to_string(), |p| p.describe())
                        };
                        format!("{s} ({} or {})", say(a.get(s)), say(b.get(s)))
                    })
                    .collect();
                writeln!(
                    out,
                    "{}: not unique: answers differ on square(s) {}",
                    self.name(i),
                    differ.join(", ")
                )?;
            }
        }
        Ok(Status::Ok)
    }
}
