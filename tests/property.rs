//! Property tests on fragments of random legal games: such a fragment always
//! has a start board (the position it was cut from), so `solve` must find one,
//! and its answer must pass the judge.

use proptest::collection::vec;
use proptest::prelude::*;

use postfacto::board::{Board, Color, Piece, Role, Square};
use postfacto::encode::english_dimacs;
use postfacto::encode::{vars, EncodeOptions};
use postfacto::notation::{MoveText, Record};
use postfacto::replay::judge;
use postfacto::replay::replay;
use postfacto::rules::{Brazilian, English, Rules, Russian, Variant};
use postfacto::solve::{solve, Engine, Outcome};

use crate::golden::dimacs_satisfiable;
use crate::util::Cases;

/// A start-legal board from one code per square: 0..6 empty, then b w B W.
fn board_from(cells: &[u8]) -> Board {
    let mut board = Board::empty();
    for (sq, &cell) in Square::all().zip(cells) {
        let (color, role) = match cell {
            6 => (Color::Black, Role::Man),
            7 => (Color::White, Role::Man),
            8 => (Color::Black, Role::King),
            9 => (Color::White, Role::King),
            _ => continue,
        };
        let role = if sq.row() == color.crowning_row() {
            Role::King
        } else {
            role
        };
        board.set(sq, Some(Piece::new(color, role)));
    }
    board
}

/// Plays `lead + len` moves chosen by `choices` from `board`, keeps the last `len`.
fn fragment_from(
    rules: &dyn Rules,
    board: Board,
    first: Color,
    lead: usize,
    len: usize,
    choices: &[u32],
) -> Option<(Board, Record)> {
    let mut board = board;
    let mut side = first;
    let mut kept: Vec<MoveText> = Vec::new();
    let mut fragment_start = board;
    let mut fragment_first = first;
    for (i, &choice) in choices.iter().take(lead + len).enumerate() {
        if i == lead {
            fragment_start = board;
            fragment_first = side;
        }
        let legal = rules.legal_moves(&board, side);
        if legal.is_empty() {
            break;
        }
        let mv = legal[choice as usize % legal.len()].clone();
        board = rules.play(&board, side, &mv).unwrap();
        if i >= lead {
            kept.push(mv);
        }
        side = side.opposite();
    }
    (!kept.is_empty()).then(|| (fragment_start, Record::new(fragment_first, kept)))
}

/// A fragment of a random English game; `None` when no move was
/// possible (the test rejects the case with `prop_assume!`).
type Fragment = Option<(Board, Record)>;

fn fragments() -> impl Strategy<Value = Fragment> {
    fragments_under(&English)
}

/// Fragments of random games under `rules`, on the numbered 8x8 board.
fn fragments_under(rules: &'static dyn Rules) -> impl Strategy<Value = Fragment> {
    (
        vec(0u8..10, 32),
        any::<bool>(),
        0usize..30,
        1usize..=100,
        vec(any::<u32>(), 130),
    )
        .prop_map(move |(cells, white, lead, len, choices)| {
            let first = if white { Color::White } else { Color::Black };
            fragment_from(rules, board_from(&cells), first, lead, len, &choices)
        })
}

/// The fragment of a case, or the case rejected when there is none.
macro_rules! fragment_or_reject {
    ($found:expr) => {{
        let found = $found;
        prop_assume!(found.is_some(), "no move was possible");
        found.expect("assumed above")
    }};
}

#[test]
fn every_game_fragment_is_solved_and_verified() {
    let cases = Cases::new("property::every_game_fragment_is_solved_and_verified", 1000);
    proptest!(cases.config(), |(found in fragments())| {
        let clock = cases.start();
        let (origin, record) = fragment_or_reject!(found);
        prop_assert!(English.start_problems(&origin).is_empty());
        match clock.run(&record, || solve(&record, Engine::Sat)) {
            Ok(Outcome::Solved(solution)) => {
                prop_assert_eq!(judge(&English, &record, &solution.answer), Ok(()));
            }
            other => prop_assert!(false, "{other:?} for\n{record}from\n{origin}"),
        }
        cases.reached();
    });
    cases.check();
}

/// The DIMACS text, read back by an outside parser and solver, agrees with
/// `solve`, including on records made impossible by giving the wrong side the first move.
#[test]
fn dimacs_export_agrees_with_solve() {
    let cases = Cases::new("property::dimacs_export_agrees_with_solve", 200);
    proptest!(cases.config(), |(found in fragments(), flip in any::<bool>())| {
        let clock = cases.start();
        let (_, record) = fragment_or_reject!(found);
        let record = if flip { Record::new(record.first.opposite(), record.moves.clone()) } else { record };
        let mut dimacs = Vec::new();
        english_dimacs(&record).write_dimacs(&mut dimacs).unwrap();
        let solved = clock.run(&record, || solve(&record, Engine::Sat)).unwrap();
        let solved = matches!(solved, Outcome::Solved(_));
        let text = std::str::from_utf8(&dimacs).unwrap();
        prop_assert_eq!(clock.run(&record, || dimacs_satisfiable(text)), solved);
        cases.reached();
    });
    cases.check();
}

/// The move generator and the checked `play` agree: every generated move
/// plays, and every one-step move or single jump plays only if generated.
#[test]
fn legal_moves_and_play_agree() {
    let cases = Cases::new("property::legal_moves_and_play_agree", 200);
    proptest!(cases.config(), |(cells in vec(0u8..10, 32), white in any::<bool>())| {
        let _clock = cases.start();
        let board = board_from(&cells);
        let side = if white { Color::White } else { Color::Black };
        let legal = English.legal_moves(&board, side);
        for mv in &legal {
            prop_assert!(English.play(&board, side, mv).is_ok(), "{mv}");
        }
        for from in Square::all() {
            for dir in postfacto::board::Direction::ALL {
                let mut candidates = Vec::new();
                if let Some(to) = from.step(dir) {
                    candidates.push(MoveText::simple(from, to));
                }
                if let Some((_, to)) = from.jump(dir) {
                    candidates.push(MoveText::jump(vec![from, to]));
                }
                for mv in candidates {
                    let plays = English.play(&board, side, &mv).is_ok();
                    prop_assert_eq!(plays, legal.contains(&mv), "{} on\n{}", mv, board);
                }
            }
        }
        cases.reached();
    });
    cases.check();
}

/// The SAT engine's shortcut (the board of the moves' own unit facts,
/// replayed) against the full engine (formula, lucky check, varisat): the
/// full engine's answer replays; when its model is the lucky one and the
/// shortcut answers, both give the same board; whatever the shortcut
/// gives, the judge accepts. Also on records made impossible by the wrong first mover,
/// where the shortcut must stay silent.
fn check_shortcut(record: &Record, variant: Variant) -> Result<(), TestCaseError> {
    use postfacto::encode::BoardFacts;
    use postfacto::solve::{checked_answer, solve_by_unit_facts, solve_canonically, Formula};
    let shortcut = solve_by_unit_facts(record, variant);
    if let Some(answer) = &shortcut {
        prop_assert_eq!(judge(variant.rules(), record, answer), Ok(()));
    }
    // The full engine: the formula, solved canonically (lucky check, varisat).
    let mut cnf = varisat::CnfFormula::new();
    let mut formula = Formula::encode(
        variant,
        record,
        BoardFacts::none(),
        &mut cnf,
        EncodeOptions::default(),
    )
    .unwrap();
    let canonical = solve_canonically(&mut formula, &cnf).unwrap();
    match canonical.answer {
        Some(found) => {
            let full = checked_answer(record, found.start, "the full engine", variant);
            prop_assert!(full.is_ok(), "{full:?}");
            if let (true, Some(answer)) = (canonical.lucky, &shortcut) {
                prop_assert_eq!(answer.start, found.start, "{}", record);
            }
        }
        None => prop_assert!(shortcut.is_none(), "{}", record),
    }
    Ok(())
}

/// [`check_shortcut`] on 400 fragments of random games under `rules`
/// (half of them given the wrong first mover).
fn shortcut_agrees(name: &'static str, rules: &'static dyn Rules, variant: Variant) {
    let cases = Cases::new(name, 400);
    proptest!(cases.config(), |(found in fragments_under(rules), flip in any::<bool>())| {
        let clock = cases.start();
        let (_, record) = fragment_or_reject!(found);
        let record = if flip { Record::new(record.first.opposite(), record.moves.clone()) } else { record };
        clock.run(&record, || check_shortcut(&record, variant))?;
        cases.reached();
    });
    cases.check();
}

#[test]
fn the_english_shortcut_agrees_with_the_full_engine() {
    let name = "property::the_english_shortcut_agrees_with_the_full_engine";
    shortcut_agrees(name, &English, Variant::English);
}

#[test]
fn the_brazilian_shortcut_agrees_with_the_full_engine() {
    let name = "property::the_brazilian_shortcut_agrees_with_the_full_engine";
    shortcut_agrees(name, &Brazilian, Variant::Brazilian);
}

#[test]
fn the_russian_shortcut_agrees_with_the_full_engine() {
    let name = "property::the_russian_shortcut_agrees_with_the_full_engine";
    shortcut_agrees(name, &Russian, Variant::Russian);
}

/// Boards near `origin`: a few squares changed to random contents.
fn perturbed(origin: Board, changes: &[(u8, u8)]) -> Board {
    let mut board = origin;
    for &(square, cell) in changes {
        let piece = match cell % 5 {
            0 => None,
            1 => Some(Piece::new(Color::Black, Role::Man)),
            2 => Some(Piece::new(Color::Black, Role::King)),
            3 => Some(Piece::new(Color::White, Role::Man)),
            _ => Some(Piece::new(Color::White, Role::King)),
        };
        board.set(Square::new(square % 32), piece);
    }
    board
}

/// The formula is exact (`every_rule_set.rs`) through refinement, with every most-pieces rule
/// deferred: each board near `origin`, given as the start, is solved
/// exactly when it is legal; a board the rule refuses has it deferred
/// (else the test would not test refinement); and every clause learned on
/// the way holds on the true start.
fn check_deferral(
    variant: Variant,
    origin: Board,
    record: &Record,
    changes: &[Vec<(u8, u8)>],
) -> Result<(), TestCaseError> {
    use postfacto::encode::BoardFacts;
    use postfacto::solve::{checked_answer, solve_canonically, Formula};
    let rules = variant.rules();
    let options = EncodeOptions {
        most_pieces_budget: 0,
        ..EncodeOptions::default()
    };
    let truth = vars::encode_board(&origin.with_topology(variant.topology()));
    // The record itself (start unknown: it must be solved), then boards
    // near its start given in full.
    let starts = std::iter::once(None).chain(changes.iter().map(|change| {
        // On the rule set's own board (Brazilian's is the algebraic one).
        Some(perturbed(origin, change).with_topology(variant.topology()))
    }));
    for given in starts {
        let known = BoardFacts {
            start: given.map(|board| postfacto::board::PartialBoard {
                board,
                known: board.topology().all_bits(),
            }),
            end: None,
        };
        let mut cnf = varisat::CnfFormula::new();
        let mut formula = Formula::encode(variant, record, known, &mut cnf, options).unwrap();
        let board = given.unwrap_or(origin);
        let replayed = replay(rules, &board, record);
        let legal = rules.start_problems(&board).is_empty() && replayed.is_ok();
        // A board broken by the rule has it deferred: refinement refuses it.
        let most = |e: &postfacto::replay::ReplayError| {
            matches!(e.violation, postfacto::rules::Violation::NotTheMost { .. })
        };
        if replayed.as_ref().is_err_and(most) && formula.contradiction().is_none() {
            prop_assert!(
                !formula.encoded.deferred.is_empty(),
                "nothing deferred for\n{}",
                record
            );
        }
        let solved = solve_canonically(&mut formula, &cnf)
            .map_err(|e| TestCaseError::fail(format!("{e} for\n{record}")))?;
        // Every clause learned is implied by the rules: the true start obeys it.
        for learned in &solved.learned {
            let holds = learned.clause.iter().any(|l| truth[l.index()] == *l);
            prop_assert!(holds, "{:?} refuses the start of\n{}", learned, record);
        }
        let Some(board) = given else {
            let found = solved.answer.map(|found| found.start);
            prop_assert!(found.is_some(), "a fragment unsolved:\n{}", record);
            let checked = found.map(|start| checked_answer(record, start, "refinement", variant));
            prop_assert!(matches!(checked, Some(Ok(_))), "{:?}", checked);
            continue;
        };
        prop_assert_eq!(
            solved.answer.map(|found| found.start),
            legal.then_some(board),
            "{:?} on\n{}for\n{}",
            replay(rules, &board, record).err(),
            board.to_string(),
            record
        );
    }
    Ok(())
}

/// Every most-pieces rule left to refinement (a budget of none): near
/// the true start, a start board given in full is solved exactly where
/// the replayer accepts it, so each clause refinement learns instead
/// holds under the rules, and together they say what the rule says.
#[test]
fn deferred_most_pieces_rules_are_learned_exactly() {
    let cases = Cases::new(
        "property::deferred_most_pieces_rules_are_learned_exactly",
        150,
    );
    let changed = vec(vec((any::<u8>(), any::<u8>()), 1..4), 4);
    proptest!(cases.config(), |(found in fragments_under(&Brazilian), changes in changed)| {
        let clock = cases.start();
        let (origin, record) = fragment_or_reject!(found);
        clock.run(&record, || check_deferral(Variant::Brazilian, origin, &record, &changes))?;
        cases.reached();
    });
    cases.check();
}

/// Russian move generation and checked play agree on random positions:
/// every generated move plays, and among simple moves along every
/// diagonal and captures one landing longer or shorter than generated
/// ones, a move plays only if it is generated.
#[test]
fn russian_moves_and_play_agree() {
    let cases = Cases::new("property::russian_moves_and_play_agree", 150);
    proptest!(cases.config(), |(cells in vec(0u8..10, 32), white in any::<bool>())| {
        let _clock = cases.start();
        let board = board_from(&cells);
        let side = if white { Color::White } else { Color::Black };
        let legal = Russian.legal_moves(&board, side);
        let mut candidates = legal.clone();
        for from in board.squares_of(side) {
            for dir in postfacto::board::Direction::ALL {
                let line = std::iter::successors(from.step(dir), |s| s.step(dir));
                for to in line {
                    candidates.extend(MoveText::along(vec![from, to], false));
                    candidates.extend(MoveText::along(vec![from, to], true));
                }
            }
        }
        for mv in &legal {
            prop_assert!(Russian.play(&board, side, mv).is_ok(), "{} on\n{}", mv.algebraic(), board);
            let path = mv.path();
            if path.len() > 2 {
                candidates.extend(MoveText::along(path[..path.len() - 1].to_vec(), true));
            }
            let end = mv.to();
            for dir in postfacto::board::Direction::ALL {
                for to in std::iter::successors(end.step(dir), |s| s.step(dir)) {
                    let mut longer = path.to_vec();
                    longer.push(to);
                    candidates.extend(MoveText::along(longer, true));
                }
            }
        }
        for mv in candidates {
            let plays = Russian.play(&board, side, &mv).is_ok();
            prop_assert_eq!(plays, legal.contains(&mv), "{} on\n{}", mv.algebraic(), board);
        }
        cases.reached();
    });
    cases.check();
}
