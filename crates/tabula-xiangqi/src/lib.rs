//! Xiangqi (Chinese chess) for Tabula: a validated [`Position`] on the 9×10 board with fully legal move
//! generation and make/undo, FEN, ICCS and Fairy-Stockfish coordinates, WXF and Chinese notation (炮二平五),
//! Zobrist keys, perft, the Asian repetition rules (perpetual check and chase lose), a static evaluation and
//! an engine on the core's searcher ([`Position`] implements [`tabula::Game`]).
//!
//! - [`types`]: [`Square`], [`File`], [`Rank`], [`Color`], [`Role`], [`Piece`].
//! - [`bitboard`]: [`Bitboard`], a set of squares in a `u128`.
//! - [`attacks`]: the compile-time step and line tables.
//! - [`board`]: [`Board`], the piece placement and its key.
//! - [`fen`]: FEN, read into a [`Setup`] or a [`Position`] and written from them.
//! - [`position`]: [`Position`], make/undo, [`PositionError`].
//! - [`movegen`]: legal move generation.
//! - [`moves`]: [`Move`], ICCS and Fairy-Stockfish coordinates.
//! - [`notation`]: WXF (`C2=5`) and Chinese (炮二平五) notation.
//! - [`zobrist`]: the keys.
//! - [`perft`]: move-tree counting.
//! - [`repetition`]: the rulings on repeated positions and the 60-move rule.
//! - [`setup`]: the unvalidated [`Setup`] and the starting position.
//!
//! Everything above is the game's rules, notation and keys, and compiles alone. The engine is the module
//! `engine`, behind the default feature `engine` (a referee builds the crate without it, as `tabula-match`
//! does): the static evaluation, static exchange evaluation, the engine on the core searcher, the game's front
//! for the terminal, the protocols and the web page, and the UCI and UCCI sessions.
//!
//! # Examples
//!
//! ```
//! use tabula_xiangqi::{perft, Position};
//!
//! let mut pos = Position::startpos();
//! let mv = pos.parse_notation("炮二平五").unwrap();
//! assert_eq!(mv.to_string(), "h2e2");
//! assert_eq!(pos.wxf(mv), "C2=5");
//! pos.play(mv).unwrap();
//! assert_eq!(pos.to_fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
//! let reply = pos.parse_iccs("h9g7").unwrap();
//! assert_eq!(pos.chinese(reply), "马８进７");
//! assert_eq!(perft::perft(&mut Position::startpos(), 3), 79_666);
//! ```
#![deny(missing_docs)]

pub mod attacks;
pub mod bitboard;
pub mod board;
#[cfg(feature = "engine")]
pub mod engine;
pub mod fen;
mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod repetition;
pub mod setup;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use fen::{FenError, FenField};
pub use moves::{Move, MoveList};
pub use position::{Position, PositionError};
pub use setup::Setup;
/// A move's text that does not parse or is not legal, and what moves can be pushed onto (a [`MoveList`] or a
/// `Vec<Move>`): the board layer's.
pub use tabula_board::{MoveError, MoveSink};
pub use types::{Color, File, ParseSquareError, Piece, Rank, Role, Square};

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
