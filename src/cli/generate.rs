//! `postfacto generate`: instances for tests, benchmarks and `compare`.

use std::io::Write;
use std::path::{Path, PathBuf};

use postfacto::harness::generate::{pawn_boards, Batch, FragmentStart, MAX_COUNT, MAX_PLIES};
use postfacto::notation::Record;
use postfacto::rules::Variant;

use super::args::FromArg;

/// Why `generate` wrote nothing, or not all: nothing to write, or where
/// it could not be written.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// The records or boards could not be generated.
    #[error(transparent)]
    Generate(#[from] postfacto::harness::GenerateError),
    /// Standard output could not be written.
    #[error("{0}")]
    Write(std::io::Error),
    /// A file or folder of `--out` could not be made, read or removed.
    #[error("cannot {action} '{}': {source}", path.display())]
    File {
        /// "create", "write", "read" or "remove".
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
}

/// A [`GenerateError::File`] maker for `action` on `path`.
fn file_error(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> GenerateError {
    let path = path.to_path_buf();
    move |source| GenerateError::File {
        action,
        path,
        source,
    }
}

/// Writes `records` to standard output, or one file each (`NNNN.in`)
/// into `out_dir`.
pub fn run(
    records: Result<Vec<Record>, postfacto::harness::GenerateError>,
    variant: Variant,
    out_dir: Option<&Path>,
    out: &mut impl Write,
) -> Result<(), GenerateError> {
    let records = records?;
    let text = |r: &Record| variant.write_record(r);
    match out_dir {
        None => {
            for record in &records {
                write!(out, "{}", text(record)).map_err(GenerateError::Write)?;
            }
        }
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(file_error("create", dir))?;
            for (i, record) in records.iter().enumerate() {
                let file = dir.join(format!("{:04}.in", i + 1));
                std::fs::write(&file, text(record)).map_err(file_error("write", &file))?;
            }
            remove_stale(dir, records.len())?;
        }
    }
    Ok(())
}

/// Removes the `NNNN.in` files an earlier, larger `generate --out` left in
/// `dir` past the `count` just written: the folder holds this batch only.
/// Other files are not touched.
fn remove_stale(dir: &Path, count: usize) -> Result<(), GenerateError> {
    let entries = std::fs::read_dir(dir).map_err(file_error("read", dir))?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let number = name
            .strip_suffix(".in")
            .filter(|n| n.len() >= 4 && n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse::<usize>().ok());
        if number.is_some_and(|n| n > count) {
            let path = entry.path();
            std::fs::remove_file(&path).map_err(file_error("remove", &path))?;
        }
    }
    Ok(())
}

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
        out_dir: Option<std::path::PathBuf>,
    },
}

impl Request {
    /// Checks `generate`'s arguments.
    pub fn from_args(args: super::args::GenerateArgs) -> Result<Request, super::Failure> {
        let bad = |m: String| super::fail(super::Status::BadInput, m);
        if let Some(size) = args.pawns {
            return Ok(Request::Pawns {
                size,
                count: args.count,
                seed: args.seed,
                density: args.density,
            });
        }
        let variant = args.rules.0;
        let what = match args.hard {
            _ if args.hard_search => Batch::HardSearch(args.beam),
            Some(k) => Batch::Hard(k),
            None if args.plies == 0 || args.count == 0 => {
                return Err(bad("--plies and --count must be at least 1".into()))
            }
            None if args.plies > MAX_PLIES || args.count > MAX_COUNT => {
                return Err(bad(format!(
                    "--plies is at most {MAX_PLIES} and --count at most {MAX_COUNT} (generated records are held in memory)"
                )))
            }
            None => Batch::Fragments {
                count: args.count,
                plies: args.plies,
                seed: args.seed,
                from: match args.from {
                    FromArg::Random => FragmentStart::Random,
                    FromArg::Opening => FragmentStart::Opening,
                },
                damage: postfacto::random::Damage {
                    unknown_moves: args.unknown_moves,
                    unknown_squares: args.unknown_squares,
                    short_captures: args.short_captures,
                },
            },
        };
        Ok(Request::Records {
            what,
            variant,
            out_dir: args.out,
        })
    }

    /// Writes what was asked for.
    pub fn run(self, out: &mut impl Write) -> Result<super::Status, super::Failure> {
        let bad = |e: GenerateError| super::fail(super::Status::BadInput, e.to_string());
        match self {
            Request::Pawns {
                size,
                count,
                seed,
                density,
            } => {
                let text = pawn_boards(size, count, seed, density).map_err(|e| bad(e.into()))?;
                out.write_all(text.as_bytes()).map_err(super::write_err)?;
            }
            Request::Records {
                what,
                variant,
                out_dir,
            } => {
                // The hard search's progress goes to standard error.
                let records = what.generate(variant, |k, member| {
                    eprintln!(
                        "K = {k}: {} moves, {} DFS nodes",
                        member.record.moves.len(),
                        member.dfs_nodes
                    );
                });
                run(records, variant, out_dir.as_deref(), out).map_err(bad)?;
            }
        }
        Ok(super::Status::Ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_that_cannot_be_made_is_named() {
        let file = tempfile::NamedTempFile::new().unwrap();
        let inside = file.path().join("sub");
        let records = postfacto::harness::generate::hard(1);
        let failed = run(records, Variant::English, Some(&inside), &mut Vec::new()).unwrap_err();
        assert!(matches!(
            failed,
            GenerateError::File {
                action: "create",
                ..
            }
        ));
        let text = failed.to_string();
        assert!(
            text.starts_with(&format!("cannot create '{}': ", inside.display())),
            "{text}"
        );
    }
}
