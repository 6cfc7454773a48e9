//! What files write that was read wrong before, read through the binary:
//! each test names the written form and the plies it must give.

use serde_json::Value;

use crate::util::{postfacto, scratch};

/// The JSON lines a run printed, parsed.
fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect(line))
        .collect()
}

/// `1. ? ? 2. ? 28-24`: the second `?` follows a lone `?`, not a written
/// move, so it is the second player's unknown move, not a strength mark.
#[test]
fn a_lone_question_mark_after_another_is_an_unknown_move() {
    let file = scratch(
        "lone-question-marks.pdn",
        "[Event \"t\"]\n1. ? ? 2. ? 28-24 3. 9-13 22-18 *\n",
    );
    let file = file.to_str().unwrap();
    let solved = postfacto(&["solve", file, "--format", "json"], "");
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    let answer = &json_lines(&solved.stdout)[0];
    assert_eq!(answer["status"], "solved", "{answer}");
    assert_eq!(
        answer["record"],
        serde_json::json!(["?", "?", "?", "28-24", "9-13", "22-18"])
    );
    assert_eq!(answer["moves"].as_array().map(Vec::len), Some(6));
    // Six plies with White's 28-24 the fourth: Black moves first (English),
    // not the five plies that Italian replays with White first.
    let verified = postfacto(&["verify", "--pdn", file, "--format", "json"], "");
    assert_eq!(verified.code, 0, "{}", verified.stderr);
    let game = &json_lines(&verified.stdout)[0];
    assert_eq!(
        (&game["status"], &game["rules"]),
        (&"ok".into(), &"english".into())
    );
}
