//! Command-line arguments (clap derive). Raw values only; `cli::run` validates them.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// Reconstructs draughts positions from damaged game records.
#[derive(Parser, Debug)]
#[command(name = "postfacto", version, about, long_about = None)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Find a start board from which the moves are legal; print it beside the end board.
    Solve {
        /// Input file with one or more records ('-' or nothing: standard input).
        file: Option<PathBuf>,
        /// Engine that finds the start board.
        #[arg(long, value_enum, default_value_t = EngineArg::Sat)]
        engine: EngineArg,
    },
    /// Judge an answer: accept it, or name the first rule it breaks.
    Verify {
        /// The records.
        input: PathBuf,
        /// The answers (8 lines per record, as `solve` prints them).
        answer: PathBuf,
    },
    /// Print the CNF formula of one record in DIMACS, with named variables and clause groups.
    Cnf {
        /// Input file ('-' or nothing: standard input).
        file: Option<PathBuf>,
        /// Write the formula here instead of standard output.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Which record of the input (1-based); needed when there are several.
        #[arg(long)]
        instance: Option<usize>,
    },
    /// Time the engines on generated instances and print a table.
    Bench {
        /// Number of random fragments.
        #[arg(long, default_value_t = 1000)]
        count: usize,
        /// Moves per fragment.
        #[arg(long, default_value_t = 100)]
        plies: usize,
        /// Seed of the generator (same seed, same instances).
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum EngineArg {
    /// SAT encoding solved by varisat.
    Sat,
}
