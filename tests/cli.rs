//! The command line's contract: exit statuses, one-line messages naming the line, output shapes.

use crate::util::{path, postfacto, scratch, verify_files};

const SAMPLE1: &str = "W 3\n21-17\n13x22x31x24\n19x28\n";

#[test]
fn malformed_input_exits_2_naming_the_line() {
    let cases: &[(&str, &str)] = &[
        ("", "line 1: the input is empty"),
        ("\n\n", "line 1: the input is empty"),
        (
            "Q 3\n21-17\n",
            "line 1: expected a header 'B n' or 'W n', found 'Q 3'",
        ),
        ("W\n21-17\n", "line 1: expected a header"),
        ("W 0\n", "line 1: the move count '0'"),
        ("W x\n21-17\n", "line 1: the move count 'x'"),
        (
            "W 3\n21-17\n13x22x31x24\n",
            "line 3: the header on line 1 declares 3 moves but only 2 follow",
        ),
        (
            "W 1\n21-17\n13x22\n",
            "line 3: expected a header 'B n' or 'W n', found the move '13x22'",
        ),
        ("W 1\n0-5\n", "line 2: '0-5': unknown square '0'"),
        ("W 1\n33-29\n", "line 2: '33-29': unknown square '33'"),
        ("W 1\nab-17\n", "line 2: 'ab-17': unknown square 'ab'"),
        (
            "W 1\n21-18\n",
            "line 2: '21-18': 21 and 18 are not diagonal neighbours",
        ),
        (
            "W 1\n21-13\n",
            "line 2: '21-13': 21 and 13 are not diagonal neighbours",
        ),
        (
            "W 1\n13x22x32\n",
            "line 2: '13x22x32': 22 to 32 is not a jump",
        ),
        (
            "W 1\n21-17 18\n",
            "line 2: unexpected text after the move: '18'",
        ),
        (
            "W 2\n21-17\n\n9-13 ;comment\n",
            "line 4: unexpected text after the move",
        ),
        ("W 1\n21x17\n", "line 2: '21x17': 21 to 17 is not a jump"),
    ];
    for &(input, want) in cases {
        for command in ["solve", "cnf"] {
            let run = postfacto(&[command], input);
            assert_eq!(run.code, 2, "{command} {input:?}: {}", run.stderr);
            assert!(
                run.stderr.starts_with("postfacto: <stdin>: line "),
                "{}",
                run.stderr
            );
            assert!(
                run.stderr.contains(want),
                "{command} {input:?}: got {}",
                run.stderr
            );
            assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
            assert!(run.stdout.is_empty(), "{input:?}");
        }
    }
}

#[test]
fn bytes_that_are_not_text_exit_2() {
    let file = scratch("binary.in", "W 1\n21-17\n");
    std::fs::write(&file, b"W 1\n\xff\xfe\n").unwrap();
    let run = postfacto(&["solve", file.to_str().unwrap()], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("line 2: the input is not UTF-8 text"),
        "{}",
        run.stderr
    );
}

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    assert_eq!(postfacto(&[], "").code, 2);
    assert_eq!(postfacto(&["frobnicate"], "").code, 2);
    assert_eq!(postfacto(&["solve", "--engine", "magic"], SAMPLE1).code, 2);
    let missing = postfacto(&["solve", "no/such/file.in"], "");
    assert_eq!(missing.code, 2);
    assert!(
        missing
            .stderr
            .starts_with("postfacto: cannot read 'no/such/file.in'"),
        "{}",
        missing.stderr
    );
    let help = postfacto(&["--help"], "");
    assert_eq!(help.code, 0);
    for command in ["solve", "verify", "cnf"] {
        assert!(help.stdout.contains(command), "{}", help.stdout);
    }
}

#[test]
fn help_offers_auto_only_where_a_record_or_a_board_can_name_the_rules() {
    for command in ["solve", "verify", "cnf", "compare", "moves", "reach"] {
        let help = postfacto(&[command, "--help"], "");
        assert!(
            help.stdout.contains("- auto:"),
            "{command}: {}",
            help.stdout
        );
    }
    for command in ["generate", "bench"] {
        let help = postfacto(&[command, "--help"], "");
        assert_eq!(help.code, 0);
        assert!(
            help.stdout.contains("- russian:"),
            "{command}: {}",
            help.stdout
        );
        assert!(!help.stdout.contains("auto"), "{command}: {}", help.stdout);
        let refused = postfacto(&[command, "--rules", "auto"], "");
        assert_eq!(refused.code, 2, "{command}");
        assert!(
            refused.stderr.contains("invalid value 'auto'"),
            "{}",
            refused.stderr
        );
    }
}

#[test]
fn solve_reads_stdin_dash_and_files_alike() {
    let from_stdin = postfacto(&["solve"], SAMPLE1);
    let from_dash = postfacto(&["solve", "-"], SAMPLE1);
    let from_file = postfacto(&["solve", "tests/data/sample1.in"], "");
    assert_eq!(from_stdin.code, 0);
    assert_eq!(from_stdin.stdout, from_dash.stdout);
    assert_eq!(from_stdin.stdout, from_file.stdout);
    assert_eq!(from_stdin.stdout.lines().count(), 8);
}

#[test]
fn several_instances_are_answered_in_order_and_verified_together() {
    let input = format!(
        "{SAMPLE1}{}",
        std::fs::read_to_string(path("tests/data/sample2.in")).unwrap()
    );
    let run = postfacto(&["solve"], &input);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Each answer under its record's name.
    let blocks: Vec<&str> = run.stdout.split("\n\n").collect();
    assert_eq!(blocks.len(), 2);
    assert!(blocks.iter().all(|b| b.trim_end().lines().count() == 9));
    assert!(
        blocks[1].starts_with("==> <stdin>: instance 2 (line"),
        "{}",
        blocks[1]
    );
    let blocks: Vec<String> = blocks
        .iter()
        .map(|b| b.lines().skip(1).collect::<Vec<_>>().join("\n"))
        .collect();
    let input_file = scratch("two.in", &input);
    let answer_file = scratch("two.ans", &run.stdout);
    let verified = verify_files(&input_file, &answer_file);
    assert_eq!(
        (verified.code, verified.stdout.as_str()),
        (0, "instance 1: OK\ninstance 2: OK\n")
    );
    // The answers swapped are rejected, each with its reason.
    let swapped = format!("{}\n{}\n", blocks[1].trim_end(), blocks[0].trim_end());
    let swapped_file = scratch("two-swapped.ans", &swapped);
    let rejected = verify_files(&input_file, &swapped_file);
    assert_eq!(rejected.code, 1);
    assert!(
        rejected.stdout.starts_with("instance 1: ply 1 (21-17)"),
        "{}",
        rejected.stdout
    );
}

#[test]
fn an_impossible_instance_among_good_ones_exits_1_and_names_it() {
    let input = format!("{SAMPLE1}W 2\n21-17\n21-17\n");
    let run = postfacto(&["solve"], &input);
    assert_eq!(run.code, 1);
    // Each record named; the impossible one is a name alone.
    assert_eq!(
        run.stdout
            .lines()
            .filter(|l| l.starts_with("==> "))
            .collect::<Vec<_>>(),
        [
            "==> <stdin>: instance 1 (line 1) <==",
            "==> <stdin>: instance 2 (line 5) <=="
        ]
    );
    assert!(run
        .stdout
        .trim_end()
        .ends_with("==> <stdin>: instance 2 (line 5) <=="));
    assert_eq!(run.stdout.lines().filter(|l| !l.is_empty()).count(), 10);
    assert!(
        run.stderr
            .starts_with("postfacto: <stdin>: instance 2 (line 5): no start position"),
        "{}",
        run.stderr
    );
}

fn verify_with(answer: &str) -> (i32, String) {
    let file = scratch(
        &format!(
            "verify-{:x}.ans",
            answer.len() * 31 + answer.bytes().map(usize::from).sum::<usize>()
        ),
        answer,
    );
    let run = postfacto(
        &["verify", "tests/data/sample1.in", file.to_str().unwrap()],
        "",
    );
    (run.code, run.stdout)
}

#[test]
fn verify_names_the_first_problem() {
    let good = std::fs::read_to_string(path("tests/data/sample1.ans")).unwrap();
    let cases = [
        // The white man on 15 removed: ply 2's king could then go on to capture 19.
        (
            good.replace("B-.-w-.- .-.-w-.-", "B-.-.-.- .-.-w-.-"),
            "ply 2 (13x22x31x24): the capture must go on: the piece on 24 can still jump 19 to 15",
        ),
        // The jumped white man on 26 missing.
        (
            good.replace("-.-w-w-. -.-.-.-W", "-.-.-w-. -.-.-.-W"),
            "ply 2 (13x22x31x24): square 26 holds no white piece to jump",
        ),
        // A wrong end board.
        (
            good.replace("-.-w-w-. -.-.-.-W", "-.-w-w-. -.-.-.-B"),
            "end board differs at square 28: expected W, found B",
        ),
        // A man on its crowning row in the start board.
        (
            good.replace(".-.-.-.- .-.-.-.-\n", "b-.-.-.- .-.-.-.-\n"),
            "start board: the black man on square 29 stands on its crowning row",
        ),
        // Malformed answers are rejected, not crashed on.
        (
            good.replace("B-.-w-.-", "B-.-w-."),
            "answer line 4: expected two 8-character rows",
        ),
        (
            good.replace("B-.-w-.-", "B-.-Q-.-"),
            "answer line 4: character 5 is on a dark square and holds 'Q'",
        ),
        (
            good.lines().take(7).map(|l| format!("{l}\n")).collect(),
            "answer line 7: an answer has 8 lines",
        ),
        (String::new(), "answer line 1: the answer is empty"),
    ];
    for (answer, want) in cases {
        let (code, stdout) = verify_with(&answer);
        assert_eq!(code, 1, "{want}: {stdout}");
        assert!(stdout.starts_with(want), "wanted {want}\ngot {stdout}");
        assert_eq!(stdout.lines().count(), 1);
    }
}

#[test]
fn verify_rejects_a_malformed_input_with_2() {
    let input = scratch("bad-verify.in", "W 1\n21-18\n");
    let run = postfacto(
        &["verify", input.to_str().unwrap(), "tests/data/sample1.ans"],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("line 2"), "{}", run.stderr);
}

#[test]
fn cnf_writes_named_dimacs_to_stdout_or_a_file() {
    let run = postfacto(&["cnf", "tests/data/sample1.in"], "");
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("\nc var 15 = start sq5 king\n"));
    assert!(run.stdout.contains("\np cnf 96 "));
    assert!(run
        .stdout
        .contains("\nc ply 1 W 21-17: no capture is available\n"));
    let out = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sample1.cnf");
    let to_file = postfacto(
        &["cnf", "tests/data/sample1.in", "-o", out.to_str().unwrap()],
        "",
    );
    assert_eq!((to_file.code, to_file.stdout.as_str()), (0, ""));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), run.stdout);
}

#[test]
fn cnf_needs_an_instance_number_for_several_records() {
    let two = format!("{SAMPLE1}{SAMPLE1}");
    let run = postfacto(&["cnf"], &two);
    assert_eq!(run.code, 2);
    assert!(run
        .stderr
        .contains("2 records; choose one with --instance N"));
    assert_eq!(postfacto(&["cnf", "--instance", "2"], &two).code, 0);
    assert_eq!(postfacto(&["cnf", "--instance", "3"], &two).code, 2);
}

#[test]
fn a_closed_stdout_is_not_an_error() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_postfacto"))
        .args(["cnf", "tests/data/sample2.in"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn dfs_engine_solves_and_honours_its_limit() {
    let run = postfacto(&["solve", "--engine", "dfs", "tests/data/sample2.in"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let answer = scratch("dfs-sample2.ans", &run.stdout);
    assert_eq!(
        verify_files(&path("tests/data/sample2.in"), &answer).code,
        0
    );
    let impossible = postfacto(&["solve", "--engine", "dfs"], "W 2\n21-17\n21-17\n");
    assert_eq!(impossible.code, 1);
    let limited = postfacto(
        &[
            "solve",
            "--engine",
            "dfs",
            "--limit",
            "2nodes",
            "tests/data/sample2.in",
        ],
        "",
    );
    assert_eq!(limited.code, 3);
    assert!(limited.stdout.is_empty());
    assert!(
        limited
            .stderr
            .contains("undecided: the DFS gave up after 2 start boards"),
        "{}",
        limited.stderr
    );
}

#[test]
fn bad_limits_and_generate_options_exit_2_with_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["solve", "--limit", "5nodes", "tests/data/sample1.in"],
            "a node limit applies to --engine dfs only",
        ),
        (&["generate", "--hard", "0"], "--hard needs K >= 1"),
        (&["generate", "--hard", "9"], "no member with K = 9"),
        (
            &["generate", "--hard-search", "--beam", "0"],
            "--beam must be at least 1",
        ),
        (
            &["generate", "--plies", "0"],
            "--plies and --count must be at least 1",
        ),
        (
            &["compare", "no/such/file.in"],
            "cannot read 'no/such/file.in'",
        ),
    ];
    for &(args, want) in cases {
        let run = postfacto(args, "");
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(want), "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
    }
    let bad_limit = postfacto(&["solve", "--engine", "dfs", "--limit", "abc"], "");
    assert_eq!(bad_limit.code, 2);
    assert!(
        bad_limit.stderr.contains("'abc' is not a time"),
        "{}",
        bad_limit.stderr
    );
}

#[test]
fn hard_members_solve_with_both_engines_and_agree() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hard-family");
    let _ = std::fs::remove_dir_all(&dir);
    let made = postfacto(
        &["generate", "--hard", "3", "--out", dir.to_str().unwrap()],
        "",
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    let compared = postfacto(&["compare", dir.to_str().unwrap()], "");
    assert_eq!(compared.code, 0, "{}", compared.stderr);
    assert!(
        compared.stdout.contains("1 record;") && compared.stdout.contains("0 disagreements"),
        "{}",
        compared.stdout
    );
}

#[test]
fn generate_is_reproducible_and_its_records_solve() {
    let args = ["generate", "--count", "5", "--plies", "30", "--seed", "11"];
    let first = postfacto(&args, "");
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(first.stdout, postfacto(&args, "").stdout);
    assert_eq!(
        first
            .stdout
            .lines()
            .filter(|l| l.starts_with(['B', 'W']))
            .count(),
        5
    );
    let other_seed = postfacto(
        &["generate", "--count", "5", "--plies", "30", "--seed", "12"],
        "",
    );
    assert_ne!(first.stdout, other_seed.stdout);
    let solved = postfacto(&["solve"], &first.stdout);
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    let opening = postfacto(&["generate", "--from", "opening", "--plies", "20"], "");
    assert_eq!(opening.code, 0);
    assert!(opening.stdout.starts_with(['B', 'W']));
}

#[test]
fn compare_reports_agreement_and_counts_bad_files() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("compare-dir");
    let _ = std::fs::remove_dir_all(&dir);
    let generated = postfacto(
        &[
            "generate",
            "--count",
            "4",
            "--plies",
            "40",
            "--seed",
            "3",
            "--out",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(generated.code, 0, "{}", generated.stderr);
    std::fs::write(dir.join("impossible.in"), "W 2\n21-17\n21-17\n").unwrap();
    let run = postfacto(&["compare", dir.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("5 records;"), "{}", run.stdout);
    assert!(run.stdout.contains("0 disagreements"), "{}", run.stdout);
    assert!(
        run.stdout.contains("sat impossible / dfs impossible"),
        "{}",
        run.stdout
    );
    std::fs::write(dir.join("zz-bad.in"), "W 1\n21-18\n").unwrap();
    let with_bad = postfacto(&["compare", dir.to_str().unwrap()], "");
    assert_eq!(with_bad.code, 2);
    assert!(
        with_bad.stdout.contains("5 records;"),
        "the good files are still compared"
    );
    assert!(
        with_bad.stderr.contains("zz-bad.in: line 2:"),
        "{}",
        with_bad.stderr
    );
}

/// Runs `postfacto args...` with standard output going to `/dev/full`.
fn to_full_disk(args: &[&str]) -> crate::util::Run {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full exists on Linux");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_postfacto"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(full)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    crate::util::Run {
        code: out.status.code().unwrap(),
        stdout: String::new(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

#[test]
fn a_full_disk_is_reported_once_with_exit_2() {
    let big = scratch("full-disk-pawns.in", &{
        let mut rng = postfacto::random::Rng::new(3);
        postfacto::pawns::format_pawn_boards(&[postfacto::pawns::PawnBoard::random(
            300, 50, &mut rng,
        )])
    });
    let big = big.to_str().unwrap();
    for args in [
        &["solve", "tests/data/sample1.in"][..],
        &["pawns", big],
        &["generate", "--count", "300"],
        &["cnf", "tests/data/sample1.in"],
        &["sat", "encodings/golden/sample1.cnf"],
    ] {
        let run = to_full_disk(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(
            run.stderr, "postfacto: cannot write output: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}

#[test]
fn control_characters_in_quoted_input_are_escaped_to_keep_one_line() {
    for (input, escaped) in [
        ("W 1\n2\u{0}1-17\n", "'2\\01-17'"),
        ("W 1\n2\u{1b}1-17\n", "'2\\u{1b}1-17'"),
        ("W 1\n21-1\u{7}7\n", "'21-1\\u{7}7'"),
    ] {
        let run = postfacto(&["solve"], input);
        assert_eq!(run.code, 2, "{input:?}");
        assert_eq!(run.stderr.lines().count(), 1, "{input:?}: {}", run.stderr);
        assert!(run.stderr.contains(escaped), "{input:?}: {}", run.stderr);
    }
    let pawns = postfacto(&["pawns"], "1\n2\nO\u{c}\n..\n");
    assert_eq!(pawns.code, 2);
    assert_eq!(pawns.stderr.lines().count(), 1, "{}", pawns.stderr);
    assert!(pawns.stderr.contains("'\\u{c}'"), "{}", pawns.stderr);
}

#[test]
fn completions_and_the_man_page_are_generated() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let run = postfacto(&["completions", shell], "");
        assert_eq!(run.code, 0, "{shell}: {}", run.stderr);
        assert!(run.stdout.contains("postfacto"), "{shell}");
        assert!(
            run.stdout.contains("pawns"),
            "{shell}: every command is completed"
        );
    }
    let bad = postfacto(&["completions", "tcsh"], "");
    assert_eq!(bad.code, 2);
    let man = postfacto(&["man"], "");
    assert_eq!(man.code, 0, "{}", man.stderr);
    assert!(
        man.stdout.contains(".TH postfacto 1"),
        "{}",
        &man.stdout[..200]
    );
    assert!(man.stdout.contains("Reconstructs draughts positions"));
    assert_eq!(to_full_disk(&["completions", "bash"]).code, 2);
}

/// Issue 44, item 18: every page the main page names (`postfacto-solve(1)`,
/// ...) is there: `postfacto man solve`; an unknown command exits 2.
#[test]
fn r44_18_every_page_the_manual_names_exists() {
    let main = postfacto(&["man"], "");
    let named: Vec<String> = main
        .stdout
        .split("postfacto\\-")
        .skip(1)
        .filter_map(|rest| {
            rest.split_once("(1)")
                .map(|(name, _)| name.replace("\\-", "-"))
        })
        .filter(|name| !name.contains(char::is_whitespace))
        .collect();
    assert!(named.iter().any(|n| n == "solve"), "{named:?}");
    for name in &named {
        let page = postfacto(&["man", name], "");
        assert_eq!(page.code, 0, "{name}: {}", page.stderr);
        let title = format!(".TH postfacto-{name} 1");
        assert!(
            page.stdout.contains(&title),
            "{name}: {}",
            &page.stdout[..200]
        );
    }
    let unknown = postfacto(&["man", "nope"], "");
    assert_eq!(unknown.code, 2);
    assert!(
        unknown.stderr.contains("no command 'nope'"),
        "{}",
        unknown.stderr
    );
}

#[test]
fn batches_off_a_terminal_show_no_progress_bar_and_quiet_drops_the_summary() {
    let batch = postfacto(&["generate", "--count", "70", "--plies", "3"], "");
    assert_eq!(batch.code, 0);
    // stderr is a pipe here, as in CI or `2> log`: only the summary line.
    let run = postfacto(&["solve", "-"], &batch.stdout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("70 records: 70 solved"),
        "{}",
        run.stderr
    );
    let quiet = postfacto(&["solve", "--quiet", "-"], &batch.stdout);
    assert_eq!((quiet.code, quiet.stderr.as_str()), (0, ""));
    assert_eq!(quiet.stdout, run.stdout);
}

/// A scratch shell script, executable.
fn script(name: &str, body: &str) -> String {
    let path = scratch(name, body);
    let mut perms = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&path, perms).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn an_outside_solver_that_never_answers_is_stopped_at_the_limit_with_its_children() {
    // The script leaves a child behind: unless the whole process group is
    // killed, that child keeps the output pipe open for a minute.
    let hang = script("hanging-solver.sh", "#!/bin/sh\nsleep 60 &\nsleep 60\n");
    let started = std::time::Instant::now();
    let run = postfacto(
        &[
            "solve",
            "--solver",
            &hang,
            "--limit",
            "1s",
            "tests/data/sample1.in",
        ],
        "",
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("gave no answer within the limit of 1 s"),
        "{}",
        run.stderr
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "the solver's children were not stopped"
    );
    let unknown = script("unknown-solver.sh", "#!/bin/sh\necho 's UNKNOWN'\n");
    let run = postfacto(
        &["solve", "--solver", &unknown, "tests/data/sample1.in"],
        "",
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("undecided: the solver says 's UNKNOWN'"),
        "{}",
        run.stderr
    );
}

#[test]
fn time_limits_apply_to_the_embedded_sat_engine_and_the_pawn_puzzle() {
    // No record is solved in no time: every one is undecided, one line each.
    let batch = postfacto(&["generate", "--count", "5", "--plies", "20"], "");
    let run = postfacto(&["solve", "--quiet", "--limit", "0ms", "-"], &batch.stdout);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 5, "{}", run.stderr);
    assert!(run
        .stderr
        .lines()
        .all(|l| l.contains("undecided: the time limit")));
    // With time to spare, the same answers as without a limit.
    let roomy = postfacto(&["solve", "--quiet", "--limit", "60s", "-"], &batch.stdout);
    let plain = postfacto(&["solve", "--quiet", "-"], &batch.stdout);
    assert_eq!((roomy.code, &roomy.stdout), (0, &plain.stdout));
    let explain = postfacto(
        &[
            "solve",
            "--explain",
            "--limit",
            "0ms",
            "tests/data/sample1.in",
        ],
        "",
    );
    assert_eq!(explain.code, 3, "{}", explain.stderr);
    // A dense board keeps the SAT engine busy for minutes: stopped at the limit.
    let dense = postfacto(
        &[
            "generate",
            "--pawns",
            "316",
            "--density",
            "90",
            "--seed",
            "3",
        ],
        "",
    );
    let pawns = postfacto(
        &["pawns", "--engine", "sat", "--limit", "300ms", "-"],
        &dense.stdout,
    );
    assert_eq!(
        (pawns.code, pawns.stdout.as_str()),
        (3, ""),
        "{}",
        pawns.stderr
    );
    assert!(
        pawns.stderr.contains("board 1: undecided"),
        "{}",
        pawns.stderr
    );
    // A node count is a search's limit.
    let nodes = postfacto(
        &["solve", "--limit", "5000nodes", "tests/data/sample1.in"],
        "",
    );
    assert_eq!(nodes.code, 2, "{}", nodes.stderr);
    // A plain number is seconds, as `timeout` reads it.
    let seconds = postfacto(&["solve", "--limit", "5", "tests/data/sample1.in"], "");
    assert_eq!(seconds.code, 0, "{}", seconds.stderr);
    let bad = postfacto(&["solve", "--limit", "2x", "tests/data/sample1.in"], "");
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("is not a time"), "{}", bad.stderr);
}

#[test]
fn slips_in_naming_the_input_are_told_as_such() {
    // The task's format given where PDN is read.
    let pdn = postfacto(&["verify", "--pdn", "tests/data/sample1.in"], "");
    assert_eq!(pdn.code, 2, "{}", pdn.stderr);
    assert!(
        pdn.stderr.contains("this is the task's format"),
        "{}",
        pdn.stderr
    );
    // A PDN file is read as PDN though its first line could be a header.
    let header_first = scratch("w12.pdn", "W 12\n[Event \"x\"]\n1. 11-15 23-19 *\n");
    let read = postfacto(&["verify", "--pdn", header_first.to_str().unwrap()], "");
    assert!(
        read.stdout.contains("game 2 (line 2): OK"),
        "{}",
        read.stdout
    );
    // Both inputs from standard input.
    let both = postfacto(&["verify", "-", "-"], "W 1\n11-15\n");
    assert_eq!(both.code, 2, "{}", both.stderr);
    for args in [
        &["decode", "-", "-"][..],
        &["solve", "--end-board", "-", "-"],
        &["solve", "--start-board", "-"],
        &["cnf", "--end-board", "-"],
    ] {
        let run = postfacto(args, "W 1\n11-15\n");
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("cannot both be standard input"),
            "{args:?}: {}",
            run.stderr
        );
    }
    assert!(
        both.stderr.contains("cannot both be standard input"),
        "{}",
        both.stderr
    );
    // Records count from 1.
    let zero = postfacto(&["cnf", "--instance", "0", "-"], "W 1\n22-18\n");
    assert_eq!(zero.code, 2, "{}", zero.stderr);
    assert!(
        zero.stderr.contains("records count from 1"),
        "{}",
        zero.stderr
    );
    // A limit reads as seconds, not as Rust's `0ns`.
    let none = postfacto(&["solve", "--limit", "0", "tests/data/sample1.in"], "");
    assert_eq!(none.code, 3, "{}", none.stderr);
    assert!(
        none.stderr.contains("the time limit of 0 s passed"),
        "{}",
        none.stderr
    );
}

#[test]
fn inputs_and_generated_sizes_have_limits() {
    let capped = std::process::Command::new(env!("CARGO_BIN_EXE_postfacto"))
        .args(["solve", "tests/data/sample1.in"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("POSTFACTO_MAX_INPUT", "10")
        .output()
        .unwrap();
    assert_eq!(capped.status.code(), Some(2));
    let stderr = String::from_utf8(capped.stderr).unwrap();
    assert!(
        stderr.contains("larger than the input limit of 10 bytes"),
        "{stderr}"
    );
    // A cap that is no number is not replaced by the default in silence.
    let garbled = std::process::Command::new(env!("CARGO_BIN_EXE_postfacto"))
        .args(["solve", "tests/data/sample1.in"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("POSTFACTO_MAX_INPUT", "abc")
        .output()
        .unwrap();
    assert_eq!(garbled.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(garbled.stderr).unwrap(),
        "postfacto: POSTFACTO_MAX_INPUT='abc' is not a number of bytes\n"
    );
    for args in [
        &["generate", "--count", "100000000"][..],
        &["generate", "--plies", "1000000"],
        &["generate", "--pawns", "10000", "--count", "100"],
        &["generate", "--hard-search", "--beam", "1000000"],
        &["bench", "--count", "100000000"],
    ] {
        let run = postfacto(args, "");
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("at most"), "{args:?}: {}", run.stderr);
    }
}

/// The pigeonhole formula: `n` pigeons, `n - 1` holes (unsatisfiable, and
/// hard for CDCL solvers from about n = 11).
fn pigeonhole(n: usize) -> String {
    let var = |p: usize, h: usize| p * (n - 1) + h + 1;
    let mut clauses = Vec::new();
    for p in 0..n {
        clauses.push(
            (0..n - 1)
                .map(|h| format!("{} ", var(p, h)))
                .collect::<String>()
                + "0",
        );
    }
    for h in 0..n - 1 {
        for p in 0..n {
            for q in p + 1..n {
                clauses.push(format!("-{} -{} 0", var(p, h), var(q, h)));
            }
        }
    }
    format!(
        "p cnf {} {}\n{}\n",
        n * (n - 1),
        clauses.len(),
        clauses.join("\n")
    )
}

#[test]
fn sat_gives_up_at_its_limit_with_s_unknown() {
    let hard = pigeonhole(12);
    let run = postfacto(&["sat", "--limit", "300ms", "-"], &hard);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (3, "s UNKNOWN\n"),
        "{}",
        run.stderr
    );
    let easy = postfacto(&["sat", "--limit", "60s", "-"], &pigeonhole(4));
    assert_eq!((easy.code, easy.stdout.as_str()), (20, "s UNSATISFIABLE\n"));
}

#[test]
fn sat_refuses_an_empty_file_and_solves_the_empty_formula() {
    let empty = postfacto(&["sat", "-"], "");
    assert_eq!(
        (empty.code, empty.stdout.as_str()),
        (2, ""),
        "{}",
        empty.stderr
    );
    assert!(
        empty.stderr.contains("no clause and no header"),
        "{}",
        empty.stderr
    );
    let headed = postfacto(&["sat", "-"], "p cnf 0 0\n");
    assert_eq!(headed.code, 10, "{}", headed.stderr);
}

#[test]
fn bench_against_an_outside_command_times_whole_processes() {
    let dfs = format!(
        "{} solve --engine dfs --quiet",
        env!("CARGO_BIN_EXE_postfacto")
    );
    let run = postfacto(
        &["bench", "--count", "40", "--plies", "20", "--against", &dfs],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("# whole process, 40 records in "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("postfacto solve, 1 thread"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("ratio postfacto (1 thread) / outside command: "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("outside command's answers accepted by the replayer: 40 of 40"),
        "{}",
        run.stdout
    );
    let missing = postfacto(&["bench", "--against", "no-such-solver-here"], "");
    assert_eq!(missing.code, 2, "{}", missing.stderr);
    let failing = postfacto(
        &[
            "bench",
            "--count",
            "5",
            "--plies",
            "5",
            "--against",
            "false",
        ],
        "",
    );
    assert_eq!(failing.code, 2, "{}", failing.stderr);
    assert!(
        failing.stderr.contains("--against 'false' on ")
            && failing.stderr.contains(": failed (exit status: 1)"),
        "{}",
        failing.stderr
    );
}

#[test]
fn a_failing_outside_command_is_named_with_what_it_said() {
    let script = scratch(
        "failing-solver.sh",
        "#!/bin/sh\necho >&2\necho \"cannot read $1\" >&2\nexit 3\n",
    );
    let mut permissions = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&script, permissions).unwrap();
    let sample = path("../shared/cases/sample1.in");
    let run = postfacto(
        &[
            "compare",
            sample.to_str().unwrap(),
            "--against",
            script.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    let expected = format!(
        "on {}: failed (exit status: 3): it said \"cannot read {}\"",
        sample.display(),
        sample.display()
    );
    assert!(run.stderr.contains(&expected), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

#[test]
fn compare_against_an_outside_command_judges_its_answers() {
    let records = postfacto(
        &["generate", "--count", "6", "--plies", "30", "--seed", "4"],
        "",
    );
    let file = scratch("compare-against.in", &records.stdout);
    let dfs = format!(
        "{} solve --engine dfs --quiet",
        env!("CARGO_BIN_EXE_postfacto")
    );
    let run = postfacto(&["compare", "--against", &dfs, file.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("# whole process, 6 records in "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("outside command's answers accepted by the replayer: 6 of 6"),
        "{}",
        run.stdout
    );
    // A "solver" that prints nothing has its answers refused: exit 1.
    let silent = postfacto(
        &["compare", "--against", "true", file.to_str().unwrap()],
        "",
    );
    assert_eq!(silent.code, 1, "{}", silent.stderr);
    assert!(
        silent.stdout.contains(
            "outside command's answers not judged: its output: answer line 1: the answer is empty"
        ),
        "{}",
        silent.stdout
    );
    let missing = postfacto(
        &[
            "compare",
            "--against",
            "no-such-solver-here",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(missing.code, 2, "{}", missing.stderr);
}

#[test]
fn a_proof_file_that_cannot_be_written_is_bad_input() {
    // An impossible record: without the write failing it would exit 1.
    let run = postfacto(
        &["solve", "--proof", "/nonexistent/dir/proof.drat", "-"],
        "W 2\n21-17\n21-17\n",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("cannot write '/nonexistent/dir/proof.drat'"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

#[test]
fn algebraic_squares_without_rules_are_not_read_as_english() {
    let run = postfacto(&["solve", "-"], "W 1\ne5:c3\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("read under russian rules (inferred)"),
        "{}",
        run.stderr
    );
    // No candidate works: said so, not "english (inferred)".
    let none = postfacto(&["solve", "--rules", "auto", "-"], "W 2\n21-17\n21-17\n");
    assert_eq!(none.code, 1, "{}", none.stderr);
    assert!(
        none.stderr.contains("no rule set its notation allows (english, international, italian, spanish) makes it legal"),
        "{}",
        none.stderr
    );
    assert!(!none.stderr.contains("(inferred)"), "{}", none.stderr);
}

#[test]
fn moves_takes_a_fen_and_infers_the_board_from_its_rows() {
    let fen = postfacto(&["moves", "--rules", "international"], "W:W31,32:B27\n");
    assert_eq!(fen.code, 0, "{}", fen.stderr);
    assert_eq!(fen.stdout, "31x22\n32x21\n");
    let ten_rows = "-.-.-.-.-.\n.-.-.-.-.-\n".repeat(4) + "-.-.-.-.-.\n.-.-.-w-.-\n";
    let inferred = postfacto(&["moves", "--turn", "white"], &ten_rows);
    assert_eq!(inferred.code, 0, "{}", inferred.stderr);
    assert_eq!(inferred.stdout, "49-43\n49-44\n");
    let eight_rows = "-.-.-.-.\n.-.-.-.-\n".repeat(3) + "-.-.-.-.\n.-.-.-w-\n";
    let no_turn = postfacto(&["moves"], &eight_rows);
    assert_eq!(no_turn.code, 2, "{}", no_turn.stderr);
    assert!(
        no_turn.stderr.contains("needs the side to move"),
        "{}",
        no_turn.stderr
    );
    assert_eq!(no_turn.stderr.lines().count(), 1);
}

#[test]
fn reach_takes_the_rule_set_from_the_position_as_moves_does() {
    let international = "W:W28,31,33-50:B1-18,20,24";
    let inferred = postfacto(&["reach", "--limit", "5s", international], "");
    assert_eq!(inferred.code, 0, "{}", inferred.stderr);
    assert_eq!(
        inferred.stdout,
        "1. 32-28 19-24\nshortest: 2 plies; no legal game of fewer plies reaches it\n"
    );
    // `decode --reach` reads the formula `reach --cnf` wrote under the same rule set.
    let cnf = postfacto(&["reach", "--cnf", "2", "--unrefined", international], "");
    assert_eq!(cnf.code, 0, "{}", cnf.stderr);
    let model = postfacto(&["sat", "-"], &cnf.stdout);
    assert_eq!(model.code, 10, "{}", model.stderr);
    let model = scratch("reach-international.model", &model.stdout);
    let decoded = postfacto(
        &[
            "decode",
            "--reach",
            "2",
            "--unrefined",
            international,
            model.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(decoded.code, 0, "{}", decoded.stderr);
    assert!(
        decoded
            .stdout
            .starts_with("1. 32-28 19-24\na game of exactly 2 plies"),
        "{}",
        decoded.stdout
    );
    let english = postfacto(&["reach", "--rules", "english", international], "");
    assert_eq!(english.code, 2, "{}", english.stderr);
    assert!(
        english
            .stderr
            .contains("the range '33-50': unknown square '33' (squares are numbered 1 to 32"),
        "{}",
        english.stderr
    );
}

#[test]
fn a_move_off_the_diagonals_is_a_mistake_to_repair_in_the_tasks_format_too() {
    let record = "W 3\n32-28\n18-23\n28-18\n";
    let plain = postfacto(&["solve", "--rules", "international", "-"], record);
    assert_eq!(plain.code, 2, "{}", plain.stderr);
    assert!(
        plain
            .stderr
            .contains("line 4: '28-18': 28 and 18 are not on one diagonal"),
        "{}",
        plain.stderr
    );
    let args = [
        "solve",
        "--rules",
        "international",
        "--repair",
        "--format",
        "json",
        "-",
    ];
    let repaired = postfacto(&args, record);
    assert_eq!(repaired.code, 0, "{}", repaired.stderr);
    let json: serde_json::Value = serde_json::from_str(&repaired.stdout).unwrap();
    assert_eq!(
        json["record"],
        serde_json::json!(["32-28", "18-23", "28-18"])
    );
    assert_eq!(
        json["repairs"],
        serde_json::json!([{"kind": "square", "ply": 3, "written": "28-18", "read": "27-18"}])
    );
    assert_eq!(json["answers"][0]["moves"][2], "27-18");
    let english = "W 3\n21-17\n13x22x31x24\n19x27\n";
    let answer = scratch(
        "miswritten.ans",
        &postfacto(&["solve", "-"], &english.replace("19x27", "19x28")).stdout,
    );
    let input = scratch("miswritten.in", english);
    let verified = postfacto(
        &[
            "verify",
            "--repair",
            input.to_str().unwrap(),
            answer.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(verified.code, 1, "{}", verified.stderr);
    assert!(
        verified
            .stdout
            .ends_with("ply 3: 19x27 read as 19x28 (square)\n"),
        "{}",
        verified.stdout
    );
}

#[test]
fn board_facts_take_a_fen_in_a_file_or_typed_as_the_argument() {
    let sample = path("../shared/cases/sample1.in");
    let sample = sample.to_str().unwrap();
    let typed = postfacto(
        &[
            "solve",
            "--format",
            "fen",
            "--end-board",
            "B:WK28:B10,15",
            sample,
        ],
        "",
    );
    assert_eq!(typed.code, 0, "{}", typed.stderr);
    assert!(
        typed.stdout.lines().any(|l| l == "B:WK28:B10,15"),
        "{}",
        typed.stdout
    );
    let other = postfacto(&["solve", "--end-board", "B:WK28:B10,14", sample], "");
    assert_eq!(other.code, 1, "{}", other.stderr);
    assert!(
        other.stderr.contains("end board square 15 is empty"),
        "{}",
        other.stderr
    );
    let file = scratch("start-fen.txt", "W:WK19,21,26,27:B10,K13,15\n");
    let start = postfacto(
        &[
            "solve",
            "--format",
            "fen",
            "--start-board",
            file.to_str().unwrap(),
            sample,
        ],
        "",
    );
    assert_eq!(start.code, 0, "{}", start.stderr);
    assert!(
        start.stdout.starts_with("W:WK19,21,26,27:B10,K13,15\n"),
        "{}",
        start.stdout
    );
}

#[test]
fn moves_says_why_a_side_has_none() {
    let blocked = postfacto(&["moves", "W:W5:B1,10"], "");
    assert_eq!(blocked.code, 0, "{}", blocked.stderr);
    assert_eq!(blocked.stdout, "");
    assert_eq!(
        blocked.stderr,
        "postfacto: White has no legal move: every piece it has is blocked\n"
    );
    let no_pieces = postfacto(&["moves", "B:W5"], "");
    assert_eq!(no_pieces.code, 0, "{}", no_pieces.stderr);
    assert_eq!(no_pieces.stdout, "");
    assert_eq!(
        no_pieces.stderr,
        "postfacto: Black has no legal move: it has no pieces\n"
    );
    let some = postfacto(&["moves", "W:W5:B10"], "");
    assert_eq!((some.stdout.as_str(), some.stderr.as_str()), ("5-1\n", ""));
}

#[test]
fn an_unknown_square_where_every_square_must_be_known_names_its_line() {
    let rows = "-.-.-.-.\n.-.-.-.-\n-.-?-.-.\n.-.-.-.-\n-.-.-.-.\n.-.-.-.-\n-.-.-.-.\n.-.-.-w-\n";
    let moves = postfacto(&["moves", "--turn", "white"], rows);
    assert_eq!(moves.code, 2, "{}", moves.stderr);
    assert_eq!(
        moves.stderr,
        "postfacto: <stdin>: the given board, line 3: an unknown square ('?'): legal moves need every square known\n"
    );
    let from = scratch("unknown-start.txt", rows);
    let reach = postfacto(
        &["reach", "--from", from.to_str().unwrap(), "W:W21-32:B1-12"],
        "",
    );
    assert_eq!(reach.code, 2, "{}", reach.stderr);
    assert!(
        reach.stderr.contains(": the start board, line 3: the start of a game must be known on every square ('?' found)"),
        "{}",
        reach.stderr
    );
}

#[test]
fn a_side_named_against_the_fens_is_bad_input_not_a_silent_choice() {
    let fen = "W:W21-32:B1-10,12,15";
    let moves = postfacto(&["moves", "--turn", "black", fen], "");
    assert_eq!(moves.code, 2, "{}", moves.stderr);
    assert!(
        moves
            .stderr
            .contains("the FEN has white to move, but black is named to move"),
        "{}",
        moves.stderr
    );
    assert_eq!(moves.stdout, "");
    let reach = postfacto(&["reach", "--turn", "black", "--limit", "5s", fen], "");
    assert_eq!(reach.code, 2, "{}", reach.stderr);
    assert!(
        reach
            .stderr
            .contains("the FEN has white to move, but black is named to move"),
        "{}",
        reach.stderr
    );
    let start = scratch("white-start.txt", "W:W21-32:B1-12");
    let from = postfacto(
        &[
            "reach",
            "--from",
            start.to_str().unwrap(),
            "--from-turn",
            "black",
            "--limit",
            "5s",
            fen,
        ],
        "",
    );
    assert_eq!(from.code, 2, "{}", from.stderr);
    assert!(
        from.stderr.contains("the FEN has white to move"),
        "{}",
        from.stderr
    );
    // The same side twice is no contradiction.
    let agreed = postfacto(&["moves", "--turn", "white", "W:W5:B10"], "");
    assert_eq!((agreed.code, agreed.stdout.as_str()), (0, "5-1\n"));
}

#[test]
fn a_fen_typed_as_the_argument_is_read_as_the_board() {
    let moves = postfacto(&["moves", "--rules", "international", "W:W31,32:B27"], "");
    assert_eq!(moves.code, 0, "{}", moves.stderr);
    assert_eq!(moves.stdout, "31x22\n32x21\n");
    let after_one = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15";
    let reach = postfacto(&["reach", after_one], "");
    assert_eq!(reach.code, 0, "{}", reach.stderr);
    assert!(reach.stdout.starts_with("1. 11-15"), "{}", reach.stdout);
    let missing = postfacto(&["moves", "no-such-board.txt"], "");
    assert_eq!(missing.code, 2, "{}", missing.stderr);
    assert!(
        missing.stderr.contains("cannot read 'no-such-board.txt'"),
        "{}",
        missing.stderr
    );
    let broken = postfacto(&["moves", "W:W31,99:B27"], "");
    assert_eq!(broken.code, 2, "{}", broken.stderr);
    assert!(
        broken.stderr.starts_with("postfacto: the FEN argument: "),
        "{}",
        broken.stderr
    );
    // A second board's FEN is named as its option.
    let from = postfacto(
        &[
            "reach",
            "W:W21-32:B1-10,12,15",
            "--from",
            "W:W0:B1",
            "--limit",
            "5s",
        ],
        "",
    );
    assert_eq!(from.code, 2, "{}", from.stderr);
    assert!(
        from.stderr.starts_with("postfacto: --from's FEN: "),
        "{}",
        from.stderr
    );
}

#[test]
fn compare_reads_each_pdn_game_under_its_own_rules() {
    let games = "[GameType \"21\"]\n1. 11-15 23-19 2. 15x24 28x19 *\n\n\
                 [GameType \"25\"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n\n\
                 [GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n";
    let file = scratch("compare-rules.pdn", games);
    let run = postfacto(&["compare", file.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let rows: Vec<&str> = run.stdout.lines().skip(1).take(3).collect();
    assert!(
        rows[0].contains("english") && rows[0].contains("dfs solved"),
        "{}",
        run.stdout
    );
    assert!(
        rows[0].split_whitespace().nth(2) == Some("4"),
        "{}",
        run.stdout
    );
    assert!(
        rows[1].contains("russian") && rows[1].contains("dfs n/a"),
        "{}",
        run.stdout
    );
    assert!(
        rows[2].contains("international") && rows[2].contains("dfs n/a"),
        "{}",
        run.stdout
    );
    assert!(
        rows[2].split_whitespace().nth(2) == Some("4"),
        "{}",
        run.stdout
    );
}

/// `text` gzip-compressed into `path`.
fn gzipped(path: &std::path::Path, text: &str) {
    use std::io::Write;
    let file = std::fs::File::create(path).unwrap();
    let mut packer = flate2::write::GzEncoder::new(file, flate2::Compression::default());
    packer.write_all(text.as_bytes()).unwrap();
    packer.finish().unwrap();
}

#[test]
fn a_folder_lists_its_compressed_records_as_a_file_named_alone_is_read() {
    let folder = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gz-folder");
    std::fs::remove_dir_all(&folder).ok();
    std::fs::create_dir_all(&folder).unwrap();
    gzipped(
        &folder.join("games.PDN.gz"),
        "[GameType \"21\"]\n1. 11-15 23-19 *\n",
    );
    gzipped(&folder.join("task.in.gz"), "W 2\n22-18\n11-15\n");
    let dir = folder.to_str().unwrap();
    let verified = postfacto(&["verify", "--pdn", dir], "");
    assert_eq!(verified.code, 0, "{}", verified.stderr);
    assert!(
        verified
            .stdout
            .contains("games.PDN.gz: game 1 (line 1): OK"),
        "{}",
        verified.stdout
    );
    let solved = postfacto(&["solve", "--format", "json", dir], "");
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    assert_eq!(solved.stdout.lines().count(), 2, "{}", solved.stdout);
}

#[test]
fn sat_reads_gzip_writes_drat_and_cnf_writes_gzip() {
    let record = scratch("gz-impossible.in", "W 2\n21-17\n21-17\n");
    let packed = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("impossible.cnf.gz");
    let cnf = postfacto(
        &[
            "cnf",
            "-o",
            packed.to_str().unwrap(),
            record.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(cnf.code, 0, "{}", cnf.stderr);
    let bytes = std::fs::read(&packed).unwrap();
    assert_eq!(&bytes[..2], &[0x1f, 0x8b], "gzip");
    let proof = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("impossible.drat");
    std::fs::remove_file(&proof).ok();
    let sat = postfacto(
        &[
            "sat",
            "--proof",
            proof.to_str().unwrap(),
            packed.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(sat.code, 20, "{}", sat.stderr);
    assert_eq!(sat.stdout, "s UNSATISFIABLE\n");
    assert!(proof.exists());
    // The proof checks against the formula it refutes.
    let plain = postfacto(&["cnf", record.to_str().unwrap()], "");
    let formula = varisat::dimacs::DimacsParser::parse(plain.stdout.as_bytes()).unwrap();
    let text = std::fs::read_to_string(&proof).unwrap();
    assert!(postfacto::sat::check_drat(&formula, &text).is_ok());
    // A satisfiable formula writes no proof.
    let satisfiable = postfacto(
        &["sat", "--proof", proof.to_str().unwrap()],
        "p cnf 1 1\n1 0\n",
    );
    assert_eq!(satisfiable.code, 10, "{}", satisfiable.stderr);
}

#[test]
fn compare_writes_json_lines_with_the_summary_on_stderr() {
    let run = postfacto(
        &[
            "compare",
            "--json",
            "tests/data/sample1.in",
            "tests/data/sample2.in",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    for row in &rows {
        assert_eq!(row["rules"], "english");
        assert_eq!(row["agree"], "yes");
        assert!(row["sat_us"].as_f64().is_some() && row["dfs_nodes"].as_u64().is_some());
    }
    assert!(
        run.stderr.contains("2 records; sat/dfs ratio of medians"),
        "{}",
        run.stderr
    );
}

/// `decode` reads a solver's model of `cnf`'s formula back into the
/// answer, which `verify` accepts; a model that breaks a clause is named
/// by that clause's group, one that is no model at all is bad input.
#[test]
fn decode_turns_a_model_of_the_cnf_back_into_an_answer() {
    for (name, record) in [
        ("decode-sample.in", SAMPLE1),
        ("decode-damaged.in", "B 3\n11-15\n?\n15x?\n"),
    ] {
        let input = scratch(name, record);
        let input = input.to_str().unwrap();
        let cnf = postfacto(&["cnf", input], "");
        assert_eq!(cnf.code, 0, "{}", cnf.stderr);
        let model = postfacto(&["sat", "-"], &cnf.stdout);
        assert_eq!(model.code, 10, "{}", model.stderr);
        let decoded = postfacto(&["decode", input, "-"], &model.stdout);
        assert_eq!(decoded.code, 0, "{name}: {}", decoded.stderr);
        let answer = scratch(&format!("{name}.ans"), &decoded.stdout);
        let judged = postfacto(&["verify", input, answer.to_str().unwrap()], "");
        assert_eq!(judged.stdout, "OK\n", "{name}: {}", judged.stdout);
    }
    let input = scratch("decode-sample.in", SAMPLE1);
    let input = input.to_str().unwrap();
    let cnf = postfacto(&["cnf", input], "").stdout;
    let model = postfacto(&["sat", "-"], &cnf).stdout;
    // The literals alone are a model too; one start-board literal flipped
    // breaks a clause, named with its group.
    let literals: Vec<&str> = model
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .flat_map(str::split_whitespace)
        .filter(|w| *w != "0")
        .collect();
    let bare = postfacto(&["decode", input, "-"], &literals.join(" "));
    assert_eq!(bare.code, 0, "{}", bare.stderr);
    let first_true = literals.iter().position(|w| !w.starts_with('-')).unwrap();
    let mut flipped = literals.clone();
    let negated = format!("-{}", literals[first_true]);
    flipped[first_true] = &negated;
    let broken = postfacto(&["decode", input, "-"], &flipped.join("\n"));
    assert_eq!(broken.code, 1, "{}", broken.stderr);
    assert!(
        broken
            .stderr
            .contains("not a model of the formula: clause ")
            && broken.stderr.contains("(ply "),
        "{}",
        broken.stderr
    );
    let unsat = postfacto(&["decode", input, "-"], "s UNSATISFIABLE\n");
    assert_eq!(unsat.code, 1, "{}", unsat.stderr);
    for (bad, says) in [
        ("1 2 x", "\"x\" is not a literal"),
        ("99999", "variable 99999"),
    ] {
        let run = postfacto(&["decode", input, "-"], bad);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains(says), "{}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
}

/// `bench --format json`: JSON Lines, every object naming its table; the
/// rows carry the columns the text table prints, the notes their figures.
#[test]
fn bench_tables_come_as_json_lines() {
    let args = [
        "bench", "--count", "3", "--plies", "8", "--rules", "russian",
    ];
    let json = postfacto(&[&args[..], &["--format", "json"]].concat(), "");
    assert_eq!(json.code, 0, "{}", json.stderr);
    let objects: Vec<serde_json::Value> = json
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        objects.iter().all(|o| o["table"].is_string()),
        "{}",
        json.stdout
    );
    let sat = objects
        .iter()
        .find(|o| o["table"] == "engines" && o["engine"] == "sat")
        .expect("the sat row");
    for key in ["median_us", "p90_us", "p99_us", "max_us", "inst_per_s"] {
        assert!(sat[key].is_number(), "{key}: {sat}");
    }
    // The size of the formulas built; null when the unit facts settled all.
    for key in ["vars", "clauses"] {
        assert!(sat[key].is_number() || sat[key].is_null(), "{key}: {sat}");
    }
    let answers = objects.iter().find(|o| o["note"] == "sat_answers").unwrap();
    assert_eq!(answers["records"], 3);
    let damaged: Vec<_> = objects
        .iter()
        .filter(|o| o["table"] == "damaged" && o["unknown"].is_number())
        .collect();
    assert_eq!(damaged.len(), 4, "{}", json.stdout);
    assert!(damaged.iter().all(|o| o["solved"] == 3));
    // The text holds the same tables.
    let text = postfacto(&args, "");
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text
        .stdout
        .starts_with("# 3 random russian fragments of 8 moves, seed 1\nengine"));
    assert!(text
        .stdout
        .contains("\n# damaged records: the first 3 fragments"));
}

/// Issue 44, item 26: `solve -q` on a file of diagrams says so in one line,
/// not a line per diagram; without `-q`, each diagram is named.
#[test]
fn r44_26_quiet_diagrams_are_one_line() {
    let game = |n: usize| format!("[Event \"diagram {n}\"]\n[FEN \"W:W21:B1\"]\n*\n\n");
    let file = scratch("diagrams.pdn", &(1..=3).map(game).collect::<String>());
    let file = file.to_str().unwrap();
    let quiet = postfacto(&["solve", "-q", file], "");
    assert_eq!(quiet.code, 0, "{}", quiet.stderr);
    assert_eq!(
        quiet.stderr.trim(),
        "postfacto: 3 games without moves (positions only): nothing to reconstruct"
    );
    let loud = postfacto(&["solve", file], "");
    assert_eq!(
        loud.stderr.matches("no moves (a position only)").count(),
        3,
        "{}",
        loud.stderr
    );
}

/// Issue 44, item 2: a PDN fragment whose captures are written whole is
/// no damaged record for `--from-opening` (it was refused as holding `?`).
#[test]
fn r44_2_from_opening_takes_a_pdn_fragment_with_captures() {
    let game = "[Event \"t\"]\n[GameType \"21\"]\n1. 11-15 22-18 2. 15x22 25x18 3. 8-11 *\n";
    let file = scratch("from-opening.pdn", game);
    let run = postfacto(
        &[
            "solve",
            "--from-opening",
            "--fragment",
            "--limit",
            "60",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("shortest prefix: 0 plies"),
        "{}",
        run.stdout
    );
}

/// Issue 44, item 28: bench's engine table gives the size of the formulas
/// built, not a mean over records that built none (`clauses 2`); null in
/// JSON (and `-` in text) when no record built one, and for the DFS.
#[test]
fn r44_28_bench_sizes_are_of_formulas_built() {
    let run = postfacto(
        &[
            "bench", "--count", "30", "--plies", "60", "--format", "json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .filter(|v: &serde_json::Value| v["table"] == "engines" && v.get("engine").is_some())
        .collect();
    assert_eq!(rows.len(), 2, "{}", run.stdout);
    for row in &rows {
        let clauses = &row["clauses"];
        if row["engine"] == "dfs" {
            assert!(clauses.is_null(), "{row}");
        } else {
            assert!(
                clauses.is_null() || clauses.as_u64().is_some_and(|c| c > 10),
                "{row}"
            );
        }
    }
}
