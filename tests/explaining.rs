//! `--explain` in board terms and in the game's numbering (issue 44,
//! items 13 and 27).

use crate::util::{postfacto, scratch};

/// Ply 7 moves from 17, which after the unknown ply 5 holds no black piece.
const AFTER_A_DAMAGED_PLY: &str = "B 8\n8x15\n13-17\n31-27\n12-8\n?\n14x5\n17-22\n?\n";

#[test]
fn a_rule_after_a_damaged_ply_is_said_on_the_board_that_ply_left() {
    let run = postfacto(&["solve", "--explain"], AFTER_A_DAMAGED_PLY);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let want = "needs a black piece on 17 on the board as ply 5 (?) left it";
    assert!(run.stdout.contains(want), "{}", run.stdout);
    assert!(run.stderr.contains(want), "{}", run.stderr);
    assert!(!run.stdout.contains("written squares"), "{}", run.stdout);
}

#[test]
fn a_pdn_fragment_names_that_board_by_the_game_s_move_numbers() {
    let pdn = "[GameType \"21\"]\n1. 8x15 13-17 2. 31-27 12-8 3. ? 14x5 4. 17-22 ? *\n";
    let run = postfacto(&["solve", "--fragment", "--explain", "-"], pdn);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let want = "4. 17-22 (ply 7, Black) needs a black piece on 17 on the board as 3... 14x5 (ply 6) left it";
    assert!(run.stderr.contains(want), "{}", run.stderr);
    assert!(!run.stdout.contains("written squares"), "{}", run.stdout);
}

#[test]
fn a_game_from_the_opening_lists_each_square_once_and_numbers_its_unknowns() {
    let pdn = "[GameType \"21\"]\n1. 11-15 -- 2. 8-11 22-18 *\n";
    let run = postfacto(&["solve", "--explain", "-"], pdn);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("1... ? (ply 2): not forced: 23-19 here, 24-20 in another answer"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("ply 2 (?)"), "{}", run.stdout);
    let squares: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains("forced by the start board"))
        .collect();
    assert_eq!(squares.len(), 32, "{}", run.stdout);
    for line in squares {
        assert_eq!(line.matches("forced by").count(), 1, "{line}");
    }
    assert!(
        run.stdout
            .contains(" 1  black man   piece, black and man: forced by the start board"),
        "{}",
        run.stdout
    );
}

#[test]
fn an_explained_batch_is_judged_by_verify() {
    let sample = crate::util::path("tests/data/sample1.in");
    let impossible = crate::util::scratch("explained-impossible.in", "W 2\n9-14\n9-14\n");
    let (sample, impossible) = (sample.to_str().unwrap(), impossible.to_str().unwrap());
    let solved = postfacto(&["solve", "--explain", impossible, sample], "");
    assert_eq!(solved.code, 1, "{}", solved.stderr);
    assert!(
        solved.stdout.contains("square by square"),
        "{}",
        solved.stdout
    );
    let answers = crate::util::scratch("explained.ans", &solved.stdout);
    let judged = postfacto(&["verify", sample, answers.to_str().unwrap()], "");
    assert_eq!(
        (judged.code, judged.stdout.trim()),
        (0, "OK"),
        "{}",
        judged.stderr
    );
    let judged = postfacto(&["verify", impossible, answers.to_str().unwrap()], "");
    assert_eq!(judged.code, 1, "{}", judged.stderr);
    assert!(
        judged.stdout.contains("no answer was given"),
        "{}",
        judged.stdout
    );
}

/// An end-board fact the plies contradict is named as the fact that is
/// false, not as a ply that cannot be played (the plies can).
#[test]
fn cnf_names_an_end_fact_that_cannot_hold_as_the_fact() {
    let input = scratch("end-fact.in", "W 2\n23-19\n16x23\n");
    let cnf = postfacto(
        &["cnf", input.to_str().unwrap(), "--end-board", "B:W19:B23"],
        "",
    );
    assert_eq!(cnf.code, 0, "{}", cnf.stderr);
    assert!(
        cnf.stdout.contains(
            "c end board square 19 holds a white man: false whatever the start board \
             (square 19 was emptied by ply 2); the formula ends with the empty clause"
        ),
        "{}",
        cnf.stdout
    );
    assert!(!cnf.stdout.contains("cannot be played"), "{}", cnf.stdout);
}
