//! `postfacto serve`: the binary started on port 0, its address read from
//! its first line, and its JSON API driven with a small HTTP client over
//! `TcpStream`. What the page is told must be what the other commands
//! say (`verify --pdn --format json`, `solve --format json`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

use crate::util::{path, postfacto, scratch};

const WK2003: &str = "../shared/pdn/wk2003.pdn";
const MISWRITTEN: &str = "tests/browser/miswritten.pdn";

/// A running server, stopped when dropped.
struct Served {
    child: Child,
    address: String,
}

impl Served {
    fn start(files: &[&str]) -> Served {
        Served::limited(files, "30s")
    }

    /// A server whose requests each get `limit`.
    fn limited(files: &[&str], limit: &str) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_postfacto"))
            .args(["serve", "--port", "0", "--limit", limit])
            .args(files)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .trim()
            .strip_prefix("http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("an address on the first line, not {line:?}"))
            .to_string();
        assert!(address.starts_with("127.0.0.1:"), "{address}");
        Served { child, address }
    }

    /// `method path` with `body`: the status and the body.
    fn ask(&self, method: &str, path: &str, body: &[u8]) -> (u16, String) {
        self.ask_as(method, path, body, "localhost")
    }

    fn ask_as(&self, method: &str, path: &str, body: &[u8], host: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Length: {}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        // A refused body may be cut short by the server: its answer counts.
        let _ = stream.write_all(body);
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let answer = String::from_utf8_lossy(&answer).into_owned();
        let (head, body) = answer
            .split_once("\r\n\r\n")
            .unwrap_or_else(|| panic!("an HTTP answer, not {answer:?}"));
        let status = head.split(' ').nth(1).and_then(|s| s.parse().ok());
        (status.expect("a status"), body.to_string())
    }

    fn json(&self, method: &str, path: &str, body: Value) -> (u16, Value) {
        let body = if body.is_null() {
            Vec::new()
        } else {
            body.to_string().into_bytes()
        };
        let (status, text) = self.ask(method, path, &body);
        let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        (status, value)
    }

    /// The archive in `file` opened: its id and its rows, asked for until
    /// the server has checked every game.
    fn archive(&self, file: &str) -> (String, Vec<Value>) {
        let (status, opened) = self.json("POST", "/api/archive", json!({ "file": file }));
        assert_eq!(status, 200, "{opened}");
        let id = opened["id"].as_str().unwrap().to_string();
        for _ in 0..6000 {
            let at = format!("/api/archive/{id}/rows?count=2000");
            let (status, rows) = self.json("GET", &at, Value::Null);
            assert_eq!(status, 200, "{rows}");
            let progress = &rows["progress"];
            assert_eq!(progress["games"], opened["games"]);
            if progress["done"] == true {
                let rows = rows["rows"].as_array().unwrap().clone();
                assert_eq!(json!(rows.len()), opened["games"]);
                return (id, rows);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("{file}: not checked in two minutes");
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn lines_of_json(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn the_archive_table_says_what_verify_pdn_says() {
    // More games than the server checks at a time, and rule sets inferred
    // for the whole file (goulds: games without moves or tags).
    let files = [
        WK2003,
        MISWRITTEN,
        "../shared/pdn/goulds.pdn",
        "../shared/pdn/ussr1947.pdn",
    ];
    let served = Served::start(&files);
    for file in files {
        let (_, rows) = served.archive(file);
        let run = postfacto(&["verify", "--pdn", file, "--format", "json"], "");
        let expected = lines_of_json(&run.stdout);
        assert_eq!(rows.len(), expected.len());
        for (row, game) in rows.iter().zip(&expected) {
            for key in ["status", "ply", "reason", "rules", "inferred", "line"] {
                assert_eq!(row[key], game[key], "{file} game {}: {key}", game["game"]);
            }
            assert_eq!(row["number"], game["game"]);
            assert_eq!(row["white"], game["headers"]["White"]);
        }
    }
}

#[test]
fn a_game_shows_its_boards_and_its_repair() {
    let served = Served::start(&[MISWRITTEN]);
    let (id, rows) = served.archive(MISWRITTEN);
    assert_eq!(rows[0]["status"], "illegal");
    assert_eq!(rows[0]["move"], "13. 46-42");
    let (status, game) = served.json("GET", &format!("/api/archive/{id}/game/1"), Value::Null);
    assert_eq!(status, 200, "{game}");
    let plies = game["plies"].as_array().unwrap();
    assert_eq!(plies[23]["label"], "12...");
    assert!(plies[23]["fen"].is_string(), "{}", plies[23]);
    assert!(plies[24]["illegal"].is_string(), "{}", plies[24]);
    assert!(plies[25]["fen"].is_null());
    let (status, repair) = served.json(
        "POST",
        &format!("/api/archive/{id}/game/1/repair"),
        json!({}),
    );
    assert_eq!(status, 200, "{repair}");
    assert_eq!(repair["outcome"], "repaired");
    // Read as written (46-42, issue 44 item 9), the square edit 46-41 and
    // the move 47-41 (which replays too) are two repairs of one edit.
    assert_eq!(repair["forced"], false);
    assert_eq!(repair["edits"][0]["kind"], "square");
    assert_eq!(repair["edits"][0]["read"], "46-41");
    assert_eq!(repair["edits"][0]["ply"], 25);
    let repaired = repair["pdn"].as_str().unwrap();
    let file = scratch("serve-repaired.pdn", repaired);
    let run = postfacto(&["verify", "--pdn", file.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{repaired}\n{}", run.stdout);
    let last = repair["plies"].as_array().unwrap().last().unwrap().clone();
    assert!(
        last["fen"].is_string(),
        "the repaired game replays to its end"
    );
}

#[test]
fn a_fragment_is_reconstructed_as_solve_reconstructs_it() {
    let served = Served::start(&[]);
    let text = std::fs::read_to_string(path("../shared/cases/sample1.in")).unwrap();
    let solve = |analysis: &str| {
        let body = json!({ "text": text, "analysis": analysis });
        let (status, report) = served.json("POST", "/api/solve", body);
        assert_eq!(status, 200, "{report}");
        report
    };
    let cli = |extra: &[&str]| {
        let mut args = vec!["solve", "-", "--format", "json"];
        args.extend(extra);
        let run = postfacto(&args, &text);
        let mut reports = lines_of_json(&run.stdout);
        assert_eq!(reports.len(), 1, "{args:?}: {}", run.stderr);
        reports.remove(0)
    };
    let report = solve("explain");
    let expected = cli(&["--explain"]);
    assert_eq!(report["status"], "solved");
    for key in ["start_fen", "end_fen", "forced", "moves"] {
        assert_eq!(report[key], expected[key], "{key}");
    }
    assert_eq!(solve("count")["count"], cli(&["--count"])["count"]);
    assert_eq!(
        solve("minimize")["pieces"],
        cli(&["--minimize", "pieces"])["pieces"]
    );
    let (status, cnf) = served.ask(
        "POST",
        "/api/cnf",
        json!({ "text": text }).to_string().as_bytes(),
    );
    assert_eq!(status, 200);
    assert_eq!(cnf, postfacto(&["cnf", "-"], &text).stdout);
}

#[test]
fn a_diagram_is_reached_or_said_unreachable() {
    let served = Served::start(&[]);
    let after = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15";
    let (status, reached) = served.json(
        "POST",
        "/api/reach",
        json!({ "fen": after, "rules": "english" }),
    );
    assert_eq!(status, 200, "{reached}");
    assert_eq!(reached["status"], "found");
    assert_eq!(reached["plies"][0]["played"], "11-15");
    assert_eq!(reached["plies"][0]["fen"], after);
    assert_eq!(reached["minimal"], true, "{reached}");
    // Any game (reach --any): found, ending on the diagram.
    let (status, any) = served.json(
        "POST",
        "/api/reach",
        json!({ "fen": after, "rules": "english", "any": true }),
    );
    assert_eq!(status, 200, "{any}");
    assert_eq!(any["status"], "found", "{any}");
    let plies = any["plies"].as_array().unwrap();
    assert_eq!(plies.last().unwrap()["fen"], after, "{any}");
    let thirteen = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12,13";
    let (status, refused) = served.json("POST", "/api/reach", json!({ "fen": thirteen }));
    assert_eq!(status, 200, "{refused}");
    assert_eq!(refused["status"], "impossible");
    // No rule set named, or 'auto': the position's own, as the binary's
    // `reach` reads it (squares past 32 are 10x10).
    let (status, auto) = served.json(
        "POST",
        "/api/reach",
        json!({ "fen": after, "rules": "auto" }),
    );
    assert_eq!((status, &auto["status"]), (200, &json!("found")), "{auto}");
    let international = "B:W28,31,33-50:B1-20";
    let (status, own) = served.json("POST", "/api/reach", json!({ "fen": international }));
    assert_eq!(status, 200, "{own}");
    assert_eq!(own["plies"][0]["played"], "32-28", "{own}");
    let (status, board) = served.json("POST", "/api/board", json!({ "fen": international }));
    assert_eq!(status, 200, "{board}");
    assert_eq!(board["rows"].as_array().map(Vec::len), Some(10), "{board}");
    assert!(
        refused["reason"].as_str().unwrap().contains("13"),
        "{refused}"
    );
}

#[test]
fn an_undecided_diagram_keeps_the_bound_the_binary_proves() {
    // The end of OCA game 4: no game is found within a short limit.
    let fen = "B:W11,17,20,29:B3,12,23,K30";
    let served = Served::limited(&[], "1s");
    let (status, undecided) = served.json("POST", "/api/reach", json!({ "fen": fen }));
    assert_eq!(status, 200, "{undecided}");
    assert_eq!(undecided["status"], "undecided", "{undecided}");
    let binary = postfacto(&["reach", "--limit", "1s", "--format", "json", fen], "");
    assert_eq!(binary.code, 3, "{}", binary.stderr);
    let binary: serde_json::Value = serde_json::from_str(binary.stdout.trim()).unwrap();
    let bound = undecided["lower_bound"].as_u64().unwrap();
    assert!(bound > 0, "{undecided}");
    // Both searches are cut by the clock: the bounds are of the same
    // search, and the reason says the page's own.
    assert!(binary["lower_bound"].as_u64().unwrap() > 0, "{binary}");
    let reason = undecided["reason"].as_str().unwrap();
    assert!(
        reason.contains(&format!("fewer than {bound} plies")),
        "{reason}"
    );
}

#[test]
fn bad_requests_get_a_4xx_and_a_message_and_the_server_goes_on() {
    let served = Served::start(&[WK2003]);
    let cases: [(&str, &str, Vec<u8>, u16, &str); 7] = [
        (
            "POST",
            "/api/solve",
            b"{\"text\": ".to_vec(),
            400,
            "malformed JSON",
        ),
        (
            "POST",
            "/api/archive",
            vec![b' '; (16 << 20) + 10],
            413,
            "over 16 MiB",
        ),
        (
            "POST",
            "/api/archive",
            br#"{"file": "Cargo.toml"}"#.to_vec(),
            403,
            "not a file named on the command line",
        ),
        (
            "POST",
            "/api/solve",
            br#"{"text": "B 1\n11-15\n", "rules": "frisian"}"#.to_vec(),
            400,
            "unknown rule set 'frisian'",
        ),
        (
            "POST",
            "/api/solve",
            br#"{"text": "B 1\n99-15\n"}"#.to_vec(),
            400,
            "99",
        ),
        (
            "GET",
            "/api/archive/77/rows",
            Vec::new(),
            404,
            "no archive '77'",
        ),
        ("DELETE", "/api/files", Vec::new(), 404, "no API DELETE"),
    ];
    for (method, at, body, want, said) in cases {
        let (status, text) = served.ask(method, at, &body);
        assert_eq!(status, want, "{method} {at}: {text}");
        let error: Value = serde_json::from_str(&text).unwrap();
        let message = error["error"].as_str().unwrap();
        assert!(message.contains(said), "{method} {at}: {message}");
        let (status, _) = served.ask("GET", "/api/files", b"");
        assert_eq!(status, 200, "still answering after {method} {at}");
    }
    let (status, _) = served.ask_as("GET", "/api/files", b"", "evil.example:80");
    assert_eq!(status, 403, "a page of another site under a rebound name");
}

#[test]
fn two_tabs_at_once_each_get_their_answer() {
    let served = Served::start(&[WK2003, MISWRITTEN]);
    std::thread::scope(|scope| {
        let tabs: Vec<_> = [WK2003, MISWRITTEN]
            .into_iter()
            .map(|file| {
                let served = &served;
                scope.spawn(move || served.archive(file).1.len())
            })
            .collect();
        let counts: Vec<usize> = tabs.into_iter().map(|t| t.join().unwrap()).collect();
        assert_eq!(counts, [23, 2]);
    });
    let (status, page) = served.ask("GET", "/", b"");
    assert_eq!(status, 200);
    assert!(page.contains("<table id=\"games\">"));
}
