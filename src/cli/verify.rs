//! `postfacto verify`: the judge. Answers to records are accepted or get
//! the first rule they break; a PDN file is checked game by game.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;

use postfacto::archive::{FileRules, GameReport};
use postfacto::notation::plural;
use postfacto::request::{
    pdn_files, ArchiveWatch, CheckedGame, JudgeRequest, JudgeVerdict, Judgement, RequestError,
    Source, VerifyRequest,
};

use super::ticker::Ticker;
use super::{one_line, write_err, Failure, Status};

/// How `verify --pdn` runs: the library's checks (an archive-less
/// [`VerifyRequest`], each file's bytes added), and how to print them.
#[derive(Clone, Debug)]
pub struct PdnOptions {
    /// The checks asked (`--rules`, `--strict`, `--legal`, `--limit`, `--repair`).
    pub checks: VerifyRequest,
    /// One JSON object per game per line.
    pub json: bool,
    /// No summary line.
    pub quiet: bool,
}

/// `verify --pdn` on a file, or on every `*.pdn` of a folder (each line
/// then names its file); the worst status.
pub fn run_pdn_files(
    path: &Path,
    options: &PdnOptions,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let mut status = Status::Ok;
    for (file, prefix) in pdn_files(path)? {
        status = status.max(run_pdn(&file, prefix.as_deref(), options, out)?);
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
    options: &PdnOptions,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let input = Source::read(Some(file))?;
    let request = options.checks.archive(input.bytes);
    let mut printer = PdnPrinter {
        name: &input.name,
        prefix,
        options,
        ticker: Ticker::start(request.repairs()),
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
    options: &'p PdnOptions,
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

/// `verify INPUT ANSWER`: the library's [`JudgeRequest`] run, its
/// verdicts printed, the repairs' progress on the ticker.
pub fn run(request: &JudgeRequest, quiet: bool, out: &mut impl Write) -> Result<Status, Failure> {
    let ticker = Ticker::start(request.repairs());
    let judgement =
        request.run(&mut |edits| ticker.say(format!("repair, trying {}", plural(edits, "edit"))));
    ticker.finish();
    print(&judgement, quiet, out)
}

/// Prints each verdict (named when there are several: by instance, or by
/// file and instance for a folder's), then a summary line on stderr for
/// more than one (not when `quiet`).
fn print(judgement: &Judgement, quiet: bool, out: &mut impl Write) -> Result<Status, Failure> {
    let Judgement { records, verdicts } = judgement;
    let several = verdicts.len() > 1;
    let files = records.windows(2).any(|w| w[0].file != w[1].file);
    for (i, verdict) in verdicts.iter().enumerate() {
        let prefix = match records.get(i) {
            Some(record) if files => format!("{}: ", record.name()),
            _ if several => format!("instance {}: ", i + 1),
            _ => String::new(),
        };
        match verdict {
            JudgeVerdict::Accepted => writeln!(out, "{prefix}OK"),
            JudgeVerdict::Rejected(why) | JudgeVerdict::Undecided(why) => {
                writeln!(out, "{prefix}{}", one_line(&why.to_string()))
            }
        }
        .map_err(write_err)?;
    }
    if several && !quiet {
        out.flush().map_err(write_err)?;
        let [accepted, rejected, undecided] = judgement.tally();
        super::report(&format!(
            "{}: {accepted} OK, {rejected} rejected, {undecided} undecided",
            plural(verdicts.len(), "record"),
        ));
    }
    Ok(Status::from_exit(judgement.exit_status()))
}
