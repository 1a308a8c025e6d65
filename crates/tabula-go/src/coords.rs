//! Colours, points and moves, and how GTP and SGF spell them.
//!
//! A [`Point`] is a (column, row) pair with row 0 at the bottom, as GTP counts: `A1` is the lower-left
//! corner. GTP column letters run `A`–`Z` without `I`; SGF letters count from the upper-left corner.
//!
//! # Examples
//!
//! ```
//! use tabula_go::coords::{Move, Point};
//!
//! let d4 = Move::from_gtp("d4", 19).unwrap();
//! assert_eq!(d4, Move::Play(Point::new(3, 3)));
//! assert_eq!(d4.to_gtp(), "D4");
//! assert_eq!(d4.to_sgf(19), "dp"); // SGF rows count from the top
//! assert_eq!(Move::from_sgf("dp", 19).unwrap(), d4);
//! assert_eq!(Move::from_gtp("PASS", 19).unwrap(), Move::Pass);
//! assert!(Move::from_gtp("I5", 19).is_err()); // GTP skips the letter I
//! ```

use std::fmt;
use thiserror::Error;

/// The largest board side GTP can name (25 column letters).
pub const MAX_SIZE: usize = 25;
/// The smallest board side.
pub const MIN_SIZE: usize = 2;
/// Number of point slots: points are indexed `row * MAX_SIZE + column` whatever the board size, so a point
/// has the same index (and Zobrist key) on every board.
pub const MAX_POINTS: usize = MAX_SIZE * MAX_SIZE;

/// GTP's column letters: `A`–`Z` without `I`.
const GTP_COLUMNS: &[u8; MAX_SIZE] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A player, and the colour of a stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Black, who moves first.
    Black,
    /// White.
    White,
}

impl Color {
    /// Both colours, black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];
    /// Number of colours.
    pub const COUNT: usize = 2;

    /// The other colour.
    #[inline(always)]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Reads a GTP colour: `b`, `black`, `w` or `white`, in any case.
    pub fn from_gtp(text: &str) -> Option<Color> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }

    /// `"black"` or `"white"`.
    pub const fn to_gtp(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The SGF property letter: `"B"` or `"W"`.
    pub const fn to_sgf(self) -> &'static str {
        match self {
            Color::Black => "B",
            Color::White => "W",
        }
    }
}

/// A point of the board: a column and a row (row 0 is the bottom row, GTP's row 1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

impl Point {
    /// The point at `column`, `row` (both below [`MAX_SIZE`]).
    ///
    /// # Panics
    ///
    /// In debug builds, if a coordinate is [`MAX_SIZE`] or more.
    #[inline(always)]
    pub const fn new(column: usize, row: usize) -> Point {
        debug_assert!(column < MAX_SIZE && row < MAX_SIZE);
        Point((row * MAX_SIZE + column) as u16)
    }

    /// The point with index `index` (below [`MAX_POINTS`]).
    #[inline(always)]
    pub const fn from_index(index: usize) -> Point {
        debug_assert!(index < MAX_POINTS);
        Point(index as u16)
    }

    /// `row * MAX_SIZE + column`: the same on every board size.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The column, 0 for `A`.
    #[inline(always)]
    pub const fn column(self) -> usize {
        self.0 as usize % MAX_SIZE
    }

    /// The row, 0 for the bottom row (GTP's `1`).
    #[inline(always)]
    pub const fn row(self) -> usize {
        self.0 as usize / MAX_SIZE
    }

    /// Whether the point lies on a board of side `size`.
    #[inline(always)]
    pub const fn is_on(self, size: usize) -> bool {
        self.column() < size && self.row() < size
    }

    /// The GTP vertex, such as `D4` (column letters skip `I`).
    pub fn to_gtp(self) -> String {
        format!("{}{}", GTP_COLUMNS[self.column()] as char, self.row() + 1)
    }

    /// Reads a GTP vertex (not `pass`) on a board of side `size`, in any case.
    ///
    /// # Errors
    ///
    /// [`CoordError`] if the text is not a column letter followed by a row number on that board.
    pub fn from_gtp(text: &str, size: usize) -> Result<Point, CoordError> {
        let bad = || CoordError::Gtp(text.to_string(), size);
        let bytes = text.as_bytes();
        let (&letter, digits) = bytes.split_first().ok_or_else(bad)?;
        let column = GTP_COLUMNS.iter().position(|&c| c == letter.to_ascii_uppercase()).ok_or_else(bad)?;
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(bad());
        }
        let row: usize = std::str::from_utf8(digits).map_err(|_| bad())?.parse().map_err(|_| bad())?;
        if column >= size || row == 0 || row > size {
            return Err(bad());
        }
        Ok(Point::new(column, row - 1))
    }

    /// The SGF point on a board of side `size`, such as `dp` for D4 on 19×19.
    pub fn to_sgf(self, size: usize) -> String {
        let column = (b'a' + self.column() as u8) as char;
        let row = (b'a' + (size - 1 - self.row()) as u8) as char;
        format!("{column}{row}")
    }

    /// Reads a two-letter SGF point on a board of side `size`.
    ///
    /// # Errors
    ///
    /// [`CoordError`] if the text is not two letters `a`–`y` within the board.
    pub fn from_sgf(text: &str, size: usize) -> Result<Point, CoordError> {
        let bad = || CoordError::Sgf(text.to_string(), size);
        match text.as_bytes() {
            &[c, r] if c.is_ascii_lowercase() && r.is_ascii_lowercase() => {
                let (column, from_top) = ((c - b'a') as usize, (r - b'a') as usize);
                if column < size && from_top < size {
                    Ok(Point::new(column, size - 1 - from_top))
                } else {
                    Err(bad())
                }
            }
            _ => Err(bad()),
        }
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Point({})", self.to_gtp())
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_gtp())
    }
}

/// A move: a stone on a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Pass the turn.
    Pass,
    /// Put a stone on the point.
    Play(Point),
}

impl Move {
    /// The GTP spelling: a vertex or `pass`.
    pub fn to_gtp(self) -> String {
        match self {
            Move::Pass => "pass".to_string(),
            Move::Play(point) => point.to_gtp(),
        }
    }

    /// Reads a GTP move: a vertex or `pass`, in any case.
    ///
    /// # Errors
    ///
    /// [`CoordError`] if the text is neither.
    pub fn from_gtp(text: &str, size: usize) -> Result<Move, CoordError> {
        if text.eq_ignore_ascii_case("pass") {
            Ok(Move::Pass)
        } else {
            Point::from_gtp(text, size).map(Move::Play)
        }
    }

    /// The SGF value: two letters, or the empty string for a pass (FF\[4\]).
    pub fn to_sgf(self, size: usize) -> String {
        match self {
            Move::Pass => String::new(),
            Move::Play(point) => point.to_sgf(size),
        }
    }

    /// Reads an SGF move value: two letters, the empty value for a pass, or `tt` (a pass in FF\[3\]) on
    /// boards up to 19×19.
    ///
    /// # Errors
    ///
    /// [`CoordError`] if the value is none of these.
    pub fn from_sgf(text: &str, size: usize) -> Result<Move, CoordError> {
        if text.is_empty() || (text == "tt" && size <= 19) {
            Ok(Move::Pass)
        } else {
            Point::from_sgf(text, size).map(Move::Play)
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_gtp())
    }
}

/// A coordinate that does not name a point of the board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CoordError {
    /// A GTP vertex that is malformed or off a board of the given side.
    #[error("invalid GTP vertex {0:?} on a {1}x{1} board: expected a letter A-Z (no I) and a row number")]
    Gtp(String, usize),
    /// An SGF point that is malformed or off a board of the given side.
    #[error("invalid SGF point {0:?} on a {1}x{1} board: expected two letters from 'a'")]
    Sgf(String, usize),
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn gtp_columns_skip_i() {
        assert_eq!(Point::from_gtp("J1", 19).unwrap(), Point::new(8, 0));
        assert_eq!(Point::from_gtp("t19", 19).unwrap(), Point::new(18, 18));
        assert_eq!(Point::new(24, 24).to_gtp(), "Z25");
        for bad in ["", "A", "A0", "A20", "U1", "1A", "AA1", "A1x", "A+1", "A01x"] {
            assert!(Point::from_gtp(bad, 19).is_err(), "{bad}");
        }
    }

    #[test]
    fn sgf_tt_is_a_pass_only_up_to_19() {
        assert_eq!(Move::from_sgf("tt", 19).unwrap(), Move::Pass);
        assert_eq!(Move::from_sgf("tt", 21).unwrap(), Move::Play(Point::new(19, 1)));
        assert!(Move::from_sgf("tt", 9).is_ok());
        assert!(Move::from_sgf("jj", 9).is_err());
        assert!(Move::from_sgf("A", 9).is_err());
    }

    proptest! {
        #[test]
        fn coordinates_round_trip(size in MIN_SIZE..=MAX_SIZE, c in 0..MAX_SIZE, r in 0..MAX_SIZE) {
            let p = Point::new(c % size, r % size);
            prop_assert_eq!(Point::from_gtp(&p.to_gtp(), size).unwrap(), p);
            prop_assert_eq!(Point::from_gtp(&p.to_gtp().to_lowercase(), size).unwrap(), p);
            prop_assert_eq!(Point::from_sgf(&p.to_sgf(size), size).unwrap(), p);
        }
    }
}
