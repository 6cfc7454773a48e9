//! Fuzz target: see `postfacto::checks::pdn` and docs/fuzzing.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| postfacto::checks::pdn(data));
