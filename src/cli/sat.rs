//! `postfacto sat`: any DIMACS file, solved by the embedded varisat, with
//! SAT-competition output, so the `--solver` path can be tested against
//! postfacto itself. The library's [`SatRequest`] solves; this prints.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use postfacto::request::{RequestError, SatAnswer, SatRequest, Source};
use postfacto::solve::SolveError;

use super::{fail, write_err, Failure, Status};

/// Exit code of a satisfiable formula, by SAT-competition convention.
const SATISFIABLE: u8 = 10;
/// Exit code of an unsatisfiable formula.
const UNSATISFIABLE: u8 = 20;

/// With a time `limit` still running, it prints `s UNKNOWN` and exits 3.
/// With `proof`, an unsatisfiable formula's DRAT proof is written there
/// (a satisfiable one prints no model: a proof run does not keep one).
pub fn run(
    file: Option<&Path>,
    limit: Option<Duration>,
    proof: Option<&Path>,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let input = Source::read(file)?;
    let request = SatRequest::new(&input.bytes)
        .map_err(|e| Failure::request(Some(&input.name), e))?
        .limit(limit)
        .proof(proof.is_some());
    let answer = request.run().map_err(|e| match e {
        RequestError::Internal(SolveError::Sat(e)) => {
            fail(Status::Internal, format!("varisat failed: {e}"))
        }
        other => Failure::request(None, other),
    })?;
    match answer {
        SatAnswer::Unknown => {
            writeln!(out, "s UNKNOWN").map_err(write_err)?;
            Ok(Status::Undecided)
        }
        SatAnswer::Satisfiable(model) => {
            writeln!(out, "s SATISFIABLE").map_err(write_err)?;
            if let Some(model) = model {
                write_model(&model, out)?;
            }
            Ok(Status::Code(SATISFIABLE))
        }
        SatAnswer::Unsatisfiable(drat) => {
            if let (Some(path), Some(drat)) = (proof, drat) {
                std::fs::write(path, drat).map_err(|e| {
                    fail(
                        Status::BadInput,
                        format!("cannot write '{}': {e}", path.display()),
                    )
                })?;
            }
            writeln!(out, "s UNSATISFIABLE").map_err(write_err)?;
            Ok(Status::Code(UNSATISFIABLE))
        }
    }
}

/// The model's `v` lines, about 70 characters each, ended by `0`.
fn write_model(model: &[varisat::Lit], out: &mut impl Write) -> Result<(), Failure> {
    let mut line = String::from("v");
    for lit in model {
        line.push(' ');
        line.push_str(&lit.to_dimacs().to_string());
        if line.len() > 70 {
            writeln!(out, "{line}").map_err(write_err)?;
            line = String::from("v");
        }
    }
    writeln!(out, "{line} 0").map_err(write_err)
}
