//! `postfacto serve`: checks its arguments, starts the page's server and
//! prints where it listens (tests read that line), then serves until stopped.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use super::args::ServeArgs;
use super::{fail, Failure, Status};
use crate::serve::{Server, State};

/// A checked `serve` command.
#[derive(Debug)]
pub struct Request {
    files: Vec<PathBuf>,
    address: SocketAddr,
    open: bool,
    limit: Duration,
}

impl Request {
    /// Every file named must be readable: the page may open only these.
    ///
    /// # Errors
    /// A file that cannot be read, or a zero limit (exit 2).
    pub fn from_args(args: ServeArgs) -> Result<Request, Failure> {
        for file in &args.files {
            if let Err(e) = std::fs::File::open(file) {
                return Err(fail(Status::BadInput, format!("{}: {e}", file.display())));
            }
        }
        if args.limit.is_zero() {
            return Err(fail(Status::BadInput, "--limit must be more than 0"));
        }
        Ok(Request {
            files: args.files,
            address: SocketAddr::new(args.bind, args.port),
            open: args.open,
            limit: args.limit,
        })
    }

    /// Serves until the process is stopped.
    ///
    /// # Errors
    /// The address cannot be listened on (exit 2).
    pub fn run(self, out: &mut impl Write) -> Result<Status, Failure> {
        if !self.address.ip().is_loopback() {
            super::report(&format!(
                "warning: listening on {}: other computers can reach this page",
                self.address.ip()
            ));
        }
        let server = Server::bind(self.address, State::new(self.files, self.limit))
            .map_err(|e| fail(Status::BadInput, e.to_string()))?;
        let url = format!("http://{}/", server.address());
        writeln!(out, "{url}").map_err(super::write_err)?;
        out.flush().map_err(super::write_err)?;
        if self.open {
            open_browser(&url);
        }
        server.run();
        Ok(Status::Ok)
    }
}

/// Opens `url` in the default browser where there is one; says so when
/// it cannot (the address is printed anyway).
fn open_browser(url: &str) {
    let command = if cfg!(target_os = "macos") {
        vec!["open", url]
    } else if cfg!(windows) {
        vec!["cmd", "/C", "start", "", url]
    } else {
        vec!["xdg-open", url]
    };
    let started = std::process::Command::new(command[0])
        .args(&command[1..])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = started {
        super::report(&format!(
            "cannot open a browser ({}: {e}); open {url}",
            command[0]
        ));
    }
}
