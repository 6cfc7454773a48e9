//! A batch: every record of a list of files (folders standing for the
//! record files in them), read and solved in parallel (with the `parallel`
//! feature; one after the other without it), the reports in input order. `solve` runs one; a front end with many files (a cluster
//! task, Python) can run the same.

use std::path::PathBuf;
use std::sync::Arc;

use super::{record_files, solve_item, Item, Name, Progress, ReadAs, Report, SolveOptions};
use super::{Source, SourceError};
use crate::parallel::map_in_order;

/// One input of a batch and its records, or why it cannot be read (the
/// file, or its records as a whole).
#[derive(Debug)]
pub struct BatchInput {
    /// Its name in messages and reports.
    pub name: String,
    /// Its records, each with its readings.
    pub items: Result<Vec<Item>, SourceError>,
}

/// The inputs of a batch, read.
#[derive(Debug)]
pub struct Batch {
    /// In the order given, a folder's files in name order.
    pub inputs: Vec<BatchInput>,
}

impl Batch {
    /// Reads `paths` (standard input when there are none; a folder stands
    /// for every `*.in` and `*.pdn` file in it) and their records, as
    /// `reading` says, in parallel. A file that cannot be read is an input
    /// whose report says so; the batch goes on.
    ///
    /// # Errors
    /// Standard input cannot be read.
    pub fn read(paths: &[PathBuf], reading: ReadAs) -> Result<Batch, SourceError> {
        let read = |source: Source| BatchInput {
            items: source.items(reading),
            name: source.name,
        };
        if paths.is_empty() {
            return Ok(Batch {
                inputs: vec![read(Source::read(None)?)],
            });
        }
        // A folder without records is one bad input, as a missing file is.
        let listed: Vec<Result<Vec<PathBuf>, SourceError>> = paths
            .iter()
            .map(|path| record_files(std::slice::from_ref(path)))
            .collect();
        let files: Vec<PathBuf> = listed.iter().flatten().flatten().cloned().collect();
        let mut read_files = map_in_order(&files, |file| match Source::read(Some(file)) {
            Ok(source) => read(source),
            Err(error) => BatchInput {
                name: file.display().to_string(),
                items: Err(error),
            },
        })
        .into_iter();
        let mut inputs = Vec::with_capacity(files.len());
        for (path, entry) in paths.iter().zip(listed) {
            match entry {
                Ok(files) => inputs.extend(read_files.by_ref().take(files.len())),
                Err(error) => inputs.push(BatchInput {
                    name: path.display().to_string(),
                    items: Err(error),
                }),
            }
        }
        Ok(Batch { inputs })
    }

    /// The records in all (an unreadable input counts as one).
    pub fn records(&self) -> usize {
        self.inputs
            .iter()
            .map(|s| s.items.as_ref().map_or(1, Vec::len))
            .sum()
    }

    /// Every record solved under `options`, in parallel, in input order
    /// (an unreadable input is one report of bad input); `done` is called
    /// after each record, `progress` gets a long repair's steps.
    pub fn solve(
        &self,
        options: &Arc<SolveOptions>,
        progress: &Progress,
        done: impl Fn() + Sync,
    ) -> Vec<Report<'_>> {
        let jobs: Vec<(&BatchInput, Option<usize>)> = self
            .inputs
            .iter()
            .flat_map(|s| match &s.items {
                Ok(items) => (0..items.len()).map(|i| (s, Some(i))).collect::<Vec<_>>(),
                Err(_) => vec![(s, None)],
            })
            .collect();
        map_in_order(&jobs, |&(input, index)| {
            let report = match (index, &input.items) {
                (Some(i), Ok(items)) => {
                    let name = name_of(&input.name, &items[i], i, items.len());
                    solve_item(name, &items[i], options, progress)
                }
                (_, Err(error)) => Report::bad_input(&input.name, &error.to_string()),
                (None, Ok(_)) => unreachable!("a readable input has a job per record"),
            };
            done();
            report
        })
    }
}

/// Names an instance in messages: just the file for a single record, the
/// game for a PDN file.
fn name_of<'a>(input: &'a str, item: &Item, index: usize, count: usize) -> Name<'a> {
    Name {
        input,
        instance: (count > 1 || item.game.is_some())
            .then_some((item.game.unwrap_or(index + 1), item.line)),
        game: item.game.is_some(),
    }
}
