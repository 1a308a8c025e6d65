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

use std::fmt;
use std::str::FromStr;

/// A side: Red moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first, on ranks 0–4 at the start (upper case in FEN).
    Red = 0,
    /// The other side, on ranks 5–9 (lower case in FEN).
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];
    /// Number of colours.
    pub const COUNT: usize = 2;

    /// The opponent.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `w` or `b`, as FEN writes the side to move (Red takes White's letter).
    pub const fn to_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }

    /// The colour of a FEN side-to-move letter: `w` or `r` for Red, `b` for Black.
    pub const fn from_char(c: char) -> Option<Color> {
        match c {
            'w' | 'r' => Some(Color::Red),
            'b' => Some(Color::Black),
            _ => None,
        }
    }

    /// The rank step towards the opponent: +1 for Red, -1 for Black.
    #[inline(always)]
    pub const fn forward(self) -> i32 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }
}

/// What a piece is, regardless of colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// The king (general, 帅/将): one step orthogonally inside the palace.
    King = 0,
    /// An advisor (guard, 仕/士): one step diagonally inside the palace.
    Advisor = 1,
    /// An elephant (minister, bishop, 相/象): two steps diagonally, not over a piece on the eye, not across the river.
    Elephant = 2,
    /// A horse (knight, 马): one step orthogonally then one diagonally outwards, not past a piece on the leg.
    Horse = 3,
    /// A rook (chariot, 车): any distance orthogonally.
    Rook = 4,
    /// A cannon (炮): moves as a rook, captures by jumping exactly one piece (the screen).
    Cannon = 5,
    /// A pawn (soldier, 兵/卒): one step forward; sideways too once across the river.
    Pawn = 6,
}

impl Role {
    /// Every role, king to pawn.
    pub const ALL: [Role; 7] =
        [Role::King, Role::Advisor, Role::Elephant, Role::Horse, Role::Rook, Role::Cannon, Role::Pawn];
    /// Number of roles.
    pub const COUNT: usize = 7;

    /// 0 (king) to 6 (pawn).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter, upper case: `K A B N R C P`.
    pub const fn to_char(self) -> char {
        match self {
            Role::King => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'B',
            Role::Horse => 'N',
            Role::Rook => 'R',
            Role::Cannon => 'C',
            Role::Pawn => 'P',
        }
    }

    /// The WXF letter: `K A E H R C P`.
    pub const fn to_wxf_char(self) -> char {
        match self {
            Role::Elephant => 'E',
            Role::Horse => 'H',
            _ => self.to_char(),
        }
    }

    /// The role of a letter in either case: the FEN letters `K A B N R C P`, and `E` (elephant) and `H` (horse)
    /// as WXF and some FEN writers have them.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_uppercase() {
            'K' => Some(Role::King),
            'A' => Some(Role::Advisor),
            'B' | 'E' => Some(Role::Elephant),
            'N' | 'H' => Some(Role::Horse),
            'R' => Some(Role::Rook),
            'C' => Some(Role::Cannon),
            'P' => Some(Role::Pawn),
            _ => None,
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

/// A piece: a colour and a role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What piece.
    pub role: Role,
}

impl Piece {
    /// Number of distinct pieces (colour × role).
    pub const COUNT: usize = 14;

    /// The piece of `color` and `role`.
    #[inline(always)]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// `7 * color + role`, 0 to 13.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color.index() * Role::COUNT + self.role.index()
    }

    /// The FEN letter: upper case for Red, lower case for Black.
    pub const fn to_char(self) -> char {
        let c = self.role.to_char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece of a FEN letter (upper case Red, lower case Black); `H`/`h` and `E`/`e` are read as horse and
    /// elephant too.
    pub const fn from_char(c: char) -> Option<Piece> {
        if !c.is_ascii_alphabetic() {
            return None;
        }
        let color = if c.is_ascii_uppercase() { Color::Red } else { Color::Black };
        match Role::from_char(c) {
            Some(role) => Some(Piece::new(color, role)),
            None => None,
        }
    }

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

/// One of the 90 points of the board, numbered `9 * rank + file` (a0 = 0, i0 = 8, a9 = 81, i9 = 89).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Every square, a0 to i9.
    pub const ALL: [Square; 90] = {
        let mut all = [Square(0); 90];
        let mut i = 0;
        while i < 90 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };
    /// Number of squares.
    pub const COUNT: usize = 90;

    /// The square numbered `index`, if below 90.
    #[inline(always)]
    pub const fn new(index: u32) -> Option<Square> {
        if index < 90 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square numbered `index`.
    ///
    /// # Panics
    ///
    /// In debug builds, if `index >= 90`.
    #[inline(always)]
    pub const fn from_index_unchecked(index: usize) -> Square {
        debug_assert!(index < 90);
        Square(index as u8)
    }

    /// The square at `file` and `rank`.
    #[inline(always)]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 9 + file as u8)
    }

    /// 0 (a0) to 89 (i9).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square's file.
    #[inline(always)]
    pub const fn file(self) -> File {
        File::ALL[self.0 as usize % 9]
    }

    /// The square's rank.
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank::ALL[self.0 as usize / 9]
    }

    /// The square `df` files and `dr` ranks away, if on the board.
    #[inline(always)]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        let f = (self.0 % 9) as i32 + df;
        let r = (self.0 / 9) as i32 + dr;
        if f >= 0 && f < 9 && r >= 0 && r < 10 {
            Some(Square((r * 9 + f) as u8))
        } else {
            None
        }
    }

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

impl fmt::Display for Square {
    /// ICCS coordinates: file letter and rank digit, `e0`.
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
    type Word = u128;
    type File = File;
    type Rank = Rank;
    const COUNT: usize = 90;
    const BOARD: u128 = (1 << 90) - 1;

    #[inline(always)]
    fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    fn from_index_unchecked(index: usize) -> Square {
        Square::from_index_unchecked(index)
    }
}

/// Text that is not a square.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {0:?}: expected a file a-i and a rank 0-9, such as e0")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    /// ICCS coordinates, `a0` to `i9` (the file letter in either case).
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        tabula_board::coords::parse_square(s, true).ok_or_else(|| ParseSquareError(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
