//! Large shapes around a move, for the [move predictor](crate::engine::predictor): the stones on the points within a
//! *gridcular* distance of the move, `|dx| + |dy| + max(|dx|, |dy|)`, of 4, 5, 6 or 7 (12, 20, 28 or 36
//! points; the largest is the 5×5 square around the move and the three points beyond the middle of each of
//! its sides), each point empty, the player's, the opponent's or off the board.
//!
//! A shape of each size is known by a Zobrist key: the XOR of one random 64-bit key per point and state (an
//! empty point adds nothing) and one per size. [`Shape::keys_around`] gives the keys of the shape around a
//! move as it stands, cheap enough for every move of every new node in the tree; [`Shape::canonical_keys`] the smallest key of
//! its eight rotations and reflections, for counting a shape once whatever its orientation while fitting. A
//! strengths file names a shape by its points' states ([`Shape::to_text`]), so that a reader can put every
//! orientation of it in its table.
//!
//! # Examples
//!
//! ```
//! use tabula_go::board::Board;
//! use tabula_go::coords::{Color, Point};
//! use tabula_go::engine::playout::PlayoutBoard;
//! use tabula_go::engine::spatial::Shape;
//!
//! let mut board = Board::new(9).unwrap();
//! board.place(Point::from_gtp("C3", 9).unwrap(), Color::Black, &mut Vec::new());
//! let pb = PlayoutBoard::from_board(&board, Color::White);
//! let at = |s: &str| Shape::around(&pb, pb.index(Point::from_gtp(s, 9).unwrap()), Color::White);
//! // C5 and E3 mirror each other across the diagonal through C3; D4 sees the stone diagonally.
//! assert_eq!(at("C5").canonical_keys()[0], at("E3").canonical_keys()[0]);
//! assert_ne!(at("C5").canonical_keys()[0], at("D4").canonical_keys()[0]);
//! assert_ne!(at("C5").keys()[0], at("E3").keys()[0]);
//! ```

use crate::coords::Color;
use crate::engine::playout::PlayoutBoard;

/// The number of sizes.
pub const SIZES: usize = 4;

/// The largest gridcular distance of each size.
pub const DISTANCES: [u32; SIZES] = [4, 5, 6, 7];

/// The points within each size.
pub const COUNTS: [usize; SIZES] = [12, 20, 28, 36];

/// The points of the largest size.
pub const POINTS: usize = 36;

/// A point's state, seen from the player.
pub const EMPTY: u8 = 0;
/// The player's stone.
pub const OWN: u8 = 1;
/// The opponent's stone.
pub const ENEMY: u8 = 2;
/// Off the board.
pub const OFF: u8 = 3;

const fn gridcular(dx: i8, dy: i8) -> u32 {
    let (x, y) = (dx.unsigned_abs() as u32, dy.unsigned_abs() as u32);
    x + y + if x > y { x } else { y }
}

/// The points' offsets `(dx, dy)` from the move, by distance (then row, then column): a size's points are
/// the first of the list.
const OFFSETS: [(i8, i8); POINTS] = {
    let mut offsets = [(0i8, 0i8); POINTS];
    let mut n = 0;
    let mut d = 2;
    while d <= 7 {
        let mut dy = -3i8;
        while dy <= 3 {
            let mut dx = -3i8;
            while dx <= 3 {
                if gridcular(dx, dy) == d {
                    offsets[n] = (dx, dy);
                    n += 1;
                }
                dx += 1;
            }
            dy += 1;
        }
        d += 1;
    }
    assert!(n == POINTS);
    offsets
};

/// An offset `(dx, dy)` turned by symmetry `s` of the square, 0 to 7: bit 0 swaps the axes, then bit 1
/// mirrors top to bottom and bit 2 left to right.
pub(crate) const fn turn(s: usize, (mut dx, mut dy): (i8, i8)) -> (i8, i8) {
    if s & 1 != 0 {
        (dx, dy) = (dy, dx);
    }
    if s & 2 != 0 {
        dy = -dy;
    }
    if s & 4 != 0 {
        dx = -dx;
    }
    (dx, dy)
}

/// Where each symmetry of the square ([`turn`]) takes each of `cells`, a set of offsets the symmetries map
/// onto itself: entry `[s][k]` is the index of cell `k`'s image under symmetry `s`.
pub(crate) const fn symmetries<const N: usize>(cells: &[(i8, i8); N]) -> [[usize; N]; 8] {
    let mut table = [[0; N]; 8];
    let mut s = 0;
    while s < 8 {
        let mut k = 0;
        while k < N {
            let (dx, dy) = turn(s, cells[k]);
            let mut j = 0;
            while cells[j].0 != dx || cells[j].1 != dy {
                j += 1;
            }
            table[s][k] = j;
            k += 1;
        }
        s += 1;
    }
    table
}

/// Where each symmetry of the square takes each point.
const SYMMETRIES: [[usize; POINTS]; 8] = symmetries(&OFFSETS);

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The key of each point in each state (the empty state's is 0), then of each size.
const KEYS: ([[u64; 4]; POINTS], [u64; SIZES]) = {
    let mut state = 0x5a0b_1a5e_ed00_0009u64;
    let mut points = [[0u64; 4]; POINTS];
    let mut k = 0;
    while k < POINTS {
        let mut s = 1;
        while s < 4 {
            points[k][s] = splitmix(&mut state);
            s += 1;
        }
        k += 1;
    }
    let mut sizes = [0u64; SIZES];
    let mut j = 0;
    while j < SIZES {
        sizes[j] = splitmix(&mut state);
        j += 1;
    }
    (points, sizes)
};

/// Calls `visit(k, state)` for every point `k` of the largest size around the padded index `i`, in order,
/// its state seen by `color`.
#[inline(always)]
fn for_each_point(board: &PlayoutBoard, i: usize, color: Color, mut visit: impl FnMut(usize, u8)) {
    // A cell's raw value (empty, black, white, border) as the state seen by `color`.
    let view: [u8; 4] = if color == Color::Black { [EMPTY, OWN, ENEMY, OFF] } else { [EMPTY, ENEMY, OWN, OFF] };
    let p = board.point(i);
    let size = board.size() as isize;
    let width = size + 2;
    // Bit `d + 3` of each mask: whether the column (row) `d` steps away is on the board.
    let on_board =
        |x: usize| (-3..=3isize).filter(|d| (0..size).contains(&(x as isize + d))).fold(0u32, |m, d| m | 1 << (d + 3));
    let (columns, rows) = (on_board(p.column()), on_board(p.row()));
    for (k, &(dx, dy)) in OFFSETS.iter().enumerate() {
        let state = if columns >> (dx + 3) & rows >> (dy + 3) & 1 != 0 {
            view[board.raw_cell((i as isize + isize::from(dy) * width + isize::from(dx)) as usize) as usize]
        } else {
            OFF
        };
        visit(k, state);
    }
}

/// The states of the points around a move, in the order of the offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape(pub [u8; POINTS]);

impl Shape {
    /// The shape around the empty padded index `i` of `board`, seen by `color`.
    pub fn around(board: &PlayoutBoard, i: usize, color: Color) -> Shape {
        let mut states = [OFF; POINTS];
        for_each_point(board, i, color, |k, state| states[k] = state);
        Shape(states)
    }

    /// [`keys`](Shape::keys) of [`around`](Shape::around)`(board, i, color)`: the tree's
    /// priors need them for every move of every new node.
    pub fn keys_around(board: &PlayoutBoard, i: usize, color: Color) -> [u64; SIZES] {
        Shape::around(board, i, color).keys()
    }

    /// The key of each size of the shape as it stands.
    pub fn keys(&self) -> [u64; SIZES] {
        let mut keys = [0; SIZES];
        let mut key = 0u64;
        let mut k = 0;
        for (j, &count) in COUNTS.iter().enumerate() {
            while k < count {
                key ^= KEYS.0[k][self.0[k] as usize];
                k += 1;
            }
            keys[j] = key ^ KEYS.1[j];
        }
        keys
    }

    /// The shape turned by symmetry `s` (0 to 7) of the square.
    pub fn image(&self, s: usize) -> Shape {
        let mut states = [OFF; POINTS];
        for (k, &state) in self.0.iter().enumerate() {
            states[SYMMETRIES[s][k]] = state;
        }
        Shape(states)
    }

    /// For each size, the smallest key of the shape's eight orientations: one key per shape up to rotation
    /// and reflection.
    pub fn canonical_keys(&self) -> [u64; SIZES] {
        (1..8).fold(self.keys(), |least, s| {
            let keys = self.image(s).keys();
            std::array::from_fn(|j| least[j].min(keys[j]))
        })
    }

    /// The states of a size's points as digits (`0` empty, `1` the player's, `2` the opponent's, `3` off the
    /// board), the form of a strengths file.
    pub fn to_text(&self, size: usize) -> String {
        self.0[..COUNTS[size]].iter().map(|&s| char::from(b'0' + s)).collect()
    }

    /// Reads [`to_text`](Shape::to_text)'s digits back: the shape (the points beyond its size empty) and
    /// its size, or `None` when the text is not the digits of a size.
    pub fn from_text(text: &str) -> Option<(Shape, usize)> {
        let size = COUNTS.iter().position(|&c| c == text.len())?;
        let mut states = [EMPTY; POINTS];
        for (state, b) in states.iter_mut().zip(text.bytes()) {
            *state = b.checked_sub(b'0').filter(|&s| s <= OFF)?;
        }
        Some((Shape(states), size))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sizes_are_nested_diamonds() {
        for (j, &count) in COUNTS.iter().enumerate() {
            assert!(OFFSETS[..count].iter().all(|&(dx, dy)| gridcular(dx, dy) <= DISTANCES[j]));
            assert!(OFFSETS[count..].iter().all(|&(dx, dy)| gridcular(dx, dy) > DISTANCES[j]));
        }
        for perm in SYMMETRIES {
            let mut sorted = perm;
            sorted.sort_unstable();
            assert!(sorted.iter().enumerate().all(|(k, &j)| k == j));
            assert!((0..POINTS)
                .all(|k| gridcular(OFFSETS[k].0, OFFSETS[k].1) == gridcular(OFFSETS[perm[k]].0, OFFSETS[perm[k]].1)));
        }
    }

    #[test]
    fn every_orientation_has_the_same_canonical_keys_and_text_round_trips() {
        let mut rng = tabula::rng::Rng::new(5);
        for _ in 0..200 {
            let shape = Shape(std::array::from_fn(|_| rng.below(4) as u8));
            let canonical = shape.canonical_keys();
            for s in 0..8 {
                assert_eq!(shape.image(s).canonical_keys(), canonical);
            }
            assert_eq!(Shape::from_text(&shape.to_text(SIZES - 1)), Some((shape, SIZES - 1)));
            let (small, size) = Shape::from_text(&shape.to_text(0)).unwrap();
            assert_eq!((small.keys()[0], size), (shape.keys()[0], 0));
        }
        assert_eq!(Shape::from_text("0123"), None);
        assert_eq!(Shape::from_text("000000000004"), None);
    }
}
