//! [`MoveList`]: a fixed-capacity list of moves on the stack, and [`MoveSink`], what a move generator pushes
//! onto (a [`MoveList`] or a `Vec`).
//!
//! # Examples
//!
//! ```
//! use tabula_board::{MoveList, MoveSink};
//!
//! fn generate<S: MoveSink<u16>>(sink: &mut S) {
//!     for mv in [12, 28, 7] {
//!         sink.push_move(mv);
//!     }
//! }
//!
//! let mut list = MoveList::<u16, 8>::new();
//! generate(&mut list);
//! assert_eq!(list.as_slice(), [12, 28, 7]);
//! assert_eq!(list.iter().max(), Some(&28)); // a slice through `Deref`
//! let mut vec = Vec::new();
//! generate(&mut vec);
//! assert_eq!(vec.len(), list.len());
//! ```

use std::fmt;

/// A list of at most `N` moves. A game picks `N` above the most moves any of its positions has, so that
/// [`push`](MoveList::push) never fails.
#[derive(Clone)]
pub struct MoveList<M, const N: usize> {
    moves: [M; N],
    len: usize,
}

impl<M: Copy + Default, const N: usize> MoveList<M, N> {
    /// The most moves the list holds.
    pub const CAPACITY: usize = N;

    /// An empty list.
    #[inline(always)]
    pub fn new() -> Self {
        MoveList { moves: [M::default(); N], len: 0 }
    }

    /// Appends a move.
    ///
    /// # Panics
    ///
    /// If the list is full (it never is for the moves of a legal position of the game).
    #[inline(always)]
    pub fn push(&mut self, mv: M) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[M] {
        &self.moves[..self.len]
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<M: Copy + Default, const N: usize> Default for MoveList<M, N> {
    fn default() -> Self {
        MoveList::new()
    }
}

impl<M: Copy + Default, const N: usize> std::ops::Deref for MoveList<M, N> {
    type Target = [M];
    #[inline(always)]
    fn deref(&self) -> &[M] {
        self.as_slice()
    }
}

impl<M: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for MoveList<M, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Something moves of type `M` can be pushed onto: a [`MoveList`] or a `Vec`.
pub trait MoveSink<M> {
    /// Appends one move.
    fn push_move(&mut self, mv: M);
}

impl<M: Copy + Default, const N: usize> MoveSink<M> for MoveList<M, N> {
    #[inline(always)]
    fn push_move(&mut self, mv: M) {
        self.push(mv);
    }
}

impl<M> MoveSink<M> for Vec<M> {
    #[inline(always)]
    fn push_move(&mut self, mv: M) {
        self.push(mv);
    }
}

/// A move's text that does not parse, or is not legal in the position it was read for: what chess's UCI moves and
/// xiangqi's coordinate, WXF and Chinese notations report.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in the notation expected.
    #[error("invalid move {text:?}: {reason}")]
    Syntax {
        /// The text read.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// Well formed, but not a legal move here.
    #[error("illegal move {text:?} in {fen}")]
    Illegal {
        /// The text read.
        text: String,
        /// The position, as FEN.
        fen: String,
    },
    /// A move that names its piece by where it stands among others (xiangqi's "front" and "rear" rooks) and that
    /// more than one legal move fits.
    #[error("ambiguous move {text:?} in {fen}: name the front or rear piece")]
    Ambiguous {
        /// The text read.
        text: String,
        /// The position, as FEN.
        fen: String,
    },
}
