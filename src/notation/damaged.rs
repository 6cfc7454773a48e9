//! Damaged move text (`shared/spec/damaged.md`): a capture written short
//! (`13x24` for `13x22x31x24`), a `?` for an unknown square (`?-17`,
//! `9x?x27`), and a lone `?` for a whole unknown move.
//!
//! A [`MovePattern`] stands for the set of moves that fit it; which of them
//! was played is for the solver to find. Geometry is checked here, on an
//! empty board: a pattern no move fits is bad input, not an impossible record.

use std::fmt;

use smallvec::SmallVec;

use crate::board::{Bits, Direction, Square, Topology};

use super::movetext::{Geometry, MoveText, ParseMoveError};

/// A move as it stands in a record: complete, or damaged.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum WrittenMove {
    /// Every square written out (read exactly, as before).
    Known(MoveText),
    /// Some of it is missing.
    Pattern(MovePattern),
}

/// The moves a damaged move text allows.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MovePattern {
    /// A lone `?`: any legal move of the side to move.
    Unknown,
    /// Written squares, `None` where a `?` stands.
    Path {
        /// The squares in order, start first.
        squares: SmallVec<[Option<Square>; 8]>,
        /// Written with `x` or `:`.
        capture: bool,
        /// The written squares are a subsequence of the real path (first and
        /// last included), not the whole path: PDN, or `--short-captures`.
        short: bool,
    },
    /// Two squares written with no separator (`a1e5`, as some PDN files
    /// write moves): a step from one to the other, or a capture that
    /// starts on one and ends on the other.
    Between {
        /// Where the move starts.
        from: Square,
        /// Where it ends.
        to: Square,
    },
    /// Written as no move on the board can be (squares that are not
    /// neighbours, a jump of the wrong shape, a square the board does not
    /// have): no move fits. It is a mistake of the record at its ply, not
    /// an unreadable text, and a repair mends it like any misread square.
    Miswritten(Box<Miswritten>),
}

/// A move text that names squares but is no move on the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Miswritten {
    /// The text as written.
    pub text: String,
    /// Its squares in order, `None` where it names no square of the board.
    pub squares: SmallVec<[Option<Square>; 8]>,
    /// Written with `x` or `:`.
    pub capture: bool,
    /// Captures are read short (PDN).
    pub short: bool,
    /// Why no move fits (`27 and 22 are not diagonal neighbours`).
    pub why: String,
}

impl Miswritten {
    /// The text `text` that failed to read with `error`, when it names
    /// squares with separators (two or more parts); `None` for a text that
    /// is not a move at all.
    pub fn read(text: &str, geometry: Geometry, error: &ParseMoveError) -> Option<Miswritten> {
        let parts: Vec<&str> = text.split(['-', 'x', ':']).collect();
        if parts.len() < 2 || matches!(error, ParseMoveError::NotAMove(_)) {
            return None;
        }
        let capture = text.contains('x') || text.contains(':');
        let shown = error.to_string();
        let why = shown
            .strip_prefix(&format!("'{text}': "))
            .unwrap_or(&shown)
            .to_string();
        Some(Miswritten {
            text: text.to_string(),
            squares: parts
                .iter()
                .map(|part| geometry.topology.parse_square(part).ok())
                .collect(),
            capture,
            short: capture && geometry.short_captures,
            why,
        })
    }

    /// The move with square `i` read as unknown (`?`): a damaged move when
    /// every other square is on the board, else still miswritten.
    pub fn with_unknown(&self, i: usize) -> MovePattern {
        let others_on_board = self
            .squares
            .iter()
            .enumerate()
            .all(|(j, s)| j == i || s.is_some());
        if !others_on_board || i >= self.squares.len() {
            return MovePattern::Miswritten(Box::new(self.clone()));
        }
        let mut squares = self.squares.clone();
        squares[i] = None;
        MovePattern::Path {
            squares,
            capture: self.capture,
            short: self.short,
        }
    }
}

impl WrittenMove {
    /// Reads one move as `geometry` says: `?` squares and lone `?` always,
    /// captures as subsequences when `geometry.short_captures` is set.
    ///
    /// # Errors
    /// What is wrong with the text, including a damaged move no move on an
    /// empty board fits.
    pub fn parse_with(text: &str, geometry: Geometry) -> Result<WrittenMove, ParseMoveError> {
        let may_be_short = geometry.short_captures && (text.contains('x') || text.contains(':'));
        if !text.contains('?') && !may_be_short {
            return MoveText::parse_with(text, geometry).map(WrittenMove::Known);
        }
        MovePattern::parse(text, geometry).map(WrittenMove::Pattern)
    }

    /// The complete move, if nothing is missing.
    pub fn known(&self) -> Option<&MoveText> {
        match self {
            WrittenMove::Known(mv) => Some(mv),
            WrittenMove::Pattern(_) => None,
        }
    }

    /// Does `mv` fit what is written?
    pub fn matches(&self, mv: &MoveText) -> bool {
        match self {
            WrittenMove::Known(known) => known == mv,
            WrittenMove::Pattern(pattern) => pattern.matches(mv),
        }
    }

    /// The text as `topology`'s board writes moves (its square names and
    /// capture separator), as [`MoveText::written_on`].
    pub fn written_on(&self, topology: Topology) -> String {
        if topology.algebraic() {
            self.algebraic()
        } else {
            self.numbered()
        }
    }

    /// The board of its squares, if it names one.
    fn topology(&self) -> Option<Topology> {
        match self {
            WrittenMove::Known(mv) => Some(mv.from().topology()),
            WrittenMove::Pattern(p) => p.topology(),
        }
    }

    /// The text as written, squares in numbers (`13x?x24`).
    pub fn numbered(&self) -> String {
        match self {
            WrittenMove::Known(mv) => mv.numbered(),
            WrittenMove::Pattern(p) => p.written(|s| s.number().to_string(), "x"),
        }
    }

    /// The text as written, squares algebraic (`c3:?`).
    pub fn algebraic(&self) -> String {
        match self {
            WrittenMove::Known(mv) => mv.algebraic(),
            WrittenMove::Pattern(p) => p.written(Square::algebraic, ":"),
        }
    }
}

impl fmt::Display for WrittenMove {
    /// As the board of its squares writes moves ([`WrittenMove::written_on`]);
    /// numbered when it names no square (`?`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.written_on(self.topology().unwrap_or_default()))
    }
}

impl MovePattern {
    fn parse(text: &str, geometry: Geometry) -> Result<MovePattern, ParseMoveError> {
        let owned = || text.to_string();
        if text == "?" {
            return Ok(MovePattern::Unknown);
        }
        let capture = text.contains('x') || text.contains(':');
        match (text.contains('-'), capture) {
            (true, true) => return Err(ParseMoveError::MixedSeparators(owned())),
            (false, false) => return Err(ParseMoveError::NotAMove(owned())),
            _ => {}
        }
        if text.contains('x') && text.contains(':') {
            return Err(ParseMoveError::MixedSeparators(owned()));
        }
        let squares = text
            .split(['-', 'x', ':'])
            .map(|part| match part {
                "?" => Ok(None),
                _ => geometry.topology.parse_square(part).map(Some),
            })
            .collect::<Result<SmallVec<_>, _>>()
            .map_err(|source| ParseMoveError::BadSquare {
                text: owned(),
                source,
            })?;
        if !capture && squares.len() != 2 {
            return Err(ParseMoveError::LongSimpleMove(owned()));
        }
        let pattern = MovePattern::Path {
            squares,
            capture,
            short: capture && geometry.short_captures,
        };
        if !pattern.has_shape(geometry) {
            return Err(ParseMoveError::NoShape(owned()));
        }
        Ok(pattern)
    }

    /// Some move on an empty board of `geometry` fits the pattern (every
    /// square may be passed over and landed on, every piece may be a king).
    fn has_shape(&self, geometry: Geometry) -> bool {
        let MovePattern::Path {
            squares,
            capture,
            short,
        } = self
        else {
            return match self {
                MovePattern::Between { from, to } => from != to,
                MovePattern::Miswritten(_) => false,
                _ => true,
            };
        };
        let topology = geometry.topology;
        let allowed = |written: &Option<Square>| written.map_or(topology.all_bits(), Square::bit);
        let mut reached = allowed(&squares[0]);
        for written in &squares[1..] {
            let mut next = steps_from(reached, geometry, *capture, topology);
            if *short {
                // Any number of further capture steps.
                let mut frontier = next;
                while frontier != 0 {
                    let further = steps_from(frontier, geometry, true, topology) & !next;
                    next |= further;
                    frontier = further;
                }
            }
            reached = next & allowed(written);
            if reached == 0 {
                return false;
            }
        }
        true
    }

    /// Does the complete move `mv` fit the pattern?
    pub fn matches(&self, mv: &MoveText) -> bool {
        let (squares, capture, short) = match self {
            MovePattern::Unknown => return true,
            MovePattern::Miswritten(_) => return false,
            MovePattern::Between { from, to } => return mv.from() == *from && mv.to() == *to,
            MovePattern::Path {
                squares,
                capture,
                short,
            } => (squares, capture, short),
        };
        let fits = |written: &Option<Square>, square: &Square| written.is_none_or(|w| w == *square);
        let path = mv.path();
        if *capture != mv.is_capture() || path.len() < squares.len() {
            return false;
        }
        if !short {
            return path.len() == squares.len()
                && squares.iter().zip(path).all(|(w, s)| fits(w, s));
        }
        let (first, last) = (&squares[0], &squares[squares.len() - 1]);
        if !fits(first, &path[0]) || !fits(last, &path[path.len() - 1]) {
            return false;
        }
        // The middle of the pattern, in order, within the middle of the path:
        // matching each written square as early as possible finds a fit
        // whenever there is one.
        let mut rest = path[1..path.len() - 1].iter();
        squares[1..squares.len() - 1]
            .iter()
            .all(|w| rest.by_ref().any(|s| fits(w, s)))
    }

    /// The move exactly as written, when every square is written and each
    /// step fits `geometry`: a capture read short that was written whole
    /// (`23x14`), one of the paths that fit it.
    pub fn as_written(&self, geometry: Geometry) -> Option<MoveText> {
        let MovePattern::Path {
            squares, capture, ..
        } = self
        else {
            return None;
        };
        let path: Vec<Square> = squares.iter().copied().collect::<Option<_>>()?;
        let fits = path.windows(2).all(|w| {
            w[0].diagonal_to(w[1])
                .is_some_and(|(_, n)| geometry.fits(*capture, n))
        });
        fits.then(|| MoveText::along(path, *capture)).flatten()
    }

    /// Whether the pattern allows a capture / a simple move.
    pub fn allows(&self, capture: bool) -> bool {
        match self {
            MovePattern::Unknown | MovePattern::Between { .. } => true,
            MovePattern::Path { capture: c, .. } => *c == capture,
            MovePattern::Miswritten(_) => false,
        }
    }

    /// The written start square, if known.
    pub fn from(&self) -> Option<Square> {
        match self {
            MovePattern::Unknown | MovePattern::Miswritten(_) => None,
            MovePattern::Between { from, .. } => Some(*from),
            MovePattern::Path { squares, .. } => squares[0],
        }
    }

    /// The longest path a fitting move may have, if the pattern bounds it.
    pub fn max_len(&self) -> Option<usize> {
        match self {
            MovePattern::Path {
                squares,
                short: false,
                ..
            } => Some(squares.len()),
            _ => None,
        }
    }

    /// The written square at position `i` of an exactly written path, for
    /// pruning: `Some(None)` for a `?`.
    pub fn exact_square(&self, i: usize) -> Option<Option<Square>> {
        match self {
            MovePattern::Path {
                squares,
                short: false,
                ..
            } => squares.get(i).copied(),
            _ => None,
        }
    }

    /// The board of the first square it names.
    fn topology(&self) -> Option<Topology> {
        let first = match self {
            MovePattern::Unknown => None,
            MovePattern::Between { from, .. } => Some(*from),
            MovePattern::Path { squares, .. } => squares.iter().flatten().next().copied(),
            MovePattern::Miswritten(m) => m.squares.iter().flatten().next().copied(),
        };
        first.map(Square::topology)
    }

    /// The pattern as written, squares named by `name`, captures joined by `capture`.
    fn written(&self, name: impl Fn(Square) -> String, capture_separator: &str) -> String {
        match self {
            MovePattern::Unknown => "?".to_string(),
            MovePattern::Miswritten(m) => m.text.clone(),
            MovePattern::Between { from, to } => format!("{}{}", name(*from), name(*to)),
            MovePattern::Path {
                squares, capture, ..
            } => {
                let sep = if *capture { capture_separator } else { "-" };
                squares
                    .iter()
                    .map(|s| s.map_or_else(|| "?".to_string(), &name))
                    .collect::<Vec<_>>()
                    .join(sep)
            }
        }
    }
}

/// The squares one step of a move (a simple step or a capture segment, as
/// `geometry` measures them) takes a piece to from any square of `from`.
fn steps_from(from: Bits, geometry: Geometry, capture: bool, topology: Topology) -> Bits {
    let mut out = 0;
    for square in topology.squares().filter(|s| from & s.bit() != 0) {
        for dir in Direction::ALL {
            let mut at = square;
            let mut distance = 0u8;
            while let Some(next) = at.step(dir) {
                distance += 1;
                at = next;
                if geometry.fits(capture, distance) {
                    out |= at.bit();
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, geometry: Geometry) -> Result<WrittenMove, ParseMoveError> {
        WrittenMove::parse_with(text, geometry)
    }

    fn mv(text: &str) -> MoveText {
        MoveText::parse_with(text, Geometry::SHORT).expect("a move")
    }

    #[test]
    fn clean_moves_stay_known_unless_captures_are_read_short() {
        assert_eq!(
            read("22-18", Geometry::SHORT),
            Ok(WrittenMove::Known(mv("22-18")))
        );
        assert_eq!(
            read("13x22", Geometry::SHORT),
            Ok(WrittenMove::Known(mv("13x22")))
        );
        let short = read("13x22", Geometry::SHORT.short_captures()).expect("short");
        assert!(matches!(
            short,
            WrittenMove::Pattern(MovePattern::Path { short: true, .. })
        ));
    }

    #[test]
    fn patterns_fit_the_moves_they_describe() {
        let short = Geometry::SHORT.short_captures();
        let full = mv("13x22x31x24");
        for (text, geometry, fits) in [
            ("13x24", short, true),
            ("13x?x24", short, true),
            ("13x31x24", short, true),
            ("13x?x?x24", short, true),
            ("13x?x?x?x24", short, false),
            ("13x?x?x24", Geometry::SHORT, true),
            ("?x?x?x24", Geometry::SHORT, true),
            ("?", Geometry::SHORT, true),
            ("13x31x22x24", short, false),
        ] {
            let written = read(text, geometry).expect(text);
            assert_eq!(written.matches(&full), fits, "{text}");
        }
        assert!(read("?-17", Geometry::SHORT).unwrap().matches(&mv("21-17")));
        assert!(!read("?-17", Geometry::SHORT).unwrap().matches(&mv("13x22")));
    }

    #[test]
    fn patterns_no_move_fits_are_bad_input() {
        assert!(matches!(
            read("13x?x20", Geometry::SHORT),
            Err(ParseMoveError::NoShape(_))
        ));
        assert!(matches!(
            read("13x?x24", Geometry::SHORT),
            Err(ParseMoveError::NoShape(_))
        ));
        assert!(matches!(
            read("1-?-5", Geometry::SHORT),
            Err(ParseMoveError::LongSimpleMove(_))
        ));
        assert!(matches!(
            read("?-33", Geometry::SHORT),
            Err(ParseMoveError::BadSquare { .. })
        ));
        assert!(matches!(
            read("1-?x5", Geometry::SHORT),
            Err(ParseMoveError::MixedSeparators(_))
        ));
        assert!(matches!(
            read("1-10", Geometry::SHORT.short_captures()),
            Err(ParseMoveError::NotAStep { .. })
        ));
        // Row parity: a jump keeps it, so 1 (row 0) cannot reach 5 (row 1).
        assert!(matches!(
            read("1x5", Geometry::SHORT.short_captures()),
            Err(ParseMoveError::NoShape(_))
        ));
        assert!(read("1x19", Geometry::SHORT.short_captures()).is_ok());
    }

    #[test]
    fn written_text_round_trips() {
        for text in ["?", "?-17", "9x?x27", "13x24"] {
            let written = read(text, Geometry::SHORT.short_captures()).expect(text);
            assert_eq!(written.to_string(), text);
        }
        // On the algebraic board a capture shows as its rule sets write it,
        // whichever separator or numbering the record used.
        let flying = Geometry::FLYING.short_captures();
        for (text, shown) in [("?:e5", "?:e5"), ("c3x?", "c3:?"), ("22x?x6", "c3:?:c7")] {
            assert_eq!(read(text, flying).expect(text).to_string(), shown);
        }
    }
}
