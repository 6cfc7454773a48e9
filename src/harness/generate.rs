//! What `generate` (and every bench table) makes: seeded random fragments,
//! damaged copies of them, the hard family and its search, and random
//! pawn-puzzle boards. Same seed, same records, byte for byte.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::hard::{hard_instance, largest_k, search, Member, Shuttles, MAX_K};
use crate::notation::Record;
use crate::random::{damage, opening_fragment, random_fragment, Damage, Rng};
use crate::rules::Variant;

/// Why nothing (or not all) was generated.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
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
    /// No plies or no records asked for.
    #[error("--plies and --count must be at least 1")]
    NoPliesOrCount,
    /// More plies or records than [`MAX_PLIES`] and [`MAX_COUNT`].
    #[error(
        "--plies is at most {} and --count at most {} (generated records are held in memory)",
        MAX_PLIES,
        MAX_COUNT
    )]
    BatchTooLarge,
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
}

/// The most plies per generated record, records per run, and beam width:
/// everything generated is held in memory before it is written.
pub const MAX_PLIES: usize = 100_000;
/// See [`MAX_PLIES`].
pub const MAX_COUNT: usize = 10_000_000;
/// See [`MAX_PLIES`].
pub const MAX_BEAM: usize = 100_000;

/// The largest pawn board `generate` writes (100 million squares), and the
/// most squares of all its boards together (the text is built in memory).
pub const MAX_PAWN_BOARD: usize = 10_000;
/// See [`MAX_PAWN_BOARD`].
pub const MAX_PAWN_SQUARES: usize = 1_000_000_000;

/// Where generated games start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FragmentStart {
    /// Random start-legal boards.
    Random,
    /// The rule set's opening, its first player to move.
    Opening,
}

/// `count` seeded fragments of exactly `plies` moves (fewer only if games keep ending early).
///
/// # Errors
/// [`GenerateError::GamesEndTooEarly`] when too many games end first.
pub fn fragments(
    count: usize,
    plies: usize,
    seed: u64,
    from: FragmentStart,
    variant: Variant,
) -> Result<Vec<Record>, GenerateError> {
    let rules = variant.rules();
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    let mut attempts = 0;
    while out.len() < count {
        attempts += 1;
        if attempts > 1000 + 100 * count {
            return Err(GenerateError::GamesEndTooEarly { count, plies });
        }
        let lead = rng.below(20);
        let found = match from {
            FragmentStart::Random => random_fragment(rules, &mut rng, lead, plies),
            FragmentStart::Opening => opening_fragment(rules, &mut rng, lead, plies),
        };
        if let Some((_, record)) = found.filter(|(_, r)| r.moves.len() == plies) {
            out.push(record);
        }
    }
    Ok(out)
}

/// `records` damaged as `how` says (`shared/spec/damaged.md`), with a
/// generator of its own so the fragments stay those of `seed` undamaged.
pub fn damaged(records: Vec<Record>, seed: u64, how: Damage) -> Vec<Record> {
    if how == Damage::default() {
        return records;
    }
    let mut rng = damage_rng(seed);
    records.iter().map(|r| damage(r, &mut rng, how)).collect()
}

/// The generator that damages the fragments of `seed`.
pub(super) fn damage_rng(seed: u64) -> Rng {
    Rng::new(seed ^ 0xDA3A_6ED0)
}

/// The member of the hard family with `k` blocker gadgets.
///
/// # Errors
/// `k` of 0, or past the stored family.
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

/// Reruns the search behind the stored hard family, telling `progress`
/// of each member found.
///
/// # Errors
/// A beam width of 0 or over [`MAX_BEAM`].
pub fn hard_search(
    width: usize,
    progress: impl FnMut(usize, &Member),
) -> Result<Vec<Record>, GenerateError> {
    if width > MAX_BEAM {
        return Err(GenerateError::BeamTooWide);
    }
    if width == 0 {
        return Err(GenerateError::BeamEmpty);
    }
    let members = search(MAX_K, width, Some(Shuttles::corners()), progress);
    Ok(members.into_iter().map(|m| m.record).collect())
}

/// The records `generate` writes: the hard family's member, its search,
/// or random fragments damaged as asked.
#[derive(Clone, Copy, Debug)]
pub enum Batch {
    /// Member K of the stored hard family.
    Hard(usize),
    /// The hard family searched for again with this beam width.
    HardSearch(usize),
    /// `count` random fragments of `plies` plies, seeded, then damaged.
    Fragments {
        /// How many.
        count: usize,
        /// Plies each.
        plies: usize,
        /// The generator's seed.
        seed: u64,
        /// Where they start.
        from: FragmentStart,
        /// What is made illegible.
        damage: Damage,
    },
}

impl Batch {
    /// `count` random fragments of `plies` plies, seeded, then damaged.
    ///
    /// # Errors
    /// No plies or records, or more than [`MAX_PLIES`] or [`MAX_COUNT`].
    pub fn fragments(
        count: usize,
        plies: usize,
        seed: u64,
        from: FragmentStart,
        damage: Damage,
    ) -> Result<Batch, GenerateError> {
        if plies == 0 || count == 0 {
            return Err(GenerateError::NoPliesOrCount);
        }
        if plies > MAX_PLIES || count > MAX_COUNT {
            return Err(GenerateError::BatchTooLarge);
        }
        Ok(Batch::Fragments {
            count,
            plies,
            seed,
            from,
            damage,
        })
    }

    /// The records, under `variant`; the hard search tells `progress` of
    /// each member found.
    ///
    /// # Errors
    /// What [`hard`], [`hard_search`] and [`fragments`] refuse.
    pub fn generate(
        self,
        variant: Variant,
        progress: impl FnMut(usize, &Member),
    ) -> Result<Vec<Record>, GenerateError> {
        match self {
            Batch::Hard(k) => hard(k),
            Batch::HardSearch(beam) => hard_search(beam, progress),
            Batch::Fragments {
                count,
                plies,
                seed,
                from,
                damage,
            } => fragments(count, plies, seed, from, variant)
                .map(|records| self::damaged(records, seed, damage)),
        }
    }
}

/// `count` random pawn-puzzle boards, `size` x `size`, in the puzzle's format.
///
/// # Errors
/// A board, or all boards together, larger than the bounds above.
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
    let mut rng = Rng::new(seed);
    let boards: Vec<_> = (0..count)
        .map(|_| crate::pawns::PawnBoard::random(size, density, &mut rng))
        .collect();
    Ok(crate::pawns::format_pawn_boards(&boards))
}

/// Why a generated batch was not written, or not all of it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The output stream could not be written.
    #[error("{0}")]
    Write(std::io::Error),
    /// A file or folder of the batch's folder could not be made, read or removed.
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

/// A [`WriteError::File`] maker for `action` on `path`.
fn file_error(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> WriteError {
    let path = path.to_path_buf();
    move |source| WriteError::File {
        action,
        path,
        source,
    }
}

/// Writes `records` (under `variant`) to `out`, or one file each
/// (`NNNN.in`) into the folder `dir`, where the `NNNN.in` files of an
/// earlier, larger batch are removed (other files are left).
///
/// # Errors
/// `out`, the folder or a file of it cannot be written.
pub fn write_batch(
    records: &[Record],
    variant: Variant,
    dir: Option<&Path>,
    out: &mut impl Write,
) -> Result<(), WriteError> {
    let text = |r: &Record| variant.write_record(r);
    let Some(dir) = dir else {
        for record in records {
            write!(out, "{}", text(record)).map_err(WriteError::Write)?;
        }
        return Ok(());
    };
    std::fs::create_dir_all(dir).map_err(file_error("create", dir))?;
    for (i, record) in records.iter().enumerate() {
        let file = dir.join(format!("{:04}.in", i + 1));
        std::fs::write(&file, text(record)).map_err(file_error("write", &file))?;
    }
    remove_stale(dir, records.len())
}

/// Removes the `NNNN.in` files an earlier, larger batch left in `dir`
/// past the `count` just written. Other files are not touched.
fn remove_stale(dir: &Path, count: usize) -> Result<(), WriteError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_that_cannot_be_made_is_named() {
        let file = tempfile::NamedTempFile::new().unwrap();
        let inside = file.path().join("sub");
        let records = hard(1).unwrap();
        let failed =
            write_batch(&records, Variant::English, Some(&inside), &mut Vec::new()).unwrap_err();
        assert!(matches!(
            failed,
            WriteError::File {
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

    #[test]
    fn a_smaller_batch_removes_the_files_of_a_larger_one_and_no_others() {
        let dir = tempfile::tempdir().unwrap();
        let records = fragments(3, 4, 1, FragmentStart::Random, Variant::English).unwrap();
        write_batch(
            &records,
            Variant::English,
            Some(dir.path()),
            &mut Vec::new(),
        )
        .unwrap();
        std::fs::write(dir.path().join("notes.txt"), "kept").unwrap();
        write_batch(
            &records[..1],
            Variant::English,
            Some(dir.path()),
            &mut Vec::new(),
        )
        .unwrap();
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["0001.in", "notes.txt"]);
    }

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
        let too_wide = hard_search(MAX_BEAM + 1, |_, _| {}).unwrap_err();
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
    fn the_same_seed_gives_the_same_fragments() {
        let make = |seed| fragments(3, 12, seed, FragmentStart::Random, Variant::English).unwrap();
        assert_eq!(make(7), make(7));
        assert_ne!(make(7), make(8));
        assert!(make(7).iter().all(|r| r.moves.len() == 12));
    }
}
