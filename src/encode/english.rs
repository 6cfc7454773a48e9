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
use super::symbolic::{Cond, Conj, Content, SymBoard};
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

/// Every possible jump on the board (72): (from, direction, jumped, landing).
fn all_jumps() -> &'static [(Square, Direction, Square, Square)] {
    static JUMPS: std::sync::OnceLock<Vec<(Square, Direction, Square, Square)>> =
        std::sync::OnceLock::new();
    JUMPS.get_or_init(|| {
        Square::all()
            .flat_map(|from| {
                Direction::ALL
                    .into_iter()
                    .filter_map(move |dir| from.jump(dir).map(|(over, to)| (from, dir, over, to)))
            })
            .collect()
    })
}

/// Encodes `record` under English rules into `sink`.
pub fn encode_english(record: &Record, sink: &mut impl ClauseSink) -> Encoded {
    let mut encoder = Encoder {
        sink,
        known: [None; VAR_COUNT],
        changed_at: [0; Square::COUNT],
        checked_at: [vec![None; all_jumps().len()], vec![None; all_jumps().len()]],
        seen: HashSet::new(),
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
    sink: &'s mut S,
    /// Unit facts emitted so far, by variable index.
    known: [Option<bool>; VAR_COUNT],
    /// The ply that last changed each square's content (0: none yet).
    changed_at: [usize; Square::COUNT],
    /// Per side (black, white) and board jump: the ply whose "no capture" check
    /// last wrote its clause. While none of its three squares changes, the
    /// clause already written (strengthened by later units) still says it all.
    checked_at: [Vec<Option<usize>>; 2],
    seen: HashSet<Vec<Lit>>,
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
        let known = &self.known;
        if self
            .clause
            .iter()
            .any(|l| known[l.index()] == Some(l.is_positive()))
        {
            self.stats.satisfied += 1;
            return Ok(());
        }
        self.clause.retain(|l| known[l.index()].is_none());
        self.clause.sort_unstable();
        self.clause.dedup();
        match self.clause[..] {
            [] => return Err(()),
            [unit] => self.known[unit.index()] = Some(unit.is_positive()),
            _ => {}
        }
        if !self.seen.insert(self.clause.clone()) {
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
        let conj = cond.ok_or_else(why_false)?;
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
            return Err(why_true());
        }
        self.emit().map_err(|()| CONFLICT.to_string())
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
        let mv = ply.text;
        let from = mv.from();

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

        let mut after = board.clone();
        after.set(from, Content::Emptied { by: ply.number });
        if !mv.is_capture() {
            let to = mv.to();
            let rule = Rule::LandingEmpty(to);
            self.group(Some(ply), rule);
            self.require(board.is_empty(to), || board.describe(to))
                .map_err(fail(rule))?;
            self.group(Some(ply), Rule::NoCaptureAvailable);
            for (j, &(a, dir, over, land)) in all_jumps().iter().enumerate() {
                let last = self.changed_at[a.index()]
                    .max(self.changed_at[over.index()])
                    .max(self.changed_at[land.index()]);
                let checked = &mut self.checked_at[side as usize][j];
                // The check at ply `at` saw the board before ply `at` moved, so a
                // square changed by ply `at` itself is newer than that check.
                if checked.is_some_and(|at| last < at) {
                    continue;
                }
                *checked = Some(ply.number);
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
        } else {
            for (at, to) in mv.steps() {
                let (dir, _) = at.diagonal_to(to).expect("parsed jumps are diagonal");
                let over = at.step(dir).expect("a jump passes over a square");
                let rule = Rule::JumpsEnemy(over);
                self.group(Some(ply), rule);
                self.require(after.holds(over, enemy), || after.describe(over))
                    .map_err(fail(rule))?;
                let rule = Rule::LandingEmpty(to);
                self.group(Some(ply), rule);
                self.require(after.is_empty(to), || after.describe(to))
                    .map_err(fail(rule))?;
                after.set(over, Content::Emptied { by: ply.number });
            }
            let stop = mv.to();
            let rule = Rule::CaptureEnds(stop);
            self.group(Some(ply), rule);
            for dir in Direction::ALL {
                let Some((over, land)) = stop.jump(dir) else {
                    continue;
                };
                // The piece's own kind before the move: a man crowned on `stop`
                // has only backward jumps left there, and those need a king.
                let piece = if side.is_forward(dir) {
                    Some(Conj::truth())
                } else {
                    board.is_king(from)
                };
                let conds = [piece, after.holds(over, enemy), after.is_empty(land)];
                self.forbid(&conds, || {
                    format!("the capture stops on {stop}, but it could still jump {over} to {land} whatever the start board")
                })
                .map_err(fail(rule))?;
            }
        }

        let to = mv.to();
        for sq in [from, to] {
            self.changed_at[sq.index()] = ply.number;
        }
        for (at, next) in mv.steps().filter(|_| mv.is_capture()) {
            let (dir, _) = at.diagonal_to(next).expect("parsed jumps are diagonal");
            self.changed_at[at.step(dir).expect("a jump passes over a square").index()] =
                ply.number;
        }
        let (origin, crowned) = match board.get(from) {
            Content::Moved {
                origin, crowned, ..
            } => (origin, crowned),
            _ => (from, false),
        };
        after.set(
            to,
            Content::Moved {
                origin,
                color: side,
                crowned: crowned || to.row() == side.crowning_row(),
                by: ply.number,
            },
        );
        *board = after;
        Ok(())
    }
}
