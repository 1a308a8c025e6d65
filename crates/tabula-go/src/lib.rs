//! The game of Go for Tabula: rules, keys, scoring, SGF and a GTP v2 session.
//!
//! - [`coords`]: colours, points, moves and their GTP and SGF spellings.
//! - [`board`]: stones, chains with exact liberties, captures, simple ko and the Zobrist key.
//! - [`position`]: a game with its rules (superko, suicide), komi, history and undo; implements
//!   [`tabula::Game`] so the core's searches run on small boards.
//! - [`scoring`]: Tromp–Taylor area scoring and the GTP fixed handicap.
//! - [`sgf`]: reading and writing game records.
//! - [`picker`]: the [`MovePicker`](picker::MovePicker) trait behind `genmove`, and a random player.
//! - [`playout`]: a light board for fast random playouts.
//! - [`patterns`]: MoGo's 3×3 shape patterns for playouts and priors.
//! - [`predictor`]: a move predictor fitted to game records (Bradley–Terry strengths of move features).
//! - [`spatial`]: the predictor's large shapes, known by Zobrist keys in any orientation.
//! - [`mcts`]: the Monte Carlo tree search player (UCT with RAVE, transpositions, threads, time control).
//! - [`time`]: the clock settings a controller gives.
//! - [`gtp`]: the Go Text Protocol session.
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
#[cfg(feature = "engine")]
pub mod front;
#[cfg(feature = "engine")]
pub mod gtp;
#[cfg(feature = "engine")]
pub mod mcts;
#[cfg(feature = "engine")]
pub mod patterns;
#[cfg(feature = "engine")]
pub mod picker;
#[cfg(feature = "engine")]
pub mod playout;
pub mod position;
#[cfg(feature = "engine")]
pub mod predictor;
pub mod scoring;
pub mod sgf;
#[cfg(feature = "engine")]
pub mod spatial;
#[cfg(feature = "engine")]
pub mod time;

pub use coords::{Color, Move, Point};
#[cfg(feature = "engine")]
pub use gtp::GtpSession;
#[cfg(feature = "engine")]
pub use mcts::{Analysis, Budget, Mcts};
pub use position::{KoRule, Position, Rules};

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
