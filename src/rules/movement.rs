//! How pieces move and capture under a rule set, as facts: what the
//! encoding of damaged moves (and every other reader of "which squares may
//! a move visit") needs, in one place.

use crate::board::{Color, Direction, Square};

use super::Variant;

/// Which of the captures available must be chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    /// Any capture (English, Russian, American pool).
    Free,
    /// One that takes the most pieces, a king counting as one
    /// (International, Brazilian).
    MostPieces,
    /// The most pieces, and among those captures the most kings (Spanish,
    /// Portuguese).
    MostPiecesThenKings,
    /// A king's capture when a king can capture, any of them; else any
    /// capture by a man (Czech).
    KingFirst,
    /// The most pieces; then by a king rather than a man; then the most
    /// kings; then the one that meets a king first (Italian).
    ItalianOrder,
}

/// What happens to a man that reaches its crowning row during a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crowning {
    /// It is crowned and the move ends there (English).
    EndsMove,
    /// It is crowned and goes on capturing as a king (Russian).
    ContinuesAsKing,
    /// It goes on as a man and is crowned only if the move ends there
    /// (the majority rule sets).
    PassesAsMan,
}

/// How pieces move and capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Movement {
    /// Kings go any distance along a diagonal (and capture from afar).
    pub flying_kings: bool,
    /// Men capture backwards as well as forwards.
    pub men_capture_backwards: bool,
    /// Men may capture kings (not in Italian draughts).
    pub men_capture_kings: bool,
    /// A man reaching its crowning row mid-capture.
    pub crowning: Crowning,
    /// A captured piece leaves the board at once (English), instead of
    /// staying, blocking and uncapturable, until the move ends.
    pub removed_at_once: bool,
    /// Which capture must be chosen.
    pub priority: Priority,
    /// A flying king that takes a piece must land where it can take
    /// again, if any landing lets it (Russian).
    pub king_lands_to_continue: bool,
}

impl Movement {
    /// The movement of `variant` (its row of the rule table).
    pub const fn of(variant: Variant) -> Movement {
        variant.facts().movement
    }

    /// Whether the SAT encoding leaves a step of the capture choice to
    /// refinement, even on records without damage (Spanish's most kings,
    /// the Italian order): their formulas need the learned clauses.
    pub const fn choice_learned(self) -> bool {
        matches!(
            self.priority,
            Priority::MostPiecesThenKings | Priority::ItalianOrder
        )
    }

    /// Whether a man of `side` may capture in `dir`.
    pub fn man_captures(self, side: Color, dir: Direction) -> bool {
        self.men_capture_backwards || side.is_forward(dir)
    }

    /// Whether a capture segment from `from` to `to` (on one diagonal, at
    /// least two squares apart) needs a king: a long segment under flying
    /// kings, or a backward one where men capture forwards only.
    pub fn segment_needs_king(self, side: Color, from: Square, to: Square) -> bool {
        match from.diagonal_to(to) {
            Some((dir, n)) => n > 2 || !self.man_captures(side, dir),
            None => true,
        }
    }
}
