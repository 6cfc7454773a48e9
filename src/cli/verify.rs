//! `postfacto verify`: the judge. Answers to records are accepted or get
//! the first rule they break; a PDN file is checked game by game.

use std::collections::HashMap;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;
use std::time::Duration;

use postfacto::analysis::{repair_summary, Analysis, RepairOutcome};
use postfacto::archive::{FileRules, GameReport};
use postfacto::board::PartialBoard;
use postfacto::encode::BoardFacts;
use postfacto::notation::plural;
use postfacto::notation::{parse_answers_on, parse_named_answers_on, Answer, NAME_MARK};
use postfacto::replay::{judge_within, Rejection};
use postfacto::request::{ArchiveWatch, CheckedGame, RepairLimits, RequestError, VerifyRequest};
use postfacto::rules::Variant;

use super::input::{files_in, read_input, read_items, Item, Reading};
use super::ticker::Ticker;
use super::{one_line, write_err, Failure, Status};

/// How `verify --pdn` runs.
#[derive(Clone, Copy, Debug)]
pub struct PdnOptions {
    /// The rule set the user named, over the games' tags.
    pub rules: Option<Variant>,
    /// `--repair`, if asked: the most edits.
    pub repair: Option<usize>,
    /// Refuse what is read leniently (`--strict`).
    pub strict: bool,
    /// Whether each `[FEN]` start is reachable (`--legal`).
    pub legal: bool,
    /// One JSON object per game per line.
    pub json: bool,
    /// No summary line.
    pub quiet: bool,
    /// How long one game's judgement, and its repair, may take (`--limit`).
    pub limit: Option<Duration>,
}

/// `verify --pdn` on a file, or on every `*.pdn` of a folder (each line
/// then names its file); the worst status.
pub fn run_pdn_files(
    path: &Path,
    options: PdnOptions,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    if !path.is_dir() {
        return run_pdn(path, None, options, out);
    }
    let pdn = |p: &Path| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pdn"));
    let files = files_in(path, pdn, "*.pdn")?;
    let mut status = Status::Ok;
    for file in &files {
        let named = file.file_name().map(|n| n.to_string_lossy().into_owned());
        status = status.max(run_pdn(file, named.as_deref(), options, out)?);
    }
    Ok(status)
}

/// `verify --pdn`: the library's [`VerifyRequest`] on one file, one line
/// per game as it is checked, a summary on stderr. Exit 0 when every game
/// with moves replays, 1 when one does not (or cannot be read, or is of
/// rules postfacto does not play), 2 only for a file that cannot be read
/// at all, 3 when a game's search or repair ran out of time.
/// `prefix` names the file on each line (a folder's files).
pub fn run_pdn(
    file: &Path,
    prefix: Option<&str>,
    options: PdnOptions,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let input = read_input(Some(file))?;
    let request = VerifyRequest::new(input.bytes)
        .rules(options.rules)
        .strict(options.strict)
        .legal(options.legal)
        .limit(options.limit)
        .repair(options.repair);
    let mut printer = PdnPrinter {
        name: &input.name,
        prefix,
        options,
        ticker: Ticker::start(options.repair.is_some()),
        out,
        failure: None,
    };
    let checked = request.run_with(&mut printer).map_err(|e| match e {
        RequestError::BadInput(_) => Failure::request(Some(&input.name), e),
        other => Failure::request(None, other),
    });
    if let Some(failure) = printer.failure.take() {
        return Err(failure);
    }
    let checked = checked?;
    // The summary comes after the games, also on a terminal.
    printer.out.flush().map_err(write_err)?;
    printer.ticker.finish();
    if !options.quiet {
        super::report(&format!("{}: {}", input.name, checked.tally));
        if let Some(starts) = checked.starts() {
            super::report(&format!("{}: {starts}", input.name));
        }
    }
    if checked.repairs_undecided() {
        super::report(&format!(
            "{}: the time limit passed before some repairs were decided",
            input.name
        ));
    }
    Ok(checked.verdict().into())
}

/// Prints each game of `verify --pdn` as the library checks it, and the
/// repair's progress on the ticker.
struct PdnPrinter<'p, W> {
    name: &'p str,
    prefix: Option<&'p str>,
    options: PdnOptions,
    ticker: Ticker,
    out: &'p mut W,
    /// The first write that failed; the games after it are not checked.
    failure: Option<Failure>,
}

impl<W: Write> ArchiveWatch for PdnPrinter<'_, W> {
    fn inferred(&mut self, rules: &FileRules) {
        if !self.options.quiet {
            super::report(&format!("{}: {rules}", self.name));
        }
    }

    fn repairing(&mut self, game: &GameReport, games: usize, edits: usize) {
        self.ticker.say(format!(
            "game {} of {games}: repair, trying {}",
            game.number,
            plural(edits, "edit")
        ));
    }

    fn checked(&mut self, game: &CheckedGame) -> ControlFlow<()> {
        let report = &game.report;
        if let Some(warning) = report.rules.as_ref().and_then(|r| r.warning.as_ref()) {
            super::report(&format!(
                "{}: game {} (line {}): {warning}",
                self.name, report.number, report.line
            ));
        }
        let written = match (self.prefix, self.options.json) {
            (_, true) => writeln!(self.out, "{}", game.json(self.name)),
            (Some(name), false) => writeln!(self.out, "{name}: {}", one_line(&game.text())),
            (None, false) => writeln!(self.out, "{}", one_line(&game.text())),
        };
        match written {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                self.failure = Some(write_err(e));
                ControlFlow::Break(())
            }
        }
    }
}

/// One record to judge: the file it was read from and, in a file of
/// several records (or a PDN file), its number there, as `solve` names it.
struct Judged {
    file: String,
    instance: Option<(usize, usize)>,
    game: bool,
    item: Item,
}

impl Judged {
    /// The record as `solve` names its answer (`file: instance 2 (line 5)`).
    fn name(&self) -> String {
        postfacto::request::Name {
            input: &self.file,
            instance: self.instance,
            game: self.game,
        }
        .to_string()
    }
}

/// The records of `path`: a file, or every `*.in` of a folder in name order.
fn records_of(path: &Path, reading: Reading) -> Result<Vec<Judged>, Failure> {
    let files = if path.is_dir() {
        let record_file = |p: &Path| p.is_file() && p.extension().is_some_and(|x| x == "in");
        files_in(path, record_file, "*.in")?
    } else {
        vec![path.to_path_buf()]
    };
    let mut records = Vec::new();
    for file in &files {
        let input = read_input(Some(file))?;
        let items = read_items(&input, reading)?;
        let count = items.len();
        for (index, item) in items.into_iter().enumerate() {
            records.push(Judged {
                file: input.name.clone(),
                instance: (count > 1 || item.game.is_some())
                    .then_some((item.game.unwrap_or(index + 1), item.line)),
                game: item.game.is_some(),
                item,
            });
        }
    }
    Ok(records)
}

/// `verify INPUT ANSWER`: each record's answer judged (INPUT a file, or a
/// folder: every `*.in` inside). Under several candidate rule sets
/// (`--rules auto`), the first under which every answer is accepted, else
/// the first whose boards the answers are written on.
pub fn run(
    input_path: &Path,
    answer_path: &Path,
    reading: Reading,
    (repair, limit): (Option<RepairLimits>, Option<Duration>),
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let records = records_of(input_path, reading)?;
    let answer = read_input(Some(answer_path))?;
    let text = std::str::from_utf8(&answer.bytes).map_err(|_| AnswerError::NotText);
    let mut candidates: Vec<Variant> = records
        .iter()
        .flat_map(|r| r.item.readings.iter().map(|r| r.variant))
        .collect();
    candidates.dedup();
    let mut fallback = None;
    for variant in candidates {
        let verdicts = match text
            .clone()
            .and_then(|t| answers_by_record(t, variant, &records))
        {
            Err(error) => vec![Err(error.to_string().into())],
            Ok(answers) if answers.len() != records.len() => vec![Err(format!(
                "the input has {} but the answer has {}",
                plural(records.len(), "record"),
                plural(answers.len(), "board")
            )
            .into())],
            Ok(answers) => records
                .iter()
                .zip(&answers)
                .map(|(record, answer)| match answer {
                    Some(answer) => judged(&record.item, variant, answer, (repair, limit)),
                    None => Err("no answer was given for it".to_string().into()),
                })
                .collect(),
        };
        if verdicts.iter().all(Result::is_ok) {
            return print(&records, &verdicts, out);
        }
        if fallback.is_none() || verdicts.len() == records.len() && records.len() > 1 {
            fallback.get_or_insert(verdicts);
        }
    }
    let verdicts = fallback.unwrap_or_else(|| {
        let message = records
            .iter()
            .find_map(|r| r.item.error.as_ref().map(ToString::to_string))
            .unwrap_or_else(|| "no record to judge".into());
        vec![Err(message.into())]
    });
    print(&records, &verdicts, out)
}

/// Why an answer file gives no answer to match with the records.
#[derive(Clone, Debug, thiserror::Error)]
enum AnswerError {
    #[error("the answer is not UTF-8 text")]
    NotText,
    #[error(transparent)]
    Answers(#[from] postfacto::notation::ParseAnswerError),
    #[error("the answer names no record of {input} (its first answer is named '{first}')")]
    NamesNoRecord { input: String, first: String },
}

/// The answer of each record: by its name when `solve` named a batch's
/// answers (a record without an answer is a name alone: `None`), else in
/// order.
fn answers_by_record(
    text: &str,
    variant: Variant,
    records: &[Judged],
) -> Result<Vec<Option<Answer>>, AnswerError> {
    let topology = variant.topology();
    let Some(blocks) = parse_named_answers_on(text, topology)? else {
        return Ok(parse_answers_on(text, topology)?
            .into_iter()
            .map(Some)
            .collect());
    };
    let names: Vec<Place> = text.lines().filter_map(Place::of_name).collect();
    let index: HashMap<&Place, usize> = names.iter().enumerate().map(|(i, p)| (p, i)).collect();
    let found: Vec<Option<usize>> = records
        .iter()
        .map(|record| {
            let place = Place::of_record(record);
            let from_stdin = Place {
                file: STDIN.to_string(),
                instance: place.instance,
            };
            index
                .get(&place)
                .or_else(|| index.get(&from_stdin))
                .copied()
        })
        .collect();
    if found.iter().all(Option::is_none) {
        let first = names.first().map_or(String::new(), |p| p.file.clone());
        let input = match records {
            [one, ..] if records.iter().all(|r| r.file == one.file) => format!("'{}'", one.file),
            _ => "the input".to_string(),
        };
        return Err(AnswerError::NamesNoRecord { input, first });
    }
    Ok(found
        .into_iter()
        .map(|i| i.and_then(|i| blocks[i].first().copied()))
        .collect())
}

/// How standard input is named; its answers match a file's records by number.
const STDIN: &str = "<stdin>";

/// Where a named answer belongs: the file name (without its folder, so a
/// batch solved elsewhere still matches) and the record's number there.
#[derive(Debug, PartialEq, Eq, Hash)]
struct Place {
    file: String,
    instance: Option<usize>,
}

impl Place {
    /// The place a `==> NAME <==` line names; `None` for other lines.
    fn of_name(line: &str) -> Option<Place> {
        let name = line
            .strip_prefix(NAME_MARK)?
            .trim_end()
            .strip_suffix("<==")?
            .trim_end();
        for what in [": instance ", ": game "] {
            let Some((file, rest)) = name.rsplit_once(what) else {
                continue;
            };
            if let Some(n) = rest.split(' ').next().and_then(|n| n.parse().ok()) {
                return Some(Place::new(file, Some(n)));
            }
        }
        Some(Place::new(name, None))
    }

    fn of_record(record: &Judged) -> Place {
        Place::new(&record.file, record.instance.map(|(n, _)| n))
    }

    fn new(file: &str, instance: Option<usize>) -> Place {
        let base = Path::new(file)
            .file_name()
            .map_or(file.to_string(), |n| n.to_string_lossy().into_owned());
        Place {
            file: base,
            instance,
        }
    }
}

/// Why a record's answer is not accepted, and whether its repair ran out
/// of time.
#[derive(Clone, Debug)]
struct Rejected {
    why: String,
    undecided: bool,
}

impl From<String> for Rejected {
    fn from(why: String) -> Rejected {
        Rejected {
            why,
            undecided: false,
        }
    }
}

/// One record's answer under `variant`; with `repair`, a rejected record
/// gets the fewest edits after which the answer's start board leads to its
/// end board.
fn judged(
    item: &Item,
    variant: Variant,
    answer: &Answer,
    (repair, limit): (Option<RepairLimits>, Option<Duration>),
) -> Result<(), Rejected> {
    if let Some(error) = &item.error {
        return Err(error.to_string().into());
    }
    let reader = item
        .readings
        .iter()
        .find(|r| r.variant == variant)
        .ok_or_else(|| format!("the record is not written in {} notation", variant.name()))?;
    let rejected = match judge_within(variant.rules(), &reader.record, answer, limit) {
        Err(Rejection::Undecided(why)) => {
            return Err(Rejected {
                why,
                undecided: true,
            })
        }
        other => other.map_err(|r| r.to_string()),
    };
    match (rejected, repair) {
        (Err(why), Some(asked)) => {
            let (summary, undecided) = repaired_to(&reader.record, variant, answer, asked);
            Err(Rejected {
                why: format!("{why}; {summary}"),
                undecided,
            })
        }
        (verdict, _) => verdict.map_err(Rejected::from),
    }
}

/// The repair that makes `record` lead from `answer`'s start to its end,
/// in one line, and whether it ran out of time.
fn repaired_to(
    record: &postfacto::notation::Record,
    variant: Variant,
    answer: &Answer,
    asked: RepairLimits,
) -> (String, bool) {
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
    let ticker = Ticker::start(true);
    let mut progress = |k: usize| ticker.say(format!("repair, trying {}", plural(k, "edit")));
    let analysis = Analysis::new(variant).facts(known);
    match analysis.repair(record, asked.options(), &mut progress) {
        Ok(outcome) => (
            repair_summary(&outcome),
            matches!(outcome, RepairOutcome::Undecided { .. }),
        ),
        Err(e) => (format!("no repair: {e}"), false),
    }
}

/// Prints each verdict (named when there are several: by instance, or by
/// file and instance for a folder's), then a summary line on stderr for
/// more than one; the status is 3 when a repair ran out of time, else 1
/// when an answer is rejected.
fn print(
    records: &[Judged],
    verdicts: &[Result<(), Rejected>],
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let several = verdicts.len() > 1;
    let files = records.windows(2).any(|w| w[0].file != w[1].file);
    let mut tally = [0usize; 3];
    for (i, verdict) in verdicts.iter().enumerate() {
        let prefix = match records.get(i) {
            Some(record) if files => format!("{}: ", record.name()),
            _ if several => format!("instance {}: ", i + 1),
            _ => String::new(),
        };
        match verdict {
            Ok(()) => {
                tally[0] += 1;
                writeln!(out, "{prefix}OK")
            }
            Err(problem) => {
                tally[if problem.undecided { 2 } else { 1 }] += 1;
                writeln!(out, "{prefix}{}", one_line(&problem.why))
            }
        }
        .map_err(write_err)?;
    }
    if several {
        out.flush().map_err(write_err)?;
        super::report(&format!(
            "{}: {} OK, {} rejected, {} undecided",
            plural(verdicts.len(), "record"),
            tally[0],
            tally[1],
            tally[2]
        ));
    }
    Ok(if tally[2] > 0 {
        Status::Undecided
    } else if tally[1] > 0 {
        Status::Rejected
    } else {
        Status::Ok
    })
}
