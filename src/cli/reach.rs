//! `postfacto reach`: the shortest (or, with `--any`, any) legal game from
//! the opening or a given start to a position. The command line becomes a
//! [`ReachRequest`], which searches and replays; this file prints.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use postfacto::board::Color;
use postfacto::notation::{numbered_moves, plies as plies_text, to_fen, write_pdn, Record};
use postfacto::reach::Progress;
use postfacto::request::{BoardText, ReachRequest, ReachVerdict, Reached};
use postfacto::rules::Variant;

use super::args::{ReachArgs, ReachFormat, TurnArg};
use super::input::read_input;
use super::ticker::Ticker;
use super::{write_err, Failure, Status};

/// Games printed by `--all` (past it, the count and the first game).
const ALL_SHOWN: usize = 20;

/// The side to move named on the command line.
fn turn_of(turn: TurnArg) -> Color {
    match turn {
        TurnArg::White => Color::White,
        TurnArg::Black => Color::Black,
    }
}

/// A board file's text as a FEN (a text with a `:`) or as rows.
fn board_text(path: &Path, what: &str) -> Result<(BoardText, String), Failure> {
    let input = read_input(Some(path))?;
    let text = input.text(what)?;
    let board = if text.contains(':') {
        BoardText::Fen(text.trim().to_string())
    } else {
        BoardText::Rows(vec![text.to_string()])
    };
    Ok((board, input.name))
}

/// A checked `reach` command: the request, and how to print its answer.
pub struct Request {
    variant: Variant,
    request: ReachRequest,
    /// The file the position came from, for messages.
    name: String,
    from_opening: bool,
    any: bool,
    format: ReachFormat,
    cnf: Option<(u32, bool)>,
    limit: Option<Duration>,
}

impl Request {
    /// Reads the position (and the start board of `--from FILE`).
    ///
    /// # Errors
    /// Unreadable boards, or a position no game could end on (exit 2).
    pub fn from_args(args: ReachArgs) -> Result<Request, Failure> {
        let variant = args.rules.0;
        let (goal, name) = board_text(
            args.file.as_deref().unwrap_or(Path::new("-")),
            "the position",
        )?;
        let mut request = ReachRequest::new(goal, variant)
            .limit(args.limit)
            .max_plies(args.max_plies)
            .any(args.any);
        if let Some(turn) = args.turn {
            request = request.turn(turn_of(turn));
        }
        if args.all {
            request = request.all(args.count_limit, ALL_SHOWN);
        }
        let from_opening = args.from == "opening";
        if from_opening && args.from_turn.is_some() {
            return Err(super::fail(
                Status::BadInput,
                "--from-turn goes with --from FILE",
            ));
        }
        if !from_opening {
            let (start, start_name) = board_text(Path::new(&args.from), "the start board")?;
            request = request.from(start, args.from_turn.map(turn_of));
            request
                .start()
                .map_err(|e| Failure::request(Some(&start_name), e))?;
        }
        Ok(Request {
            variant,
            request,
            name,
            from_opening,
            any: args.any,
            format: args.format,
            cnf: args.cnf.map(|k| (k, args.unrefined)),
            limit: args.limit,
        })
    }

    /// Searches and prints: exit 0 found, 1 unreachable, 3 undecided.
    pub fn run(self, out: &mut impl Write) -> Result<Status, Failure> {
        let failure = |e| Failure::request(Some(&self.name), e);
        if let Some((plies, unrefined)) = self.cnf {
            let ticker = Ticker::start(!unrefined);
            ticker.say(format!(
                "reach: refining the formula of {plies} plies (solving it to the end; --unrefined prints it at once)"
            ));
            let cnf = self.request.cnf(plies, unrefined);
            ticker.finish();
            cnf.map_err(failure)?.write_dimacs(out).map_err(write_err)?;
            return Ok(Status::Ok);
        }
        let ticker = Ticker::start(true);
        let any = self.any;
        let verdict = self.request.search(&mut |p: &Progress| {
            ticker.say(progress_line(p, any));
        });
        ticker.finish();
        let verdict = verdict.map_err(failure)?;
        let start = self.request.start().map_err(failure)?;
        let text = match self.format {
            ReachFormat::Text => self.text(&verdict),
            ReachFormat::Json => format!("{}\n", self.json(&verdict, start)),
            ReachFormat::Pdn => self.pdn(&verdict, start),
        };
        out.write_all(text.as_bytes()).map_err(write_err)?;
        Ok(match verdict {
            ReachVerdict::Reached(_) => Status::Ok,
            ReachVerdict::Unreachable { .. } => Status::Rejected,
            ReachVerdict::Undecided { .. } => Status::Undecided,
        })
    }

    /// The moves with move numbers, every landing written.
    fn movetext(&self, record: &Record) -> String {
        let variant = self.variant;
        numbered_moves(record, variant.first_player(), |mv| variant.write_move(mv))
    }

    fn text(&self, verdict: &ReachVerdict) -> String {
        match verdict {
            ReachVerdict::Reached(game) => {
                let mut text = String::new();
                match &game.all {
                    Some(all) if all.complete() => {
                        for g in &all.games {
                            text.push_str(&format!("{}\n", self.movetext(g)));
                        }
                        text.push_str(&format!("shortest games: {}\n", all.count));
                    }
                    Some(all) => {
                        text.push_str(&format!("{}\n", self.movetext(&game.record)));
                        let more = if all.capped { "at least " } else { "" };
                        text.push_str(&format!(
                            "shortest games: {more}{} (the first shown)\n",
                            all.count
                        ));
                    }
                    None => text.push_str(&format!("{}\n", self.movetext(&game.record))),
                }
                text + &length_line(game)
            }
            ReachVerdict::Unreachable { reason, .. } => format!("unreachable: {reason}\n"),
            ReachVerdict::Undecided { at_least, best } => {
                let limit = self
                    .limit
                    .map_or(String::new(), |l| format!(" ({:.1} s)", l.as_secs_f64()));
                match best {
                    Some(game) => format!(
                        "{}\nundecided: the limit{limit} was hit; a game of {}; none shorter than {at_least} proved\n",
                        self.movetext(&game.record),
                        plies_text(game.record.moves.len())
                    ),
                    None => format!(
                        "undecided: the limit{limit} was hit; no game found; none shorter than {at_least} proved\n"
                    ),
                }
            }
        }
    }

    fn json(
        &self,
        verdict: &ReachVerdict,
        (start, first): (postfacto::board::Board, Color),
    ) -> serde_json::Value {
        let algebraic = self.variant.fen_algebraic();
        let rules = self.variant.name();
        let start_fen = to_fen(&start, first, algebraic);
        let game_json = |game: &Reached| {
            serde_json::json!({
                "rules": rules,
                "plies": game.record.moves.len(),
                "moves": game.moves(),
                "minimal": game.minimal(),
                "lower_bound": game.lower_bound,
                "start_fen": start_fen,
                "fen": to_fen(&game.end, game.record.mover(game.record.moves.len() + 1), algebraic),
            })
        };
        match verdict {
            ReachVerdict::Reached(game) => {
                let mut value = game_json(game);
                if let Some(all) = &game.all {
                    value["shortest_games"] =
                        serde_json::json!({"count": all.count, "at_least": all.capped});
                }
                value
            }
            ReachVerdict::Unreachable { reason, within } => serde_json::json!({
                "rules": rules,
                "reachable": false,
                "reason": reason,
                "checked_up_to": within,
            }),
            ReachVerdict::Undecided { at_least, best } => {
                let mut value = match best {
                    Some(game) => game_json(game),
                    None => {
                        serde_json::json!({"rules": rules, "minimal": false, "start_fen": start_fen})
                    }
                };
                value["undecided"] = true.into();
                value["minimal"] = false.into();
                value["lower_bound"] = (*at_least).into();
                value
            }
        }
    }

    fn pdn(
        &self,
        verdict: &ReachVerdict,
        (start, first): (postfacto::board::Board, Color),
    ) -> String {
        let game = match verdict {
            ReachVerdict::Reached(game) => game,
            ReachVerdict::Undecided {
                best: Some(game), ..
            } => game,
            _ => return self.text(verdict),
        };
        let variant = self.variant;
        let event = if game.minimal() {
            "shortest proof game (postfacto reach)"
        } else {
            "proof game, not proved shortest (postfacto reach)"
        };
        let tags = [
            ("Event", event.to_string()),
            ("GameType", variant.pdn_game_type().to_string()),
            ("PlyCount", game.record.moves.len().to_string()),
        ];
        let record = Record::new(first, game.record.moves.clone());
        write_pdn(
            &tags,
            (!self.from_opening).then_some(&start),
            &record,
            variant.first_player(),
            variant.fen_algebraic(),
            |mv| variant.write_move(mv),
        )
    }
}

/// The line after a game: proved shortest, or how short a game can be.
fn length_line(game: &Reached) -> String {
    let plies = game.record.moves.len();
    if game.minimal() {
        format!(
            "shortest: {}; no legal game of fewer plies reaches it\n",
            plies_text(plies)
        )
    } else {
        format!(
            "a game of {}; the shortest is not proved (none shorter than {} proved)\n",
            plies_text(plies),
            game.lower_bound
        )
    }
}

/// The progress line: the round, its bound, the positions searched, and
/// the best game found so far.
fn progress_line(p: &Progress, any: bool) -> String {
    let best = p
        .best
        .map_or(String::new(), |b| format!("; a game of {b} plies found"));
    if any || p.round == 0 {
        format!(
            "reach: looking for any game; {} positions searched{best}",
            p.positions
        )
    } else {
        format!(
            "reach: round {}, games of {} plies; {} positions searched{best}",
            p.round, p.bound, p.positions
        )
    }
}
