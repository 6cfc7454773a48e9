//! Hand-made records whose answers are known in part, solved by the binary and judged by `verify`.

use crate::util::{postfacto, solve_and_verify, square_of};

#[test]
fn samples_solve_and_verify() {
    for name in ["sample1", "sample2"] {
        let input =
            std::fs::read_to_string(crate::util::path(&format!("tests/data/{name}.in"))).unwrap();
        solve_and_verify(name, &input);
    }
}

#[test]
fn the_specs_own_answers_are_accepted() {
    for name in ["sample1", "sample2"] {
        let run = postfacto(
            &[
                "verify",
                &format!("tests/data/{name}.in"),
                &format!("tests/data/{name}.ans"),
            ],
            "",
        );
        assert_eq!((run.code, run.stdout.as_str()), (0, "OK\n"), "{name}");
    }
}

#[test]
fn king_loop_lands_on_its_own_start_square() {
    let answer = solve_and_verify("king_loop", "B 1\n2x11x18x9x2\n");
    assert_eq!(square_of(&answer, 0, 2), 'B');
    for jumped in [7, 15, 14, 6] {
        assert_eq!(square_of(&answer, 0, jumped), 'w', "{answer}");
        assert_eq!(square_of(&answer, 1, jumped), '.', "{answer}");
    }
    assert_eq!(square_of(&answer, 1, 2), 'B');
}

#[test]
fn jumping_on_past_the_crowning_row_proves_a_king() {
    let answer = solve_and_verify("king_by_record", "B 1\n22x31x24\n");
    assert_eq!(square_of(&answer, 0, 22), 'B', "{answer}");
}

#[test]
fn crowning_ends_the_chain_so_the_piece_was_a_man() {
    // Ply 6's piece lands on 31 with a white piece on 27 (moved there by ply 3)
    // and 24 empty (left by ply 1): a king would have to go on over 27, so it is
    // a man, crowned on 31. The jumped piece arrives on 26 only at ply 5, so
    // Black had no capture before.
    let answer = solve_and_verify(
        "crowning_ends",
        "W 6\n24-20\n1-5\n32-27\n5-9\n30-26\n22x31\n",
    );
    assert_eq!(square_of(&answer, 0, 22), 'b', "{answer}");
    assert_eq!(square_of(&answer, 1, 31), 'B', "{answer}");
    assert_eq!(square_of(&answer, 1, 27), 'w', "{answer}");
}

#[test]
fn a_blocker_stops_a_forced_capture() {
    // After 10-15, White's man on 18 could jump 15 to 11 unless 11 is occupied.
    let answer = solve_and_verify("blocker", "W 3\n22-18\n10-15\n30-26\n");
    assert_ne!(square_of(&answer, 0, 11), '.', "{answer}");
}

#[test]
fn impossible_records_exit_1_with_a_reason() {
    let cases = [
        // 18 could jump 15 to 11, which ply 2 emptied.
        (
            "W 3\n22-18\n11-15\n18-14\n",
            "ply 3 (18-14): the move is not a capture, but 18x11 is available",
        ),
        // Moves from a square an earlier move emptied.
        (
            "W 2\n21-17\n21-17\n",
            "ply 2 (21-17): it is Black's move, but square 21 was emptied by ply 1",
        ),
        // Black moves the piece White just moved.
        (
            "W 2\n21-17\n17-13\n",
            "square 17 holds the white piece that ply 1 moved there",
        ),
        // Lands on a square a piece was just moved to.
        (
            "W 2\n22-18\n14-18\n",
            "ply 2 (14-18): square 18 holds the white piece",
        ),
        // Jumps a square that the same capture already emptied: 14x23x14 goes back over 18.
        ("B 1\n14x23x14\n", "square 18 was emptied by ply 1"),
    ];
    for (input, want) in cases {
        let run = postfacto(&["solve"], input);
        assert_eq!(run.code, 1, "{input}");
        assert!(run.stdout.is_empty(), "{input}");
        assert!(
            run.stderr
                .contains("no start position makes these moves legal"),
            "{input}: {}",
            run.stderr
        );
        // "ply N (move): reason" reads "ply N (move, Side): rule: reason" in full.
        let (place, reason) = match want.split_once("): ") {
            Some((place, reason)) => (format!("{place}, "), reason),
            None => (String::new(), want),
        };
        assert!(run.stderr.contains(&place), "{input}: {}", run.stderr);
        assert!(run.stderr.contains(reason), "{input}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
}

#[test]
fn impossibility_proved_by_the_solver() {
    // Ply 2 is a simple move, so White must have had no capture; but ply 4 shows a
    // white piece on 12 and a black one on 8 with 3 empty (12x3 lands there), so
    // 12x3 was available at ply 2 already. The encoder writes ply 2's clause
    // before it learns ply 4's facts, so here it is the solver that refutes it.
    let run = postfacto(&["solve"], "B 4\n14-17\n24-28\n23x14\n12x3\n");
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr
            .contains("no start position makes these moves legal"),
        "{}",
        run.stderr
    );
}

/// A capture available whatever the start board is said once, not under
/// the rule's name, which would deny it ("no capture is available: ...
/// but 18x11 is available").
#[test]
fn an_available_capture_is_not_said_to_be_unavailable() {
    let run = postfacto(&["solve"], "W 3\n22-18\n11-15\n18-14\n");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "ply 3 (18-14, White): the move is not a capture, but 18x11 is available whatever the start board"
        ),
        "{}",
        run.stderr
    );
    assert!(
        !run.stderr.contains("no capture is available"),
        "{}",
        run.stderr
    );
}
