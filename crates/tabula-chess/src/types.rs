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

use std::fmt;
use std::str::FromStr;

/// A side: White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The other side.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];
    /// Number of colours.
    pub const COUNT: usize = 2;

    /// The opponent.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `w` or `b`, as in FEN.
    pub const fn to_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// The colour of FEN's side-to-move letter.
    pub const fn from_char(c: char) -> Option<Color> {
        match c {
            'w' => Some(Color::White),
            'b' => Some(Color::Black),
            _ => None,
        }
    }

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

/// What a piece is, regardless of colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// A pawn.
    Pawn = 0,
    /// A knight.
    Knight = 1,
    /// A bishop.
    Bishop = 2,
    /// A rook.
    Rook = 3,
    /// A queen.
    Queen = 4,
    /// A king.
    King = 5,
}

impl Role {
    /// Every role, pawn to king.
    pub const ALL: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
    /// Number of roles.
    pub const COUNT: usize = 6;
    /// The roles a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// 0 (pawn) to 5 (king).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The role numbered `index` (0 pawn to 5 king).
    #[inline(always)]
    pub const fn from_index(index: usize) -> Option<Role> {
        if index < Role::COUNT {
            Some(Role::ALL[index])
        } else {
            None
        }
    }

    /// The lowercase letter: `p n b r q k`.
    pub const fn to_char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The role of a letter, in either case.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What it is.
    pub role: Role,
}

impl Piece {
    /// Every piece: the six white roles, then the six black ones.
    pub const ALL: [Piece; 12] = {
        let mut all = [Piece::new(Color::White, Role::Pawn); 12];
        let mut i = 0;
        while i < 12 {
            all[i] = Piece::new(Color::ALL[i / 6], Role::ALL[i % 6]);
            i += 1;
        }
        all
    };
    /// Number of distinct pieces.
    pub const COUNT: usize = 12;

    /// The piece of `color` and `role`.
    #[inline(always)]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// The FEN letter: uppercase for White, lowercase for Black.
    pub const fn to_char(self) -> char {
        match self.color {
            Color::White => self.role.to_char().to_ascii_uppercase(),
            Color::Black => self.role.to_char(),
        }
    }

    /// The piece of a FEN letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => {
                let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
                Some(Piece::new(color, role))
            }
            None => None,
        }
    }
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

/// One of the 64 squares, numbered `8 * rank + file` (a1 = 0, h1 = 7, a8 = 56, h8 = 63).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

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
    /// Every square, a1 to h8.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };
    /// Number of squares.
    pub const COUNT: usize = 64;

    /// The square numbered `index`, if below 64.
    #[inline(always)]
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square numbered `index`.
    ///
    /// # Panics
    ///
    /// In debug builds, if `index >= 64`.
    #[inline(always)]
    pub const fn from_index_unchecked(index: u32) -> Square {
        debug_assert!(index < 64);
        Square((index & 63) as u8)
    }

    /// The square at `file` and `rank`.
    #[inline(always)]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square((rank as u8) << 3 | file as u8)
    }

    /// 0 (a1) to 63 (h8).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square's file.
    #[inline(always)]
    pub const fn file(self) -> File {
        File::ALL[(self.0 & 7) as usize]
    }

    /// The square's rank.
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 >> 3) as usize]
    }

    /// The square mirrored top to bottom (a1 ↔ a8).
    #[inline(always)]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square `df` files and `dr` ranks away, if still on the board.
    #[inline(always)]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        let f = (self.0 & 7) as i32 + df;
        let r = (self.0 >> 3) as i32 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square((r * 8 + f) as u8))
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        tabula_board::coords::fmt_square(*self, f)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl tabula_board::Square for Square {
    type Word = u64;
    type File = File;
    type Rank = Rank;
    const COUNT: usize = 64;
    const BOARD: u64 = !0;

    #[inline(always)]
    fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    fn from_index_unchecked(index: usize) -> Square {
        Square::from_index_unchecked(index as u32)
    }
}

/// A square name that is not two characters `a`–`h` then `1`–`8`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {0:?}: expected a file a-h then a rank 1-8")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        tabula_board::coords::parse_square(s, false).ok_or_else(|| ParseSquareError(s.to_owned()))
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
