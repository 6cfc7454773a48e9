//! The proof-game request: the shortest legal game (or any, `--any`)
//! from the opening or a given start to a position (`encodings/reach.md`),
//! as the binary and Python ask for it; and whether a game's start
//! position is legal ([`start_legality`], for `verify --pdn --legal`).

use std::time::{Duration, Instant};

use crate::board::{Board, Color};
use crate::notation::{to_fen, Record};
use crate::reach::{Goal, Progress, ProofGame, Reach, ReachError, ReachOutcome, Stopped};
use crate::rules::Variant;
use crate::solve::SolveError;

use super::{side_to_move, BoardRole, BoardText, InputError, RequestError, WholeBoard};

/// A game found, replayed: its moves from the start and the board it
/// ends on, which fits the position asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    /// The rule set.
    pub variant: Variant,
    /// The game, from the start.
    pub record: Record,
    /// The board it ends on.
    pub end: Board,
    /// No game of fewer plies reaches the position (proved); the game is a
    /// shortest one when this is its plies.
    pub lower_bound: u32,
    /// With `all`: how many shortest games there are, and the first of them.
    pub all: Option<ShortestGames>,
}

/// Every shortest game to a position, counted (`reach --all`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortestGames {
    /// How many there are, up to the cap.
    pub count: u64,
    /// The count stopped at the cap: there are at least `count`.
    pub capped: bool,
    /// The first of them, as many as asked to keep.
    pub games: Vec<Record>,
}

impl ShortestGames {
    /// Every shortest game is kept, so `games` lists them all.
    pub fn complete(&self) -> bool {
        self.games.len() as u64 == self.count && !self.capped
    }
}

impl Reached {
    /// Whether no shorter game exists (proved).
    pub fn minimal(&self) -> bool {
        self.lower_bound as usize >= self.record.moves.len()
    }

    /// The moves, every landing written.
    pub fn moves(&self) -> Vec<String> {
        self.record
            .moves
            .iter()
            .map(|m| self.variant.write_move(m))
            .collect()
    }

    /// The board it ends on as a FEN string, as PDN writes it.
    pub fn end_fen(&self) -> String {
        self.end_fen_naming(self.variant.fen_algebraic())
    }

    /// The board it ends on as a FEN string, squares named algebraically
    /// or not (see [`super::Solved::fens`]).
    pub fn end_fen_naming(&self, algebraic: bool) -> String {
        let turn = self.record.mover(self.record.moves.len() + 1);
        to_fen(&self.end, turn, algebraic)
    }
}

/// What a proof-game search answers, every game replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReachVerdict {
    /// A game (a shortest one when [`Reached::minimal`]).
    Reached(Reached),
    /// No legal game reaches the position (`within: None`), or none of at
    /// most `within` plies does, with the reason.
    Unreachable {
        /// Why, in words.
        reason: String,
        /// The most plies looked at, when the proof is a search.
        within: Option<u32>,
    },
    /// The search stopped (the limit passed, or `--any` held its most
    /// positions): no game of fewer than `at_least` plies, and the best
    /// game found so far, if any.
    Undecided {
        /// The proved lower bound.
        at_least: u32,
        /// A game found, not proved shortest.
        best: Option<Reached>,
        /// What stopped it.
        stopped: Stopped,
    },
}

/// A proof-game search: the shortest (or any) legal game from the opening
/// (or a given start) to a position (`encodings/reach.md`).
#[derive(Clone, Debug)]
pub struct ReachRequest {
    goal: BoardText,
    variant: Variant,
    turn: Option<Color>,
    from: Option<(BoardText, Option<Color>)>,
    /// The start read from `from` by [`ReachRequest::from_checked`].
    checked_start: Option<(Board, Color)>,
    limit: Option<Duration>,
    max_plies: Option<u32>,
    all: Option<(u64, usize)>,
    any: bool,
    shorten: bool,
}

impl ReachRequest {
    /// The position `goal` (a FEN, or rows with `?` for squares that may
    /// hold anything) under `variant`.
    pub fn new(goal: BoardText, variant: Variant) -> ReachRequest {
        ReachRequest {
            goal,
            variant,
            turn: None,
            from: None,
            checked_start: None,
            limit: None,
            max_plies: None,
            all: None,
            any: false,
            shorten: true,
        }
    }

    /// With `turn` to move there (needed for rows; a FEN's side must agree).
    #[must_use]
    pub fn turn(mut self, turn: Color) -> ReachRequest {
        self.turn = Some(turn);
        self
    }

    /// Games start on `start` (every square known), `turn` to move there
    /// (else a FEN's side, which must agree, else the rule set's first
    /// player), not the opening.
    #[must_use]
    pub fn from(mut self, start: BoardText, turn: Option<Color>) -> ReachRequest {
        self.from = Some((start, turn));
        self.checked_start = None;
        self
    }

    /// As [`ReachRequest::from`], the start read and checked here, once:
    /// its errors come before any search, and every later step uses the
    /// board read.
    ///
    /// # Errors
    /// As [`ReachRequest::start`].
    pub fn from_checked(
        self,
        start: BoardText,
        turn: Option<Color>,
    ) -> Result<ReachRequest, RequestError> {
        let mut request = self.from(start, turn);
        request.checked_start = Some(request.start()?);
        Ok(request)
    }

    /// Undecided, with the bound proved and the best game so far, when
    /// `limit` passes.
    #[must_use]
    pub fn limit(mut self, limit: Option<Duration>) -> ReachRequest {
        self.limit = limit;
        self
    }

    /// Games of at most `plies` plies only.
    #[must_use]
    pub fn max_plies(mut self, plies: Option<u32>) -> ReachRequest {
        self.max_plies = plies;
        self
    }

    /// Every shortest game counted up to `cap`, the first `keep` kept.
    #[must_use]
    pub fn all(mut self, cap: u64, keep: usize) -> ReachRequest {
        self.all = Some((cap, keep));
        self
    }

    /// Any legal game, found fast, not necessarily the shortest.
    #[must_use]
    pub fn any(mut self, any: bool) -> ReachRequest {
        self.any = any;
        self
    }

    /// With [`ReachRequest::any`]: whether the game found is then made
    /// shorter for a while (the default); off when only legality counts.
    #[must_use]
    pub fn shorten(mut self, shorten: bool) -> ReachRequest {
        self.shorten = shorten;
        self
    }

    /// The rule set searched under.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The time limit ([`ReachRequest::limit`]).
    pub fn time_limit(&self) -> Option<Duration> {
        self.limit
    }

    /// Games start on the rule set's opening (no [`ReachRequest::from`]).
    pub fn from_opening(&self) -> bool {
        self.from.is_none()
    }

    /// Any game is looked for ([`ReachRequest::any`]), not a shortest one.
    pub fn looks_for_any(&self) -> bool {
        self.any
    }

    /// The game (a shortest one unless [`ReachRequest::any`]).
    ///
    /// # Errors
    /// Bad input, impossible (no game reaches the position, with the
    /// reason), undecided (with the bound proved and the best game found),
    /// or a bug.
    pub fn run(&self) -> Result<Reached, RequestError> {
        match self.search(&mut |_| {})? {
            ReachVerdict::Reached(reached) => Ok(reached),
            ReachVerdict::Unreachable { reason, .. } => Err(RequestError::Impossible { reason }),
            ReachVerdict::Undecided {
                at_least,
                best,
                stopped,
            } => Err(RequestError::Undecided {
                reason: undecided_reason(at_least, best.as_ref(), stopped),
            }),
        }
    }

    /// Every verdict as a value (the binary prints each), telling
    /// `progress` how the search goes.
    ///
    /// # Errors
    /// Bad input, or a game found does not replay (a bug).
    pub fn search(
        &self,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<ReachVerdict, RequestError> {
        let (goal, reach) = self.prepared()?;
        let outcome = reach.search(&goal, progress).map_err(request_error)?;
        Ok(self.verdict(outcome))
    }

    /// The start (board and side to move) games begin from.
    ///
    /// # Errors
    /// The `from` board cannot be read, is not fully known, or is no position.
    pub fn start(&self) -> Result<(Board, Color), RequestError> {
        if let Some(start) = self.checked_start {
            return Ok(start);
        }
        let Some((text, turn)) = &self.from else {
            let variant = self.variant;
            return Ok((variant.topology().opening(), variant.first_player()));
        };
        let (board, fen_turn) =
            text.position(self.variant, BoardRole::Start, WholeBoard::AtStart)?;
        let side = side_to_move(*turn, fen_turn)?.unwrap_or(self.variant.first_player());
        Ok((board, side))
    }

    /// The goal and the search, checked.
    fn prepared(&self) -> Result<(Goal, Reach), RequestError> {
        let (board, fen_turn) = self.goal.read(self.variant.topology(), BoardRole::Given)?;
        let turn = side_to_move(self.turn, fen_turn)?.ok_or(InputError::NoTurn)?;
        if let Some(&problem) = self.variant.rules().start_problems(&board.board).first() {
            return Err(InputError::NeverInAGame {
                which: BoardRole::Given,
                problem,
            }
            .into());
        }
        let (start, first) = self.start()?;
        let deadline = self.limit.map(|limit| Instant::now() + limit);
        let mut reach = Reach::new(self.variant)
            .from(start, first)
            .deadline(deadline)
            .any(self.any)
            .shorten(self.shorten);
        if let Some(most) = self.max_plies {
            reach = reach.max_plies(most);
        }
        if let Some((cap, keep)) = self.all {
            reach = reach.all(cap, keep);
        }
        Ok((Goal { board, turn }, reach))
    }

    /// The formula "a legal game of exactly `plies` plies reaches the
    /// position" in DIMACS (`reach --cnf K`): refined, or at once without
    /// the learned clauses when `unrefined` (`encodings/reach.md`).
    ///
    /// # Errors
    /// Bad input, or `plies` of the wrong parity (bad input too).
    pub fn cnf(
        &self,
        plies: u32,
        unrefined: bool,
    ) -> Result<crate::sat::AnnotatedCnf, RequestError> {
        let (goal, reach) = self.prepared()?;
        if unrefined {
            reach.unrefined_cnf(&goal, plies)
        } else {
            reach.cnf(&goal, plies)
        }
        .map_err(request_error)
    }

    /// A solver's model of the formula [`ReachRequest::cnf`] gives for
    /// `plies` (refined, or `unrefined`) read back: the game it stands
    /// for, replayed from the start to a board that fits the position,
    /// or why it is none, with the clauses that rule it out.
    ///
    /// # Errors
    /// [`InputError::Model`] for a model that cannot be read or names a
    /// variable the formula does not have; bad input as for the formula.
    pub fn decode(
        &self,
        plies: u32,
        unrefined: bool,
        model: &str,
    ) -> Result<super::ModelRead, RequestError> {
        let bad = |reason: String| RequestError::BadInput(InputError::Model { reason });
        let literals = crate::sat::parse_model(model).map_err(|e| bad(e.to_string()))?;
        let (goal, reach) = self.prepared()?;
        let (record, known) = reach.cnf_record(&goal, plies).map_err(request_error)?;
        let mut read = super::ModelRead {
            decoded: None,
            learned: Vec::new(),
            variant: self.variant,
        };
        let Some(literals) = literals else {
            return Ok(read);
        };
        let decode = match unrefined {
            true => crate::analysis::decode_learning_unrefined,
            false => crate::analysis::decode_learning,
        };
        let (decoded, learned) =
            decode(&record, self.variant, known, &literals).map_err(|e| match e {
                SolveError::Unsupported(m) => bad(m),
                other => RequestError::from_solve(other),
            })?;
        if let crate::analysis::Decoded::Answer(solution) = &decoded {
            // The start and the position are facts of the formula.
            crate::solve::check_facts(&solution.answer, known)?;
        }
        read.decoded = Some(decoded);
        read.learned = learned;
        Ok(read)
    }

    /// The game a model's answer stands for ([`ReachRequest::decode`]),
    /// as a search gives its games: nothing is proved of its length.
    /// `None` for an answer that plays no moves (a bug: the formula has K
    /// plies).
    pub fn model_game(&self, solution: &crate::solve::Solution) -> Option<Reached> {
        Some(Reached {
            variant: self.variant,
            record: solution.filled.clone()?,
            end: solution.answer.end,
            lower_bound: 0,
            all: None,
        })
    }

    /// The search's outcome with its games as [`Reached`].
    fn verdict(&self, outcome: ReachOutcome) -> ReachVerdict {
        let reached = |game: ProofGame, lower_bound: u32| Reached {
            variant: self.variant,
            record: game.record,
            end: game.end,
            lower_bound,
            all: None,
        };
        match outcome {
            ReachOutcome::Found {
                game,
                all,
                lower_bound,
            } => {
                let mut found = reached(game, lower_bound);
                found.all = all.map(|all| ShortestGames {
                    count: all.count,
                    capped: all.capped,
                    games: all.games.into_iter().map(|g| g.record).collect(),
                });
                ReachVerdict::Reached(found)
            }
            ReachOutcome::Unreachable { reason, within } => {
                ReachVerdict::Unreachable { reason, within }
            }
            ReachOutcome::Undecided {
                at_least,
                best,
                stopped,
            } => ReachVerdict::Undecided {
                at_least,
                best: best.map(|game| reached(game, at_least)),
                stopped,
            },
        }
    }
}

/// A search's error as the request reports it: a game that does not
/// replay, or that the search back denies, is a bug, a formula of the
/// wrong parity bad input.
fn request_error(error: ReachError) -> RequestError {
    match error {
        ReachError::GameDoesNotReplay(why) => {
            RequestError::Internal(SolveError::ProofGameDoesNotReplay(why))
        }
        ReachError::GameMissesGoal => RequestError::Internal(SolveError::ProofGameMissesGoal),
        e @ (ReachError::Formula(_) | ReachError::NoWayBackAfterAGame) => {
            RequestError::Internal(SolveError::ProofGame(Box::new(e)))
        }
        other => InputError::Unsupported(other.to_string()).into(),
    }
}

/// What a limit left: the bound proved, and the best game found if any
/// (`a game of 44 plies; none shorter than 38 proved`).
pub fn undecided_reason(at_least: u32, best: Option<&Reached>, stopped: Stopped) -> String {
    let why = match stopped {
        Stopped::Limit => "the time limit passed".to_string(),
        Stopped::Positions => stopped.to_string(),
    };
    match best {
        Some(game) => format!(
            "{why}: a game of {} found; none shorter than {at_least} proved",
            crate::notation::plies(game.record.moves.len())
        ),
        None => format!("{why}: no game of fewer than {at_least} plies reaches the position"),
    }
}

/// Whether a position is legal: reachable from the rule set's opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Legality {
    /// A legal game reaches it (replayed from the opening).
    Legal(Reached),
    /// No legal game reaches it, with the reason.
    Illegal {
        /// Why, in words.
        reason: String,
    },
    /// The search stopped first (its limit, or its most positions).
    Undecided(Stopped),
}

/// Whether `board` with `turn` to move (a game's `[FEN]` start, for
/// `verify --pdn --legal`) is reachable from `variant`'s opening: a game
/// found by the search for any game (not the shortest), within `limit`.
///
/// # Errors
/// A game found does not replay (a bug), or the board is no position.
pub fn start_legality(
    variant: Variant,
    board: &Board,
    turn: Color,
    limit: Option<Duration>,
) -> Result<Legality, RequestError> {
    // A board no game can hold (a man on its crowning row) is an illegal
    // diagram, not bad input: an archive goes on to its next game.
    if let Some(problem) = variant.rules().start_problems(board).first() {
        return Ok(Legality::Illegal {
            reason: format!("it cannot occur in a game: {problem}"),
        });
    }
    let fen = to_fen(board, turn, variant.fen_algebraic());
    let request = ReachRequest::new(BoardText::Fen(fen), variant)
        .any(true)
        .shorten(false)
        .limit(limit);
    Ok(match request.search(&mut |_| {})? {
        ReachVerdict::Reached(reached) => Legality::Legal(reached),
        ReachVerdict::Unreachable { reason, .. } => Legality::Illegal { reason },
        ReachVerdict::Undecided { stopped, .. } => Legality::Undecided(stopped),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_games_reach_is_legal_and_a_thirteenth_man_is_not() {
        let variant = Variant::English;
        let rules = variant.rules();
        let mut board = variant.topology().opening();
        let mut side = variant.first_player();
        for _ in 0..6 {
            let mv = rules.legal_moves(&board, side).remove(0);
            board = rules.play(&board, side, &mv).unwrap();
            side = side.opposite();
        }
        match start_legality(variant, &board, side, None).unwrap() {
            Legality::Legal(game) => {
                assert_eq!(game.end, board);
                assert!(game.record.moves.len() % 2 == 0 && game.record.moves.len() <= 6);
            }
            other => panic!("{other:?}"),
        }
        let mut extra = variant.topology().opening();
        let square = variant.topology().square(16).unwrap();
        extra.set(
            square,
            Some(crate::board::Piece::new(
                Color::White,
                crate::board::Role::Man,
            )),
        );
        let verdict = start_legality(variant, &extra, Color::Black, None).unwrap();
        assert!(
            matches!(&verdict, Legality::Illegal { reason } if reason.contains("White has 13 pieces")),
            "{verdict:?}"
        );
    }

    #[test]
    fn a_checked_start_is_refused_at_once_and_kept_when_read() {
        let goal = BoardText::Fen("W:W21-32:B1-10,12,15".into());
        let request = ReachRequest::new(goal, Variant::English);
        let unknown = BoardText::Rows(vec!["-?-?-?-?\n?-?-?-?-\n".repeat(4)]);
        let refused = request.clone().from_checked(unknown, None).unwrap_err();
        assert!(
            refused.to_string().contains("known on every square"),
            "{refused}"
        );
        let opening = BoardText::Fen("B:W21-32:B1-12".into());
        let checked = request.from_checked(opening, None).unwrap();
        let topology = Variant::English.topology();
        assert_eq!(
            checked.checked_start,
            Some((topology.opening(), Color::Black))
        );
        assert_eq!(checked.start().unwrap(), (topology.opening(), Color::Black));
        // A new start forgets the one read.
        let again = checked.from(BoardText::Fen("W:W21-32:B1-12".into()), None);
        assert_eq!(again.checked_start, None);
        assert_eq!(again.start().unwrap().1, Color::White);
    }
}
