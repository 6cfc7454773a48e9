//! The known search method (the "DFS approach" of `shared/spec/english.md`),
//! kept for comparison with the SAT engine.
//!
//! Replay from a start board that holds only what earlier repairs put there; at
//! the first rule broken, repair the start board with the weakest piece that
//! fixes it, and replay again from ply 1. A capture that the record does not
//! take must be blocked on its landing square by a piece of unknown colour:
//! try black, then white, depth first, remembering start boards already tried.
//! It reads the broken rule from the same `Rules::play` the replayer uses.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use crate::board::{Bits, Board, Color, Piece, Role, Square};
use crate::notation::Record;
use crate::rules::{English, Rules, Violation};

use super::{Found, SolveStats};

/// When the search gives up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Limit {
    /// Most start boards to try.
    pub nodes: Option<u64>,
    /// Most time to spend.
    pub time: Option<Duration>,
}

/// What the first broken rule asks of the start board.
enum Repair {
    /// Put this piece on this (empty, untouched) start square.
    Put(Square, Piece),
    /// Block a capture landing on this square: a piece of either colour.
    Block(Square),
    /// No start-board change can fix it: this branch fails.
    DeadEnd,
}

/// The weakest piece of `color` allowed on `sq` in a start board.
fn weakest(color: Color, sq: Square) -> Piece {
    let role = if sq.row() == color.crowning_row() {
        Role::King
    } else {
        Role::Man
    };
    Piece::new(color, role)
}

/// Replays `record` from `start`; `Ok` if it plays through, else the repair the first failure asks for.
fn diagnose(start: &Board, record: &Record) -> Result<(), Repair> {
    let mut board = *start;
    // Where each piece on the board stood on the start board.
    let mut origin: [Option<Square>; Square::COUNT] =
        std::array::from_fn(|i| Some(Square::new(i as u8)));
    // Squares any ply has changed: the start board cannot act on them any more.
    let mut touched: Bits = 0;
    for (i, mv) in record.moves.iter().enumerate() {
        let side = record.mover(i + 1);
        let untouched = |sq: Square| touched & sq.bit() == 0;
        match English.play(&board, side, mv) {
            Ok(next) => {
                let moving = origin[mv.from().index()];
                let occupied =
                    |b: &Board| b.occupied_by(Color::Black) | b.occupied_by(Color::White);
                let emptied = occupied(&board) & !occupied(&next);
                for sq in Square::all().filter(|s| emptied & s.bit() != 0) {
                    origin[sq.index()] = None;
                }
                touched |= emptied;
                origin[mv.to().index()] = moving;
                touched |= mv.to().bit();
                board = next;
            }
            Err(violation) => {
                return Err(match violation {
                    Violation::NoPiece { square, side } if untouched(square) => {
                        Repair::Put(square, weakest(side, square))
                    }
                    Violation::NothingToJump { square, enemy }
                        if untouched(square) && board.is_empty(square) =>
                    {
                        Repair::Put(square, weakest(enemy, square))
                    }
                    Violation::ManBackwards { .. } | Violation::CrownedMidCapture { .. } => {
                        match origin[mv.from().index()] {
                            Some(at) => Repair::Put(at, Piece::new(side, Role::King)),
                            None => Repair::DeadEnd,
                        }
                    }
                    Violation::CaptureAvailable { example } if untouched(example.to()) => {
                        Repair::Block(example.to())
                    }
                    Violation::MustContinue { to, .. } if untouched(to) => Repair::Block(to),
                    _ => Repair::DeadEnd,
                });
            }
        }
    }
    Ok(())
}

struct Search<'r> {
    record: &'r Record,
    seen: HashSet<Board>,
    nodes: u64,
    limit: Limit,
    started: Instant,
}

/// The search hit its limit.
struct GaveUp;

impl Search<'_> {
    fn visit(&mut self, start: Board) -> Result<Option<Board>, GaveUp> {
        if !self.seen.insert(start) {
            return Ok(None);
        }
        if self.limit.nodes.is_some_and(|n| self.nodes >= n)
            || self.limit.time.is_some_and(|t| self.started.elapsed() > t)
        {
            return Err(GaveUp);
        }
        self.nodes += 1;
        match diagnose(&start, self.record) {
            Ok(()) => Ok(Some(start)),
            Err(Repair::DeadEnd) => Ok(None),
            Err(Repair::Put(sq, piece)) => {
                let mut next = start;
                next.set(sq, Some(piece));
                self.visit(next)
            }
            Err(Repair::Block(sq)) => {
                for color in [Color::Black, Color::White] {
                    let mut next = start;
                    next.set(sq, Some(weakest(color, sq)));
                    if let Some(found) = self.visit(next)? {
                        return Ok(Some(found));
                    }
                }
                Ok(None)
            }
        }
    }
}

/// Finds a start board by the repair-and-replay search, within `limit`.
pub fn solve_dfs(record: &Record, limit: Limit) -> Found {
    let mut search = Search {
        record,
        seen: HashSet::new(),
        nodes: 0,
        limit,
        started: Instant::now(),
    };
    let result = search.visit(Board::empty());
    let stats = SolveStats {
        nodes: search.nodes,
        ..SolveStats::default()
    };
    match result {
        Ok(Some(start)) => Found::Start(start, stats),
        Ok(None) => Found::Impossible(None, stats),
        Err(GaveUp) => Found::GaveUp(
            format!("the DFS gave up after {} start boards", search.nodes),
            stats,
        ),
    }
}
