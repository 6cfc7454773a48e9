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
