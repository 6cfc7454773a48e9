//! The English encoding: variables for the start board only, each ply's
//! conditions written over them through a symbolic replay.
//!
//! See `encodings/english.md` for the variable and clause families, a worked
//! example and sizes.
//!
//! # References
//! - `shared/spec/english.md`, the rules.
//! - `encodings/english.md`, this encoding.

use super::emitter::AlwaysFalse;
use crate::board::grid::{self, pull};
use crate::board::{Color, Direction, Square};
use crate::notation::Record;
use crate::rules::Movement;

use super::emitter::{
    encode_record, ply_number, Contradiction, Emitter, EncodeOptions, Encoded, PlyEncoder,
};
use super::sink::{ClauseSink, PlyRef, Rule};
use super::symbolic::{Cond, Conj, Content, KnownFacts, SquareSet, SymBoard};

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
        let movers = if side.is_forward(dir) {
            self.forward
        } else {
            self.backward
        };
        grid::jump_starts(movers, self.enemies, self.landings, dir)
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
    let english = Movement::of(crate::rules::Variant::English);
    encode_short_with(record, sink, options, english)
}

/// Encodes `record` under the short-king rules `movement` says (English,
/// Italian) into `sink`, as `options` say.
pub fn encode_short_with(
    record: &Record,
    sink: &mut impl ClauseSink,
    options: EncodeOptions,
    movement: Movement,
) -> Encoded {
    // The 8x8 board's squares fit one word.
    let mut encoder = english_encoder::<_, u64>(Emitter::new(sink, options), movement);
    encode_record(record, &mut encoder)
}

/// The short-king ply encoder writing through `out`.
pub(super) fn english_encoder<S, M: SquareSet>(
    out: Emitter<'_, S, M>,
    movement: Movement,
) -> Encoder<'_, S, M> {
    Encoder {
        out,
        dirty: [u64::MAX; 2],
        movement,
    }
}

pub(super) struct Encoder<'s, S, M: SquareSet> {
    out: Emitter<'s, S, M>,
    /// Per side (black, white): the squares whose content changed since that
    /// side's last "no capture" check (all of them before the first). A jump
    /// none of whose squares changed needs no new clause: the one written
    /// earlier, strengthened by later units, still says it all.
    dirty: [u64; 2],
    /// The rules: English's, or Italian's (men may not take kings, and
    /// captured pieces stay, blocking, until the move ends).
    movement: Movement,
}

/// Both conditions.
fn both(a: Cond, b: Cond) -> Cond {
    Some(a?.and(b?))
}

impl<'s, S: ClauseSink, M: SquareSet> PlyEncoder<'s, S, M> for Encoder<'s, S, M> {
    fn out(&mut self) -> &mut Emitter<'s, S, M> {
        &mut self.out
    }

    fn ply(&mut self, board: &mut SymBoard<M>, ply: PlyRef<'_>) -> Result<(), Contradiction> {
        let (side, mv) = (ply.side, ply.text);
        let from = mv.from();
        let goes_back = mv.steps().any(|(a, b)| {
            a.diagonal_to(b)
                .is_some_and(|(dir, _)| !side.is_forward(dir))
        });
        let crowns_mid_capture = mv.landings()[..mv.landings().len() - 1]
            .iter()
            .any(|s| s.row() == side.crowning_row());
        if goes_back || crowns_mid_capture {
            let rule = Rule::MustBeKing(from);
            self.out.group(Some(ply), rule);
            self.out
                .require(board.is_king(from), || board.describe(from))
                .map_err(Contradiction::at(ply, rule))?;
        }
        // The mover as it was before the ply (the board is updated in place).
        let mover = board.get(from);
        if mv.is_capture() {
            self.capture(board, ply)?;
        } else {
            self.simple_move(board, ply)?;
        }
        self.play(board, ply, mover);
        Ok(())
    }
}

impl<S: ClauseSink, M: SquareSet> Encoder<'_, S, M> {
    /// A simple move: its landing is empty, and no jump is available.
    fn simple_move(&mut self, board: &SymBoard<M>, ply: PlyRef<'_>) -> Result<(), Contradiction> {
        let to = ply.text.to();
        let rule = Rule::LandingEmpty(to);
        self.out.group(Some(ply), rule);
        self.out
            .require(board.is_empty(to), || board.describe(to))
            .map_err(Contradiction::at(ply, rule))?;
        if self.out.options.units_only || self.out.written_elsewhere(Rule::NoCaptureAvailable) {
            return Ok(());
        }
        self.no_capture_available(board, ply)
            .map_err(Contradiction::at(ply, Rule::NoCaptureAvailable))
    }

    /// Before a simple move: no jump anywhere for the side to move, one
    /// clause per jump still possible on the board.
    fn no_capture_available(
        &mut self,
        board: &SymBoard<M>,
        ply: PlyRef<'_>,
    ) -> Result<(), AlwaysFalse> {
        self.out.group(Some(ply), Rule::NoCaptureAvailable);
        let starts = self.jump_starts_to_forbid(board, ply.side);
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
                self.forbid_jump(board, ply, a, dir)?;
            }
        }
        Ok(())
    }

    /// Where a jump of `side` may start, by direction: those the board may
    /// still allow given the unit facts, near the squares changed since
    /// the side's last check (jumps ruled out by the facts alone are
    /// counted as satisfied clauses).
    fn jump_starts_to_forbid(&mut self, board: &SymBoard<M>, side: Color) -> [u64; 4] {
        let enemy = side.opposite();
        // The check sees the board before this ply moves; squares this
        // ply changes are marked dirty after it (see `play`).
        let dirty = std::mem::take(&mut self.dirty[side as usize]);
        // Which jumps could be available: first by content alone, then
        // also given the unit facts (a jump ruled out only by those has a
        // clause that is already satisfied).
        let no_facts: &KnownFacts<M> = &KnownFacts::NONE;
        let [open, possible] = [no_facts, &self.out.known].map(|known| {
            // The symbolic board's square sets, on the grid for the shifts
            // (the 8x8 board's squares are the first word's).
            let movers = grid::spread(board.may_hold(side, known).low());
            JumpMasks {
                forward: movers,
                backward: movers & grid::spread(board.may_be_king(known).low()),
                enemies: grid::spread(board.may_hold(enemy, known).low()),
                landings: grid::spread(board.may_be_empty(known).low()),
            }
        });
        let mut starts = [0u64; 4];
        for dir in Direction::ALL {
            let near = jump_starts_touching(dirty, dir);
            let possible_starts = possible.starts(side, dir);
            starts[dir.index()] = possible_starts & near;
            let ruled_out = open.starts(side, dir) & !possible_starts & near;
            self.out.stats.satisfied += ruled_out.count_ones() as usize;
        }
        starts
    }

    /// The clauses that forbid the jump from `a` in `dir` before `ply`'s
    /// simple move.
    fn forbid_jump(
        &mut self,
        board: &SymBoard<M>,
        ply: PlyRef<'_>,
        a: Square,
        dir: Direction,
    ) -> Result<(), AlwaysFalse> {
        let (side, enemy) = (ply.side, ply.side.opposite());
        let (over, land) = a.jump(dir).expect("a possible jump stays on the board");
        if self.out.options.fine_groups {
            let rule = Rule::NoJump {
                from: a,
                over,
                to: land,
            };
            self.out.group(Some(ply), rule);
        }
        let forward = side.is_forward(dir);
        let mover = board.holds_mover(a, side, forward);
        let taken = board.holds(over, enemy);
        let land_empty = board.is_empty(land);
        let why = || {
            format!(
                "the move is not a capture, but {a}x{land} is available whatever the start board"
            )
        };
        if self.movement.men_capture_kings || !forward {
            self.out.forbid(&[mover, taken, land_empty], why)?;
        } else {
            // Men may not take kings: a king takes any piece, a man a man.
            let king = both(mover, board.is_king(a));
            self.out.forbid(&[king, taken, land_empty], why)?;
            let man = both(taken, board.is_man(over));
            self.out.forbid(&[mover, man, land_empty], why)?;
        }
        Ok(())
    }

    /// A capture: every jumped square holds an enemy and every landing is
    /// empty when the piece arrives; then it cannot jump on from its stop.
    /// Where men may not take kings, a man takes men.
    ///
    /// Whether captured pieces leave at once or stay until the move ends
    /// (Italian) changes nothing here: a jumped square is emptied, so it
    /// is never jumped again, and with short jumps no landing is ever a
    /// jumped square (landings keep the origin's row parity, jumped
    /// squares have the other).
    fn capture(&mut self, board: &mut SymBoard<M>, ply: PlyRef<'_>) -> Result<(), Contradiction> {
        let (mv, enemy) = (ply.text, ply.side.opposite());
        let from = mv.from();
        let mover_is_king = board.is_king(from);
        // (Asked only where men may not take kings.)
        let mover_is_man = if self.movement.men_capture_kings {
            None
        } else {
            board.is_man(from)
        };
        board.set(
            from,
            Content::Emptied {
                by: ply_number(ply),
            },
        );
        for (at, to) in mv.steps() {
            let (dir, _) = at.diagonal_to(to).expect("parsed jumps are diagonal");
            let over = at.step(dir).expect("a jump passes over a square");
            let rule = Rule::JumpsEnemy(over);
            self.out.group(Some(ply), rule);
            self.out
                .require(board.holds(over, enemy), || board.describe(over))
                .map_err(Contradiction::at(ply, rule))?;
            if !self.movement.men_capture_kings {
                self.out
                    .forbid(&[mover_is_man, board.is_king(over)], || {
                        format!("a man cannot take the king on {over}")
                    })
                    .map_err(Contradiction::at(ply, rule))?;
            }
            let rule = Rule::LandingEmpty(to);
            self.out.group(Some(ply), rule);
            self.out
                .require(board.is_empty(to), || board.describe(to))
                .map_err(Contradiction::at(ply, rule))?;
            board.set(
                over,
                Content::Emptied {
                    by: ply_number(ply),
                },
            );
        }
        if self.out.options.units_only {
            return Ok(());
        }
        self.capture_ends(board, ply, mover_is_king)
            .map_err(Contradiction::at(ply, Rule::CaptureEnds(mv.to())))
    }

    /// After a capture: no jump from where the piece stops (a man crowned
    /// there has only backward jumps left, and those need a king).
    fn capture_ends(
        &mut self,
        board: &SymBoard<M>,
        ply: PlyRef<'_>,
        mover_is_king: Cond,
    ) -> Result<(), AlwaysFalse> {
        let (side, stop) = (ply.side, ply.text.to());
        let enemy = side.opposite();
        self.out.group(Some(ply), Rule::CaptureEnds(stop));
        for dir in Direction::ALL {
            let Some((over, land)) = stop.jump(dir) else {
                continue;
            };
            if self.out.options.fine_groups {
                let rule = Rule::CannotJumpOn {
                    from: stop,
                    over,
                    to: land,
                };
                self.out.group(Some(ply), rule);
            }
            // The piece's own kind before the move.
            let forward = side.is_forward(dir);
            let piece = if forward {
                Some(Conj::truth())
            } else {
                mover_is_king
            };
            let taken = board.holds(over, enemy);
            let land_empty = board.is_empty(land);
            let why = || {
                format!("the capture stops on {stop}, but it could still jump {over} to {land} whatever the start board")
            };
            if self.movement.men_capture_kings || !forward {
                self.out.forbid(&[piece, taken, land_empty], why)?;
            } else {
                // Men may not take kings: a king takes any piece, a man a man.
                self.out.forbid(&[mover_is_king, taken, land_empty], why)?;
                let man = both(taken, board.is_man(over));
                self.out.forbid(&[piece, man, land_empty], why)?;
            }
        }
        Ok(())
    }

    /// Plays the ply on the symbolic board (`mover` is what stood on its
    /// start square before) and marks the squares it changed as dirty.
    fn play(&mut self, board: &mut SymBoard<M>, ply: PlyRef<'_>, mover: Content) {
        let (side, mv) = (ply.side, ply.text);
        let (from, to) = (mv.from(), mv.to());
        let mut changed = from.grid_bit() | to.grid_bit();
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
        board.set(
            from,
            Content::Emptied {
                by: ply_number(ply),
            },
        );
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
                by: ply_number(ply),
            },
        );
    }
}
