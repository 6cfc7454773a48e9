//! Helpers: run the binary, read data files.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// What a run of the binary produced.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `postfacto args...` with `stdin` as standard input.
pub fn postfacto(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_postfacto"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).ok();
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().expect("exited normally, not by a signal"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// A path under the crate root.
pub fn path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// A scratch file with `contents`, unique per test name.
pub fn scratch(name: &str, contents: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join(name);
    std::fs::write(&file, contents).unwrap();
    file
}

/// Solves `input` with the binary and checks the answer with `verify`; returns the answer.
pub fn solve_and_verify(name: &str, input: &str) -> String {
    let solved = postfacto(&["solve", "-"], input);
    assert_eq!(solved.code, 0, "{name}: solve failed: {}", solved.stderr);
    assert!(solved.stderr.is_empty(), "{name}: {}", solved.stderr);
    let input_file = scratch(&format!("{name}.in"), input);
    let answer_file = scratch(&format!("{name}.ans"), &solved.stdout);
    let verified = verify_files(&input_file, &answer_file);
    assert_eq!(
        (verified.code, verified.stdout.trim()),
        (0, "OK"),
        "{name}: {}",
        solved.stdout
    );
    solved.stdout
}

/// The piece letter (or `.`) on square `n` (1..=32) of an answer's start (side 0) or end (side 1) board.
pub fn square_of(answer: &str, side: usize, n: usize) -> char {
    let row = (n - 1) / 4;
    let col = ((n - 1) % 4) * 2 + usize::from(row.is_multiple_of(2));
    let line = answer.lines().nth(row).unwrap();
    line.as_bytes()[side * 9 + col] as char
}

/// Runs `postfacto verify INPUT ANSWER` on two files.
pub fn verify_files(input: &std::path::Path, answer: &std::path::Path) -> Run {
    postfacto(
        &["verify", input.to_str().unwrap(), answer.to_str().unwrap()],
        "",
    )
}

/// Solves `text` under `rules` with `--proof` into a scratch file named after
/// `name`; returns the run, the proof's path, and (when a proof was written)
/// how many lemmas `check_drat` accepted against the `cnf` formula.
pub fn solve_with_proof(name: &str, rules: &str, text: &str) -> (Run, PathBuf, Option<usize>) {
    let input = scratch(name, text);
    let proof = input.with_extension("drat");
    let _ = std::fs::remove_file(&proof);
    let run = postfacto(
        &[
            "solve",
            "--rules",
            rules,
            input.to_str().unwrap(),
            "--proof",
            proof.to_str().unwrap(),
        ],
        "",
    );
    let lemmas = std::fs::read_to_string(&proof).ok().map(|written| {
        let variant = postfacto::rules::Variant::ALL
            .into_iter()
            .find(|v| v.name() == rules)
            .expect("a known rule set");
        let record = &postfacto::notation::parse_records_with(text, variant.geometry()).unwrap()[0];
        let formula = postfacto::encode::dimacs(record, variant);
        postfacto::analysis::check_drat(formula.formula(), &written).expect("the proof checks")
    });
    (run, proof, lemmas)
}
