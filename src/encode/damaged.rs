//! Damaged records (`shared/spec/damaged.md`, `encodings/damaged.md`):
//! plies whose move is partly or wholly unknown.
//!
//! Known plies keep the symbolic replay of the rule set's encoder. At a
//! damaged ply the moves that fit what is written are listed (on the
//! geometry, pruned by what the symbolic board and the unit facts already
//! say). When exactly one fits, it is encoded as if it had been written.
//! Otherwise the record is cut there:
//! - one *choice* variable per fitting move, exactly one of them true;
//! - each move's own rules, written by the same ply encoder, every clause
//!   guarded by its choice;
//! - a fresh block of board variables for the board after the ply, tied to
//!   what each move leaves on each square (guarded by its choice, or once
//!   for squares no move touches);
//! - the plies after it replayed over that block as over a start board.
//!
//! A record with nothing damaged never comes here, so its formula is
//! exactly the one it always had.

use varisat::{Lit, Var};

use crate::board::{Color, Direction, Square, Topology};
use crate::notation::{MovePattern, MoveText, Record, WrittenMove};
use crate::rules::Variant;

use super::emitter::{encode_ply, Contradiction, Emitter, EncodeOptions, Encoded, PlyEncoder};
use super::english::{self, english_encoder};
use super::russian::{self, flying_encoder};
use super::sink::{ClauseSink, Discard, Group, PlyRef, Rule};
use super::symbolic::{Content, KnownFacts, SymBoard};
use super::vars::{self, var_count, Fact};

/// How many moves a damaged ply may list before the encoder gives up.
pub const MAX_CANDIDATES: usize = 20_000;

/// How many steps the search for fitting captures may take per damaged ply.
const MAX_SEARCH_STEPS: usize = 2_000_000;

/// A damaged ply and the moves the formula chooses among.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DamagedPly {
    /// 1-based ply.
    pub ply: usize,
    /// The moves that fit, each with its choice variable (`None` when it
    /// is the only one: then it is encoded as if written).
    pub choices: Vec<(Option<Var>, MoveText)>,
    /// The first variable of the board block after the ply, when the
    /// record is cut there (same layout as the start board's).
    pub board_after: Option<usize>,
}

impl DamagedPly {
    /// The move a model chooses.
    pub fn chosen(&self, model: &[Lit]) -> Option<&MoveText> {
        self.choices.iter().find_map(|(var, mv)| match var {
            None => Some(mv),
            Some(v) => model.contains(&v.positive()).then_some(mv),
        })
    }
}

/// The encoder of one rule set, whichever it is.
enum AnyEncoder<'s, S> {
    English(english::Encoder<'s, S>),
    Flying(russian::Encoder<'s, S>),
}

impl<'s, S: ClauseSink + 's> AnyEncoder<'s, S> {
    fn new(variant: Variant, out: Emitter<'s, S>) -> Self {
        match variant {
            Variant::English => AnyEncoder::English(english_encoder(out)),
            Variant::Russian => AnyEncoder::Flying(flying_encoder(out, false)),
            Variant::Brazilian | Variant::International => {
                AnyEncoder::Flying(flying_encoder(out, true))
            }
        }
    }
}

impl<'s, S: ClauseSink + 's> PlyEncoder<'s, S> for AnyEncoder<'s, S> {
    fn out(&mut self) -> &mut Emitter<'s, S> {
        match self {
            AnyEncoder::English(e) => e.out(),
            AnyEncoder::Flying(e) => e.out(),
        }
    }

    fn ply(&mut self, board: &mut SymBoard, ply: PlyRef<'_>) -> Result<(), Contradiction> {
        match self {
            AnyEncoder::English(e) => e.ply(board, ply),
            AnyEncoder::Flying(e) => e.ply(board, ply),
        }
    }
}

/// A sink over another that moves the board variables (the first
/// `block_size`) to a block starting at `offset`, and adds `¬guard` to
/// every clause when a guard is set. Clauses of the "no capture" rule go
/// under the shared guard instead, once: every simple move of a damaged
/// ply writes the same ones.
struct BlockSink<'a, S> {
    inner: &'a mut S,
    offset: usize,
    block_size: usize,
    guard: Option<Lit>,
    shared: Option<&'a mut SharedRule>,
    in_shared: bool,
    lits: Vec<Lit>,
}

/// The guard of the rules all simple moves of a damaged ply share ("some
/// simple move is chosen"), and the clauses written under it so far.
struct SharedRule {
    guard: Lit,
    seen: std::collections::HashSet<Vec<Lit>>,
    clauses: usize,
}

impl<'a, S: ClauseSink> BlockSink<'a, S> {
    fn new(inner: &'a mut S, offset: usize, block_size: usize, guard: Option<Lit>) -> Self {
        BlockSink {
            inner,
            offset,
            block_size,
            guard,
            shared: None,
            in_shared: false,
            lits: Vec::with_capacity(8),
        }
    }
}

impl<S: ClauseSink> ClauseSink for BlockSink<'_, S> {
    fn begin_group(&mut self, group: &Group<'_>) {
        self.in_shared = self.shared.is_some()
            && matches!(group.rule, Rule::NoCaptureAvailable | Rule::NoJump { .. });
        self.inner.begin_group(group);
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.lits.clear();
        self.lits.extend(clause.iter().map(|&l| {
            if l.index() < self.block_size {
                Var::from_index(l.index() + self.offset).lit(l.is_positive())
            } else {
                l
            }
        }));
        if let (true, Some(shared)) = (self.in_shared, self.shared.as_deref_mut()) {
            self.lits.push(!shared.guard);
            if shared.seen.insert(self.lits.clone()) {
                self.inner.add_clause(&self.lits);
                shared.clauses += 1;
            }
            return;
        }
        if let Some(guard) = self.guard {
            self.lits.push(!guard);
        }
        self.inner.add_clause(&self.lits);
    }

    fn note(&mut self, reason: &str) {
        self.inner.note(reason);
    }
}

/// How pieces move under a rule set, as far as listing the moves that may
/// fit a damaged ply goes. The list is a superset of the legal moves: the
/// ply encoder writes the exact rules for each.
#[derive(Clone, Copy)]
struct Movement {
    /// Kings go any distance.
    flying: bool,
    /// Men capture backwards too.
    men_capture_back: bool,
    /// A man reaching the far row in a capture: ends the move (English),
    /// goes on as a king (Russian), or goes on as a man (majority).
    crowned_mid_capture: MidCapture,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum MidCapture {
    Ends,
    GoesOnAsKing,
    GoesOnAsMan,
}

impl Movement {
    fn of(variant: Variant) -> Movement {
        match variant {
            Variant::English => Movement {
                flying: false,
                men_capture_back: false,
                crowned_mid_capture: MidCapture::Ends,
            },
            Variant::Russian => Movement {
                flying: true,
                men_capture_back: true,
                crowned_mid_capture: MidCapture::GoesOnAsKing,
            },
            Variant::Brazilian | Variant::International => Movement {
                flying: true,
                men_capture_back: true,
                crowned_mid_capture: MidCapture::GoesOnAsMan,
            },
        }
    }
}

/// What a square may hold before a damaged ply, as bitboards.
struct Masks {
    mover: u64,
    king: u64,
    enemy: u64,
    empty: u64,
}

impl Masks {
    fn of(board: &SymBoard, side: Color, known: &KnownFacts) -> Masks {
        let mover = board.may_hold(side, known);
        Masks {
            mover,
            king: mover & board.may_be_king(known),
            enemy: board.may_hold(side.opposite(), known),
            empty: board.may_be_empty(known),
        }
    }
}

/// The listing gave up: too many moves fit.
#[derive(Clone, Debug)]
struct TooMany;

/// Lists the moves of `side` that fit `pattern` and that the board may allow.
struct Lister<'p> {
    pattern: &'p MovePattern,
    movement: Movement,
    side: Color,
    masks: Masks,
    from: Square,
    steps: usize,
    found: Vec<MoveText>,
}

impl Lister<'_> {
    fn list(&mut self, topology: Topology) -> Result<(), TooMany> {
        let starts = match self.pattern.from() {
            Some(square) => square.bit(),
            None => topology.all_bits(),
        } & self.masks.mover;
        for from in topology.squares().filter(|s| starts & s.bit() != 0) {
            self.from = from;
            let king = self.masks.king & from.bit() != 0;
            if self.pattern.allows(false) {
                self.simple_moves(from, king)?;
            }
            if self.pattern.allows(true) {
                let mut path = vec![from];
                self.captures(&mut path, 0, king)?;
            }
        }
        Ok(())
    }

    fn keep(&mut self, path: &[Square], capture: bool) -> Result<(), TooMany> {
        if let Some(mv) = MoveText::along(path.to_vec(), capture) {
            if self.pattern.matches(&mv) {
                if self.found.len() >= MAX_CANDIDATES {
                    return Err(TooMany);
                }
                self.found.push(mv);
            }
        }
        Ok(())
    }

    fn simple_moves(&mut self, from: Square, king: bool) -> Result<(), TooMany> {
        for dir in Direction::ALL {
            if !king && !self.side.is_forward(dir) {
                continue;
            }
            let mut at = from;
            while let Some(next) = at.step(dir) {
                if self.masks.empty & next.bit() == 0 {
                    break;
                }
                self.keep(&[from, next], false)?;
                if !(king && self.movement.flying) {
                    break;
                }
                at = next;
            }
        }
        Ok(())
    }

    /// Whether the written pattern still allows `square` at path position `i`.
    fn fits_at(&self, i: usize, square: Square) -> bool {
        if self.pattern.max_len().is_some_and(|len| i >= len) {
            return false;
        }
        !matches!(self.pattern.exact_square(i), Some(Some(written)) if written != square)
    }

    /// Every capture continuing `path` (its last square is where the
    /// piece stands), `jumped` the pieces taken so far.
    fn captures(&mut self, path: &mut Vec<Square>, jumped: u64, king: bool) -> Result<(), TooMany> {
        self.steps += 1;
        if self.steps > MAX_SEARCH_STEPS {
            return Err(TooMany);
        }
        let at = *path.last().expect("a path has its start");
        let passable = (self.masks.empty | self.from.bit()) & !jumped;
        let enemies = self.masks.enemy & !jumped;
        let long = king && self.movement.flying;
        for dir in Direction::ALL {
            if !king && !self.movement.men_capture_back && !self.side.is_forward(dir) {
                continue;
            }
            let mut scan = at;
            while let Some(over) = scan.step(dir) {
                if enemies & over.bit() != 0 {
                    let mut land = over;
                    while let Some(to) = land.step(dir) {
                        if passable & to.bit() == 0 {
                            break;
                        }
                        if self.fits_at(path.len(), to) {
                            path.push(to);
                            self.keep(path, true)?;
                            let crowned = !king && to.crowns(self.side);
                            let (goes_on, as_king) = match self.movement.crowned_mid_capture {
                                _ if !crowned => (true, king),
                                MidCapture::Ends => (false, false),
                                MidCapture::GoesOnAsKing => (true, true),
                                MidCapture::GoesOnAsMan => (true, false),
                            };
                            if goes_on {
                                self.captures(path, jumped | over.bit(), as_king)?;
                            }
                            path.pop();
                        }
                        if !long {
                            break;
                        }
                        land = to;
                    }
                }
                if !long || passable & over.bit() == 0 {
                    break;
                }
                scan = over;
            }
        }
        Ok(())
    }
}

/// The moves of `side` that fit `pattern` on `board` as far as its contents
/// and the unit facts `known` tell, in a fixed order; `Err` past
/// [`MAX_CANDIDATES`].
fn fitting_moves(
    variant: Variant,
    pattern: &MovePattern,
    side: Color,
    board: &SymBoard,
    known: &KnownFacts,
) -> Result<Vec<MoveText>, TooMany> {
    let mut lister = Lister {
        pattern,
        movement: Movement::of(variant),
        side,
        masks: Masks::of(board, side, known),
        from: board
            .topology()
            .squares()
            .next()
            .expect("a board has squares"),
        steps: 0,
        found: Vec::new(),
    };
    lister.list(board.topology())?;
    Ok(lister.found)
}

/// Encodes a damaged `record` under `variant` into `sink`.
pub(super) fn encode_damaged<S: ClauseSink>(
    variant: Variant,
    record: &Record,
    sink: &mut S,
    options: EncodeOptions,
) -> Result<(Encoded, Vec<DamagedPly>), String> {
    let topology = variant.topology();
    let block = var_count(topology);
    let written = record.written_moves();
    let mut damaged = Vec::new();
    let mut stats = super::EncodeStats::default();
    let mut next_var = block;
    let mut offset = 0;
    let mut first_facts: Option<KnownFacts> = None;
    let mut contradiction = None;
    let mut ply_index = 0;

    // The start board's own rules and facts, then segment after segment.
    'segments: loop {
        let segment_options = EncodeOptions {
            known: super::BoardFacts::none(),
            ..options
        };
        // A stretch of known plies over one block of board variables.
        let mut inner = BlockSink::new(sink, offset, block, None);
        let mut segment = (
            AnyEncoder::new(variant, Emitter::new(&mut inner, segment_options)),
            SymBoard::new(topology),
        );
        if offset == 0 {
            segment.0.out().start_board(topology);
            if let Some(facts) = options.known.start {
                contradiction = segment.0.out().start_facts(&facts);
            }
        }
        while contradiction.is_none() && ply_index < written.len() {
            let number = ply_index + 1;
            let side = record.mover(number);
            let fitting = match &written[ply_index] {
                WrittenMove::Known(mv) => vec![mv.clone()],
                WrittenMove::Pattern(pattern) => {
                    let out = segment.0.out();
                    let listed = fitting_moves(variant, pattern, side, &segment.1, &out.known)
                        .map_err(|TooMany| {
                            format!(
                                "ply {number} ({}): more than {MAX_CANDIDATES} moves fit; write more of it",
                                written[ply_index]
                            )
                        })?;
                    let known = out.known.clone();
                    let viable: Vec<MoveText> = listed
                        .into_iter()
                        .filter(|mv| playable(variant, &segment.1, &known, number, side, mv))
                        .collect();
                    viable
                }
            };
            let is_damaged = written[ply_index].known().is_none();
            match fitting.len() {
                0 => {
                    segment.0.out().empty_clause();
                    contradiction = Some(Contradiction {
                        ply: number,
                        rule: Rule::OneMove {
                            ply: number,
                            candidates: 0,
                        },
                        reason: format!(
                            "no move of {side} fits '{}' on the board the earlier plies leave",
                            written[ply_index]
                        ),
                    });
                }
                1 => {
                    let ply = PlyRef {
                        number,
                        side,
                        text: &fitting[0],
                    };
                    if let Err(c) = encode_ply(&mut segment.0, &mut segment.1, ply) {
                        segment.0.out().empty_clause();
                        contradiction = Some(c);
                    }
                    if is_damaged {
                        damaged.push(DamagedPly {
                            ply: number,
                            choices: vec![(None, fitting[0].clone())],
                            board_after: None,
                        });
                    }
                    ply_index += 1;
                }
                _ => {
                    // Cut here: the segment ends before this ply.
                    let known = segment.0.out().known.clone();
                    let before = std::mem::take(&mut segment.1);
                    add_stats(&mut stats, segment.0.out().stats);
                    if first_facts.is_none() {
                        first_facts = Some(known.clone());
                    }
                    let choices: Vec<(Option<Var>, MoveText)> = fitting
                        .into_iter()
                        .enumerate()
                        .map(|(i, mv)| (Some(Var::from_index(next_var + i)), mv))
                        .collect();
                    next_var += choices.len();
                    let after = next_var;
                    next_var += block;
                    let (choice_stats, aux) = encode_choice(
                        variant, sink, options, &before, &known, offset, after, block, number,
                        side, &choices, next_var,
                    );
                    next_var += aux;
                    add_stats(&mut stats, choice_stats);
                    damaged.push(DamagedPly {
                        ply: number,
                        choices,
                        board_after: Some(after),
                    });
                    offset = after;
                    ply_index += 1;
                    continue 'segments;
                }
            }
        }
        if contradiction.is_none() {
            if let Some(facts) = options.known.end {
                contradiction = segment.0.out().end_facts(&facts, &segment.1, written.len());
                if contradiction.is_some() {
                    segment.0.out().empty_clause();
                }
            }
        }
        add_stats(&mut stats, segment.0.out().stats);
        if first_facts.is_none() {
            first_facts = Some(segment.0.out().known.clone());
        }
        break;
    }
    stats.vars = next_var;
    Ok((
        Encoded {
            stats,
            contradiction,
            facts: first_facts.unwrap_or_default(),
            damaged: Vec::new(),
        },
        damaged,
    ))
}

fn add_stats(total: &mut super::EncodeStats, more: super::EncodeStats) {
    total.clauses += more.clauses;
    total.repeated += more.repeated;
    total.satisfied += more.satisfied;
}

/// Whether `mv` could be ply `number` on `board` as far as the rules'
/// constant conditions and the unit facts `known` say.
fn playable(
    variant: Variant,
    board: &SymBoard,
    known: &KnownFacts,
    number: usize,
    side: Color,
    mv: &MoveText,
) -> bool {
    let mut discard = Discard;
    let mut out = Emitter::new(&mut discard, EncodeOptions::default());
    out.known = known.clone();
    let mut encoder = AnyEncoder::new(variant, out);
    let mut board = board.clone();
    let ply = PlyRef {
        number,
        side,
        text: mv,
    };
    encode_ply(&mut encoder, &mut board, ply).is_ok()
}

/// The clauses of a damaged ply with several fitting moves: exactly one
/// choice, each move's rules under its choice, and the board after it
/// (block at `after`) tied to what the chosen move leaves. Returns the
/// figures and how many auxiliary variables (from `aux_from`) it used.
#[allow(clippy::too_many_arguments)]
fn encode_choice<S: ClauseSink>(
    variant: Variant,
    sink: &mut S,
    options: EncodeOptions,
    before: &SymBoard,
    known: &KnownFacts,
    offset: usize,
    after: usize,
    block: usize,
    number: usize,
    side: Color,
    choices: &[(Option<Var>, MoveText)],
    aux_from: usize,
) -> (super::EncodeStats, usize) {
    let mut stats = super::EncodeStats::default();
    let lits: Vec<Lit> = choices
        .iter()
        .filter_map(|(v, _)| v.map(Var::positive))
        .collect();
    sink.begin_group(&Group {
        ply: None,
        rule: Rule::OneMove {
            ply: number,
            candidates: lits.len(),
        },
    });
    let mut aux = exactly_one(sink, &lits, aux_from, &mut stats);
    // "Some simple move is chosen": the guard of the rules they share.
    let mut shared = SharedRule {
        guard: Var::from_index(aux_from + aux).positive(),
        seen: std::collections::HashSet::new(),
        clauses: 0,
    };
    aux += 1;
    let mut boards_after = Vec::with_capacity(choices.len());
    for (var, mv) in choices {
        let guard = var.map(Var::positive);
        if let (Some(g), false) = (guard, mv.is_capture()) {
            sink.add_clause(&[!g, shared.guard]);
            stats.clauses += 1;
        }
        let mut inner = BlockSink::new(sink, offset, block, guard);
        inner.shared = Some(&mut shared);
        let segment_options = EncodeOptions {
            known: super::BoardFacts::none(),
            ..options
        };
        let mut out = Emitter::new(&mut inner, segment_options);
        if options.simplify {
            out.known = known.clone();
        }
        // What one move's rules imply holds only when it is chosen.
        out.learn = false;
        let mut encoder = AnyEncoder::new(variant, out);
        let mut board = before.clone();
        let ply = PlyRef {
            number,
            side,
            text: mv,
        };
        if encode_ply(&mut encoder, &mut board, ply).is_err() {
            // Only under unsimplified options can a listed move fail here
            // (the listing checked it with simplification): rule it out.
            encoder.out().empty_clause();
        }
        add_stats(&mut stats, encoder.out().stats);
        boards_after.push((guard, board));
    }
    stats.clauses += shared.clauses;
    sink.begin_group(&Group {
        ply: None,
        rule: Rule::BoardAfter { ply: number },
    });
    let mut clause = Vec::with_capacity(4);
    let mut add = |sink: &mut S, lits: &[Lit], guard: Option<Lit>| {
        clause.clear();
        clause.extend_from_slice(lits);
        clause.extend(guard.map(|g| !g));
        sink.add_clause(&clause);
        stats.clauses += 1;
    };
    let shift = |l: Lit, to: usize| Var::from_index(l.index() + to).lit(l.is_positive());
    for square in before.topology().squares() {
        let was_there = before.get(square);
        let touching: Vec<(Option<Lit>, Content)> = boards_after
            .iter()
            .filter(|(_, b)| b.get(square) != was_there)
            .map(|(g, b)| (*g, b.get(square)))
            .collect();
        // The square keeps its content unless a move that changes it is
        // chosen: "touched" is exactly "one of those is chosen".
        let keeps = if touching.is_empty() {
            None
        } else {
            let touched = Var::from_index(aux_from + aux).positive();
            aux += 1;
            let mut long = vec![!touched];
            for (g, _) in &touching {
                let g = g.expect("a cut ply's moves all have choices");
                add(sink, &[!g, touched], None);
                long.push(g);
            }
            add(sink, &long, None);
            Some(!touched)
        };
        let ties = touching.into_iter().chain([(keeps, was_there)]);
        for (guard, content) in ties {
            let next = |fact: Fact, value: bool| shift(vars::lit(square, fact, value), after);
            let was =
                |at: Square, fact: Fact, value: bool| shift(vars::lit(at, fact, value), offset);
            match content {
                Content::Start => {
                    for fact in [Fact::Occupied, Fact::White, Fact::King] {
                        add(sink, &[next(fact, false), was(square, fact, true)], guard);
                        add(sink, &[next(fact, true), was(square, fact, false)], guard);
                    }
                }
                Content::Emptied { .. } => {
                    for fact in [Fact::Occupied, Fact::White, Fact::King] {
                        add(sink, &[next(fact, false)], guard);
                    }
                }
                Content::Moved {
                    origin,
                    color,
                    crowned,
                    ..
                } => {
                    add(sink, &[next(Fact::Occupied, true)], guard);
                    add(sink, &[next(Fact::White, color == Color::White)], guard);
                    if crowned {
                        add(sink, &[next(Fact::King, true)], guard);
                    } else {
                        add(
                            sink,
                            &[next(Fact::King, false), was(origin, Fact::King, true)],
                            guard,
                        );
                        add(
                            sink,
                            &[next(Fact::King, true), was(origin, Fact::King, false)],
                            guard,
                        );
                    }
                }
            }
        }
    }
    (stats, aux)
}

/// Exactly one of `lits`: one clause for "at least one", and pairs for "at
/// most one" up to 8 literals, a sequential counter (`lits.len() - 1`
/// auxiliary variables from `aux_from`) beyond. Returns the auxiliaries used.
fn exactly_one(
    sink: &mut impl ClauseSink,
    lits: &[Lit],
    aux_from: usize,
    stats: &mut super::EncodeStats,
) -> usize {
    sink.add_clause(lits);
    stats.clauses += 1;
    if lits.len() <= 8 {
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                sink.add_clause(&[!a, !b]);
                stats.clauses += 1;
            }
        }
        return 0;
    }
    // s_i: one of lits[..=i] is true.
    let s = |i: usize| Var::from_index(aux_from + i).positive();
    let n = lits.len();
    for (i, &l) in lits[..n - 1].iter().enumerate() {
        sink.add_clause(&[!l, s(i)]);
        if i > 0 {
            sink.add_clause(&[!s(i - 1), s(i)]);
            sink.add_clause(&[!l, !s(i - 1)]);
            stats.clauses += 2;
        }
        stats.clauses += 1;
    }
    sink.add_clause(&[!lits[n - 1], !s(n - 2)]);
    stats.clauses += 1;
    n - 1
}
