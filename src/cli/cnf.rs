//! `postfacto cnf`: the formula of one record in DIMACS, with named
//! variables and clause groups: exactly what `solve` hands its solver.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use postfacto::analysis::Analysis;
use postfacto::encode::BoardFacts;
use postfacto::request::{first_solving, start_facts};
use postfacto::solve::{Reconstructor, SolveError};

use super::input::{read_input, read_items, Reader, Reading};
use super::{fail, write_err, Failure, Status};

/// Prints the formula of record `instance` (1-based; needed when the input
/// has several) to `output` or standard output: for a damaged record, with
/// the clauses `solve` learns from the models the replayer rejects (see
/// `encodings/damaged.md`). A PDN game's `[FEN]` is a fact about its start
/// board, as for `solve`; without one, the opening is (unless `--fragment`). Under several candidate rule sets (`--rules
/// auto`), the first the record solves under.
pub fn run(
    file: Option<&Path>,
    output: Option<PathBuf>,
    instance: Option<usize>,
    reading: Reading,
    (known, fragment): (BoardFacts, bool),
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let input = read_input(file)?;
    let items = read_items(&input, reading)?;
    let index = match instance {
        None if items.len() == 1 => 0,
        None => {
            return Err(fail(
                Status::BadInput,
                format!(
                    "{}: {} records; choose one with --instance N",
                    input.name,
                    items.len()
                ),
            ))
        }
        Some(n) if (1..=items.len()).contains(&n) => n - 1,
        Some(n) => {
            return Err(fail(
                Status::BadInput,
                format!("--instance {n}: the input has {} records", items.len()),
            ))
        }
    };
    let item = &items[index];
    if let Some(error) = &item.error {
        return Err(fail(Status::BadInput, format!("{}: {error}", input.name)));
    }
    // A PDN game without [FEN] starts at the opening unless --fragment.
    let pdn_game = item.pdn.is_some();
    let facts = |r: &Reader| start_facts(known, r, pdn_game, fragment).0;
    let solve = |r: &Reader| {
        Reconstructor::new(r.variant)
            .facts(facts(r))
            .solve(&r.record)
    };
    let chosen = match first_solving(&item.readings, solve, None) {
        Ok((i, _)) => &item.readings[i],
        Err(e) => return Err(fail(Status::Internal, format!("{}: {e}", input.name))),
    };
    let known = facts(chosen);
    let analysis = Analysis::new(chosen.variant).facts(known);
    let cnf = analysis.dimacs(&chosen.record).map_err(|e| match e {
        SolveError::Unsupported(m) => fail(Status::BadInput, m),
        other => fail(Status::Internal, format!("{}: {other}", input.name)),
    })?;
    match output {
        None => cnf.write_dimacs(out).map_err(write_err)?,
        Some(path) => write_file(&path, |mut file| cnf.write_dimacs(&mut file))?,
    }
    Ok(Status::Ok)
}

/// Writes `path` (gzip-compressed when its name ends in `.gz`).
fn write_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), Failure> {
    let file = fs::File::create(path).map_err(|e| {
        fail(
            Status::BadInput,
            format!("cannot create '{}': {e}", path.display()),
        )
    })?;
    let written = if path.extension().is_some_and(|x| x == "gz") {
        let mut packed =
            flate2::write::GzEncoder::new(io::BufWriter::new(file), flate2::Compression::default());
        write(&mut packed)
            .and_then(|()| packed.finish())
            .and_then(|mut inner| inner.flush())
    } else {
        let mut plain = io::BufWriter::new(file);
        write(&mut plain).and_then(|()| plain.flush())
    };
    written.map_err(|e| {
        fail(
            Status::BadInput,
            format!("cannot write '{}': {e}", path.display()),
        )
    })
}
