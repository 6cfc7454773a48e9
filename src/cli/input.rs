//! Reading inputs: files and standard input within a size cap, and the
//! records in them, each with the rule sets to read it under (the user's,
//! a PDN game's own `GameType`, or those its notation allows).

use std::borrow::Cow;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use postfacto::archive::{read_game, RulesFrom};
use postfacto::board::PartialBoard;
use postfacto::notation::{
    games, looks_like_pdn, parse_records_bytes_with, RawGame, Record, SquareNames,
};
use postfacto::rules::Variant;

use super::args::RulesArg;
use super::{fail, Failure, Status};

/// A named input: its display name and bytes, or why it could not be read.
pub struct Input {
    pub name: String,
    pub bytes: Vec<u8>,
    pub error: Option<String>,
}

impl Input {
    /// The input as text; not UTF-8 is bad input, said with `what` ("the board").
    pub fn text(&self, what: &str) -> Result<&str, Failure> {
        std::str::from_utf8(&self.bytes).map_err(|_| {
            fail(
                Status::BadInput,
                format!("{}: {what} is not UTF-8 text", self.name),
            )
        })
    }

    /// The input as PDN text. Old archives are not always UTF-8 (Windows
    /// code pages in tag values and comments): every PDN mark is ASCII, so
    /// other bytes are replaced and the file read all the same. A file
    /// with NUL bytes is not text.
    pub fn pdn_text(&self) -> Result<Cow<'_, str>, Failure> {
        if self.bytes.contains(&0) {
            return Err(fail(
                Status::BadInput,
                format!("{}: not a text file (it holds NUL bytes)", self.name),
            ));
        }
        Ok(String::from_utf8_lossy(&self.bytes))
    }

    /// Whether the input is PDN: a `.pdn` name, or text that starts like PDN.
    pub fn is_pdn(&self) -> bool {
        let head = &self.bytes[..self.bytes.len().min(4096)];
        self.name.to_ascii_lowercase().ends_with(".pdn")
            || looks_like_pdn(&String::from_utf8_lossy(head))
    }
}

/// The largest input read (a file or standard input): 256 MiB, or
/// `POSTFACTO_MAX_INPUT` bytes. Everything read is held in memory, and the
/// parsed form takes a few times more, so a hostile input stops here.
fn max_input() -> u64 {
    std::env::var("POSTFACTO_MAX_INPUT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256 << 20)
}

/// Reads all of `reader`, refusing more than [`max_input`] bytes; room
/// for `expected` bytes (a file's size) is made from the start, so a large
/// batch is read without copying it as it grows.
fn read_capped(reader: impl Read, name: &str, expected: u64) -> Result<Vec<u8>, Failure> {
    let limit = max_input();
    let room = usize::try_from(expected.min(limit).saturating_add(1)).unwrap_or(0);
    let mut bytes = Vec::with_capacity(room);
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| fail(Status::BadInput, format!("cannot read {name}: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(fail(
            Status::BadInput,
            format!("{name} is larger than the input limit of {limit} bytes (POSTFACTO_MAX_INPUT)"),
        ));
    }
    Ok(bytes)
}

/// Reads a file, or standard input for `None` or `-`.
pub fn read_input(path: Option<&Path>) -> Result<Input, Failure> {
    match path {
        None => read_stdin(),
        Some(p) if p == Path::new("-") => read_stdin(),
        Some(p) => {
            let name = format!("'{}'", p.display());
            let file = fs::File::open(p)
                .map_err(|e| fail(Status::BadInput, format!("cannot read {name}: {e}")))?;
            let size = file.metadata().map_or(0, |m| m.len());
            Ok(Input {
                name: p.display().to_string(),
                bytes: read_capped(file, &name, size)?,
                error: None,
            })
        }
    }
}

fn read_stdin() -> Result<Input, Failure> {
    Ok(Input {
        name: "<stdin>".to_string(),
        bytes: read_capped(io::stdin(), "standard input", 0)?,
        error: None,
    })
}

/// Reads a file; an unreadable one becomes an input whose parse will report the problem.
pub fn read_or_report(path: &Path) -> Input {
    read_input(Some(path)).unwrap_or_else(|failure| Input {
        name: path.display().to_string(),
        bytes: Vec::new(),
        error: Some(failure.message),
    })
}

/// Every file named, with folders replaced by the record files in them
/// (`*.in` and `*.pdn`), in name order.
pub fn record_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = fs::read_dir(path)
                .map_err(|e| {
                    fail(
                        Status::BadInput,
                        format!("cannot read '{}': {e}", path.display()),
                    )
                })?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "in" || x == "pdn"))
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// The rule set the command line asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesChoice {
    /// No `--rules`: English for the task's format; a PDN game's own
    /// `GameType`, else what its notation and moves allow.
    Default,
    /// `--rules NAME`.
    Given(Variant),
    /// `--rules auto`: inferred for any input, from its notation and from
    /// which rule set it replays (or solves) under.
    Auto,
}

impl RulesChoice {
    /// The rule set when one is named.
    pub fn given(self) -> Option<Variant> {
        match self {
            RulesChoice::Given(v) => Some(v),
            RulesChoice::Default | RulesChoice::Auto => None,
        }
    }

    /// The one rule set for commands that need it named (English by default).
    pub fn fixed(self) -> Option<Variant> {
        match self {
            RulesChoice::Given(v) => Some(v),
            RulesChoice::Default => Some(Variant::English),
            RulesChoice::Auto => None,
        }
    }
}

/// How records are read: under a rule choice, captures written short or not.
#[derive(Clone, Copy, Debug)]
pub struct Reading {
    pub rules: RulesChoice,
    pub short_captures: bool,
}

/// A record read under one rule set (see [`postfacto::archive::Reading`]).
pub type Reader = postfacto::archive::Reading;

/// One record (or PDN game) of an input: the readings to try, in order
/// (one when the rule set is known), or why it cannot be worked on.
#[derive(Clone, Debug)]
pub struct Item {
    /// 1-based line where it starts.
    pub line: usize,
    /// Its 1-based number in a PDN file.
    pub game: Option<usize>,
    pub readings: Vec<Reader>,
    pub rules_from: RulesFrom,
    /// A game that cannot be read, or is of rules postfacto does not play.
    pub error: Option<String>,
    /// The user's rule set and the game's tag disagree.
    pub warning: Option<String>,
    /// A PDN game without moves (a diagram).
    pub no_moves: bool,
}

impl Item {
    fn failed(line: usize, game: Option<usize>, error: String) -> Item {
        Item {
            line,
            game,
            readings: Vec::new(),
            rules_from: RulesFrom::Given,
            error: Some(error),
            warning: None,
            no_moves: false,
        }
    }
}

/// Every record of `input`, each with its readings.
///
/// # Errors
/// The input as a whole cannot be read (not text, or the task's format
/// malformed: its records are read together).
pub fn read_items(input: &Input, reading: Reading) -> Result<Vec<Item>, Failure> {
    if let Some(error) = &input.error {
        return Err(fail(Status::BadInput, error.clone()));
    }
    if input.is_pdn() {
        let text = input.pdn_text()?;
        return Ok(games(&text).map(|g| game_item(&g, reading.rules)).collect());
    }
    task_items(input, reading)
}

/// The records of the task's format, under the rule sets the choice allows.
fn task_items(input: &Input, reading: Reading) -> Result<Vec<Item>, Failure> {
    let (candidates, from) = match reading.rules {
        RulesChoice::Auto => {
            let mut names = SquareNames::default();
            names.scan(&String::from_utf8_lossy(&input.bytes));
            (Variant::candidates(names), RulesFrom::Inferred)
        }
        other => (vec![other.fixed().unwrap_or_default()], RulesFrom::Given),
    };
    let mut parsed: Vec<(Variant, Vec<Record>)> = Vec::new();
    let mut first_error = None;
    for variant in candidates {
        let mut geometry = variant.geometry();
        if reading.short_captures {
            geometry = geometry.short_captures();
        }
        match parse_records_bytes_with(&input.bytes, geometry) {
            Ok(records) => parsed.push((variant, records)),
            Err(e) => {
                first_error.get_or_insert_with(|| format!("{}: {e}", input.name));
            }
        }
    }
    let Some(count) = parsed.first().map(|(_, records)| records.len()) else {
        return Err(fail(Status::BadInput, first_error.unwrap_or_default()));
    };
    // Record i of every reading, moved out in step.
    let mut columns: Vec<_> = parsed
        .into_iter()
        .map(|(variant, records)| (variant, records.into_iter()))
        .collect();
    Ok((0..count)
        .map(|_| {
            let readings: Vec<Reader> = columns
                .iter_mut()
                .filter_map(|(variant, records)| {
                    records.next().map(|record| Reader {
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
            }
        })
        .collect())
}

/// One PDN game, read as [`read_game`] reads it.
fn game_item(game: &RawGame<'_>, rules: RulesChoice) -> Item {
    let (line, number) = (game.line, Some(game.number));
    match read_game(game, rules.given()) {
        Ok(read) => Item {
            line,
            game: number,
            no_moves: read.no_moves,
            readings: read.readings,
            rules_from: read.from,
            error: None,
            warning: read.warning,
        },
        Err(e) => Item::failed(line, number, e.to_string()),
    }
}

/// The records of `input` read under `variant` alone (games without moves
/// left out): for commands that compare engines on one rule set.
///
/// # Errors
/// The input, or one of its games, cannot be read under `variant`.
pub fn read_records(input: &Input, variant: Variant) -> Result<Vec<Record>, Failure> {
    let reading = Reading {
        rules: RulesChoice::Given(variant),
        short_captures: false,
    };
    read_items(input, reading)?
        .into_iter()
        .filter(|item| !item.no_moves)
        .map(
            |item| match (item.error, item.readings.into_iter().next()) {
                (None, Some(reader)) => Ok(reader.record),
                (error, _) => Err(fail(
                    Status::BadInput,
                    format!(
                        "{}: line {}: {}",
                        input.name,
                        item.line,
                        error.unwrap_or_default()
                    ),
                )),
            },
        )
        .collect()
}

/// The one rule set of commands that work on boards or make games.
pub fn named_rules(rules: RulesArg, command: &str) -> Result<Variant, Failure> {
    rules.variant().ok_or_else(|| {
        fail(
            Status::BadInput,
            format!("{command} needs a rule set named: --rules auto infers one from records only"),
        )
    })
}

/// A `--start-board` or `--end-board` file: what is known of that board.
/// A start fact must obey the start rules (no man on its crowning row).
pub fn board_facts(
    path: Option<&Path>,
    variant: Variant,
    start: bool,
) -> Result<Option<PartialBoard>, Failure> {
    let Some(path) = path else {
        return Ok(None);
    };
    let input = read_input(Some(path))?;
    let text = input.text("the board")?;
    let facts =
        postfacto::notation::parse_partial_board_on(text, variant.topology()).map_err(|e| {
            fail(
                Status::BadInput,
                format!("{}: line {}: {}", input.name, e.line, e.message),
            )
        })?;
    if start {
        if let Some(problem) = variant.rules().start_problems(&facts.board).first() {
            return Err(fail(
                Status::BadInput,
                format!("{}: not a start board: {problem}", input.name),
            ));
        }
    }
    Ok(Some(facts))
}
