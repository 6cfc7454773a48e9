//! An archive checked on the server while the page shows its rows: games
//! checked a chunk at a time as `verify --pdn --limit` checks them, each
//! chunk's rows ready as soon as it is done; the page polls for them.
//!
//! `verify --pdn` infers the rule set of games without one once for the
//! whole file; a chunk knows only its own games, so when any game's rule
//! set was inferred the whole file is checked again at the end and its
//! reports replace the chunks' (the revision says when they differ).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::routes::ApiError;
use postfacto::archive::{verify_games, GameReport, RulesFrom, VerifyOptions};
use postfacto::notation::{games, RawGame};
use postfacto::request::RulesChoice;

/// Games checked at a time: rows appear every few tenths of a second.
const CHUNK: usize = 50;

/// An archive being checked, or checked: its text and a report per game.
#[derive(Debug)]
pub struct Archive {
    /// The file's name (or `pasted`).
    pub name: String,
    text: String,
    total: usize,
    options: VerifyOptions,
    checked: Mutex<Checked>,
    /// Set when the archive is dropped from those kept: its check stops
    /// at the next chunk rather than running to the end for nobody.
    cancelled: AtomicBool,
}

/// What is checked so far.
#[derive(Debug, Default)]
struct Checked {
    reports: Vec<GameReport>,
    done: bool,
    /// Bumped when the whole file's check replaced the chunks' reports.
    revision: u32,
    elapsed: Duration,
}

/// How far the check is, for the page's progress bar and counts.
#[derive(Debug, Serialize)]
pub struct Progress {
    games: usize,
    checked: usize,
    done: bool,
    revision: u32,
    counts: Vec<(&'static str, usize)>,
    check_ms: u64,
}

/// One row of the games table.
#[derive(Debug, Serialize)]
pub struct Row {
    number: usize,
    line: usize,
    event: Option<String>,
    date: Option<String>,
    white: Option<String>,
    black: Option<String>,
    result: Option<String>,
    rules: Option<&'static str>,
    rules_from: Option<&'static str>,
    inferred: bool,
    /// `ok`, `no moves`, `illegal`, `unreadable`, `unsupported`, `undecided`
    /// (as `verify --pdn --format json` says).
    status: &'static str,
    ply: Option<usize>,
    /// The ply the verdict names, as PDN numbers it (`12...`).
    #[serde(rename = "move")]
    move_label: Option<String>,
    reason: Option<String>,
}

fn tag(report: &GameReport, name: &str) -> Option<String> {
    report
        .tags
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.clone())
}

impl Row {
    fn of(report: &GameReport) -> Row {
        let rules = report.rules.as_ref();
        Row {
            number: report.number,
            line: report.line,
            event: tag(report, "Event"),
            date: tag(report, "Date"),
            white: tag(report, "White"),
            black: tag(report, "Black"),
            result: tag(report, "Result"),
            rules: rules.map(|r| r.variant.name()),
            rules_from: rules.map(|r| r.from.name()),
            inferred: rules.is_some_and(|r| r.from == RulesFrom::Inferred),
            status: report.verdict.status(),
            ply: report.ply,
            move_label: report.move_label.clone(),
            reason: report.verdict.reason(),
        }
    }
}

impl Archive {
    /// `bytes` read as PDN, to check with each game's search for its
    /// damaged moves under `limit` (see [`Archive::check`]).
    ///
    /// # Errors
    /// Not text (400).
    pub fn open(
        name: String,
        bytes: &[u8],
        rules: RulesChoice,
        limit: Duration,
    ) -> Result<Archive, ApiError> {
        let text = postfacto::request::pdn_text(bytes)
            .map_err(ApiError::input)?
            .into_owned();
        let total = games(&text).count();
        // Not `VerifyRequest`: it infers the file's rules before its first
        // game is reported, and the page wants rows while the rest is checked.
        let options = VerifyOptions {
            given: rules.given(),
            strict: false,
            limit: Some(limit),
        };
        Ok(Archive {
            name,
            text,
            total,
            options,
            checked: Mutex::new(Checked::default()),
            cancelled: AtomicBool::new(false),
        })
    }

    /// Checks the games in a thread of their own, a chunk at a time.
    pub fn check(archive: &Arc<Archive>) {
        let archive = Arc::clone(archive);
        std::thread::spawn(move || archive.check_all());
    }

    /// Stops the check at the next chunk (the archive is no longer kept).
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    fn lock(&self) -> MutexGuard<'_, Checked> {
        self.checked.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn check_all(&self) {
        let started = Instant::now();
        let raw: Vec<RawGame<'_>> = games(&self.text).collect();
        for chunk in raw.chunks(CHUNK) {
            if self.cancelled() {
                return;
            }
            let reports = verify_games(chunk, self.options);
            let mut checked = self.lock();
            checked.reports.extend(reports);
            checked.elapsed = started.elapsed();
        }
        let inferred = self.lock().reports.iter().any(|r| {
            r.rules
                .as_ref()
                .is_none_or(|r| r.from == RulesFrom::Inferred)
        });
        if inferred && raw.len() > CHUNK && !self.cancelled() {
            let reports = verify_games(&raw, self.options);
            let mut checked = self.lock();
            if checked.reports != reports {
                checked.reports = reports;
                checked.revision += 1;
            }
        }
        let mut checked = self.lock();
        checked.done = true;
        checked.elapsed = started.elapsed();
    }

    /// How many games the file holds.
    pub fn len(&self) -> usize {
        self.total
    }

    /// How far the check is; the counts of each status so far.
    pub fn progress(&self) -> Progress {
        let checked = self.lock();
        let mut counts: Vec<(&'static str, usize)> = Vec::new();
        for report in &checked.reports {
            let status = report.verdict.status();
            match counts.iter_mut().find(|(s, _)| *s == status) {
                Some((_, n)) => *n += 1,
                None => counts.push((status, 1)),
            }
        }
        Progress {
            games: self.total,
            checked: checked.reports.len(),
            done: checked.done,
            revision: checked.revision,
            counts,
            check_ms: checked.elapsed.as_millis() as u64,
        }
    }

    /// Rows `from..from + count` of those checked so far.
    pub fn rows(&self, from: usize, count: usize) -> Vec<Row> {
        let checked = self.lock();
        checked
            .reports
            .iter()
            .skip(from)
            .take(count)
            .map(Row::of)
            .collect()
    }

    /// Game `number` (1-based), once checked: its text read again, and
    /// its report.
    ///
    /// # Errors
    /// No such game, or not checked yet (404).
    pub fn game(&self, number: usize) -> Result<(RawGame<'_>, GameReport), ApiError> {
        let missing = || ApiError::not_found(format!("no game {number} checked in {}", self.name));
        let report = number
            .checked_sub(1)
            .and_then(|i| self.lock().reports.get(i).cloned())
            .ok_or_else(missing)?;
        let raw = games(&self.text).nth(number - 1).ok_or_else(missing)?;
        Ok((raw, report))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archive(games: usize) -> Archive {
        let text = "[GameType \"21\"]\n1. 11-15 23-19 *\n\n".repeat(games);
        let limit = Duration::from_secs(5);
        Archive::open("test".into(), text.as_bytes(), RulesChoice::Default, limit).unwrap()
    }

    #[test]
    fn a_check_runs_to_the_end_and_a_cancelled_one_stops() {
        let whole = archive(CHUNK + 10);
        whole.check_all();
        let progress = whole.progress();
        assert!(progress.done && progress.checked == CHUNK + 10);
        let dropped = archive(CHUNK + 10);
        dropped.cancel();
        dropped.check_all();
        let progress = dropped.progress();
        assert!(!progress.done && progress.checked == 0);
    }

    /// The row's move is the one the verdict's words name, read as the
    /// check read it (`--strict` too), not read a second time.
    #[test]
    fn a_row_names_the_ply_of_its_verdict_as_the_check_read_it() {
        let label = |file: &str, strict: bool| {
            let text = std::fs::read_to_string(file).unwrap();
            let raw: Vec<RawGame<'_>> = games(&text).collect();
            let options = VerifyOptions {
                given: None,
                strict,
                limit: None,
            };
            let report = &verify_games(&raw, options)[0];
            assert!(report
                .to_string()
                .contains(report.move_label.as_deref().unwrap()));
            Row::of(report).move_label
        };
        assert_eq!(
            label("tests/data/misread.pdn", true).as_deref(),
            Some("12... 10-15")
        );
        assert_eq!(
            label("tests/data/damaged.pdn", false).as_deref(),
            Some("2... 19x3")
        );
    }
}
