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

use std::cell::Cell;

use varisat::{Lit, Var};

use crate::board::{Color, Direction, Square, Topology};
use crate::notation::{MovePattern, MoveText, Record, WrittenMove};
use crate::rules::Variant;

use super::emitter::{encode_ply, Contradiction, Emitter, EncodeOptions, Encoded, PlyEncoder};
use super::english::{self, english_encoder};
use super::russian::{self, flying_encoder, MayHold as Masks};
use super::sink::{ClauseSink, Discard, Group, PlyRef, Rule};
use super::symbolic::{Content, KnownFacts, SymBoard};
use super::vars::{self, var_count, Fact};

/// How many captures a damaged ply may list.
pub const MAX_CANDIDATES: usize = 4_000;

/// How many simple moves a damaged ply may list besides (every king of a
/// 10x10 board flying anywhere is under 2,000).
const MAX_SIMPLE: usize = 5_000;

/// How many steps the search for fitting captures may take per listing.
const MAX_SEARCH_STEPS: usize = 1_000_000;

/// The most clauses a damaged record's formula may have (about 100 MB):
/// beyond, the record is undecided. The majority rule on a 10x10 board
/// whose pieces are all unknown can ask for tens of millions.
const MAX_CLAUSES: usize = 3_000_000;

/// Captures of more jumps than a listing reached are not listed one by one.
const MAX_JUMPS: usize = 24;

/// Under the majority rule, captures of more jumps are not listed once
/// more than [`MANY_MAJORITY_CAPTURES`] fit (see [`fitting_moves`]).
const MAX_MAJORITY_JUMPS: usize = 4;

/// See [`MAX_MAJORITY_JUMPS`].
const MANY_MAJORITY_CAPTURES: usize = 64;

/// A damaged ply and the moves the formula chooses among.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DamagedPly {
    /// 1-based ply.
    pub ply: usize,
    /// The moves that fit, each with its choice variable (`None` when it
    /// is the only one: then it is encoded as if written).
    pub choices: Vec<(Option<Var>, MoveText)>,
    /// When the listing stopped at captures of `.1` jumps (too many fit to
    /// list longer ones), the choice standing for every longer capture: a
    /// relaxation, its board after the ply free (see `encodings/damaged.md`).
    pub longer: Option<(Var, usize)>,
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
    /// Clauses written so far through every block sink of the record.
    written: &'a Cell<usize>,
    offset: usize,
    block_size: usize,
    guard: Option<Lit>,
    shared: Option<&'a mut SharedRules>,
    in_shared: Option<Lit>,
    lits: Vec<Lit>,
}

/// The rules several moves of a damaged ply share (the "no capture" rule
/// of every simple move, the majority rule of every capture of as many
/// pieces), each written once under a guard of its own ("some simple move
/// is chosen"), and the clauses written under them.
struct SharedRules {
    guards: Vec<(Rule, Lit)>,
    seen: std::collections::HashSet<Vec<Lit>>,
    clauses: usize,
}

impl SharedRules {
    /// The rule a move shares with others, if any: its guard and key.
    fn of(&self, mv: &MoveText) -> Option<(Rule, Lit)> {
        let key = if mv.is_capture() {
            Rule::MostPieces {
                taken: mv.landings().len(),
            }
        } else {
            Rule::NoCaptureAvailable
        };
        self.guards.iter().copied().find(|(r, _)| *r == key)
    }

    fn guard_of(&self, rule: Rule) -> Option<Lit> {
        let rule = match rule {
            Rule::NoJump { .. } => Rule::NoCaptureAvailable,
            other => other,
        };
        self.guards
            .iter()
            .find(|(r, _)| *r == rule)
            .map(|(_, g)| *g)
    }
}

impl<'a, S: ClauseSink> BlockSink<'a, S> {
    fn new(
        inner: &'a mut S,
        written: &'a Cell<usize>,
        offset: usize,
        block_size: usize,
        guard: Option<Lit>,
    ) -> Self {
        BlockSink {
            inner,
            written,
            offset,
            block_size,
            guard,
            shared: None,
            in_shared: None,
            lits: Vec::with_capacity(8),
        }
    }
}

impl<S: ClauseSink> ClauseSink for BlockSink<'_, S> {
    fn begin_group(&mut self, group: &Group<'_>) {
        self.in_shared = self.shared.as_ref().and_then(|s| s.guard_of(group.rule));
        self.inner.begin_group(group);
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        // Past the budget the formula is cut short: the encoder sees that
        // and gives up (exit 3) before anything solves it.
        if self.written.get() >= MAX_CLAUSES {
            return;
        }
        self.written.set(self.written.get() + 1);
        self.lits.clear();
        self.lits.extend(clause.iter().map(|&l| {
            if l.index() < self.block_size {
                Var::from_index(l.index() + self.offset).lit(l.is_positive())
            } else {
                l
            }
        }));
        if let (Some(guard), Some(shared)) = (self.in_shared, self.shared.as_deref_mut()) {
            self.lits.push(!guard);
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

    fn is_full(&self) -> bool {
        self.written.get() >= MAX_CLAUSES
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
    /// A jumped piece leaves at once (English), so a later jump may land
    /// where it stood; otherwise it stays until the move ends and blocks.
    removed_at_once: bool,
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
                removed_at_once: true,
            },
            Variant::Russian => Movement {
                flying: true,
                men_capture_back: true,
                crowned_mid_capture: MidCapture::GoesOnAsKing,
                removed_at_once: false,
            },
            Variant::Brazilian | Variant::International => Movement {
                flying: true,
                men_capture_back: true,
                crowned_mid_capture: MidCapture::GoesOnAsMan,
                removed_at_once: false,
            },
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
    /// Most jumps listed; `cut` is set when a capture could have gone on.
    max_jumps: usize,
    cut: bool,
    captures_found: usize,
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
                // Simple moves share their costly rule ("no capture"):
                // only captures count against the budget.
                if capture {
                    self.captures_found += 1;
                }
                if self.captures_found > MAX_CANDIDATES
                    || self.found.len() >= MAX_SIMPLE + MAX_CANDIDATES
                {
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
        let passable = if self.movement.removed_at_once {
            self.masks.empty | self.from.bit() | jumped
        } else {
            (self.masks.empty | self.from.bit()) & !jumped
        };
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
                            if goes_on && path.len() > self.max_jumps {
                                self.cut = true;
                            } else if goes_on {
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

/// The moves that fit a damaged ply, as far as they were listed.
struct Listing {
    moves: Vec<MoveText>,
    /// Captures of more jumps were left out (too many fit).
    longer_than: Option<usize>,
}

/// The moves of `side` that fit `pattern` on `board` as far as its contents
/// and the unit facts `known` tell, in a fixed order. Captures are listed
/// by rising number of jumps while they fit in the budget; `Err` when not
/// even single jumps do.
fn fitting_moves(
    variant: Variant,
    pattern: &MovePattern,
    side: Color,
    board: &SymBoard,
    known: &KnownFacts,
) -> Result<Listing, TooMany> {
    // Under the majority rule a capture of k pieces needs "no capture of
    // k + 1" written over the board, and on a board of unknown pieces the
    // (k + 1)-sequences grow exponentially with k: past a few jumps, when
    // many captures fit already, longer ones go to the `longer` choice.
    let majority = matches!(variant, Variant::Brazilian | Variant::International);
    let mut best: Option<Listing> = None;
    for max_jumps in 1..=MAX_JUMPS {
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
            max_jumps,
            cut: false,
            captures_found: 0,
        };
        match lister.list(board.topology()) {
            Ok(()) if !lister.cut => {
                return Ok(Listing {
                    moves: lister.found,
                    longer_than: None,
                })
            }
            Ok(()) => {
                let many = lister.captures_found > MANY_MAJORITY_CAPTURES;
                best = Some(Listing {
                    moves: lister.found,
                    longer_than: Some(max_jumps),
                });
                if majority && many && max_jumps >= MAX_MAJORITY_JUMPS {
                    break;
                }
            }
            Err(TooMany) => break,
        }
    }
    best.ok_or(TooMany)
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
    let clauses_written = Cell::new(0);
    let too_big = || {
        format!("the formula would have more than {MAX_CLAUSES} clauses; write more of the damaged moves")
    };

    // The start board's own rules and facts, then segment after segment.
    'segments: loop {
        let segment_options = EncodeOptions {
            known: super::BoardFacts::none(),
            ..options
        };
        // A stretch of known plies over one block of board variables.
        let mut inner = BlockSink::new(sink, &clauses_written, offset, block, None);
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
            let (fitting, longer_than) = match &written[ply_index] {
                WrittenMove::Known(mv) => (vec![mv.clone()], None),
                WrittenMove::Pattern(pattern) => {
                    let out = segment.0.out();
                    let listed = fitting_moves(variant, pattern, side, &segment.1, &out.known)
                        .map_err(|TooMany| {
                            format!(
                                "ply {number} ({}): too many moves fit to list them; write more of it",
                                written[ply_index]
                            )
                        })?;
                    let known = out.known.clone();
                    let viable: Vec<MoveText> = listed
                        .moves
                        .into_iter()
                        .filter(|mv| playable(variant, &segment.1, &known, number, side, mv))
                        .collect();
                    (viable, listed.longer_than)
                }
            };
            let is_damaged = written[ply_index].known().is_none();
            // A cut listing always gets a choice of its own.
            let cases = fitting.len() + usize::from(longer_than.is_some()) * 2;
            match cases {
                0 => {
                    let rule = Rule::OneMove {
                        ply: number,
                        candidates: 0,
                    };
                    segment.0.out().group(None, rule);
                    segment.0.out().empty_clause();
                    contradiction = Some(Contradiction {
                        ply: number,
                        rule,
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
                    if clauses_written.get() >= MAX_CLAUSES {
                        return Err(too_big());
                    }
                    if is_damaged {
                        damaged.push(DamagedPly {
                            ply: number,
                            choices: vec![(None, fitting[0].clone())],
                            longer: None,
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
                    let longer = longer_than.map(|jumps| {
                        next_var += 1;
                        (Var::from_index(next_var - 1), jumps)
                    });
                    let after = next_var;
                    next_var += block;
                    let (choice_stats, aux) = encode_choice(
                        variant,
                        sink,
                        &before,
                        &known,
                        Cut {
                            written: &clauses_written,
                            offset,
                            after,
                            block,
                            number,
                            side,
                            longer: longer.map(|(v, _)| v.positive()),
                            options,
                        },
                        &choices,
                        next_var,
                    );
                    next_var += aux;
                    add_stats(&mut stats, choice_stats);
                    if clauses_written.get() >= MAX_CLAUSES {
                        return Err(too_big());
                    }
                    damaged.push(DamagedPly {
                        ply: number,
                        choices,
                        longer,
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
    // Rules shared by many moves are the board's, not the move's: written
    // (and found false, if they are) once for all the moves that share them.
    out.skip_shared = true;
    let mut encoder = AnyEncoder::new(variant, out);
    let mut board = board.clone();
    let ply = PlyRef {
        number,
        side,
        text: mv,
    };
    encode_ply(&mut encoder, &mut board, ply).is_ok()
}

/// Where a record is cut at a damaged ply.
#[derive(Clone, Copy)]
struct Cut<'a> {
    /// Clauses written so far (see [`MAX_CLAUSES`]).
    written: &'a Cell<usize>,
    /// First variable of the board block before the ply.
    offset: usize,
    /// First variable of the board block after it.
    after: usize,
    /// Variables per block.
    block: usize,
    /// 1-based ply.
    number: usize,
    side: Color,
    /// The choice standing for captures longer than those listed.
    longer: Option<Lit>,
    /// How the formula is written.
    options: EncodeOptions,
}

/// The clauses of a damaged ply with several fitting moves: exactly one
/// choice, each move's rules under its choice, and the board after it
/// (block at `after`) tied to what the chosen move leaves. Returns the
/// figures and how many auxiliary variables (from `aux_from`) it used.
fn encode_choice<S: ClauseSink>(
    variant: Variant,
    sink: &mut S,
    before: &SymBoard,
    known: &KnownFacts,
    cut: Cut<'_>,
    choices: &[(Option<Var>, MoveText)],
    aux_from: usize,
) -> (super::EncodeStats, usize) {
    let Cut {
        written,
        offset,
        after,
        block,
        number,
        side,
        longer,
        options,
    } = cut;
    let mut stats = super::EncodeStats::default();
    let lits: Vec<Lit> = choices
        .iter()
        .filter_map(|(v, _)| v.map(Var::positive))
        .chain(longer)
        .collect();
    sink.begin_group(&Group {
        ply: None,
        rule: Rule::OneMove {
            ply: number,
            candidates: lits.len(),
        },
    });
    let mut aux = exactly_one(sink, &lits, aux_from, &mut stats);
    // The guards of the rules moves share: "some simple move is chosen",
    // and under the majority rule "some capture of k pieces is chosen".
    let mut shared = SharedRules {
        guards: Vec::new(),
        seen: std::collections::HashSet::new(),
        clauses: 0,
    };
    for (_, mv) in choices {
        let key = if !mv.is_capture() {
            Rule::NoCaptureAvailable
        } else if Movement::of(variant).crowned_mid_capture == MidCapture::GoesOnAsMan {
            Rule::MostPieces {
                taken: mv.landings().len(),
            }
        } else {
            continue;
        };
        if shared.guard_of(key).is_none() {
            shared
                .guards
                .push((key, Var::from_index(aux_from + aux).positive()));
            aux += 1;
        }
    }
    let mut done: Vec<Rule> = Vec::new();
    let mut boards_after = Vec::with_capacity(choices.len());
    for (var, mv) in choices {
        let guard = var.map(Var::positive);
        let sharing = shared.of(mv);
        if let (Some(g), Some((_, shared_guard))) = (guard, sharing) {
            sink.add_clause(&[!g, shared_guard]);
            stats.clauses += 1;
        }
        let mut inner = BlockSink::new(sink, written, offset, block, guard);
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
        out.shared_done.clone_from(&done);
        let mut encoder = AnyEncoder::new(variant, out);
        let mut board = before.clone();
        let ply = PlyRef {
            number,
            side,
            text: mv,
        };
        let played = encode_ply(&mut encoder, &mut board, ply);
        if played.is_err() {
            // The rule that failed holds no matter the start board: its
            // empty clause, under the group's guard, rules the move out (a
            // shared rule: every move that shares it).
            encoder.out().empty_clause();
        }
        add_stats(&mut stats, encoder.out().stats);
        boards_after.push((guard, board));
        // A shared rule counts as written only once a move got through all
        // its rules (a move that failed earlier may not have reached it).
        if let (Some((rule, _)), Ok(())) = (sharing, played) {
            if !done.contains(&rule) {
                done.push(rule);
            }
        }
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
        // The moves that change the square, grouped by what they leave
        // there: one guard per content ("a move leaving this is chosen"),
        // so each content is tied once however many moves leave it.
        let mut leaving: Vec<(Content, Vec<Lit>)> = Vec::new();
        for (guard, board) in &boards_after {
            let content = board.get(square);
            if content == was_there {
                continue;
            }
            let guard = guard.expect("a cut ply's moves all have choices");
            match leaving.iter_mut().find(|(c, _)| *c == content) {
                Some((_, guards)) => guards.push(guard),
                None => leaving.push((content, vec![guard])),
            }
        }
        let mut touching: Vec<(Option<Lit>, Content)> = Vec::with_capacity(leaving.len());
        for (content, guards) in leaving {
            let guard = match guards[..] {
                [only] => only,
                _ => {
                    let some = Var::from_index(aux_from + aux).positive();
                    aux += 1;
                    let mut any = vec![!some];
                    for &g in &guards {
                        add(sink, &[!g, some], None);
                        any.push(g);
                    }
                    add(sink, &any, None);
                    some
                }
            };
            touching.push((Some(guard), content));
        }
        // The square keeps its content unless a move that changes it is
        // chosen: "touched" is exactly "one of those is chosen".
        // A longer capture than those listed may leave anything anywhere.
        let keeps = if touching.is_empty() && longer.is_none() {
            None
        } else {
            let touched = Var::from_index(aux_from + aux).positive();
            aux += 1;
            let mut long = vec![!touched];
            let guards = touching.iter().filter_map(|(g, _)| *g).chain(longer);
            for g in guards {
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
