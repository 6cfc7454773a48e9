//! Italian draughts (`shared/spec/variants.md`): short kings and men that
//! capture forwards only, as in English draughts, but captured pieces stay
//! on the board until the move ends, **men may not capture kings**, and
//! the capture to play is chosen by an order: the most pieces; then a
//! capture by a king over one by a man; then the most kings taken; then
//! the capture that meets a king earliest. A man reaching the far row is
//! crowned and the move ends there.
//!
//! The board is the mirrored 8x8 board ([`Topology::EightMirrored`]).

use crate::board::{Board, Color, Direction, Piece, Role, Square};
use crate::notation::MoveText;

use super::{Rules, StartProblem, Variant, Violation};

/// The Italian rule set.
#[derive(Clone, Copy, Debug, Default)]
pub struct Italian;

/// A complete capture and what the priority order looks at.
#[derive(Clone, Debug)]
struct Capture {
    path: Vec<Square>,
    /// The pieces taken, in order; whether each was a king.
    taken: Vec<(Square, bool)>,
    by_king: bool,
}

impl Capture {
    fn kings(&self) -> usize {
        self.taken.iter().filter(|(_, king)| *king).count()
    }

    /// How early the first king is met (`usize::MAX` without one).
    fn first_king(&self) -> usize {
        self.taken
            .iter()
            .position(|(_, king)| *king)
            .unwrap_or(usize::MAX)
    }

    fn text(&self) -> MoveText {
        MoveText::along(self.path.clone(), true).expect("jumps follow diagonals")
    }
}

/// Every complete capture of the piece on `path[0]` (lifted from
/// `board`), going on from `path`'s end with `taken` so far.
fn extend(
    board: &Board,
    piece: Piece,
    path: &mut Vec<Square>,
    taken: &mut Vec<(Square, bool)>,
    out: &mut Vec<Capture>,
) {
    let at = *path.last().expect("a path has its origin");
    let crowned = !piece.is_king() && path.len() > 1 && at.crowns(piece.color);
    let mut went_on = false;
    if !crowned {
        for dir in Direction::ALL {
            if !piece.is_king() && !piece.color.is_forward(dir) {
                continue;
            }
            let Some((over, to)) = at.jump(dir) else {
                continue;
            };
            let Some(victim) = board.get(over) else {
                continue;
            };
            let fresh = taken.iter().all(|&(s, _)| s != over);
            let allowed = piece.is_king() || !victim.is_king();
            if victim.color == piece.color || !fresh || !allowed || !board.is_empty(to) {
                continue;
            }
            went_on = true;
            path.push(to);
            taken.push((over, victim.is_king()));
            extend(board, piece, path, taken, out);
            taken.pop();
            path.pop();
        }
    }
    if !went_on && path.len() > 1 {
        out.push(Capture {
            path: path.clone(),
            taken: taken.clone(),
            by_king: piece.is_king(),
        });
    }
}

/// Every complete capture of `side`, before the priority order.
fn captures(board: &Board, side: Color) -> Vec<Capture> {
    let mut out = Vec::new();
    for from in board.squares_of(side) {
        let piece = board.get(from).expect("a square of the side holds a piece");
        let mut lifted = *board;
        lifted.set(from, None);
        extend(&lifted, piece, &mut vec![from], &mut Vec::new(), &mut out);
    }
    out
}

/// The captures the priority order keeps.
fn preferred(mut all: Vec<Capture>) -> Vec<Capture> {
    let most = all.iter().map(|c| c.taken.len()).max().unwrap_or(0);
    all.retain(|c| c.taken.len() == most);
    if all.iter().any(|c| c.by_king) {
        all.retain(|c| c.by_king);
    }
    let kings = all.iter().map(Capture::kings).max().unwrap_or(0);
    all.retain(|c| c.kings() == kings);
    let earliest = all.iter().map(Capture::first_king).min().unwrap_or(0);
    all.retain(|c| c.first_king() == earliest);
    all
}

/// Every simple move of `side`: one diagonal step to an empty square,
/// forwards for a man.
fn simple_moves(board: &Board, side: Color) -> Vec<MoveText> {
    let mut out = Vec::new();
    for from in board.squares_of(side) {
        let piece = board.get(from).expect("a square of the side holds a piece");
        for dir in Direction::ALL {
            if !piece.is_king() && !side.is_forward(dir) {
                continue;
            }
            if let Some(to) = from.step(dir).filter(|&s| board.is_empty(s)) {
                out.extend(MoveText::along(vec![from, to], false));
            }
        }
    }
    out
}

/// Why the capture `mv` of `piece` is not one of `side`'s complete
/// captures on `board`: the first leg that fails.
fn broken_capture(board: &Board, piece: Piece, mv: &MoveText) -> Violation {
    let mut lifted = *board;
    lifted.set(mv.from(), None);
    let mut taken: Vec<Square> = Vec::new();
    for (at, to) in mv.steps() {
        let Some((dir, 2)) = at.diagonal_to(to) else {
            return Violation::ManFlies { from: at, to };
        };
        if !piece.is_king() && !piece.color.is_forward(dir) {
            return Violation::ManBackwards {
                from: at,
                to,
                color: piece.color,
            };
        }
        let over = at.step(dir).expect("a jump's middle square");
        match lifted.get(over) {
            Some(victim) if victim.color != piece.color => {
                if taken.contains(&over) {
                    return Violation::AlreadyCaptured { square: over };
                }
                if victim.is_king() && !piece.is_king() {
                    return Violation::ManTakesKing { square: over };
                }
            }
            _ => {
                return Violation::NothingToJump {
                    square: over,
                    enemy: piece.color.opposite(),
                }
            }
        }
        if let Some(occupant) = lifted.get(to) {
            return Violation::Occupied {
                square: to,
                piece: occupant,
            };
        }
        taken.push(over);
    }
    Violation::NothingFits
}

impl Rules for Italian {
    fn variant(&self) -> Variant {
        Variant::Italian
    }

    fn start_problems(&self, board: &Board) -> Vec<StartProblem> {
        super::English.start_problems(board)
    }

    fn legal_moves(&self, board: &Board, side: Color) -> Vec<MoveText> {
        let all = captures(board, side);
        let mut moves: Vec<MoveText> = if all.is_empty() {
            simple_moves(board, side)
        } else {
            preferred(all).iter().map(Capture::text).collect()
        };
        moves.sort_by_key(|m| m.path().to_vec());
        moves.dedup();
        moves
    }

    fn capture_sequences(&self, board: &Board, side: Color) -> Vec<MoveText> {
        captures(board, side).iter().map(Capture::text).collect()
    }

    fn play(&self, board: &Board, side: Color, mv: &MoveText) -> Result<Board, Violation> {
        let piece = super::mover(board, side, mv.from())?;
        let all = captures(board, side);
        if !mv.is_capture() {
            if let Some(example) = all.first() {
                let first = example.path[..2].to_vec();
                return Err(Violation::CaptureAvailable {
                    example: MoveText::along(first, true).expect("a jump"),
                });
            }
            return self.play_simple(board, piece, mv);
        }
        let path = mv.path();
        let Some(capture) = all.iter().find(|c| c.path == path) else {
            if let Some(longer) = all.iter().find(|c| c.path.starts_with(path)) {
                let next = longer.taken[path.len() - 1].0;
                return Err(Violation::MustContinue {
                    at: mv.to(),
                    over: next,
                    to: longer.path[path.len()],
                });
            }
            return Err(broken_capture(board, piece, mv));
        };
        let chosen = preferred(all.clone());
        if !chosen.iter().any(|c| c.path == path) {
            return Err(Violation::NotPreferred {
                instead: chosen[0].text(),
            });
        }
        let mut next = *board;
        next.set(mv.from(), None);
        for &(square, _) in &capture.taken {
            next.set(square, None);
        }
        let king = piece.is_king() || mv.to().crowns(side);
        let role = if king { Role::King } else { Role::Man };
        next.set(mv.to(), Some(Piece::new(side, role)));
        Ok(next)
    }
}

impl Italian {
    fn play_simple(&self, board: &Board, piece: Piece, mv: &MoveText) -> Result<Board, Violation> {
        let (from, to) = (mv.from(), mv.to());
        match from.diagonal_to(to) {
            Some((dir, 1)) => {
                if !piece.is_king() && !piece.color.is_forward(dir) {
                    return Err(Violation::ManBackwards {
                        from,
                        to,
                        color: piece.color,
                    });
                }
            }
            Some(_) => return Err(Violation::ManFlies { from, to }),
            None => return Err(Violation::BadGeometry { from, to }),
        }
        if let Some(occupant) = board.get(to) {
            return Err(Violation::Occupied {
                square: to,
                piece: occupant,
            });
        }
        let mut next = *board;
        next.set(from, None);
        let king = piece.is_king() || to.crowns(piece.color);
        let role = if king { Role::King } else { Role::Man };
        next.set(to, Some(Piece::new(piece.color, role)));
        Ok(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Topology;
    use crate::notation::parse_board_on;

    fn board(text: &str) -> Board {
        parse_board_on(text, Topology::EightMirrored).unwrap()
    }

    fn moves(b: &Board, side: Color) -> Vec<String> {
        let mut moves: Vec<String> = Italian
            .legal_moves(b, side)
            .iter()
            .map(MoveText::numbered)
            .collect();
        moves.sort();
        moves
    }

    #[test]
    fn the_mirrored_board_is_numbered_from_the_top_left() {
        let t = Topology::EightMirrored;
        // Square 1 is the top left corner, drawn at column 0.
        let one = t.square(1).unwrap();
        assert_eq!(one.number(), 1);
        assert_eq!(t.from_coords(0, 0), Some(one));
        assert_eq!(t.from_coords(0, 1), None);
        assert_eq!(t.from_coords(7, 7).map(Square::number), Some(32));
        for n in 1..=32 {
            assert_eq!(t.square(n).map(|s| u32::from(s.number())), Some(n));
        }
        let opening = t.opening();
        assert_eq!(opening.row_text(0), "b-b-b-b-");
        assert_eq!(opening.row_text(7), "-w-w-w-w");
    }

    #[test]
    fn the_opening_moves() {
        let opening = Topology::EightMirrored.opening();
        assert_eq!(
            moves(&opening, Color::White),
            ["21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"]
        );
    }

    /// A board from its rows (top first), drawn as Italian boards are:
    /// dark squares where row + column is even.
    fn rows(text: [&str; 8]) -> Board {
        board(&(text.join("\n") + "\n"))
    }

    const EMPTY_EVEN: &str = ".-.-.-.-";
    const EMPTY_ODD: &str = "-.-.-.-.";

    #[test]
    fn a_man_may_not_take_a_king() {
        // A white man on 22; a black king on 18 and a black man on 19.
        let b = rows([
            EMPTY_EVEN, EMPTY_ODD, EMPTY_EVEN, EMPTY_ODD, ".-B-b-.-", "-.-w-.-.", EMPTY_EVEN,
            EMPTY_ODD,
        ]);
        assert_eq!(moves(&b, Color::White), ["22x15"]);
        assert_eq!(
            Italian.play(
                &b,
                Color::White,
                &MoveText::along(vec![sq(22), sq(13)], true).unwrap()
            ),
            Err(Violation::ManTakesKing { square: sq(18) })
        );
    }

    fn sq(n: u32) -> Square {
        Topology::EightMirrored.square(n).unwrap()
    }

    #[test]
    fn each_priority_step_decides() {
        // The most pieces: the king on 22 takes one (18), the man on 24
        // two (20, then 11).
        let most = rows([
            EMPTY_EVEN, EMPTY_ODD, ".-.-b-.-", EMPTY_ODD, ".-b-.-b-", "-.-W-.-w", EMPTY_EVEN,
            EMPTY_ODD,
        ]);
        assert_eq!(moves(&most, Color::White), ["24x15x6"]);
        // A king over a man: each takes one.
        let by_king = rows([
            EMPTY_EVEN, EMPTY_ODD, EMPTY_EVEN, EMPTY_ODD, ".-b-.-b-", "-.-W-.-w", EMPTY_EVEN,
            EMPTY_ODD,
        ]);
        assert_eq!(moves(&by_king, Color::White), ["22x13"]);
        let man = MoveText::along(vec![sq(24), sq(15)], true).unwrap();
        assert!(matches!(
            Italian.play(&by_king, Color::White, &man),
            Err(Violation::NotPreferred { .. })
        ));
        // The most kings: the king on 22 takes the man on 18 or the king on 19.
        let kings = rows([
            EMPTY_EVEN, EMPTY_ODD, EMPTY_EVEN, EMPTY_ODD, ".-b-B-.-", "-.-W-.-.", EMPTY_EVEN,
            EMPTY_ODD,
        ]);
        assert_eq!(moves(&kings, Color::White), ["22x15"]);
        // The earliest king: the king on 22 takes two either way, a man
        // then a king (18, then 10) or a king then a man (19, then 11).
        let earliest = rows([
            EMPTY_EVEN, EMPTY_ODD, ".-B-b-.-", EMPTY_ODD, ".-b-B-.-", "-.-W-.-.", EMPTY_EVEN,
            EMPTY_ODD,
        ]);
        let got = moves(&earliest, Color::White);
        assert!(got.iter().all(|m| m.starts_with("22x15")), "{got:?}");
    }
}
