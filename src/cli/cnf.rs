//! `postfacto cnf`: the formula of one record in DIMACS, with named
//! variables and clause groups: exactly what `solve` hands its solver.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use postfacto::analysis::{Analysis, Decoded};
use postfacto::request::item_formula;
use postfacto::sat::parse_model;
use postfacto::solve::SolveError;

use postfacto::notation::Record;

use super::input::{read_input, read_items, Input};
use super::request::Target;
use super::{fail, write_err, Failure, Status};

/// Prints the formula of record `instance` (1-based; needed when the input
/// has several) to `output` or standard output: for a damaged record, with
/// the clauses `solve` learns from the models the replayer rejects (see
/// `encodings/damaged.md`). A PDN game's `[FEN]` is a fact about its start
/// board, as for `solve`; without one, the opening is (unless `--fragment`). Under several candidate rule sets (`--rules
/// auto`), the first the record solves under.
pub fn run(
    target: &Target,
    output: Option<PathBuf>,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let input = read_input(target.file.as_deref())?;
    let (analysis, record) = chosen_record(&input, target)?;
    let cnf = analysis.dimacs(&record).map_err(|e| match e {
        SolveError::Unsupported(m) => fail(Status::BadInput, m),
        other => fail(Status::Internal, format!("{}: {other}", input.name)),
    })?;
    match output {
        None => cnf.write_dimacs(out).map_err(write_err)?,
        Some(path) => write_file(&path, |mut file| cnf.write_dimacs(&mut file))?,
    }
    Ok(Status::Ok)
}

/// The record `instance` of `input` (1-based; needed when it has several)
/// under the rule set `cnf` writes its formula for, with the analysis of
/// that rule set and what is known of its boards. `cnf` and `decode` share
/// it, so a model of the one is read by the other.
pub fn chosen_record(input: &Input, target: &Target) -> Result<(Analysis, Record), Failure> {
    let (known, fragment) = (target.known, target.fragment);
    let items = read_items(input, target.reading)?;
    let index = match target.instance {
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
                format!(
                    "--instance {n}: the input has {}",
                    postfacto::notation::plural(items.len(), "record")
                ),
            ))
        }
    };
    let item = &items[index];
    if let Some(error) = &item.error {
        return Err(fail(Status::BadInput, format!("{}: {error}", input.name)));
    }
    // A PDN game without [FEN] starts at the opening unless --fragment.
    item_formula(item, known, fragment)
        .map_err(|e| fail(Status::Internal, format!("{}: {e}", input.name)))
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

/// `decode`: a model of the formula `cnf` writes for the same record, read
/// back. Exit 0 with the answer it stands for (replayed, the task's 8
/// lines); 1 when it is no answer (the clause it leaves unsatisfied, with
/// its `c` group, or the rule the replayer finds broken), or the solver
/// said UNSATISFIABLE; 2 when the model cannot be read.
pub fn decode(target: &Target, model: &Path, out: &mut impl Write) -> Result<Status, Failure> {
    let input = read_input(target.file.as_deref())?;
    let (analysis, record) = chosen_record(&input, target)?;
    let model_input = read_input(Some(model))?;
    let text = model_input.text("the model")?;
    let literals = parse_model(text)
        .map_err(|m| fail(Status::BadInput, format!("{}: {m}", model.display())))?;
    let Some(literals) = literals else {
        super::report(&format!(
            "{}: the solver found no model (s UNSATISFIABLE or UNKNOWN)",
            model.display()
        ));
        return Ok(Status::Rejected);
    };
    let (decoded, learned) = analysis
        .decode_learning(&record, &literals)
        .map_err(|e| match e {
            SolveError::Unsupported(m) => {
                fail(Status::BadInput, format!("{}: {m}", model.display()))
            }
            other => fail(Status::Internal, format!("{}: {other}", input.name)),
        })?;
    match decoded {
        Decoded::Answer(solution) => {
            write!(out, "{}", solution.answer.text()).map_err(write_err)?;
            if let Some(filled) = &solution.filled {
                let played: Vec<String> = filled
                    .moves
                    .iter()
                    .map(|m| analysis.variant().write_move(m))
                    .collect();
                super::report(&format!(
                    "{}: moves played: {}",
                    input.name,
                    played.join(" ")
                ));
            }
            Ok(Status::Ok)
        }
        Decoded::Unsatisfied { clause, group } => {
            super::report(&format!(
                "{}: not a model of the formula: clause {clause} is false ({group})",
                model.display()
            ));
            Ok(Status::Rejected)
        }
        Decoded::Rejected { ply, why } => {
            write!(out, "{}", postfacto::analysis::learned_dimacs(&learned)).map_err(write_err)?;
            super::report(&format!(
                "{}: a model of the formula but no answer: the replayer rejects ply {ply}: {why} ({})",
                model.display(),
                postfacto::analysis::learned_advice(learned.len())
            ));
            Ok(Status::Rejected)
        }
    }
}
