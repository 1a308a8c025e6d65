//! The search family: plain [`minimax`] (the oracle), [`alphabeta`] without a table, and the [`Searcher`]:
//! negamax alpha-beta with the transposition table, iterative deepening, principal variation search,
//! aspiration windows, killers and history, quiescence, null move, check extension, late-move reductions,
//! late-move pruning, futility pruning (of nodes and of quiet moves) and internal iterative reduction through
//! the game's hooks, repetition through the key history, limits, per-iteration reports, Lazy SMP threads, and
//! exact solving by null-window bisection for games that always end.
//!
//! Every search returns the same root value as [`minimax`] at the same fixed depth (decisive scores included),
//! as long as the game gives the same position the same number of remaining plies and the options that
//! change values (null move, late-move reductions and pruning, futility pruning, check extension, internal
//! iterative reduction) are off; the differential tests of each game check exactly that.
//!
//! # Examples
//!
//! ```
//! use tabula::game::{Evaluator, Game, Outcome};
//! use tabula::score::{win_in, Score};
//! use tabula::search::{minimax, Limits, Searcher};
//! use tabula::zobrist::{Key, ZobristKeys};
//!
//! const KEYS: ZobristKeys<Key, 41> = ZobristKeys::<Key, 41>::generate(7);
//! #[derive(Clone)]
//! struct Nim { stones: usize }
//! impl Game for Nim {
//!     type Move = usize;
//!     fn legal_moves(&self, moves: &mut Vec<usize>) { moves.extend((1..=3).filter(|&t| t <= self.stones)); }
//!     fn play(&mut self, take: usize) { self.stones -= take; }
//!     fn undo(&mut self, take: usize) { self.stones += take; }
//!     fn outcome(&self) -> Option<Outcome> { (self.stones == 0).then_some(Outcome::Loss) }
//!     fn key(&self) -> Key { KEYS[self.stones] }
//!     fn move_code(take: usize) -> u16 { take as u16 }
//! }
//! struct Blind;
//! impl Evaluator<Nim> for Blind { fn evaluate(&self, _: &Nim) -> Score { 0 } }
//!
//! let game = Nim { stones: 21 };
//! let mut searcher = Searcher::new(Blind, 1);
//! let result = searcher.search(&game, &Limits::depth(30), |_| {});
//! assert_eq!(result.best_move, Some(1)); // leave a multiple of four
//! assert_eq!(result.score, win_in(11)); // the last stone falls on ply 11
//! assert_eq!(result.pv.len(), 11);
//! assert_eq!(result.score, minimax(&mut game.clone(), &Blind, 30));
//! ```

mod searcher;
pub mod verify;

pub use searcher::{
    Iteration, Limits, SearchOptions, SearchResult, Searcher, Solution, FUTILITY_DEPTH, IIR_DEPTH, LMP_DEPTH,
    PARALLEL_AFTER,
};

use crate::game::{Evaluator, Game};
use crate::score::{Score, INFINITY};

/// Plain minimax in negamax form: every move searched to `depth` plies, no pruning, no table.
/// The oracle the other searches are tested against. Terminal positions score by
/// [`Outcome::score_at`](crate::game::Outcome::score_at) at their ply, leaves at depth 0 by the evaluator.
pub fn minimax<G: Game, E: Evaluator<G>>(game: &mut G, evaluator: &E, depth: u32) -> Score {
    fn go<G: Game, E: Evaluator<G>>(game: &mut G, evaluator: &E, depth: u32, ply: u32) -> Score {
        if let Some(outcome) = game.outcome() {
            return outcome.score_at(ply);
        }
        if depth == 0 {
            return evaluator.evaluate(game);
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        debug_assert!(!moves.is_empty(), "a game that is not over has a legal move");
        let mut best = -INFINITY;
        for mv in moves {
            game.play(mv);
            best = best.max(-go(game, evaluator, depth - 1, ply + 1));
            game.undo(mv);
        }
        best
    }
    go(game, evaluator, depth, 0)
}

/// Alpha-beta in negamax form, fail-soft, without a table or move ordering. Returns the same value as
/// [`minimax`] at the same depth.
pub fn alphabeta<G: Game, E: Evaluator<G>>(game: &mut G, evaluator: &E, depth: u32) -> Score {
    fn go<G: Game, E: Evaluator<G>>(
        game: &mut G,
        evaluator: &E,
        depth: u32,
        ply: u32,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        if let Some(outcome) = game.outcome() {
            return outcome.score_at(ply);
        }
        if depth == 0 {
            return evaluator.evaluate(game);
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut best = -INFINITY;
        for mv in moves {
            game.play(mv);
            let score = -go(game, evaluator, depth - 1, ply + 1, -beta, -alpha);
            game.undo(mv);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
    go(game, evaluator, depth, 0, -INFINITY, INFINITY)
}
