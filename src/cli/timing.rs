//! How `bench` and `compare` print times (the figures themselves come
//! from [`postfacto::harness::Summary`]).

use std::time::Duration;

/// Microseconds with one decimal, for tables.
pub fn micros(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e6)
}
