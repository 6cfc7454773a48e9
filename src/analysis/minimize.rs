//! The start board with the fewest pieces (then the fewest kings), proved
//! optimal: the solver shows that one piece fewer is unsatisfiable.
//!
//! Cardinality constraints come from rustsat's incremental totalizer (see
//! `encodings/cardinality.md`). Its clauses are added to one varisat solver
//! once; each bound `count <= k` is then a single assumption literal, so the
//! search tightens the bound with the same solver and everything it learnt.

use rustsat::encodings::card::{BoundUpper, Totalizer};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Lit as RsLit, Var as RsVar};
use varisat::{CnfFormula, ExtendFormula, Lit, Solver};

use crate::board::{Board, Square};
use crate::encode::vars::{self, lit, Fact, VAR_COUNT};
use crate::encode::{encode_with, EncodeOptions};
use crate::notation::Record;
use crate::rules::Variant;
use crate::solve::InternalError;

/// Extra constraints on the start board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// At most this many pieces of each colour.
    pub max_per_side: Option<usize>,
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
}

fn to_rs(l: Lit) -> RsLit {
    RsLit::new(l.index() as u32, l.is_negative())
}

fn from_rs(l: RsLit) -> Lit {
    varisat::Var::from_index(l.var().idx()).lit(!l.is_neg())
}

/// A varisat solver with the record's formula and room for totalizers.
struct Optimizer {
    solver: Solver<'static>,
    vars: BasicVarManager,
    /// Assumptions every call makes (side caps).
    fixed: Vec<Lit>,
    solves: usize,
}

impl Optimizer {
    fn new(record: &Record, variant: Variant) -> Optimizer {
        let mut formula = CnfFormula::new();
        encode_with(variant, record, &mut formula, EncodeOptions::default());
        formula.set_var_count(formula.var_count().max(VAR_COUNT));
        let mut solver = Solver::new();
        let next = formula.var_count() as u32;
        solver.add_formula(&formula);
        Optimizer {
            solver,
            vars: BasicVarManager::from_next_free(RsVar::new(next)),
            fixed: Vec::new(),
            solves: 0,
        }
    }

    fn add(&mut self, cnf: Cnf) {
        for clause in cnf {
            let lits: Vec<Lit> = clause.iter().map(|&l| from_rs(l)).collect();
            self.solver.add_clause(&lits);
        }
    }

    /// A totalizer over `inputs`, encoded for every bound.
    fn totalizer(&mut self, inputs: &[Lit]) -> Result<Totalizer, InternalError> {
        let mut tot: Totalizer = inputs.iter().map(|&l| to_rs(l)).collect();
        let mut cnf = Cnf::new();
        tot.encode_ub(0..=inputs.len(), &mut cnf, &mut self.vars)
            .map_err(|e| InternalError(format!("totalizer: {e}")))?;
        self.add(cnf);
        Ok(tot)
    }

    /// Solves with `extra` assumptions; the board of the model if satisfiable.
    fn solve(&mut self, extra: &[Lit]) -> Result<Option<Board>, InternalError> {
        let mut assumptions = self.fixed.clone();
        assumptions.extend_from_slice(extra);
        self.solver.assume(&assumptions);
        self.solves += 1;
        let sat = self
            .solver
            .solve()
            .map_err(|e| InternalError(format!("varisat failed: {e}")))?;
        Ok(sat.then(|| vars::decode(self.solver.model().as_deref().unwrap_or(&[]))))
    }

    /// Lowers `count(board)` from `best`'s value while the solver finds boards
    /// with fewer; returns the best board. The last call, one below the
    /// returned value, was unsatisfiable: that is the proof of optimality.
    fn minimize(
        &mut self,
        tot: &Totalizer,
        mut best: Board,
        count: impl Fn(&Board) -> usize,
        keep: &[Lit],
    ) -> Result<Board, InternalError> {
        while count(&best) > 0 {
            let bound = tot
                .enforce_ub(count(&best) - 1)
                .map_err(|e| InternalError(format!("totalizer: {e}")))?;
            let mut assumptions: Vec<Lit> = bound.into_iter().map(from_rs).collect();
            assumptions.extend_from_slice(keep);
            match self.solve(&assumptions)? {
                Some(board) => best = board,
                None => break,
            }
        }
        Ok(best)
    }
}

/// The start board with the fewest pieces (and among those the fewest
/// kings) within `limits`; `None` if no start board within them works.
///
/// # Errors
/// [`InternalError`] if varisat or the totalizer fails.
pub fn minimize_pieces(
    record: &Record,
    variant: Variant,
    limits: Limits,
) -> Result<Option<Minimum>, InternalError> {
    let mut opt = Optimizer::new(record, variant);
    if let Some(cap) = limits.max_per_side {
        let white: Vec<Lit> = Square::all().map(|s| lit(s, Fact::White, true)).collect();
        // A black piece is "occupied and not white": one new variable per square.
        let mut black = Vec::new();
        for s in Square::all() {
            let b = from_rs(opt.vars.new_var().pos_lit());
            opt.solver
                .add_clause(&[lit(s, Fact::Occupied, false), lit(s, Fact::White, true), b]);
            black.push(b);
        }
        for inputs in [white, black] {
            let tot = opt.totalizer(&inputs)?;
            let cap_lits = tot
                .enforce_ub(cap)
                .map_err(|e| InternalError(format!("totalizer: {e}")))?;
            opt.fixed.extend(cap_lits.into_iter().map(from_rs));
        }
    }
    let Some(first) = opt.solve(&[])? else {
        return Ok(None);
    };
    let occupied: Vec<Lit> = Square::all()
        .map(|s| lit(s, Fact::Occupied, true))
        .collect();
    let pieces_tot = opt.totalizer(&occupied)?;
    let piece_count = |b: &Board| b.piece_count() as usize;
    let fewest = opt.minimize(&pieces_tot, first, piece_count, &[])?;
    let pieces = piece_count(&fewest);
    let keep_pieces: Vec<Lit> = pieces_tot
        .enforce_ub(pieces)
        .map_err(|e| InternalError(format!("totalizer: {e}")))?
        .into_iter()
        .map(from_rs)
        .collect();
    let kings: Vec<Lit> = Square::all().map(|s| lit(s, Fact::King, true)).collect();
    let kings_tot = opt.totalizer(&kings)?;
    let king_count = |b: &Board| b.king_count() as usize;
    let start = opt.minimize(&kings_tot, fewest, king_count, &keep_pieces)?;
    Ok(Some(Minimum {
        pieces: piece_count(&start),
        kings: king_count(&start),
        start,
        solves: opt.solves,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
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
        };
        assert_eq!(minimize_pieces(&r, Variant::English, capped).unwrap(), None);
        let loose = Limits {
            max_per_side: Some(12),
        };
        assert!(minimize_pieces(&r, Variant::English, loose)
            .unwrap()
            .is_some());
    }
}
