//! The binary's front end: arguments in, library calls, text and exit status out.
//! Errors are printed once to stderr as `postfacto: <message>`.
//!
//! Arguments become a checked [`request::Request`] first; each command is
//! then one function in a file of its own.

mod against;
mod args;
mod bench;
mod cnf;
mod compare;
mod generate;
mod moves;
mod output;
mod pawns;
mod reach;
mod request;
mod sat;
mod serve;
mod settings;
mod solve;
mod status;
mod ticker;
mod verify;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;
use postfacto::output::one_line;

use args::Args;
use request::Request;
pub use status::Status;

/// A failure that ends the command: a message and a status.
#[derive(Debug)]
struct Failure {
    status: Status,
    message: String,
}

impl Failure {
    /// A library request's error, with the exit status the library gives
    /// it ([`postfacto::request::RequestError::exit_status`]), its message
    /// after the input's name when there is one.
    fn request(input: Option<&str>, error: impl Into<postfacto::request::RequestError>) -> Failure {
        use postfacto::request::{InputError, RequestError};
        let error = error.into();
        let mut message = match input {
            Some(name) => format!("{name}: {error}"),
            None => error.to_string(),
        };
        // The library's words name no front end's options; these do.
        let hint = match &error {
            RequestError::BadInput(InputError::NoTurn) => ": --turn white or black",
            RequestError::BadInput(InputError::RecordsNotPdn) => {
                " (`verify INPUT ANSWER`, `solve`)"
            }
            _ => "",
        };
        message.push_str(hint);
        fail(Status::from_exit(error.exit_status()), message)
    }
}

/// An input that cannot be read, said and ended as the library says it.
impl From<postfacto::request::SourceError> for Failure {
    fn from(error: postfacto::request::SourceError) -> Failure {
        fail(Status::from_exit(error.exit_status()), error.to_string())
    }
}

fn fail(status: Status, message: impl Into<String>) -> Failure {
    Failure {
        status,
        message: message.into(),
    }
}

/// Parses the command line, runs the command, maps the outcome to an exit code.
pub fn run() -> ExitCode {
    let args = Args::parse();
    let mut out = Guarded::new(io::BufWriter::new(io::stdout().lock()));
    // A cap set wrong is said once, before any input is read.
    let result = postfacto::request::max_input()
        .map_err(Failure::from)
        .and_then(|_| Request::from_args(args))
        .and_then(|request| dispatch(request, &mut out));
    finish(result, out)
}

/// Runs one checked request.
fn dispatch(request: Request, out: &mut impl Write) -> Result<Status, Failure> {
    match request {
        Request::Solve { files, settings } => solve::run(&files, &settings, out),
        Request::Verify { request, quiet } => verify::run(&request, quiet, out),
        Request::VerifyPdn { file, options } => verify::run_pdn_files(&file, &options, out),
        Request::Cnf { target, output } => cnf::run(&target, output, out),
        Request::Decode {
            target,
            model,
            reach,
        } => cnf::decode(&target, &model, reach, out),
        Request::Moves { file, rules, turn } => moves::run(file.as_deref(), rules, turn, out),
        Request::Sat { file, limit, proof } => {
            sat::run(file.as_deref(), limit, proof.as_deref(), out)
        }
        Request::Generate(request) => request.run(out),
        Request::Pawns { file, settings } => pawns::run(file.as_deref(), &settings, out),
        Request::Completions(shell) => {
            // Into a buffer first: clap_complete panics when its writer fails.
            let mut script = Vec::new();
            let mut command = <Args as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut command, "postfacto", &mut script);
            out.write_all(&script)
                .map(|()| Status::Ok)
                .map_err(write_err)
        }
        Request::Man(command) => man_page(command.as_deref(), out),
        Request::Compare {
            paths,
            limit,
            rules,
            against,
            json,
        } => match against {
            None => compare::run(&paths, limit, rules, json, out),
            Some(command) => compare::run_against(&paths, &command, json, out),
        },
        Request::Bench(request, json) => request.run(json, out),
        Request::Reach(request) => request.run(out),
        Request::Serve(request) => request.run(out),
    }
}

/// The manual page in roff: the main one, or a command's
/// (`postfacto-solve(1)`, as the main page names it).
fn man_page(command: Option<&str>, out: &mut impl Write) -> Result<Status, Failure> {
    let mut main = <Args as clap::CommandFactory>::command();
    // Built, the command has the `help` subcommand its page names too.
    main.build();
    let page = match command {
        None => main,
        Some(name) => {
            let Some(sub) = main.find_subcommand(name) else {
                let known: Vec<&str> = main
                    .get_subcommands()
                    .map(clap::Command::get_name)
                    .collect();
                return Err(fail(
                    Status::BadInput,
                    format!("no command '{name}' (commands: {})", known.join(", ")),
                ));
            };
            sub.clone().name(format!("postfacto-{name}"))
        }
    };
    clap_mangen::Man::new(page)
        .render(out)
        .map(|()| Status::Ok)
        .map_err(write_err)
}

/// Flushes the output and turns the result into the exit code, printing
/// one line on stderr: the failure, or the output error that caused it (a
/// full disk is reported once, not once per failed write). A closed pipe
/// (`| head`) is not an error.
fn finish<W: Write>(result: Result<Status, Failure>, mut out: Guarded<W>) -> ExitCode {
    let _ = out.flush();
    let status = match (out.error.take(), result) {
        (Some(e), _) if e.kind() == io::ErrorKind::BrokenPipe => Status::Ok,
        (Some(e), result) => {
            report(&format!("cannot write output: {e}"));
            result.unwrap_or(Status::BadInput).max(Status::BadInput)
        }
        (None, Ok(status)) => status,
        (None, Err(failure)) => {
            report(&failure.message);
            failure.status
        }
    };
    status.into()
}

/// A writer that keeps its first error, so the error is reported once
/// however many writes fail after it.
struct Guarded<W> {
    inner: W,
    error: Option<io::Error>,
}

impl<W: Write> Guarded<W> {
    fn new(inner: W) -> Guarded<W> {
        Guarded { inner, error: None }
    }

    fn keep<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        if let Err(e) = &result {
            if self.error.is_none() {
                self.error = Some(io::Error::new(e.kind(), e.to_string()));
            }
        }
        result
    }
}

impl<W: Write> Write for Guarded<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let result = self.inner.write(buf);
        self.keep(result)
    }

    fn flush(&mut self) -> io::Result<()> {
        let result = self.inner.flush();
        self.keep(result)
    }
}

/// Prints `postfacto: <message>` on stderr, on one line whatever the message quotes.
fn report(message: &str) {
    eprintln!("postfacto: {}", one_line(message));
}

fn write_err(e: io::Error) -> Failure {
    fail(Status::BadInput, format!("cannot write output: {e}"))
}
