//! Move tables built at compile time: the steps of kings, advisors, elephants, horses and pawns with the square
//! that blocks each (elephant eye, horse leg), and the line tables that give rooks and cannons their moves.
//!
//! Rooks and cannons move along a file or a rank. For each position on a line and each occupancy of that line,
//! [`LineStops`] records the first and the second occupied point on either side: a rook slides up to the first
//! and may capture it, a cannon slides up to the first (its screen) and may capture the second. A rank has 9
//! points (512 occupancies), a file 10 (1024), so the two tables hold 14,848 entries of 16 bits.
//!
//! # Examples
//!
//! ```
//! use tabula_xiangqi::attacks::{self, LineStops};
//!
//! // A rook on the fourth point of a rank with pieces on points 1, 6 and 8.
//! let stops: LineStops = attacks::rank_stops(4, 0b1_0100_0010);
//! assert_eq!((stops.first_low(), stops.second_low()), (Some(1), None));
//! assert_eq!((stops.first_high(), stops.second_high()), (Some(6), Some(8)));
//! ```

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

/// The first and second occupied points on either side of a point of a line, each as an index along the line
/// (0 = file a or rank 0) or none. Packed in four nibbles, 15 meaning none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineStops(u16);

const NONE: u16 = 15;

impl LineStops {
    #[inline(always)]
    const fn nibble(self, i: u32) -> Option<usize> {
        let v = self.0 >> (4 * i) & 15;
        if v == NONE {
            None
        } else {
            Some(v as usize)
        }
    }

    /// The nearest occupied point below (towards index 0).
    #[inline(always)]
    pub const fn first_low(self) -> Option<usize> {
        self.nibble(0)
    }

    /// The nearest occupied point above.
    #[inline(always)]
    pub const fn first_high(self) -> Option<usize> {
        self.nibble(1)
    }

    /// The second occupied point below: what a cannon captures over the first.
    #[inline(always)]
    pub const fn second_low(self) -> Option<usize> {
        self.nibble(2)
    }

    /// The second occupied point above.
    #[inline(always)]
    pub const fn second_high(self) -> Option<usize> {
        self.nibble(3)
    }

    /// The lowest and highest points a rook reaches: the first stops, or the ends of the line.
    #[inline(always)]
    pub const fn rook_span(self, len: usize) -> (usize, usize) {
        let lo = match self.first_low() {
            Some(i) => i,
            None => 0,
        };
        let hi = match self.first_high() {
            Some(i) => i,
            None => len - 1,
        };
        (lo, hi)
    }

    /// The lowest and highest empty points a piece slides to: short of the first stops.
    #[inline(always)]
    pub const fn slide_span(self, len: usize) -> (usize, usize) {
        let lo = match self.first_low() {
            Some(i) => i + 1,
            None => 0,
        };
        let hi = match self.first_high() {
            Some(i) => i - 1,
            None => len - 1,
        };
        (lo, hi)
    }
}

/// The stops of every point `p < len` of a line for every occupancy (the bit of `p` itself ignored).
const fn line_table<const N: usize>(len: usize) -> [LineStops; N] {
    let mut table = [LineStops(0); N];
    let mut p = 0;
    while p < len {
        let mut occ = 0;
        while occ < 1 << len {
            let mut packed = 0u16;
            // Below: scan p-1 down to 0; above: p+1 up to len-1.
            let mut found = [NONE; 4];
            let mut seen = 0;
            let mut i = p;
            while i > 0 && seen < 2 {
                i -= 1;
                if occ >> i & 1 != 0 {
                    found[2 * seen] = i as u16;
                    seen += 1;
                }
            }
            seen = 0;
            let mut i = p + 1;
            while i < len && seen < 2 {
                if occ >> i & 1 != 0 {
                    found[2 * seen + 1] = i as u16;
                    seen += 1;
                }
                i += 1;
            }
            let mut k = 0;
            while k < 4 {
                packed |= found[k] << (4 * k);
                k += 1;
            }
            table[p * (1 << len) + occ] = LineStops(packed);
            occ += 1;
        }
        p += 1;
    }
    table
}

static RANK_STOPS: [LineStops; 9 * 512] = line_table::<{ 9 * 512 }>(9);
static FILE_STOPS: [LineStops; 10 * 1024] = line_table::<{ 10 * 1024 }>(10);

/// The stops of the point at file `file` (0–8) of a rank whose occupancy is `occ` (bit `f` for file `f`).
#[inline(always)]
pub fn rank_stops(file: usize, occ: u16) -> LineStops {
    RANK_STOPS[file << 9 | (occ as usize & 0x1ff)]
}

/// The stops of the point at rank `rank` (0–9) of a file whose occupancy is `occ` (bit `r` for rank `r`).
#[inline(always)]
pub fn file_stops(rank: usize, occ: u16) -> LineStops {
    FILE_STOPS[rank << 10 | (occ as usize & 0x3ff)]
}

/// Bits `lo..=hi` of rank 0, as a bitboard (shift by `9 * rank` for another rank).
#[inline(always)]
pub const fn rank_span(lo: usize, hi: usize) -> Bitboard {
    Bitboard::from_bits(((1u128 << (hi + 1)) - 1) & !((1u128 << lo) - 1))
}

static FILE_SPANS: [[Bitboard; 10]; 10] = {
    let mut table = [[Bitboard::EMPTY; 10]; 10];
    let mut lo = 0;
    while lo < 10 {
        let mut hi = lo;
        let mut bits = 0u128;
        while hi < 10 {
            bits |= 1 << (9 * hi);
            table[lo][hi] = Bitboard::from_bits(bits);
            hi += 1;
        }
        lo += 1;
    }
    table
};

/// Ranks `lo..=hi` of file a, as a bitboard (shift by the file index for another file).
#[inline(always)]
pub fn file_span(lo: usize, hi: usize) -> Bitboard {
    FILE_SPANS[lo][hi]
}

/// Up to `N` destinations of a piece on one square, each with the square that must be empty for the move
/// (the elephant's eye, the horse's leg; the destination itself where nothing can block).
#[derive(Clone, Copy, Debug)]
pub struct Steps<const N: usize> {
    len: u8,
    to: [u8; N],
    via: [u8; N],
}

impl<const N: usize> Steps<N> {
    const EMPTY: Steps<N> = Steps { len: 0, to: [0; N], via: [0; N] };

    const fn push(mut self, to: Square, via: Square) -> Steps<N> {
        self.to[self.len as usize] = to.index() as u8;
        self.via[self.len as usize] = via.index() as u8;
        self.len += 1;
        self
    }

    /// The (destination, blocking square) pairs.
    #[inline(always)]
    pub fn iter(&self) -> impl Iterator<Item = (Square, Square)> + '_ {
        (0..self.len as usize).map(|i| {
            (Square::from_index_unchecked(self.to[i] as usize), Square::from_index_unchecked(self.via[i] as usize))
        })
    }

    /// The destinations as a set.
    pub const fn to_bitboard(&self) -> Bitboard {
        let mut bits = 0u128;
        let mut i = 0;
        while i < self.len as usize {
            bits |= 1 << self.to[i];
            i += 1;
        }
        Bitboard::from_bits(bits)
    }
}

const fn square(i: usize) -> Square {
    Square::from_index_unchecked(i)
}

/// Whether `sq` is on the palace of either side.
const fn in_any_palace(sq: Square) -> bool {
    sq.in_palace(Color::Red) || sq.in_palace(Color::Black)
}

const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// The pieces whose steps a table lists, each step with the point that must be empty for it.
#[derive(Clone, Copy)]
enum Stepper {
    /// One point orthogonally, within a palace.
    King,
    /// One point diagonally, within a palace.
    Advisor,
    /// Two points diagonally over the eye, staying on its own half.
    Elephant,
    /// One point orthogonally over the leg, then one diagonally outwards.
    Horse,
    /// The points a horse attacks a square from, each with its leg (a diagonal neighbour of the square).
    HorseAttackers,
}

/// `to`, if on the board, with the point `via` that must be empty.
const fn over(to: Option<Square>, via: Square) -> Option<(Square, Square)> {
    match to {
        Some(to) => Some((to, via)),
        None => None,
    }
}

/// The steps of `stepper` from `from` in the `d`th of its four directions: at most two (destination, point
/// that must be empty) pairs.
const fn steps_towards(stepper: Stepper, from: Square, d: usize) -> [Option<(Square, Square)>; 2] {
    match stepper {
        Stepper::King | Stepper::Advisor => {
            let (df, dr) = if matches!(stepper, Stepper::King) { ORTHOGONAL[d] } else { DIAGONAL[d] };
            match from.offset(df, dr) {
                Some(to) if in_any_palace(from) && in_any_palace(to) => [Some((to, to)), None],
                _ => [None, None],
            }
        }
        Stepper::Elephant => {
            let (df, dr) = DIAGONAL[d];
            match (from.offset(df, dr), from.offset(2 * df, 2 * dr)) {
                (Some(eye), Some(to)) if to.on_side_of(Color::Red) == from.on_side_of(Color::Red) => {
                    [Some((to, eye)), None]
                }
                _ => [None, None],
            }
        }
        Stepper::Horse => {
            let (df, dr) = ORTHOGONAL[d];
            let Some(leg) = from.offset(df, dr) else { return [None, None] };
            // The two destinations beyond the leg: sideways by one either way.
            let (sf, sr) = (dr, df);
            [over(from.offset(2 * df + sf, 2 * dr + sr), leg), over(from.offset(2 * df - sf, 2 * dr - sr), leg)]
        }
        Stepper::HorseAttackers => {
            let (df, dr) = DIAGONAL[d];
            let Some(leg) = from.offset(df, dr) else { return [None, None] };
            [over(from.offset(2 * df, dr), leg), over(from.offset(df, 2 * dr), leg)]
        }
    }
}

/// The steps of `stepper` from every point, direction by direction.
const fn step_table<const N: usize>(stepper: Stepper) -> [Steps<N>; 90] {
    let mut table = [Steps::EMPTY; 90];
    let mut i = 0;
    while i < 90 {
        let mut d = 0;
        while d < 4 {
            let steps = steps_towards(stepper, square(i), d);
            let mut k = 0;
            while k < 2 {
                if let Some((to, via)) = steps[k] {
                    table[i] = table[i].push(to, via);
                }
                k += 1;
            }
            d += 1;
        }
        i += 1;
    }
    table
}

/// King steps: one point orthogonally (none outside the palaces).
static KING: [Steps<4>; 90] = step_table(Stepper::King);

/// Advisor steps: one point diagonally (none outside the palaces).
static ADVISOR: [Steps<4>; 90] = step_table(Stepper::Advisor);

/// Elephant steps, each with its eye.
static ELEPHANT: [Steps<4>; 90] = step_table(Stepper::Elephant);

/// Horse steps, each with its leg.
static HORSE: [Steps<8>; 90] = step_table(Stepper::Horse);

/// The horses that attack a square: for each origin, the leg that must be empty.
static HORSE_ATTACKERS: [Steps<8>; 90] = step_table(Stepper::HorseAttackers);

/// Pawn steps of each colour: forward, and sideways once across the river.
static PAWN: [[Steps<3>; 90]; 2] = {
    let mut table = [[Steps::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let color = if c == 0 { Color::Red } else { Color::Black };
        let mut i = 0;
        while i < 90 {
            let from = square(i);
            if let Some(to) = from.offset(0, color.forward()) {
                table[c][i] = table[c][i].push(to, to);
            }
            if !from.on_side_of(color) {
                if let Some(to) = from.offset(-1, 0) {
                    table[c][i] = table[c][i].push(to, to);
                }
                if let Some(to) = from.offset(1, 0) {
                    table[c][i] = table[c][i].push(to, to);
                }
            }
            i += 1;
        }
        c += 1;
    }
    table
};

/// The king steps from `sq` (none outside the palaces).
#[inline(always)]
pub fn king(sq: Square) -> &'static Steps<4> {
    &KING[sq.index()]
}

/// The advisor steps from `sq` (none outside the palaces).
#[inline(always)]
pub fn advisor(sq: Square) -> &'static Steps<4> {
    &ADVISOR[sq.index()]
}

/// The elephant steps from `sq`, each with its eye.
#[inline(always)]
pub fn elephant(sq: Square) -> &'static Steps<4> {
    &ELEPHANT[sq.index()]
}

/// The horse steps from `sq`, each with its leg.
#[inline(always)]
pub fn horse(sq: Square) -> &'static Steps<8> {
    &HORSE[sq.index()]
}

/// The squares a horse attacks `sq` from, each with the leg that must be empty.
#[inline(always)]
pub fn horse_attackers(sq: Square) -> &'static Steps<8> {
    &HORSE_ATTACKERS[sq.index()]
}

/// The steps of a pawn of `color` from `sq`.
#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> &'static Steps<3> {
    &PAWN[color.index()][sq.index()]
}

/// The squares each piece of `color` and `role` may ever stand on: kings in the palace, advisors on its five
/// points, elephants on their seven, pawns on their start files before the river and anywhere beyond it.
pub const fn reachable(color: Color, role: crate::types::Role) -> Bitboard {
    use crate::types::Role;
    let mut bits = 0u128;
    let mut i = 0;
    while i < 90 {
        let sq = square(i);
        let own = sq.rank().relative_to(color).index();
        let f = sq.file().index();
        let ok = match role {
            Role::King => sq.in_palace(color),
            Role::Advisor => sq.in_palace(color) && (f + own) % 2 == 1,
            Role::Elephant => own <= 4 && own % 2 == 0 && f % 2 == 0 && (f + own) % 4 == 2,
            Role::Pawn => own >= 5 || (own >= 3 && f % 2 == 0),
            _ => true,
        };
        if ok {
            bits |= 1 << i;
        }
        i += 1;
    }
    Bitboard::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::tests::sq;
    use crate::types::Role;

    #[test]
    fn step_counts() {
        assert_eq!(king(sq("e1")).iter().count(), 4);
        assert_eq!(king(sq("d0")).iter().count(), 2);
        assert_eq!(king(sq("a0")).iter().count(), 0);
        assert_eq!(advisor(sq("e8")).iter().count(), 4);
        assert_eq!(advisor(sq("d7")).iter().count(), 1);
        assert_eq!(elephant(sq("e2")).iter().count(), 4);
        assert_eq!(elephant(sq("c4")).iter().count(), 2); // not across the river
        assert_eq!(horse(sq("e4")).iter().count(), 8);
        assert_eq!(horse(sq("a0")).iter().count(), 2);
        assert_eq!(pawn(Color::Red, sq("e3")).iter().count(), 1);
        assert_eq!(pawn(Color::Red, sq("e5")).iter().count(), 3);
        assert_eq!(pawn(Color::Red, sq("a9")).iter().count(), 1);
        assert_eq!(pawn(Color::Black, sq("e9")).to_bitboard(), Bitboard::from_square(sq("e8")));
        // Every horse move appears once among the attackers of its destination, with the same leg.
        for from in Square::ALL {
            for (to, leg) in horse(from).iter() {
                assert_eq!(horse_attackers(to).iter().filter(|&(f, l)| f == from && l == leg).count(), 1);
            }
            assert_eq!(horse(from).iter().count(), horse_attackers(from).iter().count());
        }
    }

    #[test]
    fn reachable_squares() {
        assert_eq!(reachable(Color::Red, Role::King).count(), 9);
        assert_eq!(reachable(Color::Red, Role::Advisor).count(), 5);
        assert_eq!(reachable(Color::Black, Role::Advisor).count(), 5);
        assert_eq!(reachable(Color::Red, Role::Elephant).count(), 7);
        assert!(reachable(Color::Black, Role::Elephant).contains(sq("c9")));
        assert!(reachable(Color::Black, Role::Elephant).contains(sq("e7")));
        assert_eq!(reachable(Color::Red, Role::Pawn).count(), 45 + 10);
        // The steps keep every piece on its reachable squares.
        for color in Color::ALL {
            for (role, steps) in [
                (Role::Advisor, advisor as fn(Square) -> &'static Steps<4>),
                (Role::Elephant, elephant),
                (Role::King, king),
            ] {
                for from in reachable(color, role) {
                    for (to, _) in steps(from).iter() {
                        assert!(reachable(color, role).contains(to), "{role:?} {from} {to}");
                    }
                }
            }
        }
    }

    #[test]
    fn line_stops_and_spans() {
        let s = file_stops(0, 0b11_1111_1111);
        assert_eq!((s.first_low(), s.first_high(), s.second_high()), (None, Some(1), Some(2)));
        assert_eq!(s.rook_span(10), (0, 1));
        assert_eq!(s.slide_span(10), (0, 0));
        assert_eq!(rank_stops(8, 0).rook_span(9), (0, 8));
        assert_eq!(rank_span(2, 4).0, 0b11100);
        assert_eq!(file_span(0, 9).count(), 10);
        assert_eq!(file_span(3, 3), Bitboard::from_square(sq("a3")));
    }
}
