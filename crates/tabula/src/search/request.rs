//! What one search is asked: a [`Request`] holds its [`Limits`] and the inputs that belong to that search
//! alone (the positions before the root, the root moves allowed, how many lines), as Stockfish passes them in
//! its search limits. What stays from search to search (the options, the table, the threads) lives in the
//! [`Searcher`](super::Searcher).
//!
//! # Examples
//!
//! ```
//! use tabula::search::{Limits, Request};
//!
//! let request: Request<'_, u8> = Request::new(Limits::depth(8)).with_root_moves(&[2, 3]).with_lines(2);
//! assert_eq!((request.limits.depth, request.root_moves, request.lines), (Some(8), &[2, 3][..], 2));
//! // Limits alone make a request for one line from any move.
//! let plain: Request<'_, u8> = Limits::depth(8).into();
//! assert!(plain.root_moves.is_empty() && plain.history.is_empty() && plain.lines == 1);
//! ```

use super::Limits;
use crate::zobrist::Key;

/// One search's limits and inputs. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct Request<'a, M> {
    /// When to stop.
    pub limits: Limits,
    /// The keys of the positions before the root, oldest first: a return to one of them (within the game's
    /// [reversible window](crate::game::Repetition)) is scored by the game's repetition rule.
    pub history: &'a [Key],
    /// The moves the root may choose from (UCI's `searchmoves`); empty: every legal move. Moves that are not
    /// legal are ignored, and so is a list that holds no legal move.
    pub root_moves: &'a [M],
    /// How many of the best root moves to find, each with its line (UCI's `MultiPV`); at least one.
    pub lines: usize,
}

impl<'a, M> Request<'a, M> {
    /// A request for one line within `limits`, from any root move, with no positions before the root.
    pub fn new(limits: Limits) -> Self {
        Request { limits, history: &[], root_moves: &[], lines: 1 }
    }

    /// This request with the keys of the positions before the root, oldest first.
    #[must_use]
    pub fn with_history(mut self, keys: &'a [Key]) -> Self {
        self.history = keys;
        self
    }

    /// This request restricted to these root moves (empty: every legal move).
    #[must_use]
    pub fn with_root_moves(mut self, moves: &'a [M]) -> Self {
        self.root_moves = moves;
        self
    }

    /// This request for `lines` best root moves (at least one).
    #[must_use]
    pub fn with_lines(mut self, lines: usize) -> Self {
        self.lines = lines.max(1);
        self
    }
}

impl<M> From<Limits> for Request<'_, M> {
    fn from(limits: Limits) -> Self {
        Request::new(limits)
    }
}

impl<M> From<&Limits> for Request<'_, M> {
    fn from(limits: &Limits) -> Self {
        Request::new(limits.clone())
    }
}
