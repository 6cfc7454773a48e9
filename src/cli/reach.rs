//! `postfacto reach`: the shortest legal game from the opening (or a given
//! start) to a position, and `bench --reach`. The search is the library's
//! ([`postfacto::reach`]); this file reads the boards and prints.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use std::path::Path;

use postfacto::board::{Board, Color, PartialBoard};
use postfacto::notation::{numbered_moves, plural, to_fen, write_pdn, MoveText, Record};
use postfacto::reach::{Goal, Reach, ReachError, ReachOutcome};
use postfacto::rules::Variant;

use super::args::{ReachArgs, ReachFormat, TurnArg};
use super::input::board_facts;
use super::tables::{Cell, Tables};
use super::ticker::Ticker;
use super::timing::Summary;
use super::{fail, write_err, Failure, Status};

/// How long `bench --reach` gives each position.
pub const BENCH_LIMIT: Duration = Duration::from_secs(30);

/// The plies after which `bench --reach` takes the position.
const BENCH_PLIES: [usize; 8] = [4, 8, 12, 16, 20, 24, 30, 40];

/// One row of the bench's table.
#[derive(Default)]
struct Row {
    times: Vec<Duration>,
    found: usize,
    shorter: usize,
    undecided: usize,
}

/// `bench --reach`: positions games reached after 4 to 40 plies (the
/// games of `files` from the opening, else `count` random games of
/// `variant`), each searched for its shortest game with a limit; a table by
/// rule set and plies.
pub fn bench(
    files: &[PathBuf],
    count: usize,
    seed: u64,
    variant: Variant,
    limit: Duration,
    tables: &mut Tables<'_>,
) -> Result<Status, Failure> {
    let games = if files.is_empty() {
        random_games(count, seed, variant)
    } else {
        archive_games(files, count)?
    };
    let mut rows: BTreeMap<(&'static str, usize), Row> = BTreeMap::new();
    for (variant, moves) in &games {
        for plies in BENCH_PLIES.into_iter().filter(|&n| n <= moves.len()) {
            let game = Record::new(variant.first_player(), moves[..plies].to_vec());
            let row = rows.entry((variant.name(), plies)).or_default();
            time_one(*variant, &game, limit, row)
                .map_err(|e| fail(Status::Internal, e.to_string()))?;
        }
    }
    let source = if files.is_empty() {
        format!(
            "{} random {} games, seed {seed}",
            games.len(),
            variant.name()
        )
    } else {
        format!(
            "{} of {} from the opening",
            plural(games.len(), "game"),
            plural(files.len(), "file")
        )
    };
    let title = format!(
        "reach: the shortest game to the position after N plies of {source}; {:.1} s each at most",
        limit.as_secs_f64()
    );
    tables.section("reach", &title).map_err(write_err)?;
    tables
        .columns(&[
            ("rules", 14),
            ("plies", 5),
            ("games", 6),
            ("median_ms", 10),
            ("p90_ms", 10),
            ("max_ms", 10),
            ("found", 6),
            ("shorter", 8),
            ("undecided", 9),
        ])
        .map_err(write_err)?;
    for ((rules, plies), row) in &rows {
        let s = Summary::of(&row.times);
        let ms = |d: Duration| Cell::Num(d.as_secs_f64() * 1000.0, 1);
        tables
            .row(&[
                Cell::Text((*rules).to_string()),
                Cell::Int(*plies),
                Cell::Int(row.times.len()),
                ms(s.median),
                ms(s.p90),
                ms(s.max),
                Cell::Int(row.found),
                Cell::Int(row.shorter),
                Cell::Int(row.undecided),
            ])
            .map_err(write_err)?;
    }
    Ok(Status::Ok)
}

/// Why `bench --reach` stopped: a game that reached a position and a
/// search that disagrees with it.
#[derive(Debug, thiserror::Error)]
enum ReachBenchError {
    /// The game itself does not replay.
    #[error(transparent)]
    Replay(#[from] postfacto::replay::ReplayError),
    /// The search could not be made.
    #[error(transparent)]
    Search(#[from] ReachError),
    /// The search's shortest game is longer than the game played.
    #[error("a game of {played} plies reaches the position, but the shortest found has {found}")]
    LongerThanPlayed {
        /// Plies of the game played.
        played: usize,
        /// Plies of the game found.
        found: usize,
    },
    /// The search calls a position a game reached unreachable.
    #[error("a position a game reached is called unreachable: {0}")]
    CalledUnreachable(String),
}

/// Searches the shortest game to where `game` ends, into `row`.
fn time_one(
    variant: Variant,
    game: &Record,
    limit: Duration,
    row: &mut Row,
) -> Result<(), ReachBenchError> {
    let start = variant.topology().opening();
    let end = postfacto::replay::replay(variant.rules(), &start, game)?;
    let goal = Goal {
        board: PartialBoard {
            board: end,
            known: variant.topology().all_bits(),
        },
        turn: game.mover(game.moves.len() + 1),
    };
    let started = Instant::now();
    let outcome = Reach::new(variant)
        .deadline(Some(started + limit))
        .search(&goal, &mut |_| {})?;
    row.times.push(started.elapsed());
    match outcome {
        ReachOutcome::Found { game: found, .. } => {
            if found.record.moves.len() > game.moves.len() {
                return Err(ReachBenchError::LongerThanPlayed {
                    played: game.moves.len(),
                    found: found.record.moves.len(),
                });
            }
            row.found += 1;
            row.shorter += usize::from(found.record.moves.len() < game.moves.len());
        }
        ReachOutcome::Undecided { .. } => row.undecided += 1,
        ReachOutcome::Unreachable { reason, .. } => {
            return Err(ReachBenchError::CalledUnreachable(reason))
        }
    }
    Ok(())
}

/// `count` random games of 40 plies from the opening (played carefully).
fn random_games(count: usize, seed: u64, variant: Variant) -> Vec<(Variant, Vec<MoveText>)> {
    use postfacto::random::{play_game, Play, Rng};
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

/// The games of `files` that start from the opening and replay, each with
/// every move written out.
fn archive_games(
    files: &[PathBuf],
    per_file: usize,
) -> Result<Vec<(Variant, Vec<MoveText>)>, Failure> {
    use postfacto::archive::{reading, verify_games, Verdict, VerifyOptions};
    let mut out = Vec::new();
    for file in files {
        let before = out.len();
        let input = super::input::read_input(Some(file))?;
        let text = input.pdn_text()?;
        let raw: Vec<_> = postfacto::notation::games(&text).collect();
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
            if let Ok((_, filled)) =
                postfacto::replay::replay_filling(variant.rules(), &start, &read.record, None)
            {
                out.push((variant, filled.moves));
            }
        }
    }
    Ok(out)
}

/// The side to move named on the command line.
fn turn_of(turn: TurnArg) -> Color {
    match turn {
        TurnArg::White => Color::White,
        TurnArg::Black => Color::Black,
    }
}

/// A checked `reach` command: the rule set, the start, the goal, the limits.
pub struct Request {
    variant: Variant,
    start: Option<(Board, Color)>,
    goal: Goal,
    max_plies: Option<u32>,
    limit: Option<Duration>,
    all: Option<u64>,
    format: ReachFormat,
    cnf: Option<u32>,
}

/// Games printed by `--all` (past it, the count and the first game).
const ALL_SHOWN: usize = 20;

impl Request {
    /// Reads the position (and the start board of `--from FILE`).
    ///
    /// # Errors
    /// Unreadable boards, or a position no game could end on (exit 2).
    pub fn from_args(args: ReachArgs) -> Result<Request, Failure> {
        let variant = args.rules.0;
        let goal = board_facts(
            args.file.as_deref().or(Some(Path::new("-"))),
            variant,
            false,
        )?
        .ok_or_else(|| fail(Status::BadInput, "reach needs a position"))?;
        if let Some(problem) = variant.rules().start_problems(&goal.board).first() {
            return Err(fail(
                Status::BadInput,
                format!("the position cannot occur in a game: {problem}"),
            ));
        }
        let start = match args.from.as_str() {
            "opening" => {
                if args.from_turn.is_some() {
                    return Err(fail(Status::BadInput, "--from-turn goes with --from FILE"));
                }
                None
            }
            file => {
                let facts = board_facts(Some(Path::new(file)), variant, true)?
                    .ok_or_else(|| fail(Status::BadInput, "--from needs a board"))?;
                let all = variant.topology().all_bits();
                if facts.known & all != all {
                    return Err(fail(
                        Status::BadInput,
                        format!(
                            "{file}: the start of a game must be known on every square ('?' found)"
                        ),
                    ));
                }
                let side = args.from_turn.map_or(variant.first_player(), turn_of);
                Some((facts.board, side))
            }
        };
        Ok(Request {
            variant,
            start,
            goal: Goal {
                board: goal,
                turn: turn_of(args.turn),
            },
            max_plies: args.max_plies,
            limit: args.limit,
            all: args.all.then_some(args.count_limit),
            format: args.format,
            cnf: args.cnf,
        })
    }

    /// Searches and prints: exit 0 found, 1 unreachable, 3 undecided.
    pub fn run(self, out: &mut impl Write) -> Result<Status, Failure> {
        let started = Instant::now();
        let mut reach = Reach::new(self.variant).deadline(self.limit.map(|l| started + l));
        if let Some((board, side)) = self.start {
            reach = reach.from(board, side);
        }
        if let Some(most) = self.max_plies {
            reach = reach.max_plies(most);
        }
        if let Some(cap) = self.all {
            reach = reach.all(cap, ALL_SHOWN);
        }
        if let Some(plies) = self.cnf {
            let cnf = reach.cnf(&self.goal, plies).map_err(|e| match e {
                ReachError::WrongParity { .. } => fail(Status::BadInput, e.to_string()),
                other => fail(Status::Internal, other.to_string()),
            })?;
            cnf.write_dimacs(out).map_err(write_err)?;
            return Ok(Status::Ok);
        }
        let ticker = Ticker::start(true);
        let outcome = reach.search(&self.goal, &mut |bound| {
            ticker.say(format!("reach: looking for a game of {bound} plies"));
        });
        ticker.finish();
        let outcome = outcome.map_err(|e| fail(Status::Internal, e.to_string()))?;
        let start = self.start.unwrap_or((
            self.variant.topology().opening(),
            self.variant.first_player(),
        ));
        let text = match self.format {
            ReachFormat::Text => self.text(&outcome),
            ReachFormat::Json => format!("{}\n", self.json(&outcome, start)),
            ReachFormat::Pdn => self.pdn(&outcome, start),
        };
        out.write_all(text.as_bytes()).map_err(write_err)?;
        Ok(match outcome {
            ReachOutcome::Found { .. } => Status::Ok,
            ReachOutcome::Unreachable { .. } => Status::Rejected,
            ReachOutcome::Undecided { .. } => Status::Undecided,
        })
    }

    /// The moves with move numbers, every landing written.
    fn movetext(&self, record: &Record) -> String {
        let variant = self.variant;
        numbered_moves(record, variant.first_player(), |mv| variant.write_move(mv))
    }

    fn text(&self, outcome: &ReachOutcome) -> String {
        match outcome {
            ReachOutcome::Found { game, all } => {
                let plies = game.record.moves.len();
                let mut text = String::new();
                match all {
                    Some(all) if all.games.len() as u64 == all.count && !all.capped => {
                        for g in &all.games {
                            text.push_str(&format!("{}\n", self.movetext(&g.record)));
                        }
                        text.push_str(&format!("shortest games: {}\n", all.count));
                    }
                    Some(all) => {
                        text.push_str(&format!("{}\n", self.movetext(&game.record)));
                        let more = if all.capped { "at least " } else { "" };
                        text.push_str(&format!("shortest games: {more}{} (the first shown)\n", all.count));
                    }
                    None => text.push_str(&format!("{}\n", self.movetext(&game.record))),
                }
                text + &format!("shortest: {plies} plies; no legal game of fewer plies reaches it\n")
            }
            ReachOutcome::Unreachable { reason, .. } => format!("unreachable: {reason}\n"),
            ReachOutcome::Undecided { at_least } => format!(
                "undecided: the limit was hit; no legal game of fewer than {at_least} plies reaches it\n"
            ),
        }
    }

    fn json(&self, outcome: &ReachOutcome, (start, first): (Board, Color)) -> serde_json::Value {
        let algebraic = self.variant.fen_algebraic();
        let rules = self.variant.name();
        match outcome {
            ReachOutcome::Found { game, all } => {
                let mut value = serde_json::json!({
                    "rules": rules,
                    "plies": game.record.moves.len(),
                    "moves": game.record.moves.iter().map(|m| self.variant.write_move(m)).collect::<Vec<_>>(),
                    "minimal": true,
                    "lower_bound": game.record.moves.len(),
                    "start_fen": to_fen(&start, first, algebraic),
                    "fen": to_fen(&game.end, self.goal.turn, algebraic),
                });
                if let Some(all) = all {
                    value["shortest_games"] =
                        serde_json::json!({"count": all.count, "at_least": all.capped});
                }
                value
            }
            ReachOutcome::Unreachable { reason, within } => serde_json::json!({
                "rules": rules,
                "reachable": false,
                "reason": reason,
                "checked_up_to": within,
            }),
            ReachOutcome::Undecided { at_least } => serde_json::json!({
                "rules": rules,
                "undecided": true,
                "minimal": false,
                "lower_bound": at_least,
                "start_fen": to_fen(&start, first, algebraic),
            }),
        }
    }

    fn pdn(&self, outcome: &ReachOutcome, (start, first): (Board, Color)) -> String {
        let ReachOutcome::Found { game, .. } = outcome else {
            return self.text(outcome);
        };
        let variant = self.variant;
        let from_opening = self.start.is_none();
        let tags = [
            ("Event", "shortest proof game (postfacto reach)".to_string()),
            ("GameType", variant.pdn_game_type().to_string()),
            ("PlyCount", game.record.moves.len().to_string()),
        ];
        let record = Record::new(first, game.record.moves.clone());
        write_pdn(
            &tags,
            (!from_opening).then_some(&start),
            &record,
            variant.first_player(),
            variant.fen_algebraic(),
            |mv| variant.write_move(mv),
        )
    }
}
