//! Time limits stop the work: a call with a limit returns at the limit and
//! leaves no thread of it running (issue 43). The thread and CPU counts are
//! taken in a child process running one probe alone, since the other tests
//! of this binary run beside each other in this one.

use std::process::Command;
use std::time::{Duration, Instant};

use postfacto::notation::Record;
use postfacto::random::{damage, play_game, Damage, Play, Rng};
use postfacto::rules::Variant;
use postfacto::sat::{new_solver, within, SatError};
use postfacto::solve::Reconstructor;
use varisat::{CnfFormula, ExtendFormula, Lit};

use crate::util::postfacto;

/// Set in the child process that runs a probe.
const PROBE: &str = "POSTFACTO_LIMIT_PROBE";
/// The limit the probes run under.
const LIMIT: Duration = Duration::from_secs(1);
/// How late past the limit a call may return.
const LATENESS: Duration = Duration::from_millis(200);
/// How long after the call's return its thread may take to end.
const THREAD_END: Duration = Duration::from_millis(300);

/// n+1 pigeons in n holes: unsatisfiable, and CDCL needs exponential time.
fn pigeonhole(holes: usize) -> CnfFormula {
    let var = |p: usize, h: usize| Lit::from_index(p * holes + h, true);
    let mut formula = CnfFormula::new();
    for p in 0..=holes {
        let somewhere: Vec<Lit> = (0..holes).map(|h| var(p, h)).collect();
        formula.add_clause(&somewhere);
    }
    for h in 0..holes {
        for p in 0..=holes {
            for q in p + 1..=holes {
                formula.add_clause(&[!var(p, h), !var(q, h)]);
            }
        }
    }
    formula
}

/// Threads of this process.
fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").unwrap().count()
}

/// CPU time of this process (user + system), in clock ticks.
fn cpu_ticks() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    // Fields after the command name, which may hold spaces: ") S ppid ...".
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 here.
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// Runs `job` under [`LIMIT`], checks it returned in time with no verdict,
/// then that no thread of it is left and nothing uses the CPU a second on.
fn stops_and_leaves_nothing<T: Send + std::fmt::Debug + 'static>(
    job: impl FnOnce() -> Option<T> + Send + 'static,
) {
    let before = threads();
    let started = Instant::now();
    let verdict = within(LIMIT, job).flatten();
    let took = started.elapsed();
    assert!(verdict.is_none(), "a verdict within the limit: {verdict:?}");
    assert!(took < LIMIT + LATENESS, "returned after {took:?}");
    // The job's thread has seen the deadline by now, but on a loaded
    // machine (the random-seed runs: load 6 on 2 cores) it may not have
    // been given the CPU to end before `within` stopped waiting for it.
    let ending = Instant::now();
    while threads() != before && ending.elapsed() < THREAD_END {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(
        threads(),
        before,
        "a thread of the job is left {THREAD_END:?} after the call"
    );
    let lag = ending.elapsed();
    let cpu = cpu_ticks();
    std::thread::sleep(Duration::from_secs(1));
    let busy = cpu_ticks() - cpu;
    // Clock ticks are 1/100 s: a thread left solving would show ~100.
    assert!(
        busy <= 5,
        "{busy} ticks of CPU in the second after the call"
    );
    println!("stopped after {took:?}; its thread gone {lag:?} later; {busy} ticks of CPU the second after");
}

/// Runs the probe tests alone, in a child process of
/// this binary (the binary's own test threads share its CPU time).
fn probes_in_child() {
    let exe = std::env::current_exe().unwrap();
    let out = Command::new(exe)
        .args(["limits::probe_", "--nocapture", "--test-threads=1"])
        .env(PROBE, "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("2 passed"), "the probes did not run: {text}");
    assert!(text.contains("stopped after"), "{text}");
}

#[test]
fn probe_pigeonhole() {
    if std::env::var_os(PROBE).is_none() {
        return;
    }
    stops_and_leaves_nothing(|| {
        let mut solver = new_solver();
        solver.add_formula(&pigeonhole(11));
        match solver.solve().map_err(SatError::from) {
            Err(e) if e.is_undecided() => None,
            other => Some(other),
        }
    });
}

/// A Canadian game of 100 plies with 20 moves unknown: its solve takes
/// 10 s and more (release), its encoding alone seconds (debug).
fn hard_damaged() -> (Variant, Record) {
    let variant = Variant::Canadian;
    let mut rng = Rng::new(3);
    let opening = variant.topology().opening();
    let first = variant.first_player();
    let game = play_game(
        variant.rules(),
        &mut rng,
        &opening,
        first,
        100,
        Play::Careful,
    );
    let damage_of = Damage {
        unknown_moves: 20,
        unknown_squares: 0,
        short_captures: false,
    };
    (variant, damage(&game, &mut rng, damage_of))
}

#[test]
fn probe_damaged_record() {
    if std::env::var_os(PROBE).is_none() {
        return;
    }
    let (variant, damaged) = hard_damaged();
    assert_eq!(
        damaged.plies(),
        100,
        "the game ended early: not the hard record"
    );
    stops_and_leaves_nothing(move || match Reconstructor::new(variant).solve(&damaged) {
        Err(e) if e.is_undecided() => None,
        other => Some(format!("{other:?}")),
    });
}

/// A pigeonhole formula (minutes of search) and a hard damaged record (its
/// encoding looks at the deadline too) under a limit of 1 s: back within
/// 1.2 s, the thread gone, and no CPU used in the second after.
#[test]
fn hard_work_is_stopped_at_the_limit_and_its_thread_ends() {
    probes_in_child();
}

#[test]
fn a_solve_stopped_by_its_deadline_is_undecided_not_unsatisfiable() {
    let deadline = Instant::now() + Duration::from_millis(200);
    let stopped = postfacto::sat::under(Some(deadline), || {
        let mut solver = new_solver();
        solver.add_formula(&pigeonhole(11));
        solver.solve().map_err(SatError::from)
    });
    let late = Instant::now().saturating_duration_since(deadline);
    assert!(
        matches!(&stopped, Err(e) if e.is_undecided()),
        "{stopped:?}"
    );
    assert!(late < Duration::from_millis(100), "stopped {late:?} late");
    // Without a deadline a small one still runs to its verdict.
    let mut solver = new_solver();
    solver.add_formula(&pigeonhole(4));
    assert_eq!(solver.solve().ok(), Some(false));
}

#[test]
fn the_binary_stops_hard_inputs_at_the_limit() {
    let started = Instant::now();
    let run = postfacto(
        &["solve", "--limit", "1s", "tests/data/english-hard.in"],
        "",
    );
    let took = started.elapsed();
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(run.stderr.contains("undecided"), "{}", run.stderr);
    assert!(took < LIMIT + Duration::from_millis(500), "{took:?}");
    let mut dimacs = Vec::new();
    varisat::dimacs::write_dimacs(&mut dimacs, &pigeonhole(11)).unwrap();
    let started = Instant::now();
    let run = postfacto(
        &["sat", "--limit", "1s", "-"],
        std::str::from_utf8(&dimacs).unwrap(),
    );
    let took = started.elapsed();
    assert_eq!(
        (run.code, run.stdout.trim()),
        (3, "s UNKNOWN"),
        "{}",
        run.stderr
    );
    assert!(took < LIMIT + Duration::from_millis(500), "{took:?}");
}
