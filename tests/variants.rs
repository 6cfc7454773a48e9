//! The rule sets side by side: move generators pinned by perft counts,
//! random games that replay, and the 10x10 board's bad input.

use postfacto::board::Color;
use postfacto::rules::{perft, Variant};

use crate::util::{path, postfacto, scratch, solve_with_proof, Cases};

fn variant(name: &str) -> Variant {
    Variant::ALL
        .into_iter()
        .find(|v| v.name() == name)
        .expect("a known rule set")
}

#[test]
fn perft_counts_from_the_openings() {
    let text = std::fs::read_to_string(path("tests/data/perft.txt")).unwrap();
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut words = line.split_whitespace();
        let v = variant(words.next().unwrap());
        let first = Color::from_letter(words.next().unwrap()).unwrap();
        assert_eq!(first, v.first_player(), "{line}");
        let board = v.topology().opening();
        for (depth, want) in (1..).zip(words) {
            let want: u64 = want.parse().unwrap();
            assert_eq!(
                perft(v.rules(), &board, first, depth),
                want,
                "{} depth {depth}",
                v.name()
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 60);
}

/// Every generated move plays; every one-segment move, every generated
/// capture cut short by one landing and every capture made one landing
/// longer plays exactly when it is generated.
fn moves_and_play_agree(
    v: Variant,
    board: &postfacto::board::Board,
    side: Color,
) -> Result<(), proptest::test_runner::TestCaseError> {
    use postfacto::board::Direction;
    use postfacto::notation::MoveText;
    use proptest::prelude::*;
    let rules = v.rules();
    let legal = rules.legal_moves(board, side);
    let mut candidates = legal.clone();
    for from in board.squares_of(side) {
        for dir in Direction::ALL {
            for to in std::iter::successors(from.step(dir), |s| s.step(dir)) {
                candidates.extend(MoveText::along(vec![from, to], false));
                candidates.extend(MoveText::along(vec![from, to], true));
            }
        }
    }
    for mv in &legal {
        prop_assert!(
            rules.play(board, side, mv).is_ok(),
            "{} on\n{}",
            v.write_move(mv),
            board
        );
        let path = mv.path();
        if path.len() > 2 {
            candidates.extend(MoveText::along(path[..path.len() - 1].to_vec(), true));
        }
        for dir in Direction::ALL {
            for to in std::iter::successors(mv.to().step(dir), |s| s.step(dir)) {
                let mut longer = path.to_vec();
                longer.push(to);
                candidates.extend(MoveText::along(longer, true));
            }
        }
    }
    for mv in candidates {
        let plays = rules.play(board, side, &mv).is_ok();
        prop_assert_eq!(
            plays,
            legal.contains(&mv),
            "{} on\n{}",
            v.write_move(&mv),
            board
        );
    }
    Ok(())
}

#[test]
fn flying_moves_and_play_agree() {
    let cases = Cases::new("variants::flying_moves_and_play_agree", 300);
    proptest::proptest!(cases.config(), |(seed in 0u64..u64::MAX, density in 10u32..70, white: bool)| {
        use postfacto::random::{random_board_on, Rng};
        let _clock = cases.start();
        let side = if white { Color::White } else { Color::Black };
        for v in FLYING {
            let board = random_board_on(&mut Rng::new(seed), v.topology(), density, 30);
            moves_and_play_agree(v, &board, side)?;
        }
        cases.reached();
    });
    cases.check();
}

/// The flying-king rule sets besides Russian (which has tests of its own).
const FLYING: [Variant; 7] = [
    Variant::Brazilian,
    Variant::International,
    Variant::Pool,
    Variant::Czech,
    Variant::Spanish,
    Variant::Portuguese,
    Variant::Canadian,
];

/// Fragments of random games under the new rules: their moves replay from
/// the board they were cut from, and `verify` accepts that board with the
/// replayer's end board, through the 10x10 (or 8x8) answer text. (A case
/// runs the binary once per rule set whose game lasted long enough.)
#[test]
fn random_fragments_replay_and_verify() {
    let cases = Cases::new("variants::random_fragments_replay_and_verify", 48);
    proptest::proptest!(cases.config(), |(seed in 0u64..u64::MAX)| {
        use postfacto::notation::Answer;
        use postfacto::random::{random_fragment, Rng};
        use postfacto::replay::replay;
        let clock = cases.start();
        let fragments: Vec<_> = FLYING
            .into_iter()
            .filter_map(|v| Some((v, random_fragment(v.rules(), &mut Rng::new(seed), 10, 30)?)))
            .collect();
        proptest::prop_assume!(!fragments.is_empty(), "every game ended before the fragment");
        for (v, (start, record)) in fragments {
            let end = replay(v.rules(), &start, &record);
            proptest::prop_assert!(end.is_ok(), "{end:?}");
            let answer = Answer { start, end: end.unwrap() };
            let record_text = if v.algebraic() { record.algebraic() } else { record.to_string() };
            let input = scratch(&format!("fragment-{}-{seed}.in", v.name()), &record_text);
            let output = scratch(&format!("fragment-{}-{seed}.ans", v.name()), &answer.to_string());
            let run = clock.run(&record_text, || postfacto(
                &["verify", "--rules", v.name(), input.to_str().unwrap(), output.to_str().unwrap()],
                "",
            ));
            proptest::prop_assert_eq!((run.code, run.stdout.trim()), (0, "OK"), "{}", run.stderr);
        }
        cases.reached();
    });
    cases.check();
}

/// `verify --rules international INPUT ANSWER`.
fn verify_ten(input: &std::path::Path, answer: &std::path::Path) -> crate::util::Run {
    verify_under("international", input, answer)
}

/// `verify --rules RULES INPUT ANSWER`.
fn verify_under(
    rules: &str,
    input: &std::path::Path,
    answer: &std::path::Path,
) -> crate::util::Run {
    let (input, answer) = (input.to_str().unwrap(), answer.to_str().unwrap());
    postfacto(&["verify", "--rules", rules, input, answer], "")
}

#[test]
fn the_ten_board_through_the_binary() {
    // The opening: nine moves for White.
    let opening = "-b-b-b-b-b\nb-b-b-b-b-\n-b-b-b-b-b\nb-b-b-b-b-\n-.-.-.-.-.\n\
                   .-.-.-.-.-\n-w-w-w-w-w\nw-w-w-w-w-\n-w-w-w-w-w\nw-w-w-w-w-\n";
    let run = postfacto(
        &["moves", "--rules", "international", "--turn", "white"],
        opening,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "31-26\n31-27\n32-27\n32-28\n33-28\n33-29\n34-29\n34-30\n35-30\n"
    );
    // An 8-line board is not a 10x10 board.
    let eight = "........\n".repeat(8);
    let short = postfacto(
        &["moves", "--rules", "international", "--turn", "white"],
        &eight,
    );
    assert_eq!(short.code, 2, "{}", short.stderr);
    assert!(
        short
            .stderr
            .contains("a board has 10 lines under these rules, found 8"),
        "{}",
        short.stderr
    );
    assert_eq!(short.stderr.lines().count(), 1, "{}", short.stderr);
    // Square 51, and a move that is not on a diagonal.
    let answer = scratch("ten-none.ans", "");
    for (record, want) in [
        (
            "W 1\n51-46\n",
            "unknown square '51' (squares are numbered 1 to 50; a larger board has it",
        ),
        ("W 1\n32-26\n", "32 and 26 are not on one diagonal"),
    ] {
        let run = verify_ten(&scratch("ten-bad.in", record), &answer);
        assert_eq!(run.code, 2, "{record}: {}", run.stderr);
        assert!(run.stderr.contains(want), "{record}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
    // A 10x10 reconstruction through the binary, checked by verify.
    let input = path("tests/data/international1.in");
    let solved = postfacto(
        &[
            "solve",
            "--fragment",
            "--rules",
            "international",
            input.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    assert_eq!(solved.stdout.lines().count(), 10, "{}", solved.stdout);
    let answer = scratch("international1.ans", &solved.stdout);
    let verified = verify_ten(&input, &answer);
    assert_eq!(
        (verified.code, verified.stdout.trim()),
        (0, "OK"),
        "{}",
        verified.stderr
    );
}

#[test]
fn analysis_options_work_on_the_ten_board() {
    let input = path("tests/data/international1.in");
    let file = input.to_str().unwrap();
    let run = |args: &[&str]| {
        let mut all = vec!["solve", "--rules", "international"];
        all.extend_from_slice(args);
        all.push(file);
        postfacto(&all, "")
    };
    let explained = run(&["--explain"]);
    assert_eq!(explained.code, 0, "{}", explained.stderr);
    assert!(
        explained.stdout.contains("start board, square by square"),
        "{}",
        explained.stdout
    );
    let minimum = run(&["--minimize", "pieces"]);
    assert_eq!(minimum.code, 0, "{}", minimum.stderr);
    assert!(
        minimum.stderr.contains("fewest pieces: 3"),
        "{}",
        minimum.stderr
    );
    let counted = run(&["--count"]);
    assert_eq!(counted.code, 0, "{}", counted.stderr);
    assert!(counted.stdout.contains("start board"), "{}", counted.stdout);
    let fen = run(&["--format", "fen"]);
    assert_eq!(fen.code, 0, "{}", fen.stderr);
    assert_eq!(
        fen.stdout.lines().next(),
        Some("W:W32:B14,19"),
        "{}",
        fen.stdout
    );
    // An impossible record gets its reason, naming the 10x10 squares.
    let impossible = postfacto(
        &["solve", "--rules", "international", "--explain"],
        "W 2\n32-28\n32-27\n",
    );
    assert_eq!(impossible.code, 1, "{}", impossible.stderr);
    assert!(
        impossible.stdout.contains("square 32 was emptied by ply 1"),
        "{}",
        impossible.stdout
    );
}

#[test]
fn pdn_games_carry_their_game_type() {
    let pdn = path("tests/data/international.pdn");
    let file = pdn.to_str().unwrap();
    let verified = postfacto(&["verify", "--rules", "international", "--pdn", file], "");
    assert_eq!(
        (verified.code, verified.stdout.as_str()),
        (0, "game 1 (line 1): OK\n"),
        "{}",
        verified.stderr
    );
    let solved = postfacto(
        &["solve", "--rules", "international", "--format", "fen", file],
        "",
    );
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    assert_eq!(solved.stdout, "W:W32:B14,19\nB:W10:B\n");
    // GameType 20 read under Brazilian rules: --rules wins, with a warning.
    let wrong = postfacto(&["verify", "--rules", "brazilian", "--pdn", file], "");
    assert_eq!(wrong.code, 1, "{}", wrong.stderr);
    assert!(
        wrong.stderr.contains(
            "game 1 (line 1): its GameType 20 says International draughts, but --rules brazilian wins"
        ),
        "{}",
        wrong.stderr
    );
    // Without --rules, the tag picks the rules.
    let tagged = postfacto(&["verify", "--pdn", file], "");
    assert_eq!(tagged.stdout, "game 1 (line 1): OK\n", "{}", tagged.stderr);
    // Brazilian FEN names the squares algebraically, as GameType 26 (`A0`)
    // and its moves do, as Russian's.
    let brazilian = postfacto(
        &[
            "solve",
            "--rules",
            "brazilian",
            "--format",
            "fen",
            path("tests/data/brazilian1.in").to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(brazilian.code, 0, "{}", brazilian.stderr);
    assert!(
        brazilian.stdout.starts_with("W:Wc3:B"),
        "{}",
        brazilian.stdout
    );
}

#[test]
fn proofs_of_impossibility_check_on_the_ten_board() {
    // A random International game with the wrong side to move first: the
    // DRAT proof checks against the formula `cnf` prints.
    let text = std::fs::read_to_string(path("tests/data/international-impossible.in")).unwrap();
    let (run, _, lemmas) = solve_with_proof("international-impossible.in", "international", &text);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(lemmas.is_some_and(|n| n > 0), "{lemmas:?}");
}

/// American pool and Czech draughts through the binary: moves from the
/// opening in each notation, a record solved, written as PDN with its
/// `GameType` and read back by `verify --pdn`, and bad squares refused.
#[test]
fn pool_and_czech_through_the_binary() {
    let opening =
        "-b-b-b-b\nb-b-b-b-\n-b-b-b-b\n.-.-.-.-\n-.-.-.-.\nw-w-w-w-\n-w-w-w-w\nw-w-w-w-\n";
    let czech = postfacto(&["moves", "--rules", "czech", "--turn", "white"], opening);
    assert_eq!(
        (czech.code, czech.stdout.as_str()),
        (0, "a3-b4\nc3-b4\nc3-d4\ne3-d4\ne3-f4\ng3-f4\ng3-h4\n")
    );
    let pool = postfacto(&["moves", "--rules", "pool", "--turn", "black"], opening);
    assert_eq!(
        (pool.code, pool.stdout.as_str()),
        (0, "9-13\n9-14\n10-14\n10-15\n11-15\n11-16\n12-16\n")
    );
    for (rules, game_type) in [("pool", "23"), ("czech", "29")] {
        let input = path(&format!("tests/data/{rules}1.in"));
        solved_as_pdn_and_read_back(rules, &input, game_type, 1);
        refuses_square(&["solve", "--rules", rules], "W 1\n33-28\n", "33");
    }
}

/// Czech rules that no other rule set has: a man may not capture
/// backwards, and a man may not capture while a king can.
#[test]
fn czech_men_capture_forwards_and_kings_capture_first() {
    // A white man on c5 with a black man behind it on d4 (e3 empty), and
    // a white king on h2 that can take g3.
    let board = "-.-.-.-.\n.-.-.-.-\n-.-.-.-.\n.-w-.-b-\n-.-b-.-.\n.-.-.-b-\n-.-.-.-W\n.-.-.-.-\n";
    let czech = postfacto(&["moves", "--rules", "czech", "--turn", "white"], board);
    let russian = postfacto(&["moves", "--rules", "russian", "--turn", "white"], board);
    assert_eq!(czech.code, 0, "{}", czech.stderr);
    // Russian: the man captures backwards (c5:e3) or the king captures.
    assert!(russian.stdout.contains("c5:e3"), "{}", russian.stdout);
    // Czech: only the king's captures.
    assert!(!czech.stdout.contains("c5:"), "{}", czech.stdout);
    assert!(
        czech.stdout.lines().all(|l| l.starts_with("h2:")),
        "{}",
        czech.stdout
    );
}

/// Italian draughts through the binary: the mirrored board's numbering
/// and drawing, a game written by another program (pydraughts) verified,
/// its GameType inferred-free, `solve` refused in one line (exit 2: no SAT
/// encoding yet), and bad squares refused.
#[test]
fn italian_through_the_binary() {
    // The opening, drawn with the bottom-left corner light.
    let opening =
        "b-b-b-b-\n-b-b-b-b\nb-b-b-b-\n-.-.-.-.\n.-.-.-.-\n-w-w-w-w\nw-w-w-w-\n-w-w-w-w\n";
    let run = postfacto(&["moves", "--rules", "italian", "--turn", "white"], opening);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut moves: Vec<&str> = run.stdout.lines().collect();
    moves.sort_unstable();
    assert_eq!(
        moves,
        ["21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"]
    );
    // A board drawn as the other 8x8 boards are is not an Italian board.
    let english =
        "-b-b-b-b\nb-b-b-b-\n-b-b-b-b\n.-.-.-.-\n-.-.-.-.\nw-w-w-w-\n-w-w-w-w\nw-w-w-w-\n";
    let wrong = postfacto(&["moves", "--rules", "italian", "--turn", "white"], english);
    assert_eq!(wrong.code, 2, "{}", wrong.stdout);
    assert_eq!(wrong.stderr.lines().count(), 1, "{}", wrong.stderr);
    let game = postfacto(&["verify", "--pdn", "tests/data/italian.pdn"], "");
    assert_eq!(
        (game.code, game.stdout.trim()),
        (0, "game 1 (line 1): OK"),
        "{}",
        game.stderr
    );
    // Solved and judged: random fragments with kings, whose captures the
    // order of preference and "men may not take kings" decide.
    solved_and_judged("italian", 40, 40, 3);
    let no_answer = scratch("italian-none.ans", "");
    let no_answer = no_answer.to_str().unwrap();
    let bad = postfacto(
        &["verify", "--rules", "italian", "-", no_answer],
        "W 1\n33-29\n",
    );
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("unknown square '33'"), "{}", bad.stderr);
}

/// Spanish and Portuguese through the binary: the board numbered from
/// White's right corner, the most kings, PDN game types 24 and 28.
#[test]
fn spanish_and_portuguese_through_the_binary() {
    let opening =
        "b-b-b-b-\n-b-b-b-b\nb-b-b-b-\n-.-.-.-.\n.-.-.-.-\n-w-w-w-w\nw-w-w-w-\n-w-w-w-w\n";
    let run = postfacto(&["moves", "--rules", "spanish", "--turn", "white"], opening);
    let mut moves: Vec<&str> = run.stdout.lines().collect();
    moves.sort_unstable();
    assert_eq!(
        (run.code, moves),
        (
            0,
            vec!["10-13", "10-14", "11-14", "11-15", "12-15", "12-16", "9-13"]
        )
    );
    // A white man on 11 can take a man (11x20) or a king (11x18): the king.
    let board = ".-.-.-.-\n-.-.-.-.\n.-.-.-.-\n-.-.-.-.\n.-b-B-.-\n-.-w-.-.\n.-.-.-.-\n-.-.-.-.\n";
    for rules in ["spanish", "portuguese"] {
        let run = postfacto(&["moves", "--rules", rules, "--turn", "white"], board);
        assert_eq!((run.code, run.stdout.as_str()), (0, "11x18\n"), "{rules}");
    }
    // Taking the man instead is refused with the rule's name (the end
    // board does not matter: the replay stops first).
    let input = scratch("spanish-man.in", "W 1\n11x20\n");
    let both: String = board.lines().map(|row| format!("{row} {row}\n")).collect();
    let answer = scratch("spanish-man.ans", &both);
    let refused = verify_under("spanish", &input, &answer);
    assert_eq!(refused.code, 1, "{}{}", refused.stdout, refused.stderr);
    assert!(
        (refused.stdout.clone() + &refused.stderr).contains("the most kings must be taken"),
        "{}{}",
        refused.stdout,
        refused.stderr
    );
    for (rules, game_type) in [("spanish", "24"), ("portuguese", "28")] {
        let generated = postfacto(
            &[
                "generate", "--rules", rules, "--count", "3", "--plies", "30", "--seed", "4",
            ],
            "",
        );
        assert_eq!(generated.code, 0, "{}", generated.stderr);
        let input = scratch(&format!("{rules}3.in"), &generated.stdout);
        solved_as_pdn_and_read_back(rules, &input, game_type, 3);
        refuses_square(&["solve", "--rules", rules], "W 1\n33-28\n", "33");
    }
}

/// Canadian through the binary: the 12x12 board's opening and numbers,
/// bad input, records solved (one whose most-pieces rule would be 6.4
/// million clauses among them), and PDN with GameType 27 both ways.
#[test]
fn canadian_through_the_binary() {
    let mut opening = String::new();
    for row in 0..12 {
        let piece = match row {
            0..=4 => 'b',
            7..=11 => 'w',
            _ => '.',
        };
        for col in 0..12 {
            opening.push(if (row + col) % 2 == 1 { piece } else { '-' });
        }
        opening.push('\n');
    }
    let run = postfacto(
        &["moves", "--rules", "canadian", "--turn", "white"],
        &opening,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 11, "{}", run.stdout);
    assert!(run.stdout.contains("43-37\n"), "{}", run.stdout);
    // Games in its PDN (GameType 27) are read in tests/archive.rs; fragments
    // verify in `random_fragments_replay_and_verify`.
    let input = scratch("canadian.in", "W 1\n43-37\n");
    let solve = postfacto(
        &["solve", "--rules", "canadian", input.to_str().unwrap()],
        "",
    );
    assert_eq!(solve.code, 0, "{}", solve.stderr);
    // Two boards of 12 rows side by side.
    assert_eq!(solve.stdout.lines().count(), 12, "{}", solve.stdout);
    assert!(
        solve.stdout.lines().all(|l| l.len() == 25),
        "{}",
        solve.stdout
    );
    solved_and_judged("canadian", 8, 60, 3);
    let generated = postfacto(
        &[
            "generate", "--rules", "canadian", "--count", "3", "--plies", "30", "--seed", "4",
        ],
        "",
    );
    assert_eq!(generated.code, 0, "{}", generated.stderr);
    let input = scratch("canadian3.in", &generated.stdout);
    solved_as_pdn_and_read_back("canadian", &input, "27", 3);
    refuses_square(&["solve", "--rules", "canadian"], "W 1\n73-68\n", "73");
    let no_answer = scratch("canadian-none.ans", "");
    refuses_square(
        &[
            "verify",
            "--rules",
            "canadian",
            "-",
            no_answer.to_str().unwrap(),
        ],
        "W 1\n73-68\n",
        "73",
    );
}

/// Russian and Brazilian write captures with `:` (`d4:f6`), in their
/// messages as in `moves` and their answers: an illegal capture in a PDN
/// game (`verify --pdn`, text and JSON, and `solve`), a capture a known
/// start board refuses (`verify INPUT ANSWER`, `solve --explain`), and
/// the Brazilian majority capture broken.
#[test]
fn algebraic_rule_sets_write_captures_with_a_colon_in_messages() {
    let record = scratch("colon.in", "W 3\na1:e5:b8\nh6-g5\nb8:h2\n");
    // The white king on a1 finds nothing on d6 to take.
    let board = "-.-.-.-.\n.-.-.-.-\n-.-.-.-b\n.-.-.-.-\n-.-b-b-.\n.-.-.-.-\n-.-.-.-.\nW-.-.-.-\n";
    let start = scratch("colon-start.txt", board);
    let empty_end = |row: &str| format!("{row} {}\n", row.replace(['b', 'W'], "."));
    let answer = scratch(
        "colon.ans",
        &board.lines().map(empty_end).collect::<String>(),
    );
    let (record, start, answer) = (
        record.to_str().unwrap(),
        start.to_str().unwrap(),
        answer.to_str().unwrap(),
    );
    let refused = "ply 1 (a1:e5:b8): square d6 holds no black piece to jump";
    for (rules, game_type) in [("russian", "25"), ("brazilian", "26")] {
        let game = format!("[GameType \"{game_type}\"]\n1. c3-d4 f6-g5 2. d4:f6 *\n");
        let pdn = scratch(&format!("colon-{rules}.pdn"), &game);
        let pdn = pdn.to_str().unwrap();
        let illegal = "2. d4:f6 (ply 3): square e5 holds no black piece to jump";
        let runs = [
            (postfacto(&["verify", "--pdn", pdn], ""), illegal),
            (
                postfacto(&["verify", "--pdn", pdn, "--format", "json"], ""),
                illegal,
            ),
            (postfacto(&["solve", pdn], ""), illegal),
            (
                postfacto(&["verify", "--rules", rules, record, answer], ""),
                refused,
            ),
            (
                postfacto(
                    &[
                        "solve",
                        "--rules",
                        rules,
                        "--explain",
                        "--start-board",
                        start,
                        record,
                    ],
                    "",
                ),
                refused,
            ),
        ];
        for (run, said) in runs {
            let all = run.stdout + &run.stderr;
            assert!(all.contains(said), "{rules}: {all}");
            assert!(!names_an_x_capture(&all), "{rules}: {all}");
        }
    }
    let majority = scratch(
        "colon-majority.pdn",
        "[GameType \"26\"]\n[FEN \"W:Wc3:Bd4,f6,b4\"]\n1. c3:a5 *\n",
    );
    let run = postfacto(&["verify", "--pdn", majority.to_str().unwrap()], "");
    assert!(
        run.stdout
            .contains("1. c3:a5 (ply 1): the capture takes 1 piece, but a capture of 2"),
        "{}",
        run.stdout
    );
}

/// Whether `text` writes a capture between algebraic squares with `x`.
fn names_an_x_capture(text: &str) -> bool {
    text.as_bytes()
        .windows(4)
        .any(|w| matches!(w, [b'a'..=b'h', b'1'..=b'8', b'x', b'a'..=b'h' | b'?']))
}

/// `args` with `input` on stdin exit 2 with one line naming `square` unknown.
fn refuses_square(args: &[&str], input: &str, square: &str) {
    let bad = postfacto(args, input);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert_eq!(bad.stderr.lines().count(), 1, "{}", bad.stderr);
    let named = format!("unknown square '{square}'");
    assert!(bad.stderr.contains(&named), "{}", bad.stderr);
}

/// `generate --rules R` fragments (count, plies, seed) are all solved, and
/// `verify` judges every answer OK.
fn solved_and_judged(rules: &str, count: usize, plies: usize, seed: u64) {
    let (count_text, plies_text, seed_text) =
        (count.to_string(), plies.to_string(), seed.to_string());
    let generated = postfacto(
        &[
            "generate",
            "--rules",
            rules,
            "--count",
            &count_text,
            "--plies",
            &plies_text,
            "--seed",
            &seed_text,
        ],
        "",
    );
    assert_eq!(generated.code, 0, "{}", generated.stderr);
    let input = scratch(&format!("{rules}-{seed}.in"), &generated.stdout);
    let input = input.to_str().unwrap();
    let solve = postfacto(&["solve", "--rules", rules, input], "");
    assert_eq!(solve.code, 0, "{}", solve.stderr);
    let answer = scratch(&format!("{rules}-{seed}.ans"), &solve.stdout);
    let verified = postfacto(
        &["verify", "--rules", rules, input, answer.to_str().unwrap()],
        "",
    );
    all_ok(&verified, count);
}

/// A `verify` run that exits 0 with `count` lines ending in `: OK`.
fn all_ok(verified: &crate::util::Run, count: usize) {
    assert_eq!(verified.code, 0, "{}{}", verified.stdout, verified.stderr);
    let ok = verified.stdout.lines().filter(|l| l.ends_with(": OK"));
    assert_eq!(ok.count(), count, "{}", verified.stdout);
}

/// `solve --format pdn` answers every record of `input` with its `GameType`,
/// and `verify --pdn` replays all `games` of that PDN.
fn solved_as_pdn_and_read_back(
    rules: &str,
    input: &std::path::Path,
    game_type: &str,
    games: usize,
) {
    let input = input.to_str().unwrap();
    let solved = postfacto(&["solve", "--rules", rules, "--format", "pdn", input], "");
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    let tag = format!("[GameType \"{game_type}\"]");
    assert_eq!(
        solved.stdout.matches(&tag).count(),
        games,
        "{}",
        solved.stdout
    );
    let pdn = scratch(&format!("{rules}-{games}.pdn"), &solved.stdout);
    let verified = postfacto(&["verify", "--pdn", pdn.to_str().unwrap()], "");
    all_ok(&verified, games);
}
