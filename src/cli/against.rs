//! Prints the whole-process timings against an outside command (`bench
//! --against`, `compare --against`) and the replayer's judgement of the
//! command's answers, the tables [`postfacto::harness::bench`] makes.

use std::path::Path;

use postfacto::harness::against::{find_program, AgainstError};
use postfacto::harness::table::{Table, Tables};
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
    let against = postfacto::harness::bench::against_table(&me, path, records, variant, command);
    print(against, tables)
}

/// Prints a table made against an outside command; returns whether it passed.
///
/// # Errors
/// The table could not be made, or written.
pub fn print(
    against: Result<(Table, bool), AgainstError>,
    tables: &mut Tables<'_>,
) -> Result<bool, AgainstError> {
    let (table, passed) = against?;
    tables.write(&table)?;
    Ok(passed)
}

/// Checks that an outside command (`--against`) names a program that exists.
pub fn outside_program(command: &[String]) -> Result<(), Failure> {
    find_program(command).map_err(|e| fail(Status::BadInput, e.to_string()))
}
