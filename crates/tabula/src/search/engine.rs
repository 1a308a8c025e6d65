//! A searcher set up to play a game over a protocol: [`Engine`] keeps the table (resized, cleared), the
//! thread count and the game's search options, feeds each search the keys of the game's own history so that
//! repetitions of earlier positions count, and runs a fixed benchmark; a [`Request`] carries what one search
//! asks (its limits, the root moves a protocol allows, several best moves for MultiPV). What differs between games is said once, by
//! implementing [`Playable`].
//!
//! # Examples
//!
//! ```
//! use tabula::game::{Evaluator, Game, Outcome};
//! use tabula::score::Score;
//! use tabula::search::{Engine, Limits, Playable, Request, SearchOptions};
//! use tabula::zobrist::{Key, ZobristKeys};
//!
//! const KEYS: ZobristKeys<Key, 33> = ZobristKeys::<Key, 33>::generate(7);
//!
//! #[derive(Clone)]
//! struct Nim { stones: usize }
//!
//! impl Game for Nim {
//!     type Move = usize;
//!     fn legal_moves(&self, moves: &mut Vec<usize>) { moves.extend((1..=3).filter(|&t| t <= self.stones)); }
//!     fn play(&mut self, take: usize) { self.stones -= take; }
//!     fn undo(&mut self, take: usize) { self.stones += take; }
//!     fn outcome(&self) -> Option<Outcome> { (self.stones == 0).then_some(Outcome::Loss) }
//!     fn key(&self) -> Key { KEYS[self.stones] }
//!     fn move_code(take: usize) -> u16 { take as u16 }
//! }
//!
//! #[derive(Default)]
//! struct Blind;
//! impl Evaluator<Nim> for Blind { fn evaluate(&self, _: &Nim) -> Score { 0 } }
//!
//! impl Playable for Nim {
//!     type Evaluation = Blind;
//!     fn engine_options(threads: usize) -> SearchOptions { SearchOptions::default().with_threads(threads) }
//!     fn history_keys(&self) -> Vec<Key> { Vec::new() }
//!     fn bench_positions() -> Vec<Nim> { vec![Nim { stones: 21 }, Nim { stones: 30 }] }
//! }
//!
//! let mut engine = Engine::<Nim>::new(1);
//! let result = engine.search(&Nim { stones: 10 }, Limits::depth(12), |_| {});
//! assert_eq!(result.best_move, Some(2)); // leave a multiple of four
//! // Only the moves asked for at the root.
//! let only_three = Request::new(Limits::depth(12)).with_root_moves(&[3]);
//! assert_eq!(engine.search(&Nim { stones: 10 }, only_three, |_| {}).best_move, Some(3));
//! // The three moves, best first: taking two wins, then the longer of the two losses.
//! let lines = engine.search(&Nim { stones: 10 }, Request::new(Limits::depth(12)).with_lines(3), |_| {}).lines;
//! let firsts: Vec<usize> = lines.iter().map(|l| l.pv[0]).collect();
//! assert_eq!(firsts, [2, 1, 3]); // one stone loses on the sixth ply, three on the fourth
//! assert!(lines[0].score > 0 && lines[1].score < 0 && lines[1].score > lines[2].score);
//! let (nodes, _) = Engine::<Nim>::bench(8);
//! assert_eq!(nodes, Engine::<Nim>::bench(8).0); // deterministic
//! ```

use super::{Iteration, Limits, Request, SearchOptions, SearchResult, Searcher};
use crate::game::{Evaluator, Game, HookedGame};
use crate::tt::TranspositionTable;
use crate::zobrist::Key;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What an [`Engine`] needs to know about a game beyond its rules.
pub trait Playable: Game {
    /// The evaluator the engine plays with.
    type Evaluation: Evaluator<Self> + Default;

    /// The search options the engine plays with on `threads` threads.
    fn engine_options(threads: usize) -> SearchOptions;

    /// The keys of the positions before this one in the game's own history, oldest first: repetitions of them
    /// count in the search.
    fn history_keys(&self) -> Vec<Key>;

    /// The positions [`Engine::bench`] searches.
    fn bench_positions() -> Vec<Self>;
}

/// The table size of [`Engine::bench`]'s searches, in mebibytes.
pub const BENCH_TABLE_MIB: usize = 16;

/// A searcher set up to play `G`. See the [module documentation](self).
pub struct Engine<G: Playable> {
    searcher: Searcher<G, G::Evaluation>,
    hash_mib: usize,
}

impl<G: Playable> Engine<G> {
    /// An engine with a table of `hash_mib` mebibytes (at least one) and one thread.
    pub fn new(hash_mib: usize) -> Engine<G> {
        let hash_mib = hash_mib.max(1);
        let searcher = Searcher::with_table_size(G::Evaluation::default(), hash_mib).with_options(G::engine_options(1));
        Engine { searcher, hash_mib }
    }

    /// Resizes the table (its contents are lost).
    pub fn set_hash(&mut self, mib: usize) {
        self.hash_mib = mib.max(1);
        self.searcher.set_table(Arc::new(TranspositionTable::new(self.hash_mib)));
    }

    /// The table size in mebibytes.
    pub fn hash_mib(&self) -> usize {
        self.hash_mib
    }

    /// Sets the number of search threads.
    pub fn set_threads(&mut self, threads: usize) {
        let table = self.searcher.options().table;
        self.searcher.set_options(G::engine_options(threads).with_table(table));
    }

    /// Searches with the transposition table or without it (to measure what it saves).
    pub fn set_table_use(&mut self, on: bool) {
        let options = self.searcher.options().clone().with_table(on);
        self.searcher.set_options(options);
    }

    /// The evaluator the engine plays with.
    pub fn evaluation(&self) -> &G::Evaluation {
        self.searcher.evaluator()
    }

    /// Replaces the evaluator (another network, another evaluation a game offers).
    pub fn set_evaluation(&mut self, evaluation: G::Evaluation) {
        self.searcher.set_evaluator(evaluation);
    }

    /// Empties the table (a new one: see [`table`](Engine::table)) and forgets the correction history: a new
    /// game starts as a fresh engine would.
    pub fn clear_hash(&mut self) {
        self.set_hash(self.hash_mib);
        self.searcher.clear_corrections();
    }

    /// The table, to look positions up while a search runs. A new one after
    /// [`set_hash`](Engine::set_hash) or [`clear_hash`](Engine::clear_hash).
    pub fn table(&self) -> &Arc<TranspositionTable> {
        self.searcher.table()
    }

    /// Searches `game` as `request` asks, calling `on_iteration` after each iteration. The game's own history
    /// counts for repetitions: it replaces the request's.
    ///
    /// A principal variation of the best move alone (the search stopped early, or the line ended in the
    /// table) gets the reply the table holds for the position after it, if any, so that a protocol can name
    /// the move it expects and ponder on it.
    pub fn search<'r>(
        &mut self,
        game: &G,
        request: impl Into<Request<'r, G::Move>>,
        on_iteration: impl FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move>
    where
        G::Move: 'r,
    {
        let history = game.history_keys();
        let request = request.into().with_history(&history);
        let mut result = self.searcher.search(game, request, on_iteration);
        if let (Some(best), true) = (result.best_move, result.pv.len() <= 1) {
            let mut after = game.clone();
            after.play(best);
            result.pv = vec![best];
            result.pv.extend(self.table_move(&after));
        }
        result
    }

    /// The move the table holds for `game`, if it holds one and the move is legal there.
    pub fn table_move(&self, game: &G) -> Option<G::Move> {
        if game.is_over() {
            return None;
        }
        let tk = game.table_key();
        let code = G::actual_move_code(self.table().probe(tk.key, 0).hit?.move_code?, tk.symmetry);
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        moves.into_iter().find(|&m| G::move_code(m) == code)
    }

    /// Searches each of the game's [bench positions](Playable::bench_positions) to `depth` with a fresh
    /// table of [`BENCH_TABLE_MIB`] on one thread and the default evaluation; returns the total node count
    /// (deterministic) and the time.
    pub fn bench(depth: u32) -> (u64, Duration) {
        Engine::<G>::bench_with(depth, G::Evaluation::default)
    }

    /// [`bench`](Engine::bench) with the evaluation `evaluation` makes (the one a protocol session has
    /// chosen), a fresh one for each position.
    pub fn bench_with(depth: u32, evaluation: impl Fn() -> G::Evaluation) -> (u64, Duration) {
        let start = Instant::now();
        let mut nodes = 0;
        for game in G::bench_positions() {
            let mut engine = Engine::<G>::new(BENCH_TABLE_MIB);
            engine.set_evaluation(evaluation());
            nodes += engine.search(&game, Limits::depth(depth), |_| {}).nodes;
        }
        (nodes, start.elapsed())
    }
}
