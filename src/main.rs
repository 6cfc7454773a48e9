//! The `postfacto` command line. All the work is in the library; see `cli`.

#![forbid(unsafe_code)]

mod cli;
mod serve;

fn main() -> std::process::ExitCode {
    cli::run()
}
