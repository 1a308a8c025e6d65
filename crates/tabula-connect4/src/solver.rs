//! The perfect solver: the core's searcher and table, with Connect Four's tactics supplied through the hooks.
//!
//! A strong solve finds the exact score by null-window bisection over the possible scores
//! ([`Searcher::solve_score`]); a weak solve only says win, draw or loss ([`Searcher::solve_weak`]); an
//! analysis gives every column's exact score ([`Searcher::solve_moves`]). All share one transposition table,
//! which keeps what it learnt from earlier positions unless [`Solver::clear`] is called.
//!
//! # Examples
//!
//! ```
//! use tabula_connect4::{Solver, Standard};
//!
//! let mut solver = Solver::new(16);
//! let board: Standard = "4455".parse().unwrap();
//! let solution = solver.solve(&board);
//! assert_eq!(solution.score, 18); // the first player wins with her fourth stone: 22 - 4
//! ```

use crate::board::{Board, Column};
use crate::eval::Threats;
use tabula::search::{SearchOptions, Searcher};

/// The result of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Pons's score (strong solve) or its sign (weak solve).
    pub score: i32,
    /// A column that achieves it (`None` if the game is over).
    pub best_move: Option<Column>,
    /// Nodes searched.
    pub nodes: u64,
}

/// A perfect Connect Four solver on a board `W` wide and `H` high.
pub struct Solver<const W: usize = 7, const H: usize = 6> {
    searcher: Searcher<Board<W, H>, Threats>,
}

impl<const W: usize, const H: usize> Solver<W, H> {
    /// A solver with a table of `table_mib` mebibytes.
    pub fn new(table_mib: usize) -> Self {
        Self { searcher: Searcher::with_table_size(Threats, table_mib).with_options(SearchOptions::solver()) }
    }

    /// Forgets everything learnt so far.
    pub fn clear(&mut self) {
        self.searcher.table().clear();
    }

    /// The exact score of `board` in Pons's convention.
    pub fn solve(&mut self, board: &Board<W, H>) -> Solution {
        let s = self.searcher.solve_score(board);
        Solution { score: board.pons_score(s.score), best_move: s.best_move, nodes: s.nodes }
    }

    /// 1 if the side to move wins, 0 for a draw, -1 for a loss.
    pub fn solve_weak(&mut self, board: &Board<W, H>) -> Solution {
        let s = self.searcher.solve_weak(board);
        Solution { score: s.score.signum(), best_move: s.best_move, nodes: s.nodes }
    }

    /// The exact score of every column (`None` where the column is full), for the side to move.
    pub fn analyze(&mut self, board: &Board<W, H>) -> Vec<Option<i32>> {
        let mut scores = vec![None; W];
        for s in self.searcher.solve_moves(board) {
            let col = s.best_move.expect("each root move's solution starts with it");
            scores[col as usize] = Some(board.pons_score(s.score));
        }
        scores
    }

    /// The underlying searcher, for depth- or time-limited play.
    pub fn searcher(&mut self) -> &mut Searcher<Board<W, H>, Threats> {
        &mut self.searcher
    }
}
