//! A step between squares on no common diagonal is a step miswritten,
//! not a capture written with the wrong separator (issue 44, item 9).

use crate::util::{postfacto, scratch};

/// International: White's second move `37-33` was `37-32` (33 is on no
/// diagonal of 37, so no capture joins them either).
const NOT_ON_ONE_DIAGONAL: &str = "[GameType \"20\"]\n1. 32-28 16-21 2. 37-33 21-26 *\n";

#[test]
fn a_non_neighbour_step_is_named_as_written_and_repaired_as_a_square() {
    let file = scratch("not-on-one-diagonal.pdn", NOT_ON_ONE_DIAGONAL);
    let file = file.to_str().unwrap();
    let run = postfacto(&["verify", "--pdn", file, "--repair"], "");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("game 1 (line 1): 2. 37-33 (ply 3): 37 and 33 are not on one diagonal;"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(": 2. 37-33 read as 37-32 (square)"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("37x33"), "{}", run.stdout);
    let json = postfacto(&["solve", "--repair", "--format", "json", file], "");
    assert_eq!(json.code, 0, "{}", json.stderr);
    let object: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert_eq!(
        object["repairs"],
        serde_json::json!([{"ply": 3, "kind": "square", "written": "37-33", "read": "37-32"}])
    );
}

#[test]
fn a_step_written_for_a_capture_on_one_diagonal_is_still_read_as_the_capture() {
    // `15-24` is the English capture 15x24 over 19, read leniently.
    let pdn = "[GameType \"21\"]\n1. 11-15 24-19 2. 15-24 *\n";
    let run = postfacto(&["verify", "--pdn", "-"], pdn);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("'15-24' as 15x24"), "{}", run.stdout);
}
