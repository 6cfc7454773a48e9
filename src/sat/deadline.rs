//! Time limits that stop the work, inside varisat too.
//!
//! varisat has no interrupt, but it stops its search at the next step when
//! writing its proof fails. A solver made by [`new_solver`] while a
//! deadline is in force (set by [`within`] or [`under`] for the work they
//! run on this thread) writes its proof into [`StopAt`], which throws the
//! bytes away and fails once the deadline has passed: the solve returns a
//! [`SatError::Undecided`](super::SatError) within milliseconds of the
//! limit. Without a deadline the solver writes no proof and costs nothing.
//! Native searches look at [`out_of_time`] now and then.

use std::cell::Cell;
use std::io;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use varisat::{ProofFormat, Solver};

/// How long [`within`] waits past its limit for the job's thread to see
/// the deadline and end, before leaving it (a job that never looks).
const GRACE: Duration = Duration::from_millis(100);

thread_local! {
    /// The deadline of the work running on this thread, if any.
    static CURRENT: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// The deadline in force on this thread: the earliest set by the
/// [`within`] and [`under`] calls it runs inside.
pub fn current_deadline() -> Option<Instant> {
    CURRENT.with(Cell::get)
}

/// Whether the deadline in force on this thread has passed (`false`
/// without one). Cheap enough for a search to call every few thousand steps.
pub fn out_of_time() -> bool {
    current_deadline().is_some_and(|d| Instant::now() >= d)
}

/// The earlier of two optional deadlines.
pub fn earlier(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Runs `job` on this thread with `deadline` in force (the earlier of it
/// and one already in force): every solver [`new_solver`] makes in it
/// stops there. `None` adds no deadline.
pub fn under<T>(deadline: Option<Instant>, job: impl FnOnce() -> T) -> T {
    /// Puts back the deadline before `under`, also when `job` panics.
    struct Restore(Option<Instant>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| c.set(self.0));
        }
    }
    let before = current_deadline();
    let _restore = Restore(before);
    CURRENT.with(|c| c.set(earlier(before, deadline)));
    job()
}

/// A varisat solver that stops at the deadline in force on this thread
/// (see [`under`]); a plain one when there is none. Every solver the crate
/// runs comes from here, so a limit reaches all of them.
pub fn new_solver() -> Solver<'static> {
    let mut solver = Solver::new();
    if let Some(deadline) = current_deadline() {
        // varisat's own format: DRAT panics on assumptions and on clauses
        // added between solves, which the analyses use.
        solver.write_proof(StopAt::new(deadline, io::sink()), ProofFormat::Varisat);
    }
    solver
}

/// A varisat solver that stops at whichever deadline is in force on this
/// thread at each step of its search, not only the one in force when it
/// was made: one solve can be given a budget of its own with [`under`]
/// (an explanation's shrinking trials). It always writes its proof (into
/// nothing), so its solves cost a few percent more than [`new_solver`]'s;
/// once stopped it cannot solve again.
pub fn new_budgeted_solver() -> Solver<'static> {
    let mut solver = Solver::new();
    solver.write_proof(StopWhenDue(io::sink()), ProofFormat::Varisat);
    solver
}

/// A proof writer that fails with [`DeadlinePassed`] once the deadline in
/// force on the writing thread has passed (see [`new_budgeted_solver`]).
struct StopWhenDue<W>(W);

impl<W: io::Write> io::Write for StopWhenDue<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if out_of_time() {
            return Err(io::Error::new(io::ErrorKind::TimedOut, DeadlinePassed));
        }
        self.0.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// The io error [`StopAt`] fails with: a time limit, not a failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the time limit passed")]
pub struct DeadlinePassed;

/// A proof writer that passes bytes on to `inner` until `deadline`, then
/// fails with [`DeadlinePassed`]: varisat stops solving at its next write.
#[derive(Debug)]
pub struct StopAt<W> {
    deadline: Instant,
    inner: W,
}

impl<W: io::Write> StopAt<W> {
    /// Writes to `inner` until `deadline`.
    pub fn new(deadline: Instant, inner: W) -> StopAt<W> {
        StopAt { deadline, inner }
    }

    fn check(&self) -> io::Result<()> {
        if Instant::now() >= self.deadline {
            Err(io::Error::new(io::ErrorKind::TimedOut, DeadlinePassed))
        } else {
            Ok(())
        }
    }
}

impl<W: io::Write> io::Write for StopAt<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.check()?;
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Whether varisat stopped because a [`StopAt`] writer saw its deadline.
pub fn stopped_by_deadline(error: &varisat::solver::SolverError) -> bool {
    match error {
        varisat::solver::SolverError::ProofIoError { cause } => cause
            .get_ref()
            .is_some_and(|inner| inner.is::<DeadlinePassed>()),
        _ => false,
    }
}

/// Runs `job` on a thread of its own under a deadline `limit` from now
/// (see [`under`]; an earlier one in force here stays in force there) and
/// waits for it; `None` if the limit passes first. The job's solvers and
/// searches stop at the deadline, and the call waits up to [`GRACE`] more
/// for its thread to end, so no work is left running. A zero limit leaves
/// no time at all: `None` without running the job, so the answer never
/// depends on how fast a thread starts.
pub fn within<T: Send + 'static>(
    limit: Duration,
    job: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    if limit.is_zero() {
        return None;
    }
    let deadline = Instant::now() + limit;
    let inherited = earlier(current_deadline(), Some(deadline));
    let (sender, receiver) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("postfacto-limited".into())
        .spawn(move || {
            let _ = sender.send(under(inherited, job));
        });
    let Ok(handle) = spawned else {
        return None;
    };
    let waited = receiver.recv_timeout(limit).ok();
    // Past the limit the job sees its deadline and ends soon; its answer
    // comes too late to count. A job that never looks is left running.
    let ended = waited.is_some()
        || !matches!(
            receiver.recv_timeout(GRACE),
            Err(mpsc::RecvTimeoutError::Timeout)
        );
    if ended {
        let _ = handle.join();
    }
    waited
}

/// A limit as people write it: `5 s`, `0.25 s`, `0 s` (not Rust's `5s`,
/// `250ms`, `0ns`), to the microsecond.
pub fn in_seconds(limit: Duration) -> String {
    let text = format!("{:.6}", limit.as_secs_f64());
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text} s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_read_as_seconds() {
        assert_eq!(in_seconds(Duration::ZERO), "0 s");
        assert_eq!(in_seconds(Duration::from_secs(5)), "5 s");
        assert_eq!(in_seconds(Duration::from_millis(250)), "0.25 s");
        assert_eq!(in_seconds(Duration::from_secs(90)), "90 s");
        assert_eq!(in_seconds(Duration::from_micros(400)), "0.0004 s");
    }

    #[test]
    fn quick_work_is_returned_and_slow_work_is_abandoned() {
        assert_eq!(within(Duration::from_secs(5), || 7), Some(7));
        assert_eq!(within(Duration::ZERO, || 7), None);
        let slow = within(Duration::from_millis(20), || {
            std::thread::sleep(Duration::from_secs(2));
            7
        });
        assert_eq!(slow, None);
    }

    #[test]
    fn the_deadline_is_in_force_inside_and_restored_after() {
        assert_eq!(current_deadline(), None);
        let soon = Instant::now() + Duration::from_secs(60);
        let later = soon + Duration::from_secs(60);
        under(Some(soon), || {
            assert_eq!(current_deadline(), Some(soon));
            under(Some(later), || assert_eq!(current_deadline(), Some(soon)));
            under(None, || assert_eq!(current_deadline(), Some(soon)));
            let inside = within(Duration::from_secs(3600), current_deadline).unwrap();
            assert_eq!(inside, Some(soon), "within keeps the earlier deadline");
        });
        assert_eq!(current_deadline(), None);
        assert!(!out_of_time());
        under(Some(Instant::now()), || assert!(out_of_time()));
    }

    #[test]
    fn a_searching_job_ends_its_thread_at_the_limit() {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        let ended = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&ended);
        let started = Instant::now();
        // Whether the answer at the deadline comes in time is a race.
        let _ = within(Duration::from_millis(50), move || {
            while !out_of_time() {
                std::hint::spin_loop();
            }
            flag.store(true, Ordering::SeqCst);
        });
        assert!(ended.load(Ordering::SeqCst), "the job still runs");
        assert!(
            started.elapsed() < Duration::from_millis(500),
            "a busy machine, at most"
        );
    }

    #[test]
    fn the_writer_fails_with_its_own_error_after_the_deadline() {
        use std::io::Write;
        let mut open = StopAt::new(Instant::now() + Duration::from_secs(60), Vec::new());
        assert_eq!(open.write(b"abc").unwrap(), 3);
        let mut shut = StopAt::new(Instant::now(), io::sink());
        let err = shut.write(b"abc").unwrap_err();
        assert!(err.get_ref().is_some_and(|e| e.is::<DeadlinePassed>()));
        let varisat_err = varisat::solver::SolverError::ProofIoError { cause: err };
        assert!(stopped_by_deadline(&varisat_err));
        let other = varisat::solver::SolverError::ProofIoError {
            cause: io::Error::other("disk full"),
        };
        assert!(!stopped_by_deadline(&other));
    }
}
