//! A game fragment as a user has it: move strings, a rule set's name, who
//! moved first, and what is known of the boards (FEN strings or rows),
//! read under each rule set it may follow.

use crate::board::{Board, Color, PartialBoard, Topology};
use crate::encode::BoardFacts;
use crate::notation::{
    parse_fen_on, parse_partial_board_on, Miswritten, MovePattern, Record, SquareNames, WrittenMove,
};
use crate::rules::Variant;

use super::{BoardRole, InputError, WholeBoard};

/// The rule set a request names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RulesChoice {
    /// None named: English for a fragment or the task's format; a PDN
    /// game's own `GameType`, else what its notation and moves allow.
    #[default]
    Default,
    /// This one.
    Given(Variant),
    /// Inferred for any input, from its notation and from which rule set
    /// it replays (or solves) under.
    Auto,
}

/// The side to move on a board: the one `named` beside it, else its FEN's;
/// both, and they differ, is a contradiction the user must settle (a
/// silent choice answers a question they did not ask).
///
/// # Errors
/// [`InputError::TurnContradictsFen`].
pub fn side_to_move(named: Option<Color>, fen: Option<Color>) -> Result<Option<Color>, InputError> {
    match (named, fen) {
        (Some(named), Some(fen)) if named != fen => {
            Err(InputError::TurnContradictsFen { fen, named })
        }
        (named, fen) => Ok(named.or(fen)),
    }
}

/// A rule set named or none (`Default`).
impl From<Option<Variant>> for RulesChoice {
    fn from(named: Option<Variant>) -> RulesChoice {
        named.map_or(RulesChoice::Default, RulesChoice::Given)
    }
}

impl RulesChoice {
    /// The choice a name stands for: a rule set as postfacto or pydraughts
    /// spells it (`international` or `standard`), or `auto`.
    ///
    /// # Errors
    /// [`InputError::UnknownRules`] for any other name.
    pub fn named(name: &str) -> Result<RulesChoice, InputError> {
        let lower = name.trim().to_ascii_lowercase();
        if lower == "auto" {
            return Ok(RulesChoice::Auto);
        }
        Variant::named(&lower)
            .map(RulesChoice::Given)
            .ok_or_else(|| InputError::UnknownRules(name.to_string()))
    }

    /// The rule set when one is named.
    pub fn given(self) -> Option<Variant> {
        match self {
            RulesChoice::Given(v) => Some(v),
            RulesChoice::Default | RulesChoice::Auto => None,
        }
    }

    /// The one rule set when the choice is not `auto` (English by default).
    pub fn fixed(self) -> Option<Variant> {
        match self {
            RulesChoice::Given(v) => Some(v),
            RulesChoice::Default => Some(Variant::English),
            RulesChoice::Auto => None,
        }
    }

    /// The rule set a board is read under: the named one, else the board's
    /// own (a board has no moves to replay, so `auto` and none named both
    /// read it from its squares or rows), as `reach` and `moves` choose it.
    pub fn for_board(self, board: &BoardText) -> Variant {
        self.given().unwrap_or_else(|| board.own_rules())
    }

    /// The rule sets to try, in order, for texts whose squares are `names`.
    pub fn candidates(self, names: SquareNames) -> Vec<Variant> {
        match self.fixed() {
            Some(variant) => vec![variant],
            None => Variant::candidates(names),
        }
    }

    /// The choice for texts whose squares are `names`: none named means
    /// English, unless the squares are algebraic (no English record names
    /// them so): then the rule sets that write them, as `auto`.
    pub fn for_squares(self, names: SquareNames) -> RulesChoice {
        match self {
            RulesChoice::Default if names.algebraic => RulesChoice::Auto,
            other => other,
        }
    }

    /// `read` under each rule set to try for `names`, in order: those it
    /// reads under, or the first error when it reads under none.
    ///
    /// # Errors
    /// The first candidate's error, when every candidate fails.
    pub fn read_under_each<T, E>(
        self,
        names: SquareNames,
        mut read: impl FnMut(Variant) -> Result<T, E>,
    ) -> Result<Vec<T>, E> {
        let mut read_ok = Vec::new();
        let mut first_error = None;
        for variant in self.candidates(names) {
            match read(variant) {
                Ok(value) => read_ok.push(value),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        match first_error {
            Some(e) if read_ok.is_empty() => Err(e),
            _ => Ok(read_ok),
        }
    }
}

/// A side by name: `white`/`black` (or `w`/`b`), any case.
///
/// # Errors
/// [`InputError::UnknownSide`] for anything else.
pub fn side_named(name: &str) -> Result<Color, InputError> {
    match name.trim().to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(InputError::UnknownSide(name.to_string())),
    }
}

/// A board as text: a FEN string (`W:W31,32:B1-20`, which also says who
/// is to move), or its rows as the binary prints them (`?` for a square
/// not known, on a start or end board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardText {
    /// A PDN FEN string.
    Fen(String),
    /// One string per row, top row first (or one string of all rows).
    Rows(Vec<String>),
}

impl BoardText {
    /// A board given as one text: a FEN when it has a `:`
    /// (`W:W21-32:B1-12`), else its rows.
    pub fn of_text(text: &str) -> BoardText {
        let text = crate::notation::without_bom(text);
        if text.contains(':') {
            BoardText::Fen(text.trim().to_string())
        } else {
            BoardText::Rows(vec![text.to_string()])
        }
    }

    /// The rule set the board names by itself: by its rows (8, 10 or 12),
    /// or by the squares its FEN names (the first rule set they allow).
    pub fn own_rules(&self) -> Variant {
        match self {
            BoardText::Fen(fen) => {
                let mut names = SquareNames::default();
                names.scan(fen);
                Variant::candidates(names)[0]
            }
            BoardText::Rows(rows) => {
                let lines = rows
                    .iter()
                    .flat_map(|r| r.lines())
                    .filter(|l| !l.trim().is_empty())
                    .count();
                Variant::ALL
                    .into_iter()
                    .find(|v| usize::from(v.topology().size()) == lines)
                    .unwrap_or_default()
            }
        }
    }

    fn text(&self) -> String {
        match self {
            BoardText::Fen(fen) => fen.clone(),
            BoardText::Rows(rows) => rows.join("\n"),
        }
    }

    /// What the text says on `topology`'s board, and the side to move a
    /// FEN names; `which` names it in errors.
    ///
    /// # Errors
    /// The text cannot be read on that board.
    pub fn read(
        &self,
        topology: Topology,
        which: BoardRole,
    ) -> Result<(PartialBoard, Option<Color>), InputError> {
        match self {
            BoardText::Fen(fen) => {
                let (turn, board) = parse_fen_on(fen, topology)
                    .map_err(|source| InputError::Fen { which, source })?;
                let known = topology.all_bits();
                Ok((PartialBoard { board, known }, Some(turn)))
            }
            BoardText::Rows(_) => parse_partial_board_on(&self.text(), topology)
                .map(|facts| (facts, None))
                .map_err(|e| InputError::Board {
                    which,
                    line: e.line,
                    problem: e.problem,
                }),
        }
    }

    /// What the text says of a start or end board of a record under
    /// `variant`, and the side to move a FEN
    /// names: a start board must obey the start rules (no man on its
    /// crowning row).
    ///
    /// # Errors
    /// The text cannot be read on that board ([`InputError::Fen`],
    /// [`InputError::Board`]), or a start breaks a start rule
    /// ([`InputError::NotAPosition`]).
    pub fn facts(
        &self,
        variant: Variant,
        which: BoardRole,
    ) -> Result<(PartialBoard, Option<Color>), InputError> {
        let (facts, turn) = self.read(variant.topology(), which)?;
        if which == BoardRole::Start {
            if let Some(&problem) = variant.rules().start_problems(&facts.board).first() {
                return Err(InputError::NotAPosition { which, problem });
            }
        }
        Ok((facts, turn))
    }

    /// A whole position the text gives under `variant` (every square
    /// known: `needed` says why), obeying the start rules, and the side to
    /// move a FEN names.
    ///
    /// # Errors
    /// The text cannot be read, has a `?`, or breaks a start rule.
    pub fn position(
        &self,
        variant: Variant,
        which: BoardRole,
        needed: WholeBoard,
    ) -> Result<(Board, Option<Color>), InputError> {
        let all = variant.topology().all_bits();
        let (facts, turn) = self.read(variant.topology(), which)?;
        if facts.known & all != all {
            let text = self.text();
            let line = text
                .lines()
                .position(|l| l.contains('?'))
                .map_or(1, |i| i + 1);
            return Err(InputError::Unknown {
                which,
                line,
                needed,
            });
        }
        if let Some(&problem) = variant.rules().start_problems(&facts.board).first() {
            return Err(InputError::NotAPosition { which, problem });
        }
        Ok((facts.board, turn))
    }
}

/// A fragment of a game: its moves as written, and what else is known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fragment {
    moves: Vec<String>,
    rules: RulesChoice,
    first: Option<Color>,
    start: Option<BoardText>,
    end: Option<BoardText>,
    short_captures: bool,
}

/// A fragment read under one rule set: the record to solve and what is
/// known of its boards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The rule set.
    pub variant: Variant,
    /// The moves, read on its board.
    pub record: Record,
    /// What is known of the start and end boards.
    pub known: BoardFacts,
    /// Whether the rule set was inferred (`auto`) rather than named.
    pub inferred: bool,
}

impl Fragment {
    /// The fragment of these moves (`32-28`, `28x19`, `c3-d4`, `c3:e5`,
    /// `?` for what is not legible), English rules, the opening's first
    /// side, nothing known of the boards.
    pub fn new<S: Into<String>>(moves: impl IntoIterator<Item = S>) -> Fragment {
        Fragment {
            moves: moves.into_iter().map(Into::into).collect(),
            ..Fragment::default()
        }
    }

    /// The fragment of a movetext such as `1. 32-28 18-23 2. 28x19`: move
    /// numbers and a result are left out.
    pub fn from_movetext(text: &str) -> Fragment {
        let is_number = |t: &str| {
            let digits = t.trim_end_matches('.');
            digits.len() < t.len() && digits.bytes().all(|b| b.is_ascii_digit())
        };
        let is_result = |t: &str| {
            matches!(
                t,
                "*" | "1-0" | "0-1" | "2-0" | "0-2" | "1-1" | "1/2-1/2" | "0-0"
            )
        };
        Fragment::new(
            text.split_whitespace()
                .filter(|t| !is_number(t) && !is_result(t)),
        )
    }

    /// Under this rule choice.
    #[must_use]
    pub fn rules(mut self, rules: RulesChoice) -> Fragment {
        self.rules = rules;
        self
    }

    /// Under the rule set of this name (see [`RulesChoice::named`]).
    ///
    /// # Errors
    /// An unknown name.
    pub fn rules_named(self, name: &str) -> Result<Fragment, InputError> {
        Ok(self.rules(RulesChoice::named(name)?))
    }

    /// With `first` moving first (by default the side a start FEN names,
    /// else the side that opens a game under the rule set).
    #[must_use]
    pub fn first(mut self, first: Color) -> Fragment {
        self.first = Some(first);
        self
    }

    /// With the side of this name moving first.
    ///
    /// # Errors
    /// Neither `white` nor `black`.
    pub fn first_named(self, name: &str) -> Result<Fragment, InputError> {
        Ok(self.first(side_named(name)?))
    }

    /// With what is known of the start board.
    #[must_use]
    pub fn start(mut self, board: BoardText) -> Fragment {
        self.start = Some(board);
        self
    }

    /// With what is known of the end board (its FEN's side to move is
    /// not read: the moves decide it).
    #[must_use]
    pub fn end(mut self, board: BoardText) -> Fragment {
        self.end = Some(board);
        self
    }

    /// Captures written short (`28x19` for a capture of several jumps
    /// written by its first and last squares) are read as any capture
    /// between them, as PDN allows.
    #[must_use]
    pub fn short_captures(mut self, short: bool) -> Fragment {
        self.short_captures = short;
        self
    }

    /// The rule choice.
    pub fn rule_choice(&self) -> RulesChoice {
        self.rules
    }

    /// The fragment read under each rule set it may follow, in the order
    /// to try them (one when the rule set is named).
    ///
    /// # Errors
    /// No moves, or the fragment cannot be read under any candidate rule
    /// set (the first candidate's error).
    pub fn problems(&self) -> Result<Vec<Problem>, InputError> {
        self.problems_reading(false)
    }

    /// As [`Fragment::problems`]; with `miswritten`, a move no move on
    /// the board can be (`28-18`: not neighbours) is read as a mistake of
    /// the record at its ply, for a repair to mend, not refused.
    ///
    /// # Errors
    /// As [`Fragment::problems`].
    pub fn problems_reading(&self, miswritten: bool) -> Result<Vec<Problem>, InputError> {
        if self.moves.is_empty() {
            return Err(InputError::NoMoves);
        }
        let mut names = SquareNames::default();
        for text in self.moves.iter().chain(self.fen_texts()) {
            names.scan(text);
        }
        let rules = self.rules.for_squares(names);
        let inferred = rules == RulesChoice::Auto;
        rules.read_under_each(names, |variant| self.problem(variant, miswritten, inferred))
    }

    fn fen_texts(&self) -> impl Iterator<Item = &String> {
        [&self.start, &self.end]
            .into_iter()
            .filter_map(|b| match b {
                Some(BoardText::Fen(fen)) => Some(fen),
                _ => None,
            })
    }

    /// The fragment read under `variant` (`inferred` or named).
    fn problem(
        &self,
        variant: Variant,
        miswritten: bool,
        inferred: bool,
    ) -> Result<Problem, InputError> {
        let mut geometry = variant.geometry();
        if self.short_captures {
            geometry = geometry.short_captures();
        }
        let written = self
            .moves
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let text = text.trim();
                WrittenMove::parse_with(text, geometry).or_else(|source| {
                    match Miswritten::read(text, geometry, &source).filter(|_| miswritten) {
                        Some(m) => Ok(WrittenMove::Pattern(MovePattern::Miswritten(Box::new(m)))),
                        None => Err(InputError::Move {
                            ply: i + 1,
                            text: text.to_string(),
                            source,
                        }),
                    }
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let read =
            |board: &Option<BoardText>, which| board.as_ref().map(|b| b.facts(variant, which));
        let start = read(&self.start, BoardRole::Start).transpose()?;
        let end = read(&self.end, BoardRole::End).transpose()?;
        let first = self
            .first
            .or(start.and_then(|(_, turn)| turn))
            .unwrap_or(variant.first_player());
        Ok(Problem {
            variant,
            record: Record::from_written(first, written, 1),
            known: BoardFacts {
                start: start.map(|(facts, _)| facts),
                end: end.map(|(facts, _)| facts),
            },
            inferred,
        })
    }
}
