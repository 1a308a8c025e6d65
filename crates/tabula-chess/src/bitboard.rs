//! [`Bitboard`]: a set of squares as the 64 bits of a `u64`, bit `i` standing for square `i` (a1 = bit 0).
//!
//! # Examples
//!
//! ```
//! use tabula_chess::{Bitboard, File, Rank, Square};
//!
//! let e4: Square = "e4".parse().unwrap();
//! let set = Bitboard::from_square(e4) | Bitboard::from_square(Square::A1);
//! assert_eq!(set.count(), 2);
//! assert!(set.contains(e4));
//! assert_eq!(set.into_iter().collect::<Vec<_>>(), vec![Square::A1, e4]);
//! assert_eq!(Bitboard::rank(Rank::First) & Bitboard::file(File::A), Bitboard::from_square(Square::A1));
//! ```

use crate::types::{Color, File, Rank, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// Every square of `file`.
    #[inline(always)]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file.index())
    }

    /// Every square of `rank`.
    #[inline(always)]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0xff << (8 * rank.index()))
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether the set has two or more squares.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// The lowest square (a1 side), if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros()))
        }
    }

    /// The only square of a one-square set; the lowest square otherwise.
    ///
    /// # Panics
    ///
    /// In debug builds, if the set is empty.
    #[inline(always)]
    pub const fn single(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::from_index_unchecked(self.0.trailing_zeros())
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// The set moved one rank forward from `color`'s point of view (squares leaving the board vanish).
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard(self.0 << 8),
            Color::Black => Bitboard(self.0 >> 8),
        }
    }

    /// The squares pawns of `color` standing on this set attack (one rank forward, one file aside).
    #[inline(always)]
    pub const fn pawn_attacks(self, color: Color) -> Bitboard {
        const NOT_A: u64 = !0x0101_0101_0101_0101;
        const NOT_H: u64 = !0x8080_8080_8080_8080;
        let p = self.0;
        Bitboard(match color {
            Color::White => ((p << 7) & NOT_H) | ((p << 9) & NOT_A),
            Color::Black => ((p >> 9) & NOT_H) | ((p >> 7) & NOT_A),
        })
    }

    /// The set mirrored top to bottom.
    #[inline(always)]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }
}

macro_rules! binary_op {
    ($trait:ident, $method:ident, $assign:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign for Bitboard {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binary_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binary_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binary_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Iterates over the squares of a set, a1 first.
#[derive(Clone, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index_unchecked(self.0.trailing_zeros());
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    #[inline(always)]
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

/// Eight lines of `.` and `X`, rank 8 first, as a diagram reads.
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let c = if self.contains(Square::from_coords(file, *rank)) { 'X' } else { '.' };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a = Bitboard::file(File::A);
        assert_eq!(a.count(), 8);
        assert!(a.more_than_one());
        assert!(!Bitboard::from_square(Square::H8).more_than_one());
        assert_eq!((a & Bitboard::rank(Rank::Eighth)).single(), Square::A8);
        assert_eq!(Bitboard::rank(Rank::Second).forward(Color::White), Bitboard::rank(Rank::Third));
        assert_eq!(Bitboard::rank(Rank::First).forward(Color::Black), Bitboard::EMPTY);
        assert_eq!(Bitboard::rank(Rank::First).flip_vertical(), Bitboard::rank(Rank::Eighth));
        let squares: Bitboard = [Square::A1, Square::H8].into_iter().collect();
        assert_eq!(squares.into_iter().len(), 2);
    }
}
