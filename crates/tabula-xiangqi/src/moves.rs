//! [`Move`]: a move in 14 bits, written in ICCS coordinates (`h2e2`: files a–i, ranks 0–9 from Red's side, as
//! UCCI, Pikafish and most xiangqi software write them) or in Fairy-Stockfish's coordinates (ranks 1–10,
//! `h3e3`). Whether a move captures follows from the position; the Chinese and WXF notations, which need the
//! position to name a move, are in [`notation`](crate::notation).
//!
//! # Examples
//!
//! ```
//! use tabula_xiangqi::{Move, Position};
//!
//! let mv = Move::from_iccs("h2e2").unwrap();
//! assert_eq!(mv.from(), "h2".parse().unwrap());
//! assert_eq!(mv.to_string(), "h2e2");
//! assert_eq!(mv.to_fairy(), "h3e3");
//! assert_eq!(Move::from_fairy("h3e3"), Ok(mv));
//! assert_eq!(Move::from_iccs("H2-E2"), Ok(mv)); // the original ICCS form
//! assert_eq!(Move::from_fairy("b3b10").unwrap().to_string(), "b2b9");
//! assert!(Move::from_iccs("h2j2").is_err());
//!
//! // Checked against a position: only legal moves parse.
//! let pos = Position::startpos();
//! assert!(pos.parse_iccs("h2e2").is_ok());
//! assert!(pos.parse_iccs("h2h8").is_err()); // the cannon on h7 is in the way
//! ```

use crate::types::{File, Rank, Square};
use std::fmt;
use std::str::FromStr;
use tabula_board::MoveError;

/// A move: origin in bits 0–6, destination in bits 7–13.
/// The default, code 0, is the null square-to-itself move that fills a [`MoveList`]'s unused slots.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// Number of distinct move codes ([`Move::code`] is below this).
    pub const CODES: usize = 1 << 14;

    /// The null move (a0 to a0, never legal): a pass, for null-move pruning
    /// ([`Position::play_null`](crate::Position::play_null)).
    pub const NULL: Move = Move(0);

    /// A move from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 7)
    }

    /// The origin.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 127) as usize)
    }

    /// The destination.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0 >> 7) as usize)
    }

    /// The move as 14 bits, for tables indexed by move.
    #[inline(always)]
    pub const fn code(self) -> u16 {
        self.0
    }

    /// The move of a [`code`](Move::code), if the code names two distinct squares.
    pub const fn from_code(code: u16) -> Option<Move> {
        let (from, to) = ((code & 127) as u32, (code >> 7) as u32);
        match (Square::new(from), Square::new(to)) {
            (Some(_), Some(_)) if from != to && code >> 14 == 0 => Some(Move(code)),
            _ => None,
        }
    }

    /// ICCS coordinates, `h2e2`.
    pub fn to_iccs(self) -> String {
        self.to_string()
    }

    /// Fairy-Stockfish coordinates: ranks 1–10, `h3e3`, `b3b10`.
    pub fn to_fairy(self) -> String {
        let (from, to) = (self.from(), self.to());
        format!("{}{}{}{}", from.file(), from.rank().index() + 1, to.file(), to.rank().index() + 1)
    }

    /// Parses ICCS coordinates without a position: `h2e2`, or the original `H2-E2` (either case, optional dash).
    ///
    /// # Errors
    ///
    /// [`MoveError::Syntax`] if the text is not two distinct squares. Use
    /// [`Position::parse_iccs`](crate::Position::parse_iccs) to also check legality.
    pub fn from_iccs(text: &str) -> Result<Move, MoveError> {
        let invalid = |reason| MoveError::Syntax { text: text.to_owned(), reason };
        if !text.is_ascii() {
            return Err(invalid("not ASCII"));
        }
        let compact: String = text.chars().filter(|&c| c != '-').collect();
        if compact.len() != 4 || text.len() > 5 || (text.len() == 5 && text.as_bytes()[2] != b'-') {
            return Err(invalid("expected two squares such as h2e2 (files a-i, ranks 0-9)"));
        }
        let from: Square = compact[0..2].parse().map_err(|_| invalid("bad origin square"))?;
        let to: Square = compact[2..4].parse().map_err(|_| invalid("bad destination square"))?;
        Move::checked(from, to).ok_or_else(|| invalid("origin and destination are the same square"))
    }

    /// Parses Fairy-Stockfish coordinates (ranks 1–10): `h3e3`, `b3b10`.
    ///
    /// # Errors
    ///
    /// [`MoveError::Syntax`] if the text is not two distinct squares in that form.
    pub fn from_fairy(text: &str) -> Result<Move, MoveError> {
        let invalid = |reason| MoveError::Syntax { text: text.to_owned(), reason };
        if !text.is_ascii() {
            return Err(invalid("not ASCII"));
        }
        let bytes = text.as_bytes();
        // A file letter, then one or two digits, twice.
        let square = |start: usize| -> Option<(Square, usize)> {
            let file = File::from_char(char::from(*bytes.get(start)?).to_ascii_lowercase())?;
            let digits = bytes[start + 1..].iter().take(2).take_while(|b| b.is_ascii_digit()).count();
            let digits = if digits == 2 && bytes[start + 1] != b'1' { 1 } else { digits };
            let number: u32 = text.get(start + 1..start + 1 + digits)?.parse().ok()?;
            let rank = Rank::new(number.checked_sub(1)?)?;
            Some((Square::from_coords(file, rank), start + 1 + digits))
        };
        let syntax = "expected two squares such as h3e3 (files a-i, ranks 1-10)";
        let (from, next) = square(0).ok_or_else(|| invalid(syntax))?;
        let (to, end) = square(next).ok_or_else(|| invalid(syntax))?;
        if end != text.len() {
            return Err(invalid(syntax));
        }
        Move::checked(from, to).ok_or_else(|| invalid("origin and destination are the same square"))
    }

    fn checked(from: Square, to: Square) -> Option<Move> {
        (from != to).then(|| Move::new(from, to))
    }
}

impl fmt::Display for Move {
    /// ICCS coordinates, `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Move {
    type Err = MoveError;

    /// ICCS coordinates.
    fn from_str(s: &str) -> Result<Move, MoveError> {
        Move::from_iccs(s)
    }
}

/// A fixed-capacity list of moves, big enough for any position (no side has more than 119 moves even
/// ignoring its king's safety: two rooks and two cannons 17 each, two horses 8, five pawns 3, king 4, two
/// advisors and two elephants 4 each).
pub type MoveList = tabula_board::MoveList<Move, 128>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip_and_errors() {
        for text in ["h2e2", "a0a9", "i9i0", "b0c2"] {
            let mv: Move = text.parse().unwrap();
            assert_eq!(mv.to_string(), text);
            assert_eq!(Move::from_fairy(&mv.to_fairy()), Ok(mv));
        }
        assert_eq!(Move::from_fairy("a10a1").unwrap().to_string(), "a9a0");
        assert_eq!(Move::from_fairy("a1a10").unwrap().to_string(), "a0a9");
        for bad in ["", "h2", "h2e2e", "h2h2", "j2e2", "h2e", "h-2e2", "h2e2 ", "h2é2", "h2--e2"] {
            assert!(Move::from_iccs(bad).is_err(), "{bad:?}");
        }
        for bad in ["", "h0e2", "h11e2", "h3e11", "h3e3x", "h3h3", "a01a2", "h3e"] {
            assert!(Move::from_fairy(bad).is_err(), "{bad:?}");
        }
        for code in 0..(1u16 << 14) {
            if let Some(mv) = Move::from_code(code) {
                assert_eq!(mv.code(), code);
                assert_eq!(Move::from_iccs(&mv.to_iccs()), Ok(mv));
                assert_eq!(Move::from_fairy(&mv.to_fairy()), Ok(mv));
            }
        }
        assert_eq!(Move::from_code(u16::MAX), None);
    }
}
