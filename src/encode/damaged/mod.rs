//! Damaged records (`shared/spec/damaged.md`, `encodings/damaged.md`):
//! plies whose move is partly or wholly unknown.
//!
//! Known plies keep the symbolic replay of the rule set's encoder, over a
//! block of board variables. At a damaged ply the record is cut: the move
//! is written as variables (`moves`: where it starts, each capture step's
//! landing and piece taken), the board after it is a fresh block tied to
//! the board before by the frame axiom (`frame`), and the plies after it
//! are replayed over that block. What each part of the move may be is
//! worked out first (`domains`), so a damaged ply on a board the earlier
//! plies already determine costs little.
//!
//! The rules that range over every other move on the board (compulsory
//! capture, going on, the most pieces, the king's landing) are not written
//! for damaged plies: the solver adds them when the replayer finds one
//! broken ([`crate::solve`]), each as a clause the rules imply.
//!
//! A record with nothing damaged never comes here, so its formula is
//! exactly the one it always had.

mod domains;
mod frame;
mod moves;
mod summary;

pub use moves::{MoveVars, SquareLits, StepVars};

use crate::board::{Bits, Color, Topology};
use crate::notation::{MovePattern, MoveText, Record, WrittenMove};
use crate::rules::{Movement, Variant};

use super::emitter::{encode_ply, Contradiction, Emitter, EncodeOptions, Encoded, PlyEncoder};
use super::english::{self, english_encoder};
use super::flying::{self, flying_encoder};
use super::gadgets::{VarMap, Writer};
use super::sink::{ClauseSink, Group, PlyRef, Rule};
use super::symbolic::{KnownFacts, SymBoard};
use super::vars::var_count;
use super::OutOfTime;

/// The board before one ply of a damaged record, in terms of variables.
#[derive(Clone, Debug)]
pub struct PlyView {
    /// What each square holds before the ply.
    pub board: SymBoard,
    /// The first variable of the block the board's contents refer to.
    pub offset: usize,
    /// The damaged ply's move variables (index into [`Layout::moves`]).
    pub damaged: Option<usize>,
}

impl PlyView {
    fn before(&self) -> moves::Before<'_> {
        moves::Before {
            board: &self.board,
            offset: self.offset,
        }
    }

    /// `fact` of `square` before the ply: a constant, or a variable.
    pub fn fact(&self, square: crate::board::Square, fact: super::vars::Fact) -> super::Term {
        self.before().fact(square, fact)
    }

    /// "`square` is empty before the ply".
    pub fn empty(&self, square: crate::board::Square) -> super::Term {
        self.before().empty(square)
    }

    /// "`square` holds a piece of `color` before the ply", as two terms.
    pub fn holds(&self, square: crate::board::Square, color: Color) -> [super::Term; 2] {
        self.before().holds(square, color)
    }
}

/// What the encoding of a damaged record says of its variables: to read
/// a model's moves back, to add the rules the replayer finds broken, and
/// to write the capture steps left for later.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// One view per ply encoded, in order.
    pub views: Vec<PlyView>,
    /// The damaged plies' moves.
    pub moves: Vec<MoveVars>,
    /// Every variable beyond the start board, with names when asked for.
    pub vars: VarMap,
    /// Per damaged ply (as `moves`): what its later steps are written from.
    specs: Vec<MoveSpec>,
    /// A solve loop is to write the eager compulsory-capture clauses
    /// (the solve path asks; `cnf` and proofs do not, so their formulas
    /// stay what they were).
    eager_wanted: bool,
    /// The eager compulsory-capture clauses were handed to a solver.
    eager_written: bool,
}

/// What a damaged ply's move may be.
#[derive(Clone, Debug)]
struct MoveSpec {
    pattern: MovePattern,
    movement: Movement,
    domains: domains::Domains,
    /// The move's summary (`summary.rs`) is to be written when its steps
    /// are first deepened (a solve's formula, where kings fly).
    summary_wanted: bool,
}

impl Layout {
    /// The moves a model plays at the damaged plies, by ply (1-based).
    pub fn decode(&self, model: &[varisat::Lit], topology: Topology) -> Vec<(usize, MoveText)> {
        let truth = truth_of(model);
        self.moves
            .iter()
            .filter_map(|mv| Some((mv.ply, mv.decode(&truth, topology)?)))
            .collect()
    }

    /// Asks the solve loop to write the eager clauses of the damaged plies
    /// (`Refiner::eager_clauses`) before its first solve.
    pub fn want_eager(&mut self) {
        self.eager_wanted = true;
    }

    /// True the first time only, once asked: a solve loop writes the eager
    /// clauses once, however often it is entered.
    pub fn take_eager(&mut self) -> bool {
        self.eager_wanted && !std::mem::replace(&mut self.eager_written, true)
    }

    /// The assumptions under which every move keeps to the capture steps
    /// written: "it does not go on past them" (see [`MoveVars::more`]).
    pub fn limits(&self) -> Vec<varisat::Lit> {
        self.moves
            .iter()
            .filter_map(|mv| mv.more.map(|l| !l))
            .collect()
    }

    /// The damaged ply whose limit is `lit` (one of [`Layout::limits`]).
    pub fn limited_ply(&self, lit: varisat::Lit) -> Option<usize> {
        self.moves
            .iter()
            .find(|mv| mv.more == Some(!lit))
            .map(|mv| mv.ply)
    }

    /// Ply `ply` is a damaged ply written as a lone `?` (any move).
    pub fn is_lone_unknown(&self, ply: usize) -> bool {
        self.moves
            .iter()
            .position(|m| m.ply == ply)
            .is_some_and(|index| matches!(self.specs[index].pattern, MovePattern::Unknown))
    }

    /// Writes the capture steps of ply `ply` up to `depth` into `sink`, new
    /// variables from `first_free` on (or after the layout's own, if
    /// later); false when there was nothing left to write.
    pub fn deepen(
        &mut self,
        ply: usize,
        depth: usize,
        first_free: usize,
        sink: &mut impl ClauseSink,
    ) -> bool {
        let Some(index) = self.moves.iter().position(|m| m.ply == ply) else {
            return false;
        };
        let mv = &mut self.moves[index];
        if mv.more.is_none() || depth <= mv.steps.len() {
            return false;
        }
        let spec = &self.specs[index];
        let input = moves::MoveInput {
            ply,
            side: mv.side,
            pattern: &spec.pattern,
            movement: spec.movement,
            domains: &spec.domains,
            before: self.views[ply - 1].before(),
        };
        self.vars.skip_to(first_free);
        let mut out = Writer::new(sink);
        // Written at a move's first deepening: only a move whose steps ran
        // short of the capture it needs pays for its summary.
        if spec.summary_wanted && !mv.summarised {
            summary::summary(&mut out, &mut self.vars, &input, mv);
        }
        moves::grow(&mut out, &mut self.vars, &input, mv, depth);
        true
    }
}

/// How many capture steps of a damaged ply's move are written at first
/// when the rest may wait: those of the shortest capture that may end.
fn first_depth(domains: &domains::Domains) -> usize {
    domains
        .steps
        .iter()
        .position(|s| s.lands & domains.ends != 0)
        .map_or(domains.steps.len(), |k| k + 1)
}

/// One flag per variable, from a model given as literals.
pub fn truth_of(model: &[varisat::Lit]) -> Vec<bool> {
    let mut truth = vec![false; model.iter().map(|l| l.index() + 1).max().unwrap_or(0)];
    for l in model {
        truth[l.index()] = l.is_positive();
    }
    truth
}

/// The encoder of one rule set, whichever it is.
enum AnyEncoder<'s, S> {
    English(english::Encoder<'s, S, Bits>),
    Flying(flying::Encoder<'s, S, Bits>),
}

impl<'s, S: ClauseSink + 's> AnyEncoder<'s, S> {
    fn new(variant: Variant, out: Emitter<'s, S, Bits>) -> Self {
        let movement = variant.facts().movement;
        if movement.flying_kings {
            AnyEncoder::Flying(flying_encoder(out, movement))
        } else {
            AnyEncoder::English(english_encoder(out, movement))
        }
    }
}

impl<'s, S: ClauseSink + 's> PlyEncoder<'s, S, Bits> for AnyEncoder<'s, S> {
    fn out(&mut self) -> &mut Emitter<'s, S, Bits> {
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
/// `block_size`) to the block starting at `offset`.
struct Shifted<'a, S> {
    inner: &'a mut S,
    offset: usize,
    block_size: usize,
    lits: Vec<varisat::Lit>,
}

impl<S: ClauseSink> ClauseSink for Shifted<'_, S> {
    fn begin_group(&mut self, group: &Group<'_>) {
        self.inner.begin_group(group);
    }

    fn add_clause(&mut self, clause: &[varisat::Lit]) {
        self.lits.clear();
        self.lits.extend(clause.iter().map(|&l| {
            if l.index() < self.block_size {
                varisat::Var::from_index(l.index() + self.offset).lit(l.is_positive())
            } else {
                l
            }
        }));
        self.inner.add_clause(&self.lits);
    }

    fn note(&mut self, reason: &str) {
        self.inner.note(reason);
    }
}

/// The known plies from `from` on, encoded over the block at `offset`
/// until the next damaged ply (its index is returned) or the end.
struct Run<'r> {
    record: &'r Record,
    written: &'r [WrittenMove],
    variant: Variant,
    options: EncodeOptions,
    /// Whether to stop at the deadline in force on this thread.
    watch: bool,
}

/// Where a stretch of known plies stops.
enum Stop {
    /// At a damaged ply (its 0-based index), with the board and facts before it.
    Damaged(usize, Box<(SymBoard, KnownFacts)>),
    /// At the end of the record.
    End,
    /// A ply cannot be played whatever the board.
    Contradiction(Contradiction),
    /// The deadline passed before this ply was encoded.
    OutOfTime(OutOfTime),
}

impl Run<'_> {
    /// Encodes plies `from..` over the block at `offset` (the start board's
    /// rules and facts first when it is the start block), with `known`.
    fn segment<S: ClauseSink>(
        &self,
        sink: &mut S,
        offset: usize,
        from: usize,
        known: KnownFacts,
        layout: &mut Layout,
        stats: &mut super::EncodeStats,
    ) -> Stop {
        let topology = self.variant.topology();
        let mut shifted = Shifted {
            inner: sink,
            offset,
            block_size: var_count(topology),
            lits: Vec::with_capacity(8),
        };
        let options = EncodeOptions {
            known: super::BoardFacts::none(),
            ..self.options
        };
        let mut out = Emitter::new(&mut shifted, options);
        out.known = known;
        let mut encoder = AnyEncoder::new(self.variant, out);
        let mut board = SymBoard::new(topology);
        let mut stop = (offset == 0)
            .then(|| self.start_block(&mut encoder))
            .flatten();
        let mut index = from;
        while stop.is_none() {
            if let Err(late) = self.in_time(index + 1) {
                add_stats(stats, encoder.out().stats);
                return Stop::OutOfTime(late);
            }
            let Some(written) = self.written.get(index) else {
                stop = self.end_facts(&mut encoder, &board);
                break;
            };
            let WrittenMove::Known(mv) = written else {
                let known = encoder.out().known.clone();
                add_stats(stats, encoder.out().stats);
                return Stop::Damaged(index, Box::new((board, known)));
            };
            layout.views.push(PlyView {
                board: board.clone(),
                offset,
                damaged: None,
            });
            let ply = PlyRef {
                number: index + 1,
                side: self.record.mover(index + 1),
                text: mv,
            };
            if let Err(c) = encode_ply(&mut encoder, &mut board, ply) {
                encoder.out().empty_clause();
                stop = Some(c);
            }
            index += 1;
        }
        add_stats(stats, encoder.out().stats);
        stop.map_or(Stop::End, Stop::Contradiction)
    }

    /// `Err` when the encoder watches the clock and the deadline in force
    /// has passed: an encoding of many damaged plies takes seconds, and a
    /// caller with a limit must get its thread back (issue 43).
    fn in_time(&self, ply: usize) -> Result<(), OutOfTime> {
        if self.watch && crate::sat::out_of_time() {
            return Err(OutOfTime { ply });
        }
        Ok(())
    }

    /// The start board's rules and what is known of it: a fact that
    /// cannot hold stops the record there.
    fn start_block<'s, S: ClauseSink + 's>(
        &self,
        encoder: &mut AnyEncoder<'s, S>,
    ) -> Option<Contradiction> {
        encoder.out().start_board(self.variant.topology());
        let facts = self.options.known.start?;
        encoder.out().start_facts(&facts)
    }

    /// The end board's facts over the last stretch's board.
    fn end_facts<'s, S: ClauseSink + 's>(
        &self,
        encoder: &mut AnyEncoder<'s, S>,
        board: &SymBoard,
    ) -> Option<Contradiction> {
        let facts = self.options.known.end?;
        let contradiction = encoder.out().end_facts(&facts, board, self.written.len());
        if contradiction.is_some() {
            encoder.out().empty_clause();
        }
        contradiction
    }
}

fn add_stats(total: &mut super::EncodeStats, more: super::EncodeStats) {
    total.clauses += more.clauses;
    total.repeated += more.repeated;
    total.satisfied += more.satisfied;
}

/// Encodes a damaged `record` under `variant` into `sink`; variables named
/// when `options.named` (for `postfacto cnf`). When `watch`, it stops at
/// the deadline in force on this thread ([`crate::sat::under`]) with
/// [`OutOfTime`], the clauses written so far a part of the formula.
pub(super) fn encode_damaged<S: ClauseSink>(
    variant: Variant,
    record: &Record,
    sink: &mut S,
    options: EncodeOptions,
    watch: bool,
) -> Result<(Encoded, Layout), OutOfTime> {
    let topology = variant.topology();
    let block = var_count(topology);
    let written = record.written_moves();
    let run = Run {
        record,
        written: &written,
        variant,
        options,
        watch,
    };
    let mut layout = Layout {
        vars: VarMap::new(block, options.named),
        ..Layout::default()
    };
    let mut stats = super::EncodeStats::default();
    let (mut offset, mut from) = (0, 0);
    let mut known = KnownFacts::default();
    let mut first_facts = None;
    let contradiction = loop {
        match run.segment(sink, offset, from, known, &mut layout, &mut stats) {
            Stop::End => break None,
            Stop::Contradiction(c) => break Some(c),
            Stop::OutOfTime(late) => return Err(late),
            Stop::Damaged(index, before) => {
                let (board, facts) = *before;
                first_facts.get_or_insert_with(|| facts.clone());
                let cut = cut(&run, sink, &mut layout, index, (board, facts, offset))?;
                stats.clauses += cut.clauses;
                match cut.after {
                    Ok((after, facts)) => (offset, from, known) = (after, index + 1, facts),
                    Err(c) => break Some(c),
                }
            }
        }
    };
    stats.vars = layout.vars.count();
    let encoded = Encoded {
        stats,
        contradiction,
        facts: first_facts.unwrap_or_default(),
        layout: None,
        // Every ply has its view in the layout: refinement finds the
        // board before a deferred ply there.
        deferred: Vec::new(),
    };
    Ok((encoded, layout))
}

/// What a cut at a damaged ply gives: the block after it and what is known
/// there, or why no move fits; and the clauses written.
struct Cut {
    after: Result<(usize, KnownFacts), Contradiction>,
    clauses: usize,
}

/// The damaged ply `index`: its move's variables and rules, and the board
/// after it. `before` is the board, the unit facts and the block before.
/// Its domains and its move's clauses may take long: the clock is looked
/// at between them.
fn cut<S: ClauseSink>(
    run: &Run<'_>,
    sink: &mut S,
    layout: &mut Layout,
    index: usize,
    before: (SymBoard, KnownFacts, usize),
) -> Result<Cut, OutOfTime> {
    let (board, known, offset) = before;
    let (number, side) = (index + 1, run.record.mover(index + 1));
    let topology = run.variant.topology();
    let WrittenMove::Pattern(pattern) = &run.written[index] else {
        unreachable!("a cut is made at a damaged ply");
    };
    let movement = Movement::of(run.variant);
    let masks = flying::MayHold::of(&board, side, &known);
    let in_time = || run.in_time(number).is_ok();
    let domains = domains::domains(pattern, side, masks, movement, topology, &in_time);
    run.in_time(number)?;
    let mut out = Writer::new(sink);
    let rule = Rule::OneMove {
        ply: number,
        candidates: 0,
    };
    out.sink().begin_group(&Group { ply: None, rule });
    if domains.origins == 0 || domains.simple.is_empty() && domains.steps.is_empty() {
        out.clause([]);
        let reason = nothing_fits(side, &run.written[index]);
        return Ok(Cut {
            after: Err(Contradiction {
                ply: number,
                rule,
                reason,
            }),
            clauses: out.clauses,
        });
    }
    let input = moves::MoveInput {
        ply: number,
        side,
        pattern,
        movement,
        domains: &domains,
        before: moves::Before {
            board: &board,
            offset,
        },
    };
    let (mv, after, known_after) = write_move(run, &mut out, &mut layout.vars, &input, &known)?;
    let spec = MoveSpec {
        pattern: pattern.clone(),
        movement,
        summary_wanted: !run.options.complete && movement.flying_kings,
        domains,
    };
    layout.push_damaged(board, offset, mv, spec);
    Ok(Cut {
        after: Ok((after, known_after)),
        clauses: out.clauses,
    })
}

impl Layout {
    /// Keeps what a cut wrote at a damaged ply: the board before it (a
    /// view of the block at `offset`), its move's variables and what they
    /// were written from.
    fn push_damaged(
        &mut self,
        board: SymBoard,
        offset: usize,
        mv: moves::MoveVars,
        spec: MoveSpec,
    ) {
        self.views.push(PlyView {
            board,
            offset,
            damaged: Some(self.moves.len()),
        });
        self.moves.push(mv);
        self.specs.push(spec);
    }
}

/// The damaged ply's move (its first capture steps, or all of them for a
/// complete formula) and the board after it, a block of its own: the
/// move's variables, the block's offset and what is known there.
fn write_move<S: ClauseSink>(
    run: &Run<'_>,
    out: &mut Writer<'_, S>,
    vars: &mut VarMap,
    input: &moves::MoveInput<'_, '_>,
    known: &KnownFacts,
) -> Result<(moves::MoveVars, usize, KnownFacts), OutOfTime> {
    let number = input.ply;
    let depth = if run.options.complete {
        input.domains.steps.len()
    } else {
        first_depth(input.domains)
    };
    let mv = moves::encode_move(out, vars, input, depth);
    run.in_time(number)?;
    let after = after_block(vars, run.variant.topology(), number);
    out.sink().begin_group(&Group {
        ply: None,
        rule: Rule::BoardAfter { ply: number },
    });
    let known_after = frame::board_after(out, &input.before, known, &mv, after);
    Ok((mv, after, known_after))
}

/// A fresh block of board variables for the board after ply `number`.
fn after_block(vars: &mut VarMap, topology: Topology, number: usize) -> usize {
    vars.block(var_count(topology), |i| {
        format!(
            "after ply {number}: {}",
            super::vars::name_on(topology)(varisat::Var::from_index(i)).replacen("start ", "", 1)
        )
    })
}

/// Why a damaged ply cannot be played whatever the board.
fn nothing_fits(side: Color, written: &WrittenMove) -> String {
    let what = match written {
        WrittenMove::Pattern(MovePattern::Unknown) => "any move".to_string(),
        other => format!("'{other}'"),
    };
    format!("no move of {side} fits {what} on the board the earlier plies leave")
}
