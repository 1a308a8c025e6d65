//! The rules by direct scans of the board: fives, overlines and renju forbidden points.
//!
//! These functions read the cells themselves, never the pattern tables, so they serve both as the exact
//! check behind the tables' quick filters and as the independent reference the threat verifier relies on.
//!
//! # Renju forbidden points
//!
//! Following the RIF rules, a black move is forbidden unless it makes exactly five, when it makes
//!
//! - an overline (six or more in a row), or
//! - a double four: two fours at once, on two lines or on one (`X.XXX.X`), or
//! - a double three: two threes at once, where a *three* is a line that one more black stone turns into a
//!   straight four (`.XXXX.`, both ends making exactly five), **and that stone is not itself forbidden**.
//!
//! The last clause makes the definition recursive; the check follows it to a fixed depth
//! ([`RECURSION_LIMIT`]), deeper than any position from real play needs.
//!
//! # Examples
//!
//! ```
//! use tabula_gomoku::{Board, Rule};
//!
//! // Black h8 i8 and j9 j10: two open twos crossing at j8.
//! let board = Board::from_moves(15, 15, Rule::Renju, "h8 a1 i8 o1 j9 a15 j10 o15").unwrap();
//! let j8 = board.parse_point("j8").unwrap();
//! assert!(!board.is_legal(j8)); // h8-i8-j8 and j8-j9-j10 are both open threes
//! assert!(board.with_rule(Rule::Freestyle).unwrap().is_legal(j8));
//! ```

use crate::types::{Color, Rule, CELLS, DIRS, EMPTY};

/// How deep the check follows "the point that makes the straight four is itself forbidden".
pub const RECURSION_LIMIT: u32 = 6;

const BLACK: u8 = Color::Black as u8;

/// The number of consecutive `c` stones from `i + d` on in direction `d`.
#[inline(always)]
fn run(cells: &[u8; CELLS], i: usize, d: isize, c: u8) -> usize {
    let mut n = 0;
    let mut j = i as isize + d;
    while cells[j as usize] == c {
        n += 1;
        j += d;
    }
    n
}

/// The length of the line of `c` through `i` in direction `d`, counting `i` as `c`.
#[inline(always)]
fn line_len(cells: &[u8; CELLS], i: usize, d: isize, c: u8) -> usize {
    1 + run(cells, i, d, c) + run(cells, i, -d, c)
}

/// Whether a line length wins for `color` under `rule`.
#[inline(always)]
fn wins(len: usize, color: Color, rule: Rule) -> bool {
    len == 5 || (len > 5 && !rule.exact_five(color))
}

/// Whether the stone of `color` on cell `i` (or one put there, if the cell is empty) stands in a winning line
/// along direction `d`.
#[inline(always)]
pub(crate) fn wins_along(cells: &[u8; CELLS], i: usize, d: isize, color: Color, rule: Rule) -> bool {
    wins(line_len(cells, i, d, color as u8), color, rule)
}

/// Whether the stone of `color` on cell `i` stands in a winning line.
pub(crate) fn makes_five_at(cells: &[u8; CELLS], i: usize, color: Color, rule: Rule) -> bool {
    DIRS.iter().any(|&d| wins_along(cells, i, d, color, rule))
}

/// Whether `color` playing the empty cell `i` would make a winning line.
pub(crate) fn would_make_five(cells: &[u8; CELLS], i: usize, color: Color, rule: Rule) -> bool {
    makes_five_at(cells, i, color, rule)
}

/// The empty points within four steps of `i` along direction `d` where black makes exactly five with a line
/// through `i` (black stands on `i`). At most a handful.
fn five_points(cells: &[u8; CELLS], i: usize, d: isize, out: &mut [isize; 8]) -> usize {
    let mut n = 0;
    for o in (-4isize..=4).filter(|&o| o != 0) {
        let q = (i as isize + o * d) as usize;
        if cells[q] != EMPTY {
            continue;
        }
        let before = run(cells, q, -d, BLACK) as isize;
        let after = run(cells, q, d, BLACK) as isize;
        // The line through q spans offsets o - before ..= o + after; it must hold i (offset 0).
        if before + after + 1 == 5 && o - before <= 0 && 0 <= o + after {
            out[n] = o;
            n += 1;
        }
    }
    n
}

/// The number of fours black has along `d` through `i` (black on `i`): a straight four counts once,
/// `X.XXX.X` twice.
fn fours(cells: &[u8; CELLS], i: usize, d: isize) -> usize {
    let mut pts = [0isize; 8];
    match five_points(cells, i, d, &mut pts) {
        2 if pts[1] - pts[0] == 5 => 1,
        n => n,
    }
}

/// Whether black has a straight four along `d` through `i`: two five points five apart.
fn straight_four(cells: &[u8; CELLS], i: usize, d: isize) -> bool {
    let mut pts = [0isize; 8];
    let n = five_points(cells, i, d, &mut pts);
    (0..n).any(|a| (a + 1..n).any(|b| pts[b] - pts[a] == 5))
}

/// Whether black has a three along `d` through `i` (black on `i`): some empty point makes a straight four
/// through `i` and is not itself forbidden.
fn three(cells: &mut [u8; CELLS], i: usize, d: isize, depth: u32) -> bool {
    for o in (-4isize..=4).filter(|&o| o != 0) {
        let q = (i as isize + o * d) as usize;
        if cells[q] != EMPTY {
            continue;
        }
        cells[q] = BLACK;
        let straight = straight_four(cells, i, d);
        cells[q] = EMPTY;
        if straight && (depth >= RECURSION_LIMIT || !forbidden(cells, q, depth + 1)) {
            return true;
        }
    }
    false
}

fn forbidden(cells: &mut [u8; CELLS], i: usize, depth: u32) -> bool {
    debug_assert_eq!(cells[i], EMPTY);
    cells[i] = BLACK;
    let lens = DIRS.map(|d| line_len(cells, i, d, BLACK));
    let fours = DIRS.map(|d| fours(cells, i, d));
    let result = if lens.contains(&5) {
        false
    } else if lens.iter().any(|&l| l > 5) || fours.iter().sum::<usize>() >= 2 {
        true
    } else {
        // A line that is a four is no three, though a stone far along it leaves its straight four standing.
        let mut threes = 0;
        for (&d, &f) in DIRS.iter().zip(&fours) {
            if f == 0 && three(cells, i, d, depth) {
                threes += 1;
                if threes >= 2 {
                    break;
                }
            }
        }
        threes >= 2
    };
    cells[i] = EMPTY;
    result
}

/// Whether the empty cell `i` is a renju forbidden point for black (see the [module documentation](self)).
pub(crate) fn is_forbidden(cells: &[u8; CELLS], i: usize) -> bool {
    let mut scratch = *cells;
    forbidden(&mut scratch, i, 0)
}

#[cfg(test)]
mod tests;
