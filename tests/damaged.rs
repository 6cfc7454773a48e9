//! What is known besides the moves (`shared/spec/damaged.md`): facts about
//! the start and end boards, through the binary and the library.

use std::collections::BTreeSet;

use proptest::prelude::*;

use postfacto::analysis::Analysis;
use postfacto::board::{Board, Color, PartialBoard, Piece, Role, Square, Topology};
use postfacto::encode::BoardFacts;
use postfacto::notation::Record;
use postfacto::random::{damage, random_fragment, Damage, Rng};
use postfacto::replay::{judge, replay};
use postfacto::rules::Variant;
use postfacto::solve::{Outcome, Reconstructor};

use crate::util::{path, postfacto, scratch, square_of, Cases};

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
            "line 1: character 1 is on a light square",
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
        known: postfacto::board::Bits::from(mask) & topology.all_bits(),
    }
    .keep_known()
}

/// Fragments of random games with part of their true start and end
/// boards revealed: always solvable, and the answer keeps every fact.
#[test]
fn revealed_boards_of_random_games_solve() {
    let cases = Cases::new("damaged::revealed_boards_of_random_games_solve", 150);
    proptest!(cases.config(), |(seed in any::<u64>(), start_mask in any::<u64>(), end_mask in any::<u64>(), russian in any::<bool>())| {
        let clock = cases.start();
        let variant = if russian { Variant::Russian } else { Variant::English };
        let rules = variant.rules();
        let mut rng = Rng::new(seed);
        let found = random_fragment(rules, &mut rng, 5, 30);
        prop_assume!(found.is_some(), "the game ended before the fragment");
        let (origin, record) = found.expect("assumed above");
        let end = replay(rules, &origin, &record).unwrap();
        let topology = variant.topology();
        let known = BoardFacts {
            start: Some(revealed(origin, start_mask, topology)),
            end: Some(revealed(end, end_mask, topology)),
        };
        match clock.run(&record, || Reconstructor::new(variant).facts(known).solve(&record)) {
            Ok(Outcome::Solved(solution)) => {
                prop_assert_eq!(judge(rules, &record, &solution.answer), Ok(()));
                for (facts, board) in [(known.start, solution.answer.start), (known.end, solution.answer.end)] {
                    prop_assert_eq!(facts.unwrap().first_difference(&board), None);
                }
            }
            other => prop_assert!(false, "{other:?} for\n{record}"),
        }
        cases.reached();
    });
    cases.check();
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
        fewest.stderr.contains("fewest pieces: 6 with 3 kings"),
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
            "no start position makes these moves legal: 1... 21-17 (ply 1): square 21 is empty, there is no white piece to move"
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

/// A damaged fragment of a random legal game under `variant`: the origin
/// board, the record as played, and the record damaged.
fn damaged_fragment(
    variant: Variant,
    seed: u64,
    damage_of: Damage,
) -> Option<(Board, Record, Record)> {
    let rules = variant.rules();
    let mut rng = Rng::new(seed);
    let plies = if variant == Variant::International {
        16
    } else {
        24
    };
    let (origin, record) = random_fragment(rules, &mut rng, 5, plies)?;
    let damaged = damage(&record, &mut rng, damage_of);
    Some((origin, record, damaged))
}

/// The end board with one square changed: a piece there taken away or
/// turned to the other colour, or a man put on an empty square.
fn one_fact_changed(end: PartialBoard, square: Square) -> PartialBoard {
    let mut changed = end;
    let piece = end.board.get(square);
    let other = match piece {
        Some(p) if p.color == Color::White => Some(Piece::new(Color::Black, p.role)),
        Some(_) => None,
        None if square.crowns(Color::White) => Some(Piece::new(Color::Black, Role::Man)),
        None => Some(Piece::new(Color::White, Role::Man)),
    };
    changed.board.set(square, other);
    changed.known |= square.bit();
    changed
}

/// A damaged case as a failure names it: the rule set, the record, and
/// the squares known on the end board with the board of their pieces.
fn case_text(variant: Variant, record: &Record, known: &BoardFacts) -> String {
    let mut text = format!("{} record:\n{record}", variant.name());
    if let Some(end) = known.end {
        let squares: Vec<String> = variant
            .topology()
            .squares()
            .filter(|s| end.known & s.bit() != 0)
            .map(|s| s.to_string())
            .collect();
        let squares = squares.join(" ");
        text.push_str(&format!("end facts on squares {squares}:\n{}", end.board));
    }
    text
}

/// What `solve` does with a record and facts, as the CLI does it: an
/// answer is judged (exit 0), an impossible record is explained (exit 1).
/// Anything else (undecided, internal error) fails.
fn solve_like_the_cli(
    variant: Variant,
    damaged: &Record,
    known: BoardFacts,
) -> Result<Option<postfacto::solve::Solution>, TestCaseError> {
    let rules = variant.rules();
    match Reconstructor::new(variant).facts(known).solve(damaged) {
        Ok(Outcome::Solved(solution)) => {
            let filled = solution.filled.clone().unwrap_or_else(|| damaged.clone());
            prop_assert_eq!(filled.plies(), damaged.plies());
            for (w, mv) in damaged.written_moves().iter().zip(&filled.moves) {
                prop_assert!(w.matches(mv), "{} filled with {}", w, mv);
            }
            prop_assert_eq!(judge(rules, &filled, &solution.answer), Ok(()));
            prop_assert_eq!(judge(rules, damaged, &solution.answer), Ok(()));
            for (facts, board) in [
                (known.start, solution.answer.start),
                (known.end, solution.answer.end),
            ] {
                if let Some(facts) = facts {
                    prop_assert_eq!(facts.first_difference(&board), None);
                }
            }
            Ok(Some(solution))
        }
        Ok(Outcome::Impossible { .. }) => {
            let explained = Analysis::new(variant)
                .facts(known)
                .explain_impossible(damaged);
            prop_assert!(
                matches!(explained, Ok(Some(_))),
                "impossible, but the explanation gives {:?}\n{}",
                explained,
                damaged
            );
            Ok(None)
        }
        other => Err(TestCaseError::fail(format!("{other:?} for\n{damaged}"))),
    }
}

/// Cases of the damaged-record tests: each encodes several damaged
/// plies, so fewer in the unoptimised build `cargo test` makes (CI), all
/// of them with --release.
const DAMAGED_CASES: u32 = if cfg!(debug_assertions) { 40 } else { 150 };

/// Damaged versions of random legal games under every rule set
/// (captures written short, squares and whole moves blanked, part of
/// the end board revealed): always solved (never undecided), and the
/// filled moves fit what is written and replay from the answer's start
/// board to its end board.
#[test]
fn damaged_random_games_solve_and_their_fillings_replay() {
    let cases = Cases::new(
        "damaged::damaged_random_games_solve_and_their_fillings_replay",
        DAMAGED_CASES,
    );
    proptest!(cases.config(), |(
        seed in any::<u64>(),
        variant_index in any::<prop::sample::Index>(),
        unknown_moves in 0usize..4,
        unknown_squares in 0usize..4,
        short_captures in any::<bool>(),
        end_mask in any::<u64>(),
    )| {
        let clock = cases.start();
        let variant = *variant_index.get(&postfacto::rules::Variant::ALL);
        let damage_of = Damage { unknown_moves, unknown_squares, short_captures };
        let found = damaged_fragment(variant, seed, damage_of);
        prop_assume!(found.is_some(), "the game ended before the fragment");
        let (origin, record, damaged) = found.expect("assumed above");
        let end = replay(variant.rules(), &origin, &record).unwrap();
        let known = BoardFacts {
            start: None,
            end: Some(revealed(end, end_mask, variant.topology())),
        };
        let shown = case_text(variant, &damaged, &known);
        let solved = clock.run(&shown, || solve_like_the_cli(variant, &damaged, known))?;
        prop_assert!(solved.is_some(), "a damaged legal game is impossible:\n{}\nfrom\n{}", damaged, record);
        cases.reached();
    });
    cases.check();
}

/// The same, with one fact of the end board changed: mostly impossible
/// now. Every outcome is an explained rejection or a judged answer,
/// never undecided or an internal error, and the minimum agrees that
/// an impossible record has none.
#[test]
fn damaged_games_with_a_false_end_fact_are_rejected_or_solved() {
    let cases = Cases::new(
        "damaged::damaged_games_with_a_false_end_fact_are_rejected_or_solved",
        DAMAGED_CASES,
    );
    proptest!(cases.config(), |(
        seed in any::<u64>(),
        variant_index in any::<prop::sample::Index>(),
        unknown_moves in 1usize..4,
        unknown_squares in 0usize..3,
        short_captures in any::<bool>(),
        end_mask in any::<u64>(),
        changed in any::<prop::sample::Index>(),
    )| {
        let clock = cases.start();
        let variant = *variant_index.get(&postfacto::rules::Variant::ALL);
        let topology = variant.topology();
        let damage_of = Damage { unknown_moves, unknown_squares, short_captures };
        let found = damaged_fragment(variant, seed, damage_of);
        prop_assume!(found.is_some(), "the game ended before the fragment");
        let (origin, record, damaged) = found.expect("assumed above");
        let end = replay(variant.rules(), &origin, &record).unwrap();
        let square = changed.get(&topology.squares().collect::<Vec<_>>()).to_owned();
        let known = BoardFacts {
            start: None,
            end: Some(one_fact_changed(revealed(end, end_mask, topology), square)),
        };
        let shown = case_text(variant, &damaged, &known);
        if clock.run(&shown, || solve_like_the_cli(variant, &damaged, known))?.is_none() {
            // The minimum's formula says the same: none. (Its search on a
            // solvable record proves its optimum over every capture a
            // damaged ply may make: seconds, left to other tests.)
            match clock.run(&shown, || Analysis::new(variant).facts(known).minimum(&damaged, None)) {
                Ok(minimum) => prop_assert!(minimum.is_none(), "a minimum of an impossible record:\n{}", damaged),
                Err(e) => prop_assert!(false, "the minimum fails: {} for\n{}", e, damaged),
            }
        }
        cases.reached();
    });
    cases.check();
}

/// The issue's "done": a PDN game written the way databases write it
/// (captures short), with a smudged square and a missing move, and the
/// final diagram: a completed game that replays.
#[test]
fn a_torn_pdn_score_sheet_with_its_final_diagram_is_completed() {
    let game = path("tests/data/damaged.pdn");
    let end = path("tests/data/damaged-end.txt");
    let (game, end) = (game.to_str().unwrap(), end.to_str().unwrap());
    let json = postfacto(
        &[
            "solve",
            "--fragment",
            "--end-board",
            end,
            "--format",
            "json",
            game,
        ],
        "",
    );
    assert_eq!(json.code, 0, "{}", json.stderr);
    let value: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let strings = |key: &str| -> Vec<String> {
        value[key]
            .as_array()
            .unwrap_or_else(|| panic!("{key}: {value}"))
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect()
    };
    let (moves, record) = (strings("moves"), strings("record"));
    assert_eq!((moves.len(), record.len()), (16, 16));
    assert_eq!(
        (record[3].as_str(), record[10].as_str(), record[12].as_str()),
        ("19x3", "16-?", "?")
    );
    // Every `?` filled, every landing written out.
    assert_eq!(
        (moves[3].as_str(), moves[10].as_str(), moves[12].as_str()),
        ("19x10x3", "16-20", "20-24")
    );
    // The completed game, with its [FEN], reads back and replays.
    let pdn = postfacto(
        &[
            "solve",
            "--fragment",
            "--end-board",
            end,
            "--format",
            "pdn",
            game,
        ],
        "",
    );
    assert_eq!(pdn.code, 0, "{}", pdn.stderr);
    assert!(pdn.stdout.contains("[FEN \""), "{}", pdn.stdout);
    assert!(
        pdn.stdout
            .contains("16-20 {written 16-?} 24-19 7. 20-24 {written ?}"),
        "{}",
        pdn.stdout
    );
    let file = scratch("completed.pdn", &pdn.stdout);
    let verified = postfacto(&["verify", "--pdn", file.to_str().unwrap()], "");
    assert_eq!(
        (verified.code, verified.stdout.as_str()),
        (0, "game 1 (line 1): OK\n")
    );
    // --explain says the unknowns are forced, and to what.
    let explained = postfacto(
        &["solve", "--fragment", "--end-board", end, "--explain", game],
        "",
    );
    assert_eq!(explained.code, 0, "{}", explained.stderr);
    for line in [
        "2... 19x3 (ply 4): forced to 19x10x3",
        "6. 16-? (ply 11): forced to 16-20",
        "7. ? (ply 13): forced to 20-24",
    ] {
        assert!(
            explained.stdout.contains(line),
            "{line}: {}",
            explained.stdout
        );
    }
}

#[test]
fn without_the_diagram_the_missing_move_is_not_forced_and_completions_are_counted() {
    let game = path("tests/data/damaged.pdn");
    let explained = postfacto(
        &["solve", "--fragment", "--explain", game.to_str().unwrap()],
        "",
    );
    assert_eq!(explained.code, 0, "{}", explained.stderr);
    assert!(
        explained.stdout.contains("6. 16-? (ply 11): not forced"),
        "{}",
        explained.stdout
    );
    let unique = postfacto(
        &["solve", "--fragment", "--unique", game.to_str().unwrap()],
        "",
    );
    assert_eq!(unique.code, 0, "{}", unique.stderr);
    assert!(unique.stdout.contains("not unique"), "{}", unique.stdout);
    let all = postfacto(
        &[
            "solve",
            "--fragment",
            "--all",
            "--count-limit",
            "5",
            "--format",
            "json",
            game.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(all.code, 0, "{}", all.stderr);
    assert!(all.stderr.contains("completions"), "{}", all.stderr);
}

#[test]
fn damaged_moves_in_the_task_format() {
    // A lone '?' and a '?' square; the record is sample 1 damaged.
    let solved = postfacto(&["solve", "--format", "json"], "W 3\n21-17\n13x?x?x24\n?\n");
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    assert!(
        solved
            .stdout
            .contains(r#""record":["21-17","13x?x?x24","?"]"#),
        "{}",
        solved.stdout
    );
    // Some capture of three landings from 13 to 24 fills ply 2.
    let object: serde_json::Value = serde_json::from_str(solved.stdout.trim()).unwrap();
    let filled = object["moves"][1].as_str().unwrap();
    assert!(
        filled.starts_with("13x") && filled.ends_with("x24") && filled.matches('x').count() == 3,
        "{}",
        solved.stdout
    );
    // Written short: bad input without --short-captures, read with it.
    let record = "W 3\n21-17\n13x24\n19x28\n";
    let strict = postfacto(&["solve"], record);
    assert_eq!(strict.code, 2, "{}", strict.stderr);
    let short = postfacto(&["solve", "--short-captures", "--format", "json"], record);
    assert_eq!(short.code, 0, "{}", short.stderr);
    assert!(
        short.stdout.contains(r#""13x22x31x24""#),
        "{}",
        short.stdout
    );
    // The judge fills the same record in from a start board.
    let answer = scratch(
        "sample1-answer.txt",
        &postfacto(&["solve", "--short-captures"], record).stdout,
    );
    let input = scratch("sample1-short.in", record);
    let verified = postfacto(
        &[
            "verify",
            "--short-captures",
            input.to_str().unwrap(),
            answer.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(
        (verified.code, verified.stdout.as_str()),
        (0, "OK\n"),
        "{}",
        verified.stderr
    );
    // The formula names the damaged ply's variables and the board after it.
    let cnf = postfacto(&["cnf"], "W 3\n21-17\n13x?x?x24\n19x28\n");
    assert_eq!(cnf.code, 0, "{}", cnf.stderr);
    for name in [
        "= ply 2 starts on 13",
        "= ply 2 step 1 lands on 22",
        "= ply 2 step 3 lands on 24",
        "= after ply 2: sq1 occupied",
    ] {
        assert!(cnf.stdout.contains(name), "{name}: {}", cnf.stdout);
    }
}

#[test]
fn impossible_damaged_records_say_why_and_have_no_moves() {
    // Nothing White can play lands on 17 and then moves from 21.
    let run = postfacto(&["solve", "--format", "json"], "W 2\n?-17\n21-17\n");
    assert_eq!(run.code, 1, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(value["moves"].is_null(), "{value}");
    assert_eq!(value["record"], serde_json::json!(["?-17", "21-17"]));
    // Nor does an impossible record with every square written.
    let clean = postfacto(&["solve", "--format", "json"], "W 2\n21-17\n17-13\n");
    assert_eq!(clean.code, 1, "{}", clean.stderr);
    let value: serde_json::Value = serde_json::from_str(&clean.stdout).unwrap();
    assert!(value["moves"].is_null(), "{value}");
    assert_eq!(value["record"], serde_json::json!(["21-17", "17-13"]));
    // No move of Black fits: White's man stands on 17.
    let none = postfacto(&["solve"], "W 2\n21-17\n17x?\n");
    assert_eq!(none.code, 1, "{}", none.stderr);
    assert_eq!(none.stderr.lines().count(), 1, "{}", none.stderr);
    assert!(none.stderr.contains("ply 2"), "{}", none.stderr);
    // A fact that no filling reaches is named.
    let fact = scratch(
        "end-18-black.txt",
        "-?-?-?-?\n?-?-?-?-\n-?-?-?-?\n?-?-?-?-\n-?-b-?-?\n?-?-?-?-\n-?-?-?-?\n?-?-?-?-\n",
    );
    let named = postfacto(
        &["solve", "--end-board", fact.to_str().unwrap()],
        "B 2\n9-13\n?x18\n",
    );
    assert_eq!(named.code, 1, "{}", named.stderr);
    assert!(
        named.stderr.contains("end board square 18"),
        "{}",
        named.stderr
    );
}

#[test]
fn damaged_input_errors_are_one_line_and_exit_2() {
    let cases: [(&[&str], &str, &str); 6] = [
        (
            &["solve"],
            "W 1\n13x?x20\n",
            "no move fits it, even on an empty board",
        ),
        (&["solve"], "W 1\n1-?-5\n", "names exactly two squares"),
        (&["solve"], "W 1\n?-33\n", "'33'"),
        (
            &["solve", "--engine", "dfs"],
            "W 1\n?-17\n",
            "the SAT engine does",
        ),
        // A '?' where a number is required: a FEN, an answer board.
        (&["solve"], "[FEN \"W:W?,21:B12\"]\n1. 21-17 *\n", "line 1"),
        (
            &["moves", "--turn", "white"],
            "-?-.-.-.\n.-.-.-.-\n-.-.-.-.\n.-.-.-.-\n-.-.-.-.\n.-.-.-.-\n-.-.-.-.\n.-.-.-.-\n",
            "?",
        ),
    ];
    for (args, stdin, want) in cases {
        let run = postfacto(args, stdin);
        assert_eq!(run.code, 2, "{stdin}: {}", run.stderr);
        assert!(run.stderr.contains(want), "{stdin}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{stdin}: {}", run.stderr);
    }
}

#[test]
fn facts_go_to_outside_solvers_and_into_proofs() {
    let end = path("tests/data/damaged-end.txt");
    let game = path("tests/data/damaged.pdn");
    let (end, game) = (end.to_str().unwrap(), game.to_str().unwrap());
    // The embedded solver behind `postfacto sat` stands in for an outside one.
    let solver = format!("{} sat", env!("CARGO_BIN_EXE_postfacto"));
    let outside = postfacto(
        &[
            "solve",
            "--fragment",
            "--end-board",
            end,
            "--solver",
            &solver,
            "--format",
            "fen",
            game,
        ],
        "",
    );
    assert_eq!(outside.code, 0, "{}", outside.stderr);
    let own = postfacto(
        &[
            "solve",
            "--fragment",
            "--end-board",
            end,
            "--format",
            "fen",
            game,
        ],
        "",
    );
    // Both reach the diagram's board.
    assert_eq!(
        outside.stdout.lines().nth(1),
        own.stdout.lines().nth(1),
        "{}",
        outside.stdout
    );
    // A fact no game reaches: the proof checks against `cnf` with the same fact.
    let fact = scratch(
        "end-28-empty.txt",
        "-?-?-?-?\n?-?-?-?-\n-?-?-?-?\n?-?-?-?-\n-?-?-?-?\n?-?-?-?-\n-?-?-?-.\n?-?-?-?-\n",
    );
    let proof = fact.with_extension("drat");
    let _ = std::fs::remove_file(&proof);
    let fact = fact.to_str().unwrap();
    let run = postfacto(
        &[
            "solve",
            "--fragment",
            "--end-board",
            fact,
            "--proof",
            proof.to_str().unwrap(),
            &sample1(),
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let cnf = postfacto(&["cnf", "--end-board", fact, &sample1()], "");
    assert_eq!(cnf.code, 0, "{}", cnf.stderr);
    let formula = varisat::dimacs::DimacsParser::parse(cnf.stdout.as_bytes()).unwrap();
    let written = std::fs::read_to_string(&proof).expect("a proof is written");
    postfacto::analysis::check_drat(&formula, &written).expect("the proof checks");
}

#[test]
fn pdn_captures_written_whole_are_tried_as_written_first() {
    // PDN reads captures short, but one written whole is tried as written:
    // the DFS engine takes such games, and the answer plays them as written.
    let games = path("tests/data/games.pdn");
    let games = games.to_str().unwrap();
    let dfs = postfacto(
        &[
            "solve",
            "--fragment",
            "--engine",
            "dfs",
            "--format",
            "fen",
            games,
        ],
        "",
    );
    assert_eq!(dfs.code, 0, "{}", dfs.stderr);
    let sat = postfacto(&["solve", "--fragment", "--format", "fen", games], "");
    assert_eq!(sat.stdout, dfs.stdout);
    let json = postfacto(&["solve", "--fragment", "--format", "json", games], "");
    assert!(
        json.stdout
            .contains(r#""moves":["21-17","13x22x31x24","19x28"]"#),
        "{}",
        json.stdout
    );
}

#[test]
fn generate_writes_damaged_fragments_that_solve() {
    let args = [
        "generate",
        "--plies",
        "30",
        "--count",
        "5",
        "--seed",
        "4",
        "--unknown-moves",
        "2",
        "--unknown-squares",
        "2",
        "--short-captures",
    ];
    let generated = postfacto(&args, "");
    assert_eq!(generated.code, 0, "{}", generated.stderr);
    assert!(generated.stdout.contains("?\n"), "{}", generated.stdout);
    // The same fragments as without damage: the headers agree.
    let clean = postfacto(&args[..7], "");
    let headers = |text: &str| {
        text.lines()
            .filter(|l| l.starts_with(['B', 'W']))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(headers(&generated.stdout), headers(&clean.stdout));
    let solved = postfacto(&["solve", "--short-captures", "--quiet"], &generated.stdout);
    assert_eq!(solved.code, 0, "{}", solved.stderr);
}

/// Every model's move of `record`'s one damaged ply (a lone `?` as ply
/// 1), on a start board every square of which is a fact, with every
/// capture step written: the moves the formula allows.
fn moves_the_formula_allows(variant: Variant, board: Board, side: Color) -> BTreeSet<Vec<Square>> {
    use postfacto::encode::EncodeOptions;
    use postfacto::notation::{MovePattern, WrittenMove};
    use postfacto::solve::Formula;
    let topology = variant.topology();
    let record = Record::from_written(side, vec![WrittenMove::Pattern(MovePattern::Unknown)], 0);
    let known = BoardFacts {
        start: Some(PartialBoard {
            board,
            known: topology.all_bits(),
        }),
        end: None,
    };
    let mut cnf = varisat::CnfFormula::new();
    let options = EncodeOptions {
        complete: true,
        ..EncodeOptions::default()
    };
    let formula = Formula::encode(variant, &record, known, &mut cnf, options).unwrap();
    let layout = formula.encoded.layout.as_ref().expect("a damaged record");
    let mut solver = varisat::Solver::new();
    solver.add_formula(&cnf);
    let mut found = BTreeSet::new();
    while solver.solve().unwrap() {
        let model = solver.model().unwrap();
        let (_, mv) = layout
            .decode(&model, topology)
            .pop()
            .expect("the model plays a move");
        found.insert(mv.path().to_vec());
        // Block this move: some part of the move's variables differs.
        let vars = &layout.moves[0];
        let mut lits: Vec<varisat::Lit> = vars.from.lits();
        lits.extend(vars.simple_to.lits());
        lits.extend(vars.ends.lits());
        for step in &vars.steps {
            lits.extend(step.lands.lits());
            // Whether the step happens, both ways: a capture that lands
            // again where a shorter one ended (a king's, on 10x10) has
            // the shorter one's true literals, and one more step.
            lits.extend([step.active, !step.active]);
        }
        let block: Vec<varisat::Lit> = lits
            .into_iter()
            .filter(|l| model.contains(l))
            .map(|l| !l)
            .collect();
        varisat::ExtendFormula::add_clause(&mut solver, &block);
    }
    found
}

/// The moves the rules allow when the rules over other moves (compulsory
/// capture, going on) are left out: every step (or flight) of a piece to
/// an empty square, and every capture cut after any of its jumps.
fn moves_of_the_piece_rules(variant: Variant, board: &Board, side: Color) -> BTreeSet<Vec<Square>> {
    let rules = variant.rules();
    let mut out = BTreeSet::new();
    for capture in rules.capture_sequences(board, side) {
        for end in 2..=capture.path().len() {
            out.insert(capture.path()[..end].to_vec());
        }
    }
    for from in board.squares_of(side) {
        let piece = board.get(from).unwrap();
        for dir in postfacto::board::Direction::ALL {
            if !piece.is_king() && !side.is_forward(dir) {
                continue;
            }
            let mut at = from.step(dir);
            while let Some(to) = at.filter(|&s| board.is_empty(s)) {
                out.insert(vec![from, to]);
                if !(piece.is_king() && rules.movement().flying_kings) {
                    break;
                }
                at = to.step(dir);
            }
        }
    }
    out
}

/// The encoding of a damaged move's own rules is exact: on a known
/// board, the moves its models play are every simple move and every
/// capture cut after any jump, no more. (Under the rule sets whose
/// captures may stop on any landing, every cut capture is a prefix of
/// a complete one; Russian's king must land where it can go on, a rule
/// over other landings, so it is left out here.)
#[test]
fn a_damaged_move_is_exactly_the_moves_its_piece_can_make() {
    let cases = Cases::new(
        "damaged::a_damaged_move_is_exactly_the_moves_its_piece_can_make",
        if cfg!(debug_assertions) { 16 } else { 64 },
    );
    proptest!(cases.config(), |(
        seed in any::<u64>(),
        density in 10u32..60,
        kings in 0u32..50,
        white in any::<bool>(),
        rule in 0usize..5,
    )| {
        use postfacto::random::random_board_on;
        let clock = cases.start();
        let variant = [Variant::English, Variant::Brazilian, Variant::Pool, Variant::Czech, Variant::International][rule];
        let board = random_board_on(&mut Rng::new(seed), variant.topology(), density, kings);
        let side = if white { Color::White } else { Color::Black };
        let allowed = clock.run(&board, || moves_the_formula_allows(variant, board, side));
        let want = moves_of_the_piece_rules(variant, &board, side);
        prop_assert_eq!(allowed, want, "on\n{}", board);
        cases.reached();
    });
    cases.check();
}

/// A king's capture on 10x10 may end on a square it landed on before
/// (`35x24x13x27x38x24`): its model holds every true literal of the
/// shorter capture that ended there, so blocking a move must say that no
/// further step happens, or the longer one is never seen (a random seed
/// once found this board).
#[test]
fn a_capture_that_lands_again_where_it_passed_is_a_move_of_its_own() {
    use postfacto::random::random_board_on;
    let variant = Variant::International;
    let board = random_board_on(
        &mut Rng::new(16148588095611712858),
        variant.topology(),
        41,
        31,
    );
    let allowed = moves_the_formula_allows(variant, board, Color::Black);
    let again = allowed.iter().find(|path| {
        path.len() > 2 && path[1..path.len() - 1].contains(path.last().expect("a path"))
    });
    assert!(again.is_some(), "no capture lands again on\n{board}");
    assert_eq!(
        allowed,
        moves_of_the_piece_rules(variant, &board, Color::Black)
    );
}

#[test]
fn a_capture_written_whole_is_not_a_damaged_move() {
    let game = scratch(
        "whole-capture.pdn",
        "[GameType \"21\"]\n1. 11-15 23-19 2. 15x24 28x19 *\n",
    );
    let game = game.to_str().unwrap();
    let cnf = postfacto(&["cnf", "--fragment", game], "");
    assert_eq!(cnf.code, 0, "{}", cnf.stderr);
    assert!(!cnf.stdout.contains("damaged plies"), "{}", cnf.stdout);
    let explained = postfacto(&["solve", "--fragment", "--explain", game], "");
    assert_eq!(explained.code, 0, "{}", explained.stderr);
    assert!(
        !explained.stdout.contains("damaged moves"),
        "{}",
        explained.stdout
    );
}

/// The judge never rejects a valid answer because its search for the
/// damaged moves' filling was cut short: with many `?` on an open board,
/// a search that gives up is undecided (exit 3) and says so; `--limit`
/// bounds it by time instead of positions.
#[test]
fn a_judge_that_gives_up_is_undecided_not_a_rejection() {
    // A generated record with `unknown` of its 40 plies a lone `?`, and
    // the answer `solve` gives it, judged within 300 ms.
    let judged = |name: &str, unknown: &str| {
        let records = postfacto(
            &[
                "generate",
                "--count",
                "1",
                "--plies",
                "40",
                "--unknown-moves",
                unknown,
                "--seed",
                "7",
            ],
            "",
        );
        assert_eq!(records.code, 0, "{}", records.stderr);
        let input = scratch(&format!("{name}.in"), &records.stdout);
        let solved = postfacto(&["solve", input.to_str().unwrap()], "");
        assert_eq!(solved.code, 0, "{}", solved.stderr);
        let answer = scratch(&format!("{name}.ans"), &solved.stdout);
        let (input, answer) = (input.to_str().unwrap(), answer.to_str().unwrap());
        postfacto(&["verify", "--limit", "300ms", input, answer], "")
    };
    let judged_many = judged("many-unknowns", "20");
    assert_eq!(
        judged_many.code, 3,
        "{}{}",
        judged_many.stdout, judged_many.stderr
    );
    assert!(
        judged_many.stdout.starts_with(
            "undecided: the search for moves that fit the damaged ones stopped after "
        ) && judged_many
            .stdout
            .contains("--limit gives the search more time"),
        "{}",
        judged_many.stdout
    );
    // A record with few unknowns is confirmed within the same limit.
    let judged_few = judged("few-unknowns", "5");
    assert_eq!(judged_few.stdout, "OK\n", "{}", judged_few.stderr);
}

#[test]
fn a_lone_unknown_that_no_capture_fits_is_refuted_quickly() {
    // The 10-ply prefix of a Canadian repair (issue 43): ply 6 may be no
    // move of Black, a capture of any length included. Refuting that took
    // 8.7 s of CPU (release) when the solver had to learn, step by step,
    // that no step takes the piece on 10; over the move's summary it learns
    // it once (0.07 s).
    let record =
        "W 10\n71-64\n40x60x71x58\n27x40x51x64\n28x15\n17-24\n?\n3-16\n66-72\n16-33\n72x26x10\n";
    let run = postfacto(&["solve", "--rules", "canadian", "--limit", "8"], record);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("no start position"), "{}", run.stderr);
    // A record whose lone `?` fits only captures of 4 jumps or more (a
    // simple move or 1, 2 or 3 jumps there are impossible): it keeps its
    // answer, which no bound on the capture's length below 4 would.
    let long = "B 5\n72x39\n50-44\n34x23\n?\n36x10x26x72\n";
    let args = [
        "solve", "--rules", "canadian", "--format", "json", "--limit", "20",
    ];
    let run = postfacto(&args, long);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let filled = value["moves"][3].as_str().unwrap().to_string();
    assert!(filled.matches('x').count() >= 4, "{filled}");
    for short in ["?-?", "?x?", "?x?x?", "?x?x?x?"] {
        let written = long.replacen("\n?\n", &format!("\n{short}\n"), 1);
        let run = postfacto(&["solve", "--rules", "canadian", "--limit", "20"], &written);
        assert_eq!(run.code, 1, "{short}: {}{}", run.stdout, run.stderr);
    }
}
