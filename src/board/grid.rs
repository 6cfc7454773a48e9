//! The 8x8 grid as one `u64` (bit `8 * row + col`, see [`Square::grid_bit`]),
//! where a diagonal step is the same shift from every square. Questions such
//! as "can any piece of this side jump?" take a few word operations instead
//! of a loop over squares; the replayer and the encoder share them.

use super::square::{Direction, Square};

/// For each byte of a 32-bit square set, the grid bits of its 8 squares.
static SPREAD: [[u64; 256]; 4] = spread_table();

const fn spread_table() -> [[u64; 256]; 4] {
    let mut table = [[0u64; 256]; 4];
    let mut byte = 0;
    while byte < 4 {
        let mut value = 0;
        while value < 256 {
            let mut grid = 0u64;
            let mut bit = 0;
            while bit < 8 {
                if value >> bit & 1 != 0 {
                    grid |= Square::new((byte * 8 + bit) as u8).grid_bit();
                }
                bit += 1;
            }
            table[byte][value] = grid;
            value += 1;
        }
        byte += 1;
    }
    table
}

/// The grid bitboard of a set of the 8x8 board's squares (bit `i` for the
/// square with index `i`; bits from 32 up are ignored).
#[inline]
pub fn spread(squares: u64) -> u64 {
    let [a, b, c, d, ..] = squares.to_le_bytes();
    SPREAD[0][a as usize] | SPREAD[1][b as usize] | SPREAD[2][c as usize] | SPREAD[3][d as usize]
}

/// Bit `i` of the result is bit `i + by` of `grid` (0 off the grid).
#[inline]
pub const fn pull(grid: u64, by: i32) -> u64 {
    if by >= 0 {
        grid >> by
    } else {
        grid << -by
    }
}

/// The squares from which a jump in `dir` is possible: a piece of `movers`
/// there, one of `enemies` a step on and a square of `landings` two steps on.
#[inline]
pub fn jump_starts(movers: u64, enemies: u64, landings: u64, dir: Direction) -> u64 {
    /// Columns a jump may start from without leaving the board sideways.
    const NOT_LEFT_EDGE: u64 = 0xFCFC_FCFC_FCFC_FCFC;
    const NOT_RIGHT_EDGE: u64 = 0x3F3F_3F3F_3F3F_3F3F;
    let columns = if dir.col_delta() < 0 {
        NOT_LEFT_EDGE
    } else {
        NOT_RIGHT_EDGE
    };
    let step = dir.grid_offset();
    movers & columns & pull(enemies, step) & pull(landings, 2 * step)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_puts_every_square_on_its_grid_bit() {
        for sq in Square::all() {
            assert_eq!(spread(sq.bit() as u64), sq.grid_bit());
        }
        assert_eq!(spread(u64::MAX).count_ones(), 32);
    }

    #[test]
    fn jump_starts_are_exactly_the_jumps_on_the_board() {
        for from in Square::all() {
            for dir in Direction::ALL {
                let all = u64::MAX;
                let starts = jump_starts(from.grid_bit(), all, all, dir);
                assert_eq!(starts != 0, from.jump(dir).is_some(), "{from} {dir:?}");
                if let Some((over, to)) = from.jump(dir) {
                    // Only the right enemy and landing squares make it a start.
                    assert_ne!(
                        jump_starts(from.grid_bit(), over.grid_bit(), to.grid_bit(), dir),
                        0
                    );
                    assert_eq!(
                        jump_starts(from.grid_bit(), all & !over.grid_bit(), all, dir),
                        0
                    );
                    assert_eq!(
                        jump_starts(from.grid_bit(), all, all & !to.grid_bit(), dir),
                        0
                    );
                }
            }
        }
    }
}
