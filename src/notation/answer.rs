//! Answers in the task's output format: 8 lines `start-row end-row`.

use std::fmt;

use crate::board::{Board, PartialBoard, Piece, Topology};

/// A start board and the end board it leads to, as printed by `solve`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The reconstructed position before the first move.
    pub start: Board,
    /// The position after the last move.
    pub end: Board,
}

impl Answer {
    /// The printed answer (see the `Display` impl), built row by row
    /// without formatting: batches print thousands of these.
    pub fn text(&self) -> String {
        let size = self.start.topology().size();
        let mut out = Vec::with_capacity(usize::from(size) * (2 * usize::from(size) + 2));
        for row in 0..size {
            self.start.push_row(row, &mut out);
            out.push(b' ');
            self.end.push_row(row, &mut out);
            out.push(b'\n');
        }
        // Only ASCII was written.
        String::from_utf8(out).unwrap_or_default()
    }
}

impl fmt::Display for Answer {
    /// One line per row: the start board's row, a space and the end board's row.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// Why an answer text could not be read, with its 1-based line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("answer line {line}: {problem}")]
pub struct ParseAnswerError {
    /// 1-based line in the answer text.
    pub line: usize,
    /// What is wrong.
    #[source]
    pub problem: BoardTextProblem,
}

/// What is wrong with a line of a board text or an answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardTextProblem {
    /// An answer text without a board.
    #[error("the answer is empty")]
    EmptyAnswer,
    /// An answer whose last board has too few rows.
    #[error("an answer has {rows} lines, this one ends after {found}")]
    ShortAnswer {
        /// The rows of a board.
        rows: usize,
        /// The lines of the last answer.
        found: usize,
    },
    /// An answer line that is not a start row and an end row.
    #[error("expected two {rows}-character rows separated by one space, found '{text}'")]
    NotARowPair {
        /// The squares of a row.
        rows: usize,
        /// The line.
        text: String,
    },
    /// A FEN position where an answer's rows were expected (`solve
    /// --format fen`'s output): `verify` reads the boards `solve` prints.
    #[error("a FEN position, not a board's rows: verify reads the boards solve prints without --format (two rows a line, one answer per record)")]
    FenLine {
        /// The line.
        text: String,
    },
    /// A board text with as many lines as another rule set's board.
    #[error("a board has {rows} lines under these rules, found {found}: a {found}x{found} board is another rule set's (name it)")]
    OtherBoardSize {
        /// The rows of this rule set's board.
        rows: usize,
        /// The lines found.
        found: usize,
    },
    /// A board text with too few or too many lines.
    #[error("a board has {rows} lines, found {found}")]
    LineCount {
        /// The rows of the board.
        rows: usize,
        /// The lines found.
        found: usize,
    },
    /// A board row of the wrong length.
    #[error("a board row has {rows} characters, found '{text}'")]
    RowLength {
        /// The squares of a row.
        rows: usize,
        /// The row.
        text: String,
    },
    /// Something other than the light square mark on a light square.
    #[error("character {column} is on a light square and must be {allowed}, found '{found}'")]
    LightSquare {
        /// The 1-based character of the line (not the board's column,
        /// which the rules' pages count from 0).
        column: usize,
        /// The marks a light square may hold (`'-'`, or `'-' or '.'`).
        allowed: &'static str,
        /// What it holds.
        found: char,
    },
    /// A dark square holding no piece letter.
    #[error(
        "character {column} is on a dark square and holds '{found}', expected one of {expected}"
    )]
    NotAPiece {
        /// The 1-based character of the line (an 8x8 board's square has
        /// a number or a name by rule set, which a board text does not know).
        column: usize,
        /// What it holds.
        found: char,
        /// The marks a dark square may hold.
        expected: &'static str,
    },
}

/// Reads 8x8 answers (see [`parse_answers_on`]).
///
/// # Errors
/// The first line that is not a board row pair, or a final group shorter than 8 lines.
pub fn parse_answers(text: &str) -> Result<Vec<Answer>, ParseAnswerError> {
    parse_answers_on(text, Topology::Eight)
}

/// Reads answers on `topology`'s board: groups of as many non-blank lines
/// as the board has rows, blank lines between groups ignored.
///
/// # Errors
/// The first line that is not a board row pair, or a final group that is too short.
pub fn parse_answers_on(text: &str, topology: Topology) -> Result<Vec<Answer>, ParseAnswerError> {
    let text = super::without_bom(text);
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end()))
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with(NAME_MARK))
        .collect();
    let answers = answers_of(&lines, topology)?;
    if answers.is_empty() {
        // Notes alone are no answer: name the first of them.
        let (line, problem) = match lines.first() {
            Some(&(line, text)) => (
                line,
                BoardTextProblem::NotARowPair {
                    rows: usize::from(topology.size()),
                    text: text.to_string(),
                },
            ),
            None => (1, BoardTextProblem::EmptyAnswer),
        };
        return Err(ParseAnswerError { line, problem });
    }
    Ok(answers)
}

/// How `solve` names each record's answers in a batch: `==> NAME <==`.
pub const NAME_MARK: &str = "==> ";

/// A batch's answers by record, when `solve` named them (`==> NAME <==`
/// before each record's boards; a record without an answer is a name
/// alone): one list per name. `None` for answers without names.
///
/// # Errors
/// As [`parse_answers_on`].
pub fn parse_named_answers_on(
    text: &str,
    topology: Topology,
) -> Result<Option<Vec<Vec<Answer>>>, ParseAnswerError> {
    let Some(blocks) = named_blocks(text) else {
        return Ok(None);
    };
    let mut answers = Vec::new();
    for block in &blocks {
        answers.push(block.answers_on(topology)?);
    }
    Ok(Some(answers))
}

/// The lines of one record's answers in a batch whose answers `solve`
/// named: those after its `==> NAME <==` line, not yet read as boards, so
/// that each record's can be read on its own rule set's board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerBlock<'t> {
    /// Its non-blank lines, numbered from 1 in the whole text.
    lines: Vec<(usize, &'t str)>,
}

impl AnswerBlock<'_> {
    /// Its answers on `topology`'s board (none for a name alone).
    ///
    /// # Errors
    /// As [`parse_answers_on`].
    pub fn answers_on(&self, topology: Topology) -> Result<Vec<Answer>, ParseAnswerError> {
        answers_of(&self.lines, topology)
    }
}

/// A batch's answers split at their names (`==> NAME <==`), in order;
/// `None` for answers without names.
pub fn named_blocks(text: &str) -> Option<Vec<AnswerBlock<'_>>> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end()))
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    if !lines.iter().any(|(_, l)| l.starts_with(NAME_MARK)) {
        return None;
    }
    let blocks = lines.split(|(_, l)| l.starts_with(NAME_MARK)).skip(1);
    Some(
        blocks
            .map(|block| AnswerBlock {
                lines: block.to_vec(),
            })
            .collect(),
    )
}

/// The answers of `lines` (non-blank, numbered), as many rows per board as
/// the board has, up to the notes that may follow them.
fn answers_of(
    lines: &[(usize, &str)],
    topology: Topology,
) -> Result<Vec<Answer>, ParseAnswerError> {
    // A block opens with a board; notes (which may name a position) follow.
    if let Some(&(line, text)) = lines.first().filter(|(_, text)| is_fen(text)) {
        let text = text.trim().to_string();
        return Err(ParseAnswerError {
            line,
            problem: BoardTextProblem::FenLine { text },
        });
    }
    let n = usize::from(topology.size());
    let boards = notes_start(lines, n).unwrap_or(lines.len());
    let mut answers = Vec::new();
    for group in lines[..boards].chunks(n) {
        if group.len() < n {
            let (line, _) = *group.last().expect("chunks are never empty");
            return Err(ParseAnswerError {
                line,
                problem: BoardTextProblem::ShortAnswer {
                    rows: n,
                    found: group.len(),
                },
            });
        }
        let mut start = Board::empty_on(topology);
        let mut end = Board::empty_on(topology);
        for (row, &(line, text)) in group.iter().enumerate() {
            let bytes = text.as_bytes();
            if bytes.len() != 2 * n + 1 || bytes[n] != b' ' {
                return Err(ParseAnswerError {
                    line,
                    problem: BoardTextProblem::NotARowPair {
                        rows: n,
                        text: text.to_string(),
                    },
                });
            }
            read_row(&mut start, row as u8, (&text[..n], 0), line)?;
            read_row(&mut end, row as u8, (&text[n + 1..], n + 1), line)?;
        }
        answers.push(Answer { start, end });
    }
    Ok(answers)
}

/// Whether a line is a FEN position (`W:W21,22:B1`): a side, a colon, a
/// side; no board row has a colon.
fn is_fen(text: &str) -> bool {
    let side = |b: u8| matches!(b.to_ascii_uppercase(), b'W' | b'B');
    matches!(text.trim().as_bytes(), [a, b':', c, ..] if side(*a) && side(*c))
}

/// Where the notes after a block's boards begin (`solve --explain` prints
/// its explanation there): the first line where a board could start that
/// is words, not a row: it does not open with a row's worth of board
/// marks, and it holds a letter no board holds. A mistyped row (a tab, a
/// stray character, a row cut short) is not a note, so it is still
/// reported; the notes run to the end of the block.
fn notes_start(lines: &[(usize, &str)], rows: usize) -> Option<usize> {
    let is_note = |text: &str| {
        let opens_as_a_row = text.len() >= rows && text.bytes().take(rows).all(is_board_mark);
        let worded = text
            .bytes()
            .any(|b| b.is_ascii_alphabetic() && !is_board_mark(b));
        !opens_as_a_row && worded
    };
    (0..lines.len())
        .step_by(rows.max(1))
        .find(|&i| is_note(lines[i].1))
}

/// A mark a board text puts on a square: light or empty (`-`, `.`), a
/// piece's letter, or unknown (`?`).
fn is_board_mark(byte: u8) -> bool {
    matches!(byte, b'-' | b'.' | b'?') || Piece::from_letter(char::from(byte)).is_some()
}

/// Reads one board's row, `text`, which starts after `offset` characters
/// of its line.
fn read_row(
    board: &mut Board,
    row: u8,
    (text, offset): (&str, usize),
    line: usize,
) -> Result<(), ParseAnswerError> {
    for (col, ch) in text.chars().enumerate() {
        let problem = match board.topology().from_coords(row, col as u8) {
            None if ch == '-' => None,
            None => Some(BoardTextProblem::LightSquare {
                column: offset + col + 1,
                allowed: "'-'",
                found: ch,
            }),
            Some(_) if ch == '.' => None,
            Some(sq) => match Piece::from_letter(ch) {
                Some(piece) => {
                    board.set(sq, Some(piece));
                    None
                }
                None => Some(BoardTextProblem::NotAPiece {
                    column: offset + col + 1,
                    found: ch,
                    expected: ". b w B W",
                }),
            },
        };
        if let Some(problem) = problem {
            return Err(ParseAnswerError { line, problem });
        }
    }
    Ok(())
}

/// Reads one board: 8 non-blank lines of 8 characters, rank 8 first; `.`
/// (or `-`) on light squares, `.` on empty dark squares, `b w B W` pieces.
///
/// # Errors
/// The first line that is not a board row, or a board of fewer or more than 8 lines.
pub fn parse_board(text: &str) -> Result<Board, ParseAnswerError> {
    parse_board_on(text, Topology::Eight)
}

/// [`parse_board`] on `topology`'s board: as many lines of as many
/// characters as the board has rows, the top row first.
///
/// # Errors
/// The first line that is not a board row, or a board with the wrong number of lines.
pub fn parse_board_on(text: &str, topology: Topology) -> Result<Board, ParseAnswerError> {
    read_cells(text, topology, false).map(|partial| partial.board)
}

/// A board of facts on `topology`'s board (see `shared/spec/damaged.md`):
/// as [`parse_board_on`], but `?` on a dark square leaves its content
/// unknown; every other dark square is a fact (`.` empty, `b w B W`).
///
/// # Errors
/// The first line that is not a board row, a piece or `?` on a light
/// square, or a board with the wrong number of lines.
pub fn parse_partial_board_on(
    text: &str,
    topology: Topology,
) -> Result<PartialBoard, ParseAnswerError> {
    read_cells(text, topology, true)
}

/// The rows of a board text, each cell read; `?` allowed when `unknowns`.
fn read_cells(
    text: &str,
    topology: Topology,
    unknowns: bool,
) -> Result<PartialBoard, ParseAnswerError> {
    let n = usize::from(topology.size());
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    if lines.len() != n {
        return Err(ParseAnswerError {
            line: lines
                .get(n)
                .map_or(lines.last().map_or(1, |l| l.0), |l| l.0),
            problem: match lines.len() {
                found @ (8 | 10 | 12) => BoardTextProblem::OtherBoardSize { rows: n, found },
                found => BoardTextProblem::LineCount { rows: n, found },
            },
        });
    }
    let mut partial = PartialBoard {
        board: Board::empty_on(topology),
        known: topology.all_bits(),
    };
    for (row, &(line, text)) in lines.iter().enumerate() {
        if text.chars().count() != n {
            return Err(ParseAnswerError {
                line,
                problem: BoardTextProblem::RowLength {
                    rows: n,
                    text: text.to_string(),
                },
            });
        }
        for (col, ch) in text.chars().enumerate() {
            read_cell(&mut partial, (row, col), ch, unknowns)
                .map_err(|problem| ParseAnswerError { line, problem })?;
        }
    }
    Ok(partial)
}

/// Reads the character `ch` of a board text at (`row`, `col`) into
/// `partial`; `?` leaves a dark square unknown when `unknowns`.
fn read_cell(
    partial: &mut PartialBoard,
    (row, col): (usize, usize),
    ch: char,
    unknowns: bool,
) -> Result<(), BoardTextProblem> {
    let topology = partial.board.topology();
    match (topology.from_coords(row as u8, col as u8), ch) {
        (_, '.') | (None, '-') => Ok(()),
        (Some(sq), '?') if unknowns => {
            partial.known &= !sq.bit();
            Ok(())
        }
        (Some(sq), ch) => {
            let piece = Piece::from_letter(ch).ok_or_else(|| BoardTextProblem::NotAPiece {
                column: col + 1,
                found: ch,
                expected: if unknowns { ". ? b w B W" } else { ". b w B W" },
            })?;
            partial.board.set(sq, Some(piece));
            Ok(())
        }
        (None, ch) => Err(BoardTextProblem::LightSquare {
            column: col + 1,
            allowed: "'-' or '.'",
            found: ch,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_single_board_with_dots_on_light_squares() {
        let text =
            "........\n........\n........\n........\n...w....\n..b.....\n........\nW.......\n";
        let board = parse_board(text).unwrap();
        assert_eq!(board.piece_count(), 3);
        assert_eq!(
            board.get("d4".parse().unwrap()).map(|p| p.letter()),
            Some('w')
        );
        assert!(parse_board("........\n").is_err());
        let light = text.replace("W.......", ".W......");
        assert!(parse_board(&light)
            .unwrap_err()
            .to_string()
            .contains("light square"));
    }

    const SAMPLE1_ANSWER: &str = "\
-b-.-.-. -b-.-.-.
.-.-.-.- .-.-.-.-
-.-.-.-. -.-.-.-.
B-.-w-.- .-.-w-.-
-.-.-W-. -.-.-.-.
w-.-.-.- .-.-.-.-
-.-w-w-. -.-.-.-W
.-.-.-.- .-.-.-.-
";

    #[test]
    fn round_trips_the_sample_answer() {
        let answers = parse_answers(SAMPLE1_ANSWER).unwrap();
        assert_eq!(answers.len(), 1);
        assert_eq!(answers[0].to_string(), SAMPLE1_ANSWER);
        assert_eq!(answers[0].start.piece_count(), 7);
    }

    #[test]
    fn reports_malformed_lines() {
        let short = SAMPLE1_ANSWER.replacen("-b-.-.-. -b-.-.-.", "-b-.-.-. -b-.-.-", 1);
        assert!(parse_answers(&short)
            .unwrap_err()
            .to_string()
            .starts_with("answer line 1:"));
        let light = SAMPLE1_ANSWER.replacen("-b-.-.-.", "bb-.-.-.", 1);
        assert!(matches!(
            parse_answers(&light).unwrap_err().problem,
            BoardTextProblem::LightSquare {
                column: 1,
                found: 'b',
                ..
            }
        ));
        let letter = SAMPLE1_ANSWER.replacen("B-.-w", "Q-.-w", 1);
        let e = parse_answers(&letter).unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e
            .to_string()
            .contains("character 1 is on a dark square and holds 'Q'"));
        let cut: String = SAMPLE1_ANSWER
            .lines()
            .take(5)
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(
            parse_answers(&cut).unwrap_err().problem,
            BoardTextProblem::ShortAnswer { rows: 8, found: 5 }
        );
        assert!(parse_answers("").is_err());
        let fen = parse_answers("W:WK19,21,26,27:B10,K13,15\nB:WK28:B10,15\n").unwrap_err();
        assert!(matches!(fen.problem, BoardTextProblem::FenLine { .. }));
        assert!(fen
            .to_string()
            .contains("verify reads the boards solve prints"));
        let words = parse_answers("hello world\n").unwrap_err();
        assert!(matches!(
            words.problem,
            BoardTextProblem::NotARowPair { .. }
        ));
    }

    #[test]
    fn notes_after_the_boards_are_skipped_and_mistyped_rows_are_not() {
        let explained = format!(
            "{SAMPLE1_ANSWER}\nstart board, square by square (forced: ...):\n\
             10  black man   piece, black and man: free\n-.-.\n"
        );
        assert_eq!(parse_answers(&explained).unwrap().len(), 1);
        let named = format!(
            "==> a.in <==\nno start position: this rule cannot hold\n  ply 2 (9-14, Black)\n\
             ==> b.in <==\n{explained}"
        );
        let blocks = parse_named_answers_on(&named, Topology::Eight)
            .unwrap()
            .unwrap();
        assert_eq!(blocks.iter().map(Vec::len).collect::<Vec<_>>(), [0, 1]);
        // A second board cut short or with a row's characters only is still an error.
        let short_row = format!("{SAMPLE1_ANSWER}-b-.-.-. -b-.\n");
        assert!(parse_answers(&short_row).is_err());
        // A first row mistyped (a tab, a stray letter or digit) is named, not skipped.
        for typo in [
            "-b-.-.-.\t-b-.-.-.",
            "-b-.-.-. -b-.-.-x",
            "-b-.-.-. -b-.-.-.7",
        ] {
            let typed = format!("{SAMPLE1_ANSWER}{typo}\n{}", &SAMPLE1_ANSWER[18..]);
            let error = parse_answers(&typed).unwrap_err();
            assert_eq!(error.line, 9, "{typo:?}: {error}");
        }
        let cut = format!("{SAMPLE1_ANSWER}-b-.-.-. -b-.-.-.\nnote\n");
        assert_eq!(
            parse_answers(&cut).unwrap_err().problem,
            BoardTextProblem::ShortAnswer { rows: 8, found: 2 }
        );
    }
}
