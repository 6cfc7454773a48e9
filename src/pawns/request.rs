//! `pawns` as the binary asks it: a board solved within a time limit,
//! one board's formula with a bounded size, and a DRAT proof that one
//! capture fewer than an answer is impossible. The binary reads
//! the input and prints; this decides.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use varisat::ProofFormat;

use crate::sat::{prove_unsat, within, AnnotatedCnf, SatError};

use super::{pawn_cnf, solve_pawns, PawnBoard, PawnEngine, PawnSolution, PawnsError};

/// Totalizer sizes past this many (pawns x bound) are refused: about that
/// many clauses would be built in memory.
pub const MAX_TOTALIZER: usize = 50_000_000;

/// Why a bounded formula, or a proof of optimality, gives no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PawnProofError {
    /// The bound's totalizer would be too large to build.
    #[error("a totalizer over {pawns} pawns bounded at {bound} would have about {size} clauses (at most {MAX_TOTALIZER})")]
    TooLarge {
        /// Pawns on the board.
        pawns: usize,
        /// The bound asked.
        bound: usize,
        /// About how many clauses it would have.
        size: usize,
    },
    /// The time limit passed before the proof was complete.
    #[error(
        "undecided: the time limit of {} passed before the proof was complete; no proof written",
        crate::sat::in_seconds(*.0)
    )]
    Undecided(Duration),
    /// The SAT machinery failed.
    #[error("internal error: {0}")]
    Solver(SatError),
    /// One capture fewer than the answer is possible: the engine's answer
    /// was not the fewest (a bug).
    #[error(
        "internal error: {below} captures are possible, but the engine's answer has {optimum}"
    )]
    NotOptimal {
        /// The bound refuted.
        below: usize,
        /// The answer's captures.
        optimum: usize,
    },
}

impl PawnProofError {
    /// The binary's exit status: a bound too large is the user's (2), a
    /// limit undecided (3), the rest a bug (4).
    pub fn exit_status(&self) -> u8 {
        match self {
            PawnProofError::TooLarge { .. } => 2,
            PawnProofError::Undecided(_) => 3,
            _ => 4,
        }
    }
}

/// Why the board asked for cannot be chosen (bad input).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardChoiceError {
    /// A board number the input does not have.
    #[error("--board {asked}: {input} has {count} boards")]
    NoSuchBoard {
        /// The 1-based number asked for.
        asked: usize,
        /// The input's name.
        input: String,
        /// Its boards.
        count: usize,
    },
    /// Several boards, and a job (`what`) that works on one.
    #[error("{input}: {count} boards; choose one for {what} with --board N")]
    Several {
        /// The input's name.
        input: String,
        /// Its boards.
        count: usize,
        /// The job (`--cnf`, `--proof`).
        what: &'static str,
    },
}

/// The boards of an input `pawns` works on: all of them, or the one
/// `--board N` names.
#[derive(Clone, Debug)]
pub struct PawnBoards {
    /// The input's name, for messages.
    pub name: String,
    /// Every board of the input.
    pub boards: Vec<PawnBoard>,
    /// The board named (from 0), if one was.
    pub chosen: Option<usize>,
}

impl PawnBoards {
    /// The `boards` of the input `name`, with the one `board` names
    /// (1-based) chosen.
    ///
    /// # Errors
    /// A board number the input does not have.
    pub fn new(
        name: &str,
        boards: Vec<PawnBoard>,
        board: Option<usize>,
    ) -> Result<PawnBoards, BoardChoiceError> {
        let count = boards.len();
        let chosen = match board {
            Some(n) if (1..=count).contains(&n) => Some(n - 1),
            Some(asked) => {
                return Err(BoardChoiceError::NoSuchBoard {
                    asked,
                    input: name.to_string(),
                    count,
                })
            }
            None => None,
        };
        Ok(PawnBoards {
            name: name.to_string(),
            boards,
            chosen,
        })
    }

    /// The one board a job (`what`: `--cnf`, `--proof`) works on: the one
    /// chosen, or the input's only board.
    ///
    /// # Errors
    /// Several boards and none chosen.
    pub fn one(&self, what: &'static str) -> Result<usize, BoardChoiceError> {
        match self.chosen {
            Some(i) => Ok(i),
            None if self.boards.len() == 1 => Ok(0),
            None => Err(BoardChoiceError::Several {
                input: self.name.clone(),
                count: self.boards.len(),
                what,
            }),
        }
    }

    /// The board chosen, or every board, solved with `engine` within
    /// `limit` each, in parallel; in input order.
    pub fn solve(&self, engine: PawnEngine, limit: Option<Duration>) -> Vec<BoardSolved> {
        let selected: Vec<(usize, &PawnBoard)> = match self.chosen {
            Some(i) => vec![(i, &self.boards[i])],
            None => self.boards.iter().enumerate().collect(),
        };
        crate::parallel::map_in_order(&selected, |&(i, board)| {
            solve_board(i, board, engine, limit)
        })
    }
}

/// Refuses a totalizer over `board`'s pawns bounded at `bound` that would
/// be too large to build (see [`MAX_TOTALIZER`]).
///
/// # Errors
/// [`PawnProofError::TooLarge`].
pub fn check_totalizer_size(board: &PawnBoard, bound: usize) -> Result<(), PawnProofError> {
    let pawns = board.pawn_count();
    let size = pawns.saturating_mul(bound.min(pawns).saturating_add(1));
    if size > MAX_TOTALIZER {
        return Err(PawnProofError::TooLarge { pawns, bound, size });
    }
    Ok(())
}

/// `board`'s formula (see [`pawn_cnf`]), its bound's size checked first.
///
/// # Errors
/// A totalizer too large to build, or the SAT machinery failing.
pub fn bounded_cnf(
    board: &PawnBoard,
    at_most: Option<usize>,
) -> Result<AnnotatedCnf, PawnProofError> {
    if let Some(bound) = at_most {
        check_totalizer_size(board, bound)?;
    }
    pawn_cnf(board, at_most).map_err(PawnProofError::Solver)
}

/// One board's solve: its number (from 0), the checked solution, none
/// when the time limit passed first, or the error; and how long it took.
#[derive(Debug)]
pub struct BoardSolved {
    /// The board's number in the input, from 0.
    pub index: usize,
    /// `None`: the time limit passed before an answer.
    pub outcome: Option<Result<PawnSolution, PawnsError>>,
    /// Wall-clock time of the solve.
    pub took: Duration,
}

/// Solves board `index` of the input with `engine` within `limit` (the
/// binary runs the boards of an input on its thread pool).
pub(crate) fn solve_board(
    index: usize,
    board: &PawnBoard,
    engine: PawnEngine,
    limit: Option<Duration>,
) -> BoardSolved {
    let started = Instant::now();
    let outcome = match limit {
        None => Some(solve_pawns(board, engine)),
        Some(limit) => {
            let board = board.clone();
            within(limit, move || solve_pawns(&board, engine))
        }
    };
    // A solve the deadline stopped just before the wait ended.
    let outcome = outcome.filter(|r| !matches!(r, Err(PawnsError::Solver(e)) if e.is_undecided()));
    BoardSolved {
        index,
        outcome,
        took: started.elapsed(),
    }
}

/// A DRAT refutation of "at most `optimum - 1` captures" on `board`, within
/// `limit` if there is one (the refutation of a large dense board can take
/// long); `None` when the answer has no capture, so nothing is refuted.
///
/// # Errors
/// A totalizer too large, the limit passing, the SAT machinery failing,
/// or a bound below the answer that is satisfiable (a bug).
pub fn optimality_proof(
    board: &PawnBoard,
    optimum: usize,
    limit: Option<Duration>,
) -> Result<Option<Vec<u8>>, PawnProofError> {
    let Some(below) = optimum.checked_sub(1) else {
        return Ok(None);
    };
    check_totalizer_size(board, below)?;
    // The formula is built inside the limit too: its totalizer alone has
    // about pawns x optimum clauses. An owned board for the (possibly
    // abandoned) proving thread.
    let board = board.clone();
    let prove = move || {
        let cnf = pawn_cnf(&board, Some(below))?;
        let mut bytes = Vec::new();
        prove_unsat(cnf.formula(), ProofFormat::Drat, &mut bytes).map(|unsat| (unsat, bytes))
    };
    let proved = match limit {
        None => Some(prove()),
        Some(limit) => within(limit, prove),
    };
    let proved = proved.filter(|p| !matches!(p, Err(e) if e.is_undecided()));
    let Some(proved) = proved else {
        return Err(PawnProofError::Undecided(limit.unwrap_or_default()));
    };
    match proved.map_err(PawnProofError::Solver)? {
        (true, bytes) => Ok(Some(bytes)),
        (false, _) => Err(PawnProofError::NotOptimal { below, optimum }),
    }
}

impl PawnSolution {
    /// The answer as `pawns` prints it: the number of captures, then one
    /// capture a line (`r c L|R`).
    pub fn text(&self) -> String {
        let mut text = String::with_capacity(12 * self.captures.len() + 8);
        text.push_str(&self.captures.len().to_string());
        text.push('\n');
        for capture in &self.captures {
            let _ = writeln!(text, "{capture}");
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diagonal() -> PawnBoard {
        PawnBoard::from_rows(&["..O", ".O.", "O.."])
    }

    #[test]
    fn a_solution_prints_its_count_then_its_captures() {
        let solved = solve_board(0, &diagonal(), PawnEngine::Matching, None);
        let BoardSolved {
            index: 0,
            outcome: Some(Ok(solution)),
            ..
        } = &solved
        else {
            panic!("{solved:?}");
        };
        assert_eq!(solution.text(), "1\n2 2 R\n");
    }

    #[test]
    fn the_proof_refutes_one_capture_fewer_and_none_is_needed_without_captures() {
        let proof = optimality_proof(&diagonal(), 1, None).expect("0 captures is unsatisfiable");
        assert!(proof.is_some_and(|bytes| !bytes.is_empty()));
        assert_eq!(optimality_proof(&diagonal(), 0, None), Ok(None));
        assert_eq!(
            optimality_proof(&diagonal(), 2, None),
            Err(PawnProofError::NotOptimal {
                below: 1,
                optimum: 2
            })
        );
    }

    #[test]
    fn a_board_is_chosen_by_its_number_or_as_the_only_one() {
        let two = vec![diagonal(), diagonal()];
        let all = PawnBoards::new("in", two.clone(), None).unwrap();
        assert_eq!(
            all.one("--cnf").unwrap_err().to_string(),
            "in: 2 boards; choose one for --cnf with --board N"
        );
        assert_eq!(
            PawnBoards::new("in", two.clone(), Some(2))
                .unwrap()
                .one("--cnf"),
            Ok(1)
        );
        assert_eq!(
            PawnBoards::new("in", two, Some(3)).unwrap_err().to_string(),
            "--board 3: in has 2 boards"
        );
        let one = PawnBoards::new("in", vec![diagonal()], None).unwrap();
        assert_eq!(one.one("--proof"), Ok(0));
    }

    #[test]
    fn a_huge_bound_is_refused_before_building_it() {
        // 10,000 pawns bounded at 1,000: about 10 million clauses, allowed;
        // at 10,000: about 100 million, refused.
        let board = PawnBoard::from_occupancy(100, vec![true; 100 * 100]);
        assert_eq!(check_totalizer_size(&board, 1000), Ok(()));
        let refused = check_totalizer_size(&board, 10_000);
        assert!(matches!(refused, Err(PawnProofError::TooLarge { .. })));
    }
}
