//! [`Setup`]: a position as FEN describes it, before it is checked for legality, and the starting position. A
//! leaf below the position: [`Position::from_setup`](crate::Position::from_setup) validates a setup, the
//! [`fen`](crate::fen) module reads and writes one.
//!
//! # Examples
//!
//! ```
//! use tabula_xiangqi::{Position, Setup};
//!
//! let setup = Setup::startpos();
//! assert_eq!(Position::from_setup(&setup).unwrap(), Position::startpos());
//! ```

use crate::board::Board;
use crate::types::Color;

/// A position as FEN describes it, not yet checked for legality.
/// [`Position::from_setup`](crate::Position::from_setup) validates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Where the pieces stand.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// Plies since the last capture (the 60-move rule counts these).
    pub halfmove_clock: u32,
    /// The move number, starting at 1 and increased after each Black move.
    pub fullmove_number: u32,
}

impl Setup {
    /// The starting position.
    pub fn startpos() -> Setup {
        Setup { board: Board::startpos(), turn: Color::Red, halfmove_clock: 0, fullmove_number: 1 }
    }
}
