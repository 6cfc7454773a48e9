//! The page's files, compiled into the binary: no network, no build step.

use super::routes::Reply;

/// `(name, content type, content)` of each file the page loads.
const FILES: [(&str, &str, &str); 4] = [
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("assets/index.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("assets/style.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/app.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/board.js"),
    ),
];

/// The file `name` (`""`: the page), or 404.
pub fn reply(name: &str) -> Reply {
    let name = if name.is_empty() { "index.html" } else { name };
    match FILES.iter().find(|(file, _, _)| *file == name) {
        Some((_, content_type, content)) => Reply {
            status: 200,
            content_type,
            body: content.as_bytes().to_vec(),
        },
        None => Reply::error(404, &format!("nothing at /{name}")),
    }
}
