//! [`Word`]: the unsigned integer a bitboard keeps its squares in, `u64` for chess's 64 squares and `u128` for
//! xiangqi's 90 points. A leaf: the squares ([`coords`](crate::coords)) name their word, the bitboards
//! ([`bitboard`](crate::bitboard)) compute in it.

use std::fmt;
use std::hash::Hash;
use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr, Sub};

/// The unsigned integer a bitboard keeps its squares in.
pub trait Word:
    Copy
    + Eq
    + Hash
    + Default
    + fmt::Debug
    + fmt::LowerHex
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<usize, Output = Self>
    + Shr<usize, Output = Self>
    + Sub<Output = Self>
    + Send
    + Sync
    + 'static
{
    /// No bit set.
    const ZERO: Self;
    /// The lowest bit set.
    const ONE: Self;
    /// Every bit set.
    const ONES: Self;
    /// The number of bits.
    const BITS: u32;

    /// The number of bits set.
    fn count_ones(self) -> u32;
    /// The number of zero bits below the lowest one.
    fn trailing_zeros(self) -> u32;
    /// `self - 1`, wrapping at zero.
    fn wrapping_dec(self) -> Self;
    /// The `n` lowest bits set (`n` at most [`Word::BITS`]).
    #[inline(always)]
    fn low_bits(n: usize) -> Self {
        if n as u32 >= Self::BITS {
            Self::ONES
        } else {
            (Self::ONE << n) - Self::ONE
        }
    }
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const ZERO: $t = 0;
            const ONE: $t = 1;
            const ONES: $t = !0;
            const BITS: u32 = <$t>::BITS;

            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }

            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }

            #[inline(always)]
            fn wrapping_dec(self) -> $t {
                self.wrapping_sub(1)
            }
        }
    )*};
}
word!(u64, u128);
