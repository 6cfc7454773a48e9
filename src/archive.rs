//! Real game files, game by game (`shared/spec/pdn.md`): each game of a
//! PDN archive gets its rule set (the `--rules` the user gave, else its
//! `GameType` tag, else the one its notation allows and its moves replay
//! under), its start (its `[FEN]`, else the opening) and its own verdict.
//! One game that cannot be read or played never stops the next.

use std::fmt;

use crate::board::Board;
use crate::notation::{GameReading, ParsePdnError, PdnGame, RawGame};
use crate::replay::replay;
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
/// under left out).
///
/// # Errors
/// The game cannot be read under any of them, or is of rules postfacto
/// does not play.
pub fn read_game(game: &RawGame<'_>, given: Option<Variant>) -> Result<ReadGame, GameError> {
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
                Variant::candidates(game.square_names()),
                RulesFrom::Inferred,
                None,
            ),
        };
    let mut readings = Vec::new();
    let mut first_error = None;
    for variant in variants {
        match game.read(reading(variant)) {
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
}

impl Verdict {
    /// True for a game with moves that replay, and for a diagram.
    pub fn is_ok(&self) -> bool {
        matches!(self, Verdict::Ok | Verdict::NoMoves)
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
        }
    }
}

/// One game checked: where it is, the rules it was checked under, and the verdict.
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
}

impl fmt::Display for GameReport {
    /// `game 3 (line 40): OK`, with the rule set when it was inferred.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {} (line {}): {}",
            self.number, self.line, self.verdict
        )?;
        match &self.rules {
            Some(rules) if rules.from == RulesFrom::Inferred => {
                write!(f, " ({} rules, inferred)", rules.variant.name())
            }
            _ => Ok(()),
        }
    }
}

/// Checks one game as the file states it: its moves must replay from its
/// FEN position, or from the opening when it has none (unknown moves and
/// captures written short filled in as the judge fills them).
pub fn verify_game(game: &RawGame<'_>, given: Option<Variant>) -> GameReport {
    let report = |rules, verdict| GameReport {
        number: game.number,
        line: game.line,
        rules,
        verdict,
    };
    if let Some((line, message)) = &game.problem {
        let error = ParsePdnError {
            line: *line,
            message: message.clone(),
        };
        return report(None, Verdict::Unreadable(error));
    }
    let rules = match stated_rules(game, given) {
        Ok(Some(rules)) => rules,
        Ok(None) => return infer_and_verify(game),
        Err(unsupported) => return report(None, Verdict::Unsupported(unsupported)),
    };
    let verdict = verdict_under(game, rules.variant).verdict;
    report(Some(rules), verdict)
}

/// A game tried under one rule set: the verdict, and how far it got
/// (plies that replayed; `None` when it could not even be read).
struct Trial {
    verdict: Verdict,
    reached: Option<usize>,
}

/// The verdict on `game` under `variant`.
fn verdict_under(game: &RawGame<'_>, variant: Variant) -> Trial {
    let read = match game.read(reading(variant)) {
        Ok(read) => read,
        Err(e) => {
            return Trial {
                verdict: Verdict::Unreadable(e),
                reached: None,
            }
        }
    };
    if read.record.plies() == 0 {
        return Trial {
            verdict: Verdict::NoMoves,
            reached: Some(0),
        };
    }
    let (verdict, reached) = match check_moves(&read, variant) {
        Ok(()) => (Verdict::Ok, read.record.plies()),
        Err((why, ply)) => (Verdict::Illegal(why), ply),
    };
    Trial {
        verdict,
        reached: Some(reached),
    }
}

/// The start of a game read under `variant`: its FEN position, else the
/// opening (the side to move is the record's).
pub fn start_of(game: &PdnGame, variant: Variant) -> Board {
    game.fen
        .map_or_else(|| variant.topology().opening(), |(_, board)| board)
}

/// Replays a game read under `variant` from [`start_of`]; the reason and
/// the plies that replayed when it fails.
fn check_moves(game: &PdnGame, variant: Variant) -> Result<(), (String, usize)> {
    let rules = variant.rules();
    let start = start_of(game, variant);
    if let Some(problem) = rules.start_problems(&start).first() {
        return Err((format!("FEN position: {problem}"), 0));
    }
    replay(rules, &start, &game.record)
        .map(|_| ())
        .map_err(|e| (e.to_string(), e.ply - 1))
}

/// A game with neither `--rules` nor a tag: the rule sets its notation
/// allows, tried in order; the first its moves replay under, else the one
/// they get furthest under (its verdict is the game's).
fn infer_and_verify(game: &RawGame<'_>) -> GameReport {
    let mut best: Option<(Variant, Trial)> = None;
    for variant in Variant::candidates(game.square_names()) {
        let trial = verdict_under(game, variant);
        if trial.verdict.is_ok() {
            best = Some((variant, trial));
            break;
        }
        let further = best.as_ref().is_none_or(|(_, b)| trial.reached > b.reached);
        if further {
            best = Some((variant, trial));
        }
    }
    let (variant, trial) = best.expect("every notation has a candidate rule set");
    GameReport {
        number: game.number,
        line: game.line,
        rules: Some(GameRules {
            variant,
            from: RulesFrom::Inferred,
            warning: None,
        }),
        verdict: trial.verdict,
    }
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
        };
        *slot += 1;
    }

    /// Every game with moves replays (diagrams do not count against it).
    pub fn all_ok(&self) -> bool {
        self.illegal + self.unreadable + self.unsupported == 0
    }

    /// All games counted.
    pub fn games(&self) -> usize {
        self.ok + self.illegal + self.no_moves + self.unreadable + self.unsupported
    }
}

impl fmt::Display for Tally {
    /// `30 games: 27 OK, 1 illegal, 2 without moves, 0 unreadable, 0 of other rules`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} games: {} OK, {} with an illegal move, {} without moves, {} unreadable, {} of rules postfacto does not play",
            self.games(),
            self.ok,
            self.illegal,
            self.no_moves,
            self.unreadable,
            self.unsupported
        )
    }
}
