//! English draughts as specified in `shared/spec/english.md`: men move and jump
//! forward only, kings one square in any direction, captured pieces leave the
//! board at once, capture is compulsory (any capture, not the longest), a
//! capture may not stop while the piece can jump again, and crowning ends the move.

use crate::board::{grid, Board, Color, Direction, Piece, Role, Square};
use crate::notation::MoveText;

use super::{Rules, StartProblem, Variant, Violation};

/// The English rule set.
#[derive(Clone, Copy, Debug, Default)]
pub struct English;

impl English {
    /// The first jump `piece` standing on `at` could make on `board`, as (jumped, landing).
    /// The piece itself need not be on the board (it is mid-capture).
    pub fn jump_from(board: &Board, at: Square, piece: Piece) -> Option<(Square, Square)> {
        let enemy = piece.color.opposite();
        Direction::ALL
            .into_iter()
            .filter(|&dir| piece.may_go(dir))
            .filter_map(|dir| at.jump(dir))
            .find(|&(over, to)| board.color_at(over) == Some(enemy) && board.is_empty(to))
    }

    /// True if some piece of `side` can jump: four grid bitboard tests.
    pub fn can_jump(board: &Board, side: Color) -> bool {
        // The 8x8 board's 32 squares are the low bits of its sets.
        let mine = grid::spread(board.occupied_by(side) as u64);
        let kings = mine & grid::spread(board.kings() as u64);
        let enemies = grid::spread(board.occupied_by(side.opposite()) as u64);
        let empty = !(mine | enemies);
        Direction::ALL.into_iter().any(|dir| {
            let movers = if side.is_forward(dir) { mine } else { kings };
            grid::jump_starts(movers, enemies, empty, dir) != 0
        })
    }

    /// Some single jump available to `side`, as a one-step capture, if there
    /// is any: the first by square, then by direction.
    pub fn any_jump(board: &Board, side: Color) -> Option<MoveText> {
        if !English::can_jump(board, side) {
            return None;
        }
        board.squares_of(side).find_map(|from| {
            let piece = board.get(from)?;
            let (_, to) = English::jump_from(board, from, piece)?;
            Some(MoveText::jump(vec![from, to]))
        })
    }

    /// Appends every complete capture sequence of the piece that started on
    /// `path[0]` and now stands on the last square of `path`.
    fn extend_captures(
        board: &Board,
        piece: Piece,
        path: &mut Vec<Square>,
        out: &mut Vec<MoveText>,
    ) {
        let at = *path.last().expect("path starts with the origin");
        let enemy = piece.color.opposite();
        let mut extended = false;
        for dir in Direction::ALL.into_iter().filter(|&d| piece.may_go(d)) {
            let Some((over, to)) = at.jump(dir) else {
                continue;
            };
            if board.color_at(over) != Some(enemy) || !board.is_empty(to) {
                continue;
            }
            extended = true;
            let mut next = *board;
            next.set(over, None);
            path.push(to);
            if !piece.is_king() && to.row() == piece.color.crowning_row() {
                out.push(MoveText::jump(path.clone()));
            } else {
                English::extend_captures(&next, piece, path, out);
            }
            path.pop();
        }
        if !extended && path.len() > 1 {
            out.push(MoveText::jump(path.clone()));
        }
    }
}

impl Rules for English {
    fn variant(&self) -> Variant {
        Variant::English
    }

    fn start_problems(&self, board: &Board) -> Vec<StartProblem> {
        board
            .topology()
            .squares()
            .filter_map(|square| {
                let piece = board.get(square)?;
                (!piece.is_king() && square.crowns(piece.color))
                    .then_some(StartProblem { square, piece })
            })
            .collect()
    }

    fn capture_sequences(&self, board: &Board, side: Color) -> Vec<MoveText> {
        let mut captures = Vec::new();
        for from in board.squares_of(side) {
            let piece = board.get(from).expect("square of side holds a piece");
            let mut lifted = *board;
            lifted.set(from, None);
            English::extend_captures(&lifted, piece, &mut vec![from], &mut captures);
        }
        captures
    }

    fn legal_moves(&self, board: &Board, side: Color) -> Vec<MoveText> {
        let mut captures = self.capture_sequences(board, side);
        if !captures.is_empty() {
            captures.sort_by_key(|m| m.path().to_vec());
            captures.dedup();
            return captures;
        }
        let mut simple = Vec::new();
        for from in board.squares_of(side) {
            let piece = board.get(from).expect("square of side holds a piece");
            for dir in Direction::ALL.into_iter().filter(|&d| piece.may_go(d)) {
                if let Some(to) = from.step(dir).filter(|&to| board.is_empty(to)) {
                    simple.push(MoveText::simple(from, to));
                }
            }
        }
        simple
    }

    fn play(&self, board: &Board, side: Color, mv: &MoveText) -> Result<Board, Violation> {
        let from = mv.from();
        let piece = super::mover(board, side, from)?;
        let mut next = *board;
        next.set(from, None);
        let last = mv.landings().len() - 1;
        for (i, (at, to)) in mv.steps().enumerate() {
            let wanted = if mv.is_capture() { 2 } else { 1 };
            let dir = match at.diagonal_to(to) {
                Some((dir, n)) if n == wanted => dir,
                _ => return Err(Violation::BadGeometry { from: at, to }),
            };
            if !piece.may_go(dir) {
                return Err(Violation::ManBackwards {
                    from: at,
                    to,
                    color: side,
                });
            }
            if let Some(occupant) = next.get(to) {
                return Err(Violation::Occupied {
                    square: to,
                    piece: occupant,
                });
            }
            if mv.is_capture() {
                let over = at.step(dir).expect("a jump passes over a square");
                if next.color_at(over) != Some(side.opposite()) {
                    return Err(Violation::NothingToJump {
                        square: over,
                        enemy: side.opposite(),
                    });
                }
                next.set(over, None);
                if !piece.is_king() && to.row() == side.crowning_row() && i < last {
                    return Err(Violation::CrownedMidCapture { square: to });
                }
            }
        }
        let to = mv.to();
        let crowned = !piece.is_king() && to.row() == side.crowning_row();
        if mv.is_capture() && !crowned {
            if let Some((over, land)) = English::jump_from(&next, to, piece) {
                return Err(Violation::MustContinue {
                    at: to,
                    over,
                    to: land,
                });
            }
        }
        if !mv.is_capture() {
            if let Some(example) = English::any_jump(board, side) {
                return Err(Violation::CaptureAvailable { example });
            }
        }
        let role = if crowned { Role::King } else { piece.role };
        next.set(to, Some(Piece::new(side, role)));
        Ok(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_answers;

    fn sq(n: u32) -> Square {
        Square::from_number(n).unwrap()
    }

    fn board(pieces: &[(u32, char)]) -> Board {
        let mut b = Board::empty();
        for &(n, ch) in pieces {
            b.set(sq(n), Some(Piece::from_letter(ch).unwrap()));
        }
        b
    }

    fn mv(text: &str) -> MoveText {
        text.parse().unwrap()
    }

    fn moves(b: &Board, side: Color) -> Vec<String> {
        English
            .legal_moves(b, side)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn the_bitboard_jump_test_agrees_with_square_by_square_search() {
        let mut rng = crate::random::Rng::new(7);
        let mut found = 0;
        for _ in 0..20_000 {
            let mut b = Board::empty();
            for sq in Square::all() {
                b.set(sq, Piece::ALL.get(rng.below(7)).copied());
            }
            for side in Color::ALL {
                let slow = b
                    .squares_of(side)
                    .any(|from| English::jump_from(&b, from, b.get(from).unwrap()).is_some());
                assert_eq!(English::can_jump(&b, side), slow, "{side:?}\n{b}");
                found += usize::from(slow);
            }
        }
        assert!(found > 1000 && found < 39_000, "{found}");
    }

    #[test]
    fn men_step_forward_only_and_kings_everywhere() {
        let b = board(&[(22, 'w'), (10, 'b'), (27, 'W')]);
        assert_eq!(
            moves(&b, Color::White),
            ["22-17", "22-18", "27-23", "27-24", "27-31", "27-32"]
        );
        assert_eq!(moves(&b, Color::Black), ["10-14", "10-15"]);
    }

    #[test]
    fn capture_is_compulsory_and_chains_are_complete() {
        // White man on 30 can jump 26 to 23, then 19 to 16 (two captures).
        let b = board(&[(30, 'w'), (26, 'b'), (19, 'b'), (32, 'w')]);
        assert_eq!(moves(&b, Color::White), ["30x23x16"]);
        let err = English.play(&b, Color::White, &mv("32-28")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "a capture is available (30x23), so the move must be a capture"
        );
        let err = English.play(&b, Color::White, &mv("30x23")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the capture must go on: the piece on 23 can still jump 19 to 16"
        );
        let after = English.play(&b, Color::White, &mv("30x23x16")).unwrap();
        assert_eq!(after, board(&[(16, 'w'), (32, 'w')]));
    }

    #[test]
    fn crowning_ends_the_move() {
        // Black man on 22 jumps 26 to 31 (row 7) and is crowned; it may not go on over 27.
        let b = board(&[(22, 'b'), (26, 'w'), (27, 'w')]);
        assert_eq!(moves(&b, Color::Black), ["22x31"]);
        let after = English.play(&b, Color::Black, &mv("22x31")).unwrap();
        assert_eq!(after.get(sq(31)), Some(Piece::from_letter('B').unwrap()));
        let err = English.play(&b, Color::Black, &mv("22x31x24")).unwrap_err();
        assert!(matches!(err, Violation::CrownedMidCapture { .. }), "{err}");
        // A king on 22 does go on.
        let b = board(&[(22, 'B'), (26, 'w'), (27, 'w')]);
        assert_eq!(moves(&b, Color::Black), ["22x31x24"]);
    }

    #[test]
    fn a_king_may_end_on_its_own_start_square() {
        // Black king on 2 jumps 7, 15, 14 and 6 in a diamond and lands on 2 again.
        let b = board(&[(2, 'B'), (6, 'w'), (7, 'w'), (14, 'w'), (15, 'w')]);
        assert_eq!(moves(&b, Color::Black), ["2x9x18x11x2", "2x11x18x9x2"]);
        let after = English.play(&b, Color::Black, &mv("2x11x18x9x2")).unwrap();
        assert_eq!(after, board(&[(2, 'B')]));
    }

    #[test]
    fn named_violations() {
        let b = board(&[(21, 'w'), (13, 'b')]);
        let cases = [
            (
                Color::White,
                "22-17",
                "square 22 is empty, there is no white piece to move",
            ),
            (
                Color::White,
                "13-17",
                "square 13 holds a black man, but it is White's move",
            ),
            (
                Color::White,
                "21-25",
                "a white man cannot move backwards (21 to 25)",
            ),
            (Color::Black, "13-17", "square 17 is occupied"),
            (
                Color::White,
                "21x14",
                "square 17 holds no black piece to jump",
            ),
        ];
        let b2 = {
            let mut b2 = b;
            b2.set(sq(17), Some(Piece::from_letter('w').unwrap()));
            b2
        };
        for (i, (side, text, want)) in cases.into_iter().enumerate() {
            let on = if i == 3 { &b2 } else { &b };
            let err = English.play(on, side, &mv(text)).unwrap_err().to_string();
            assert!(err.starts_with(want), "{text}: {err}");
        }
    }

    #[test]
    fn start_board_row_rule() {
        let b = board(&[(30, 'b'), (2, 'w'), (31, 'B'), (3, 'W'), (4, 'b')]);
        let problems = English.start_problems(&b);
        let squares: Vec<u8> = problems.iter().map(|p| p.square.number()).collect();
        assert_eq!(squares, [2, 30]);
    }

    #[test]
    fn sample_answers_replay() {
        let ans = parse_answers(include_str!("../../tests/data/sample1.ans")).unwrap()[0];
        let mut b = ans.start;
        for (i, text) in ["21-17", "13x22x31x24", "19x28"].into_iter().enumerate() {
            let side = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            b = English.play(&b, side, &mv(text)).unwrap();
        }
        assert_eq!(b, ans.end);
    }
}
