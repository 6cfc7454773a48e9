//! `postfacto generate`: instances for tests, benchmarks and `compare`.

use std::io::Write;
use std::path::{Path, PathBuf};

use postfacto::hard::{hard_instance, largest_k, search, Shuttles, MAX_K};
use postfacto::notation::Record;
use postfacto::random::{opening_fragment, random_fragment, Rng};
use postfacto::rules::Variant;

use super::args::FromArg;

/// Why `generate` (or a bench table that generates) wrote nothing, or not all.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// Too many random games ended before `plies` moves.
    #[error("could not find {count} games of {plies} moves (games end too early)")]
    GamesEndTooEarly {
        /// Records asked for.
        count: usize,
        /// Moves each.
        plies: usize,
    },
    /// `--hard 0`.
    #[error("--hard needs K >= 1")]
    HardNeedsK,
    /// `--hard K` past the stored family.
    #[error("the hard family has no member with K = {k} (the largest is {largest})")]
    NoHardMember {
        /// The K asked for.
        k: usize,
        /// The largest stored.
        largest: usize,
    },
    /// `--beam` over [`MAX_BEAM`].
    #[error("--beam is at most {}", MAX_BEAM)]
    BeamTooWide,
    /// `--beam 0`.
    #[error("--beam must be at least 1")]
    BeamEmpty,
    /// `--pawns N` over [`MAX_PAWN_BOARD`].
    #[error("--pawns {size}: at most {}", MAX_PAWN_BOARD)]
    PawnBoardTooBig {
        /// The side asked for.
        size: usize,
    },
    /// All boards together over [`MAX_PAWN_SQUARES`].
    #[error(
        "--pawns {size} --count {count}: at most {} squares in all",
        MAX_PAWN_SQUARES
    )]
    TooManyPawnSquares {
        /// The side asked for.
        size: usize,
        /// The boards asked for.
        count: usize,
    },
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

/// `count` seeded fragments of exactly `plies` moves (fewer only if games keep ending early).
pub fn fragments(
    count: usize,
    plies: usize,
    seed: u64,
    from: FromArg,
    variant: Variant,
) -> Result<Vec<Record>, GenerateError> {
    let rules = variant.rules();
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count.min(1 << 16));
    let mut attempts = 0usize;
    while out.len() < count {
        attempts += 1;
        if attempts > 1000 + 100 * count {
            return Err(GenerateError::GamesEndTooEarly { count, plies });
        }
        let lead = rng.below(20);
        let found = match from {
            FromArg::Random => random_fragment(rules, &mut rng, lead, plies),
            FromArg::Opening => opening_fragment(rules, &mut rng, lead, plies),
        };
        if let Some((_, record)) = found.filter(|(_, r)| r.moves.len() == plies) {
            out.push(record);
        }
    }
    Ok(out)
}

/// `records` damaged as `damage` says (`shared/spec/damaged.md`), with a
/// generator of its own so the fragments stay those of `seed` undamaged.
pub fn damaged(records: Vec<Record>, seed: u64, damage: postfacto::random::Damage) -> Vec<Record> {
    if damage == postfacto::random::Damage::default() {
        return records;
    }
    let mut rng = Rng::new(seed ^ 0xDA3A_6ED0);
    records
        .iter()
        .map(|r| postfacto::random::damage(r, &mut rng, damage))
        .collect()
}

pub fn run(
    records: Result<Vec<Record>, GenerateError>,
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

pub fn hard(k: usize) -> Result<Vec<Record>, GenerateError> {
    if k == 0 {
        return Err(GenerateError::HardNeedsK);
    }
    hard_instance(k)
        .map(|r| vec![r])
        .ok_or_else(|| GenerateError::NoHardMember {
            k,
            largest: largest_k(),
        })
}

/// The most plies per generated record, records per run, and beam width:
/// everything generated is held in memory before it is written.
pub const MAX_PLIES: usize = 100_000;
/// See [`MAX_PLIES`].
pub const MAX_COUNT: usize = 10_000_000;
/// See [`MAX_PLIES`].
pub const MAX_BEAM: usize = 100_000;

/// Reruns the search behind the stored hard family; progress goes to stderr.
pub fn hard_search(width: usize) -> Result<Vec<Record>, GenerateError> {
    if width > MAX_BEAM {
        return Err(GenerateError::BeamTooWide);
    }
    if width == 0 {
        return Err(GenerateError::BeamEmpty);
    }
    let members = search(MAX_K, width, Some(Shuttles::corners()), |k, member| {
        eprintln!(
            "K = {k}: {} moves, {} DFS nodes",
            member.record.moves.len(),
            member.dfs_nodes
        );
    });
    Ok(members.into_iter().map(|m| m.record).collect())
}

/// The largest pawn board `generate` writes (100 million squares), and the
/// most squares of all its boards together (the text is built in memory).
const MAX_PAWN_BOARD: usize = 10_000;
const MAX_PAWN_SQUARES: usize = 1_000_000_000;

/// `count` random pawn-puzzle boards, `size` x `size`, in the puzzle's format.
pub fn pawn_boards(
    size: usize,
    count: usize,
    seed: u64,
    density: u32,
) -> Result<String, GenerateError> {
    if size > MAX_PAWN_BOARD {
        return Err(GenerateError::PawnBoardTooBig { size });
    }
    if size.saturating_mul(size).saturating_mul(count) > MAX_PAWN_SQUARES {
        return Err(GenerateError::TooManyPawnSquares { size, count });
    }
    let mut rng = postfacto::random::Rng::new(seed);
    let boards: Vec<_> = (0..count)
        .map(|_| postfacto::pawns::PawnBoard::random(size, density, &mut rng))
        .collect();
    Ok(postfacto::pawns::format_pawn_boards(&boards))
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
        what: Records,
        variant: Variant,
        out_dir: Option<std::path::PathBuf>,
    },
}

/// Which records `generate` writes.
pub enum Records {
    Hard(usize),
    HardSearch(usize),
    Fragments {
        count: usize,
        plies: usize,
        seed: u64,
        from: FromArg,
        damage: postfacto::random::Damage,
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
            _ if args.hard_search => Records::HardSearch(args.beam),
            Some(k) => Records::Hard(k),
            None if args.plies == 0 || args.count == 0 => {
                return Err(bad("--plies and --count must be at least 1".into()))
            }
            None if args.plies > MAX_PLIES || args.count > MAX_COUNT => {
                return Err(bad(format!(
                    "--plies is at most {MAX_PLIES} and --count at most {MAX_COUNT} (generated records are held in memory)"
                )))
            }
            None => Records::Fragments {
                count: args.count,
                plies: args.plies,
                seed: args.seed,
                from: args.from,
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
                let text = pawn_boards(size, count, seed, density).map_err(bad)?;
                out.write_all(text.as_bytes()).map_err(super::write_err)?;
            }
            Request::Records {
                what,
                variant,
                out_dir,
            } => {
                let records = match what {
                    Records::Hard(k) => hard(k),
                    Records::HardSearch(beam) => hard_search(beam),
                    Records::Fragments {
                        count,
                        plies,
                        seed,
                        from,
                        damage,
                    } => fragments(count, plies, seed, from, variant)
                        .map(|records| damaged(records, seed, damage)),
                };
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
    fn refusals_name_the_option_and_its_bound() {
        let refused = |r: Result<String, GenerateError>| r.unwrap_err().to_string();
        assert_eq!(
            refused(pawn_boards(MAX_PAWN_BOARD + 1, 1, 0, 50)),
            "--pawns 10001: at most 10000"
        );
        assert_eq!(
            refused(pawn_boards(1000, 1001, 0, 50)),
            "--pawns 1000 --count 1001: at most 1000000000 squares in all"
        );
        assert!(pawn_boards(4, 2, 0, 50).is_ok());
        let too_wide = hard_search(MAX_BEAM + 1).unwrap_err();
        assert_eq!(too_wide.to_string(), "--beam is at most 100000");
        let beyond = hard(largest_k() + 1).unwrap_err().to_string();
        let want = format!(
            "the hard family has no member with K = {} (the largest is {})",
            largest_k() + 1,
            largest_k()
        );
        assert_eq!(beyond, want);
    }

    #[test]
    fn a_folder_that_cannot_be_made_is_named() {
        let file = tempfile::NamedTempFile::new().unwrap();
        let inside = file.path().join("sub");
        let records = hard(1);
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
