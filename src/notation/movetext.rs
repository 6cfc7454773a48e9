//! Move text such as `21-17` or `13x22x31x24`, parsed without a board.

use std::fmt;
use std::str::FromStr;

use smallvec::SmallVec;

use crate::board::{ParseSquareError, Square, Topology};

/// The squares of a move: inline up to 16 (every legal 8x8 move fits), on
/// the heap beyond.
type Path = SmallVec<[Square; 16]>;

/// A move as written: the squares it visits and whether it captures.
///
/// Geometry is checked when parsing (a simple move is one diagonal step, each
/// jump step two), legality is not: that needs a board and the rules.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct MoveText {
    path: Path,
    capture: bool,
}

/// How far a move's steps may go, which depends on the rules, and the
/// board its squares are on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Geometry {
    /// The board.
    pub topology: Topology,
    /// Kings fly: a simple move goes any distance along a diagonal and a
    /// capture segment at least two squares. Otherwise (English) a simple
    /// move is one diagonal step and each jump two.
    pub flying: bool,
    /// Captures are read as written short (`shared/spec/damaged.md`): the
    /// written squares are a subsequence of the path. PDN reads them so;
    /// the task's format only with `--short-captures`.
    pub short_captures: bool,
    /// A move whose squares are no move on the board (`28-18` off the
    /// diagonals) is read as miswritten, a mistake for a repair to mend,
    /// instead of refused: the task's format with `--repair`.
    pub miswritten: bool,
}

impl Geometry {
    /// English: short moves on the 8x8 board.
    pub const SHORT: Geometry = Geometry {
        topology: Topology::Eight,
        flying: false,
        short_captures: false,
        miswritten: false,
    };

    /// Russian and Brazilian: flying kings on the 8x8 board, algebraic squares.
    pub const FLYING: Geometry = Geometry::flying_on(Topology::EightAlgebraic);

    /// Flying kings on `topology`'s board.
    pub const fn flying_on(topology: Topology) -> Geometry {
        Geometry {
            topology,
            flying: true,
            short_captures: false,
            miswritten: false,
        }
    }

    /// The same, with captures read as written short.
    pub const fn short_captures(self) -> Geometry {
        Geometry {
            short_captures: true,
            ..self
        }
    }

    /// The same, with a move that is no move on the board read as
    /// miswritten.
    pub const fn miswritten(self) -> Geometry {
        Geometry {
            miswritten: true,
            ..self
        }
    }

    /// Whether a step of `distance` squares fits a simple move or a capture segment.
    pub(super) fn fits(self, capture: bool, distance: u8) -> bool {
        match (self.flying, capture) {
            (false, false) => distance == 1,
            (false, true) => distance == 2,
            (true, false) => true,
            (true, true) => distance >= 2,
        }
    }
}

/// Why a move text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// The text has neither `-` nor `x`.
    #[error("'{text}' is not a move (expected 'a-b' or 'axbx...'){hint}", text = .0, hint = not_a_move_hint(.0))]
    NotAMove(String),
    /// The text mixes the two separators.
    #[error("'{0}' mixes '-' and 'x'")]
    MixedSeparators(String),
    /// A simple move names more than two squares.
    #[error("'{0}': a simple move names exactly two squares")]
    LongSimpleMove(String),
    /// A square name is not 1..=32.
    #[error("'{text}': {}", square_problem(.source))]
    BadSquare {
        /// The whole move.
        text: String,
        /// The square that failed.
        source: ParseSquareError,
    },
    /// The two squares of a simple move are not diagonal neighbours.
    #[error("'{text}': {from} and {to} are not diagonal neighbours")]
    NotAStep {
        /// The whole move.
        text: String,
        /// First square.
        from: Square,
        /// Second square.
        to: Square,
    },
    /// Two squares of a move are not on one diagonal (flying geometry).
    #[error("'{text}': {from} and {to} are not on one diagonal")]
    NotDiagonal {
        /// The whole move.
        text: String,
        /// First square.
        from: Square,
        /// Second square.
        to: Square,
    },
    /// A capture segment is one step long: nothing can be jumped (flying geometry).
    #[error("'{text}': {from} to {to} is too short for a capture (it must pass over a square)")]
    ShortCapture {
        /// The whole move.
        text: String,
        /// Where the segment starts.
        from: Square,
        /// Where it lands.
        to: Square,
    },
    /// A damaged move that no move fits, even on an empty board.
    #[error("'{0}': no move fits it, even on an empty board")]
    NoShape(String),
    /// A jump step does not go two squares along a diagonal.
    #[error("'{text}': {from} to {to} is not a jump (two diagonal steps)")]
    NotAJump {
        /// The whole move.
        text: String,
        /// Where the step starts.
        from: Square,
        /// Where it lands.
        to: Square,
    },
}

/// Dashes a word processor or a web page puts where `-` was typed.
const TYPOGRAPHIC_DASHES: [char; 5] = ['\u{2010}', '\u{2011}', '\u{2013}', '\u{2014}', '\u{2212}'];

/// What a text that is no move most likely is, for the slips pasted
/// records show: a typographic dash, an upper-case `X`, PDN's move numbers.
fn not_a_move_hint(text: &str) -> &'static str {
    let digits = text.trim_end_matches('.');
    let numbered =
        text.ends_with('.') && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    if let Some(dash) = text.chars().find(|c| TYPOGRAPHIC_DASHES.contains(c)) {
        return match dash {
            '\u{2212}' => ": '\u{2212}' is a minus sign: write '-'",
            '\u{2014}' => ": '\u{2014}' is an em dash: write '-'",
            '\u{2013}' => ": '\u{2013}' is an en dash: write '-'",
            _ => ": that is a typographic hyphen: write '-'",
        };
    }
    if text.contains('X') {
        ": captures are written with a lower-case 'x'"
    } else if numbered {
        ": a move number, which PDN writes and this format does not (one move a line)"
    } else {
        ""
    }
}

/// What is wrong with a square's name. An algebraic light square (`d5`)
/// is named as one: it is a real square, only not one pieces stand on.
fn square_problem(error: &ParseSquareError) -> String {
    let algebraic = error.topology.size() == 8 && !error.topology.mirrored();
    match error.text.as_bytes() {
        [file @ b'a'..=b'h', rank @ b'1'..=b'8'] if algebraic && (file + rank) % 2 == 1 => {
            format!(
                "'{}' is a light square (pieces stand on the dark squares: a1, c1, b2, ...)",
                error.text
            )
        }
        _ => error.to_string(),
    }
}

impl MoveText {
    /// A simple move from `from` to `to`.
    ///
    /// # Panics
    /// If the squares are not diagonal neighbours.
    pub fn simple(from: Square, to: Square) -> MoveText {
        assert_eq!(from.diagonal_to(to).map(|d| d.1), Some(1), "not a step");
        MoveText {
            path: Path::from_slice(&[from, to]),
            capture: false,
        }
    }

    /// A capture visiting `path` (the start square, then every landing square).
    ///
    /// # Panics
    /// If the path has fewer than two squares or a step is not two diagonal squares long.
    pub fn jump(path: Vec<Square>) -> MoveText {
        assert!(path.len() >= 2, "a jump needs a landing square");
        for pair in path.windows(2) {
            assert_eq!(
                pair[0].diagonal_to(pair[1]).map(|d| d.1),
                Some(2),
                "not a jump"
            );
        }
        MoveText {
            path: Path::from_slice(&path),
            capture: true,
        }
    }

    /// A move visiting `path`, each step along a diagonal (any distance);
    /// `None` if a step is not, or the path is too short.
    pub fn along(path: Vec<Square>, capture: bool) -> Option<MoveText> {
        let aligned = path.len() >= 2
            && path.windows(2).all(|w| {
                w[0].diagonal_to(w[1])
                    .is_some_and(|(_, n)| !capture || n >= 2)
            });
        (aligned && (capture || path.len() == 2)).then(|| MoveText {
            path: Path::from_slice(&path),
            capture,
        })
    }

    /// Reads a move with `geometry`'s distances. Squares may be numbers
    /// (`22-18`) or algebraic (`c3-d4`); `x` and `:` both mark captures.
    ///
    /// # Errors
    /// What is wrong with the text.
    pub fn parse_with(text: &str, geometry: Geometry) -> Result<MoveText, ParseMoveError> {
        match MoveText::parse_quick(text.as_bytes(), geometry) {
            Some(mv) => Ok(mv),
            None => MoveText::parse_carefully(text, geometry),
        }
    }

    /// [`MoveText::parse_with`] for well-formed moves, byte by byte and
    /// without allocating; `None` for anything else, which the careful
    /// reader then names. It accepts exactly what that reader accepts.
    pub(crate) fn parse_quick(bytes: &[u8], geometry: Geometry) -> Option<MoveText> {
        // A plain array: longer moves are the careful reader's.
        let mut squares = [Square::new(0); 16];
        let mut len = 0;
        let mut separator = None;
        let mut rest = bytes;
        loop {
            let (square, after) = quick_square(rest, geometry.topology)?;
            *squares.get_mut(len)? = square;
            len += 1;
            match after {
                [] => break,
                [sep @ (b'-' | b'x' | b':'), tail @ ..] => {
                    if separator.is_some_and(|s| s != *sep) {
                        return None;
                    }
                    separator = Some(*sep);
                    rest = tail;
                }
                _ => return None,
            }
        }
        let capture = separator? != b'-';
        if !capture && len != 2 {
            return None;
        }
        let path = &squares[..len];
        let fits = path.windows(2).all(|pair| {
            pair[0]
                .diagonal_to(pair[1])
                .is_some_and(|(_, n)| geometry.fits(capture, n))
        });
        fits.then(|| MoveText {
            path: Path::from_buf_and_len(squares, len),
            capture,
        })
    }

    /// The reader behind [`MoveText::parse_with`] that says what is wrong.
    fn parse_carefully(text: &str, geometry: Geometry) -> Result<MoveText, ParseMoveError> {
        let owned = || text.to_string();
        let capture_sep = text.contains('x') || text.contains(':');
        let capture = match (text.contains('-'), capture_sep) {
            (true, true) => return Err(ParseMoveError::MixedSeparators(owned())),
            (false, false) => return Err(ParseMoveError::NotAMove(owned())),
            (_, capture) => capture,
        };
        if text.contains('x') && text.contains(':') {
            return Err(ParseMoveError::MixedSeparators(owned()));
        }
        let path = text
            .split(['-', 'x', ':'])
            .map(|part| geometry.topology.parse_square(part))
            .collect::<Result<Path, _>>()
            .map_err(|source| ParseMoveError::BadSquare {
                text: owned(),
                source,
            })?;
        if !capture && path.len() != 2 {
            return Err(ParseMoveError::LongSimpleMove(owned()));
        }
        for pair in path.windows(2) {
            let (from, to) = (pair[0], pair[1]);
            let distance = from.diagonal_to(to).map(|d| d.1);
            if distance.is_some_and(|n| geometry.fits(capture, n)) {
                continue;
            }
            let error = match (geometry.flying, capture, distance) {
                (false, false, _) => ParseMoveError::NotAStep {
                    text: owned(),
                    from,
                    to,
                },
                (false, true, _) => ParseMoveError::NotAJump {
                    text: owned(),
                    from,
                    to,
                },
                (true, _, None) => ParseMoveError::NotDiagonal {
                    text: owned(),
                    from,
                    to,
                },
                (true, _, Some(_)) => ParseMoveError::ShortCapture {
                    text: owned(),
                    from,
                    to,
                },
            };
            return Err(error);
        }
        Ok(MoveText { path, capture })
    }

    /// The move in algebraic notation: `c3-d4`, `c3:e5:c7`.
    pub fn algebraic(&self) -> String {
        let sep = if self.capture { ":" } else { "-" };
        self.path
            .iter()
            .map(|s| s.algebraic())
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// The move with numbered squares (`32-28`, `28x19x10`), whatever
    /// board its squares are on.
    pub fn numbered(&self) -> String {
        let sep = if self.capture { "x" } else { "-" };
        self.path
            .iter()
            .map(|s| s.number().to_string())
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// The move as `topology`'s board writes moves (its square names and
    /// its capture separator): [`MoveText::algebraic`] on the algebraic
    /// board, [`MoveText::numbered`] on the others. Every move shown to a
    /// user goes through here, so a Russian capture reads `c3:e5` in a
    /// message as in an answer.
    pub fn written_on(&self, topology: Topology) -> String {
        if topology.algebraic() {
            self.algebraic()
        } else {
            self.numbered()
        }
    }

    /// The square the moving piece starts on.
    pub fn from(&self) -> Square {
        self.path[0]
    }

    /// The square the moving piece ends on.
    pub fn to(&self) -> Square {
        *self.path.last().expect("a move has at least two squares")
    }

    /// Every square visited, starting square first.
    pub fn path(&self) -> &[Square] {
        &self.path
    }

    /// The squares after the start: one for a simple move, each landing for a capture.
    pub fn landings(&self) -> &[Square] {
        &self.path[1..]
    }

    /// True for captures (`x`).
    pub fn is_capture(&self) -> bool {
        self.capture
    }

    /// The (start, end) pairs of each step.
    pub fn steps(&self) -> impl Iterator<Item = (Square, Square)> + '_ {
        self.path.windows(2).map(|w| (w[0], w[1]))
    }
}

/// A square name at the start of `bytes` (a number of at most three digits,
/// or a dark square's algebraic name) and the bytes after it.
fn quick_square(bytes: &[u8], topology: Topology) -> Option<(Square, &[u8])> {
    // The bytes first: numbers, the common case, need not ask the board.
    if let [file @ b'a'..=b'h', rank @ b'1'..=b'8', rest @ ..] = bytes {
        if topology.size() == 8 && !rest.first().is_some_and(u8::is_ascii_digit) {
            return Some((topology.from_coords(b'8' - rank, file - b'a')?, rest));
        }
    }
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    if !(1..=3).contains(&digits) {
        return None;
    }
    let number = bytes[..digits]
        .iter()
        .fold(0, |n, &d| n * 10 + u32::from(d - b'0'));
    Some((topology.square(number)?, &bytes[digits..]))
}

impl fmt::Display for MoveText {
    /// The move as the board of its squares writes it
    /// ([`MoveText::written_on`]): `13x22`, or `c3:e5` on the algebraic
    /// board, whose squares are those of the rule sets that write so.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.written_on(self.from().topology()))
    }
}

impl FromStr for MoveText {
    type Err = ParseMoveError;

    /// Reads a move with English distances (see [`MoveText::parse_with`]).
    fn from_str(text: &str) -> Result<MoveText, ParseMoveError> {
        MoveText::parse_with(text, Geometry::SHORT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_both_kinds() {
        for text in ["21-17", "13x22x31x24", "9x2", "2x11x18"] {
            let mv: MoveText = text.parse().unwrap();
            assert_eq!(mv.to_string(), text);
        }
        let mv: MoveText = "13x22x31x24".parse().unwrap();
        assert!(mv.is_capture());
        assert_eq!(mv.from().number(), 13);
        assert_eq!(mv.to().number(), 24);
        assert_eq!(mv.landings().len(), 3);
    }

    #[test]
    fn a_text_that_is_no_move_names_the_likely_slip() {
        let said = |text: &str| text.parse::<MoveText>().unwrap_err().to_string();
        assert!(said("13X22X31X24").ends_with("lower-case 'x'"));
        assert!(said("1.").contains("a move number"));
        assert!(said("12...").contains("a move number"));
        assert!(said("21").ends_with("(expected 'a-b' or 'axbx...')"));
        assert!(said("11\u{2013}15").ends_with("is an en dash: write '-'"));
        assert!(said("11\u{2212}15").ends_with("a minus sign: write '-'"));
        assert!(said(".").ends_with("(expected 'a-b' or 'axbx...')"));
        assert!(said("...").ends_with("(expected 'a-b' or 'axbx...')"));
    }

    #[test]
    fn flying_geometry_reads_long_moves_in_both_notations() {
        let long = MoveText::parse_with("a1-e5", Geometry::FLYING).unwrap();
        assert_eq!((long.from().number(), long.to().number()), (29, 15));
        assert_eq!(long.algebraic(), "a1-e5");
        assert_eq!(long.to_string(), "a1-e5");
        assert_eq!(long.numbered(), "29-15");
        let capture = MoveText::parse_with("c3:e5:c7", Geometry::FLYING).unwrap();
        assert!(capture.is_capture());
        assert_eq!(capture.algebraic(), "c3:e5:c7");
        // Shown as the algebraic board writes captures, in messages too.
        assert_eq!(capture.to_string(), "c3:e5:c7");
        assert_eq!(capture.numbered(), "22x15x6");
        assert_eq!(
            MoveText::parse_with("22x15", Geometry::FLYING)
                .unwrap()
                .algebraic(),
            "c3:e5"
        );
        assert_eq!("c3-d4".parse::<MoveText>().unwrap().to_string(), "22-18");
        for (text, want) in [
            ("a1-c5", "not on one diagonal"),
            ("a1:b2", "too short for a capture"),
            ("a1-e5", "not diagonal neighbours"),
        ] {
            let geometry = if want.contains("neighbours") {
                Geometry::SHORT
            } else {
                Geometry::FLYING
            };
            let err = MoveText::parse_with(text, geometry)
                .unwrap_err()
                .to_string();
            assert!(err.contains(want), "{text}: {err}");
        }
        assert!(MoveText::along(vec![Square::new(28), Square::new(14)], false).is_some());
    }

    #[test]
    fn the_quick_reader_accepts_exactly_what_the_careful_one_does() {
        // Random short texts over the characters moves are made of.
        let alphabet = b"0123456789abcdefghx-: 4";
        let mut rng = crate::random::Rng::new(0x2545_F491_4F6C_DD1D);
        let mut next = |n: usize| rng.below(n);
        let mut accepted = 0;
        for round in 0..200_000 {
            let text: String = if round % 2 == 0 {
                let len = 1 + next(9);
                (0..len)
                    .map(|_| alphabet[next(alphabet.len())] as char)
                    .collect()
            } else {
                // Walks along diagonals, named either way, with mostly one separator.
                let mut at = Square::new(next(32) as u8);
                let sep = [b'-', b'x', b':'][next(3)] as char;
                let mut text = String::new();
                for step in 0..1 + next(4) {
                    if step > 0 {
                        let other = [b'-', b'x', b':', b' '][next(4)] as char;
                        text.push(if next(10) == 0 { other } else { sep });
                    }
                    if next(2) == 0 {
                        text.push_str(&at.algebraic());
                    } else {
                        text.push_str(&at.number().to_string());
                    }
                    let dir = crate::board::Direction::ALL[next(4)];
                    for _ in 0..1 + next(3) {
                        at = at.step(dir).unwrap_or(at);
                    }
                }
                text
            };
            for geometry in [Geometry::SHORT, Geometry::FLYING] {
                let quick = MoveText::parse_quick(text.as_bytes(), geometry);
                let careful = MoveText::parse_carefully(&text, geometry).ok();
                assert_eq!(quick, careful, "{text:?} {geometry:?}");
                accepted += usize::from(quick.is_some());
            }
        }
        // The sample must reach the accepting paths, not only rejections.
        assert!(accepted > 20_000, "only {accepted} accepted");
    }

    #[test]
    fn rejects_bad_geometry_and_syntax() {
        let cases = [
            ("21-18", "not diagonal neighbours"),
            ("21-21", "not diagonal neighbours"),
            ("13x20", "not a jump"),
            ("13x18", "not a jump"),
            ("21-17-13", "exactly two squares"),
            ("13-x22", "mixes"),
            ("33-29", "unknown square '33'"),
            ("0-5", "unknown square '0'"),
            ("a-5", "unknown square 'a'"),
            ("22x15:8", "mixes"),
            ("21", "not a move"),
            ("", "not a move"),
            ("13x", "unknown square ''"),
            ("21 -17", "unknown square '21 '"),
        ];
        for (text, want) in cases {
            let err = text.parse::<MoveText>().unwrap_err().to_string();
            assert!(err.contains(want), "{text:?}: {err}");
        }
    }

    #[test]
    fn a_light_square_is_named_as_one_not_as_unknown() {
        let light = |text: &str| {
            let err = MoveText::parse_with(text, Geometry::FLYING).unwrap_err();
            err.to_string()
        };
        assert_eq!(
            light("d5-e4"),
            "'d5-e4': 'd5' is a light square (pieces stand on the dark squares: a1, c1, b2, ...)"
        );
        assert!(light("c3-b3").contains("'b3' is a light square"));
        assert!(light("c3-i4").contains("unknown square 'i4'"));
        // Dark squares are read: a1, h8, d4.
        for dark in ["a1-b2", "h8-g7", "d4-e5"] {
            assert!(
                MoveText::parse_with(dark, Geometry::FLYING).is_ok(),
                "{dark}"
            );
        }
    }
}
