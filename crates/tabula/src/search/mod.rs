//! The search family: plain [`minimax`] (the oracle), [`alphabeta`] without a table, and the [`Searcher`]:
//! negamax alpha-beta with the transposition table, iterative deepening, principal variation search,
//! aspiration windows, killers and history, quiescence, null move, check extension, late-move reductions,
//! late-move pruning, futility pruning (of nodes and of quiet moves), internal iterative reduction and a
//! correction history of the static evaluation through the game's hooks, repetition through the key
//! history, limits, per-iteration reports, Lazy SMP threads, and exact solving by null-window bisection for
//! games that always end.
//!
//! Every search returns the same root value as [`minimax`] at the same fixed depth (decisive scores included),
//! as long as the game gives the same position the same number of remaining plies and the options that
//! change values (null move, late-move reductions and pruning, futility pruning, check extension, internal
//! iterative reduction, the correction history, quiescence where the evaluator has noisy moves) are off;
//! [`verify::check_all`] checks exactly that for a game, on every option set of
//! [`SearchOptions::verification`].
//!
//! A search knows when its value is exact: an iteration that cut no line short (no leaf evaluated at the
//! horizon, no pruning that guesses) has the game's own value, and iterative deepening stops there
//! ([`Iteration::exact`]).
//!
//! The parts, each in its own module: [`options`] (what the search does), [`limits`] (when it stops), the
//! [`request`] (what one search is asked), `ordering` (the move picker, killers, history, reductions), `stack`
//! (one frame per ply), `worker` (one thread's iterative deepening and aspiration, and what its nodes share),
//! `negamax` and `quiescence` (the full search's nodes), `lean` (the same with everything off but the table,
//! PVS and history, for option sets that ask for no more, as the defaults do for a game without hooks), `threads` (Lazy SMP: threads start at
//! depth 1 or 2 alternately and never repeat a depth another thread has completed; the first to complete the
//! last depth ends the search), `solve` and `prove` (exact solving), `searcher` (the [`Searcher`] that holds
//! them together), [`skill`] (playing below full strength: a node budget and a move chosen among the best).
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
//! let mut searcher = Searcher::new(Blind);
//! let result = searcher.search(&game, &Limits::depth(30), |_| {});
//! assert_eq!(result.best_move, Some(1)); // leave a multiple of four
//! assert_eq!(result.score, win_in(11)); // the last stone falls on ply 11
//! assert!(result.exact && result.depth < 30); // proved at depth 11: no need to go on
//! assert_eq!(result.pv.len(), 11);
//! assert_eq!(result.score, minimax(&mut game.clone(), &Blind, 30).score);
//! ```

pub mod engine;
mod lean;
pub mod limits;
mod negamax;
pub mod options;
mod ordering;
mod prove;
mod quiescence;
pub mod request;
mod result;
mod searcher;
mod shared;
pub mod skill;
mod solve;
mod stack;
mod threads;
pub mod verify;
mod worker;

pub use engine::{Engine, Playable};
pub use limits::Limits;
pub use options::SearchOptions;
pub use request::Request;
pub use result::{Counted, Iteration, Line, SearchResult, Solution, TableUse};
pub use searcher::{Searcher, DEFAULT_TABLE_MIB};
pub use solve::PARALLEL_AFTER;

use crate::game::{Evaluator, Game, Outcome};
use crate::score::INFINITY;
use worker::Taken;

/// The outcome that ends a line of search at `ply`: the game's, except at the root of a position that a rule
/// has drawn but play may go on from ([`Game::is_over`] false), whose moves every search still searches.
#[inline(always)]
pub(crate) fn line_outcome<G: Game>(game: &G, ply: u32) -> Option<Outcome> {
    game.outcome().filter(|_| ply > 0 || game.is_over())
}

/// Plain minimax in negamax form: every move searched to `depth` plies, no pruning, no table.
/// The oracle the other searches are tested against. Terminal positions score by
/// [`Outcome::score_at`](crate::game::Outcome::score_at) at their ply, leaves at depth 0 by the evaluator; a
/// root that a rule has drawn but [is not over](Game::is_over) is searched like any other, as every search does.
pub fn minimax<G: Game, E: Evaluator<G>>(game: &mut G, evaluator: &E, depth: u32) -> Counted {
    let mut nodes = 0;
    let score = minimax_node(game, evaluator, depth, 0, &mut nodes);
    Counted { score, nodes }
}

/// Each legal move's value as [`minimax`] at `depth` (at least 1) sees it from the root, with the nodes of its subtree,
/// in the game's move order: the oracle for the lines of a search asked for [several](Request::lines). The root's value is
/// the best of them.
///
/// # Panics
///
/// If `depth` is 0.
pub fn minimax_moves<G: Game, E: Evaluator<G>>(game: &mut G, evaluator: &E, depth: u32) -> Vec<(G::Move, Counted)> {
    assert!(depth > 0, "a move's value needs a depth of at least one ply");
    let mut moves = Vec::new();
    if !game.is_over() {
        game.legal_moves(&mut moves);
    }
    moves
        .into_iter()
        .map(|mv| {
            let mut nodes = 0;
            game.play(mv);
            let score = -minimax_node(game, evaluator, depth - 1, 1, &mut nodes);
            game.undo(mv);
            (mv, Counted { score, nodes })
        })
        .collect()
}

/// Minimax of the node at `ply`, `depth` plies deep.
fn minimax_node<G: Game, E: Evaluator<G>>(game: &mut G, evaluator: &E, depth: u32, ply: u32, nodes: &mut u64) -> i32 {
    *nodes += 1;
    if let Some(outcome) = line_outcome(game, ply) {
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
        best = best.max(-minimax_node(game, evaluator, depth - 1, ply + 1, nodes));
        game.undo(mv);
    }
    best
}

/// Alpha-beta in negamax form, fail-soft, without a table or move ordering. Returns the same value as
/// [`minimax`] at the same depth, usually from far fewer nodes.
pub fn alphabeta<G: Game, E: Evaluator<G>>(game: &mut G, evaluator: &E, depth: u32) -> Counted {
    struct Run<'e, E> {
        evaluator: &'e E,
        nodes: u64,
    }
    impl<E> Run<'_, E> {
        fn go<G: Game>(&mut self, game: &mut G, depth: u32, ply: u32, mut alpha: i32, beta: i32) -> i32
        where
            E: Evaluator<G>,
        {
            self.nodes += 1;
            if let Some(outcome) = line_outcome(game, ply) {
                return outcome.score_at(ply);
            }
            if depth == 0 {
                return self.evaluator.evaluate(game);
            }
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            let mut best = -INFINITY;
            for mv in moves {
                game.play(mv);
                let score = -self.go(game, depth - 1, ply + 1, -beta, -alpha);
                game.undo(mv);
                if Taken::fail_soft(score, &mut best, &mut alpha, beta) == Taken::Cutoff {
                    break;
                }
            }
            best
        }
    }
    let mut run = Run { evaluator, nodes: 0 };
    let score = run.go(game, depth, 0, -INFINITY, INFINITY);
    Counted { score, nodes: run.nodes }
}
