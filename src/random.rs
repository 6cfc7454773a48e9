//! Random positions and random legal games, for tests, `generate` and benchmarks.
//!
//! The generator is a hand-written SplitMix64 on purpose: its output stream is
//! part of the `--seed` contract (the same seed gives the same instances in
//! every version), which a general-purpose RNG crate does not promise.

use crate::board::{Board, Color, Direction, Piece, Role, Topology};
use crate::notation::{MoveText, Record};
use crate::rules::Rules;

/// SplitMix64: tiny, fast, and stable forever.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), without modulo bias worth speaking of.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }
}

/// A random start-legal board: each square holds a piece with probability
/// `density`%, a king with probability `kings`% of those; men are never left on
/// their crowning row.
pub fn random_board(rng: &mut Rng, density: u32, kings: u32) -> Board {
    random_board_on(rng, Topology::Eight, density, kings)
}

/// [`random_board`] on `topology`'s board.
pub fn random_board_on(rng: &mut Rng, topology: Topology, density: u32, kings: u32) -> Board {
    let mut board = Board::empty_on(topology);
    for sq in topology.squares() {
        if !rng.chance(density) {
            continue;
        }
        let color = if rng.chance(50) {
            Color::White
        } else {
            Color::Black
        };
        let king = rng.chance(kings) || sq.crowns(color);
        let role = if king { Role::King } else { Role::Man };
        board.set(sq, Some(Piece::new(color, role)));
    }
    board
}

/// A random legal game of at most `plies` moves from `start` with `first` to
/// move; it stops early when the side to move has no move.
pub fn random_game(
    rules: &dyn Rules,
    rng: &mut Rng,
    start: &Board,
    first: Color,
    plies: usize,
) -> Record {
    play_game(rules, rng, start, first, plies, Play::Uniform)
}

/// How a random player picks its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// Any legal move, uniformly.
    Uniform,
    /// Uniformly among the moves after which the opponent has no capture, when
    /// there are any. Russian games played uniformly rarely last 100 moves (with
    /// flying kings and backward captures, pieces go fast); careful ones do.
    Careful,
}

/// Plays up to `plies` moves from `start`, each chosen as `play` says.
pub fn play_game(
    rules: &dyn Rules,
    rng: &mut Rng,
    start: &Board,
    first: Color,
    plies: usize,
    play: Play,
) -> Record {
    let mut board = *start;
    let mut side = first;
    let mut moves: Vec<MoveText> = Vec::new();
    while moves.len() < plies {
        let mut legal = rules.legal_moves(&board, side);
        if legal.is_empty() {
            break;
        }
        if play == Play::Careful {
            let safe: Vec<MoveText> = legal
                .iter()
                .filter(|mv| {
                    rules.play(&board, side, mv).is_ok_and(|next| {
                        rules
                            .legal_moves(&next, side.opposite())
                            .first()
                            .is_none_or(|reply| !reply.is_capture())
                    })
                })
                .cloned()
                .collect();
            if !safe.is_empty() {
                legal = safe;
            }
        }
        let mv = legal[rng.below(legal.len())].clone();
        board = rules
            .play(&board, side, &mv)
            .expect("generated moves are legal");
        moves.push(mv);
        side = side.opposite();
    }
    Record::new(first, moves)
}

/// How fragments' games are played: English uniformly, Russian carefully (see [`Play`]).
fn play_for(rules: &dyn Rules) -> Play {
    if rules.variant().facts().careful_play {
        Play::Careful
    } else {
        Play::Uniform
    }
}

/// A fragment of a random game: a game of `lead + plies` moves is played from
/// a random board and the last `plies` moves (or as many as were played) kept,
/// with the board before them. `None` if no move could be kept.
pub fn random_fragment(
    rules: &dyn Rules,
    rng: &mut Rng,
    lead: usize,
    plies: usize,
) -> Option<(Board, Record)> {
    let density = 30 + rng.below(50) as u32;
    let kings = rng.below(40) as u32;
    let start = random_board_on(rng, rules.variant().topology(), density, kings);
    let first = if rng.chance(50) {
        Color::White
    } else {
        Color::Black
    };
    let game = play_game(rules, rng, &start, first, lead + plies, play_for(rules));
    let cut = game.moves.len().saturating_sub(plies).min(lead);
    if cut >= game.moves.len() {
        return None;
    }
    let mut board = start;
    for (i, mv) in game.moves[..cut].iter().enumerate() {
        board = rules
            .play(&board, game.mover(i + 1), mv)
            .expect("replaying a generated game");
    }
    let record = Record::new(game.mover(cut + 1), game.moves[cut..].to_vec());
    Some((board, record))
}

/// A fragment of `plies` moves cut from a random game that starts at the
/// standard opening after `lead` random moves. Black moves first under
/// English, Russian and American pool rules (as this generator always
/// did), White under the others (the rule table's `generated_first`).
pub fn opening_fragment(
    rules: &dyn Rules,
    rng: &mut Rng,
    lead: usize,
    plies: usize,
) -> Option<(Board, Record)> {
    let variant = rules.variant();
    let first = variant.facts().generated_first;
    let opening = variant.topology().opening();
    let game = play_game(rules, rng, &opening, first, lead + plies, play_for(rules));
    if game.moves.len() <= lead {
        return None;
    }
    let mut board = opening;
    for (i, mv) in game.moves[..lead].iter().enumerate() {
        board = rules
            .play(&board, game.mover(i + 1), mv)
            .expect("replaying a generated game");
    }
    Some((
        board,
        Record::new(game.mover(lead + 1), game.moves[lead..].to_vec()),
    ))
}

/// `count` distinct numbers below `n` (all of them when `count >= n`),
/// drawn without replacement.
fn distinct(rng: &mut Rng, n: usize, count: usize) -> Vec<usize> {
    let mut all: Vec<usize> = (0..n).collect();
    let take = count.min(n);
    for k in 0..take {
        let j = k + rng.below(n - k);
        all.swap(k, j);
    }
    all.truncate(take);
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{MovePattern, WrittenMove};
    use crate::replay::replay;
    use crate::rules::English;

    #[test]
    fn the_stream_is_fixed() {
        let mut rng = Rng::new(1);
        assert_eq!(rng.next_u64(), 0x910A_2DEC_8902_5CC1);
        assert!((0..1000).all(|_| rng.below(7) < 7));
    }

    #[test]
    fn fragments_replay_from_their_own_board() {
        let mut rng = Rng::new(42);
        let mut kept = 0;
        for _ in 0..200 {
            if let Some((start, record)) = random_fragment(&English, &mut rng, 10, 30) {
                assert!(English.start_problems(&start).is_empty());
                replay(&English, &start, &record).unwrap();
                kept += 1;
            }
        }
        assert!(kept > 100, "only {kept} fragments");
    }

    #[test]
    fn damage_spoils_exactly_as_many_moves_and_squares_as_asked() {
        let mut rng = Rng::new(7);
        let mut checked = 0;
        while checked < 50 {
            let Some((_, record)) = random_fragment(&English, &mut rng, 12, 30) else {
                continue;
            };
            let asked = Damage {
                unknown_moves: 4,
                unknown_squares: 3,
                short_captures: false,
            };
            let written = damage(&record, &mut rng, asked).written_moves();
            let unknown = |w: &WrittenMove| matches!(w, WrittenMove::Pattern(MovePattern::Unknown));
            assert_eq!(written.iter().filter(|w| unknown(w)).count(), 4);
            let squares: usize = written
                .iter()
                .map(|w| match w {
                    WrittenMove::Pattern(MovePattern::Path { squares, .. }) => {
                        squares.iter().filter(|s| s.is_none()).count()
                    }
                    _ => 0,
                })
                .sum();
            assert_eq!(squares, 3);
            checked += 1;
        }
    }
}

/// How [`damage`] spoils a record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Damage {
    /// Moves replaced by a lone `?`.
    pub unknown_moves: usize,
    /// Squares replaced by `?` (in moves left otherwise whole).
    pub unknown_squares: usize,
    /// Write every capture short: first and last square, and each landing
    /// between them with even odds.
    pub short_captures: bool,
}

/// The simple move `mv` with its landing misread as another neighbour of
/// its origin (a recorder's slip), picked by `rng`; `None` when the origin
/// has no other neighbour.
pub fn misread_landing(mv: &MoveText, rng: &mut Rng) -> Option<MoveText> {
    let from = mv.from();
    let others: Vec<_> = Direction::ALL
        .into_iter()
        .filter_map(|d| from.step(d))
        .filter(|&to| to != mv.to())
        .collect();
    let &to = others.get(rng.below(others.len().max(1)))?;
    MoveText::along(vec![from, to], false)
}

/// A mistake a recorder makes (`shared/spec/repair.md`), as tests and
/// benchmarks inject them into good records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mistake {
    /// A simple move's landing read as another neighbour of its origin.
    Misread,
    /// A move left out.
    Missing,
    /// A move written twice.
    Extra,
    /// The wrong side written as moving first.
    First,
}

impl Mistake {
    /// Every kind, in a fixed order.
    pub const ALL: [Mistake; 4] = [
        Mistake::Misread,
        Mistake::Missing,
        Mistake::Extra,
        Mistake::First,
    ];
}

/// `record` with one `mistake` at a place `rng` picks; `None` when the
/// record has no place for it (no simple move written out to misread, a
/// single move to leave out). Moves keep the form they are written in
/// (a PDN capture stays short).
pub fn miswrite(record: &Record, mistake: Mistake, rng: &mut Rng) -> Option<Record> {
    use crate::notation::WrittenMove;
    let mut moves = record.written_moves();
    let mut first = record.first;
    let n = moves.len();
    match mistake {
        Mistake::Misread => {
            let simple: Vec<usize> = (0..n)
                .filter(|&i| matches!(&moves[i], WrittenMove::Known(mv) if !mv.is_capture()))
                .collect();
            let &i = simple.get(rng.below(simple.len().max(1)))?;
            let WrittenMove::Known(mv) = &moves[i] else {
                return None;
            };
            moves[i] = WrittenMove::Known(misread_landing(mv, rng)?);
        }
        Mistake::Missing => {
            if n < 2 {
                return None;
            }
            moves.remove(rng.below(n));
        }
        Mistake::Extra => {
            let i = rng.below(n.max(1));
            let copy = moves.get(i)?.clone();
            moves.insert(i + 1, copy);
        }
        Mistake::First => first = first.opposite(),
    }
    Some(Record::from_written(first, moves, record.line))
}

/// `record` as a damaged score sheet would have it (`shared/spec/damaged.md`):
/// the moves it played still fit, so the damaged record is solvable
/// whenever the record was.
pub fn damage(record: &Record, rng: &mut Rng, damage: Damage) -> Record {
    use crate::notation::{MovePattern, WrittenMove};
    let mut written: Vec<WrittenMove> = record
        .moves
        .iter()
        .map(|mv| match damage.short_captures && mv.is_capture() {
            true => written_short(mv, rng),
            false => WrittenMove::Known(mv.clone()),
        })
        .collect();
    // Distinct plies: N unknown moves are N, not N draws that may repeat.
    for i in distinct(rng, written.len(), damage.unknown_moves) {
        written[i] = WrittenMove::Pattern(MovePattern::Unknown);
    }
    unknown_squares(&mut written, rng, damage.unknown_squares);
    Record::from_written(record.first, written, record.line)
}

/// The capture `mv` written short: its start and end, and each landing
/// between at even odds.
fn written_short(mv: &crate::notation::MoveText, rng: &mut Rng) -> crate::notation::WrittenMove {
    use crate::notation::{MovePattern, WrittenMove};
    let path = mv.path();
    let squares = path
        .iter()
        .enumerate()
        .filter(|&(i, _)| i == 0 || i == path.len() - 1 || rng.chance(50))
        .map(|(_, &s)| Some(s))
        .collect();
    WrittenMove::Pattern(MovePattern::Path {
        squares,
        capture: true,
        short: true,
    })
}

/// `count` distinct squares of the moves still written made unknown.
fn unknown_squares(written: &mut [crate::notation::WrittenMove], rng: &mut Rng, count: usize) {
    use crate::notation::{MovePattern, WrittenMove};
    let spots: Vec<(usize, usize)> = written
        .iter()
        .enumerate()
        .flat_map(|(i, w)| {
            let squares = match w {
                WrittenMove::Known(mv) => mv.path().len(),
                WrittenMove::Pattern(MovePattern::Path { squares, .. }) => squares.len(),
                WrittenMove::Pattern(_) => 0,
            };
            (0..squares).map(move |at| (i, at))
        })
        .collect();
    for k in distinct(rng, spots.len(), count) {
        let (i, at) = spots[k];
        let (mut squares, capture, short) = match &written[i] {
            WrittenMove::Known(mv) => (
                mv.path().iter().map(|&s| Some(s)).collect(),
                mv.is_capture(),
                false,
            ),
            WrittenMove::Pattern(MovePattern::Path {
                squares,
                capture,
                short,
            }) => (squares.clone(), *capture, *short),
            WrittenMove::Pattern(_) => continue,
        };
        squares[at] = None;
        written[i] = WrittenMove::Pattern(MovePattern::Path {
            squares,
            capture,
            short,
        });
    }
}
