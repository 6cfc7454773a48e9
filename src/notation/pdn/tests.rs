//! The PDN reader, one dialect feature of `shared/spec/pdn.md` per test.

use super::*;
use crate::board::Topology;
use crate::notation::MoveText;

const ENGLISH: GameReading = GameReading {
    geometry: Geometry::SHORT,
    first_player: Color::Black,
    strict: false,
};

const TEN: GameReading = GameReading {
    geometry: Geometry::flying_on(Topology::Ten),
    first_player: Color::White,
    strict: false,
};

const RUSSIAN: GameReading = GameReading {
    geometry: Geometry::FLYING,
    first_player: Color::White,
    strict: false,
};

/// Every game's move texts, as the lexer hands them on.
fn moves_of(text: &str) -> Vec<Vec<String>> {
    games(text)
        .map(|g| g.moves.iter().map(|m| m.text.to_string()).collect())
        .collect()
}

/// The one game of `text`, read under `reading`, its moves as written.
fn read_one(text: &str, reading: GameReading) -> PdnGame {
    let all: Vec<RawGame> = games(text).collect();
    assert_eq!(all.len(), 1, "{text:?}: {all:?}");
    all[0]
        .read(reading)
        .unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn written(game: &PdnGame) -> Vec<String> {
    game.record
        .written_moves()
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn tags_fen_moves_comments_variations_and_results() {
    let text =
        "[Event \"Club game\"]\n[GameType \"21\"]\n[FEN \"B:W18,24,27,28,K10:B12,16,20,K22\"]\n\n\
                1. 16-19 {forced} 24x15 2. 22-17! (2. 20-24 27x20) 28-24 1-0\n";
    let game = read_one(text, ENGLISH);
    assert_eq!(game.tags[0], ("Event".to_string(), "Club game".to_string()));
    assert_eq!(game.game_type().map(|t| t.number), Some(21));
    let (turn, board) = game.fen.expect("a FEN");
    assert_eq!((turn, board.piece_count()), (Color::Black, 9));
    assert_eq!(written(&game), ["16-19", "24x15", "22-17", "28-24"]);
    assert_eq!(
        (game.record.first, game.record.line, game.number),
        (Color::Black, 1, 1)
    );
}

#[test]
fn a_byte_order_mark_and_every_line_end_are_read() {
    for text in [
        "\u{feff}[Event \"a\"]\r\n1. 11-15 *\r\n[Event \"b\"]\r\n\r\n1. 9-13 *\r\n",
        "\u{feff}[Event \"a\"]\r1. 11-15 *\r[Event \"b\"]\r\r1. 9-13 *\r",
        "[Event \"a\"]\n1. 11-15 *\n[Event \"b\"]\n\n1. 9-13 *\n",
    ] {
        let lines: Vec<(usize, usize)> = games(text).map(|g| (g.line, g.moves[0].line)).collect();
        assert_eq!(lines, [(1, 2), (3, 5)], "{text:?}");
    }
}

#[test]
fn nags_and_strength_marks_are_left_out() {
    let text = "1. 11-15! $1 23-19?! 2. 8-11!! (?) 22-17 ?? 3. 9-14 !? 17x10 $14 *";
    assert_eq!(
        moves_of(text),
        [["11-15", "23-19", "8-11", "22-17", "9-14", "17x10"]]
    );
    // A `?` standing after a move is a mark; where a move stands, an unknown move.
    assert_eq!(moves_of("1. 11-15 ? 23-19 *"), [["11-15", "23-19"]]);
    assert_eq!(moves_of("1. ? 23-19 2. 16-? *"), [["?", "23-19", "16-?"]]);
    // A lone `?` after a lone `?` is no mark: no move is written to mark.
    assert_eq!(
        moves_of("1. ? ? 2. ? 28-24 3. 9-13 22-18 *"),
        [["?", "?", "?", "28-24", "9-13", "22-18"]]
    );
    assert_eq!(moves_of("1. ? ? ? 23-19 *"), [["?", "?", "?", "23-19"]]);
    assert_eq!(moves_of("1. 11-15 ? ? 23-19 *"), [["11-15", "23-19"]]);
}

#[test]
fn a_written_out_cr_ending_every_line_is_one_note_per_game() {
    let line_ends = "[Event \"a\"]\\r\n1. 11-15 23-19\\r\n2. 8-11 - -\\r\n*\\r\n\\r\n\
                     [Event \"b\"]\\r\n1. 9-13 1-0\\r\n";
    let all: Vec<RawGame> = games(line_ends).collect();
    let moves: Vec<Vec<&str>> = all
        .iter()
        .map(|g| g.moves.iter().map(|m| m.text.as_ref()).collect())
        .collect();
    assert_eq!(moves, [vec!["11-15", "23-19", "8-11", "?"], vec!["9-13"]]);
    assert_eq!((all[0].result, all[1].result), (Some("*"), Some("1-0")));
    // The first game's four lines; the second's two and the blank line before.
    let stray = |line, more| {
        vec![Leniency::StrayText {
            line,
            text: "\\r".into(),
            more,
        }]
    };
    assert_eq!((&all[0].notes, &all[1].notes), (&stray(1, 3), &stray(6, 2)));
    assert_eq!(all[1].line, 6);
}

#[test]
fn comments_of_every_kind_and_nested_variations_are_skipped() {
    let text = "% a line comment\n1. 11-15 {a {nested} comment with (parens} 23-19 ; rest of line 9-13\n\
                2. 8-11 (2. 9-13 {in (a) variation} (2... 22-18 ) 22-17) 22-17 {[%clock w0:10:00 B0:10:00]} *";
    assert_eq!(moves_of(text), [["11-15", "23-19", "8-11", "22-17"]]);
}

#[test]
fn every_result_form_ends_a_game_and_is_never_a_move() {
    for result in [
        "1-0", "0-1", "1/2-1/2", "½-½", "2-0", "0-2", "1-1", "0-0", "*",
    ] {
        let text = format!("1. 11-15 23-19 {result}\n1. 9-13 *\n");
        assert_eq!(
            moves_of(&text),
            [vec!["11-15", "23-19"], vec!["9-13"]],
            "{result}"
        );
        assert_eq!(games(&text).next().and_then(|g| g.result), Some(result));
    }
    // A match score in the result's place: the [Result] tag says so, or it
    // is no move on the board.
    let score = "[Result \"4-6\"]\n1. 32-28 19-23 4-6\n";
    assert_eq!(moves_of(score), [["32-28", "19-23"]]);
    let untagged = "1. 32-28 19-23 1-9\n";
    assert_eq!(written(&read_one(untagged, TEN)), ["32-28", "19-23"]);
}

#[test]
fn unknown_moves_are_read_as_a_lone_question_mark() {
    let text = "1. 32-28 -- 2. - - 17-22 3. 28x17 --\n";
    assert_eq!(moves_of(text), [["32-28", "?", "?", "17-22", "28x17", "?"]]);
    let game = read_one(text, TEN);
    assert!(game.record.is_damaged());
    // `...` only says that the second player moves next.
    assert_eq!(moves_of("12. ... 22-18 13. 11-15 *"), [["22-18", "11-15"]]);
    assert_eq!(
        games("12. ... 22-18 *").next().unwrap().second_first,
        Some(true)
    );
}

#[test]
fn colons_leading_zeros_and_spaces_after_separators() {
    let game = read_one("1. 32-28 19-23 2. 28:19 14x23 *", TEN);
    assert_eq!(written(&game), ["32-28", "19-23", "28x19", "14x23"]);
    let game = read_one("01. 34-29 06-11 02. 29x20 15:24 *", TEN);
    assert_eq!(written(&game), ["34-29", "6-11", "29x20", "15x24"]);
    assert_eq!(
        moves_of("1. 11- 15 23-19 2. 8x 11 *"),
        [["11-15", "23-19", "8x11"]]
    );
    let game = read_one("1. c3- d4 f6- g5 2. d4: f6 *", RUSSIAN);
    assert_eq!(
        game.record
            .written_moves()
            .iter()
            .map(|m| m.algebraic())
            .collect::<Vec<_>>(),
        ["c3-d4", "f6-g5", "d4:f6"]
    );
}

#[test]
fn algebraic_moves_without_a_separator() {
    let game = read_one("1.a3b4 f6g5 2. b4c5 d6b4\n", RUSSIAN);
    let moves = game.record.written_moves();
    assert_eq!(moves[0].algebraic(), "a3-b4");
    assert_eq!(moves[2].algebraic(), "b4-c5");
    // Two squares two apart: a capture, or a king's step (written as read).
    assert_eq!(moves[3].algebraic(), "d6b4");
    let capture = MoveText::parse_with("d6:b4", Geometry::FLYING).unwrap();
    assert!(moves[3].matches(&capture));
    // Two squares further apart: a king's step or a capture, as the board says.
    let far = read_one("[FEN \"W:WKa1:Bd4\"]\n1. a1e5 *", RUSSIAN);
    let capture = MoveText::parse_with("a1:e5", Geometry::FLYING).unwrap();
    let step = MoveText::parse_with("a1-e5", Geometry::FLYING).unwrap();
    assert!(far.record.written_moves()[0].matches(&capture));
    assert!(far.record.written_moves()[0].matches(&step));
}

#[test]
fn move_numbers_start_anywhere_and_may_stand_apart() {
    let game = read_one("23. 22-18 11-15 24. 18x11 *", ENGLISH);
    assert_eq!(game.record.first, Color::Black);
    let game = read_one("23... 22-18 24. 11-15 *", ENGLISH);
    assert_eq!(game.record.first, Color::White);
    assert_eq!(
        moves_of("1 . 11-15 23-19 2 . 8-11 *"),
        [["11-15", "23-19", "8-11"]]
    );
    // A lone dot some files leave is nothing.
    assert_eq!(moves_of("3. 8-3 . 1-0"), [["8-3"]]);
    // A FEN's side to move wins over the numbers.
    let game = read_one("[FEN \"W:W21:B1\"]\n12... 21-17 *", ENGLISH);
    assert_eq!(game.record.first, Color::White);
}

#[test]
fn tags_with_quotes_brackets_and_several_per_line() {
    let text = "[Site \"\\\"64\\\", 1974\"][White \"a [b] \"c\" d\"]\n[Black Smith]\n[White2 \"x\"] 32-28\n";
    let game = games(text).next().unwrap();
    assert_eq!(game.tag("site"), Some("\"64\", 1974"));
    assert_eq!(game.tag("White"), Some("a [b] \"c\" d"));
    assert_eq!(game.tag("Black"), Some("Smith"));
    assert_eq!(game.moves.len(), 1);
}

#[test]
fn games_end_at_new_tags_a_repeated_tag_or_a_result() {
    let text =
        "[Event \"a\"]\n1. 11-15\n[Event \"b\"]\n1. 9-13 *\n[Event \"c\"]\n[FEN \"W:W21:B1\"]\n\
                [Event \"d\"]\n1/2-1/2\n1. 22-18 *";
    let seen: Vec<(Option<String>, usize)> = games(text)
        .map(|g| (g.tag("Event").map(str::to_string), g.moves.len()))
        .collect();
    let events: Vec<_> = seen.iter().map(|s| s.0.as_deref()).collect();
    assert_eq!(events, [Some("a"), Some("b"), Some("c"), Some("d"), None]);
    let counts: Vec<_> = seen.iter().map(|s| s.1).collect();
    assert_eq!(counts, [1, 1, 0, 0, 1]);
    let numbers: Vec<_> = games(text).map(|g| g.number).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5]);
}

#[test]
fn a_game_that_cannot_be_read_never_stops_the_next() {
    let text = "[Event \"a\"]\n1. 11-15 {never closed\n23-19\n[Event \"b\"]\n1. 9-13 *\n\
                [Event \"c\n1. 22-18 *\n[Event \"d\"]\n1. 9-99 *\n[Event \"e\"]\n1. 11-15 (2. 9-13\n";
    let all: Vec<RawGame> = games(text).collect();
    assert_eq!(all.len(), 5, "{all:?}");
    assert_eq!(all[0].problem.as_ref().map(|p| p.0), Some(2));
    assert!(all[0].problem.as_ref().unwrap().1.contains("never closed"));
    assert!(all[1].problem.is_none() && all[1].read(ENGLISH).is_ok());
    assert!(all[2].problem.as_ref().unwrap().1.contains("tag"));
    // A square the board does not have is a mistake at its ply, read;
    // strictly, the game cannot be read.
    let miswritten = all[3].read(ENGLISH).expect("read leniently");
    assert!(matches!(
        &miswritten.record.written_moves()[0],
        WrittenMove::Pattern(MovePattern::Miswritten(m)) if m.squares[1].is_none()
    ));
    let strictly = GameReading {
        strict: true,
        ..ENGLISH
    };
    let bad = all[3].read(strictly).unwrap_err();
    assert_eq!(bad.line, 9, "{bad}");
    assert!(all[4].problem.is_some());
}

#[test]
fn fen_tags_as_old_files_write_them() {
    for fen in [
        "W:W31-50:B1-20",
        "W:W31-50:B1-20.",
        "W:W 31-50 : B 1-20",
        "w:W31,32,33,34,35,36-50:B1-5,6-10,11-20.",
    ] {
        let game = read_one(&format!("[FEN \"{fen}\"]\n1. 32-28 *"), TEN);
        assert_eq!(
            game.fen.map(|f| f.1),
            Some(Topology::Ten.opening()),
            "{fen}"
        );
    }
    let kings = read_one("[FEN \"B:WK27,K23.:BK28,12.\"]\n1. 12-16 *", ENGLISH);
    assert_eq!(kings.fen.unwrap().1.king_count(), 3);
    // A side to move written `?`: the first move's piece says.
    let unknown = read_one("[FEN \"?:W29,13,11:B22,4,2\"]\n1. 22-25 *", ENGLISH);
    assert_eq!(unknown.record.first, Color::Black);
    // The opening as old Russian files give it, in the 8x8 board's numbers.
    let russian = read_one(
        "[FEN \"W:W29,30,31,32,25,26,27,28,21,22,23,24:B9,10,11,12,5,6,7,8,1,2,3,4.\"]\n1. c3-d4 *",
        RUSSIAN,
    );
    assert_eq!(russian.fen.unwrap().1, Topology::EightAlgebraic.opening());
}

#[test]
fn square_names_narrow_the_board() {
    let names = |text: &str| games(text).next().unwrap().square_names();
    assert!(names("1. c3-d4 f6-g5 *").algebraic);
    assert_eq!(names("1. 32-28 19-23 *").highest, 32);
    assert_eq!(names("[FEN \"W:W45:B1\"]\n1. 45-40 *").highest, 45);
    assert!(!names("1. 13x22 *").algebraic);
}

#[test]
fn strict_reading_of_a_whole_text() {
    assert!(parse_pdn("", Color::Black, Geometry::SHORT).is_err());
    let err = parse_pdn("1. 9-13\n2. 9-99 *", Color::Black, Geometry::SHORT).unwrap_err();
    assert_eq!(err.line, 2);
    assert!(looks_like_pdn("\u{feff}[Event \"x\"]"));
    assert!(looks_like_pdn("1. 9-13 *"));
    assert!(!looks_like_pdn("B 1\n9-13\n"));
}

#[test]
fn a_move_read_with_the_other_separator_keeps_its_written_reading() {
    let game = read_one("1. 32-28 17-21 2. 37-33 21-26 *", TEN);
    let moves = game.record.written_moves();
    assert_eq!(moves[2].to_string(), "37x33");
    assert_eq!(game.rereads.len(), 1);
    assert_eq!(game.rereads[0].ply, 3);
    assert_eq!(game.notes.len(), 1);
    let written = game.as_written_at(3).expect("read otherwise at ply 3");
    assert!(matches!(
        &written.record.written_moves()[2],
        WrittenMove::Pattern(MovePattern::Miswritten(m)) if m.text == "37-33" && !m.capture
    ));
    assert!(written.notes.is_empty() && written.rereads.is_empty());
    assert_eq!(written.record.written_moves()[..2], moves[..2]);
    // A ply read as written has nothing to take back.
    assert!(game.as_written_at(1).is_none());
    assert!(written.as_written_at(3).is_none());
}
