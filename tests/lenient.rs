//! Real archives as they come (`shared/spec/pdn.md`, issue 30): what files
//! write in ways the standard does not is read where one reading fits, each
//! leniency is noted on its game, `--strict` refuses it, and a move that is
//! no move on the board is a mistake at its ply that `--repair` mends.
//!
//! The quirks are injected into files of random legal games (the corpus is
//! made here, not copied from real files), and the quirky file must read
//! the same games, moves and verdicts as the clean one.

use proptest::prelude::*;

use postfacto::archive::{verify_archive, GameReport, Verdict, VerifyOptions};
use postfacto::random::Rng;
use postfacto::rules::Variant;

use crate::archive::{dialect_file, dialect_game, random_game};
use crate::util::{postfacto, scratch, Cases};

/// The ways real archives differ from the standard, one at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quirk {
    /// `\r` written out after every tag.
    LiteralCr,
    /// A tag's value split over two lines.
    SplitTag,
    /// A line with a lone `[` before the header.
    LoneBracket,
    /// A tag line without its `[`.
    MissingBracket,
    /// A tag given twice.
    RepeatedTag,
    /// Squares in upper case.
    UpperCase,
    /// `x` for steps and `-` for captures.
    Separator,
}

/// In the order they are injected (a lone `[` last, before its header).
const QUIRKS: [Quirk; 7] = [
    Quirk::LiteralCr,
    Quirk::SplitTag,
    Quirk::MissingBracket,
    Quirk::RepeatedTag,
    Quirk::UpperCase,
    Quirk::Separator,
    Quirk::LoneBracket,
];

impl Quirk {
    /// The note kind it must be reported as.
    fn kind(self) -> &'static str {
        match self {
            Quirk::LiteralCr => "stray-text",
            Quirk::SplitTag => "split-tag",
            Quirk::LoneBracket => "lone-bracket",
            Quirk::MissingBracket => "missing-bracket",
            Quirk::RepeatedTag => "repeated-tag",
            Quirk::UpperCase => "upper-case",
            Quirk::Separator => "separator",
        }
    }

    /// Whether it changes anything in `text`, a game's: the move quirks
    /// must change a move, not only comments.
    fn applies(self, text: &str) -> bool {
        match self {
            Quirk::UpperCase => {
                moves_only(movetext(&self.inject(text))) != moves_only(movetext(text))
            }
            // Under inference the other separator may make another rule
            // set's game of it (a one-move game `18-25` is English `18x25`):
            // only games whose GameType says their rules.
            Quirk::Separator => {
                text.contains("[GameType")
                    && moves_only(&rejoin_cut_moves(movetext(text)))
                        .split_whitespace()
                        .any(|t| swapped(t).is_some())
            }
            Quirk::SplitTag | Quirk::MissingBracket | Quirk::RepeatedTag => {
                text.contains(ANNOTATOR)
            }
            _ => true,
        }
    }

    /// `game` (one game's text, its header first) with the quirk in it.
    fn inject(self, game: &str) -> String {
        let (header, moves) = game.split_once("\n\n").expect("a header and moves");
        match self {
            Quirk::LiteralCr => {
                let lines: Vec<String> = header.lines().map(|l| format!("{l}\\r")).collect();
                format!("{}\n\n{moves}", lines.join("\n"))
            }
            Quirk::SplitTag => game.replacen(ANNOTATOR, "[Annotator \"Ann\nOtator\"]", 1),
            Quirk::LoneBracket => format!("[\n{game}"),
            Quirk::MissingBracket => game.replacen(ANNOTATOR, &ANNOTATOR[1..], 1),
            Quirk::RepeatedTag => game.replacen(ANNOTATOR, &format!("{ANNOTATOR}\n{ANNOTATOR}"), 1),
            Quirk::UpperCase => format!("{header}\n\n{}", upper_moves(moves)),
            Quirk::Separator => {
                // Moves cut after their separator (`1- 6`) joined first.
                let joined = rejoin_cut_moves(moves);
                // A move ends at a space or at a line's end (a line
                // comment may follow it on the next line).
                let swap_token = |t: &str| swapped(t).unwrap_or_else(|| t.to_string());
                let swapped: Vec<String> = joined
                    .split(' ')
                    .map(|t| t.split('\n').map(swap_token).collect::<Vec<_>>().join("\n"))
                    .collect();
                format!("{header}\n\n{}", swapped.join(" "))
            }
        }
    }
}

/// Moves cut after their separator (`1- 6`, `c3: e5`) written whole; an
/// unknown move (`- -`) left alone.
fn rejoin_cut_moves(moves: &str) -> String {
    let mut out = String::new();
    let mut chars = moves.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        let square_before = out
            .chars()
            .rev()
            .nth(1)
            .is_some_and(|b| b.is_ascii_alphanumeric());
        if matches!(c, '-' | ':' | 'x') && square_before && chars.peek() == Some(&' ') {
            chars.next();
        }
    }
    out
}

/// The tag every game of the corpus carries, for the tag quirks to work on.
const ANNOTATOR: &str = "[Annotator \"Ann Otator\"]";

/// The movetext of a game's text.
fn movetext(game: &str) -> &str {
    game.split_once("\n\n").map_or("", |(_, m)| m)
}

/// Movetext without comments, variations and line comments.
fn moves_only(moves: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    let mut rest_of_line = false;
    for c in moves.chars() {
        match c {
            '\n' => rest_of_line = false,
            _ if rest_of_line => continue,
            '{' | '(' => depth += 1,
            '}' | ')' => depth -= 1,
            ';' | '%' if depth == 0 => rest_of_line = true,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Squares in upper case, comments and all (they are skipped anyway).
fn upper_moves(moves: &str) -> String {
    moves
        .split(' ')
        .map(|t| {
            if t.starts_with(|c: char| c.is_ascii_lowercase()) && t.contains(['-', ':']) {
                t.to_ascii_uppercase()
            } else {
                t.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A move token with its separator swapped (`11-15` to `11x15`, `15x24`
/// and `c3:e5` to `15-24` and `c3-e5`); `None` for anything else.
fn swapped(token: &str) -> Option<String> {
    const RESULTS: [&str; 6] = ["1-0", "0-1", "2-0", "0-2", "1-1", "0-0"];
    let bare = token.trim_end_matches(['!', '?', '\n']);
    let square = |part: &str| {
        let digits =
            part.trim_start_matches(|c: char| ('a'..='l').contains(&c.to_ascii_lowercase()));
        part.len() - digits.len() <= 1
            && !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
    };
    let parts: Vec<&str> = bare.split(['-', 'x', ':']).collect();
    let movelike = parts.len() >= 2 && parts.iter().all(|p| square(p)) && !RESULTS.contains(&bare);
    if !movelike {
        return None;
    }
    let swapped = if bare.contains('-') {
        bare.replace('-', "x")
    } else {
        bare.replace([':', 'x', 'X'], "-")
    };
    Some(format!("{swapped}{}", &token[bare.len()..]))
}

/// A file of `count` random legal games, clean, with each game's variant.
fn corpus(seed: u64, count: usize) -> Vec<(Variant, String)> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for k in 0..count as u64 {
        let variant = Variant::ALL[rng.below(Variant::ALL.len())];
        let (start, record) = random_game(variant, seed.wrapping_mul(31).wrapping_add(k));
        if record.moves.is_empty() {
            continue;
        }
        let game = dialect_game(variant, start, &record, &mut rng);
        // Every game gets a header of its own and the tag the quirks use.
        let game = format!("{ANNOTATOR}\n{game}");
        out.push((variant, game));
    }
    out
}

/// A game's number, rule set, verdict and tags.
type Essence = (usize, Option<Variant>, Verdict, Vec<(String, String)>);

/// What must not change: the games, their rules, verdicts and tags.
fn essence(reports: &[GameReport]) -> Vec<Essence> {
    reports
        .iter()
        .map(|r| {
            (
                r.number,
                r.rules.as_ref().map(|rules| rules.variant),
                r.verdict.clone(),
                r.tags.clone(),
            )
        })
        .collect()
}

fn kinds(report: &GameReport) -> Vec<&'static str> {
    report.notes.iter().map(|n| n.kind()).collect()
}

/// Quirks injected at random into a file of legal games: the same
/// games, rules, verdicts and tags as the clean file, every quirk
/// noted on the game it is in, and `--strict` refuses each such game.
#[test]
fn quirks_read_as_the_clean_file() {
    let cases = Cases::new("lenient::quirks_read_as_the_clean_file", 48);
    proptest!(cases.config(), |(seed in any::<u64>())| {
        let clock = cases.start();
        let mut rng = Rng::new(seed ^ 0x9e37);
        let games = corpus(seed, 3);
        prop_assume!(!games.is_empty(), "every game ended before its first move");
        let mut clean = String::new();
        let mut quirky = String::new();
        let mut injected = Vec::new();
        for (_, game) in &games {
            let mut text = game.clone();
            let mut here = Vec::new();
            for quirk in QUIRKS {
                if rng.chance(35) && quirk.applies(&text) {
                    text = quirk.inject(&text);
                    here.push(quirk);
                }
            }
            clean.push_str(game);
            clean.push('\n');
            quirky.push_str(&text);
            quirky.push('\n');
            injected.push(here);
        }
        let quirky = dialect_file(&quirky, &mut rng);
        let (want, got) = clock.run(&quirky, || {
            (verify_archive(&clean, VerifyOptions::default()), verify_archive(&quirky, VerifyOptions::default()))
        });
        prop_assert_eq!(got.len(), games.len(), "{}", quirky);
        prop_assert_eq!(essence(&got), essence(&want), "{}", quirky);
        for (report, here) in got.iter().zip(&injected) {
            prop_assert_eq!(&report.verdict, &Verdict::Ok, "{}\n{}", report, quirky);
            for quirk in here {
                prop_assert!(kinds(report).contains(&quirk.kind()), "{:?} not noted: {}\n{}", quirk, report, quirky);
            }
        }
        let strict = VerifyOptions { strict: true, ..VerifyOptions::default() };
        let refused = clock.run(&quirky, || verify_archive(&quirky, strict));
        prop_assert_eq!(refused.len(), games.len());
        for (report, here) in refused.iter().zip(&injected) {
            prop_assert_eq!(report.verdict.is_ok(), here.is_empty(), "{:?}: {}\n{}", here, report, quirky);
            prop_assert!(report.notes.is_empty());
        }
        cases.reached();
    });
    cases.check();
}

/// One file per quirk, through the binary: every game read and OK, each
/// game's line names the quirk, JSON carries it as a note, and `--strict`
/// exits 1.
#[test]
fn a_file_per_quirk_through_the_binary() {
    for quirk in QUIRKS {
        let games: Vec<(Variant, String)> = (0..40u64)
            .flat_map(|seed| corpus(seed * 7 + 3, 2))
            .filter(|(_, game)| quirk.applies(game))
            .take(4)
            .collect();
        assert_eq!(games.len(), 4, "{quirk:?}");
        let text: String = games
            .iter()
            .map(|(_, g)| format!("{}\n", quirk.inject(g)))
            .collect();
        let file = scratch(&format!("quirk-{}.pdn", quirk.kind()), &text);
        let file = file.to_str().unwrap();
        let run = postfacto(&["verify", "--pdn", file], "");
        assert_eq!(run.code, 0, "{quirk:?}\n{}\n{text}", run.stdout);

        assert_eq!(run.stdout.lines().count(), 4, "{quirk:?}\n{}", run.stdout);
        for line in run.stdout.lines() {
            assert!(
                line.contains("): OK") && line.contains("; read leniently: "),
                "{line}"
            );
        }
        let json = postfacto(&["verify", "--pdn", file, "--format", "json"], "");
        assert_eq!(json.code, 0);
        for line in json.stdout.lines() {
            let value: serde_json::Value = serde_json::from_str(line).expect(line);
            assert_eq!(value["status"], "ok", "{line}");
            let noted = value["notes"]
                .as_array()
                .unwrap()
                .iter()
                .any(|n| n["kind"] == quirk.kind());
            assert!(noted, "{quirk:?}: {line}");
            assert_eq!(value["headers"]["Annotator"], "Ann Otator", "{line}");
        }
        let strict = postfacto(&["verify", "--pdn", file, "--strict"], "");
        assert_eq!(strict.code, 1, "{quirk:?}\n{}", strict.stdout);
        assert!(
            !strict.stdout.contains("read leniently"),
            "{}",
            strict.stdout
        );
    }
}

/// A move that is no move on the board is a mistake at its ply: the game
/// is read, the ply and the reason are said, and `--repair` mends it.
#[test]
fn moves_that_are_no_move_on_the_board_are_mistakes_at_their_ply() {
    let game = "[Event \"misread\"]\n1. 11-15 24-20 2. 8-11 28-24 3. 9-12 22-18 *\n\
                [Event \"off the board\"]\n1. 11-15 24-20 2. 8-11 28-24 3. 9-33 22-18 *\n\
                [Event \"clean\"]\n1. 11-15 24-20 *\n";
    let file = scratch("miswritten.pdn", game);
    let file = file.to_str().unwrap();
    let run = postfacto(&["verify", "--pdn", file], "");
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", run.stdout);
    assert!(
        lines[0].contains("3. 9-12 (ply 5): 9 and 12 are not diagonal neighbours"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains("3. 9-33 (ply 5): unknown square '33'"),
        "{}",
        lines[1]
    );
    assert!(lines[2].contains("): OK"), "{}", lines[2]);
    let repaired = postfacto(&["verify", "--pdn", file, "--repair"], "");
    for line in &repaired.stdout.lines().collect::<Vec<_>>()[..2] {
        assert!(line.contains("repaired with 1 edit"), "{line}");
        assert!(
            line.contains("of 1 edit): 3. 9-") && line.contains("(square)"),
            "{line}"
        );
    }
    let json = postfacto(
        &["verify", "--pdn", file, "--repair", "--format", "json"],
        "",
    );
    let first: serde_json::Value =
        serde_json::from_str(json.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["status"], "illegal");
    assert_eq!(first["ply"], 5);
    assert_eq!(first["repair"]["minimum"], 1);
    assert_eq!(first["repair"]["edits"][0]["kind"], "square");
    // Strictly, the old refusal.
    let strict = postfacto(&["verify", "--pdn", file, "--strict"], "");
    assert!(strict
        .stdout
        .lines()
        .next()
        .unwrap()
        .contains("cannot be read"));
}

/// Games without moves take the rule set of the file's other games.
#[test]
fn diagrams_take_the_rules_of_the_files_games() {
    let text = "[Event \"a\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\
                [Event \"diagram\"]\n[FEN \"W:W28,31:B19\"]\n*\n";
    let reports = verify_archive(text, VerifyOptions::default());
    assert_eq!(reports.len(), 2);
    let rules: Vec<_> = reports
        .iter()
        .map(|r| r.rules.as_ref().map(|r| r.variant))
        .collect();
    assert_eq!(rules, [Some(Variant::International); 2]);
    assert_eq!(reports[1].verdict, Verdict::NoMoves);
}

/// A square beyond the 10x10 board in a 10x10 game is a mistake at its
/// ply, not a reason to read the game on the 12x12 board.
#[test]
fn a_miswritten_high_square_keeps_the_game_on_its_board() {
    let text = "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-55 *\n";
    let reports = verify_archive(text, VerifyOptions::default());
    let rules = reports[0].rules.as_ref().map(|r| r.variant);
    assert_eq!(rules, Some(Variant::International), "{}", reports[0]);
    assert_eq!(reports[0].ply, Some(6), "{}", reports[0]);
}

/// A real English file written with the other separator throughout (`x`
/// for steps, `-` for captures): every game replays, as English, each
/// with its notes; strictly, none does.
#[test]
fn a_real_file_with_every_separator_swapped() {
    let text = std::fs::read_to_string(crate::util::path("tests/data/pdn/OCA_2.0.pdn")).unwrap();
    let swapped: String = text
        .lines()
        .map(|line| {
            let line = if line.starts_with('[') {
                line.to_string()
            } else {
                line.split(' ')
                    .map(|t| swapped(t).unwrap_or_else(|| t.to_string()))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            format!("{line}\n")
        })
        .collect();
    assert_ne!(swapped, text);
    let reports = verify_archive(&swapped, VerifyOptions::default());
    assert_eq!(reports.len(), 43);
    for report in &reports {
        assert_eq!(report.verdict, Verdict::Ok, "{report}");
        let rules = report.rules.as_ref().map(|r| r.variant);
        assert_eq!(rules, Some(Variant::English), "{report}");
        assert!(kinds(report).contains(&"separator"), "{report}");
    }
    let strict = VerifyOptions {
        strict: true,
        ..VerifyOptions::default()
    };
    let refused = verify_archive(&swapped, strict);
    assert!(refused.iter().all(|r| !r.verdict.is_ok()));
}

/// A move read with the other separator keeps its written reading until
/// the replay decides (issue 44 item 9): a non-neighbour step that no
/// capture makes legal either (`37-33`, International) is named as
/// written and repaired as a square; Spanish captures written with `-`
/// and a Portuguese flying king's `25-24` still read clean.
#[test]
fn a_move_read_with_the_other_separator_is_judged_both_ways() {
    let international = "[GameType \"20\"]\n1. 32-28 17-21 2. 37-33 21-26 *\n";
    let file = scratch("other-separator-20.pdn", international);
    let file = file.to_str().unwrap();
    let run = postfacto(&["verify", "--pdn", file], "");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("2. 37-33 (ply 3): 37 and 33 are not on one diagonal"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("37x33"), "{}", run.stdout);
    let repaired = postfacto(&["verify", "--pdn", file, "--repair"], "");
    assert!(
        repaired
            .stdout
            .contains("repaired with 1 edit (no repair of 0 exists; 1 other repair of 1 edit): 2. 37-33 read as 37-32 (square)"),
        "{}",
        repaired.stdout
    );
    let json = postfacto(
        &["verify", "--pdn", file, "--repair", "--format", "json"],
        "",
    );
    let value: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    let edit = &value["repair"]["edits"][0];
    assert_eq!(
        (&edit["kind"], &edit["written"], &edit["read"]),
        (&"square".into(), &"37-33".into(), &"37-32".into()),
        "{value}"
    );
    assert_eq!(value["notes"], serde_json::json!([]), "{value}");
    // `solve --repair` reads the game as verify judges it: from its start.
    let solved = postfacto(&["solve", "--repair", file], "");
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    assert!(
        solved.stderr.contains("2. 37-33 read as 37-32 (square)"),
        "{}",
        solved.stderr
    );

    // Spanish: a capture written with `-`; Portuguese: a flying king's
    // capture by its first and last squares, with `-`.
    for (game, read_as) in [
        (
            "[GameType \"24\"]\n[FEN \"W:W11:B15,30\"]\n1. 11-20 30-26 *\n",
            "ply 1 '11-20' as 11x20",
        ),
        (
            "[GameType \"28\"]\n[FEN \"W:WK25:B15,21,30\"]\n1. 25-24 30-26 *\n",
            "ply 1 '25-24' as 25x11x24",
        ),
    ] {
        let file = scratch("other-separator-clean.pdn", game);
        let run = postfacto(&["verify", "--pdn", file.to_str().unwrap()], "");
        assert_eq!(run.code, 0, "{game}{}", run.stdout);
        assert!(
            run.stdout
                .contains(&format!("OK; read leniently: {read_as}")),
            "{}",
            run.stdout
        );
    }
    // The capture reading is kept where it is legal, the written step
    // taken back where neither is: one edit, a square.
    let both = "[GameType \"28\"]\n[FEN \"W:WK25:B15,21,30\"]\n1. 25-24 30-26 2. 24-23 *\n";
    let file = scratch("other-separator-both.pdn", both);
    let run = postfacto(&["verify", "--pdn", file.to_str().unwrap(), "--repair"], "");
    assert!(
        run.stdout
            .contains("2. 24-23 (ply 3): 24 and 23 are not on one diagonal")
            && run.stdout.contains("ply 1 '25-24' as 25x24")
            && run.stdout.contains("repaired with 1 edit")
            && run.stdout.contains("2. 24-23 read as 24-31 (square)"),
        "{}",
        run.stdout
    );
}
