//! Fuzz target: see `postfacto::checks::dimacs` and docs/fuzzing.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| postfacto::checks::dimacs(data));
