//! The small vocabulary of the board: [`Color`], [`Role`], [`Piece`], [`File`], [`Rank`] and [`Square`].
//!
//! The board has 9 files, `a` to `i` from Red's left, and 10 ranks, `0` to `9` from Red's side, as ICCS and UCCI
//! write them. Squares are numbered `9 * rank + file`, from a0 = 0 (Red's left corner) to i9 = 89. The river
//! runs between ranks 4 and 5.
//!
//! # Examples
//!
//! ```
//! use tabula_xiangqi::{Color, File, Piece, Rank, Role, Square};
//!
//! let e0: Square = "e0".parse().unwrap();
//! assert_eq!(e0, Square::from_coords(File::E, Rank::R0));
//! assert_eq!(e0.index(), 4);
//! assert_eq!(Square::from_coords(File::I, Rank::R9).index(), 89);
//! assert_eq!(Piece::from_char('H'), Some(Piece::new(Color::Red, Role::Horse)));
//! assert_eq!(Piece::new(Color::Black, Role::Cannon).to_char(), 'c');
//! assert!(Square::from_coords(File::D, Rank::R2).in_palace(Color::Red));
//! ```

tabula_board::pieces! {
    /// A side: Red moves first.
    Color {
        /// The side that moves first, on ranks 0–4 at the start (upper case in FEN, `w` or `r` to move).
        Red = 'w' | 'r',
        /// The other side, on ranks 5–9 (lower case in FEN).
        Black = 'b',
    }
    /// What a piece is, regardless of colour: king (0) to pawn (6). Its FEN letters are `K A B N R C P`; `E`
    /// (elephant) and `H` (horse) are read too, as WXF and some FEN writers have them.
    Role {
        /// The king (general, 帅/将): one step orthogonally inside the palace.
        King = 'K',
        /// An advisor (guard, 仕/士): one step diagonally inside the palace.
        Advisor = 'A',
        /// An elephant (minister, bishop, 相/象): two steps diagonally, not over a piece on the eye, not across
        /// the river.
        Elephant = 'B' | 'E',
        /// A horse (knight, 马): one step orthogonally then one diagonally outwards, not past a piece on the leg.
        Horse = 'N' | 'H',
        /// A rook (chariot, 车): any distance orthogonally.
        Rook = 'R',
        /// A cannon (炮): moves as a rook, captures by jumping exactly one piece (the screen).
        Cannon = 'C',
        /// A pawn (soldier, 兵/卒): one step forward; sideways too once across the river.
        Pawn = 'P',
    }
    /// A piece: a colour and a role.
    Piece
}

impl Color {
    /// The rank step towards the opponent: +1 for Red, -1 for Black.
    #[inline(always)]
    pub const fn forward(self) -> i32 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }
}

impl Role {
    /// The WXF letter: `K A E H R C P`.
    pub const fn to_wxf_char(self) -> char {
        match self {
            Role::Elephant => 'E',
            Role::Horse => 'H',
            _ => self.to_char(),
        }
    }

    /// How many of this role each side has at the start (and at most: xiangqi has no promotion).
    pub const fn start_count(self) -> u32 {
        match self {
            Role::King => 1,
            Role::Pawn => 5,
            _ => 2,
        }
    }
}

impl Piece {
    /// The Chinese character of the piece as boards print it (simplified): 帅仕相马车炮兵 for Red,
    /// 将士象马车炮卒 for Black.
    pub const fn to_chinese(self) -> char {
        match (self.color, self.role) {
            (Color::Red, Role::King) => '帅',
            (Color::Black, Role::King) => '将',
            (Color::Red, Role::Advisor) => '仕',
            (Color::Black, Role::Advisor) => '士',
            (Color::Red, Role::Elephant) => '相',
            (Color::Black, Role::Elephant) => '象',
            (_, Role::Horse) => '马',
            (_, Role::Rook) => '车',
            (_, Role::Cannon) => '炮',
            (Color::Red, Role::Pawn) => '兵',
            (Color::Black, Role::Pawn) => '卒',
        }
    }
}

tabula_board::coordinate!(
    /// A column of the board, `a` to `i` from Red's left.
    File, "file", 9, [A, B, C, D, E, F, G, H, I], b'a'
);
tabula_board::coordinate!(
    /// A row of the board, `0` (Red's back rank) to `9` (Black's).
    Rank, "rank", 10, [R0, R1, R2, R3, R4, R5, R6, R7, R8, R9], b'0'
);

impl Rank {
    /// The same rank seen from `color`'s side: unchanged for Red, mirrored for Black (0 is always the own back
    /// rank).
    #[inline(always)]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::Red => self,
            Color::Black => Rank::ALL[9 - self as usize],
        }
    }
}

tabula_board::square!(
    /// One of the 90 points of the board, numbered `9 * rank + file` (a0 = 0, i0 = 8, a9 = 81, i9 = 89), written
    /// in ICCS coordinates (`e0`; the file letter read in either case).
    Square, File, Rank, u128, fold_case: true, "expected a file a-i and a rank 0-9, such as e0"
);

impl Square {
    /// The square mirrored across the river (rank `r` to `9 - r`): where the other side's piece stands in the
    /// mirrored position.
    #[inline(always)]
    pub const fn flip_vertical(self) -> Square {
        Square((9 - self.0 / 9) * 9 + self.0 % 9)
    }

    /// The square mirrored left to right (file `f` to `8 - f`).
    #[inline(always)]
    pub const fn flip_horizontal(self) -> Square {
        Square(self.0 / 9 * 9 + (8 - self.0 % 9))
    }

    /// Whether the square is on `color`'s half of the board (ranks 0–4 for Red, 5–9 for Black).
    #[inline(always)]
    pub const fn on_side_of(self, color: Color) -> bool {
        match color {
            Color::Red => self.0 < 45,
            Color::Black => self.0 >= 45,
        }
    }

    /// Whether the square is in `color`'s palace (files d–f of ranks 0–2 for Red, 7–9 for Black).
    #[inline(always)]
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.0 % 9;
        let r = self.0 / 9;
        f >= 3
            && f <= 5
            && match color {
                Color::Red => r <= 2,
                Color::Black => r >= 7,
            }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The point named `name` (`e0`), for the crate's tests.
    pub(crate) fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn squares_and_coordinates() {
        for sq in Square::ALL {
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), sq);
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(sq.flip_vertical().flip_vertical(), sq);
            assert_eq!(sq.flip_horizontal().flip_horizontal(), sq);
            assert_eq!(sq.on_side_of(Color::Red), !sq.flip_vertical().on_side_of(Color::Red));
            assert_eq!(sq.in_palace(Color::Red), sq.flip_vertical().in_palace(Color::Black));
        }
        assert_eq!(Square::ALL.iter().filter(|s| s.in_palace(Color::Black)).count(), 9);
        for bad in ["", "j0", "a10", "e", "a-1", "e0 "] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
        assert_eq!("E9".parse::<Square>().unwrap().to_string(), "e9");
        assert_eq!(Square::from_coords(File::A, Rank::R0).offset(-1, 0), None);
        assert_eq!(Rank::R3.relative_to(Color::Black), Rank::R6);
    }

    #[test]
    fn piece_letters() {
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece::new(color, role);
                assert_eq!(Piece::from_char(piece.to_char()), Some(piece));
            }
        }
        assert_eq!(Piece::from_char('e'), Some(Piece::new(Color::Black, Role::Elephant)));
        assert_eq!(Piece::from_char('x'), None);
        assert_eq!(Piece::from_char('1'), None);
        assert_eq!(Color::from_char('r'), Some(Color::Red));
    }
}
