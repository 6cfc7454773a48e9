//! What is known besides the moves (`shared/spec/damaged.md`): facts about
//! the start and end boards, through the binary and the library.

use proptest::prelude::*;

use postfacto::board::{Board, PartialBoard, Topology};
use postfacto::encode::BoardFacts;
use postfacto::random::{damage, random_fragment, Damage, Rng};
use postfacto::replay::{judge, replay};
use postfacto::rules::Variant;
use postfacto::solve::{solve_knowing, Engine, Outcome};

use crate::util::{path, postfacto, scratch, square_of};

fn sample1() -> String {
    path("tests/data/sample1.in").to_str().unwrap().to_string()
}

#[test]
fn a_known_end_board_is_reached_and_a_contradicting_fact_is_named() {
    let solved = postfacto(&["solve", &sample1()], "");
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    // The whole end board as a fact: still solvable, and reached.
    let end: String = solved
        .stdout
        .lines()
        .map(|l| format!("{}\n", &l[9..]))
        .collect();
    let end_file = scratch("sample1-end.txt", &end);
    let again = postfacto(
        &[
            "solve",
            "--end-board",
            end_file.to_str().unwrap(),
            &sample1(),
        ],
        "",
    );
    assert_eq!(again.code, 0, "{}", again.stderr);
    let reached: String = again
        .stdout
        .lines()
        .map(|l| format!("{}\n", &l[9..]))
        .collect();
    assert_eq!(reached, end);
    // A black man on 27 at the end: 27 was emptied by ply 2.
    let fact = "-?-?-?-?\n?-?-?-?-\n-?-?-?-?\n?-?-?-?-\n-?-?-?-?\n?-?-?-?-\n-?-?-b-?\n?-?-?-?-\n";
    let fact_file = scratch("sample1-end-27.txt", fact);
    let run = postfacto(
        &[
            "solve",
            "--end-board",
            fact_file.to_str().unwrap(),
            &sample1(),
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("end board square 27 holds a black man: square 27 was emptied by ply 2"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_start_fact_chooses_among_the_answers() {
    // Sample 1 may start with a white man or a white king on 26; pin the king.
    let fact = "-?-?-?-?\n?-?-?-?-\n-?-?-?-?\n?-?-?-?-\n-?-?-?-?\n?-?-?-?-\n-?-W-?-?\n?-?-?-?-\n";
    let file = scratch("sample1-start-26.txt", fact);
    let run = postfacto(
        &["solve", "--start-board", file.to_str().unwrap(), &sample1()],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(square_of(&run.stdout, 0, 26), 'W', "{}", run.stdout);
    let explained = postfacto(
        &[
            "solve",
            "--explain",
            "--start-board",
            file.to_str().unwrap(),
            &sample1(),
        ],
        "",
    );
    assert!(
        explained.stdout.contains("king: forced by the start board"),
        "{}",
        explained.stdout
    );
}

#[test]
fn bad_fact_files_are_one_line_and_exit_2() {
    let cases = [
        (
            "-?-?-?-?\n?-?-?-?-\n",
            "line 2: a board has 8 lines, found 2",
        ),
        (
            "w?-?-?-?\n?-?-?-?-\n-?-?-?-?\n?-?-?-?-\n-?-?-?-?\n?-?-?-?-\n-?-?-?-?\n?-?-?-?-\n",
            "column 1 is a light square",
        ),
        (
            "-?-?-?-?\n?-?-?-?-\n-?-?-?-?\n?-?-?-?-\n-?-?-?-?\n?-?-?-?-\n-?-?-?-?\nb-?-?-?-\n",
            "not a start board",
        ),
    ];
    for (i, (text, want)) in cases.into_iter().enumerate() {
        let file = scratch(&format!("bad-facts-{i}.txt"), text);
        let run = postfacto(
            &["solve", "--start-board", file.to_str().unwrap(), &sample1()],
            "",
        );
        assert_eq!(run.code, 2, "{want}: {}", run.stderr);
        assert!(run.stderr.contains(want), "{want}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
    let fine = scratch("facts-none.txt", &"-?-?-?-?\n?-?-?-?-\n".repeat(4));
    let dfs = postfacto(
        &[
            "solve",
            "--engine",
            "dfs",
            "--start-board",
            fine.to_str().unwrap(),
            &sample1(),
        ],
        "",
    );
    assert_eq!(dfs.code, 2, "{}", dfs.stderr);
    assert!(dfs.stderr.contains("SAT engine"), "{}", dfs.stderr);
}

/// Some squares of `board` revealed, as `mask` says.
fn revealed(board: Board, mask: u64, topology: Topology) -> PartialBoard {
    PartialBoard {
        board: board.with_topology(topology),
        known: mask & topology.all_bits(),
    }
    .keep_known()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    /// Fragments of random games with part of their true start and end
    /// boards revealed: always solvable, and the answer keeps every fact.
    #[test]
    fn revealed_boards_of_random_games_solve(seed in any::<u64>(), start_mask in any::<u64>(), end_mask in any::<u64>(), russian in any::<bool>()) {
        let variant = if russian { Variant::Russian } else { Variant::English };
        let rules = variant.rules();
        let mut rng = Rng::new(seed);
        let Some((origin, record)) = random_fragment(rules, &mut rng, 5, 30) else { return Ok(()) };
        let end = replay(rules, &origin, &record).unwrap();
        let topology = variant.topology();
        let known = BoardFacts {
            start: Some(revealed(origin, start_mask, topology)),
            end: Some(revealed(end, end_mask, topology)),
        };
        match solve_knowing(&record, Engine::Sat, variant, known) {
            Ok(Outcome::Solved(solution)) => {
                prop_assert_eq!(judge(rules, &record, &solution.answer), Ok(()));
                for (facts, board) in [(known.start, solution.answer.start), (known.end, solution.answer.end)] {
                    prop_assert_eq!(facts.unwrap().first_difference(&board), None);
                }
            }
            other => prop_assert!(false, "{other:?} for\n{record}"),
        }
    }
}

#[test]
fn counts_and_minima_respect_the_facts() {
    let fact = "-?-?-?-?\n?-?-?-?-\n-?-?-?-?\n?-?-?-?-\n-?-?-?-?\n?-?-?-?-\n-?-W-?-?\n?-?-?-?-\n";
    let file = scratch("sample1-start-26-count.txt", fact);
    let facts = file.to_str().unwrap();
    let all = postfacto(&["solve", "--count", &sample1()], "");
    assert!(all.stdout.contains(": 8 start boards"), "{}", all.stdout);
    // Half of sample 1's boards have a man on 26.
    let pinned = postfacto(
        &["solve", "--count", "--start-board", facts, &sample1()],
        "",
    );
    assert_eq!(pinned.code, 0, "{}", pinned.stderr);
    assert!(
        pinned.stdout.contains(": 4 start boards"),
        "{}",
        pinned.stdout
    );
    let fewest = postfacto(
        &[
            "solve",
            "--minimize",
            "pieces",
            "--start-board",
            facts,
            &sample1(),
        ],
        "",
    );
    assert_eq!(fewest.code, 0, "{}", fewest.stderr);
    assert!(
        fewest.stderr.contains("fewest pieces: 6 with 3 king(s)"),
        "{}",
        fewest.stderr
    );
    assert_eq!(square_of(&fewest.stdout, 0, 26), 'W', "{}", fewest.stdout);
}

#[test]
fn a_pdn_fen_pins_the_start_board() {
    let game = |fen: &str| {
        format!("[Event \"x\"]\n[GameType \"21\"]\n[FEN \"{fen}\"]\n\n1. 21-17 10-14 *\n")
    };
    let fine = scratch("fen-fine.pdn", &game("W:W21,26:B10"));
    let run = postfacto(&["solve", fine.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Exactly the FEN's pieces: no other answer is allowed.
    assert_eq!(square_of(&run.stdout, 0, 21), 'w', "{}", run.stdout);
    assert_eq!(square_of(&run.stdout, 0, 26), 'w', "{}", run.stdout);
    assert_eq!(
        run.stdout
            .lines()
            .map(|l| l[..8].matches(['w', 'b']).count())
            .sum::<usize>(),
        3
    );
    let wrong = scratch("fen-wrong.pdn", &game("W:W22,26:B10"));
    let run = postfacto(&["solve", wrong.to_str().unwrap()], "");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "start board square 21 is empty; but ply 1 (21-17, White) needs a white piece on 21"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn pdn_output_reads_back_and_verifies() {
    for (rules, input) in [
        ("english", "tests/data/sample1.in"),
        ("english", "tests/data/sample2.in"),
        ("russian", "tests/data/russian1.in"),
        ("brazilian", "tests/data/brazilian1.in"),
        ("international", "tests/data/international1.in"),
    ] {
        let file = path(input);
        let run = postfacto(
            &[
                "solve",
                "--rules",
                rules,
                "--format",
                "pdn",
                file.to_str().unwrap(),
            ],
            "",
        );
        assert_eq!(run.code, 0, "{input}: {}", run.stderr);
        assert!(run.stdout.starts_with("[Event "), "{}", run.stdout);
        assert!(run.stdout.contains("[FEN \""), "{}", run.stdout);
        let pdn = scratch(
            &format!(
                "out-{rules}-{}.pdn",
                file.file_stem().unwrap().to_str().unwrap()
            ),
            &run.stdout,
        );
        let verified = postfacto(
            &["verify", "--rules", rules, "--pdn", pdn.to_str().unwrap()],
            "",
        );
        assert_eq!(
            (verified.code, verified.stdout.trim()),
            (0, "game 1 (line 1): OK"),
            "{}\n{}",
            run.stdout,
            verified.stderr
        );
    }
    // JSON: the moves as played and as written.
    let json = postfacto(
        &[
            "solve",
            "--format",
            "json",
            path("tests/data/sample1.in").to_str().unwrap(),
        ],
        "",
    );
    let object: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert_eq!(object["record"], object["moves"]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    /// Damaged versions of random legal games (captures written short,
    /// squares and whole moves blanked, part of the end board revealed):
    /// always solvable, and the filled moves fit what is written and replay
    /// from the answer's start board to its end board.
    #[test]
    fn damaged_random_games_solve_and_their_fillings_replay(
        seed in any::<u64>(),
        variant_index in 0usize..4,
        unknown_moves in 0usize..3,
        unknown_squares in 0usize..4,
        short_captures in any::<bool>(),
        end_mask in any::<u64>(),
    ) {
        let variant = Variant::ALL[variant_index];
        let rules = variant.rules();
        let mut rng = Rng::new(seed);
        // The majority rules list far more moves per damaged ply on boards
        // this unknown (every square may hold a king): shorter records, and
        // on 10x10 no short captures (seconds each; encodings/damaged.md).
        let majority = matches!(variant, Variant::Brazilian | Variant::International);
        let plies = if majority { 12 } else { 24 };
        let short_captures = short_captures && variant != Variant::International;
        let Some((origin, record)) = random_fragment(rules, &mut rng, 5, plies) else { return Ok(()) };
        let end = replay(rules, &origin, &record).unwrap();
        let damaged = damage(&record, &mut rng, Damage { unknown_moves, unknown_squares, short_captures });
        let known = BoardFacts {
            start: None,
            end: Some(revealed(end, end_mask, variant.topology())),
        };
        match solve_knowing(&damaged, Engine::Sat, variant, known) {
            Ok(Outcome::Solved(solution)) => {
                let filled = solution.filled.clone().unwrap_or_else(|| damaged.clone());
                prop_assert_eq!(filled.plies(), damaged.plies());
                for (w, mv) in damaged.written_moves().iter().zip(&filled.moves) {
                    prop_assert!(w.matches(mv), "{} filled with {}", w, mv);
                }
                prop_assert_eq!(judge(rules, &filled, &solution.answer), Ok(()));
                prop_assert_eq!(judge(rules, &damaged, &solution.answer), Ok(()));
                prop_assert_eq!(known.end.unwrap().first_difference(&solution.answer.end), None);
            }
            // Too many moves to list is a limit (exit 3), allowed where
            // the listing is largest.
            Err(e) if majority && e.is_undecided() => {}
            Ok(Outcome::GaveUp { .. }) if majority => {}
            other => prop_assert!(false, "{other:?} for\n{damaged}\nfrom\n{record}"),
        }
    }
}
