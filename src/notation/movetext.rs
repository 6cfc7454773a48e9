//! Move text such as `21-17` or `13x22x31x24`, parsed without a board.

use std::fmt;
use std::str::FromStr;

use crate::board::{ParseSquareError, Square};

/// A move as written: the squares it visits and whether it captures.
///
/// Geometry is checked when parsing (a simple move is one diagonal step, each
/// jump step two), legality is not: that needs a board and the rules.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct MoveText {
    path: Vec<Square>,
    capture: bool,
}

/// Why a move text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// The text has neither `-` nor `x`.
    #[error("'{0}' is not a move (expected 'a-b' or 'axbx...')")]
    NotAMove(String),
    /// The text mixes the two separators.
    #[error("'{0}' mixes '-' and 'x'")]
    MixedSeparators(String),
    /// A simple move names more than two squares.
    #[error("'{0}': a simple move names exactly two squares")]
    LongSimpleMove(String),
    /// A square name is not 1..=32.
    #[error("'{text}': {source}")]
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

impl MoveText {
    /// A simple move from `from` to `to`.
    ///
    /// # Panics
    /// If the squares are not diagonal neighbours.
    pub fn simple(from: Square, to: Square) -> MoveText {
        assert_eq!(from.diagonal_to(to).map(|d| d.1), Some(1), "not a step");
        MoveText {
            path: vec![from, to],
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
            path,
            capture: true,
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

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { "x" } else { "-" };
        for (i, sq) in self.path.iter().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            write!(f, "{sq}")?;
        }
        Ok(())
    }
}

impl FromStr for MoveText {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<MoveText, ParseMoveError> {
        let owned = || text.to_string();
        let capture = match (text.contains('-'), text.contains('x')) {
            (true, true) => return Err(ParseMoveError::MixedSeparators(owned())),
            (false, false) => return Err(ParseMoveError::NotAMove(owned())),
            (_, capture) => capture,
        };
        let sep = if capture { 'x' } else { '-' };
        let path = text
            .split(sep)
            .map(|part| part.parse::<Square>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|source| ParseMoveError::BadSquare {
                text: owned(),
                source,
            })?;
        if !capture && path.len() != 2 {
            return Err(ParseMoveError::LongSimpleMove(owned()));
        }
        let wanted = if capture { 2 } else { 1 };
        for pair in path.windows(2) {
            let (from, to) = (pair[0], pair[1]);
            if from.diagonal_to(to).map(|d| d.1) != Some(wanted) {
                return Err(if capture {
                    ParseMoveError::NotAJump {
                        text: owned(),
                        from,
                        to,
                    }
                } else {
                    ParseMoveError::NotAStep {
                        text: owned(),
                        from,
                        to,
                    }
                });
            }
        }
        Ok(MoveText { path, capture })
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
}
