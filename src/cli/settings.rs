//! What `solve` was asked to do, the same for every record: the library's
//! options, and how the binary reads records and prints answers.

use std::path::PathBuf;
use std::sync::Arc;

use postfacto::output::Format;
use postfacto::request::{ReadAs, RulesChoice, SolveOptions};

use super::{fail, Failure, Status};

/// What `solve` was asked to do, the same for every record.
pub struct Settings {
    /// What the library is asked (checked by [`SolveOptions::check`]).
    pub solve: Arc<SolveOptions>,
    /// The rule set asked for (each record may get its own).
    pub rules: RulesChoice,
    /// Captures in the task's format are read as written short.
    pub short_captures: bool,
    pub format: Format,
    pub out_dir: Option<PathBuf>,
    /// No progress bar and no summary line (per-record messages stay).
    pub quiet: bool,
}

impl Settings {
    /// Refuses combinations no record could be solved under (exit 2).
    pub fn check(&self) -> Result<(), Failure> {
        if let Some(dir) = &self.out_dir {
            if !matches!(self.format, Format::Svg { .. }) {
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
        self.solve
            .check(self.rules.given())
            .map_err(|e| Failure::request(None, postfacto::request::InputError::from(e)))
    }

    /// How records are read under these settings.
    pub fn reading(&self) -> ReadAs {
        ReadAs::as_written(self.rules, self.short_captures)
            .solving(self.solve.fragment, &self.solve.known)
            .repairing(self.solve.analyses.repair)
    }
}
