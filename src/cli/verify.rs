//! `postfacto verify`: the judge. Answers to records are accepted or get
//! the first rule they break; a PDN file is checked game by game.

use std::io::Write;
use std::path::Path;

use postfacto::analysis::{repair, repair_game, repair_summary, RepairOptions, RepairOutcome};
use postfacto::archive::{verify_games, GameReport, RulesFrom, Tally, Verdict, VerifyOptions};
use postfacto::board::PartialBoard;
use postfacto::encode::BoardFacts;
use postfacto::notation::{games, parse_answers_on, Answer};
use postfacto::replay::judge;
use postfacto::rules::Variant;

use super::input::{read_input, read_items, Item, Reading, RulesChoice};
use super::{one_line, write_err, Failure, Status};

/// How `verify --pdn` runs.
#[derive(Clone, Copy, Debug)]
pub struct PdnOptions {
    /// The rule set the user chose.
    pub rules: RulesChoice,
    /// The most edits of a repair (`--repair`), if asked.
    pub repair: Option<usize>,
    /// Refuse what is read leniently (`--strict`).
    pub strict: bool,
    /// One JSON object per game per line.
    pub json: bool,
}

/// `verify --pdn`: one line per game, a summary on stderr. Exit 0 when
/// every game with moves replays, 1 when one does not (or cannot be read,
/// or is of rules postfacto does not play), 2 only for a file that cannot
/// be read at all. With `repair` (the most edits), a game whose moves do
/// not replay gets the fewest edits that make them replay, on its line.
pub fn run_pdn(file: &Path, options: PdnOptions, out: &mut impl Write) -> Result<Status, Failure> {
    let input = read_input(Some(file))?;
    let text = input.pdn_text()?;
    let raw: Vec<_> = games(&text).collect();
    let verify = VerifyOptions {
        given: options.rules.given(),
        strict: options.strict,
    };
    let reports = verify_games(&raw, verify);
    let mut tally = Tally::default();
    for (game, report) in raw.iter().zip(&reports) {
        if let Some(warning) = report.rules.as_ref().and_then(|r| r.warning.as_ref()) {
            super::report(&format!(
                "{}: game {} (line {}): {warning}",
                input.name, report.number, report.line
            ));
        }
        tally.add(&report.verdict);
        let repaired = match (options.repair, &report.verdict, &report.rules) {
            (Some(most), Verdict::Illegal(_), Some(rules)) => {
                let options = RepairOptions {
                    max_edits: most,
                    ..RepairOptions::default()
                };
                repair_game(game, rules.variant, options)
                    .map_err(|e| super::fail(Status::Internal, e.to_string()))?
            }
            _ => None,
        };
        let line = if options.json {
            json_report(report, repaired.as_ref()).to_string()
        } else {
            let mut line = report.to_string();
            if let Some(outcome) = &repaired {
                line.push_str(&format!("; {}", repair_summary(outcome)));
            }
            one_line(&line)
        };
        writeln!(out, "{line}").map_err(write_err)?;
    }
    // The summary comes after the games, also on a terminal.
    out.flush().map_err(write_err)?;
    super::report(&format!("{}: {tally}", input.name));
    Ok(if tally.all_ok() {
        Status::Ok
    } else {
        Status::Rejected
    })
}

/// One game of `verify --pdn --format json`: the same keys for every game.
fn json_report(report: &GameReport, repaired: Option<&RepairOutcome>) -> serde_json::Value {
    let (status, reason) = match &report.verdict {
        Verdict::Ok => ("ok", None),
        Verdict::NoMoves => ("no moves", None),
        Verdict::Illegal(why) => ("illegal", Some(why.clone())),
        Verdict::Unreadable(e) => ("unreadable", Some(e.to_string())),
        Verdict::Unsupported(u) => ("unsupported", Some(u.to_string())),
    };
    let from = report.rules.as_ref().map(|r| match r.from {
        RulesFrom::Given => "given",
        RulesFrom::Tag => "tag",
        RulesFrom::Inferred => "inferred",
    });
    let notes: Vec<serde_json::Value> = report
        .notes
        .iter()
        .map(|note| {
            serde_json::json!({
                "kind": note.kind(),
                "line": note.line(),
                "ply": note.ply(),
                "text": note.to_string(),
            })
        })
        .collect();
    let headers: serde_json::Map<String, serde_json::Value> = report
        .tags
        .iter()
        .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
        .collect();
    serde_json::json!({
        "game": report.number,
        "line": report.line,
        "rules": report.rules.as_ref().map(|r| r.variant.name()),
        "rules_from": from,
        "inferred": report.rules.as_ref().map(|r| r.from == RulesFrom::Inferred),
        "status": status,
        "ply": report.ply,
        "reason": reason,
        "notes": notes,
        "headers": headers,
        "warning": report.rules.as_ref().and_then(|r| r.warning.clone()),
        "repair": repaired.map(json_repair),
    })
}

/// A repair outcome as JSON: whether one was needed, its edits, and the
/// minimum proved.
fn json_repair(outcome: &RepairOutcome) -> serde_json::Value {
    match outcome {
        RepairOutcome::NotNeeded(_) => serde_json::json!({"outcome": "not needed", "edits": []}),
        RepairOutcome::NoneWithin(most) => serde_json::json!({
            "outcome": "none within",
            "max_edits": most,
            "edits": [],
        }),
        RepairOutcome::Undecided { at_least } => serde_json::json!({
            "outcome": "undecided",
            "at_least": at_least,
            "summary": repair_summary(outcome),
            "edits": [],
        }),
        RepairOutcome::Repaired(repairs) => {
            let edits: Vec<serde_json::Value> = repairs[0]
                .edits
                .iter()
                .map(|e| {
                    serde_json::json!({
                        "kind": e.kind.name(),
                        "ply": e.ply,
                        "written": e.written,
                        "read": e.read,
                        "text": e.to_string(),
                    })
                })
                .collect();
            serde_json::json!({
                "outcome": "repaired",
                "minimum": repairs[0].edits.len(),
                "summary": repair_summary(outcome),
                "edits": edits,
            })
        }
    }
}

/// `verify INPUT ANSWER`: each record's answer judged. Under several
/// candidate rule sets (`--rules auto`), the first under which every answer
/// is accepted, else the first whose boards the answers are written on.
pub fn run(
    input_path: &Path,
    answer_path: &Path,
    reading: Reading,
    repair: Option<usize>,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let input = read_input(Some(input_path))?;
    let items = read_items(&input, reading)?;
    let answer = read_input(Some(answer_path))?;
    let text = std::str::from_utf8(&answer.bytes).map_err(|_| "the answer is not UTF-8 text");
    let mut candidates: Vec<Variant> = items
        .iter()
        .flat_map(|item| item.readings.iter().map(|r| r.variant))
        .collect();
    candidates.dedup();
    let mut fallback = None;
    for variant in candidates {
        let verdicts = match text
            .map_err(str::to_string)
            .and_then(|t| parse_answers_on(t, variant.topology()).map_err(|e| e.to_string()))
        {
            Err(message) => vec![Err(message)],
            Ok(answers) if answers.len() != items.len() => vec![Err(format!(
                "the input has {} records but the answer has {} boards",
                items.len(),
                answers.len()
            ))],
            Ok(answers) => items
                .iter()
                .zip(&answers)
                .map(|(item, answer)| judged(item, variant, answer, repair))
                .collect(),
        };
        if verdicts.iter().all(Result::is_ok) {
            return print(&verdicts, out);
        }
        if fallback.is_none() || verdicts.len() == items.len() && items.len() > 1 {
            fallback.get_or_insert(verdicts);
        }
    }
    let verdicts = fallback.unwrap_or_else(|| {
        let message = items
            .iter()
            .find_map(|i| i.error.clone())
            .unwrap_or_else(|| "no record to judge".into());
        vec![Err(message)]
    });
    print(&verdicts, out)
}

/// One record's answer under `variant`; with `repair` (the most edits), a
/// rejected record gets the fewest edits after which the answer's start
/// board leads to its end board.
fn judged(
    item: &Item,
    variant: Variant,
    answer: &Answer,
    repair: Option<usize>,
) -> Result<(), String> {
    if let Some(error) = &item.error {
        return Err(error.clone());
    }
    let reader = item
        .readings
        .iter()
        .find(|r| r.variant == variant)
        .ok_or_else(|| format!("the record is not written in {} notation", variant.name()))?;
    let rejected = judge(variant.rules(), &reader.record, answer).map_err(|r| r.to_string());
    match (rejected, repair) {
        (Err(why), Some(most)) => Err(format!(
            "{why}; {}",
            repaired_to(&reader.record, variant, answer, most)
        )),
        (verdict, _) => verdict,
    }
}

/// The repair that makes `record` lead from `answer`'s start to its end.
fn repaired_to(
    record: &postfacto::notation::Record,
    variant: Variant,
    answer: &Answer,
    max_edits: usize,
) -> String {
    let all = variant.topology().all_bits();
    let known = BoardFacts {
        start: Some(PartialBoard {
            board: answer.start,
            known: all,
        }),
        end: Some(PartialBoard {
            board: answer.end,
            known: all,
        }),
    };
    let options = RepairOptions {
        max_edits,
        ..RepairOptions::default()
    };
    match repair(record, variant, known, options) {
        Ok(outcome) => repair_summary(&outcome),
        Err(e) => format!("no repair: {e}"),
    }
}

fn print(verdicts: &[Result<(), String>], out: &mut impl Write) -> Result<Status, Failure> {
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
