//! Printing `solve`'s reports, in input order, in the chosen format (the
//! library's writers, `postfacto::output`): answers on standard output,
//! notes on standard error, SVG pictures into their folder.

use std::io::Write;
use std::path::Path;

use rayon::prelude::*;

use postfacto::output::{render, Rendered};
use postfacto::request::Report;

use super::settings::Settings;
use super::{fail, write_err, Failure, Status};

/// How a batch's answer is named: `==> file: instance 2 (line 9) <==`.
pub const ANSWER_NAME: &str = "==> ";

/// The `index`-th report rendered; its SVG pictures written into the
/// folder and named on standard output.
fn rendered(index: usize, report: &Report, settings: &Settings) -> Result<Rendered, Failure> {
    let mut rendered = render(index, report, settings.format, &settings.solve);
    let dir = settings.out_dir.as_deref().unwrap_or(Path::new("."));
    rendered
        .write_pictures(dir)
        .map_err(|e| fail(Status::BadInput, e.to_string()))?;
    Ok(rendered)
}

/// Prints every report in order (rendered in parallel); returns the worst status.
pub fn print(
    reports: &[Report],
    settings: &Settings,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let all: Vec<Result<Rendered, Failure>> = reports
        .par_iter()
        .enumerate()
        .map(|(index, report)| rendered(index, report, settings))
        .collect();
    let mut status = Status::Ok;
    let mut printed = 0;
    // A batch's answers are named, so each can be matched to its record
    // (one without an answer is a name alone); `verify` skips the names.
    let named = reports.len() > 1
        && matches!(
            settings.format,
            postfacto::output::Format::Icpc | postfacto::output::Format::Fen
        );
    for (report, rendered) in reports.iter().zip(all) {
        status = status.max(report.status.into());
        for line in &report.err {
            super::report(line);
        }
        let rendered = rendered?;
        if named {
            if printed > 0 {
                writeln!(out).map_err(write_err)?;
            }
            writeln!(out, "{ANSWER_NAME}{} <==", report.name).map_err(write_err)?;
            printed = 0;
        }
        for answer in &rendered.answers {
            if printed > 0 {
                writeln!(out).map_err(write_err)?;
            }
            printed += 1;
            out.write_all(answer.as_bytes()).map_err(write_err)?;
        }
        out.write_all(rendered.text.as_bytes()).map_err(write_err)?;
    }
    Ok(status)
}
