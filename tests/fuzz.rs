//! The fuzz targets' stand-in for `cargo test` (the real ones, in `fuzz/`,
//! need nightly and a sanitizer build: see docs/fuzzing.md). The same
//! invariants (`postfacto::checks`) on seeds from `fuzz/seeds/` mutated at
//! random, and on random bytes.

use proptest::collection::vec;
use proptest::prelude::*;

use postfacto::checks;

use crate::util::Cases;

/// The seed files of one target.
fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = crate::util::path(&format!("fuzz/seeds/{target}"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| std::fs::read(entry.unwrap().path()).unwrap())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no seeds for {target}");
    files
}

/// Byte-level mutations, as a fuzzer makes them: overwrite, insert, delete.
#[derive(Clone, Debug)]
enum Edit {
    Set(usize, u8),
    Insert(usize, u8),
    Delete(usize),
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    // Bytes that matter to these formats, and any byte at all.
    let byte = prop_oneof![
        prop::sample::select(b"0123456789-x:WBwbOo.?\n \t\r,[]\"{}()pcnf".to_vec()),
        any::<u8>(),
    ];
    let edit = prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Edit::Set(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Delete),
    ];
    vec(edit, 1..8)
}

fn mutate(mut bytes: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for edit in edits {
        let len = bytes.len();
        match *edit {
            Edit::Set(i, b) if len > 0 => bytes[i % len] = b,
            Edit::Insert(i, b) => bytes.insert(i % (len + 1), b),
            Edit::Delete(i) if len > 0 => {
                bytes.remove(i % len);
            }
            _ => {}
        }
    }
    bytes
}

macro_rules! stand_in {
    ($name:ident, $target:literal, $check:path, $cases:expr) => {
        #[test]
        fn $name() {
            let cases = Cases::new(concat!("fuzz::", stringify!($name)), $cases);
            let seeds = seeds($target);
            proptest!(cases.config(), |(seed in any::<prop::sample::Index>(), edits in edits(), noise in vec(any::<u8>(), 0..64))| {
                let clock = cases.start();
                let input = mutate(seed.get(&seeds).clone(), &edits);
                let shown = String::from_utf8_lossy(&input);
                clock.run(&shown, || $check(&input));
                clock.run(&String::from_utf8_lossy(&noise), || $check(&noise));
                cases.reached();
            });
            cases.check();
        }
    };
}

stand_in!(
    records_never_panic_and_round_trip,
    "records",
    checks::records,
    300
);
stand_in!(pdn_never_panics, "pdn", checks::pdn, 300);
stand_in!(
    boards_never_panic_and_round_trip,
    "boards",
    checks::boards,
    300
);
stand_in!(solved_answers_always_verify, "solve", checks::solve, 100);
stand_in!(
    dimacs_models_satisfy_their_formula,
    "dimacs",
    checks::dimacs,
    200
);
