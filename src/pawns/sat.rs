//! The SAT engine: the puzzle as clauses over "this pawn captures"
//! variables, minimised with a totalizer bound, part by independent part.
//! `encodings/pawns.md` states the clauses and why they are exact.
//!
//! One variable per pawn, in row-major order: true when the pawn leaves its
//! square (it captures at some point). Clauses:
//! - a pawn that attacks nobody never captures: `¬x`;
//! - for each attack of p on q, they cannot both stay: `x_p ∨ x_q`.

use rustsat::instances::BasicVarManager;
use rustsat::types::Var as RsVar;
use varisat::{CnfFormula, Lit, Var};

use super::board::PawnBoard;
use super::PawnStats;
use crate::sat::{
    at_most, bound_clauses, counter, lift, minimize_true, propagate_units, split, AnnotatedCnf,
    GroupedClauses, SatError,
};

/// The variable of each square's pawn (`None` on empty squares).
fn pawn_vars(board: &PawnBoard) -> Vec<Option<Var>> {
    let mut next = 0;
    board
        .occupancy()
        .iter()
        .map(|&p| {
            p.then(|| {
                next += 1;
                Var::from_index(next - 1)
            })
        })
        .collect()
}

/// Writes the clauses of `board` into `sink`; returns the pawn variables.
fn encode(board: &PawnBoard, sink: &mut impl GroupedClauses) -> Vec<Option<Var>> {
    let vars = pawn_vars(board);
    for p in board.pawns() {
        let x = vars[board.index(p)].expect("a pawn has a variable");
        let mut attacks = board.attacked_by(p).peekable();
        if attacks.peek().is_none() {
            sink.group(|| format!("pawn {p} attacks nobody, so it never captures"));
            sink.clause(&[x.negative()]);
        }
        for (_, q) in attacks {
            let y = vars[board.index(q)].expect("an attacked square holds a pawn");
            sink.group(|| format!("pawn {p} attacks pawn {q}: one of them captures"));
            sink.clause(&[x.positive(), y.positive()]);
        }
    }
    vars
}

/// The formula of `board` with named variables and groups, as `pawns --cnf`
/// prints it; with `at_most`, also a totalizer over every pawn variable and
/// the unit clauses that bound their count (the formula a proof of
/// optimality refutes with the bound one below the optimum).
///
/// # Errors
/// [`SatError`] if rustsat refuses the totalizer.
pub fn pawn_cnf(
    board: &PawnBoard,
    at_most_captures: Option<usize>,
) -> Result<AnnotatedCnf, SatError> {
    let mut cnf = AnnotatedCnf::new();
    let vars = encode(board, &mut cnf);
    let pawn_count = vars.iter().flatten().count();
    let mut names = vec![String::new(); pawn_count];
    for p in board.pawns() {
        let v = vars[board.index(p)].expect("a pawn has a variable");
        names[v.index()] = format!("pawn {p} captures (leaves its square)");
    }
    cnf.name_vars(pawn_count, |v| names[v.index()].clone());
    cnf.comment(format!(
        "postfacto pawns --cnf: {n} x {n} board, {pawn_count} pawns (see encodings/pawns.md)",
        n = board.size()
    ));
    cnf.comment(
        "a model is a set of pawns that capture; played bottom row first, it solves the board",
    );
    if let Some(k) = at_most_captures {
        let inputs: Vec<Lit> = vars.iter().flatten().map(|v| v.positive()).collect();
        let mut manager = BasicVarManager::from_next_free(RsVar::new(pawn_count as u32));
        let mut tot = counter(&inputs);
        let clauses = bound_clauses(&mut tot, k, &mut manager)?;
        let bound = at_most(&tot, k)?;
        cnf.comment(format!(
            "with a totalizer bounding the captures to at most {k}: variables above {pawn_count} are its counters"
        ));
        cnf.begin_group(format!(
            "totalizer over the {pawn_count} pawn variables (rustsat), encoded for the bound {k}"
        ));
        for clause in clauses {
            cnf.add_clause(&clause);
        }
        cnf.begin_group(format!("at most {k} pawns capture"));
        for l in bound {
            cnf.add_clause(&[l]);
        }
    }
    Ok(cnf)
}

/// The pawns that capture in a solution with the fewest captures (one entry
/// per square). Unit propagation settles the pawns that attack nobody and
/// their attackers; what is left falls apart into independent parts, and in
/// each varisat finds a model and the totalizer bound goes down until one
/// fewer is unsatisfiable. (The lucky assignment, "units, false elsewhere",
/// is not tried: after propagation every clause left is `x ∨ y` over two
/// unfixed pawns, which it always falsifies.)
///
/// # Errors
/// [`SatError`] if varisat or the totalizer fails, or a part has no model
/// (it always has one: every pawn that attacks someone capturing).
pub fn solve_sat(board: &PawnBoard, stats: &mut PawnStats) -> Result<Vec<bool>, SatError> {
    let mut formula = CnfFormula::new();
    let vars = encode(board, &mut formula);
    stats.vars = formula.var_count();
    stats.clauses = formula.len();
    let propagated = propagate_units(&formula).ok_or_else(|| {
        SatError::Inconsistent("unit propagation refutes the pawn formula".into())
    })?;
    let mut value: Vec<bool> = propagated.fixed.iter().map(|v| *v == Some(true)).collect();
    let parts = split(&propagated.rest);
    stats.parts = parts.len();
    for part in &parts {
        let model = minimum_model(&part.formula, stats)?;
        for l in lift(part, &model) {
            value[l.index()] = l.is_positive();
        }
    }
    Ok(vars
        .iter()
        .map(|v| v.is_some_and(|v| value[v.index()]))
        .collect())
}

/// A model of `formula` with the fewest true variables, proved so.
fn minimum_model(formula: &CnfFormula, stats: &mut PawnStats) -> Result<Vec<Lit>, SatError> {
    let vars: Vec<Var> = (0..formula.var_count()).map(Var::from_index).collect();
    let best = minimize_true(formula, &vars)?.ok_or_else(|| {
        SatError::Inconsistent("a part of the pawn formula is unsatisfiable".into())
    })?;
    stats.solver_calls += best.calls;
    Ok(best.model)
}
