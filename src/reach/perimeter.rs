//! A search back from the target (the perimeter of a search from both
//! ends): every position within a few plies of the target, with its exact
//! distance to it, found by un-moves and un-captures.
//!
//! The lower bound of [`super::bounds`] is weakest near the target, where
//! the last round of the deepening spends its time. With the perimeter, a
//! position in it has its exact distance, and a position not in it is at
//! least one ply further than the perimeter's depth: the last round cuts
//! every line that does not meet the perimeter.
//!
//! The un-moves are a superset of the true predecessors (any square the
//! piece could have come from, any piece on a square it could have jumped,
//! man or king); a simple move undone is kept only if the piece could step
//! so and the mover had no capture (capturing is compulsory under every
//! rule set), a capture undone only if the forward move generator really
//! plays it, so the mandatory and the majority captures of every rule set
//! hold and the search back is exact.

use std::time::Instant;

use crate::board::hash::{WordMap, WordSet};
use crate::board::{Board, Color, Direction, Piece, Role, Square};
use crate::notation::MoveText;
use crate::rules::{Crowning, Movement, Rules};

/// The deepest search back (distances are kept in a byte).
const DEEPEST: u32 = 100;

/// Positions within the perimeter's depth of the target, each with its
/// exact distance (in plies) to it; grown a layer at a time, and grown
/// again later from where it stopped.
#[derive(Debug)]
pub(crate) struct Perimeter {
    distances: WordMap<(Board, Color), u8>,
    /// Every position reachable from the start that is not in the table
    /// is at least this many plies from the target.
    beyond: u32,
    /// The last finished layer (at `beyond - 1` plies), whose
    /// predecessors make the next one.
    layer: Vec<(Board, Color)>,
    /// How many positions of `layer` have had their predecessors put in
    /// `next`.
    done: usize,
    /// The layer being made (at `beyond` plies).
    next: Vec<(Board, Color)>,
    /// Whether it can grow no further (the deepest layer, or a position
    /// with too many candidate predecessors).
    full: bool,
    counts: Counts,
}

/// Whether a position may be on the way from the start: no side has more
/// pieces than it started with (the only positions the perimeter keeps; a
/// shortest line from a position the start reaches stays among them).
#[derive(Debug)]
struct Counts {
    most: [u32; 2],
}

impl Counts {
    fn of(start: &Board) -> Counts {
        Counts {
            most: Color::ALL.map(|c| start.occupied_by(c).count_ones()),
        }
    }

    /// How many more pieces of `color` `board` may have.
    fn room(&self, board: &Board, color: Color) -> u32 {
        self.most[color as usize].saturating_sub(board.occupied_by(color).count_ones())
    }
}

impl Perimeter {
    /// The target alone (`turn` to move), to grow from; positions with
    /// more pieces of a side than `start` has are never added: no game
    /// from the start passes them.
    pub fn new((target, turn): (&Board, Color), start: &Board) -> Perimeter {
        let mut distances = WordMap::default();
        distances.insert((*target, turn), 0u8);
        Perimeter {
            distances,
            beyond: 1,
            layer: vec![(*target, turn)],
            done: 0,
            next: Vec::new(),
            full: false,
            counts: Counts::of(start),
        }
    }

    /// The positions within `depth` plies of `target`, or fewer (as
    /// [`Perimeter::grow`] stops).
    #[cfg(test)]
    pub fn around(
        rules: &dyn Rules,
        goal: (&Board, Color),
        start: &Board,
        depth: u32,
        most: usize,
        until: Option<Instant>,
    ) -> Perimeter {
        let mut near = Perimeter::new(goal, start);
        near.grow(rules, depth, most, until);
        near
    }

    /// Adds layers until `depth` plies are finished, the table passes
    /// `most` positions or `until` passes (a layer begun and not finished
    /// keeps its exact distances, and is finished by the next call; the
    /// bound beyond is the last finished layer's).
    pub fn grow(&mut self, rules: &dyn Rules, depth: u32, most: usize, until: Option<Instant>) {
        let depth = depth.min(DEEPEST);
        while !self.full && self.beyond <= depth && self.distances.len() <= most {
            while let Some(&(board, side)) = self.layer.get(self.done) {
                if until.is_some_and(|d| Instant::now() >= d) || self.distances.len() > most {
                    return;
                }
                // Too many candidates to try: this layer stays unfinished.
                let Some(befores) = predecessors(rules, &board, side, &self.counts) else {
                    self.full = true;
                    return;
                };
                for before in befores {
                    let key = (before, side.opposite());
                    if let std::collections::hash_map::Entry::Vacant(e) = self.distances.entry(key)
                    {
                        e.insert(self.beyond as u8);
                        self.next.push(key);
                    }
                }
                self.done += 1;
            }
            self.layer = std::mem::take(&mut self.next);
            self.done = 0;
            self.beyond += 1;
        }
        self.full |= self.beyond > DEEPEST;
    }

    /// Whether the table holds every position (with no more pieces of a
    /// side than the start) from which the target can be reached: a layer
    /// was finished with no predecessor to add, so no layer beyond has any.
    /// A start that is not in a closed table reaches no game to the target.
    pub fn closed(&self) -> bool {
        self.layer.is_empty()
    }

    /// The exact plies from `board` (`side` to move) to the target, when
    /// it is within the perimeter.
    pub fn distance(&self, board: &Board, side: Color) -> Option<u32> {
        self.distances.get(&(*board, side)).map(|&d| u32::from(d))
    }

    /// The least plies from `board` to the target: its distance when it is
    /// in the table, else `bound` raised to beyond the perimeter (`odd`:
    /// the plies left are odd, the side to move is not the target's).
    pub fn bound(&self, board: &Board, side: Color, bound: u32, odd: bool) -> u32 {
        match self.distance(board, side) {
            Some(exact) => exact,
            None => bound.max(self.outside(odd)),
        }
    }

    /// The least plies from any position outside the table to the target
    /// (`odd`: the plies left are odd).
    pub fn outside(&self, odd: bool) -> u32 {
        self.beyond + u32::from((self.beyond % 2 == 1) != odd)
    }

    /// Positions in the table.
    pub fn len(&self) -> usize {
        self.distances.len()
    }

    /// The plies every position outside the table is at least away.
    #[cfg(test)]
    pub fn beyond(&self) -> u32 {
        self.beyond
    }

    /// The moves from `board` (in the table) to the target: each one to a
    /// position one ply nearer.
    pub fn line(&self, rules: &dyn Rules, board: &Board, side: Color) -> Vec<MoveText> {
        let (mut board, mut side) = (*board, side);
        let mut moves = Vec::new();
        while let Some(left) = self.distance(&board, side).filter(|&d| d > 0) {
            let step = rules.legal_moves(&board, side).into_iter().find_map(|mv| {
                let next = rules.play(&board, side, &mv).ok()?;
                (self.distance(&next, side.opposite()) == Some(left - 1)).then_some((mv, next))
            });
            let Some((mv, next)) = step else { break };
            moves.push(mv);
            (board, side) = (next, side.opposite());
        }
        moves
    }
}

/// The most candidate predecessors tried for one position (chains of
/// captures undone by flying kings grow exponentially); past it the
/// search back stops at the layer being made, which keeps it exact.
const CANDIDATES: usize = 20_000;

/// Every position (the other side to move) from which a legal move leads
/// to `board` with `side` to move, and which has no more pieces than the
/// start allows; `None` when there are too many candidates to try.
///
/// A simple move undone is legal exactly when the piece could step that
/// way and the mover has no capture then (every rule set makes capturing
/// compulsory): that is checked directly. A capture undone is checked by
/// the forward move generator (the majority and the Italian order).
fn predecessors(
    rules: &dyn Rules,
    board: &Board,
    side: Color,
    counts: &Counts,
) -> Option<Vec<Board>> {
    let mover = side.opposite();
    let mut quiet = WordSet::default();
    let mut captures = WordSet::default();
    for to in board.squares_of(mover) {
        let Some(piece) = board.get(to) else { continue };
        let mut lifted = *board;
        lifted.set(to, None);
        let unmoves = Unmoves {
            rules,
            lifted: &lifted,
            to,
            piece,
            room: counts.room(board, side),
        };
        unmoves.quiet(&mut quiet);
        unmoves.captures(&mut captures);
        if quiet.len() + captures.len() > CANDIDATES {
            return None;
        }
    }
    let movement = rules.movement();
    let quiet = quiet
        .into_iter()
        .filter(|before| !can_capture(before, mover, movement));
    let captures = captures.into_iter().filter(|before| {
        rules
            .legal_moves(before, mover)
            .iter()
            .filter(|mv| lands_as(mv, board, mover))
            .any(|mv| rules.play(before, mover, mv).as_ref() == Ok(board))
    });
    Some(quiet.chain(captures).collect())
}

/// Whether some piece of `side` can jump on `board` (the first jump of a
/// capture), by the rule set's movement: men in the directions they take
/// in, and not kings where men may not take them; kings from afar where
/// they fly.
fn can_capture(board: &Board, side: Color, movement: Movement) -> bool {
    let enemy = side.opposite();
    board.squares_of(side).any(|from| {
        let king = board.get(from).is_some_and(Piece::is_king);
        Direction::ALL.into_iter().any(|dir| {
            if !king && !movement.man_captures(side, dir) {
                return false;
            }
            let mut at = from.step(dir);
            if king && movement.flying_kings {
                while let Some(s) = at.filter(|&s| board.is_empty(s)) {
                    at = s.step(dir);
                }
            }
            let Some(over) = at else { return false };
            let takeable = match board.get(over) {
                Some(p) if p.color == enemy => king || !p.is_king() || movement.men_capture_kings,
                _ => false,
            };
            takeable && over.step(dir).is_some_and(|s| board.is_empty(s))
        })
    })
}

/// Whether `mv` may end on `board`: a piece of `mover` where it lands,
/// and the square it left empty (a cheap look before playing it).
fn lands_as(mv: &MoveText, board: &Board, mover: Color) -> bool {
    board.color_at(mv.to()) == Some(mover) && (mv.from() == mv.to() || board.is_empty(mv.from()))
}

/// The candidate moves that end with `piece` on `to`.
struct Unmoves<'a> {
    rules: &'a dyn Rules,
    /// The board with the piece lifted from `to`.
    lifted: &'a Board,
    to: Square,
    piece: Piece,
    /// How many pieces of the other side may be put back.
    room: u32,
}

impl Unmoves<'_> {
    /// Whether the piece moves any distance (a flying king, or a man
    /// crowned on the way and then flying).
    fn flies(&self) -> bool {
        self.piece.is_king() && self.rules.movement().flying_kings
    }

    /// What the piece may have been before the move: itself, or a man
    /// crowned by it.
    fn was(&self, capture: bool) -> Vec<Piece> {
        let mut roles = vec![self.piece];
        let crowned_anywhere =
            capture && self.rules.movement().crowning == Crowning::ContinuesAsKing;
        if self.piece.is_king() && (self.to.crowns(self.piece.color) || crowned_anywhere) {
            roles.push(Piece::new(self.piece.color, Role::Man));
        }
        roles
    }

    /// The empty squares from `from` in `dir`, as far as the piece goes.
    fn ray(&self, from: Square, dir: Direction) -> Vec<Square> {
        let reach = if self.flies() { usize::MAX } else { 1 };
        std::iter::successors(from.step(dir), |s| s.step(dir))
            .take_while(|&s| self.lifted.is_empty(s))
            .take(reach)
            .collect()
    }

    /// Simple moves to `to`: from an empty square on a diagonal, a man
    /// only from behind (crowned when `to` is on its crowning row).
    fn quiet(&self, out: &mut WordSet<Board>) {
        for dir in Direction::ALL {
            for from in self.ray(self.to, dir) {
                for was in self.was(false) {
                    // `dir` points back to where the piece came from: a
                    // man stepped one square against it.
                    let stepped = !was.color.is_forward(dir) && self.to.step(dir) == Some(from);
                    let crowned = self.piece.is_king() == self.to.crowns(was.color);
                    if was.is_king() || (stepped && crowned) {
                        self.put(from, was, &[], out);
                    }
                }
            }
        }
    }

    /// Captures ending on `to`: chains of jumps undone from `to`, each
    /// over a square that held a piece of the other side.
    fn captures(&self, out: &mut WordSet<Board>) {
        let mut taken = Vec::new();
        self.unjump(self.to, &mut taken, out);
    }

    /// The jumps that landed on `at`, undone, and the chains before them.
    fn unjump(&self, at: Square, taken: &mut Vec<Square>, out: &mut WordSet<Board>) {
        if taken.len() as u32 >= self.room || out.len() > CANDIDATES {
            return;
        }
        for dir in Direction::ALL {
            let behind = self.ray(at, dir);
            // The jumped square, then the squares the jump started from.
            for (i, &over) in behind.iter().enumerate() {
                if taken.contains(&over) {
                    continue;
                }
                let starts: Vec<Square> = if self.flies() {
                    behind[i + 1..].to_vec()
                } else {
                    over.step(dir)
                        .filter(|&s| self.lifted.is_empty(s))
                        .into_iter()
                        .collect()
                };
                taken.push(over);
                for &from in &starts {
                    if !taken.contains(&from) {
                        for was in self.was(true) {
                            self.put(from, was, taken, out);
                        }
                        self.unjump(from, taken, out);
                    }
                }
                taken.pop();
            }
        }
    }

    /// The board with `was` on `from` and the other side's pieces (men or
    /// kings, every way) back on `taken`.
    fn put(&self, from: Square, was: Piece, taken: &[Square], out: &mut WordSet<Board>) {
        if !was.is_king() && from.crowns(was.color) {
            return;
        }
        let victim = was.color.opposite();
        // A man of the victim's side never stands on its crowning row.
        let must_be_kings = taken
            .iter()
            .enumerate()
            .filter(|(_, sq)| sq.crowns(victim))
            .fold(0u32, |bits, (i, _)| bits | 1 << i);
        for kings in 0u32..(1 << taken.len()) {
            if kings & must_be_kings != must_be_kings {
                continue;
            }
            let mut before = *self.lifted;
            before.set(from, Some(was));
            for (i, &sq) in taken.iter().enumerate() {
                let role = if kings >> i & 1 == 1 {
                    Role::King
                } else {
                    Role::Man
                };
                before.set(sq, Some(Piece::new(victim, role)));
            }
            out.insert(before);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{play_game, Play, Rng};
    use crate::rules::Variant;
    use std::collections::HashMap;

    /// Every position within `depth` plies of `from` (with its depth) and
    /// each one's distance to `goal` along the moves among them (exact
    /// for a position at depth `i` whose distance is at most `depth - i`).
    fn forward_ball(
        rules: &dyn Rules,
        from: (Board, Color),
        depth: u32,
        goal: (Board, Color),
    ) -> Vec<((Board, Color), u32, Option<u32>)> {
        let mut depths = HashMap::from([(from, 0u32)]);
        let mut parents: HashMap<(Board, Color), Vec<(Board, Color)>> = HashMap::new();
        let mut layer = vec![from];
        for plies in 1..=depth {
            let mut next = Vec::new();
            for (board, side) in layer {
                for mv in rules.legal_moves(&board, side) {
                    let child = (rules.play(&board, side, &mv).unwrap(), side.opposite());
                    parents.entry(child).or_default().push((board, side));
                    if let std::collections::hash_map::Entry::Vacant(e) = depths.entry(child) {
                        e.insert(plies);
                        next.push(child);
                    }
                }
            }
            layer = next;
        }
        let mut to_goal = HashMap::new();
        if depths.contains_key(&goal) {
            to_goal.insert(goal, 0u32);
            let mut layer = vec![goal];
            for plies in 1..=depth {
                let mut next = Vec::new();
                for position in layer {
                    for &parent in parents.get(&position).into_iter().flatten() {
                        if let std::collections::hash_map::Entry::Vacant(e) = to_goal.entry(parent)
                        {
                            e.insert(plies);
                            next.push(parent);
                        }
                    }
                }
                layer = next;
            }
        }
        depths
            .into_iter()
            .map(|(p, d)| (p, d, to_goal.get(&p).copied()))
            .collect()
    }

    /// Checks the perimeter (at most `most` positions) of the position
    /// after `plies` of a random game against a search forward from
    /// `back` plies before it; the number of positions found within the
    /// perimeter's finished layers, and of those with more pieces than the
    /// target (a capture undone).
    fn check_case(variant: Variant, seed: u64, plies: usize, most: usize) -> (usize, usize) {
        let rules = variant.rules();
        let opening = variant.topology().opening();
        let first = variant.first_player();
        let record = play_game(
            rules,
            &mut Rng::new(seed),
            &opening,
            first,
            plies,
            Play::Uniform,
        );
        let n = record.moves.len();
        let back = 4;
        if n < back {
            return (0, 0);
        }
        let at = |k: usize| {
            let part = crate::notation::Record::new(first, record.moves[..k].to_vec());
            let board = crate::replay::replay(rules, &opening, &part).unwrap();
            (board, part.mover(k + 1))
        };
        let goal = at(n);
        let near = Perimeter::around(rules, (&goal.0, goal.1), &opening, 3, most, None);
        let finished = near.beyond() - 1;
        let (mut within, mut uncaptured) = (0, 0);
        let ball = forward_ball(rules, at(n - back), back as u32, goal);
        for (position, at_depth, exact) in ball {
            let found = near.distance(&position.0, position.1);
            // Exact in the forward search: every distance up to this.
            let known = back as u32 - at_depth;
            let expected = exact.filter(|&e| e <= finished.min(known));
            let claimed = found.filter(|&e| e <= finished.min(known));
            let whole = found.filter(|&e| e <= known);
            let why = || {
                format!(
                    "{} seed {seed} after {n} plies: {found:?} for {exact:?}, {at_depth} plies after the start of the search forward, {:?} to move\n{}\n(target\n{}\n{:?} to move)",
                    variant.name(), position.1, position.0, goal.0, goal.1
                )
            };
            assert_eq!(claimed, expected, "{}", why());
            // A distance from an unfinished layer is exact too.
            assert!(whole.is_none() || whole == exact, "{}", why());
            if expected.is_some() {
                within += 1;
                uncaptured += usize::from(position.0.piece_count() > goal.0.piece_count());
            }
        }
        (within, uncaptured)
    }

    #[test]
    fn the_perimeter_holds_every_position_near_the_target_with_its_distance() {
        for variant in Variant::ALL {
            let (mut within, mut uncaptured) = (0, 0);
            for seed in 0..6u64 {
                let plies = [10, 16, 24, 32, 45, 60][seed as usize];
                let (w, u) = check_case(variant, seed * 7 + 1, plies, 4_000);
                within += w;
                uncaptured += u;
            }
            assert!(within >= 12, "{}: {within} positions", variant.name());
            assert!(uncaptured > 0, "{}: no capture undone", variant.name());
        }
    }

    #[test]
    fn the_quick_capture_test_agrees_with_the_move_generator() {
        for variant in Variant::ALL {
            let rules = variant.rules();
            let opening = variant.topology().opening();
            let (mut positions, mut captures) = (0, 0);
            for seed in 0..12u64 {
                let record = play_game(
                    rules,
                    &mut Rng::new(seed),
                    &opening,
                    variant.first_player(),
                    [30, 60, 90][seed as usize % 3],
                    Play::Uniform,
                );
                let mut board = opening;
                for (i, mv) in record.moves.iter().enumerate() {
                    board = rules.play(&board, record.mover(i + 1), mv).unwrap();
                    for side in Color::ALL {
                        let expected = !rules.capture_sequences(&board, side).is_empty();
                        let found = can_capture(&board, side, rules.movement());
                        assert_eq!(found, expected, "{} {side:?}\n{board}", variant.name());
                        positions += 1;
                        captures += usize::from(expected);
                    }
                }
            }
            assert!(captures > 20 && captures < positions, "{}", variant.name());
        }
    }

    #[test]
    fn a_grown_table_is_the_table_made_at_once() {
        for variant in [Variant::English, Variant::International] {
            let rules = variant.rules();
            let opening = variant.topology().opening();
            let record = play_game(
                rules,
                &mut Rng::new(5),
                &opening,
                variant.first_player(),
                24,
                Play::Uniform,
            );
            let end = crate::replay::replay(rules, &opening, &record).unwrap();
            let goal = (&end, record.mover(record.moves.len() + 1));
            let whole = Perimeter::around(rules, goal, &opening, 4, usize::MAX, None);
            let mut grown = Perimeter::new(goal, &opening);
            // Stopped within layers (a deadline already passed), then grown on.
            let past = Some(Instant::now());
            for (depth, most) in [(1, 1), (3, 40), (3, 200), (4, usize::MAX)] {
                grown.grow(rules, depth, most, None);
                grown.grow(rules, depth + 1, usize::MAX, past);
            }
            assert_eq!(grown.beyond(), whole.beyond());
            assert_eq!(grown.distances, whole.distances, "{}", variant.name());
            assert!(whole.len() > 200, "{}: {}", variant.name(), whole.len());
        }
    }

    #[test]
    fn a_line_from_the_table_reaches_the_target() {
        let variant = Variant::Russian;
        let rules = variant.rules();
        let opening = variant.topology().opening();
        let record = play_game(
            rules,
            &mut Rng::new(3),
            &opening,
            Color::White,
            16,
            Play::Uniform,
        );
        let end = crate::replay::replay(rules, &opening, &record).unwrap();
        let turn = record.mover(record.moves.len() + 1);
        let near = Perimeter::around(rules, (&end, turn), &opening, 3, 50_000, None);
        let mut board = opening;
        for (i, mv) in record.moves.iter().enumerate() {
            board = rules.play(&board, record.mover(i + 1), mv).unwrap();
        }
        let back = record.moves.len() - 3;
        let part = crate::notation::Record::new(Color::White, record.moves[..back].to_vec());
        let from = crate::replay::replay(rules, &opening, &part).unwrap();
        let side = part.mover(back + 1);
        let left = near.distance(&from, side).unwrap();
        let line = near.line(rules, &from, side);
        assert_eq!(line.len() as u32, left);
        let rest = crate::notation::Record::new(side, line);
        assert_eq!(crate::replay::replay(rules, &from, &rest).unwrap(), end);
        assert_eq!(board, end);
    }
}
