//! Golden DIMACS files, byte for byte: one record of each rule set
//! (`tests/every_rule_set.rs` checks those), and here a second English
//! sample, a second Russian record, a damaged English record (a `?` square
//! and a lone `?`), a reach instance (two plies from the opening), and the
//! pawn puzzle's example.
//! An intended change is blessed with `BLESS=1 cargo test golden`, and the
//! diff of `encodings/golden/` is then reviewed like code.

use postfacto::encode::dimacs;
use postfacto::notation::{parse_records, parse_records_with};
use postfacto::rules::Variant;
use postfacto::solve::{solve, Engine, Outcome};

use crate::util::path;

fn dimacs_of(input: &str) -> String {
    dimacs_under(input, Variant::English)
}

pub fn dimacs_under(input: &str, variant: Variant) -> String {
    // As `postfacto cnf --rules russian` writes them.
    let record = &parse_records_with(input, variant.geometry()).unwrap()[0];
    let mut out = Vec::new();
    dimacs(record, variant).write_dimacs(&mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// The golden files besides each rule set's own: (input and golden name,
/// rule set).
const GOLDEN: [(&str, Variant); 3] = [
    ("sample2", Variant::English),
    ("russian2", Variant::Russian),
    ("damaged1", Variant::English),
];

#[test]
fn golden_dimacs_match() {
    for (name, variant) in GOLDEN {
        let input = std::fs::read_to_string(path(&format!("tests/data/{name}.in"))).unwrap();
        matches_golden(name, &dimacs_under(&input, variant));
    }
}

#[test]
fn golden_pawn_dimacs_match() {
    let input = std::fs::read_to_string(path("tests/data/pawns.in")).unwrap();
    let board = &postfacto::pawns::parse_pawn_boards(&input).unwrap()[0];
    for (name, bound) in [("pawns", None), ("pawns-at-most-5", Some(5))] {
        let mut out = Vec::new();
        postfacto::pawns::pawn_cnf(board, bound)
            .unwrap()
            .write_dimacs(&mut out)
            .unwrap();
        matches_golden(name, &String::from_utf8(out).unwrap());
    }
}

/// Compares `got` with `encodings/golden/NAME.cnf` byte for byte (or
/// rewrites the file under `BLESS=1`).
pub fn matches_golden(name: &str, got: &str) {
    let golden = path(&format!("encodings/golden/{name}.cnf"));
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&golden, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&golden)
        .unwrap_or_else(|e| panic!("{}: {e} (run with BLESS=1 to create it)", golden.display()));
    if got != want {
        let first = got
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(got.lines().count().min(want.lines().count()));
        panic!(
            "{name}: the encoding changed at line {}:\n  golden: {:?}\n  now:    {:?}\nIf intended, run BLESS=1 cargo test golden and review the diff.",
            first + 1,
            want.lines().nth(first),
            got.lines().nth(first)
        );
    }
}

/// Solves a DIMACS text with varisat as any outside solver would, knowing nothing of postfacto.
pub fn dimacs_satisfiable(dimacs: &str) -> bool {
    let formula = varisat::dimacs::DimacsParser::parse(dimacs.as_bytes()).expect("valid DIMACS");
    let mut solver = varisat::Solver::new();
    solver.add_formula(&formula);
    solver.solve().unwrap()
}

#[test]
fn golden_files_are_satisfiable_like_solve_says() {
    for (name, _) in GOLDEN {
        let dimacs =
            std::fs::read_to_string(path(&format!("encodings/golden/{name}.cnf"))).unwrap();
        assert!(dimacs_satisfiable(&dimacs), "{name}");
    }
    let impossible = dimacs_of("W 3\n22-18\n11-15\n18-14\n");
    assert!(
        impossible.contains("\n0\n"),
        "the empty clause is written as a lone 0"
    );
    assert!(!dimacs_satisfiable(&impossible));
    let record = &parse_records("W 3\n22-18\n11-15\n18-14\n").unwrap()[0];
    assert!(matches!(
        solve(record, Engine::Sat).unwrap(),
        Outcome::Impossible { .. }
    ));
}

#[test]
fn golden_reach_dimacs_match() {
    // `postfacto reach tests/data/reach2.txt --turn black --cnf 2`: a game
    // of exactly two plies from the opening to the position.
    use postfacto::board::{Color, PartialBoard};
    use postfacto::reach::{Goal, Reach};
    let variant = Variant::English;
    let text = std::fs::read_to_string(path("tests/data/reach2.txt")).unwrap();
    let board = postfacto::notation::parse_board_on(&text, variant.topology()).unwrap();
    let goal = Goal {
        board: PartialBoard {
            board,
            known: variant.topology().all_bits(),
        },
        turn: Color::Black,
    };
    let mut out = Vec::new();
    Reach::new(variant)
        .cnf(&goal, 2)
        .unwrap()
        .write_dimacs(&mut out)
        .unwrap();
    matches_golden("reach2", &String::from_utf8(out).unwrap());
}
