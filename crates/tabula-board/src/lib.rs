//! The board layer that Tabula's bitboard games (chess and xiangqi) share: the mechanisms that do not depend on
//! the rules.
//!
//! - [`coords`]: the [`Coordinate`] trait of files and ranks, the [`coordinate!`] macro that declares them, the
//!   [`Square`] trait a game's square implements and the [`square!`] macro that declares one.
//! - [`bitboard`]: [`Bitboard`], a set of squares generic over the square, and so over its word ([`Word`]:
//!   `u64` for chess's 64 squares, `u128` for xiangqi's 90 points).
//! - [`moves`]: [`MoveList`], a fixed-capacity move list, and [`MoveSink`].
//! - [`fen`]: the fields FEN dialects share (placement rows, side to move, counters) with one typed
//!   [`FenError`].
//! - [`front`](mod@front): the [`board_front!`] macro, the parts of a game's front the games share.
//! - [`perft`]: the move-tree counters and their table.
//! - [`pieces`](mod@pieces): the [`pieces!`] macro that declares a game's colours, roles and pieces.
//! - [`placement`]: [`Placement`], where a game's pieces stand, generic over its piece type ([`Man`]), and
//!   [`PlacementChange`], what one move took off and put on.
//! - [`position`]: the glue of a validated position as macros: FEN text, accessors, the [`tabula::Game`]
//!   parts the games share.
//! - [`word`]: [`Word`], the unsigned integer of a bitboard.
#![cfg_attr(feature = "testing", doc = "- [`testing`]: generic checks for the games' own tests.")]
//!
//! A game keeps its own square, piece and attack types on top of this layer; games never import each other.
//!
//! # Examples
//!
//! A 3×3 board, declared the way chess and xiangqi declare theirs:
//!
//! ```
//! use tabula_board::{coordinate, Bitboard, Coordinate, Square};
//!
//! coordinate!(
//!     /// A column, `a` to `c`.
//!     Column, "file", 3, [A, B, C], b'a'
//! );
//! coordinate!(
//!     /// A row, `1` to `3`.
//!     Row, "rank", 3, [R1, R2, R3], b'1'
//! );
//!
//! #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
//! struct Cell(u8);
//!
//! impl std::fmt::Display for Cell {
//!     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
//!         write!(f, "{}{}", Square::file(*self), Square::rank(*self))
//!     }
//! }
//!
//! impl Square for Cell {
//!     type Word = u64;
//!     type File = Column;
//!     type Rank = Row;
//!     const COUNT: usize = 9;
//!     const BOARD: u64 = 0x1ff;
//!     fn index(self) -> usize {
//!         self.0 as usize
//!     }
//!     fn from_index_unchecked(index: usize) -> Cell {
//!         Cell(index as u8)
//!     }
//! }
//!
//! let centre = Cell::from_coords(Column::B, Row::R2);
//! let set = Bitboard::file(Column::B) | Bitboard::rank(Row::R2);
//! assert_eq!(set.count(), 5);
//! assert!(set.contains(centre));
//! assert_eq!((!set).count(), 4);
//! assert_eq!(Bitboard::<Cell>::FULL.count(), 9);
//! assert_eq!(tabula_board::coords::parse_square::<Cell>("c3", false), Some(Cell(8)));
//! ```
#![deny(missing_docs)]

pub mod bitboard;
pub mod coords;
pub mod fen;
pub mod front;
pub mod moves;
pub mod perft;
pub mod pieces;
pub mod placement;
pub mod position;
#[cfg(feature = "testing")]
pub mod testing;
pub mod word;

pub use bitboard::{Bitboard, Squares, Word};
pub use coords::{Coordinate, Square};
pub use fen::{FenError, FenField};
pub use moves::{MoveError, MoveList, MoveSink};
pub use placement::{ColoredPiece, KingProblem, Man, Placement, PlacementChange};

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
