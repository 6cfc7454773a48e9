//! `solve`'s analysis options: explanations, proofs, minima, counts.

use crate::util::{postfacto, scratch, solve_with_proof, verify_files};

/// Impossible only because a later ply contradicts an earlier one.
const LATE_CONFLICT: &str = "B 4\n14-17\n24-28\n23x14\n12x3\n";

#[test]
fn impossible_records_get_a_one_line_reason_naming_the_plies() {
    let run = postfacto(&["solve"], LATE_CONFLICT);
    assert_eq!(run.code, 1);
    assert!(run.stdout.is_empty());
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    for part in [
        "plies 2 and 4 conflict over squares 3, 8, 12",
        "ply 2 (24-28, White) makes a simple move, so 12x3 over 8 must not be open",
        "ply 4 (12x3, White) needs a white piece on 12, a black piece on 8 and 3 empty",
    ] {
        assert!(
            run.stderr.contains(part),
            "missing {part:?} in {}",
            run.stderr
        );
    }
    // The DFS engine's verdict gets the same explanation.
    let dfs = postfacto(&["solve", "--engine", "dfs"], LATE_CONFLICT);
    assert_eq!((dfs.code, dfs.stderr), (1, run.stderr));
}

#[test]
fn explain_lists_the_minimal_conflict_in_detail() {
    let run = postfacto(&["solve", "--explain"], "W 2\n21-17\n21-17\n");
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains("this rule cannot hold")
            && run
                .stdout
                .contains("ply 2 (21-17, Black): square 21 holds a piece of the side to move")
            && run
                .stdout
                .contains("it is Black's move, but square 21 was emptied by ply 1"),
        "{}",
        run.stdout
    );
}

#[test]
fn explain_on_a_solvable_record_says_what_is_forced_and_by_which_ply() {
    let run = postfacto(&["solve", "--explain", "tests/data/sample1.in"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let line = |n: &str| {
        run.stdout
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{n} ")))
            .unwrap_or_else(|| panic!("no line for square {n} in {}", run.stdout))
            .to_string()
    };
    assert!(line("13").contains("black king") && line("13").contains("king: forced by ply 2"));
    assert!(line("21").contains("piece: forced by ply 1") && line("21").contains("man: free"));
    assert!(line("17").contains("empty: forced by ply 1"));
    assert!(run
        .stdout
        .contains("another answer may put a piece on: 1 2 3"));
}

#[test]
fn proofs_of_impossibility_check_against_the_cnf_formula() {
    let (run, proof, lemmas) = solve_with_proof("late-conflict.in", "english", LATE_CONFLICT);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(lemmas.expect("the proof was written") >= 1);
    // A solvable record gets no proof, and says so.
    let _ = std::fs::remove_file(&proof);
    let solvable = postfacto(
        &[
            "solve",
            "tests/data/sample1.in",
            "--proof",
            proof.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(solvable.code, 0);
    assert!(solvable
        .stderr
        .contains("no proof written: the record is solvable"));
    assert!(!proof.exists());
}

#[test]
fn minimize_pieces_returns_the_proven_minimum_of_each_sample() {
    for (file, pieces, kings) in [("sample1", 6, 2), ("sample2", 8, 1)] {
        let input = format!("tests/data/{file}.in");
        let run = postfacto(&["solve", "--minimize", "pieces", &input], "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(
            run.stderr.contains(&format!(
                "fewest pieces: {pieces} with {}; no start board has {}",
                postfacto::notation::plural(kings, "king"),
                pieces - 1
            )),
            "{}",
            run.stderr
        );
        let answer = scratch(&format!("{file}-min.ans"), &run.stdout);
        let verdict = verify_files(std::path::Path::new(&input), &answer);
        assert_eq!(verdict.code, 0, "{}", verdict.stdout);
        let start_pieces = run
            .stdout
            .lines()
            .map(|l| l.split(' ').next().unwrap())
            .flat_map(str::chars)
            .filter(|c| "bwBW".contains(*c))
            .count();
        assert_eq!(start_pieces, pieces);
    }
}

#[test]
fn max_per_side_caps_each_colour() {
    let tight = postfacto(
        &["solve", "--max-per-side", "1", "tests/data/sample1.in"],
        "",
    );
    assert_eq!(tight.code, 1, "{}", tight.stderr);
    assert!(
        tight.stderr.contains("at most 1 pieces per side"),
        "{}",
        tight.stderr
    );
    let loose = postfacto(
        &["solve", "--max-per-side", "12", "tests/data/sample1.in"],
        "",
    );
    assert_eq!(loose.code, 0, "{}", loose.stderr);
}

#[test]
fn count_all_and_unique_agree() {
    let count = postfacto(&["solve", "--count", "tests/data/sample1.in"], "");
    assert_eq!(count.code, 0, "{}", count.stderr);
    assert!(
        count
            .stdout
            .contains("8 start boards, told apart by squares 13 17 19 21 22 24 26 27 28 31"),
        "{}",
        count.stdout
    );
    let all = postfacto(&["solve", "--all", "tests/data/sample1.in"], "");
    assert_eq!(all.code, 0, "{}", all.stderr);
    assert_eq!(
        all.stdout.lines().filter(|l| l.is_empty()).count(),
        7,
        "8 answers"
    );
    let capped = postfacto(
        &[
            "solve",
            "--count",
            "--count-limit",
            "3",
            "tests/data/sample1.in",
        ],
        "",
    );
    assert!(
        capped.stdout.contains("more than 3 start boards"),
        "{}",
        capped.stdout
    );
    let not_unique = postfacto(&["solve", "--unique", "tests/data/sample1.in"], "");
    assert!(not_unique
        .stdout
        .contains("not unique: answers differ on square 26"));
    // Moving up, the black piece must be a king, and 10 must be empty.
    let unique = postfacto(&["solve", "--unique"], "B 1\n14-10\n");
    assert!(
        unique
            .stdout
            .contains("unique: every answer puts the same pieces on squares 10 14"),
        "{}",
        unique.stdout
    );
}

#[test]
fn analysis_options_need_the_sat_engine_and_one_record_for_proofs() {
    let dfs = postfacto(
        &[
            "solve",
            "--engine",
            "dfs",
            "--count",
            "tests/data/sample1.in",
        ],
        "",
    );
    assert_eq!(dfs.code, 2);
    assert!(dfs.stderr.contains("need the SAT engine"));
    let two = scratch("two.in", "B 1\n9-13\nW 1\n22-18\n");
    let proof = postfacto(
        &["solve", two.to_str().unwrap(), "--proof", "/tmp/x.drat"],
        "",
    );
    assert_eq!(proof.code, 2);
    assert!(proof
        .stderr
        .contains("--proof needs an input with exactly one record"));
}

/// A most-pieces rule refinement learns is explained like a written one:
/// the ply's rule is in the conflict, with the one capture it rules out
/// (not every longer capture the open board allows).
#[test]
fn a_learned_most_pieces_rule_is_named_with_the_capture_it_rules_out() {
    // White man on 32, black men on 27, 17 and 28: 32x21x12 takes two,
    // so 32x23 (one) is not allowed. Square 50 is unknown: with the whole
    // start known, the replayer's verdict would be the reason.
    let mut board = String::new();
    for row in 0..10 {
        for col in 0..10 {
            let number = row * 5 + col / 2 + 1;
            board.push(match ((row + col) % 2, number) {
                (0, _) => '-',
                (_, 32) => 'w',
                (_, 17 | 27 | 28) => 'b',
                (_, 50) => '?',
                _ => '.',
            });
        }
        board.push('\n');
    }
    let start = scratch("most-pieces.board", &board);
    let run = postfacto(
        &[
            "solve",
            "--rules",
            "international",
            "--explain",
            "--start-board",
            start.to_str().unwrap(),
        ],
        "W 1\n32x23\n",
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    for part in [
        "ply 1 (32x23, White): no capture takes more than the 1 pieces this one takes",
        "rules out 12 empty, a black piece on 17, 21 empty, a black piece on 27 and a white piece on 32 together",
        "they disagree over squares 12, 17, 21, 27, 32",
    ] {
        assert!(run.stdout.contains(part), "missing {part:?} in {}", run.stdout);
    }
}

/// `--explain`'s conflict names the groups of `postfacto cnf`'s formula
/// it is made of, by the very `c` lines `cnf` writes.
#[test]
fn the_core_is_named_by_the_cnf_labels_of_its_groups() {
    for (rules, record) in [
        ("english", "W 4\n24-28\n9-14\n12x3\n4-8\n"),
        ("english", "W 2\n21-17\n21-17\n"),
        ("english", "B 4\n11-15\n?\n15x?\n15-19\n"),
        ("russian", "W 2\nc3-d4\nc3-b4\n"),
        ("international", "W 2\n32-28\n32-27\n"),
    ] {
        let explained = postfacto(
            &["solve", "--rules", rules, "--explain", "--format", "json"],
            record,
        );
        assert_eq!(explained.code, 1, "{record}: {}", explained.stderr);
        let object: serde_json::Value = serde_json::from_str(explained.stdout.trim()).unwrap();
        let labels = object["core_cnf"].as_array().expect("core_cnf");
        assert!(!labels.is_empty(), "{record}");
        let cnf = postfacto(&["cnf", "--rules", rules], record).stdout;
        let lines: Vec<&str> = cnf.lines().collect();
        for label in labels {
            let line = format!("c {}", label.as_str().unwrap());
            assert!(
                lines.contains(&line.as_str()),
                "{record}: {line} not in\n{cnf}"
            );
        }
        let text = postfacto(&["solve", "--rules", rules, "--explain"], record).stdout;
        assert!(
            text.contains("the groups of `postfacto cnf`'s formula they are:"),
            "{text}"
        );
    }
}
