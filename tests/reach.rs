//! Proof games (`shared/spec/proof-games.md`): `postfacto reach` finds a
//! shortest game to positions random games reached, and the game it prints
//! replays to the position; unreachable positions exit 1 with the reason,
//! `--max-plies` below the minimum exits 1, `--limit` exits 3, bad boards 2.

use postfacto::archive::reading;
use postfacto::board::{Board, Color};
use postfacto::notation::games;
use postfacto::random::{play_game, Play, Rng};
use postfacto::replay::{replay, replay_filling};
use postfacto::rules::Variant;

use crate::util::{postfacto, scratch};

/// The position after the first `plies` plies of a careful random game
/// (`None` when the game ended sooner), with the side to move there.
fn position_after(variant: Variant, seed: u64, plies: usize) -> Option<(Board, Color)> {
    let opening = variant.topology().opening();
    let mut rng = Rng::new(seed);
    let game = play_game(
        variant.rules(),
        &mut rng,
        &opening,
        variant.first_player(),
        plies,
        Play::Careful,
    );
    (game.moves.len() == plies).then(|| {
        let end = replay(variant.rules(), &opening, &game).unwrap();
        (end, game.mover(plies + 1))
    })
}

fn turn_name(turn: Color) -> &'static str {
    match turn {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Runs `reach` on `board` under `variant`, with `extra` arguments.
fn reach(
    name: &str,
    variant: Variant,
    board: &str,
    turn: Color,
    extra: &[&str],
) -> crate::util::Run {
    let file = scratch(name, board);
    let mut args = vec![
        "reach",
        file.to_str().unwrap(),
        "--rules",
        variant.name(),
        "--turn",
        turn_name(turn),
    ];
    args.extend_from_slice(extra);
    postfacto(&args, "")
}

/// The plies of the shortest game `reach --format json` finds to `board`.
fn shortest_plies(name: &str, variant: Variant, board: &str, turn: Color) -> u64 {
    let found = reach(name, variant, board, turn, &["--format", "json"]);
    assert_eq!(found.code, 0, "{}", found.stderr);
    serde_json::from_str::<serde_json::Value>(&found.stdout).unwrap()["plies"]
        .as_u64()
        .unwrap()
}

/// The game of a PDN text, replayed from the opening: its plies and end.
fn replay_pdn(variant: Variant, text: &str) -> (usize, Board) {
    let raw: Vec<_> = games(text).collect();
    assert_eq!(raw.len(), 1, "{text}");
    let read = raw[0].read(reading(variant)).unwrap();
    assert!(
        read.fen.is_none(),
        "a game from the opening has no FEN tag: {text}"
    );
    let opening = variant.topology().opening();
    let (end, filled) = replay_filling(variant.rules(), &opening, &read.record, None).unwrap();
    (filled.moves.len(), end)
}

#[test]
fn positions_random_games_reached_are_reached_no_later_and_the_game_replays() {
    for (variant, plies) in [
        (Variant::English, 14),
        (Variant::Russian, 10),
        (Variant::International, 8),
    ] {
        for seed in 0..4 {
            let Some((end, turn)) = position_after(variant, seed, plies) else {
                continue;
            };
            let run = reach(
                "reach-random.txt",
                variant,
                &end.to_string(),
                turn,
                &["--format", "pdn"],
            );
            assert_eq!(
                run.code,
                0,
                "{} seed {seed}: {}{}",
                variant.name(),
                run.stdout,
                run.stderr
            );
            let (found, reached) = replay_pdn(variant, &run.stdout);
            assert!(
                found <= plies && found % 2 == plies % 2,
                "{found} plies for {plies}"
            );
            assert_eq!(
                reached,
                end,
                "{}: the game does not end on the position",
                variant.name()
            );
            let text = reach("reach-random.txt", variant, &end.to_string(), turn, &[]);
            assert_eq!(text.code, 0);
            assert!(
                text.stdout.contains(&format!(
                    "shortest: {}; no legal game of fewer plies reaches it",
                    postfacto::notation::plies(found)
                )),
                "{}",
                text.stdout
            );
        }
    }
}

#[test]
fn json_gives_the_moves_the_length_and_both_positions() {
    let variant = Variant::English;
    let (end, turn) = position_after(variant, 3, 6).unwrap();
    let run = reach(
        "reach-json.txt",
        variant,
        &end.to_string(),
        turn,
        &["--format", "json"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["rules"], "english");
    assert_eq!(value["minimal"], true);
    let plies = value["plies"].as_u64().unwrap();
    assert_eq!(value["moves"].as_array().unwrap().len() as u64, plies);
    assert_eq!(value["lower_bound"].as_u64(), Some(plies));
    assert!(
        value["start_fen"].as_str().unwrap().starts_with("B:W21,22"),
        "{value}"
    );
    assert!(value["fen"]
        .as_str()
        .unwrap()
        .starts_with(if turn == Color::White { "W:" } else { "B:" }));
}

#[test]
fn every_shortest_game_is_counted() {
    // Count the games of 4 plies from the opening that end on the position
    // by listing them all, and compare with --all.
    let variant = Variant::English;
    let rules = variant.rules();
    let opening = variant.topology().opening();
    let (end, turn) = position_after(variant, 5, 4).unwrap();
    let mut count = 0;
    let mut layer = vec![(opening, Color::Black)];
    for _ in 0..4 {
        layer = layer
            .into_iter()
            .flat_map(|(board, side)| {
                rules
                    .legal_moves(&board, side)
                    .into_iter()
                    .map(move |mv| (rules.play(&board, side, &mv).unwrap(), side.opposite()))
            })
            .collect();
    }
    count += layer
        .iter()
        .filter(|(b, s)| *b == end && *s == turn)
        .count();
    let run = reach("reach-all.txt", variant, &end.to_string(), turn, &["--all"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(&format!("shortest games: {count}")),
        "{count}: {}",
        run.stdout
    );
}

#[test]
fn a_thirteenth_piece_is_unreachable_with_the_reason() {
    let board = "-b-b-b-b\nb-b-b-b-\n-b-b-b-b\n.-.-.-.-\n-.-.-.-w\nw-w-w-w-\n-w-w-w-w\nw-w-w-w-\n";
    let run = reach("reach-13.txt", Variant::English, board, Color::Black, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("White has 13 pieces"), "{}", run.stdout);
}

#[test]
fn a_king_before_any_promotion_could_happen_is_unreachable() {
    // Black has not moved (all twelve men at home, nothing taken), so no
    // white man has crossed the board: a white king is impossible.
    let board = "-b-b-b-b\nb-b-b-b-\n-b-b-b-b\n.-.-.-.-\n-.-.-.-.\nW-w-w-w-\n-w-w-w-w\nw-w-w-w-\n";
    let run = reach(
        "reach-king.txt",
        Variant::English,
        board,
        Color::Black,
        &["--format", "json"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["reachable"], false);
    assert!(
        value["reason"]
            .as_str()
            .unwrap()
            .contains("Black must make exactly 0"),
        "{value}"
    );
    assert!(
        value["reason"].as_str().unwrap().ends_with(
            "with black to move first and black to move at the end, White then makes 0 moves, but it needs at least 6"
        ),
        "{value}"
    );
    let white_to_move = reach(
        "reach-king-white.txt",
        Variant::English,
        board,
        Color::White,
        &[],
    );
    assert_eq!(white_to_move.code, 1, "{}", white_to_move.stderr);
    assert!(
        white_to_move
            .stdout
            .ends_with("yet white is to move at the end: Black, to move first, must have moved\n"),
        "{}",
        white_to_move.stdout
    );
}

#[test]
fn max_plies_below_the_minimum_exits_1_and_at_it_finds_the_game() {
    let variant = Variant::English;
    let (end, turn) = position_after(variant, 2, 8).unwrap();
    let plies = shortest_plies("reach-max.txt", variant, &end.to_string(), turn);
    let below = (plies - 2).to_string();
    let run = reach(
        "reach-max.txt",
        variant,
        &end.to_string(),
        turn,
        &["--max-plies", &below],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains(&format!("no legal game of at most {below} plies")),
        "{}",
        run.stdout
    );
    let at = plies.to_string();
    let run = reach(
        "reach-max.txt",
        variant,
        &end.to_string(),
        turn,
        &["--max-plies", &at],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

#[test]
fn the_limit_ends_a_long_search_with_the_bound_proved() {
    // Forty plies of a game with exchanges: far beyond a tenth of a second.
    let variant = Variant::English;
    let (end, turn) = position_after(variant, 1, 40).unwrap();
    let run = reach(
        "reach-limit.txt",
        variant,
        &end.to_string(),
        turn,
        &["--limit", "100ms", "--format", "json"],
    );
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["undecided"], true);
    assert!(value["lower_bound"].as_u64().unwrap() <= 40);
}

#[test]
fn bad_boards_exit_2_with_one_line() {
    let short = "-b-b-b-b\nb-b-b-b-\n";
    let run = reach("reach-bad.txt", Variant::English, short, Color::Black, &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    // A black man on White's back row would have been crowned.
    let crowned =
        "-.-.-.-.\n.-.-.-.-\n-.-.-.-.\n.-.-.-.-\n-.-.-.-.\n.-.-.-.-\n-.-.-.-w\nb-.-.-.-\n";
    let run = reach(
        "reach-bad.txt",
        Variant::English,
        crowned,
        Color::Black,
        &[],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    let opening = Variant::English.topology().opening().to_string();
    let run = reach(
        "reach-bad.txt",
        Variant::English,
        &opening,
        Color::Black,
        &["--from", "missing-file.txt"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("missing-file.txt"), "{}", run.stderr);
    // A start with an unknown square.
    let unknown = opening.replacen('b', "?", 1);
    let from = scratch("reach-from-unknown.txt", &unknown);
    let run = reach(
        "reach-bad.txt",
        Variant::English,
        &opening,
        Color::Black,
        &["--from", from.to_str().unwrap()],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("'?'"), "{}", run.stderr);
}

#[test]
fn the_formula_of_k_plies_is_satisfiable_at_the_minimum_and_not_below() {
    let variant = Variant::English;
    let (end, turn) = position_after(variant, 4, 4).unwrap();
    let plies = shortest_plies("reach-cnf.txt", variant, &end.to_string(), turn);
    for (k, expected) in [(plies, 10), (plies - 2, 20)] {
        let k = k.to_string();
        let cnf = reach(
            "reach-cnf.txt",
            variant,
            &end.to_string(),
            turn,
            &["--cnf", &k],
        );
        assert_eq!(cnf.code, 0, "{}", cnf.stderr);
        assert!(
            cnf.stdout.contains(&format!("a game of exactly {k} plies")),
            "header"
        );
        let file = scratch("reach-cnf.cnf", &cnf.stdout);
        let sat = postfacto(&["sat", file.to_str().unwrap()], "");
        assert_eq!(
            sat.code,
            expected,
            "K = {k}: {}",
            sat.stdout.lines().next().unwrap_or("")
        );
    }
    let odd = (plies + 1).to_string();
    let wrong = reach(
        "reach-cnf.txt",
        variant,
        &end.to_string(),
        turn,
        &["--cnf", &odd],
    );
    assert_eq!(wrong.code, 2, "{}", wrong.stderr);
}

/// `solve --from-opening` on `fragment`, in `format`.
fn from_opening(name: &str, fragment: &str, format: &str) -> crate::util::Run {
    let file = scratch(name, fragment);
    postfacto(
        &[
            "solve",
            file.to_str().unwrap(),
            "--from-opening",
            "--limit",
            "60s",
            "--format",
            format,
        ],
        "",
    )
}

#[test]
fn a_fragment_gets_the_shortest_prefix_from_the_opening() {
    let fragment = "B 2\n4-8\n17-13\n";
    let text = from_opening("prefix.in", fragment, "icpc");
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout.contains("shortest prefix: 4 plies; no legal game of fewer plies reaches a start board of these moves"),
        "{}",
        text.stdout
    );
    let pdn = from_opening("prefix.in", fragment, "pdn");
    assert_eq!(pdn.code, 0, "{}", pdn.stderr);
    let (plies, _) = replay_pdn(Variant::English, &pdn.stdout);
    assert_eq!(plies, 6, "the prefix and the fragment: {}", pdn.stdout);
    let json = from_opening("prefix.in", fragment, "json");
    let value: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(value["prefix_plies"], 4);
    assert_eq!(value["prefix_minimal"], true);
    assert_eq!(value["prefix"].as_array().unwrap().len(), 4);
}

#[test]
fn the_prefix_of_a_random_game_s_fragment_is_no_longer_than_the_game_s() {
    let variant = Variant::English;
    let opening = variant.topology().opening();
    for seed in 0..3 {
        let mut rng = Rng::new(100 + seed);
        let game = play_game(
            variant.rules(),
            &mut rng,
            &opening,
            variant.first_player(),
            10,
            Play::Careful,
        );
        if game.moves.len() < 10 {
            continue;
        }
        let first = game.mover(7);
        let side = if first == Color::White { "W" } else { "B" };
        let moves: Vec<String> = game.moves[6..]
            .iter()
            .map(|m| variant.write_move(m))
            .collect();
        let fragment = format!("{side} {}\n{}\n", moves.len(), moves.join("\n"));
        let run = from_opening("prefix-random.in", &fragment, "pdn");
        assert_eq!(run.code, 0, "seed {seed}: {fragment}{}", run.stderr);
        let (plies, _) = replay_pdn(variant, &run.stdout);
        assert!(
            plies <= 10,
            "seed {seed}: a prefix longer than the game's: {}",
            run.stdout
        );
    }
}

#[test]
fn from_opening_refuses_a_damaged_record() {
    let run = from_opening("prefix-damaged.in", "B 2\n?\n17-13\n", "icpc");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("--from-opening"), "{}", run.stderr);
}

#[test]
fn from_a_board_the_game_starts_there_and_its_pdn_says_so() {
    let variant = Variant::English;
    let (middle, middle_turn) = position_after(variant, 7, 4).unwrap();
    let (end, turn) = position_after(variant, 7, 8).unwrap();
    let from = scratch("reach-from-start.txt", &middle.to_string());
    let side = turn_name(middle_turn);
    let args = [
        "--from",
        from.to_str().unwrap(),
        "--from-turn",
        side,
        "--format",
        "pdn",
    ];
    let run = reach("reach-from-end.txt", variant, &end.to_string(), turn, &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let raw: Vec<_> = games(&run.stdout).collect();
    let read = raw[0].read(reading(variant)).unwrap();
    let (fen_side, fen_board) = read
        .fen
        .expect("a [FEN] tag for a game that starts elsewhere");
    assert_eq!((fen_side, fen_board), (middle_turn, middle));
    let (reached, filled) = replay_filling(variant.rules(), &middle, &read.record, None).unwrap();
    assert_eq!(reached, end);
    assert!(filled.moves.len() <= 4);
}

/// The whole games of `file` (from the opening) that replay under
/// `variant`: their moves with every landing, and the board they end on.
fn whole_games(
    file: &str,
    variant: Variant,
    (skip, count): (usize, usize),
) -> Vec<(usize, Board, Color)> {
    let text = std::fs::read_to_string(crate::util::path(file)).unwrap();
    let opening = variant.topology().opening();
    games(&text)
        .filter_map(|raw| {
            let read = raw.read(reading(variant)).ok()?;
            let from_opening = read.fen.is_none_or(|(side, board)| {
                side == variant.first_player() && board.with_topology(opening.topology()) == opening
            });
            if !from_opening {
                return None;
            }
            let (end, filled) =
                replay_filling(variant.rules(), &opening, &read.record, None).ok()?;
            let plies = filled.moves.len();
            (plies >= 40).then(|| (plies, end, filled.mover(plies + 1)))
        })
        .skip(skip)
        .take(count)
        .collect()
}

/// A PDN game printed by `reach`: its moves' squares (every landing).
fn pdn_paths(variant: Variant, text: &str) -> Vec<Vec<postfacto::board::Square>> {
    let raw: Vec<_> = games(text).collect();
    let read = raw[0].read(reading(variant)).unwrap();
    let opening = variant.topology().opening();
    let (_, filled) = replay_filling(variant.rules(), &opening, &read.record, None).unwrap();
    filled.moves.iter().map(|m| m.path().to_vec()).collect()
}

#[test]
fn any_reaches_the_end_of_whole_real_games_and_the_oracle_replays_it() {
    // The first English game's end is one --any does not reach in 10 s.
    for (file, variant, (skip, count)) in [
        ("../shared/pdn/ussr1947.pdn", Variant::Russian, (0, 2)),
        ("../shared/pdn/wk2003.pdn", Variant::International, (0, 1)),
        ("../shared/pdn/OCA_2.0.pdn", Variant::English, (1, 1)),
    ] {
        let ends = whole_games(file, variant, (skip, count));
        assert_eq!(ends.len(), count, "{file}");
        for (played, end, turn) in ends {
            let run = reach(
                "reach-any.txt",
                variant,
                &end.to_string(),
                turn,
                &["--any", "--format", "pdn", "--limit", "120s"],
            );
            assert_eq!(run.code, 0, "{file}, {played} plies:\n{end}{}", run.stderr);
            let (plies, reached) = replay_pdn(variant, &run.stdout);
            assert_eq!(
                reached, end,
                "{file}: the game does not end on the position"
            );
            assert_eq!(plies % 2, played % 2, "{file}: the side to move");
            if crate::oracle::knows(variant) {
                let by_oracle = crate::oracle::replays(variant, &pdn_paths(variant, &run.stdout));
                assert_eq!(by_oracle, Some(end), "{file}: the oracle replays elsewhere");
            }
            let event = ["not proved shortest", "shortest proof game"];
            assert!(
                event.iter().any(|e| run.stdout.contains(e)),
                "{}",
                run.stdout
            );
        }
    }
    // In text, the line after the moves says what is proved.
    let (_, end, turn) = whole_games("../shared/pdn/ussr1947.pdn", Variant::Russian, (0, 1))[0];
    let args = ["--any", "--limit", "120s"];
    let text = reach(
        "reach-any.txt",
        Variant::Russian,
        &end.to_string(),
        turn,
        &args,
    );
    assert_eq!(text.code, 0, "{}", text.stderr);
    let last = text.stdout.lines().last().unwrap();
    assert!(
        last.starts_with("a game of ") && last.contains("the shortest is not proved"),
        "{last}"
    );
}

#[test]
fn any_keeps_the_reasons_of_unreachable_diagrams() {
    let thirteen =
        "-b-b-b-b\nb-b-b-b-\n-b-b-b-b\n.-.-.-.-\n-.-.-.-w\nw-w-w-w-\n-w-w-w-w\nw-w-w-w-\n";
    let run = reach(
        "reach-any-13.txt",
        Variant::English,
        thirteen,
        Color::Black,
        &["--any"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("White has 13 pieces"), "{}", run.stdout);
    let king = "-b-b-b-b\nb-b-b-b-\n-b-b-b-b\n.-.-.-.-\n-.-.-.-.\nW-w-w-w-\n-w-w-w-w\nw-w-w-w-\n";
    let run = reach(
        "reach-any-king.txt",
        Variant::English,
        king,
        Color::Black,
        &["--any"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("Black must make exactly 0"),
        "{}",
        run.stdout
    );
    // From a board where White's only man stands on 18, a white man on 22
    // stands behind it: men move only forward.
    let from = scratch(
        "reach-any-from.txt",
        "-b-.-.-.\n.-.-.-.-\n-.-.-.-.\n.-.-w-.-\n-.-.-.-.\n.-.-.-.-\n-.-.-.-.\n.-.-.-.-\n",
    );
    let behind = "-b-.-.-.\n.-.-.-.-\n-.-.-.-.\n.-.-.-.-\n-.-.-w-.\n.-.-.-.-\n-.-.-.-.\n.-.-.-.-\n";
    let args = [
        "--any",
        "--from",
        from.to_str().unwrap(),
        "--from-turn",
        "white",
    ];
    let run = reach(
        "reach-any-behind.txt",
        Variant::English,
        behind,
        Color::White,
        &args,
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("men move only forward"),
        "{}",
        run.stdout
    );
}

#[test]
fn any_proves_a_diagram_unreachable_when_the_search_back_ends_without_the_start() {
    // Gould's diagram 118 with White to move: Black moved last, but no
    // black move lands on 1, 3 or 4 (their start row), nor on 8 or 12 (the
    // squares their ways start from are all held). `--any` left it
    // undecided; the search back from it runs out of positions.
    let run = postfacto(
        &[
            "reach",
            "W:W28,24,20,15,10:B12,8,4,3,1",
            "--rules",
            "english",
            "--any",
            "--limit",
            "60s",
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("the search back from it finds no position that leads to it"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_limit_gives_back_the_best_game_found_and_the_bound_proved() {
    // The end of a whole real game: its shortest game is far beyond the
    // limit, a game to it is not.
    let variant = Variant::Russian;
    let (played, end, turn) = whole_games("../shared/pdn/ussr1947.pdn", variant, (0, 1))[0];
    let run = reach(
        "reach-best.txt",
        variant,
        &end.to_string(),
        turn,
        &["--limit", "15s", "--format", "json"],
    );
    assert_eq!(run.code, 3, "{played} plies: {}{}", run.stdout, run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["undecided"], true);
    assert_eq!(value["minimal"], false);
    let plies = value["plies"].as_u64().expect("the best game so far");
    let lower = value["lower_bound"].as_u64().unwrap();
    assert!(lower < plies, "{value}");
    assert_eq!(value["moves"].as_array().unwrap().len() as u64, plies);
    let pdn = reach(
        "reach-best.txt",
        variant,
        &end.to_string(),
        turn,
        &["--limit", "15s", "--format", "pdn"],
    );
    assert_eq!(pdn.code, 3, "{}", pdn.stderr);
    let (_, reached) = replay_pdn(variant, &pdn.stdout);
    assert_eq!(reached, end);
    let text = reach(
        "reach-best.txt",
        variant,
        &end.to_string(),
        turn,
        &["--limit", "15s"],
    );
    assert_eq!(text.code, 3);
    assert!(
        text.stdout
            .contains("undecided: the limit (15 s) was hit; a game of ")
            && text.stdout.contains("; none shorter than "),
        "{}",
        text.stdout
    );
}

#[test]
fn a_fen_names_the_position_and_its_side_to_move() {
    let variant = Variant::English;
    let (end, turn) = position_after(variant, 3, 6).unwrap();
    let fen = postfacto::notation::to_fen(&end, turn, false);
    let file = scratch("reach-fen.txt", &format!("{fen}\n"));
    let run = postfacto(&["reach", file.to_str().unwrap(), "--format", "json"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["fen"], fen.as_str());
    assert_eq!(value["minimal"], true);
    // Rows name no side to move: one line, exit 2.
    let rows = scratch("reach-rows.txt", &end.to_string());
    let run = postfacto(&["reach", rows.to_str().unwrap()], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("side to move"), "{}", run.stderr);
}

#[test]
fn the_unrefined_formula_says_so_and_is_satisfiable_at_the_minimum() {
    let variant = Variant::English;
    let (end, turn) = position_after(variant, 4, 4).unwrap();
    let plies = shortest_plies("reach-unrefined.txt", variant, &end.to_string(), turn).to_string();
    let args = ["--cnf", plies.as_str(), "--unrefined"];
    let cnf = reach(
        "reach-unrefined.txt",
        variant,
        &end.to_string(),
        turn,
        &args,
    );
    assert_eq!(cnf.code, 0, "{}", cnf.stderr);
    assert!(
        cnf.stdout.contains("c unrefined: without the clauses"),
        "header"
    );
    assert!(!cnf.stdout.contains("learned at ply"));
    let file = scratch("reach-unrefined.cnf", &cnf.stdout);
    let sat = postfacto(&["sat", file.to_str().unwrap()], "");
    assert_eq!(sat.code, 10, "{}", sat.stdout);
}

#[test]
fn rules_auto_reads_the_boards_own_rule_set_as_no_rules_does() {
    let opening = Variant::English.topology().opening().to_string();
    // Rules left to inference: the board's own, as with no --rules (the
    // opening's rows with White to move: no game, of any rule set of 8x8).
    let file = scratch("reach-auto.txt", &opening);
    let args = |rules: &'static [&'static str]| {
        let mut args = vec![
            "reach",
            "--format",
            "json",
            file.to_str().unwrap(),
            "--turn",
            "white",
        ];
        args.extend_from_slice(rules);
        postfacto(&args, "")
    };
    let (auto, none) = (args(&["--rules", "auto"]), args(&[]));
    assert_eq!(auto.code, 1, "{}", auto.stderr);
    assert_eq!((auto.code, &auto.stdout), (none.code, &none.stdout));
    assert!(
        auto.stdout.contains("\"rules\":\"english\""),
        "{}",
        auto.stdout
    );
}

/// A FEN argument with a mistyped side is named as a FEN's fault, not as
/// a file that does not exist.
#[test]
fn a_mistyped_fen_argument_is_a_fen_error() {
    for command in ["moves", "reach"] {
        let run = postfacto(&[command, "X:W22:B11"], "");
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(
            run.stderr
                .contains("FEN 'X:W22:B11': it must start with the side to move, W or B"),
            "{command}: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("No such file"), "{}", run.stderr);
    }
}
