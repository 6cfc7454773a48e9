//! Writing clauses: simplification by the unit clauses already written,
//! duplicate removal, and the start-board rules. Shared by the encoders, so
//! every rule set's formula is simplified the same way.

use varisat::Lit;

use crate::board::{Color, PartialBoard, Topology};

use super::sink::{ClauseSink, Group, PlyRef, Rule};
use super::symbolic::{Cond, KnownFacts, SquareSet, SymBoard};
use super::vars::{lit, var_count, Fact, VAR_COUNT};
use crate::notation::Record;

/// The most clauses the most-pieces rule of one ply takes in a formula
/// that refinement completes (see [`EncodeOptions::complete`]): none. A
/// solve learns the few clauses of the rule it needs (see
/// [`Encoded::deferred`]). Measured on 100-move records (200 Canadian,
/// 200 International, 2,000 Brazilian and 2,000 Spanish, whole process):
/// a budget of 20,000 clauses took 2.14, 0.71, 0.33 and 0.35 s, one of 100
/// took 0.09, 0.04, 0.20 and 0.22 s, none 0.06, 0.03, 0.12 and 0.15 s. On
/// an open 12x12 board one 4-piece capture's rule is 6.4 million clauses.
pub const MOST_PIECES_BUDGET: usize = 0;

/// The most clauses the most-pieces rule of one ply takes even in a
/// complete formula ([`EncodeOptions::complete`]): past it the rule is left
/// to refinement like any other ([`Encoded::deferred`] says which ply), and
/// the formula is no longer complete. A flying king's longer captures on a
/// 12x12 board with few facts number in the billions: written out, one
/// 6-piece Canadian capture's rule grew past 12 GB.
pub const COMPLETE_MOST_PIECES_CAP: usize = 1_000_000;

/// Size of an encoded formula.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EncodeStats {
    /// Variables (always [`VAR_COUNT`] for this encoding).
    pub vars: usize,
    /// Clauses handed to the sink.
    pub clauses: usize,
    /// Clauses left out because an identical one was already emitted.
    pub repeated: usize,
    /// Clauses left out because a unit fact emitted earlier satisfies them.
    pub satisfied: usize,
}

/// A ply whose conditions are false whatever the start board is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contradiction {
    /// 1-based ply.
    pub ply: usize,
    /// The rule that cannot hold.
    pub rule: Rule,
    /// Why, in words.
    pub reason: String,
}

/// The result of encoding a record.
#[derive(Clone, Debug, Default)]
pub struct Encoded {
    /// Formula size.
    pub stats: EncodeStats,
    /// Set when a ply is impossible on its face; the formula then holds the
    /// empty clause and plies after it are not encoded.
    pub contradiction: Option<Contradiction>,
    /// The start-board facts the unit clauses fix.
    pub facts: KnownFacts,
    /// A damaged record's variables beyond the start board: its damaged
    /// plies' moves and the blocks after them (`None` for a record with
    /// nothing damaged).
    pub layout: Option<super::Layout>,
    /// The plies of a record with nothing damaged whose most-pieces rule
    /// was left to refinement, with the board before each (the rule can be
    /// millions of clauses on an open 12x12 board, of which a solve needs
    /// a handful). Empty for a complete formula; a damaged record's plies
    /// have their boards in [`Encoded::layout`].
    pub deferred: Vec<Deferred>,
}

/// A ply whose most-pieces rule the formula leaves out, and the board
/// before it, for the clauses refinement learns instead.
#[derive(Clone, Debug)]
pub struct Deferred {
    /// 1-based ply.
    pub ply: usize,
    /// The board before it, over the start board's variables.
    pub view: super::PlyView,
}

/// A clause of at most eight literals packed into one key (16 bits per
/// literal code plus one, sorted), so duplicates are found without
/// allocating, on either board (the 10x10 board's 150 variables have codes
/// up to 300, past a byte).
fn clause_key(clause: &[Lit]) -> Option<u128> {
    if clause.len() > 8 {
        return None;
    }
    clause.iter().try_fold(0u128, |key, l| {
        let code = u16::try_from(l.code() + 1).ok()?;
        Some(key << 16 | u128::from(code))
    })
}

/// Clause keys already seen (well spread words: the board layer's one-multiply hasher).
type WordSet = crate::board::hash::WordSet<u128>;

/// How the encoder writes its clauses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodeOptions {
    /// Simplify clauses by the unit clauses written before them, leave out
    /// repeated ones, and stop at the first ply that is impossible on its face.
    /// Off, every rule's clauses stand on their own, so a group of clauses can
    /// be switched on and off by itself (for explanations).
    pub simplify: bool,
    /// One group per board jump in the "no capture" and "cannot jump on" rules,
    /// instead of one group per rule.
    pub fine_groups: bool,
    /// Collect only the unit facts the moves state themselves (which
    /// squares hold what before they move, are jumped or are landed on),
    /// for [`super::unit_facts`]: the start-board rules and the families
    /// that forbid captures are left out, and so is every clause that is
    /// not a unit once simplified. Nothing is a complete formula then.
    pub units_only: bool,
    /// What is known of the start and end boards besides the moves.
    pub known: BoardFacts,
    /// Keep a name for every variable beyond the start board (a damaged
    /// record's, for `postfacto cnf`).
    pub named: bool,
    /// Write a formula that says every rule by itself, one that cannot
    /// grow (`cnf`, proofs, outside solvers). Off, a solve that refines
    /// its models writes some rules when it needs them: a damaged ply's
    /// capture steps past the first ones ([`super::Layout::deepen`]), and
    /// the most-pieces rule of a ply whose longer captures are more than
    /// [`EncodeOptions::most_pieces_budget`], by default every one (see
    /// [`Encoded::deferred`]). On, only a most-pieces rule of more than
    /// [`COMPLETE_MOST_PIECES_CAP`] clauses is left out.
    pub complete: bool,
    /// How many clauses the most-pieces rule of one ply may take before it
    /// is left to refinement, when the formula need not be complete
    /// ([`MOST_PIECES_BUDGET`] unless a caller wants more written).
    pub most_pieces_budget: usize,
}

/// Facts about the boards besides the moves (`--start-board`,
/// `--end-board`, a PDN game's `[FEN]`): every known square's content.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardFacts {
    /// What the start board holds where it is known.
    pub start: Option<PartialBoard>,
    /// What the end board holds where it is known.
    pub end: Option<PartialBoard>,
}

impl BoardFacts {
    /// Nothing known.
    pub fn none() -> BoardFacts {
        BoardFacts::default()
    }

    /// True when nothing is known.
    pub fn is_empty(&self) -> bool {
        self.start.is_none() && self.end.is_none()
    }

    /// What is known of the start board only (for a part of a record that
    /// ends before its end).
    pub fn start_only(self) -> BoardFacts {
        BoardFacts {
            start: self.start,
            end: None,
        }
    }

    /// What is known of the end board only (for a part of a record that
    /// starts after its start).
    pub fn end_only(self) -> BoardFacts {
        BoardFacts {
            start: None,
            end: self.end,
        }
    }
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            simplify: true,
            fine_groups: false,
            units_only: false,
            known: BoardFacts::none(),
            named: false,
            complete: false,
            most_pieces_budget: MOST_PIECES_BUDGET,
        }
    }
}

impl EncodeOptions {
    /// Unsimplified, with fine groups: each group of clauses says exactly what
    /// its rule says, whatever the other groups say.
    pub fn exact() -> EncodeOptions {
        EncodeOptions {
            simplify: false,
            fine_groups: true,
            units_only: false,
            known: BoardFacts::none(),
            named: false,
            complete: false,
            most_pieces_budget: MOST_PIECES_BUDGET,
        }
    }

    /// Unit facts only (see [`EncodeOptions::units_only`]).
    pub fn units_only() -> EncodeOptions {
        EncodeOptions {
            units_only: true,
            ..EncodeOptions::default()
        }
    }
}

/// The reason given when a rule fails only because of unit facts fixed by earlier rules.
/// Why a rule fails whatever the start board is (found while encoding with
/// simplification: the encoding stops there, and the rule and its ply
/// become a [`Contradiction`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(super) struct AlwaysFalse(pub(super) String);

pub(super) const CONFLICT: &str = "this cannot hold together with what the earlier plies require";

/// An encoder for one rule set: the clauses of one ply over the symbolic board.
pub(super) trait PlyEncoder<'s, S: ClauseSink + 's, M: SquareSet> {
    /// Where its clauses go.
    fn out(&mut self) -> &mut Emitter<'s, S, M>;

    /// Writes ply `ply`'s rules and plays it on `board`.
    fn ply(&mut self, board: &mut SymBoard<M>, ply: PlyRef<'_>) -> Result<(), Contradiction>;
}

/// Runs `encoder` over `record`: the start-board rules, then every ply until
/// one is impossible on its face (then the empty clause ends the formula).
pub(super) fn encode_record<'s, S: ClauseSink + 's, M: SquareSet>(
    record: &Record,
    encoder: &mut impl PlyEncoder<'s, S, M>,
) -> Encoded {
    // The board is the one the record's squares are on.
    let topology = record
        .moves
        .first()
        .map_or(Topology::Eight, |mv| mv.from().topology());
    encoder.out().start_board(topology);
    let mut board = SymBoard::new(topology);
    let known = encoder.out().options.known;
    let mut contradiction = known
        .start
        .and_then(|facts| encoder.out().start_facts(&facts));
    for (i, mv) in record.moves.iter().enumerate() {
        if contradiction.is_some() {
            break;
        }
        let ply = PlyRef {
            number: i + 1,
            side: record.mover(i + 1),
            text: mv,
        };
        if let Err(c) = encode_ply(encoder, &mut board, ply) {
            encoder.out().empty_clause();
            contradiction = Some(c);
            break;
        }
    }
    if contradiction.is_none() {
        if let Some(facts) = known.end {
            contradiction = encoder.out().end_facts(&facts, &board, record.moves.len());
            if contradiction.is_some() {
                encoder.out().empty_clause();
            }
        }
    }
    let out = encoder.out();
    out.stats.vars = var_count(topology);
    Encoded {
        stats: out.stats,
        contradiction,
        facts: out.known.widen(),
        layout: None,
        deferred: std::mem::take(&mut out.deferred),
    }
}

/// One ply's rules: the one every rule set starts with (the mover is the
/// side's), then the rule set's own; plays the ply on `board`.
pub(super) fn encode_ply<'s, S: ClauseSink + 's, M: SquareSet>(
    encoder: &mut impl PlyEncoder<'s, S, M>,
    board: &mut SymBoard<M>,
    ply: PlyRef<'_>,
) -> Result<(), Contradiction> {
    let (side, from) = (ply.side, ply.text.from());
    let rule = Rule::MoverOwns(from);
    let out = encoder.out();
    out.group(Some(ply), rule);
    out.require(board.holds(from, side), || {
        format!("it is {side}'s move, but {}", board.describe(from))
    })
    .map_err(Contradiction::at(ply, rule))?;
    encoder.ply(board, ply)
}

impl Contradiction {
    /// Makes the contradiction of `rule` at `ply` from a reason.
    pub(super) fn at(ply: PlyRef<'_>, rule: Rule) -> impl Fn(AlwaysFalse) -> Contradiction {
        let number = ply.number;
        move |AlwaysFalse(reason)| Contradiction {
            ply: number,
            rule,
            reason,
        }
    }
}

/// The ply's number as stored in symbolic contents (records beyond
/// `u32::MAX` plies would not fit in memory as move text anyway).
pub(super) fn ply_number(ply: PlyRef<'_>) -> u32 {
    u32::try_from(ply.number).unwrap_or(u32::MAX)
}

/// Writes clauses into a sink, as [`EncodeOptions`] say.
pub(super) struct Emitter<'s, S, M: SquareSet> {
    pub(super) options: EncodeOptions,
    pub(super) sink: &'s mut S,
    /// Unit facts emitted so far.
    pub(super) known: KnownFacts<M>,
    /// Add the units emitted to `known` (off for the rules of one of a
    /// damaged ply's moves, whose clauses some moves share).
    pub(super) learn: bool,
    /// Rules whose clauses another of a damaged ply's moves already wrote
    /// for all of them (they depend only on the board before the ply).
    pub(super) shared_done: Vec<Rule>,
    /// Leave out every rule moves may share (a damaged ply's dry run: those
    /// rules depend on the board only, and are written once for all moves).
    pub(super) skip_shared: bool,
    /// Plies whose most-pieces rule is left to refinement.
    pub(super) deferred: Vec<Deferred>,
    /// Packed keys of the clauses emitted so far.
    seen: WordSet,
    clause: Vec<Lit>,
    pub(super) stats: EncodeStats,
}

impl<'s, S: ClauseSink, M: SquareSet> Emitter<'s, S, M> {
    pub(super) fn new(sink: &'s mut S, options: EncodeOptions) -> Self {
        // Units need no duplicate check: they are looked up among the facts.
        let seen_capacity = if options.units_only { 0 } else { 512 };
        Emitter {
            options,
            sink,
            known: KnownFacts::default(),
            learn: true,
            shared_done: Vec::new(),
            skip_shared: false,
            deferred: Vec::new(),
            seen: WordSet::with_capacity_and_hasher(seen_capacity, Default::default()),
            clause: Vec::with_capacity(8),
            stats: EncodeStats {
                vars: VAR_COUNT,
                ..EncodeStats::default()
            },
        }
    }

    /// Whether `rule`'s clauses were written already for every move of a
    /// damaged ply that needs them (see [`Emitter::shared_done`]).
    pub(super) fn written_elsewhere(&self, rule: Rule) -> bool {
        self.shared_done.contains(&rule)
            || self.skip_shared
                && matches!(rule, Rule::NoCaptureAvailable | Rule::MostPieces { .. })
    }

    /// Ends encoding early: the formula is unsatisfiable.
    pub(super) fn empty_clause(&mut self) {
        self.sink.add_clause(&[]);
        self.stats.clauses += 1;
    }

    #[inline]
    pub(super) fn group(&mut self, ply: Option<PlyRef<'_>>, rule: Rule) {
        self.sink.begin_group(&Group { ply, rule });
    }

    /// Emits the clause in `self.clause`, simplified by the unit facts known so
    /// far: dropped if a literal is known true or an identical clause was
    /// emitted, known-false literals removed. A clause left with one literal
    /// becomes a known fact. `Err` if no literal is left (the formula is UNSAT).
    #[inline]
    fn emit(&mut self) -> Result<(), ()> {
        if self.sink.is_full() {
            return Err(());
        }
        if !self.options.simplify {
            self.clause.sort_unstable();
            self.clause.dedup();
            self.sink.add_clause(&self.clause);
            self.stats.clauses += 1;
            return Ok(());
        }
        if let [unit] = self.clause[..] {
            return self.emit_unit(unit);
        }
        let known = &self.known;
        if self.clause.iter().any(|&l| known.value_of(l) == Some(true)) {
            self.stats.satisfied += 1;
            return Ok(());
        }
        self.clause.retain(|&l| known.value_of(l).is_none());
        self.clause.sort_unstable();
        self.clause.dedup();
        match self.clause[..] {
            [] => return Err(()),
            [unit] if self.learn => self.known.learn(unit),
            _ if self.options.units_only => return Ok(()),
            _ => {}
        }
        if clause_key(&self.clause).is_some_and(|key| !self.seen.insert(key)) {
            self.stats.repeated += 1;
            return Ok(());
        }
        self.sink.add_clause(&self.clause);
        self.stats.clauses += 1;
        Ok(())
    }

    /// Emits a unit clause when simplifying: it is either known already
    /// (satisfied or contradicted) or new; no need to look it up among the
    /// emitted clauses.
    #[inline]
    fn emit_unit(&mut self, unit: Lit) -> Result<(), ()> {
        match self.known.value_of(unit) {
            Some(true) => {
                self.stats.satisfied += 1;
                Ok(())
            }
            Some(false) => Err(()),
            None => {
                if self.learn {
                    self.known.learn(unit);
                }
                self.sink.add_clause(&[unit]);
                self.stats.clauses += 1;
                Ok(())
            }
        }
    }

    #[inline]
    fn emit_lits(&mut self, lits: &[Lit]) -> Result<(), ()> {
        self.clause.clear();
        self.clause.extend_from_slice(lits);
        self.emit()
    }

    /// Requires `cond` to hold: one unit clause per literal. `Err` if it is false.
    #[inline]
    pub(super) fn require(
        &mut self,
        cond: Cond,
        why_false: impl FnOnce() -> String,
    ) -> Result<(), AlwaysFalse> {
        let Some(conj) = cond else {
            return self.constant_false(why_false());
        };
        for &l in conj.lits() {
            let emitted = if self.options.simplify {
                self.emit_unit(l)
            } else {
                self.emit_lits(&[l])
            };
            emitted.map_err(|()| AlwaysFalse(CONFLICT.to_string()))?;
        }
        Ok(())
    }

    /// Forbids `conds` from holding together: one clause. `Err` if they all hold whatever
    /// the start board is.
    #[inline]
    pub(super) fn forbid(
        &mut self,
        conds: &[Cond],
        why_true: impl FnOnce() -> String,
    ) -> Result<(), AlwaysFalse> {
        self.clause.clear();
        for cond in conds {
            match cond {
                None => return Ok(()),
                Some(conj) => self.clause.extend(conj.lits().iter().map(|&l| !l)),
            }
        }
        if self.clause.is_empty() {
            return self.constant_false(why_true());
        }
        self.emit().map_err(|()| AlwaysFalse(CONFLICT.to_string()))
    }

    /// A rule that fails whatever the start board is: `Err` when simplifying
    /// (encoding stops there), otherwise the empty clause in the rule's group.
    fn constant_false(&mut self, why: String) -> Result<(), AlwaysFalse> {
        if self.options.simplify {
            return Err(AlwaysFalse(why));
        }
        self.sink.note(&why);
        self.sink.add_clause(&[]);
        self.stats.clauses += 1;
        Ok(())
    }

    /// The start board's known squares: one group each, its unit clauses.
    pub(super) fn start_facts(&mut self, facts: &PartialBoard) -> Option<Contradiction> {
        for (square, piece) in facts.facts() {
            let rule = Rule::StartFact { square, piece };
            self.group(None, rule);
            for l in super::vars::square_lits(square, piece) {
                if self.emit_lits(&[l]).is_err() {
                    self.empty_clause();
                    return Some(Contradiction {
                        ply: 0,
                        rule,
                        reason: CONFLICT.to_string(),
                    });
                }
            }
        }
        None
    }

    /// The end board's known squares, over what the symbolic replay left
    /// there: one group each.
    pub(super) fn end_facts(
        &mut self,
        facts: &PartialBoard,
        board: &SymBoard<M>,
        plies: usize,
    ) -> Option<Contradiction> {
        for (square, piece) in facts.facts() {
            let rule = Rule::EndFact { square, piece };
            self.group(None, rule);
            let required = match piece {
                None => self.require(board.is_empty(square), || board.describe(square)),
                Some(p) => {
                    let kind = if p.is_king() {
                        board.is_king(square)
                    } else {
                        board.is_man(square)
                    };
                    self.require(board.holds(square, p.color), || board.describe(square))
                        .and_then(|()| self.require(kind, || board.describe(square)))
                }
            };
            if let Err(AlwaysFalse(reason)) = required {
                return Some(Contradiction {
                    ply: plies,
                    rule,
                    reason,
                });
            }
        }
        None
    }

    pub(super) fn start_board(&mut self, topology: Topology) {
        if self.options.units_only {
            return;
        }
        self.group(None, Rule::EmptyMeansNothing);
        for sq in topology.squares() {
            let occupied = lit(sq, Fact::Occupied, true);
            let _ = self.emit_lits(&[occupied, lit(sq, Fact::White, false)]);
            let _ = self.emit_lits(&[occupied, lit(sq, Fact::King, false)]);
        }
        self.group(None, Rule::NoUncrownedMan);
        for color in Color::ALL {
            for sq in topology.squares().filter(|s| s.crowns(color)) {
                // not (occupied and of this colour and a man)
                let _ = self.emit_lits(&[
                    lit(sq, Fact::Occupied, false),
                    super::vars::color_lit(sq, color.opposite()),
                    lit(sq, Fact::King, true),
                ]);
            }
        }
    }
}
