//! The rule table (`shared/spec/variants.md`): every fact that tells one
//! rule set from another, in one row per rule set. The replayer, the
//! encoders, random games, notation, FEN and PDN read these facts through
//! [`Variant`]; no other module matches on a variant to re-derive them.

use crate::board::{Color, Topology};

use super::movement::{Crowning, Movement, Priority};
use super::Variant;

/// One rule set: its board and notation, its move rules, and how the
/// tool names and documents it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleSet {
    /// Lower-case name, as on the command line.
    pub name: &'static str,
    /// Capitalised name, for titles.
    pub title: &'static str,
    /// One line for the command line's list of rule sets.
    pub summary: &'static str,
    /// The board and how its squares are written.
    pub topology: Topology,
    /// The side that moves first from the opening.
    pub first_player: Color,
    /// The PDN `GameType` number.
    pub pdn_game_type: u32,
    /// PDN FEN strings name squares algebraically (`W:Wc3:Bd6`).
    pub fen_algebraic: bool,
    /// How pieces move and capture, and which capture must be chosen.
    pub movement: Movement,
    /// The document in `encodings/` that describes its formula.
    pub encoding_doc: &'static str,
    /// Random games are played "carefully" (captures avoided while they can
    /// be), because uniformly random games under flying kings end at once.
    pub careful_play: bool,
    /// Who moves first in the generator's fragments from the opening (kept
    /// as earlier releases had it, so a seed gives the same records).
    pub generated_first: Color,
    /// The SAT engine has an encoding of these rules.
    pub encoded: bool,
}

const ENGLISH_MOVES: Movement = Movement {
    flying_kings: false,
    men_capture_backwards: false,
    men_capture_kings: true,
    crowning: Crowning::EndsMove,
    removed_at_once: true,
    priority: Priority::Free,
    king_lands_to_continue: false,
};

const RUSSIAN_MOVES: Movement = Movement {
    flying_kings: true,
    men_capture_backwards: true,
    men_capture_kings: true,
    crowning: Crowning::ContinuesAsKing,
    removed_at_once: false,
    priority: Priority::Free,
    king_lands_to_continue: true,
};

const INTERNATIONAL_MOVES: Movement = Movement {
    flying_kings: true,
    men_capture_backwards: true,
    men_capture_kings: true,
    crowning: Crowning::PassesAsMan,
    removed_at_once: false,
    priority: Priority::MostPieces,
    king_lands_to_continue: false,
};

const SPANISH_MOVES: Movement = Movement {
    men_capture_backwards: false,
    priority: Priority::MostPiecesThenKings,
    ..INTERNATIONAL_MOVES
};

const INTERNATIONAL: RuleSet = RuleSet {
    name: "international",
    title: "International",
    summary: "International draughts: 10x10, squares 1..50, the majority capture",
    topology: Topology::Ten,
    first_player: Color::White,
    pdn_game_type: 20,
    fen_algebraic: false,
    movement: INTERNATIONAL_MOVES,
    encoding_doc: "international",
    careful_play: true,
    generated_first: Color::White,
    encoded: true,
};

const SPANISH: RuleSet = RuleSet {
    name: "spanish",
    title: "Spanish",
    summary: "Spanish draughts: flying kings, men capture forwards, the most pieces then the most kings; squares 1..32 from the bottom right of a board whose bottom-left corner is light",
    topology: Topology::EightMirroredFromBottom,
    first_player: Color::White,
    pdn_game_type: 24,
    fen_algebraic: false,
    movement: SPANISH_MOVES,
    encoding_doc: "variants",
    careful_play: true,
    generated_first: Color::White,
    // "Then the most kings" is learned in refinement.
    encoded: true,
};

/// The rows, in [`Variant`] order.
const TABLE: [RuleSet; Variant::ALL.len()] = [
    RuleSet {
        name: "english",
        title: "English",
        summary: "English draughts (the ICPC task): numbered squares, short kings",
        topology: Topology::Eight,
        first_player: Color::Black,
        pdn_game_type: 21,
        fen_algebraic: false,
        movement: ENGLISH_MOVES,
        encoding_doc: "english",
        careful_play: false,
        generated_first: Color::Black,
        encoded: true,
    },
    RuleSet {
        name: "russian",
        title: "Russian",
        summary: "Russian draughts: flying kings, men capture backwards; algebraic notation",
        topology: Topology::EightAlgebraic,
        first_player: Color::White,
        pdn_game_type: 25,
        fen_algebraic: true,
        movement: RUSSIAN_MOVES,
        encoding_doc: "russian",
        careful_play: true,
        generated_first: Color::Black,
        encoded: true,
    },
    INTERNATIONAL,
    RuleSet {
        name: "brazilian",
        title: "Brazilian",
        summary: "Brazilian draughts: International rules on 8x8; algebraic notation",
        topology: Topology::EightAlgebraic,
        pdn_game_type: 26,
        ..INTERNATIONAL
    },
    RuleSet {
        name: "pool",
        title: "American pool",
        summary: "American pool checkers: flying kings, free choice of capture; numbered as English",
        topology: Topology::Eight,
        first_player: Color::Black,
        pdn_game_type: 23,
        fen_algebraic: false,
        movement: Movement {
            crowning: Crowning::PassesAsMan,
            king_lands_to_continue: false,
            ..RUSSIAN_MOVES
        },
        encoding_doc: "variants",
        careful_play: true,
        generated_first: Color::Black,
        encoded: true,
    },
    RuleSet {
        name: "czech",
        title: "Czech",
        summary: "Czech draughts: flying kings, men capture forwards, kings capture first; algebraic",
        topology: Topology::EightAlgebraic,
        first_player: Color::White,
        pdn_game_type: 29,
        fen_algebraic: true,
        movement: Movement {
            men_capture_backwards: false,
            crowning: Crowning::PassesAsMan,
            priority: Priority::KingFirst,
            king_lands_to_continue: false,
            ..RUSSIAN_MOVES
        },
        encoding_doc: "variants",
        careful_play: true,
        generated_first: Color::White,
        encoded: true,
    },
    RuleSet {
        name: "italian",
        title: "Italian",
        summary: "Italian draughts: short kings, men may not take kings, an order of captures; squares 1..32 from the top left of a board whose bottom-left corner is light",
        topology: Topology::EightMirrored,
        first_player: Color::White,
        pdn_game_type: 22,
        fen_algebraic: false,
        movement: Movement {
            removed_at_once: false,
            men_capture_kings: false,
            priority: Priority::ItalianOrder,
            ..ENGLISH_MOVES
        },
        encoding_doc: "variants",
        careful_play: false,
        generated_first: Color::White,
        // The English encoder writes men that may not take kings and
        // captured pieces that stay; the order of captures is learned in
        // refinement.
        encoded: true,
    },
    SPANISH,
    RuleSet {
        name: "portuguese",
        title: "Portuguese",
        summary: "Portuguese draughts: as Spanish",
        pdn_game_type: 28,
        ..SPANISH
    },
    RuleSet {
        name: "canadian",
        title: "Canadian",
        summary: "Canadian draughts: International rules on 12x12, squares 1..72",
        topology: Topology::Twelve,
        pdn_game_type: 27,
        ..INTERNATIONAL
    },
];

impl Variant {
    /// Every fact of this rule set.
    pub const fn facts(self) -> &'static RuleSet {
        &TABLE[self as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_its_own_and_game_types_are_unique() {
        for (i, variant) in Variant::ALL.into_iter().enumerate() {
            assert_eq!(variant as usize, i, "the table follows Variant's order");
            let facts = variant.facts();
            assert_eq!(
                Variant::from_pdn_game_type(facts.pdn_game_type),
                Some(variant)
            );
            assert_eq!(
                Variant::ALL
                    .iter()
                    .filter(|v| v.name() == facts.name)
                    .count(),
                1
            );
            // Only flying kings have a landing rule; only English removes at once.
            assert!(!facts.movement.king_lands_to_continue || facts.movement.flying_kings);
            assert_eq!(facts.movement.removed_at_once, variant == Variant::English);
        }
    }
}
