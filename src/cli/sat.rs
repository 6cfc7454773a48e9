//! `postfacto sat`: any DIMACS file, solved by the embedded varisat, with
//! SAT-competition output, so the `--solver` path can be tested against
//! postfacto itself.

use std::io::Write;

use std::time::Duration;

use postfacto::sat::{new_solver, stopped_by_deadline, within};
use varisat::dimacs::DimacsParser;

use super::input::read_input;
use super::{fail, write_err, Failure, Status};

/// Exit code of a satisfiable formula, by SAT-competition convention.
const SATISFIABLE: u8 = 10;
/// Exit code of an unsatisfiable formula.
const UNSATISFIABLE: u8 = 20;

/// With a time `limit` still running, it prints `s UNKNOWN` and exits 3.
/// With `proof`, an unsatisfiable formula's DRAT proof is written there.
pub fn run(
    file: Option<&std::path::Path>,
    limit: Option<Duration>,
    proof: Option<&std::path::Path>,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let input = read_input(file)?;
    let formula = DimacsParser::parse(&input.bytes[..])
        .map_err(|e| fail(Status::BadInput, format!("{}: {e}", input.name)))?;
    if let Some(path) = proof {
        return run_proving(formula, limit, path, out);
    }
    let solve = move || {
        let mut solver = new_solver();
        solver.add_formula(&formula);
        match solver.solve() {
            Ok(sat) => Some(Ok(sat.then(|| solver.model().unwrap_or_default()))),
            Err(e) if stopped_by_deadline(&e) => None,
            Err(e) => Some(Err(e.to_string())),
        }
    };
    let verdict = match limit {
        None => solve(),
        Some(limit) => within(limit, solve).flatten(),
    };
    let Some(verdict) = verdict else {
        writeln!(out, "s UNKNOWN").map_err(write_err)?;
        return Ok(Status::Undecided);
    };
    let model = verdict.map_err(|e| fail(Status::Internal, format!("varisat failed: {e}")))?;
    if let Some(model) = model {
        writeln!(out, "s SATISFIABLE").map_err(write_err)?;
        let mut line = String::from("v");
        for lit in model {
            line.push(' ');
            line.push_str(&lit.to_dimacs().to_string());
            if line.len() > 70 {
                writeln!(out, "{line}").map_err(write_err)?;
                line = String::from("v");
            }
        }
        writeln!(out, "{line} 0").map_err(write_err)?;
        Ok(Status::Code(SATISFIABLE))
    } else {
        writeln!(out, "s UNSATISFIABLE").map_err(write_err)?;
        Ok(Status::Code(UNSATISFIABLE))
    }
}

/// Solves while writing a DRAT proof: `s UNSATISFIABLE` and the proof in
/// `path`, or `s SATISFIABLE` (no model printed: a proof run does not keep
/// one) and no file.
fn run_proving(
    formula: varisat::CnfFormula,
    limit: Option<Duration>,
    path: &std::path::Path,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let prove = move || {
        let mut drat = Vec::new();
        postfacto::sat::prove_unsat(&formula, varisat::ProofFormat::Drat, &mut drat)
            .map(|unsat| (unsat, drat))
    };
    let proved = match limit {
        None => Some(prove()),
        Some(limit) => within(limit, prove),
    };
    let proved = proved.filter(|p| !matches!(p, Err(e) if e.is_undecided()));
    let Some(proved) = proved else {
        writeln!(out, "s UNKNOWN").map_err(write_err)?;
        return Ok(Status::Undecided);
    };
    let (unsat, drat) = proved.map_err(|e| fail(Status::Internal, e.to_string()))?;
    if !unsat {
        writeln!(out, "s SATISFIABLE").map_err(write_err)?;
        return Ok(Status::Code(SATISFIABLE));
    }
    std::fs::write(path, drat).map_err(|e| {
        fail(
            Status::BadInput,
            format!("cannot write '{}': {e}", path.display()),
        )
    })?;
    writeln!(out, "s UNSATISFIABLE").map_err(write_err)?;
    Ok(Status::Code(UNSATISFIABLE))
}
