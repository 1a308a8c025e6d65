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
        let a = Bitboard::file(File::A);
        assert_eq!(a.count(), 10);
        assert!(a.more_than_one());
        let a9 = Square::from_coords(File::A, Rank::R9);
        assert!(!Bitboard::from_square(a9).more_than_one());
        assert_eq!((a & Bitboard::rank(Rank::R9)).first(), Some(a9));
        assert_eq!((!Bitboard::EMPTY), Bitboard::FULL);
        assert_eq!(Bitboard::FULL.count(), 90);
        let all_ranks = Rank::ALL.iter().fold(Bitboard::EMPTY, |b, &r| b | Bitboard::rank(r));
        let all_files = File::ALL.iter().fold(Bitboard::EMPTY, |b, &f| b | Bitboard::file(f));
        assert_eq!(all_ranks, Bitboard::FULL);
        assert_eq!(all_files, Bitboard::FULL);
        for sq in Square::ALL {
            assert_eq!(Bitboard::file(sq.file()).0, file_bits(sq.file()));
            assert_eq!(Bitboard::rank(sq.rank()).0, rank_bits(sq.rank()));
        }
        let squares: Bitboard = [a9, Square::from_coords(File::I, Rank::R0)].into_iter().collect();
        assert_eq!(squares.into_iter().len(), 2);
        assert_eq!(
            format!("{:?}", Bitboard::from_square(a9)).lines().next(),
            Some("Bitboard(0x00200000000000000000000)")
        );
    }
}
