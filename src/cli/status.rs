//! Exit statuses: part of the interface (documented in `docs/cli.md`).

use std::process::ExitCode;

/// How a run ended. Variants are ordered from best to worst, so the status of
/// a run over many instances is the maximum of theirs.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Status {
    /// A fixed code by another tool's convention (`sat`: 10 satisfiable, 20
    /// unsatisfiable, as SAT solvers exit). Ordered first: any problem wins.
    Code(u8),
    /// Solved, or answer accepted.
    Ok,
    /// No start position exists, or the answer is rejected.
    Rejected,
    /// A limit was hit before a verdict.
    Undecided,
    /// The input or the command line is malformed.
    BadInput,
    /// postfacto contradicted itself (solver and replayer disagree).
    Internal,
}

impl Status {
    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Status::Code(code) => code,
            Status::Ok => 0,
            Status::Rejected => 1,
            Status::BadInput => 2,
            Status::Undecided => 3,
            Status::Internal => 4,
        }
    }
}

impl Status {
    /// The status of an exit code of the library's table (0 to 4).
    pub fn from_exit(code: u8) -> Status {
        match code {
            0 => Status::Ok,
            1 => Status::Rejected,
            2 => Status::BadInput,
            3 => Status::Undecided,
            _ => Status::Internal,
        }
    }
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        ExitCode::from(status.code())
    }
}

impl From<postfacto::request::Verdict> for Status {
    fn from(verdict: postfacto::request::Verdict) -> Status {
        Status::from_exit(verdict.exit_status())
    }
}
