//! The English encoding: variables for the start board only, each ply's
//! conditions written over them through a symbolic replay.
//!
//! See `encodings/english.md` for the variable and clause families, a worked
//! example and sizes.
//!
//! # References
//! - `shared/spec/english.md`, the rules.
//! - `encodings/english.md`, this encoding.

use std::collections::HashSet;

use varisat::Lit;

use crate::board::{Color, Direction, Square};
use crate::notation::Record;

use super::sink::{ClauseSink, Group, PlyRef, Rule};
use super::symbolic::{Cond, Conj, Content, KnownFacts, SymBoard};
use super::vars::{lit, Fact, VAR_COUNT};

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
}

/// Bit `i` of the result is bit `i + by` of `grid` (0 off the grid).
fn pull(grid: u64, by: i32) -> u64 {
    if by >= 0 {
        grid >> by
    } else {
        grid << -by
    }
}

/// The squares a jump in `dir` from which starts on, passes over or lands on
/// a square of the grid bitboard `squares`.
fn jump_starts_touching(squares: u64, dir: Direction) -> u64 {
    let step = dir.grid_offset();
    squares | pull(squares, step) | pull(squares, 2 * step)
}

/// Grid bitboards (see [`Square::grid_bit`]) of the squares that may hold
/// each part of a jump by the side to move.
struct JumpMasks {
    /// May hold one of its pieces (that can jump forward).
    forward: u64,
    /// May hold one of its kings (that can jump backward too).
    backward: u64,
    /// May hold an enemy piece.
    enemies: u64,
    /// May be empty.
    landings: u64,
}

impl JumpMasks {
    /// The squares a jump in `dir` may start from: a mover there, an enemy
    /// one step on and an empty square two steps on.
    fn starts(&self, side: Color, dir: Direction) -> u64 {
        /// Columns a jump may start from without leaving the board sideways.
        const NOT_LEFT_EDGE: u64 = 0xFCFC_FCFC_FCFC_FCFC;
        const NOT_RIGHT_EDGE: u64 = 0x3F3F_3F3F_3F3F_3F3F;
        let movers = if side.is_forward(dir) {
            self.forward
        } else {
            self.backward
        };
        let columns = if dir.col_delta() < 0 {
            NOT_LEFT_EDGE
        } else {
            NOT_RIGHT_EDGE
        };
        let step = dir.grid_offset();
        movers & columns & pull(self.enemies, step) & pull(self.landings, 2 * step)
    }
}

/// A clause of at most eight literals packed into one word (one byte per
/// literal code plus one, sorted), so duplicates are found without allocating.
fn clause_key(clause: &[Lit]) -> Option<u64> {
    if clause.len() > 8 {
        return None;
    }
    clause.iter().try_fold(0u64, |key, l| {
        let byte = u8::try_from(l.code() + 1).ok()?;
        Some(key << 8 | u64::from(byte))
    })
}

/// A hasher for keys that are already well spread words: one multiply.
#[derive(Default, Clone, Copy)]
struct WordHasher(u64);

impl std::hash::Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type WordSet = HashSet<u64, std::hash::BuildHasherDefault<WordHasher>>;

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
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            simplify: true,
            fine_groups: false,
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
        }
    }
}

/// Encodes `record` under English rules into `sink`.
pub fn encode_english(record: &Record, sink: &mut impl ClauseSink) -> Encoded {
    encode_english_with(record, sink, EncodeOptions::default())
}

/// Encodes `record` under English rules into `sink`, as `options` say.
pub fn encode_english_with(
    record: &Record,
    sink: &mut impl ClauseSink,
    options: EncodeOptions,
) -> Encoded {
    let mut encoder = Encoder {
        options,
        sink,
        known: KnownFacts::default(),
        dirty: [u64::MAX; 2],
        seen: WordSet::with_capacity_and_hasher(512, Default::default()),
        clause: Vec::with_capacity(8),
        stats: EncodeStats {
            vars: VAR_COUNT,
            ..EncodeStats::default()
        },
    };
    encoder.start_board();
    let mut board = SymBoard::default();
    let mut contradiction = None;
    for (i, mv) in record.moves.iter().enumerate() {
        let ply = PlyRef {
            number: i + 1,
            side: record.mover(i + 1),
            text: mv,
        };
        if let Err(c) = encoder.ply(&mut board, ply) {
            encoder.sink.add_clause(&[]);
            encoder.stats.clauses += 1;
            contradiction = Some(c);
            break;
        }
    }
    Encoded {
        stats: encoder.stats,
        contradiction,
    }
}

/// The reason given when a rule fails only because of unit facts fixed by earlier rules.
const CONFLICT: &str = "this cannot hold together with what the earlier plies require";

struct Encoder<'s, S> {
    options: EncodeOptions,
    sink: &'s mut S,
    /// Unit facts emitted so far.
    known: KnownFacts,
    /// Per side (black, white): the squares whose content changed since that
    /// side's last "no capture" check (all of them before the first). A jump
    /// none of whose squares changed needs no new clause: the one written
    /// earlier, strengthened by later units, still says it all.
    dirty: [u64; 2],
    /// Packed keys of the clauses emitted so far.
    seen: WordSet,
    clause: Vec<Lit>,
    stats: EncodeStats,
}

impl<S: ClauseSink> Encoder<'_, S> {
    fn group(&mut self, ply: Option<PlyRef<'_>>, rule: Rule) {
        self.sink.begin_group(&Group { ply, rule });
    }

    /// Emits the clause in `self.clause`, simplified by the unit facts known so
    /// far: dropped if a literal is known true or an identical clause was
    /// emitted, known-false literals removed. A clause left with one literal
    /// becomes a known fact. `Err` if no literal is left (the formula is UNSAT).
    fn emit(&mut self) -> Result<(), ()> {
        if !self.options.simplify {
            self.clause.sort_unstable();
            self.clause.dedup();
            self.sink.add_clause(&self.clause);
            self.stats.clauses += 1;
            return Ok(());
        }
        if let [unit] = self.clause[..] {
            // A unit is either known already (satisfied or contradicted) or
            // new; no need to look it up among the emitted clauses.
            return match self.known.value_of(unit) {
                Some(true) => {
                    self.stats.satisfied += 1;
                    Ok(())
                }
                Some(false) => Err(()),
                None => {
                    self.known.learn(unit);
                    self.sink.add_clause(&[unit]);
                    self.stats.clauses += 1;
                    Ok(())
                }
            };
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
            [unit] => self.known.learn(unit),
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

    fn emit_lits(&mut self, lits: &[Lit]) -> Result<(), ()> {
        self.clause.clear();
        self.clause.extend_from_slice(lits);
        self.emit()
    }

    /// Requires `cond` to hold: one unit clause per literal. `Err` if it is false.
    fn require(&mut self, cond: Cond, why_false: impl FnOnce() -> String) -> Result<(), String> {
        let Some(conj) = cond else {
            return self.constant_false(why_false());
        };
        for &l in conj.lits() {
            self.emit_lits(&[l]).map_err(|()| CONFLICT.to_string())?;
        }
        Ok(())
    }

    /// Forbids `conds` from holding together: one clause. `Err` if they all hold whatever
    /// the start board is.
    fn forbid(&mut self, conds: &[Cond], why_true: impl FnOnce() -> String) -> Result<(), String> {
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
        self.emit().map_err(|()| CONFLICT.to_string())
    }

    /// A rule that fails whatever the start board is: `Err` when simplifying
    /// (encoding stops there), otherwise the empty clause in the rule's group.
    fn constant_false(&mut self, why: String) -> Result<(), String> {
        if self.options.simplify {
            return Err(why);
        }
        self.sink.note(&why);
        self.sink.add_clause(&[]);
        self.stats.clauses += 1;
        Ok(())
    }

    fn start_board(&mut self) {
        self.group(None, Rule::EmptyMeansNothing);
        for sq in Square::all() {
            let occupied = lit(sq, Fact::Occupied, true);
            let _ = self.emit_lits(&[occupied, lit(sq, Fact::White, false)]);
            let _ = self.emit_lits(&[occupied, lit(sq, Fact::King, false)]);
        }
        self.group(None, Rule::NoUncrownedMan);
        for color in Color::ALL {
            for sq in Square::all().filter(|s| s.row() == color.crowning_row()) {
                // not (occupied and of this colour and a man)
                let _ = self.emit_lits(&[
                    lit(sq, Fact::Occupied, false),
                    super::vars::color_lit(sq, color.opposite()),
                    lit(sq, Fact::King, true),
                ]);
            }
        }
    }

    fn ply(&mut self, board: &mut SymBoard, ply: PlyRef<'_>) -> Result<(), Contradiction> {
        let fail = |rule: Rule| {
            move |reason: String| Contradiction {
                ply: ply.number,
                rule,
                reason,
            }
        };
        let side = ply.side;
        let enemy = side.opposite();
        // Plies beyond u32::MAX would not fit in memory as move text anyway.
        let ply_no = u32::try_from(ply.number).unwrap_or(u32::MAX);
        let mv = ply.text;
        let from = mv.from();
        let to = mv.to();

        let rule = Rule::MoverOwns(from);
        self.group(Some(ply), rule);
        self.require(board.holds(from, side), || {
            format!("it is {side}'s move, but {}", board.describe(from))
        })
        .map_err(fail(rule))?;

        let goes_back = mv.steps().any(|(a, b)| {
            a.diagonal_to(b)
                .is_some_and(|(dir, _)| !side.is_forward(dir))
        });
        let crowns_mid_capture = mv.landings()[..mv.landings().len() - 1]
            .iter()
            .any(|s| s.row() == side.crowning_row());
        if goes_back || crowns_mid_capture {
            let rule = Rule::MustBeKing(from);
            self.group(Some(ply), rule);
            self.require(board.is_king(from), || board.describe(from))
                .map_err(fail(rule))?;
        }

        // The mover as it was before the ply (the board is updated in place).
        let mover = board.get(from);
        let mover_is_king = board.is_king(from);
        if !mv.is_capture() {
            let rule = Rule::LandingEmpty(to);
            self.group(Some(ply), rule);
            self.require(board.is_empty(to), || board.describe(to))
                .map_err(fail(rule))?;
            self.group(Some(ply), Rule::NoCaptureAvailable);
            // The check sees the board before this ply moves; squares this
            // ply changes are marked dirty below, after it.
            let dirty = std::mem::take(&mut self.dirty[side as usize]);
            // Which jumps could be available: first by content alone, then
            // also given the unit facts (a jump ruled out only by those has a
            // clause that is already satisfied).
            static NO_FACTS: KnownFacts = KnownFacts::NONE;
            let [open, possible] = [&NO_FACTS, &self.known].map(|known| {
                let movers = board.may_hold(side, known);
                JumpMasks {
                    forward: movers,
                    backward: movers & board.may_be_king(known),
                    enemies: board.may_hold(enemy, known),
                    landings: board.may_be_empty(known),
                }
            });
            let mut starts = [0u64; 4];
            for dir in Direction::ALL {
                let near = jump_starts_touching(dirty, dir);
                let possible_starts = possible.starts(side, dir);
                starts[dir.index()] = possible_starts & near;
                let ruled_out = open.starts(side, dir) & !possible_starts & near;
                self.stats.satisfied += ruled_out.count_ones() as usize;
            }
            // Square order, then direction order, so the formula is stable.
            let mut rest = starts.iter().fold(0, |all, s| all | s);
            while rest != 0 {
                let index = rest.trailing_zeros();
                rest &= rest - 1;
                let a = Square::from_grid_index(index).expect("jump starts are dark squares");
                for dir in Direction::ALL
                    .into_iter()
                    .filter(|d| starts[d.index()] >> index & 1 != 0)
                {
                    let (over, land) = a.jump(dir).expect("a possible jump stays on the board");
                    if self.options.fine_groups {
                        let rule = Rule::NoJump {
                            from: a,
                            over,
                            to: land,
                        };
                        self.group(Some(ply), rule);
                    }
                    let conds = [
                        board.holds_mover(a, side, side.is_forward(dir)),
                        board.holds(over, enemy),
                        board.is_empty(land),
                    ];
                    self.forbid(&conds, || {
                    format!("the move is not a capture, but {a}x{land} is available whatever the start board")
                })
                .map_err(fail(Rule::NoCaptureAvailable))?;
                }
            }
        } else {
            board.set(from, Content::Emptied { by: ply_no });
            for (at, to) in mv.steps() {
                let (dir, _) = at.diagonal_to(to).expect("parsed jumps are diagonal");
                let over = at.step(dir).expect("a jump passes over a square");
                let rule = Rule::JumpsEnemy(over);
                self.group(Some(ply), rule);
                self.require(board.holds(over, enemy), || board.describe(over))
                    .map_err(fail(rule))?;
                let rule = Rule::LandingEmpty(to);
                self.group(Some(ply), rule);
                self.require(board.is_empty(to), || board.describe(to))
                    .map_err(fail(rule))?;
                board.set(over, Content::Emptied { by: ply_no });
            }
            let stop = mv.to();
            let rule = Rule::CaptureEnds(stop);
            self.group(Some(ply), rule);
            for dir in Direction::ALL {
                let Some((over, land)) = stop.jump(dir) else {
                    continue;
                };
                if self.options.fine_groups {
                    let rule = Rule::CannotJumpOn {
                        from: stop,
                        over,
                        to: land,
                    };
                    self.group(Some(ply), rule);
                }
                // The piece's own kind before the move: a man crowned on `stop`
                // has only backward jumps left there, and those need a king.
                let piece = if side.is_forward(dir) {
                    Some(Conj::truth())
                } else {
                    mover_is_king
                };
                let conds = [piece, board.holds(over, enemy), board.is_empty(land)];
                self.forbid(&conds, || {
                    format!("the capture stops on {stop}, but it could still jump {over} to {land} whatever the start board")
                })
                .map_err(fail(rule))?;
            }
        }

        let mut changed = from.grid_bit() | mv.to().grid_bit();
        for (at, next) in mv.steps().filter(|_| mv.is_capture()) {
            let (dir, _) = at.diagonal_to(next).expect("parsed jumps are diagonal");
            changed |= at
                .step(dir)
                .expect("a jump passes over a square")
                .grid_bit();
        }
        for dirty in &mut self.dirty {
            *dirty |= changed;
        }
        board.set(from, Content::Emptied { by: ply_no });
        let (origin, crowned) = match mover {
            Content::Moved {
                origin, crowned, ..
            } => (origin, crowned),
            _ => (from, false),
        };
        board.set(
            to,
            Content::Moved {
                origin,
                color: side,
                crowned: crowned || to.row() == side.crowning_row(),
                by: ply_no,
            },
        );
        Ok(())
    }
}
