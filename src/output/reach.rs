//! `reach`'s answers written as text, JSON (a serde type, keys in name
//! order) and PDN: the game found with what is proved of its length, why
//! no game reaches the position, or what a limit left.

use std::time::Duration;

use serde::Serialize;

use crate::board::{Board, Color};
use crate::notation::{numbered_moves, plies as plies_text, to_fen, write_pdn, Record};
use crate::reach::Stopped;
use crate::request::{ReachRequest, ReachVerdict, Reached, RequestError};
use crate::rules::Variant;

/// A proof-game search's verdict with what its writers need to know of
/// the search: the rule set, the start and the limit.
#[derive(Clone, Copy, Debug)]
pub struct ReachAnswer<'a> {
    /// What the search found.
    pub verdict: &'a ReachVerdict,
    /// The rule set searched under.
    pub variant: Variant,
    /// The start board and who moves first on it.
    pub start: (Board, Color),
    /// The start is the rule set's opening (PDN writes no `[FEN]`).
    pub from_opening: bool,
    /// The search's time limit, named when it passed.
    pub limit: Option<Duration>,
}

/// A verdict as JSON: only the keys the verdict has
/// (`checked_up_to` may be null).
#[derive(Debug, Default, Serialize)]
struct ReachJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    checked_up_to: Option<Option<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fen: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lower_bound: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    minimal: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    plies: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reachable: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    rules: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    shortest_games: Option<ShortestJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_fen: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    undecided: Option<bool>,
}

/// How many shortest games there are (`--all`).
#[derive(Debug, Serialize)]
struct ShortestJson {
    at_least: bool,
    count: u64,
}

/// The moves with move numbers under `variant`, every landing written.
fn movetext(variant: Variant, record: &Record) -> String {
    numbered_moves(record, variant.first_player(), |mv| variant.write_move(mv))
}

/// The board `game` ends on under `variant`, with the side to move after it.
fn end_fen(variant: Variant, game: &Reached) -> String {
    let mover = game.record.mover(game.record.moves.len() + 1);
    to_fen(&game.end, mover, variant.fen_algebraic())
}

/// The game a model of `reach --cnf K`'s formula stands for (under
/// `variant`), as `decode --reach K` prints it: the moves numbered from the
/// start, then `a game of exactly K plies to FEN` (nothing is proved of its
/// length).
pub fn model_game_text(variant: Variant, game: &Reached) -> String {
    format!(
        "{}\na game of exactly {} to {}\n",
        movetext(variant, &game.record),
        plies_text(game.record.moves.len()),
        end_fen(variant, game)
    )
}

impl<'a> ReachAnswer<'a> {
    /// `request`'s `verdict`, to be written with the request's rule set,
    /// start and limit.
    ///
    /// # Errors
    /// The request's start board cannot be read (bad input).
    pub fn of(
        request: &ReachRequest,
        verdict: &'a ReachVerdict,
    ) -> Result<ReachAnswer<'a>, RequestError> {
        Ok(ReachAnswer {
            verdict,
            variant: request.variant(),
            start: request.start()?,
            from_opening: request.from_opening(),
            limit: request.time_limit(),
        })
    }
}

impl ReachAnswer<'_> {
    /// The moves with move numbers, every landing written.
    fn movetext(&self, record: &Record) -> String {
        movetext(self.variant, record)
    }

    /// The verdict as `reach` prints it: the game and its length line,
    /// or the reason there is none.
    pub fn text(&self) -> String {
        match self.verdict {
            ReachVerdict::Reached(game) => self.games_text(game) + &length_line(game),
            ReachVerdict::Unreachable { reason, .. } => format!("unreachable: {reason}\n"),
            ReachVerdict::Undecided {
                at_least,
                best,
                stopped,
            } => {
                let why = match stopped {
                    Stopped::Limit => {
                        let limit = self.limit.map_or(String::new(), |l| {
                            format!(" ({})", crate::sat::in_seconds(l))
                        });
                        format!("the limit{limit} was hit")
                    }
                    Stopped::Positions => stopped.to_string(),
                };
                match best {
                    Some(game) => format!(
                        "{}\nundecided: {why}; a game of {}; none shorter than {at_least} proved\n",
                        self.movetext(&game.record),
                        plies_text(game.record.moves.len())
                    ),
                    None => format!(
                        "undecided: {why}; no game found; none shorter than {at_least} proved\n"
                    ),
                }
            }
        }
    }

    /// The game found, or with `--all` every shortest game (or the first
    /// and how many there are).
    fn games_text(&self, game: &Reached) -> String {
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
        text
    }

    /// The verdict as one line of JSON.
    pub fn json(&self) -> String {
        let value = self.json_value();
        serde_json::to_string(&value).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }

    fn json_value(&self) -> ReachJson {
        let rules = self.variant.name();
        match self.verdict {
            ReachVerdict::Reached(game) => ReachJson {
                shortest_games: game.all.as_ref().map(|all| ShortestJson {
                    at_least: all.capped,
                    count: all.count,
                }),
                ..self.game_json(game)
            },
            ReachVerdict::Unreachable { reason, within } => ReachJson {
                checked_up_to: Some(*within),
                reachable: Some(false),
                reason: Some(reason.clone()),
                rules,
                ..ReachJson::default()
            },
            ReachVerdict::Undecided {
                at_least,
                best,
                stopped,
            } => {
                let found = match best {
                    Some(game) => self.game_json(game),
                    None => ReachJson {
                        rules,
                        start_fen: Some(self.start_fen()),
                        ..ReachJson::default()
                    },
                };
                ReachJson {
                    undecided: Some(true),
                    stopped: Some(stopped.name()),
                    minimal: Some(false),
                    lower_bound: Some(*at_least),
                    ..found
                }
            }
        }
    }

    /// The board a game ends on, with the side to move after it.
    fn end_fen(&self, game: &Reached) -> String {
        end_fen(self.variant, game)
    }

    fn start_fen(&self) -> String {
        let (start, first) = self.start;
        to_fen(&start, first, self.variant.fen_algebraic())
    }

    /// A game's keys: its moves, length, what is proved of it, its start and end.
    fn game_json(&self, game: &Reached) -> ReachJson {
        ReachJson {
            fen: Some(self.end_fen(game)),
            lower_bound: Some(game.lower_bound),
            minimal: Some(game.minimal()),
            moves: Some(game.moves()),
            plies: Some(game.record.moves.len()),
            rules: self.variant.name(),
            start_fen: Some(self.start_fen()),
            ..ReachJson::default()
        }
    }

    /// The game found as a PDN game (its `[FEN]` when it starts elsewhere
    /// than the opening); the text when there is no game.
    pub fn pdn(&self) -> String {
        let game = match self.verdict {
            ReachVerdict::Reached(game)
            | ReachVerdict::Undecided {
                best: Some(game), ..
            } => game,
            ReachVerdict::Unreachable { .. } | ReachVerdict::Undecided { best: None, .. } => {
                return self.text()
            }
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
        let (start, first) = &self.start;
        let record = Record::new(*first, game.record.moves.clone());
        write_pdn(
            &tags,
            (!self.from_opening).then_some(start),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::BoardText;

    /// The shortest game to the opening after `11-15`, and the answer's start.
    fn one_ply() -> (Reached, (Board, Color)) {
        let fen = BoardText::Fen("W:W21-32:B1-10,12,15".into());
        let request = ReachRequest::new(fen, Variant::English);
        let Ok(ReachVerdict::Reached(game)) = request.search(&mut |_| {}) else {
            panic!("one ply reaches it");
        };
        (game, request.start().expect("the opening"))
    }

    fn answer(verdict: &ReachVerdict, start: (Board, Color)) -> ReachAnswer<'_> {
        ReachAnswer {
            verdict,
            variant: Variant::English,
            start,
            from_opening: true,
            limit: Some(Duration::from_secs(2)),
        }
    }

    const OPENING: &str = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

    #[test]
    fn an_undecided_search_without_a_game_gives_its_bound_and_start() {
        let (_, start) = one_ply();
        let verdict = ReachVerdict::Undecided {
            at_least: 3,
            best: None,
            stopped: Stopped::Limit,
        };
        let answer = answer(&verdict, start);
        let expected = format!(
            r#"{{"lower_bound":3,"minimal":false,"rules":"english","start_fen":"{OPENING}","stopped":"limit","undecided":true}}"#
        );
        assert_eq!(answer.json(), expected);
        assert_eq!(
            answer.text(),
            "undecided: the limit (2 s) was hit; no game found; none shorter than 3 proved\n"
        );
    }

    #[test]
    fn a_search_that_ran_out_of_positions_says_so_not_the_limit() {
        let (_, start) = one_ply();
        let verdict = ReachVerdict::Undecided {
            at_least: 6,
            best: None,
            stopped: Stopped::Positions,
        };
        let answer = answer(&verdict, start);
        assert!(
            answer
                .json()
                .contains(r#""stopped":"positions","undecided":true"#),
            "{}",
            answer.json()
        );
        assert_eq!(
            answer.text(),
            "undecided: the search kept as many positions as its memory allows (3 million) without a game; no game found; none shorter than 6 proved\n"
        );
    }

    #[test]
    fn an_undecided_search_with_a_game_is_not_minimal() {
        let (game, start) = one_ply();
        let verdict = ReachVerdict::Undecided {
            at_least: 0,
            best: Some(game),
            stopped: Stopped::Limit,
        };
        let json = answer(&verdict, start).json();
        assert!(
            json.starts_with(r#"{"fen":"W:W21,"#)
                && json.contains(r#""lower_bound":0,"minimal":false,"moves":["11-15"],"plies":1,"#)
                && json.ends_with(r#","stopped":"limit","undecided":true}"#),
            "{json}"
        );
    }

    #[test]
    fn an_unreachable_position_has_a_null_bound_when_no_search_proved_it() {
        let (_, start) = one_ply();
        let verdict = ReachVerdict::Unreachable {
            reason: "why".into(),
            within: None,
        };
        assert_eq!(
            answer(&verdict, start).json(),
            r#"{"checked_up_to":null,"reachable":false,"reason":"why","rules":"english"}"#
        );
    }
}
