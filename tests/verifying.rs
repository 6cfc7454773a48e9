//! `verify INPUT ANSWER` with `solve`'s named answers: each record's
//! answer found by its name, a folder of inputs, and the summary line.

use std::path::PathBuf;

use crate::util::{path, postfacto};

/// A fresh folder under the test target holding sample1 and sample2 as
/// `s1.in` and `s2.in`.
fn two_inputs(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (from, to) in [("sample1.in", "s1.in"), ("sample2.in", "s2.in")] {
        std::fs::copy(path(&format!("tests/data/{from}")), dir.join(to)).unwrap();
    }
    dir
}

/// `solve` on the files of `dir`, its answers written to `dir/../NAME.ans`.
fn solved(dir: &std::path::Path, files: &[&str]) -> PathBuf {
    let args: Vec<String> = std::iter::once("solve".to_string())
        .chain(files.iter().map(|f| dir.join(f).display().to_string()))
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = postfacto(&args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.matches("==> ").count(), files.len());
    let answer = dir.with_extension("ans");
    std::fs::write(&answer, run.stdout).unwrap();
    answer
}

fn verify(input: &std::path::Path, answer: &std::path::Path) -> crate::util::Run {
    postfacto(
        &["verify", input.to_str().unwrap(), answer.to_str().unwrap()],
        "",
    )
}

#[test]
fn one_file_of_a_named_batch_is_judged_by_its_own_answer() {
    let dir = two_inputs("named-batch");
    let answer = solved(&dir, &["s1.in", "s2.in"]);
    for file in ["s1.in", "s2.in"] {
        let run = verify(&dir.join(file), &answer);
        assert_eq!(
            (run.code, run.stdout.as_str()),
            (0, "OK\n"),
            "{}",
            run.stderr
        );
    }
}

/// A name line that is not `==> NAME <==` still heads its block: the
/// names after it keep their own boards (the review of issue 42 found
/// them shifted by one onto the block before).
#[test]
fn a_malformed_name_line_does_not_shift_the_names_after_it() {
    let dir = two_inputs("named-malformed");
    let answer = solved(&dir, &["s1.in", "s2.in"]);
    let text = std::fs::read_to_string(&answer).unwrap();
    let first = text.split("\n\n").next().unwrap();
    let boards: String = first.lines().skip(1).map(|l| format!("{l}\n")).collect();
    std::fs::write(&answer, format!("==> torn\n{boards}\n{text}")).unwrap();
    for file in ["s1.in", "s2.in"] {
        let run = verify(&dir.join(file), &answer);
        assert_eq!(
            (run.code, run.stdout.as_str()),
            (0, "OK\n"),
            "{file}: {}",
            run.stderr
        );
    }
}

#[test]
fn a_folder_is_judged_against_one_answer_file_with_a_summary() {
    let dir = two_inputs("named-folder");
    let answer = solved(&dir, &["s1.in", "s2.in"]);
    let run = verify(&dir, &answer);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stdout);
    assert!(lines[0].ends_with("s1.in: OK"), "{}", run.stdout);
    assert!(lines[1].ends_with("s2.in: OK"), "{}", run.stdout);
    assert_eq!(
        run.stderr,
        "postfacto: 2 records: 2 OK, 0 rejected, 0 undecided\n"
    );
    let (dir, answer) = (dir.to_str().unwrap(), answer.to_str().unwrap());
    let quiet = postfacto(&["verify", "-q", dir, answer], "");
    assert_eq!(
        (quiet.code, &quiet.stdout),
        (0, &run.stdout),
        "{}",
        quiet.stderr
    );
    assert_eq!(quiet.stderr, "");
}

#[test]
fn options_of_pdn_games_are_refused_for_records_and_answers() {
    let (input, answer) = (
        path("../shared/cases/sample1.in"),
        path("../shared/cases/sample1.ans"),
    );
    let (input, answer) = (input.to_str().unwrap(), answer.to_str().unwrap());
    for option in [&["--legal"][..], &["--strict"], &["--format", "json"]] {
        let run = postfacto(&[&["verify"], option, &[input, answer]].concat(), "");
        assert_eq!(
            (run.code, run.stdout.as_str()),
            (2, ""),
            "{option:?}: {}",
            run.stderr
        );
        assert_eq!(
            run.stderr,
            format!(
                "postfacto: {} applies to --pdn (a PDN file's games), not to INPUT and ANSWER\n",
                option.join(" ")
            )
        );
    }
}

#[test]
fn a_record_the_answer_does_not_name_is_rejected_by_name() {
    let dir = two_inputs("named-missing");
    // Named answers of s1 alone (a batch of s1 twice would name it twice).
    let answer = solved(&dir, &["s1.in", "s1.in"]);
    let run = verify(&dir, &answer);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.lines().next().unwrap().ends_with("s1.in: OK"));
    let second = run.stdout.lines().nth(1).unwrap();
    assert!(
        second.ends_with("s2.in: no answer was given for it"),
        "{second}"
    );
    assert!(
        run.stderr
            .contains("2 records: 1 OK, 1 rejected, 0 undecided"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_answer_that_names_no_record_of_the_input_says_so() {
    let dir = two_inputs("named-none");
    let answer = solved(&dir, &["s1.in", "s2.in"]);
    let other = path("tests/data/damaged1.in");
    let run = verify(&other, &answer);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout.contains("the answer names no record of")
            && run.stdout.contains("its first answer is named 's1.in'"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_folder_without_records_is_bad_input() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("named-empty");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let run = verify(&dir, &path("tests/data/sample1.ans"));
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("holds no *.in file"), "{}", run.stderr);
}

/// `verify --pdn` on one English game with `moves`; its one line.
fn pdn_line(name: &str, moves: &str) -> (i32, String) {
    let file = crate::util::scratch(name, &format!("[GameType \"21\"]\n{moves} *\n"));
    let run = postfacto(&["verify", "--pdn", file.to_str().unwrap()], "");
    (run.code, run.stdout.trim_end().to_string())
}

#[test]
fn a_move_after_a_dropped_one_is_named_by_the_sheets_own_number() {
    // White's second move is missing: the sheet's `3. 9-13` is read as ply 4.
    let (code, line) = pdn_line("gap.pdn", "1. 11-15 23-19 2. 8-11 3. 9-13 17-14");
    assert_eq!(code, 1);
    assert_eq!(
        line,
        "game 1 (line 1): 3. 9-13 (ply 4, numbered 2... by the plies before it: the sheet's \
         numbering skips a ply before it): square 9 holds a black man, but it is White's move"
    );
}

#[test]
fn a_repeated_move_number_is_named_as_written() {
    let (code, line) = pdn_line("repeat.pdn", "1. 11-15 23-19 1... 22-18");
    assert_eq!(code, 1);
    assert!(
        line.starts_with(
            "game 1 (line 1): 1... 22-18 (ply 3, numbered 2. by the plies before it: the \
             sheet's numbering repeats a ply before it): "
        ),
        "{line}"
    );
}

#[test]
fn a_gap_that_opens_before_the_failing_ply_is_placed_by_its_line() {
    // `3.` stands where 2... is due; the moves still replay until ply 7.
    let moves = "1. 11-15 23-19 2. 8-11\n3. 22-17 9-13 4. 17-14 14-10";
    let (code, line) = pdn_line("gap-earlier.pdn", moves);
    assert_eq!(code, 1);
    assert!(
        line.starts_with("game 1 (line 1): 4... 14-10 (ply 7, numbered 4. by"),
        "{line}"
    );
    assert!(
        line.contains("the sheet's numbering skips a ply at 3. (line 3)"),
        "{line}"
    );
}

#[test]
fn a_first_number_against_the_side_to_move_is_no_gap() {
    // White moves first from the diagram; the sheet numbers its move `1.`
    // (spec pdn.md: not an error), and the numbering is read from there.
    let file = crate::util::scratch(
        "white-first.pdn",
        "[GameType \"21\"]\n[FEN \"W:W21,22:B17\"]\n1. 22-18 *\n",
    );
    let run = postfacto(&["verify", "--pdn", file.to_str().unwrap()], "");
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout.trim_end(),
        "game 1 (line 1): 1. 22-18 (ply 1): a capture is available (21x14), so the move must be a capture"
    );
    let file = crate::util::scratch(
        "white-first-2.pdn",
        "[GameType \"21\"]\n[FEN \"W:W21,22:B17\"]\n1. 21x14 14-10 *\n",
    );
    let run = postfacto(&["verify", "--pdn", file.to_str().unwrap()], "");
    assert!(
        run.stdout
            .starts_with("game 1 (line 1): 1... 14-10 (ply 2): "),
        "{}",
        run.stdout
    );
}

#[test]
fn a_game_numbered_as_played_keeps_its_plain_name() {
    let (code, line) = pdn_line("no-gap.pdn", "1. 11-15 23-19 2. 8-11 22-17 3. 17-13");
    assert_eq!(code, 1);
    assert!(
        line.starts_with("game 1 (line 1): 3. 17-13 (ply 5): "),
        "{line}"
    );
}

/// `verify --pdn` on `file` with `flags`.
fn verify_pdn(file: &std::path::Path, flags: &[&str]) -> crate::util::Run {
    let mut args = vec!["verify", "--pdn", file.to_str().unwrap()];
    args.extend_from_slice(flags);
    postfacto(&args, "")
}

/// How many lines of `stdout` end with ` (R rules, inferred)`, per R.
fn inferred_counts(stdout: &str) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for line in stdout.lines() {
        let Some(rest) = line.rsplit_once(" (").map(|(_, r)| r) else {
            continue;
        };
        let Some(rules) = rest.strip_suffix(" rules, inferred)") else {
            continue;
        };
        match counts.iter_mut().find(|(r, _)| r == rules) {
            Some((_, n)) => *n += 1,
            None => counts.push((rules.to_string(), 1)),
        }
    }
    counts
}

#[test]
fn a_file_without_game_types_is_inferred_once_and_says_so() {
    let file = path("../shared/pdn/mrcd2006.pdn");
    let run = verify_pdn(&file, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(inferred_counts(&run.stdout), [("czech".to_string(), 44)]);
    let notes: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.contains("inferred once for the file"))
        .collect();
    assert_eq!(notes.len(), 1, "{}", run.stderr);
    assert!(
        notes[0].contains("czech rules inferred once")
            && notes[0].contains("10 under russian")
            && notes[0].contains("44 under czech")
            && notes[0].ends_with("10 games would have been read otherwise game by game"),
        "{}",
        notes[0]
    );
    // `-q` drops the note with the summary.
    let quiet = verify_pdn(&file, &["-q"]);
    assert_eq!(quiet.stderr, "");
    assert_eq!(quiet.stdout, run.stdout);
}

#[test]
fn solve_reads_a_file_s_games_under_the_rules_verify_infers_for_it() {
    let file = path("../shared/pdn/mrcd2006.pdn");
    let run = postfacto(&["solve", "--format", "json", file.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rules: Vec<String> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["rules"].to_string())
        .collect();
    assert_eq!(rules.len(), 44);
    assert!(rules.iter().all(|r| r == "\"czech\""), "{rules:?}");
}

#[test]
fn a_file_whose_tags_disagree_is_inferred_game_by_game() {
    let czech = std::fs::read_to_string(path("../shared/pdn/mrcd2006.pdn")).unwrap();
    let mixed =
        format!("{czech}\n\n[GameType \"21\"]\n1. 11-15 *\n\n[GameType \"20\"]\n1. 32-28 *\n");
    let file = crate::util::scratch("mixed-tags.pdn", &mixed);
    let run = verify_pdn(&file, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut counts = inferred_counts(&run.stdout);
    counts.sort();
    assert_eq!(
        counts,
        [("czech".to_string(), 34), ("russian".to_string(), 10)]
    );
    assert!(!run.stderr.contains("inferred once"), "{}", run.stderr);
}

#[test]
fn a_file_whose_games_agree_gets_no_note() {
    let run = verify_pdn(&path("../shared/pdn/ussr1947.pdn"), &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(inferred_counts(&run.stdout), [("russian".to_string(), 153)]);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

/// A shell script that prints `answers` whatever it is given.
fn printing_solver(name: &str, answers: &str) -> String {
    let answers_file = crate::util::scratch(&format!("{name}.ans"), answers);
    let script = crate::util::scratch(
        &format!("{name}.sh"),
        &format!("cat '{}'\n", answers_file.display()),
    );
    format!("sh {}", script.display())
}

#[test]
fn compare_against_names_each_rejected_record_and_why() {
    let sample1 = std::fs::read_to_string(path("tests/data/sample1.in")).unwrap();
    let sample2 = std::fs::read_to_string(path("tests/data/sample2.in")).unwrap();
    let input = crate::util::scratch("against-two.in", &format!("{sample1}{sample2}"));
    let first = postfacto(&["solve", "tests/data/sample1.in"], "");
    assert_eq!(first.code, 0, "{}", first.stderr);
    // The first record's answer twice: the second record's is wrong.
    let solver = printing_solver(
        "against-wrong",
        &format!("{}\n{}", first.stdout, first.stdout),
    );
    let run = postfacto(
        &["compare", "--against", &solver, input.to_str().unwrap()],
        "",
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("outside command's answers accepted by the replayer: 1 of 2"),
        "{}",
        run.stdout
    );
    let rejected: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("rejected: "))
        .collect();
    assert_eq!(rejected.len(), 1, "{}", run.stdout);
    let line2 = sample1.lines().count() + 1;
    let named = format!("against-two.in: instance 2 (line {line2}): ");
    assert!(rejected[0].contains(&named), "{}", rejected[0]);
    // The reason is the replayer's, as verify gives it.
    let answer = crate::util::scratch("against-wrong-2.ans", &first.stdout);
    let verified = crate::util::verify_files(&path("tests/data/sample2.in"), &answer);
    assert_eq!(verified.code, 1);
    assert!(
        rejected[0].ends_with(verified.stdout.trim_end()),
        "{} / {}",
        rejected[0],
        verified.stdout
    );
    // JSON carries the record and the reason.
    let json = postfacto(
        &[
            "compare",
            "--json",
            "--against",
            &solver,
            input.to_str().unwrap(),
        ],
        "",
    );
    let note = json
        .stdout
        .lines()
        .find(|l| l.contains("\"note\":\"rejected\""))
        .unwrap_or_else(|| panic!("{}", json.stdout));
    let value: serde_json::Value = serde_json::from_str(note).unwrap();
    assert_eq!(value["instance"], 2);
    assert_eq!(value["line"], line2);
    assert_eq!(value["reason"], verified.stdout.trim_end());
}

/// Games of three rule sets without `GameType` (English, International,
/// Russian), a legal diagram and a game with no moves at all.
const MIXED_RULES: &str = "[Event \"e\"]\n1. 11-15 23-19 *\n\n\
    [Event \"i\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n\
    [Event \"r\"]\n1. c3-d4 f6-e5 *\n\n\
    [Event \"diagram\"]\n[FEN \"W:W21:B9\"]\n*\n\n\
    [Event \"empty\"]\n*\n";

#[test]
fn a_batch_of_several_rule_sets_is_judged_game_by_game() {
    let file = crate::util::scratch("mixed-rules.pdn", MIXED_RULES);
    let solved = postfacto(&["solve", file.to_str().unwrap()], "");
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    let answer = file.with_extension("ans");
    std::fs::write(&answer, &solved.stdout).unwrap();
    let run = verify(&file, &answer);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout.matches(": OK").count(), 5, "{}", run.stdout);
    // A wrong end board on the 10x10 game is that game's rejection alone.
    let mut lines: Vec<String> = solved.stdout.lines().map(str::to_string).collect();
    let game_3 = lines.iter().position(|l| l.contains(": game 3 ")).unwrap();
    let last_row = (0..game_3).rev().find(|&i| !lines[i].is_empty()).unwrap();
    let (start, end) = lines[last_row].split_once(' ').unwrap();
    let piece = end.find(['w', 'b']).expect("a man on the last row");
    lines[last_row] = format!("{start} {}.{}", &end[..piece], &end[piece + 1..]);
    let wrong = lines.join("\n") + "\n";
    std::fs::write(&answer, wrong).unwrap();
    let run = verify(&file, &answer);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let rejected: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| !l.ends_with(": OK"))
        .collect();
    assert_eq!(rejected.len(), 1, "{}", run.stdout);
    assert!(rejected[0].starts_with("instance 2: "), "{}", rejected[0]);
}

#[test]
fn a_diagram_no_game_can_stand_on_is_impossible_and_rejected() {
    // Gould's problem #88 has a white man on square 3, its crowning row.
    let text = "[FEN \"B:WK23,12,3:BK15,K11.\"]\n*\n\n[FEN \"W:W21:B9\"]\n*\n";
    let file = crate::util::scratch("illegal-diagram.pdn", text);
    let solved = postfacto(&["solve", file.to_str().unwrap()], "");
    assert_eq!(solved.code, 1, "{}", solved.stderr);
    assert!(
        solved.stderr.contains(
            "game 1 (line 1): no moves, and its [FEN] position is not a legal position: \
             the white man on square 3 stands on its crowning row"
        ),
        "{}",
        solved.stderr
    );
    let answer = file.with_extension("ans");
    std::fs::write(&answer, &solved.stdout).unwrap();
    let run = verify(&file, &answer);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        "instance 1: start board: the white man on square 3 stands on its crowning row, \
         so it would already be a king\ninstance 2: OK\n"
    );
    let json = postfacto(&["solve", "--format", "json", file.to_str().unwrap()], "");
    let first: serde_json::Value =
        serde_json::from_str(json.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["status"], "impossible");
}

#[test]
fn an_answer_must_start_where_the_pdn_game_starts() {
    let diagram = |name: &str, fen: &str| {
        crate::util::scratch(name, &format!("[FEN \"{fen}\"]\n1. 21-17 *\n"))
    };
    let (ours, other) = (
        diagram("pinned-9.pdn", "W:W21:B9"),
        diagram("pinned-5.pdn", "W:W21:B5"),
    );
    let solved = postfacto(&["solve", other.to_str().unwrap()], "");
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    let answer = other.with_extension("ans");
    std::fs::write(&answer, &solved.stdout).unwrap();
    assert_eq!(verify(&other, &answer).code, 0);
    // The other diagram's answer replays, but not from this game's [FEN].
    let run = verify(&ours, &answer);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (
            1,
            "start board differs from the game's start (its [FEN]) at square 5: expected ., found b\n"
        ),
        "{}",
        run.stderr
    );
    // A game without [FEN] starts at the opening: a fragment's answer
    // (start unknown) is not an answer to the game.
    let game = crate::util::scratch("opening.pdn", "1. 11-15 23-19 2. 8-11 22-17 *\n");
    let fragment = postfacto(&["solve", "--fragment", game.to_str().unwrap()], "");
    assert_eq!(fragment.code, 0, "{}", fragment.stderr);
    let answer = game.with_extension("ans");
    std::fs::write(&answer, &fragment.stdout).unwrap();
    let run = verify(&game, &answer);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout
            .starts_with("start board differs from the game's start (the opening)"),
        "{}",
        run.stdout
    );
    let solved = postfacto(&["solve", game.to_str().unwrap()], "");
    std::fs::write(&answer, &solved.stdout).unwrap();
    assert_eq!(verify(&game, &answer).code, 0);
}
