//! Gomoku on Tabula's core: freestyle, standard and renju rules, threat-space search, a Gomocup engine.
//!
//! - [`board`]: the [`Board`] (stones, Zobrist keys, line codes kept by make/undo), [`Point`] notation
//!   (`h8` and Gomocup's `x,y`), move lists and a text board.
//! - [`types`]: [`Color`], [`Rule`] and the cell layout the board and the rules share.
//! - [`rules`]: fives, overlines and renju forbidden points by direct scans, recursive threes included.
//! - [`pattern`]: what a stone makes along each line ([`Pattern`]: five, open four, four, open three ...).
//! - [`game`]: the [`Game`](tabula::Game) implementation the core's searches play.
//! - [`eval`]: the [`Eval`] evaluator.
//! - [`policy`]: the engine's evaluator, [`Eval`] plus threat-space knowledge ([`policy::ThreatOptions`]).
//! - [`threats`]: VCF and VCT solvers with their own keyed table; [`verify`] checks their wins independently.
//! - [`engine`]: [`Engine::think`]: threats first, then the core's alpha-beta, with defence against the
//!   opponent's threats.
//! - [`gomocup`]: the Gomocup (Piskvork) protocol as a [`Session`] that maps a line to the lines to answer.
//!
//! # Examples
//!
//! ```
//! use tabula_gomoku::{Board, Engine, Rule};
//! use tabula::search::Limits;
//!
//! // Black has an open three on row 8; the engine finds the win by continuous fours and threes.
//! let board = Board::from_moves(15, 15, Rule::Freestyle, "h8 a1 i8 o1 j8 a15").unwrap();
//! let mut engine = Engine::new(8);
//! let thought = engine.think(&board, &Limits::depth(4));
//! let line = thought.win.expect("a forced win");
//! assert!(["g8", "k8"].contains(&board.format_point(line[0]).as_str()));
//! ```
#![deny(missing_docs)]

pub mod board;
#[cfg(feature = "engine")]
pub mod engine;
#[cfg(feature = "engine")]
pub mod eval;
#[cfg(feature = "engine")]
pub mod front;
pub mod game;
#[cfg(feature = "engine")]
pub mod gomocup;
pub mod pattern;
#[cfg(feature = "engine")]
pub mod policy;
pub mod rules;
#[cfg(feature = "engine")]
pub mod threats;
pub mod types;
#[cfg(feature = "engine")]
pub mod verify;

pub use board::{Board, Color, MoveError, Point, Rule};

#[cfg(feature = "engine")]
pub use eval::Eval;
pub use pattern::Pattern;

#[cfg(feature = "engine")]
pub use engine::{Engine, Thought};
#[cfg(feature = "engine")]
pub use gomocup::Session;
#[cfg(feature = "engine")]
pub use threats::{ThreatKind, ThreatSolver};
