//! Summaries of timings for the tables of `bench` and `compare`.

use std::time::Duration;

/// Summary statistics of a list of durations.
pub struct Summary {
    pub median: Duration,
    pub p90: Duration,
    pub p99: Duration,
    pub max: Duration,
    pub total: Duration,
}

impl Summary {
    pub fn of(times: &[Duration]) -> Summary {
        let mut sorted = times.to_vec();
        sorted.sort();
        let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
        Summary {
            median: at(0.5),
            p90: at(0.9),
            p99: at(0.99),
            max: *sorted.last().expect("at least one time"),
            total: sorted.iter().sum(),
        }
    }
}

/// Microseconds with one decimal, for tables.
pub fn micros(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e6)
}
