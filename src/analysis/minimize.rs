//! The start board with the fewest pieces (then the fewest kings), proved
//! optimal: the solver shows that one piece fewer is unsatisfiable.
//!
//! Cardinality constraints come from rustsat's incremental totalizer (see
//! `encodings/cardinality.md`). Its clauses are added to one varisat solver
//! once; each bound `count <= k` is then a single assumption literal, so the
//! search tightens the bound with the same solver and everything it learnt.

use rustsat::encodings::card::Totalizer;
use varisat::{CnfFormula, Lit};

use crate::board::{Board, Topology};
use crate::encode::vars::{lit, Fact};
use crate::encode::{BoardFacts, EncodeOptions};
use crate::notation::{Answer, Record};
use crate::rules::Variant;
use crate::sat::{at_most, Optimizer};
use crate::solve::{solve_refining, Formula, Learned, Refined, SolveError};

/// Extra constraints on the start board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// At most this many pieces of each colour.
    pub max_per_side: Option<usize>,
    /// What is known of the start and end boards besides the moves.
    pub known: BoardFacts,
}

/// A start board with the fewest pieces, then the fewest kings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Minimum {
    /// The board.
    pub start: Board,
    /// Its pieces: no start board has fewer (the solver proved one fewer impossible).
    pub pieces: usize,
    /// Its kings: no start board with `pieces` pieces has fewer.
    pub kings: usize,
    /// Solver calls made.
    pub solves: usize,
    /// For a damaged record, its moves as this board's filling plays them.
    pub filled: Option<Record>,
    /// The board with the end board its moves lead to, replayed and
    /// checked against what is known.
    pub answer: Answer,
}

/// The start board with the fewest pieces (and among those the fewest
/// kings) within `limits`; `None` if no start board within them works.
/// Every model on the way is replayed (and refined), so the minimum is an
/// answer and its proof of optimality holds for the rules.
///
/// # Errors
/// [`SolveError`] if varisat or the totalizer fails.
pub fn minimize_pieces(
    record: &Record,
    variant: Variant,
    limits: Limits,
) -> Result<Option<Minimum>, SolveError> {
    let mut cnf = CnfFormula::new();
    let mut formula = Formula::encode(
        variant,
        record,
        limits.known,
        &mut cnf,
        EncodeOptions::default(),
    )?;
    let topology = variant.topology();
    let mut opt = Optimizer::new(&cnf, formula.vars());
    if let Some(cap) = limits.max_per_side {
        cap_sides(&mut opt, topology, cap)?;
    }
    let mut learned = Vec::new();
    let Some(first) = solve_refining(&mut opt, &mut formula, &[], &mut learned)? else {
        return Ok(None);
    };
    let facts =
        |fact: Fact| -> Vec<Lit> { topology.squares().map(|s| lit(s, fact, true)).collect() };
    let mut pieces_tot = opt.totalizer(&facts(Fact::Occupied))?;
    let pieces = |r: &Refined| r.start.piece_count() as usize;
    let fewest = lower(
        &mut opt,
        &mut formula,
        &mut pieces_tot,
        first,
        pieces,
        &[],
        &mut learned,
    )?;
    let keep_pieces = at_most(&pieces_tot, pieces(&fewest))?;
    let mut kings_tot = opt.totalizer(&facts(Fact::King))?;
    let kings = |r: &Refined| r.start.king_count() as usize;
    let best = lower(
        &mut opt,
        &mut formula,
        &mut kings_tot,
        fewest,
        kings,
        &keep_pieces,
        &mut learned,
    )?;
    checked_minimum(record, variant, limits, best, opt.solves()).map(Some)
}

/// The minimum found, replayed (its filling too, for a damaged record)
/// and held to the facts known.
fn checked_minimum(
    record: &Record,
    variant: Variant,
    limits: Limits,
    best: Refined,
    solves: usize,
) -> Result<Minimum, SolveError> {
    let answer = super::replayed_answer(
        record,
        &best.filled,
        best.start,
        "the minimizer",
        variant,
        limits.known,
    )?;
    let filled = record.is_damaged().then_some(best.filled);
    Ok(Minimum {
        pieces: best.start.piece_count() as usize,
        kings: best.start.king_count() as usize,
        start: best.start,
        solves,
        filled,
        answer,
    })
}

/// At most `cap` pieces of each colour.
fn cap_sides(opt: &mut Optimizer, topology: Topology, cap: usize) -> Result<(), SolveError> {
    let white: Vec<Lit> = topology
        .squares()
        .map(|s| lit(s, Fact::White, true))
        .collect();
    // A black piece is "occupied and not white": one new variable per square.
    let mut black = Vec::new();
    for s in topology.squares() {
        let b = opt.new_lit();
        opt.add_clause(&[lit(s, Fact::Occupied, false), lit(s, Fact::White, true), b]);
        black.push(b);
    }
    for inputs in [white, black] {
        let tot = opt.totalizer(&inputs)?;
        opt.fix(at_most(&tot, cap)?);
    }
    Ok(())
}

/// Lowers `count` from `best`'s value while the solver finds (replayed)
/// answers with fewer, under the `keep` assumptions too; the best answer.
/// The last call, one below the returned count, was unsatisfiable: that is
/// the proof of optimality.
fn lower(
    opt: &mut Optimizer,
    formula: &mut Formula,
    tot: &mut Totalizer,
    mut best: Refined,
    count: impl Fn(&Refined) -> usize,
    keep: &[Lit],
    learned: &mut Vec<Learned>,
) -> Result<Refined, SolveError> {
    while count(&best) > 0 {
        let mut assumptions = opt.at_most(tot, count(&best) - 1)?;
        assumptions.extend_from_slice(keep);
        match solve_refining(opt, formula, &assumptions, learned)? {
            Some(found) if count(&found) < count(&best) => best = found,
            Some(_) => return Err(SolveError::BoundGaveNoLowerCount),
            None => break,
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::board::{Color, Piece};
    use crate::notation::parse_records;
    use crate::replay::replay;
    use crate::rules::English;

    fn record(text: &str) -> Record {
        parse_records(text).unwrap().remove(0)
    }

    #[test]
    fn a_single_simple_move_needs_one_piece() {
        let m = minimize_pieces(&record("B 1\n9-13\n"), Variant::English, Limits::default())
            .unwrap()
            .unwrap();
        assert_eq!((m.pieces, m.kings), (1, 0));
        assert_eq!(
            m.start.get(Square::from_number(9).unwrap()),
            Some(Piece::new(Color::Black, crate::board::Role::Man))
        );
    }

    #[test]
    fn minima_of_the_samples_replay_and_match_brute_force_bounds() {
        for text in [
            include_str!("../../tests/data/sample1.in"),
            include_str!("../../tests/data/sample2.in"),
        ] {
            let r = record(text);
            let m = minimize_pieces(&r, Variant::English, Limits::default())
                .unwrap()
                .unwrap();
            replay(&English, &m.start, &r).expect("the minimum replays");
            // Every piece is needed: removing any one breaks the record.
            for sq in Square::all().filter(|&s| m.start.get(s).is_some()) {
                let mut fewer = m.start;
                fewer.set(sq, None);
                assert!(replay(&English, &fewer, &r).is_err(), "{sq} was not needed");
            }
        }
    }

    /// Does any start board with at most `k` pieces replay `r`? By brute force.
    fn any_board_with_at_most(r: &Record, k: usize, from: usize, board: &mut Board) -> bool {
        if replay(&English, board, r).is_ok() {
            return true;
        }
        if k == 0 {
            return false;
        }
        for i in from..Square::COUNT {
            let sq = Square::new(i as u8);
            for color in Color::ALL {
                for role in [crate::board::Role::Man, crate::board::Role::King] {
                    if role == crate::board::Role::Man && sq.row() == color.crowning_row() {
                        continue;
                    }
                    board.set(sq, Some(Piece::new(color, role)));
                    let found = any_board_with_at_most(r, k - 1, i + 1, board);
                    board.set(sq, None);
                    if found {
                        return true;
                    }
                }
            }
        }
        false
    }

    #[test]
    fn no_board_with_fewer_pieces_works_by_brute_force() {
        for (text, pieces, kings) in [
            ("B 1\n9-13\n", 1, 0),
            ("B 1\n14-10\n", 1, 1),
            ("W 1\n26x17\n", 2, 0),
            ("W 2\n22-18\n10-15\n", 2, 0),
            // 19 could jump 15 to 10: a blocker on 10 is the third piece.
            ("B 2\n11-15\n19-16\n", 3, 0),
        ] {
            let r = record(text);
            let m = minimize_pieces(&r, Variant::English, Limits::default())
                .unwrap()
                .unwrap();
            assert_eq!((m.pieces, m.kings), (pieces, kings), "{text:?}");
            replay(&English, &m.start, &r).expect("the minimum replays");
            assert!(
                !any_board_with_at_most(&r, pieces - 1, 0, &mut Board::empty()),
                "{text:?}: a board with fewer than {pieces} pieces works"
            );
        }
    }

    #[test]
    fn a_side_cap_that_is_too_tight_makes_the_record_impossible() {
        // Sample 1 needs at least two black pieces (13 and the jumped 22? no:
        // the black king on 13 and the blocker); a cap of zero is impossible.
        let r = record(include_str!("../../tests/data/sample1.in"));
        let capped = Limits {
            max_per_side: Some(0),
            known: BoardFacts::none(),
        };
        assert_eq!(minimize_pieces(&r, Variant::English, capped).unwrap(), None);
        let loose = Limits {
            max_per_side: Some(12),
            known: BoardFacts::none(),
        };
        assert!(minimize_pieces(&r, Variant::English, loose)
            .unwrap()
            .is_some());
    }
}
