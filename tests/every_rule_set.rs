//! One suite over every rule set of the table: the formula is exact near
//! the true start, the rule set's golden file, fragments of random games
//! solve and the judge accepts the answers, the independent move generator
//! of `oracle.rs` agrees (flying kings), and the DFS engine agrees with the
//! SAT engine where the table says it plays the rules (and refuses them
//! elsewhere). A new rule set is one more line of `every_rule_set!`.

use postfacto::board::{Board, Color, Piece, Role};
use postfacto::encode::{encode_with, vars, EncodeOptions};
use postfacto::notation::Record;
use postfacto::random::{random_fragment, Rng};
use postfacto::replay::{judge, replay};
use postfacto::rules::{Priority, Variant, Violation};
use postfacto::solve::{solve_with, Engine, Limit, Outcome, SolveError};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

use crate::golden::{dimacs_satisfiable, dimacs_under, matches_golden};
use crate::oracle;
use crate::util::{path, CaseClock, Cases};

/// Cases of each property test: the formulas of the larger boards are
/// large, and the CI runs the debug build.
fn cases(variant: Variant) -> u32 {
    match variant.topology().size() {
        8 => 100,
        10 => 30,
        _ => 12,
    }
}

/// The longest fragment kept, for the same reason.
fn most_plies(variant: Variant) -> usize {
    match variant.topology().size() {
        8 => 40,
        10 => 25,
        _ => 12,
    }
}

/// A fragment of a random game under `variant`: up to 30 plies played
/// from a random board, then up to [`most_plies`] kept; `None` when the
/// game ended first.
fn fragment(variant: Variant, rng: &mut Rng) -> Option<(Board, Record)> {
    let (lead, plies) = (rng.below(30), 1 + rng.below(most_plies(variant)));
    random_fragment(variant.rules(), rng, lead, plies)
}

/// `origin` with one to three squares given random contents.
fn near(origin: Board, rng: &mut Rng) -> Board {
    let topology = origin.topology();
    let mut board = origin;
    for _ in 0..1 + rng.below(3) {
        let piece = [
            None,
            Some(Piece::new(Color::Black, Role::Man)),
            Some(Piece::new(Color::Black, Role::King)),
            Some(Piece::new(Color::White, Role::Man)),
            Some(Piece::new(Color::White, Role::King)),
        ][rng.below(5)];
        let square = topology.square_at(rng.below(topology.count()));
        board.set(square.expect("a square of the board"), piece);
    }
    board
}

/// A broken rule the formula leaves to refinement under `variant` (its
/// priority's last step, and the most-pieces rule of a ply whose rule is
/// too large to write even in a complete formula: `capped`), so the
/// formula may hold where it is broken.
fn learned(variant: Variant, violation: &Violation, capped: bool) -> bool {
    if capped && matches!(violation, Violation::NotTheMost { .. }) {
        return true;
    }
    match variant.facts().movement.priority {
        Priority::ItalianOrder => matches!(violation, Violation::NotPreferred { .. }),
        Priority::MostPiecesThenKings => matches!(violation, Violation::NotTheMostKings { .. }),
        _ => false,
    }
}

/// The complete formula of a random fragment holds on a start board
/// exactly when the start rules allow it and the record replays from it
/// (but for a rule refinement learns): on the true start and on boards
/// near it, where legal and illegal boards are both common. The encoding
/// runs on `clock`.
fn formula_is_exact(variant: Variant, seed: u64, clock: &CaseClock) -> Result<(), TestCaseError> {
    let mut rng = Rng::new(seed);
    let found = fragment(variant, &mut rng);
    prop_assume!(found.is_some(), "the game ended before the fragment");
    let (origin, record) = found.expect("assumed above");
    let rules = variant.rules();
    let mut formula = varisat::CnfFormula::new();
    let options = EncodeOptions {
        complete: true,
        ..EncodeOptions::default()
    };
    let capped = clock.run(&record, || {
        !encode_with(variant, &record, &mut formula, options)
            .deferred
            .is_empty()
    });
    let boards: Vec<Board> = (0..10).map(|_| near(origin, &mut rng)).collect();
    for board in std::iter::once(origin).chain(boards) {
        let model = vars::encode_board(&board);
        let holds = formula
            .iter()
            .all(|clause| clause.iter().any(|l| model[l.index()] == *l));
        let starts = rules.start_problems(&board).is_empty();
        let replayed = replay(rules, &board, &record);
        if holds
            && starts
            && replayed
                .as_ref()
                .is_err_and(|e| learned(variant, &e.violation, capped))
        {
            continue;
        }
        let why = replayed.as_ref().err();
        prop_assert_eq!(
            holds,
            starts && replayed.is_ok(),
            "{:?} on\n{}for\n{}",
            why,
            board,
            record
        );
    }
    Ok(())
}

/// A fragment of a random game has a start board (the one it was cut
/// from): the SAT engine finds one (on `clock`), and the judge accepts it.
fn fragment_solves_and_the_judge_accepts(
    variant: Variant,
    seed: u64,
    clock: &CaseClock,
) -> Result<(), TestCaseError> {
    let mut rng = Rng::new(seed);
    let found = fragment(variant, &mut rng);
    prop_assume!(found.is_some(), "the game ended before the fragment");
    let (origin, record) = found.expect("assumed above");
    match clock.run(&record, || solve_with(&record, Engine::Sat, variant)) {
        Ok(Outcome::Solved(solution)) => {
            prop_assert_eq!(judge(variant.rules(), &record, &solution.answer), Ok(()));
        }
        other => prop_assert!(false, "{:?} for\n{}from\n{}", other, record, origin),
    }
    Ok(())
}

/// `encodings/golden/NAME.cnf` is the formula of `tests/data/NAME.in`,
/// byte for byte, and it is satisfiable (every golden record has an answer).
fn golden_file_matches(variant: Variant, name: &str) {
    let input = std::fs::read_to_string(path(&format!("tests/data/{name}.in"))).unwrap();
    let dimacs = dimacs_under(&input, variant);
    matches_golden(name, &dimacs);
    assert!(dimacs_satisfiable(&dimacs), "{name}");
}

/// The DFS engine's node limit per record.
const DFS_NODES: u64 = 200_000;

/// Records on which the DFS may give up (at [`DFS_NODES`]) among
/// [`DFS_CASES`]: it gave up on none of 3,000 such fragments (and on none
/// of 3,000 of the random boards `property.rs` cuts them from), so more
/// than a rare give-up is a change to look at.
const DFS_GAVE_UP_AT_MOST: usize = 2;

/// Fragments the engines are compared on.
const DFS_CASES: u32 = 500;

/// The longest of them.
const DFS_MOST_PLIES: usize = 100;

/// Under a rule set the DFS engine plays, it agrees with the SAT engine
/// on whether each fragment (half of them made mostly impossible by
/// giving the other side the first move) has a start board, giving up on
/// at most [`DFS_GAVE_UP_AT_MOST`]; under the others it refuses.
fn dfs_agrees_with_sat_or_refuses(name: &'static str, variant: Variant) {
    let limit = Limit {
        nodes: Some(DFS_NODES),
        time: None,
    };
    if !variant.has_dfs() {
        let record = postfacto::notation::Record::new(variant.first_player(), Vec::new());
        let refused = solve_with(&record, Engine::Dfs(limit), variant);
        assert!(
            matches!(refused, Err(SolveError::Unsupported(_))),
            "{refused:?}"
        );
        return;
    }
    let gave_up = std::cell::Cell::new(0);
    let cases = Cases::with_config(
        name,
        ProptestConfig {
            cases: DFS_CASES,
            failure_persistence: None,
            ..ProptestConfig::default()
        },
    );
    let strategy = (any::<u64>(), any::<bool>());
    TestRunner::new(cases.config())
        .run(&strategy, |(seed, flip)| {
            let clock = cases.start();
            // Longer fragments than elsewhere: the DFS's search grows with them.
            let mut rng = Rng::new(seed);
            let (lead, plies) = (rng.below(30), 1 + rng.below(DFS_MOST_PLIES));
            let found = random_fragment(variant.rules(), &mut rng, lead, plies);
            prop_assume!(found.is_some(), "the game ended before the fragment");
            let (_, mut record) = found.expect("assumed above");
            if flip {
                record = Record::new(record.first.opposite(), record.moves.clone());
            }
            let sat = clock.run(&record, || {
                solve_with(&record, Engine::Sat, variant).unwrap()
            });
            let dfs = clock.run(&record, || {
                solve_with(&record, Engine::Dfs(limit), variant).unwrap()
            });
            match (&sat, &dfs) {
                (Outcome::GaveUp { .. }, _) => prop_assert!(false, "sat {:?}\n{}", sat, record),
                (_, Outcome::GaveUp { .. }) => gave_up.set(gave_up.get() + 1),
                (Outcome::Solved(_), Outcome::Solved(_))
                | (Outcome::Impossible { .. }, Outcome::Impossible { .. }) => {}
                _ => prop_assert!(false, "sat {:?}\ndfs {:?}\n{}", sat, dfs, record),
            }
            cases.reached();
            Ok(())
        })
        .unwrap();
    cases.check();
    eprintln!("dfs-gave-up {name} {} of {DFS_CASES}", gave_up.get());
    assert!(
        gave_up.get() <= DFS_GAVE_UP_AT_MOST,
        "the DFS gave up on {} of {DFS_CASES}",
        gave_up.get()
    );
}

/// The suite of one rule set: its module name, its variant, its golden
/// file, and whether the oracle knows its rules (`oracle` or `no_oracle`).
macro_rules! every_rule_set {
    ($($module:ident: $variant:expr, golden $golden:literal, $oracle:ident;)*) => {$(
        mod $module {
            use super::*;

            const VARIANT: Variant = $variant;

            #[test]
            fn the_formula_is_exact() {
                let name = concat!("every_rule_set::", stringify!($module), "::the_formula_is_exact");
                let cases = Cases::new(name, cases(VARIANT));
                proptest!(cases.config(), |(seed in any::<u64>())| {
                    formula_is_exact(VARIANT, seed, &cases.start())?;
                    cases.reached();
                });
                cases.check();
            }

            #[test]
            fn fragments_solve_and_the_judge_accepts() {
                let name = concat!(
                    "every_rule_set::",
                    stringify!($module),
                    "::fragments_solve_and_the_judge_accepts"
                );
                let cases = Cases::new(name, cases(VARIANT));
                proptest!(cases.config(), |(seed in any::<u64>())| {
                    fragment_solves_and_the_judge_accepts(VARIANT, seed, &cases.start())?;
                    cases.reached();
                });
                cases.check();
            }

            #[test]
            fn the_golden_file_matches() {
                golden_file_matches(VARIANT, $golden);
            }

            #[test]
            fn the_dfs_engine_agrees_with_sat_or_refuses() {
                let name = concat!(
                    "every_rule_set::",
                    stringify!($module),
                    "::the_dfs_engine_agrees_with_sat_or_refuses"
                );
                dfs_agrees_with_sat_or_refuses(name, VARIANT);
            }

            every_rule_set!(@$oracle);
        }
    )*};
    (@oracle) => {
        #[test]
        fn the_oracle_counts_what_the_library_counts_from_the_opening() {
            oracle::counts_what_the_library_counts_from_the_opening(VARIANT);
        }

        #[test]
        fn the_oracle_lists_what_the_library_lists() {
            let name = concat!(module_path!(), "::the_oracle_lists_what_the_library_lists");
            let cases = Cases::new(name, 50);
            proptest!(cases.config(), |(
                seed in any::<u64>(),
                density in 10u32..70,
                kings in 0u32..60,
                white in any::<bool>(),
            )| {
                let _clock = cases.start();
                oracle::lists_what_the_library_lists(VARIANT, seed, density, kings, white)?;
                cases.reached();
            });
            cases.check();
        }
    };
    (@no_oracle) => {
        /// A rule set the oracle could check must be checked by it.
        #[test]
        fn the_oracle_does_not_know_it() {
            assert!(!oracle::knows(VARIANT));
        }
    };
}

every_rule_set! {
    english: Variant::English, golden "sample1", no_oracle;
    russian: Variant::Russian, golden "russian1", oracle;
    international: Variant::International, golden "international1", oracle;
    brazilian: Variant::Brazilian, golden "brazilian1", oracle;
    pool: Variant::Pool, golden "pool1", oracle;
    czech: Variant::Czech, golden "czech1", oracle;
    italian: Variant::Italian, golden "italian1", no_oracle;
    spanish: Variant::Spanish, golden "spanish1", oracle;
    portuguese: Variant::Portuguese, golden "portuguese1", oracle;
    canadian: Variant::Canadian, golden "canadian1", oracle;
}

/// Every rule set of the table has its line above.
#[test]
fn every_rule_set_has_a_suite() {
    let source = std::fs::read_to_string(path("tests/every_rule_set.rs")).unwrap();
    for variant in Variant::ALL {
        let line = format!("    {}: Variant::{:?}, golden ", variant.name(), variant);
        assert!(source.contains(&line), "no suite for {}", variant.name());
    }
}

/// A Canadian fragment whose 6-piece capture's most-pieces rule runs to
/// billions of clauses on a board that is mostly unknown (it once took a
/// property test past 12 GB): even the complete formula leaves that rule
/// to refinement, says so, and stays exact elsewhere.
const CAPPED: &str = "B 3\n4x37x63x41x22x11x24\n23-16\n7x20\n";

#[test]
fn a_rule_too_large_to_write_is_left_to_refinement() {
    // The random fragment of this seed is `CAPPED`.
    let clock = CaseClock::start("every_rule_set::a_rule_too_large_to_write_is_left_to_refinement");
    formula_is_exact(Variant::Canadian, 3_868_964_624_116_772_665, &clock).unwrap();
    let cnf = crate::util::postfacto(&["cnf", "--rules", "canadian", "-"], CAPPED);
    assert_eq!(cnf.code, 0, "{}", cnf.stderr);
    assert!(
        cnf.stdout
            .contains("c not complete: the most-pieces rule of ply 1 is over 1000000 clauses"),
        "{}",
        cnf.stdout.lines().take(8).collect::<Vec<_>>().join("\n")
    );
    let solved = crate::util::postfacto(&["solve", "--rules", "canadian", "-"], CAPPED);
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    let input = crate::util::scratch("capped.in", CAPPED);
    let answer = crate::util::scratch("capped.ans", &solved.stdout);
    let verified = crate::util::postfacto(
        &[
            "verify",
            "--rules",
            "canadian",
            input.to_str().unwrap(),
            answer.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(
        (verified.code, verified.stdout.trim()),
        (0, "OK"),
        "{}",
        verified.stderr
    );
}
