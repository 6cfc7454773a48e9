//! The records of an input (the task's format or PDN), each with the rule
//! sets to read it under, and the choice among them: the first under
//! which the record solves.

use std::borrow::Cow;
use std::time::Instant;

use crate::archive::{read_game, GameError, Reading, RulesFrom};
use crate::board::PartialBoard;
use crate::encode::BoardFacts;
use crate::notation::{
    games, looks_like_pdn, parse_records_bytes_with, GameText, RawGame, SquareNames,
};
use crate::solve::{Outcome, SolveError};

use super::{InputError, RulesChoice};

/// How records are read: under a rule choice, captures written short or not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadAs {
    /// The rule set.
    pub rules: RulesChoice,
    /// Captures written by their first and last squares only.
    pub short_captures: bool,
    /// A PDN game starts where it says (its `[FEN]`, else its rule set's
    /// opening), so its replay from there decides a move read with the
    /// other separator, as `verify --pdn` does: where the other reading is
    /// not legal either, the move is read as written (`37-33`). Off for
    /// fragments and games whose start is given otherwise.
    pub replay_decides: bool,
    /// A move of the task's format that is no move on the board is read
    /// as miswritten (a repair mends it) instead of refused.
    pub miswritten: bool,
}

impl ReadAs {
    /// Records read as written under `rules`: a move read with the other
    /// separator is not taken back by a replay (`verify INPUT ANSWER`,
    /// whose games start on the answer's board, and `compare`).
    pub fn as_written(rules: RulesChoice, short_captures: bool) -> ReadAs {
        ReadAs {
            rules,
            short_captures,
            replay_decides: false,
            miswritten: false,
        }
    }

    /// These records read for a repair (`repair`): a move that is no move
    /// on the board is a mistake to mend, as in PDN and in a fragment.
    #[must_use]
    pub fn repairing(self, repair: bool) -> ReadAs {
        ReadAs {
            miswritten: repair,
            ..self
        }
    }

    /// These records read as `solve` (and `cnf`, whose formula is the one
    /// it solves) reads them: a PDN game's replay from its start decides
    /// unless it is read as a `fragment` or `known` gives its start board.
    pub fn solving(self, fragment: bool, known: &BoardFacts) -> ReadAs {
        ReadAs {
            replay_decides: !fragment && known.start.is_none(),
            ..self
        }
    }
}

/// One record (or PDN game) of an input: the readings to try, in order
/// (one when the rule set is known), or why it cannot be worked on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// 1-based line where it starts.
    pub line: usize,
    /// Its 1-based number in a PDN file.
    pub game: Option<usize>,
    /// Its readings, in the order to try them.
    pub readings: Vec<Reading>,
    /// Where its rule sets came from.
    pub rules_from: RulesFrom,
    /// A game that cannot be read, or is of rules postfacto does not play.
    pub error: Option<GameError>,
    /// The user's rule set and the game's tag disagree.
    pub warning: Option<String>,
    /// A PDN game without moves (a diagram).
    pub no_moves: bool,
    /// A PDN game's tags, first move number and result, to write it back.
    pub pdn: Option<GameText>,
}

/// Whether an input named `name` is PDN: a `.pdn` (or `.pdn.gz`) name, or
/// text that starts like PDN.
pub fn is_pdn(name: &str, bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    let name = name.to_ascii_lowercase();
    name.trim_end_matches(".gz").ends_with(".pdn") || looks_like_pdn(&String::from_utf8_lossy(head))
}

/// An input as PDN text. Old archives are not always UTF-8 (Windows code
/// pages in tag values and comments): every PDN mark is ASCII, so other
/// bytes are replaced and the file read all the same.
///
/// # Errors
/// A file with NUL bytes is not text.
pub fn pdn_text(bytes: &[u8]) -> Result<Cow<'_, str>, InputError> {
    if bytes.contains(&0) {
        return Err(InputError::NotText);
    }
    Ok(String::from_utf8_lossy(bytes))
}

/// Every record of the input `name` holding `bytes`, each with its readings.
///
/// # Errors
/// The input as a whole cannot be read (not text, or the task's format
/// malformed: its records are read together).
pub fn read_items(name: &str, bytes: &[u8], read_as: ReadAs) -> Result<Vec<Item>, InputError> {
    if is_pdn(name, bytes) {
        let text = pdn_text(bytes)?;
        let raw: Vec<RawGame<'_>> = games(&text).collect();
        let mut items: Vec<Item> = raw.iter().map(|g| game_item(g, read_as)).collect();
        if items.is_empty() {
            return Err(InputError::NoGames);
        }
        if read_as.rules.given().is_none() {
            follow_the_file_s_rules(&raw, &mut items);
        }
        return Ok(items);
    }
    task_items(bytes, read_as)
}

/// Games whose rule set is inferred are tried first under the one
/// `verify --pdn` infers for them (once for the file: mrcd2006's games
/// that replay as Russian too are Czech; else the game's own, the one its
/// moves get furthest under: an English game with a miswritten `36`), so
/// both commands read, and repair, a game alike. Only games with every move written take part: a replay, not a
/// search for unknown moves, decides (a file of games with `?` moves
/// would cost a search each before any work began).
fn follow_the_file_s_rules(raw: &[RawGame<'_>], items: &mut [Item]) {
    let open = |item: &Item| item.rules_from == RulesFrom::Inferred && item.readings.len() > 1;
    if !items.iter().any(open) {
        return;
    }
    let (written, items): (Vec<&RawGame<'_>>, Vec<&mut Item>) = raw
        .iter()
        .zip(items.iter_mut())
        .filter(|(game, _)| game.moves.iter().all(|m| m.text != "?"))
        .unzip();
    let written: Vec<RawGame<'_>> = written.into_iter().cloned().collect();
    let file = crate::archive::verify_file(&written, crate::archive::VerifyOptions::default());
    for (item, report) in items.into_iter().zip(&file.reports) {
        let Some(rules) = report
            .rules
            .as_ref()
            .filter(|r| r.from == RulesFrom::Inferred)
        else {
            continue;
        };
        if item.rules_from != RulesFrom::Inferred {
            continue;
        }
        if let Some(at) = item
            .readings
            .iter()
            .position(|r| r.variant == rules.variant)
        {
            let reading = item.readings.remove(at);
            item.readings.insert(0, reading);
        }
    }
}

/// The records of the task's format, under the rule sets the choice allows.
fn task_items(bytes: &[u8], read_as: ReadAs) -> Result<Vec<Item>, InputError> {
    let mut names = SquareNames::default();
    // A rule set named is read under whatever the squares look like.
    if read_as.rules.given().is_none() {
        names.scan(&String::from_utf8_lossy(bytes));
    }
    let rules = read_as.rules.for_squares(names);
    let from = match rules {
        RulesChoice::Auto => RulesFrom::Inferred,
        _ => RulesFrom::Given,
    };
    let parsed = rules.read_under_each(names, |variant| {
        let mut geometry = variant.geometry();
        if read_as.short_captures {
            geometry = geometry.short_captures();
        }
        if read_as.miswritten {
            geometry = geometry.miswritten();
        }
        parse_records_bytes_with(bytes, geometry).map(|records| (variant, records))
    })?;
    let Some(count) = parsed.first().map(|(_, records)| records.len()) else {
        return Err(InputError::NoMoves);
    };
    // Record i of every reading, moved out in step.
    let mut columns: Vec<_> = parsed
        .into_iter()
        .map(|(variant, records)| (variant, records.into_iter()))
        .collect();
    Ok((0..count)
        .map(|_| {
            let readings: Vec<Reading> = columns
                .iter_mut()
                .filter_map(|(variant, records)| {
                    records.next().map(|record| Reading {
                        variant: *variant,
                        record,
                        fen: None,
                    })
                })
                .collect();
            Item {
                line: readings[0].record.line,
                game: None,
                readings,
                rules_from: from,
                error: None,
                warning: None,
                no_moves: false,
                pdn: None,
            }
        })
        .collect())
}

/// One PDN game, read as [`read_game`] reads it.
fn game_item(game: &RawGame<'_>, read_as: ReadAs) -> Item {
    let (line, number) = (game.line, Some(game.number));
    let pdn = Some(GameText {
        tags: game
            .tags
            .iter()
            .map(|t| (t.name.to_string(), t.value.to_string()))
            .collect(),
        first_number: game.first_number,
        result: game.result.map(str::to_string),
    });
    match read_game(game, read_as.rules.given(), read_as.replay_decides) {
        Ok(read) => Item {
            line,
            game: number,
            no_moves: read.no_moves,
            readings: read.readings,
            rules_from: read.from,
            error: None,
            warning: read.warning,
            pdn,
        },
        Err(error) => Item {
            line,
            game: number,
            readings: Vec::new(),
            rules_from: RulesFrom::Given,
            error: Some(error),
            warning: None,
            no_moves: false,
            pdn,
        },
    }
}

/// Where a record's start board comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartFrom {
    /// The facts the user gave (`--start-board`).
    Given,
    /// A PDN game's `[FEN]`.
    Fen,
    /// The rule set's opening: a PDN game without `[FEN]`, as PDN reads it.
    Opening,
    /// Unknown: a fragment, its start to be reconstructed.
    Unknown,
}

impl StartFrom {
    /// Its name in JSON: `given`, `fen`, `opening`, `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            StartFrom::Given => "given",
            StartFrom::Fen => "fen",
            StartFrom::Opening => "opening",
            StartFrom::Unknown => "unknown",
        }
    }

    /// What to say of a PDN game without `[FEN]` that the opening does not
    /// lead to: its numbering first when it starts past move 1 (the sign
    /// of a fragment), then that `--fragment` reads it as one.
    pub fn opening_hint(first_number: usize) -> String {
        let fragment = "--fragment reads it as a fragment whose start is unknown";
        if first_number > 1 {
            format!(
                "its numbering starts at move {first_number}, yet it has no [FEN], so it was read from the opening; {fragment}"
            )
        } else {
            format!("read from the opening (the game has no [FEN]); {fragment}")
        }
    }
}

/// The facts of a record and where its start comes from: the facts given;
/// else a PDN game's `[FEN]`; else, for a PDN game read as PDN reads it
/// (`pdn_game` and not `fragment`), the rule set's opening; else none (a
/// fragment).
pub fn start_facts(
    known: BoardFacts,
    reading: &Reading,
    pdn_game: bool,
    fragment: bool,
) -> (BoardFacts, StartFrom) {
    if known.start.is_some() {
        return (known, StartFrom::Given);
    }
    if reading.fen.is_some() {
        return (with_fen(known, reading), StartFrom::Fen);
    }
    if pdn_game && !fragment {
        let board = reading.variant.topology().opening();
        let opening = BoardFacts {
            start: Some(PartialBoard {
                board,
                known: board.topology().all_bits(),
            }),
            ..known
        };
        return (opening, StartFrom::Opening);
    }
    (known, StartFrom::Unknown)
}

/// The facts, with the start board a PDN `[FEN]` pins when none is given.
pub fn with_fen(mut known: BoardFacts, reading: &Reading) -> BoardFacts {
    if known.start.is_none() {
        known.start = reading.fen.map(|board| PartialBoard {
            board,
            known: board.topology().all_bits(),
        });
    }
    known
}

/// Which of `choices` to work on, and its outcome when it was solved to
/// choose it: the only one (not solved here), else the first that
/// `solve` solves, else the first (with its outcome). At `deadline` the
/// search stops and the first is taken.
///
/// # Errors
/// A solver error (a bug, or an answer that did not replay).
pub fn first_solving<T>(
    choices: &[T],
    solve: impl Fn(&T) -> Result<Outcome, SolveError>,
    deadline: Option<Instant>,
) -> Result<(usize, Option<Outcome>), SolveError> {
    if choices.len() <= 1 {
        return Ok((0, None));
    }
    let mut first = None;
    for (i, choice) in choices.iter().enumerate() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let outcome = solve(choice)?;
        if matches!(outcome, Outcome::Solved(_)) {
            return Ok((i, Some(outcome)));
        }
        first.get_or_insert(outcome);
    }
    Ok((0, first))
}
