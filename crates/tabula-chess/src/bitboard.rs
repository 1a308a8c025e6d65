//! [`Bitboard`]: a set of squares as the 64 bits of a `u64`, bit `i` standing for square `i` (a1 = bit 0): the
//! board layer's [`tabula_board::Bitboard`] on chess's [`Square`], and [`PawnSets`], what only chess asks of a
//! set (pawn pushes and captures, the mirror of the board).
//!
//! # Examples
//!
//! ```
//! use tabula_chess::bitboard::PawnSets;
//! use tabula_chess::{Bitboard, Color, File, Rank, Square};
//!
//! let e4: Square = "e4".parse().unwrap();
//! let set = Bitboard::from_square(e4) | Bitboard::from_square(Square::A1);
//! assert_eq!(set.count(), 2);
//! assert!(set.contains(e4));
//! assert_eq!(set.into_iter().collect::<Vec<_>>(), vec![Square::A1, e4]);
//! assert_eq!(Bitboard::rank(Rank::First) & Bitboard::file(File::A), Bitboard::from_square(Square::A1));
//! assert_eq!(Bitboard::from_square(Square::A1).pawn_attacks(Color::White).count(), 1);
//! ```

use crate::types::{Color, Square};

/// A set of squares.
pub type Bitboard = tabula_board::Bitboard<Square>;

/// Iterates over the squares of a set, a1 first.
pub type Squares = tabula_board::Squares<Square>;

const NOT_A: u64 = !0x0101_0101_0101_0101;
const NOT_H: u64 = !0x8080_8080_8080_8080;

/// What chess asks of a set of squares beyond the board layer's set operations.
pub trait PawnSets {
    /// The set moved one rank forward from `color`'s point of view (squares leaving the board vanish).
    fn forward(self, color: Color) -> Self;
    /// The squares pawns of `color` standing on this set attack (one rank forward, one file aside).
    fn pawn_attacks(self, color: Color) -> Self;
    /// The set mirrored top to bottom.
    fn flip_vertical(self) -> Self;
}

impl PawnSets for Bitboard {
    #[inline(always)]
    fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard::from_bits(self.0 << 8),
            Color::Black => Bitboard::from_bits(self.0 >> 8),
        }
    }

    #[inline(always)]
    fn pawn_attacks(self, color: Color) -> Bitboard {
        let p = self.0;
        Bitboard::from_bits(match color {
            Color::White => ((p << 7) & NOT_H) | ((p << 9) & NOT_A),
            Color::Black => ((p >> 9) & NOT_H) | ((p >> 7) & NOT_A),
        })
    }

    #[inline(always)]
    fn flip_vertical(self) -> Bitboard {
        Bitboard::from_bits(self.0.swap_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{File, Rank};

    #[test]
    fn set_operations() {
        tabula_board::testing::check_square_sets::<Square>("Bitboard(0x0000000000000001)");
        assert_eq!((Bitboard::file(File::A) & Bitboard::rank(Rank::Eighth)).single(), Square::A8);
        assert_eq!(Bitboard::rank(Rank::Second).forward(Color::White), Bitboard::rank(Rank::Third));
        assert_eq!(Bitboard::rank(Rank::First).forward(Color::Black), Bitboard::EMPTY);
        assert_eq!(Bitboard::rank(Rank::First).flip_vertical(), Bitboard::rank(Rank::Eighth));
        assert_eq!(Bitboard::file(File::H).0, 0x8080_8080_8080_8080);
    }
}
