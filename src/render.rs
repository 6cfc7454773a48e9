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

fn centre(square: Square, left: u32) -> (u32, u32) {
    (
        left + square.col() as u32 * CELL + CELL / 2,
        MARGIN + square.row() as u32 * CELL + CELL / 2,
    )
}

/// One board with its title and coordinates: file letters and rank
/// numbers where squares are named algebraically, else each dark square's
/// number in its corner (`37-32` can then be found).
fn draw_board(svg: &mut String, board: &Board, left: u32, title: &str, algebraic: bool) {
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" class="title">{title}</text>"#,
        left,
        MARGIN - 10
    );
    let n = u32::from(board.topology().size());
    for row in 0..n {
        for col in 0..n {
            let dark = (row + col) % 2 == 1;
            let _ = writeln!(
                svg,
                r#"<rect class="square {}" x="{}" y="{}" width="{CELL}" height="{CELL}"/>"#,
                if dark { "dark" } else { "light" },
                left + col * CELL,
                MARGIN + row * CELL
            );
        }
    }
    if algebraic {
        for (i, file) in "abcdefghijkl".chars().take(n as usize).enumerate() {
            let _ = writeln!(
                svg,
                r#"<text class="coord" x="{}" y="{}">{file}</text>"#,
                left + i as u32 * CELL + CELL / 2 - 4,
                MARGIN + n * CELL + 14
            );
        }
        for rank in 0..n {
            let _ = writeln!(
                svg,
                r#"<text class="coord" x="{}" y="{}">{}</text>"#,
                left - 14,
                MARGIN + rank * CELL + CELL / 2 + 4,
                n - rank
            );
        }
    } else {
        for square in board.topology().squares() {
            let _ = writeln!(
                svg,
                r#"<text class="number" x="{}" y="{}">{}</text>"#,
                left + square.col() as u32 * CELL + 3,
                MARGIN + square.row() as u32 * CELL + 11,
                square.number()
            );
        }
    }
    for square in board.topology().squares() {
        let Some(piece) = board.get(square) else {
            continue;
        };
        let (x, y) = centre(square, left);
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
    svg_named(answer, record, variant, None, &[])
}

/// [`svg`] titled with `name` (a file, a game), the plies in `marked`
/// (1-based: filled in or repaired, not as written) drawn dashed.
pub fn svg_named(
    answer: &Answer,
    record: &Record,
    variant: Variant,
    name: Option<&str>,
    marked: &[usize],
) -> String {
    let n = u32::from(answer.start.topology().size());
    let board_width = n * CELL;
    let width = 3 * MARGIN + 2 * board_width;
    let height = 2 * MARGIN + n * CELL;
    let right = 2 * MARGIN + board_width;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#
    );
    if let Some(name) = name {
        let escaped = name.replace('&', "&amp;").replace('<', "&lt;");
        let _ = writeln!(svg, "<title>{escaped}</title>");
    }
    svg.push_str(concat!(
        "<style>\n",
        ".light { fill: #f0e6d2; } .dark { fill: #8b6b4a; }\n",
        ".piece.white { fill: #fafafa; stroke: #333; stroke-width: 2; }\n",
        ".piece.black { fill: #222; stroke: #000; stroke-width: 2; }\n",
        ".king { font: bold 18px sans-serif; } .king.white { fill: #b00; } .king.black { fill: #fc0; }\n",
        ".title { font: 15px sans-serif; } .coord { font: 12px sans-serif; fill: #555; }\n",
        ".number { font: 10px sans-serif; fill: #f0e6d2; }\n",
        ".arrow { stroke-width: 4; fill: none; opacity: 0.8; marker-end: url(#head); }\n",
        ".arrow.white { stroke: #1565c0; } .arrow.black { stroke: #c62828; }\n",
        ".arrow.marked { stroke-dasharray: 8 5; }\n",
        ".ply { font: bold 13px sans-serif; fill: #000; stroke: #fff; stroke-width: 3; paint-order: stroke; }\n",
        "</style>\n",
        "<defs><marker id=\"head\" markerWidth=\"6\" markerHeight=\"6\" refX=\"4\" refY=\"3\" orient=\"auto\">",
        "<path d=\"M0,0 L6,3 L0,6 z\" fill=\"#444\"/></marker></defs>\n",
    ));
    let first = record.first;
    let plies = record.moves.len();
    let title = format!(
        "{}start ({} moves first, {plies} {})",
        name.map_or(String::new(), |n| format!(
            "{}: ",
            n.replace('&', "&amp;").replace('<', "&lt;")
        )),
        first.name(),
        if plies == 1 { "ply" } else { "plies" }
    );
    let algebraic = variant.algebraic();
    draw_board(&mut svg, &answer.start, MARGIN, &title, algebraic);
    draw_board(&mut svg, &answer.end, right, "end", algebraic);
    for (i, mv) in record.moves.iter().enumerate() {
        let side = record.mover(i + 1);
        let colour = match side {
            Color::White => "white",
            Color::Black => "black",
        };
        let points: Vec<String> = mv
            .path()
            .iter()
            .map(|&s| {
                let (x, y) = centre(s, MARGIN);
                format!("{x},{y}")
            })
            .collect();
        let (class, note) = if marked.contains(&(i + 1)) {
            (" marked", " (not as written)")
        } else {
            ("", "")
        };
        let _ = writeln!(
            svg,
            r#"<polyline class="arrow {colour}{class}" points="{}"><title>{} {}{note}</title></polyline>"#,
            points.join(" "),
            i + 1,
            variant.write_move(mv)
        );
        let (x, y) = centre(mv.from(), MARGIN);
        let _ = writeln!(
            svg,
            r#"<text class="ply" x="{}" y="{}">{}</text>"#,
            x + 8,
            y - 10,
            i + 1
        );
    }
    svg.push_str("</svg>\n");
    svg
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
        let text = svg_named(
            &answer,
            record,
            Variant::English,
            Some("games.pdn: game 2"),
            &[2],
        );
        assert!(text.contains("<title>games.pdn: game 2</title>"));
        assert!(text.contains("games.pdn: game 2: start ("));
        assert_eq!(
            text.matches("arrow white marked").count() + text.matches("arrow black marked").count(),
            1
        );
        assert!(text.contains("(not as written)"));
    }
}
