//! The [`pieces!`](macro@crate::pieces) macro: a game's `Color`, `Role` and `Piece` types, declared by their letters.
//!
//! Chess and xiangqi name their sides and roles differently, and read them from different letters, but the
//! three types work alike: two colours that flip, roles numbered in order, a piece that is a colour and a role,
//! written as its role's letter in upper case for the first colour and lower case for the second (FEN's
//! convention in both games). The macro writes that once; a game adds its own methods in impl blocks of its own.
//!
//! # Examples
//!
//! ```
//! mod draughts {
//!     tabula_board::pieces! {
//!         /// A side.
//!         Color {
//!             /// Moves first.
//!             Light = 'w',
//!             /// Moves second.
//!             Dark = 'b' | 'd',
//!         }
//!         /// What a piece is.
//!         Role {
//!             /// A man.
//!             Man = 'm',
//!             /// A crowned man.
//!             King = 'k',
//!         }
//!         /// A piece: a colour and a role.
//!         Piece
//!     }
//! }
//! use draughts::{Color, Piece, Role};
//!
//! assert_eq!(Color::Light.flip(), Color::Dark);
//! assert_eq!(Color::from_char('d'), Some(Color::Dark));
//! assert_eq!(Role::from_char('K'), Some(Role::King));
//! let piece = Piece::new(Color::Dark, Role::King);
//! assert_eq!((piece.to_char(), piece.index()), ('k', 3));
//! assert_eq!(Piece::from_char('M'), Some(Piece::new(Color::Light, Role::Man)));
//! assert_eq!(Piece::ALL.len(), Piece::COUNT);
//! ```

/// Declares `Color` (two sides), `Role` and `Piece` types by their letters: see the [module
/// documentation](mod@crate::pieces).
///
/// `Color`'s first letter is the one it writes (FEN's side to move), the others are read too; likewise `Role`'s,
/// read in either case. Each type gets `ALL`, `COUNT`, `index` and the letters both ways as `const fn`s;
/// `Color` its `flip`, `Role` `from_index`, `Piece` `new`.
#[macro_export]
macro_rules! pieces {
    (
        $(#[$color_doc:meta])*
        $color:ident {
            $(#[$first_doc:meta])* $first:ident = $first_char:literal $(| $first_alt:literal)*,
            $(#[$second_doc:meta])* $second:ident = $second_char:literal $(| $second_alt:literal)* $(,)?
        }
        $(#[$role_doc:meta])*
        $role:ident {
            $($(#[$variant_doc:meta])* $variant:ident = $letter:literal $(| $alt:literal)*),+ $(,)?
        }
        $(#[$piece_doc:meta])*
        $piece:ident
    ) => {
        $(#[$color_doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $color {
            $(#[$first_doc])*
            $first = 0,
            $(#[$second_doc])*
            $second = 1,
        }

        impl $color {
            /// Both colours, the side that moves first first.
            pub const ALL: [$color; 2] = [$color::$first, $color::$second];
            /// Number of colours.
            pub const COUNT: usize = 2;

            /// The opponent.
            #[inline(always)]
            pub const fn flip(self) -> $color {
                match self {
                    $color::$first => $color::$second,
                    $color::$second => $color::$first,
                }
            }

            /// 0 for the side that moves first, 1 for the other.
            #[inline(always)]
            pub const fn index(self) -> usize {
                self as usize
            }

            /// The letter FEN writes for the side to move.
            pub const fn to_char(self) -> char {
                match self {
                    $color::$first => $first_char,
                    $color::$second => $second_char,
                }
            }

            /// The colour of a side-to-move letter.
            pub const fn from_char(c: char) -> Option<$color> {
                match c {
                    $first_char $(| $first_alt)* => Some($color::$first),
                    $second_char $(| $second_alt)* => Some($color::$second),
                    _ => None,
                }
            }
        }

        $(#[$role_doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $role {
            $($(#[$variant_doc])* $variant),+
        }

        impl $role {
            /// Every role, in order.
            pub const ALL: [$role; $role::COUNT] = [$($role::$variant),+];
            /// Number of roles.
            pub const COUNT: usize = [$($letter),+].len();

            /// The role's number, from 0 in the order of [`ALL`](Self::ALL).
            #[inline(always)]
            pub const fn index(self) -> usize {
                self as usize
            }

            /// The role numbered `index`.
            #[inline(always)]
            pub const fn from_index(index: usize) -> Option<$role> {
                if index < $role::COUNT {
                    Some($role::ALL[index])
                } else {
                    None
                }
            }

            /// The role's FEN letter, in the case the game writes it alone.
            pub const fn to_char(self) -> char {
                match self {
                    $($role::$variant => $letter),+
                }
            }

            /// The role of a letter in either case, its FEN letter or another the game reads too.
            pub const fn from_char(c: char) -> Option<$role> {
                let c = c.to_ascii_lowercase();
                $(
                    if c == ($letter as char).to_ascii_lowercase() $(|| c == ($alt as char).to_ascii_lowercase())* {
                        return Some($role::$variant);
                    }
                )+
                None
            }
        }

        $(#[$piece_doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct $piece {
            /// Whose piece it is.
            pub color: $color,
            /// What it is.
            pub role: $role,
        }

        impl $piece {
            /// Every piece: the first colour's roles in order, then the second's.
            pub const ALL: [$piece; $piece::COUNT] = {
                let mut all = [$piece::new($color::$first, $role::ALL[0]); $piece::COUNT];
                let mut i = 0;
                while i < $piece::COUNT {
                    all[i] = $piece::new($color::ALL[i / $role::COUNT], $role::ALL[i % $role::COUNT]);
                    i += 1;
                }
                all
            };
            /// Number of distinct pieces (colour × role).
            pub const COUNT: usize = 2 * $role::COUNT;

            /// The piece of `color` and `role`.
            #[inline(always)]
            pub const fn new(color: $color, role: $role) -> $piece {
                $piece { color, role }
            }

            /// The piece in words, in lower case: its colour, then its role (`white knight`).
            pub fn name(self) -> String {
                format!("{:?} {:?}", self.color, self.role).to_lowercase()
            }

            /// The piece's number in [`ALL`](Self::ALL): the colour's index times the roles, plus the role's.
            #[inline(always)]
            pub const fn index(self) -> usize {
                self.color.index() * $role::COUNT + self.role.index()
            }

            /// The FEN letter: upper case for the side that moves first, lower case for the other.
            pub const fn to_char(self) -> char {
                match self.color {
                    $color::$first => self.role.to_char().to_ascii_uppercase(),
                    $color::$second => self.role.to_char().to_ascii_lowercase(),
                }
            }

            /// The piece of a FEN letter (upper case for the side that moves first).
            pub const fn from_char(c: char) -> Option<$piece> {
                match $role::from_char(c) {
                    Some(role) if c.is_ascii_uppercase() => Some($piece::new($color::$first, role)),
                    Some(role) => Some($piece::new($color::$second, role)),
                    None => None,
                }
            }
        }

        impl $crate::placement::ColoredPiece for $piece {
            type Color = $color;
            type Role = $role;
            const COLORS: [$color; 2] = $color::ALL;
            const ROLES: usize = $role::COUNT;
            const ALL: &'static [$piece] = &$piece::ALL;

            #[inline(always)]
            fn of(color: $color, role: $role) -> $piece {
                $piece::new(color, role)
            }

            #[inline(always)]
            fn color(self) -> $color {
                self.color
            }

            #[inline(always)]
            fn role(self) -> $role {
                self.role
            }

            #[inline(always)]
            fn color_index(color: $color) -> usize {
                color.index()
            }

            #[inline(always)]
            fn role_index(role: $role) -> usize {
                role.index()
            }
        }
    };
}
