//! One request per job, each answering with checked results: the layer the
//! binary, the Python package and a cluster task call. The binary's
//! `solve` runs [`solve_item`] on each record of its input; Python's
//! `solve`, `repair` and `report` run the same job through
//! [`SolveRequest`] and [`RepairRequest`]; [`crate::output`] writes what
//! it found in every format.
//!
//! A request holds what a user has in hand (move strings, FEN strings or
//! board rows, a rule set's name) and its `run` returns an answer the
//! replayer has accepted, or a [`RequestError`] whose kind is the binary's
//! exit status. Rule inference (`rules: auto`) happens here, once, inside
//! the request's time limit.
//!
//! ```
//! use postfacto::request::{Fragment, SolveRequest};
//! let fragment = Fragment::new(["21-17", "13x22x31x24", "19x28"]).first_named("white")?;
//! let solved = SolveRequest::new(fragment).run()?;
//! assert_eq!(solved.moves(), ["21-17", "13x22x31x24", "19x28"]);
//! # Ok::<_, postfacto::request::RequestError>(())
//! ```

mod analyses;
mod batch;
mod cnf;
mod fragment;
mod input;
mod jobs;
mod judge;
mod reach;
mod record;
mod report;
mod solve;
mod source;
mod verify;

use crate::board::Color;
use std::io;

use crate::notation::{
    BoardTextProblem, ParseFenError, ParseMoveError, ParsePdnError, ParseRecordError,
};
use crate::rules::StartProblem;
use crate::solve::SolveError;

pub use batch::{Batch, BatchInput};
pub use cnf::{CnfRequest, ModelRead, SatAnswer, SatRequest};
pub use fragment::{side_named, side_to_move, BoardText, Fragment, Problem, RulesChoice};
pub use input::{
    first_solving, is_pdn, pdn_text, read_items, start_facts, with_fen, Item, ReadAs, StartFrom,
};
pub use jobs::{LegalMoves, MovesRequest, NoMove};
pub use judge::{AnswerError, JudgeRequest, JudgeVerdict, JudgedRecord, Judgement, NotAccepted};
pub use reach::{
    start_legality, undecided_reason, Legality, ReachRequest, ReachVerdict, Reached, ShortestGames,
};
pub use record::{
    engine_with_limit, item_formula, silent, solve_item, solve_problems, Analyses, EngineKind,
    OptionsError, Progress, SolveOptions,
};
pub use report::{summary, Analysed, Name, PrefixReport, Report, Verdict};
pub use solve::{RepairRequest, Repaired, SolveRequest, Solved};
pub use source::{
    board_files, max_input, pdn_files, record_files, write_file, Source, SourceError,
    WriteFileError,
};
pub use verify::{
    ArchiveWatch, CheckedArchive, CheckedGame, RepairLimits, StartCheck, VerifyRequest,
    LEGALITY_LIMIT,
};

/// Why a request gives no answer; [`RequestError::exit_status`] is the
/// binary's exit status for it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RequestError {
    /// The request cannot be read (exit status 2).
    #[error(transparent)]
    BadInput(#[from] InputError),
    /// No start board makes the moves legal, or no repair within the
    /// edits allowed exists, or no game reaches the position (exit 1).
    #[error("{reason}")]
    Impossible {
        /// Why, in one line (the smallest set of rules in conflict).
        reason: String,
    },
    /// A time limit passed before a verdict (exit 3).
    #[error("undecided: {reason}")]
    Undecided {
        /// What was proved before it passed.
        reason: String,
    },
    /// The solver failed or an answer did not replay: a bug (exit 4).
    #[error(transparent)]
    Internal(#[from] SolveError),
}

impl RequestError {
    /// The binary's exit status: 1 impossible, 2 bad input, 3 undecided,
    /// 4 internal error.
    pub fn exit_status(&self) -> u8 {
        match self {
            RequestError::Impossible { .. } => 1,
            RequestError::BadInput(_) => 2,
            RequestError::Undecided { .. } => 3,
            RequestError::Internal(_) => 4,
        }
    }

    /// A solver error as the request reports it: a request the engine
    /// cannot serve is bad input, a limit undecided, the rest internal.
    fn from_solve(error: SolveError) -> RequestError {
        match error {
            SolveError::Unsupported(why) => InputError::Unsupported(why).into(),
            e if e.is_undecided() => RequestError::Undecided {
                reason: e.to_string(),
            },
            e => RequestError::Internal(e),
        }
    }
}

/// Which board a text gives: it names the board in errors and decides
/// whether the start rules (no man on its crowning row) apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardRole {
    /// The board the record starts from: the start rules apply.
    Start,
    /// The board the record ends on.
    End,
    /// A position given as it is (`moves`, `reach`'s target).
    Given,
}

impl std::fmt::Display for BoardRole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BoardRole::Start => "start",
            BoardRole::End => "end",
            BoardRole::Given => "given",
        })
    }
}

/// Why a job needs a board known on every square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WholeBoard {
    /// Its legal moves are listed.
    #[error("an unknown square ('?'): legal moves need every square known")]
    ForMoves,
    /// A game is searched for from it.
    #[error("the start of a game must be known on every square ('?' found)")]
    AtStart,
}

/// What is wrong with a request's input.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// A rule set postfacto does not know.
    #[error("unknown rule set '{0}' (known: {known}, auto)", known = crate::rules::Variant::known_names())]
    UnknownRules(String),
    /// A solver's model that is no answer: unreadable, not a model of the
    /// formula, one the replayer rejects, or none (UNSATISFIABLE).
    #[error("the model: {reason}")]
    Model {
        /// What is wrong with it.
        reason: String,
    },
    /// A side that is neither white nor black.
    #[error("unknown side '{0}': white or black")]
    UnknownSide(String),
    /// A record without a single move.
    #[error("no moves to reconstruct")]
    NoMoves,
    /// A PDN input without a single game (an empty or truncated file).
    #[error("no PDN game in it (empty)")]
    NoGames,
    /// A move that cannot be read.
    // Every `ParseMoveError` names the move: not said twice.
    #[error("move {ply}: {source}")]
    Move {
        /// Its 1-based ply.
        ply: usize,
        /// The move as given.
        text: String,
        /// What is wrong with it.
        #[source]
        source: ParseMoveError,
    },
    /// A FEN string that cannot be read.
    #[error("the {which} board: {source}")]
    Fen {
        /// Which board.
        which: BoardRole,
        /// What is wrong with it.
        #[source]
        source: ParseFenError,
    },
    /// Board rows that cannot be read.
    #[error("the {which} board, line {line}: {problem}")]
    Board {
        /// Which board.
        which: BoardRole,
        /// The 1-based line of the rows.
        line: usize,
        /// What is wrong.
        #[source]
        problem: BoardTextProblem,
    },
    /// A `?` on a board that must be known on every square.
    #[error("the {which} board, line {line}: {needed}")]
    Unknown {
        /// Which board.
        which: BoardRole,
        /// The 1-based line of the first `?`.
        line: usize,
        /// Why every square must be known.
        needed: WholeBoard,
    },
    /// A board that breaks a rule of positions (a man on its crowning row).
    #[error("the {which} board is not a legal position: {problem}")]
    NotAPosition {
        /// Which board.
        which: BoardRole,
        /// The rule it breaks.
        #[source]
        problem: StartProblem,
    },
    /// A position to reach that no game can have: a man on its crowning
    /// row (it would have been crowned).
    #[error("the {which} board is not a legal position: it cannot occur in a game: {problem}")]
    NeverInAGame {
        /// Which board.
        which: BoardRole,
        /// The rule it breaks.
        #[source]
        problem: StartProblem,
    },
    /// A PDN text that cannot be read as a whole.
    #[error(transparent)]
    Pdn(#[from] ParsePdnError),
    /// Records in the task's format that cannot be read.
    #[error(transparent)]
    Records(#[from] ParseRecordError),
    /// Bytes that are not text (NUL bytes).
    #[error("not a text file (it holds NUL bytes)")]
    NotText,
    /// Records of the task's format given where a PDN archive is read.
    #[error("this is the task's format (a header such as 'W 3'), not PDN: judge it against its answers, or solve it")]
    RecordsNotPdn,
    /// A board given as rows, with no side to move named.
    #[error("a board given as rows needs the side to move named (a FEN names it)")]
    NoTurn,
    /// A side to move named over a FEN that names the other.
    #[error("the FEN has {} to move, but {} is named to move (leave the side out, or change the FEN's letter)", fen.name(), named.name())]
    TurnContradictsFen {
        /// The FEN's side.
        fen: Color,
        /// The side named beside it.
        named: Color,
    },
    /// A file that cannot be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// A request this engine or rule set cannot serve.
    #[error("{0}")]
    Unsupported(String),
    /// Options that cannot be used together.
    #[error(transparent)]
    Options(#[from] OptionsError),
    /// An input of several records with none chosen, or a record number
    /// it does not have (`cnf`, `decode`).
    #[error("{}", instance_words(*records, *asked))]
    Instance {
        /// How many records the input has.
        records: usize,
        /// The 1-based record asked for, if any.
        asked: Option<usize>,
    },
    /// A text that is no DIMACS CNF formula (`sat`).
    #[error("{0}")]
    Dimacs(String),
    /// A game of the input that cannot be worked on (unreadable, or of
    /// rules postfacto does not play).
    #[error(transparent)]
    Game(#[from] crate::archive::GameError),
}

/// `3 records; choose one with --instance N`, `--instance 5: the input has 3 records`.
fn instance_words(records: usize, asked: Option<usize>) -> String {
    match asked {
        None => format!("{records} records; choose one with --instance N"),
        Some(0) => format!(
            "--instance 0: records count from 1 (the input has {})",
            crate::notation::plural(records, "record")
        ),
        Some(n) => format!(
            "--instance {n}: the input has {}",
            crate::notation::plural(records, "record")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    fn english(moves: &[&str], first: &str) -> Fragment {
        Fragment::new(moves.iter().copied())
            .first_named(first)
            .unwrap()
    }

    #[test]
    fn a_fragment_solves_and_its_fens_name_the_sides_to_move() {
        let solved = SolveRequest::new(english(&["11-15", "23-19", "8-11"], "black"))
            .run()
            .unwrap();
        assert_eq!(solved.variant, Variant::English);
        assert!(solved.start_fen().starts_with("B:W"));
        assert!(solved.end_fen().starts_with("W:W"));
        assert_eq!(solved.moves(), ["11-15", "23-19", "8-11"]);
    }

    #[test]
    fn auto_finds_the_rule_set_the_moves_need() {
        // Numbers up to 32 try English first; above 32, the 10x10 board.
        let fragment = Fragment::new(["11-15", "23-19"])
            .rules(RulesChoice::Auto)
            .first(crate::board::Color::Black);
        let solved = SolveRequest::new(fragment).run().unwrap();
        assert!(solved.inferred);
        assert_eq!(solved.variant, Variant::English);
        let fragment = Fragment::new(["33-28", "19-23", "28x19", "14x23"]).rules(RulesChoice::Auto);
        let solved = SolveRequest::new(fragment).run().unwrap();
        assert_eq!(solved.variant, Variant::International);
    }

    #[test]
    fn an_impossible_fragment_says_why_and_exits_one() {
        let error = SolveRequest::new(english(&["11-15", "11-15"], "black"))
            .run()
            .unwrap_err();
        assert_eq!(error.exit_status(), 1, "{error}");
        assert!(!error.to_string().is_empty());
    }

    #[test]
    fn bad_input_names_the_move_and_exits_two() {
        let error = SolveRequest::new(english(&["11-15", "99-15"], "black"))
            .run()
            .unwrap_err();
        assert_eq!(error.exit_status(), 2);
        assert!(
            error
                .to_string()
                .starts_with("move 2: '99-15': unknown square '99'"),
            "{error}"
        );
        let error = SolveRequest::new(Fragment::new(Vec::<String>::new()))
            .run()
            .unwrap_err();
        assert!(matches!(error, RequestError::BadInput(InputError::NoMoves)));
        assert!(RulesChoice::named("frisian").is_err());
        assert_eq!(
            RulesChoice::named("standard").unwrap(),
            RulesChoice::Given(Variant::International)
        );
    }

    #[test]
    fn a_start_fen_is_a_fact_and_names_the_first_side() {
        let fragment = Fragment::new(["22-18"]).start(BoardText::Fen("W:W22:B1".into()));
        let solved = SolveRequest::new(fragment).run().unwrap();
        assert_eq!(solved.start_fen(), "W:W22:B1");
        assert_eq!(solved.end_fen(), "B:W18:B1");
    }

    #[test]
    fn legal_moves_of_a_fen_write_every_landing() {
        let moves = MovesRequest::new(
            BoardText::Fen("W:W31,32:B27".into()),
            Variant::International,
        )
        .run()
        .unwrap();
        assert_eq!(moves, ["31x22", "32x21"]);
        let rows = BoardText::Rows(vec![".".repeat(8); 8]);
        assert!(matches!(
            MovesRequest::new(rows, Variant::English).run(),
            Err(InputError::NoTurn)
        ));
    }

    #[test]
    fn a_misread_square_is_repaired() {
        let fragment = Fragment::new(["32-28", "18-23", "28-18"])
            .rules(RulesChoice::Given(Variant::International))
            .first(crate::board::Color::White);
        let repaired = RepairRequest::new(fragment).run().unwrap();
        assert_eq!(repaired.edits.len(), 1);
        let edit = &repaired.edits[0];
        assert_eq!((edit.ply, edit.written.as_str()), (3, "28-18"));
        assert_eq!(edit.kind, crate::analysis::EditKind::Square);
        assert_eq!(repaired.solved.moves()[2], edit.read);
    }

    #[test]
    fn the_formula_is_dimacs() {
        let text = CnfRequest::new(english(&["11-15"], "black")).run().unwrap();
        assert!(text.lines().any(|l| l.starts_with("p cnf ")));
    }
}
