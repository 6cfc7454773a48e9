//! Pictures: an answer as SVG, the start and end boards side by side, the
//! moves drawn as numbered arrows on the start board.

use std::fmt::Write;

use crate::board::{Board, Color, Square};
use crate::notation::{Answer, Record};
use crate::rules::Variant;

/// Side of one square, in SVG user units.
const CELL: u32 = 48;
/// Space around and between the boards (room for coordinates and titles).
const MARGIN: u32 = 32;

/// Where a picture's boards go: their left edges and their top edge
/// (lower when a name line stands above them).
#[derive(Clone, Copy)]
struct Place {
    left: u32,
    top: u32,
}

fn centre(square: Square, at: Place) -> (u32, u32) {
    (
        at.left + square.col() as u32 * CELL + CELL / 2,
        at.top + square.row() as u32 * CELL + CELL / 2,
    )
}

/// How a picture is drawn: its name, the plies not as written, and which
/// plies get arrows.
#[derive(Clone, Copy, Debug, Default)]
pub struct Picture<'a> {
    /// A name (a file, a game), on a line of its own above the boards.
    pub name: Option<&'a str>,
    /// Plies (1-based) filled in or repaired, not as written: drawn dashed,
    /// and always drawn.
    pub marked: &'a [usize],
    /// Arrows for the last this many plies only (all when `None`; none
    /// with 0): a long game's arrows are a tangle.
    pub last_plies: Option<usize>,
}

/// One board with its title and coordinates: file letters and rank
/// numbers where squares are named algebraically, else each dark square's
/// number in its corner (`37-32` can then be found).
fn draw_board(svg: &mut String, board: &Board, at: Place, title: &str, algebraic: bool) {
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" class="title">{title}</text>"#,
        at.left,
        at.top - 10
    );
    draw_squares(svg, board, at);
    if algebraic {
        draw_files_and_ranks(svg, board, at);
    } else {
        draw_square_numbers(svg, board, at);
    }
    draw_pieces(svg, board, at);
}

/// The board's squares, light and dark.
fn draw_squares(svg: &mut String, board: &Board, at: Place) {
    let n = u32::from(board.topology().size());
    for row in 0..n {
        for col in 0..n {
            let dark = (row + col) % 2 == 1;
            let _ = writeln!(
                svg,
                r#"<rect class="square {}" x="{}" y="{}" width="{CELL}" height="{CELL}"/>"#,
                if dark { "dark" } else { "light" },
                at.left + col * CELL,
                at.top + row * CELL
            );
        }
    }
}

/// File letters below the board, rank numbers left of it.
fn draw_files_and_ranks(svg: &mut String, board: &Board, at: Place) {
    let n = u32::from(board.topology().size());
    for (i, file) in "abcdefghijkl".chars().take(n as usize).enumerate() {
        let _ = writeln!(
            svg,
            r#"<text class="coord" x="{}" y="{}">{file}</text>"#,
            at.left + i as u32 * CELL + CELL / 2 - 4,
            at.top + n * CELL + 14
        );
    }
    for rank in 0..n {
        let _ = writeln!(
            svg,
            r#"<text class="coord" x="{}" y="{}">{}</text>"#,
            at.left - 14,
            at.top + rank * CELL + CELL / 2 + 4,
            n - rank
        );
    }
}

/// Each dark square's number in its corner.
fn draw_square_numbers(svg: &mut String, board: &Board, at: Place) {
    for square in board.topology().squares() {
        let _ = writeln!(
            svg,
            r#"<text class="number" x="{}" y="{}">{}</text>"#,
            at.left + square.col() as u32 * CELL + 3,
            at.top + square.row() as u32 * CELL + 11,
            square.number()
        );
    }
}

/// The pieces, a king marked `K`.
fn draw_pieces(svg: &mut String, board: &Board, at: Place) {
    for square in board.topology().squares() {
        let Some(piece) = board.get(square) else {
            continue;
        };
        let (x, y) = centre(square, at);
        let colour = match piece.color {
            Color::White => "white",
            Color::Black => "black",
        };
        let _ = writeln!(
            svg,
            r#"<circle class="piece {colour}" cx="{x}" cy="{y}" r="{}"/>"#,
            CELL * 2 / 5
        );
        if piece.is_king() {
            let _ = writeln!(
                svg,
                r#"<text class="king {colour}" x="{}" y="{}">K</text>"#,
                x - 6,
                y + 6
            );
        }
    }
}

/// The answer as an SVG document: start board with the moves as numbered
/// arrows, and the end board, side by side.
pub fn svg(answer: &Answer, record: &Record, variant: Variant) -> String {
    svg_drawn(answer, record, variant, &Picture::default())
}

/// [`svg`] drawn as `picture` says: a name line above the boards, the
/// plies not as written dashed, arrows for the last plies only.
pub fn svg_drawn(answer: &Answer, record: &Record, variant: Variant, picture: &Picture) -> String {
    let n = u32::from(answer.start.topology().size());
    let board_width = n * CELL;
    let width = 3 * MARGIN + 2 * board_width;
    let top = MARGIN + if picture.name.is_some() { NAME_LINE } else { 0 };
    let height = top + MARGIN + n * CELL;
    let start = Place { left: MARGIN, top };
    let end = Place {
        left: 2 * MARGIN + board_width,
        top,
    };
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#
    );
    let name = picture.name.map(escaped);
    if let Some(name) = &name {
        let _ = writeln!(svg, "<title>{name}</title>");
    }
    svg.push_str(STYLE);
    if let Some(name) = &name {
        let _ = writeln!(
            svg,
            r#"<text x="{MARGIN}" y="{}" class="name">{name}</text>"#,
            MARGIN - 8
        );
    }
    let drawn = drawn_plies(record.moves.len(), picture);
    let title = start_title(record, &drawn);
    let algebraic = variant.algebraic();
    draw_board(&mut svg, &answer.start, start, &title, algebraic);
    draw_board(&mut svg, &answer.end, end, "end", algebraic);
    for &ply in &drawn {
        draw_arrow(
            &mut svg,
            record,
            variant,
            ply,
            start,
            picture.marked.contains(&ply),
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// Height of the name line above the boards.
const NAME_LINE: u32 = 20;

/// The picture's style sheet and the arrow head.
const STYLE: &str = concat!(
    "<style>\n",
    ".light { fill: #f0e6d2; } .dark { fill: #8b6b4a; }\n",
    ".piece.white { fill: #fafafa; stroke: #333; stroke-width: 2; }\n",
    ".piece.black { fill: #222; stroke: #000; stroke-width: 2; }\n",
    ".king { font: bold 18px sans-serif; } .king.white { fill: #b00; } .king.black { fill: #fc0; }\n",
    ".title { font: 15px sans-serif; } .name { font: bold 15px sans-serif; } .coord { font: 12px sans-serif; fill: #555; }\n",
    ".number { font: 10px sans-serif; fill: #f0e6d2; }\n",
    ".arrow { stroke-width: 4; fill: none; opacity: 0.8; marker-end: url(#head); }\n",
    ".arrow.white { stroke: #1565c0; } .arrow.black { stroke: #c62828; }\n",
    ".arrow.marked { stroke-dasharray: 8 5; }\n",
    ".ply { font: bold 13px sans-serif; fill: #000; stroke: #fff; stroke-width: 3; paint-order: stroke; }\n",
    "</style>\n",
    "<defs><marker id=\"head\" markerWidth=\"6\" markerHeight=\"6\" refX=\"4\" refY=\"3\" orient=\"auto\">",
    "<path d=\"M0,0 L6,3 L0,6 z\" fill=\"#444\"/></marker></defs>\n",
);

/// `text` safe inside SVG text.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;")
}

/// The plies (1-based, in order) whose arrows are drawn: the last ones the
/// picture asks for, and every ply not as written.
fn drawn_plies(plies: usize, picture: &Picture) -> Vec<usize> {
    let from = picture
        .last_plies
        .map_or(1, |last| plies.saturating_sub(last) + 1);
    (1..=plies)
        .filter(|ply| *ply >= from || picture.marked.contains(ply))
        .collect()
}

/// The start board's title: who moves first, how many plies, and which
/// have arrows when not all do.
fn start_title(record: &Record, drawn: &[usize]) -> String {
    let plies = record.moves.len();
    let arrows = match drawn {
        _ if drawn.len() == plies => String::new(),
        [] => "; no arrows".to_string(),
        [one] => format!("; arrow of ply {one}"),
        [first, .., last] if last - first + 1 == drawn.len() => {
            format!("; arrows of plies {first}-{last}")
        }
        _ => format!("; arrows of {} plies", drawn.len()),
    };
    format!(
        "start ({} moves first, {plies} {}{arrows})",
        record.first.name(),
        if plies == 1 { "ply" } else { "plies" }
    )
}

/// Ply `ply`'s arrow on the start board, numbered, dashed when `marked`.
fn draw_arrow(
    svg: &mut String,
    record: &Record,
    variant: Variant,
    ply: usize,
    at: Place,
    marked: bool,
) {
    let mv = &record.moves[ply - 1];
    let colour = match record.mover(ply) {
        Color::White => "white",
        Color::Black => "black",
    };
    let points: Vec<String> = mv
        .path()
        .iter()
        .map(|&s| {
            let (x, y) = centre(s, at);
            format!("{x},{y}")
        })
        .collect();
    let (class, note) = if marked {
        (" marked", " (not as written)")
    } else {
        ("", "")
    };
    let _ = writeln!(
        svg,
        r#"<polyline class="arrow {colour}{class}" points="{}"><title>{ply} {}{note}</title></polyline>"#,
        points.join(" "),
        variant.write_move(mv)
    );
    let (x, y) = centre(mv.from(), at);
    let _ = writeln!(
        svg,
        r#"<text class="ply" x="{}" y="{}">{ply}</text>"#,
        x + 8,
        y - 10
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_answers, parse_records};

    #[test]
    fn sample_one_draws_two_boards_its_pieces_and_three_arrows() {
        let record = &parse_records(include_str!("../tests/data/sample1.in")).unwrap()[0];
        let answer = parse_answers(include_str!("../tests/data/sample1.ans")).unwrap()[0];
        let text = svg(&answer, record, Variant::English);
        assert!(text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(text.ends_with("</svg>\n"));
        assert_eq!(text.matches("<rect class=\"square").count(), 128);
        let pieces = answer.start.piece_count() + answer.end.piece_count();
        assert_eq!(
            text.matches("<circle class=\"piece").count(),
            pieces as usize
        );
        assert_eq!(text.matches("<polyline class=\"arrow").count(), 3);
        // Numbered squares, not a-h: `21-17` can be found.
        assert_eq!(text.matches("<text class=\"number\"").count(), 64);
        assert!(text.contains(">21</text>") && !text.contains(">a</text>"));
        assert!(text.contains("3 plies)"), "{text}");
    }

    #[test]
    fn a_named_picture_marks_the_plies_not_as_written() {
        let record = &parse_records(include_str!("../tests/data/sample1.in")).unwrap()[0];
        let answer = parse_answers(include_str!("../tests/data/sample1.ans")).unwrap()[0];
        let picture = Picture {
            name: Some("games.pdn: game 2"),
            marked: &[2],
            last_plies: None,
        };
        let text = svg_drawn(&answer, record, Variant::English, &picture);
        assert!(text.contains("<title>games.pdn: game 2</title>"));
        // The name on a line of its own, not in the start board's title,
        // where a long one ran into the end board's (issue 44, item 23).
        assert!(text.contains("class=\"name\">games.pdn: game 2</text>"));
        assert!(
            text.contains(">start (white moves first, 3 plies)</text>"),
            "{text}"
        );
        assert_eq!(
            text.matches("arrow white marked").count() + text.matches("arrow black marked").count(),
            1
        );
        assert!(text.contains("(not as written)"));
    }

    #[test]
    fn arrows_for_the_last_plies_only_and_every_ply_not_as_written() {
        let record = &parse_records(include_str!("../tests/data/sample1.in")).unwrap()[0];
        let answer = parse_answers(include_str!("../tests/data/sample1.ans")).unwrap()[0];
        let drawn = |last_plies, marked: &[usize]| {
            let picture = Picture {
                name: None,
                marked,
                last_plies,
            };
            svg_drawn(&answer, record, Variant::English, &picture)
        };
        let last = drawn(Some(1), &[]);
        assert_eq!(last.matches("<polyline").count(), 1);
        assert!(last.contains("<title>3 19x28</title>"), "{last}");
        assert!(last.contains("3 plies; arrow of ply 3)"), "{last}");
        let none = drawn(Some(0), &[]);
        assert_eq!(none.matches("<polyline").count(), 0);
        assert!(none.contains("; no arrows)"));
        let marked = drawn(Some(1), &[1]);
        assert_eq!(marked.matches("<polyline").count(), 2);
        assert!(marked.contains("arrows of 2 plies"));
        assert_eq!(drawn(None, &[]).matches("<polyline").count(), 3);
    }
}
