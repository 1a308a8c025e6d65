//! Connect Four on Tabula's core, with a perfect solver.
//!
//! - [`Board`]: bitboards for any size up to 64 bits (7×6 by default), Zobrist keys for the board and its
//!   mirror image kept by XOR, and the tactics the search uses (immediate wins, moves that do not lose at once).
//! - [`Threats`]: the evaluator, for depth-limited play, and Pons's move ordering.
//! - [`Solver`]: exact (strong) and win/draw/loss (weak) solving in Pascal Pons's score convention.
//!
//! Positions are written as the 1-based columns played: `"4453"`.
//!
//! # Examples
//!
//! ```
//! use tabula_connect4::{Solver, Standard};
//!
//! let mut solver = Solver::new(16);
//! // From the test sets: a drawn position near the end.
//! let board: Standard = "62116475475174244726563312336346".parse().unwrap();
//! assert_eq!(solver.solve(&board).score, 0);
//! ```
#![deny(missing_docs)]

mod board;
mod eval;
pub mod front;
mod solver;

pub use board::{Board, Column, MoveError, Standard, KEYS};
pub use eval::Threats;
pub use solver::{Solution, Solver};

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
