//! `postfacto pawns`: the pawn-capture puzzle. Reads every board, has the
//! library solve each ([`PawnBoards::solve`], in parallel) with the chosen
//! engine, prints the answers in input order; or prints one
//! board's formula, or writes a proof that its answer is optimal.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use postfacto::pawns::{
    bounded_cnf, optimality_proof, parse_pawn_boards, BoardChoiceError, BoardSolved, PawnBoard,
    PawnBoards, PawnEngine, PawnProofError, PawnSolution,
};
use postfacto::request::Source;

use super::{fail, write_err, Failure, Status};

/// What `pawns` was asked to do.
pub struct Settings {
    pub engine: PawnEngine,
    pub cnf: bool,
    pub at_most: Option<usize>,
    pub board: Option<usize>,
    pub proof: Option<PathBuf>,
    pub stats: bool,
    /// Give up on a board after this long.
    pub limit: Option<Duration>,
}

pub fn run(
    file: Option<&Path>,
    settings: &Settings,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let input = Source::read(file)?;
    let text = input.text("the input")?;
    let boards = parse_pawn_boards(text)
        .map_err(|e| fail(Status::BadInput, format!("{}: {e}", input.name)))?;
    let boards = PawnBoards::new(&input.name, boards, settings.board).map_err(bad)?;
    if settings.cnf {
        let board = &boards.boards[boards.one("--cnf").map_err(bad)?];
        let cnf = bounded_cnf(board, settings.at_most).map_err(proof_failure)?;
        cnf.write_dimacs(out).map_err(write_err)?;
        return Ok(Status::Ok);
    }
    let proof_board = match &settings.proof {
        Some(_) => Some(boards.one("--proof").map_err(bad)?),
        None => None,
    };
    let solved = boards.solve(settings.engine, settings.limit);
    print_solved(
        solved,
        &boards.boards,
        (&input.name, settings, proof_board),
        out,
    )
}

/// A board that cannot be chosen is bad input.
fn bad(error: BoardChoiceError) -> Failure {
    fail(Status::BadInput, error.to_string())
}

/// Prints each board's answer in input order (an undecided board on
/// stderr), its figures with `--stats`, and writes the proof of
/// `proof_board`'s; the worst status.
fn print_solved(
    solved: Vec<BoardSolved>,
    boards: &[PawnBoard],
    (name, settings, proof_board): (&str, &Settings, Option<usize>),
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let mut status = Status::Ok;
    for solved in solved {
        let i = solved.index;
        let Some(result) = solved.outcome else {
            super::report(&format!(
                "{name}: board {}: undecided: the time limit of {} passed before an answer",
                i + 1,
                postfacto::sat::in_seconds(settings.limit.unwrap_or_default())
            ));
            status = status.max(Status::Undecided);
            continue;
        };
        let solution =
            result.map_err(|e| fail(Status::Internal, format!("{name}: board {}: {e}", i + 1)))?;
        out.write_all(solution.text().as_bytes())
            .map_err(write_err)?;
        if settings.stats {
            report_stats(i, &boards[i], &solution, settings.engine, solved.took);
        }
        if proof_board == Some(i) {
            let path = settings.proof.as_deref().expect("a proof board has a path");
            write_proof(&boards[i], solution.captures.len(), path, settings.limit)?;
        }
    }
    Ok(status)
}

/// `--stats`: one line on stderr about board `i` (from 0).
fn report_stats(
    i: usize,
    board: &PawnBoard,
    solution: &PawnSolution,
    engine: PawnEngine,
    took: Duration,
) {
    let s = &solution.stats;
    let n = board.size();
    eprintln!(
        "postfacto: board {}: {n} x {n}, {} pawns, {} captures ({} never capture, {} must); {} engine: {}; {:.3} ms",
        i + 1,
        s.pawns,
        solution.captures.len(),
        s.sinks,
        s.forced,
        engine.name(),
        match engine {
            PawnEngine::Sat => format!(
                "{} variables, {} clauses, {} parts, {} varisat calls",
                s.vars, s.clauses, s.parts, s.solver_calls
            ),
            _ => format!("maximum matching {}", s.matched),
        },
        took.as_secs_f64() * 1e3
    );
}

/// A formula or proof that could not be made, with the library's exit status.
fn proof_failure(error: PawnProofError) -> Failure {
    fail(Status::from_exit(error.exit_status()), error.to_string())
}

/// Writes the library's DRAT refutation of "at most `optimum - 1`
/// captures" to `path` (past `limit`: exit 3 and no file).
fn write_proof(
    board: &PawnBoard,
    optimum: usize,
    path: &Path,
    limit: Option<Duration>,
) -> Result<(), Failure> {
    let Some(bytes) = optimality_proof(board, optimum, limit).map_err(proof_failure)? else {
        eprintln!("postfacto: no proof written: the board needs no capture, so there is nothing to refute");
        return Ok(());
    };
    std::fs::write(path, &bytes).map_err(|e| {
        fail(
            Status::BadInput,
            format!("cannot write '{}': {e}", path.display()),
        )
    })?;
    let below = optimum - 1;
    eprintln!(
        "postfacto: proof that {below} captures are too few written to {} (it refutes `pawns --cnf --at-most {below}`)",
        path.display()
    );
    Ok(())
}
