//! What real archives write in ways the PDN standard does not, and how
//! each is read (`shared/spec/pdn.md`, "Read leniently"). A reading is
//! lenient only where one reading fits; every one is kept as a
//! [`Leniency`] on its game and reported with it, and `--strict` turns
//! each into the error it was before.

use std::fmt;

/// One thing of a game read leniently, with the line it stands on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Leniency {
    /// Text that is no tag and no move: the two characters `\r` that some
    /// exports write at the end of every line. One note per game.
    StrayText {
        /// 1-based line of the first.
        line: usize,
        /// The text.
        text: String,
        /// How many more times the game has it.
        more: usize,
    },
    /// A tag value that goes on over the next line: read as one value.
    SplitTag {
        /// 1-based line where the tag starts.
        line: usize,
        /// The tag's name.
        name: String,
    },
    /// A line with a lone `[`: skipped.
    LoneBracket {
        /// 1-based line.
        line: usize,
    },
    /// A tag line without its opening `[` (`Site "Paris"]`): read as the tag.
    MissingBracket {
        /// 1-based line.
        line: usize,
        /// The tag's name.
        name: String,
    },
    /// A tag given twice in one header: the first is kept.
    RepeatedTag {
        /// 1-based line of the second.
        line: usize,
        /// The tag's name.
        name: String,
    },
    /// A move written with upper-case squares (`C3-B4`), read in lower case.
    UpperCase {
        /// 1-based ply.
        ply: usize,
        /// 1-based line.
        line: usize,
        /// The move as written.
        written: String,
    },
    /// A move written with the other separator (`10x14` for the step
    /// 10-14, `15-24` or `d6-b4` for a capture): read as the one move that
    /// goes from its first square to its last.
    Separator {
        /// 1-based ply.
        ply: usize,
        /// 1-based line.
        line: usize,
        /// The move as written.
        written: String,
        /// The move it was read as, once a replay knows it.
        read: Option<String>,
    },
}

impl Leniency {
    /// Stray `text` on `line`, met once so far.
    pub fn stray(line: usize, text: &str) -> Leniency {
        Leniency::StrayText {
            line,
            text: text.to_string(),
            more: 0,
        }
    }

    /// The line it stands on.
    pub fn line(&self) -> usize {
        match self {
            Leniency::StrayText { line, .. }
            | Leniency::SplitTag { line, .. }
            | Leniency::LoneBracket { line }
            | Leniency::MissingBracket { line, .. }
            | Leniency::RepeatedTag { line, .. }
            | Leniency::UpperCase { line, .. }
            | Leniency::Separator { line, .. } => *line,
        }
    }

    /// The ply it concerns, for a move.
    pub fn ply(&self) -> Option<usize> {
        match self {
            Leniency::UpperCase { ply, .. } | Leniency::Separator { ply, .. } => Some(*ply),
            _ => None,
        }
    }

    /// A short name of the kind, for JSON and for grouping
    /// (`stray-text`, `separator`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Leniency::StrayText { .. } => "stray-text",
            Leniency::SplitTag { .. } => "split-tag",
            Leniency::LoneBracket { .. } => "lone-bracket",
            Leniency::MissingBracket { .. } => "missing-bracket",
            Leniency::RepeatedTag { .. } => "repeated-tag",
            Leniency::UpperCase { .. } => "upper-case",
            Leniency::Separator { .. } => "separator",
        }
    }

    /// What `--strict` says instead: the text as an error of its line.
    pub fn as_error(&self) -> String {
        match self {
            Leniency::StrayText { text, .. } => format!("'{text}' is neither a tag nor a move"),
            Leniency::SplitTag { name, .. } => {
                format!("the tag [{name}] is not closed with ']' on its line")
            }
            Leniency::LoneBracket { .. } => "a tag is not closed with ']' on its line".into(),
            Leniency::MissingBracket { name, .. } => {
                format!("the tag line of [{name}] has no opening '['")
            }
            Leniency::RepeatedTag { name, .. } => {
                format!("the tag [{name}] is given twice in one header")
            }
            Leniency::UpperCase { written, .. } => {
                format!("'{written}': squares are written in lower case")
            }
            Leniency::Separator { written, .. } => {
                format!("'{written}' is not a move with that separator")
            }
        }
    }
}

impl fmt::Display for Leniency {
    /// `line 118: stray text '\r', and 40 more times`, `ply 12 '10x14' as 10-14`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Leniency::StrayText { line, text, more } => {
                write!(f, "line {line}: stray text '{text}'")?;
                match more {
                    0 => Ok(()),
                    1 => write!(f, ", and once more"),
                    _ => write!(f, ", and {more} more times"),
                }
            }
            Leniency::SplitTag { line, name } => {
                write!(f, "tag line {line}: [{name}] split over two lines")
            }
            Leniency::LoneBracket { line } => write!(f, "line {line}: a lone '['"),
            Leniency::MissingBracket { line, name } => {
                write!(f, "tag line {line}: [{name}] without its '['")
            }
            Leniency::RepeatedTag { line, name } => {
                write!(f, "tag line {line}: [{name}] given again, the first kept")
            }
            Leniency::UpperCase { ply, written, .. } => {
                write!(
                    f,
                    "ply {ply} '{written}' as {}",
                    written.to_ascii_lowercase()
                )
            }
            Leniency::Separator {
                ply, written, read, ..
            } => match read {
                Some(read) => write!(f, "ply {ply} '{written}' as {read}"),
                None => write!(
                    f,
                    "ply {ply} '{written}' as the move from its first square to its last"
                ),
            },
        }
    }
}

/// How many notes of one kind are named before the rest are counted.
const NAMED_PER_KIND: usize = 3;

/// The notes of a game in one line: `ply 12 '10x14' as 10-14; line 118:
/// stray text '\r', and 40 more times`. A kind with many notes (a file
/// that writes `x` for every move) names its first few and counts the rest.
pub fn describe(notes: &[Leniency]) -> String {
    let mut parts = Vec::new();
    let mut kinds: Vec<&str> = notes.iter().map(Leniency::kind).collect();
    kinds.dedup();
    let mut seen = std::collections::HashSet::new();
    for kind in kinds.into_iter().filter(|k| seen.insert(*k)) {
        let of_kind: Vec<&Leniency> = notes.iter().filter(|n| n.kind() == kind).collect();
        parts.extend(of_kind.iter().take(NAMED_PER_KIND).map(ToString::to_string));
        let rest = of_kind.len().saturating_sub(NAMED_PER_KIND);
        if rest > 0 {
            let noun = if rest == 1 { "note" } else { "notes" };
            parts.push(format!("{rest} more {noun} like it"));
        }
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_name_their_line_or_ply_and_group_by_kind() {
        let separator = |ply| Leniency::Separator {
            ply,
            line: 1,
            written: format!("{ply}x{}", ply + 4),
            read: Some(format!("{ply}-{}", ply + 4)),
        };
        let mut notes: Vec<Leniency> = (1..=5).map(separator).collect();
        notes.push(Leniency::StrayText {
            line: 3,
            text: "\\r".into(),
            more: 4,
        });
        assert_eq!(
            describe(&notes),
            "ply 1 '1x5' as 1-5; ply 2 '2x6' as 2-6; ply 3 '3x7' as 3-7; \
             2 more notes like it; line 3: stray text '\\r', and 4 more times"
        );
        assert_eq!(notes[5].line(), 3);
        assert_eq!(notes[0].ply(), Some(1));
    }
}
