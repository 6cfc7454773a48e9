//! `bench --repair`: records with misread squares or copyist's mistakes,
//! repaired as `solve --repair` repairs them (the request layer's repair,
//! each answer replayed): random fragments, or the games of PDN files.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::archive::{reading, start_of, verify_games, Verdict, VerifyOptions};
use crate::board::{Board, PartialBoard};
use crate::encode::BoardFacts;
use crate::notation::{games, Record};
use crate::random::{misread_landing, miswrite, Mistake, Rng};
use crate::request::{Analyses, RequestError, SolveOptions};
use crate::rules::Variant;

use super::generate::{fragments, FragmentStart};
use super::{problem, run_job, HarnessError, JobAnswer, JobFigures, Summary};

/// Records per row of the repair table (each may take seconds).
pub const REPAIR_RECORDS: usize = 20;

/// The plies of the fragments, a group of rows each.
const PLIES: [usize; 3] = [20, 50, 100];

/// The longest a game of `bench --repair --games` may take before it is
/// counted undecided.
pub const GAME_REPAIR_LIMIT: Duration = Duration::from_secs(60);

/// One row of the fragments' table.
#[derive(Clone, Copy, Debug)]
pub struct RepairRow {
    /// Plies per fragment.
    pub plies: usize,
    /// Squares misread in each (and edits allowed).
    pub edits: usize,
    /// Time per record.
    pub times: Summary,
    /// Records repaired.
    pub repaired: usize,
    /// Records that needed fewer edits than were made (or none).
    pub fewer: usize,
}

/// The options of a repair of at most `max_edits` edits within `limit`.
fn repair_options(max_edits: usize, limit: Option<Duration>) -> Arc<SolveOptions> {
    Arc::new(SolveOptions {
        time_limit: limit,
        analyses: Analyses {
            repair: true,
            max_edits,
            ..Analyses::default()
        },
        ..SolveOptions::default()
    })
}

/// `count` random fragments of 20, 50 and 100 plies with `k` simple moves'
/// destinations misread as another neighbour of their origin, repaired
/// with at most `k` edits (1 to 3); a row per plies and `k`.
///
/// # Errors
/// Records that cannot be generated, a repair that fails or finds none.
pub fn repair_rows(
    count: usize,
    seed: u64,
    variant: Variant,
) -> Result<Vec<RepairRow>, HarnessError> {
    let mut rows = Vec::new();
    for plies in PLIES {
        let records = fragments(count, plies, seed, FragmentStart::Random, variant)?;
        for edits in 1..=3 {
            let mut rng = Rng::new(seed ^ (plies * 10 + edits) as u64);
            let options = repair_options(edits, None);
            let mut row = Tally::default();
            for record in &records {
                let wrong = misread(record, edits, &mut rng);
                let problem = problem(&wrong, variant, BoardFacts::default());
                let started = Instant::now();
                let answer = run_job(&problem, &options);
                row.times.push(started.elapsed());
                match answer {
                    Err(RequestError::Impossible { .. } | RequestError::Undecided { .. }) => {
                        return Err(HarnessError::NoRepair {
                            edits,
                            wrong: Box::new(wrong),
                        })
                    }
                    answer => row.count(answer, edits)?,
                }
            }
            rows.push(RepairRow {
                plies,
                edits,
                times: Summary::of(&row.times),
                repaired: row.repaired,
                fewer: row.fewer,
            });
        }
    }
    Ok(rows)
}

/// The times and counts of a row, as repairs come in.
#[derive(Default)]
struct Tally {
    times: Vec<Duration>,
    repaired: usize,
    fewer: usize,
    undecided: usize,
}

impl Tally {
    /// Counts a repair of a record with `mistakes` mistakes: repaired (and
    /// with fewer edits), possible as written (fewer), or undecided.
    fn count(&mut self, answer: JobAnswer, mistakes: usize) -> Result<(), HarnessError> {
        match answer {
            Ok(JobFigures {
                edits: Some(edits), ..
            }) if edits > 0 => {
                self.repaired += 1;
                self.fewer += usize::from(edits < mistakes);
            }
            Ok(_) => self.fewer += 1,
            Err(RequestError::Undecided { .. }) => self.undecided += 1,
            Err(e) => return Err(e.into()),
        }
        Ok(())
    }
}

/// `record` with `edits` simple moves (or as many as it has) going to
/// another neighbour of their origin: a recorder's misread square.
fn misread(record: &Record, edits: usize, rng: &mut Rng) -> Record {
    let mut moves = record.moves.clone();
    let mut simple: Vec<usize> = (0..moves.len())
        .filter(|&i| !moves[i].is_capture())
        .collect();
    for _ in 0..edits {
        if simple.is_empty() {
            break;
        }
        let i = simple.swap_remove(rng.below(simple.len()));
        if let Some(mv) = misread_landing(&moves[i], rng) {
            moves[i] = mv;
        }
    }
    Record::new(record.first, moves)
}

/// A PDN file of games: its name as given (it salts the mistakes drawn,
/// so that files draw different ones) and its text.
#[derive(Clone, Debug)]
pub struct GameFile {
    /// The file's name as given.
    pub name: String,
    /// Its PDN text.
    pub text: String,
}

/// One row of the real games' table.
#[derive(Clone, Copy, Debug)]
pub struct GamesRow {
    /// The rule set.
    pub rules: &'static str,
    /// Mistakes made in each game.
    pub mistakes: usize,
    /// Games repaired.
    pub games: usize,
    /// Time per game.
    pub times: Summary,
    /// Games repaired.
    pub repaired: usize,
    /// Games that needed fewer edits than mistakes made (or none).
    pub fewer: usize,
    /// Games whose repair took longer than [`GAME_REPAIR_LIMIT`].
    pub undecided: usize,
}

/// Every game of `files` that replays, with 1, 2 and 3 random copyist's
/// mistakes (a misread square, a move left out, a move written twice, the
/// wrong side first), repaired (at most 3 edits) from its known start; a
/// row by rule set and mistakes.
///
/// # Errors
/// A repair that fails, or finds none within 3 edits.
pub fn repair_games(files: &[GameFile], seed: u64) -> Result<Vec<GamesRow>, HarnessError> {
    let mut rows: BTreeMap<(&'static str, usize), Tally> = BTreeMap::new();
    let options = repair_options(3, Some(GAME_REPAIR_LIMIT));
    for file in files {
        let raw: Vec<_> = games(&file.text).collect();
        let reports = verify_games(&raw, VerifyOptions::default());
        for (number, (game, report)) in raw.iter().zip(&reports).enumerate() {
            let (Verdict::Ok, Some(rules)) = (&report.verdict, &report.rules) else {
                continue;
            };
            let variant = rules.variant;
            let Ok(read) = game.read(reading(variant)) else {
                continue;
            };
            if read.record.plies() < 4 {
                continue;
            }
            let start = start_of(&read, variant);
            for mistakes in 1..=3 {
                let salt = ((number as u64) << 8) ^ (mistakes as u64) ^ salt_of(&file.name);
                let mut rng = Rng::new(seed ^ salt);
                let Some(wrong) = with_mistakes(&read.record, mistakes, &mut rng) else {
                    continue;
                };
                let row = rows.entry((variant.name(), mistakes)).or_default();
                let problem = problem(&wrong, variant, known_start(start, variant));
                let started = Instant::now();
                let answer = run_job(&problem, &options);
                row.times.push(started.elapsed());
                if let Err(RequestError::Impossible { .. }) = answer {
                    return Err(HarnessError::NoRepair {
                        edits: 3,
                        wrong: Box::new(wrong),
                    });
                }
                row.count(answer, mistakes)?;
            }
        }
    }
    Ok(rows
        .into_iter()
        .map(|((rules, mistakes), row)| GamesRow {
            rules,
            mistakes,
            games: row.times.len(),
            times: Summary::of(&row.times),
            repaired: row.repaired,
            fewer: row.fewer,
            undecided: row.undecided,
        })
        .collect())
}

/// The facts of a start known on every square.
fn known_start(start: Board, variant: Variant) -> BoardFacts {
    BoardFacts {
        start: Some(PartialBoard {
            board: start,
            known: variant.topology().all_bits(),
        }),
        end: None,
    }
}

/// A salt from a file's name, so that files draw different mistakes.
fn salt_of(name: &str) -> u64 {
    name.bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)))
}

/// `record` with `mistakes` random copyist's mistakes.
fn with_mistakes(record: &Record, mistakes: usize, rng: &mut Rng) -> Option<Record> {
    let mut record = record.clone();
    for _ in 0..mistakes {
        let kind = Mistake::ALL[rng.below(Mistake::ALL.len())];
        record = miswrite(&record, kind, rng)?;
    }
    Some(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misread_fragments_are_repaired_within_their_edits_through_the_request() {
        let records = fragments(6, 20, 3, FragmentStart::Random, Variant::English).unwrap();
        let mut rng = Rng::new(5);
        let options = repair_options(1, None);
        let mut tally = Tally::default();
        for record in &records {
            let wrong = misread(record, 1, &mut rng);
            assert_ne!(wrong.moves, record.moves, "one landing is misread");
            let problem = problem(&wrong, Variant::English, BoardFacts::default());
            let answer = run_job(&problem, &options);
            if let Ok(figures) = &answer {
                assert!(figures.edits.is_some_and(|n| n <= 1), "{figures:?}");
            }
            tally.count(answer, 1).unwrap();
        }
        assert_eq!(tally.repaired + tally.fewer, records.len());
        assert!(tally.repaired > 0, "some misread landing is illegal");
    }

    #[test]
    fn a_salt_tells_files_apart() {
        assert_ne!(salt_of("a.pdn"), salt_of("b.pdn"));
        assert_eq!(salt_of(""), 0);
    }
}
