//! Where clauses go: a solver, or an annotated formula for DIMACS export.
//!
//! Encoders write through [`ClauseSink`] and never know which, so the DIMACS
//! file `cnf` prints is exactly the formula `solve` hands to varisat.

use std::fmt;

use varisat::{ExtendFormula, Lit};

use crate::board::{Color, Piece, Square};
use crate::notation::MoveText;
use crate::sat::AnnotatedCnf;

/// The ply a group of clauses belongs to.
#[derive(Clone, Copy, Debug)]
pub struct PlyRef<'a> {
    /// 1-based ply number.
    pub number: usize,
    /// The side making it.
    pub side: Color,
    /// The move as written.
    pub text: &'a MoveText,
}

/// The rule a group of clauses states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rule {
    /// An empty start square has no colour and no kind (one model per board).
    EmptyMeansNothing,
    /// No man on its crowning row in the start board.
    NoUncrownedMan,
    /// The moving square holds a piece of the side to move.
    MoverOwns(Square),
    /// The mover is a king (it goes backwards, or jumps on past its crowning row).
    MustBeKing(Square),
    /// A landing square is empty when the piece arrives.
    LandingEmpty(Square),
    /// A jumped square holds an enemy piece.
    JumpsEnemy(Square),
    /// Before a simple move, the side to move has no capture.
    NoCaptureAvailable,
    /// After a capture, the piece cannot jump again from where it stops.
    CaptureEnds(Square),
    /// A square a flying king passes on a simple move is empty.
    PathClear(Square),
    /// Exactly one piece, an enemy, stands between two landings of a capture.
    OneEnemyBetween {
        /// Where the segment starts.
        from: Square,
        /// Where it lands.
        to: Square,
    },
    /// A square two segments of one capture pass over is empty (a captured
    /// piece stays until the move ends and cannot be jumped twice).
    CrossedOnce(Square),
    /// A flying king that stops could not have landed elsewhere on its last
    /// line and gone on capturing.
    NoBetterLanding(Square),
    /// A known square of the start board (`--start-board`, a PDN `[FEN]`).
    StartFact {
        /// The square.
        square: Square,
        /// What stands there.
        piece: Option<Piece>,
    },
    /// A known square of the end board (`--end-board`).
    EndFact {
        /// The square.
        square: Square,
        /// What stands there.
        piece: Option<Piece>,
    },
    /// A damaged ply is exactly one of the moves that fit what is written
    /// (`encodings/damaged.md`).
    OneMove {
        /// 1-based ply.
        ply: usize,
        /// How many moves fit.
        candidates: usize,
    },
    /// After a damaged ply, each square holds what the chosen move left there.
    BoardAfter {
        /// 1-based ply.
        ply: usize,
    },
    /// No capture sequence takes more pieces than the one played (majority rule).
    MostPieces {
        /// Pieces the played capture takes.
        taken: usize,
    },
    /// A capture by a man: no king of the side could capture (Czech).
    KingsCaptureFirst,
    /// Before a simple move, this one jump is not available (fine groups).
    NoJump {
        /// Where the jumping piece would stand.
        from: Square,
        /// The enemy piece it would take.
        over: Square,
        /// Where it would land.
        to: Square,
    },
    /// After a capture, the piece cannot make this one further jump (fine groups).
    CannotJumpOn {
        /// Where the capture stopped.
        from: Square,
        /// The enemy piece it would take.
        over: Square,
        /// Where it would land.
        to: Square,
    },
}

/// "holds a white man", "is empty".
fn holds(piece: Option<Piece>) -> String {
    match piece {
        None => "is empty".to_string(),
        Some(p) => format!("holds a {}", p.describe()),
    }
}

impl Rule {
    /// A fact about the start or end board, not a rule of play.
    pub fn is_fact(&self) -> bool {
        matches!(self, Rule::StartFact { .. } | Rule::EndFact { .. })
    }

    /// A part of the rule before it that only fine groups name (one jump
    /// of "no capture is available"); `cnf` writes it under that rule.
    pub fn is_fine(&self) -> bool {
        matches!(self, Rule::NoJump { .. } | Rule::CannotJumpOn { .. })
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::EmptyMeansNothing => f.write_str("an empty square has no colour and no kind"),
            Rule::NoUncrownedMan => f.write_str("no man stands on its crowning row"),
            Rule::MoverOwns(s) => write!(f, "square {s} holds a piece of the side to move"),
            Rule::MustBeKing(s) => write!(f, "the piece on {s} is a king"),
            Rule::LandingEmpty(s) => write!(f, "landing square {s} is empty"),
            Rule::JumpsEnemy(s) => write!(f, "jumped square {s} holds an enemy piece"),
            Rule::KingsCaptureFirst => {
                f.write_str("if the capturing piece is a man, no king could capture")
            }
            Rule::NoCaptureAvailable => f.write_str("no capture is available"),
            Rule::CaptureEnds(s) => write!(f, "the piece on {s} cannot jump again"),
            Rule::PathClear(s) => write!(f, "square {s} on the king's way is empty"),
            Rule::OneEnemyBetween { from, to } => write!(
                f,
                "exactly one piece stands between {from} and {to}, and it is an enemy"
            ),
            Rule::CrossedOnce(s) => write!(
                f,
                "square {s}, crossed twice in one capture, is empty"
            ),
            Rule::NoBetterLanding(s) => write!(
                f,
                "the king stopping on {s} had no landing on its line from which to capture again"
            ),
            Rule::StartFact { square, piece } => {
                write!(f, "start board square {square} {}", holds(*piece))
            }
            Rule::EndFact { square, piece } => {
                write!(f, "end board square {square} {}", holds(*piece))
            }
            Rule::OneMove { candidates: 0, .. } => {
                f.write_str("one of the moves that fit what is written is played")
            }
            Rule::OneMove { candidates, .. } => write!(
                f,
                "exactly one of the {candidates} moves that fit what is written is played"
            ),
            Rule::BoardAfter { .. } => {
                f.write_str("each square then holds what the chosen move left there")
            }
            Rule::MostPieces { taken } => write!(
                f,
                "no capture takes more than the {taken} pieces this one takes"
            ),
            Rule::NoJump { from, over, to } => write!(
                f,
                "no capture is available: no piece of the side to move jumps {from}x{to} over {over}"
            ),
            Rule::CannotJumpOn { from, over, to } => write!(
                f,
                "the capture ends on {from}: the piece cannot jump on over {over} to {to}"
            ),
        }
    }
}

/// A named group of clauses: a rule, at the start board or at one ply.
#[derive(Clone, Copy, Debug)]
pub struct Group<'a> {
    /// The ply, or `None` for start-board rules.
    pub ply: Option<PlyRef<'a>>,
    /// The rule.
    pub rule: Rule,
}

impl Group<'_> {
    /// "ply 2 B 14-10: rule", the move as its board writes it (`c3:e5`
    /// on the algebraic one).
    pub fn describe(&self) -> String {
        match self.ply {
            None => match self.rule {
                Rule::OneMove { ply, .. } | Rule::BoardAfter { ply } => {
                    format!("ply {ply}: {}", self.rule)
                }
                _ => format!("start board: {}", self.rule),
            },
            Some(p) => {
                format!(
                    "ply {} {} {}: {}",
                    p.number,
                    p.side.letter(),
                    p.text,
                    self.rule
                )
            }
        }
    }
}

impl fmt::Display for Group<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}

/// A consumer of clauses, told which group each belongs to.
pub trait ClauseSink {
    /// The clauses that follow state `group`.
    fn begin_group(&mut self, group: &Group<'_>) {
        let _ = group;
    }

    /// Adds one clause (an empty slice is the empty clause: unsatisfiable).
    fn add_clause(&mut self, clause: &[Lit]);

    /// True when the sink takes no more clauses: encoders stop at once
    /// (their caller then says why; see `encodings/damaged.md`).
    fn is_full(&self) -> bool {
        false
    }

    /// Why the current group cannot hold whatever the start board is, in
    /// words; said just before its empty clause (only when not simplifying).
    fn note(&mut self, reason: &str) {
        let _ = reason;
    }
}

impl ClauseSink for varisat::Solver<'_> {
    fn add_clause(&mut self, clause: &[Lit]) {
        ExtendFormula::add_clause(self, clause);
    }
}

/// A sink that keeps nothing, for encoders run for their unit facts only.
#[derive(Clone, Copy, Debug, Default)]
pub struct Discard;

impl ClauseSink for Discard {
    fn add_clause(&mut self, _clause: &[Lit]) {}
}

impl ClauseSink for varisat::CnfFormula {
    fn add_clause(&mut self, clause: &[Lit]) {
        ExtendFormula::add_clause(self, clause);
    }
}

/// Writes an encoder's clauses into an [`AnnotatedCnf`], each group
/// introduced by its ply and rule, so the DIMACS file reads like the record.
#[derive(Debug)]
pub struct NamedGroups<'a> {
    /// Where the clauses go.
    pub cnf: &'a mut AnnotatedCnf,
}

impl ClauseSink for NamedGroups<'_> {
    fn begin_group(&mut self, group: &Group<'_>) {
        self.cnf.begin_group(group.describe());
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.cnf.add_clause(clause);
    }
}
