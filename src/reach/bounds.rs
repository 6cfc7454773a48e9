//! Lower bounds on the plies from a position to a target, and the reasons
//! a target cannot be reached at all: arguments that cost no search.
//!
//! Each side's pieces on the target's known squares must come from its
//! pieces now, one each: a **minimum-cost assignment** (Hungarian method)
//! where a man goes to a man's square only forward, within the cone its
//! diagonal steps can reach (unless men capture backwards), a king's square
//! takes a man's way to its crowning row or a king's moves, and no man
//! comes from a king. One move moves one piece, so a side needs at least
//! the assignment's moves, less what captures can save (a jump covers two
//! steps in one move: `2J - 1` moves saved by `J` jumps at most, and a side
//! jumps at most as many pieces as the other side can lose). The two sides
//! alternate, so the plies follow from the side that needs more.

use crate::board::{Board, Color, PartialBoard, Role, Square};
use crate::notation::plural;
use crate::rules::Movement;

/// A cost that no assignment may use.
const NEVER: u32 = 1 << 20;

/// Why no game reaches the target from a position, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NoGame(pub String);

/// What a side needs to reach the target, as far as cheap arguments tell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Need {
    /// At least `least` moves of the side; exactly that many when `exact`
    /// (no piece of either side is taken and it has no king now or there:
    /// then each of its moves is a man's step one row forward).
    Moves {
        /// The fewest moves.
        least: u32,
        /// Whether it is also the most.
        exact: bool,
        /// A guess, not a bound: the assignment's moves without what
        /// captures may save (the search for any game steers by it; the
        /// savings make the bound near zero once many pieces are to go).
        guess: u32,
    },
    /// Never: why.
    Never(String),
}

/// The fewest plies from a position where `side` is to move to the target
/// with `turn` to move, given each side's [`Need`] (indexed by colour), or
/// why no number of plies fits: a side whose moves are exact fixes the
/// plies, and the other side's moves must fit in them.
pub(crate) fn plies_from(needs: [(u32, bool); 2], side: Color, turn: Color) -> Result<u32, NoGame> {
    let (mine, mine_exact) = needs[side as usize];
    let (theirs, theirs_exact) = needs[side.opposite() as usize];
    let same = side == turn;
    let least = plies_for(mine, theirs, same);
    // k plies: ceil(k/2) moves of `side`, floor(k/2) of the other.
    let fixed = if mine_exact {
        Some((2 * mine).saturating_sub(u32::from(!same)))
    } else if theirs_exact {
        Some(2 * theirs + u32::from(!same))
    } else {
        None
    };
    let Some(k) = fixed else {
        return Ok(least);
    };
    let fits =
        |moves: u32, exact: bool, made: u32| if exact { made == moves } else { made >= moves };
    if (mine_exact && !same && mine == 0)
        || !fits(mine, mine_exact, k.div_ceil(2))
        || !fits(theirs, theirs_exact, k / 2)
    {
        let (who, count) = if mine_exact {
            (side, mine)
        } else {
            (side.opposite(), theirs)
        };
        let (other, needs) = if mine_exact {
            (side.opposite(), theirs)
        } else {
            (side, mine)
        };
        let moves = |n: u32| plural(n as usize, "move");
        return Err(NoGame(format!(
            "{} must make exactly {} more (its men advance {} in all, and no piece is taken or crowned); with {} to move at the end, that leaves {} no room for the {} it needs",
            who.title(),
            moves(count),
            plural(count as usize, "row"),
            turn.name(),
            other.title(),
            moves(needs),
        )));
    }
    Ok(k)
}

/// The fewest plies in which the side to move makes `mine` moves and the
/// other `theirs`, ending with the side to move to move again when `same`.
pub(crate) fn plies_for(mine: u32, theirs: u32, same: bool) -> u32 {
    // k plies: ceil(k/2) moves of the side to move, floor(k/2) of the other.
    let mut k = (2 * mine).saturating_sub(1).max(2 * theirs);
    if k.is_multiple_of(2) != same {
        k += 1;
    }
    k
}

/// The fewest moves `color` needs from `board` to `target`.
pub(crate) fn moves_needed(
    board: &Board,
    target: &PartialBoard,
    color: Color,
    movement: Movement,
) -> Need {
    let (sources, targets) = pieces_now_and_asked(board, target, color);
    if targets.len() > sources.len() {
        return Need::Never(format!(
            "{} has {} pieces on the board asked for, but {} now",
            color.title(),
            targets.len(),
            sources.len()
        ));
    }
    // Pieces of the other side that may still be taken: each jump saves
    // at most two moves' steps, and the first capture move costs one.
    let (theirs_now, theirs_kept) = pieces_now_and_kept(board, target, color.opposite());
    let jumps = theirs_now.saturating_sub(theirs_kept);
    // A man goes back only by capturing: not when this side takes nothing.
    let mut movement = movement;
    movement.men_capture_backwards &= jumps > 0;
    let mut costs = match cost_rows(&sources, &targets, color, movement) {
        Ok(costs) => costs,
        Err(never) => return never,
    };
    // Each piece of this side that is taken leaves from a square off the
    // board's edge (a jump needs a square on each side): one on the edge
    // moves first.
    if fully_known(target) {
        let lost = sources.len() - targets.len();
        let on_edge: Vec<u32> = sources
            .iter()
            .map(|&(s, _)| u32::from(on_edge(s)))
            .collect();
        costs.extend(std::iter::repeat_n(on_edge, lost));
    }
    let Some(total) = assignment(&costs) else {
        return Need::Never(format!(
            "the {} pieces asked for cannot all come from different {} pieces: men move only forward",
            color.name(),
            color.name()
        ));
    };
    let saved = if jumps > 0 { 2 * jumps - 1 } else { 0 };
    let misplaced = misplaced(board, &targets, color);
    let must_capture = u32::from(fully_known(target) && theirs_now > theirs_kept);
    let kings = targets
        .iter()
        .chain(&sources)
        .any(|&(_, role)| role == Role::King);
    let least = total.saturating_sub(saved).max(misplaced).max(must_capture);
    if fully_known(target) && jumps == 0 && targets.len() == sources.len() && !kings {
        return men_steps_only(&sources, &targets, color, least);
    }
    Need::Moves {
        least,
        exact: false,
        guess: total.max(least),
    }
}

/// Pieces with their squares.
type Pieces = Vec<(Square, Role)>;

/// The pieces of `color` on `board` and on `target`.
fn pieces_now_and_asked(board: &Board, target: &PartialBoard, color: Color) -> (Pieces, Pieces) {
    let sources = board
        .squares_of(color)
        .filter_map(|s| board.get(s).map(|p| (s, p.role)))
        .collect();
    let targets = target
        .facts()
        .filter_map(|(s, p)| p.filter(|p| p.color == color).map(|p| (s, p.role)))
        .collect();
    (sources, targets)
}

/// How many pieces of `color` are on `board`, and how many `target` keeps.
fn pieces_now_and_kept(board: &Board, target: &PartialBoard, color: Color) -> (u32, u32) {
    let now = board.occupied_by(color).count_ones();
    let kept = target
        .facts()
        .filter(|(_, p)| p.is_some_and(|p| p.color == color))
        .count() as u32;
    (now, kept)
}

/// The cost of each target (a row) from each source piece (a column), or
/// why a target can be reached from none.
fn cost_rows(
    sources: &[(Square, Role)],
    targets: &[(Square, Role)],
    color: Color,
    movement: Movement,
) -> Result<Vec<Vec<u32>>, Need> {
    let costs: Vec<Vec<u32>> = targets
        .iter()
        .map(|&(t, role)| {
            sources
                .iter()
                .map(|&(s, from)| cost(s, from, t, role, color, movement))
                .collect()
        })
        .collect();
    if let Some(&(t, role)) = targets
        .iter()
        .zip(&costs)
        .find(|(_, row)| row.iter().all(|&c| c >= NEVER))
        .map(|(t, _)| t)
    {
        return Err(Need::Never(format!(
            "no {} piece can reach the {} {} on {}: men move only forward, and no man becomes a king's square's man",
            color.name(),
            color.name(),
            if role == Role::King { "king" } else { "man" },
            t
        )));
    }
    Ok(costs)
}

/// The targets whose square does not hold that piece of `color` yet.
fn misplaced(board: &Board, targets: &[(Square, Role)], color: Color) -> u32 {
    targets
        .iter()
        .filter(|&&(t, role)| {
            board
                .get(t)
                .is_none_or(|p| p.color != color || p.role != role)
        })
        .count() as u32
}

/// The moves when every move is one man's step one row forward (nothing
/// taken, no kings): the rows tell them exactly, if at least `least`.
fn men_steps_only(
    sources: &[(Square, Role)],
    targets: &[(Square, Role)],
    color: Color,
    least: u32,
) -> Need {
    let rows = |squares: &[(Square, Role)]| -> i64 {
        squares.iter().map(|&(sq, _)| forward_rows(sq, color)).sum()
    };
    let advanced = rows(targets) - rows(sources);
    match u32::try_from(advanced) {
        Ok(moves) if moves >= least => Need::Moves {
            least: moves,
            exact: true,
            guess: moves,
        },
        _ => Need::Never(format!(
            "{}'s men cannot end where they are asked to: they take nothing, so each move is one step forward",
            color.title()
        )),
    }
}

/// Whether `sq` is on the board's edge, where no piece can be jumped.
fn on_edge(sq: Square) -> bool {
    let last = sq.topology().size() - 1;
    sq.row() == 0 || sq.row() == last || sq.col() == 0 || sq.col() == last
}

/// How far `sq` is from `color`'s own back row, in rows.
fn forward_rows(sq: Square, color: Color) -> i64 {
    let row = i64::from(sq.row());
    if color == Color::Black {
        row
    } else {
        i64::from(sq.topology().size()) - 1 - row
    }
}

/// Whether the target gives every square.
fn fully_known(target: &PartialBoard) -> bool {
    let all = target.board.topology().all_bits();
    target.known & all == all
}

/// The fewest moves for a `from` piece of `color` on `s` to become a
/// `role` piece on `t`, without captures ([`NEVER`] when it cannot).
fn cost(s: Square, from: Role, t: Square, role: Role, color: Color, movement: Movement) -> u32 {
    let forward = |a: Square, b: Square| -> i32 {
        let d = i32::from(b.row()) - i32::from(a.row());
        if color == Color::Black {
            d
        } else {
            -d
        }
    };
    let across = |a: Square, b: Square| (i32::from(a.col()) - i32::from(b.col())).unsigned_abs();
    let steps = |a: Square, b: Square| forward(a, b).unsigned_abs().max(across(a, b));
    let king_moves = |a: Square, b: Square| -> u32 {
        if a == b {
            0
        } else if movement.flying_kings {
            if a.diagonal_to(b).is_some() {
                1
            } else {
                2
            }
        } else {
            steps(a, b)
        }
    };
    let man_moves = |a: Square, b: Square| -> u32 {
        let ahead = forward(a, b);
        if movement.men_capture_backwards {
            steps(a, b)
        } else if ahead >= 0 && across(a, b).cast_signed() <= ahead {
            ahead.unsigned_abs()
        } else {
            NEVER
        }
    };
    match (from, role) {
        (Role::King, Role::Man) => NEVER,
        (Role::King, Role::King) => king_moves(s, t),
        (Role::Man, Role::Man) => man_moves(s, t),
        (Role::Man, Role::King) => {
            // Forward to the crowning row, then a king's move unless it is
            // crowned on the square itself.
            let row = s.topology().crowning_row(color);
            let rows = if color == Color::Black {
                i32::from(row) - i32::from(s.row())
            } else {
                i32::from(s.row()) - i32::from(row)
            };
            let crowned_there = t.row() == row && man_moves(s, t) < NEVER;
            rows.unsigned_abs() + u32::from(!crowned_there)
        }
    }
}

/// The least total cost of giving each row a different column (rows no
/// more than columns), by the Hungarian method; `None` when every way
/// uses a [`NEVER`] cost.
fn assignment(costs: &[Vec<u32>]) -> Option<u32> {
    let n = costs.len();
    if n == 0 {
        return Some(0);
    }
    let m = costs[0].len();
    let inf = i64::MAX / 4;
    let (mut u, mut v) = (vec![0i64; n + 1], vec![0i64; m + 1]);
    let (mut p, mut way) = (vec![0usize; m + 1], vec![0usize; m + 1]);
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0;
        let mut min_v = vec![inf; m + 1];
        let mut used = vec![false; m + 1];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = inf;
            let mut j1 = 0;
            for j in 1..=m {
                if used[j] {
                    continue;
                }
                let cur = i64::from(costs[i0 - 1][j - 1]) - u[i0] - v[j];
                if cur < min_v[j] {
                    min_v[j] = cur;
                    way[j] = j0;
                }
                if min_v[j] < delta {
                    delta = min_v[j];
                    j1 = j;
                }
            }
            for j in 0..=m {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    min_v[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    let total: i64 = (1..=m)
        .filter(|&j| p[j] != 0)
        .map(|j| i64::from(costs[p[j] - 1][j - 1]))
        .sum();
    (total < i64::from(NEVER)).then_some(total as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_assignment_is_the_cheapest() {
        let costs = vec![vec![4, 1, 3], vec![2, 0, 5]];
        assert_eq!(assignment(&costs), Some(3));
        assert_eq!(assignment(&[vec![NEVER, NEVER]]), None);
        assert_eq!(assignment(&[vec![NEVER, 2], vec![NEVER, 1]]), None);
        assert_eq!(assignment(&[]), Some(0));
    }

    #[test]
    fn plies_follow_the_side_that_needs_more() {
        // The side to move needs 3 moves, the other 1, ending with the same
        // side to move: 3 + 2 = 5 plies is odd, so 6.
        assert_eq!(plies_for(3, 1, true), 6);
        assert_eq!(plies_for(3, 1, false), 5);
        assert_eq!(plies_for(0, 0, true), 0);
        assert_eq!(plies_for(0, 0, false), 1);
        assert_eq!(plies_for(0, 2, true), 4);
        assert_eq!(plies_for(1, 1, false), 3);
    }
}
