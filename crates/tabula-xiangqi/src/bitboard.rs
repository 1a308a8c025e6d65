//! [`Bitboard`]: a set of squares as the low 90 bits of a `u128`, bit `i` standing for square `i` (a0 = bit 0):
//! the board layer's [`tabula_board::Bitboard`] on xiangqi's [`Square`], with the `const fn` masks of a rank
//! and a file for the tables built at compile time.
//!
//! # Examples
//!
//! ```
//! use tabula_xiangqi::{Bitboard, File, Rank, Square};
//!
//! let e0: Square = "e0".parse().unwrap();
//! let i9: Square = "i9".parse().unwrap();
//! let set = Bitboard::from_square(e0) | Bitboard::from_square(i9);
//! assert_eq!(set.count(), 2);
//! assert!(set.contains(e0));
//! assert_eq!(set.into_iter().collect::<Vec<_>>(), vec![e0, i9]);
//! assert_eq!(Bitboard::rank(Rank::R0) & Bitboard::file(File::E), Bitboard::from_square(e0));
//! ```

use crate::types::{File, Rank, Square};

/// A set of squares.
pub type Bitboard = tabula_board::Bitboard<Square>;

/// Iterates over the squares of a set, a0 first.
pub type Squares = tabula_board::Squares<Square>;

/// The bits of every square of `file`.
pub const fn file_bits(file: File) -> u128 {
    let mut bits = 0;
    let mut rank = 0;
    while rank < 10 {
        bits |= 1 << (9 * rank + file.index());
        rank += 1;
    }
    bits
}

/// The bits of every square of `rank`.
pub const fn rank_bits(rank: Rank) -> u128 {
    0x1ff << (9 * rank.index())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        tabula_board::testing::check_square_sets::<Square>("Bitboard(0x00000000000000000000001)");
        for sq in Square::ALL {
            assert_eq!(Bitboard::file(sq.file()).0, file_bits(sq.file()));
            assert_eq!(Bitboard::rank(sq.rank()).0, rank_bits(sq.rank()));
        }
    }
}
