//! [`Move`]: a move in 16 bits, and its UCI long algebraic notation (`e2e4`, `e1g1`, `e7e8q`).
//!
//! A move names its origin, its destination and a promotion or castling; whether it is a capture or en passant
//! follows from the position it is played in. Castling is kept as the king taking its own rook (the encoding
//! that covers Chess960, where king and rook may start anywhere on the back rank) and written either way: as the
//! king's move to its destination (`e1g1`, standard UCI) by [`Display`](fmt::Display), or as the king taking the
//! rook (`e1h1`, UCI with `UCI_Chess960`) by [`Move::to_uci_chess960`].
//!
//! # Examples
//!
//! ```
//! use tabula_chess::{Move, Position, Role, Square};
//!
//! let mv: Move = "e7e8q".parse().unwrap();
//! assert_eq!(mv.from(), "e7".parse().unwrap());
//! assert_eq!(mv.promotion(), Some(Role::Queen));
//! assert_eq!(mv.to_string(), "e7e8q");
//! assert!("e7e9".parse::<Move>().is_err());
//!
//! // Checked against a position: only legal moves parse.
//! let pos = Position::startpos();
//! assert!(pos.parse_uci("e2e4").is_ok());
//! assert!(pos.parse_uci("e2e5").is_err());
//! ```

use crate::castling::CastlingSide;
use crate::types::{Role, Square};
use std::fmt;
use std::str::FromStr;
use tabula_board::MoveError;

/// A move: origin in bits 0–5, destination in bits 6–11, and in bits 12–14 the promotion role (1 knight to 4
/// queen), 7 for castling, or 0.
/// The default, code 0, is the null square-to-itself move that fills a [`MoveList`]'s unused slots.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// Number of distinct move codes ([`Move::code`] is below this).
    pub const CODES: usize = 1 << 15;
    /// The null move, `a1a1`, which is never legal: it passes the turn (see [`Position::play_null`]).
    ///
    /// [`Position::play_null`]: crate::Position::play_null
    pub const NULL: Move = Move(0);
    /// The value of bits 12–14 that marks castling.
    const CASTLING_FLAG: u16 = 7;

    /// A move from `from` to `to` without promotion.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }

    /// A pawn move from `from` to `to` promoting to `role`.
    ///
    /// # Panics
    ///
    /// In debug builds, if `role` is a pawn or a king.
    #[inline(always)]
    pub const fn with_promotion(from: Square, to: Square, role: Role) -> Move {
        debug_assert!(!matches!(role, Role::Pawn | Role::King));
        Move(Move::new(from, to).0 | (role.index() as u16) << 12)
    }

    /// Castling of the king on `king` with the rook on `rook` (same rank): king side if the rook stands towards
    /// the h-file. Legal castling moves come from the position's move generation; this only builds the code.
    #[inline(always)]
    pub const fn castling(king: Square, rook: Square) -> Move {
        Move(Move::new(king, rook).0 | Move::CASTLING_FLAG << 12)
    }

    /// Whether this is castling.
    #[inline(always)]
    pub const fn is_castling(self) -> bool {
        self.0 >> 12 == Move::CASTLING_FLAG
    }

    /// The side a castling move castles to (`None` for other moves).
    #[inline(always)]
    pub fn castling_side(self) -> Option<CastlingSide> {
        self.is_castling().then(|| {
            if self.to().file() > self.from().file() {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            }
        })
    }

    /// Where the moving piece lands: [`to`](Move::to) for every move but castling, where the king lands on the
    /// g- or c-file.
    #[inline(always)]
    pub fn king_to(self) -> Square {
        match self.castling_side() {
            Some(side) => Square::from_coords(side.king_to_file(), self.from().rank()),
            None => self.to(),
        }
    }

    /// The square the piece leaves.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 63) as usize)
    }

    /// The square the piece lands on; for castling, the square of the rook the king castles with (see
    /// [`king_to`](Move::king_to)).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0 >> 6 & 63) as usize)
    }

    /// The role a pawn promotes to, if this is a promotion.
    #[inline(always)]
    pub const fn promotion(self) -> Option<Role> {
        match self.0 >> 12 {
            r @ 1..=4 => Role::from_index(r as usize),
            _ => None,
        }
    }

    /// The 15-bit code of the move (its whole representation).
    #[inline(always)]
    pub const fn code(self) -> u16 {
        self.0
    }

    /// The move of a code made by [`Move::code`], if the code is well formed.
    pub const fn from_code(code: u16) -> Option<Move> {
        match code >> 12 {
            0..=4 | Move::CASTLING_FLAG => Some(Move(code)),
            _ => None,
        }
    }

    /// The move in standard UCI notation: origin, destination, promotion letter; castling as the king's move
    /// (`e1g1`). The same as [`Display`](fmt::Display).
    pub fn to_uci(self) -> String {
        self.to_string()
    }

    /// The move in the UCI notation of Chess960 (`UCI_Chess960`): castling as the king taking its rook (`e1h1`),
    /// other moves as in [`to_uci`](Move::to_uci).
    pub fn to_uci_chess960(self) -> String {
        if self.is_castling() {
            format!("{}{}", self.from(), self.to())
        } else {
            self.to_string()
        }
    }

    /// The move in the notation `chess960` chooses: [`to_uci_chess960`](Move::to_uci_chess960) or
    /// [`to_uci`](Move::to_uci).
    pub fn to_uci_in(self, chess960: bool) -> String {
        if chess960 {
            self.to_uci_chess960()
        } else {
            self.to_uci()
        }
    }

    /// Parses UCI notation without a position: two squares and an optional promotion letter (`n b r q`). The
    /// result is never castling: [`Position::parse_uci`](crate::Position::parse_uci) reads `e1g1` or `e1h1` as
    /// castling where the position allows it.
    ///
    /// # Errors
    ///
    /// [`MoveError`] if the text is not of that shape. Use [`Position::parse_uci`](crate::Position::parse_uci) to
    /// also check legality.
    pub fn from_uci(uci: &str) -> Result<Move, MoveError> {
        let invalid = |reason| MoveError::Syntax { text: uci.to_owned(), reason };
        if !uci.is_ascii() {
            return Err(invalid("not ASCII"));
        }
        if uci.len() != 4 && uci.len() != 5 {
            return Err(invalid("expected 4 or 5 characters"));
        }
        let from: Square = uci[0..2].parse().map_err(|_| invalid("bad origin square"))?;
        let to: Square = uci[2..4].parse().map_err(|_| invalid("bad destination square"))?;
        if from == to {
            return Err(invalid("origin and destination are the same square"));
        }
        match uci[4..].chars().next() {
            None => Ok(Move::new(from, to)),
            Some(c) => match Role::from_char(c) {
                Some(role @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) if c.is_ascii_lowercase() => {
                    Ok(Move::with_promotion(from, to, role))
                }
                _ => Err(invalid("promotion must be one of n, b, r, q")),
            },
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.king_to())?;
        if let Some(role) = self.promotion() {
            write!(f, "{}", role.to_char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Move {
    type Err = MoveError;

    fn from_str(s: &str) -> Result<Move, MoveError> {
        Move::from_uci(s)
    }
}

/// A fixed-capacity list of moves, big enough for any legal position (at most 218 moves exist).
pub type MoveList = tabula_board::MoveList<Move, 256>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_round_trip_and_errors() {
        for text in ["e2e4", "e1g1", "e7e8q", "a2a1n", "h7h8r", "b2b1b"] {
            assert_eq!(text.parse::<Move>().unwrap().to_string(), text);
        }
        for bad in ["", "e2", "e2e4qq", "e2e4k", "e2e4p", "e2e4Q", "e2e2", "z2e4", "é2e4", "e2e4 "] {
            assert!(bad.parse::<Move>().is_err(), "{bad:?}");
        }
        let castle = Move::castling(Square::E1, Square::H1);
        assert!(castle.is_castling() && castle.promotion().is_none());
        assert_eq!((castle.to_uci(), castle.to_uci_chess960()), ("e1g1".to_owned(), "e1h1".to_owned()));
        let castle = Move::castling(Square::B8, Square::A8);
        assert_eq!((castle.to_uci(), castle.to_uci_chess960()), ("b8c8".to_owned(), "b8a8".to_owned()));
        assert_eq!(castle.castling_side(), Some(CastlingSide::QueenSide));
        assert!(!"e1g1".parse::<Move>().unwrap().is_castling());
        for code in 0..(1u16 << 15) {
            if let Some(mv) = Move::from_code(code) {
                assert_eq!(mv.code(), code);
            }
        }
    }
}
