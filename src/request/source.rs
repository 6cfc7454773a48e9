//! Reading a job's inputs from files: a file or standard input within a
//! size cap, the record files of a folder, and the records and boards in
//! them, every error naming its file. A front end that works on files
//! (the binary, a cluster task) reads through here; one that has the text
//! in hand starts at [`read_items`] or [`BoardText`].

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::archive::GameError;
use crate::board::PartialBoard;
use crate::encode::BoardFacts;
use crate::notation::{BoardTextProblem, Record};
use crate::rules::{StartProblem, Variant};

use super::{
    read_items, BoardRole, BoardText, InputError, Item, JudgeRequest, ReadAs, RulesChoice,
};

/// A named input: its display name (the path, or `<stdin>`) and its bytes.
#[derive(Clone, Debug)]
pub struct Source {
    /// The name messages give it.
    pub name: String,
    /// All of it, unpacked when it was gzip-compressed.
    pub bytes: Vec<u8>,
}

/// Why an input, or what is in it, cannot be read: bad input, but for
/// [`SourceError::NoReading`], which is this program's fault.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SourceError {
    /// A file, folder or standard input the system cannot read.
    #[error("cannot read {what}: {source}")]
    Unreadable {
        /// `'path'` or `standard input`.
        what: String,
        /// The operating system's reason.
        #[source]
        source: io::Error,
    },
    /// An input past the size cap (256 MiB, or `POSTFACTO_MAX_INPUT`).
    #[error("{what} is larger than the input limit of {limit} bytes (POSTFACTO_MAX_INPUT)")]
    TooLarge {
        /// `'path'` or `standard input`.
        what: String,
        /// The limit in bytes.
        limit: u64,
    },
    /// A size cap set in the environment that is no number of bytes.
    #[error("POSTFACTO_MAX_INPUT='{0}' is not a number of bytes")]
    BadMaxInput(String),
    /// A gzip-compressed input, in a build without the `gzip` feature.
    #[error("{what} is gzip-compressed, and this build cannot unpack it (built without the gzip feature)")]
    Compressed {
        /// `'path'` or `standard input`.
        what: String,
    },
    /// An input that must be UTF-8 text and is not.
    #[error("{name}: {what} is not UTF-8 text")]
    NotUtf8 {
        /// The input's name.
        name: String,
        /// What it holds ("the board").
        what: &'static str,
    },
    /// A folder without a file of the kind asked for.
    #[error("'{}' holds no {what} file", folder.display())]
    NoFiles {
        /// The folder.
        folder: PathBuf,
        /// The kind of file (`*.in`).
        what: &'static str,
    },
    /// A line of a board file that cannot be read.
    #[error("{name}: line {line}: {problem}")]
    Board {
        /// The input's name.
        name: String,
        /// The 1-based line.
        line: usize,
        /// What is wrong.
        #[source]
        problem: BoardTextProblem,
    },
    /// A record that cannot be read under the rule set asked for.
    #[error("{name}: line {line}: {error}")]
    Record {
        /// The input's name.
        name: String,
        /// The 1-based line where the record starts.
        line: usize,
        /// What is wrong.
        #[source]
        error: GameError,
    },
    /// A record read under no rule set (never expected: a record that
    /// cannot be read has its error).
    #[error("{name}: line {line}: no reading of it under this rule set")]
    NoReading {
        /// The input's name.
        name: String,
        /// The 1-based line where the record starts.
        line: usize,
    },
    /// A start board file that breaks the start rules. (The library's
    /// [`InputError::NotAPosition`] says it of a request's board
    /// argument; a file has always been said to be "not a start board".)
    #[error("{name}: not a start board: {problem}")]
    NotAStart {
        /// The input's name.
        name: String,
        /// The rule it breaks.
        #[source]
        problem: StartProblem,
    },
    /// An input whose content cannot be read.
    #[error("{name}: {error}")]
    Content {
        /// The input's name.
        name: String,
        /// What is wrong with it.
        #[source]
        error: InputError,
    },
}

impl SourceError {
    /// The exit status it ends a command with: 2, bad input; 4 for a
    /// record that was read yet has no reading (an internal error).
    #[must_use]
    pub fn exit_status(&self) -> u8 {
        match self {
            SourceError::NoReading { .. } => 4,
            _ => 2,
        }
    }
}

/// The largest input read (a file or standard input): 256 MiB, or
/// `POSTFACTO_MAX_INPUT` bytes (set and empty: the default). Everything read is held in memory, and the
/// parsed form takes a few times more, so a hostile input stops here.
///
/// # Errors
/// [`SourceError::BadMaxInput`]: a cap the user set and cannot have
/// meant is not replaced by the default in silence.
pub fn max_input() -> Result<u64, SourceError> {
    match std::env::var("POSTFACTO_MAX_INPUT") {
        Ok(v) if !v.trim().is_empty() => v.trim().parse().map_err(|_| SourceError::BadMaxInput(v)),
        _ => Ok(DEFAULT_MAX_INPUT),
    }
}

/// The input cap when `POSTFACTO_MAX_INPUT` sets none.
const DEFAULT_MAX_INPUT: u64 = 256 << 20;

/// Reads all of `reader`, refusing more than [`max_input`] bytes; room
/// for `expected` bytes (a file's size) is made from the start, so a large
/// batch is read without copying it as it grows.
fn read_capped(reader: impl Read, what: &str, expected: u64) -> Result<Vec<u8>, SourceError> {
    let limit = max_input()?;
    let room = usize::try_from(expected.min(limit).saturating_add(1)).unwrap_or(0);
    let mut bytes = Vec::with_capacity(room);
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| SourceError::Unreadable {
            what: what.to_string(),
            source,
        })?;
    if bytes.len() as u64 > limit {
        return Err(SourceError::TooLarge {
            what: what.to_string(),
            limit,
        });
    }
    if bytes.starts_with(&GZIP_MAGIC) {
        return unpacked(&bytes, what, expected);
    }
    Ok(bytes)
}

/// The first bytes of a gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// A gzip-compressed input (SAT benchmarks come so), unpacked within the
/// same limit.
#[cfg(feature = "gzip")]
fn unpacked(bytes: &[u8], what: &str, expected: u64) -> Result<Vec<u8>, SourceError> {
    let unpacked = flate2::read::GzDecoder::new(bytes);
    read_capped(unpacked, what, expected.saturating_mul(4))
}

/// A gzip-compressed input, which this build cannot unpack.
#[cfg(not(feature = "gzip"))]
fn unpacked(_: &[u8], what: &str, _: u64) -> Result<Vec<u8>, SourceError> {
    Err(SourceError::Compressed {
        what: what.to_string(),
    })
}

impl Source {
    /// Reads a file, or standard input for `None` or `-`.
    ///
    /// # Errors
    /// It cannot be read, or it is larger than [`max_input`].
    pub fn read(path: Option<&Path>) -> Result<Source, SourceError> {
        match path {
            Some(p) if p != Path::new("-") => {
                let what = format!("'{}'", p.display());
                let file = std::fs::File::open(p).map_err(|source| SourceError::Unreadable {
                    what: what.clone(),
                    source,
                })?;
                let size = file.metadata().map_or(0, |m| m.len());
                Ok(Source {
                    name: p.display().to_string(),
                    bytes: read_capped(file, &what, size)?,
                })
            }
            _ => Ok(Source {
                name: "<stdin>".to_string(),
                bytes: read_capped(io::stdin(), "standard input", 0)?,
            }),
        }
    }

    /// A board argument: a file, standard input for `None` or `-`, or a
    /// FEN written on the command line itself (no such file, and the text
    /// starts as a FEN does: `W:` or `B:`), as users type it.
    ///
    /// # Errors
    /// As [`Source::read`].
    pub fn board(path: Option<&Path>) -> Result<Source, SourceError> {
        Source::board_named(path, "the FEN argument")
    }

    /// [`Source::board`], a FEN written on the command line named `name`
    /// in messages (a second board's FEN is told from the first's).
    ///
    /// # Errors
    /// As [`Source::read`].
    pub fn board_named(path: Option<&Path>, name: &str) -> Result<Source, SourceError> {
        match path.and_then(Path::to_str) {
            Some(text) if looks_like_fen(text) && !Path::new(text).exists() => Ok(Source {
                name: name.to_string(),
                bytes: text.as_bytes().to_vec(),
            }),
            _ => Source::read(path),
        }
    }

    /// The input as text; `what` says what it holds ("the board").
    ///
    /// # Errors
    /// It is not UTF-8.
    pub fn text(&self, what: &'static str) -> Result<&str, SourceError> {
        std::str::from_utf8(&self.bytes).map_err(|_| SourceError::NotUtf8 {
            name: self.name.clone(),
            what,
        })
    }

    /// The input as PDN text (see [`super::pdn_text`]).
    ///
    /// # Errors
    /// It holds NUL bytes.
    pub fn pdn_text(&self) -> Result<std::borrow::Cow<'_, str>, SourceError> {
        super::pdn_text(&self.bytes).map_err(|e| self.named(e))
    }

    /// The input as a board text: a FEN (a text with a `:`) or rows
    /// ([`BoardText::of_text`]); `what` says which board ("the position").
    ///
    /// # Errors
    /// It is not UTF-8.
    pub fn board_text(&self, what: &'static str) -> Result<BoardText, SourceError> {
        Ok(BoardText::of_text(self.text(what)?))
    }

    /// This input's error, named.
    fn named(&self, error: InputError) -> SourceError {
        SourceError::Content {
            name: self.name.clone(),
            error,
        }
    }

    /// Every record of the input, each with its readings.
    ///
    /// # Errors
    /// The input as a whole cannot be read (not text, or the task's format
    /// malformed: its records are read together).
    pub fn items(&self, reading: ReadAs) -> Result<Vec<Item>, SourceError> {
        read_items(&self.name, &self.bytes, reading).map_err(|e| self.named(e))
    }

    /// The records of the input read under `variant` alone (games without
    /// moves left out): for jobs that compare engines on one rule set.
    ///
    /// # Errors
    /// The input, or one of its games, cannot be read under `variant`.
    pub fn records(&self, variant: Variant) -> Result<Vec<Record>, SourceError> {
        let reading = ReadAs::as_written(RulesChoice::Given(variant), false);
        self.items(reading)?
            .into_iter()
            .filter(|item| !item.no_moves)
            .map(|item| {
                let (name, line) = (self.name.clone(), item.line);
                match (item.error, item.readings.into_iter().next()) {
                    (Some(error), _) => Err(SourceError::Record { name, line, error }),
                    (None, Some(reading)) => Ok(reading.record),
                    (None, None) => Err(SourceError::NoReading { name, line }),
                }
            })
            .collect()
    }

    /// What is known of the board this input (a `--start-board` or
    /// `--end-board` file, or a FEN typed as the argument) gives, read by
    /// [`BoardText::facts`]: rows, or a FEN, which pins every square (a
    /// start must obey the start rules).
    ///
    /// # Errors
    /// Not text, a line that cannot be read, or a start that breaks the
    /// start rules.
    pub fn board_facts(
        &self,
        variant: Variant,
        which: BoardRole,
    ) -> Result<PartialBoard, SourceError> {
        let text = self.text("the board")?;
        match BoardText::of_text(text).facts(variant, which) {
            Ok((facts, _)) => Ok(facts),
            Err(InputError::Board { line, problem, .. }) => Err(SourceError::Board {
                name: self.name.clone(),
                line,
                problem,
            }),
            Err(InputError::NotAPosition { problem, .. }) => Err(SourceError::NotAStart {
                name: self.name.clone(),
                problem,
            }),
            Err(other) => Err(self.named(other)),
        }
    }
}

/// What the files `start` and `end` (`--start-board`, `--end-board`; a
/// FEN typed in a file's place too) say of a record's boards, read under
/// `variant`.
///
/// # Errors
/// A file that cannot be read, or a board that cannot (see
/// [`Source::board_facts`]).
pub fn board_files(
    start: Option<&Path>,
    end: Option<&Path>,
    variant: Variant,
) -> Result<BoardFacts, SourceError> {
    let read = |path: Option<&Path>, which| match path {
        None => Ok(None),
        Some(path) => Source::board(Some(path))?
            .board_facts(variant, which)
            .map(Some),
    };
    Ok(BoardFacts {
        start: read(start, BoardRole::Start)?,
        end: read(end, BoardRole::End)?,
    })
}

/// Whether `text` starts as a FEN: the side to move (`W` or `B`, in
/// either case, after any spaces), then a colon.
fn written_fen(text: &str) -> bool {
    let mut chars = text.trim_start().chars();
    matches!(chars.next(), Some('W' | 'B' | 'w' | 'b')) && chars.next() == Some(':')
}

/// Whether a command-line argument that names no file was meant as a FEN:
/// it starts as one, or it has a FEN's colons and no folder separator
/// (`X:W22:B11`, a mistyped side): read as a FEN, its error names the
/// FEN's fault, not a missing file.
fn looks_like_fen(text: &str) -> bool {
    written_fen(text) || (text.matches(':').count() >= 2 && !text.contains(['/', '\\']))
}

/// Every file named, with folders replaced by the record files in them
/// (`*.in` and `*.pdn`), in name order.
///
/// # Errors
/// A folder cannot be read or holds no record file.
pub fn record_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, SourceError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            files.extend(files_in(path, &["in", "pdn"], "*.in or *.pdn")?);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// The files of `folder` (not its folders) whose names end in one of
/// `extensions` (in any case: `GAMES.PDN` too; gzip-compressed too,
/// `games.pdn.gz`, as a file named alone is read), in name order; `what`
/// names them when there is none (`*.in`). Every job that takes a folder
/// lists it here, so they agree on what is in it.
///
/// # Errors
/// The folder cannot be read or holds none.
fn files_in(
    folder: &Path,
    extensions: &[&str],
    what: &'static str,
) -> Result<Vec<PathBuf>, SourceError> {
    let wanted = |p: &Path| {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let name = name.to_ascii_lowercase();
        let name = name.strip_suffix(".gz").unwrap_or(&name);
        p.is_file() && extensions.iter().any(|e| name.ends_with(&format!(".{e}")))
    };
    let entries = std::fs::read_dir(folder).map_err(|source| SourceError::Unreadable {
        what: format!("'{}'", folder.display()),
        source,
    })?;
    let mut files: Vec<_> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| wanted(p))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(SourceError::NoFiles {
            folder: folder.to_path_buf(),
            what,
        });
    }
    Ok(files)
}

/// The files of `verify --pdn PATH`: the file, or every `*.pdn` of a
/// folder in name order, each with its file name (a folder's files are
/// named on every line of their games).
///
/// # Errors
/// The folder cannot be read or holds no `*.pdn` file.
pub fn pdn_files(path: &Path) -> Result<Vec<(PathBuf, Option<String>)>, SourceError> {
    if !path.is_dir() {
        return Ok(vec![(path.to_path_buf(), None)]);
    }
    let files = files_in(path, &["pdn"], "*.pdn")?;
    Ok(files
        .into_iter()
        .map(|file| {
            let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
            (file, name)
        })
        .collect())
}

/// The inputs of `verify INPUT ANSWER`: a file, or every `*.in` of a
/// folder in name order.
///
/// # Errors
/// The folder cannot be read or holds no `*.in` file.
fn input_files(path: &Path) -> Result<Vec<PathBuf>, SourceError> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    files_in(path, &["in"], "*.in")
}

/// A file that cannot be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot {action} '{}': {source}", path.display())]
pub struct WriteFileError {
    /// "create", "write" or "compress".
    pub action: &'static str,
    /// The file.
    pub path: PathBuf,
    /// The operating system's reason.
    #[source]
    pub source: io::Error,
}

/// Writes `path` with `write` (gzip-compressed when its name ends in
/// `.gz`, as SAT benchmark files come).
///
/// # Errors
/// The file cannot be created or written, or (in a build without the
/// `gzip` feature) its name ends in `.gz`.
pub fn write_file(
    path: &Path,
    write: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
) -> Result<(), WriteFileError> {
    use io::Write as _;
    let failed = |action| {
        move |source| WriteFileError {
            action,
            path: path.to_path_buf(),
            source,
        }
    };
    let gzip = path.extension().is_some_and(|x| x == "gz");
    if gzip && !cfg!(feature = "gzip") {
        return Err(failed("compress")(io::Error::new(
            io::ErrorKind::Unsupported,
            "this build writes no gzip (built without the gzip feature)",
        )));
    }
    let file = std::fs::File::create(path).map_err(failed("create"))?;
    let written = if gzip {
        gzip_written(file, write)
    } else {
        let mut plain = io::BufWriter::new(file);
        write(&mut plain).and_then(|()| plain.flush())
    };
    written.map_err(failed("write"))
}

/// `write` into `file`, gzip-compressed.
#[cfg(feature = "gzip")]
fn gzip_written(
    file: std::fs::File,
    write: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
) -> io::Result<()> {
    use io::Write as _;
    let mut packed =
        flate2::write::GzEncoder::new(io::BufWriter::new(file), flate2::Compression::default());
    write(&mut packed)
        .and_then(|()| packed.finish())
        .and_then(|mut inner| inner.flush())
}

/// Never called: `write_file` refuses a `.gz` name in this build.
#[cfg(not(feature = "gzip"))]
fn gzip_written(
    _: std::fs::File,
    _: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
) -> io::Result<()> {
    unreachable!("write_file refuses .gz names without the gzip feature")
}

impl JudgeRequest {
    /// This request with the records of `inputs` (a file, or every `*.in`
    /// of a folder in name order) read as `read_as` says, and the answer
    /// of the file `answer`: `verify INPUT ANSWER`'s files.
    ///
    /// # Errors
    /// A file that cannot be read, or whose records cannot be.
    pub fn files(
        mut self,
        inputs: &Path,
        answer: &Path,
        read_as: ReadAs,
    ) -> Result<JudgeRequest, SourceError> {
        for file in input_files(inputs)? {
            let source = Source::read(Some(&file))?;
            self = self.items(&source.name, source.items(read_as)?);
        }
        Ok(self.answer(Source::read(Some(answer))?.bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_record_without_a_reading_is_this_programs_fault() {
        let no_reading = SourceError::NoReading {
            name: "a.pdn".into(),
            line: 3,
        };
        let not_text = SourceError::NotUtf8 {
            name: "a.pdn".into(),
            what: "the record",
        };
        assert_eq!((no_reading.exit_status(), not_text.exit_status()), (4, 2));
    }

    #[test]
    fn a_start_board_file_that_breaks_the_start_rules_is_named() {
        let source = Source {
            name: "b.txt".into(),
            // A black man on its crowning row.
            bytes:
                b"-?-?-?-?\n?-?-?-?-\n-?-?-?-?\n?-?-?-?-\n-?-?-?-?\n?-?-?-?-\n-?-?-?-?\nb-?-?-?-\n"
                    .to_vec(),
        };
        let error = source
            .board_facts(Variant::English, BoardRole::Start)
            .unwrap_err();
        assert!(matches!(error, SourceError::NotAStart { .. }), "{error}");
        assert!(error.to_string().starts_with("b.txt: not a start board: "));
    }

    #[test]
    fn a_gzip_input_is_unpacked_or_named_as_compressed() {
        // "B 0\n" packed by gzip -9n.
        let packed: [u8; 24] = [
            0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x73, 0x52, 0x30, 0xe0,
            0x02, 0x00, 0xa7, 0xd6, 0x87, 0x17, 0x04, 0x00, 0x00, 0x00,
        ];
        let read = read_capped(&packed[..], "'x.in.gz'", 24);
        if cfg!(feature = "gzip") {
            assert_eq!(read.unwrap(), b"B 0\n");
        } else {
            let error = read.unwrap_err();
            assert!(matches!(error, SourceError::Compressed { .. }), "{error}");
        }
    }

    #[test]
    fn an_empty_folder_holds_no_record_file() {
        let dir = tempfile::tempdir().unwrap();
        let error = record_files(&[dir.path().to_path_buf()]).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("'{}' holds no *.in or *.pdn file", dir.path().display())
        );
    }

    #[test]
    fn every_job_lists_a_folder_alike() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.in", "B.PDN", "notes.txt"] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        std::fs::create_dir(dir.path().join("old.in")).unwrap();
        let names = |files: Vec<PathBuf>| -> Vec<String> {
            files
                .iter()
                .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
                .collect()
        };
        let folder = dir.path().to_path_buf();
        assert_eq!(
            names(record_files(std::slice::from_ref(&folder)).unwrap()),
            ["B.PDN", "a.in"]
        );
        assert_eq!(names(input_files(&folder).unwrap()), ["a.in"]);
        let pdn: Vec<PathBuf> = pdn_files(&folder)
            .unwrap()
            .into_iter()
            .map(|f| f.0)
            .collect();
        assert_eq!(names(pdn), ["B.PDN"]);
    }

    #[test]
    fn a_board_argument_may_be_the_fen_itself() {
        let fen = "B:W21,22:B9,10";
        let source = Source::board(Some(Path::new(fen))).unwrap();
        assert_eq!(source.bytes, fen.as_bytes());
        assert_eq!(source.name, "the FEN argument");
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("W:board");
        std::fs::write(&file, "W:W31:B1").unwrap();
        assert_eq!(Source::board(Some(&file)).unwrap().bytes, b"W:W31:B1");
        let missing = dir.path().join("position.txt");
        assert!(matches!(
            Source::board(Some(&missing)),
            Err(SourceError::Unreadable { .. })
        ));
    }
}
