//! Lower bounds on the plies from a position to a target, and the reasons
//! a target cannot be reached at all: arguments that cost no search.
//!
//! Each side's pieces on the target's known squares must come from its
//! pieces now, one each: a **minimum-cost assignment** (Hungarian method)
//! where a man goes to a man's square only forward, within the cone its
//! diagonal steps can reach (unless men capture backwards), a king's square
//! takes a man's way to its crowning row or a king's moves, and no man
//! comes from a king. One move moves one piece, so a side needs at least
//! the assignment's moves, less what captures can save (a jump covers two
//! steps in one move: `2J - 1` moves saved by `J` jumps at most, and a side
//! jumps at most as many pieces as the other side can lose). The two sides
//! alternate, so the plies follow from the side that needs more.

use crate::board::{Board, Color, PartialBoard, Role, Square};
use crate::notation::plural;
use crate::rules::Movement;

/// A cost that no assignment may use.
const NEVER: u32 = 1 << 20;

/// Why no game reaches the target from a position, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NoGame(pub String);

/// What a side needs to reach the target, as far as cheap arguments tell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Need {
    /// At least `least` moves of the side; exactly that many when `exact`
    /// (no piece of either side is taken and it has no king now or there:
    /// then each of its moves is a man's step one row forward).
    Moves {
        /// The fewest moves.
        least: u32,
        /// Whether it is also the most.
        exact: bool,
        /// The most moves, where a count tells them (see [`most_moves`]).
        most: Option<u32>,
        /// A guess, not a bound: the assignment's moves without what
        /// captures may save (the search for any game steers by it; the
        /// savings make the bound near zero once many pieces are to go).
        guess: u32,
        /// The moves by who takes whom (`None` when the target is not
        /// fully known or the moves are exact).
        split: Option<Split>,
    },
    /// Never: why.
    Never(String),
}

/// A side's fewest moves by who takes whom: the bound over capture events
/// (`encodings/reach.md`). A piece taken by one of the other side's
/// surviving men (men that take only forward and are never crowned) must
/// first come within that man's way to its square, and only jumps by the
/// side's own survivors save it moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Split {
    /// Index `y`: the fewest moves when `y` of the side's lost pieces are
    /// taken by the other side's survivors (never fewer as `y` grows).
    pub by_met: Vec<u32>,
    /// The assignment of the side's surviving pieces alone, before any
    /// saving: its survivors making `x` jumps need at least this less
    /// [`savings`]`(x)`.
    pub survivors: u32,
    /// The side's part of the bound over both sides' moves together
    /// (`None` where its argument does not hold).
    pub joint: Option<Joint>,
}

/// One side's part of the bound over both sides' moves together
/// (`encodings/reach.md`, "exchanges" and "crowning"): the plies are both
/// sides' moves, and the rows a piece advances before it is taken are
/// moves no assignment of one side counts. Holds only where men take only
/// forward and no piece is a king now or on the target (8x8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Joint {
    /// The survivors' rows and each lost piece's share of the rows lost
    /// pieces advance, least over which pieces are lost (may be below
    /// zero: a share is what is left after the advanced rows now).
    pub paired: i64,
    /// As `paired` with every share at most 2 (3 on the edge): what holds
    /// when the other side crowns a man (a king takes a piece anywhere,
    /// but its jump saves no row).
    pub capped: i64,
    /// The pieces the side takes.
    pub jumps: u32,
    /// What crowning a man costs the side (`None` when it cannot: it
    /// loses nothing, and the target has no king).
    pub crowning: Option<Crowning>,
}

/// What a side that crowns a man on the way (and loses it again) pays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Crowning {
    /// Beyond every lost piece's share ([`crowning_cost`]).
    pub beyond_shares: i64,
    /// Its fewest moves: its assignment with one lost man's walk to the
    /// crowning row in place of its edge cost, less what jumps save.
    pub moves: u32,
}

/// The most moves `jumps` jumps save one side: a jump covers two steps in
/// one move, and the first capture move is a move.
pub(crate) fn savings(jumps: u32) -> u32 {
    if jumps > 0 {
        2 * jumps - 1
    } else {
        0
    }
}

// For the tests and measurements, on this thread: `JOINT_OFF` leaves the
// joint bound out (with and without it in one build; the exact minimum it
// is checked against), `CROWN_OFF` its crowning cases (unsound: what they
// cost).
#[cfg(test)]
thread_local! {
    pub(crate) static JOINT_OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    pub(crate) static CROWN_OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The fewest plies over every split of the captures (`needs` indexed by
/// colour): `x` pieces of Black taken by White's survivors, `y` of White's
/// by Black's; a side without a split counts its `least` (it takes
/// nothing and loses nothing).
pub(crate) fn plies_over_captures(
    needs: [(u32, bool, Option<&Split>); 2],
    side: Color,
    turn: Color,
) -> Result<u32, NoGame> {
    let (black, white) = (needs[Color::Black as usize], needs[Color::White as usize]);
    // Where a side's moves do not depend on its pieces met, the other
    // side's survivors take them all (the most they may save).
    let met_tried = |need: (u32, bool, Option<&Split>)| {
        let by_met = need.2.map_or(&[0][..], |s| &s.by_met[..]);
        let most = by_met.len() - 1;
        (if by_met[0] == by_met[most] { most } else { 0 })..=most
    };
    let moves = |need: (u32, bool, Option<&Split>), met: usize, jumps: usize| match need.2 {
        Some(split) => split.by_met[met].max(split.survivors.saturating_sub(savings(jumps as u32))),
        None => need.0,
    };
    let mut best: Option<Result<u32, NoGame>> = None;
    for x in met_tried(black) {
        for y in met_tried(white) {
            let mut split = [(0, false); 2];
            split[Color::White as usize] = (moves(white, y, x), white.1);
            split[Color::Black as usize] = (moves(black, x, y), black.1);
            best = match (best, plies_from(split, side, turn)) {
                (Some(Ok(a)), Ok(b)) => Some(Ok(a.min(b))),
                (Some(Ok(a)), Err(_)) => Some(Ok(a)),
                (_, plies) => Some(plies),
            };
        }
    }
    best.unwrap_or(Ok(0))
}

/// The bound over both sides' moves together (see [`Joint`]): every ply
/// is a move of one side, so the plies are at least both sides' rows
/// (survivors' and lost pieces') less what their jumps save, with the
/// parity the side to move at the end fixes (0 where a side's argument
/// does not hold). The least over who crowns a
/// man on the way (no one, White, Black, both): a side that crowns pays
/// [`Joint::crowning`], and the other side's shares are capped (its
/// pieces may be taken by the king anywhere).
pub(crate) fn joint_plies(
    needs: [(u32, bool, Option<&Split>); 2],
    side: Color,
    turn: Color,
) -> u32 {
    #[cfg(test)]
    if JOINT_OFF.get() {
        return 0;
    }
    joint_cases(needs, side, turn).unwrap_or(0)
}

/// [`joint_plies`], `None` where a side's argument does not hold.
pub(crate) fn joint_cases(
    needs: [(u32, bool, Option<&Split>); 2],
    side: Color,
    turn: Color,
) -> Option<u32> {
    let part = |need: (u32, bool, Option<&Split>)| match need.2 {
        Some(split) => split.joint,
        // A side that takes nothing, loses nothing and has no king moves
        // exactly its rows (and crowns no man: it would be a king there).
        None if need.1 => Some(Joint {
            paired: i64::from(need.0),
            capped: i64::from(need.0),
            jumps: 0,
            crowning: None,
        }),
        None => None,
    };
    let parts = [
        part(needs[Color::White as usize])?,
        part(needs[Color::Black as usize])?,
    ];
    let saved = i64::from(savings(parts[0].jumps) + savings(parts[1].jumps));
    // Who crowns, by colour; each case is the greater of the shares' count
    // and each side's own moves (a side that crowns walks a man there).
    let case = |crowns: [bool; 2]| -> Option<u32> {
        #[cfg(test)]
        if crowns != [false, false] && CROWN_OFF.get() {
            return None;
        }
        let mut rows = -saved;
        let mut moves = [0; 2];
        for (i, joint) in parts.iter().enumerate() {
            let capped = crowns[1 - i];
            rows += if capped { joint.capped } else { joint.paired };
            moves[i] = needs[i].0;
            if crowns[i] {
                let crowning = joint.crowning?;
                rows += crowning.beyond_shares;
                moves[i] = moves[i].max(crowning.moves);
            }
        }
        let least = rows.max(0) as u32;
        // k plies end with the side to move now to move again when k is even.
        let least = least + u32::from(least.is_multiple_of(2) != (side == turn));
        let (mine, theirs) = (moves[side as usize], moves[side.opposite() as usize]);
        Some(least.max(plies_for(mine, theirs, side == turn)))
    };
    [[false, false], [true, false], [false, true], [true, true]]
        .into_iter()
        .filter_map(case)
        .min()
}

/// The fewest plies from a position where `side` is to move to the target
/// with `turn` to move, given each side's [`Need`] (indexed by colour), or
/// why no number of plies fits: a side whose moves are exact fixes the
/// plies, and the other side's moves must fit in them.
pub(crate) fn plies_from(needs: [(u32, bool); 2], side: Color, turn: Color) -> Result<u32, NoGame> {
    let (mine, mine_exact) = needs[side as usize];
    let (theirs, theirs_exact) = needs[side.opposite() as usize];
    let same = side == turn;
    let least = plies_for(mine, theirs, same);
    // k plies: ceil(k/2) moves of `side`, floor(k/2) of the other.
    let fixed = if mine_exact {
        Some((2 * mine).saturating_sub(u32::from(!same)))
    } else if theirs_exact {
        Some(2 * theirs + u32::from(!same))
    } else {
        None
    };
    let Some(k) = fixed else {
        return Ok(least);
    };
    let fits =
        |moves: u32, exact: bool, made: u32| if exact { made == moves } else { made >= moves };
    if (mine_exact && !same && mine == 0)
        || !fits(mine, mine_exact, k.div_ceil(2))
        || !fits(theirs, theirs_exact, k / 2)
    {
        let (who, count) = if mine_exact {
            (side, mine)
        } else {
            (side.opposite(), theirs)
        };
        let (other, needs, needs_exact) = if mine_exact {
            (side.opposite(), theirs, theirs_exact)
        } else {
            (side, mine, mine_exact)
        };
        let moves = |n: u32| plural(n as usize, "move");
        let exact = format!(
            "{} must make exactly {} from the start (its men advance {} in all, and no piece is taken or crowned)",
            who.title(),
            moves(count),
            plural(count as usize, "row"),
        );
        if mine_exact && !same && mine == 0 {
            return Err(NoGame(format!(
                "{exact}, yet {} is to move at the end: {}, to move first, must have moved",
                turn.name(),
                side.title(),
            )));
        }
        // k plies: ceil(k/2) moves of `side`, floor(k/2) of the other.
        let allowed = if mine_exact { k / 2 } else { k.div_ceil(2) };
        return Err(NoGame(format!(
            "{exact}; with {} to move first and {} to move at the end, {} then makes {}, but it needs {}{}",
            side.name(),
            turn.name(),
            other.title(),
            moves(allowed),
            if needs_exact { "exactly " } else { "at least " },
            needs,
        )));
    }
    Ok(k)
}

/// The fewest plies in which the side to move makes `mine` moves and the
/// other `theirs`, ending with the side to move to move again when `same`.
pub(crate) fn plies_for(mine: u32, theirs: u32, same: bool) -> u32 {
    // k plies: ceil(k/2) moves of the side to move, floor(k/2) of the other.
    let mut k = (2 * mine).saturating_sub(1).max(2 * theirs);
    if k.is_multiple_of(2) != same {
        k += 1;
    }
    k
}

/// The fewest moves `color` needs from `board` to `target`.
pub(crate) fn moves_needed(
    board: &Board,
    target: &PartialBoard,
    color: Color,
    movement: Movement,
) -> Need {
    let rules_movement = movement;
    let (sources, targets) = pieces_now_and_asked(board, target, color);
    if targets.len() > sources.len() {
        return too_many(color, targets.len(), sources.len());
    }
    // Pieces of the other side that may still be taken: each jump saves
    // at most two moves' steps, and the first capture move costs one.
    let (theirs_now, theirs_kept) = pieces_now_and_kept(board, target, color.opposite());
    let jumps = theirs_now.saturating_sub(theirs_kept);
    // A man goes back only by capturing: not when this side takes nothing.
    let mut movement = movement;
    movement.men_capture_backwards &= jumps > 0;
    let mut costs = match cost_rows(&sources, &targets, color, movement) {
        Ok(costs) => costs,
        Err(never) => return never,
    };
    // Each piece of this side that is taken leaves from a square off the
    // board's edge (a jump needs a square on each side): one on the edge
    // moves first.
    let lost = sources.len() - targets.len();
    if fully_known(target) {
        costs.extend(std::iter::repeat_n(edge_costs(&sources), lost));
    }
    // The targets' rows once, then each way of adding the lost pieces'.
    let mut survivors_only = Assignment::new(sources.len());
    for row in &costs[..targets.len()] {
        survivors_only.add(row);
    }
    let survivors = survivors_only.total().unwrap_or(NEVER);
    let Some(total) = survivors_only.with(costs[targets.len()..].iter().cloned()) else {
        return Need::Never(format!(
            "the {} pieces asked for cannot all come from different {} pieces: men move only forward",
            color.name(),
            color.name()
        ));
    };
    let saved = savings(jumps);
    let misplaced = misplaced(board, &targets, color);
    let must_capture = u32::from(fully_known(target) && theirs_now > theirs_kept);
    let kings = targets.iter().chain(&sources).any(|p| p.1 == Role::King);
    let least = total.saturating_sub(saved).max(misplaced).max(must_capture);
    let done = (jumps, least, fully_known(target) && lost == 0 && !kings);
    let most = match most_moves(&sources, &targets, color, rules_movement, done) {
        Ok(most) => most,
        Err(whole) => return whole,
    };
    let side = SideParts {
        board,
        target,
        color,
        movement: rules_movement,
        sources: &sources,
        survivors_only: &survivors_only,
        lost_rows: &costs[targets.len()..],
        jumps,
    };
    let split = fully_known(target).then(|| side.split(survivors, total, saved, least));
    Need::Moves {
        least,
        exact: false,
        most,
        guess: total.max(least),
        split,
    }
}

/// The most moves of a side that is `done` losing (it loses nothing more
/// and has no king now or on the target, so it crowns none: a king stays
/// one), where men take only forward: each move takes a man a row forward,
/// a jump two rows, so its moves are at most its men's rows to go less its
/// `jumps` (one per piece it takes). `None` where it is not done or men
/// take backwards; `Err` the side's whole need when the rows tell it: exact
/// when it takes nothing, never when the most is below `least`.
fn most_moves(
    sources: &[(Square, Role)],
    targets: &[(Square, Role)],
    color: Color,
    movement: Movement,
    (jumps, least, done): (u32, u32, bool),
) -> Result<Option<u32>, Need> {
    if done && jumps == 0 {
        return Err(men_steps_only(sources, targets, color, least));
    }
    if !done || movement.men_capture_backwards {
        return Ok(None);
    }
    let rows = |squares: &[(Square, Role)]| -> i64 {
        squares.iter().map(|&(sq, _)| forward_rows(sq, color)).sum()
    };
    let most = rows(targets) - rows(sources) - i64::from(jumps);
    match u32::try_from(most) {
        Ok(most) if most >= least => Ok(Some(most)),
        _ => Err(Need::Never(format!(
            "{}'s men cannot end where they are asked to: it loses nothing more, so each move takes a man forward, and its {} {} forward",
            color.title(),
            plural(jumps as usize, "capture"),
            if jumps == 1 { "is a jump" } else { "are jumps" },
        ))),
    }
}

/// Whether some number of plies gives each side a number of moves between
/// its least and its most (indexed by colour; `side` to move now, `turn`
/// at the end): k plies give the side to move ceil(k/2) moves, the other
/// floor(k/2). Why not, when none does.
pub(crate) fn moves_fit(
    least: [u32; 2],
    most: [Option<u32>; 2],
    side: Color,
    turn: Color,
) -> Result<(), NoGame> {
    // The side to move makes `d` more moves than the other (0 or 1).
    let d = i64::from(side != turn);
    let (mine, theirs) = (side as usize, side.opposite() as usize);
    let at_most = |i: usize| most[i].map_or(i64::MAX, i64::from);
    // The other side's moves `b`: the side to move makes `b + d`.
    let low = i64::from(least[theirs]).max(i64::from(least[mine]) - d);
    let high = at_most(theirs).min(at_most(mine).saturating_sub(d));
    if low <= high {
        return Ok(());
    }
    let (who, other) = if at_most(mine).saturating_sub(d) < low {
        (side, side.opposite())
    } else {
        (side.opposite(), side)
    };
    Err(NoGame(format!(
        "{} loses nothing more and has no king, so it makes at most {} (its men's rows to go, less one per piece it takes), and {} needs more moves than that allows",
        who.title(),
        plural(most[who as usize].unwrap_or(0) as usize, "move"),
        other.name(),
    )))
}

/// What [`moves_needed`] knows of a side when it splits its need by the
/// captures (the target wholly known).
struct SideParts<'a> {
    board: &'a Board,
    target: &'a PartialBoard,
    color: Color,
    movement: Movement,
    sources: &'a [(Square, Role)],
    /// The assignment of the target's pieces alone.
    survivors_only: &'a Assignment,
    /// The cost rows of the pieces it loses.
    lost_rows: &'a [Vec<u32>],
    /// The other side's pieces it may still take.
    jumps: u32,
}

impl SideParts<'_> {
    /// The side's need split by who takes whom (`total` the assignment
    /// with the lost pieces, less `saved`, never below `least`).
    fn split(&self, survivors: u32, total: u32, saved: u32, least: u32) -> Split {
        let lost = self.lost_rows.len();
        let (board, target, color) = (self.board, self.target, self.color);
        let met = (lost > 0)
            .then(|| met_costs(board, target, color, self.movement, self.sources))
            .flatten();
        let moves = |cost: u32| cost.max(total).saturating_sub(saved).max(least);
        let joint = joint_part(
            board,
            target,
            color,
            self.movement,
            self.survivors_only,
            self.sources,
        );
        Split {
            by_met: by_met(self.survivors_only, met, lost, moves),
            survivors,
            joint: joint.map(|(paired, capped)| Joint {
                paired,
                capped,
                jumps: self.jumps,
                crowning: (lost > 0).then(|| Crowning {
                    beyond_shares: crowning_cost(board.topology().size(), self.jumps),
                    moves: walk_moves(self.survivors_only, self.lost_rows, self.sources, color)
                        .saturating_sub(saved)
                        .max(least),
                }),
            }),
        }
    }
}

/// Never: a side never gains pieces.
fn too_many(color: Color, asked: usize, now: usize) -> Need {
    Need::Never(format!(
        "{} has {asked} pieces on the board asked for, but only {now} where the game starts (a side never gains pieces)",
        color.title(),
    ))
}

/// What each piece costs to be taken: one off the edge first.
fn edge_costs(sources: &[(Square, Role)]) -> Vec<u32> {
    sources
        .iter()
        .map(|&(s, _)| u32::from(on_edge(s)))
        .collect()
}

/// The fewest moves (`moves` of an assignment's cost) with `y` of the
/// `lost` pieces taken by the other side's survivors, for each `y`: the
/// targets' rows (`survivors`) and `y` rows of `met_row` (the other lost pieces left
/// out, which only lowers the cost); all `moves(0)` without `met_row`.
fn by_met(
    survivors: &Assignment,
    met_row: Option<Vec<u32>>,
    lost: usize,
    moves: impl Fn(u32) -> u32,
) -> Vec<u32> {
    let Some(met_row) = met_row else {
        return vec![moves(0); lost + 1];
    };
    let mut more = survivors.clone();
    let first = survivors.total();
    std::iter::once(first)
        .chain((0..lost).map(|_| more.add(&met_row)))
        .map(|cost| cost.map_or(NEVER, &moves))
        .collect()
}

/// What each piece of `color` costs, taken by one of the other side's
/// surviving men: it must first reach a row that man's way to its square
/// passes (at least one off the edge, as any piece taken). `None` when the
/// argument does not hold: the other side has kings (now or on the target)
/// or its men take backwards, so its survivors may take anywhere.
fn met_costs(
    board: &Board,
    target: &PartialBoard,
    color: Color,
    movement: Movement,
    sources: &[(Square, Role)],
) -> Option<Vec<u32>> {
    let other = color.opposite();
    let other_kings = board.occupied_by(other) & board.kings() != 0;
    // The target is fully known here: its board is the target.
    let on_target = &target.board;
    if movement.men_capture_backwards
        || other_kings
        || on_target.occupied_by(other) & on_target.kings() != 0
    {
        return None;
    }
    // A survivor of the other side jumps only between its square now and
    // its square on the target, both rows ahead of it: the piece it takes
    // stands at least `size - frontier` rows ahead of this side's back row.
    let frontier = on_target
        .squares_of(other)
        .map(|t| forward_rows(t, other))
        .max()
        .unwrap_or(0);
    let size = i64::from(board.topology().size());
    Some(
        sources
            .iter()
            .map(|&(s, role)| {
                let edge = u32::from(on_edge(s));
                if role == Role::King {
                    return edge;
                }
                let ahead = size - frontier - forward_rows(s, color);
                edge.max(u32::try_from(ahead).unwrap_or(0))
            })
            .collect(),
    )
}

/// What crowning a man costs a side that takes `jumps` pieces, beyond
/// every lost piece's share (`encodings/reach.md`, "crowning"): a man
/// crowned walks to the crowning row, `size / 2 - 1` rows more than its
/// share; one that took `k` pieces as a man on the way meets them further
/// back, so it and its victims pay `(k - 1)(k - 3)` more than their shares
/// on 8x8: 3 for none, 0 for one or three, -1 for two (a crowning double
/// jump), and two pieces taken for each -1.
fn crowning_cost(size: u8, jumps: u32) -> i64 {
    match jumps {
        0 => i64::from(size) / 2 - 1,
        1 => 0,
        _ => -i64::from(jumps / 2),
    }
}

/// The side's fewest moves before savings when one of its lost men is
/// crowned: the targets' rows (`survivors`) and the lost pieces' edge rows
/// (`lost_rows`), the first of them replaced by each man's walk to its
/// crowning row.
fn walk_moves(
    survivors: &Assignment,
    lost_rows: &[Vec<u32>],
    sources: &[(Square, Role)],
    color: Color,
) -> u32 {
    let size = i64::from(sources[0].0.topology().size());
    let walk: Vec<u32> = sources
        .iter()
        .map(|&(s, role)| match role {
            Role::Man => (size - 1 - forward_rows(s, color)) as u32,
            Role::King => NEVER,
        })
        .collect();
    let rest = lost_rows.iter().skip(1).cloned();
    survivors
        .with(std::iter::once(walk).chain(rest))
        .unwrap_or(NEVER)
}

/// A side's part of the joint bound: its survivors' assignment with each
/// lost piece's share of the rows lost pieces advance, as [`Joint`]'s
/// `paired` and `capped` (`None` where the argument fails: kings now or on
/// the target, men that take backwards, a board not 8x8).
///
/// A man `q` takes forward, so the piece it takes stands one row ahead of
/// it and `q` lands two rows ahead: with `g` the rows each stands from its
/// back row now, the two advance at least `size - g_p - g_q` rows together,
/// and a man taking `k` pieces lands further each time, so its victims and
/// it advance at least `(k + 1) * size / 2` less their `g`s (on 8x8). Each
/// taken piece is taken by a lost piece or a survivor (then it reaches the
/// survivor's way: `size - frontier - g`); grouping each capturer with its
/// victims gives every lost piece a share of `size / 2 - g` or the
/// survivor's `size - frontier - g`, whichever is less.
fn joint_part(
    board: &Board,
    target: &PartialBoard,
    color: Color,
    movement: Movement,
    survivors: &Assignment,
    sources: &[(Square, Role)],
) -> Option<(i64, i64)> {
    let on_target = &target.board;
    let size = i64::from(board.topology().size());
    if movement.men_capture_backwards || size != 8 || board.kings() != 0 || on_target.kings() != 0 {
        return None;
    }
    let survivors_way = on_target
        .squares_of(color.opposite())
        .map(|t| size - forward_rows(t, color.opposite()))
        .min()
        .unwrap_or(size);
    let shares = |cap: i64| -> Vec<i64> {
        sources
            .iter()
            .map(|&(s, _)| {
                let g = forward_rows(s, color);
                ((size / 2).min(survivors_way) - g).min(cap + i64::from(on_edge(s)))
            })
            .collect()
    };
    let lost = sources.len() - survivors.rows();
    let paired = with_lost_shares(survivors, &shares(size), lost)?;
    let capped = with_lost_shares(survivors, &shares(2), lost)?;
    Some((paired, capped))
}

/// The least cost of the targets' rows (`survivors`) and one row of
/// `shares` (which may be below zero) for each of the `lost` pieces.
fn with_lost_shares(survivors: &Assignment, shares: &[i64], lost: usize) -> Option<i64> {
    // The assignment takes costs of at least zero: every lost row shifted
    // by the same amount, taken off again after.
    let shift = shares.iter().map(|&x| -x).max().unwrap_or(0).max(0);
    let lost_row: Vec<u32> = shares.iter().map(|&x| (x + shift) as u32).collect();
    let total = survivors.with(std::iter::repeat_n(lost_row, lost))?;
    Some(i64::from(total) - shift * lost as i64)
}

/// Pieces with their squares.
type Pieces = Vec<(Square, Role)>;

/// The pieces of `color` on `board` and on `target`.
fn pieces_now_and_asked(board: &Board, target: &PartialBoard, color: Color) -> (Pieces, Pieces) {
    let sources = board
        .squares_of(color)
        .filter_map(|s| board.get(s).map(|p| (s, p.role)))
        .collect();
    let targets = target
        .facts()
        .filter_map(|(s, p)| p.filter(|p| p.color == color).map(|p| (s, p.role)))
        .collect();
    (sources, targets)
}

/// How many pieces of `color` are on `board`, and how many `target` keeps.
fn pieces_now_and_kept(board: &Board, target: &PartialBoard, color: Color) -> (u32, u32) {
    let now = board.occupied_by(color).count_ones();
    let kept = target
        .facts()
        .filter(|(_, p)| p.is_some_and(|p| p.color == color))
        .count() as u32;
    (now, kept)
}

/// The cost of each target (a row) from each source piece (a column), or
/// why a target can be reached from none.
fn cost_rows(
    sources: &[(Square, Role)],
    targets: &[(Square, Role)],
    color: Color,
    movement: Movement,
) -> Result<Vec<Vec<u32>>, Need> {
    let costs: Vec<Vec<u32>> = targets
        .iter()
        .map(|&(t, role)| {
            sources
                .iter()
                .map(|&(s, from)| cost(s, from, t, role, color, movement))
                .collect()
        })
        .collect();
    if let Some(&(t, role)) = targets
        .iter()
        .zip(&costs)
        .find(|(_, row)| row.iter().all(|&c| c >= NEVER))
        .map(|(t, _)| t)
    {
        return Err(Need::Never(format!(
            "no {} piece can reach the {} {} on {}: men move only forward, and no man becomes a king's square's man",
            color.name(),
            color.name(),
            if role == Role::King { "king" } else { "man" },
            t
        )));
    }
    Ok(costs)
}

/// The targets whose square does not hold that piece of `color` yet.
fn misplaced(board: &Board, targets: &[(Square, Role)], color: Color) -> u32 {
    targets
        .iter()
        .filter(|&&(t, role)| {
            board
                .get(t)
                .is_none_or(|p| p.color != color || p.role != role)
        })
        .count() as u32
}

/// The moves when every move is one man's step one row forward (nothing
/// taken, no kings): the rows tell them exactly, if at least `least`.
fn men_steps_only(
    sources: &[(Square, Role)],
    targets: &[(Square, Role)],
    color: Color,
    least: u32,
) -> Need {
    let rows = |squares: &[(Square, Role)]| -> i64 {
        squares.iter().map(|&(sq, _)| forward_rows(sq, color)).sum()
    };
    let advanced = rows(targets) - rows(sources);
    match u32::try_from(advanced) {
        Ok(moves) if moves >= least => Need::Moves {
            least: moves,
            exact: true,
            most: Some(moves),
            guess: moves,
            split: None,
        },
        _ => Need::Never(format!(
            "{}'s men cannot end where they are asked to: they take nothing, so each move is one step forward",
            color.title()
        )),
    }
}

/// Whether `sq` is on the board's edge, where no piece can be jumped.
fn on_edge(sq: Square) -> bool {
    let last = sq.topology().size() - 1;
    sq.row() == 0 || sq.row() == last || sq.col() == 0 || sq.col() == last
}

/// How far `sq` is from `color`'s own back row, in rows.
fn forward_rows(sq: Square, color: Color) -> i64 {
    let row = i64::from(sq.row());
    if color == Color::Black {
        row
    } else {
        i64::from(sq.topology().size()) - 1 - row
    }
}

/// Whether the target gives every square.
fn fully_known(target: &PartialBoard) -> bool {
    let all = target.board.topology().all_bits();
    target.known & all == all
}

/// The fewest moves for a `from` piece of `color` on `s` to become a
/// `role` piece on `t`, without captures ([`NEVER`] when it cannot).
fn cost(s: Square, from: Role, t: Square, role: Role, color: Color, movement: Movement) -> u32 {
    let forward = |a: Square, b: Square| -> i32 {
        let d = i32::from(b.row()) - i32::from(a.row());
        if color == Color::Black {
            d
        } else {
            -d
        }
    };
    let across = |a: Square, b: Square| (i32::from(a.col()) - i32::from(b.col())).unsigned_abs();
    let steps = |a: Square, b: Square| forward(a, b).unsigned_abs().max(across(a, b));
    let king_moves = |a: Square, b: Square| -> u32 {
        if a == b {
            0
        } else if movement.flying_kings {
            if a.diagonal_to(b).is_some() {
                1
            } else {
                2
            }
        } else {
            steps(a, b)
        }
    };
    let man_moves = |a: Square, b: Square| -> u32 {
        let ahead = forward(a, b);
        if movement.men_capture_backwards {
            steps(a, b)
        } else if ahead >= 0 && across(a, b).cast_signed() <= ahead {
            ahead.unsigned_abs()
        } else {
            NEVER
        }
    };
    match (from, role) {
        (Role::King, Role::Man) => NEVER,
        (Role::King, Role::King) => king_moves(s, t),
        (Role::Man, Role::Man) => man_moves(s, t),
        (Role::Man, Role::King) => {
            // Forward to the crowning row, then a king's move unless it is
            // crowned on the square itself.
            let row = s.topology().crowning_row(color);
            let rows = if color == Color::Black {
                i32::from(row) - i32::from(s.row())
            } else {
                i32::from(s.row()) - i32::from(row)
            };
            let crowned_there = t.row() == row && man_moves(s, t) < NEVER;
            rows.unsigned_abs() + u32::from(!crowned_there)
        }
    }
}

/// The Hungarian method's state after some rows: it adds one row at a time
/// and keeps the assignment of the rows so far optimal, so one run gives
/// every prefix, and a clone goes on from the same rows (the targets') with
/// different rows after them (the lost pieces' costs, each way).
#[derive(Clone, Debug)]
struct Assignment {
    /// The rows so far, one after the other.
    costs: Vec<u32>,
    columns: usize,
    u: Vec<i64>,
    v: Vec<i64>,
    p: Vec<usize>,
    way: Vec<usize>,
}

impl Assignment {
    fn new(columns: usize) -> Assignment {
        Assignment {
            costs: Vec::new(),
            columns,
            u: vec![0],
            v: vec![0; columns + 1],
            p: vec![0; columns + 1],
            way: vec![0; columns + 1],
        }
    }

    /// The least cost of the rows so far (`None`: only with a [`NEVER`]).
    fn total(&self) -> Option<u32> {
        // The potentials' dual value: the optimum of the rows so far.
        let total = -self.v[0];
        (total < i64::from(NEVER)).then_some(total as u32)
    }

    /// How many rows were added.
    fn rows(&self) -> usize {
        self.u.len() - 1
    }

    /// Adds `row` (one cost per column) and gives the new least cost.
    fn add(&mut self, row: &[u32]) -> Option<u32> {
        self.costs.extend_from_slice(row);
        self.u.push(0);
        self.add_row(self.u.len() - 1);
        self.total()
    }

    /// One step of the Hungarian method: row `i` (from 1) joins the
    /// assignment of the rows before it, along a shortest augmenting path.
    fn add_row(&mut self, i: usize) {
        let m = self.columns;
        let inf = i64::MAX / 4;
        let (u, v, p, way) = (&mut self.u, &mut self.v, &mut self.p, &mut self.way);
        p[0] = i;
        let mut j0 = 0;
        let mut min_v = vec![inf; m + 1];
        let mut used = vec![false; m + 1];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let row = &self.costs[(i0 - 1) * m..i0 * m];
            let mut delta = inf;
            let mut j1 = 0;
            for j in 1..=m {
                if used[j] {
                    continue;
                }
                let cur = i64::from(row[j - 1]) - u[i0] - v[j];
                if cur < min_v[j] {
                    min_v[j] = cur;
                    way[j] = j0;
                }
                if min_v[j] < delta {
                    delta = min_v[j];
                    j1 = j;
                }
            }
            for j in 0..=m {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    min_v[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }

    /// The least cost with `rows` added after the rows so far (this state
    /// kept for the next way).
    fn with(&self, rows: impl IntoIterator<Item = Vec<u32>>) -> Option<u32> {
        let mut more = self.clone();
        let mut total = more.total();
        for row in rows {
            total = more.add(&row);
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The least total cost of giving each of the first `i` rows a different
    /// column (rows no more than columns), for each `i` from 0 to all of them
    /// (`None` when every way uses a [`NEVER`] cost): see [`Assignment`].
    fn assignment_prefixes(costs: &[Vec<u32>]) -> Vec<Option<u32>> {
        let mut prefixes = vec![Some(0)];
        let Some(first) = costs.first() else {
            return prefixes;
        };
        let mut assignment = Assignment::new(first.len());
        prefixes.extend(costs.iter().map(|row| assignment.add(row)));
        prefixes
    }

    fn assignment(costs: &[Vec<u32>]) -> Option<u32> {
        assignment_prefixes(costs).last().copied().flatten()
    }

    #[test]
    fn the_assignment_is_the_cheapest() {
        let costs = vec![vec![4, 1, 3], vec![2, 0, 5]];
        assert_eq!(assignment(&costs), Some(3));
        assert_eq!(assignment(&[vec![NEVER, NEVER]]), None);
        assert_eq!(assignment(&[vec![NEVER, 2], vec![NEVER, 1]]), None);
        assert_eq!(assignment(&[]), Some(0));
    }

    /// The cheapest assignment of `rows` rows, by trying every one.
    fn brute_force(costs: &[Vec<u32>], row: usize, used: &mut Vec<bool>) -> u32 {
        if row == costs.len() {
            return 0;
        }
        let mut best = u32::MAX;
        for col in 0..used.len() {
            if !used[col] {
                used[col] = true;
                let rest = brute_force(costs, row + 1, used);
                best = best.min(costs[row][col].saturating_add(rest));
                used[col] = false;
            }
        }
        best
    }

    #[test]
    fn every_prefix_of_the_rows_gets_its_cheapest_assignment() {
        let mut rng = crate::random::Rng::new(45);
        for _ in 0..200 {
            let (rows, cols) = (1 + rng.below(5), 5 + rng.below(2));
            let costs: Vec<Vec<u32>> = (0..rows)
                .map(|_| (0..cols).map(|_| rng.below(9) as u32).collect())
                .collect();
            let prefixes = assignment_prefixes(&costs);
            for i in 0..=rows {
                let want = brute_force(&costs[..i], 0, &mut vec![false; cols]);
                assert_eq!(prefixes[i], Some(want), "{costs:?} first {i}");
            }
        }
    }

    #[test]
    fn plies_follow_the_side_that_needs_more() {
        // The side to move needs 3 moves, the other 1, ending with the same
        // side to move: 3 + 2 = 5 plies is odd, so 6.
        assert_eq!(plies_for(3, 1, true), 6);
        assert_eq!(plies_for(3, 1, false), 5);
        assert_eq!(plies_for(0, 0, true), 0);
        assert_eq!(plies_for(0, 0, false), 1);
        assert_eq!(plies_for(0, 2, true), 4);
        assert_eq!(plies_for(1, 1, false), 3);
    }
}
