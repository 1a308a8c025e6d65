//! What searches report: an [`Iteration`] after each completed iteration, a [`SearchResult`] at the end (each
//! with its [`Line`]s when several are asked for), a [`Solution`] from the exact solvers, and [`Counted`] values
//! from the oracles.

use crate::score::Score;
use std::time::Duration;

/// Transposition-table use during a search, all threads together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableUse {
    /// Probes made.
    pub probes: u64,
    /// Probes that found their position.
    pub hits: u64,
    /// Hits whose stored bound settled the node without a search.
    pub cutoffs: u64,
}

impl TableUse {
    /// Hits as a fraction of probes (0 when there were none).
    pub fn hit_rate(&self) -> f64 {
        if self.probes == 0 {
            0.0
        } else {
            self.hits as f64 / self.probes as f64
        }
    }
}

/// One of the best root moves with its score and line (see
/// [`Request::lines`](super::Request::lines)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<M> {
    /// The score of the line's first move for the side to move.
    pub score: Score,
    /// The moves, the root move first.
    pub pv: Vec<M>,
}

/// What the searcher reports after each completed iteration.
#[derive(Clone, Debug)]
pub struct Iteration<M> {
    /// Depth of the iteration in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score of the root for the side to move.
    pub score: Score,
    /// Whether the score is proved: no line was cut short by the horizon or by a pruning that guesses.
    pub exact: bool,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Table occupancy in permille.
    pub hashfull: u32,
    /// Table use so far.
    pub table: TableUse,
    /// The principal variation.
    pub pv: Vec<M>,
    /// The best root moves, best first, as many as [`Request::lines`](super::Request::lines)
    /// asks for and the root has: each searched with the ones before it excluded. The first is `score` and
    /// `pv`.
    pub lines: Vec<Line<M>>,
}

/// The outcome of [`Searcher::search`](super::Searcher::search).
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The best move found (`None` only if [the game is over](crate::game::Game::is_over): a position a rule
    /// has drawn that play may go on from still gets a move, its score the rule's).
    pub best_move: Option<M>,
    /// Its score for the side to move.
    pub score: Score,
    /// Whether the score is proved (see [`Iteration::exact`]).
    pub exact: bool,
    /// Depth of the deepest completed iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// The principal variation.
    pub pv: Vec<M>,
    /// The best root moves of the deepest completed iteration (see [`Iteration::lines`]); empty if none
    /// completed.
    pub lines: Vec<Line<M>>,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Table use, all threads.
    pub table: TableUse,
    /// Time taken.
    pub elapsed: Duration,
}

/// The outcome of [`Searcher::solve`](super::Searcher::solve) and
/// [`Searcher::solve_weak`](super::Searcher::solve_weak).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// The exact score (for a weak solve: below, at or above zero only).
    pub score: Score,
    /// A move that achieves it (`None` only if the game is over).
    pub best_move: Option<M>,
    /// The principal variation as the table holds it after the solve: the best move, then each position's
    /// stored best move while there is one.
    pub pv: Vec<M>,
    /// Nodes searched.
    pub nodes: u64,
    /// Null-window searches made.
    pub searches: u32,
}

/// A value computed by an oracle ([`minimax`](super::minimax), [`alphabeta`](super::alphabeta)), with the
/// nodes it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counted {
    /// The root's value for the side to move.
    pub score: Score,
    /// Positions visited, the root included.
    pub nodes: u64,
}
