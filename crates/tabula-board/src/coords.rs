//! Coordinates: the [`Coordinate`] trait of files and ranks, the [`coordinate!`](crate::coordinate) macro that
//! declares such an enum with `const fn` conversions, and the [`Square`] trait a game's square type implements
//! so that [`Bitboard`](crate::Bitboard) and the FEN fields can work with it.
//!
//! Squares are numbered `FILES * rank + file`, from the first file of the first rank.
//!
//! # Examples
//!
//! ```
//! use tabula_board::{coordinate, Coordinate};
//!
//! coordinate!(
//!     /// A column, `a` to `e`.
//!     Column, "file", 5, [A, B, C, D, E], b'a'
//! );
//!
//! assert_eq!(Column::from_char('c'), Some(Column::C));
//! assert_eq!(Column::new(4), Some(Column::E));
//! assert_eq!(Column::E.to_string(), "e");
//! assert_eq!(<Column as Coordinate>::ALL.len(), Column::COUNT);
//! ```

use crate::word::Word;
use std::fmt;
use std::hash::Hash;

/// A file or a rank: one of `COUNT` values in order, each written as one character.
pub trait Coordinate: Copy + Eq + Ord + Hash + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// Every value, in order.
    const ALL: &'static [Self];
    /// How many there are.
    const COUNT: usize;

    /// The value's number, counting from 0.
    fn index(self) -> usize;

    /// The value's character.
    fn to_char(self) -> char;

    /// The value of a character.
    fn from_char(c: char) -> Option<Self>;
}

/// Declares a coordinate enum: `coordinate!(/// docs  Name, "what", COUNT, [Variants...], b'first char')`. The
/// enum gets `ALL`, `COUNT`, `new`, `index`, `to_char` and `from_char` as `const fn`s, `Display`, and the
/// [`Coordinate`] trait.
#[macro_export]
macro_rules! coordinate {
    ($(#[$doc:meta])* $name:ident, $what:literal, $count:literal, [$($variant:ident),*], $base:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(missing_docs)]
        pub enum $name {
            $($variant),*
        }

        impl $name {
            #[doc = concat!("Every ", $what, " in order.")]
            pub const ALL: [$name; $count] = [$($name::$variant),*];
            #[doc = concat!("Number of ", $what, "s.")]
            pub const COUNT: usize = $count;

            #[doc = concat!("The ", $what, " numbered `index`, counting from 0.")]
            #[inline(always)]
            pub const fn new(index: u32) -> Option<$name> {
                if index < $count {
                    Some($name::ALL[index as usize])
                } else {
                    None
                }
            }

            #[doc = concat!("The ", $what, "'s number, counting from 0.")]
            #[inline(always)]
            pub const fn index(self) -> usize {
                self as usize
            }

            #[doc = concat!("The ", $what, "'s character.")]
            pub const fn to_char(self) -> char {
                ($base + self as u8) as char
            }

            #[doc = concat!("The ", $what, " of a character.")]
            pub const fn from_char(c: char) -> Option<$name> {
                let base = $base as u32;
                let c = c as u32;
                if c >= base && c < base + $count {
                    $name::new(c - base)
                } else {
                    None
                }
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}", self.to_char())
            }
        }

        impl $crate::Coordinate for $name {
            const ALL: &'static [$name] = &$name::ALL;
            const COUNT: usize = $count;

            #[inline(always)]
            fn index(self) -> usize {
                self as usize
            }

            fn to_char(self) -> char {
                $name::to_char(self)
            }

            fn from_char(c: char) -> Option<$name> {
                $name::from_char(c)
            }
        }
    };
}

/// Declares a game's square type: `square!(/// docs  Name, File, Rank, word, "what a square name is")`, a
/// newtype of the square's number `FILES * rank + file` (files and ranks declared by [`coordinate!`]). It gets
/// `ALL`, `COUNT`, `new`, `from_index_unchecked`, `from_coords`, `index`, `file`, `rank` and `offset` as
/// `const fn`s, `Display` and `Debug` as coordinates (`e4`), `FromStr` with a `ParseSquareError` whose message
/// ends with the last argument (`fold_case` reads the file letter in either case), and the [`Square`] trait.
#[macro_export]
macro_rules! square {
    ($(#[$doc:meta])* $name:ident, $file:ident, $rank:ident, $word:ty, fold_case: $fold:literal, $expected:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u8);

        impl $name {
            /// Every square, in the order of their numbers.
            pub const ALL: [$name; $name::COUNT] = {
                let mut all = [$name(0); $name::COUNT];
                let mut i = 0;
                while i < $name::COUNT {
                    all[i] = $name(i as u8);
                    i += 1;
                }
                all
            };
            /// Number of squares.
            pub const COUNT: usize = $file::COUNT * $rank::COUNT;

            /// The square numbered `index`, if on the board.
            #[inline(always)]
            pub const fn new(index: u32) -> Option<$name> {
                if (index as usize) < $name::COUNT {
                    Some($name(index as u8))
                } else {
                    None
                }
            }

            /// The square numbered `index`.
            ///
            /// # Panics
            ///
            /// In debug builds, if `index` is not below [`COUNT`](Self::COUNT).
            #[inline(always)]
            pub const fn from_index_unchecked(index: usize) -> $name {
                debug_assert!(index < $name::COUNT);
                $name(index as u8)
            }

            /// The square at `file` and `rank`.
            #[inline(always)]
            pub const fn from_coords(file: $file, rank: $rank) -> $name {
                $name((rank as usize * $file::COUNT + file as usize) as u8)
            }

            /// The square's number, `FILES * rank + file`.
            #[inline(always)]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// The square's file.
            #[inline(always)]
            pub const fn file(self) -> $file {
                $file::ALL[self.0 as usize % $file::COUNT]
            }

            /// The square's rank.
            #[inline(always)]
            pub const fn rank(self) -> $rank {
                $rank::ALL[self.0 as usize / $file::COUNT]
            }

            /// The square `df` files and `dr` ranks away, if on the board.
            #[inline(always)]
            pub const fn offset(self, df: i32, dr: i32) -> Option<$name> {
                let f = (self.0 as usize % $file::COUNT) as i32 + df;
                let r = (self.0 as usize / $file::COUNT) as i32 + dr;
                if f >= 0 && f < $file::COUNT as i32 && r >= 0 && r < $rank::COUNT as i32 {
                    Some($name((r * $file::COUNT as i32 + f) as u8))
                } else {
                    None
                }
            }
        }

        impl ::core::fmt::Display for $name {
            /// The file's letter and the rank's digit.
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                $crate::coords::fmt_square(*self, f)
            }
        }

        impl ::core::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::core::fmt::Display::fmt(self, f)
            }
        }

        impl $crate::Square for $name {
            type Word = $word;
            type File = $file;
            type Rank = $rank;
            const COUNT: usize = $name::COUNT;
            const BOARD: $word = <$word>::MAX >> (<$word>::BITS as usize - $name::COUNT);

            #[inline(always)]
            fn index(self) -> usize {
                self.0 as usize
            }

            #[inline(always)]
            fn from_index_unchecked(index: usize) -> $name {
                $name::from_index_unchecked(index)
            }
        }

        /// Text that is not a square.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct ParseSquareError(pub String);

        impl ::core::fmt::Display for ParseSquareError {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "invalid square {:?}: {}", self.0, $expected)
            }
        }

        impl ::std::error::Error for ParseSquareError {}

        impl ::core::str::FromStr for $name {
            type Err = ParseSquareError;

            fn from_str(s: &str) -> Result<$name, ParseSquareError> {
                $crate::coords::parse_square(s, $fold).ok_or_else(|| ParseSquareError(s.to_owned()))
            }
        }
    };
}

/// A square of a board of [`Coordinate`] files and ranks, numbered `FILES * rank + file`, whose sets are
/// bitboards of the word [`Square::Word`].
///
/// A game's square type implements this beside its own `const fn`s (which its compile-time tables use); the
/// provided methods are for code generic over the board.
pub trait Square: Copy + Eq + Ord + Hash + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// The word of a set of squares: bit `i` stands for the square numbered `i`.
    type Word: Word;
    /// The board's files (columns).
    type File: Coordinate;
    /// The board's ranks (rows).
    type Rank: Coordinate;
    /// Number of squares: files times ranks, at most the word's bits.
    const COUNT: usize;
    /// The bits of the board's squares: the `COUNT` lowest.
    const BOARD: Self::Word;

    /// The square's number, 0 to `COUNT - 1`.
    fn index(self) -> usize;

    /// The square numbered `index`, which is below `COUNT` (not checked in release builds).
    fn from_index_unchecked(index: usize) -> Self;

    /// The square at `file` and `rank`.
    #[inline(always)]
    fn from_coords(file: Self::File, rank: Self::Rank) -> Self {
        Self::from_index_unchecked(rank.index() * Self::File::COUNT + file.index())
    }

    /// The square's file.
    #[inline(always)]
    fn file(self) -> Self::File {
        Self::File::ALL[self.index() % Self::File::COUNT]
    }

    /// The square's rank.
    #[inline(always)]
    fn rank(self) -> Self::Rank {
        Self::Rank::ALL[self.index() / Self::File::COUNT]
    }
}

/// Reads a square's name, its file's character then its rank's (`e4`, `e0`); with `fold_case`, the file's
/// character in either case. `None` for anything else.
pub fn parse_square<S: Square>(text: &str, fold_case: bool) -> Option<S> {
    let mut chars = text.chars();
    let (Some(f), Some(r), None) = (chars.next(), chars.next(), chars.next()) else {
        return None;
    };
    let f = if fold_case { f.to_ascii_lowercase() } else { f };
    Some(S::from_coords(S::File::from_char(f)?, S::Rank::from_char(r)?))
}

/// Writes a square's name: its file's character then its rank's.
pub fn fmt_square<S: Square>(sq: S, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    write!(f, "{}{}", sq.file(), sq.rank())
}
