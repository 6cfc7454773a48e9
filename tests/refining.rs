//! `cnf | solver | decode` goes round the refinement loop: a model the
//! replayer rejects comes back with the clauses that rule it out, in
//! DIMACS, to add to the formula (issue 44, item 6).

use crate::util::{postfacto, scratch};

/// `formula` with `clauses` (DIMACS lines, `c` lines among them) added and
/// counted on its `p` line.
fn with_clauses(formula: &str, clauses: &str) -> String {
    let added = clauses
        .lines()
        .filter(|l| !l.starts_with('c') && !l.trim().is_empty())
        .count();
    let mut out = String::new();
    for line in formula.lines() {
        match line.strip_prefix("p cnf ") {
            Some(sizes) => {
                let (vars, count) = sizes.split_once(' ').unwrap();
                let count: usize = count.trim().parse().unwrap();
                out.push_str(&format!("p cnf {vars} {}\n", count + added));
            }
            None => out.push_str(&format!("{line}\n")),
        }
    }
    out + clauses
}

/// The true literals of a `v` model.
fn true_literals(model: &str) -> Vec<i64> {
    model
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .flat_map(str::split_whitespace)
        .map(|w| w.parse().unwrap())
        .filter(|&l| l != 0)
        .collect()
}

#[test]
fn decode_prints_the_clauses_that_rule_out_a_rejected_model_until_one_is_an_answer() {
    let input = scratch("refining.in", "W 6\n?\n?\n?\n?\n?\n?\n");
    let input = input.to_str().unwrap();
    let cnf = postfacto(&["cnf", input], "");
    assert_eq!(cnf.code, 0, "{}", cnf.stderr);
    let mut formula = cnf.stdout;
    let mut rejected = 0;
    for _ in 0..40 {
        let model = postfacto(&["sat", "-"], &formula);
        assert_eq!(model.code, 10, "{}", model.stderr);
        let decoded = postfacto(&["decode", input, "-"], &model.stdout);
        if decoded.code == 0 {
            let answer = scratch("refining.ans", &decoded.stdout);
            let judged = postfacto(&["verify", input, answer.to_str().unwrap()], "");
            assert_eq!(judged.stdout, "OK\n", "{}", judged.stderr);
            assert!(rejected > 0, "the first model was already an answer");
            return;
        }
        assert_eq!(decoded.code, 1, "{}", decoded.stderr);
        assert!(
            decoded.stderr.contains("the replayer rejects ply")
                && decoded.stderr.contains("on standard output; add"),
            "{}",
            decoded.stderr
        );
        // Every clause printed is false under the model it rules out.
        let truth = true_literals(&model.stdout);
        let clauses: Vec<&str> = decoded
            .stdout
            .lines()
            .filter(|l| !l.starts_with('c'))
            .collect();
        assert!(!clauses.is_empty(), "{}", decoded.stdout);
        for clause in clauses {
            let lits: Vec<i64> = clause
                .split_whitespace()
                .map(|w| w.parse().unwrap())
                .collect();
            assert_eq!(lits.last(), Some(&0), "{clause}");
            for &l in &lits[..lits.len() - 1] {
                assert!(truth.contains(&-l), "{clause}: {l} is not false");
            }
        }
        formula = with_clauses(&formula, &decoded.stdout);
        rejected += 1;
    }
    panic!("no answer after {rejected} rounds");
}

/// `decode --reach K` reads back a model of `reach --cnf K`'s formula
/// (issue 44 item 16): `position`'s game, or the clauses to add. Checks
/// the game printed: it replays from the opening (`verify --pdn`) and
/// ends on `position`.
fn decoded_game(decoded: &str, position: &str, plies: usize) {
    let mut lines = decoded.lines();
    let moves = lines.next().unwrap();
    assert_eq!(
        lines.next(),
        Some(format!("a game of exactly {plies} plies to {position}").as_str()),
        "{decoded}"
    );
    let game = scratch(
        "reach-decoded.pdn",
        &format!("[Event \"decoded\"]\n{moves} *\n"),
    );
    let judged = postfacto(&["verify", "--pdn", game.to_str().unwrap()], "");
    assert_eq!(judged.code, 0, "{}{}", judged.stdout, judged.stderr);
    assert_eq!(
        moves
            .split_whitespace()
            .filter(|w| !w.ends_with('.'))
            .count(),
        plies
    );
}

#[test]
fn decode_reads_a_model_of_the_reach_formula_back_into_its_game() {
    let position = "W:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,15";
    let file = scratch("reach3.fen", &format!("{position}\n"));
    let file = file.to_str().unwrap();
    let cnf = postfacto(&["reach", "--cnf", "3", file], "");
    assert_eq!(cnf.code, 0, "{}", cnf.stderr);
    let model = postfacto(&["sat", "-"], &cnf.stdout);
    assert_eq!(model.code, 10, "{}", model.stderr);
    let decoded = postfacto(&["decode", "--reach", "3", file, "-"], &model.stdout);
    assert_eq!(decoded.code, 0, "{}", decoded.stderr);
    decoded_game(&decoded.stdout, position, 3);
    // A model of another formula, of the wrong parity, of none.
    let other = postfacto(&["decode", "--reach", "5", file, "-"], &model.stdout);
    assert_eq!(other.code, 1, "{}", other.stderr);
    assert!(
        other.stderr.contains("not a model of the formula"),
        "{}",
        other.stderr
    );
    let parity = postfacto(&["decode", "--reach", "4", file, "-"], &model.stdout);
    assert_eq!(parity.code, 2, "{}", parity.stderr);
    assert!(
        parity.stderr.contains("reach3.fen: a game of 4 plies"),
        "{}",
        parity.stderr
    );
    let none = postfacto(&["decode", "--reach", "3", file, "-"], "s UNSATISFIABLE\n");
    assert_eq!(none.code, 1, "{}", none.stderr);
}

#[test]
fn decode_goes_round_the_loop_of_the_unrefined_reach_formula() {
    // The end of a random 10-ply game from the opening.
    let position = "B:W15,21,23,24,25,26,27,28,29,30,32:B1,2,3,4,5,6,8,9,14,16";
    let file = scratch("reach10.fen", &format!("{position}\n"));
    let file = file.to_str().unwrap();
    let cnf = postfacto(&["reach", "--cnf", "10", "--unrefined", file], "");
    assert_eq!(cnf.code, 0, "{}", cnf.stderr);
    let mut formula = cnf.stdout;
    let args = ["decode", "--reach", "10", "--unrefined", file, "-"];
    for rejected in 0..40 {
        let model = postfacto(&["sat", "-"], &formula);
        assert_eq!(model.code, 10, "{}", model.stderr);
        let decoded = postfacto(&args, &model.stdout);
        if decoded.code == 0 {
            decoded_game(&decoded.stdout, position, 10);
            assert!(rejected > 0, "the first model was already a game");
            return;
        }
        assert_eq!(decoded.code, 1, "{}", decoded.stderr);
        assert!(
            decoded.stderr.contains("the replayer rejects ply"),
            "{}",
            decoded.stderr
        );
        let truth = true_literals(&model.stdout);
        for clause in decoded.stdout.lines().filter(|l| !l.starts_with('c')) {
            let lits: Vec<i64> = clause
                .split_whitespace()
                .map(|w| w.parse().unwrap())
                .collect();
            assert!(
                lits[..lits.len() - 1].iter().all(|l| truth.contains(&-l)),
                "{clause}"
            );
        }
        formula = with_clauses(&formula, &decoded.stdout);
    }
    panic!("no game after 40 rounds");
}
