//! What `solve` was asked to do, the same for every record: read by the
//! front end, checked once, used by the jobs and by the output.

use std::path::PathBuf;
use std::time::Duration;

use postfacto::encode::BoardFacts;
use postfacto::rules::Variant;
use postfacto::solve::Engine;

use super::args::{AnalysisArgs, FormatArg, ProofFormatArg};
use super::input::{Reading, RulesChoice};
use super::{fail, on_path, Failure, Status};

/// What `solve` was asked to do, the same for every record.
pub struct Settings {
    /// An outside SAT solver command instead of varisat.
    pub solver: Option<Vec<String>>,
    pub engine: Engine,
    /// The rule set asked for (each record may get its own).
    pub rules: RulesChoice,
    pub options: AnalysisArgs,
    pub format: FormatArg,
    pub out_dir: Option<PathBuf>,
    /// A time limit per record for the SAT engine (embedded or outside);
    /// the DFS engine carries its own in `engine`.
    pub time_limit: Option<Duration>,
    /// No progress bar and no summary line (per-record messages stay).
    pub quiet: bool,
    /// What is known of the start and end boards besides the moves.
    pub known: BoardFacts,
    /// Captures in the task's format are read as written short.
    pub short_captures: bool,
    /// PDN games without `[FEN]` are fragments (start unknown), not games
    /// from the opening.
    pub fragment: bool,
}

impl Settings {
    /// Refuses combinations no record could be solved under (exit 2).
    pub fn check(&self) -> Result<(), Failure> {
        let (engine, options) = (self.engine, &self.options);
        if let Some(dir) = &self.out_dir {
            if self.format != FormatArg::Svg {
                return Err(fail(
                    Status::BadInput,
                    "--out is the folder of --format svg's pictures; other formats print to standard output",
                ));
            }
            std::fs::create_dir_all(dir).map_err(|e| {
                fail(
                    Status::BadInput,
                    format!("cannot create '{}': {e}", dir.display()),
                )
            })?;
        }
        if let (Engine::Dfs(_), RulesChoice::Given(variant)) = (engine, self.rules) {
            if variant != Variant::English {
                return Err(fail(
                    Status::BadInput,
                    format!(
                        "--engine dfs knows English rules only; use the SAT engine for {}",
                        variant.name()
                    ),
                ));
            }
        }
        if let Some(command) = &self.solver {
            // Only a DRAT proof, which the outside solver writes itself.
            let proof_only = AnalysisArgs {
                proof: None,
                ..options.clone()
            };
            if options.proof.is_some() && options.proof_format != ProofFormatArg::Drat {
                return Err(fail(
                    Status::BadInput,
                    "--solver writes DRAT proofs only: --proof-format varisat needs the embedded varisat",
                ));
            }
            if engine != Engine::Sat || proof_only.any() {
                return Err(fail(
                    Status::BadInput,
                    "--solver works with the SAT engine's plain solve and --proof only (no --engine dfs, no other analysis options)",
                ));
            }
            match command.first() {
                None => return Err(fail(Status::BadInput, "--solver needs a command")),
                Some(program) if !on_path(program) => {
                    return Err(fail(
                        Status::BadInput,
                        format!("--solver: cannot find the program '{program}'"),
                    ))
                }
                Some(_) => {}
            }
        }
        if !self.known.is_empty() && engine != Engine::Sat {
            return Err(fail(
                Status::BadInput,
                "--start-board and --end-board need the SAT engine (the DFS engine does not take board facts)",
            ));
        }
        if options.any() && engine != Engine::Sat {
            return Err(fail(
                Status::BadInput,
                "--explain, --proof, --minimize, --max-per-side, --count, --all and --unique need the SAT engine",
            ));
        }
        Ok(())
    }

    /// How records are read under these settings.
    pub fn reading(&self) -> Reading {
        Reading {
            rules: self.rules,
            short_captures: self.short_captures,
        }
    }
}
