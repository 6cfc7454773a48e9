//! A progress line for long single jobs (a repair), on standard error when
//! it is a terminal: nothing for work that ends within a second, then the
//! latest state rewritten in place until the work ends.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long work runs before its progress is shown.
const QUIET_FOR: Duration = Duration::from_secs(1);
/// How often the line is redrawn.
const EVERY: Duration = Duration::from_millis(200);

/// The progress line of one job (or of a file's jobs in turn).
#[derive(Debug)]
pub struct Ticker {
    state: Arc<Mutex<String>>,
    done: Arc<AtomicBool>,
    thread: Mutex<Option<JoinHandle<()>>>,
    shown: bool,
}

impl Ticker {
    /// A line that shows once work has run a second, if `enabled` and
    /// standard error is a terminal; otherwise a ticker that shows nothing.
    pub fn start(enabled: bool) -> Ticker {
        let state = Arc::new(Mutex::new(String::new()));
        let done = Arc::new(AtomicBool::new(false));
        let shown = enabled && std::io::stderr().is_terminal();
        let thread = shown.then(|| {
            let (state, done) = (Arc::clone(&state), Arc::clone(&done));
            std::thread::spawn(move || draw(&state, &done))
        });
        Ticker {
            state,
            done,
            thread: Mutex::new(thread),
            shown,
        }
    }

    /// What the line says from now on.
    pub fn say(&self, message: impl Into<String>) {
        if self.shown {
            if let Ok(mut state) = self.state.lock() {
                *state = message.into();
            }
        }
    }

    /// Stops drawing and clears the line (before the answers are printed;
    /// work abandoned at a time limit may still hold the ticker).
    pub fn finish(&self) {
        self.done.store(true, Ordering::Relaxed);
        let thread = self.thread.lock().ok().and_then(|mut t| t.take());
        if let Some(thread) = thread {
            let _ = thread.join();
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The ticker's thread: quiet for a second, then the state every so often;
/// the line is cleared at the end if it was drawn.
fn draw(state: &Mutex<String>, done: &AtomicBool) {
    let started = Instant::now();
    let mut drawn = false;
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        if started.elapsed() < QUIET_FOR {
            continue;
        }
        let message = state.lock().map(|s| s.clone()).unwrap_or_default();
        if !message.is_empty() {
            let seconds = started.elapsed().as_secs();
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[Kpostfacto: {message} ({seconds} s)");
            let _ = err.flush();
            drawn = true;
        }
        std::thread::sleep(EVERY);
    }
    if drawn {
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[K");
        let _ = err.flush();
    }
}
