//! The puzzle's text format: T, then per board N and N rows of `O`/`.`.
//!
//! Errors name the line and the board, and quote input with escapes, so a
//! message is always one line.

use std::fmt;

use super::board::PawnBoard;

/// What is wrong with a pawn-puzzle input.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParsePawnsErrorKind {
    /// No text at all.
    Empty,
    /// The first line is not a whole number.
    BadCount(String),
    /// A board's size line is not a whole number.
    BadSize(String),
    /// A row is longer or shorter than N.
    RowLength {
        /// 1-based row.
        row: usize,
        /// Characters found.
        found: usize,
        /// N.
        expected: usize,
    },
    /// A row holds something other than `O` and `.`.
    BadChar {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
        /// The character.
        found: char,
    },
    /// The input ends (or the next board starts) before N rows.
    MissingRows {
        /// Rows read.
        found: usize,
        /// N.
        expected: usize,
    },
    /// The input ends before T boards.
    MissingBoards {
        /// Boards read.
        found: usize,
        /// T.
        expected: usize,
    },
    /// Text after the last board.
    TrailingText,
}

/// A pawn-puzzle input that cannot be read: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePawnsError {
    /// 1-based line.
    pub line: usize,
    /// 1-based board the line belongs to, if any.
    pub board: Option<usize>,
    /// What is wrong.
    pub kind: ParsePawnsErrorKind,
}

impl fmt::Display for ParsePawnsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParsePawnsErrorKind as K;
        write!(f, "line {}: ", self.line)?;
        if let Some(board) = self.board {
            write!(f, "board {board}: ")?;
        }
        match &self.kind {
            K::Empty => f.write_str("empty input: expected the number of boards"),
            K::BadCount(text) => write!(
                f,
                "{text:?} is not a number of boards (a whole number, 0 or more)"
            ),
            K::BadSize(text) => write!(
                f,
                "{text:?} is not a board size N (a whole number, 0 or more)"
            ),
            K::RowLength {
                row,
                found,
                expected,
            } => write!(
                f,
                "row {row} has {found} characters, expected {expected} (one per column)"
            ),
            K::BadChar { row, col, found } => write!(
                f,
                "row {row}, column {col}: {found:?} is not 'O' (pawn) or '.' (empty)"
            ),
            K::MissingRows { found, expected } => {
                write!(f, "the board has {found} rows, expected {expected}")
            }
            K::MissingBoards { found, expected } => write!(
                f,
                "the input ends after {found} boards, but its first line says {expected}"
            ),
            K::TrailingText => f.write_str("text after the last board"),
        }
    }
}

impl std::error::Error for ParsePawnsError {}

/// The numbered lines of a puzzle input.
type NumberedLines<'t> = std::iter::Enumerate<std::str::Lines<'t>>;

/// The next line that is not blank, with its 1-based number.
fn next_number_line<'t>(lines: &mut NumberedLines<'t>) -> Option<(usize, &'t str)> {
    lines
        .map(|(i, l)| (i + 1, l))
        .find(|(_, l)| !l.trim().is_empty())
}

/// Reads every board of a puzzle input. Blank lines may stand before a
/// number line; a row line may end in spaces or `\r`.
///
/// # Errors
/// [`ParsePawnsError`] naming the first line that is wrong.
pub fn parse_pawn_boards(text: &str) -> Result<Vec<PawnBoard>, ParsePawnsError> {
    let mut lines = text.lines().enumerate();
    let err = |line, kind| ParsePawnsError {
        line,
        board: None,
        kind,
    };
    let Some((line, first)) = next_number_line(&mut lines) else {
        return Err(err(1, ParsePawnsErrorKind::Empty));
    };
    let count: usize = first
        .trim()
        .parse()
        .map_err(|_| err(line, ParsePawnsErrorKind::BadCount(first.to_string())))?;
    let mut boards = Vec::new();
    let mut last_line = line;
    for b in 1..=count {
        let Some((line, size_text)) = next_number_line(&mut lines) else {
            let kind = ParsePawnsErrorKind::MissingBoards {
                found: b - 1,
                expected: count,
            };
            return Err(err(last_line, kind));
        };
        let size: usize = size_text.trim().parse().map_err(|_| ParsePawnsError {
            line,
            board: Some(b),
            kind: ParsePawnsErrorKind::BadSize(size_text.to_string()),
        })?;
        last_line = line;
        let mut pawns = Vec::new();
        for row in 1..=size {
            let at = RowAt {
                board: b,
                row,
                size,
            };
            let Some((line, text)) = lines.next().map(|(i, l)| (i + 1, l)) else {
                return Err(at.missing(last_line));
            };
            at.read(line, text, &mut pawns)?;
            last_line = line;
        }
        boards.push(PawnBoard::from_occupancy(size, pawns));
    }
    if let Some((line, _)) = next_number_line(&mut lines) {
        return Err(err(line, ParsePawnsErrorKind::TrailingText));
    }
    Ok(boards)
}

/// Where a row line stands: its board, its row, and the board's size.
#[derive(Clone, Copy)]
struct RowAt {
    board: usize,
    row: usize,
    size: usize,
}

impl RowAt {
    /// An error at `line` about this row.
    fn error(self, line: usize, kind: ParsePawnsErrorKind) -> ParsePawnsError {
        ParsePawnsError {
            line,
            board: Some(self.board),
            kind,
        }
    }

    /// The board ends before this row, said at `line`.
    fn missing(self, line: usize) -> ParsePawnsError {
        let kind = ParsePawnsErrorKind::MissingRows {
            found: self.row - 1,
            expected: self.size,
        };
        self.error(line, kind)
    }

    /// The row's squares, pushed onto `pawns` (`true` a pawn). A line of
    /// digits of another length is the next board's size: rows missing.
    fn read(self, line: usize, text: &str, pawns: &mut Vec<bool>) -> Result<(), ParsePawnsError> {
        let text = text.trim_end_matches([' ', '\t', '\r']);
        let looks_like_size = !text.is_empty() && text.bytes().all(|c| c.is_ascii_digit());
        if looks_like_size && text.len() != self.size {
            return Err(self.missing(line));
        }
        let found = text.chars().count();
        if found != self.size {
            let kind = ParsePawnsErrorKind::RowLength {
                row: self.row,
                found,
                expected: self.size,
            };
            return Err(self.error(line, kind));
        }
        for (col, ch) in text.chars().enumerate() {
            match ch {
                'O' => pawns.push(true),
                '.' => pawns.push(false),
                _ => {
                    let kind = ParsePawnsErrorKind::BadChar {
                        row: self.row,
                        col: col + 1,
                        found: ch,
                    };
                    return Err(self.error(line, kind));
                }
            }
        }
        Ok(())
    }
}

/// The puzzle's text for `boards`: T, then each board's N and rows (what
/// [`parse_pawn_boards`] reads back).
pub fn format_pawn_boards(boards: &[PawnBoard]) -> String {
    let squares: usize = boards.iter().map(|b| b.size() * (b.size() + 1) + 8).sum();
    let mut text = String::with_capacity(squares + 8);
    text.push_str(&format!("{}\n", boards.len()));
    for board in boards {
        text.push_str(&format!("{}\n{board}", board.size()));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_boards_with_blank_lines_and_crlf() {
        let boards = parse_pawn_boards("2\r\n2\r\nO.\r\n.O\r\n\n0\n").unwrap();
        assert_eq!(boards.len(), 2);
        assert_eq!(boards[0], PawnBoard::from_rows(&["O.", ".O"]));
        assert_eq!(boards[1].size(), 0);
        assert_eq!(parse_pawn_boards("0\n").unwrap(), vec![]);
        assert_eq!(
            parse_pawn_boards(&format_pawn_boards(&boards)).unwrap(),
            boards
        );
    }

    #[test]
    fn bad_inputs_name_their_line_and_board() {
        let cases: &[(&str, &str)] = &[
            ("", "line 1: empty input: expected the number of boards"),
            (
                "x\n",
                "line 1: \"x\" is not a number of boards (a whole number, 0 or more)",
            ),
            (
                "1\n-2\n",
                "line 2: board 1: \"-2\" is not a board size N (a whole number, 0 or more)",
            ),
            (
                "1\n2\nO.\nO\n",
                "line 4: board 1: row 2 has 1 characters, expected 2 (one per column)",
            ),
            (
                "1\n2\nO.\nOX\n",
                "line 4: board 1: row 2, column 2: 'X' is not 'O' (pawn) or '.' (empty)",
            ),
            (
                "1\n2\nO\u{b}\n..\n",
                "line 3: board 1: row 1, column 2: '\\u{b}' is not 'O' (pawn) or '.' (empty)",
            ),
            (
                "2\n2\nO.\n3\n",
                "line 4: board 1: the board has 1 rows, expected 2",
            ),
            (
                "1\n3\nO..\n",
                "line 3: board 1: the board has 1 rows, expected 3",
            ),
            (
                "2\n1\nO\n",
                "line 3: the input ends after 1 boards, but its first line says 2",
            ),
            ("1\n1\nO\nO\n", "line 4: text after the last board"),
        ];
        for (input, message) in cases {
            let e = parse_pawn_boards(input).expect_err(input);
            assert_eq!(e.to_string(), *message, "{input:?}");
        }
    }
}
