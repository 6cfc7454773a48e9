//! The rule table (`shared/spec/variants.md`): every fact that tells one
//! rule set from another, in one row per rule set. The replayer, the
//! encoders, random games, notation, FEN and PDN read these facts through
//! [`Variant`]; no other module matches on a variant to re-derive them.

use crate::board::{Color, Topology};

use super::movement::{Crowning, Movement, Priority};
use super::{Brazilian, Canadian, Czech, English, International, Italian, Pool, Portuguese};
use super::{Rules, Russian, Spanish, Variant};

/// One rule set: its board and notation, its move rules, and how the
/// tool names and documents it.
#[derive(Clone, Copy, Debug)]
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
    /// The replayer's and the generator's rules object.
    pub rules: &'static dyn Rules,
    /// The DFS engine (`solve --engine dfs`, `compare`'s second column)
    /// plays these rules; the SAT engine plays every rule set.
    pub dfs: bool,
    /// Whether and when `--rules auto` tries this rule set; `None`: only
    /// when named or given by a PDN `GameType`.
    pub inference: Option<Inference>,
}

/// When `--rules auto` tries a rule set for a text, and in which order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inference {
    /// Rule sets that fit a text are tried by rank, lowest first.
    pub rank: u8,
    /// Tried only for texts whose highest square number lies in this range
    /// (both ends included): a fragment of a game on a bigger board may
    /// name only low squares, and a miswritten number may lie beyond the
    /// board. Texts are tried only under rule sets that write squares as
    /// they do (numbers or algebraic).
    pub highest: (u32, u32),
}

impl Inference {
    /// Tried at `rank` for texts whose highest number is in `lowest..=highest`.
    const fn ranked(rank: u8, lowest: u32, highest: u32) -> Option<Inference> {
        Some(Inference {
            rank,
            highest: (lowest, highest),
        })
    }
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
    rules: &International,
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
    dfs: false,
    inference: Inference::ranked(20, 0, 50),
};

const SPANISH: RuleSet = RuleSet {
    name: "spanish",
    rules: &Spanish,
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
    dfs: false,
    inference: Inference::ranked(70, 0, 32),
};

/// The rows, in [`Variant`] order.
const TABLE: [RuleSet; Variant::ALL.len()] = [
    RuleSet {
        name: "english",
        rules: &English,
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
        dfs: true,
        inference: Inference::ranked(0, 0, 32),
    },
    RuleSet {
        name: "russian",
        rules: &Russian,
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
        dfs: false,
        inference: Inference::ranked(10, 0, u32::MAX),
    },
    INTERNATIONAL,
    RuleSet {
        name: "brazilian",
        rules: &Brazilian,
        title: "Brazilian",
        summary: "Brazilian draughts: International rules on 8x8; algebraic notation",
        topology: Topology::EightAlgebraic,
        pdn_game_type: 26,
        // GameType 26 is `A0`: its FEN names squares as its moves do.
        fen_algebraic: true,
        inference: Inference::ranked(30, 0, u32::MAX),
        ..INTERNATIONAL
    },
    RuleSet {
        name: "pool",
        rules: &Pool,
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
        dfs: false,
        // Its texts read as English ones: only its name or `GameType` names it.
        inference: None,
    },
    RuleSet {
        name: "czech",
        rules: &Czech,
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
        dfs: false,
        inference: Inference::ranked(40, 0, u32::MAX),
    },
    RuleSet {
        name: "italian",
        rules: &Italian,
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
        dfs: false,
        inference: Inference::ranked(60, 0, 32),
    },
    SPANISH,
    RuleSet {
        name: "portuguese",
        rules: &Portuguese,
        title: "Portuguese",
        summary: "Portuguese draughts: as Spanish",
        pdn_game_type: 28,
        // Its texts read as Spanish ones: only its `GameType` names it.
        inference: None,
        ..SPANISH
    },
    RuleSet {
        name: "canadian",
        rules: &Canadian,
        title: "Canadian",
        summary: "Canadian draughts: International rules on 12x12, squares 1..72",
        topology: Topology::Twelve,
        pdn_game_type: 27,
        // Below 33, a smaller board's text is likelier.
        inference: Inference::ranked(80, 33, u32::MAX),
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
            assert_eq!(
                facts.rules.variant(),
                variant,
                "its rules object is its own"
            );
            // Only flying kings have a landing rule; only English removes at once.
            assert!(!facts.movement.king_lands_to_continue || facts.movement.flying_kings);
            assert_eq!(facts.movement.removed_at_once, variant == Variant::English);
        }
    }

    #[test]
    fn inference_ranks_are_unique() {
        let ranks: Vec<u8> = Variant::ALL
            .iter()
            .filter_map(|v| Some(v.facts().inference?.rank))
            .collect();
        let mut unique = ranks.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ranks.len(), "{ranks:?}");
    }

    /// The orders `shared/spec/pdn.md` gives, as the table makes them.
    #[test]
    fn candidates_follow_the_documented_orders() {
        use crate::notation::SquareNames;
        use Variant::*;
        let numbered = |highest| SquareNames {
            algebraic: false,
            highest,
        };
        let algebraic = SquareNames {
            algebraic: true,
            highest: 0,
        };
        assert_eq!(Variant::candidates(algebraic), [Russian, Brazilian, Czech]);
        for highest in [0, 1, 32] {
            assert_eq!(
                Variant::candidates(numbered(highest)),
                [English, International, Italian, Spanish]
            );
        }
        for highest in [33, 50] {
            assert_eq!(
                Variant::candidates(numbered(highest)),
                [International, Canadian]
            );
        }
        for highest in [51, 72, 99] {
            assert_eq!(Variant::candidates(numbered(highest)), [Canadian]);
        }
        assert_eq!(
            Variant::inferred(),
            [
                English,
                Russian,
                International,
                Brazilian,
                Czech,
                Italian,
                Spanish,
                Canadian
            ]
        );
    }

    #[test]
    fn only_rule_sets_with_the_dfs_column_are_played_by_the_dfs_engine() {
        use crate::solve::{Engine, Limit, Outcome, Reconstructor, SolveError};
        let record = &crate::notation::parse_records("B 1\n9-14\n").unwrap()[0];
        for variant in Variant::ALL {
            let answer = Reconstructor::new(variant)
                .engine(Engine::Dfs(Limit::default()))
                .solve(record);
            if variant.has_dfs() {
                assert!(
                    matches!(answer, Ok(Outcome::Solved(_))),
                    "{variant:?}: {answer:?}"
                );
            } else {
                assert!(
                    matches!(answer, Err(SolveError::Unsupported(_))),
                    "{variant:?}"
                );
            }
        }
    }

    #[test]
    fn the_list_of_names_is_the_table_s() {
        let names = Variant::known_names();
        assert!(names.starts_with("english, russian, "), "{names}");
        assert_eq!(names.split(", ").count(), Variant::ALL.len());
    }
}
