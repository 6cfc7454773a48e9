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

/// A real tournament file with every line ending in the two characters
/// `\r` (as some exports write them): read whole, each game as the clean
/// file reads it, with one note per game, not one per line.
#[test]
fn a_written_out_cr_on_every_line_is_read_whole_with_one_note_per_game() {
    let clean = std::fs::read_to_string(crate::util::path("../shared/pdn/wk2003.pdn")).unwrap();
    let marked: String = clean.lines().map(|line| format!("{line}\\r\n")).collect();
    let file = scratch("written-cr.pdn", &marked);
    let clean_run = postfacto(&["verify", "--pdn", "../shared/pdn/wk2003.pdn"], "");
    let marked_run = postfacto(&["verify", "--pdn", file.to_str().unwrap()], "");
    assert_eq!(
        (clean_run.code, marked_run.code),
        (0, 0),
        "{}",
        marked_run.stdout
    );
    let lines: Vec<&str> = marked_run.stdout.lines().collect();
    assert_eq!(lines.len(), clean_run.stdout.lines().count());
    assert!(lines.len() > 20);
    for (clean_line, line) in clean_run.stdout.lines().zip(&lines) {
        let (verdict, notes) = line.split_once("; read leniently: ").expect(line);
        assert_eq!(verdict, clean_line);
        assert!(notes.contains("stray text '\\r', and "), "{line}");
        assert_eq!(notes.matches("stray text").count(), 1, "{line}");
    }
    let json = postfacto(
        &[
            "verify",
            "--pdn",
            file.to_str().unwrap(),
            "--format",
            "json",
        ],
        "",
    );
    for line in json.stdout.lines() {
        let game: Value = serde_json::from_str(line).expect(line);
        assert_eq!(game["notes"].as_array().map(Vec::len), Some(1), "{line}");
    }
}

/// A PDN fragment numbered from move 11 without `[FEN]` is read from the
/// opening, as PDN says; when that fails, the error leads with the
/// numbering, then says how to read it as a fragment, which solves it.
#[test]
fn a_game_numbered_from_move_11_without_fen_says_so_first() {
    let game = "[GameType \"21\"]\n11. 9-14 22-18 12. 14-9 24-19 *\n";
    let opening = postfacto(&["solve", "-"], game);
    assert_eq!(opening.code, 1, "{}", opening.stderr);
    let first = opening.stderr.lines().next().unwrap_or_default();
    assert!(
        first.contains(
            ": its numbering starts at move 11, yet it has no [FEN], so it was read from \
             the opening; --fragment reads it as a fragment whose start is unknown"
        ),
        "{}",
        opening.stderr
    );
    let fragment = postfacto(&["solve", "--fragment", "-"], game);
    assert_eq!(fragment.code, 0, "{}", fragment.stderr);
}

/// `moves` lists moves by their squares' numbers, not as strings (which
/// put `10-14` before `9-13`); algebraic squares by file, then rank.
#[test]
fn moves_are_sorted_by_square_numbers() {
    let opening = "B:W21-32:B1-12\n";
    let run = postfacto(&["moves", "--rules", "english"], opening);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "9-13\n9-14\n10-14\n10-15\n11-15\n11-16\n12-16\n"
    );
    let ten = postfacto(&["moves", "--rules", "international"], "W:W9,46:B\n");
    assert_eq!(ten.code, 0, "{}", ten.stderr);
    let first_squares: Vec<&str> = ten
        .stdout
        .lines()
        .map(|mv| mv.split(['-', 'x']).next().unwrap())
        .collect();
    assert_eq!(first_squares.first(), Some(&"9"), "{}", ten.stdout);
    assert_eq!(first_squares.last(), Some(&"46"), "{}", ten.stdout);
}

/// A move that cannot be read is named once (`move 2: '33-29': ...`), not
/// twice, in the error the library hands to Python and other callers.
#[test]
fn a_bad_move_is_named_once() {
    use postfacto::request::{Fragment, SolveRequest};
    let error = SolveRequest::new(Fragment::new(["11-15", "33-29"]))
        .run()
        .err()
        .map(|e| e.to_string());
    let error = error.expect("33 is no square");
    assert!(
        error.starts_with("move 2: '33-29': unknown square '33'"),
        "{error}"
    );
    assert_eq!(error.matches("33-29").count(), 1, "{error}");
}

/// Counts of one are said in the singular: `the input has 1 record`.
#[test]
fn counts_of_one_are_singular() {
    let input = scratch("one-record.in", "W 1\n21-17\n");
    let solved = postfacto(&["solve", input.to_str().unwrap()], "");
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    let answer = scratch(
        "two-boards.ans",
        &format!("{0}\n{0}", solved.stdout.trim_end()),
    );
    let verified = postfacto(
        &["verify", input.to_str().unwrap(), answer.to_str().unwrap()],
        "",
    );
    let said = format!("{}{}", verified.stdout, verified.stderr);
    assert!(
        said.contains("the input has 1 record but the answer has 2 boards"),
        "{said}"
    );
    let cnf = postfacto(&["cnf", "--instance", "2", input.to_str().unwrap()], "");
    assert_eq!(cnf.code, 2, "{}", cnf.stderr);
    assert!(
        cnf.stderr.contains("--instance 2: the input has 1 record"),
        "{}",
        cnf.stderr
    );
}

/// The task format reads a move with spaces around its separator
/// (`21 - 17`) as PDN reads `1- 6`.
#[test]
fn task_moves_with_spaced_separators_are_read() {
    let run = postfacto(
        &["solve", "-"],
        "W 3\n21 - 17\n13 x 22 x 31 x 24\n19 x 28\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let tight = postfacto(&["solve", "-"], "W 3\n21-17\n13x22x31x24\n19x28\n");
    assert_eq!(run.stdout, tight.stdout);
}

/// `verify --pdn --format json FOLDER`: every line names its file
/// (`input`), so game 1 of one file is told from game 1 of another.
#[test]
fn verify_pdn_json_lines_name_their_file() {
    let folder = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("json-folder");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("a.pdn"),
        "[GameType \"21\"]\n1. 11-15 23-19 *\n",
    )
    .unwrap();
    std::fs::write(folder.join("b.pdn"), "[GameType \"21\"]\n1. 9-13 22-18 *\n").unwrap();
    let run = postfacto(
        &[
            "verify",
            "--pdn",
            "--format",
            "json",
            folder.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = json_lines(&run.stdout);
    let named: Vec<(String, u64)> = lines
        .iter()
        .map(|v| {
            (
                v["input"].as_str().unwrap_or_default().to_string(),
                v["game"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(named.len(), 2, "{}", run.stdout);
    assert!(
        named[0].0.ends_with("a.pdn") && named[1].0.ends_with("b.pdn"),
        "{named:?}"
    );
    assert_eq!((named[0].1, named[1].1), (1, 1));
}

#[test]
fn a_byte_order_mark_before_a_record_an_answer_or_a_board_is_skipped() {
    let bom = "\u{feff}";
    let record = "W 3\n21-17\n13x22x31x24\n19x28\n";
    let plain = postfacto(&["solve", "-"], record);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    let solved = postfacto(&["solve", "-"], &format!("{bom}{record}"));
    assert_eq!(
        (solved.code, &solved.stdout),
        (0, &plain.stdout),
        "{}",
        solved.stderr
    );
    let input = scratch("bom-record.in", &format!("{bom}{record}"));
    let answer = scratch("bom-record.ans", &format!("{bom}{}", plain.stdout));
    let verified = postfacto(
        &["verify", input.to_str().unwrap(), answer.to_str().unwrap()],
        "",
    );
    assert_eq!(
        (verified.code, verified.stdout.trim()),
        (0, "OK"),
        "{}",
        verified.stderr
    );
    let board = scratch("bom-board.txt", &format!("{bom}W:W31,32:B27\n"));
    let moves = postfacto(&["moves", board.to_str().unwrap()], "");
    assert_eq!(
        (moves.code, moves.stdout.as_str()),
        (0, "31x24\n32x23\n"),
        "{}",
        moves.stderr
    );
}

/// `verify` on `solve --format fen` or `solve --all` output says what it
/// reads instead of only what it found.
#[test]
fn verify_says_it_reads_one_board_answer_per_record() {
    let input = scratch("fen-answer.in", "W 1\n21-17\n");
    let input = input.to_str().unwrap();
    let fen = postfacto(&["solve", "--format", "fen", input], "");
    assert_eq!(fen.code, 0, "{}", fen.stderr);
    let fen = scratch("fen-answer.fen", &fen.stdout);
    let judged = postfacto(&["verify", input, fen.to_str().unwrap()], "");
    assert_eq!(judged.code, 1, "{}", judged.stderr);
    let said = format!("{}{}", judged.stdout, judged.stderr);
    assert!(
        said.contains("answer line 1: a FEN position, not a board's rows: verify reads the boards solve prints without --format"),
        "{said}"
    );
    let all = postfacto(&["solve", "--all", input], "");
    assert_eq!(all.code, 0, "{}", all.stderr);
    let all = scratch("all-answers.ans", &all.stdout);
    let judged = postfacto(&["verify", input, all.to_str().unwrap()], "");
    let said = format!("{}{}", judged.stdout, judged.stderr);
    assert!(
        said.contains("(verify judges one answer per record, as solve prints them without --all)"),
        "{said}"
    );
}
