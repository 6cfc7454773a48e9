//! `verify --pdn --legal`: whether each game's `[FEN]` start can be
//! reached from the opening (issue 45 item 2), through the binary.

use crate::util::{postfacto, scratch};

/// `tests/data/legal.pdn`: one game whose diagram is a position after 11-15
/// (reachable), one with thirteen white men (unreachable), one from the
/// opening (nothing to ask); Python's comparison reads it too.
fn archive() -> String {
    std::fs::read_to_string(crate::util::path("tests/data/legal.pdn")).unwrap()
}

#[test]
fn each_diagram_is_reachable_or_unreachable_with_its_reason() {
    let file = scratch("legal.pdn", &archive());
    let run = postfacto(&["verify", "--pdn", file.to_str().unwrap(), "--legal"], "");
    assert_eq!(
        run.code, 1,
        "an unreachable start exits 1: {}{}",
        run.stdout, run.stderr
    );
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", run.stdout);
    assert!(
        lines[0].contains("its start is reachable from the opening (a game of 1 ply"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains("its start cannot be reached from the opening: White has 13 pieces"),
        "{}",
        lines[1]
    );
    assert!(
        !lines[2].contains("start"),
        "a game from the opening is not asked about: {}",
        lines[2]
    );
    assert!(
        run.stderr
            .contains("2 starts: 1 reachable, 1 unreachable, 0 undecided"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_json_gives_the_game_found_and_the_reason() {
    let file = scratch("legal-json.pdn", &archive());
    let path = file.to_str().unwrap();
    let run = postfacto(
        &["verify", "--pdn", path, "--legal", "--format", "json"],
        "",
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let games: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games[0]["legal"]["status"], "reachable");
    assert_eq!(games[0]["legal"]["game"], serde_json::json!(["11-15"]));
    assert_eq!(games[1]["legal"]["status"], "unreachable");
    assert!(games[1]["legal"]["reason"]
        .as_str()
        .unwrap()
        .contains("13 pieces"));
    assert!(games[2]["legal"].is_null(), "{}", games[2]);
    // The same keys whatever the status, as every other object of the run.
    for game in &games[..2] {
        let keys: Vec<&String> = game["legal"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["game", "reason", "status", "stopped"], "{game}");
    }
    assert!(games[0]["legal"]["reason"].is_null() && games[1]["legal"]["game"].is_null());
    // Without --legal the key is not there at all, as before.
    let plain = postfacto(&["verify", "--pdn", path, "--format", "json"], "");
    assert!(!plain.stdout.contains("\"legal\""), "{}", plain.stdout);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
}

#[test]
fn a_diagram_not_decided_within_the_limit_is_undecided() {
    // A composed 10x10 problem (PWCP): five men a side, a long way from the
    // opening; nowhere near found in 200 ms.
    let problem = "[GameType \"20\"]\n[FEN \"W:W6,17,18,38,41:B8,14,24,34,36.\"]\n\n1. 17-12 36x47 2. 12x3 47x1 3. 3x45 1-0\n";
    let file = scratch("legal-limit.pdn", problem);
    let run = postfacto(
        &[
            "verify",
            "--pdn",
            file.to_str().unwrap(),
            "--legal",
            "--limit",
            "200ms",
        ],
        "",
    );
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("whether its start can be reached from the opening is undecided"),
        "{}",
        run.stdout
    );
    let json = postfacto(
        &[
            "verify",
            "--pdn",
            file.to_str().unwrap(),
            "--legal",
            "--limit",
            "200ms",
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(json.code, 3, "{}{}", json.stdout, json.stderr);
    let game: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    let legal = &game["legal"];
    assert_eq!(
        (&legal["status"], &legal["stopped"], &legal["game"]),
        (
            &"undecided".into(),
            &"limit".into(),
            &serde_json::Value::Null
        ),
        "{game}"
    );
    assert!(
        legal["reason"].as_str().is_some_and(|r| !r.is_empty()),
        "{game}"
    );
}

#[test]
fn legal_needs_an_archive() {
    let run = postfacto(&["verify", "--legal", "a.in", "a.ans"], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn a_diagram_no_game_can_hold_is_unreachable_and_the_archive_goes_on() {
    // A white man on White's crowning row, then a game from the opening:
    // the first is an illegal diagram, not a reason to stop the file.
    let text =
        "[GameType \"21\"]\n[FEN \"B:W1,21:B5\"]\n\n1. 5-9 *\n\n[GameType \"21\"]\n\n1. 11-15 *\n";
    let file = scratch("legal-crowned.pdn", text);
    let run = postfacto(&["verify", "--pdn", file.to_str().unwrap(), "--legal"], "");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}{}", run.stdout, run.stderr);
    assert!(
        lines[0]
            .contains("its start cannot be reached from the opening: it cannot occur in a game"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("game 2") && lines[1].contains("OK"),
        "{}",
        lines[1]
    );
}
