//! Records in the task's input format: a header `B n` or `W n`, then n moves.

use std::fmt;

use crate::board::Color;

use super::damaged::{Miswritten, MovePattern, WrittenMove};
use super::movetext::{Geometry, MoveText, ParseMoveError};

/// One instance: who moves first and the surviving moves, with where they were read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The side that makes the first move of the fragment.
    pub first: Color,
    /// The moves in order; ply `i` (1-based) is `moves[i - 1]`.
    pub moves: Vec<MoveText>,
    /// 1-based line of the header in the input (0 when built in code).
    pub line: usize,
    /// The moves as written, when at least one is damaged (a `?`, a capture
    /// read short): `moves` is then empty, and the solver fills them in
    /// (see [`Record::filled`]).
    pub written: Option<Vec<WrittenMove>>,
}

impl Record {
    /// A record built in code (no input lines).
    pub fn new(first: Color, moves: Vec<MoveText>) -> Record {
        Record {
            first,
            moves,
            line: 0,
            written: None,
        }
    }

    /// A record read from `written` moves: a plain record when none is
    /// damaged, a damaged one otherwise.
    pub fn from_written(first: Color, written: Vec<WrittenMove>, line: usize) -> Record {
        if written.iter().all(|w| w.known().is_some()) {
            let moves = written
                .into_iter()
                .filter_map(|w| match w {
                    WrittenMove::Known(mv) => Some(mv),
                    WrittenMove::Pattern(_) => None,
                })
                .collect();
            return Record {
                first,
                moves,
                line,
                written: None,
            };
        }
        Record {
            first,
            moves: Vec::new(),
            line,
            written: Some(written),
        }
    }

    /// True when some move is damaged (see [`Record::written`]).
    pub fn is_damaged(&self) -> bool {
        self.written.is_some()
    }

    /// The number of plies, damaged or not.
    pub fn plies(&self) -> usize {
        self.written.as_ref().map_or(self.moves.len(), Vec::len)
    }

    /// The moves as written, damaged or not.
    pub fn written_moves(&self) -> Vec<WrittenMove> {
        match &self.written {
            Some(written) => written.clone(),
            None => self.moves.iter().cloned().map(WrittenMove::Known).collect(),
        }
    }

    /// A damaged record whose every damaged move is a capture read short
    /// but written whole (PDN's `23x14`), with those moves as written: one
    /// of its fillings, the one a reader expects, tried first.
    pub fn as_written(&self, geometry: Geometry) -> Option<Record> {
        let written = self.written.as_ref()?;
        let moves = written
            .iter()
            .map(|w| match w {
                WrittenMove::Known(mv) => Some(mv.clone()),
                WrittenMove::Pattern(p) => p.as_written(geometry),
            })
            .collect::<Option<Vec<_>>>()?;
        Some(self.filled(moves))
    }

    /// The same record with `moves` filled in (they must fit the written
    /// ones; the caller's solver found them).
    pub fn filled(&self, moves: Vec<MoveText>) -> Record {
        Record {
            first: self.first,
            moves,
            line: self.line,
            written: None,
        }
    }

    /// The side that makes ply `ply` (1-based).
    pub fn mover(&self, ply: usize) -> Color {
        if ply % 2 == 1 {
            self.first
        } else {
            self.first.opposite()
        }
    }
}

impl fmt::Display for Record {
    /// The record in the input format, ending with a newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} {}", self.first.letter(), self.plies())?;
        if let Some(written) = &self.written {
            for mv in written {
                writeln!(f, "{mv}")?;
            }
            return Ok(());
        }
        for mv in &self.moves {
            writeln!(f, "{mv}")?;
        }
        Ok(())
    }
}

impl Record {
    /// The record in the input format with algebraic moves (`c3-d4`, `c3:e5`).
    pub fn algebraic(&self) -> String {
        let mut text = format!("{} {}\n", self.first.letter(), self.plies());
        for mv in self.written_moves() {
            text.push_str(&mv.algebraic());
            text.push('\n');
        }
        text
    }
}

/// Why an input could not be read, with the 1-based line it concerns.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct ParseRecordError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong there.
    pub kind: RecordErrorKind,
}

/// The ways a record can be malformed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordErrorKind {
    /// Nothing but white space.
    #[error("the input is empty (expected a header such as 'W 3')")]
    Empty,
    /// The bytes are not UTF-8 text.
    #[error("the input is not UTF-8 text")]
    NotText,
    /// The header is not `B n` or `W n`.
    #[error("expected a header 'B n' or 'W n', found '{0}'")]
    BadHeader(String),
    /// A move line stands where a header should.
    #[error("expected a header 'B n' or 'W n', found the move '{found}' (does the move count {declared} on line {header_line} match the moves?)")]
    ExtraMove {
        /// The move text found.
        found: String,
        /// The count the previous header declared.
        declared: usize,
        /// Where that header is.
        header_line: usize,
    },
    /// The move count is not a positive integer.
    #[error("the move count '{0}' is not a whole number from 1 up")]
    BadCount(String),
    /// The input ends before the declared number of moves.
    #[error("the header on line {header_line} declares {declared} moves but only {found} follow")]
    MissingMoves {
        /// Where that header is.
        header_line: usize,
        /// The count it declared.
        declared: usize,
        /// How many move lines there were.
        found: usize,
    },
    /// A move line could not be read.
    #[error("{0}")]
    BadMove(ParseMoveError),
    /// Something follows the move on its line.
    #[error("unexpected text after the move: '{0}'")]
    TrailingText(String),
}

fn error(line: usize, kind: RecordErrorKind) -> ParseRecordError {
    ParseRecordError { line, kind }
}

/// Reads one or more records from raw bytes (checks they are UTF-8 first).
///
/// # Errors
/// The first problem found, with its line.
pub fn parse_records_bytes(bytes: &[u8]) -> Result<Vec<Record>, ParseRecordError> {
    parse_records_bytes_with(bytes, Geometry::SHORT)
}

/// [`parse_records_bytes`] with the move distances of `geometry`.
///
/// # Errors
/// The first problem found, with its line.
pub fn parse_records_bytes_with(
    bytes: &[u8],
    geometry: Geometry,
) -> Result<Vec<Record>, ParseRecordError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_records_with(text, geometry),
        Err(e) => {
            let line = 1 + bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            Err(error(line, RecordErrorKind::NotText))
        }
    }
}

/// Reads one or more records, one after another. Blank lines are ignored;
/// every line may carry surrounding white space (and Windows line endings).
///
/// # Errors
/// The first problem found, with its line.
pub fn parse_records(text: &str) -> Result<Vec<Record>, ParseRecordError> {
    parse_records_with(text, Geometry::SHORT)
}

/// [`parse_records`] with the move distances of `geometry` (flying kings for Russian).
///
/// # Errors
/// The first problem found, with its line.
pub fn parse_records_with(text: &str, geometry: Geometry) -> Result<Vec<Record>, ParseRecordError> {
    // Notepad's byte order mark is no part of the header.
    let text = super::without_bom(text);
    // Short captures are patterns: the careful reader makes them.
    if !geometry.short_captures {
        if let Some(records) = parse_records_quick(text.as_bytes(), geometry) {
            return Ok(records);
        }
    }
    parse_records_carefully(text, geometry)
}

/// [`parse_records_with`] for well-formed input, in one pass over the bytes:
/// a header `B n` or `W n`, then `n` lines with one move each, blank lines
/// and ASCII spaces, tabs and carriage returns around them allowed. `None`
/// for anything else, which the careful reader then reads or names; it
/// accepts nothing that reader would read differently.
fn parse_records_quick(text: &[u8], geometry: Geometry) -> Option<Vec<Record>> {
    let mut records = Vec::new();
    // The record being read: its header line, first mover, count and moves.
    let mut open: Option<(usize, Color, usize, Vec<MoveText>)> = None;
    let mut rest = text;
    let mut line = 0;
    while !rest.is_empty() {
        line += 1;
        let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        let content = rest[..end].trim_ascii();
        rest = rest.get(end + 1..).unwrap_or_default();
        if content.is_empty() {
            continue;
        }
        match &mut open {
            None => {
                let (first, declared) = quick_header(content)?;
                let moves = Vec::with_capacity(declared.min(1024));
                open = Some((line, first, declared, moves));
            }
            Some((_, _, declared, moves)) => {
                moves.push(MoveText::parse_quick(content, geometry)?);
                if moves.len() == *declared {
                    let (line, first, _, moves) = open.take()?;
                    records.push(Record {
                        first,
                        moves,
                        line,
                        written: None,
                    });
                }
            }
        }
    }
    (open.is_none() && !records.is_empty()).then_some(records)
}

/// `B n` or `W n` with `n` from 1 up, or `None`.
fn quick_header(line: &[u8]) -> Option<(Color, usize)> {
    let first = match line.first()? {
        b'B' => Color::Black,
        b'W' => Color::White,
        _ => return None,
    };
    let count = &line[1..];
    let digits = count.trim_ascii_start();
    if digits.len() == count.len() || digits.len() > 9 || digits.is_empty() {
        return None;
    }
    let mut declared = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        declared = declared * 10 + usize::from(d - b'0');
    }
    (declared >= 1).then_some((first, declared))
}

/// The reader behind [`parse_records_with`] that names every problem.
fn parse_records_carefully(
    text: &str,
    geometry: Geometry,
) -> Result<Vec<Record>, ParseRecordError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .peekable();
    let mut records = Vec::new();
    let mut previous: Option<(usize, usize)> = None;
    while let Some((line, header)) = lines.next() {
        let (first, declared) = parse_header(line, header, previous, geometry)?;
        // The count is the writer's word: room for it, within reason.
        let mut moves = Vec::with_capacity(declared.min(1024));
        while moves.len() < declared {
            let next = lines.peek().filter(|(_, text)| !looks_like_header(text));
            let Some(&(move_line, text)) = next else {
                // At the header that cut the moves short, or the input's last line.
                let at = lines
                    .peek()
                    .map_or_else(|| text.lines().count(), |&(l, _)| l);
                return Err(error(
                    at,
                    RecordErrorKind::MissingMoves {
                        header_line: line,
                        declared,
                        found: moves.len(),
                    },
                ));
            };
            lines.next();
            moves.push(parse_move_line(move_line, text, geometry)?);
        }
        previous = Some((line, declared));
        records.push(Record::from_written(first, moves, line));
    }
    if records.is_empty() {
        return Err(error(1, RecordErrorKind::Empty));
    }
    Ok(records)
}

/// Whether `text` is the task's format and nothing of PDN: it opens with
/// a header line such as `W 3` (a side and a number, nothing else), and
/// has no tag and no move number (`1.`), which PDN would have.
pub fn reads_as_records_only(text: &str) -> bool {
    let text = super::without_bom(text);
    let first = text.lines().find(|l| !l.trim().is_empty());
    let header = first.is_some_and(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        matches!(words.as_slice(), [side, count]
            if matches!(*side, "W" | "B") && count.bytes().all(|b| b.is_ascii_digit()))
    });
    let pdn_mark = |word: &str| {
        let number = word.trim_end_matches('.');
        word.starts_with('[')
            || (number.len() < word.len()
                && !number.is_empty()
                && number.bytes().all(|b| b.is_ascii_digit()))
    };
    header && !text.split_whitespace().any(pdn_mark)
}

fn looks_like_header(line: &str) -> bool {
    line.starts_with(['B', 'W'])
}

fn parse_header(
    line: usize,
    text: &str,
    previous: Option<(usize, usize)>,
    geometry: Geometry,
) -> Result<(Color, usize), ParseRecordError> {
    let mut words = text.split_whitespace();
    let (Some(side), Some(count), None) = (words.next(), words.next(), words.next()) else {
        return Err(header_error(line, text, previous, geometry));
    };
    let Some(first) = Color::from_letter(side) else {
        return Err(header_error(line, text, previous, geometry));
    };
    match count.parse::<usize>() {
        Ok(n) if n >= 1 && count.bytes().all(|b| b.is_ascii_digit()) => Ok((first, n)),
        _ => Err(error(line, RecordErrorKind::BadCount(count.to_string()))),
    }
}

fn header_error(
    line: usize,
    text: &str,
    previous: Option<(usize, usize)>,
    geometry: Geometry,
) -> ParseRecordError {
    let is_move = MoveText::parse_with(text, geometry).is_ok();
    match previous {
        Some((header_line, declared)) if is_move => error(
            line,
            RecordErrorKind::ExtraMove {
                found: text.to_string(),
                declared,
                header_line,
            },
        ),
        _ => error(line, RecordErrorKind::BadHeader(text.to_string())),
    }
}

fn parse_move_line(
    line: usize,
    text: &str,
    geometry: Geometry,
) -> Result<WrittenMove, ParseRecordError> {
    if !geometry.short_captures {
        if let Some(mv) = MoveText::parse_quick(text.as_bytes(), geometry) {
            return Ok(WrittenMove::Known(mv));
        }
    }
    let tight = tightened(text);
    let mut words = tight.iter();
    let word = words.next().map_or("", String::as_str);
    let parsed = WrittenMove::parse_with(word, geometry).or_else(|e| {
        match Miswritten::read(word, geometry, &e).filter(|_| geometry.miswritten) {
            Some(m) => Ok(WrittenMove::Pattern(MovePattern::Miswritten(Box::new(m)))),
            None => Err(error(line, RecordErrorKind::BadMove(e))),
        }
    });
    if let Some(extra) = words.next() {
        // Report the move itself first if it is also wrong.
        parsed?;
        return Err(error(
            line,
            RecordErrorKind::TrailingText(extra.to_string()),
        ));
    }
    parsed
}

/// A move line's words, a move written with spaces around a separator
/// (`21 - 17`, `1- 6`, `13 x22`) joined into one, as PDN reads them.
fn tightened(text: &str) -> Vec<String> {
    let separator = |c: char| matches!(c, '-' | 'x' | ':');
    let mut words: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match words.last_mut() {
            Some(last) if last.ends_with(separator) || word.starts_with(separator) => {
                last.push_str(word);
            }
            _ => words.push(word.to_string()),
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE1: &str = "W 3\n21-17\n13x22x31x24\n19x28\n";

    #[test]
    fn reads_sample_one() {
        let records = parse_records(SAMPLE1).unwrap();
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].first, Color::White);
        assert_eq!(records[0].moves.len(), 3);
        assert_eq!(records[0].mover(2), Color::Black);
        assert_eq!(records[0].to_string(), SAMPLE1);
    }

    #[test]
    fn reads_moves_with_spaces_around_their_separator() {
        let text = "W 3\n21 - 17\n13 x 22 x31x 24\n19 x28\n";
        let records = parse_records(text).unwrap();
        assert_eq!(records[0].to_string(), "W 3\n21-17\n13x22x31x24\n19x28\n");
        let (line, message) = fails("B 1\n9 - 13 junk\n");
        assert_eq!(
            (line, message.as_str()),
            (2, "unexpected text after the move: 'junk'")
        );
    }

    #[test]
    fn reads_several_records_and_tolerates_blank_lines_and_crlf() {
        let text = "W 3\r\n21-17\r\n13x22x31x24\r\n19x28\r\n\r\nB 1\n  9-13  \n";
        let records = parse_records(text).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[1].first, Color::Black);
        assert_eq!(records[1].line, 6);
    }

    fn fails(text: &str) -> (usize, String) {
        let e = parse_records(text).unwrap_err();
        (e.line, e.kind.to_string())
    }

    #[test]
    fn names_the_line_of_each_problem() {
        let cases: &[(&str, usize, &str)] = &[
            ("", 1, "empty"),
            ("\n  \n", 1, "empty"),
            ("X 3\n1-5\n", 1, "expected a header"),
            ("W\n", 1, "expected a header"),
            ("W 3 4\n", 1, "expected a header"),
            ("w 1\n21-17\n", 1, "expected a header"),
            ("W 0\n", 1, "'0' is not a whole number"),
            ("W -2\n", 1, "'-2' is not a whole number"),
            ("W +2\n21-17\n17-13\n", 1, "'+2'"),
            ("W two\n", 1, "'two'"),
            ("W 99999999999999999999999\n", 1, "not a whole number"),
            (
                "W 3\n21-17\n13x22x31x24\n",
                3,
                "declares 3 moves but only 2",
            ),
            ("W 2\n21-17\nB 1\n9-13\n", 3, "declares 2 moves but only 1"),
            ("W 1\n21-17\n13x22\n", 3, "does the move count 1 on line 1"),
            ("W 1\n33-29\n", 2, "unknown square '33'"),
            ("W 1\n0-5\n", 2, "unknown square '0'"),
            ("W 1\nab-cd\n", 2, "unknown square 'ab'"),
            ("W 1\n21-18\n", 2, "not diagonal neighbours"),
            ("W 1\n13x20\n", 2, "not a jump"),
            (
                "W 1\n21-17 junk\n",
                2,
                "unexpected text after the move: 'junk'",
            ),
            ("W 1\n21-17x\n", 2, "mixes"),
        ];
        for &(text, line, want) in cases {
            let (got_line, message) = fails(text);
            assert_eq!(got_line, line, "{text:?}: {message}");
            assert!(message.contains(want), "{text:?}: {message}");
        }
    }

    #[test]
    fn the_quick_reader_reads_what_the_careful_one_does() {
        let base = "W 3\n21-17\n13x22x31x24\n19x28\n\nB 2\n9-13\n22-18\n";
        assert!(parse_records_quick(base.as_bytes(), Geometry::SHORT).is_some());
        // Damage the text at random: the quick reader either declines or
        // reads exactly what the careful one reads.
        let noise: &[&str] = &[
            " ", "\t", "\r", "\n", "\x0b", "\u{a0}", "x", "-", "1", "B", "W 1", "0",
        ];
        let mut rng = crate::random::Rng::new(0x1234_5678_9ABC_DEF1);
        let mut next = |n: usize| rng.below(n);
        let (mut quick_reads, mut rounds) = (0, 0);
        while rounds < 20_000 {
            rounds += 1;
            let mut text = base.to_string();
            for _ in 0..1 + next(3) {
                let at = next(text.len() + 1);
                if !text.is_char_boundary(at) {
                    continue;
                }
                if next(3) == 0 && at < text.len() && text.is_char_boundary(at + 1) {
                    text.remove(at);
                } else {
                    text.insert_str(at, noise[next(noise.len())]);
                }
            }
            for geometry in [Geometry::SHORT, Geometry::FLYING] {
                if let Some(quick) = parse_records_quick(text.as_bytes(), geometry) {
                    quick_reads += 1;
                    assert_eq!(
                        Ok(quick),
                        parse_records_carefully(&text, geometry),
                        "{text:?}"
                    );
                }
            }
        }
        assert!(quick_reads > 1_000, "only {quick_reads} quick reads");
    }

    #[test]
    fn rejects_bytes_that_are_not_text() {
        let e = parse_records_bytes(b"W 1\n21-17\xff\n").unwrap_err();
        assert_eq!((e.line, e.kind), (2, RecordErrorKind::NotText));
    }
}
