//! postfacto reconstructs draughts positions from damaged game records.
//!
//! Given who moved first and a fragment of moves, it finds a start board from
//! which the moves are legal, by encoding the rules as SAT clauses solved by
//! varisat, and checks every answer with its own replayer.
//!
//! Layers, each using only those above it: [`board`] (squares, pieces),
//! [`notation`] (text formats), [`rules`] (legality), [`replay`] (the judge)
//! and [`archive`] (real game files, game by game),
//! [`encode`] (CNF), [`solve`] (engines), [`random`] (random games).
//!
//! ```
//! use postfacto::{notation::parse_records, solve::{solve, Engine, Outcome}};
//! let records = parse_records("W 3\n21-17\n13x22x31x24\n19x28\n")?;
//! let Outcome::Solved(solution) = solve(&records[0], Engine::Sat)? else { panic!() };
//! println!("{}", solution.answer);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs, missing_debug_implementations)]

pub mod analysis;
pub mod archive;
pub mod board;
pub mod checks;
pub mod encode;
pub mod hard;
pub mod harness;
pub mod notation;
pub mod output;
mod parallel;
pub mod pawns;
pub mod random;
pub mod reach;
pub mod render;
pub mod replay;
pub mod request;
pub mod rules;
pub mod sat;
pub mod solve;
