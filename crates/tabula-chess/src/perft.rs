//! Perft: counting the leaves of the legal move tree to a fixed depth, the standard test of a move generator.
//! These are the core's counters ([`tabula::perft`]), which reach this crate's generator through its
//! [`Game`](tabula::Game) implementation (the last ply counted without listing the moves).
//!
//! [`perft`] counts the last ply in bulk (the number of legal moves, without making them); [`perft_without_bulk`]
//! makes every move down to depth 0, for benchmarking make/undo. [`divide`] gives the count below each root move,
//! the tool for finding which move a buggy generator gets wrong. [`perft_hashed`] shares subtree counts between
//! transpositions through a [`PerftTable`] keyed by the Polyglot key and the depth.
//!
//! # Examples
//!
//! ```
//! use tabula_chess::perft::{divide, perft, perft_hashed, PerftTable};
//! use tabula_chess::Position;
//!
//! let mut pos = Position::startpos();
//! assert_eq!(perft(&mut pos, 3), 8902);
//! let mut table = PerftTable::new(1 << 16);
//! assert_eq!(perft_hashed(&mut pos, 4, &mut table), 197_281);
//! let split = divide(&mut pos, 2);
//! assert_eq!(split.len(), 20);
//! assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 400);
//! ```

pub use tabula::perft::{divide, perft, perft_hashed, perft_without_bulk, PerftTable};
