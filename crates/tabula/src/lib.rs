//! Tabula's game-agnostic core: Zobrist keys, a lock-free transposition table and a family of searches.
//!
//! - [`zobrist`]: deterministic 64- and 128-bit keys, generated at compile time, updated by XOR.
//! - [`rng`]: one seeded random number generator, for keys, random games and shuffles.
//! - [`quality`]: checks any key set for the defects that make distinct positions collide.
//! - [`tt`]: a bucketed transposition table shared by threads without locks.
//! - [`game`]: the [`Game`] and [`Evaluator`] traits a game implements.
//! - [`perft`]: move-tree counts for any game, with a table of subtree counts.
//! - [`score`]: scores with wins and losses counted in plies.
//! - [`search`]: minimax, alpha-beta and the main [`Searcher`].
//! - [`clock`]: how much of a game's clock a move may use, from any protocol's time commands.
//! - [`tune`]: what the games' tuning tools share (a one-dimensional minimiser, work over threads).
//!
//! [`guide`] walks through writing a game, from the six required items to the hooks, each with what it
//! measured.
//!
//! The core never names a game: each game lives in its own crate and implements [`game::Game`].
#![deny(missing_docs)]

pub mod clock;
pub mod game;
pub mod guide;
pub mod perft;
pub mod quality;
pub mod rng;
pub mod score;
pub mod search;
pub mod tt;
pub mod tune;
pub mod zobrist;

pub use game::{Evaluator, Game, Outcome};
pub use score::Score;
pub use search::{Limits, SearchOptions, Searcher};
pub use tt::TranspositionTable;
pub use zobrist::{Key, Key128};

/// The crate README's examples, compiled and run as doctests. (The front page's library example is a doctest of
/// the unpublished `tabula-compare`, with the book's, so that this crate's package reads only its own files.)
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
