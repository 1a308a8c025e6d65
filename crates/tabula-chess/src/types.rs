//! The small vocabulary of the board: [`Color`], [`Role`], [`Piece`], [`File`], [`Rank`] and [`Square`].
//!
//! Squares are numbered `8 * rank + file` from a1 = 0 to h8 = 63, the numbering of Polyglot and of most engines.
//!
//! # Examples
//!
//! ```
//! use tabula_chess::{Color, File, Piece, Rank, Role, Square};
//!
//! let e4: Square = "e4".parse().unwrap();
//! assert_eq!(e4, Square::from_coords(File::E, Rank::Fourth));
//! assert_eq!(e4.index(), 28);
//! assert_eq!(e4.to_string(), "e4");
//! assert_eq!(Piece::from_char('N'), Some(Piece::new(Color::White, Role::Knight)));
//! assert_eq!(Square::ALL.len(), Square::COUNT);
//! ```

tabula_board::pieces! {
    /// A side: White moves first.
    Color {
        /// The side that moves first.
        White = 'w',
        /// The other side.
        Black = 'b',
    }
    /// What a piece is, regardless of colour: pawn (0) to king (5).
    Role {
        /// A pawn.
        Pawn = 'p',
        /// A knight.
        Knight = 'n',
        /// A bishop.
        Bishop = 'b',
        /// A rook.
        Rook = 'r',
        /// A queen.
        Queen = 'q',
        /// A king.
        King = 'k',
    }
    /// A coloured piece.
    Piece
}

impl Color {
    /// The rank on which this colour's pieces start (first for White, eighth for Black).
    #[inline(always)]
    pub const fn back_rank(self) -> Rank {
        match self {
            Color::White => Rank::First,
            Color::Black => Rank::Eighth,
        }
    }

    /// The rank a pawn of this colour reaches with a double push.
    #[inline(always)]
    pub const fn double_push_rank(self) -> Rank {
        match self {
            Color::White => Rank::Fourth,
            Color::Black => Rank::Fifth,
        }
    }
}

impl Role {
    /// The roles a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
}

tabula_board::coordinate!(
    /// A column of the board, `a` to `h`.
    File, "file", 8, [A, B, C, D, E, F, G, H], b'a'
);
tabula_board::coordinate!(
    /// A row of the board, `1` to `8` (White starts on the first).
    Rank, "rank", 8, [First, Second, Third, Fourth, Fifth, Sixth, Seventh, Eighth], b'1'
);

impl Rank {
    /// The same rank seen from `color`'s side: unchanged for White, mirrored for Black.
    #[inline(always)]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::ALL[7 - self as usize],
        }
    }
}

tabula_board::square!(
    /// One of the 64 squares, numbered `8 * rank + file` (a1 = 0, h1 = 7, a8 = 56, h8 = 63).
    Square, File, Rank, u64, fold_case: false, "expected a file a-h then a rank 1-8"
);

#[allow(missing_docs)]
impl Square {
    pub const A1: Square = Square(0);
    pub const B1: Square = Square(1);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const B8: Square = Square(57);
    pub const C8: Square = Square(58);
    pub const D8: Square = Square(59);
    pub const E8: Square = Square(60);
    pub const F8: Square = Square(61);
    pub const G8: Square = Square(62);
    pub const H8: Square = Square(63);
}

impl Square {
    /// The square mirrored top to bottom (a1 ↔ a8).
    #[inline(always)]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_and_print() {
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), sq);
        }
        for bad in ["", "e", "e9", "i1", "e44", "E4"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn pieces_round_trip_through_letters() {
        for piece in Piece::ALL {
            assert_eq!(Piece::from_char(piece.to_char()), Some(piece));
        }
        assert_eq!(Piece::from_char('x'), None);
        assert_eq!(Rank::Second.relative_to(Color::Black), Rank::Seventh);
    }
}
