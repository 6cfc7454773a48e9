//! A second move generator for the flying-king rule sets, written for the
//! tests and sharing no code with the library: a plain array of numbers
//! (8x8 up to 12x12), captures by recursion, the rules of `shared/spec/variants.md`
//! (and `russian.md`, `international.md`) as a few flags. Its perft counts
//! and move lists must be the library's.

use postfacto::board::{Board, Color, Piece, Role, Square, Topology};
use postfacto::rules::{perft, Variant};
use proptest::prelude::*;

/// A square as (row, column).
type At = (i8, i8);

/// A jump: the piece taken and the landings behind it.
type Jump = (At, Vec<At>);

/// The rules the oracle knows, as flags.
#[derive(Clone, Copy, Debug)]
struct Flags {
    men_capture_backwards: bool,
    crowned_mid_capture: bool,
    king_lands_to_continue: bool,
    most_pieces: bool,
    /// Among the captures of the most pieces, those of the most kings.
    most_kings: bool,
    king_first: bool,
}

fn flags(variant: Variant) -> Flags {
    let none = Flags {
        men_capture_backwards: true,
        crowned_mid_capture: false,
        king_lands_to_continue: false,
        most_pieces: false,
        most_kings: false,
        king_first: false,
    };
    match variant.name() {
        "russian" => Flags {
            crowned_mid_capture: true,
            king_lands_to_continue: true,
            ..none
        },
        "brazilian" | "international" | "canadian" => Flags {
            most_pieces: true,
            ..none
        },
        "spanish" | "portuguese" => Flags {
            men_capture_backwards: false,
            most_pieces: true,
            most_kings: true,
            ..none
        },
        "pool" => none,
        "czech" => Flags {
            men_capture_backwards: false,
            king_first: true,
            ..none
        },
        other => panic!("the oracle does not know {other}"),
    }
}

/// 0 empty; +1 white man, +2 white king; -1, -2 black. Row 0 at the top,
/// White moving up. Dark squares have `row + col` odd (as the board is
/// drawn; the light-corner boards are drawn mirrored, so their dark
/// squares are the others'). Only the first `n` rows and columns are used.
type Grid = [[i8; 12]; 12];

const DIRS: [(i8, i8); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

fn sign(white: bool) -> i8 {
    if white {
        1
    } else {
        -1
    }
}

fn forward(white: bool, dr: i8) -> bool {
    if white {
        dr < 0
    } else {
        dr > 0
    }
}

/// A move: its squares (origin, then landings), what it takes and whether
/// a king makes it (for the priority rules and for playing it).
#[derive(Clone, Debug)]
struct Mv {
    path: Vec<(i8, i8)>,
    taken: Vec<(i8, i8)>,
    by_king: bool,
}

struct Gen {
    flags: Flags,
    white: bool,
    /// Rows and columns of the board.
    n: i8,
}

impl Gen {
    fn on(&self, r: i8, c: i8) -> bool {
        (0..self.n).contains(&r) && (0..self.n).contains(&c)
    }

    fn far_row(&self) -> i8 {
        if self.white {
            0
        } else {
            self.n - 1
        }
    }

    /// Every complete capture from `at` on `grid` (the mover lifted).
    #[allow(clippy::too_many_arguments)]
    fn captures_from(
        &self,
        grid: &Grid,
        at: (i8, i8),
        king: bool,
        path: &mut Vec<(i8, i8)>,
        taken: &mut Vec<(i8, i8)>,
        by_king: bool,
        out: &mut Vec<Mv>,
    ) {
        let jumps = self.jumps(grid, at, king, taken);
        let mut any = false;
        for (over, landings) in jumps {
            any = true;
            let allowed: Vec<(i8, i8)> = if king && self.flags.king_lands_to_continue {
                let mut more: Vec<(i8, i8)> = Vec::new();
                for &l in &landings {
                    taken.push(over);
                    if !self.jumps(grid, l, true, taken).is_empty() {
                        more.push(l);
                    }
                    taken.pop();
                }
                if more.is_empty() {
                    landings
                } else {
                    more
                }
            } else {
                landings
            };
            for l in allowed {
                let crowned = !king && self.flags.crowned_mid_capture && l.0 == self.far_row();
                path.push(l);
                taken.push(over);
                self.captures_from(grid, l, king || crowned, path, taken, by_king, out);
                taken.pop();
                path.pop();
            }
        }
        if !any && path.len() > 1 {
            out.push(Mv {
                path: path.clone(),
                taken: taken.clone(),
                by_king,
            });
        }
    }

    /// The jumps from `at`: the piece taken and the landings behind it.
    fn jumps(&self, grid: &Grid, at: (i8, i8), king: bool, taken: &[(i8, i8)]) -> Vec<Jump> {
        let s = sign(self.white);
        let mut out = Vec::new();
        for (dr, dc) in DIRS {
            if !king && !self.flags.men_capture_backwards && !forward(self.white, dr) {
                continue;
            }
            let (mut r, mut c) = (at.0 + dr, at.1 + dc);
            if king {
                while self.on(r, c) && grid[r as usize][c as usize] == 0 {
                    r += dr;
                    c += dc;
                }
            }
            if !self.on(r, c) || grid[r as usize][c as usize] * s >= 0 || taken.contains(&(r, c)) {
                continue;
            }
            let over = (r, c);
            let mut landings = Vec::new();
            let (mut lr, mut lc) = (r + dr, c + dc);
            while self.on(lr, lc) && grid[lr as usize][lc as usize] == 0 {
                landings.push((lr, lc));
                if !king {
                    break;
                }
                lr += dr;
                lc += dc;
            }
            if !landings.is_empty() {
                out.push((over, landings));
            }
        }
        out
    }

    fn moves(&self, grid: &Grid) -> Vec<Mv> {
        let s = sign(self.white);
        let mut captures = Vec::new();
        let mut simple = Vec::new();
        for r in 0..self.n {
            for c in 0..self.n {
                let p = grid[r as usize][c as usize];
                if p * s <= 0 {
                    continue;
                }
                let king = p.abs() == 2;
                let mut lifted = *grid;
                lifted[r as usize][c as usize] = 0;
                let (mut path, mut taken) = (vec![(r, c)], Vec::new());
                self.captures_from(
                    &lifted,
                    (r, c),
                    king,
                    &mut path,
                    &mut taken,
                    king,
                    &mut captures,
                );
                for (dr, dc) in DIRS {
                    if !king && !forward(self.white, dr) {
                        continue;
                    }
                    let (mut tr, mut tc) = (r + dr, c + dc);
                    while self.on(tr, tc) && grid[tr as usize][tc as usize] == 0 {
                        simple.push(Mv {
                            path: vec![(r, c), (tr, tc)],
                            taken: Vec::new(),
                            by_king: king,
                        });
                        if !king {
                            break;
                        }
                        tr += dr;
                        tc += dc;
                    }
                }
            }
        }
        if captures.is_empty() {
            return simple;
        }
        if self.flags.most_pieces {
            let most = captures.iter().map(|m| m.taken.len()).max().unwrap_or(0);
            captures.retain(|m| m.taken.len() == most);
        }
        if self.flags.most_kings {
            let kings = |m: &Mv| {
                m.taken
                    .iter()
                    .filter(|&&(r, c)| grid[r as usize][c as usize].abs() == 2)
                    .count()
            };
            let most = captures.iter().map(kings).max().unwrap_or(0);
            captures.retain(|m| kings(m) == most);
        }
        if self.flags.king_first && captures.iter().any(|m| m.by_king) {
            captures.retain(|m| m.by_king);
        }
        captures.sort_by(|a, b| a.path.cmp(&b.path));
        captures.dedup_by(|a, b| a.path == b.path);
        captures
    }

    fn play(&self, grid: &Grid, mv: &Mv) -> Grid {
        let mut next = *grid;
        let (r, c) = mv.path[0];
        let mut piece = next[r as usize][c as usize];
        next[r as usize][c as usize] = 0;
        for &(tr, tc) in &mv.taken {
            next[tr as usize][tc as usize] = 0;
        }
        let crowned_on_way =
            self.flags.crowned_mid_capture && mv.path[1..].iter().any(|l| l.0 == self.far_row());
        let to = *mv.path.last().unwrap();
        if to.0 == self.far_row() || crowned_on_way {
            piece = 2 * sign(self.white);
        }
        next[to.0 as usize][to.1 as usize] = piece;
        next
    }
}

fn oracle_perft(flags: Flags, n: i8, grid: &Grid, white: bool, depth: u32) -> u64 {
    let generator = Gen { flags, white, n };
    let moves = generator.moves(grid);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| oracle_perft(flags, n, &generator.play(grid, m), !white, depth - 1))
        .sum()
}

fn grid_of(board: &Board) -> Grid {
    let mut grid = [[0i8; 12]; 12];
    for square in board.topology().squares() {
        if let Some(p) = board.get(square) {
            let value = if p.role == Role::King { 2 } else { 1 };
            grid[square.row() as usize][square.col() as usize] =
                value * sign(p.color == Color::White);
        }
    }
    grid
}

fn board_of(grid: &Grid, topology: Topology) -> Board {
    let mut board = Board::empty_on(topology);
    for square in topology.squares() {
        let v = grid[square.row() as usize][square.col() as usize];
        if v != 0 {
            let color = if v > 0 { Color::White } else { Color::Black };
            let role = if v.abs() == 2 { Role::King } else { Role::Man };
            board.set(square, Some(Piece::new(color, role)));
        }
    }
    board
}

/// Whether the oracle knows `variant` (the flying-king rule sets; English
/// and Italian moves are pinned by perft and `tests/property.rs`).
pub fn knows(variant: Variant) -> bool {
    variant.facts().movement.flying_kings
}

/// The library's perft from the opening agrees with the oracle's to depth
/// 6 (5 on the larger boards, and in debug builds; the counts are also
/// pinned in `tests/data/perft.txt`).
pub fn counts_what_the_library_counts_from_the_opening(variant: Variant) {
    let small = variant.topology().size() == 8;
    let depth = if cfg!(debug_assertions) || !small {
        5
    } else {
        6
    };
    let opening = variant.topology().opening();
    let white = variant.first_player() == Color::White;
    let n = variant.topology().size() as i8;
    let ours = perft(variant.rules(), &opening, variant.first_player(), depth);
    let theirs = oracle_perft(flags(variant), n, &grid_of(&opening), white, depth);
    assert_eq!(ours, theirs, "{} depth {depth}", variant.name());
}

/// On a random board with kings (from `seed`), the library lists the same
/// moves as the oracle (paths, in any order), and they lead to the same
/// boards.
pub fn lists_what_the_library_lists(
    variant: Variant,
    seed: u64,
    density: u32,
    kings: u32,
    white: bool,
) -> Result<(), TestCaseError> {
    use postfacto::random::{random_board_on, Rng};
    let topology = variant.topology();
    let board = random_board_on(&mut Rng::new(seed), topology, density, kings);
    let side = if white { Color::White } else { Color::Black };
    let generator = Gen {
        flags: flags(variant),
        white,
        n: topology.size() as i8,
    };
    let grid = grid_of(&board);
    // Internal coordinates (the light-corner boards' are mirrored when drawn).
    let square = |(r, c): (i8, i8)| {
        topology
            .squares()
            .find(|s| (s.row(), s.col()) == (r as u8, c as u8))
            .unwrap()
    };
    let mut theirs: Vec<(Vec<Square>, Board)> = generator
        .moves(&grid)
        .iter()
        .map(|m| {
            let path = m.path.iter().map(|&p| square(p)).collect();
            (path, board_of(&generator.play(&grid, m), topology))
        })
        .collect();
    let rules = variant.rules();
    let mut ours: Vec<(Vec<Square>, Board)> = rules
        .legal_moves(&board, side)
        .iter()
        .map(|m| (m.path().to_vec(), rules.play(&board, side, m).unwrap()))
        .collect();
    theirs.sort_by_key(|(p, _)| p.clone());
    ours.sort_by_key(|(p, _)| p.clone());
    let paths = |v: &[(Vec<Square>, Board)]| v.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
    let name = variant.name();
    prop_assert_eq!(
        paths(&ours),
        paths(&theirs),
        "{} {:?} on\n{}",
        name,
        side,
        board
    );
    for ((path, a), (_, b)) in ours.iter().zip(&theirs) {
        prop_assert_eq!(a, b, "{} {:?} after {:?} on\n{}", name, side, path, board);
    }
    Ok(())
}

/// The board a game from `variant`'s opening ends on, played by the oracle
/// move by move (`paths`: each move's squares, every landing written);
/// `None` when a move is not one of the oracle's legal moves.
pub fn replays(variant: Variant, paths: &[Vec<Square>]) -> Option<Board> {
    let topology = variant.topology();
    let mut grid = grid_of(&topology.opening());
    let mut white = variant.first_player() == Color::White;
    for path in paths {
        let generator = Gen {
            flags: flags(variant),
            white,
            n: topology.size() as i8,
        };
        let wanted: Vec<At> = path
            .iter()
            .map(|s| (s.row() as i8, s.col() as i8))
            .collect();
        let mv = generator
            .moves(&grid)
            .into_iter()
            .find(|m| m.path == wanted)?;
        grid = generator.play(&grid, &mv);
        white = !white;
    }
    Some(board_of(&grid, topology))
}
