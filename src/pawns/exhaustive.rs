//! Exhaustive search over capture sequences, for small boards: the
//! reference the engines are tested against. It knows nothing of covers,
//! sinks or matchings; it plays every capture from every position reached.

use std::collections::HashSet;

use super::board::{Cell, PawnBoard};

/// Boards with at most this many squares fit the search's bit sets.
pub const MAX_SQUARES: usize = 64;

/// The fewest captures after which no pawn attacks another, by breadth-first
/// search over the positions captures reach; `None` if the board has more
/// than [`MAX_SQUARES`] squares.
pub fn fewest_captures(board: &PawnBoard) -> Option<usize> {
    let n = board.size();
    if n * n > MAX_SQUARES {
        return None;
    }
    let bit = |row: usize, col: usize| 1u64 << (row * n + col);
    let has = |set: u64, row: usize, col: usize| set & bit(row, col) != 0;
    let start = board
        .pawns()
        .fold(0u64, |set, Cell { row, col }| set | bit(row, col));
    // Every capture possible in `set`: the capturer's square empties.
    let captures = |set: u64| {
        let mut next = Vec::new();
        for row in 1..n {
            for col in 0..n {
                if !has(set, row, col) {
                    continue;
                }
                let left = col > 0 && has(set, row - 1, col - 1);
                let right = col + 1 < n && has(set, row - 1, col + 1);
                if left || right {
                    next.push(set & !bit(row, col));
                }
            }
        }
        next
    };
    let mut layer = vec![start];
    let mut seen = HashSet::from([start]);
    for depth in 0.. {
        let mut next_layer = Vec::new();
        for &set in &layer {
            let after = captures(set);
            if after.is_empty() {
                return Some(depth);
            }
            for next in after {
                if seen.insert(next) {
                    next_layer.push(next);
                }
            }
        }
        layer = next_layer;
    }
    unreachable!("every capture empties a square, so the search ends")
}
