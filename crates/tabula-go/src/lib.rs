//! The game of Go for Tabula: rules, keys, scoring, SGF and a GTP v2 session.
//!
//! The rules, notation and keys (what a referee, a GUI or a binding needs) compile alone; the engine is the
//! [`engine`] module, behind the `engine` feature (on by default).
//!
//! The rules:
//!
//! - [`coords`]: colours, points, moves and their GTP and SGF spellings.
//! - [`board`]: stones, chains with exact liberties, captures, simple ko and the Zobrist key.
//! - [`position`]: a game with its rules (superko, suicide), komi, history and undo; implements
//!   [`tabula::Game`] so the core's searches run on small boards.
//! - [`scoring`]: Tromp–Taylor area scoring and the GTP fixed handicap.
//! - [`sgf`]: reading and writing game records.
//!
//! The engine:
//!
//! - [`engine::picker`]: the [`MovePicker`](engine::picker::MovePicker) trait behind `genmove`, and a random
//!   player.
//! - [`engine::playout`]: a light board for fast random playouts.
//! - [`engine::patterns`]: MoGo's 3×3 shape patterns for playouts and priors.
//! - [`engine::predictor`]: a move predictor fitted to game records (Bradley–Terry strengths of move
//!   features).
//! - [`engine::spatial`]: the predictor's large shapes, known by Zobrist keys in any orientation.
//! - [`engine::mcts`]: the Monte Carlo tree search player (UCT with RAVE, transpositions, threads, time
//!   control).
//! - [`engine::time`]: the clock settings a controller gives.
//! - [`engine::gtp`]: the Go Text Protocol session.
//! - [`engine::front`]: the game's [`Front`](tabula_protocol::front::Front), for the terminal and the web
//!   page.
//!
//! # Examples
//!
//! ```
//! use tabula_go::coords::{Color, Move};
//! use tabula_go::position::{Position, Rules};
//! use tabula_go::scoring::area_score;
//!
//! let mut game = Position::new(5, Rules::default()).unwrap();
//! game.set_komi(0.5);
//! game.play(Move::from_gtp("C3", 5).unwrap(), Color::Black).unwrap();
//! game.play(Move::Pass, Color::White).unwrap();
//! game.play(Move::Pass, Color::Black).unwrap();
//! assert!(game.is_over());
//! assert_eq!(area_score(game.board()).result(game.komi()), "B+24.5");
//! ```
#![deny(missing_docs)]

pub mod board;
pub mod coords;
pub mod position;
pub mod scoring;
pub mod sgf;

#[cfg(feature = "engine")]
pub mod engine;

#[cfg(test)]
mod testing;

pub use coords::{Color, Move, Point};
pub use position::{KoRule, Position, Rules};

#[cfg(feature = "engine")]
pub use engine::{gtp::GtpSession, mcts::Analysis, mcts::Budget, mcts::Mcts};

/// The crate README's examples, compiled and run as doctests.
#[cfg(all(doctest, feature = "engine"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
