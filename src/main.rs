//! The `postfacto` command line. All the work is in the library; see `cli`.

#![forbid(unsafe_code)]

mod cli;
mod serve;

/// Thousands of small formulas built and dropped per repair: mimalloc
/// takes a fifth off their CPU time (see `Cargo.toml`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::run()
}
