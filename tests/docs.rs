//! The documents stay true to the code: every source path they name
//! exists, every `Type::item` they name is defined, and every option of
//! `docs/cli.md` is one the binary takes.

use std::collections::BTreeSet;
use std::fs;

use crate::util::{path, postfacto};

/// The text of every document: README, docs/ and encodings/ (Markdown).
fn documents() -> Vec<(String, String)> {
    let mut found = vec![("README.md".to_string(), read("README.md"))];
    for folder in ["docs", "encodings", "python"] {
        for entry in fs::read_dir(path(folder)).unwrap() {
            let file = entry.unwrap().path();
            if file.extension().is_some_and(|e| e == "md") {
                let name = format!("{folder}/{}", file.file_name().unwrap().to_string_lossy());
                found.push((name.clone(), read(&name)));
            }
        }
    }
    found
}

fn read(name: &str) -> String {
    fs::read_to_string(path(name)).unwrap()
}

/// The words of `text` inside backticks.
fn quoted(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// Every Rust source of the crate and of the Python package, concatenated.
fn sources() -> String {
    let mut all = String::new();
    let mut folders = vec![path("src"), path("python/src")];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(folder).unwrap() {
            let file = entry.unwrap().path();
            if file.is_dir() {
                folders.push(file);
            } else if file.extension().is_some_and(|e| e == "rs") {
                all.push_str(&fs::read_to_string(file).unwrap());
            }
        }
    }
    all
}

#[test]
fn source_paths_named_in_the_documents_exist() {
    for (name, text) in documents() {
        for word in text.split(|c: char| c.is_whitespace() || "`()[],;:'\"".contains(c)) {
            let word = word.trim_end_matches('.');
            if (word.starts_with("src/") || word.starts_with("python/")) && word.ends_with(".rs") {
                assert!(
                    path(word).exists(),
                    "{name} names {word}, which does not exist"
                );
            }
        }
    }
}

#[test]
fn items_named_in_the_documents_are_defined() {
    let code = sources();
    for (name, text) in documents() {
        for word in quoted(&text) {
            let parts: Vec<&str> = word.split("::").collect();
            let is_path = parts.len() > 1
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || c == '_'));
            if is_path {
                let last = parts[parts.len() - 1];
                assert!(
                    code.contains(last),
                    "{name} names `{word}`, but nothing called {last} is defined"
                );
            }
        }
    }
}

#[test]
fn options_in_the_command_reference_are_taken() {
    let mut help = String::new();
    for command in [
        "solve", "verify", "moves", "cnf", "decode", "sat", "generate", "compare", "bench",
        "pawns", "reach",
    ] {
        help.push_str(&postfacto(&[command, "--help"], "").stdout);
    }
    let text = read("docs/cli.md");
    let named: BTreeSet<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| w.starts_with("--") && w.as_bytes().get(2).is_some_and(u8::is_ascii_lowercase))
        .collect();
    assert!(named.len() > 20, "{named:?}");
    for option in named {
        assert!(
            help.contains(option),
            "docs/cli.md names {option}, which no command takes"
        );
    }
}
