//! Xiangqi FEN: reading a [`Setup`] or a [`Position`], with a typed [`FenError`] naming the field at fault,
//! and writing them.
//!
//! A record is the placement (rank 9 first, Red upper case: `K A B N R C P`, with `E` and `H` read as elephant
//! and horse too), the side to move (`w`, or `r`, for Red; `b` for Black), two unused fields written `-` (the
//! castling and en-passant fields of chess FEN), the half-move clock (plies since the last capture) and the
//! move number. The two `-` fields and the clocks may be left out, as some tools do; they default to `-`, 0
//! and 1.
//!
//! # Examples
//!
//! ```
//! use tabula_xiangqi::{FenError, FenField, Position, Setup};
//!
//! let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
//! let pos = Position::from_fen(fen).unwrap();
//! assert_eq!(pos, Position::startpos());
//! assert_eq!(pos.to_fen(), fen);
//! // H/E letters, `r` for Red and no clocks read the same.
//! let other = Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r").unwrap();
//! assert_eq!(other, pos);
//!
//! let err = Setup::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1").unwrap_err();
//! assert!(matches!(err, FenError::Field { field: FenField::SideToMove, .. }));
//! assert_eq!(err.to_string(), "invalid side to move \"x\" in FEN: expected w (or r) for Red, b for Black");
//! ```

use crate::board::Board;
use crate::position::{Position, PositionError};
pub use crate::setup::Setup;
use crate::types::{Color, Piece};
use tabula_board::fen;

pub use tabula_board::FenField;

/// Why a FEN record cannot be read: a field at fault, too many fields, or an illegal position.
pub type FenError = tabula_board::FenError<PositionError>;

fn parse_placement(text: &str) -> Result<Board, FenError> {
    let mut board = Board::empty();
    let letters = "unknown piece letter (expected one of KABNRCP / kabnrcp, or E H e h)";
    fen::parse_placement(text, "point", letters, Piece::from_char, |sq, piece| board.put(sq, piece))?;
    Ok(board)
}

impl Setup {
    /// Reads a FEN record. Surrounding whitespace and runs of spaces between fields are accepted.
    ///
    /// # Errors
    ///
    /// [`FenError::Field`] naming the first malformed or missing field, or [`FenError::TooManyFields`].
    pub fn from_fen(fen: &str) -> Result<Setup, FenError> {
        let fields = fen::split_fields(fen)?;
        let placement = fields.first().copied().unwrap_or("");
        if placement.is_empty() {
            return Err(FenError::missing(FenField::Placement));
        }
        let board = parse_placement(placement)?;
        let side = fields.get(1).copied().ok_or_else(|| FenError::missing(FenField::SideToMove))?;
        let turn = fen::parse_side(side, Color::from_char, "expected w (or r) for Red, b for Black")?;
        // The two chess fields are optional; a number where the first would be starts the clocks.
        let mut rest = &fields[2..];
        if let Some(&castling) = rest.first() {
            if !castling.bytes().all(|b| b.is_ascii_digit()) {
                if castling != "-" {
                    return Err(FenError::field(FenField::Castling, castling, "expected '-': xiangqi has no castling"));
                }
                let ep = rest.get(1).copied().unwrap_or("-");
                if ep != "-" {
                    return Err(FenError::field(FenField::EnPassant, ep, "expected '-': xiangqi has no en passant"));
                }
                rest = &rest[rest.len().min(2)..];
            }
        }
        if rest.len() > 2 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let halfmove_clock = rest.first().map_or(Ok(0), |h| fen::parse_number(FenField::Halfmove, h))?;
        let fullmove_number = rest.get(1).map_or(Ok(1), |f| fen::parse_number(FenField::Fullmove, f))?;
        Ok(Setup { board, turn, halfmove_clock, fullmove_number })
    }

    /// The placement field alone.
    pub fn placement(&self) -> String {
        let mut out = String::with_capacity(90);
        fen::write_placement(&mut out, |sq| self.board.piece_at(sq).map(Piece::to_char));
        out
    }

    /// The setup as a FEN record (all six fields, Red written `w`).
    pub fn to_fen(&self) -> String {
        format!("{} {} - - {} {}", self.placement(), self.turn.to_char(), self.halfmove_clock, self.fullmove_number)
    }
}

tabula_board::fen_text!(Setup, FenError);

tabula_board::fen_position!(Position, Setup, FenError);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Role;
    use tabula_board::testing::check_bad_fen_fields;

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

    #[test]
    fn bad_fens_name_their_field() {
        let cases = [
            ("", FenField::Placement),
            ("9/9/9/9/9/9/9/9/9 w", FenField::Placement),
            ("9/9/9/9/9/9/9/9/9/9/9 w", FenField::Placement),
            ("18/9/9/9/9/9/9/9/9/9 w", FenField::Placement),
            ("45/9/9/9/9/9/9/9/9/9 w", FenField::Placement),
            ("0/9/9/9/9/9/9/9/9/9 w", FenField::Placement),
            ("rnbakabnrr/9/9/9/9/9/9/9/9/9 w", FenField::Placement),
            ("rnbakabn/9/9/9/9/9/9/9/9/9 w", FenField::Placement),
            ("x8/9/9/9/9/9/9/9/9/9 w", FenField::Placement),
            ("q8/9/9/9/9/9/9/9/9/9 w", FenField::Placement),
            (START, FenField::SideToMove),
            ("9/9/9/9/9/9/9/9/9/9 W", FenField::SideToMove),
            ("9/9/9/9/9/9/9/9/9/9 red", FenField::SideToMove),
            ("9/9/9/9/9/9/9/9/9/9 w KQ - 0 1", FenField::Castling),
            ("9/9/9/9/9/9/9/9/9/9 w - e3 0 1", FenField::EnPassant),
            ("9/9/9/9/9/9/9/9/9/9 w - - x 1", FenField::Halfmove),
            ("9/9/9/9/9/9/9/9/9/9 w - - -1 1", FenField::Halfmove),
            ("9/9/9/9/9/9/9/9/9/9 w - - 0 99999999999", FenField::Fullmove),
            ("9/9/9/9/9/9/9/9/9/9 w 0 x", FenField::Fullmove),
        ];
        check_bad_fen_fields(Setup::from_fen, &cases);
        assert_eq!(Setup::from_fen("9/9/9/9/9/9/9/9/9/9 w - - 0 1 x"), Err(FenError::TooManyFields(7)));
        assert_eq!(Setup::from_fen("9/9/9/9/9/9/9/9/9/9 w 0 1 2"), Err(FenError::TooManyFields(5)));
    }

    #[test]
    fn optional_fields() {
        let full = Setup::from_fen(&format!("{START} w - - 0 1")).unwrap();
        assert_eq!(full, Setup::startpos());
        for short in [format!("{START} w"), format!("{START} r - -"), format!("{START} w 0 1"), format!("{START} w -")]
        {
            assert_eq!(Setup::from_fen(&short).unwrap(), full, "{short}");
        }
        let clocks = Setup::from_fen(&format!("{START} b 7 12")).unwrap();
        assert_eq!((clocks.turn, clocks.halfmove_clock, clocks.fullmove_number), (Color::Black, 7, 12));
        assert_eq!(clocks.to_fen(), format!("{START} b - - 7 12"));
        let he = Setup::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w").unwrap();
        assert_eq!(he.board, Board::startpos());
        assert_eq!(
            he.board.piece_at("b9".parse().unwrap()),
            Some(Piece::new(Color::Black, Role::Horse)),
            "lower-case h is a black horse"
        );
    }
}
