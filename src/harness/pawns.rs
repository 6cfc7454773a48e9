//! `bench --pawns`: both pawn engines on random boards. The engines must
//! agree on every board's optimum; times are whole solves (roles, engine,
//! ordering and the replay check), parse times apart.

use std::time::{Duration, Instant};

use crate::pawns::{format_pawn_boards, parse_pawn_boards, solve_pawns, PawnBoard, PawnEngine};
use crate::random::Rng;

use super::{HarnessError, Summary};

/// Boards of the pawn benchmark: size, how many random boards, and the
/// percentage of squares with pawns (above about 60% the free pawns form
/// one giant connected part instead of many small ones, and the SAT engine
/// is left out above 100 x 100: from 200 x 200 its search there takes from
/// a second to minutes).
const PAWN_BOARDS: [(usize, usize, u32); 8] = [
    (8, 201, 50),
    (32, 201, 50),
    (100, 51, 50),
    (316, 11, 50),
    (700, 5, 50),
    (1000, 5, 50),
    (100, 51, 90),
    (1000, 5, 90),
];

/// One engine on one kind of board.
#[derive(Clone, Copy, Debug)]
pub struct PawnRow {
    /// The side of the boards.
    pub size: usize,
    /// The percentage of squares with pawns.
    pub percent: u32,
    /// How many boards.
    pub boards: usize,
    /// Mean pawns per board.
    pub pawns: usize,
    /// Mean captures per board (the optimum).
    pub captures: usize,
    /// The median time to read a board back.
    pub parse: Duration,
    /// The engine.
    pub engine: PawnEngine,
    /// Its time per board.
    pub times: Summary,
    /// Boards per second.
    pub per_second: f64,
    /// Mean solver calls per board.
    pub solver_calls: usize,
}

/// Every row of the pawn table, boards drawn from `seed`.
///
/// # Errors
/// A board that does not read back, an engine that fails, or engines that
/// disagree.
pub fn pawn_rows(seed: u64) -> Result<Vec<PawnRow>, HarnessError> {
    let mut rng = Rng::new(seed);
    let mut rows = Vec::new();
    for (size, count, percent) in PAWN_BOARDS {
        let boards: Vec<PawnBoard> = (0..count)
            .map(|_| PawnBoard::random(size, percent, &mut rng))
            .collect();
        let parse = parse_median(&boards, size)?;
        let pawns = boards.iter().map(PawnBoard::pawn_count).sum::<usize>() / count;
        let engines: &[PawnEngine] = if percent > 60 && size > 100 {
            &[PawnEngine::Matching]
        } else {
            &[PawnEngine::Matching, PawnEngine::Sat]
        };
        let mut optimum: Option<Vec<usize>> = None;
        for &engine in engines {
            let (times, captures, calls) = time_pawn_engine(&boards, engine)?;
            match &optimum {
                Some(best) if *best != captures => {
                    return Err(HarnessError::PawnEnginesDisagree(size))
                }
                _ => optimum = Some(captures.clone()),
            }
            let times = Summary::of(&times);
            rows.push(PawnRow {
                size,
                percent,
                boards: count,
                pawns,
                captures: captures.iter().sum::<usize>() / count,
                parse,
                engine,
                times,
                per_second: times.per_second(count),
                solver_calls: calls / count,
            });
        }
    }
    Ok(rows)
}

/// The median time to read each of `boards` (of side `size`) back from its
/// text, which must give the board again.
fn parse_median(boards: &[PawnBoard], size: usize) -> Result<Duration, HarnessError> {
    let mut parse_times = Vec::new();
    for board in boards {
        let text = format_pawn_boards(std::slice::from_ref(board));
        let started = Instant::now();
        let parsed = parse_pawn_boards(&text)?;
        parse_times.push(started.elapsed());
        if parsed[0] != *board {
            return Err(HarnessError::PawnBoardDoesNotReadBack(size));
        }
    }
    Ok(Summary::of(&parse_times).median)
}

/// `engine` on each of `boards`: the times, the captures of each board,
/// and the solver calls in all.
fn time_pawn_engine(
    boards: &[PawnBoard],
    engine: PawnEngine,
) -> Result<(Vec<Duration>, Vec<usize>, usize), HarnessError> {
    let mut times = Vec::new();
    let mut captures = Vec::new();
    let mut calls = 0;
    for board in boards {
        let started = Instant::now();
        let solution = solve_pawns(board, engine)?;
        times.push(started.elapsed());
        captures.push(solution.captures.len());
        calls += solution.stats.solver_calls;
    }
    Ok((times, captures, calls))
}
