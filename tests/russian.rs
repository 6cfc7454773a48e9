//! Russian rules through the binary: `moves`, `solve`, `verify`, `cnf`.

use crate::util::{postfacto, scratch, solve_with_proof, verify_files};

/// A board for `moves`: rank 8 first, `.` for empty and light squares.
fn board(rows: [&str; 8]) -> String {
    rows.join("\n") + "\n"
}

fn moves(rules: &str, turn: &str, board: &str) -> Vec<String> {
    let run = postfacto(&["moves", "--rules", rules, "--turn", turn], board);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout.lines().map(str::to_string).collect()
}

#[test]
fn moves_lists_the_hand_worked_positions_exactly() {
    let cases: [(&str, [&str; 8], &[&str]); 5] = [
        // A man captures backwards.
        (
            "white",
            [
                "........", "........", "........", "........", "...w....", "..b.....", "........",
                "........",
            ],
            &["d4:b2"],
        ),
        // Crowned on d8 mid-capture, it flies on over f6 as a king.
        (
            "white",
            [
                "........", "..b.....", ".w...b..", "........", "........", "........", "........",
                "........",
            ],
            &["b6:d8:g5", "b6:d8:h4"],
        ),
        // The king must land on e5, the only landing from which it goes on.
        (
            "white",
            [
                "........", "........", "...b....", "........", ".....b..", "..b.....", "........",
                "W.......",
            ],
            &["a1:e5:b8", "a1:e5:c7", "a1:e5:g3", "a1:e5:h2"],
        ),
        // The captured e5 still blocks the way back to b2: one piece per move.
        (
            "white",
            [
                "........", "........", "........", "....b...", "...W....", "........", ".b......",
                "........",
            ],
            &["d4:a1", "d4:f6", "d4:g7", "d4:h8"],
        ),
        // No legal move: the output is empty.
        (
            "black",
            [
                "........", "........", "........", "........", "........", "........", ".......b",
                "......w.",
            ],
            &[],
        ),
    ];
    for (turn, rows, want) in cases {
        assert_eq!(moves("russian", turn, &board(rows)), want, "{rows:?}");
    }
}

#[test]
fn moves_prints_each_move_once_sorted_as_strings_and_english_in_numbers() {
    // Two black pieces on the same line: a king taking either of two... here a
    // white king on a1 can take c3 and land on d4..h8 (several moves).
    let open = board([
        "........", "........", "........", "........", "........", "..b.....", "........",
        "W.......",
    ]);
    let got = moves("russian", "WHITE", &open);
    let mut sorted = got.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(got, sorted);
    assert_eq!(got, ["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"]);
    // The same board under English rules: kings step one square, numbers.
    assert_eq!(moves("english", "white", &open), ["29-25"]);
}

#[test]
fn moves_rejects_bad_boards_with_exit_2() {
    let cases = [
        (
            board([
                "w.......", "........", "........", "........", "........", "........", "........",
                "........",
            ]),
            "light square",
        ),
        (
            board([
                ".w......", "........", "........", "........", "........", "........", "........",
                "........",
            ]),
            "crowning row",
        ),
        ("........\n".to_string(), "a board has 8 lines"),
        (
            board([
                "........", "........", "........", "........", "...x....", "........", "........",
                "........",
            ]),
            "expected one of",
        ),
    ];
    for (text, want) in cases {
        let run = postfacto(&["moves", "--rules", "russian", "--turn", "white"], &text);
        assert_eq!(run.code, 2, "{text}");
        assert!(run.stderr.contains(want), "{}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1);
    }
}

#[test]
fn russian_records_solve_and_verify_in_both_notations() {
    for (name, text) in [
        ("ru-algebraic", "W 3\na1:e5:b8\nh6-g5\nb8:h2\n"),
        // The same record with ICPC numbers.
        ("ru-numbers", "W 3\n29x15x1\n12-16\n1x28\n"),
    ] {
        let input = scratch(&format!("{name}.in"), text);
        let run = postfacto(
            &["solve", "--rules", "russian", input.to_str().unwrap()],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let answer = scratch(&format!("{name}.ans"), &run.stdout);
        let verdict = postfacto(
            &[
                "verify",
                "--rules",
                "russian",
                input.to_str().unwrap(),
                answer.to_str().unwrap(),
            ],
            "",
        );
        assert_eq!(verdict.stdout, "OK\n");
        // Without --rules, algebraic squares are not read as English: the
        // rule sets that write them are tried, Russian first.
        let unnamed = verify_files(&input, &answer);
        if name == "ru-algebraic" {
            assert_eq!(unnamed.stdout, "OK\n", "{}", unnamed.stderr);
        } else {
            assert_eq!(unnamed.code, 2, "{}", unnamed.stdout);
        }
        // English rules, named, reject the flying capture at once.
        let english = postfacto(
            &[
                "verify",
                "--rules",
                "english",
                input.to_str().unwrap(),
                answer.to_str().unwrap(),
            ],
            "",
        );
        assert_eq!(english.code, 2, "{}", english.stdout);
    }
}

#[test]
fn impossible_russian_records_are_explained_and_the_dfs_refuses_russian() {
    let run = postfacto(&["solve", "--rules", "russian"], "W 2\na1:e5:b8\nb8-a7\n");
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("ply 2 (b8-a7, Black)"),
        "{}",
        run.stderr
    );
    // Squares are named as Russian players name them, in messages too.
    assert!(
        run.stderr
            .contains("square b8 holds the white piece that ply 1 moved there"),
        "{}",
        run.stderr
    );
    let dfs = postfacto(
        &["solve", "--rules", "russian", "--engine", "dfs"],
        "W 1\nc3-d4\n",
    );
    assert_eq!(dfs.code, 2);
    assert!(dfs.stderr.contains("--engine dfs knows English rules only"));
}

#[test]
fn russian_cnf_names_the_rules_and_agrees_with_solve() {
    let run = postfacto(&["cnf", "--rules", "russian", "tests/data/russian2.in"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("c postfacto cnf: Russian draughts"));
    assert!(run.stdout.contains("exactly one piece stands between"));
    assert!(crate::golden::dimacs_satisfiable(&run.stdout));
}

#[test]
fn the_analysis_options_work_under_russian_rules() {
    let minimum = postfacto(
        &[
            "solve",
            "--rules",
            "russian",
            "--minimize",
            "pieces",
            "tests/data/russian1.in",
        ],
        "",
    );
    assert_eq!(minimum.code, 0, "{}", minimum.stderr);
    assert!(
        minimum
            .stderr
            .contains("fewest pieces: 3 with 0 kings; no start board has 2"),
        "{}",
        minimum.stderr
    );
    let count = postfacto(
        &[
            "solve",
            "--rules",
            "russian",
            "--count",
            "tests/data/russian2.in",
        ],
        "",
    );
    assert!(
        count.stdout.contains(
            "192 start boards, told apart by squares b8 c7 d6 h6 e5 g5 d4 f4 c3 g3 b2 h2 a1"
        ),
        "{}",
        count.stdout
    );
    let (run, _, lemmas) =
        solve_with_proof("ru-impossible.in", "russian", "W 2\na1:e5:b8\nb8-a7\n");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(lemmas.is_some(), "the Russian proof was written and checks");
}

/// A flying king's capture `h8:a1`: the piece taken may stand on any of
/// g7..b2, as a man or a king, so 12 start boards differ on the squares
/// the move passes, and `--all` lists each (issue 35).
#[test]
fn counts_tell_apart_where_a_flying_capture_took_its_piece() {
    let input = "W 1\nh8:a1\n";
    let count = postfacto(&["solve", "--rules", "russian", "--count"], input);
    assert_eq!(count.code, 0, "{}", count.stderr);
    assert!(
        count
            .stdout
            .contains("12 start boards, told apart by squares h8 g7 f6 e5 d4 c3 b2 a1"),
        "{}",
        count.stdout
    );
    let all = postfacto(&["solve", "--rules", "russian", "--all"], input);
    assert_eq!(all.code, 0, "{}", all.stderr);
    let boards = all
        .stdout
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .count();
    assert_eq!(boards, 12, "{}", all.stdout);
}
