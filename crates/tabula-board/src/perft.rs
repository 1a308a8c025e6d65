//! Perft: counting the leaves of the legal move tree to a fixed depth, the standard test of a move generator.
//! These are the core's counters ([`tabula::perft`]), which reach a game's generator through its
//! [`Game`](tabula::Game) implementation (the last ply counted without listing the moves), re-exported so
//! that each board game's `perft` module is this one.
//!
//! [`perft`] counts the last ply in bulk (the number of legal moves, without making them); [`perft_without_bulk`]
//! makes every move down to depth 0, for benchmarking make/undo. [`divide`] gives the count below each root move,
//! the tool for finding which move a buggy generator gets wrong. [`perft_hashed`] shares subtree counts between
//! transpositions through a [`PerftTable`] keyed by the position's key and the depth.
//!
//! # Examples
//!
//! ```
//! use tabula::game::{Game, Outcome};
//! use tabula::Key;
//! use tabula_board::perft::{divide, perft, perft_hashed, PerftTable};
//!
//! /// A pile of stones: take one or two; whoever cannot move has lost.
//! #[derive(Clone)]
//! struct Pile(u64);
//!
//! impl Game for Pile {
//!     type Move = u64;
//!     fn legal_moves(&self, moves: &mut Vec<u64>) {
//!         moves.extend((1..=2).filter(|&take| take <= self.0));
//!     }
//!     fn play(&mut self, take: u64) { self.0 -= take; }
//!     fn undo(&mut self, take: u64) { self.0 += take; }
//!     fn outcome(&self) -> Option<Outcome> { (self.0 == 0).then_some(Outcome::Loss) }
//!     fn key(&self) -> Key { Key(self.0.wrapping_mul(0x9e37_79b9_7f4a_7c15)) }
//!     fn move_code(take: u64) -> u16 { take as u16 }
//! }
//!
//! // From 4 stones: 1+1, 1+2, 2+1, 2+2 after two plies.
//! assert_eq!(perft(&mut Pile(4), 2), 4);
//! assert_eq!(perft_hashed(&mut Pile(4), 2, &mut PerftTable::new(64)), 4);
//! assert_eq!(divide(&mut Pile(4), 2), [(1, 2), (2, 2)]);
//! ```

pub use tabula::perft::{divide, perft, perft_hashed, perft_without_bulk, PerftTable};
