//! Invariants that must hold for *any* input, shared by the fuzz targets
//! (`fuzz/`, see `docs/fuzzing.md`) and their stand-in property test in
//! `cargo test`. Each function panics when an invariant breaks; that panic
//! is the finding.
//!
//! - Readers never panic, and what they accept prints back to the same thing.
//! - `solve` prints only answers the judge accepts.
//! - A model varisat gives for a DIMACS file satisfies every clause.

use varisat::Solver;

use crate::board::Topology;
use crate::notation::{
    parse_answers, parse_answers_on, parse_board, parse_fen, parse_fen_on, parse_partial_board_on,
    parse_pdn, parse_records_bytes_with, parse_records_with, to_fen, Geometry,
};
use crate::pawns::{format_pawn_boards, parse_pawn_boards};
use crate::replay::judge;
use crate::rules::Variant;
use crate::solve::{solve_with, Engine, Outcome};

/// Records in both geometries: accepted records print back to themselves.
pub fn records(bytes: &[u8]) {
    let geometries = [
        Geometry::SHORT,
        Geometry::FLYING,
        Geometry::SHORT.short_captures(),
        Geometry::FLYING.short_captures(),
    ];
    for geometry in geometries {
        if let Ok(records) = parse_records_bytes_with(bytes, geometry) {
            let text: String = records.iter().map(ToString::to_string).collect();
            let again = parse_records_with(&text, geometry)
                .unwrap_or_else(|e| panic!("printed records do not read back: {e}\n{text}"));
            assert_eq!(again.len(), records.len());
            for (a, b) in records.iter().zip(&again) {
                assert_eq!(
                    (a.first, &a.moves, &a.written),
                    (b.first, &b.moves, &b.written),
                    "{text}"
                );
            }
        }
    }
}

/// PDN games, read game by game under every rule set and verified as
/// `verify --pdn` does: no panic, every game reported once, in order.
pub fn pdn(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    for variant in Variant::ALL {
        let _ = parse_pdn(&text, variant.first_player(), variant.geometry());
    }
    for (i, game) in crate::notation::games(&text).enumerate() {
        assert_eq!(game.number, i + 1);
        let report = crate::archive::verify_game(&game, crate::archive::VerifyOptions::default());
        assert_eq!(report.number, game.number);
        for variant in Variant::ALL {
            let _ = game.read(crate::archive::reading(variant));
        }
    }
}

/// Boards, FEN, answers and pawn boards: accepted FEN and pawn boards
/// print back to the same position.
pub fn boards(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let _ = parse_board(text);
    let _ = parse_answers(text);
    for topology in Topology::ALL {
        let _ = parse_answers_on(text, topology);
        // A board of facts prints back to the same facts where they are known.
        if let Ok(facts) = parse_partial_board_on(text, topology) {
            assert_eq!(facts.keep_known(), facts, "{text}");
        }
        if let Ok((turn, board)) = parse_fen_on(text, topology) {
            let fen = to_fen(&board, turn, topology.algebraic());
            let back = parse_fen_on(&fen, topology);
            assert_eq!(back, Ok((turn, board)), "{fen}");
        }
    }
    if let Ok((turn, board)) = parse_fen(text) {
        for algebraic in [false, true] {
            let fen = to_fen(&board, turn, algebraic);
            let back = parse_fen(&fen).unwrap_or_else(|e| panic!("{fen} does not read back: {e}"));
            assert_eq!(back, (turn, board), "{fen}");
        }
    }
    if let Ok(boards) = parse_pawn_boards(text) {
        let printed = format_pawn_boards(&boards);
        assert_eq!(
            parse_pawn_boards(&printed).as_ref(),
            Ok(&boards),
            "{printed}"
        );
    }
}

/// Records small enough to solve quickly: every answer `solve` gives is
/// accepted by the judge (the SAT engine's own replay check must never
/// fail, which would be a [`crate::solve::SolveError`]).
pub fn solve(bytes: &[u8]) {
    for variant in Variant::ALL {
        let Ok(records) = parse_records_bytes_with(bytes, variant.geometry()) else {
            continue;
        };
        // Damaged records (a `?`): a few damaged plies at most, to keep
        // executions quick.
        let small = |r: &&crate::notation::Record| {
            let damaged = r
                .written
                .as_ref()
                .map_or(0, |w| w.iter().filter(|m| m.known().is_none()).count());
            r.plies() <= 60 && damaged <= 2
        };
        for record in records.iter().take(4).filter(small) {
            match solve_with(record, Engine::Sat, variant) {
                Ok(Outcome::Solved(solution)) => {
                    if let Err(e) = judge(variant.rules(), record, &solution.answer) {
                        panic!("solve printed an answer the judge rejects: {e}\n{record}");
                    }
                    if let Some(filled) = &solution.filled {
                        crate::solve::check_filled(record, filled, "solve")
                            .unwrap_or_else(|e| panic!("{e}\n{record}"));
                        if let Err(e) = judge(variant.rules(), filled, &solution.answer) {
                            panic!("the filled moves do not replay: {e}\n{filled}");
                        }
                    }
                }
                Ok(_) => {}
                Err(e) => panic!("{e}\n{record}"),
            }
        }
    }
}

/// DIMACS: no panic; a small formula's model satisfies every clause.
pub fn dimacs(bytes: &[u8]) {
    let Ok(formula) = varisat::dimacs::DimacsParser::parse(bytes) else {
        return;
    };
    if formula.var_count() > 300 || formula.len() > 3000 {
        return;
    }
    let mut solver = Solver::new();
    solver.add_formula(&formula);
    if let Ok(true) = solver.solve() {
        let model = solver.model().expect("a model after SAT");
        let mut value = vec![false; formula.var_count()];
        for l in &model {
            if l.index() < value.len() {
                value[l.index()] = l.is_positive();
            }
        }
        for clause in formula.iter() {
            assert!(
                clause.iter().any(|l| value[l.index()] == l.is_positive()),
                "the model falsifies {clause:?}"
            );
        }
    }
}
