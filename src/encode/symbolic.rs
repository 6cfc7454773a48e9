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

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

use varisat::Lit;

use crate::board::{Bits, Board, Color, Piece, Role, Square, Topology};

use super::vars::{color_lit, lit, Fact, MAX_VAR_COUNT};

/// A set of squares of an encoded board (bit `i` for index `i`), as wide
/// as the board needs: one word up to 64 squares (every board but
/// 12x12), two for 12x12. The width is a type parameter, not one 128-bit
/// type for all, because 128-bit sets cost the English batch 7.6% of the
/// whole process (`docs/performance.md`).
pub trait SquareSet:
    Copy
    + Eq
    + Debug
    + Default
    + Not<Output = Self>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + Into<Bits>
    + 'static
{
    /// No square.
    const EMPTY: Self;
    /// Every bit, squares or not.
    const FULL: Self;
    /// One [`Content`] per square of the largest board this width holds.
    type Contents: Copy + Debug + AsRef<[Content]> + AsMut<[Content]>;
    /// Every square holding its start content.
    const START: Self::Contents;

    /// The set of the square with index `index`.
    fn of_index(index: usize) -> Self;
    /// The first squares of `bits` (those this width holds).
    fn from_bits(bits: Bits) -> Self;
    /// As a board-wide set.
    fn bits(self) -> Bits;
    /// The first 64 squares (all of them, on a board this width holds).
    fn low(self) -> u64;
    /// Whether `topology`'s board fits this width.
    fn holds_board(topology: Topology) -> bool {
        topology.count() <= std::mem::size_of::<Self>() * 8
            && topology.count() <= Self::START.as_ref().len()
    }
}

impl SquareSet for u64 {
    const EMPTY: u64 = 0;
    const FULL: u64 = u64::MAX;
    // 50: the 10x10 board, the largest up to 64 squares.
    type Contents = [Content; 50];
    const START: [Content; 50] = [Content::Start; 50];

    fn of_index(index: usize) -> u64 {
        1 << (index & 63)
    }
    fn from_bits(bits: Bits) -> u64 {
        bits as u64
    }
    fn bits(self) -> Bits {
        Bits::from(self)
    }
    fn low(self) -> u64 {
        self
    }
}

impl SquareSet for u128 {
    const EMPTY: u128 = 0;
    const FULL: u128 = u128::MAX;
    // 72: the 12x12 board.
    type Contents = [Content; 72];
    const START: [Content; 72] = [Content::Start; 72];

    fn of_index(index: usize) -> u128 {
        1 << (index & 127)
    }
    fn from_bits(bits: Bits) -> u128 {
        bits
    }
    fn bits(self) -> Bits {
        self
    }
    fn low(self) -> u64 {
        self as u64
    }
}

/// The bit of `sq` in a set of squares of an encoded board.
pub fn mask<M: SquareSet>(sq: impl std::borrow::Borrow<Square>) -> M {
    // Not `bit() as M`: a 128-bit shift cut down costs more.
    M::of_index(sq.borrow().index())
}

/// [`mask`] in board-wide sets, as the damaged encoding uses them.
pub fn wide_mask(sq: impl std::borrow::Borrow<Square>) -> Bits {
    mask(sq)
}

/// Every square of `topology`'s (encoded) board.
pub fn all_mask<M: SquareSet>(topology: Topology) -> M {
    M::from_bits(topology.all_bits())
}

/// Start-board facts fixed by unit clauses, per variable and as bitboards.
#[derive(Clone, Debug)]
pub struct KnownFacts<M = Bits> {
    value: [Option<bool>; MAX_VAR_COUNT],
    /// Index `2 * fact + value`: squares where `fact` is known to be `value`
    /// (bit `i` for the square with index `i`).
    squares: [M; 6],
}

impl<M: SquareSet> Default for KnownFacts<M> {
    fn default() -> Self {
        KnownFacts::NONE
    }
}

impl<M: SquareSet> KnownFacts<M> {
    /// Nothing known yet.
    pub const NONE: KnownFacts<M> = KnownFacts {
        value: [None; MAX_VAR_COUNT],
        squares: [M::EMPTY; 6],
    };

    /// The known value of `l`, if any.
    pub fn value_of(&self, l: Lit) -> Option<bool> {
        self.value[l.index()].map(|v| v == l.is_positive())
    }

    /// Records that `l` holds.
    pub fn learn(&mut self, l: Lit) {
        self.value[l.index()] = Some(l.is_positive());
        let bit = M::of_index(l.index() / 3);
        let fact = l.index() % 3;
        self.squares[2 * fact + usize::from(l.is_positive())] |= bit;
    }

    /// The same facts in board-wide sets.
    pub fn widen(&self) -> KnownFacts<Bits> {
        KnownFacts {
            value: self.value,
            squares: self.squares.map(M::bits),
        }
    }

    /// Squares where `fact` is known to be `value`.
    pub fn squares(&self, fact: Fact, value: bool) -> M {
        self.squares[2 * fact as usize + usize::from(value)]
    }

    /// The board of the known facts, *false* wherever nothing is known: a
    /// piece only where one is known to stand, black unless known white, a
    /// man unless known a king. The one exception is a start rule: a man
    /// cannot start on its crowning row, so a piece of known colour known
    /// to stand there is a king. This is the lucky assignment (`crate::sat::lucky`) as a board.
    pub fn lucky_board(&self, topology: Topology) -> Board {
        let mut board = Board::empty_on(topology);
        for square in topology.squares_in(self.squares(Fact::Occupied, true)) {
            board.set(square, Some(self.lucky_piece(square)));
        }
        board
    }

    /// The piece [`KnownFacts::lucky_board`] puts on `square` if one stands there.
    pub fn lucky_piece(&self, square: Square) -> Piece {
        let bit: M = mask(square);
        let known = |fact, value| self.squares(fact, value) & bit != M::EMPTY;
        let color = if known(Fact::White, true) {
            Color::White
        } else {
            Color::Black
        };
        let color_known = known(Fact::White, true) || known(Fact::White, false);
        let crowning = color_known && square.crowns(color);
        let king = known(Fact::King, true) || crowning;
        Piece::new(color, if king { Role::King } else { Role::Man })
    }
}

/// What a square holds at some moment, in terms of the start board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Content {
    /// Whatever the start board had on this square (possibly nothing).
    Start,
    /// Nothing: ply `by` moved the piece away or captured it.
    Emptied {
        /// 1-based ply.
        by: u32,
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
        by: u32,
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
    pub(super) fn and(mut self, other: Conj) -> Conj {
        for &l in other.lits() {
            self.lits[self.len as usize] = l;
            self.len += 1;
        }
        self
    }
}

/// A condition that is either false or a conjunction of literals.
pub type Cond = Option<Conj>;

/// The symbolic board: one [`Content`] per square, plus bitboards (bit `i`
/// for the square with index `i`) of the content kinds, so encoders can rule
/// out most questions with a few word operations.
#[derive(Clone, Debug)]
pub struct SymBoard<M: SquareSet = Bits> {
    topology: Topology,
    squares: M::Contents,
    /// Squares still holding their start content.
    start: M,
    /// Squares a move emptied.
    emptied: M,
    /// Squares holding a moved piece, by colour (black, white).
    moved: [M; 2],
    /// Squares holding a moved piece crowned on the way.
    crowned: M,
}

impl<M: SquareSet> Default for SymBoard<M> {
    fn default() -> Self {
        SymBoard::new(Topology::Eight)
    }
}

impl<M: SquareSet> SymBoard<M> {
    /// The board of `topology` before the first ply: every square holds its start content.
    pub fn new(topology: Topology) -> SymBoard<M> {
        assert!(
            M::holds_board(topology),
            "a board of {} squares in {}-bit sets",
            topology.count(),
            std::mem::size_of::<M>() * 8
        );
        SymBoard {
            topology,
            squares: M::START,
            start: all_mask(topology),
            emptied: M::EMPTY,
            moved: [M::EMPTY; 2],
            crowned: M::EMPTY,
        }
    }

    /// The same board in board-wide sets.
    pub fn widen(&self) -> SymBoard<Bits> {
        let mut wide: SymBoard<Bits> = SymBoard::new(self.topology);
        let count = self.topology.count();
        wide.squares.as_mut()[..count].copy_from_slice(&self.squares.as_ref()[..count]);
        wide.start = self.start.bits();
        wide.emptied = self.emptied.bits();
        wide.moved = self.moved.map(M::bits);
        wide.crowned = self.crowned.bits();
        wide
    }

    /// The board's geometry.
    pub fn topology(&self) -> Topology {
        self.topology
    }

    /// What `sq` holds.
    pub fn get(&self, sq: Square) -> Content {
        self.squares.as_ref()[sq.index()]
    }

    /// Changes what `sq` holds.
    pub fn set(&mut self, sq: Square, content: Content) {
        let bit: M = mask(sq);
        // Only the old content's bitboards hold the bit: clearing just those
        // keeps this to scalar operations (clearing all five tempted the
        // compiler into vector loads right after scalar stores, which stall).
        match std::mem::replace(&mut self.squares.as_mut()[sq.index()], content) {
            Content::Start => self.start &= !bit,
            Content::Emptied { .. } => self.emptied &= !bit,
            Content::Moved { color, .. } => {
                self.moved[color as usize] &= !bit;
                self.crowned &= !bit;
            }
        }
        match content {
            Content::Start => self.start |= bit,
            Content::Emptied { .. } => self.emptied |= bit,
            Content::Moved { color, crowned, .. } => {
                self.moved[color as usize] |= bit;
                if crowned {
                    self.crowned |= bit;
                }
            }
        }
    }

    /// Squares that may hold a piece of `color`, given the start-board facts
    /// already `known` (a superset: [`SymBoard::holds`] decides).
    pub fn may_hold(&self, color: Color, known: &KnownFacts<M>) -> M {
        let other = color.opposite() == Color::White;
        self.start & !known.squares(Fact::Occupied, false) & !known.squares(Fact::White, other)
            | self.moved[color as usize]
    }

    /// Squares that may be empty (a superset: [`SymBoard::is_empty`] decides).
    pub fn may_be_empty(&self, known: &KnownFacts<M>) -> M {
        self.start & !known.squares(Fact::Occupied, true) | self.emptied
    }

    /// Squares whose piece, if any, may be a king (a superset:
    /// [`SymBoard::is_king`] decides).
    pub fn may_be_king(&self, known: &KnownFacts<M>) -> M {
        self.start & !known.squares(Fact::King, false) | self.moved[0] | self.moved[1]
    }

    /// "`sq` is empty".
    pub fn is_empty(&self, sq: Square) -> Cond {
        match self.get(sq) {
            Content::Start => Some(Conj::of(&[lit(sq, Fact::Occupied, false)])),
            Content::Emptied { .. } => Some(Conj::truth()),
            Content::Moved { .. } => None,
        }
    }

    /// "`sq` holds a piece" (of either colour).
    pub fn is_occupied(&self, sq: Square) -> Cond {
        match self.get(sq) {
            Content::Start => Some(Conj::of(&[lit(sq, Fact::Occupied, true)])),
            Content::Emptied { .. } => None,
            Content::Moved { .. } => Some(Conj::truth()),
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

    /// "the piece on `sq` is a man", for a square known to hold a piece.
    pub fn is_man(&self, sq: Square) -> Cond {
        match self.get(sq) {
            Content::Start => Some(Conj::of(&[lit(sq, Fact::King, false)])),
            Content::Emptied { .. } | Content::Moved { crowned: true, .. } => None,
            Content::Moved { origin, .. } => Some(Conj::of(&[lit(origin, Fact::King, false)])),
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
