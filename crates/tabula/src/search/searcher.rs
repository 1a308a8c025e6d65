//! The [`Searcher`]: the options, the table and the threads' buffers, and the searches on top of them.

use super::options::SearchOptions;
use super::ordering::MAX_PIECE_TO_CODES;
use super::request::Request;
use super::result::{Iteration, SearchResult, TableUse};
use super::shared::{Completed, Shared};
use super::threads::{self, ThreadData};
use super::worker::{max_depth, Context};
use crate::game::{Evaluator, Game, HookedGame};
use crate::tt::TranspositionTable;
use crate::zobrist::Key;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The table size of [`Searcher::new`], in mebibytes.
pub const DEFAULT_TABLE_MIB: usize = 16;

/// Negamax alpha-beta with a shared transposition table. See the [module documentation](super).
///
/// A searcher keeps its table between searches: what one search learned speeds up the next, which is what a
/// game in progress wants. The values of fixed-depth searches can then differ from those of a fresh searcher
/// (a stored result may come from a deeper search than asked for); call [`clear`](Searcher::clear) before a
/// search that must not see earlier ones, as the differential tests do.
pub struct Searcher<G: Game, E: Evaluator<G>> {
    pub(super) evaluator: E,
    pub(super) table: Arc<TranspositionTable>,
    pub(super) options: SearchOptions,
    pub(super) threads: Vec<ThreadData<G::Move>>,
}

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    /// A searcher with default options and a new table of [`DEFAULT_TABLE_MIB`] mebibytes.
    pub fn new(evaluator: E) -> Self {
        Self::with_table_size(evaluator, DEFAULT_TABLE_MIB)
    }

    /// A searcher with default options and a new table of `table_mib` mebibytes.
    pub fn with_table_size(evaluator: E, table_mib: usize) -> Self {
        Self::with_table(evaluator, Arc::new(TranspositionTable::new(table_mib)))
    }

    /// A searcher with default options on an existing (possibly shared) table.
    pub fn with_table(evaluator: E, table: Arc<TranspositionTable>) -> Self {
        Self { evaluator, table, options: SearchOptions::default(), threads: Vec::new() }
    }

    /// This searcher with `options`.
    #[must_use]
    pub fn with_options(mut self, options: SearchOptions) -> Self {
        self.options = options;
        self
    }

    /// The options in force.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Replaces the options.
    pub fn set_options(&mut self, options: SearchOptions) {
        self.options = options;
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// Replaces the evaluator (to change its policy, say); the correction history learned for the old one is
    /// forgotten.
    pub fn set_evaluator(&mut self, evaluator: E) {
        self.evaluator = evaluator;
        self.clear_corrections();
    }

    /// The table.
    pub fn table(&self) -> &Arc<TranspositionTable> {
        &self.table
    }

    /// Replaces the table (to resize it, say).
    pub fn set_table(&mut self, table: Arc<TranspositionTable>) {
        self.table = table;
    }

    /// Forgets everything learned: empties the table and the correction history (the next search starts as a
    /// fresh searcher would).
    pub fn clear(&mut self) {
        self.table.clear();
        self.clear_corrections();
    }

    /// Forgets the [correction history](SearchOptions::correction_history), which otherwise carries over from
    /// search to search.
    pub fn clear_corrections(&mut self) {
        for td in &mut self.threads {
            td.history.clear_corrections();
        }
    }

    /// The options a search of `G` with `E` runs under: the options in force less the features the game's
    /// and the evaluator's hooks give nothing to do ([`SearchOptions::for_hooks`]).
    pub fn effective_options(&self) -> SearchOptions {
        self.options.clone().for_hooks::<G, E>()
    }

    /// Makes sure `count` threads have buffers, ready for a search under `options` from a root whose earlier
    /// positions have the keys `history`.
    pub(super) fn prepare_threads(&mut self, count: usize, options: &SearchOptions, history: &[Key]) {
        while self.threads.len() < count {
            self.threads.push(ThreadData::new());
        }
        // (The counter moves share the history's table.)
        let uses_history = options.history || options.counter_moves;
        // A game that declares more piece-to codes than the continuation history allows does not build.
        const { assert!(G::PIECE_TO_CODES <= MAX_PIECE_TO_CODES, "PieceTo::codes is at most 4,096") };
        let pieces_to = if options.history && options.continuation_history { G::PIECE_TO_CODES } else { 0 };
        let corrections = options.correction_history;
        for td in &mut self.threads[..count] {
            td.prepare(uses_history, G::MOVE_CODES, pieces_to, corrections, history);
        }
    }

    /// Iterative deepening from `game` as `request` asks (its limits, the positions before the root, the root
    /// moves allowed, the lines wanted), calling `on_iteration` after each completed iteration (the deepest
    /// of any thread so far). It ends at a limit, or once an iteration proves the value (see
    /// [`Iteration::exact`]). With `threads > 1`, helper threads search the same tree and share the table
    /// (Lazy SMP, see the [module documentation](super)). [`Limits`](super::Limits) alone make a request for
    /// one line from any move.
    ///
    /// With more than one line asked for, each iteration searches the root once per line, each time without
    /// the first moves of the lines found before (as Stockfish does), then orders the lines by score; the
    /// result's [`lines`](SearchResult::lines) hold them, best first, and its score and PV are the best line's.
    pub fn search<'r>(
        &mut self,
        game: &G,
        request: impl Into<Request<'r, G::Move>>,
        mut on_iteration: impl FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move>
    where
        G::Move: 'r,
    {
        let request = request.into();
        let start = Instant::now();
        let options = self.effective_options();
        let count = options.threads.max(1);
        self.table.new_search();
        self.prepare_threads(count, &options, request.history);
        if let Some(outcome) = super::node::line_outcome(game, 0) {
            let over = Completed { score: outcome.score_at(0), exact: true, ..Completed::none() };
            return over.into_result(0, TableUse::default(), Duration::ZERO);
        }
        let root_moves: Vec<u16> = request.root_moves.iter().map(|&m| G::move_code(m)).collect();
        let limits = &request.limits;
        let mut shared = Shared::new(limits, start, max_depth(limits)).with_time_scaling(options.time_scaling);
        // On a clock a forced move is played quickly.
        if shared.runs_a_clock() && allowed_root_moves(game, &root_moves).len() == 1 {
            shared = shared.with_single_reply();
        }
        if count > 1 {
            shared = shared.with_busy_slots();
        }
        let cx = Context {
            evaluator: &self.evaluator,
            table: &self.table,
            options: &options,
            shared: &shared,
            root_moves: &root_moves,
            lines: request.lines.max(1),
        };
        let table = &*self.table;
        let use_table = options.table;
        threads::search(game, cx, &mut self.threads[..count], options.is_lean(), &mut |c, _| {
            let elapsed = start.elapsed();
            let nodes = shared.nodes();
            on_iteration(&Iteration {
                depth: c.depth,
                seldepth: c.seldepth,
                score: c.score,
                exact: c.exact,
                nodes,
                nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64,
                elapsed,
                hashfull: if use_table { table.hashfull() } else { 0 },
                table: shared.table_use(),
                pv: c.pv.clone(),
                lines: c.lines.clone(),
            });
        });
        let mut best = shared.best().unwrap_or_else(Completed::none);
        if best.best_move.is_none() {
            // Stopped before the first iteration ended: any move allowed at the root, rather than none.
            best.best_move = allowed_root_moves(game, &root_moves).first().copied();
        }
        best.into_result(shared.nodes(), shared.table_use(), start.elapsed())
    }

    /// Searches to a fixed `depth` with no other limit.
    pub fn search_depth(&mut self, game: &G, depth: u32) -> SearchResult<G::Move> {
        self.search(game, super::Limits::depth(depth), |_| {})
    }
}

/// The moves the root may choose from: the legal moves restricted to those with the codes `allowed`, or all
/// of them where the restriction matches none.
fn allowed_root_moves<G: Game>(game: &G, allowed: &[u16]) -> Vec<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    super::worker::keep_allowed::<G>(&mut moves, allowed);
    moves
}
