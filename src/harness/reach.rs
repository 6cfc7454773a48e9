//! `bench --reach`: the shortest games (and any games, `--any`) to the
//! positions real or random games reached, each searched for as `reach`
//! searches (the request layer's proof-game search, games replayed).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::archive::{reading, verify_games, Verdict, VerifyOptions};
use crate::board::Board;
use crate::notation::{games, to_fen, MoveText, Record};
use crate::random::{play_game, Play, Rng};
use crate::replay::{replay, replay_filling};
use crate::request::{BoardText, ReachRequest, ReachVerdict};
use crate::rules::Variant;

use super::repair::GameFile;
use super::{median_count, HarnessError, Summary};

/// How long `bench --reach` gives each position.
pub const BENCH_LIMIT: Duration = Duration::from_secs(30);

/// Random games of `bench --reach` (each gives a row's position).
pub const REACH_GAMES: usize = 20;

/// The plies after which `bench --reach` takes the position.
const BENCH_PLIES: [usize; 8] = [4, 8, 12, 16, 20, 24, 30, 40];

/// A game from the opening: its rule set and every move written out.
pub type Game = (Variant, Vec<MoveText>);

/// One row of the shortest-game table: the positions after `plies` plies.
#[derive(Clone, Copy, Debug)]
pub struct ReachRow {
    /// The rule set.
    pub rules: &'static str,
    /// Plies played to the position.
    pub plies: usize,
    /// Games (positions) searched.
    pub games: usize,
    /// Time per search.
    pub times: Summary,
    /// Games found (proved shortest or not).
    pub found: usize,
    /// Games found shorter than the game played.
    pub shorter: usize,
    /// Searches the limit stopped.
    pub undecided: usize,
}

/// One row of the `--any` table: a rule set's whole games.
#[derive(Clone, Copy, Debug)]
pub struct AnyRow {
    /// The rule set.
    pub rules: &'static str,
    /// Games searched for.
    pub games: usize,
    /// The median plies of the games played.
    pub game_plies: usize,
    /// The median plies of the games found.
    pub found_plies: usize,
    /// Time per search.
    pub times: Summary,
    /// Games found.
    pub found: usize,
    /// Found shorter than played.
    pub shorter: usize,
    /// Found longer than played.
    pub longer: usize,
    /// Searches the limit stopped.
    pub undecided: usize,
}

/// `count` random games of 40 plies from the opening (played carefully).
pub fn random_games(count: usize, seed: u64, variant: Variant) -> Vec<Game> {
    let mut rng = Rng::new(seed);
    let opening = variant.topology().opening();
    (0..count)
        .map(|_| {
            let game = play_game(
                variant.rules(),
                &mut rng,
                &opening,
                variant.first_player(),
                40,
                Play::Careful,
            );
            (variant, game.moves)
        })
        .collect()
}

/// The first `per_file` games of each file that start from the opening
/// and replay, each with every move written out.
pub fn archive_games(files: &[GameFile], per_file: usize) -> Vec<Game> {
    let mut out = Vec::new();
    for file in files {
        let before = out.len();
        let raw: Vec<_> = games(&file.text).collect();
        let reports = verify_games(&raw, VerifyOptions::default());
        for (game, report) in raw.iter().zip(&reports) {
            let (Verdict::Ok, Some(rules)) = (&report.verdict, &report.rules) else {
                continue;
            };
            let variant = rules.variant;
            let Ok(read) = game.read(reading(variant)) else {
                continue;
            };
            let start: Board = variant.topology().opening();
            let from_opening = read.fen.is_none_or(|(side, board)| {
                side == variant.first_player() && board.with_topology(start.topology()) == start
            });
            if !from_opening || read.record.first != variant.first_player() {
                continue;
            }
            if out.len() - before >= per_file {
                break;
            }
            if let Ok((_, filled)) = replay_filling(variant.rules(), &start, &read.record, None) {
                out.push((variant, filled.moves));
            }
        }
    }
    out
}

/// The shortest game to the position after 4 to 40 plies of each game,
/// each searched for within `limit`; a row by rule set and plies.
///
/// # Errors
/// A search that fails, finds a game longer than the one played, or calls
/// the position unreachable.
pub fn shortest_rows(games: &[Game], limit: Duration) -> Result<Vec<ReachRow>, HarnessError> {
    let mut rows: BTreeMap<(&'static str, usize), ShortestTally> = BTreeMap::new();
    for (variant, moves) in games {
        for plies in BENCH_PLIES.into_iter().filter(|&n| n <= moves.len()) {
            let game = Record::new(variant.first_player(), moves[..plies].to_vec());
            let row = rows.entry((variant.name(), plies)).or_default();
            let (time, verdict) = search(*variant, &game, limit, false)?;
            row.times.push(time);
            match verdict {
                Some(length) if length > plies => {
                    return Err(HarnessError::LongerThanPlayed {
                        played: plies,
                        found: length,
                    })
                }
                Some(length) => {
                    row.found += 1;
                    row.shorter += usize::from(length < plies);
                }
                None => row.undecided += 1,
            }
        }
    }
    Ok(rows
        .into_iter()
        .map(|((rules, plies), row)| ReachRow {
            rules,
            plies,
            games: row.times.len(),
            times: Summary::of(&row.times),
            found: row.found,
            shorter: row.shorter,
            undecided: row.undecided,
        })
        .collect())
}

/// The figures of a shortest-game row as searches come in.
#[derive(Default)]
struct ShortestTally {
    times: Vec<Duration>,
    found: usize,
    shorter: usize,
    undecided: usize,
}

/// A game (`--any`) to the position at the end of each whole game, each
/// searched for within `limit`; a row by rule set.
///
/// # Errors
/// As [`shortest_rows`], but any length is allowed.
pub fn any_rows(games: &[Game], limit: Duration) -> Result<Vec<AnyRow>, HarnessError> {
    let mut rows: BTreeMap<&'static str, AnyTally> = BTreeMap::new();
    for (variant, moves) in games {
        let game = Record::new(variant.first_player(), moves.clone());
        let row = rows.entry(variant.name()).or_default();
        let (time, verdict) = search(*variant, &game, limit, true)?;
        row.times.push(time);
        let played = moves.len();
        row.game_plies.push(played);
        match verdict {
            Some(plies) => {
                row.found_plies.push(plies);
                row.shorter += usize::from(plies < played);
                row.longer += usize::from(plies > played);
            }
            None => row.undecided += 1,
        }
    }
    Ok(rows
        .into_iter()
        .map(|(rules, row)| AnyRow {
            rules,
            games: row.times.len(),
            game_plies: median_count(&row.game_plies),
            found_plies: median_count(&row.found_plies),
            times: Summary::of(&row.times),
            found: row.found_plies.len(),
            shorter: row.shorter,
            longer: row.longer,
            undecided: row.undecided,
        })
        .collect())
}

/// The figures of an `--any` row as searches come in.
#[derive(Default)]
struct AnyTally {
    times: Vec<Duration>,
    game_plies: Vec<usize>,
    found_plies: Vec<usize>,
    shorter: usize,
    longer: usize,
    undecided: usize,
}

/// Searches a game (the shortest, or any) to where `game` (from the
/// opening) ends, as `reach` does: its time, and the plies of the game
/// found (`None`: undecided at `limit`).
fn search(
    variant: Variant,
    game: &Record,
    limit: Duration,
    any: bool,
) -> Result<(Duration, Option<usize>), HarnessError> {
    let end = replay(variant.rules(), &variant.topology().opening(), game)?;
    let turn = game.mover(game.moves.len() + 1);
    let goal = BoardText::Fen(to_fen(&end, turn, variant.fen_algebraic()));
    let request = ReachRequest::new(goal, variant).limit(Some(limit)).any(any);
    let started = Instant::now();
    let verdict = request.search(&mut |_| {})?;
    let time = started.elapsed();
    match verdict {
        ReachVerdict::Reached(found) => Ok((time, Some(found.record.moves.len()))),
        ReachVerdict::Undecided { .. } => Ok((time, None)),
        ReachVerdict::Unreachable { reason, .. } => Err(HarnessError::CalledUnreachable(reason)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shortest_game_is_never_longer_than_the_game_played() {
        let games: Vec<Game> = random_games(1, 4, Variant::English)
            .into_iter()
            .map(|(v, moves)| (v, moves[..8].to_vec()))
            .collect();
        let rows = shortest_rows(&games, Duration::from_secs(20)).unwrap();
        assert_eq!(rows.iter().map(|r| r.plies).collect::<Vec<_>>(), [4, 8]);
        assert!(rows.iter().all(|r| r.found + r.undecided == r.games));
        assert!(rows.iter().all(|r| r.found == 1), "short games are found");
    }
}
