//! Real game files, game by game (`shared/spec/pdn.md`): every real file
//! read to its end with its per-game verdicts pinned, `solve` answering
//! each game of a file on its own, rules inferred, JSON boards of every
//! size, and random games written in randomly mixed dialects.

use proptest::prelude::*;

use postfacto::archive::{verify_game, Verdict, VerifyOptions};
use postfacto::board::{Board, Color, Topology};
use postfacto::notation::{games, parse_board_on, to_fen, MoveText, Record};
use postfacto::random::{play_game, random_board_on, Play, Rng};
use postfacto::rules::Variant;

use crate::util::{path, postfacto, scratch, Cases};

/// The real files of `tests/data/pdn/`: games, then how many are OK,
/// without moves, and not OK.
const REAL_FILES: [(&str, usize, usize, usize, usize); 8] = [
    ("OCA_2.0", 43, 43, 0, 0),
    ("PWCP_2", 51, 51, 0, 0),
    ("goulds", 262, 0, 262, 0),
    ("movestrength", 1, 1, 0, 0),
    // Czech championship games without a GameType: 34 break Russian and
    // Brazilian rules (Czech men do not capture backwards); the other 10
    // replay under Russian rules too, but the file is read as Czech, the
    // rule set under which the most of its games replay.
    ("mrcd2006", 44, 44, 0, 0),
    ("ussr1947", 153, 153, 0, 0),
    ("variation", 1, 1, 0, 0),
    ("wk2003", 23, 23, 0, 0),
];

/// Compares `verify --pdn`'s lines for `name` with the pinned ones
/// (`BLESS=1` rewrites them).
fn matches_pinned(name: &str, got: &str) {
    let file = path(&format!("tests/data/pdn/{name}.verdicts"));
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&file, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&file).unwrap();
    for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "{name}: line {} differs", i + 1);
    }
    assert_eq!(got.lines().count(), want.lines().count(), "{name}");
}

#[test]
fn every_real_file_is_read_to_its_end_game_by_game() {
    for (name, games, ok, no_moves, not_ok) in REAL_FILES {
        let file = format!("tests/data/pdn/{name}.pdn");
        let run = postfacto(&["verify", "--pdn", &file], "");
        matches_pinned(name, &run.stdout);
        let count = |verdict: &str| {
            run.stdout
                .lines()
                .filter(|l| {
                    l.split_once("): ")
                        .is_some_and(|(_, v)| v.starts_with(verdict))
                })
                .count()
        };
        assert_eq!(run.stdout.lines().count(), games, "{name}");
        assert_eq!((count("OK"), count("no moves")), (ok, no_moves), "{name}");
        assert_eq!(run.code, if not_ok == 0 { 0 } else { 1 }, "{name}");
        let games_said = postfacto::notation::plural(games, "game");
        let summary = format!("{games_said}: {ok} OK, {not_ok} with an illegal move, {no_moves} without moves, 0 unreadable, 0 of rules postfacto does not play");
        assert!(
            run.stderr.trim_end().ends_with(&summary),
            "{name}: {}",
            run.stderr
        );
        // Each game once, numbered in order.
        for (i, line) in run.stdout.lines().enumerate() {
            assert!(
                line.starts_with(&format!("game {} (line ", i + 1)),
                "{line}"
            );
        }
    }
}

#[test]
fn the_rules_come_from_the_flag_the_tag_or_the_notation() {
    // wk2003 is tagged GameType 20: no rule set is inferred.
    let tagged = postfacto(&["verify", "--pdn", "tests/data/pdn/wk2003.pdn"], "");
    assert!(!tagged.stdout.contains("inferred"), "{}", tagged.stdout);
    // ussr1947 has none: its algebraic moves replay under Russian rules.
    let inferred = postfacto(&["verify", "--pdn", "tests/data/pdn/ussr1947.pdn"], "");
    assert!(inferred
        .stdout
        .lines()
        .all(|l| l.ends_with("OK (russian rules, inferred)")));
    // --rules wins over the tag, with one warning line per game.
    let forced = postfacto(
        &[
            "verify",
            "--rules",
            "english",
            "--pdn",
            "tests/data/pdn/wk2003.pdn",
        ],
        "",
    );
    assert_eq!(forced.code, 1);
    let warnings = forced
        .stderr
        .lines()
        .filter(|l| l.contains("--rules english wins"))
        .count();
    assert_eq!(warnings, 23, "{}", forced.stderr);
    // A game type postfacto does not play is named, game by game.
    let turkish = scratch(
        "turkish.pdn",
        "[GameType \"30\"]\n1. a3-a4 *\n\n[GameType \"99\"]\n1. 32-28 *\n\n[Event \"x\"]\n1. 32-28 *\n",
    );
    let run = postfacto(&["verify", "--pdn", turkish.to_str().unwrap()], "");
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout,
        "game 1 (line 1): Turkish draughts (GameType 30): postfacto does not play these rules\n\
         game 2 (line 4): GameType 99: a game type postfacto does not know\n\
         game 3 (line 7): OK (international rules, inferred)\n"
    );
}

#[test]
fn a_file_that_cannot_be_read_at_all_exits_2() {
    let missing = postfacto(&["verify", "--pdn", "/no/such/file.pdn"], "");
    assert_eq!(missing.code, 2);
    let binary = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("postfacto-binary.pdn");
    std::fs::write(&binary, b"[Event \"x\"]\n\x00\x01\x02").unwrap();
    let run = postfacto(&["verify", "--pdn", binary.to_str().unwrap()], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("not a text file"), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1);
    // Windows code page text in tags is read all the same.
    let latin = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("postfacto-latin1.pdn");
    std::fs::write(&latin, b"[White \"Gr\xe9goire\"]\n1. 32-28 19-23 *\n").unwrap();
    let run = postfacto(&["verify", "--pdn", latin.to_str().unwrap()], "");
    assert_eq!(
        run.stdout,
        "game 1 (line 1): OK (international rules, inferred)\n"
    );
}

#[test]
fn solve_answers_each_game_of_a_file_on_its_own() {
    let text = "[Event \"fine\"]\n[FEN \"W:W21,26,27,K19:B10,15,K13\"]\n1. 21-17 13x22x31x24 2. 19x28 *\n\n\
                [Event \"broken tag\n1. 11-15 *\n\n\
                [GameType \"30\"]\n1. a3-a4 *\n\n\
                [Event \"a position\"]\n[FEN \"W:W21:B1\"]\n1-0\n\n\
                [Event \"fine too\"]\n1. 9-13 22-18 *\n";
    let file = scratch("mixed.pdn", text);
    let run = postfacto(&["solve", "--format", "json", file.to_str().unwrap()], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    let statuses: Vec<String> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["status"].to_string())
        .collect();
    assert_eq!(
        statuses,
        [
            "\"solved\"",
            "\"bad input\"",
            "\"bad input\"",
            "\"no moves\"",
            "\"solved\""
        ]
    );
    assert!(
        run.stderr
            .contains("game 2 (line 5): cannot be read: line 5: a tag is not closed"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("game 3 (line 8): Turkish draughts (GameType 30)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("game 4 (line 11): no moves"),
        "{}",
        run.stderr
    );
}

#[test]
fn json_boards_have_every_row_of_every_board() {
    for variant in [
        Variant::English,
        Variant::Russian,
        Variant::International,
        Variant::Brazilian,
    ] {
        let generated = postfacto(
            &[
                "generate",
                "--rules",
                variant.name(),
                "--plies",
                "12",
                "--seed",
                "5",
            ],
            "",
        );
        let run = postfacto(
            &["solve", "--rules", variant.name(), "--format", "json"],
            &generated.stdout,
        );
        assert_eq!(run.code, 0, "{}: {}", variant.name(), run.stderr);
        let object: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
        let size = usize::from(variant.topology().size());
        for (rows, fen) in [("start", "start_fen"), ("end", "end_fen")] {
            let lines: Vec<String> = object[rows]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap().to_string())
                .collect();
            assert_eq!(lines.len(), size, "{}: {rows}", variant.name());
            assert!(lines.iter().all(|l| l.len() == size));
            // The rows read back to the board the FEN names.
            let board = parse_board_on(&(lines.join("\n") + "\n"), variant.topology()).unwrap();
            let (_, from_fen) = postfacto::notation::parse_fen_on(
                object[fen].as_str().unwrap(),
                variant.topology(),
            )
            .unwrap();
            assert_eq!(board, from_fen, "{}: {rows}", variant.name());
        }
    }
}

#[test]
fn rules_auto_infers_the_rule_set_of_any_input() {
    // Numbers up to 32: English first, International when English fails.
    let king = scratch("flying-king.in", "W 1\n1-23\n");
    let king = king.to_str().unwrap();
    for (file, want) in [
        ("tests/data/sample1.in", "english"),
        // Read under English rules too, and solvable there: English first.
        ("tests/data/international1.in", "english"),
        // A flying king's move is no English move.
        (king, "international"),
        ("tests/data/russian1.in", "russian"),
    ] {
        let run = postfacto(&["solve", "--rules", "auto", "--format", "json", file], "");
        assert_eq!(run.code, 0, "{file}: {}", run.stderr);
        let object: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
        assert_eq!(object["rules"], want, "{file}");
        assert_eq!(object["rules_inferred"], true);
        assert!(
            run.stderr
                .contains(&format!("read under {want} rules (inferred)")),
            "{}",
            run.stderr
        );
    }
    // The task's format without --rules stays English.
    let plain = postfacto(&["solve", king], "");
    assert_eq!(plain.code, 2, "{}", plain.stderr);
    // Board facts need a named rule set.
    let facts = postfacto(
        &[
            "solve",
            "--rules",
            "auto",
            "--start-board",
            "tests/data/sample1.ans",
            "tests/data/sample1.in",
        ],
        "",
    );
    assert_eq!(facts.code, 2);
    assert!(
        facts.stderr.contains("need a rule set named"),
        "{}",
        facts.stderr
    );
}

/// A PDN text of `record` (played from `start`, or from the opening when
/// `start` is `None`) in dialect features chosen by `rng`.
pub(crate) fn dialect_game(
    variant: Variant,
    start: Option<Board>,
    record: &Record,
    rng: &mut Rng,
) -> String {
    let mut out = String::new();
    if rng.chance(30) {
        out.push_str(&format!(
            "[Event \"game \\\"{}\\\" here\"]\n",
            rng.below(100)
        ));
    }
    // A rule set the notation does not suggest (American pool is written
    // as English) needs its tag.
    let names = postfacto::notation::SquareNames {
        algebraic: variant.algebraic(),
        highest: variant.topology().count() as u32,
    };
    let inferable = Variant::candidates(names).contains(&variant);
    if rng.chance(60) || !inferable {
        let long = [
            "20,W,10,10,N2,0",
            "21,B,8,8,N1,0",
            "25,W,8,8,A0,0",
            "26,W,8,8,A0,0",
            "23,B,8,8,N1,0",
            "29,W,8,8,A0,0",
            "22,W,8,8,N2,1",
            "24,W,8,8,N1,1",
            "27,W,12,12,N2,0",
            "28,W,8,8,N1,1",
        ];
        let number = variant.pdn_game_type();
        let value = if rng.chance(50) {
            number.to_string()
        } else {
            long.iter()
                .find(|l| l.starts_with(&number.to_string()))
                .unwrap()
                .to_string()
        };
        out.push_str(&format!("[GameType \"{value}\"]\n"));
    }
    if let Some(board) = start {
        let fen = to_fen(&board, record.first, variant.fen_algebraic());
        let fen = if rng.chance(50) {
            format!("{fen}.")
        } else {
            fen
        };
        out.push_str(&format!("[FEN \"{fen}\"]\n"));
    }
    out.push('\n');
    let offset = usize::from(record.first != variant.first_player());
    for (i, mv) in record.moves.iter().enumerate() {
        let half = i + offset;
        if half % 2 == 0 {
            let number = half / 2 + 1;
            out.push_str(&match rng.below(4) {
                0 => format!("{number}. "),
                1 => format!("{number:02}. "),
                2 => format!("{number} . "),
                _ => format!("{number}."),
            });
        } else if i == 0 {
            out.push_str(&format!("{}... ", half / 2 + 1));
        }
        out.push_str(&dialect_move(variant, mv, rng));
        out.push_str(&dialect_noise(rng));
        out.push(' ');
    }
    let result = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];
    out.push_str(result[rng.below(result.len())]);
    out.push('\n');
    out
}

/// One move as some file writes it: unknown, short, with `:`, leading zeros...
fn dialect_move(variant: Variant, mv: &MoveText, rng: &mut Rng) -> String {
    if rng.chance(4) {
        return if rng.chance(50) {
            "--".into()
        } else {
            "- -".into()
        };
    }
    let algebraic = variant.algebraic();
    let name = |s: postfacto::board::Square| {
        if algebraic {
            s.algebraic()
        } else {
            s.number().to_string()
        }
    };
    let path = mv.path();
    let mut squares: Vec<String> = Vec::new();
    for (i, &s) in path.iter().enumerate() {
        let keep = i == 0 || i + 1 == path.len() || !mv.is_capture() || rng.chance(50);
        if keep {
            squares.push(name(s));
        }
    }
    if !algebraic && rng.chance(20) {
        squares = squares.into_iter().map(|s| format!("{s:0>2}")).collect();
    }
    let separator = match (mv.is_capture(), rng.below(3)) {
        (false, _) => "-",
        (true, 0) => ":",
        (true, _) if algebraic => ":",
        (true, _) => "x",
    };
    let mut text = squares.join(separator);
    if algebraic && !mv.is_capture() && rng.chance(15) {
        text = text.replace('-', "");
    } else if rng.chance(10) {
        text = text.replacen(separator, &format!("{separator} "), 1);
    }
    text
}

/// What files put between moves: marks, NAGs, comments, variations, line ends.
fn dialect_noise(rng: &mut Rng) -> String {
    match rng.below(14) {
        0 => "!".into(),
        1 => "?!".into(),
        2 => " $1".into(),
        3 => " {a comment {nested} with (parens) and [brackets]}".into(),
        4 => " {[%clock w0:10:00 B0:09:30]}".into(),
        5 => " (3. 11-15 {in a variation} (3... 23-19) 22-18)".into(),
        6 => " ; the rest of this line\n".into(),
        7 => "\n% a line comment\n".into(),
        8 => " !?".into(),
        9 => "\n".into(),
        _ => String::new(),
    }
}

/// A random legal game of `variant` from the opening (no FEN) or from a
/// random board (with its FEN).
pub(crate) fn random_game(variant: Variant, seed: u64) -> (Option<Board>, Record) {
    let mut rng = Rng::new(seed);
    let rules = variant.rules();
    let topology: Topology = variant.topology();
    let (start, first) = if rng.chance(50) {
        (None, variant.first_player())
    } else {
        let density = 30 + rng.below(40) as u32;
        let board = random_board_on(&mut rng, topology, density, 20);
        let first = if rng.chance(50) {
            Color::White
        } else {
            Color::Black
        };
        (Some(board), first)
    };
    let from = start.unwrap_or_else(|| topology.opening());
    let plies = 1 + rng.below(60);
    (
        start,
        play_game(rules, &mut rng, &from, first, plies, Play::Careful),
    )
}

/// Line ends and a byte order mark, as files come.
pub(crate) fn dialect_file(text: &str, rng: &mut Rng) -> String {
    let ends = ["\n", "\r\n", "\r"];
    let end = ends[rng.below(ends.len())];
    let bom = if rng.chance(30) { "\u{feff}" } else { "" };
    format!("{bom}{}", text.replace('\n', end))
}

/// Random legal games of every rule set, written out in randomly mixed
/// dialects, several to a file, all verify OK game by game.
#[test]
fn random_games_in_mixed_dialects_verify() {
    let cases = Cases::new("archive::random_games_in_mixed_dialects_verify", 64);
    proptest!(cases.config(), |(seed in any::<u64>())| {
        let clock = cases.start();
        let mut rng = Rng::new(seed);
        let mut text = String::new();
        let mut expected = 0;
        for k in 0..3 {
            let variant = Variant::ALL[rng.below(Variant::ALL.len())];
            let (start, record) = random_game(variant, seed.wrapping_add(k));
            if record.moves.is_empty() {
                continue;
            }
            text.push_str(&dialect_game(variant, start, &record, &mut rng));
            text.push('\n');
            expected += 1;
        }
        prop_assume!(expected > 0, "every game ended before its first move");
        let file = dialect_file(&text, &mut rng);
        let reports: Vec<_> = clock.run(&file, || {
            games(&file)
                .map(|g| verify_game(&g, VerifyOptions::default()))
                .collect()
        });
        prop_assert_eq!(reports.len(), expected, "{}", file);
        for report in &reports {
            prop_assert_eq!(&report.verdict, &Verdict::Ok, "{}\n{}", report, file);
        }
        cases.reached();
    });
    cases.check();
}

#[test]
fn mixed_dialects_verify_through_the_binary() {
    let mut rng = Rng::new(21);
    let mut text = String::new();
    for k in 0..12u64 {
        let variant = Variant::ALL[k as usize % Variant::ALL.len()];
        let (start, record) = random_game(variant, 1000 + k);
        if !record.moves.is_empty() {
            text.push_str(&dialect_game(variant, start, &record, &mut rng));
        }
    }
    let file = scratch("dialects.pdn", &dialect_file(&text, &mut rng));
    let run = postfacto(&["verify", "--pdn", file.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.lines().all(|l| l.contains("): OK")),
        "{}",
        run.stdout
    );
}

#[test]
fn verify_pdn_takes_a_folder_standard_input_and_quiet() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pdn-folder");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("a.pdn"),
        "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n",
    )
    .unwrap();
    std::fs::write(dir.join("b.pdn"), "[GameType \"20\"]\n1. 32-28 28-23 *\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "not a game").unwrap();
    let run = postfacto(&["verify", "--pdn", dir.to_str().unwrap()], "");
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stdout);
    assert_eq!(lines[0], "a.pdn: game 1 (line 1): OK");
    assert!(
        lines[1].starts_with("b.pdn: game 1 (line 1): 1... 28-23 (ply 2)"),
        "{}",
        lines[1]
    );
    assert_eq!(run.stderr.lines().count(), 2, "{}", run.stderr);
    let quiet = postfacto(&["verify", "--pdn", "-q", dir.to_str().unwrap()], "");
    assert!(quiet.stderr.is_empty(), "{}", quiet.stderr);
    // No file: standard input.
    let stdin = postfacto(
        &["verify", "--pdn"],
        "[GameType \"20\"]\n1. 32-28 19-23 *\n",
    );
    assert_eq!(stdin.code, 0, "{}", stdin.stderr);
    assert_eq!(stdin.stdout, "game 1 (line 1): OK\n");
}

/// A game whose damaged moves take too long to fill in is undecided (exit
/// 3), never called illegal: `verify --pdn --limit` bounds each game.
#[test]
fn a_pdn_game_whose_search_gives_up_is_undecided() {
    let moves: Vec<String> = (1..=10).map(|n| format!("{n}. ? ?")).collect();
    let game = format!("[Event \"torn\"]\n{} 11. 28x1 *\n", moves.join(" "));
    let file = scratch("torn.pdn", &game);
    let run = postfacto(
        &[
            "verify",
            "--pdn",
            "--limit",
            "200ms",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("undecided: the search for moves that fit the damaged ones stopped after"),
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains(", 1 undecided"), "{}", run.stderr);
    let json = postfacto(
        &[
            "verify",
            "--pdn",
            "--limit",
            "200ms",
            "--format",
            "json",
            file.to_str().unwrap(),
        ],
        "",
    );
    let object: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert_eq!(object["status"], "undecided");
}
