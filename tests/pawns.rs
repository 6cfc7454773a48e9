//! The pawn-capture puzzle (`postfacto pawns`, issue 10): the spec's example,
//! the engines against exhaustive search and each other, proofs, and every
//! bad-input path.

use proptest::prelude::*;

use postfacto::pawns::{
    exhaustive, parse_pawn_boards, replay_captures, solve_pawns, Capture, Cell, PawnBoard,
    PawnEngine, Side,
};
use postfacto::random::Rng;
use varisat::dimacs::DimacsParser;

use crate::util::{postfacto, scratch, Cases};

/// Reads `pawns` output: per board a count, then that many `r c L|R` lines.
fn read_answers(text: &str) -> Vec<Vec<Capture>> {
    let mut lines = text.lines();
    let mut answers = Vec::new();
    while let Some(count) = lines.next() {
        let count: usize = count.parse().expect("a capture count");
        let captures = (0..count)
            .map(|_| {
                let words: Vec<&str> = lines.next().expect("a capture line").split(' ').collect();
                let (r, c): (usize, usize) = (words[0].parse().unwrap(), words[1].parse().unwrap());
                let side = match words[2] {
                    "L" => Side::Left,
                    "R" => Side::Right,
                    other => panic!("side {other}"),
                };
                Capture {
                    from: Cell {
                        row: r - 1,
                        col: c - 1,
                    },
                    side,
                }
            })
            .collect();
        answers.push(captures);
    }
    answers
}

const EXAMPLE: &str = include_str!("data/pawns.in");

#[test]
fn the_spec_example_prints_six_captures_that_replay_with_both_engines() {
    let board = &parse_pawn_boards(EXAMPLE).unwrap()[0];
    for engine in ["matching", "sat"] {
        let run = postfacto(&["pawns", "--engine", engine, "tests/data/pawns.in"], "");
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{engine}");
        let answers = read_answers(&run.stdout);
        assert_eq!(answers.len(), 1);
        assert_eq!(answers[0].len(), 6, "{engine}: {}", run.stdout);
        replay_captures(board, &answers[0]).expect("the printed captures replay");
    }
}

#[test]
fn several_boards_keep_their_order_and_empty_ones_need_nothing() {
    let input = "4\n0\n3\n...\n...\n...\n2\nO.\n.O\n3\n..O\n.O.\nO..\n";
    let run = postfacto(&["pawns", "-"], input);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "0\n0\n1\n2 2 L\n1\n2 2 R\n");
    assert_eq!(postfacto(&["pawns"], "0\n").stdout, "");
}

#[test]
fn bad_input_gives_one_line_naming_the_board_and_line_and_exit_2() {
    for (input, message) in [
        ("", "line 1: empty input"),
        ("two\n", "line 1: \"two\" is not a number of boards"),
        ("1\n-3\n", "line 2: board 1: \"-3\" is not a board size N"),
        ("1\nx\n", "line 2: board 1: \"x\" is not a board size N"),
        (
            "1\n2\nO.\nO..\n",
            "line 4: board 1: row 2 has 3 characters, expected 2",
        ),
        (
            "1\n2\nO.\no.\n",
            "line 4: board 1: row 2, column 1: 'o' is not 'O'",
        ),
        (
            "2\n2\nO.\n..\n",
            "line 4: the input ends after 1 boards, but its first line says 2",
        ),
        (
            "1\n2\nO.\n",
            "line 3: board 1: the board has 1 rows, expected 2",
        ),
        ("1\n1\n.\nextra\n", "line 4: text after the last board"),
        (
            "1\n2\nO\u{2028}\n..\n",
            "row 1, column 2: '\\u{2028}' is not 'O'",
        ),
    ] {
        let run = postfacto(&["pawns"], input);
        assert_eq!(run.code, 2, "{input:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{input:?}: {}", run.stderr);
        assert!(
            run.stderr.starts_with("postfacto: <stdin>: ") && run.stderr.contains(message),
            "{input:?}: {}",
            run.stderr
        );
        assert!(run.stdout.is_empty());
    }
    let bytes = postfacto(&["pawns", "tests/data/no-such-file"], "");
    assert_eq!(bytes.code, 2);
    let two = "2\n1\nO\n1\n.\n";
    for args in [
        &["pawns", "--cnf", "-"][..],
        &["pawns", "--board", "3", "-"],
        &["pawns", "--proof", "x.drat", "-"],
    ] {
        let run = postfacto(args, two);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}");
    }
}

#[test]
fn cnf_names_every_variable_and_group_and_parses_as_dimacs() {
    let run = postfacto(&["pawns", "--cnf", "tests/data/pawns.in"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run
        .stdout
        .contains("c var 13 = pawn 8 5 captures (leaves its square)"));
    assert!(run
        .stdout
        .contains("c pawn 1 5 attacks nobody, so it never captures\n-1 0\n"));
    let formula = DimacsParser::parse(run.stdout.as_bytes()).unwrap();
    assert_eq!((formula.var_count(), formula.len()), (13, 16));
    // With a bound: satisfiable at the optimum, not one below.
    for (k, satisfiable) in [(6, true), (5, false)] {
        let run = postfacto(
            &[
                "pawns",
                "--cnf",
                "--at-most",
                &k.to_string(),
                "tests/data/pawns.in",
            ],
            "",
        );
        let formula = DimacsParser::parse(run.stdout.as_bytes()).unwrap();
        let mut solver = varisat::Solver::new();
        solver.add_formula(&formula);
        assert_eq!(solver.solve().unwrap(), satisfiable, "at most {k}");
    }
}

#[test]
fn the_proof_refutes_one_capture_fewer_and_checks() {
    let proof = scratch("pawns-example.drat", "");
    let run = postfacto(
        &[
            "pawns",
            "--proof",
            proof.to_str().unwrap(),
            "tests/data/pawns.in",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("refutes `pawns --cnf --at-most 5`"),
        "{}",
        run.stderr
    );
    let cnf = postfacto(
        &["pawns", "--cnf", "--at-most", "5", "tests/data/pawns.in"],
        "",
    );
    let formula = DimacsParser::parse(cnf.stdout.as_bytes()).unwrap();
    let written = std::fs::read_to_string(&proof).unwrap();
    postfacto::sat::check_drat(&formula, &written).expect("the proof checks");
}

#[test]
fn generate_writes_boards_pawns_reads_back() {
    let run = postfacto(
        &["generate", "--pawns", "6", "--count", "3", "--seed", "4"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let boards = parse_pawn_boards(&run.stdout).unwrap();
    assert_eq!(boards.len(), 3);
    assert!(boards.iter().all(|b| b.size() == 6));
    let solved = postfacto(&["pawns", "-"], &run.stdout);
    let answers = read_answers(&solved.stdout);
    for (board, captures) in boards.iter().zip(&answers) {
        replay_captures(board, captures).unwrap();
        assert_eq!(Some(captures.len()), exhaustive::fewest_captures(board));
    }
    let too_big = postfacto(&["generate", "--pawns", "100000"], "");
    assert_eq!(too_big.code, 2);
}

/// A board from a size, a density and a seed.
fn random_board(size: usize, percent: u32, seed: u64) -> PawnBoard {
    PawnBoard::random(size, percent, &mut Rng::new(seed))
}

/// Small boards: both engines find the optimum exhaustive search finds,
/// and their answers replay (solve_pawns replays them too).
#[test]
fn engines_match_exhaustive_search_on_boards_up_to_5x5() {
    let cases = Cases::new(
        "pawns::engines_match_exhaustive_search_on_boards_up_to_5x5",
        400,
    );
    proptest!(cases.config(), |(size in 0usize..=5, percent in 20u32..=90, seed in any::<u64>())| {
        let clock = cases.start();
        let board = random_board(size, percent, seed);
        let best = exhaustive::fewest_captures(&board).expect("a small board");
        for engine in [PawnEngine::Matching, PawnEngine::Sat] {
            let s = clock.run(&board, || solve_pawns(&board, engine)).unwrap();
            prop_assert_eq!(s.captures.len(), best, "{:?} on\n{}", engine, board);
            prop_assert!(replay_captures(&board, &s.captures).is_ok());
        }
        cases.reached();
    });
    cases.check();
}

/// Larger boards: the engines agree with each other.
#[test]
fn engines_agree_on_larger_boards() {
    let cases = Cases::new("pawns::engines_agree_on_larger_boards", 100);
    proptest!(cases.config(), |(size in 6usize..=24, percent in 10u32..=95, seed in any::<u64>())| {
        let clock = cases.start();
        let board = random_board(size, percent, seed);
        let matching = clock.run(&board, || solve_pawns(&board, PawnEngine::Matching)).unwrap();
        let sat = clock.run(&board, || solve_pawns(&board, PawnEngine::Sat)).unwrap();
        prop_assert_eq!(matching.captures.len(), sat.captures.len(), "on\n{}", board);
        cases.reached();
    });
    cases.check();
}

#[test]
fn formulas_too_large_to_build_are_refused_and_proofs_honour_the_limit() {
    let board = postfacto(&["generate", "--pawns", "300", "--seed", "2"], "");
    let run = postfacto(&["pawns", "--cnf", "--at-most", "5000", "-"], &board.stdout);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("would have about"), "{}", run.stderr);
    // A dense 30 x 30 board solves at once, but refuting one capture fewer
    // with one totalizer takes varisat minutes: the limit stops the proof.
    let dense = postfacto(
        &[
            "generate",
            "--pawns",
            "30",
            "--density",
            "90",
            "--seed",
            "3",
        ],
        "",
    );
    let proof = scratch("pawns-limited.drat", "");
    let path = proof.to_str().unwrap();
    let run = postfacto(
        &["pawns", "--proof", path, "--limit", "1s", "-"],
        &dense.stdout,
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("before the proof was complete; no proof written"),
        "{}",
        run.stderr
    );
    let answers = read_answers(&run.stdout);
    let board = &parse_pawn_boards(&dense.stdout).unwrap()[0];
    replay_captures(board, &answers[0]).expect("the answer is printed, and replays");
}
