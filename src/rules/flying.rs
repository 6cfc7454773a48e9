//! The flying-king rule sets, one capture engine for all of them: what
//! tells them apart is their [`Movement`] row of the rule table.
//!
//! Russian draughts (`shared/spec/russian.md`): men step forward but capture
//! in all four directions, kings fly along diagonals, captured pieces stay on
//! the board (blocking, and not capturable again) until the move ends, a man
//! crowned mid-capture goes on capturing as a king, and any capture sequence
//! may be chosen, but a capture must go on while it can; a flying king must
//! land where it can go on, if any landing square allows it.
//!
//! International (10x10) and Brazilian (8x8) draughts
//! (`shared/spec/international.md`) differ in two rules: the side to move
//! must take the largest number of pieces possible (the *majority capture*;
//! a king counts as one piece), so a king lands wherever the maximum allows,
//! and a man that passes the far row mid-capture stays a man.
//!
//! American pool and Czech draughts (`shared/spec/variants.md`): pool is
//! Russian without crowning mid-capture and without the king's landing
//! rule; Czech men capture forwards only, and a king must capture when a
//! king can.

use crate::board::{Bits, Board, Color, Direction, Piece, Role, Square};
use crate::notation::MoveText;

use super::{Movement, Priority, Rules, StartProblem, Variant, Violation};

/// The Russian rule set.
#[derive(Clone, Copy, Debug, Default)]
pub struct Russian;

/// The International rule set (10x10, majority capture).
#[derive(Clone, Copy, Debug, Default)]
pub struct International;

/// The Brazilian rule set (International rules on the 8x8 board).
#[derive(Clone, Copy, Debug, Default)]
pub struct Brazilian;

/// The American pool checkers rule set.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pool;

/// The Czech rule set.
#[derive(Clone, Copy, Debug, Default)]
pub struct Czech;

/// The Spanish rule set.
#[derive(Clone, Copy, Debug, Default)]
pub struct Spanish;

/// The Portuguese rule set.
#[derive(Clone, Copy, Debug, Default)]
pub struct Portuguese;

/// The Canadian rule set (International rules on the 12x12 board).
#[derive(Clone, Copy, Debug, Default)]
pub struct Canadian;

/// The capture engine of one flying-king rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Policy(Movement);

/// A piece in the middle of a capture: where it is, what it is now, and the
/// squares whose pieces it has taken (still on the board until the move ends).
#[derive(Clone, Copy, Debug)]
struct Capturing {
    at: Square,
    color: Color,
    king: bool,
    captured: Bits,
    movement: Movement,
}

/// One jump a capturing piece can make: the piece it takes and where it may land.
#[derive(Clone, Debug)]
struct Jump {
    over: Square,
    landings: Vec<Square>,
}

impl Capturing {
    /// Whether [`Capturing::jumps`] would find a jump, without building them:
    /// the question every simple move and every stop asks.
    fn can_jump(&self, board: &Board) -> bool {
        let enemy = self.color.opposite();
        Direction::ALL.into_iter().any(|dir| {
            if !self.may_capture_towards(dir) {
                return false;
            }
            let mut at = self.at.step(dir);
            if self.king {
                while let Some(s) = at.filter(|&s| board.is_empty(s)) {
                    at = s.step(dir);
                }
            }
            let Some(over) = at else { return false };
            board.color_at(over) == Some(enemy)
                && self.captured & over.bit() == 0
                && over.step(dir).is_some_and(|s| board.is_empty(s))
        })
    }

    /// Every jump from here on `board` (the board without the moving piece,
    /// with the pieces captured so far still on it).
    fn jumps(&self, board: &Board) -> Vec<Jump> {
        let enemy = self.color.opposite();
        let mut out = Vec::new();
        for dir in Direction::ALL {
            if !self.may_capture_towards(dir) {
                continue;
            }
            let mut at = self.at.step(dir);
            if self.king {
                while let Some(s) = at.filter(|&s| board.is_empty(s)) {
                    at = s.step(dir);
                }
            }
            let Some(over) = at else { continue };
            if board.color_at(over) != Some(enemy) || self.captured & over.bit() != 0 {
                continue;
            }
            let mut landings = Vec::new();
            let mut next = over.step(dir);
            while let Some(s) = next.filter(|&s| board.is_empty(s)) {
                landings.push(s);
                if !self.king {
                    break;
                }
                next = s.step(dir);
            }
            if !landings.is_empty() {
                out.push(Jump { over, landings });
            }
        }
        out
    }

    /// Whether the piece may capture in `dir` (a king always; a man as the
    /// rules say).
    fn may_capture_towards(&self, dir: Direction) -> bool {
        self.king || self.movement.man_captures(self.color, dir)
    }

    /// The piece after jumping `over` and landing on `to` (crowned there
    /// only where the rules crown mid-capture).
    fn after(&self, over: Square, to: Square) -> Capturing {
        let crowned =
            self.movement.crowning == super::Crowning::ContinuesAsKing && to.crowns(self.color);
        Capturing {
            at: to,
            king: self.king || crowned,
            captured: self.captured | over.bit(),
            ..*self
        }
    }

    /// The landings of `jump` the rules allow: those from which the capture
    /// can go on, if there are any, else all of them. The flag says whether
    /// the capture must go on from them.
    fn allowed_landings(&self, board: &Board, jump: &Jump) -> (Vec<Square>, bool) {
        let going_on: Vec<Square> = jump
            .landings
            .iter()
            .copied()
            .filter(|&to| !self.after(jump.over, to).jumps(board).is_empty())
            .collect();
        if going_on.is_empty() {
            (jump.landings.clone(), false)
        } else {
            (going_on, true)
        }
    }

    /// Appends every complete capture from here to `out`; `path` holds the
    /// landings so far, starting with the origin.
    fn complete(&self, board: &Board, path: &mut Vec<Square>, out: &mut Vec<MoveText>) {
        for jump in self.jumps(board) {
            let (landings, going_on) = match self.movement.king_lands_to_continue {
                true => self.allowed_landings(board, &jump),
                false => {
                    // Every landing; the maximum decides among the sequences.
                    for to in jump.landings {
                        path.push(to);
                        let next = self.after(jump.over, to);
                        if next.jumps(board).is_empty() {
                            out.push(
                                MoveText::along(path.clone(), true)
                                    .expect("jumps follow diagonals"),
                            );
                        } else {
                            next.complete(board, path, out);
                        }
                        path.pop();
                    }
                    continue;
                }
            };
            for to in landings {
                path.push(to);
                if going_on {
                    self.after(jump.over, to).complete(board, path, out);
                } else {
                    out.push(MoveText::along(path.clone(), true).expect("jumps follow diagonals"));
                }
                path.pop();
            }
        }
    }
}

impl Policy {
    /// The board without the piece on `from`, and that piece about to capture.
    fn lift(self, board: &Board, from: Square, piece: Piece) -> (Board, Capturing) {
        let mut lifted = *board;
        lifted.set(from, None);
        let capturing = Capturing {
            at: from,
            color: piece.color,
            king: piece.is_king(),
            captured: 0,
            movement: self.0,
        };
        (lifted, capturing)
    }

    /// Every complete capture sequence of `side` (before the maximum is applied).
    fn captures(self, board: &Board, side: Color) -> Vec<MoveText> {
        let mut captures = Vec::new();
        for from in board.squares_of(side) {
            let piece = board.get(from).expect("square of side holds a piece");
            let (lifted, capturing) = self.lift(board, from, piece);
            capturing.complete(&lifted, &mut vec![from], &mut captures);
        }
        captures
    }

    /// Keeps, of `captures` (every complete capture of `side` on
    /// `board`), those the priority lets it choose.
    fn keep_chosen(self, board: &Board, captures: &mut Vec<MoveText>) {
        let priority = self.0.priority;
        match priority {
            Priority::Free => {}
            // No flying rule set has the Italian order; the most pieces
            // is its first step.
            Priority::MostPieces | Priority::ItalianOrder | Priority::MostPiecesThenKings => {
                keep_most(captures, |c| c.landings().len());
                if priority == Priority::MostPiecesThenKings {
                    keep_most(captures, |c| kings_taken(board, c.path()));
                }
            }
            Priority::KingFirst => {
                let by_king = |c: &MoveText| board.get(c.from()).is_some_and(|p| p.is_king());
                if captures.iter().any(by_king) {
                    captures.retain(by_king);
                }
            }
        }
    }

    fn legal_moves(self, board: &Board, side: Color) -> Vec<MoveText> {
        let mut captures = self.captures(board, side);
        self.keep_chosen(board, &mut captures);
        let mut moves = if captures.is_empty() {
            let mut simple = Vec::new();
            for from in board.squares_of(side) {
                let piece = board.get(from).expect("square of side holds a piece");
                Policy::simple_moves(board, from, piece, &mut simple);
            }
            simple
        } else {
            captures
        };
        // Captures of different pieces along the same landings are one move as written.
        moves.sort_by_key(|m| m.path().to_vec());
        moves.dedup();
        moves
    }

    /// The capture `mv` by `piece` is one the rules let `side` choose.
    ///
    /// # Errors
    /// [`Violation::NotTheMost`], [`Violation::NotTheMostKings`] or
    /// [`Violation::KingMustCapture`].
    fn check_priority(
        self,
        board: &Board,
        side: Color,
        mv: &MoveText,
        piece: Piece,
    ) -> Result<(), Violation> {
        match self.0.priority {
            Priority::Free => Ok(()),
            Priority::MostPieces | Priority::ItalianOrder | Priority::MostPiecesThenKings => {
                let mut chosen = self.captures(board, side);
                self.keep_chosen(board, &mut chosen);
                let Some(best) = chosen.first() else {
                    return Ok(());
                };
                let (taken, most) = (mv.landings().len(), best.landings().len());
                if taken < most {
                    return Err(Violation::NotTheMost { taken, most });
                }
                if self.0.priority == Priority::MostPiecesThenKings {
                    let kings = kings_taken(board, mv.path());
                    let most_kings = kings_taken(board, best.path());
                    if kings < most_kings {
                        return Err(Violation::NotTheMostKings {
                            taken,
                            kings,
                            most_kings,
                        });
                    }
                }
                Ok(())
            }
            Priority::KingFirst if piece.is_king() => Ok(()),
            Priority::KingFirst => match self.king_capture(board, side) {
                Some(example) => Err(Violation::KingMustCapture { example }),
                None => Ok(()),
            },
        }
    }

    /// Some capture by a king of `side`, if one is available (its
    /// first jump).
    fn king_capture(self, board: &Board, side: Color) -> Option<MoveText> {
        board.squares_of(side).find_map(|from| {
            let piece = board.get(from).filter(|p| p.is_king())?;
            let (lifted, capturing) = self.lift(board, from, piece);
            let jump = capturing.jumps(&lifted).into_iter().next()?;
            MoveText::along(vec![from, jump.landings[0]], true)
        })
    }
}

/// Keeps the items of `items` with the greatest `key`.
fn keep_most<T>(items: &mut Vec<T>, key: impl Fn(&T) -> usize) {
    let most = items.iter().map(&key).max();
    items.retain(|item| Some(key(item)) == most);
}

/// How many kings a capture along `path` takes on `board` (the board
/// before it).
fn kings_taken(board: &Board, path: &[Square]) -> usize {
    super::taken_squares(board, path).map_or(0, |taken| {
        taken
            .into_iter()
            .filter(|&s| board.get(s).is_some_and(|p| p.is_king()))
            .count()
    })
}

impl Policy {
    /// Some capture available to `side` (its first jump), if there is any.
    fn any_capture(self, board: &Board, side: Color) -> Option<MoveText> {
        // A piece's own square is never on its way out, so the board need
        // not be lifted just to ask; the example is built only if needed.
        let can = |from: Square| {
            board.get(from).is_some_and(|piece| {
                let (_, capturing) = self.lift(board, from, piece);
                capturing.can_jump(board)
            })
        };
        if !board.squares_of(side).any(can) {
            return None;
        }
        board.squares_of(side).find_map(|from| {
            let (lifted, piece) = self.lift(board, from, board.get(from)?);
            let jump = piece.jumps(&lifted).into_iter().next()?;
            MoveText::along(vec![from, jump.landings[0]], true)
        })
    }

    fn simple_moves(board: &Board, from: Square, piece: Piece, out: &mut Vec<MoveText>) {
        for dir in Direction::ALL {
            if !piece.is_king() && !piece.color.is_forward(dir) {
                continue;
            }
            let mut next = from.step(dir);
            while let Some(to) = next.filter(|&s| board.is_empty(s)) {
                out.push(MoveText::along(vec![from, to], false).expect("steps follow diagonals"));
                if !piece.is_king() {
                    break;
                }
                next = to.step(dir);
            }
        }
    }
}

/// A flying-king rule set as a [`Rules`] object: its variant, whose row of
/// the rule table is its policy.
macro_rules! flying_rules {
    ($rules:ident, $variant:expr) => {
        impl Rules for $rules {
            fn variant(&self) -> Variant {
                $variant
            }

            fn start_problems(&self, board: &Board) -> Vec<StartProblem> {
                super::English.start_problems(board)
            }

            fn legal_moves(&self, board: &Board, side: Color) -> Vec<MoveText> {
                Policy(Movement::of($variant)).legal_moves(board, side)
            }

            fn capture_sequences(&self, board: &Board, side: Color) -> Vec<MoveText> {
                Policy(Movement::of($variant)).captures(board, side)
            }

            fn play(&self, board: &Board, side: Color, mv: &MoveText) -> Result<Board, Violation> {
                Policy(Movement::of($variant)).play(board, side, mv)
            }
        }
    };
}

flying_rules!(Russian, Variant::Russian);
flying_rules!(International, Variant::International);
flying_rules!(Brazilian, Variant::Brazilian);
flying_rules!(Pool, Variant::Pool);
flying_rules!(Czech, Variant::Czech);
flying_rules!(Spanish, Variant::Spanish);
flying_rules!(Portuguese, Variant::Portuguese);
flying_rules!(Canadian, Variant::Canadian);

/// One step of a move: from `at` to `to` along `dir`, over the squares
/// `between`, on the board as it stands `during` the move.
struct Step<'s> {
    at: Square,
    to: Square,
    dir: Direction,
    distance: u8,
    between: &'s [Square],
    during: &'s Board,
}

impl Policy {
    /// `mv` played by `side`, checked step by step, then as a whole (a
    /// capture that could go on, a capture of lower priority, a slide
    /// while a capture is available).
    fn play(self, board: &Board, side: Color, mv: &MoveText) -> Result<Board, Violation> {
        let from = mv.from();
        let piece = super::mover(board, side, from)?;
        let (during, mut capturing) = self.lift(board, from, piece);
        let mut next = during;
        for (at, to) in mv.steps() {
            let Some((dir, distance)) = at.diagonal_to(to) else {
                return Err(Violation::BadGeometry { from: at, to });
            };
            let between: Vec<Square> = std::iter::successors(at.step(dir), |s| s.step(dir))
                .take_while(|&s| s != to)
                .collect();
            let step = Step {
                at,
                to,
                dir,
                distance,
                between: &between,
                during: &during,
            };
            if mv.is_capture() {
                let last = to == mv.to() && at == mv.path()[mv.path().len() - 2];
                let over = self.jump(&step, side, &capturing, last)?;
                capturing = capturing.after(over, to);
                next.set(over, None);
            } else {
                slide(&step, side, piece)?;
            }
        }
        self.whole_move(board, &during, (side, piece), mv, capturing)?;
        let to = mv.to();
        let king = piece.is_king() || capturing.king || to.crowns(side);
        let role = if king { Role::King } else { Role::Man };
        next.set(to, Some(Piece::new(side, role)));
        Ok(next)
    }

    /// The piece one capturing step jumps, checked: one enemy piece not
    /// yet captured between, an empty landing, at the distance the
    /// capturing piece may fly, and (the move's `last` step) where a
    /// flying king must land to go on capturing.
    fn jump(
        self,
        step: &Step<'_>,
        side: Color,
        capturing: &Capturing,
        last: bool,
    ) -> Result<Square, Violation> {
        let (at, to, during) = (step.at, step.to, step.during);
        if !capturing.king && step.distance != 2 {
            return Err(Violation::ManFlies { from: at, to });
        }
        if !capturing.may_capture_towards(step.dir) {
            return Err(Violation::ManBackwards {
                from: at,
                to,
                color: side,
            });
        }
        let over = jumped_square(step, side)?;
        if capturing.captured & over.bit() != 0 {
            return Err(Violation::AlreadyCaptured { square: over });
        }
        if during.color_at(over) != Some(side.opposite()) {
            return Err(Violation::NothingToJump {
                square: over,
                enemy: side.opposite(),
            });
        }
        if let Some(occupant) = during.get(to) {
            return Err(Violation::Occupied {
                square: to,
                piece: occupant,
            });
        }
        if last && capturing.king && self.0.king_lands_to_continue {
            must_land_to_continue(step, over, capturing)?;
        }
        Ok(over)
    }

    /// The checks on the move as a whole: a capture stops only where it
    /// cannot go on and has the priority the rules give; a slide is legal
    /// only when no capture is available.
    fn whole_move(
        self,
        board: &Board,
        during: &Board,
        (side, piece): (Color, Piece),
        mv: &MoveText,
        mut capturing: Capturing,
    ) -> Result<(), Violation> {
        if !mv.is_capture() {
            return match self.any_capture(board, side) {
                Some(example) => Err(Violation::CaptureAvailable { example }),
                None => Ok(()),
            };
        }
        capturing.at = mv.to();
        if capturing.can_jump(during) {
            if let Some(jump) = capturing.jumps(during).into_iter().next() {
                return Err(Violation::MustContinue {
                    at: mv.to(),
                    over: jump.over,
                    to: jump.landings[0],
                });
            }
        }
        self.check_priority(board, side, mv, piece)
    }
}

/// A step of a move that captures nothing, checked: a man goes one square
/// forward, a king any distance, over empty squares, onto an empty one.
fn slide(step: &Step<'_>, side: Color, piece: Piece) -> Result<(), Violation> {
    let (at, to, during) = (step.at, step.to, step.during);
    if !piece.is_king() && !side.is_forward(step.dir) {
        return Err(Violation::ManBackwards {
            from: at,
            to,
            color: side,
        });
    }
    if !piece.is_king() && step.distance > 1 {
        return Err(Violation::ManFlies { from: at, to });
    }
    if let Some(&square) = step.between.iter().find(|&&s| !during.is_empty(s)) {
        return Err(Violation::Blocked {
            square,
            from: at,
            to,
        });
    }
    if let Some(occupant) = during.get(to) {
        return Err(Violation::Occupied {
            square: to,
            piece: occupant,
        });
    }
    Ok(())
}

/// The one piece between a capturing step's squares.
fn jumped_square(step: &Step<'_>, side: Color) -> Result<Square, Violation> {
    let pieces: Vec<Square> = step
        .between
        .iter()
        .copied()
        .filter(|&s| !step.during.is_empty(s))
        .collect();
    match pieces.as_slice() {
        [] => Err(Violation::NothingToJump {
            square: step.between[0],
            enemy: side.opposite(),
        }),
        [over] => Ok(*over),
        [_, second, ..] => Err(Violation::Blocked {
            square: *second,
            from: step.at,
            to: step.to,
        }),
    }
}

/// A flying king's last jump must land where it can go on, if it can go
/// on from anywhere behind the piece it jumps.
fn must_land_to_continue(
    step: &Step<'_>,
    over: Square,
    capturing: &Capturing,
) -> Result<(), Violation> {
    let jump = Jump {
        over,
        landings: std::iter::successors(over.step(step.dir), |s| s.step(step.dir))
            .take_while(|&s| step.during.is_empty(s))
            .collect(),
    };
    match capturing.allowed_landings(step.during, &jump) {
        (allowed, true) if !allowed.contains(&step.to) => Err(Violation::MustLandToContinue {
            landed: step.to,
            instead: allowed[0],
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Geometry;

    /// A board from 8 lines, rank 8 first, `.` for empty and light squares.
    fn board(rows: [&str; 8]) -> Board {
        let mut b = Board::empty();
        for (row, text) in rows.iter().enumerate() {
            for (col, ch) in text.chars().enumerate() {
                if let (Some(sq), Some(p)) = (
                    Square::from_coords(row as u8, col as u8),
                    Piece::from_letter(ch),
                ) {
                    b.set(sq, Some(p));
                }
            }
        }
        b
    }

    fn moves(b: &Board, side: Color) -> Vec<String> {
        let mut out: Vec<String> = Russian
            .legal_moves(b, side)
            .iter()
            .map(MoveText::algebraic)
            .collect();
        out.sort();
        out
    }

    fn mv(text: &str) -> MoveText {
        MoveText::parse_with(text, Geometry::FLYING).unwrap()
    }

    #[test]
    fn a_man_captures_backwards() {
        // White man on d4, black man on c3 behind it: d4:b2.
        let b = board([
            "........", "........", "........", "........", "...w....", "..b.....", "........",
            "........",
        ]);
        assert_eq!(moves(&b, Color::White), ["d4:b2"]);
        let after = Russian.play(&b, Color::White, &mv("d4:b2")).unwrap();
        assert_eq!(after.piece_count(), 1);
    }

    #[test]
    fn a_man_crowned_mid_capture_goes_on_as_a_king() {
        // White man b6 jumps c7 to d8 and is crowned; as a king it flies on over f6.
        let b = board([
            "........", "..b.....", ".w...b..", "........", "........", "........", "........",
            "........",
        ]);
        assert_eq!(moves(&b, Color::White), ["b6:d8:g5", "b6:d8:h4"]);
        let after = Russian.play(&b, Color::White, &mv("b6:d8:h4")).unwrap();
        assert_eq!(
            after.get("h4".parse().unwrap()),
            Some(Piece::new(Color::White, Role::King))
        );
        assert_eq!(after.piece_count(), 1);
        let stopped = Russian.play(&b, Color::White, &mv("b6:d8")).unwrap_err();
        assert!(
            matches!(stopped, Violation::MustContinue { .. }),
            "{stopped}"
        );
    }

    #[test]
    fn a_flying_king_must_land_where_it_can_go_on() {
        // White king a1 flies over c3; it may land on d4, e5, f6, g7, h8, but only
        // from e5 can it go on (over f4 to g3/h2... and over d6 to c7/b8).
        let b = board([
            "........", "........", "...b....", "........", ".....b..", "..b.....", "........",
            "W.......",
        ]);
        let all = moves(&b, Color::White);
        assert!(all.iter().all(|m| m.starts_with("a1:e5:")), "{all:?}");
        assert!(
            all.contains(&"a1:e5:g3".to_string()) && all.contains(&"a1:e5:b8".to_string()),
            "{all:?}"
        );
        let err = Russian.play(&b, Color::White, &mv("a1:f6")).unwrap_err();
        assert!(matches!(err, Violation::MustLandToContinue { .. }), "{err}");
    }

    #[test]
    fn a_captured_piece_blocks_until_the_move_ends() {
        // White king d4; black e5 ahead, black b2 behind. After d4:f6 the king
        // could fly back over e5's square to take b2 if e5 were gone already,
        // but it stays until the move ends, so every capture takes one piece.
        let b = board([
            "........", "........", "........", "....b...", "...W....", "........", ".b......",
            "........",
        ]);
        assert_eq!(
            moves(&b, Color::White),
            ["d4:a1", "d4:f6", "d4:g7", "d4:h8"]
        );
        let err = Russian.play(&b, Color::White, &mv("d4:f6:a1")).unwrap_err();
        assert!(
            matches!(
                err,
                Violation::Blocked { .. } | Violation::AlreadyCaptured { .. }
            ),
            "{err}"
        );
    }

    #[test]
    fn no_legal_move_gives_an_empty_list() {
        // A black man on a1 (rank 1 is Black's crowning rank: it would be a king)
        // is not allowed; instead a black man on h2 blocked by a white man on g1.
        let b = board([
            "........", "........", "........", "........", "........", "........", ".......b",
            "......w.",
        ]);
        assert_eq!(moves(&b, Color::Black), Vec::<String>::new());
    }

    #[test]
    fn kings_fly_on_simple_moves_and_capture_is_compulsory() {
        let b = board([
            "........", "........", "........", "........", "........", "........", "........",
            "W.......",
        ]);
        assert_eq!(
            moves(&b, Color::White),
            ["a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6", "a1-g7", "a1-h8"]
        );
        // The king can take d4 from afar, so the man on h2 may not step.
        let b = board([
            "........", "........", "........", "........", "...b....", "........", ".......w",
            "W.......",
        ]);
        assert_eq!(
            moves(&b, Color::White),
            ["a1:e5", "a1:f6", "a1:g7", "a1:h8"]
        );
        let err = Russian.play(&b, Color::White, &mv("h2-g3")).unwrap_err();
        assert!(matches!(err, Violation::CaptureAvailable { .. }), "{err}");
        let err = Russian.play(&b, Color::White, &mv("h2-f4")).unwrap_err();
        assert!(matches!(err, Violation::ManFlies { .. }), "{err}");
    }

    /// The moves of `side` under `rules`, written the way the rule set writes them.
    fn listed(rules: &dyn Rules, b: &Board, side: Color) -> Vec<String> {
        let variant = rules.variant();
        let mut out: Vec<String> = rules
            .legal_moves(b, side)
            .iter()
            .map(|m| variant.write_move(m))
            .collect();
        out.sort();
        out
    }

    fn on(variant: Variant, text: &str) -> MoveText {
        MoveText::parse_with(text, variant.geometry()).unwrap()
    }

    #[test]
    fn the_most_pieces_must_be_taken() {
        // a3 and c3 can each take two (a3:c5:e3, c3:e5:g7); c3:a5 takes one.
        let b = board([
            "........", "........", ".....b..", "........", ".b.b....", "w.w.....", "........",
            "........",
        ]);
        assert_eq!(
            listed(&Brazilian, &b, Color::White),
            ["a3:c5:e3", "c3:e5:g7"]
        );
        assert!(listed(&Russian, &b, Color::White).contains(&"c3:a5".to_string()));
        let short = Brazilian.play(&b, Color::White, &mv("c3:a5")).unwrap_err();
        assert_eq!(short, Violation::NotTheMost { taken: 1, most: 2 });
        assert!(Russian.play(&b, Color::White, &mv("c3:a5")).is_ok());
    }

    #[test]
    fn a_king_counts_as_one_piece() {
        // h2 can take the black king on g3; a3 can take two men: a3:c5:e7.
        let b = board([
            "........", "........", "...b....", "........", ".b......", "w.....B.", ".......w",
            "........",
        ]);
        assert_eq!(listed(&Brazilian, &b, Color::White), ["a3:c5:e7"]);
        let king = Brazilian.play(&b, Color::White, &mv("h2:f4")).unwrap_err();
        assert_eq!(king, Violation::NotTheMost { taken: 1, most: 2 });
    }

    #[test]
    fn a_man_passing_the_far_row_stays_a_man() {
        // b6 takes c7 and reaches d8, then must take e7 backwards: as a man,
        // landing on f6 only, and it is not crowned there.
        let b = board([
            "........", "..b.b...", ".w......", "........", "........", "........", "........",
            "........",
        ]);
        assert_eq!(listed(&Brazilian, &b, Color::White), ["b6:d8:f6"]);
        let after = Brazilian.play(&b, Color::White, &mv("b6:d8:f6")).unwrap();
        assert_eq!(
            after.get("f6".parse().unwrap()),
            Some(Piece::new(Color::White, Role::Man))
        );
        // Under Russian rules it is crowned on d8 and flies on.
        assert_eq!(
            listed(&Russian, &b, Color::White),
            ["b6:d8:f6", "b6:d8:g5", "b6:d8:h4"]
        );
    }

    #[test]
    fn captured_pieces_block_under_the_majority_rule_too() {
        // As in Russian: the piece taken on e5 stays until the move ends, so
        // the king cannot fly back through it to take b2 as well.
        let b = board([
            "........", "........", "........", "....b...", "...W....", "........", ".b......",
            "........",
        ]);
        assert_eq!(
            listed(&Brazilian, &b, Color::White),
            ["d4:a1", "d4:f6", "d4:g7", "d4:h8"]
        );
        assert!(Brazilian.play(&b, Color::White, &mv("d4:f6:a1")).is_err());
    }

    #[test]
    fn an_international_king_lands_where_the_maximum_goes_on() {
        // King on 46; black men on 32 and 18. Only from 23 can it take the
        // second man, so every legal move lands there first.
        let text = "-.-.-.-.-.\n.-.-.-.-.-\n-.-.-.-.-.\n.-.-b-.-.-\n-.-.-.-.-.\n\
                    .-.-.-.-.-\n-.-b-.-.-.\n.-.-.-.-.-\n-.-.-.-.-b\nW-.-.-.-w-\n";
        let b = crate::notation::parse_board_on(text, crate::board::Topology::Ten).unwrap();
        let v = Variant::International;
        assert_eq!(
            listed(&International, &b, Color::White),
            ["46x23x1", "46x23x12", "46x23x7"]
        );
        // Landing on 28 ends the capture after one piece; stopping on 23 is
        // stopping where it can go on.
        let short = International
            .play(&b, Color::White, &on(v, "46x28"))
            .unwrap_err();
        assert_eq!(short, Violation::NotTheMost { taken: 1, most: 2 });
        let stopped = International
            .play(&b, Color::White, &on(v, "46x23"))
            .unwrap_err();
        assert!(
            matches!(stopped, Violation::MustContinue { .. }),
            "{stopped}"
        );
        let after = International
            .play(&b, Color::White, &on(v, "46x23x7"))
            .unwrap();
        assert_eq!(after.piece_count(), 3);
        // White's man on 50 has no capture and the king must capture: no simple move.
        let err = International
            .play(&b, Color::White, &on(v, "50-44"))
            .unwrap_err();
        assert!(matches!(err, Violation::CaptureAvailable { .. }), "{err}");
    }

    #[test]
    fn the_quick_jump_test_agrees_with_the_jumps() {
        use crate::board::Topology;
        use crate::random::{random_board_on, Rng};
        let mut rng = Rng::new(11);
        let mut found = 0;
        for round in 0..3_000 {
            let topology = if round % 2 == 0 {
                Topology::EightAlgebraic
            } else {
                Topology::Ten
            };
            let density = 20 + rng.below(60) as u32;
            let b = random_board_on(&mut rng, topology, density, 40);
            for from in topology.squares() {
                let Some(piece) = b.get(from) else { continue };
                let (lifted, mut capturing) =
                    Policy(Movement::of(Variant::International)).lift(&b, from, piece);
                // Some pieces already taken, as mid-capture.
                capturing.captured = Bits::from(rng.next_u64() & rng.next_u64())
                    & b.occupied_by(piece.color.opposite());
                let jumps = capturing.jumps(&lifted);
                assert_eq!(
                    capturing.can_jump(&lifted),
                    !jumps.is_empty(),
                    "{from:?}\n{b}"
                );
                found += usize::from(!jumps.is_empty());
            }
        }
        assert!(found > 1_000, "{found}");
    }
}
