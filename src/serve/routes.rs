//! Which answer each address gives: the page's files, and the JSON API
//! (`docs/serve.md` lists it). A malformed request gets a 4xx and a JSON
//! `{"error": "..."}` naming what is wrong; nothing here panics on input.

use std::fmt::Display;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::json;

use super::api::{self, FragmentAsk};
use super::archive::Archive;
use super::assets;
use postfacto::request::{BoardText, RequestError};

/// How many checked archives are kept for the page to page through (the
/// oldest is dropped first); two tabs of big files fit.
const KEPT_ARCHIVES: usize = 8;
/// Rows per page of the games table when the page asks for no count.
const PAGE: usize = 200;
/// What a handler answers: a status, a content type and the body.
#[derive(Debug)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// Its content type.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
}

impl Reply {
    fn json(value: &impl serde::Serialize) -> Reply {
        match serde_json::to_vec(value) {
            Ok(body) => Reply {
                status: 200,
                content_type: "application/json",
                body,
            },
            Err(e) => ApiError::internal(e.to_string()).reply(),
        }
    }

    /// A JSON error `{"error": message}` with `status`.
    pub fn error(status: u16, message: &str) -> Reply {
        Reply {
            status,
            content_type: "application/json",
            body: json!({ "error": message }).to_string().into_bytes(),
        }
    }
}

/// A request the API refuses, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    status: u16,
    message: String,
}

impl ApiError {
    /// A malformed request (400).
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 400,
            message: message.into(),
        }
    }

    /// Input the library cannot read (400), in its words.
    pub fn input(error: impl Display) -> ApiError {
        ApiError::bad(error.to_string())
    }

    /// Nothing there (404).
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 404,
            message: message.into(),
        }
    }

    /// Read, but nothing can be done with it (422).
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 422,
            message: message.into(),
        }
    }

    /// A bug: the library contradicted itself (500).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 500,
            message: message.into(),
        }
    }

    /// A request error by its exit status: bad input 400, impossible 422,
    /// undecided 503, internal 500.
    pub fn request(error: RequestError) -> ApiError {
        let status = match error.exit_status() {
            1 => 422,
            2 => 400,
            3 => 503,
            _ => 500,
        };
        ApiError {
            status,
            message: error.to_string(),
        }
    }

    fn reply(&self) -> Reply {
        Reply::error(self.status, &self.message)
    }
}

/// What every handler shares: the files the page may open, the time
/// limit, and the archives checked so far.
#[derive(Debug)]
pub struct State {
    files: Vec<PathBuf>,
    /// How long one request may work.
    pub limit: Duration,
    archives: Mutex<Vec<(u64, Arc<Archive>)>>,
    next_id: AtomicU64,
}

impl State {
    /// For `files` (the only ones the page may open), each request under `limit`.
    pub fn new(files: Vec<PathBuf>, limit: Duration) -> State {
        State {
            files,
            limit,
            archives: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(1),
        }
    }

    fn keep(&self, archive: Archive) -> (u64, Arc<Archive>) {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let archive = Arc::new(archive);
        let mut kept = self.archives.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() >= KEPT_ARCHIVES {
            let (_, dropped) = kept.remove(0);
            dropped.cancel();
        }
        kept.push((id, Arc::clone(&archive)));
        (id, archive)
    }

    fn archive(&self, id: &str) -> Result<Arc<Archive>, ApiError> {
        let gone = || ApiError::not_found(format!("no archive '{id}' (open it again)"));
        let id: u64 = id.parse().map_err(|_| gone())?;
        let kept = self.archives.lock().unwrap_or_else(|e| e.into_inner());
        kept.iter()
            .find(|(kept_id, _)| *kept_id == id)
            .map(|(_, archive)| Arc::clone(archive))
            .ok_or_else(gone)
    }

    /// The file named `name` on the command line, read.
    fn file(&self, name: &str) -> Result<Vec<u8>, ApiError> {
        let path = self
            .files
            .iter()
            .find(|path| path.to_string_lossy() == name)
            .ok_or_else(|| ApiError {
                status: 403,
                message: format!("'{name}' is not a file named on the command line"),
            })?;
        std::fs::read(path).map_err(|e| ApiError::not_found(format!("{name}: {e}")))
    }
}

/// The answer to `method path?query` with `body`.
pub fn route(state: &State, method: &str, url: &str, body: &[u8]) -> Reply {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    let result = match (method, segments.as_slice()) {
        ("GET", [asset]) => return assets::reply(asset),
        ("GET", ["api", "files"]) => Ok(files(state)),
        ("POST", ["api", "archive"]) => open_archive(state, body),
        ("GET", ["api", "archive", id, "rows"]) => rows(state, id, query),
        ("GET", ["api", "archive", id, "game", n]) => open_game(state, id, n),
        ("POST", ["api", "archive", id, "game", n, "repair"]) => repair(state, id, n),
        ("POST", ["api", "solve"]) => solve(state, body),
        ("POST", ["api", "cnf"]) => cnf(body),
        ("POST", ["api", "reach"]) => reach(state, body),
        ("POST", ["api", "svg"]) => picture(body),
        ("POST", ["api", "board"]) => board(body),
        ("GET", ["api", "layout"]) => layout(query),
        (_, ["api", ..]) => Err(ApiError::not_found(format!("no API {method} {path}"))),
        _ => Err(ApiError::not_found(format!("nothing at {path}"))),
    };
    result.unwrap_or_else(|e| e.reply())
}

/// `body` as the JSON of `T`.
fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::bad(format!("malformed JSON: {e}")))
}

fn files(state: &State) -> Reply {
    let names: Vec<String> = state
        .files
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let rules = postfacto::rules::Variant::ALL.map(postfacto::rules::Variant::name);
    Reply::json(&json!({ "files": names, "rules": rules }))
}

/// An archive to check: pasted or uploaded text, or a file named on the
/// command line.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArchiveAsk {
    pdn: Option<String>,
    file: Option<String>,
    name: Option<String>,
    rules: Option<String>,
}

fn open_archive(state: &State, body: &[u8]) -> Result<Reply, ApiError> {
    let ask: ArchiveAsk = parse(body)?;
    let rules = api::rules_choice(ask.rules.as_deref())?;
    let (name, bytes) = match (ask.pdn, ask.file) {
        (Some(text), None) => (
            ask.name.unwrap_or_else(|| "pasted".into()),
            text.into_bytes(),
        ),
        (None, Some(file)) => {
            let bytes = state.file(&file)?;
            (file, bytes)
        }
        _ => {
            return Err(ApiError::bad(
                "give either 'pdn' (the text) or 'file' (a name)",
            ))
        }
    };
    let archive = Archive::open(name, &bytes, rules, state.limit)?;
    let (id, archive) = state.keep(archive);
    Archive::check(&archive);
    Ok(Reply::json(&json!({
        "id": id.to_string(),
        "name": archive.name,
        "games": archive.len(),
    })))
}

/// A query's number `key`, `default` when absent.
fn query_number(query: &str, key: &str, default: usize) -> Result<usize, ApiError> {
    let Some(value) = query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
    else {
        return Ok(default);
    };
    value
        .parse()
        .map_err(|_| ApiError::bad(format!("'{key}' must be a number, not '{value}'")))
}

/// Rows of the games checked so far, with how far the check is.
fn rows(state: &State, id: &str, query: &str) -> Result<Reply, ApiError> {
    let archive = state.archive(id)?;
    let from = query_number(query, "from", 0)?;
    let count = query_number(query, "count", PAGE)?.min(10 * PAGE);
    let progress = archive.progress();
    let rows = archive.rows(from, count);
    Ok(Reply::json(&json!({
        "from": from,
        "rows": rows,
        "progress": progress,
    })))
}

fn game_number(n: &str) -> Result<usize, ApiError> {
    n.parse()
        .map_err(|_| ApiError::bad(format!("a game number, not '{n}'")))
}

fn open_game(state: &State, id: &str, n: &str) -> Result<Reply, ApiError> {
    let archive = state.archive(id)?;
    Ok(Reply::json(&api::game(&archive, game_number(n)?)?))
}

fn repair(state: &State, id: &str, n: &str) -> Result<Reply, ApiError> {
    let archive = state.archive(id)?;
    Ok(Reply::json(&api::repair(
        &archive,
        game_number(n)?,
        state.limit,
    )?))
}

/// A fragment: its text as the CLI reads a file, a rule set, an analysis.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FragmentText {
    text: String,
    rules: Option<String>,
    analysis: Option<String>,
}

fn solve(state: &State, body: &[u8]) -> Result<Reply, ApiError> {
    let ask: FragmentText = parse(body)?;
    let rules = api::rules_choice(ask.rules.as_deref())?;
    let analysis = FragmentAsk::named(ask.analysis.as_deref())?;
    Ok(Reply::json(&api::solve(
        &ask.text,
        rules,
        analysis,
        state.limit,
    )?))
}

fn cnf(body: &[u8]) -> Result<Reply, ApiError> {
    let ask: FragmentText = parse(body)?;
    let rules = api::rules_choice(ask.rules.as_deref())?;
    Ok(Reply {
        status: 200,
        content_type: "text/plain; charset=utf-8",
        body: api::cnf(&ask.text, rules)?.into_bytes(),
    })
}

/// A diagram: its FEN, or its rows and the side to move; a rule set.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Diagram {
    fen: Option<String>,
    rows: Option<Vec<String>>,
    turn: Option<String>,
    rules: Option<String>,
    /// Reach: any game, found fast, not the shortest proved (`reach --any`).
    #[serde(default)]
    any: bool,
}

impl Diagram {
    fn board(&self) -> Result<BoardText, ApiError> {
        match (&self.fen, &self.rows) {
            (Some(fen), None) => Ok(BoardText::Fen(fen.clone())),
            (None, Some(rows)) => Ok(BoardText::Rows(rows.clone())),
            _ => Err(ApiError::bad("give either 'fen' or 'rows'")),
        }
    }
}

fn reach(state: &State, body: &[u8]) -> Result<Reply, ApiError> {
    let ask: Diagram = parse(body)?;
    Ok(Reply::json(&api::reach(
        ask.board()?,
        ask.turn.as_deref(),
        ask.rules.as_deref(),
        ask.any,
        state.limit,
    )?))
}

fn board(body: &[u8]) -> Result<Reply, ApiError> {
    let ask: Diagram = parse(body)?;
    Ok(Reply::json(&api::board(
        ask.board()?,
        ask.turn.as_deref(),
        ask.rules.as_deref(),
    )?))
}

fn layout(query: &str) -> Result<Reply, ApiError> {
    let rules = query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == "rules")
        .map(|(_, v)| v);
    Ok(Reply::json(&api::layout(rules)?))
}

/// Boards to draw: a start, an end (or none), a rule set.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Boards {
    start: String,
    end: Option<String>,
    rules: Option<String>,
}

fn picture(body: &[u8]) -> Result<Reply, ApiError> {
    let ask: Boards = parse(body)?;
    Ok(Reply {
        status: 200,
        content_type: "image/svg+xml",
        body: api::picture(&ask.start, ask.end.as_deref(), ask.rules.as_deref())?.into_bytes(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> State {
        State::new(
            vec![PathBuf::from("../shared/pdn/wk2003.pdn")],
            Duration::from_secs(5),
        )
    }

    fn error_of(reply: &Reply) -> String {
        let value: serde_json::Value = serde_json::from_slice(&reply.body).unwrap();
        value["error"].as_str().unwrap().to_string()
    }

    #[test]
    fn the_page_and_its_modules_are_served_and_nothing_else() {
        let state = state();
        let page = route(&state, "GET", "/", b"");
        assert_eq!(
            (page.status, page.content_type),
            (200, "text/html; charset=utf-8")
        );
        let script = route(&state, "GET", "/app.js?v=1", b"");
        assert_eq!(script.content_type, "text/javascript; charset=utf-8");
        for path in ["/../Cargo.toml", "/src/main.rs", "/nothing.js"] {
            assert_eq!(route(&state, "GET", path, b"").status, 404, "{path}");
        }
    }

    #[test]
    fn malformed_asks_are_refused_with_what_is_wrong() {
        let state = state();
        let reply = route(&state, "POST", "/api/reach", b"{\"fen\": 3}");
        assert_eq!(reply.status, 400);
        assert!(error_of(&reply).starts_with("malformed JSON: invalid type"));
        let reply = route(
            &state,
            "POST",
            "/api/reach",
            br#"{"fen": "W:W1", "colour": "x"}"#,
        );
        assert!(error_of(&reply).contains("unknown field `colour`"));
        let reply = route(
            &state,
            "POST",
            "/api/archive",
            br#"{"file": "a", "pdn": "b"}"#,
        );
        assert_eq!(reply.status, 400);
        let reply = route(&state, "GET", "/api/archive/1/rows?from=x", b"");
        assert_eq!(reply.status, 404, "no archive yet");
        let reply = route(
            &state,
            "POST",
            "/api/solve",
            br#"{"text": "B 1\n11-15", "analysis": "all"}"#,
        );
        assert_eq!(
            error_of(&reply),
            "unknown analysis 'all' (explain, count or minimize)"
        );
    }

    #[test]
    fn only_the_files_named_are_read_and_old_archives_are_dropped() {
        let state = state();
        let reply = route(
            &state,
            "POST",
            "/api/archive",
            br#"{"file": "/etc/passwd"}"#,
        );
        assert_eq!(reply.status, 403);
        for _ in 0..=KEPT_ARCHIVES {
            let pasted = br#"{"pdn": "[GameType \"21\"]\n1. 11-15 *\n"}"#;
            assert_eq!(route(&state, "POST", "/api/archive", pasted).status, 200);
        }
        assert_eq!(route(&state, "GET", "/api/archive/1/rows", b"").status, 404);
        let last = format!("/api/archive/{}/rows?from=0&count=5", KEPT_ARCHIVES + 1);
        let reply = route(&state, "GET", &last, b"");
        assert_eq!(
            reply.status,
            200,
            "{}",
            String::from_utf8_lossy(&reply.body)
        );
    }
}
