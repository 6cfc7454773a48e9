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

/// How much CPU one property-test case may take. A random draw that makes
/// the solver run away fails at this point, its record printed, instead of
/// keeping the run busy for minutes (issue 43). It is CPU time, not time
/// on the wall: the tests share the machine with each other (and CI with
/// other jobs), and a case is slow when its own work is, not when the
/// machine is loaded.
pub const CASE_DEADLINE: std::time::Duration = if cfg!(debug_assertions) {
    std::time::Duration::from_secs(60)
} else {
    std::time::Duration::from_secs(20)
};

/// How many times its CPU budget a case may take on the wall: the
/// deadline the solvers are stopped at (a case that waits for the CPU
/// that long was not going to finish: it fails too, as undecided work).
const WALL_FACTOR: u32 = 8;

/// Set to print each timed case's duration on stderr (with `--nocapture`),
/// to find the slowest case of a random seed.
const CASE_TIMES: &str = "POSTFACTO_CASE_TIMES";

/// The CPU time this thread has run, as the kernel counts it (Linux's
/// `/proc/thread-self/schedstat`, in nanoseconds); `None` where there is
/// no such file, and the case is then timed on the wall.
pub fn thread_cpu() -> Option<std::time::Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = text.split_whitespace().next()?.parse().ok()?;
    Some(std::time::Duration::from_nanos(nanos))
}

/// The budget of one property-test case: the CPU its thread may use, and a
/// wall deadline ([`WALL_FACTOR`] times longer) at which every solve run
/// through [`CaseClock::run`] stops. A case past either fails.
pub struct CaseClock {
    name: &'static str,
    started: std::time::Instant,
    cpu_started: Option<std::time::Duration>,
    limit: std::time::Duration,
}

impl CaseClock {
    /// Starts the clock of a case of the test `name`.
    pub fn start(name: &'static str) -> CaseClock {
        CaseClock::lasting(name, CASE_DEADLINE)
    }

    /// The clock of a case given `limit` of CPU instead of
    /// [`CASE_DEADLINE`] (a test that states its own).
    pub fn lasting(name: &'static str, limit: std::time::Duration) -> CaseClock {
        CaseClock {
            name,
            started: std::time::Instant::now(),
            cpu_started: thread_cpu(),
            limit,
        }
    }

    /// The CPU this case has used so far (its time on the wall where the
    /// kernel does not say).
    fn used(&self) -> std::time::Duration {
        match (self.cpu_started, thread_cpu()) {
            (Some(before), Some(now)) => now.saturating_sub(before),
            _ => self.started.elapsed(),
        }
    }

    /// Runs `job` (the solving of `record`) under the case's wall deadline,
    /// and panics naming `record` when the case has used more than its
    /// CPU or reached that deadline: an answer that came too late, or an
    /// "undecided", is a failure, never a pass.
    pub fn run<T>(&self, record: &dyn std::fmt::Display, job: impl FnOnce() -> T) -> T {
        let began = std::time::Instant::now();
        let cpu_began = self.used();
        let wall = self.limit * WALL_FACTOR;
        let out = postfacto::sat::under(Some(self.started + wall), job);
        if std::env::var_os(CASE_TIMES).is_some() && began.elapsed().as_secs() >= 1 {
            let took = began.elapsed().as_secs_f64();
            let cpu = (self.used() - cpu_began).as_secs_f64();
            eprintln!(
                "case-slow {cpu:.3} s CPU ({took:.3} s wall) {}:\n{record}",
                self.name
            );
        }
        let used = self.used();
        assert!(
            used < self.limit && self.started.elapsed() < wall,
            "{}: the case ran past its deadline of {:?} of CPU (used {used:?}; {:?} on the wall, stopped at {wall:?}) on\n{record}",
            self.name,
            self.limit,
            self.started.elapsed(),
        );
        out
    }
}

impl Drop for CaseClock {
    fn drop(&mut self) {
        if std::env::var_os(CASE_TIMES).is_some() {
            eprintln!(
                "case-time {:>8.3} s CPU {:>8.3} s wall {}",
                self.used().as_secs_f64(),
                self.started.elapsed().as_secs_f64(),
                self.name
            );
        }
    }
}

/// How long a property test may shrink a failure, in milliseconds.
const SHRINK_TIME_MS: u32 = 30_000;

/// The cases of one property test, counted: how many the runner started
/// and how many reached the end of their assertions. A case that returns
/// early without `prop_assume!` (a generator that yielded nothing,
/// passing silently) leaves the count of real cases short of the
/// runner's, and [`Cases::check`] fails the test (issue 42).
pub struct Cases {
    name: &'static str,
    config: proptest::test_runner::Config,
    started: std::sync::atomic::AtomicU32,
    reached: std::sync::atomic::AtomicU32,
}

impl Cases {
    /// The count of the test `name`, run for `cases` real cases.
    pub fn new(name: &'static str, cases: u32) -> Cases {
        Cases::with_config(
            name,
            proptest::test_runner::Config {
                cases,
                ..proptest::test_runner::Config::default()
            },
        )
    }

    /// The count of the test `name`, run under `config`. Shrinking a
    /// failure stops after [`SHRINK_TIME_MS`] unless `config` says less:
    /// each step of shrinking a case that ran past its deadline runs to
    /// the deadline again, and the first failure already printed its record.
    pub fn with_config(name: &'static str, mut config: proptest::test_runner::Config) -> Cases {
        if config.max_shrink_time == 0 || config.max_shrink_time > SHRINK_TIME_MS {
            config.max_shrink_time = SHRINK_TIME_MS;
        }
        Cases {
            name,
            config,
            started: 0.into(),
            reached: 0.into(),
        }
    }

    /// The runner's configuration (`proptest!(cases.config(), |(...)| ...)`).
    pub fn config(&self) -> proptest::test_runner::Config {
        self.config.clone()
    }

    /// Counts a case started and starts its clock ([`CASE_DEADLINE`]).
    pub fn start(&self) -> CaseClock {
        self.lasting(CASE_DEADLINE)
    }

    /// Counts a case started and starts its clock, of `limit`.
    pub fn lasting(&self, limit: std::time::Duration) -> CaseClock {
        self.started
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        CaseClock::lasting(self.name, limit)
    }

    /// Counts a case that reached the end of its assertions.
    pub fn reached(&self) {
        self.reached
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// After the run: every case the runner counted as passed reached its
    /// assertions (those started and not reached were rejected by
    /// `prop_assume!`). Prints the counts (seen with `--nocapture`).
    pub fn check(&self) {
        let started = self.started.load(std::sync::atomic::Ordering::Relaxed);
        let reached = self.reached.load(std::sync::atomic::Ordering::Relaxed);
        eprintln!(
            "case-count {} reached {reached} rejected {}",
            self.name,
            started - reached
        );
        // PROPTEST_CASES, when set, overrides every test's own count.
        let want = std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(self.config.cases);
        assert!(
            reached >= want,
            "{}: {reached} of {want} cases reached their assertions ({started} started)",
            self.name
        );
    }
}

/// Burns this thread's CPU for `cpu`, as a case's clock counts it.
fn spin(cpu: std::time::Duration) {
    let clock = CaseClock::lasting("util::spin", cpu);
    let mut x = 0u64;
    while clock.used() < cpu {
        for i in 0..10_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
    }
}

#[test]
fn a_case_past_its_deadline_fails_naming_its_record() {
    let clock = CaseClock::lasting("util::example", std::time::Duration::from_millis(50));
    assert_eq!(clock.run(&"B 1: 9-13", || 7), 7);
    let late = std::panic::catch_unwind(|| {
        clock.run(&"B 1: 9-13", || {
            assert!(postfacto::sat::current_deadline().is_some());
            spin(std::time::Duration::from_millis(80));
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

#[test]
fn a_case_that_waits_past_its_wall_deadline_fails_too() {
    let clock = CaseClock::lasting("util::waiting", std::time::Duration::from_millis(50));
    // Sleeping uses no CPU: only the wall deadline (eight times the
    // budget) catches it.
    let short = std::panic::catch_unwind(|| {
        clock.run(&"B 1: 9-13", || {
            std::thread::sleep(std::time::Duration::from_millis(150))
        })
    });
    assert!(short.is_ok(), "150 ms asleep is within 400 ms on the wall");
    let late = std::panic::catch_unwind(|| {
        clock.run(&"B 1: 9-13", || {
            std::thread::sleep(std::time::Duration::from_millis(300))
        })
    });
    let message = late.expect_err("past the wall deadline");
    let text = message
        .downcast_ref::<String>()
        .expect("a formatted message");
    assert!(text.contains("on the wall, stopped at"), "{text}");
}

#[test]
fn a_case_that_passes_without_reaching_its_assertions_fails_the_count() {
    let honest = Cases::new("util::honest", 64);
    proptest::proptest!(honest.config(), |(n in 0u32..4)| {
        let _clock = honest.start();
        proptest::prop_assume!(n != 0);
        honest.reached();
    });
    honest.check();
    let silent = Cases::new("util::silent", 64);
    proptest::proptest!(silent.config(), |(n in 0u32..4)| {
        let _clock = silent.start();
        if n == 0 {
            // A generator that yielded nothing, passed without a word.
            return Ok(());
        }
        silent.reached();
    });
    let short = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| silent.check()))
        .expect_err("a silent pass");
    let text = short.downcast_ref::<String>().expect("a formatted message");
    assert!(text.contains("cases reached their assertions"), "{text}");
}
