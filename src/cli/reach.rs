//! `postfacto reach`: the shortest (or, with `--any`, any) legal game from
//! the opening or a given start to a position. The command line becomes a
//! [`ReachRequest`], which searches and replays; [`ReachAnswer`] writes
//! its verdict; this file prints it.

use std::io::Write;
use std::path::Path;

use postfacto::board::Color;
use postfacto::output::ReachAnswer;
use postfacto::reach::Progress;
use postfacto::request::{ReachRequest, ReachVerdict, Source};

use super::args::{ReachArgs, ReachFormat, TurnArg};
use super::ticker::Ticker;
use super::{write_err, Failure, Status};

/// Games printed by `--all` (past it, the count and the first game).
const ALL_SHOWN: usize = 20;

/// `request` from the start `--from` names (`opening`, the default, or a
/// board file) with `--from-turn`, the start checked.
pub(super) fn from_start(
    request: ReachRequest,
    from: Option<&str>,
    from_turn: Option<TurnArg>,
) -> Result<ReachRequest, Failure> {
    match from {
        None | Some("opening") if from_turn.is_some() => Err(super::fail(
            Status::BadInput,
            "--from-turn goes with --from FILE",
        )),
        None | Some("opening") => Ok(request),
        Some(from) => {
            let source = Source::board_named(Some(Path::new(from)), "--from's FEN")?;
            let start = source.board_text("the start board")?;
            request
                .from_checked(start, from_turn.map(Color::from))
                .map_err(|e| Failure::request(Some(&source.name), e))
        }
    }
}

/// A checked `reach` command: the library's request, and how to print its answer.
pub struct ReachCommand {
    request: ReachRequest,
    /// The file the position came from, for messages.
    name: String,
    format: ReachFormat,
    /// `--cnf K`: the formula of K plies instead of a search, and whether unrefined.
    cnf: Option<(u32, bool)>,
}

impl ReachCommand {
    /// Reads the position (and the start board of `--from FILE`).
    ///
    /// # Errors
    /// Unreadable boards, or a position no game could end on (exit 2).
    pub fn from_args(args: ReachArgs) -> Result<ReachCommand, Failure> {
        let source = Source::board(args.file.as_deref())?;
        let goal = source.board_text("the position")?;
        let variant = super::request::rules_choice(args.rules).for_board(&goal);
        let mut request = ReachRequest::new(goal, variant)
            .limit(args.limit)
            .max_plies(args.max_plies)
            .any(args.any);
        if let Some(turn) = args.turn {
            request = request.turn(turn.into());
        }
        if args.all {
            request = request.all(args.count_limit, ALL_SHOWN);
        }
        let request = from_start(request, Some(&args.from), args.from_turn)?;
        Ok(ReachCommand {
            request,
            name: source.name,
            format: args.format,
            cnf: args.cnf.map(|k| (k, args.unrefined)),
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
        let any = self.request.looks_for_any();
        let verdict = self.request.search(&mut |p: &Progress| {
            ticker.say(progress_line(p, any));
        });
        ticker.finish();
        let verdict = verdict.map_err(failure)?;
        let answer = ReachAnswer::of(&self.request, &verdict).map_err(failure)?;
        let text = match self.format {
            ReachFormat::Text => answer.text(),
            ReachFormat::Json => format!("{}\n", answer.json()),
            ReachFormat::Pdn => answer.pdn(),
        };
        out.write_all(text.as_bytes()).map_err(write_err)?;
        Ok(match verdict {
            ReachVerdict::Reached(_) => Status::Ok,
            ReachVerdict::Unreachable { .. } => Status::Rejected,
            ReachVerdict::Undecided { .. } => Status::Undecided,
        })
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
