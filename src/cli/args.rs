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
        /// Give up (exit 3) after this many start boards (e.g. 100000) or this long
        /// (e.g. 2s, 500ms); DFS engine only.
        #[arg(long, value_parser = parse_limit)]
        limit: Option<LimitArg>,
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
    /// Write instances: fragments of random legal games, or the `--hard K` family.
    Generate {
        /// Moves per fragment.
        #[arg(long, default_value_t = 100)]
        plies: usize,
        /// Number of instances.
        #[arg(long, default_value_t = 1)]
        count: usize,
        /// Seed of the generator (same seed, same instances).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Where games start: random boards, or the standard opening.
        #[arg(long, value_enum, default_value_t = FromArg::Random)]
        from: FromArg,
        /// Instead, the member with K blocker gadgets of the family that is hard for DFS.
        #[arg(long, conflicts_with = "hard_search")]
        hard: Option<usize>,
        /// Instead, rerun the beam search that found the hard family and print its
        /// members (K = 1, 2, ...; progress on stderr). Takes minutes at the default width.
        #[arg(long)]
        hard_search: bool,
        /// Beam width of --hard-search.
        #[arg(long, default_value_t = 300, requires = "hard_search")]
        beam: usize,
        /// Write one file per instance into this folder (NNNN.in) instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Run both engines on every record of FILES (folders: every *.in inside) and compare.
    Compare {
        /// Files or folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Node or time limit for the DFS engine per record (e.g. 1000000, 2s).
        #[arg(long, value_parser = parse_limit)]
        limit: Option<LimitArg>,
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
    /// The known repair-and-replay search.
    Dfs,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum FromArg {
    /// Random start-legal boards.
    Random,
    /// The standard opening, Black to move.
    Opening,
}

/// A search limit: nodes or time.
#[derive(Clone, Copy, Debug)]
pub enum LimitArg {
    Nodes(u64),
    Time(std::time::Duration),
}

fn parse_limit(text: &str) -> Result<LimitArg, String> {
    let number = |digits: &str| {
        digits
            .parse::<u64>()
            .map_err(|_| format!("'{text}' is not a node count (100000) or a time (2s, 500ms)"))
    };
    if let Some(ms) = text.strip_suffix("ms") {
        Ok(LimitArg::Time(std::time::Duration::from_millis(number(
            ms,
        )?)))
    } else if let Some(s) = text.strip_suffix('s') {
        Ok(LimitArg::Time(std::time::Duration::from_secs(number(s)?)))
    } else {
        Ok(LimitArg::Nodes(number(text)?))
    }
}
