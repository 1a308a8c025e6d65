//! Gomoku on Tabula's core: freestyle, standard and renju rules, threat-space search, a Gomocup engine.
//!
//! The rules, notation and keys (what a referee, a GUI or a binding needs) compile alone; the engine is the
//! [`engine`] module, behind the `engine` feature (on by default).
//!
//! The rules:
//!
//! - [`types`]: [`Color`], [`Rule`] and the cell layout the board and the rules share.
//! - [`pattern`]: what a stone makes along each line ([`Pattern`]: five, open four, four, open three ...).
//! - [`rules`]: fives, overlines and renju forbidden points by direct scans, recursive threes included.
//! - [`board`]: the [`Board`] (stones, Zobrist keys, line codes kept by make/undo), [`Point`] notation
//!   (`h8` and Gomocup's `x,y`), move lists and a text board.
//! - [`game`]: the [`Game`](tabula::Game) implementation the core's searches play, with its exact tactical
//!   hooks.
//!
//! The engine:
//!
//! - [`engine`]: [`Engine::think`]: threats first, then the core's alpha-beta, with defence against the
//!   opponent's threats.
//! - [`engine::eval`]: the [`Eval`] evaluator.
//! - [`engine::policy`]: the engine's evaluator, [`Eval`] plus threat-space knowledge
//!   ([`engine::policy::ThreatOptions`]).
//! - [`engine::threats`]: VCF and VCT solvers with their own keyed table; [`engine::verify`] checks their
//!   wins independently.
//! - [`engine::gomocup`]: the Gomocup (Piskvork) protocol as a [`Session`] that maps a line to the lines to
//!   answer.
//! - [`engine::front`]: the game's [`Front`](tabula_protocol::front::Front), for the terminal and the web
//!   page.
//!
//! # Examples
//!
//! ```
//! use tabula_gomoku::{Board, Color, Rule};
//!
//! // Black's open three h8 i8 j8: g8 or k8 makes an open four, and two points then make five.
//! let mut board = Board::from_moves(15, 15, Rule::Renju, "h8 a1 i8 o1 j8 a15").unwrap();
//! board.play(board.parse_point("k8").unwrap()).unwrap();
//! assert_eq!(board.five_points(Color::Black).len(), 2);
//! assert_eq!(board.winner(), None);
//! ```
#![deny(missing_docs)]

pub mod board;
pub mod game;
pub mod pattern;
pub mod rules;
pub mod types;

#[cfg(feature = "engine")]
pub mod engine;

pub use board::{Board, Color, MoveError, Point, Rule};
pub use pattern::Pattern;

#[cfg(feature = "engine")]
pub use engine::{eval::Eval, gomocup::Session, threats::ThreatKind, threats::ThreatSolver, Engine, Thought};

/// The crate README's examples, compiled and run as doctests (with the engine, which they use).
#[cfg(all(doctest, feature = "engine"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
