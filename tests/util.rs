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

/// How long one property-test case may take. A random draw that makes the
/// solver run away fails at this point, its record printed, instead of
/// keeping the run busy for minutes (issue 43).
pub const CASE_DEADLINE: std::time::Duration = if cfg!(debug_assertions) {
    std::time::Duration::from_secs(60)
} else {
    std::time::Duration::from_secs(20)
};

/// Set to print each timed case's duration on stderr (with `--nocapture`),
/// to find the slowest case of a random seed.
const CASE_TIMES: &str = "POSTFACTO_CASE_TIMES";

/// The deadline of one property-test case: every solve run through
/// [`CaseClock::run`] stops there, and a case that reaches it fails.
pub struct CaseClock {
    name: &'static str,
    started: std::time::Instant,
    deadline: std::time::Instant,
}

impl CaseClock {
    /// Starts the clock of a case of the test `name`.
    pub fn start(name: &'static str) -> CaseClock {
        CaseClock::lasting(name, CASE_DEADLINE)
    }

    /// The clock of a case given `limit` instead of [`CASE_DEADLINE`]
    /// (a test that states its own).
    pub fn lasting(name: &'static str, limit: std::time::Duration) -> CaseClock {
        let started = std::time::Instant::now();
        CaseClock {
            name,
            started,
            deadline: started + limit,
        }
    }

    /// Runs `job` (the solving of `record`) under the case's deadline, and
    /// panics naming `record` when the deadline passed: an answer that
    /// came too late, or an "undecided", is a failure, never a pass.
    pub fn run<T>(&self, record: &dyn std::fmt::Display, job: impl FnOnce() -> T) -> T {
        let began = std::time::Instant::now();
        let out = postfacto::sat::under(Some(self.deadline), job);
        if std::env::var_os(CASE_TIMES).is_some() && began.elapsed().as_secs() >= 1 {
            let took = began.elapsed().as_secs_f64();
            eprintln!("case-slow {took:.3} s {}:\n{record}", self.name);
        }
        assert!(
            std::time::Instant::now() < self.deadline,
            "{}: the case ran past its deadline of {:?} on\n{record}",
            self.name,
            CASE_DEADLINE
        );
        out
    }
}

impl Drop for CaseClock {
    fn drop(&mut self) {
        if std::env::var_os(CASE_TIMES).is_some() {
            eprintln!(
                "case-time {:>8.3} s {}",
                self.started.elapsed().as_secs_f64(),
                self.name
            );
        }
    }
}

#[test]
fn a_case_past_its_deadline_fails_naming_its_record() {
    let clock = CaseClock {
        name: "util::example",
        started: std::time::Instant::now(),
        deadline: std::time::Instant::now() + std::time::Duration::from_millis(50),
    };
    assert_eq!(clock.run(&"B 1: 9-13", || 7), 7);
    let late = std::panic::catch_unwind(|| {
        clock.run(&"B 1: 9-13", || {
            assert!(postfacto::sat::current_deadline().is_some());
            std::thread::sleep(std::time::Duration::from_millis(80));
        })
    });
    let message = late.expect_err("past the deadline");
    let text = message
        .downcast_ref::<String>()
        .expect("a formatted message");
    assert!(
        text.contains("past its deadline") && text.contains("B 1: 9-13"),
        "{text}"
    );
}
