//! Prints the whole-process timings against an outside command (`bench
//! --against`, `compare --against`) and the replayer's judgement of the
//! command's answers, the table [`postfacto::harness::bench::against_table`]
//! makes.

use std::path::Path;

use postfacto::harness::against::AgainstError;
use postfacto::harness::table::Tables;
use postfacto::notation::Record;
use postfacto::rules::Variant;

use super::{fail, Failure, Status};

pub use postfacto::harness::against::command_words;

/// Times `postfacto solve` (one thread, all cores) and `command` (the
/// file's path added last) on the records of `path`, prints the table and
/// the judgement of the command's answers; returns whether it passed.
///
/// # Errors
/// A process that cannot be run or fails, in words.
pub fn run(
    path: &Path,
    records: &[Record],
    variant: Variant,
    command: &[String],
    tables: &mut Tables<'_>,
) -> Result<bool, AgainstError> {
    let me = std::env::current_exe()?;
    let (table, passed) =
        postfacto::harness::bench::against_table(&me, path, records, variant, command)?;
    tables.write(&table)?;
    Ok(passed)
}

/// Checks that an outside command (`--against`) names a program that exists.
pub fn outside_program(command: &[String]) -> Result<(), Failure> {
    match command.first() {
        Some(program) if postfacto::solve::program_exists(program) => Ok(()),
        program => Err(fail(
            Status::BadInput,
            format!(
                "--against: cannot find the program '{}'",
                program.map_or("", String::as_str)
            ),
        )),
    }
}
