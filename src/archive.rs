//! Real game files, game by game (`shared/spec/pdn.md`): each game of a
//! PDN archive gets its rule set (the `--rules` the user gave, else its
//! `GameType` tag, else the one its notation allows and its moves replay
//! under), its start (its `[FEN]`, else the opening) and its own verdict.
//! One game that cannot be read or played never stops the next.

use crate::notation::plural;
use std::fmt;

use crate::board::Board;
use crate::notation::{
    describe_leniencies, games, GameReading, Leniency, MoveNumbers, MovePattern, ParsePdnError,
    PdnGame, RawGame, RawMove, Record, WrittenMove,
};
use crate::replay::{replay, replay_filling_until, ReplayError, MAX_FILLING_STEPS};
use crate::rules::{pdn_game_name, Variant};

/// Where a game's rule set came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesFrom {
    /// The user named it (`--rules`).
    Given,
    /// The game's `GameType` tag.
    Tag,
    /// Inferred from its notation and from which rule set it replays under.
    Inferred,
}

impl RulesFrom {
    /// The word `verify --pdn --format json` gives it (`rules_from`).
    pub fn name(self) -> &'static str {
        match self {
            RulesFrom::Given => "given",
            RulesFrom::Tag => "tag",
            RulesFrom::Inferred => "inferred",
        }
    }
}

/// A game's rule set and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRules {
    /// The rule set.
    pub variant: Variant,
    /// How it was chosen.
    pub from: RulesFrom,
    /// Said when the user's rule set and the game's tag disagree.
    pub warning: Option<String>,
}

/// A game whose `GameType` names rules postfacto does not play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedGame {
    /// The type number.
    pub number: u32,
    /// The game's name ("Italian draughts"), if the PDN standard lists it.
    pub name: Option<&'static str>,
}

impl fmt::Display for UnsupportedGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name {
            Some(name) => write!(
                f,
                "{name} (GameType {}): postfacto does not play these rules",
                self.number
            ),
            None => write!(
                f,
                "GameType {}: a game type postfacto does not know",
                self.number
            ),
        }
    }
}

/// How a game is read under `variant`.
pub fn reading(variant: Variant) -> GameReading {
    GameReading {
        geometry: variant.geometry(),
        first_player: variant.first_player(),
        strict: false,
    }
}

/// The rule set of `game` when the user gave `given` (or nothing): the
/// user's, else the tag's, else `None` (to be inferred).
///
/// # Errors
/// The game's tag names rules postfacto does not play (and none was given).
pub fn stated_rules(
    game: &RawGame<'_>,
    given: Option<Variant>,
) -> Result<Option<GameRules>, UnsupportedGame> {
    let tagged = game.game_type().map(|t| t.number);
    let tag_variant = tagged.and_then(Variant::from_pdn_game_type);
    if let Some(variant) = given {
        let warning = match (tagged, tag_variant) {
            (Some(number), other) if other != Some(variant) => Some(format!(
                "its GameType {number} says {}, but --rules {} wins",
                pdn_game_name(number).unwrap_or("a game type postfacto does not know"),
                variant.name()
            )),
            _ => None,
        };
        return Ok(Some(GameRules {
            variant,
            from: RulesFrom::Given,
            warning,
        }));
    }
    match (tagged, tag_variant) {
        (Some(_), Some(variant)) => Ok(Some(GameRules {
            variant,
            from: RulesFrom::Tag,
            warning: None,
        })),
        (Some(number), None) => Err(UnsupportedGame {
            number,
            name: pdn_game_name(number),
        }),
        (None, _) => Ok(None),
    }
}

/// A record read under one rule set, with the start board a PDN game's
/// `[FEN]` pins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The rule set.
    pub variant: Variant,
    /// The moves, read on its board.
    pub record: crate::notation::Record,
    /// The start board the game's `[FEN]` gives, if it has one.
    pub fen: Option<Board>,
}

/// A game read under every rule set it may follow, in the order to try them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadGame {
    /// One reading per rule set (one when the rule set is stated).
    pub readings: Vec<Reading>,
    /// Where the rule sets came from.
    pub from: RulesFrom,
    /// Said when the user's rule set and the game's tag disagree.
    pub warning: Option<String>,
    /// The game has no moves (a diagram).
    pub no_moves: bool,
}

/// Why a game cannot be worked on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// It cannot be read under any rule set it may follow.
    #[error("cannot be read: {0}")]
    Unreadable(ParsePdnError),
    /// Its rules are not postfacto's.
    #[error("{0}")]
    Unsupported(UnsupportedGame),
}

/// Reads `game` under the rule set stated for it (`given`, else its tag),
/// or under every rule set its notation allows (those it cannot be read
/// under left out); `judged`, as [`read_judged`] reads it.
///
/// # Errors
/// The game cannot be read under any of them, or is of rules postfacto
/// does not play.
pub fn read_game(
    game: &RawGame<'_>,
    given: Option<Variant>,
    judged: bool,
) -> Result<ReadGame, GameError> {
    if let Some((line, message)) = &game.problem {
        return Err(GameError::Unreadable(ParsePdnError {
            line: *line,
            message: message.clone(),
        }));
    }
    let (variants, from, warning) =
        match stated_rules(game, given).map_err(GameError::Unsupported)? {
            Some(r) => (vec![r.variant], r.from, r.warning),
            None => (
                Variant::candidates_then_misread(game.square_names()),
                RulesFrom::Inferred,
                None,
            ),
        };
    let mut readings = Vec::new();
    let mut first_error = None;
    for variant in variants {
        let read = if judged {
            read_judged(game, variant)
        } else {
            game.read(reading(variant))
        };
        match read {
            Ok(read) => readings.push(Reading {
                variant,
                fen: read.fen.map(|(_, board)| board),
                record: read.record,
            }),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    match first_error {
        Some(e) if readings.is_empty() => Err(GameError::Unreadable(e)),
        _ => Ok(ReadGame {
            readings,
            from,
            warning,
            no_moves: game.is_diagram(),
        }),
    }
}

/// What `verify --pdn` says of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Its moves replay from its start.
    Ok,
    /// It has no moves (a position, or a problem with only its result).
    NoMoves,
    /// A ply breaks a rule, or its FEN position is not a legal start.
    Illegal(String),
    /// It cannot be read (syntax, a square not on its board).
    Unreadable(ParsePdnError),
    /// Its rules are not postfacto's.
    Unsupported(UnsupportedGame),
    /// No verdict: the search for the moves that fit its damaged ones
    /// (`?`, captures written short) gave up (`--limit`, or a million
    /// positions).
    Undecided(String),
}

impl Verdict {
    /// True for a game with moves that replay, and for a diagram.
    pub fn is_ok(&self) -> bool {
        matches!(self, Verdict::Ok | Verdict::NoMoves)
    }

    /// Its name in machine-readable output (JSON, the Python package):
    /// `ok`, `no moves`, `illegal`, `unreadable` or `unsupported`.
    pub fn status(&self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::NoMoves => "no moves",
            Verdict::Illegal(_) => "illegal",
            Verdict::Unreadable(_) => "unreadable",
            Verdict::Unsupported(_) => "unsupported",
            Verdict::Undecided(_) => "undecided",
        }
    }

    /// Why, for a game with moves that do not replay or cannot be read.
    pub fn reason(&self) -> Option<String> {
        match self {
            Verdict::Ok | Verdict::NoMoves => None,
            Verdict::Illegal(why) => Some(why.clone()),
            Verdict::Unreadable(e) => Some(e.to_string()),
            Verdict::Unsupported(u) => Some(u.to_string()),
            Verdict::Undecided(why) => Some(why.clone()),
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Ok => f.write_str("OK"),
            Verdict::NoMoves => f.write_str("no moves"),
            Verdict::Illegal(why) => f.write_str(why),
            Verdict::Unreadable(e) => write!(f, "cannot be read: {e}"),
            Verdict::Unsupported(u) => write!(f, "{u}"),
            Verdict::Undecided(why) => f.write_str(why),
        }
    }
}

/// How `verify --pdn` reads and checks the games of a file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VerifyOptions {
    /// The rule set the user named (`--rules`), which wins over tags.
    pub given: Option<Variant>,
    /// Refuse what real archives write but the standard does not
    /// (`--strict`), instead of reading it leniently with a note.
    pub strict: bool,
    /// How long the search for a game's damaged moves may take (else it
    /// stops after a million positions); past it the game is undecided.
    pub limit: Option<std::time::Duration>,
}

/// How one game is judged: strictly or not, and until when its search
/// for damaged moves may run (one deadline for every rule set tried).
#[derive(Clone, Copy, Debug)]
struct Judging {
    strict: bool,
    deadline: Option<std::time::Instant>,
}

impl Judging {
    /// From now on, as `options` ask.
    fn of(options: VerifyOptions) -> Judging {
        Judging {
            strict: options.strict,
            deadline: options.limit.map(|l| std::time::Instant::now() + l),
        }
    }
}

/// One game checked: where it is, the rules it was checked under, the
/// verdict, and what of it was read leniently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReport {
    /// 1-based position in its file.
    pub number: usize,
    /// 1-based line where it starts.
    pub line: usize,
    /// The rule set it was read under (`None` when none could be chosen).
    pub rules: Option<GameRules>,
    /// What its moves do.
    pub verdict: Verdict,
    /// The ply the verdict names, for a game with an illegal move (0: its
    /// FEN position).
    pub ply: Option<usize>,
    /// That ply as PDN numbers it, with its move as the check read it
    /// (`12... 23-18`); `None` for the FEN position.
    pub move_label: Option<String>,
    /// What was read leniently, in the order met.
    pub notes: Vec<Leniency>,
    /// Its tags, in order.
    pub tags: Vec<(String, String)>,
}

impl fmt::Display for GameReport {
    /// `game 3 (line 40): OK`, with the rule set when it was inferred and
    /// what was read leniently.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {} (line {}): {}",
            self.number, self.line, self.verdict
        )?;
        if let Some(rules) = self
            .rules
            .as_ref()
            .filter(|r| r.from == RulesFrom::Inferred)
        {
            write!(f, " ({} rules, inferred)", rules.variant.name())?;
        }
        if !self.notes.is_empty() {
            write!(f, "; read leniently: {}", describe_leniencies(&self.notes))?;
        }
        Ok(())
    }
}

/// Checks every game of a PDN text as [`verify_game`] does, in order.
pub fn verify_archive(text: &str, options: VerifyOptions) -> Vec<GameReport> {
    verify_games(&games(text).collect::<Vec<_>>(), options)
}

/// Checks the games of one file as [`verify_game`] does, in order (see
/// [`verify_file`]).
pub fn verify_games(raw: &[RawGame<'_>], options: VerifyOptions) -> Vec<GameReport> {
    verify_file(raw, options).reports
}

/// The games of one file checked, and the rule set inferred for the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileCheck {
    /// One report per game, in order.
    pub reports: Vec<GameReport>,
    /// The rule set inferred once for the file's games without rules,
    /// when inferring them one by one would have disagreed.
    pub inferred: Option<FileRules>,
}

/// The rule set a file's games without rules were read under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRules {
    /// The rule set.
    pub variant: Variant,
    /// How many games replay under each candidate tried, in order.
    pub replaying: Vec<(Variant, usize)>,
    /// Games whose own inference differed.
    pub changed: usize,
}

impl fmt::Display for FileRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counts: Vec<String> = self
            .replaying
            .iter()
            .map(|(v, n)| format!("{n} under {}", v.name()))
            .collect();
        write!(
            f,
            "{} rules inferred once for the file's games without GameType, as the most \
             replay under them ({}); {} would have been read otherwise game by game",
            self.variant.name(),
            counts.join(", "),
            crate::notation::plural(self.changed, "game")
        )
    }
}

/// Checks the games of one file as [`verify_game`] does, in order. The
/// rules of games that state none are inferred once for the file (the
/// first candidate under which the most of them replay), unless the
/// file's tags disagree, or a game's notation does not allow that rule
/// set, or the game replays under its own and not under that one. A game without moves whose rules are not stated takes the rule
/// set the file's games with moves were read under (the commonest), where
/// its notation allows it.
pub fn verify_file(raw: &[RawGame<'_>], options: VerifyOptions) -> FileCheck {
    let mut reports: Vec<GameReport> = raw.iter().map(|g| verify_game(g, options)).collect();
    let inferred = infer_for_file(raw, &mut reports, options);
    let mut shown: Vec<(Variant, usize)> = Vec::new();
    for report in reports.iter().filter(|r| r.verdict != Verdict::NoMoves) {
        if let Some(rules) = &report.rules {
            match shown.iter_mut().find(|(v, _)| *v == rules.variant) {
                Some((_, n)) => *n += 1,
                None => shown.push((rules.variant, 1)),
            }
        }
    }
    let Some(&(commonest, _)) = shown.iter().rev().max_by_key(|(_, n)| *n) else {
        return FileCheck { reports, inferred };
    };
    for (game, report) in raw.iter().zip(&mut reports) {
        let allowed = || Variant::candidates(game.square_names()).contains(&commonest);
        if report.verdict == Verdict::NoMoves && is_inferred(report) && allowed() {
            let trial = verdict_under(game, commonest, Judging::of(options));
            *report = trial.report(game, commonest, RulesFrom::Inferred);
        }
    }
    FileCheck { reports, inferred }
}

/// The report's rule set was inferred.
fn is_inferred(report: &GameReport) -> bool {
    report
        .rules
        .as_ref()
        .is_some_and(|r| r.from == RulesFrom::Inferred)
}

/// Where games inferred one by one (with moves) disagree, and the file's
/// tags do not, every such game is judged again under the first candidate
/// under which the most of them replay, unless it replays under its own
/// rule set and not under that one. `None` when nothing changed.
fn infer_for_file(
    raw: &[RawGame<'_>],
    reports: &mut [GameReport],
    options: VerifyOptions,
) -> Option<FileRules> {
    let inferred: Vec<usize> = (0..raw.len())
        .filter(|&i| is_inferred(&reports[i]) && reports[i].verdict != Verdict::NoMoves)
        .collect();
    let own: Vec<Option<Variant>> = reports
        .iter()
        .map(|r| r.rules.as_ref().map(|r| r.variant))
        .collect();
    let variant_of = |i: usize| own[i];
    let first = inferred.first().and_then(|&i| own[i]);
    if inferred.iter().all(|&i| own[i] == first) || tags_disagree(raw) {
        return None;
    }
    let mut candidates: Vec<Variant> = Vec::new();
    for &i in &inferred {
        for v in Variant::candidates(raw[i].square_names()) {
            if !candidates.contains(&v) {
                candidates.push(v);
            }
        }
    }
    let replaying: Vec<(Variant, usize)> = candidates
        .iter()
        .map(|&v| {
            let replays = |&&i: &&usize| match variant_of(i) {
                Some(w) if w == v => reports[i].verdict.is_ok(),
                _ => verdict_under(&raw[i], v, Judging::of(options))
                    .verdict
                    .is_ok(),
            };
            (v, inferred.iter().filter(replays).count())
        })
        .filter(|(_, n)| *n > 0)
        .collect();
    // The first candidate with the most: max_by_key keeps the last maximum.
    let &(variant, _) = replaying.iter().rev().max_by_key(|(_, n)| *n)?;
    let mut changed = 0;
    for &i in &inferred {
        let allowed = Variant::candidates(raw[i].square_names()).contains(&variant);
        if variant_of(i) == Some(variant) || !allowed {
            continue;
        }
        // A game that replays under its own rules only keeps them: a
        // file may hold games of several rule sets.
        let trial = verdict_under(&raw[i], variant, Judging::of(options));
        if trial.verdict.is_ok() || !reports[i].verdict.is_ok() {
            reports[i] = trial.report(&raw[i], variant, RulesFrom::Inferred);
            changed += 1;
        }
    }
    (changed > 0).then_some(FileRules {
        variant,
        replaying,
        changed,
    })
}

/// The file's games name more than one rule set in their `GameType` tags.
fn tags_disagree(raw: &[RawGame<'_>]) -> bool {
    let mut tagged = raw.iter().filter_map(|g| g.game_type().map(|t| t.number));
    let first = tagged.next();
    tagged.any(|n| Some(n) != first)
}

/// Checks one game as the file states it: its moves must replay from its
/// FEN position, or from the opening when it has none (unknown moves and
/// captures written short filled in as the judge fills them). Unless
/// `options.strict`, what the standard does not allow is read leniently
/// where one reading fits, and noted on the report.
pub fn verify_game(game: &RawGame<'_>, options: VerifyOptions) -> GameReport {
    let report =
        |rules, verdict| GameReport::of(game, rules, verdict, lexer_notes(game, options.strict));
    if let Some((line, message)) = &game.problem {
        let error = ParsePdnError {
            line: *line,
            message: message.clone(),
        };
        return report(None, Verdict::Unreadable(error));
    }
    let rules = match stated_rules(game, options.given) {
        Ok(Some(rules)) => rules,
        Ok(None) => return infer_and_verify(game, Judging::of(options)),
        Err(unsupported) => return report(None, Verdict::Unsupported(unsupported)),
    };
    let trial = verdict_under(game, rules.variant, Judging::of(options));
    let mut checked = trial.report(game, rules.variant, rules.from);
    checked.rules = Some(rules);
    checked
}

impl GameReport {
    /// The report of `game` with `verdict`, naming no ply.
    fn of(
        game: &RawGame<'_>,
        rules: Option<GameRules>,
        verdict: Verdict,
        notes: Vec<Leniency>,
    ) -> GameReport {
        GameReport {
            number: game.number,
            line: game.line,
            rules,
            verdict,
            ply: None,
            move_label: None,
            notes,
            tags: game
                .tags
                .iter()
                .map(|t| (t.name.to_string(), t.value.to_string()))
                .collect(),
        }
    }
}

/// What the lexer read leniently in `game`; nothing under `--strict`,
/// where the first of them is the game's error.
fn lexer_notes(game: &RawGame<'_>, strict: bool) -> Vec<Leniency> {
    if strict {
        Vec::new()
    } else {
        game.notes.clone()
    }
}

/// A game tried under one rule set: the verdict, how far it got (plies
/// that replayed; `None` when it could not even be read), and what was
/// read leniently.
struct Trial {
    verdict: Verdict,
    reached: Option<usize>,
    /// The ply that fails (0: the FEN position).
    failed_at: Option<usize>,
    /// That ply as PDN numbers it, with its move as read.
    label: Option<String>,
    notes: Vec<Leniency>,
}

impl Trial {
    /// Moves read otherwise than written (the other separator).
    fn moves_read_otherwise(&self) -> usize {
        self.notes
            .iter()
            .filter(|n| matches!(n, Leniency::Separator { .. }))
            .count()
    }

    /// How good a reading of the game this is, for inference: replayed
    /// (with the fewest moves read otherwise), else furthest.
    fn rank(&self) -> (bool, std::cmp::Reverse<usize>, Option<usize>) {
        let ok = self.verdict.is_ok();
        let otherwise = if ok { self.moves_read_otherwise() } else { 0 };
        (ok, std::cmp::Reverse(otherwise), self.reached)
    }

    /// The report of `game` tried under `variant`.
    fn report(self, game: &RawGame<'_>, variant: Variant, from: RulesFrom) -> GameReport {
        let (ply, move_label) = match self.verdict {
            Verdict::Illegal(_) => (self.failed_at, self.label),
            _ => (None, None),
        };
        let rules = GameRules {
            variant,
            from,
            warning: None,
        };
        GameReport {
            ply,
            move_label,
            ..GameReport::of(game, Some(rules), self.verdict, self.notes)
        }
    }
}

/// The verdict on `game` under `variant`.
fn verdict_under(game: &RawGame<'_>, variant: Variant, judging: Judging) -> Trial {
    let strict = judging.strict;
    let read = match game.read(GameReading {
        strict,
        ..reading(variant)
    }) {
        Ok(read) => read,
        Err(e) => {
            return Trial {
                verdict: Verdict::Unreadable(e),
                reached: None,
                failed_at: None,
                label: None,
                notes: lexer_notes(game, strict),
            };
        }
    };
    if read.record.plies() == 0 {
        return Trial {
            verdict: Verdict::NoMoves,
            reached: Some(0),
            failed_at: None,
            label: None,
            notes: read.notes,
        };
    }
    let lines: Vec<usize> = game.moves.iter().map(|m| m.line).collect();
    let (read, checked) = check_either_reading(read, variant, judging, &lines);
    match checked {
        Ok(notes) => Trial {
            verdict: Verdict::Ok,
            reached: Some(read.record.plies()),
            failed_at: None,
            label: None,
            notes,
        },
        Err(failure) => {
            let ply = failure.ply();
            let numbers = move_numbers(game, variant);
            let words = failure.words(&read.record, &numbers, &game.moves);
            Trial {
                label: ply_label(&read, &numbers, variant, ply),
                verdict: if failure.gave_up() {
                    Verdict::Undecided(words)
                } else {
                    Verdict::Illegal(words)
                },
                reached: Some(ply.saturating_sub(1)),
                failed_at: Some(ply),
                notes: read.notes,
            }
        }
    }
}

/// Ply `ply` (1-based) of a game read under `variant` as PDN numbers it,
/// with its move as that reading wrote it (`12... 23-18`): the check's
/// reading, so `--strict` shows the move it rejected; `None` for ply 0
/// (the FEN position).
fn ply_label(
    read: &PdnGame,
    numbers: &MoveNumbers,
    variant: Variant,
    ply: usize,
) -> Option<String> {
    let written = read.record.written_moves();
    let text = variant.write_written(written.get(ply.checked_sub(1)?)?);
    Some(format!("{} {text}", numbers.label(&read.record, ply)))
}

/// How `game` numbers its moves under `variant`.
pub fn move_numbers(game: &RawGame<'_>, variant: Variant) -> MoveNumbers {
    MoveNumbers {
        first_player: variant.first_player(),
        first_number: game.first_number.map_or(1, |n| n.max(1) as usize),
    }
}

/// The sheet's number of ply `ply` (1-based): the one written before its
/// move, or the one before the previous move with `...` after it.
fn written_number(moves: &[RawMove<'_>], ply: usize) -> Option<(u32, bool)> {
    let own = moves.get(ply.checked_sub(1)?)?.number;
    own.or_else(|| match moves.get(ply.checked_sub(2)?)?.number {
        Some((n, false)) => Some((n, true)),
        _ => None,
    })
}

/// The search for the moves that fit the damaged ones gave up.
fn gave_up(failure: &ReplayError) -> bool {
    matches!(
        failure.violation,
        crate::rules::Violation::SearchGaveUp { .. }
    )
}

/// Why a game does not replay: its FEN position, or a ply.
#[derive(Debug)]
enum CheckFailure {
    /// The FEN position breaks a rule of start positions.
    Fen(String),
    /// A ply breaks a rule.
    Ply(ReplayError),
}

impl CheckFailure {
    /// The search for the damaged moves gave up: no verdict.
    fn gave_up(&self) -> bool {
        matches!(self, CheckFailure::Ply(e) if gave_up(e))
    }

    /// The ply that fails; 0 for the FEN position.
    fn ply(&self) -> usize {
        match self {
            CheckFailure::Fen(_) => 0,
            CheckFailure::Ply(e) => e.ply,
        }
    }

    /// In the game's own numbering: `3... 17-15 (ply 6): ...`; a move
    /// the sheet numbers otherwise than its plies do is named by the
    /// sheet's number, with where the numbering shows the gap.
    fn words(&self, record: &Record, numbers: &MoveNumbers, moves: &[RawMove<'_>]) -> String {
        let e = match self {
            CheckFailure::Fen(problem) => return format!("FEN position: {problem}"),
            CheckFailure::Ply(e) => e,
        };
        // A first number that disagrees with the side to move is no gap
        // (spec pdn.md): the sheet's numbering is measured from it.
        let first_gap = (1..=e.ply)
            .find_map(|p| written_number(moves, p).map(|w| numbers.gap(record.first, p, w)))
            .unwrap_or(0);
        let due = numbers.label_shifted(record.first, e.ply, first_gap);
        let gap = |ply| {
            written_number(moves, ply).map(|w| (w, numbers.gap(record.first, ply, w) - first_gap))
        };
        let (label, gap_words) = match gap(e.ply) {
            Some((written, k)) if k != 0 => {
                // The first ply where the sheet's numbering parts from the plies'.
                let from = (1..=e.ply)
                    .find(|&p| gap(p).is_some_and(|(_, k)| k != 0))
                    .unwrap_or(e.ply);
                let at = match from == e.ply {
                    true => "before it".to_string(),
                    false => {
                        let w = written_number(moves, from).map(MoveNumbers::written_label);
                        let line = moves.get(from - 1).map_or(0, |m| m.line);
                        format!("at {} (line {line})", w.unwrap_or_default())
                    }
                };
                let what = match k.unsigned_abs() {
                    1 if k > 0 => "skips a ply".to_string(),
                    n if k > 0 => format!("skips {n} plies"),
                    1 => "repeats a ply".to_string(),
                    n => format!("repeats {n} plies"),
                };
                let words = format!(
                    ", numbered {due} by the plies before it: the sheet's numbering {what} {at}"
                );
                (MoveNumbers::written_label(written), words)
            }
            _ => (due, String::new()),
        };
        format!(
            "{label} {} (ply {}{gap_words}): {}",
            e.text, e.ply, e.violation
        )
    }
}

/// [`check_moves`], deciding between the two readings of a move read with
/// the other separator (`15-24` as the capture 15x24): the game with the
/// written one taken back at the ply that fails, when the other is not
/// legal there either, so it is named as written (`37-33`, no move on the
/// board) and a repair mends it as written. The game as judged.
fn check_either_reading(
    read: PdnGame,
    variant: Variant,
    judging: Judging,
    lines: &[usize],
) -> (PdnGame, Result<Vec<Leniency>, CheckFailure>) {
    let checked = check_moves(&read, variant, judging, lines);
    let failed_at = match &checked {
        Err(CheckFailure::Ply(e)) if !gave_up(e) => e.ply,
        _ => return (read, checked),
    };
    match read.as_written_at(failed_at) {
        Some(written) => {
            let checked = check_moves(&written, variant, judging, lines);
            (written, checked)
        }
        None => (read, checked),
    }
}

/// `game` read under `variant` as [`verify_archive`] judges it: a move
/// read with the other separator is taken back to its written reading
/// when the replay fails at it (see [`check_either_reading`]). Repairs
/// read games so.
///
/// # Errors
/// The game cannot be read under `variant`.
pub fn read_judged(game: &RawGame<'_>, variant: Variant) -> Result<PdnGame, ParsePdnError> {
    let read = game.read(reading(variant))?;
    if read.rereads.is_empty() {
        return Ok(read);
    }
    let lines: Vec<usize> = game.moves.iter().map(|m| m.line).collect();
    let judging = Judging {
        strict: false,
        deadline: None,
    };
    Ok(check_either_reading(read, variant, judging, &lines).0)
}

/// The start of a game read under `variant`: its FEN position, else the
/// opening (the side to move is the record's).
pub fn start_of(game: &PdnGame, variant: Variant) -> Board {
    game.fen
        .map_or_else(|| variant.topology().opening(), |(_, board)| board)
}

/// Replays a game read under `variant` from [`start_of`]: its notes, with
/// the moves read with the other separator named as played; or the reason
/// and the ply that fails (0 for the FEN position).
///
/// Unless `strict`, a game that fails as written is read as real archives
/// mean it: a ply whose move fails is tried as any move from its first
/// square to its last (`d6-b4` written for the capture d6:b4, `15x19` for
/// a step), one ply at a time; when that is not enough (an earlier ply
/// read as written went the wrong way), every ply at once. `lines` are
/// the moves' lines, for the notes.
fn check_moves(
    game: &PdnGame,
    variant: Variant,
    judging: Judging,
    lines: &[usize],
) -> Result<Vec<Leniency>, CheckFailure> {
    let rules = variant.rules();
    let start = start_of(game, variant);
    if let Some(problem) = rules.start_problems(&start).first() {
        return Err(CheckFailure::Fen(problem.to_string()));
    }
    // A limit bounds the search by time instead of positions.
    let steps = match judging.deadline {
        Some(_) => usize::MAX - 1,
        None => MAX_FILLING_STEPS,
    };
    let deadline = judging.deadline;
    let failure = match replay_filled_until(rules, &start, &game.record, steps, deadline) {
        Ok(filled) => {
            let mut notes = game.notes.clone();
            name_separators(&mut notes, &filled, variant);
            return Ok(notes);
        }
        // No verdict: no lenient reading is tried in its place.
        Err(failure) if gave_up(&failure) => return Err(CheckFailure::Ply(failure)),
        Err(failure) => failure,
    };
    let strict = judging.strict;
    let line_of = |ply: usize| lines.get(ply - 1).copied().unwrap_or(game.record.line);
    let lenient = (!strict).then(|| {
        ply_by_ply(game, variant, &start, failure.clone(), line_of)
            .or_else(|furthest| every_ply(game, variant, &start, line_of).ok_or(furthest))
    });
    match lenient {
        Some(Ok(notes)) => Ok(notes),
        Some(Err(furthest)) => Err(CheckFailure::Ply(furthest)),
        None => Err(CheckFailure::Ply(failure)),
    }
}

/// The failing ply read from its first square to its last, then the next
/// failing one, up to [`PLY_BY_PLY`] plies: the notes when it replays,
/// else the failure furthest into the game.
fn ply_by_ply(
    game: &PdnGame,
    variant: Variant,
    start: &Board,
    mut failure: ReplayError,
    line_of: impl Fn(usize) -> usize,
) -> Result<Vec<Leniency>, ReplayError> {
    let mut record = game.record.clone();
    let mut notes = game.notes.clone();
    let mut furthest = failure.clone();
    for _ in 0..PLY_BY_PLY {
        let Some((loose, written)) = from_first_to_last(&record, failure.ply) else {
            return Err(furthest);
        };
        notes.push(Leniency::Separator {
            ply: failure.ply,
            line: line_of(failure.ply),
            written,
            read: None,
        });
        record = loose;
        match replay_filled(variant.rules(), start, &record, LENIENT_STEPS) {
            Ok(filled) => {
                name_separators(&mut notes, &filled, variant);
                return Ok(notes);
            }
            Err(next) => failure = next,
        }
        if failure.ply > furthest.ply {
            furthest = failure.clone();
        }
    }
    Err(furthest)
}

/// Every ply read from its first square to its last at once: the notes
/// (a ply played otherwise than written is one) when the game replays so.
fn every_ply(
    game: &PdnGame,
    variant: Variant,
    start: &Board,
    line_of: impl Fn(usize) -> usize,
) -> Option<Vec<Leniency>> {
    let written = game.record.written_moves();
    let mut record = game.record.clone();
    for ply in 1..=written.len() {
        if let Some((loose, _)) = from_first_to_last(&record, ply) {
            record = loose;
        }
    }
    let filled = replay_filled(variant.rules(), start, &record, LENIENT_STEPS).ok()?;
    let mut notes = game.notes.clone();
    for (i, (w, played)) in written.iter().zip(&filled.moves).enumerate() {
        if !w.matches(played) {
            notes.push(Leniency::Separator {
                ply: i + 1,
                line: line_of(i + 1),
                written: w.to_string(),
                read: None,
            });
        }
    }
    name_separators(&mut notes, &filled, variant);
    Some(notes)
}

/// How many positions one lenient reading of a game may visit: a reading
/// is a guess, and a file goes on to its next game rather than search.
const LENIENT_STEPS: usize = 20_000;

/// How many plies are read otherwise one at a time before every ply is.
const PLY_BY_PLY: usize = 6;

/// Replays `record` from `start`, visiting at most `max_steps` positions
/// when moves must be filled in: the record with every move filled in.
fn replay_filled(
    rules: &dyn crate::rules::Rules,
    start: &Board,
    record: &Record,
    max_steps: usize,
) -> Result<Record, ReplayError> {
    replay_filled_until(rules, start, record, max_steps, None)
}

/// [`replay_filled`] that also gives up when `deadline` passes.
fn replay_filled_until(
    rules: &dyn crate::rules::Rules,
    start: &Board,
    record: &Record,
    max_steps: usize,
    deadline: Option<std::time::Instant>,
) -> Result<Record, ReplayError> {
    if record.is_damaged() {
        return replay_filling_until(rules, start, record, None, max_steps, deadline)
            .map(|(_, filled)| filled);
    }
    replay(rules, start, record).map(|_| record.clone())
}

/// `record` with ply `ply`'s move read as any move from its first written
/// square to its last, with the text as written; `None` when that says
/// nothing new (the squares are not both written, or it is read so already).
fn from_first_to_last(record: &Record, ply: usize) -> Option<(Record, String)> {
    let mut written = record.written_moves();
    let at = written.get_mut(ply.checked_sub(1)?)?;
    let (from, to) = match &*at {
        WrittenMove::Known(mv) => (mv.from(), mv.to()),
        WrittenMove::Pattern(MovePattern::Path { squares, .. }) => {
            (squares.first().copied()??, squares.last().copied()??)
        }
        WrittenMove::Pattern(_) => return None,
    };
    if from == to {
        return None;
    }
    let text = at.to_string();
    *at = WrittenMove::Pattern(MovePattern::Between { from, to });
    Some((
        Record::from_written(record.first, written, record.line),
        text,
    ))
}

/// Names the move each separator note's ply was played as.
fn name_separators(notes: &mut [Leniency], filled: &Record, variant: Variant) {
    for note in notes {
        if let Leniency::Separator { ply, read, .. } = note {
            if let Some(mv) = filled.moves.get(*ply - 1) {
                *read = Some(variant.write_move(mv));
            }
        }
    }
}

/// A game with neither `--rules` nor a tag: the rule sets its notation
/// allows, tried in order; the first its moves replay under, else the one
/// they get furthest under (its verdict is the game's). When none of them
/// replays it, the other rule sets of its kind of notation are tried too
/// (a miswritten square `55` in a game of the 10x10 board must not make it
/// a 12x12 game).
fn infer_and_verify(game: &RawGame<'_>, judging: Judging) -> GameReport {
    let mut best: Option<(Variant, Trial)> = None;
    let mut tried = Vec::new();
    for variant in Variant::candidates_then_misread(game.square_names()) {
        tried.push(variant);
        let trial = verdict_under(game, variant, judging);
        let better = best.as_ref().is_none_or(|(_, b)| trial.rank() > b.rank());
        if better {
            best = Some((variant, trial));
        }
        // A game read with no move taken otherwise than written is the
        // game of that rule set; one that needs the other separator may
        // be another rule set's, read as written there.
        if best
            .as_ref()
            .is_some_and(|(_, b)| b.verdict.is_ok() && b.moves_read_otherwise() == 0)
        {
            break;
        }
    }
    let (variant, mut trial) = best.expect("every notation has a candidate rule set");
    if let Verdict::Unreadable(e) = &mut trial.verdict {
        if tried.len() > 1 && e.message.contains("square") {
            let names: Vec<&str> = tried.iter().map(|v| v.name()).collect();
            e.message = format!("{} (read as {} in turn)", e.message, names.join(", "));
        }
    }
    trial.report(game, variant, RulesFrom::Inferred)
}

/// Counts of `verify --pdn` verdicts, for its summary line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games whose moves replay.
    pub ok: usize,
    /// Games with a move that does not.
    pub illegal: usize,
    /// Games without moves.
    pub no_moves: usize,
    /// Games that cannot be read.
    pub unreadable: usize,
    /// Games of rules postfacto does not play.
    pub unsupported: usize,
    /// Games whose search for their damaged moves gave up.
    pub undecided: usize,
}

impl Tally {
    /// Counts one verdict.
    pub fn add(&mut self, verdict: &Verdict) {
        let slot = match verdict {
            Verdict::Ok => &mut self.ok,
            Verdict::NoMoves => &mut self.no_moves,
            Verdict::Illegal(_) => &mut self.illegal,
            Verdict::Unreadable(_) => &mut self.unreadable,
            Verdict::Unsupported(_) => &mut self.unsupported,
            Verdict::Undecided(_) => &mut self.undecided,
        };
        *slot += 1;
    }

    /// Every game with moves replays (diagrams do not count against it).
    pub fn all_ok(&self) -> bool {
        self.illegal + self.unreadable + self.unsupported + self.undecided == 0
    }

    /// All games counted.
    pub fn games(&self) -> usize {
        self.ok + self.illegal + self.no_moves + self.unreadable + self.unsupported + self.undecided
    }
}

impl fmt::Display for Tally {
    /// `30 games: 27 OK, 1 illegal, 2 without moves, 0 unreadable, 0 of other rules`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} OK, {} with an illegal move, {} without moves, {} unreadable, {} of rules postfacto does not play",
            plural(self.games(), "game"),
            self.ok,
            self.illegal,
            self.no_moves,
            self.unreadable,
            self.unsupported
        )?;
        if self.undecided > 0 {
            write!(f, ", {} undecided", self.undecided)?;
        }
        Ok(())
    }
}
