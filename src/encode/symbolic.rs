//! Symbolic replay: what each square holds after each ply, in terms of the
//! unknown start board.
//!
//! English moves are deterministic once the start board is known, and which
//! squares they empty and fill does not even depend on it. So after any ply a
//! square holds one of three things: whatever the start board had there (its
//! own variables), nothing (a move emptied it), or the piece some move brought
//! there (colour known, king if crowned or if it started as a king). Every
//! question the rules ask about a square is then a conjunction of at most three
//! start-board literals, or a constant.

use varisat::Lit;

use crate::board::{Color, Square};

use super::vars::{color_lit, lit, Fact};

/// What a square holds at some moment, in terms of the start board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Content {
    /// Whatever the start board had on this square (possibly nothing).
    Start,
    /// Nothing: ply `by` moved the piece away or captured it.
    Emptied {
        /// 1-based ply.
        by: usize,
    },
    /// A piece that ply `by` brought here.
    Moved {
        /// The start square the piece came from (its kind is that square's).
        origin: Square,
        /// Its colour (the side that moved it).
        color: Color,
        /// Crowned on the way, so a king whatever it started as.
        crowned: bool,
        /// 1-based ply that moved it here.
        by: usize,
    },
}

/// A conjunction of up to three literals; the empty one is true.
#[derive(Clone, Copy, Debug)]
pub struct Conj {
    lits: [Lit; 3],
    len: u8,
}

impl Conj {
    /// The constant true.
    pub fn truth() -> Conj {
        Conj {
            lits: [Lit::from_code(0); 3],
            len: 0,
        }
    }

    fn of(lits: &[Lit]) -> Conj {
        let mut conj = Conj::truth();
        for &l in lits {
            conj.lits[conj.len as usize] = l;
            conj.len += 1;
        }
        conj
    }

    /// The literals (all must hold).
    pub fn lits(&self) -> &[Lit] {
        &self.lits[..self.len as usize]
    }

    /// `self` and `other`, if they fit in three literals.
    fn and(mut self, other: Conj) -> Conj {
        for &l in other.lits() {
            self.lits[self.len as usize] = l;
            self.len += 1;
        }
        self
    }
}

/// A condition that is either false or a conjunction of literals.
pub type Cond = Option<Conj>;

/// The symbolic board: one [`Content`] per square.
#[derive(Clone, Debug)]
pub struct SymBoard {
    squares: [Content; Square::COUNT],
}

impl Default for SymBoard {
    fn default() -> Self {
        SymBoard {
            squares: [Content::Start; Square::COUNT],
        }
    }
}

impl SymBoard {
    /// What `sq` holds.
    pub fn get(&self, sq: Square) -> Content {
        self.squares[sq.index()]
    }

    /// Changes what `sq` holds.
    pub fn set(&mut self, sq: Square, content: Content) {
        self.squares[sq.index()] = content;
    }

    /// "`sq` is empty".
    pub fn is_empty(&self, sq: Square) -> Cond {
        match self.get(sq) {
            Content::Start => Some(Conj::of(&[lit(sq, Fact::Occupied, false)])),
            Content::Emptied { .. } => Some(Conj::truth()),
            Content::Moved { .. } => None,
        }
    }

    /// "`sq` holds a piece of `color`".
    pub fn holds(&self, sq: Square, color: Color) -> Cond {
        match self.get(sq) {
            Content::Start => Some(Conj::of(&[
                lit(sq, Fact::Occupied, true),
                color_lit(sq, color),
            ])),
            Content::Emptied { .. } => None,
            Content::Moved { color: c, .. } => (c == color).then_some(Conj::truth()),
        }
    }

    /// "the piece on `sq` is a king", for a square already known to hold a piece.
    pub fn is_king(&self, sq: Square) -> Cond {
        match self.get(sq) {
            Content::Start => Some(Conj::of(&[lit(sq, Fact::King, true)])),
            Content::Emptied { .. } => None,
            Content::Moved { crowned: true, .. } => Some(Conj::truth()),
            Content::Moved { origin, .. } => Some(Conj::of(&[lit(origin, Fact::King, true)])),
        }
    }

    /// "`sq` holds a piece of `color` that may go in a direction": forward
    /// directions need any piece, backward ones a king.
    pub fn holds_mover(&self, sq: Square, color: Color, forward: bool) -> Cond {
        let owner = self.holds(sq, color)?;
        if forward {
            Some(owner)
        } else {
            Some(owner.and(self.is_king(sq)?))
        }
    }

    /// Words for what `sq` holds, for explanations.
    pub fn describe(&self, sq: Square) -> String {
        match self.get(sq) {
            Content::Start => format!("square {sq} holds what the start board put there"),
            Content::Emptied { by } => format!("square {sq} was emptied by ply {by}"),
            Content::Moved { color, by, .. } => {
                format!(
                    "square {sq} holds the {} piece that ply {by} moved there",
                    color.name()
                )
            }
        }
    }
}
