//! [`Bitboard`]: a set of squares as the bits of a word, bit `i` standing for the square numbered `i`, generic
//! over the game's [`Square`] and through it over the word ([`Word`]: `u64` for chess, `u128` for xiangqi).
//!
//! The tuple field is public so that a game's `const fn` tables can build sets from words at compile time
//! (`Bitboard(bits)`); the methods here are generic and `#[inline(always)]`, so that each game's
//! monomorphized copy is the code it would write for its own word.
//!
//! # Examples
//!
//! ```
//! use tabula_board::{coordinate, Bitboard, Square};
//!
//! coordinate!(
//!     /// A column.
//!     Column, "file", 4, [A, B, C, D], b'a'
//! );
//! coordinate!(
//!     /// A row.
//!     Row, "rank", 2, [R1, R2], b'1'
//! );
//!
//! #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
//! struct Cell(u8);
//! impl std::fmt::Display for Cell {
//!     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
//!         tabula_board::coords::fmt_square(*self, f)
//!     }
//! }
//! impl Square for Cell {
//!     type Word = u128;
//!     type File = Column;
//!     type Rank = Row;
//!     const COUNT: usize = 8;
//!     const BOARD: u128 = 0xff;
//!     fn index(self) -> usize {
//!         self.0 as usize
//!     }
//!     fn from_index_unchecked(index: usize) -> Cell {
//!         Cell(index as u8)
//!     }
//! }
//!
//! let (a1, d2) = (Cell(0), Cell(7));
//! let set = Bitboard::from_square(a1) | Bitboard::from_square(d2);
//! assert_eq!(set.count(), 2);
//! assert_eq!(set.into_iter().collect::<Vec<_>>(), vec![a1, d2]);
//! assert_eq!(Bitboard::rank(Row::R1) & Bitboard::file(Column::A), Bitboard::from_square(a1));
//! assert_eq!(!Bitboard::<Cell>::EMPTY, Bitboard::FULL);
//! assert_eq!(format!("{:?}", Bitboard::from_square(d2)), "Bitboard(0x80)\n...X\n....\n");
//! ```

use crate::coords::{Coordinate, Square};
pub use crate::word::Word;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares of the board of `S`.
#[repr(transparent)]
pub struct Bitboard<S: Square>(pub S::Word);

impl<S: Square> Clone for Bitboard<S> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: Square> Copy for Bitboard<S> {}

impl<S: Square> PartialEq for Bitboard<S> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<S: Square> Eq for Bitboard<S> {}

impl<S: Square> Hash for Bitboard<S> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<S: Square> Default for Bitboard<S> {
    fn default() -> Self {
        Bitboard::EMPTY
    }
}

impl<S: Square> Bitboard<S> {
    /// No square.
    pub const EMPTY: Bitboard<S> = Bitboard(S::Word::ZERO);
    /// Every square of the board (and no bit beyond it).
    pub const FULL: Bitboard<S> = Bitboard(S::BOARD);

    /// The set of the squares whose bits `bits` sets (a `const fn`, for tables built at compile time).
    #[inline(always)]
    pub const fn from_bits(bits: S::Word) -> Self {
        Bitboard(bits)
    }

    /// The set holding only `sq`.
    #[inline(always)]
    pub fn from_square(sq: S) -> Self {
        Bitboard(S::Word::ONE << sq.index())
    }

    /// Every square of `file`.
    #[inline(always)]
    pub fn file(file: S::File) -> Self {
        // The first file is one bit per rank, every `FILES` bits: a loop the optimizer folds to a constant.
        let mut first = S::Word::ZERO;
        for rank in 0..S::Rank::COUNT {
            first = first | S::Word::ONE << (rank * S::File::COUNT);
        }
        Bitboard(first << file.index())
    }

    /// Every square of `rank`.
    #[inline(always)]
    pub fn rank(rank: S::Rank) -> Self {
        Bitboard(S::Word::low_bits(S::File::COUNT) << (S::File::COUNT * rank.index()))
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == S::Word::ZERO
    }

    /// Whether the set has at least one square.
    #[inline(always)]
    pub fn any(self) -> bool {
        self.0 != S::Word::ZERO
    }

    /// Whether the set has two or more squares.
    #[inline(always)]
    pub fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_dec() != S::Word::ZERO
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub fn contains(self, sq: S) -> bool {
        (self.0 >> sq.index()) & S::Word::ONE != S::Word::ZERO
    }

    /// The lowest-numbered square, if any.
    #[inline(always)]
    pub fn first(self) -> Option<S> {
        if self.is_empty() {
            None
        } else {
            Some(S::from_index_unchecked(self.0.trailing_zeros() as usize))
        }
    }

    /// The only square of a one-square set; the lowest square otherwise.
    ///
    /// # Panics
    ///
    /// In debug builds, if the set is empty.
    #[inline(always)]
    pub fn single(self) -> S {
        debug_assert!(self.any());
        S::from_index_unchecked(self.0.trailing_zeros() as usize)
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub fn with(self, sq: S) -> Self {
        Bitboard(self.0 | S::Word::ONE << sq.index())
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub fn without(self, sq: S) -> Self {
        Bitboard(self.0 & !(S::Word::ONE << sq.index()))
    }
}

macro_rules! binary_op {
    ($trait:ident, $method:ident, $assign:ident, $assign_method:ident, $op:tt) => {
        impl<S: Square> $trait for Bitboard<S> {
            type Output = Bitboard<S>;
            #[inline(always)]
            fn $method(self, rhs: Bitboard<S>) -> Bitboard<S> {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl<S: Square> $assign for Bitboard<S> {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Bitboard<S>) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binary_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binary_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binary_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<S: Square> Not for Bitboard<S> {
    type Output = Bitboard<S>;
    /// The complement within the board's squares.
    #[inline(always)]
    fn not(self) -> Bitboard<S> {
        Bitboard(!self.0 & Bitboard::<S>::FULL.0)
    }
}

/// Iterates over the squares of a set, lowest number first.
pub struct Squares<S: Square>(S::Word);

impl<S: Square> Clone for Squares<S> {
    fn clone(&self) -> Self {
        Squares(self.0)
    }
}

impl<S: Square> fmt::Debug for Squares<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Squares").field(&self.0).finish()
    }
}

impl<S: Square> Iterator for Squares<S> {
    type Item = S;

    #[inline(always)]
    fn next(&mut self) -> Option<S> {
        if self.0 == S::Word::ZERO {
            return None;
        }
        let sq = S::from_index_unchecked(self.0.trailing_zeros() as usize);
        self.0 = self.0 & self.0.wrapping_dec();
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl<S: Square> ExactSizeIterator for Squares<S> {}

impl<S: Square> IntoIterator for Bitboard<S> {
    type Item = S;
    type IntoIter = Squares<S>;

    #[inline(always)]
    fn into_iter(self) -> Squares<S> {
        Squares(self.0)
    }
}

impl<S: Square> FromIterator<S> for Bitboard<S> {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Self {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl<S: Square> From<S> for Bitboard<S> {
    fn from(sq: S) -> Self {
        Bitboard::from_square(sq)
    }
}

/// The word in hex, then one line of `.` and `X` per rank, the last rank first, as a diagram reads.
impl<S: Square> fmt::Debug for Bitboard<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = 2 + S::COUNT.div_ceil(4);
        writeln!(f, "Bitboard({:#0width$x})", self.0)?;
        for &rank in S::Rank::ALL.iter().rev() {
            for &file in S::File::ALL {
                write!(f, "{}", if self.contains(S::from_coords(file, rank)) { 'X' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
