//! PDN FEN strings: `W:W21,22,K19:B13,K1` (side to move, then each colour's
//! squares, `K` before kings). English uses square numbers, Russian algebraic
//! squares (`W:Wa1,c3:Bd6`), as PDN does for each game type.

use crate::board::{Board, Color, ParseSquareError, Piece, Role, Square, Topology};

/// The FEN of `board` with `turn` to move; `algebraic` names squares `c3`.
pub fn to_fen(board: &Board, turn: Color, algebraic: bool) -> String {
    let name = |s: Square| {
        if algebraic {
            s.algebraic()
        } else {
            s.number().to_string()
        }
    };
    let side = |color: Color| {
        // In the order of the squares' numbers, which boards numbered from
        // another corner (Italian, Spanish) do not store them in.
        let mut squares: Vec<Square> = board.squares_of(color).collect();
        squares.sort_by_key(|s| s.number());
        let squares: Vec<String> = squares
            .into_iter()
            .map(|s| {
                let king = board.get(s).is_some_and(Piece::is_king);
                format!("{}{}", if king { "K" } else { "" }, name(s))
            })
            .collect();
        format!("{}{}", color.letter(), squares.join(","))
    };
    format!(
        "{}:{}:{}",
        turn.letter(),
        side(Color::White),
        side(Color::Black)
    )
}

/// Why a FEN string could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("FEN '{text}': {reason}")]
pub struct ParseFenError {
    /// The FEN text.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

/// Reads a FEN string (numbers or algebraic squares; ranges such as `1-12`
/// are accepted, as PDN allows); the side to move and the board.
///
/// # Errors
/// What is wrong with the text.
pub fn parse_fen(text: &str) -> Result<(Color, Board), ParseFenError> {
    parse_fen_on(text, Topology::Eight)
}

/// [`parse_fen`] on `topology`'s board (10x10 squares are numbers 1..50).
///
/// Real files are lenient and so is this: spaces anywhere, dots after a
/// square or at the end (`B12.`), ranges (`W31-50`, `K1-3`), `K`
/// before a king, a side to move in either case, empty fields.
///
/// # Errors
/// What is wrong with the text.
pub fn parse_fen_on(text: &str, topology: Topology) -> Result<(Color, Board), ParseFenError> {
    let error = |reason: String| ParseFenError {
        text: text.to_string(),
        reason,
    };
    let trimmed = text.trim().trim_matches('"');
    let mut parts = trimmed.split(':');
    let turn = parts
        .next()
        .map(|t| t.trim().trim_end_matches('.').to_ascii_uppercase())
        .and_then(|t| Color::from_letter(&t))
        .ok_or_else(|| error("it must start with the side to move, W or B".into()))?;
    let mut board = Board::empty_on(topology);
    let mut lists = 0;
    for part in parts {
        let part = part.trim().trim_matches('.');
        let mut chars = part.chars();
        let Some(letter) = chars.next() else {
            continue;
        };
        if is_clock(part) {
            continue;
        }
        // Either case, as the side to move is read.
        let color = Color::from_letter(&letter.to_ascii_uppercase().to_string())
            .ok_or_else(|| error(format!("'{part}' must start with W or B")))?;
        lists += 1;
        let items = chars
            .as_str()
            .split(',')
            .map(|i| i.trim().trim_matches('.').trim())
            .filter(|i| !i.is_empty());
        for item in items {
            let (role, squares) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (Role::King, rest.trim()),
                None => (Role::Man, item),
            };
            for square in fen_squares(squares, topology).map_err(|e| error(e.to_string()))? {
                let piece = Piece::new(color, role);
                match board.get(square) {
                    Some(other) if other != piece => {
                        return Err(error(format!(
                            "square {square} is given both a {} and a {}",
                            other.describe(),
                            piece.describe()
                        )))
                    }
                    _ => board.set(square, Some(piece)),
                }
            }
        }
    }
    if lists == 0 {
        return Err(error(
            "it lists no pieces (expected a W and a B field, even empty: 'W:W:B')".into(),
        ));
    }
    Ok((turn, board))
}

/// Lidraughts' fields, the half-move clock `H0` and the move number `F1`
/// (written after the pieces; skipped wherever they stand): nothing a
/// position needs.
fn is_clock(part: &str) -> bool {
    let mut chars = part.chars();
    matches!(chars.next(), Some('H' | 'F'))
        && !chars.as_str().is_empty()
        && chars.as_str().bytes().all(|b| b.is_ascii_digit())
}

/// Why one FEN item names no squares.
#[derive(Debug, thiserror::Error)]
enum FenItemError {
    /// A single square that is not one of the board's.
    #[error(transparent)]
    Square(#[from] ParseSquareError),
    /// A range `a-b` with an end that is not a square: that end's error.
    #[error("the range '{range}': {end}")]
    Range {
        /// The range as written.
        range: String,
        /// Why its end is not a square.
        end: ParseSquareError,
    },
}

/// The squares of one FEN item: a square, or a range `a-b` of numbers.
fn fen_squares(item: &str, topology: Topology) -> Result<Vec<Square>, FenItemError> {
    let Some((a, b)) = item.split_once('-') else {
        return Ok(vec![topology.parse_square(item)?]);
    };
    let end = |square: &str| {
        topology
            .parse_square(square.trim())
            .map_err(|end| FenItemError::Range {
                range: item.to_string(),
                end,
            })
    };
    let (a, b) = (end(a)?, end(b)?);
    let (low, high) = (a.number().min(b.number()), a.number().max(b.number()));
    Ok((low..=high)
        .filter_map(|n| topology.square(n.into()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_in_both_square_names() {
        let mut board = Board::empty();
        board.set(
            Square::from_number(21).unwrap(),
            Some(Piece::new(Color::White, Role::Man)),
        );
        board.set(
            Square::from_number(19).unwrap(),
            Some(Piece::new(Color::White, Role::King)),
        );
        board.set(
            Square::from_number(13).unwrap(),
            Some(Piece::new(Color::Black, Role::Man)),
        );
        board.set(
            Square::from_number(1).unwrap(),
            Some(Piece::new(Color::Black, Role::King)),
        );
        let numbers = to_fen(&board, Color::White, false);
        assert_eq!(numbers, "W:WK19,21:BK1,13");
        assert_eq!(parse_fen(&numbers), Ok((Color::White, board)));
        let algebraic = to_fen(&board, Color::Black, true);
        assert_eq!(algebraic, "B:WKf4,a3:BKb8,a5");
        assert_eq!(parse_fen(&algebraic), Ok((Color::Black, board)));
    }

    #[test]
    fn reads_ranges_and_refuses_garbage() {
        let (turn, board) = parse_fen("B:W21-32:B1-12").unwrap();
        assert_eq!(turn, Color::Black);
        assert_eq!(board, Board::opening());
        for bad in ["", "X:W1", "W:Q1", "W:W33", "W:W1-x", "W:", "B"] {
            assert!(parse_fen(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_fen("W:W:B").unwrap().1, Board::empty());
    }

    #[test]
    fn a_square_given_to_two_pieces_is_refused_and_lidraughts_clocks_are_skipped() {
        let both = parse_fen("W:W21,22:B22").unwrap_err();
        assert!(
            both.reason
                .contains("square 22 is given both a white man and a black man"),
            "{both}"
        );
        assert!(parse_fen("W:W22:BK22").is_err());
        assert!(parse_fen("W:W22,K22:B1").is_err());
        assert_eq!(parse_fen("W:W22,22:B1"), parse_fen("W:W22:B1"));
        let lidraughts = parse_fen_on("W:W31-50:B1-20:H0:F1", Topology::Ten).unwrap();
        assert_eq!(
            lidraughts,
            parse_fen_on("W:W31-50:B1-20", Topology::Ten).unwrap()
        );
        assert!(parse_fen("W:W21:B1:H").is_err());
        assert_eq!(parse_fen("w:w21:bk1"), parse_fen("W:W21:BK1"));
    }
}
