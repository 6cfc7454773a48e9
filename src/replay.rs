//! The native replayer: plays a record from a start board with every rule
//! checked. It is the judge behind `verify` and the check behind every answer
//! `solve` prints, and it never looks at the SAT code.

use std::fmt;

use crate::board::{Board, Color};
use crate::notation::{Answer, Record, WrittenMove};
use crate::rules::{Rules, StartProblem, Violation};

/// The first ply of a record that breaks a rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply} ({text}): {violation}")]
pub struct ReplayError {
    /// 1-based ply number.
    pub ply: usize,
    /// The move as written.
    pub text: WrittenMove,
    /// The rule it breaks.
    pub violation: Violation,
}

/// Plays every move of `record` from `start` and returns the end board.
///
/// The start board's own validity is not checked here (see [`judge`]).
/// A damaged record replays when some filling of its moves does (see
/// [`replay_filling`]).
///
/// # Errors
/// The first ply that breaks a rule.
pub fn replay(rules: &dyn Rules, start: &Board, record: &Record) -> Result<Board, ReplayError> {
    if record.is_damaged() {
        return replay_filling(rules, start, record, None).map(|(end, _)| end);
    }
    if rules.variant() == crate::rules::Variant::English {
        // The same rules, called directly: the commonest replay gets the
        // English play inlined into its loop.
        return replay_with(&crate::rules::English, start, record);
    }
    replay_with(rules, start, record)
}

fn replay_with<R: Rules + ?Sized>(
    rules: &R,
    start: &Board,
    record: &Record,
) -> Result<Board, ReplayError> {
    let mut board = *start;
    for (i, mv) in record.moves.iter().enumerate() {
        let ply = i + 1;
        // A match, not `map_err` and `?`: moving the board through a
        // result of the wider error type cost a tenth of the English batch.
        match rules.play(&board, record.mover(ply), mv) {
            Ok(next) => board = next,
            Err(violation) => {
                return Err(ReplayError {
                    ply,
                    text: WrittenMove::Known(mv.clone()),
                    violation,
                })
            }
        }
    }
    Ok(board)
}

/// How many positions [`replay_filling`] visits before it gives up.
pub const MAX_FILLING_STEPS: usize = 1_000_000;

/// Plays a damaged record from `start`, trying at each damaged ply every
/// legal move that fits what is written (in the rules' order) and going
/// back when a later ply fails: the first filling that replays (and ends
/// on `end`, when given) with its end board and the filled record.
///
/// # Errors
/// The ply furthest into the record at which every filling failed, with
/// why; [`Violation::SearchGaveUp`] past [`MAX_FILLING_STEPS`] (no verdict).
pub fn replay_filling(
    rules: &dyn Rules,
    start: &Board,
    record: &Record,
    end: Option<&Board>,
) -> Result<(Board, Record), ReplayError> {
    replay_filling_within(rules, start, record, end, MAX_FILLING_STEPS)
}

/// [`replay_filling`] that gives up after visiting `max_steps` positions:
/// for searches that are a guess (a lenient reading) and must stay cheap.
///
/// # Errors
/// As [`replay_filling`].
pub fn replay_filling_within(
    rules: &dyn Rules,
    start: &Board,
    record: &Record,
    end: Option<&Board>,
    max_steps: usize,
) -> Result<(Board, Record), ReplayError> {
    replay_filling_until(rules, start, record, end, max_steps, None)
}

/// [`replay_filling_within`] that also gives up when `deadline` (or one in
/// force on this thread, see [`crate::sat::under`]) passes.
///
/// # Errors
/// As [`replay_filling`]; [`Violation::SearchGaveUp`] when cut short.
pub fn replay_filling_until(
    rules: &dyn Rules,
    start: &Board,
    record: &Record,
    end: Option<&Board>,
    max_steps: usize,
    deadline: Option<std::time::Instant>,
) -> Result<(Board, Record), ReplayError> {
    let written = record.written_moves();
    let mut search = Filling {
        rules,
        record,
        written: &written,
        end,
        moves: Vec::with_capacity(written.len()),
        steps: 0,
        max_steps,
        deadline: crate::sat::earlier(deadline, crate::sat::current_deadline()),
        furthest: None,
        dead: std::collections::HashSet::new(),
    };
    match search.from(*start, 0) {
        Some(board) => Ok((board, record.filled(search.moves))),
        // Cut short: whatever failed so far says nothing of the rest.
        None if search.steps > search.max_steps => {
            let ply = search.furthest.as_ref().map_or(1, |f| f.ply);
            Err(ReplayError {
                ply,
                text: written
                    .get(ply - 1)
                    .cloned()
                    .unwrap_or(WrittenMove::Pattern(crate::notation::MovePattern::Unknown)),
                violation: Violation::SearchGaveUp {
                    positions: search.max_steps.min(search.steps),
                },
            })
        }
        None => Err(search.furthest.unwrap_or(ReplayError {
            ply: written.len(),
            text: written
                .last()
                .cloned()
                .unwrap_or(WrittenMove::Pattern(crate::notation::MovePattern::Unknown)),
            violation: Violation::NothingFits,
        })),
    }
}

/// The backtracking behind [`replay_filling`].
struct Filling<'a> {
    rules: &'a dyn Rules,
    record: &'a Record,
    written: &'a [WrittenMove],
    end: Option<&'a Board>,
    moves: Vec<crate::notation::MoveText>,
    steps: usize,
    max_steps: usize,
    /// When the search gives up, whatever its steps.
    deadline: Option<std::time::Instant>,
    furthest: Option<ReplayError>,
    /// Positions (board, plies played) from which the rest of the record
    /// was found not to replay: two fillings that reach the same board at
    /// the same ply have the same future, so it is searched once.
    dead: std::collections::HashSet<(Board, usize)>,
}

impl Filling<'_> {
    fn fail(&mut self, ply: usize, violation: Violation) {
        if self.furthest.as_ref().is_none_or(|f| f.ply <= ply) {
            self.furthest = Some(ReplayError {
                ply,
                text: self.written[ply - 1].clone(),
                violation,
            });
        }
    }

    fn from(&mut self, board: Board, index: usize) -> Option<Board> {
        self.steps += 1;
        // The clock read now and then: past the deadline, as past the steps.
        if self.steps.is_multiple_of(4096)
            && self
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
        {
            self.max_steps = self.steps - 1;
        }
        if self.steps > self.max_steps
            || self.dead.contains(&(board, index))
            || self.end.is_some_and(|end| short_of(&board, end))
        {
            return None;
        }
        let found = self.search(board, index);
        if found.is_none() && self.steps <= self.max_steps {
            self.dead.insert((board, index));
        }
        found
    }

    fn search(&mut self, board: Board, index: usize) -> Option<Board> {
        let Some(written) = self.written.get(index) else {
            return match self.end {
                Some(end) if *end != board => None,
                _ => Some(board),
            };
        };
        let (ply, side) = (index + 1, self.record.mover(index + 1));
        let candidates = match written {
            WrittenMove::Known(mv) => vec![mv.clone()],
            WrittenMove::Pattern(crate::notation::MovePattern::Miswritten(miswritten)) => {
                let why = miswritten.why.clone();
                self.fail(ply, Violation::NoMoveOnTheBoard { why });
                return None;
            }
            WrittenMove::Pattern(pattern) => {
                // A capture read short but written whole (PDN's `23x14`)
                // is most often played as written: tried first, without
                // listing every legal move.
                let whole = pattern.as_written(self.rules.variant().geometry());
                if let Some(mv) = &whole {
                    if let Some(end) = self.try_move(&board, index, mv.clone()) {
                        return Some(end);
                    }
                }
                let mut fitting: Vec<_> = self
                    .rules
                    .legal_moves(&board, side)
                    .into_iter()
                    .filter(|mv| pattern.matches(mv) && whole.as_ref() != Some(mv))
                    .collect();
                if let Some(end) = self.end {
                    // Towards the end board first: a move onto a square the
                    // mover holds at the end, off one it does not.
                    fitting.sort_by_key(|mv| {
                        let holds = |sq| end.color_at(sq) == Some(side);
                        (!holds(mv.to()), holds(mv.from()))
                    });
                }
                if fitting.is_empty() && whole.is_none() {
                    self.fail(ply, Violation::NothingFits);
                }
                fitting
            }
        };
        for mv in candidates {
            if let Some(end) = self.try_move(&board, index, mv) {
                return Some(end);
            }
        }
        None
    }

    /// Plays `mv` as ply `index + 1` and goes on from there; the end board
    /// when the rest of the record replays too.
    fn try_move(
        &mut self,
        board: &Board,
        index: usize,
        mv: crate::notation::MoveText,
    ) -> Option<Board> {
        let (ply, side) = (index + 1, self.record.mover(index + 1));
        match self.rules.play(board, side, &mv) {
            Ok(next) => {
                self.moves.push(mv);
                if let Some(end) = self.from(next, index + 1) {
                    return Some(end);
                }
                self.moves.pop();
            }
            Err(violation) => self.fail(ply, violation),
        }
        None
    }
}

/// True when no play from `board` can end on `end`: a side has fewer
/// pieces, or fewer men, than `end` gives it (pieces are only taken, and
/// men only taken or crowned).
fn short_of(board: &Board, end: &Board) -> bool {
    [Color::White, Color::Black].into_iter().any(|side| {
        let (now, then) = (board.occupied_by(side), end.occupied_by(side));
        let men = |b: &Board, all: crate::board::Bits| (all & !b.kings()).count_ones();
        now.count_ones() < then.count_ones() || men(board, now) < men(end, then)
    })
}

/// Why an answer is rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rejection {
    /// The start board breaks a start rule.
    BadStart(StartProblem),
    /// A move is illegal from that start board.
    Illegal(ReplayError),
    /// The answer's end board is on another board than its start board.
    WrongBoard,
    /// No verdict: the search for a filling of the damaged moves that
    /// ends on the end board gave up.
    Undecided(String),
    /// The record's start is pinned (a PDN game's `[FEN]`, or its rule
    /// set's opening), and the answer starts elsewhere.
    NotItsStart {
        /// The first differing square (1-based number).
        square: u8,
        /// What pins the start ("its [FEN]", "the opening").
        pinned_by: &'static str,
        /// What the pinned start has there.
        expected: char,
        /// What the answer claims.
        found: char,
    },
    /// The moves replay, but to another end board.
    WrongEnd {
        /// The first differing square (1-based number).
        square: u8,
        /// What the replay produced there.
        expected: char,
        /// What the answer claims.
        found: char,
    },
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::BadStart(p) => write!(f, "start board: {p}"),
            Rejection::WrongBoard => f.write_str("the end board is not on the start board's board"),
            Rejection::Undecided(why) => f.write_str(why),
            Rejection::Illegal(e) => write!(f, "{e}"),
            Rejection::NotItsStart {
                square,
                pinned_by,
                expected,
                found,
            } => write!(
                f,
                "start board differs from the game's start ({pinned_by}) at square {square}: expected {expected}, found {found}"
            ),
            Rejection::WrongEnd {
                square,
                expected,
                found,
            } => write!(
                f,
                "end board differs at square {square}: expected {expected}, found {found}"
            ),
        }
    }
}

impl std::error::Error for Rejection {}

/// Judges `answer` for `record`: the start board must obey the start rules, the
/// moves must replay from it, and they must reach exactly the answer's end board.
/// A damaged record's moves are filled in by a bounded search towards the
/// end board; cut short, that is [`Rejection::Undecided`], not a rejection.
///
/// # Errors
/// The first problem found.
pub fn judge(rules: &dyn Rules, record: &Record, answer: &Answer) -> Result<(), Rejection> {
    judge_within(rules, record, answer, None)
}

/// Whether `answer` starts on `pinned`, the start a game's `[FEN]` (or
/// its rule set's opening, `pinned_by`) gives it.
///
/// # Errors
/// [`Rejection::NotItsStart`] at the first square that differs.
pub fn starts_on(
    answer: &Answer,
    pinned: &Board,
    pinned_by: &'static str,
) -> Result<(), Rejection> {
    let letter = |b: &Board, sq| b.get(sq).map_or('.', |p| p.letter());
    if answer.start.topology() != pinned.topology() {
        return Err(Rejection::WrongBoard);
    }
    let differs = pinned
        .topology()
        .squares()
        .find(|&sq| pinned.get(sq) != answer.start.get(sq));
    match differs {
        None => Ok(()),
        Some(sq) => Err(Rejection::NotItsStart {
            square: sq.number(),
            pinned_by,
            expected: letter(pinned, sq),
            found: letter(&answer.start, sq),
        }),
    }
}

/// [`judge`] whose search for a damaged record's filling is bounded by
/// `limit` (time) instead of [`MAX_FILLING_STEPS`] positions.
///
/// # Errors
/// As [`judge`].
pub fn judge_within(
    rules: &dyn Rules,
    record: &Record,
    answer: &Answer,
    limit: Option<std::time::Duration>,
) -> Result<(), Rejection> {
    if let Some(&problem) = rules.start_problems(&answer.start).first() {
        return Err(Rejection::BadStart(problem));
    }
    let end = if record.is_damaged() {
        let (steps, deadline) = match limit {
            Some(limit) => (usize::MAX - 1, Some(std::time::Instant::now() + limit)),
            None => (MAX_FILLING_STEPS, None),
        };
        // The filling that ends on the answer's end board, if any does.
        let end = Some(&answer.end);
        match replay_filling_until(rules, &answer.start, record, end, steps, deadline) {
            Ok((end, _)) => end,
            // Cut short: no verdict, not the first filling's.
            Err(e) if matches!(e.violation, Violation::SearchGaveUp { .. }) => {
                return Err(Rejection::Undecided(format!(
                    "{}; --limit gives the search more time",
                    e.violation
                )))
            }
            Err(_) => replay(rules, &answer.start, record).map_err(Rejection::Illegal)?,
        }
    } else {
        replay(rules, &answer.start, record).map_err(Rejection::Illegal)?
    };
    let differs = |s: &crate::board::Square| end.get(*s) != answer.end.get(*s);
    let topology = answer.start.topology();
    if end.topology() != answer.end.topology() {
        return Err(Rejection::WrongBoard);
    }
    if let Some(sq) = topology.squares().find(differs) {
        let letter = |b: &Board| b.get(sq).map_or('.', |p| p.letter());
        return Err(Rejection::WrongEnd {
            square: sq.number(),
            expected: letter(&end),
            found: letter(&answer.end),
        });
    }
    Ok(())
}
