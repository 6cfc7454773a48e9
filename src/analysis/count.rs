//! Counting and listing start boards, told apart by what they put on the
//! squares the moves use.
//!
//! Counting whole boards would be meaningless: a simple move forbids captures
//! anywhere, so every square matters a little, and far-away squares can often
//! hold many things. What a reader wants to know is how many ways the pieces
//! the record *uses* can be: so boards are counted by their content on the
//! **used squares**: every square a move starts on, lands on or jumps over.
//! Each new board found is blocked on those squares only (a blocking clause
//! over their variables), so the count is of distinct contents there.

use std::collections::BTreeSet;

use varisat::{CnfFormula, ExtendFormula, Lit};

use crate::board::{Board, Piece, Square};
use crate::encode::vars::{self, lit, Fact};
use crate::encode::{BoardFacts, EncodeOptions, Term};
use crate::notation::{Answer, Record};
use crate::rules::Variant;
use crate::solve::{solve_refining, Formula, SolveError};

/// What to count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountOptions {
    /// Stop after finding one more than this many.
    pub limit: usize,
    /// Only boards that are empty off the used squares (for brute-force checks).
    pub others_empty: bool,
    /// What is known of the start and end boards besides the moves.
    pub known: BoardFacts,
}

/// The start boards found, distinct on the used squares.
#[derive(Clone, Debug)]
pub struct Count {
    /// The used squares: the ones boards are told apart by.
    pub squares: Vec<Square>,
    /// One full start board (a solution) per distinct content of the used squares.
    pub boards: Vec<Board>,
    /// For a damaged record, each board's filled-in record (same order):
    /// completions differ by their moves or by their boards on the squares
    /// those moves use.
    pub fillings: Vec<Record>,
    /// Each board with the end board its moves lead to, replayed and
    /// checked against what is known (same order as `boards`).
    pub answers: Vec<Answer>,
    /// False if the limit stopped the search: there are more than `boards.len() - 1`.
    pub complete: bool,
    /// The record had moves to fill in (unknown squares, captures written
    /// short): what is counted is completions, filled moves with a start
    /// board, not start boards alone.
    pub completions: bool,
}

impl Count {
    /// "3", or "more than 100".
    pub fn words(&self, limit: usize) -> String {
        if self.complete {
            self.boards.len().to_string()
        } else {
            format!("more than {limit}")
        }
    }

    /// How the first two answers differ, in words: the used squares their
    /// start boards put different pieces on (`13 (a black man or empty)`),
    /// then the plies their fillings play differently; empty when fewer
    /// than two were found.
    pub fn differences(&self, variant: Variant) -> Vec<String> {
        let [a, b, ..] = self.boards.as_slice() else {
            return Vec::new();
        };
        let say = |p: Option<Piece>| p.map_or("empty".to_string(), |p| p.describe());
        let squares: Vec<String> = self
            .squares
            .iter()
            .filter(|&&s| a.get(s) != b.get(s))
            .map(|&s| format!("{s} ({} or {})", say(a.get(s)), say(b.get(s))))
            .collect();
        let mut differ = Vec::new();
        if !squares.is_empty() {
            let noun = if squares.len() == 1 {
                "square"
            } else {
                "squares"
            };
            differ.push(format!("{noun} {}", squares.join(", ")));
        }
        if let [fa, fb, ..] = self.fillings.as_slice() {
            for (i, (ma, mb)) in fa.moves.iter().zip(&fb.moves).enumerate() {
                if ma != mb {
                    differ.push(format!(
                        "the move of ply {} ({} or {})",
                        i + 1,
                        variant.write_move(ma),
                        variant.write_move(mb)
                    ));
                }
            }
        }
        differ
    }
}

/// Every square a move of `record` starts on, lands on, or jumps or
/// passes over: for a flying king's capture every square between its
/// landings, since the piece it takes may stand on any of them.
pub fn used_squares(record: &Record) -> Vec<Square> {
    let mut used = BTreeSet::new();
    for mv in &record.moves {
        used.insert(mv.from());
        used.extend(mv.landings().iter().copied());
        if mv.is_capture() {
            for (a, b) in mv.steps() {
                used.extend(squares_between(a, b));
            }
        }
    }
    used.into_iter().collect()
}

/// The squares strictly between `a` and `b` on their diagonal (none when
/// they share no diagonal).
fn squares_between(a: Square, b: Square) -> Vec<Square> {
    let Some((dir, distance)) = a.diagonal_to(b) else {
        return Vec::new();
    };
    std::iter::successors(a.step(dir), |s| s.step(dir))
        .take(usize::from(distance).saturating_sub(1))
        .collect()
}

/// Counts (and keeps) start boards of `record` that differ on the used
/// squares (and, for a damaged record, on its filled moves). Every board
/// counted is a replayed answer: models the replayer rejects teach the
/// formula a clause instead of being counted.
///
/// # Errors
/// [`SolveError`] if varisat fails.
pub fn count_start_boards(
    record: &Record,
    variant: Variant,
    options: CountOptions,
) -> Result<Count, SolveError> {
    let mut cnf = CnfFormula::new();
    let mut formula = Formula::encode(
        variant,
        record,
        options.known,
        &mut cnf,
        EncodeOptions::default(),
    )?;
    let mut solver = crate::sat::new_solver();
    solver.add_formula(&cnf);
    let squares = used_squares(record);
    if options.others_empty && !record.is_damaged() {
        empty_the_others(&mut solver, variant, &squares);
    }
    let mut count = Count {
        squares,
        boards: Vec::new(),
        fillings: Vec::new(),
        answers: Vec::new(),
        complete: false,
        completions: record.is_damaged(),
    };
    let mut all_used: BTreeSet<Square> = count.squares.iter().copied().collect();
    let mut learned = Vec::new();
    while let Some(found) = solve_refining(&mut solver, &mut formula, &[], &mut learned)? {
        if count.boards.len() == options.limit {
            count.squares = all_used.into_iter().collect();
            return Ok(count);
        }
        let answer = super::replayed_answer(
            record,
            &found.filled,
            found.start,
            "the counter",
            variant,
            options.known,
        )?;
        count.answers.push(answer);
        let blocking = count.keep(record, &formula, found, &mut all_used);
        solver.add_clause(&blocking);
    }
    count.squares = all_used.into_iter().collect();
    count.complete = true;
    Ok(count)
}

impl Count {
    /// Keeps the start board `found` (and its filling), and returns the
    /// clause that blocks its content of the used squares: some fact
    /// there must differ, or (damaged records) some filled move.
    /// `all_used` gathers the squares every filling used.
    fn keep(
        &mut self,
        record: &Record,
        formula: &Formula,
        found: crate::solve::Refined,
        all_used: &mut BTreeSet<Square>,
    ) -> Vec<Lit> {
        let mut blocking: Vec<Lit> = Vec::new();
        let used = if record.is_damaged() {
            blocking.extend(other_moves(formula, &found.filled));
            let used = used_squares(&found.filled);
            all_used.extend(used.iter().copied());
            self.fillings.push(found.filled);
            used
        } else {
            self.squares.clone()
        };
        blocking.extend(other_contents(&used, &found.start));
        self.boards.push(found.start);
        blocking
    }
}

/// Every square outside `used` empty at the start (`--others-empty`).
fn empty_the_others(solver: &mut varisat::Solver<'_>, variant: Variant, used: &[Square]) {
    for s in variant.topology().squares().filter(|s| !used.contains(s)) {
        solver.add_clause(&[lit(s, Fact::Occupied, false)]);
    }
}

/// "Some square of `used` holds another content than on `start`", as
/// literals.
fn other_contents<'a>(used: &'a [Square], start: &'a Board) -> impl Iterator<Item = Lit> + 'a {
    used.iter()
        .flat_map(|&s| vars::square_lits(s, start.get(s)))
        .map(|l| !l)
}

/// "Some damaged ply plays another move than in `filled`", as literals.
fn other_moves(formula: &Formula, filled: &Record) -> Vec<Lit> {
    let Some(layout) = &formula.encoded.layout else {
        return Vec::new();
    };
    layout
        .moves
        .iter()
        .flat_map(|mv| mv.playing(&filled.moves[mv.ply - 1]).unwrap_or_default())
        .filter_map(|term| match term {
            Term::Lit(l) => Some(!l),
            Term::Const(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Piece, Role};
    use crate::notation::parse_records;
    use crate::replay::replay;
    use crate::rules::English;

    fn record(text: &str) -> Record {
        parse_records(text).unwrap().remove(0)
    }

    /// Every way to fill `squares` (the rest empty) that replays: by brute force.
    fn brute_force(record: &Record, squares: &[Square]) -> usize {
        brute_force_under(Variant::English, record, squares)
    }

    fn brute_force_under(variant: Variant, record: &Record, squares: &[Square]) -> usize {
        let contents = [
            None,
            Some(Piece::new(Color::Black, Role::Man)),
            Some(Piece::new(Color::Black, Role::King)),
            Some(Piece::new(Color::White, Role::Man)),
            Some(Piece::new(Color::White, Role::King)),
        ];
        let mut count = 0;
        let total = contents.len().pow(squares.len() as u32);
        for mut code in 0..total {
            let mut board = Board::empty_on(variant.topology());
            let mut allowed = true;
            for &s in squares {
                let piece = contents[code % contents.len()];
                code /= contents.len();
                // A man on its own crowning row is not a start board.
                if piece.is_some_and(|p| !p.is_king() && s.row() == p.color.crowning_row()) {
                    allowed = false;
                }
                board.set(s, piece);
            }
            if allowed && replay(variant.rules(), &board, record).is_ok() {
                count += 1;
            }
        }
        count
    }

    #[test]
    fn counts_match_brute_force_on_small_records() {
        for text in [
            "B 1\n9-13\n",
            "W 1\n22-18\n",
            "B 1\n9-14\n",
            "W 2\n22-18\n18-22\n",
            "B 1\n9x18\n",
            "W 1\n26x17\n",
            "B 2\n1-5\n22x15\n",
        ] {
            let r = record(text);
            let options = CountOptions {
                limit: 10_000,
                others_empty: true,
                known: BoardFacts::none(),
            };
            let count = count_start_boards(&r, Variant::English, options).unwrap();
            assert!(count.complete);
            assert_eq!(
                count.boards.len(),
                brute_force(&r, &count.squares),
                "{text:?} on squares {:?}",
                count.squares
            );
            for board in &count.boards {
                replay(&English, board, &r).expect("every counted board replays");
            }
        }
    }

    /// Flying captures: the piece taken may stand anywhere between two
    /// landings, so boards are told apart on every square a capture passes.
    /// The brute force fills every square of the capture's lines (found
    /// here, not by `used_squares`) and must count as many boards.
    #[test]
    fn flying_counts_match_brute_force_on_every_square_passed() {
        for (variant, text) in [
            (Variant::Russian, "W 1\ng7:b2\n"),
            (Variant::Russian, "W 1\nb8:f4:h6\n"),
            (Variant::International, "W 1\n37x19\n"),
            (Variant::International, "B 1\n3x25\n"),
        ] {
            let r = crate::notation::parse_records_with(text, variant.geometry())
                .unwrap()
                .remove(0);
            let mut lines: Vec<Square> = Vec::new();
            for (a, b) in r.moves[0].steps() {
                lines.push(a);
                lines.extend(squares_between(a, b));
                lines.push(b);
            }
            lines.sort_unstable();
            lines.dedup();
            let options = CountOptions {
                limit: 100_000,
                others_empty: true,
                known: BoardFacts::none(),
            };
            let count = count_start_boards(&r, variant, options).unwrap();
            assert!(count.complete);
            assert_eq!(count.squares, lines, "{text:?}");
            assert_eq!(
                count.boards.len(),
                brute_force_under(variant, &r, &lines),
                "{text:?}"
            );
            for board in &count.boards {
                replay(variant.rules(), board, &r).expect("every counted board replays");
            }
        }
    }

    #[test]
    fn the_limit_reports_more_than() {
        // The mover may be a man or a king: two boards.
        let r = record("W 1\n22-18\n");
        let options = CountOptions {
            limit: 1,
            others_empty: false,
            known: BoardFacts::none(),
        };
        let count = count_start_boards(&r, Variant::English, options).unwrap();
        assert!(!count.complete);
        assert_eq!(count.words(1), "more than 1");
    }

    #[test]
    fn used_squares_include_jumped_ones() {
        let r = record("W 3\n21-17\n13x22x31x24\n19x28\n");
        let numbers: Vec<u8> = used_squares(&r).iter().map(|s| s.number()).collect();
        assert_eq!(numbers, vec![13, 17, 19, 21, 22, 24, 26, 27, 28, 31]);
    }
}
