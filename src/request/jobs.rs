//! The requests on boards: legal moves and the formula.

use crate::analysis::{Analysis, Decoded};
use crate::board::Color;
use crate::rules::Variant;
use crate::sat::parse_model;
use crate::solve::SolveError;

use super::{BoardText, Fragment, InputError, Problem, RequestError, Solved};

/// The legal moves on a board.
#[derive(Clone, Debug)]
pub struct MovesRequest {
    board: BoardText,
    variant: Variant,
    turn: Option<Color>,
}

impl MovesRequest {
    /// The moves on `board` under `variant`, for the side its FEN names.
    pub fn new(board: BoardText, variant: Variant) -> MovesRequest {
        MovesRequest {
            board,
            variant,
            turn: None,
        }
    }

    /// For `turn` (needed for board rows; over a FEN's side).
    #[must_use]
    pub fn turn(mut self, turn: Color) -> MovesRequest {
        self.turn = Some(turn);
        self
    }

    /// The legal moves as the rule set writes them (every landing of a
    /// capture), sorted by square, each once.
    ///
    /// # Errors
    /// The board cannot be read, has unknown squares, or breaks a rule
    /// of positions.
    pub fn run(&self) -> Result<Vec<String>, InputError> {
        let (facts, fen_turn) = self.board.read(self.variant.topology(), "given")?;
        let all = self.variant.topology().all_bits();
        if facts.known != all {
            return Err(InputError::Board {
                which: "given",
                line: 1,
                message: "an unknown square ('?'): legal moves need every square known".into(),
            });
        }
        let rules = self.variant.rules();
        if let Some(problem) = rules.start_problems(&facts.board).first() {
            return Err(InputError::NotAPosition {
                which: "given",
                problem: problem.to_string(),
            });
        }
        let side = self.turn.or(fen_turn).ok_or(InputError::NoTurn)?;
        let mut moves: Vec<String> = rules
            .legal_moves(&facts.board, side)
            .iter()
            .map(|m| self.variant.write_move(m))
            .collect();
        // By their squares' numbers (`9-13` before `10-14`); algebraic
        // squares by file, then rank.
        moves.sort_by_cached_key(|mv| {
            mv.split(['-', 'x', ':'])
                .map(|square| {
                    let rank = square.trim_start_matches(|c: char| c.is_ascii_alphabetic());
                    let file = square[..square.len() - rank.len()].to_string();
                    (file, rank.parse::<u32>().ok())
                })
                .collect::<Vec<_>>()
        });
        moves.dedup();
        Ok(moves)
    }
}

/// The formula `solve` hands its solver for a fragment, in DIMACS with
/// named variables and clause groups.
#[derive(Clone, Debug)]
pub struct CnfRequest {
    fragment: Fragment,
}

impl CnfRequest {
    /// The formula of `fragment`.
    pub fn new(fragment: Fragment) -> CnfRequest {
        CnfRequest { fragment }
    }

    /// The DIMACS text: under the first rule set the fragment solves
    /// under when several may be its own; for a damaged fragment with the
    /// clauses `solve` learns (see `encodings/damaged.md`).
    ///
    /// # Errors
    /// Bad input, or the formula cannot be built.
    pub fn run(&self) -> Result<String, RequestError> {
        let (problem, analysis) = self.chosen()?;
        let cnf = analysis
            .dimacs(&problem.record)
            .map_err(RequestError::from_solve)?;
        let mut text = Vec::new();
        cnf.write_dimacs(&mut text)
            .map_err(|e| SolveError::Dimacs(e.to_string()))?;
        Ok(String::from_utf8_lossy(&text).into_owned())
    }

    /// A solver's model of the formula [`CnfRequest::run`] gives (its `s`
    /// and `v` lines, or the literals alone) read back into the answer it
    /// stands for, replayed.
    ///
    /// # Errors
    /// [`InputError::Model`] for a model that is no answer (unreadable,
    /// not a model of the formula, rejected by the replayer, or none).
    pub fn decode(&self, model: &str) -> Result<Solved, RequestError> {
        let bad = |reason: String| RequestError::BadInput(InputError::Model { reason });
        let literals = parse_model(model)
            .map_err(|e| bad(e.to_string()))?
            .ok_or_else(|| bad("the solver found none (s UNSATISFIABLE or UNKNOWN)".into()))?;
        let (problem, analysis) = self.chosen()?;
        let decoded = analysis
            .decode(&problem.record, &literals)
            .map_err(|e| match e {
                SolveError::Unsupported(m) => bad(m),
                other => RequestError::from_solve(other),
            })?;
        match decoded {
            Decoded::Answer(solution) => Ok(Solved::checked(&problem, solution)?),
            Decoded::Unsatisfied { clause, group } => Err(bad(format!(
                "not a model of the formula: clause {clause} is false ({group})"
            ))),
            Decoded::Rejected { ply, why } => Err(bad(format!(
                "a model of the formula, but the replayer rejects ply {ply}: {why}"
            ))),
        }
    }

    /// The fragment's problem under the first rule set it solves under
    /// (the one its formula is written for), with its analysis.
    fn chosen(&self) -> Result<(Problem, Analysis), RequestError> {
        let problems = self.fragment.problems()?;
        let (analysis, problem) =
            super::record::problem_formula(problems).map_err(RequestError::from_solve)?;
        Ok((problem, analysis))
    }
}
