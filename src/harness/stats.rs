//! Summaries of timings: the medians, percentiles and totals every table
//! of `bench` and `compare` gives, computed in one place.

use std::time::Duration;

/// Summary statistics of a list of durations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The middle time (the upper one of an even count's two).
    pub median: Duration,
    /// The 90th percentile.
    pub p90: Duration,
    /// The 99th percentile.
    pub p99: Duration,
    /// The longest time.
    pub max: Duration,
    /// All the times added up.
    pub total: Duration,
}

impl Summary {
    /// The summary of `times`.
    ///
    /// # Panics
    /// When `times` is empty: a table row always times something.
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

    /// How many of `count` things were done per second, over the total.
    pub fn per_second(&self, count: usize) -> f64 {
        count as f64 / self.total.as_secs_f64()
    }
}

/// The median of counts (the upper middle one; 0 for none).
pub fn median_count(counts: &[usize]) -> usize {
    let mut sorted = counts.to_vec();
    sorted.sort_unstable();
    sorted.get(sorted.len() / 2).copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_percentiles_and_total() {
        let times: Vec<Duration> = (1..=10).rev().map(Duration::from_millis).collect();
        let s = Summary::of(&times);
        assert_eq!(s.median, Duration::from_millis(6));
        assert_eq!(s.p90, Duration::from_millis(9));
        assert_eq!(s.max, Duration::from_millis(10));
        assert_eq!(s.total, Duration::from_millis(55));
        assert_eq!(median_count(&[5, 1, 3]), 3);
        assert_eq!(median_count(&[]), 0);
    }
}
