//! `verify --pdn` as a request: a PDN archive checked game by game, each
//! game under its rule set (the one given, its tag, or inferred once for
//! the file), with the fewest edits that make an illegal game replay when
//! a repair is asked. The binary prints what [`VerifyRequest::run_with`]
//! reports as it goes; Python takes the whole [`CheckedArchive`].

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::Path;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::analysis::{repair_game, repair_summary_numbered, RepairOptions, RepairOutcome};
use crate::archive::{
    move_numbers, reading, verify_file, FileRules, GameReport, RulesFrom, Tally, Verdict,
    VerifyOptions,
};
use crate::notation::{games, reads_as_records_only, to_fen, GameReading, MoveNumbers, RawGame};
use crate::output::JsonEdit;
use crate::rules::Variant;

use super::input::pdn_text;
use super::{start_legality, InputError, Legality, RequestError};
use crate::board::{Board, Color};

/// How far a repair may go: the most edits, and how long one record's or
/// game's repair may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RepairLimits {
    /// The most edits tried.
    pub max_edits: usize,
    /// The time one repair may take.
    pub limit: Option<Duration>,
}

impl RepairLimits {
    /// The analysis's options for one repair starting now.
    pub fn options(self) -> RepairOptions {
        RepairOptions {
            max_edits: self.max_edits,
            deadline: self.limit.map(|limit| Instant::now() + limit),
            ..RepairOptions::default()
        }
    }
}

/// A PDN archive checked game by game, as `verify --pdn` checks it.
#[derive(Clone, Debug)]
pub struct VerifyRequest {
    /// Shared: a request is cloned for each game repaired on its own.
    bytes: std::sync::Arc<[u8]>,
    options: VerifyOptions,
    repair: Option<usize>,
    legal: bool,
}

impl VerifyRequest {
    /// The archive's bytes (UTF-8 or not: see [`pdn_text`]).
    pub fn new(bytes: impl Into<Vec<u8>>) -> VerifyRequest {
        VerifyRequest {
            bytes: bytes.into().into(),
            options: VerifyOptions::default(),
            repair: None,
            legal: false,
        }
    }

    /// The archive in the file at `path`.
    ///
    /// # Errors
    /// The file cannot be read.
    pub fn from_path(path: &Path) -> Result<VerifyRequest, InputError> {
        std::fs::read(path)
            .map(VerifyRequest::new)
            .map_err(|source| InputError::Io {
                path: path.display().to_string(),
                source,
            })
    }

    /// Under the rule set named, over the games' tags.
    #[must_use]
    pub fn rules(mut self, given: Option<Variant>) -> VerifyRequest {
        self.options.given = given;
        self
    }

    /// Refusing what real archives write but the standard does not.
    #[must_use]
    pub fn strict(mut self, strict: bool) -> VerifyRequest {
        self.options.strict = strict;
        self
    }

    /// Each game's judgement, and its repair, may take `limit`.
    #[must_use]
    pub fn limit(mut self, limit: Option<Duration>) -> VerifyRequest {
        self.options.limit = limit;
        self
    }

    /// A game with an illegal move gets the fewest edits (at most
    /// `max_edits`) that make it replay from its start; `None`: no repair.
    #[must_use]
    pub fn repair(mut self, max_edits: Option<usize>) -> VerifyRequest {
        self.repair = max_edits;
        self
    }

    /// The same checks of another archive (`verify --pdn` on a folder
    /// asks each file the same).
    #[must_use]
    pub fn archive(&self, bytes: impl Into<Vec<u8>>) -> VerifyRequest {
        VerifyRequest {
            bytes: bytes.into().into(),
            ..self.clone()
        }
    }

    /// Whether games with an illegal move get a repair.
    pub fn repairs(&self) -> bool {
        self.repair.is_some()
    }

    /// A game with a `[FEN]` is also asked whether its start can be
    /// reached from the opening by a legal game (`verify --pdn --legal`):
    /// a composed problem's diagram should be.
    #[must_use]
    pub fn legal(mut self, legal: bool) -> VerifyRequest {
        self.legal = legal;
        self
    }

    /// Every game checked, in order.
    ///
    /// # Errors
    /// The bytes are not text; a repair's solver failed (a bug).
    pub fn run(&self) -> Result<CheckedArchive, RequestError> {
        self.run_with(&mut ())
    }

    /// [`VerifyRequest::run`], telling `watch` what happens as it happens;
    /// the games after the one `watch` breaks at are left out.
    ///
    /// # Errors
    /// As [`VerifyRequest::run`].
    pub fn run_with(&self, watch: &mut dyn ArchiveWatch) -> Result<CheckedArchive, RequestError> {
        let text = pdn_text(&self.bytes)?;
        if reads_as_records_only(&text) {
            return Err(InputError::RecordsNotPdn.into());
        }
        let raw: Vec<_> = games(&text).collect();
        let file = verify_file(&raw, self.options);
        if let Some(inferred) = &file.inferred {
            watch.inferred(inferred);
        }
        let mut checked = CheckedArchive {
            games: Vec::with_capacity(raw.len()),
            inferred: file.inferred,
            tally: Tally::default(),
        };
        for (game, report) in raw.iter().zip(file.reports) {
            checked.tally.add(&report.verdict);
            let game = self.checked_game(game, report, raw.len(), watch)?;
            let flow = watch.checked(&game);
            checked.games.push(game);
            if flow.is_break() {
                break;
            }
        }
        Ok(checked)
    }

    /// Game `number` (from 1) of the archive repaired from its start as
    /// `--repair` repairs it (the reading [`VerifyRequest::run`] judges,
    /// with at most `max_edits` edits and this request's limit) under
    /// `variant`, the rule set `run` checked it under; a legal game needs
    /// no edit. The repair a front end gives for one game of an archive.
    ///
    /// # Errors
    /// Bad input (no such game, or it cannot be read under `variant`),
    /// impossible (no repair within the edits), undecided, or a bug.
    pub fn repair_game(
        &self,
        number: usize,
        variant: Variant,
        max_edits: usize,
    ) -> Result<super::Repaired, RequestError> {
        let text = pdn_text(&self.bytes)?;
        let Some(game) = games(&text).nth(number.wrapping_sub(1)) else {
            return Err(
                InputError::Unsupported(format!("the archive has no game {number}")).into(),
            );
        };
        let unreadable = |why: String| {
            InputError::Unsupported(format!(
                "game {number} (line {}) cannot be read under {} rules: {why}",
                game.line,
                variant.name()
            ))
        };
        let read =
            crate::archive::read_judged(&game, variant).map_err(|e| unreadable(e.to_string()))?;
        if read.record.plies() == 0 {
            return Err(InputError::NoMoves.into());
        }
        let limits = RepairLimits {
            max_edits,
            limit: self.options.limit,
        };
        let outcome = crate::analysis::repair_read(&read, variant, limits.options(), &mut |_| {})
            .map_err(RequestError::from_solve)?;
        repaired(variant, read.record, outcome)
    }

    /// One game's report with its moves as read and, if asked, its repair.
    fn checked_game(
        &self,
        game: &RawGame<'_>,
        report: GameReport,
        games: usize,
        watch: &mut dyn ArchiveWatch,
    ) -> Result<CheckedGame, RequestError> {
        let variant = report.rules.as_ref().map(|r| r.variant);
        let repair = match (self.repair, &report.verdict, variant) {
            (Some(max_edits), Verdict::Illegal(_), Some(variant)) => {
                let limits = RepairLimits {
                    max_edits,
                    limit: self.options.limit,
                };
                let mut progress = |edits: usize| watch.repairing(&report, games, edits);
                repair_game(game, variant, limits.options(), &mut progress)?
            }
            _ => None,
        };
        let (moves, start_fen, given) = moves_read(game, &report, self.options.strict);
        let start = match (self.legal, variant, given) {
            (false, _, _) => StartCheck::NotAsked,
            (true, Some(variant), Some((turn, board))) => {
                let limit = self.options.limit.unwrap_or(LEGALITY_LIMIT);
                StartCheck::Checked(start_legality(variant, &board, turn, Some(limit))?)
            }
            (true, _, _) => StartCheck::NoDiagram,
        };
        Ok(CheckedGame {
            numbers: variant.map(|v| move_numbers(game, v)),
            report,
            moves,
            start_fen,
            repair,
            start,
        })
    }
}

/// A game's repair outcome as a request's answer: the first repair in the
/// spec's order (none for a legal game) and its answer, replayed.
fn repaired(
    variant: Variant,
    written: crate::notation::Record,
    outcome: RepairOutcome,
) -> Result<super::Repaired, RequestError> {
    let (edits, filled, solution) = match outcome {
        RepairOutcome::NotNeeded(solution) => {
            let filled = solution.filled.clone().unwrap_or_else(|| written.clone());
            (Vec::new(), filled, *solution)
        }
        RepairOutcome::Repaired(found) => {
            let Some(first) = found.distinct().first().map(|&r| r.clone()) else {
                let said = "a repair outcome without a repair".to_string();
                return Err(crate::solve::SolveError::Reported(said).into());
            };
            (first.edits, first.record, first.solution)
        }
        RepairOutcome::NoneWithin(_) => {
            let reason = crate::analysis::repair_summary(&outcome);
            return Err(RequestError::Impossible { reason });
        }
        RepairOutcome::Undecided { .. } => {
            let said = crate::analysis::repair_summary(&outcome);
            let reason = said
                .strip_prefix("undecided: ")
                .unwrap_or(&said)
                .to_string();
            return Err(RequestError::Undecided { reason });
        }
    };
    let answer =
        crate::solve::checked_answer(&filled, solution.answer.start, "the repair", variant)?;
    Ok(super::Repaired {
        edits,
        solved: super::Solved {
            variant,
            inferred: false,
            record: written,
            filled,
            answer,
            stats: solution.stats,
        },
    })
}

/// How long the search for a game to one diagram may take when no limit is
/// given: the end of a whole real game is found in a few seconds.
pub const LEGALITY_LIMIT: Duration = Duration::from_secs(10);

/// Whether a game's start was asked to be reachable, and the answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartCheck {
    /// `--legal` was not given.
    NotAsked,
    /// The game has no `[FEN]` (it starts from the opening) or could not be read.
    NoDiagram,
    /// Its `[FEN]` start searched for from the opening.
    Checked(Legality),
}

impl StartCheck {
    /// The clause `verify --pdn` adds to the game's line, if any.
    fn text(&self) -> Option<String> {
        let StartCheck::Checked(legality) = self else {
            return None;
        };
        Some(match legality {
            Legality::Legal(game) => format!(
                "its start is reachable from the opening (a game of {}, not necessarily the shortest)",
                crate::notation::plies(game.record.moves.len())
            ),
            Legality::Illegal { reason } => {
                format!("its start cannot be reached from the opening: {reason}")
            }
            Legality::Undecided(stopped) => {
                format!("whether its start can be reached from the opening is undecided ({stopped})")
            }
        })
    }
}

/// What a caller of [`VerifyRequest::run_with`] is told as the archive is
/// checked (a progress line, each game's line printed as it is ready).
pub trait ArchiveWatch {
    /// The rule set inferred once for the file, before any game.
    fn inferred(&mut self, _rules: &FileRules) {}

    /// The repair of `game` (one of `games`) tries `edits` edits now.
    fn repairing(&mut self, _game: &GameReport, _games: usize, _edits: usize) {}

    /// `game` is checked; break to stop before the next.
    fn checked(&mut self, _game: &CheckedGame) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// Nothing is watched.
impl ArchiveWatch for () {}

/// An archive checked: every game, and what the file as a whole said.
#[derive(Clone, Debug)]
pub struct CheckedArchive {
    /// One per game, in order.
    pub games: Vec<CheckedGame>,
    /// The rule set inferred once for the file's games without rules,
    /// when inferring them one by one would have disagreed.
    pub inferred: Option<FileRules>,
    /// The games' verdicts counted.
    pub tally: Tally,
}

impl CheckedArchive {
    /// Some repair ran out of time before it was decided.
    pub fn repairs_undecided(&self) -> bool {
        self.games
            .iter()
            .any(|g| matches!(g.repair, Some(RepairOutcome::Undecided { .. })))
    }

    /// How many `[FEN]` starts were found reachable, unreachable and
    /// undecided (`12 starts: 10 reachable, 1 unreachable, 1 undecided`),
    /// when that was asked.
    pub fn starts(&self) -> Option<String> {
        let checked: Vec<&Legality> = self
            .games
            .iter()
            .filter_map(|g| match &g.start {
                StartCheck::Checked(legality) => Some(legality),
                _ => None,
            })
            .collect();
        if !self.games.iter().any(|g| g.start != StartCheck::NotAsked) {
            return None;
        }
        let count = |wanted: fn(&Legality) -> bool| checked.iter().filter(|l| wanted(l)).count();
        Some(format!(
            "{}: {} reachable, {} unreachable, {} undecided",
            crate::notation::plural(checked.len(), "start"),
            count(|l| matches!(l, Legality::Legal(_))),
            count(|l| matches!(l, Legality::Illegal { .. })),
            count(|l| matches!(l, Legality::Undecided(_))),
        ))
    }

    /// The archive's verdict: undecided when a game's search, repair or
    /// start's legality ran out of time, else solved when every game with
    /// moves replays (and every start asked about is reachable), else
    /// impossible.
    pub fn verdict(&self) -> super::Verdict {
        let starts = |wanted: fn(&Legality) -> bool| {
            self.games
                .iter()
                .any(|g| matches!(&g.start, StartCheck::Checked(l) if wanted(l)))
        };
        if self.repairs_undecided()
            || self.tally.undecided > 0
            || starts(|l| matches!(l, Legality::Undecided(_)))
        {
            super::Verdict::Undecided
        } else if self.tally.all_ok() && !starts(|l| matches!(l, Legality::Illegal { .. })) {
            super::Verdict::Solved
        } else {
            super::Verdict::Impossible
        }
    }
}

/// One game of an archive checked, with its moves as read.
#[derive(Clone, Debug)]
pub struct CheckedGame {
    /// The verdict and what was read how.
    pub report: GameReport,
    /// The moves as read (`?` where illegible), in the notation of the
    /// rule set it was checked under; none when it could not be read.
    pub moves: Vec<String>,
    /// Where it starts, as a FEN: its `[FEN]`, or its rule set's opening
    /// (`None` when it could not be read).
    pub start_fen: Option<String>,
    /// The repair of a game with an illegal move, when one was asked
    /// (`None` also when the game could not be read under its rules).
    pub repair: Option<RepairOutcome>,
    /// How the game numbers its moves, so edits are named as it names them.
    pub numbers: Option<MoveNumbers>,
    /// Whether its `[FEN]` start can be reached, when that was asked.
    pub start: StartCheck,
}

impl CheckedGame {
    /// The game's line of `verify --pdn`: its report, then its repair.
    pub fn text(&self) -> String {
        let mut line = self.report.to_string();
        if let Some(outcome) = &self.repair {
            let summary = repair_summary_numbered(outcome, self.numbers.as_ref());
            line.push_str(&format!("; {summary}"));
        }
        if let Some(start) = self.start.text() {
            line.push_str(&format!("; {start}"));
        }
        line
    }

    /// The game's object of `verify --pdn --format json` (one line), the
    /// archive named `input`: the same keys for every game.
    pub fn json(&self, input: &str) -> String {
        let report = &self.report;
        let rules = report.rules.as_ref();
        let json = GameJson {
            game: report.number,
            headers: report
                .tags
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect(),
            inferred: rules.map(|r| r.from == RulesFrom::Inferred),
            input,
            legal: match &self.start {
                StartCheck::NotAsked => None,
                StartCheck::NoDiagram => Some(None),
                StartCheck::Checked(legality) => Some(Some(LegalJson::of(legality))),
            },
            line: report.line,
            notes: report.notes.iter().map(NoteJson::of).collect(),
            ply: report.ply,
            reason: report.verdict.reason(),
            repair: self.repair.as_ref().map(|r| RepairJson::of(r, self)),
            rules: rules.map(|r| r.variant.name()),
            rules_from: rules.map(|r| r.from.name()),
            status: report.verdict.status(),
            warning: rules.and_then(|r| r.warning.as_deref()),
        };
        serde_json::to_string(&json).unwrap_or_default()
    }
}

/// One game as JSON; fields in name order, as the binary has always
/// written them.
#[derive(Serialize)]
struct GameJson<'g> {
    game: usize,
    headers: BTreeMap<&'g str, &'g str>,
    inferred: Option<bool>,
    input: &'g str,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal: Option<Option<LegalJson>>,
    line: usize,
    notes: Vec<NoteJson>,
    ply: Option<usize>,
    reason: Option<String>,
    repair: Option<RepairJson>,
    rules: Option<&'static str>,
    rules_from: Option<&'static str>,
    status: &'static str,
    warning: Option<&'g str>,
}

/// A start's legality as JSON, every key in every object: `reachable`
/// with the game found (not necessarily the shortest), `unreachable` with
/// the reason, or `undecided` with why the search stopped (`limit` or
/// `positions`) and the reason in words.
#[derive(Serialize)]
struct LegalJson {
    game: Option<Vec<String>>,
    reason: Option<String>,
    status: &'static str,
    stopped: Option<&'static str>,
}

impl LegalJson {
    fn of(legality: &Legality) -> LegalJson {
        let none = LegalJson {
            game: None,
            reason: None,
            status: "",
            stopped: None,
        };
        match legality {
            Legality::Legal(reached) => LegalJson {
                game: Some(reached.moves()),
                status: "reachable",
                ..none
            },
            Legality::Illegal { reason } => LegalJson {
                reason: Some(reason.clone()),
                status: "unreachable",
                ..none
            },
            Legality::Undecided(stopped) => LegalJson {
                reason: Some(stopped.to_string()),
                status: "undecided",
                stopped: Some(stopped.name()),
                ..none
            },
        }
    }
}

/// What was read leniently, as JSON.
#[derive(Serialize)]
struct NoteJson {
    kind: &'static str,
    line: usize,
    ply: Option<usize>,
    text: String,
}

impl NoteJson {
    fn of(note: &crate::notation::Leniency) -> NoteJson {
        NoteJson {
            kind: note.kind(),
            line: note.line(),
            ply: note.ply(),
            text: note.to_string(),
        }
    }
}

/// A repair as JSON: whether one was needed, its edits, and the minimum
/// proved (keys only where the outcome has them).
#[derive(Serialize)]
struct RepairJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    at_least: Option<usize>,
    edits: Vec<JsonEdit>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_edits: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    minimum: Option<usize>,
    outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<String>,
}

impl RepairJson {
    fn of(outcome: &RepairOutcome, game: &CheckedGame) -> RepairJson {
        let numbers = game.numbers.as_ref();
        let summary = || Some(repair_summary_numbered(outcome, numbers));
        let empty = RepairJson {
            at_least: None,
            edits: Vec::new(),
            max_edits: None,
            minimum: None,
            outcome: outcome.name(),
            summary: None,
        };
        match outcome {
            RepairOutcome::NotNeeded(_) => empty,
            RepairOutcome::NoneWithin(most) => RepairJson {
                max_edits: Some(*most),
                ..empty
            },
            RepairOutcome::Undecided { at_least } => RepairJson {
                at_least: Some(*at_least),
                summary: summary(),
                ..empty
            },
            RepairOutcome::Repaired(repairs) => {
                // A repair outcome always holds one; none would be a bug.
                let Some(first) = repairs.first() else {
                    return empty;
                };
                let numbered = numbers.map(|n| (n, &first.record));
                let edits = first
                    .edits
                    .iter()
                    .map(|e| JsonEdit::worded(e, numbered))
                    .collect();
                RepairJson {
                    edits,
                    minimum: Some(first.edits.len()),
                    summary: summary(),
                    ..empty
                }
            }
        }
    }
}

/// The moves of `game` as read under the rule set of its report, its
/// start as a FEN, and its `[FEN]` start when it has one.
fn moves_read(
    game: &RawGame<'_>,
    report: &GameReport,
    strict: bool,
) -> (Vec<String>, Option<String>, Option<(Color, Board)>) {
    let Some(variant) = report.rules.as_ref().map(|r| r.variant) else {
        return (Vec::new(), None, None);
    };
    let options = GameReading {
        strict,
        ..reading(variant)
    };
    let Ok(read) = game.read(options) else {
        return (Vec::new(), None, None);
    };
    let algebraic = variant.algebraic();
    let given = read.fen;
    let (turn, start) = read
        .fen
        .unwrap_or((variant.first_player(), variant.topology().opening()));
    let moves = read
        .record
        .written_moves()
        .iter()
        .map(|w| match w.known() {
            Some(mv) => variant.write_move(mv),
            None => variant.write_written(w),
        })
        .collect();
    (moves, Some(to_fen(&start, turn, algebraic)), given)
}
