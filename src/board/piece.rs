//! Colours, roles and pieces.

use std::fmt;

use super::square::Direction;

/// A side. Black sits at the top (row 0) and moves down; White at the bottom and moves up.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// The side that starts on rows 0..3 and crowns on row 7.
    Black,
    /// The side that starts on rows 5..8 and crowns on row 0.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other side.
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The row where this side's men are crowned.
    pub const fn crowning_row(self) -> u8 {
        match self {
            Color::Black => 7,
            Color::White => 0,
        }
    }

    /// Whether a man of this colour moves (and, in English draughts, jumps) in `dir`.
    pub const fn is_forward(self, dir: Direction) -> bool {
        match self {
            Color::Black => dir.is_down(),
            Color::White => !dir.is_down(),
        }
    }

    /// `B` or `W`, as in the record header.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// The colour named by a header letter `B` or `W`.
    pub fn from_letter(letter: &str) -> Option<Color> {
        match letter {
            "B" => Some(Color::Black),
            "W" => Some(Color::White),
            _ => None,
        }
    }

    /// `black` or `white`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// `Black` or `White`, for sentences that start with the side.
    pub const fn title(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

/// Man or king.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Role {
    /// Moves forward only.
    Man,
    /// Moves in all four directions.
    King,
}

/// A piece: a colour and a role.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Man or king.
    pub role: Role,
}

impl Piece {
    /// The four pieces in the order of their letters `b B w W`.
    pub const ALL: [Piece; 4] = [
        Piece::new(Color::Black, Role::Man),
        Piece::new(Color::Black, Role::King),
        Piece::new(Color::White, Role::Man),
        Piece::new(Color::White, Role::King),
    ];

    /// A piece of `color` and `role`.
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// True for kings.
    pub const fn is_king(self) -> bool {
        matches!(self.role, Role::King)
    }

    /// Whether this piece may step or jump in `dir` (kings everywhere, men forward).
    pub const fn may_go(self, dir: Direction) -> bool {
        self.is_king() || self.color.is_forward(dir)
    }

    /// The board letter: `b` `B` `w` `W`.
    pub const fn letter(self) -> char {
        match (self.color, self.role) {
            (Color::Black, Role::Man) => 'b',
            (Color::Black, Role::King) => 'B',
            (Color::White, Role::Man) => 'w',
            (Color::White, Role::King) => 'W',
        }
    }

    /// The piece for a board letter, if it is one of `b B w W`.
    pub fn from_letter(letter: char) -> Option<Piece> {
        Piece::ALL.into_iter().find(|p| p.letter() == letter)
    }

    /// Words for messages: `black man`, `white king`.
    pub fn describe(self) -> String {
        let role = if self.is_king() { "king" } else { "man" };
        format!("{} {role}", self.color.name())
    }
}
