//! The documents stay true to the code: every source path they name
//! exists, every `Type::item` they name is defined in that type or module
//! (found by reading the definitions, not by a substring of the sources),
//! every option they give a command is one that command's `--help` lists,
//! and the figures they tie to a constant or a default are its value.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use crate::util::{path, postfacto};

/// The commands of the binary, each with its own `--help`.
const COMMANDS: [&str; 12] = [
    "solve", "verify", "moves", "cnf", "decode", "sat", "generate", "compare", "bench", "pawns",
    "reach", "serve",
];

/// Crates whose paths the documents name but whose sources are not ours.
const EXTERNAL_CRATES: [&str; 5] = ["std", "core", "varisat", "rustsat", "proptest"];

/// The text of every document: README, docs/, encodings/ and python/ (Markdown).
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

/// `text` with every run of whitespace (line ends included) made one space.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The lines of `text` inside fenced code blocks, and the prose without them.
fn split_fences(text: &str) -> (Vec<&str>, String) {
    let (mut fenced, mut prose, mut inside) = (Vec::new(), String::new(), false);
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            inside = !inside;
        } else if inside {
            fenced.push(line);
        } else {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    (fenced, prose)
}

/// The inline code spans of `text` (fenced blocks left out), each on one line.
fn spans(text: &str) -> Vec<String> {
    let (_, prose) = split_fences(text);
    prose.split('`').skip(1).step_by(2).map(one_line).collect()
}

// ---------------------------------------------------------------------------
// Source paths

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

// ---------------------------------------------------------------------------
// Items: `Type::item` and `module::item`

/// One Rust source: the modules it belongs to (its folders and its file
/// stem, `postfacto` for the crate root) and its text with comments
/// dropped and literals blanked.
struct SourceFile {
    modules: Vec<String>,
    code: String,
}

/// Every Rust source of the crate and of the Python package.
fn source_files() -> Vec<SourceFile> {
    let mut found = Vec::new();
    for root in ["src", "python/src"] {
        let mut folders = vec![path(root)];
        while let Some(folder) = folders.pop() {
            for entry in fs::read_dir(folder).unwrap() {
                let file = entry.unwrap().path();
                if file.is_dir() {
                    folders.push(file);
                } else if file.extension().is_some_and(|e| e == "rs") {
                    let code = code_only(&fs::read_to_string(&file).unwrap());
                    let modules = modules_of(&file, &path(root));
                    found.push(SourceFile { modules, code });
                }
            }
        }
    }
    found
}

/// The modules `file` (under `root`) is part of: `src/sat/smallest.rs` is
/// in `sat` and is `smallest`; `src/lib.rs` is the crate, `postfacto`.
fn modules_of(file: &Path, root: &Path) -> Vec<String> {
    let relative: PathBuf = file.strip_prefix(root).unwrap().with_extension("");
    let mut modules: Vec<String> = relative
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .filter(|part| part != "mod")
        .collect();
    if modules == ["lib"] {
        modules = vec!["postfacto".to_string(), "crate".to_string()];
    }
    modules
}

/// `source` with comments removed and the insides of string and character
/// literals blanked, so braces and words in them count for nothing.
fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < chars.len() {
        let rest = &chars[i..];
        let skipped = match rest {
            ['/', '/', ..] => rest.iter().take_while(|&&c| c != '\n').count(),
            ['/', '*', ..] => block_comment_len(rest),
            ['"', ..] => literal_len(rest, 0),
            ['r', '"' | '#', ..] if !ident_before(&chars, i) => raw_literal_len(rest),
            ['\'', '\\', ..] | ['\'', _, '\'', ..] => literal_len(rest, 0),
            _ => 0,
        };
        if skipped == 0 {
            out.push(chars[i]);
            i += 1;
        } else {
            out.extend(
                chars[i..i + skipped]
                    .iter()
                    .map(|&c| if c == '\n' { c } else { ' ' }),
            );
            i += skipped;
        }
    }
    out
}

fn ident_before(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// The length of the (nested) block comment `rest` starts with.
fn block_comment_len(rest: &[char]) -> usize {
    let (mut depth, mut i) = (0usize, 0);
    while i < rest.len() {
        match &rest[i..] {
            ['/', '*', ..] => (depth, i) = (depth + 1, i + 2),
            ['*', '/', ..] => (depth, i) = (depth - 1, i + 2),
            _ => i += 1,
        }
        if depth == 0 {
            return i;
        }
    }
    rest.len()
}

/// The length of the string or character literal `rest` starts with
/// (after `hashes` `#`s of a raw string's opening, which come before it).
fn literal_len(rest: &[char], hashes: usize) -> usize {
    let quote = rest[0];
    let mut i = 1;
    while i < rest.len() {
        if rest[i] == '\\' && hashes == 0 {
            i += 2;
            continue;
        }
        if rest[i] == quote && rest[i + 1..].iter().take(hashes).all(|&c| c == '#') {
            return i + 1 + hashes;
        }
        i += 1;
    }
    rest.len()
}

/// The length of the raw string (`r"..."`, `r#"..."#`) `rest` starts with,
/// or 0 when `r` starts a word instead.
fn raw_literal_len(rest: &[char]) -> usize {
    let hashes = rest[1..].iter().take_while(|&&c| c == '#').count();
    if rest.get(1 + hashes) != Some(&'"') {
        return 0;
    }
    1 + hashes + literal_len(&rest[1 + hashes..], hashes)
}

/// `line` without its visibility and the qualifiers before `fn`.
fn declaration(line: &str) -> &str {
    let mut line = line.trim();
    if let Some(rest) = line.strip_prefix("pub") {
        line = match rest.strip_prefix('(') {
            Some(inner) => inner.split_once(')').map_or(rest, |(_, after)| after),
            None => rest,
        }
        .trim_start();
    }
    for qualifier in ["const fn ", "async fn ", "unsafe fn ", "extern \"C\" fn "] {
        if let Some(rest) = line.strip_prefix(qualifier) {
            return &line[line.len() - rest.len() - "fn ".len()..];
        }
    }
    line
}

/// The identifier `text` starts with.
fn leading_ident(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The name a `keyword NAME` declaration on `line` defines, if it is one.
fn declared_name<'a>(line: &'a str, keywords: &[&str]) -> Option<&'a str> {
    let line = declaration(line);
    keywords.iter().find_map(|keyword| {
        let rest = line.strip_prefix(keyword)?.strip_prefix(' ')?;
        Some(leading_ident(rest.trim_start())).filter(|name| !name.is_empty())
    })
}

/// The items a module's `code` defines at any depth (functions, types,
/// constants, modules, macros) or re-exports with `use`.
fn module_items(code: &str) -> BTreeSet<&str> {
    let keywords = [
        "fn",
        "struct",
        "enum",
        "const",
        "static",
        "type",
        "trait",
        "mod",
        "union",
        "macro_rules!",
    ];
    let mut items: BTreeSet<&str> = code
        .lines()
        .filter_map(|line| declared_name(line, &keywords))
        .collect();
    for statement in code.split(';') {
        if let Some((_, used)) = statement.split_once("use ") {
            items.extend(used.split(|c: char| !(c.is_alphanumeric() || c == '_')));
        }
    }
    items
}

/// The type a block header (`impl<T> Trait for Type<T> {`, `enum Type {`,
/// ...) is about, if `line` is one.
fn block_owner(line: &str) -> Option<&str> {
    let line = declaration(line);
    if let Some(name) = declared_name(line, &["struct", "enum", "trait", "union"]) {
        return Some(name);
    }
    let header = line
        .strip_prefix("impl")
        .filter(|rest| rest.starts_with([' ', '<']))?;
    let header = header.split('{').next().unwrap_or(header);
    let header = header.split(" where").next().unwrap_or(header);
    let target = match header.rsplit_once(" for ") {
        Some((_, target)) => target,
        None => skip_generics(header.trim_start()),
    };
    let target = target.trim().split('<').next().unwrap_or(target);
    target.rsplit("::").next().filter(|name| !name.is_empty())
}

/// `text` after the generic parameters it starts with (`<T: Ord>`).
fn skip_generics(text: &str) -> &str {
    if !text.starts_with('<') {
        return text;
    }
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        depth += match c {
            '<' => 1,
            '>' => -1,
            _ => 0,
        };
        if depth == 0 {
            return &text[i + 1..];
        }
    }
    text
}

/// The name an item line directly inside a type's block defines: a
/// method, constant or associated type, a field or a variant.
fn member_name(line: &str) -> Option<&str> {
    if let Some(name) = declared_name(line, &["fn", "const", "type"]) {
        return Some(name);
    }
    let line = declaration(line);
    let name = leading_ident(line);
    let after = line[name.len()..].trim_start();
    let ends_member = after.is_empty()
        || (after.starts_with(':') && !after.starts_with("::"))
        || after.starts_with([',', '(', '{', '=']);
    (!name.is_empty() && ends_member).then_some(name)
}

/// For each type, the members defined in its `impl`, `enum`, `struct` and
/// `trait` blocks across `files`: lines one brace deep inside the block.
fn type_members(files: &[SourceFile]) -> BTreeMap<String, BTreeSet<String>> {
    let mut members: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let mut open: Vec<(usize, String)> = Vec::new();
        let mut depth = 0usize;
        for line in file.code.lines() {
            if let Some((owner_depth, owner)) = open.last() {
                if depth == owner_depth + 1 {
                    if let Some(name) = member_name(line) {
                        members
                            .entry(owner.clone())
                            .or_default()
                            .insert(name.into());
                    }
                }
            }
            if let Some(owner) = block_owner(line).filter(|_| line.contains('{')) {
                open.push((depth, owner.to_string()));
            }
            depth += line.matches('{').count();
            depth = depth.saturating_sub(line.matches('}').count());
            open.retain(|(owner_depth, _)| *owner_depth < depth);
        }
    }
    members
}

/// The `Type::item` and `module::item` paths in the code spans of `text`.
fn item_paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for span in spans(text) {
        let span: String = span.split_whitespace().collect();
        let words = span.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'));
        for word in words {
            let parts: Vec<&str> = word.split("::").collect();
            if parts.len() > 1 && parts.iter().all(|p| !p.is_empty()) {
                found.push(word.to_string());
            }
        }
    }
    found
}

/// Why `path` names nothing, or `None` when it names an item: for
/// `Type::item`, a member of one of `Type`'s blocks; for `module::item`,
/// an item defined or re-exported in that module's files.
fn unresolved(
    path: &str,
    files: &[SourceFile],
    members: &BTreeMap<String, BTreeSet<String>>,
) -> Option<String> {
    let parts: Vec<&str> = path.split("::").collect();
    if EXTERNAL_CRATES.contains(&parts[0]) {
        return None;
    }
    let (owner, item) = (parts[parts.len() - 2], parts[parts.len() - 1]);
    if owner.starts_with(char::is_uppercase) {
        return match members.get(owner) {
            None => Some(format!("no type {owner} has a block in the sources")),
            Some(names) if !names.contains(item) => Some(format!("{owner} has no member {item}")),
            Some(_) => None,
        };
    }
    let module: Vec<&SourceFile> = files
        .iter()
        .filter(|f| f.modules.iter().any(|m| m == owner))
        .collect();
    if module.is_empty() {
        return Some(format!("there is no module {owner}"));
    }
    let defined = module.iter().any(|f| module_items(&f.code).contains(item));
    (!defined).then(|| format!("module {owner} defines no {item}"))
}

#[test]
fn items_named_in_the_documents_are_defined() {
    let files = source_files();
    let members = type_members(&files);
    let mut wrong = Vec::new();
    for (name, text) in documents() {
        for item in item_paths(&text) {
            if let Some(why) = unresolved(&item, &files, &members) {
                wrong.push(format!("{name} names `{item}`: {why}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_item_reader_finds_members_and_not_mere_words() {
    let code = code_only(
        "/// Board::ghost\npub enum Check {\n    Deepen,\n    Stop(u8),\n}\n\
         impl<T: Ord> fmt::Display for Board<T> {\n    pub(crate) const fn set(&self) {\n        \
         let inner = \"{ hidden\";\n    }\n}\nfn free() { Board::ghost(); }\n",
    );
    let files = [SourceFile {
        modules: vec!["board".into()],
        code,
    }];
    let members = type_members(&files);
    let names = |owner: &str| members[owner].iter().cloned().collect::<Vec<_>>();
    assert_eq!(names("Check"), ["Deepen", "Stop"]);
    assert_eq!(names("Board"), ["set"]);
    assert!(unresolved("Board::ghost", &files, &members).is_some());
    assert!(unresolved("board::free", &files, &members).is_none());
    assert!(unresolved("board::ghost", &files, &members).is_some());
    assert_eq!(block_owner("implied = { 1 };"), None);
}

// ---------------------------------------------------------------------------
// Options: each command's `--help`

/// The long options `postfacto <command> --help` defines (the option
/// lines themselves, not words of their descriptions).
fn defined_options(command: &str) -> BTreeSet<String> {
    let help = postfacto(&[command, "--help"], "").stdout;
    help.lines()
        .map(str::trim_start)
        .filter(|line| line.starts_with('-'))
        .flat_map(|line| {
            line.split([',', ' '])
                .take_while(|w| w.starts_with('-') || w.is_empty())
        })
        .filter_map(|word| word.strip_prefix("--"))
        .filter(|flag| !flag.is_empty())
        .map(|flag| format!("--{flag}"))
        .collect()
}

/// The `--options` in `text`.
fn options_in(text: &str) -> BTreeSet<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| w.starts_with("--") && w.as_bytes().get(2).is_some_and(u8::is_ascii_lowercase))
        .collect()
}

/// Command lines in `text` (code spans and fenced lines, `postfacto ` and
/// a prompt dropped, split at `&&` and ` | `) that start with a command
/// (or several: `solve/verify/cnf`): the commands and the rest of the line.
/// A quoted command inside one (`--against "postfacto solve -q"`) is a
/// line of its own.
fn command_lines(text: &str) -> Vec<(Vec<String>, String)> {
    let (fenced, _) = split_fences(text);
    let mut lines: Vec<String> = spans(text)
        .into_iter()
        .chain(fenced.into_iter().map(one_line))
        .collect();
    let mut found = Vec::new();
    while let Some(line) = lines.pop() {
        let pieces: Vec<&str> = line.split('"').collect();
        lines.extend(
            pieces
                .iter()
                .skip(1)
                .step_by(2)
                .map(|quoted| quoted.to_string()),
        );
        let unquoted: String = pieces.iter().step_by(2).copied().collect();
        for part in unquoted.split("&&").flat_map(|p| p.split(" | ")) {
            let part = part.trim().trim_start_matches("$ ");
            let part = part.strip_prefix("postfacto ").unwrap_or(part);
            let (head, rest) = part.split_once(' ').unwrap_or((part, ""));
            let commands: Vec<String> = head.split('/').map(str::to_string).collect();
            if commands.iter().all(|c| COMMANDS.contains(&c.as_str())) {
                found.push((commands, rest.to_string()));
            }
        }
    }
    found
}

#[test]
fn options_the_documents_give_a_command_are_in_its_help() {
    let options: BTreeMap<&str, BTreeSet<String>> =
        COMMANDS.iter().map(|&c| (c, defined_options(c))).collect();
    assert!(
        options["solve"].contains("--count-limit"),
        "{:?}",
        options["solve"]
    );
    let mut wrong = Vec::new();
    let mut checked = 0;
    for (name, text) in documents() {
        for (commands, rest) in command_lines(&text) {
            for option in options_in(&rest) {
                checked += 1;
                for command in commands
                    .iter()
                    .filter(|c| !options[c.as_str()].contains(option))
                {
                    wrong.push(format!(
                        "{name}: `{command} ... {option}`: not in its --help"
                    ));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} options found");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn options_in_the_command_reference_are_taken() {
    let taken: BTreeSet<String> = COMMANDS.iter().flat_map(|c| defined_options(c)).collect();
    let text = read("docs/cli.md");
    let named = options_in(&text);
    assert!(named.len() > 20, "{named:?}");
    for option in named {
        assert!(
            taken.contains(option),
            "docs/cli.md names {option}, which no command takes"
        );
    }
}

// ---------------------------------------------------------------------------
// Figures: what a document says a constant or a default is

/// Where the true value of a figure is.
enum Truth {
    /// The expression after `anchor` on its line of a source file.
    Source {
        file: &'static str,
        anchor: &'static str,
    },
    /// The `[default: ...]` of an option in a command's `--help`.
    Default {
        command: &'static str,
        option: &'static str,
    },
}

/// A figure a document states right after `before` (whitespace-insensitive).
struct Figure {
    doc: &'static str,
    before: &'static str,
    truth: Truth,
}

const fn in_source(
    doc: &'static str,
    before: &'static str,
    file: &'static str,
    anchor: &'static str,
) -> Figure {
    Figure {
        doc,
        before,
        truth: Truth::Source { file, anchor },
    }
}

const fn by_default(
    doc: &'static str,
    before: &'static str,
    command: &'static str,
    option: &'static str,
) -> Figure {
    Figure {
        doc,
        before,
        truth: Truth::Default { command, option },
    }
}

const EXPLAIN: &str = "src/analysis/explain.rs";
const GENERATE: &str = "src/harness/generate.rs";
const BENCH_REACH: &str = "src/harness/reach.rs";
const REACH: &str = "src/cli/reach.rs";
const REPAIR: &str = "src/analysis/repair/mod.rs";

/// The figures the documents tie to a constant or a default.
const FIGURES: [Figure; 28] = [
    in_source(
        "README.md",
        "that search runs out of its time (",
        EXPLAIN,
        "const SMALLEST: Duration = ",
    ),
    in_source(
        "encodings/explanations.md",
        "Steps 2-3 stop after ",
        EXPLAIN,
        "const MINIMISING: Duration = ",
    ),
    in_source(
        "encodings/explanations.md",
        "step 4 after ",
        EXPLAIN,
        "const SMALLEST: Duration = ",
    ),
    in_source(
        "README.md",
        "a progress line shows after ",
        "src/cli/ticker.rs",
        "const QUIET_FOR: Duration = ",
    ),
    in_source(
        "README.md",
        "and the batch has ",
        "src/cli/solve.rs",
        "const PROGRESS_FROM: usize = ",
    ),
    in_source(
        "docs/cli.md",
        "the search is bounded (",
        "src/replay.rs",
        "const MAX_FILLING_STEPS: usize = ",
    ),
    in_source(
        "docs/cli.md",
        "(default limit ",
        BENCH_REACH,
        "const BENCH_LIMIT: Duration = ",
    ),
    in_source(
        "docs/cli.md",
        "| input size | ",
        "src/request/source.rs",
        "const DEFAULT_MAX_INPUT: u64 = ",
    ),
    in_source(
        "docs/cli.md",
        "| `generate` | `--plies` ≤ ",
        GENERATE,
        "const MAX_PLIES: usize = ",
    ),
    in_source(
        "docs/cli.md",
        "`--count` ≤ ",
        GENERATE,
        "const MAX_COUNT: usize = ",
    ),
    in_source(
        "docs/cli.md",
        "`--beam` ≤ ",
        GENERATE,
        "const MAX_BEAM: usize = ",
    ),
    in_source(
        "docs/cli.md",
        "| pawns x K ≤ ",
        "src/pawns/request.rs",
        "const MAX_TOTALIZER: usize = ",
    ),
    in_source(
        "encodings/damaged.md",
        "lone `?` moves, ",
        "src/harness/damaged.rs",
        "const DAMAGED_RECORDS: usize = ",
    ),
    by_default(
        "README.md",
        "`--max-edits K` (default ",
        "solve",
        "--max-edits",
    ),
    by_default(
        "README.md",
        "Stops at \"more than N\" (default ",
        "solve",
        "--count-limit",
    ),
    by_default(
        "encodings/variants.md",
        "`bench --rules italian` (",
        "bench",
        "--count",
    ),
    by_default(
        "encodings/variants.md",
        "`bench --rules italian` (1,000 random ",
        "bench",
        "--plies",
    ),
    by_default(
        "encodings/variants.md",
        "fragments, seed ",
        "bench",
        "--seed",
    ),
    in_source(
        "docs/hard-instances.md",
        "Medians of ",
        "src/harness/hard.rs",
        "const HARD_RUNS: usize = ",
    ),
    in_source(
        "docs/cli.md",
        "the first N games of each file (at most ",
        BENCH_REACH,
        "const REACH_GAMES: usize = ",
    ),
    in_source(
        "encodings/reach.md",
        "(the counter lists them, up to ",
        "src/reach/prefix.rs",
        "const PREFIX_BOARDS: usize = ",
    ),
    in_source(
        "encodings/reach.md",
        "prints them when there are at most ",
        REACH,
        "const ALL_SHOWN: usize = ",
    ),
    in_source(
        "docs/cli.md",
        "(each printed when N <= ",
        REACH,
        "const ALL_SHOWN: usize = ",
    ),
    in_source(
        "encodings/repair.md",
        "another neighbour, ",
        "src/harness/repair.rs",
        "const REPAIR_RECORDS: usize = ",
    ),
    in_source(
        "encodings/repair.md",
        "looks at the clock every ",
        REPAIR,
        "self.steps.is_multiple_of(",
    ),
    in_source(
        "docs/cli.md",
        "watches the clock itself (every ",
        REPAIR,
        "self.steps.is_multiple_of(",
    ),
    in_source(
        "encodings/international.md",
        "`MOST_PIECES_BUDGET` = ",
        "src/encode/emitter.rs",
        "const MOST_PIECES_BUDGET: usize = ",
    ),
    in_source(
        "README.md",
        "Inputs over ",
        "src/request/source.rs",
        "const DEFAULT_MAX_INPUT: u64 = ",
    ),
];

/// The figure `text` starts with, in seconds, bytes or units: `500 ms`,
/// `2 s`, `100,000`, `256 MiB`, `a million`.
fn figure(text: &str) -> Option<f64> {
    let text = text.trim_start();
    if let Some(rest) = text.strip_prefix("a ") {
        let words = [("million", 1e6), ("second", 1.0)];
        return words
            .iter()
            .find(|(w, _)| rest.starts_with(w))
            .map(|&(_, v)| v);
    }
    let chars: Vec<char> = text.chars().collect();
    let mut end = 0;
    while end < chars.len()
        && (chars[end].is_ascii_digit()
            || ("_,.".contains(chars[end]) && chars.get(end + 1).is_some_and(char::is_ascii_digit)))
    {
        end += 1;
    }
    let digits: String = chars[..end]
        .iter()
        .filter(|c| !"_,".contains(**c))
        .collect();
    let number: f64 = digits.parse().ok()?;
    let unit: String = chars[end..].iter().collect();
    let unit = unit.strip_prefix(' ').unwrap_or(&unit);
    let scales = [("ms", 1e-3), ("µs", 1e-6), ("MiB", 1048576.0), ("s", 1.0)];
    let scale = scales
        .iter()
        .find(|(u, _)| unit.starts_with(u) && !unit[u.len()..].starts_with(char::is_alphabetic));
    Some(number * scale.map_or(1.0, |&(_, s)| s))
}

/// The value of a constant's expression: a `Duration::from_*`, a number,
/// a shift or a product.
fn evaluate(expression: &str) -> Option<f64> {
    let expression = expression.trim();
    for (call, scale) in [
        ("Duration::from_millis(", 1e-3),
        ("Duration::from_secs(", 1.0),
    ] {
        if let Some(inner) = expression.strip_prefix(call) {
            return Some(figure(inner.trim_end_matches(')'))? * scale);
        }
    }
    if let Some((a, b)) = expression.split_once("<<") {
        return Some(evaluate(a)? * 2f64.powf(evaluate(b)?));
    }
    if let Some((a, b)) = expression.split_once('*') {
        return Some(evaluate(a)? * evaluate(b)?);
    }
    figure(expression)
}

/// The value the source or the help gives for `truth`.
fn true_value(truth: &Truth) -> f64 {
    match *truth {
        Truth::Source { file, anchor } => {
            let code = read(file);
            let (_, after) = code
                .split_once(anchor)
                .unwrap_or_else(|| panic!("{file}: no {anchor}"));
            let mut expression = after.lines().next().unwrap().split(';').next().unwrap();
            while expression.matches(')').count() > expression.matches('(').count() {
                expression = &expression[..expression.rfind(')').unwrap()];
            }
            evaluate(expression).unwrap_or_else(|| panic!("{file}: cannot read {expression}"))
        }
        Truth::Default { command, option } => {
            let help = postfacto(&[command, "--help"], "").stdout;
            let defines = |l: &str| l.trim_start().starts_with('-') && l.contains(option);
            let lines = help.lines().skip_while(|l| !defines(l)).skip(1);
            let line = lines
                .take_while(|l| !l.trim_start().starts_with('-'))
                .find(|l| l.contains("[default: "));
            let line = line.unwrap_or_else(|| panic!("{command} --help: no default for {option}"));
            figure(line.split("[default: ").nth(1).unwrap()).unwrap()
        }
    }
}

#[test]
fn figures_in_the_documents_match_the_constants_and_defaults() {
    let mut wrong = Vec::new();
    for Figure { doc, before, truth } in &FIGURES {
        let text = one_line(&read(doc));
        let (_, after) = text
            .split_once(before)
            .unwrap_or_else(|| panic!("{doc} no longer says \"{before}\": update FIGURES"));
        let stated = figure(after).unwrap_or_else(|| panic!("{doc}: no figure after \"{before}\""));
        let actual = true_value(truth);
        if (stated - actual).abs() > actual.abs() * 1e-9 {
            wrong.push(format!(
                "{doc} says {stated} after \"{before}\", the code {actual}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn figures_read_as_written() {
    assert_eq!(figure("500 ms, hard"), Some(0.5));
    assert_eq!(figure("2 s)"), Some(2.0));
    assert_eq!(figure("100,000)."), Some(100_000.0));
    assert_eq!(figure("3, then"), Some(3.0));
    assert_eq!(figure("256 MiB"), Some(268_435_456.0));
    assert_eq!(figure("64 records"), Some(64.0));
    assert_eq!(evaluate("256 << 20"), Some(268_435_456.0));
    assert_eq!(evaluate("Duration::from_millis(500)"), Some(0.5));
    assert_eq!(evaluate("1_000_000"), Some(1e6));
}

// ---------------------------------------------------------------------------
// The JSON schema of `solve --format json`

#[test]
fn the_json_table_of_the_command_reference_lists_every_key_solve_prints() {
    let text = read("docs/cli.md");
    let (_, schema) = text
        .split_once("## `solve --format json`")
        .expect("docs/cli.md has the JSON schema section");
    let rows = schema.lines().filter(|l| l.starts_with("| `"));
    let first_cells = rows.filter_map(|row| row.split(" | ").next());
    let documented: BTreeSet<String> = first_cells
        .flat_map(|cell| spans(cell).into_iter())
        .collect();
    let run = postfacto(&["solve", "--format", "json", "tests/data/sample1.in"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let object: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    let printed: BTreeSet<String> = object.as_object().unwrap().keys().cloned().collect();
    assert_eq!(
        documented, printed,
        "docs/cli.md's JSON table against the keys printed"
    );
}
