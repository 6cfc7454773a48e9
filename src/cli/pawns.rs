//! `postfacto pawns`: the pawn-capture puzzle. Reads every board, solves
//! each (in parallel) with the chosen engine, prints the answers in input
//! order; or prints one board's formula, or a proof that its answer is
//! optimal.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use varisat::ProofFormat;

use postfacto::pawns::{
    parse_pawn_boards, pawn_cnf, solve_pawns, PawnBoard, PawnEngine, PawnSolution, PawnsError,
};
use postfacto::sat::{prove_unsat, within};

use super::input::read_input;
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
    let input = read_input(file)?;
    let text = input.text("the input")?;
    let boards = parse_pawn_boards(text)
        .map_err(|e| fail(Status::BadInput, format!("{}: {e}", input.name)))?;
    let chosen = chosen_board(settings.board, boards.len(), &input.name)?;
    let one = |what: &str| match chosen {
        Some(i) => Ok(i),
        None if boards.len() == 1 => Ok(0),
        None => Err(fail(
            Status::BadInput,
            format!(
                "{}: {} boards; choose one for {what} with --board N",
                input.name,
                boards.len()
            ),
        )),
    };
    if settings.cnf {
        let i = one("--cnf")?;
        if let Some(k) = settings.at_most {
            check_totalizer_size(&boards[i], k)?;
        }
        let cnf = pawn_cnf(&boards[i], settings.at_most)
            .map_err(|e| fail(Status::Internal, format!("internal error: {e}")))?;
        cnf.write_dimacs(out).map_err(write_err)?;
        return Ok(Status::Ok);
    }
    let proof_board = match &settings.proof {
        Some(_) => Some(one("--proof")?),
        None => None,
    };
    let selected: Vec<(usize, &PawnBoard)> = match chosen {
        Some(i) => vec![(i, &boards[i])],
        None => boards.iter().enumerate().collect(),
    };
    let solved = solve_in_parallel(&selected, settings);
    let mut status = Status::Ok;
    for (i, result, took) in solved {
        let Some(result) = result else {
            super::report(&format!(
                "{}: board {}: undecided: the time limit of {:?} passed before an answer",
                input.name,
                i + 1,
                settings.limit.unwrap_or_default()
            ));
            status = status.max(Status::Undecided);
            continue;
        };
        let solution = result.map_err(|e| {
            fail(
                Status::Internal,
                format!("{}: board {}: {e}", input.name, i + 1),
            )
        })?;
        write_captures(&solution, out)?;
        if settings.stats {
            report_stats(i, &boards[i], &solution, settings.engine, took);
        }
        if proof_board == Some(i) {
            let path = settings.proof.as_deref().expect("a proof board has a path");
            write_proof(&boards[i], solution.captures.len(), path, settings.limit)?;
        }
    }
    Ok(status)
}

/// The board `--board N` names (from 0), if any, checked against the
/// `count` boards of the input `name`.
fn chosen_board(board: Option<usize>, count: usize, name: &str) -> Result<Option<usize>, Failure> {
    match board {
        Some(n) if (1..=count).contains(&n) => Ok(Some(n - 1)),
        Some(n) => Err(fail(
            Status::BadInput,
            format!("--board {n}: {name} has {count} boards"),
        )),
        None => Ok(None),
    }
}

/// A board's answer, or none when the time limit passed first.
type Solved = (usize, Option<Result<PawnSolution, PawnsError>>, Duration);

/// Solves every selected board (numbered from 0) on its own thread, each
/// within the time limit.
fn solve_in_parallel(selected: &[(usize, &PawnBoard)], settings: &Settings) -> Vec<Solved> {
    selected
        .par_iter()
        .map(|&(i, board)| {
            let started = Instant::now();
            let engine = settings.engine;
            let result = match settings.limit {
                None => Some(solve_pawns(board, engine)),
                Some(limit) => {
                    let board = board.clone();
                    within(limit, move || solve_pawns(&board, engine))
                }
            };
            // A solve the deadline stopped just before the wait ended.
            let result =
                result.filter(|r| !matches!(r, Err(PawnsError::Solver(e)) if e.is_undecided()));
            (i, result, started.elapsed())
        })
        .collect()
}

/// The number of captures, then one capture a line.
fn write_captures(solution: &PawnSolution, out: &mut impl Write) -> Result<(), Failure> {
    let mut text = String::with_capacity(12 * solution.captures.len() + 8);
    text.push_str(&solution.captures.len().to_string());
    text.push('\n');
    for capture in &solution.captures {
        use std::fmt::Write as _;
        let _ = writeln!(text, "{capture}");
    }
    out.write_all(text.as_bytes()).map_err(write_err)
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

/// Totalizer sizes past this many (pawns x bound) are refused: about that
/// many clauses would be built in memory.
const MAX_TOTALIZER: usize = 50_000_000;

fn check_totalizer_size(board: &PawnBoard, bound: usize) -> Result<(), Failure> {
    let pawns = board.pawn_count();
    let size = pawns.saturating_mul(bound.min(pawns).saturating_add(1));
    if size > MAX_TOTALIZER {
        return Err(fail(
            Status::BadInput,
            format!(
                "a totalizer over {pawns} pawns bounded at {bound} would have about {size} clauses (at most {MAX_TOTALIZER})"
            ),
        ));
    }
    Ok(())
}

/// Writes a DRAT refutation of "at most `optimum - 1` captures" to `path`.
/// Within `limit` if there is one (the refutation of a large dense board
/// can take long): past it, exit 3 and no file.
fn write_proof(
    board: &PawnBoard,
    optimum: usize,
    path: &Path,
    limit: Option<Duration>,
) -> Result<(), Failure> {
    let Some(below) = optimum.checked_sub(1) else {
        eprintln!("postfacto: no proof written: the board needs no capture, so there is nothing to refute");
        return Ok(());
    };
    check_totalizer_size(board, below)?;
    let internal =
        |e: postfacto::sat::SatError| fail(Status::Internal, format!("internal error: {e}"));
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
        return Err(fail(
            Status::Undecided,
            format!(
                "undecided: the time limit of {:?} passed before the proof was complete; no proof written",
                limit.unwrap_or_default()
            ),
        ));
    };
    let (unsat, bytes) = proved.map_err(internal)?;
    if !unsat {
        return Err(fail(
            Status::Internal,
            format!("internal error: {below} captures are possible, but the engine's answer has {optimum}"),
        ));
    }
    std::fs::write(path, &bytes).map_err(|e| {
        fail(
            Status::BadInput,
            format!("cannot write '{}': {e}", path.display()),
        )
    })?;
    eprintln!(
        "postfacto: proof that {below} captures are too few written to {} (it refutes `pawns --cnf --at-most {below}`)",
        path.display()
    );
    Ok(())
}
