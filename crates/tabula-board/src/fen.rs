//! The fields FEN dialects share, read with one typed error: [`FenError`] names the [`FenField`] at fault, its
//! text and what was expected. A game's FEN module reads its own record with these (and its own fields, such
//! as chess's castling rights, with [`FenError::field`]).
//!
//! - [`split_fields`]: the record's fields, at most six.
//! - [`parse_placement`] / [`write_placement`]: the piece placement, last rank first, runs of empty squares
//!   as digits.
//! - [`parse_side`]: the side to move.
//! - [`parse_number`]: the half-move clock and the full-move number.
//!
//! # Examples
//!
//! ```
//! use tabula_board::fen::{self, FenError, FenField};
//! use std::convert::Infallible;
//! use tabula_board::{coordinate, Square};
//!
//! coordinate!(
//!     /// A column.
//!     Column, "file", 3, [A, B, C], b'a'
//! );
//! coordinate!(
//!     /// A row.
//!     Row, "rank", 2, [R1, R2], b'1'
//! );
//! #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
//! struct Cell(u8);
//! impl std::fmt::Display for Cell {
//!     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
//!         tabula_board::coords::fmt_square(*self, f)
//!     }
//! }
//! impl Square for Cell {
//!     type Word = u64;
//!     type File = Column;
//!     type Rank = Row;
//!     const COUNT: usize = 6;
//!     const BOARD: u64 = 0x3f;
//!     fn index(self) -> usize {
//!         self.0 as usize
//!     }
//!     fn from_index_unchecked(index: usize) -> Cell {
//!         Cell(index as u8)
//!     }
//! }
//!
//! let mut board = [None; 6];
//! let piece = |c: char| "Kk".contains(c).then_some(c);
//! fen::parse_placement::<Cell, _, Infallible>("k2/1K1", "square", "expected K or k", piece, |sq: Cell, c| {
//!     board[sq.index()] = Some(c)
//! })
//! .unwrap();
//! let mut text = String::new();
//! fen::write_placement::<Cell>(&mut text, |sq| board[sq.index()]);
//! assert_eq!(text, "k2/1K1");
//!
//! let err = fen::parse_placement::<Cell, _, Infallible>("k3/3", "square", "expected K", piece, |_, _| ()).unwrap_err();
//! assert_eq!(err.to_string(), "invalid piece placement \"k3/3\" in FEN: a rank has more than 3 squares");
//! let err: FenError<Infallible> = fen::parse_number(FenField::Halfmove, "-1").unwrap_err();
//! assert_eq!(err.to_string(), "invalid half-move clock \"-1\" in FEN: expected a non-negative integer");
//! ```

use crate::coords::{Coordinate, Square};
use std::fmt;

/// A field of a FEN record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenField {
    /// The piece placement, last rank first.
    Placement,
    /// The side to move.
    SideToMove,
    /// The castling rights (`-` in games without castling).
    Castling,
    /// The en-passant square (`-` in games without en passant).
    EnPassant,
    /// The half-move clock.
    Halfmove,
    /// The full-move number.
    Fullmove,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Placement => "piece placement",
            FenField::SideToMove => "side to move",
            FenField::Castling => "castling rights",
            FenField::EnPassant => "en-passant square",
            FenField::Halfmove => "half-move clock",
            FenField::Fullmove => "full-move number",
        })
    }
}

/// Why a FEN record cannot be read; `P` is the game's error for a well-formed record of an illegal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError<P> {
    /// One field is missing or malformed.
    #[error("invalid {field} {value:?} in FEN: {reason}")]
    Field {
        /// The field at fault.
        field: FenField,
        /// Its text (empty if missing).
        value: String,
        /// What was expected.
        reason: String,
    },
    /// Text after the six fields.
    #[error("FEN has {0} fields, expected at most 6")]
    TooManyFields(usize),
    /// The fields are well formed but describe an illegal position.
    #[error("FEN describes an illegal position: {0}")]
    Position(#[from] P),
}

impl<P> FenError<P> {
    /// The error for `field`, whose text is `value`, and what was expected of it.
    pub fn field(field: FenField, value: &str, reason: impl Into<String>) -> FenError<P> {
        FenError::Field { field, value: value.to_owned(), reason: reason.into() }
    }

    /// The error for a missing `field`.
    pub fn missing(field: FenField) -> FenError<P> {
        FenError::field(field, "", "missing")
    }
}

/// The record's fields, split at runs of whitespace (surrounding whitespace is accepted).
///
/// # Errors
///
/// [`FenError::TooManyFields`] past six.
pub fn split_fields<P>(fen: &str) -> Result<Vec<&str>, FenError<P>> {
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    if fields.len() > 6 {
        return Err(FenError::TooManyFields(fields.len()));
    }
    Ok(fields)
}

/// Reads the placement field: the ranks last first, separated by `/`, each its files from the first, a digit
/// standing for that many empty squares. `piece` reads a letter (`None`: no piece of the game) and `put` puts
/// it on its square; `noun` names the board's squares in the errors (`square`, `point`) and `letters` is the
/// reason given for a letter that is no piece.
///
/// # Errors
///
/// A [`FenError::Field`] of [`FenField::Placement`] naming what is wrong.
pub fn parse_placement<S: Square, T, P>(
    text: &str,
    noun: &str,
    letters: &str,
    piece: impl Fn(char) -> Option<T>,
    mut put: impl FnMut(S, T),
) -> Result<(), FenError<P>> {
    let (files, ranks) = (S::File::COUNT as u32, S::Rank::COUNT);
    let err = |reason: String| FenError::field(FenField::Placement, text, reason);
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != ranks {
        return Err(err(format!("expected {ranks} ranks separated by '/'")));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = S::Rank::ALL[ranks - 1 - i];
        let mut file = 0u32;
        let mut last_was_digit = false;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=files).contains(&d) {
                    return Err(err(format!("empty-{noun} counts run from 1 to {files}")));
                }
                if last_was_digit {
                    return Err(err(format!("two empty-{noun} counts in a row")));
                }
                last_was_digit = true;
                file += d;
            } else {
                last_was_digit = false;
                let p = piece(c).ok_or_else(|| err(letters.to_owned()))?;
                let Some(&f) = S::File::ALL.get(file as usize) else {
                    return Err(err(format!("a rank has more than {files} {noun}s")));
                };
                put(S::from_coords(f, rank), p);
                file += 1;
            }
            if file > files {
                return Err(err(format!("a rank has more than {files} {noun}s")));
            }
        }
        if file != files {
            return Err(err(format!("a rank has fewer than {files} {noun}s")));
        }
    }
    Ok(())
}

/// Writes the placement field onto `out`: `letter` gives the letter of the piece on a square, if any.
pub fn write_placement<S: Square>(out: &mut String, letter: impl Fn(S) -> Option<char>) {
    for (i, &rank) in S::Rank::ALL.iter().rev().enumerate() {
        if i > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for &file in S::File::ALL {
            match letter(S::from_coords(file, rank)) {
                Some(c) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
    }
}

/// Reads the side-to-move field: one letter that `side` knows; `expected` is the reason given otherwise.
///
/// # Errors
///
/// A [`FenError::Field`] of [`FenField::SideToMove`].
pub fn parse_side<C, P>(text: &str, side: impl Fn(char) -> Option<C>, expected: &str) -> Result<C, FenError<P>> {
    let mut chars = text.chars();
    match (chars.next().and_then(side), chars.next()) {
        (Some(color), None) => Ok(color),
        _ => Err(FenError::field(FenField::SideToMove, text, expected)),
    }
}

/// Reads a counter field (the half-move clock, the full-move number): digits only.
///
/// # Errors
///
/// A [`FenError::Field`] of `field` for anything but digits, or a number past `u32`.
pub fn parse_number<P>(field: FenField, text: &str) -> Result<u32, FenError<P>> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FenError::field(field, text, "expected a non-negative integer"));
    }
    text.parse().map_err(|_| FenError::field(field, text, "number too large"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_and_numbers() {
        let side = |c| (c == 'w').then_some(0);
        assert_eq!(parse_side::<_, ()>("w", side, "expected w"), Ok(0));
        for bad in ["", "ww", "b"] {
            let err = parse_side::<_, ()>(bad, side, "expected w").unwrap_err();
            assert_eq!(err, FenError::field(FenField::SideToMove, bad, "expected w"));
        }
        assert_eq!(parse_number::<()>(FenField::Fullmove, "12"), Ok(12));
        assert!(matches!(
            parse_number::<()>(FenField::Fullmove, "99999999999"),
            Err(FenError::Field { field: FenField::Fullmove, .. })
        ));
        assert_eq!(split_fields::<()>(" a  b ").unwrap(), ["a", "b"]);
        assert_eq!(split_fields::<()>("1 2 3 4 5 6 7"), Err(FenError::TooManyFields(7)));
    }
}
