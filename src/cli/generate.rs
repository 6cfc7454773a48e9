//! `postfacto generate`: instances for tests, benchmarks and `compare`.
//! The harness makes and writes the batch ([`Batch`], [`write_batch`]);
//! this maps the arguments and prints the hard search's progress.

use std::io::Write;
use std::path::PathBuf;

use postfacto::harness::generate::{pawn_boards, write_batch, Batch, FragmentStart};
use postfacto::rules::Variant;

use super::args::FromArg;

/// What `generate` was asked for, checked.
pub enum Request {
    /// Random pawn-puzzle boards.
    Pawns {
        size: usize,
        count: usize,
        seed: u64,
        density: u32,
    },
    /// Records: the hard family, its search, or random fragments.
    Records {
        what: Batch,
        variant: Variant,
        out_dir: Option<PathBuf>,
    },
}

impl Request {
    /// Checks `generate`'s arguments.
    pub fn from_args(args: super::args::GenerateArgs) -> Result<Request, super::Failure> {
        if let Some(size) = args.pawns {
            return Ok(Request::Pawns {
                size,
                count: args.count,
                seed: args.seed,
                density: args.density,
            });
        }
        let what = match args.hard {
            _ if args.hard_search => Batch::HardSearch(args.beam),
            Some(k) => Batch::Hard(k),
            None => Batch::fragments(
                args.count,
                args.plies,
                args.seed,
                match args.from {
                    FromArg::Random => FragmentStart::Random,
                    FromArg::Opening => FragmentStart::Opening,
                },
                postfacto::random::Damage {
                    unknown_moves: args.unknown_moves,
                    unknown_squares: args.unknown_squares,
                    short_captures: args.short_captures,
                },
            )
            .map_err(bad)?,
        };
        Ok(Request::Records {
            what,
            variant: args.rules.0,
            out_dir: args.out,
        })
    }

    /// Writes what was asked for.
    pub fn run(self, out: &mut impl Write) -> Result<super::Status, super::Failure> {
        match self {
            Request::Pawns {
                size,
                count,
                seed,
                density,
            } => {
                let text = pawn_boards(size, count, seed, density).map_err(bad)?;
                out.write_all(text.as_bytes()).map_err(super::write_err)?;
            }
            Request::Records {
                what,
                variant,
                out_dir,
            } => {
                // The hard search's progress goes to standard error.
                let records = what
                    .generate(variant, |k, member| {
                        eprintln!(
                            "K = {k}: {} moves, {} DFS nodes",
                            member.record.moves.len(),
                            member.dfs_nodes
                        );
                    })
                    .map_err(bad)?;
                write_batch(&records, variant, out_dir.as_deref(), out).map_err(bad)?;
            }
        }
        Ok(super::Status::Ok)
    }
}

/// What `generate` refuses, or could not write, is bad input (exit 2).
fn bad(error: impl std::fmt::Display) -> super::Failure {
    super::fail(super::Status::BadInput, error.to_string())
}
