//! Chess for Tabula: bitboards, magic attack tables built at compile time, a validated [`Position`] with fully
//! legal move generation and make/undo, FEN / EPD / UCI / SAN notation, Polyglot Zobrist keys and perft.
//! Chess960 positions are positions like any other: castling rights name their rook's file (X-FEN and
//! Shredder-FEN), castling is the king taking its own rook, and [`Position::chess960`] gives the numbered start
//! positions.
//!
//! - [`types`]: [`Square`], [`File`], [`Rank`], [`Color`], [`Role`], [`Piece`].
//! - [`bitboard`]: [`Bitboard`], a set of squares.
//! - [`attacks`]: knight, king, pawn and magic slider attacks, lines and gaps between squares.
//! - [`board`]: [`Board`], the piece placement and its key.
//! - [`castling`]: [`CastlingSide`] and [`CastlingRights`].
//! - [`setup`]: the unvalidated [`Setup`] and the start positions.
//! - [`fen`]: FEN and EPD.
//! - [`position`]: [`Position`], make/undo, [`PositionError`].
//! - [`movegen`]: legal move generation.
//! - [`moves`]: [`Move`] and UCI notation.
//! - [`san`]: Standard Algebraic Notation.
//! - [`zobrist`]: the Polyglot keys.
//! - [`perft`]: move-tree counting.
//! - [`book`]: Polyglot opening books.
//!
//! [`Position`] implements [`tabula::Game`] (with checks, null-move, repetition and piece-to hooks), so the
//! core's searches play chess. Everything above is the game's rules, notation and keys, and compiles alone.
//! The engine is the module `engine`, behind the default feature `engine` (a referee builds the crate without
//! it, as `tabula-match` does): the evaluations (the network, the default, and the tapered one) and static
//! exchange evaluation, the engine on the core searcher and the position it searches, the game's front, the
//! UCI session, the strength limiter and the win/draw/loss model.
//!
//! # Examples
//!
//! ```
//! use tabula_chess::{perft, Position};
//!
//! let mut pos = Position::startpos();
//! let mv = pos.parse_san("Nf3").unwrap();
//! assert_eq!(mv.to_string(), "g1f3");
//! pos.play(mv).unwrap();
//! assert_eq!(pos.to_fen(), "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
//! assert_eq!(perft::perft(&mut pos, 2), 440);
//!
//! // Chess960 start position 0: the king on g1 castles queen side with the rook on f1.
//! let mut pos = Position::chess960(0).unwrap();
//! assert_eq!(pos.to_fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
//! for san in ["d4", "d5", "Nc3", "Nc6", "Nf3", "Nf6", "Qd2", "Qd7"] {
//!     pos.play(pos.parse_san(san).unwrap()).unwrap();
//! }
//! let castle = pos.parse_san("O-O-O").unwrap();
//! assert_eq!((castle.to_uci(), castle.to_uci_chess960()), ("g1c1".to_owned(), "g1f1".to_owned()));
//! pos.play(castle).unwrap();
//! assert_eq!(pos.to_fen(), "bb3rkr/pppqpppp/2n2n2/3p4/3P4/2N2N2/PPPQPPPP/BBKR3R b kq - 7 5");
//! ```
#![deny(missing_docs)]

pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod book;
pub mod castling;
#[cfg(feature = "engine")]
pub mod engine;
pub mod fen;
mod game;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod san;
pub mod setup;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use castling::{CastlingRights, CastlingSide};
pub use fen::{Epd, FenError, FenField, Operation};
pub use moves::{Move, MoveList};
pub use position::{Position, PositionError};
pub use san::SanError;
pub use setup::Setup;
/// A move's text that does not parse or is not legal, and what moves can be pushed onto (a [`MoveList`] or a
/// `Vec<Move>`): the board layer's.
pub use tabula_board::{MoveError, MoveSink};
pub use types::{Color, File, ParseSquareError, Piece, Rank, Role, Square};

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
