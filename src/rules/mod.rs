//! The rules of play: the one source of truth shared by the replayer, the DFS
//! engine and the move generator. The SAT encoder reads the same facts
//! ([`Color::is_forward`], [`Color::crowning_row`], [`Piece::may_go`]).

mod english;
mod flying;
mod italian;
mod movement;
mod table;

use std::fmt;

use crate::board::{Board, Color, Piece, Square, Topology};
use crate::notation::{MoveText, Record, WrittenMove};

pub use english::English;
pub use flying::{Brazilian, Canadian, Czech, International, Pool, Portuguese, Russian, Spanish};
pub use italian::Italian;
pub use movement::{Crowning, Movement, Priority};
pub use table::{Inference, RuleSet};

/// A rule set: which start boards are allowed, which moves are legal, how they are played.
pub trait Rules: fmt::Debug + Sync {
    /// The variant this implements.
    fn variant(&self) -> Variant;

    /// Every reason `board` cannot start a record (empty when it can).
    fn start_problems(&self, board: &Board) -> Vec<StartProblem>;

    /// Every legal move of `side`, each once, in a fixed order.
    fn legal_moves(&self, board: &Board, side: Color) -> Vec<MoveText>;

    /// Plays `mv` for `side`, checking every rule.
    ///
    /// # Errors
    /// The first rule the move breaks; the board is left unchanged.
    fn play(&self, board: &Board, side: Color, mv: &MoveText) -> Result<Board, Violation>;

    /// Every complete capture sequence of `side`: captures that go on
    /// while they can, before any rule chooses among them (the majority
    /// capture keeps only the longest of these).
    fn capture_sequences(&self, board: &Board, side: Color) -> Vec<MoveText>;

    /// How pieces move and capture under these rules.
    fn movement(&self) -> Movement {
        Movement::of(self.variant())
    }
}

/// The piece of `side` on `from`, which is about to move.
///
/// # Errors
/// [`Violation::NoPiece`] or [`Violation::NotYours`].
fn mover(board: &Board, side: Color, from: Square) -> Result<Piece, Violation> {
    match board.get(from) {
        None => Err(Violation::NoPiece { square: from, side }),
        Some(p) if p.color != side => Err(Violation::NotYours {
            square: from,
            piece: p,
            side,
        }),
        Some(p) => Ok(p),
    }
}

/// The piece taken on each leg of a capture along `path` on `board` (the
/// board before it): the first piece between the leg's ends, the moving
/// piece having left its square. `None` when a leg is not on a diagonal.
pub fn taken_squares(board: &Board, path: &[Square]) -> Option<Vec<Square>> {
    let origin = *path.first()?;
    path.windows(2)
        .map(|leg| {
            let (dir, _) = leg[0].diagonal_to(leg[1])?;
            std::iter::successors(leg[0].step(dir), |s| s.step(dir))
                .take_while(|&s| s != leg[1])
                .find(|&s| s != origin && !board.is_empty(s))
        })
        .collect()
}

/// The rule sets postfacto knows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[non_exhaustive]
pub enum Variant {
    /// English draughts (checkers) as in the ICPC 2019 task.
    #[default]
    English,
    /// Russian draughts: flying kings, men capture backwards.
    Russian,
    /// International draughts: the 10x10 board, the majority capture.
    International,
    /// Brazilian draughts: International rules on the 8x8 board.
    Brazilian,
    /// American pool checkers: flying kings, men capture backwards, any
    /// capture may be chosen, crowned only where a move ends.
    Pool,
    /// Czech draughts: flying kings, men capture forwards only, a king
    /// must capture when one can.
    Czech,
    /// Italian draughts: short kings, men may not capture kings, a capture
    /// chosen by an order of four rules; the mirrored 8x8 board.
    Italian,
    /// Spanish draughts: flying kings, men capture forwards only, the most
    /// pieces and then the most kings must be taken; the mirrored 8x8
    /// board numbered from White's right corner.
    Spanish,
    /// Portuguese draughts: as Spanish.
    Portuguese,
    /// Canadian draughts: International rules on the 12x12 board.
    Canadian,
}

impl Variant {
    /// The rules object for this variant.
    pub fn rules(self) -> &'static dyn Rules {
        self.facts().rules
    }

    /// Every variant, in the order of the command line's list (and of the
    /// rule table).
    pub const ALL: [Variant; 10] = [
        Variant::English,
        Variant::Russian,
        Variant::International,
        Variant::Brazilian,
        Variant::Pool,
        Variant::Czech,
        Variant::Italian,
        Variant::Spanish,
        Variant::Portuguese,
        Variant::Canadian,
    ];

    /// Lower-case name as used on the command line.
    pub fn name(self) -> &'static str {
        self.facts().name
    }

    /// The rule set of this name, as the command line spells it or as
    /// pydraughts does (`standard` is International), in any case.
    pub fn named(name: &str) -> Option<Variant> {
        let name = name.trim().to_ascii_lowercase();
        let name = match name.as_str() {
            "standard" => "international",
            other => other,
        };
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    /// Capitalised name, for titles: `English`, `International`.
    pub fn title(self) -> &'static str {
        self.facts().title
    }

    /// The board this variant is played on.
    pub const fn topology(self) -> Topology {
        self.facts().topology
    }

    /// Whether squares are written algebraically (`c3`) rather than by number.
    pub const fn algebraic(self) -> bool {
        self.topology().algebraic()
    }

    /// The side that moves first in a game from the opening.
    pub const fn first_player(self) -> Color {
        self.facts().first_player
    }

    /// The PDN `GameType` number of this variant (the FMJD list).
    pub const fn pdn_game_type(self) -> u32 {
        self.facts().pdn_game_type
    }

    /// The variant a PDN `GameType` number stands for, if postfacto knows it.
    pub fn from_pdn_game_type(number: u32) -> Option<Variant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.pdn_game_type() == number)
    }

    /// The rule sets a text whose squares are named as `names` says may be
    /// written in, in the order to try them (`shared/spec/pdn.md`): the
    /// table's rows that `--rules auto` tries, that write squares as the
    /// text does and whose range of highest numbers holds the text's, by
    /// [`Inference::rank`].
    pub fn candidates(names: crate::notation::SquareNames) -> Vec<Variant> {
        let mut fitting: Vec<(u8, Variant)> = Variant::ALL
            .into_iter()
            .filter(|v| v.algebraic() == names.algebraic)
            .filter_map(|v| {
                let inference = v.facts().inference?;
                let (lowest, highest) = inference.highest;
                (lowest..=highest)
                    .contains(&names.highest)
                    .then_some((inference.rank, v))
            })
            .collect();
        fitting.sort_unstable_by_key(|&(rank, _)| rank);
        fitting.into_iter().map(|(_, v)| v).collect()
    }

    /// [`Variant::candidates`], then, for numbered squares above the
    /// smallest board's, the other numbered rule sets: a miswritten `36` in
    /// an English game must not make it a 10x10 game beyond repair, so
    /// `solve` and `verify --pdn` both fall back to them, in rank order.
    pub fn candidates_then_misread(names: crate::notation::SquareNames) -> Vec<Variant> {
        let mut order = Variant::candidates(names);
        let numbered: Vec<Variant> = Variant::inferred()
            .into_iter()
            .filter(|v| !v.algebraic())
            .collect();
        let smallest = numbered.iter().map(|v| v.topology().count()).min();
        let beyond = smallest.is_some_and(|n| names.highest as usize > n);
        if !names.algebraic && beyond {
            let wider: Vec<Variant> = numbered
                .into_iter()
                .filter(|v| !order.contains(v))
                .collect();
            order.extend(wider);
        }
        order
    }

    /// Every rule set `--rules auto` may try, by [`Inference::rank`].
    pub fn inferred() -> Vec<Variant> {
        let mut ranked: Vec<(u8, Variant)> = Variant::ALL
            .into_iter()
            .filter_map(|v| Some((v.facts().inference?.rank, v)))
            .collect();
        ranked.sort_unstable_by_key(|&(rank, _)| rank);
        ranked.into_iter().map(|(_, v)| v).collect()
    }

    /// Every name the command line takes for a rule set, comma-separated,
    /// in the table's order (for messages that list them).
    pub fn known_names() -> String {
        Variant::ALL.map(Variant::name).join(", ")
    }

    /// Whether the DFS engine plays this rule set (the SAT engine plays
    /// them all).
    pub const fn has_dfs(self) -> bool {
        self.facts().dfs
    }

    /// Whether PDN FEN strings name squares algebraically: Russian PDN
    /// does (`W:Wc3:Bd6`); the other game types number the squares.
    pub const fn fen_algebraic(self) -> bool {
        self.facts().fen_algebraic
    }

    /// How far moves may go in this variant's notation, on its board.
    pub fn geometry(self) -> crate::notation::Geometry {
        if self.facts().movement.flying_kings {
            crate::notation::Geometry::flying_on(self.topology())
        } else {
            crate::notation::Geometry {
                topology: self.topology(),
                ..crate::notation::Geometry::SHORT
            }
        }
    }

    /// A move as this variant writes it: `21-17` / `13x22`, or `c3-d4` / `c3:e5`
    /// for the algebraic variants.
    pub fn write_move(self, mv: &MoveText) -> String {
        mv.written_on(self.topology())
    }

    /// A move as written in a record, damage and all (`c3:?`, `22x?`), as
    /// this variant writes squares.
    pub fn write_written(self, written: &WrittenMove) -> String {
        written.written_on(self.topology())
    }

    /// A record in the input format, its moves as this variant writes
    /// them.
    pub fn write_record(self, record: &Record) -> String {
        if self.algebraic() {
            record.algebraic()
        } else {
            record.to_string()
        }
    }
}

/// The name of the game a PDN `GameType` number stands for, whether
/// postfacto plays it or not (the PDN standard's list).
pub fn pdn_game_name(number: u32) -> Option<&'static str> {
    Some(match number {
        0 => "chess",
        1 => "Chinese chess",
        20 => "International draughts",
        21 => "English draughts",
        22 => "Italian draughts",
        23 => "American pool checkers",
        24 => "Spanish draughts",
        25 => "Russian draughts",
        26 => "Brazilian draughts",
        27 => "Canadian draughts",
        28 => "Portuguese draughts",
        29 => "Czech draughts",
        30 => "Turkish draughts",
        31 => "Thai draughts",
        40 => "Frisian draughts",
        41 => "Spantsiretti draughts",
        _ => return None,
    })
}

/// The number of move sequences of `depth` plies from `board` with `side`
/// to move (moves as [`Rules::legal_moves`] lists them: captures with the
/// same landings are one move). The standard check of a move generator
/// against published counts.
pub fn perft(rules: &dyn Rules, board: &Board, side: Color, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = rules.legal_moves(board, side);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .filter_map(|mv| rules.play(board, side, mv).ok())
        .map(|next| perft(rules, &next, side.opposite(), depth - 1))
        .sum()
}

/// A reason a board cannot be a start board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the {} on square {square} stands on its crowning row, so it would already be a king", piece.describe())]
pub struct StartProblem {
    /// Where the piece stands.
    pub square: Square,
    /// The offending piece.
    pub piece: Piece,
}

/// A rule broken by a move. Messages name squares by number.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Violation {
    /// The starting square is empty.
    #[error("square {square} is empty, there is no {} piece to move", side.name())]
    NoPiece {
        /// The starting square.
        square: Square,
        /// The side to move.
        side: Color,
    },
    /// The starting square holds the opponent's piece.
    #[error("square {square} holds a {}, but it is {side}'s move", piece.describe())]
    NotYours {
        /// The starting square.
        square: Square,
        /// What stands there.
        piece: Piece,
        /// The side to move.
        side: Color,
    },
    /// A landing square is occupied.
    #[error("square {square} is occupied by a {}, the piece cannot land there", piece.describe())]
    Occupied {
        /// The landing square.
        square: Square,
        /// What stands there.
        piece: Piece,
    },
    /// A man steps or jumps away from its crowning row.
    #[error("a {} man cannot move backwards ({from} to {to})", color.name())]
    ManBackwards {
        /// Step start.
        from: Square,
        /// Step end.
        to: Square,
        /// The man's colour.
        color: Color,
    },
    /// A jump step passes over a square without an enemy piece.
    #[error("square {square} holds no {} piece to jump", enemy.name())]
    NothingToJump {
        /// The jumped square.
        square: Square,
        /// The colour that should be there.
        enemy: Color,
    },
    /// A simple move was made while a capture was available.
    #[error("a capture is available ({example}), so the move must be a capture")]
    CaptureAvailable {
        /// One available capture (its first jump).
        example: MoveText,
    },
    /// A capture stopped although the piece could jump again.
    #[error("the capture must go on: the piece on {at} can still jump {over} to {to}")]
    MustContinue {
        /// Where the piece stopped.
        at: Square,
        /// The piece it could still jump.
        over: Square,
        /// Where it would land.
        to: Square,
    },
    /// A man reached its crowning row mid-capture and kept jumping.
    #[error("the man is crowned on reaching {square} and the move ends there, it cannot jump on")]
    CrownedMidCapture {
        /// The crowning square.
        square: Square,
    },
    /// A man moves or captures further than one square along a diagonal.
    #[error("only a king can go further than one square at a time ({from} to {to})")]
    ManFlies {
        /// Step start.
        from: Square,
        /// Step end.
        to: Square,
    },
    /// A square on the way is not empty.
    #[error("square {square} is in the way from {from} to {to}")]
    Blocked {
        /// The square in the way.
        square: Square,
        /// Step start.
        from: Square,
        /// Step end.
        to: Square,
    },
    /// A piece captured earlier in the same move is jumped again.
    #[error("the piece on {square} was already captured in this move and cannot be jumped again")]
    AlreadyCaptured {
        /// Its square.
        square: Square,
    },
    /// A flying king stopped where it cannot go on, though another landing square would let it.
    #[error("the king must land where it can capture again (e.g. {instead}), not on {landed}")]
    MustLandToContinue {
        /// Where it landed.
        landed: Square,
        /// A landing square from which it could go on.
        instead: Square,
    },
    /// A capture took fewer pieces than another capture could have (majority rule).
    #[error("the capture takes {}, but a capture of {most} is available, and the most must be taken", crate::notation::plural(*taken, "piece"))]
    NotTheMost {
        /// Pieces this capture takes.
        taken: usize,
        /// The most any capture could take.
        most: usize,
    },
    /// A man jumped a king (Italian rules).
    #[error("a man cannot capture a king (the king on {square})")]
    ManTakesKing {
        /// The king's square.
        square: Square,
    },
    /// A capture of the most pieces took fewer kings than another could
    /// (Spanish, Portuguese rules).
    #[error("the capture takes {} among its {}, but a capture of as many pieces takes {most_kings}, and the most kings must be taken", crate::notation::plural(*kings, "king"), crate::notation::plural(*taken, "piece"))]
    NotTheMostKings {
        /// Pieces this capture takes (the most).
        taken: usize,
        /// Kings among them.
        kings: usize,
        /// The most kings a capture of as many pieces takes.
        most_kings: usize,
    },
    /// A capture the order of preference rules out (Italian rules).
    #[error("the rules prefer another capture ({instead}): the most pieces, then by a king, then the most kings, then a king first")]
    NotPreferred {
        /// A capture the order prefers.
        instead: MoveText,
    },
    /// A man captured while a king could capture (Czech rules).
    #[error("a king can capture ({example}), so a king must capture")]
    KingMustCapture {
        /// One capture by a king (its first jump).
        example: MoveText,
    },
    /// No legal move fits a damaged move (a `?`, a capture written short).
    #[error("no legal move fits what is written")]
    NothingFits,
    /// The search for moves that fit the damaged ones gave up: no verdict.
    #[error("undecided: the search for moves that fit the damaged ones stopped after {positions} positions")]
    SearchGaveUp {
        /// Positions visited.
        positions: usize,
    },
    /// What is written is no move on the board at all (a miswritten move).
    #[error("{why}")]
    NoMoveOnTheBoard {
        /// Why (`27 and 22 are not diagonal neighbours`).
        why: String,
    },
    /// The move's squares are not a step or jumps (only for moves built in code).
    #[error("{from} to {to} is not a legal step or jump")]
    BadGeometry {
        /// Step start.
        from: Square,
        /// Step end.
        to: Square,
    },
}
