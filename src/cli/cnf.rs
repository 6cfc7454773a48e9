//! `postfacto cnf`: the formula of one record in DIMACS, with named
//! variables and clause groups: exactly what `solve` hands its solver;
//! `decode`: a solver's model of it (or of `reach --cnf K`'s) read back.
//! The library's requests choose the formula and read the model; this
//! file parses, builds, runs and prints.

use std::io::Write;
use std::path::{Path, PathBuf};

use postfacto::analysis::Decoded;
use postfacto::output::model_game_text;
use postfacto::request::{write_file, CnfRequest, InputError, ReachRequest, RequestError, Source};
use postfacto::rules::Variant;
use postfacto::solve::{Learned, Solution};

use super::args::{DecodeArgs, TurnArg};
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
    let (name, request) = request_of(target)?;
    let cnf = request.formula().map_err(|e| failure(&name, e))?;
    match output {
        None => cnf.write_dimacs(out).map_err(write_err)?,
        Some(path) => write_file(&path, |mut file| cnf.write_dimacs(&mut file))
            .map_err(|e| fail(Status::BadInput, e.to_string()))?,
    }
    Ok(Status::Ok)
}

/// The request of `target`'s record, with its input's name: `cnf` and
/// `decode` build it alike, so a model of the one is read by the other.
fn request_of(target: &Target) -> Result<(String, CnfRequest), Failure> {
    let input = Source::read(target.file.as_deref())?;
    let request = CnfRequest::of_input(
        &input.name,
        &input.bytes,
        target.reading,
        target.instance,
        target.known,
        target.fragment,
    )
    .map_err(|e| failure(&input.name, e))?;
    Ok((input.name, request))
}

/// The request's error as the binary says it: after the input's name,
/// except for a record number it does not have and a formula the engine
/// cannot write, which name no input.
fn failure(name: &str, error: RequestError) -> Failure {
    let named = !matches!(
        error,
        RequestError::BadInput(
            InputError::Instance { asked: Some(_), .. } | InputError::Unsupported(_)
        )
    );
    Failure::request(named.then_some(name), error)
}

/// `decode`: a model of the formula `cnf` writes for the same record, read
/// back. Exit 0 with the answer it stands for (replayed, the task's 8
/// lines); 1 when it is no answer (the clause it leaves unsatisfied, with
/// its `c` group, or the rule the replayer finds broken), or the solver
/// said UNSATISFIABLE; 2 when the model cannot be read.
pub fn decode(
    target: &Target,
    model: &Path,
    reach: Option<ReachModel>,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let (name, request) = match &reach {
        None => request_of(target).map(|(name, r)| (name, Formula::Cnf(r)))?,
        Some(reach) => reach.request(target)?,
    };
    let model_input = Source::read(Some(model))?;
    let text = model_input.text("the model")?;
    let read = match &request {
        Formula::Cnf(request) => request.read_model(text),
        Formula::Reach(request, reach) => request.decode(reach.plies, reach.unrefined, text),
    };
    let read = read.map_err(|e| match (e, &request) {
        (RequestError::BadInput(InputError::Model { reason }), _) => {
            fail(Status::BadInput, format!("{}: {reason}", model.display()))
        }
        (other, Formula::Cnf(_)) => failure(&name, other),
        (other, Formula::Reach(..)) => Failure::request(Some(&name), other),
    })?;
    let Some(decoded) = read.decoded else {
        super::report(&format!(
            "{}: the solver found no model (s UNSATISFIABLE or UNKNOWN)",
            model.display()
        ));
        return Ok(Status::Rejected);
    };
    let names = (name.as_str(), model);
    match (decoded, &request) {
        (Decoded::Answer(solution), Formula::Reach(request, _)) => {
            print_model_game(request, &solution, out)
        }
        (decoded, _) => print_decoded(decoded, &read.learned, read.variant, names, out),
    }
}

/// The game a model of `reach --cnf K`'s formula stands for, replayed,
/// written by `reach`'s writer ([`model_game_text`]).
fn print_model_game(
    request: &ReachRequest,
    solution: &Solution,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let Some(game) = request.model_game(solution) else {
        return Err(fail(
            Status::Internal,
            "internal error: a model of a reach formula plays no moves",
        ));
    };
    out.write_all(model_game_text(request.variant(), &game).as_bytes())
        .map_err(write_err)?;
    Ok(Status::Ok)
}

/// The formula a model is of: `cnf`'s for a record, or `reach --cnf K`'s.
enum Formula {
    Cnf(CnfRequest),
    Reach(ReachRequest, ReachModel),
}

/// `decode --reach K`: the model is of `reach --cnf K`'s formula for the
/// position given in the record's place, read as `reach` reads it.
#[derive(Clone)]
pub struct ReachModel {
    plies: u32,
    unrefined: bool,
    turn: Option<TurnArg>,
    from: Option<String>,
    from_turn: Option<TurnArg>,
}

impl ReachModel {
    /// `decode`'s reach options, when `--reach` is given.
    pub fn of(args: &DecodeArgs) -> Option<ReachModel> {
        Some(ReachModel {
            plies: args.reach?,
            unrefined: args.unrefined,
            turn: args.turn,
            from: args.from.clone(),
            from_turn: args.from_turn,
        })
    }

    /// The request whose formula `reach --cnf K` printed, with the
    /// position's name.
    fn request(&self, target: &Target) -> Result<(String, Formula), Failure> {
        let source = Source::board(target.file.as_deref())?;
        let goal = source.board_text("the position")?;
        // As `reach` chose it: named, else the position's own.
        let variant = target.reading.rules.for_board(&goal);
        let mut request = ReachRequest::new(goal, variant);
        if let Some(turn) = self.turn {
            request = request.turn(turn.into());
        }
        let request = super::reach::from_start(request, self.from.as_deref(), self.from_turn)?;
        Ok((source.name, Formula::Reach(request, self.clone())))
    }
}

/// What a model stands for: the answer on standard output (a damaged
/// record's moves on standard error), or why it is none (the clauses that
/// rule it out on standard output). `names` are the input's and the model's.
fn print_decoded(
    decoded: Decoded,
    learned: &[Learned],
    variant: Variant,
    (name, model): (&str, &Path),
    out: &mut impl Write,
) -> Result<Status, Failure> {
    match decoded {
        Decoded::Answer(solution) => {
            write!(out, "{}", solution.answer.text()).map_err(write_err)?;
            if let Some(filled) = &solution.filled {
                let played: Vec<String> =
                    filled.moves.iter().map(|m| variant.write_move(m)).collect();
                super::report(&format!("{name}: moves played: {}", played.join(" ")));
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
            write!(out, "{}", postfacto::analysis::learned_dimacs(learned)).map_err(write_err)?;
            super::report(&format!(
                "{}: a model of the formula but no answer: the replayer rejects ply {ply}: {why} ({})",
                model.display(),
                postfacto::analysis::learned_advice(learned.len())
            ));
            Ok(Status::Rejected)
        }
    }
}
