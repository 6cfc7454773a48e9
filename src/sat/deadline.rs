//! Time limits around work that cannot be interrupted.
//!
//! varisat has no interrupt or conflict budget, so a time limit runs the
//! work on a thread of its own and stops *waiting* when the limit passes.
//! The abandoned thread ends when its solver call returns, or with the
//! process; the caller reports "undecided" at once.

use std::sync::mpsc;
use std::time::Duration;

/// Runs `job` and waits at most `limit` for it; `None` if it is still
/// running then (it is left to finish on its own). A zero limit leaves no
/// time at all: `None` without running the job, so the answer never
/// depends on how fast a thread starts.
pub fn within<T: Send + 'static>(
    limit: Duration,
    job: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    if limit.is_zero() {
        return None;
    }
    let (sender, receiver) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("postfacto-limited".into())
        .spawn(move || {
            let _ = sender.send(job());
        });
    if spawned.is_err() {
        return None;
    }
    receiver.recv_timeout(limit).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
