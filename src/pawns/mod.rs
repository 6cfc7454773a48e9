//! The pawn-capture puzzle (`postfacto pawns`, `shared/spec/pawns.md`):
//! pawns on an N x N board, find a shortest sequence of captures after
//! which no pawn attacks another.
//!
//! It shares nothing with the draughts board, notation or rules, only the
//! SAT layer ([`crate::sat`]) and the habit of replaying every answer with a
//! native checker ([`replay_captures`]) before anyone sees it.
//!
//! A capture empties exactly the capturer's old square (it lands on the
//! taken pawn's square), and an emptied square is never filled again. So a
//! solution is a set S of squares that empty, and it works when (1) no two
//! pawns left attack each other, i.e. S is a vertex cover of the attack
//! graph, and (2) each pawn in S still attacks someone when it moves. A
//! pawn that attacks nobody at the start never will, so it stays: these are
//! the [`Roles::sink`] pawns, and their attackers are [`Roles::forced`] into
//! S. Conversely any cover that avoids the sinks can be played, bottom row
//! first (see [`captures_in_order`]). Both engines find such a cover of
//! the least size; `encodings/pawns.md` has the proofs.
//!
//! ```
//! use postfacto::pawns::{solve_pawns, PawnBoard, PawnEngine};
//! let board = PawnBoard::from_rows(&["..O", ".O.", "O.."]);
//! let solution = solve_pawns(&board, PawnEngine::Matching)?;
//! assert_eq!(solution.captures.len(), 1);
//! assert_eq!(solution.captures[0].to_string(), "2 2 R");
//! # Ok::<_, postfacto::pawns::PawnsError>(())
//! ```

mod board;
pub mod exhaustive;
mod input;
mod matching;
mod replay;
mod request;
mod sat;

use std::fmt;

pub use board::{Cell, PawnBoard, Side};
pub use input::{format_pawn_boards, parse_pawn_boards, ParsePawnsError, ParsePawnsErrorKind};
pub use replay::{replay_captures, Capture, PawnReplayError};
pub use request::{
    bounded_cnf, check_totalizer_size, optimality_proof, BoardChoiceError, BoardSolved, PawnBoards,
    PawnProofError, MAX_TOTALIZER,
};
pub use sat::{pawn_cnf, solve_sat};

use crate::sat::SatError;

/// What each pawn can be in a solution, read off the start board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roles {
    /// Attacks nobody, so it can never capture: it stays on its square.
    pub sink: Vec<bool>,
    /// Attacks a sink, which stays: so this pawn must capture.
    pub forced: Vec<bool>,
    /// Every other pawn: whether it captures is the engines' choice.
    pub free: Vec<bool>,
}

impl Roles {
    /// The roles of every square of `board` (all false on empty squares).
    pub fn of(board: &PawnBoard) -> Roles {
        let squares = board.occupancy().len();
        let mut sink = vec![false; squares];
        for cell in board.pawns() {
            sink[board.index(cell)] = board.attacked_by(cell).next().is_none();
        }
        let mut forced = vec![false; squares];
        let mut free = vec![false; squares];
        for cell in board.pawns() {
            let i = board.index(cell);
            if sink[i] {
                continue;
            }
            if board.attacked_by(cell).any(|(_, t)| sink[board.index(t)]) {
                forced[i] = true;
            } else {
                free[i] = true;
            }
        }
        Roles { sink, forced, free }
    }
}

/// Orders the captures of the pawns marked in `captures` (one entry per
/// square) so that each can be played: bottom row first, left to right.
/// Each pawn takes up-left if a pawn stood there at the start, else
/// up-right.
///
/// Why this works: a capture from row r changes only rows r (a square
/// empties) and r-1 (a pawn is replaced by another). So when row r's turn
/// comes, rows r-1 and above are as at the start, and a pawn that attacked
/// someone at the start still does. A marked sink gets a capture that the
/// replay check rejects: an engine's fault is never hidden here.
pub fn captures_in_order(board: &PawnBoard, captures: &[bool]) -> Vec<Capture> {
    let n = board.size();
    let mut out = Vec::with_capacity(captures.iter().filter(|&&c| c).count());
    for row in (0..n).rev() {
        for col in 0..n {
            let from = Cell { row, col };
            if !captures[board.index(from)] {
                continue;
            }
            let side = board
                .attacked_by(from)
                .next()
                .map_or(Side::Left, |(side, _)| side);
            out.push(Capture { from, side });
        }
    }
    out
}

/// How the fewest captures are found.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[non_exhaustive]
pub enum PawnEngine {
    /// Minimum vertex cover by Hopcroft-Karp matching and König's theorem.
    #[default]
    Matching,
    /// The cover as clauses, minimised with a totalizer bound (varisat).
    Sat,
}

impl PawnEngine {
    /// Lower-case name, as on the command line.
    pub fn name(self) -> &'static str {
        match self {
            PawnEngine::Matching => "matching",
            PawnEngine::Sat => "sat",
        }
    }
}

/// Figures about one solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnStats {
    /// Pawns on the board.
    pub pawns: usize,
    /// Pawns that can never capture (they stay).
    pub sinks: usize,
    /// Pawns that must capture (they attack a sink).
    pub forced: usize,
    /// Matching: the size of the maximum matching of the free pawns.
    pub matched: usize,
    /// SAT: independent parts of what unit propagation leaves of the formula.
    pub parts: usize,
    /// SAT: varisat calls, each proving a part's bound or its optimality.
    pub solver_calls: usize,
    /// SAT: variables and clauses of the formula (the one `pawns --cnf` prints).
    pub vars: usize,
    /// See `vars`.
    pub clauses: usize,
}

/// A checked solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PawnSolution {
    /// The captures, in an order that plays.
    pub captures: Vec<Capture>,
    /// The board after them (the replayer's).
    pub end: PawnBoard,
    /// Figures from the engine.
    pub stats: PawnStats,
}

/// A solve that went wrong: never a wrong answer printed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PawnsError {
    /// The SAT machinery failed.
    Solver(SatError),
    /// The engine's captures do not replay: a bug in postfacto.
    Replay {
        /// Which engine.
        engine: PawnEngine,
        /// What the checker found.
        error: PawnReplayError,
    },
}

impl fmt::Display for PawnsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PawnsError::Solver(e) => write!(f, "internal error: {e}"),
            PawnsError::Replay { engine, error } => write!(
                f,
                "internal error: the {} engine's captures do not replay: {error}",
                engine.name()
            ),
        }
    }
}

impl std::error::Error for PawnsError {}

impl From<SatError> for PawnsError {
    fn from(e: SatError) -> PawnsError {
        PawnsError::Solver(e)
    }
}

/// Finds a shortest capture sequence with `engine` and replays it.
///
/// # Errors
/// [`PawnsError`] if the SAT machinery fails or the answer does not replay.
pub fn solve_pawns(board: &PawnBoard, engine: PawnEngine) -> Result<PawnSolution, PawnsError> {
    let roles = Roles::of(board);
    let mut stats = PawnStats {
        pawns: board.pawn_count(),
        sinks: roles.sink.iter().filter(|&&s| s).count(),
        forced: roles.forced.iter().filter(|&&s| s).count(),
        ..PawnStats::default()
    };
    let captures = match engine {
        PawnEngine::Matching => {
            let (captures, matched) = matching::fewest_captures(board, &roles);
            stats.matched = matched;
            captures
        }
        PawnEngine::Sat => solve_sat(board, &mut stats)?,
    };
    let captures = captures_in_order(board, &captures);
    let end =
        replay_captures(board, &captures).map_err(|error| PawnsError::Replay { engine, error })?;
    Ok(PawnSolution {
        captures,
        end,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec_example() -> PawnBoard {
        PawnBoard::from_rows(&[
            "....O...", ".....O..", "....O.O.", "..O..O..", ".O.O.O..", "..O.O...", ".....O..",
            "....O...",
        ])
    }

    #[test]
    fn the_spec_example_takes_six_captures_with_both_engines() {
        for engine in [PawnEngine::Matching, PawnEngine::Sat] {
            let s = solve_pawns(&spec_example(), engine).unwrap();
            assert_eq!(s.captures.len(), 6, "{engine:?}");
            assert_eq!(s.end.first_attack(), None);
        }
    }

    #[test]
    fn the_spec_answer_replays() {
        let c = |r: usize, col: usize, side| Capture {
            from: Cell {
                row: r - 1,
                col: col - 1,
            },
            side,
        };
        use Side::{Left as L, Right as R};
        let answer = [
            c(7, 6, L),
            c(4, 6, L),
            c(2, 6, L),
            c(5, 2, R),
            c(5, 4, L),
            c(6, 5, R),
        ];
        replay_captures(&spec_example(), &answer).unwrap();
    }

    #[test]
    fn roles_split_sinks_forced_and_free() {
        // (1,1) sink; (2,2) attacks it: forced; (3,3) attacks (2,2), not a sink: free.
        let b = PawnBoard::from_rows(&["O..", ".O.", "..O"]);
        let roles = Roles::of(&b);
        assert_eq!(
            roles.sink,
            [true, false, false, false, false, false, false, false, false]
        );
        assert!(roles.forced[4] && roles.free[8]);
        assert_eq!(
            solve_pawns(&b, PawnEngine::Matching)
                .unwrap()
                .captures
                .len(),
            1
        );
    }

    #[test]
    fn empty_and_tiny_boards_need_no_capture() {
        for b in [
            PawnBoard::empty(0),
            PawnBoard::empty(3),
            PawnBoard::from_rows(&["O"]),
        ] {
            for engine in [PawnEngine::Matching, PawnEngine::Sat] {
                assert!(solve_pawns(&b, engine).unwrap().captures.is_empty());
            }
        }
    }

    #[test]
    fn a_sink_marked_to_capture_is_caught_by_the_replay() {
        let b = PawnBoard::from_rows(&["O.", ".."]);
        let order = captures_in_order(&b, &[true, false, false, false]);
        assert!(replay_captures(&b, &order).is_err());
    }
}
