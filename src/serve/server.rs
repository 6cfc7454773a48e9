//! The HTTP side: tiny_http's listener, a thread per request (at most
//! [`MAX_ACTIVE`] at once), bodies capped, each request's work given its
//! time limit and a grace period before it is answered as undecided.

use std::io::Read;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use super::routes::{route, Reply, State};

/// The largest request body read (a PDN archive of some 40,000 games).
pub const MAX_BODY: usize = 16 << 20;
/// Requests worked on at once; more are answered 503 at once.
const MAX_ACTIVE: usize = 16;
/// Past its limit, how long a request's work may take to stop by itself
/// before the page is told it is undecided.
const GRACE: Duration = Duration::from_secs(3);

/// Why the server cannot start.
#[derive(Debug, thiserror::Error)]
#[error("cannot listen on {address}: {reason}")]
pub struct ListenError {
    address: SocketAddr,
    reason: String,
}

/// A listening server, not yet answering.
pub struct Server {
    http: Arc<tiny_http::Server>,
    state: Arc<State>,
    address: SocketAddr,
    loopback: bool,
    active: Arc<AtomicUsize>,
}

impl Server {
    /// Listens on `address` (port 0: a free one) for `state`.
    ///
    /// # Errors
    /// The address cannot be bound.
    pub fn bind(address: SocketAddr, state: State) -> Result<Server, ListenError> {
        let fail = |reason: String| ListenError { address, reason };
        let http = tiny_http::Server::http(address).map_err(|e| fail(e.to_string()))?;
        let bound = http
            .server_addr()
            .to_ip()
            .ok_or_else(|| fail("not an IP address".into()))?;
        Ok(Server {
            http: Arc::new(http),
            state: Arc::new(state),
            address: bound,
            loopback: address.ip().is_loopback(),
            active: Arc::new(AtomicUsize::new(0)),
        })
    }

    /// Where it listens (with the port chosen).
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Answers requests until the process ends.
    pub fn run(&self) {
        for request in self.http.incoming_requests() {
            if self.active.fetch_add(1, Ordering::SeqCst) >= MAX_ACTIVE {
                self.active.fetch_sub(1, Ordering::SeqCst);
                let reply = Reply::error(503, "busy: too many requests at once; try again");
                respond(request, reply);
                continue;
            }
            let (state, active, loopback) = (
                Arc::clone(&self.state),
                Arc::clone(&self.active),
                self.loopback,
            );
            std::thread::spawn(move || {
                answer(request, &state, loopback);
                active.fetch_sub(1, Ordering::SeqCst);
            });
        }
    }
}

/// Reads, routes and answers one request.
fn answer(mut request: tiny_http::Request, state: &Arc<State>, loopback: bool) {
    if loopback && !local_host(&request) {
        // A page of another site cannot reach this one through its name
        // (DNS rebinding): only the loopback names are answered.
        return respond(request, Reply::error(403, "only local pages may ask"));
    }
    let body = match read_body(&mut request) {
        Ok(body) => body,
        Err(reply) => return respond(request, reply),
    };
    let method = request.method().as_str().to_ascii_uppercase();
    let url = request.url().to_string();
    let reply = within_limit(state, method, url, body);
    respond(request, reply);
}

/// The request's `Host` is a loopback name (or absent).
fn local_host(request: &tiny_http::Request) -> bool {
    let Some(host) = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Host"))
        .map(|h| h.value.as_str().to_ascii_lowercase())
    else {
        return true;
    };
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host.as_str(),
    };
    let name = name.trim_start_matches('[').trim_end_matches(']');
    name == "localhost" || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The body, at most [`MAX_BODY`] bytes; a bigger one is drained (so the
/// client reads the answer) and refused with 413.
fn read_body(request: &mut tiny_http::Request) -> Result<Vec<u8>, Reply> {
    let mut body = Vec::new();
    let reader = request.as_reader();
    let read = reader
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| Reply::error(400, &format!("cannot read the request: {e}")));
    read?;
    if body.len() > MAX_BODY {
        let _ = std::io::copy(&mut reader.take(4 * MAX_BODY as u64), &mut std::io::sink());
        return Err(Reply::error(
            413,
            &format!("the request is over {} MiB", MAX_BODY >> 20),
        ));
    }
    Ok(body)
}

/// The route's reply, or undecided when it is not ready by the state's
/// limit and the grace period (its work goes on, unanswered).
fn within_limit(state: &Arc<State>, method: String, url: String, body: Vec<u8>) -> Reply {
    let (send, receive) = mpsc::channel();
    let worker = Arc::clone(state);
    // The limit reaches every solver and search the route runs (the
    // library's deadline on this thread), so no work outlives it by much.
    let deadline = Instant::now() + state.limit;
    std::thread::spawn(move || {
        let reply = postfacto::sat::under(Some(deadline), || route(&worker, &method, &url, &body));
        let _ = send.send(reply);
    });
    receive
        .recv_timeout(state.limit + GRACE)
        .unwrap_or_else(|e| match e {
            mpsc::RecvTimeoutError::Timeout => Reply::error(
                503,
                &format!(
                    "undecided: no answer within the limit of {}",
                    postfacto::sat::in_seconds(state.limit)
                ),
            ),
            mpsc::RecvTimeoutError::Disconnected => {
                Reply::error(500, "internal error: the request's work stopped")
            }
        })
}

fn respond(request: tiny_http::Request, reply: Reply) {
    // Every answer with its length, never chunked: any client reads it.
    let mut response = tiny_http::Response::from_data(reply.body)
        .with_status_code(reply.status)
        .with_chunked_threshold(usize::MAX);
    for (field, value) in [
        ("Content-Type", reply.content_type),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
    ] {
        if let Ok(header) = tiny_http::Header::from_bytes(field, value) {
            response.add_header(header);
        }
    }
    // The client may have gone: nothing to tell it then.
    let _ = request.respond(response);
}
