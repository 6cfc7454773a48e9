//! The flying-king encoding: the same start-board variables and symbolic
//! replay as the English one (`encodings/russian.md`,
//! `encodings/international.md`, `encodings/variants.md`). The rule set's
//! [`Movement`] says which of the rules below are written.
//!
//! What changes is the rules written over them:
//! - kings fly, so a capture segment has several squares between its
//!   landings, of which exactly one (the solver picks which) holds the enemy
//!   piece taken;
//! - captured pieces stay until the move ends, so every condition during a
//!   capture is evaluated on the board before the move (without the mover);
//! - men capture backwards and a man crowned mid-capture goes on as a king;
//! - a king that stops must have had no landing on its last line from which
//!   it could go on.
//!
//! After a move the board is again known symbolically: every square between
//! two landings is empty (the captured piece is removed, the others were
//! empty), whatever piece the solver chose.
//!
//! Under the majority capture (Brazilian, `encodings/international.md`) the
//! same encoder writes two rules differently: a man passing the far row
//! mid-capture stays a man (so its later long segments need a king from the
//! start, and it is crowned only where the move ends), and instead of the
//! king's landing rule, no capture sequence of the side to move may take
//! more pieces than the one played.
//!
//! Where men capture forwards only (Czech), a backward capture segment
//! needs a king, like a long one. Where a king must capture when a king
//! can (Czech), a capture that may be a man's forbids every king capture
//! on the board before it.

use super::emitter::AlwaysFalse;
use std::sync::OnceLock;

use crate::board::{Bits, Color, Direction, Square, Topology};
use crate::notation::Record;
use crate::rules::{Crowning, Movement, Priority};

use super::emitter::{
    encode_record, ply_number, Contradiction, Emitter, EncodeOptions, Encoded, PlyEncoder,
    COMPLETE_MOST_PIECES_CAP,
};
use super::sink::{ClauseSink, PlyRef, Rule};
use super::symbolic::{mask, Cond, Content, KnownFacts, SquareSet, SymBoard};

/// Squares from `from` (excluded) along `dir`, as far as the board goes.
fn ray(from: Square, dir: Direction) -> impl Iterator<Item = Square> {
    std::iter::successors(from.step(dir), move |s| s.step(dir))
}

/// A capture a piece standing on `from` could make: `gap` empty squares, then
/// the enemy on `over`, then the landing `to` (one of possibly several).
/// A gap above zero needs a king.
#[derive(Clone, Debug)]
struct Capture {
    from: Square,
    dir: Direction,
    gap: Vec<Square>,
    over: Square,
    to: Square,
    /// Bitboard of all its squares, to skip it while none of them changes.
    squares: Bits,
    /// Bitboard of the gap, for the quick filter.
    gap_bits: Bits,
}

/// Bitboards of the squares that may hold what a capture needs, given
/// the contents and the unit facts so far: a quick filter before the exact
/// conditions are built. Damaged plies' domains start from it too.
#[derive(Clone, Copy, Debug)]
pub(super) struct MayHold<M> {
    pub(super) mover: M,
    pub(super) king: M,
    pub(super) enemy: M,
    pub(super) empty: M,
}

impl<M: SquareSet> MayHold<M> {
    pub(super) fn of(board: &SymBoard<M>, side: Color, known: &KnownFacts<M>) -> MayHold<M> {
        let mover = board.may_hold(side, known);
        MayHold {
            mover,
            king: mover & board.may_be_king(known),
            enemy: board.may_hold(side.opposite(), known),
            empty: board.may_be_empty(known),
        }
    }

    fn allows(&self, capture: &Capture, needs_king: bool) -> bool {
        let movers = if !needs_king { self.mover } else { self.king };
        movers & mask(capture.from) != M::EMPTY
            && self.enemy & mask(capture.over) != M::EMPTY
            && self.empty & mask(capture.to) != M::EMPTY
            && M::from_bits(capture.gap_bits) & !self.empty == M::EMPTY
    }
}

/// Every capture geometry on `topology`'s board (first landing only: a king
/// that can land on the first square behind the piece can capture at all).
fn captures(topology: Topology) -> &'static [Capture] {
    static TABLES: [OnceLock<Vec<Capture>>; Topology::ALL.len()] =
        [const { OnceLock::new() }; Topology::ALL.len()];
    TABLES[topology.id()].get_or_init(|| {
        let mut out = Vec::new();
        for from in topology.squares() {
            for dir in Direction::ALL {
                let line: Vec<Square> = ray(from, dir).collect();
                for k in 0..line.len().saturating_sub(1) {
                    let (gap, over, to) = (line[..k].to_vec(), line[k], line[k + 1]);
                    let squares = line[..=k + 1]
                        .iter()
                        .fold(mask::<Bits>(from), |acc, s| acc | mask::<Bits>(s));
                    out.push(Capture {
                        from,
                        dir,
                        gap_bits: gap.iter().fold(0, |acc, s| acc | mask::<Bits>(s)),
                        gap,
                        over,
                        to,
                        squares,
                    });
                }
            }
        }
        out
    })
}

/// A search for the capture sequences of one piece (on `from`) that take
/// `want` pieces, over the board before the move: the piece has left its
/// square, pieces it took stay (and block). Squares are pruned with the
/// quick filter; what is left comes with its exact conditions.
struct Sequence<'b, M: SquareSet> {
    board: &'b SymBoard<M>,
    may: &'b MayHold<M>,
    side: Color,
    from: Square,
    /// Squares (bits) of the pieces taken so far.
    captured: M,
    /// Sequences found so far, and how many the caller wants at most:
    /// the search stops once there are more.
    found: usize,
    limit: usize,
    /// Keep what is found (or only count it).
    keep: bool,
    /// Conditions so far, the piece on `from` being of `side` first.
    conds: Vec<Cond>,
    /// A segment so far went further, or another way, than a man goes.
    needs_king: bool,
    /// Men capture backwards too.
    men_back: bool,
    want: usize,
}

impl<M: SquareSet> Sequence<'_, M> {
    /// "`s` is empty" during the sequence: the piece's own square is.
    fn empty(&self, s: Square) -> Option<Cond> {
        if s == self.from {
            Some(Some(super::symbolic::Conj::truth()))
        } else if self.captured & mask(s) != M::EMPTY || self.may.empty & mask(s) == M::EMPTY {
            None
        } else {
            Some(self.board.is_empty(s))
        }
    }

    /// Every sequence from `at` with `done` pieces taken, completed to
    /// `want`: its conditions and whether it needs a king.
    ///
    /// `skip` is the direction the piece came in when it landed beyond the
    /// first square behind the piece it took: going on that way from there
    /// is the same sequence as landing on that first square and going on
    /// (the same squares empty), so it is left out.
    fn all(&mut self, at: Square, done: usize, skip: Option<Direction>) -> Vec<(Vec<Cond>, bool)> {
        let mut out = Vec::new();
        for dir in Direction::ALL.into_iter().filter(|&d| Some(d) != skip) {
            if self.found > self.limit {
                break;
            }
            let line: Vec<Square> = ray(at, dir).collect();
            let mut gap = 0;
            // Empty squares before the piece to take.
            while gap < line.len() {
                let over = line[gap];
                let (mark, king_before) = (self.conds.len(), self.needs_king);
                if let Some(cond) = self.enemy(over) {
                    self.conds.push(cond);
                    self.needs_king |= gap > 0 || !self.men_back && !self.side.is_forward(dir);
                    self.landings(&line[gap + 1..], over, dir, done, &mut out);
                }
                self.conds.truncate(mark);
                self.needs_king = king_before;
                match self.empty(over) {
                    Some(cond) if cond.is_some() => {
                        self.conds.push(cond);
                        gap += 1;
                    }
                    _ => break,
                }
            }
            self.conds.truncate(self.conds.len() - gap);
        }
        out
    }

    /// "`over` holds an enemy piece not taken yet", if it may.
    fn enemy(&self, over: Square) -> Option<Cond> {
        let fresh = over != self.from && self.captured & mask(over) == M::EMPTY;
        let may = self.may.enemy & mask(over) != M::EMPTY;
        let cond = self.board.holds(over, self.side.opposite());
        (fresh && may && cond.is_some()).then_some(cond)
    }

    /// The landings beyond `over` (`beyond` is the line past it), each
    /// ending the sequence or going on.
    ///
    /// The last piece's landings beyond the first add nothing: a sequence
    /// exists as soon as that first square is empty, so only it is written.
    fn landings(
        &mut self,
        beyond: &[Square],
        over: Square,
        dir: Direction,
        done: usize,
        out: &mut Vec<(Vec<Cond>, bool)>,
    ) {
        let mark = self.conds.len();
        let king_before = self.needs_king;
        self.captured |= mask(over);
        for (k, &to) in beyond.iter().enumerate() {
            match self.empty(to) {
                Some(cond) if cond.is_some() => self.conds.push(cond),
                _ => break,
            }
            self.needs_king = king_before || k > 0;
            if done + 1 == self.want {
                if self.keep {
                    out.push((self.conds.clone(), self.needs_king));
                }
                self.found += 1;
                break;
            }
            if self.found > self.limit {
                break;
            }
            let skip = (k > 0).then_some(dir);
            out.extend(self.all(to, done + 1, skip));
        }
        self.captured &= !mask::<M>(over);
        self.conds.truncate(mark);
        self.needs_king = king_before;
    }
}

/// Encodes `record` under Russian rules into `sink`.
pub fn encode_russian(record: &Record, sink: &mut impl ClauseSink) -> Encoded {
    let russian = Movement::of(crate::rules::Variant::Russian);
    encode_flying_with(record, sink, EncodeOptions::default(), russian)
}

/// Encodes `record` under the flying-king rules `movement` says into
/// `sink`, as `options` say.
pub fn encode_flying_with(
    record: &Record,
    sink: &mut impl ClauseSink,
    options: EncodeOptions,
    movement: Movement,
) -> Encoded {
    let topology = record
        .moves
        .first()
        .map_or(Topology::Eight, |mv| mv.from().topology());
    if u64::holds_board(topology) {
        let mut encoder = flying_encoder::<_, u64>(Emitter::new(sink, options), movement);
        encode_record(record, &mut encoder)
    } else {
        let mut encoder = flying_encoder::<_, u128>(Emitter::new(sink, options), movement);
        encode_record(record, &mut encoder)
    }
}

/// The flying-king ply encoder writing through `out`, for the rules
/// `movement` says.
pub(super) fn flying_encoder<S, M: SquareSet>(
    out: Emitter<'_, S, M>,
    movement: Movement,
) -> Encoder<'_, S, M> {
    Encoder {
        out,
        dirty: [M::FULL; 2],
        movement,
    }
}

/// One segment of a capture: from, to, its direction and the squares
/// between.
type Segment = (Square, Square, Direction, Vec<Square>);

/// What the capturing piece is at some point of its move.
#[derive(Clone, Copy, Debug)]
struct Piece {
    /// A king for sure (crowned on the way, or assumed by the context).
    known_king: bool,
    /// "It started the move as a king", in start-board terms.
    started_king: Cond,
}

pub(super) struct Encoder<'s, S, M: SquareSet> {
    out: Emitter<'s, S, M>,
    /// Per side: squares changed since that side's last "no capture" check.
    dirty: [M; 2],
    /// The rules of the rule set being encoded.
    movement: Movement,
}

impl<S, M: SquareSet> Encoder<'_, S, M> {
    /// The most pieces must be taken. Spanish's next step, the most
    /// kings among them, is left to refinement (`solve::refine`).
    fn majority(&self) -> bool {
        matches!(
            self.movement.priority,
            Priority::MostPieces | Priority::MostPiecesThenKings
        )
    }

    /// Whether a man crowned mid-capture goes on as a king.
    fn crowns_mid_capture(&self) -> bool {
        self.movement.crowning == Crowning::ContinuesAsKing
    }
}

/// Whether `capture` needs a king under `movement`, for a piece of `side`:
/// a long one, or a backward one where men capture forwards only.
fn needs_king(capture: &Capture, side: Color, movement: Movement) -> bool {
    !capture.gap.is_empty() || !movement.man_captures(side, capture.dir)
}

/// The conditions for `capture` by a piece of `side` on `board`, given
/// whether the piece is known to be a king (`king: None` = it is the piece on
/// `capture.from`, a king if the board says so) and whether the capture
/// needs one. `None` if it cannot happen.
fn capture_conds<M: SquareSet>(
    board: &SymBoard<M>,
    side: Color,
    capture: &Capture,
    king: Option<bool>,
    needs_king: bool,
) -> Option<Vec<Cond>> {
    let mut conds = Vec::with_capacity(capture.gap.len() + 4);
    if needs_king {
        match king {
            Some(false) => return None,
            Some(true) => {}
            None => conds.push(board.is_king(capture.from)),
        }
    }
    for &s in &capture.gap {
        conds.push(board.is_empty(s));
    }
    conds.push(board.holds(capture.over, side.opposite()));
    conds.push(board.is_empty(capture.to));
    conds.iter().all(Option::is_some).then_some(conds)
}

impl<'s, S: ClauseSink, M: SquareSet> PlyEncoder<'s, S, M> for Encoder<'s, S, M> {
    fn out(&mut self) -> &mut Emitter<'s, S, M> {
        &mut self.out
    }

    fn ply(&mut self, board: &mut SymBoard<M>, ply: PlyRef<'_>) -> Result<(), Contradiction> {
        let fail = |rule| Contradiction::at(ply, rule);
        let (from, to) = (ply.text.from(), ply.text.to());
        let mover = board.get(from);
        let mut changed = mask::<M>(from) | mask::<M>(to);
        if ply.text.is_capture() {
            changed |= self
                .capture(board, ply, ply.side)
                .map_err(|(rule, why)| fail(rule)(why))?;
        } else {
            self.simple_move(board, ply)
                .map_err(|(rule, why)| fail(rule)(why))?;
        }

        for dirty in &mut self.dirty {
            *dirty |= changed;
        }
        self.played(board, ply, mover, changed);
        Ok(())
    }
}

impl<S: ClauseSink, M: SquareSet> Encoder<'_, S, M> {
    /// A simple move's rules: a king's if it goes further than one step
    /// or backwards, a clear path, an empty landing, and no capture
    /// anywhere for the side to move.
    fn simple_move(
        &mut self,
        board: &SymBoard<M>,
        ply: PlyRef<'_>,
    ) -> Result<(), (Rule, AlwaysFalse)> {
        let side = ply.side;
        let (from, to) = (ply.text.from(), ply.text.to());
        let (dir, distance) = from.diagonal_to(to).expect("parsed moves are diagonal");
        if distance > 1 || !side.is_forward(dir) {
            let rule = Rule::MustBeKing(from);
            self.out.group(Some(ply), rule);
            self.out
                .require(board.is_king(from), || board.describe(from))
                .map_err(|why| (rule, why))?;
        }
        for s in ray(from, dir).take(distance as usize) {
            let rule = if s == to {
                Rule::LandingEmpty(s)
            } else {
                Rule::PathClear(s)
            };
            self.out.group(Some(ply), rule);
            self.out
                .require(board.is_empty(s), || board.describe(s))
                .map_err(|why| (rule, why))?;
        }
        if !self.out.options.units_only && !self.out.written_elsewhere(Rule::NoCaptureAvailable) {
            self.no_capture(board, ply, side)
                .map_err(|why| (Rule::NoCaptureAvailable, why))?;
        }
        Ok(())
    }

    /// The board after `ply`: the squares it `changed` emptied, and its
    /// `mover` (crowned where the move ends; under Russian rules anywhere
    /// on the way) on its landing.
    fn played(&self, board: &mut SymBoard<M>, ply: PlyRef<'_>, mover: Content, changed: M) {
        let (side, mv) = (ply.side, ply.text);
        let (from, to) = (mv.from(), mv.to());
        let ply_no = ply_number(ply);
        let promoted = if !self.crowns_mid_capture() {
            to.crowns(side)
        } else {
            mv.landings().iter().any(|s| s.crowns(side))
        };
        let (origin, crowned) = match mover {
            Content::Moved {
                origin, crowned, ..
            } => (origin, crowned),
            _ => (from, false),
        };
        board.set(from, Content::Emptied { by: ply_no });
        let rest = changed & !mask::<M>(to) & !mask::<M>(from);
        for s in board.topology().squares_in(rest) {
            board.set(s, Content::Emptied { by: ply_no });
        }
        board.set(
            to,
            Content::Moved {
                origin,
                color: side,
                crowned: crowned || promoted,
                by: ply_no,
            },
        );
    }
}

impl<S: ClauseSink, M: SquareSet> Encoder<'_, S, M> {
    /// Before a simple move: no capture anywhere for the side to move.
    fn no_capture(
        &mut self,
        board: &SymBoard<M>,
        ply: PlyRef<'_>,
        side: Color,
    ) -> Result<(), AlwaysFalse> {
        self.out.group(Some(ply), Rule::NoCaptureAvailable);
        let dirty = std::mem::take(&mut self.dirty[side as usize]);
        // By content alone, then also given the unit facts: a capture ruled
        // out only by those has a clause that is already satisfied.
        let open = MayHold::of(board, side, &KnownFacts::NONE);
        let may = MayHold::of(board, side, &self.out.known);
        for capture in captures(board.topology())
            .iter()
            .filter(|c| M::from_bits(c.squares) & dirty != M::EMPTY)
        {
            let needs_king = needs_king(capture, side, self.movement);
            if !may.allows(capture, needs_king) {
                if open.allows(capture, needs_king) {
                    self.out.stats.satisfied += 1;
                }
                continue;
            }
            let Some(mut conds) = capture_conds(board, side, capture, None, needs_king) else {
                continue;
            };
            conds.insert(0, board.holds(capture.from, side));
            if self.out.options.fine_groups {
                let rule = Rule::NoJump {
                    from: capture.from,
                    over: capture.over,
                    to: capture.to,
                };
                self.out.group(Some(ply), rule);
            }
            self.out.forbid(&conds, || {
                format!(
                    "the move is not a capture, but {}x{} is available whatever the start board",
                    capture.from, capture.to
                )
            })?;
        }
        Ok(())
    }

    /// A capture move: its segments, then the rules for where it stops.
    /// Returns the squares it empties (between landings).
    fn capture(
        &mut self,
        before: &SymBoard<M>,
        ply: PlyRef<'_>,
        side: Color,
    ) -> Result<M, (Rule, AlwaysFalse)> {
        let from = ply.text.from();
        // During the move: the mover is in hand, captured pieces stay.
        let mut during = before.clone();
        during.set(from, Content::Emptied { by: 0 });
        let segments: Vec<Segment> = ply
            .text
            .steps()
            .map(|(a, b)| {
                let (dir, n) = a.diagonal_to(b).expect("parsed captures are diagonal");
                (a, b, dir, ray(a, dir).take(n as usize - 1).collect())
            })
            .collect();
        let (crossed, known_king) = self.capture_segments(before, &during, ply, side, &segments)?;
        if self.out.options.units_only {
            return Ok(crossed);
        }
        let piece = Piece {
            known_king,
            started_king: before.is_king(from),
        };
        let boards = (before, &during);
        if self.capture_stops(boards, ply, side, crossed, piece)? {
            // ...and a king had no better landing on its last line.
            let last = segments.last().expect("a capture has a segment");
            self.no_better_landing(&during, ply, side, crossed, (last, piece.started_king))?;
        }
        Ok(crossed)
    }

    /// Each segment of a capture: a man does not fly nor capture backwards
    /// (where its rules say so), one enemy between, an empty landing; then
    /// no square crossed twice. Returns the squares crossed, and whether
    /// the piece is known to be a king at the end (crowned on the way).
    fn capture_segments(
        &mut self,
        before: &SymBoard<M>,
        during: &SymBoard<M>,
        ply: PlyRef<'_>,
        side: Color,
        segments: &[Segment],
    ) -> Result<(M, bool), (Rule, AlwaysFalse)> {
        let from = ply.text.from();
        let started_king = before.is_king(from);
        let mut crossed = M::EMPTY;
        let mut crossed_twice = M::EMPTY;
        let mut king_known = false;
        for (a, b, dir, between) in segments {
            let (a, b) = (*a, *b);
            let backwards = !self.movement.man_captures(side, *dir);
            if (between.len() > 1 || backwards) && !king_known {
                let rule = Rule::MustBeKing(from);
                self.out.group(Some(ply), rule);
                self.out
                    .require(started_king, || {
                        format!("a man cannot fly: {}", before.describe(from))
                    })
                    .map_err(|why| (rule, why))?;
            }
            let rule = Rule::OneEnemyBetween { from: a, to: b };
            self.out.group(Some(ply), rule);
            self.one_enemy(during, side, between)
                .map_err(|why| (rule, why))?;
            for &s in between {
                crossed_twice |= crossed & mask(s);
                crossed |= mask(s);
            }
            let rule = Rule::LandingEmpty(b);
            self.out.group(Some(ply), rule);
            self.out
                .require(during.is_empty(b), || during.describe(b))
                .map_err(|why| (rule, why))?;
            // Russian: crowned on the far row, it goes on as a king.
            king_known |= self.crowns_mid_capture() && b.crowns(side);
        }
        for s in before.topology().squares_in(crossed_twice) {
            let rule = Rule::CrossedOnce(s);
            self.out.group(Some(ply), rule);
            self.out
                .require(during.is_empty(s), || during.describe(s))
                .map_err(|why| (rule, why))?;
        }
        Ok((crossed, king_known))
    }

    /// Where a capture stops: no capture goes on from there, kings first
    /// where the rules say so, and nothing takes more under the majority
    /// rule. Returns whether a king's landing must be checked too.
    fn capture_stops(
        &mut self,
        (before, during): (&SymBoard<M>, &SymBoard<M>),
        ply: PlyRef<'_>,
        side: Color,
        crossed: M,
        piece: Piece,
    ) -> Result<bool, (Rule, AlwaysFalse)> {
        let stop = ply.text.to();
        let rule = Rule::CaptureEnds(stop);
        self.out.group(Some(ply), rule);
        self.cannot_go_on(during, side, stop, crossed, piece, &[])
            .map_err(|why| (rule, why))?;
        if self.movement.priority == Priority::KingFirst {
            let rule = Rule::KingsCaptureFirst;
            self.out.group(Some(ply), rule);
            self.kings_capture_first(before, side, ply.text.from())
                .map_err(|why| (rule, why))?;
        }
        if self.majority() {
            // Instead of the king's landing rule: nothing takes more.
            self.most_pieces(before, ply, side)?;
            return Ok(false);
        }
        Ok(self.movement.king_lands_to_continue)
    }

    /// Under the majority rule: no capture on `before` takes more pieces
    /// than this one; deferred to the end when it cannot be written yet.
    fn most_pieces(
        &mut self,
        before: &SymBoard<M>,
        ply: PlyRef<'_>,
        side: Color,
    ) -> Result<(), (Rule, AlwaysFalse)> {
        let taken = ply.text.landings().len();
        let rule = Rule::MostPieces { taken };
        if self.out.written_elsewhere(rule) {
            return Ok(());
        }
        self.out.group(Some(ply), rule);
        let written = self
            .no_longer_capture(before, side, taken)
            .map_err(|why| (rule, why))?;
        if !written {
            let view = super::PlyView {
                board: before.widen(),
                offset: 0,
                damaged: None,
            };
            let ply = ply.number;
            self.out.deferred.push(super::Deferred { ply, view });
        }
        Ok(())
    }

    /// A king that captures stops, on its last line, where it can go on
    /// if it can anywhere: no landing between the piece taken and the
    /// stop, nor beyond the stop, lets it go on.
    fn no_better_landing(
        &mut self,
        during: &SymBoard<M>,
        ply: PlyRef<'_>,
        side: Color,
        crossed: M,
        ((_, _, dir, between), started_king): (&Segment, Cond),
    ) -> Result<(), (Rule, AlwaysFalse)> {
        let mv = ply.text;
        let stop = mv.to();
        let promoted_before_last = mv.landings()[..mv.landings().len() - 1]
            .iter()
            .any(|s| s.crowns(side));
        // Only a king chooses where to land: the rule holds if it was one.
        let as_king: Vec<Cond> = if promoted_before_last {
            Vec::new()
        } else {
            vec![started_king]
        };
        let king = Piece {
            known_king: true,
            started_king,
        };
        let rule = Rule::NoBetterLanding(stop);
        self.out.group(Some(ply), rule);
        // Landings between the captured piece and the stop: between[k] is one
        // if the piece taken is some between[i] with i < k.
        for k in 1..between.len() {
            for &taken in &between[..k] {
                let mut context = as_king.clone();
                context.push(during.is_occupied(taken));
                self.cannot_go_on(during, side, between[k], crossed, king, &context)
                    .map_err(|why| (rule, why))?;
            }
        }
        // Landings beyond the stop, while the line is empty.
        let mut context = as_king;
        for s in ray(stop, *dir) {
            context.push(during.is_empty(s));
            self.cannot_go_on(during, side, s, crossed, king, &context)
                .map_err(|why| (rule, why))?;
        }
        Ok(())
    }

    /// Under "a king must capture if one can": when the piece on `from` is
    /// a man, no king of `side` has a capture on `before`, the board before
    /// the move.
    fn kings_capture_first(
        &mut self,
        before: &SymBoard<M>,
        side: Color,
        from: Square,
    ) -> Result<(), AlwaysFalse> {
        let Some(man) = before.is_man(from) else {
            return Ok(());
        };
        let may = MayHold::of(before, side, &self.out.known);
        for capture in captures(before.topology()) {
            if capture.from == from || !may.allows(capture, true) {
                continue;
            }
            let Some(mut conds) = capture_conds(before, side, capture, None, true) else {
                continue;
            };
            conds.insert(0, before.holds(capture.from, side));
            conds.insert(0, Some(man));
            self.out.forbid(&conds, || {
                format!(
                    "a man captures, but the king's capture {}x{} is available whatever the start board",
                    capture.from, capture.to
                )
            })?;
        }
        Ok(())
    }

    /// Exactly one square of `between` holds a piece, and it is an enemy.
    fn one_enemy(
        &mut self,
        during: &SymBoard<M>,
        side: Color,
        between: &[Square],
    ) -> Result<(), AlwaysFalse> {
        let describe = || {
            between
                .iter()
                .map(|&s| during.describe(s))
                .collect::<Vec<_>>()
                .join("; ")
        };
        // At least one piece.
        let empties: Vec<Cond> = between.iter().map(|&s| during.is_empty(s)).collect();
        self.out
            .forbid(&empties, || format!("nothing to capture: {}", describe()))?;
        for (i, &s) in between.iter().enumerate() {
            // Not one of ours.
            self.out
                .forbid(&[during.holds(s, side)], || during.describe(s))?;
            // At most one.
            for &t in &between[i + 1..] {
                self.out
                    .forbid(&[during.is_occupied(s), during.is_occupied(t)], || {
                        format!("two pieces in the way: {}", describe())
                    })?;
            }
        }
        Ok(())
    }

    /// The majority rule at a capture of `taken` pieces: no piece of `side`
    /// has a capture sequence of `taken + 1` pieces on `before` (the board
    /// before the move). Every such sequence the contents and the unit facts
    /// leave possible gets one clause forbidding its conditions together.
    ///
    /// Unless the formula must be complete, a rule of more clauses than
    /// the options' budget is not written (false is returned): refinement
    /// learns the few of them a solve needs.
    fn no_longer_capture(
        &mut self,
        before: &SymBoard<M>,
        side: Color,
        taken: usize,
    ) -> Result<bool, AlwaysFalse> {
        let may = MayHold::of(before, side, &self.out.known);
        let complete = self.out.options.complete;
        let limit = if complete {
            COMPLETE_MOST_PIECES_CAP
        } else {
            self.out.options.most_pieces_budget
        };
        let men_back = self.movement.men_capture_backwards;
        let longer = |from, found, keep| Sequence {
            board: before,
            may: &may,
            side,
            from,
            captured: M::EMPTY,
            found,
            limit,
            keep,
            conds: vec![before.holds(from, side)],
            needs_king: false,
            men_back,
            want: taken + 1,
        };
        let origins = || before.topology().squares_in(may.mover);
        // Counted first, keeping nothing: past the cap nothing is written.
        if complete {
            let counted = origins().fold(0, |found, from| {
                let mut walk = longer(from, found, false);
                walk.all(from, 0, None);
                walk.found
            });
            if counted > limit {
                return Ok(false);
            }
        }
        let mut sequences = Vec::new();
        for from in origins() {
            for (mut conds, needs_king) in longer(from, sequences.len(), true).all(from, 0, None) {
                if needs_king {
                    conds.push(before.is_king(from));
                }
                sequences.push((from, conds));
            }
            if sequences.len() > limit {
                return Ok(false);
            }
            if complete {
                // Written as found: a complete rule may be a million clauses.
                self.forbid_longer(sequences.drain(..), taken)?;
            }
        }
        self.forbid_longer(sequences.into_iter(), taken)?;
        Ok(true)
    }

    /// One clause per longer capture sequence (its origin and conditions).
    fn forbid_longer(
        &mut self,
        sequences: impl Iterator<Item = (Square, Vec<Cond>)>,
        taken: usize,
    ) -> Result<(), AlwaysFalse> {
        for (from, conds) in sequences {
            self.out.forbid(&conds, || {
                format!(
                    "a capture of {} pieces from {from} is available whatever the start board, and it takes only {taken}",
                    taken + 1
                )
            })?;
        }
        Ok(())
    }

    /// Forbids a further capture from `at` (on the board during the move,
    /// where the pieces on `crossed` squares are taken or absent) whenever
    /// `context` holds.
    fn cannot_go_on(
        &mut self,
        during: &SymBoard<M>,
        side: Color,
        at: Square,
        crossed: M,
        piece: Piece,
        context: &[Cond],
    ) -> Result<(), AlwaysFalse> {
        for capture in captures(during.topology()).iter().filter(|c| c.from == at) {
            // A piece taken in this move cannot be taken again.
            if crossed & mask(capture.over) != M::EMPTY {
                continue;
            }
            let mut conds = context.to_vec();
            if needs_king(capture, side, self.movement) && !piece.known_king {
                conds.push(piece.started_king);
            }
            for &s in &capture.gap {
                conds.push(during.is_empty(s));
            }
            conds.push(during.holds(capture.over, side.opposite()));
            conds.push(during.is_empty(capture.to));
            self.out.forbid(&conds, || {
                format!(
                    "the capture stops on {at}, but it could go on over {} to {} whatever the start board",
                    capture.over, capture.to
                )
            })?;
        }
        Ok(())
    }
}
