//! Reading inputs: files and standard input within a size cap, and the
//! records in them, each with the rule sets to read it under (the user's,
//! a PDN game's own `GameType`, or those its notation allows).

use std::borrow::Cow;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use postfacto::board::PartialBoard;
use postfacto::notation::Record;
use postfacto::request::{BoardRole, BoardText, InputError};
use postfacto::rules::Variant;

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

    /// The input as PDN text (see [`postfacto::request::pdn_text`]).
    pub fn pdn_text(&self) -> Result<Cow<'_, str>, Failure> {
        postfacto::request::pdn_text(&self.bytes)
            .map_err(|e| fail(Status::BadInput, format!("{}: {e}", self.name)))
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
    if bytes.starts_with(&GZIP_MAGIC) {
        // A gzip-compressed input (SAT benchmarks come so), unpacked within
        // the same limit.
        let unpacked = flate2::read::GzDecoder::new(&bytes[..]);
        return read_capped(unpacked, name, expected.saturating_mul(4));
    }
    Ok(bytes)
}

/// The first bytes of a gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

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
            let records = |p: &Path| p.extension().is_some_and(|x| x == "in" || x == "pdn");
            let inside = files_in(path, records, "*.in or *.pdn")?;
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// The files of `folder` that `wanted` picks, in name order; `what`
/// names them when there is none (`*.in`).
pub fn files_in(
    folder: &Path,
    wanted: impl Fn(&Path) -> bool,
    what: &str,
) -> Result<Vec<PathBuf>, Failure> {
    let cannot = |e: std::io::Error| {
        fail(
            Status::BadInput,
            format!("cannot read '{}': {e}", folder.display()),
        )
    };
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .map_err(cannot)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| wanted(p))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(fail(
            Status::BadInput,
            format!("'{}' holds no {what} file", folder.display()),
        ));
    }
    Ok(files)
}

pub use postfacto::request::{Item, RulesChoice};

/// How records are read: under a rule choice, captures written short or not.
pub type Reading = postfacto::request::ReadAs;

/// Every record of `input`, each with its readings.
///
/// # Errors
/// The input as a whole cannot be read (not text, or the task's format
/// malformed: its records are read together).
pub fn read_items(input: &Input, reading: Reading) -> Result<Vec<Item>, Failure> {
    if let Some(error) = &input.error {
        return Err(fail(Status::BadInput, error.clone()));
    }
    postfacto::request::read_items(&input.name, &input.bytes, reading)
        .map_err(|e| fail(Status::BadInput, format!("{}: {e}", input.name)))
}

/// The records of `input` read under `variant` alone (games without moves
/// left out): for commands that compare engines on one rule set.
///
/// # Errors
/// The input, or one of its games, cannot be read under `variant`.
pub fn read_records(input: &Input, variant: Variant) -> Result<Vec<Record>, Failure> {
    read_items(
        input,
        Reading::as_written(RulesChoice::Given(variant), false),
    )?
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
                    error.map(|e| e.to_string()).unwrap_or_default()
                ),
            )),
        },
    )
    .collect()
}

/// A `--start-board` or `--end-board` file: what is known of that board,
/// read by the library ([`BoardText::facts`]: a start must obey the start
/// rules); its errors said as this command has always said them.
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
    let which = if start {
        BoardRole::Start
    } else {
        BoardRole::End
    };
    let name = &input.name;
    match BoardText::Rows(vec![text.to_string()]).facts(variant, which) {
        Ok((facts, _)) => Ok(Some(facts)),
        Err(InputError::Board { line, message, .. }) => Err(fail(
            Status::BadInput,
            format!("{name}: line {line}: {message}"),
        )),
        Err(InputError::NotAPosition { problem, .. }) => Err(fail(
            Status::BadInput,
            format!("{name}: not a start board: {problem}"),
        )),
        Err(other) => Err(Failure::request(Some(name), other)),
    }
}
