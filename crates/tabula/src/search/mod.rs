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
mod node;
pub mod options;
mod oracle;
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
pub use options::{OptionError, SearchOptions};
pub use oracle::{alphabeta, minimax, minimax_moves};
pub use request::Request;
pub use result::{Counted, Iteration, Line, SearchResult, Solution, TableUse};
pub use searcher::{Searcher, DEFAULT_TABLE_MIB};
pub use solve::PARALLEL_AFTER;
