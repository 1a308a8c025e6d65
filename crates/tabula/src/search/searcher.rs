//! The main searcher: negamax alpha-beta with the table and everything around it.

use crate::game::{Evaluator, Game};
use crate::score::{self, is_decisive, loss_in, win_in, Score, DRAW, INFINITY, MAX_PLY};
use crate::tt::{Bound, TranspositionTable};
use crate::zobrist::Key;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

mod prove;

/// Which techniques the [`Searcher`] uses. All of them leave the root value at a fixed depth unchanged except
/// `null_move` (and only in games that allow a null move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Probe and store the transposition table.
    pub table: bool,
    /// Principal variation search: null windows for all but the first move, re-searched on a fail high.
    pub pvs: bool,
    /// Aspiration windows from this half-width around the last iteration's score (`None`: full window).
    pub aspiration: Option<Score>,
    /// Killer moves (two per ply) tried early.
    pub killers: bool,
    /// The history heuristic for ordering moves without other hints.
    pub history: bool,
    /// Quiescence search on the game's noisy moves at the leaves.
    pub quiescence: bool,
    /// Quiescence nodes probe the table (cutting off on a bound that decides, reusing a stored evaluation)
    /// and store their result at depth 0. Worth it where noisy moves are many (chess); pure cost in games
    /// without noisy moves, where the leaf is the evaluation. Needs `table` and `quiescence`.
    pub quiescence_table: bool,
    /// Null-move pruning where the game allows a null move.
    pub null_move: bool,
    /// The game's tactical hooks: immediate wins and moves that do not lose at once.
    pub tactics: bool,
    /// Enhanced transposition cutoffs: before searching a node's moves, look each child up in the table.
    /// Off by default: on Connect Four it saves a quarter of the nodes but costs more time in table probes
    /// than it saves.
    pub etc: bool,
    /// Search threads sharing the table (Lazy SMP). At least one.
    pub threads: usize,
    /// Extend by one ply every move that leaves the opponent [in check](Game::in_check). No effect in games
    /// that do not report checks.
    pub check_extension: bool,
    /// Late-move reductions: at PVS null-window nodes, quiet moves (not [tactical](Game::is_tactical), not
    /// killers, not giving or escaping check) tried late are searched shallower first, and again at full
    /// depth only if they beat alpha. Changes values at a fixed depth.
    pub lmr: bool,
    /// Reverse futility pruning with this margin per ply: a non-PV node up to
    /// [`FUTILITY_DEPTH`] plies from the horizon, not in check, whose static evaluation beats beta by the
    /// margin times the depth, returns the evaluation. `None`: off. Changes values at a fixed depth.
    pub futility_margin: Option<Score>,
    /// Late-move pruning: at non-PV nodes up to [`LMP_DEPTH`] plies from the horizon, not in check, quiet
    /// moves after the first `3 + depth²` are not searched once a move has saved the node from a loss.
    /// Changes values at a fixed depth.
    pub late_move_pruning: bool,
    /// Futility pruning of moves with this margin per ply: at non-PV nodes up to [`FUTILITY_DEPTH`] plies
    /// from the horizon, not in check, whose static evaluation plus the margin times (depth + 1) cannot reach
    /// alpha, quiet moves after the first are not searched. `None`: off. Changes values at a fixed depth.
    pub move_futility_margin: Option<Score>,
    /// Internal iterative reduction: a node [`IIR_DEPTH`] or more plies from the horizon with no move from the
    /// table is searched a ply shallower (its ordering is poor, and the next visit will have a table move).
    /// Changes values at a fixed depth.
    pub iir: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self {
            table: true,
            pvs: true,
            aspiration: Some(50),
            killers: true,
            history: true,
            quiescence: true,
            quiescence_table: false,
            null_move: true,
            tactics: true,
            etc: false,
            threads: 1,
            check_extension: true,
            lmr: false,
            futility_margin: None,
            late_move_pruning: false,
            move_futility_margin: None,
            iir: false,
        }
    }
}

impl SearchOptions {
    /// Everything off but the table and the tactical hooks: the fastest setting for exact solving.
    pub fn solver() -> Self {
        Self {
            table: true,
            pvs: false,
            aspiration: None,
            killers: false,
            history: false,
            quiescence: false,
            quiescence_table: false,
            null_move: false,
            tactics: true,
            etc: false,
            threads: 1,
            check_extension: true,
            lmr: false,
            futility_margin: None,
            late_move_pruning: false,
            move_futility_margin: None,
            iir: false,
        }
    }
}

/// When to stop. Unset limits do not apply; a search with no limit at all runs to [`MAX_PLY`].
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget (all threads together).
    pub nodes: Option<u64>,
    /// Time budget.
    pub time: Option<Duration>,
    /// Set from outside to stop the search as soon as possible.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Search to `depth` plies.
    pub fn depth(depth: u32) -> Self {
        Self { depth: Some(depth), ..Self::default() }
    }

    /// Search for `time`.
    pub fn time(time: Duration) -> Self {
        Self { time: Some(time), ..Self::default() }
    }

    /// Search `nodes` nodes.
    pub fn nodes(nodes: u64) -> Self {
        Self { nodes: Some(nodes), ..Self::default() }
    }
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
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Table occupancy in permille.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<M>,
}

/// The outcome of [`Searcher::search`].
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The best move found (`None` only if the game is over).
    pub best_move: Option<M>,
    /// Its score for the side to move.
    pub score: Score,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// The principal variation.
    pub pv: Vec<M>,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Table probes made by the main thread.
    pub table_probes: u64,
    /// Of those, hits.
    pub table_hits: u64,
    /// Time taken.
    pub elapsed: Duration,
}

/// The outcome of [`Searcher::solve`] and [`Searcher::solve_weak`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The exact score (for a weak solve: below, at or above zero only).
    pub score: Score,
    /// Nodes searched.
    pub nodes: u64,
    /// Null-window searches made.
    pub searches: u32,
}

/// Per-thread buffers, kept between searches so that a search allocates nothing once warm.
struct ThreadData<M> {
    moves: Vec<Vec<M>>,
    /// Moves a parallel solve put off because another thread was searching them.
    deferred: Vec<Vec<M>>,
    order: Vec<Vec<i32>>,
    pv: Vec<Vec<M>>,
    killers: Vec<[u16; 2]>,
    history: Vec<i32>,
    keys: Vec<Key>,
    root_moves: Vec<u16>,
    /// Late-move reductions by depth and move index, both capped at [`LMR_TABLE`] - 1.
    lmr: Box<[[u8; LMR_TABLE]; LMR_TABLE]>,
}

/// Size of each side of the late-move reduction table.
const LMR_TABLE: usize = 64;

impl<M> ThreadData<M> {
    fn new() -> Self {
        let mut lmr = Box::new([[0u8; LMR_TABLE]; LMR_TABLE]);
        for (depth, row) in lmr.iter_mut().enumerate().skip(1) {
            for (index, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (depth as f32).ln() * (index as f32).ln() / 2.25) as u8;
            }
        }
        Self {
            moves: Vec::new(),
            deferred: Vec::new(),
            order: Vec::new(),
            pv: Vec::new(),
            killers: Vec::new(),
            history: Vec::new(),
            keys: Vec::new(),
            root_moves: Vec::new(),
            lmr,
        }
    }

    fn prepare(&mut self, options: &SearchOptions, move_codes: usize, keys: &[Key], root_moves: &[u16]) {
        self.root_moves.clear();
        self.root_moves.extend_from_slice(root_moves);
        self.killers.clear();
        if options.history {
            self.history.clear();
            self.history.resize(2 * move_codes, 0);
        }
        self.keys.clear();
        self.keys.extend_from_slice(keys);
    }

    #[inline(always)]
    fn ensure_ply(&mut self, ply: usize) {
        if self.moves.len() <= ply + 1 || self.killers.len() <= ply + 1 {
            self.grow(ply);
        }
    }

    #[cold]
    fn grow(&mut self, ply: usize) {
        while self.moves.len() <= ply + 1 {
            self.moves.push(Vec::new());
            self.deferred.push(Vec::new());
            self.order.push(Vec::new());
            self.pv.push(Vec::new());
            self.killers.push([NO_CODE; 2]);
        }
        while self.killers.len() <= ply + 1 {
            self.killers.push([NO_CODE; 2]);
        }
    }
}

const NO_CODE: u16 = u16::MAX;
const HISTORY_MAX: i32 = 1 << 14;
const KILLER_ORDER: [i32; 2] = [(1 << 15) + 2, (1 << 15) + 1];
const HINT_LIMIT: i32 = (1 << 14) - 1;
/// Reverse futility pruning applies this many plies from the horizon and closer.
pub const FUTILITY_DEPTH: i32 = 6;
/// Internal iterative reduction applies this many plies from the horizon and further.
pub const IIR_DEPTH: i32 = 4;
/// Late-move pruning applies this many plies from the horizon and closer.
pub const LMP_DEPTH: i32 = 6;
/// Late-move reductions apply from this depth up, to moves after this many.
const LMR_DEPTH: i32 = 3;
const LMR_MOVES: usize = 3;
/// Enhanced transposition cutoffs are tried from this depth up.
const ETC_DEPTH: i32 = 4;
/// How often (in nodes) a thread looks at the clock and the stop flags.
const CHECK_EVERY: u64 = 1024;

/// State shared by the threads of one search.
struct Shared {
    stop: AtomicBool,
    external: Option<Arc<AtomicBool>>,
    nodes: AtomicU64,
    node_limit: Option<u64>,
    deadline: Option<Instant>,
    /// Keys of the positions some thread of a parallel solve is searching now (empty otherwise): another
    /// thread defers them and works elsewhere (simplified ABDADA).
    busy: Box<[AtomicU64]>,
}

/// Negamax alpha-beta with a shared transposition table. See the [module documentation](super).
pub struct Searcher<G: Game, E: Evaluator<G>> {
    evaluator: E,
    table: Arc<TranspositionTable>,
    options: SearchOptions,
    history: Vec<Key>,
    root_moves: Vec<u16>,
    threads: Vec<ThreadData<G::Move>>,
}

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    /// A searcher with default options and a new table of `table_mib` mebibytes.
    pub fn new(evaluator: E, table_mib: usize) -> Self {
        Self::with_table(evaluator, Arc::new(TranspositionTable::new(table_mib)))
    }

    /// A searcher with default options on an existing (possibly shared) table.
    pub fn with_table(evaluator: E, table: Arc<TranspositionTable>) -> Self {
        Self {
            evaluator,
            table,
            options: SearchOptions::default(),
            history: Vec::new(),
            root_moves: Vec::new(),
            threads: Vec::new(),
        }
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

    /// The table.
    pub fn table(&self) -> &Arc<TranspositionTable> {
        &self.table
    }

    /// Replaces the table (to resize it, say).
    pub fn set_table(&mut self, table: Arc<TranspositionTable>) {
        self.table = table;
    }

    /// The keys of the positions before the root, oldest first: a search scores a return to one of them
    /// (within the game's [`reversible_plies`](Game::reversible_plies)) as a draw.
    pub fn set_history(&mut self, keys: Vec<Key>) {
        self.history = keys;
    }

    /// Restricts the root to the moves with these [codes](Game::move_code) (UCI's `searchmoves`); empty: every
    /// legal move. Codes that match no legal move are ignored, and so is a list that matches none.
    pub fn set_root_moves(&mut self, codes: Vec<u16>) {
        self.root_moves = codes;
    }

    fn shared(&self, limits: &Limits, start: Instant) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            external: limits.stop.clone(),
            nodes: AtomicU64::new(0),
            node_limit: limits.nodes,
            deadline: limits.time.map(|t| start + t),
            busy: Box::new([]),
        }
    }

    fn prepare_threads(&mut self, count: usize) {
        while self.threads.len() < count {
            self.threads.push(ThreadData::new());
        }
        for td in &mut self.threads[..count] {
            td.prepare(&self.options, G::MOVE_CODES, &self.history, &self.root_moves);
        }
    }

    /// Iterative deepening from `game` within `limits`, calling `on_iteration` after each completed iteration
    /// of the main thread. With `threads > 1`, helper threads search the same tree and share the table.
    pub fn search(
        &mut self,
        game: &G,
        limits: &Limits,
        mut on_iteration: impl FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        let threads = self.options.threads.max(1);
        self.table.new_search();
        self.prepare_threads(threads);
        let shared = self.shared(limits, start);
        let max_depth = limits.depth.unwrap_or(MAX_PLY).clamp(1, MAX_PLY - 1);
        let (main_data, helper_data) = self.threads[..threads].split_first_mut().expect("one thread");
        let (evaluator, table, options) = (&self.evaluator, &*self.table, &self.options);
        std::thread::scope(|scope| {
            for (i, td) in helper_data.iter_mut().enumerate() {
                let game = game.clone();
                let shared = &shared;
                scope.spawn(move || {
                    let mut worker = Worker::new(game, evaluator, table, options, shared, td, false);
                    worker.iterate(max_depth, 1 + (i as u32 + 1) % 2, start, &mut |_| {});
                });
            }
            let mut worker = Worker::new(game.clone(), evaluator, table, options, &shared, main_data, true);
            let result = worker.iterate(max_depth, 1, start, &mut on_iteration);
            shared.stop.store(true, Relaxed);
            result
        })
    }

    /// Searches to a fixed `depth` with no other limit.
    pub fn search_depth(&mut self, game: &G, depth: u32) -> SearchResult<G::Move> {
        self.search(game, &Limits::depth(depth), |_| {})
    }

    /// The exact score of `game` by null-window bisection over the possible scores, each test searched to the
    /// end of the game. Requires [`Game::max_plies_remaining`]. With `threads > 1`, a solve that outgrows
    /// [`PARALLEL_AFTER`] nodes continues with that many threads sharing the table; each test's answer is
    /// taken from whichever thread finishes it first.
    ///
    /// # Panics
    ///
    /// If the game does not bound its remaining plies.
    pub fn solve(&mut self, game: &G) -> Solution {
        let remaining = game.max_plies_remaining().expect("solve needs Game::max_plies_remaining");
        self.table.new_search();
        if let Some(outcome) = game.outcome() {
            return Solution { score: outcome.score_at(0), nodes: 0, searches: 0 };
        }
        // Ranks order the possible scores: -remaining (lost at once) .. 0 (draw) .. remaining (won at once).
        let rem = remaining as i32;
        let score_of = |rank: i32| -> Score {
            match rank {
                r if r > 0 => win_in((rem + 1 - r) as u32),
                r if r < 0 => loss_in((rem + 1 + r) as u32),
                _ => DRAW,
            }
        };
        // The highest rank whose score is at most `s`, and the lowest whose score is at least `s`.
        let floor_rank = |s: Score| -> i32 { (-rem..=rem).rev().find(|&r| score_of(r) <= s).unwrap_or(-rem) };
        let ceil_rank = |s: Score| -> i32 { (-rem..=rem).find(|&r| score_of(r) >= s).unwrap_or(rem) };
        let (mut lo, mut hi) = (-rem, rem);
        let mut searches = 0;
        let mut nodes = 0;
        while lo < hi {
            // Test near zero first: proving a quick win or loss costs more than proving the result.
            let mut med = lo + (hi - lo) / 2;
            if med <= 0 && lo / 2 < med {
                med = lo / 2;
            } else if med >= 0 && hi / 2 > med {
                med = hi / 2;
            }
            let threshold = score_of(med);
            let r = self.window_search(game, rem, threshold, threshold + 1, &mut nodes);
            searches += 1;
            if r <= threshold {
                hi = floor_rank(r).min(med);
            } else {
                lo = ceil_rank(r).max(med + 1);
            }
        }
        Solution { score: score_of(lo), nodes, searches }
    }

    /// Whether `game` is won, drawn or lost (a positive, zero or negative score) with one search on the
    /// window (-1, 1). Requires [`Game::max_plies_remaining`]; uses threads as [`solve`](Self::solve) does.
    ///
    /// # Panics
    ///
    /// If the game does not bound its remaining plies.
    pub fn solve_weak(&mut self, game: &G) -> Solution {
        let remaining = game.max_plies_remaining().expect("solve_weak needs Game::max_plies_remaining");
        self.table.new_search();
        if let Some(outcome) = game.outcome() {
            return Solution { score: outcome.score_at(0).signum(), nodes: 0, searches: 0 };
        }
        let mut nodes = 0;
        let depth = remaining as i32;
        // Two null windows prune more than one window (-1, 1): first win or not, then draw or loss.
        let r = self.window_search(game, depth, DRAW, DRAW + 1, &mut nodes);
        if r > DRAW {
            return Solution { score: 1, nodes, searches: 1 };
        }
        let r = self.window_search(game, depth, DRAW - 1, DRAW, &mut nodes);
        Solution { score: if r >= DRAW { 0 } else { -1 }, nodes, searches: 2 }
    }

    /// One search of the root on (`alpha`, `beta`) to `depth`: single-threaded while `nodes` (the solve's
    /// running total, updated here) is below [`PARALLEL_AFTER`], on all threads after.
    fn window_search(&mut self, game: &G, depth: i32, alpha: Score, beta: Score, nodes: &mut u64) -> Score {
        let threads = self.options.threads.max(1);
        if threads == 1 || *nodes < PARALLEL_AFTER {
            self.prepare_threads(1);
            let limits = Limits { nodes: (threads > 1).then(|| PARALLEL_AFTER - *nodes), ..Limits::default() };
            let shared = self.shared(&limits, Instant::now());
            let mut worker = Worker::new(
                game.clone(),
                &self.evaluator,
                &self.table,
                &self.options,
                &shared,
                &mut self.threads[0],
                true,
            );
            let r = worker.prove(depth, 0, alpha, beta);
            *nodes += worker.nodes;
            if !worker.stopped {
                return r;
            }
        }
        self.prepare_threads(threads);
        let mut shared = self.shared(&Limits::default(), Instant::now());
        shared.busy = (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect();
        let answer = std::sync::Mutex::new(None);
        let (evaluator, table, options) = (&self.evaluator, &*self.table, &self.options);
        let searched: u64 = std::thread::scope(|scope| {
            let handles: Vec<_> = self.threads[..threads]
                .iter_mut()
                .enumerate()
                .map(|(i, td)| {
                    let (game, shared, answer) = (game.clone(), &shared, &answer);
                    scope.spawn(move || {
                        let mut worker = Worker::new(game, evaluator, table, options, shared, td, i == 0);
                        worker.thread_index = i;
                        let r = worker.prove(depth, 0, alpha, beta);
                        if !worker.stopped {
                            answer.lock().expect("no thread panics holding it").get_or_insert(r);
                            shared.stop.store(true, Relaxed);
                        }
                        worker.nodes
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("search thread")).sum()
        });
        *nodes += searched;
        answer.into_inner().expect("no thread panics holding it").expect("one thread finishes")
    }
}

/// One selection sort step: brings the move with the highest `order` in `moves[i..]` to position `i`, keeping
/// `order` in step (the first of equals wins, so the game's generation order breaks ties).
#[inline(always)]
fn pick_best<M>(moves: &mut [M], order: &mut [i32], i: usize) {
    let mut j = i;
    for k in i + 1..moves.len() {
        if order[k] > order[j] {
            j = k;
        }
    }
    moves.swap(i, j);
    order.swap(i, j);
}

/// Entries of the table of positions being searched in a parallel solve (a power of two).
const BUSY_SLOTS: usize = 1 << 12;

/// A multi-threaded solve switches from one thread to all of them after this many nodes: below it, starting
/// threads costs more than they save.
pub const PARALLEL_AFTER: u64 = 50_000;

/// One thread's search.
struct Worker<'a, G: Game, E> {
    game: G,
    evaluator: &'a E,
    table: &'a TranspositionTable,
    options: &'a SearchOptions,
    shared: &'a Shared,
    td: &'a mut ThreadData<G::Move>,
    main: bool,
    nodes: u64,
    nodes_reported: u64,
    seldepth: u32,
    probes: u64,
    hits: u64,
    stopped: bool,
    root_best: Option<G::Move>,
    thread_index: usize,
    /// Whether positions can repeat, so that the path's keys must be kept.
    track_keys: bool,
    /// Set by a node just before it searches a child it chose among its
    /// [non-losing moves](Game::non_losing_moves): the child has no immediate win to look for.
    child_safe: bool,
}

impl<'a, G: Game, E: Evaluator<G>> Worker<'a, G, E> {
    fn new(
        game: G,
        evaluator: &'a E,
        table: &'a TranspositionTable,
        options: &'a SearchOptions,
        shared: &'a Shared,
        td: &'a mut ThreadData<G::Move>,
        main: bool,
    ) -> Self {
        let track_keys = game.reversible_plies().is_some();
        Self {
            game,
            evaluator,
            table,
            options,
            shared,
            td,
            main,
            nodes: 0,
            nodes_reported: 0,
            seldepth: 0,
            probes: 0,
            hits: 0,
            stopped: false,
            root_best: None,
            thread_index: 0,
            track_keys,
            child_safe: false,
        }
    }

    /// Iterative deepening from `first_depth` to `max_depth`.
    fn iterate(
        &mut self,
        max_depth: u32,
        first_depth: u32,
        start: Instant,
        on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        let mut result = SearchResult {
            best_move: None,
            score: 0,
            depth: 0,
            seldepth: 0,
            pv: Vec::new(),
            nodes: 0,
            table_probes: 0,
            table_hits: 0,
            elapsed: Duration::ZERO,
        };
        if let Some(outcome) = self.game.outcome() {
            result.score = outcome.score_at(0);
            return result;
        }
        let mut depth = first_depth.min(max_depth);
        while depth <= max_depth {
            let score = self.aspiration(depth as i32, result.score, result.depth > 0);
            if self.stopped {
                // An unfinished iteration still improves on nothing; keep the last complete one, but make
                // sure there is a move to play.
                if result.best_move.is_none() {
                    result.best_move = self.root_best.or_else(|| self.first_legal_move());
                }
                break;
            }
            result.score = score;
            result.depth = depth;
            result.best_move = self.root_best;
            result.pv = self.principal_variation();
            result.seldepth = self.seldepth;
            if self.main {
                let elapsed = start.elapsed();
                let nodes = self.shared.nodes.load(Relaxed) + self.nodes - self.nodes_reported;
                on_iteration(&Iteration {
                    depth,
                    seldepth: self.seldepth,
                    score,
                    nodes,
                    nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64,
                    elapsed,
                    hashfull: if self.options.table { self.table.hashfull() } else { 0 },
                    pv: result.pv.clone(),
                });
            }
            // A forced result found within the horizon will not change with more depth.
            if is_decisive(score) && score::plies_to_end(score).is_some_and(|p| p.unsigned_abs() <= depth) {
                break;
            }
            if self.shared.stop.load(Relaxed) {
                break;
            }
            depth += 1;
        }
        self.flush_nodes();
        result.nodes = self.shared.nodes.load(Relaxed);
        result.table_probes = self.probes;
        result.table_hits = self.hits;
        result.elapsed = start.elapsed();
        result
    }

    fn first_legal_move(&mut self) -> Option<G::Move> {
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        moves.first().copied()
    }

    /// One iteration, inside a window around the last score that widens until the score falls inside it.
    fn aspiration(&mut self, depth: i32, last: Score, have_last: bool) -> Score {
        let Some(width) = self.options.aspiration.filter(|_| have_last && depth >= 4 && !is_decisive(last)) else {
            return self.negamax(depth, 0, -INFINITY, INFINITY, true);
        };
        let mut delta = width.max(1);
        let (mut alpha, mut beta) = ((last - delta).max(-INFINITY), (last + delta).min(INFINITY));
        loop {
            let score = self.negamax(depth, 0, alpha, beta, true);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta = delta.saturating_mul(2);
            if delta > 4 * score::DECISIVE {
                (alpha, beta) = (-INFINITY, INFINITY);
            }
        }
    }

    /// The PV of the last search, from the triangular table (never cut short: the table does not cut off
    /// at PV nodes).
    fn principal_variation(&mut self) -> Vec<G::Move> {
        let mut pv = self.td.pv.first().cloned().unwrap_or_default();
        if pv.is_empty() {
            pv.extend(self.root_best);
        }
        pv
    }

    fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.nodes - self.nodes_reported, Relaxed);
        self.nodes_reported = self.nodes;
    }

    /// Counts a node and every [`CHECK_EVERY`] nodes looks at the limits.
    #[inline(always)]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & (CHECK_EVERY - 1) == 0 {
            self.flush_nodes();
            let s = self.shared;
            if s.stop.load(Relaxed)
                || s.external.as_ref().is_some_and(|e| e.load(Relaxed))
                || s.node_limit.is_some_and(|n| s.nodes.load(Relaxed) >= n)
                || s.deadline.is_some_and(|d| Instant::now() >= d)
            {
                s.stop.store(true, Relaxed);
                self.stopped = true;
            }
        }
    }

    /// Whether the current position repeats one within the reversible window, same side to move.
    fn is_repetition(&self) -> bool {
        let Some(window) = self.game.reversible_plies() else {
            return false;
        };
        let key = self.game.key();
        let keys = &self.td.keys;
        let n = keys.len();
        let window = window.min(n);
        (2..=window).step_by(2).any(|back| keys[n - back] == key)
    }

    #[inline(always)]
    fn play(&mut self, mv: G::Move) {
        if self.track_keys {
            self.td.keys.push(self.game.key());
        }
        self.game.play(mv);
    }

    #[inline(always)]
    fn undo(&mut self, mv: G::Move) {
        self.game.undo(mv);
        if self.track_keys {
            self.td.keys.pop();
        }
    }

    /// Counts a node and returns its score if the search ends here: stopped (0), game over, or a repetition.
    #[inline(always)]
    fn enter_node(&mut self, ply: u32) -> Option<Score> {
        self.count_node();
        if self.stopped {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(outcome) = self.game.outcome() {
            return Some(outcome.score_at(ply));
        }
        if ply > 0 && self.is_repetition() {
            return Some(DRAW);
        }
        None
    }

    /// Fail-soft negamax: the score of the position searched `depth` plies deep within (`alpha`, `beta`).
    fn negamax(&mut self, mut depth: i32, ply: u32, mut alpha: Score, mut beta: Score, pv_node: bool) -> Score {
        debug_assert!(-INFINITY <= alpha && alpha < beta && beta <= INFINITY);
        let p = ply as usize;
        let safe = std::mem::replace(&mut self.child_safe, false);
        self.td.ensure_ply(p);
        if pv_node || ply == 0 {
            self.td.pv[p].clear();
        }

        // Step 1. Horizon; count the node; stop; game over; repetition.
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(ply, alpha, beta);
        }
        if let Some(score) = self.enter_node(ply) {
            return score;
        }

        // Step 2. Mate distance pruning: nothing can beat a win on the next ply or lose before this one.
        alpha = alpha.max(loss_in(ply));
        beta = beta.min(win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Step 3. Table probe; cut off at non-PV nodes when the entry is deep enough and its bound decides.
        let use_table = self.options.table;
        let (key, symmetry) = if use_table { self.game.table_key() } else { (Key::ZERO, 0) };
        let mut tt_code = NO_CODE;
        let mut tt_eval = None;
        let probe = if use_table {
            self.probes += 1;
            let probe = self.table.probe(key, ply);
            if let Some(e) = probe.hit {
                self.hits += 1;
                tt_eval = e.eval;
                if let Some(code) = e.move_code {
                    tt_code = G::transform_move_code(code, symmetry, false);
                }
                if !pv_node && ply > 0 && e.depth as i32 >= depth && e.decides(alpha, beta) {
                    return e.score;
                }
            }
            Some(probe)
        } else {
            None
        };

        // Step 4. The game's tactics: win at once, or keep only moves that do not lose at once.
        let mut moves = std::mem::take(&mut self.td.moves[p]);
        moves.clear();
        let mut generated = false;
        if self.options.tactics {
            if let Some(mv) = if safe { None } else { self.game.winning_move() } {
                if ply == 0 {
                    self.root_best = Some(mv);
                }
                if pv_node || ply == 0 {
                    self.td.pv[p].push(mv);
                }
                self.td.moves[p] = moves;
                return win_in(ply + 1);
            }
            if G::FINDS_IMMEDIATE_WINS {
                beta = beta.min(win_in(ply + 3));
                if alpha >= beta {
                    self.td.moves[p] = moves;
                    return beta;
                }
            }
            if depth >= 2 && self.game.non_losing_moves(&mut moves) {
                generated = true;
                if moves.is_empty() {
                    if ply == 0 {
                        self.root_best = self.first_legal_move();
                        self.td.pv[0].extend(self.root_best);
                    }
                    self.td.moves[p] = moves;
                    return loss_in(ply + 2);
                }
                // Some move does not lose at once, so the earliest loss is four plies away.
                alpha = alpha.max(loss_in(ply + 4));
                if alpha >= beta {
                    self.td.moves[p] = moves;
                    return alpha;
                }
            }
        }

        // Step 5. Reverse futility: far enough above beta near the horizon, assume a move keeps it there.
        let in_check = self.game.in_check();
        let prunable = !pv_node && ply > 0 && !in_check && !is_decisive(beta);
        // The static evaluation, once computed (or found in the table), goes back to the table with the result.
        let mut static_eval = tt_eval;
        if let Some(margin) = self.options.futility_margin.filter(|_| prunable && depth <= FUTILITY_DEPTH) {
            let eval = *static_eval.get_or_insert_with(|| self.evaluator.evaluate(&self.game));
            if eval - margin * depth >= beta {
                self.td.moves[p] = moves;
                return eval;
            }
        }

        // Step 6. Null move: if passing still fails high, a real move will too.
        if self.options.null_move
            && prunable
            && depth >= 3
            && self.game.null_move_allowed()
            && *static_eval.get_or_insert_with(|| self.evaluator.evaluate(&self.game)) >= beta
        {
            let reduction = 2 + depth / 4;
            self.td.keys.push(self.game.key());
            self.game.play_null();
            let score = -self.negamax(depth - 1 - reduction, ply + 1, -beta, -beta + 1, false);
            self.game.undo_null();
            self.td.keys.pop();
            if self.stopped {
                self.td.moves[p] = moves;
                return 0;
            }
            if score >= beta {
                self.td.moves[p] = moves;
                return if is_decisive(score) { beta } else { score };
            }
        }

        // Step 6a. No table move this far from the horizon: search a ply shallower.
        if self.options.iir && depth >= IIR_DEPTH && tt_code == NO_CODE && ply > 0 {
            depth -= 1;
        }

        // Step 7. Moves, ordered: table move, killers, the evaluator's hint, history.
        if !generated {
            self.game.legal_moves(&mut moves);
        }
        if p == 0 && !self.td.root_moves.is_empty() {
            let root = &self.td.root_moves;
            if moves.iter().any(|&m| root.contains(&G::move_code(m))) {
                moves.retain(|&m| root.contains(&G::move_code(m)));
            }
        }
        debug_assert!(!moves.is_empty(), "a game that is not over has a legal move");
        if use_table && depth >= 2 && moves.len() > 1 {
            // Fetch every child's bucket now, so that their memory latencies overlap.
            for &mv in &moves {
                self.table.prefetch(self.game.child_table_key(mv));
            }
            // Enhanced transposition cutoff: a child already known to be bad enough for the opponent refutes
            // this node without a search.
            if self.options.etc && !pv_node && depth >= ETC_DEPTH {
                for &mv in &moves {
                    let child = self.table.probe(self.game.child_table_key(mv), ply + 1).hit;
                    if let Some(e) = child {
                        if e.depth as i32 >= depth - 1 && e.bound != Bound::Lower && -e.score >= beta {
                            self.td.moves[p] = moves;
                            if let Some(probe) = probe {
                                let code = G::transform_move_code(G::move_code(mv), symmetry, true);
                                self.table.store(
                                    probe.slot,
                                    key,
                                    ply,
                                    depth.clamp(0, 255) as u8,
                                    Bound::Lower,
                                    -e.score,
                                    None,
                                    Some(code),
                                );
                            }
                            if ply == 0 {
                                self.root_best = Some(mv);
                            }
                            return -e.score;
                        }
                    }
                }
            }
        }

        // The table move goes first, before the others are scored: when it refutes the node, as it usually
        // does, scoring them would be wasted.
        let mut sorted = 0;
        if let Some(t) = moves.iter().position(|&m| G::move_code(m) == tt_code) {
            moves.swap(0, t);
            sorted = 1;
        }
        let mut order = std::mem::take(&mut self.td.order[p]);
        let mut offset = usize::MAX;

        // Step 8. Search the moves; PVS searches all but the first with a null window, late quiet moves
        // (with LMR) shallower first.
        let side = p & 1;
        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_move: Option<G::Move> = None;
        for i in 0..moves.len() {
            if i >= sorted {
                if offset == usize::MAX {
                    self.order_moves(&moves[i..], &mut order, p);
                    offset = i;
                }
                pick_best(&mut moves[offset..], &mut order, i - offset);
            }
            let mv = moves[i];

            let quiet = !in_check && !self.td.killers[p].contains(&G::move_code(mv)) && !self.game.is_tactical(mv);
            // Step 8a. Late quiet moves at shallow non-PV nodes, once some move has been found that does not
            // lose: skip those that come too late, or that cannot lift a poor static evaluation to alpha.
            if quiet && prunable && best_move.is_some() && !(is_decisive(best) && best < 0) {
                if self.options.late_move_pruning && depth <= LMP_DEPTH && i >= 3 + (depth * depth) as usize {
                    continue;
                }
                if let Some(margin) = self.options.move_futility_margin.filter(|_| depth <= FUTILITY_DEPTH) {
                    let eval = *static_eval.get_or_insert_with(|| self.evaluator.evaluate(&self.game));
                    if eval + margin * (depth + 1) <= alpha {
                        continue;
                    }
                }
            }
            let reducible = self.options.lmr && depth >= LMR_DEPTH && i >= LMR_MOVES + pv_node as usize && quiet;
            self.play(mv);
            let gives_check = self.options.check_extension && self.game.in_check();
            let new_depth = depth - 1 + gives_check as i32;
            let score = if i == 0 || !self.options.pvs {
                self.child_safe = generated;
                -self.negamax(new_depth, ply + 1, -beta, -alpha, pv_node)
            } else {
                let reduction = if reducible && !gives_check {
                    // About ln(depth)·ln(index)/2, one less at PV nodes.
                    let d = (depth as usize).min(LMR_TABLE - 1);
                    self.td.lmr[d][i.min(LMR_TABLE - 1)] as i32 - pv_node as i32
                } else {
                    0
                };
                let reduction = reduction.min(new_depth - 1).max(0);
                self.child_safe = generated;
                let mut s = -self.negamax(new_depth - reduction, ply + 1, -alpha - 1, -alpha, false);
                if s > alpha && reduction > 0 {
                    self.child_safe = generated;
                    s = -self.negamax(new_depth, ply + 1, -alpha - 1, -alpha, false);
                }
                if s > alpha && s < beta && pv_node {
                    self.child_safe = generated;
                    -self.negamax(new_depth, ply + 1, -beta, -alpha, true)
                } else {
                    s
                }
            };
            self.undo(mv);
            if self.stopped {
                break;
            }

            if score > best {
                best = score;
                best_move = Some(mv);
                if ply == 0 && score > alpha_orig {
                    self.root_best = Some(mv);
                }
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        let (head, tail) = self.td.pv.split_at_mut(p + 1);
                        head[p].clear();
                        head[p].push(mv);
                        head[p].extend_from_slice(&tail[0]);
                    }
                    if alpha >= beta {
                        self.reward(mv, &moves[..i], depth, p, side);
                        break;
                    }
                }
            }
        }
        if ply == 0 && self.root_best.is_none() {
            self.root_best = best_move;
            if self.td.pv[0].is_empty() {
                self.td.pv[0].extend(best_move);
            }
        }
        self.td.moves[p] = moves;
        self.td.order[p] = order;
        if self.stopped {
            return 0;
        }

        // Step 9. Store the result with its bound.
        if let Some(probe) = probe {
            // (Exact only strictly inside the window, possible only when it is wider than a null window.)
            let bound = Bound::of(best, alpha_orig, beta);
            let code = best_move
                .filter(|_| bound != Bound::Upper)
                .map(|m| G::transform_move_code(G::move_code(m), symmetry, true));
            self.table.store(probe.slot, key, ply, depth.clamp(0, 255) as u8, bound, best, static_eval, code);
        }
        best
    }

    /// Fills `order` with an ordering score for each move.
    fn order_moves(&self, moves: &[G::Move], order: &mut Vec<i32>, p: usize) {
        order.clear();
        if moves.len() < 2 {
            order.resize(moves.len(), 0);
            return;
        }
        let killers = if self.options.killers { self.td.killers[p] } else { [NO_CODE; 2] };
        let side = p & 1;
        for &mv in moves {
            let code = G::move_code(mv);
            let score = {
                let hint = self.evaluator.move_order(&self.game, mv).clamp(-HINT_LIMIT, HINT_LIMIT) << 16;
                let killer = if code == killers[0] {
                    KILLER_ORDER[0]
                } else if code == killers[1] {
                    KILLER_ORDER[1]
                } else if self.options.history {
                    self.td.history[side * G::MOVE_CODES + code as usize]
                } else {
                    0
                };
                hint + killer
            };
            order.push(score);
        }
    }

    /// Updates killers and history after `mv` caused a cutoff; `tried` are the moves searched before it.
    fn reward(&mut self, mv: G::Move, tried: &[G::Move], depth: i32, p: usize, side: usize) {
        let code = G::move_code(mv);
        if self.options.killers && self.td.killers[p][0] != code {
            self.td.killers[p] = [code, self.td.killers[p][0]];
        }
        if self.options.history {
            let bonus = (depth * depth).min(HISTORY_MAX);
            let base = side * G::MOVE_CODES;
            let mut update = |code: u16, bonus: i32| {
                let h = &mut self.td.history[base + code as usize];
                // Gravity keeps values within ±HISTORY_MAX and lets new evidence outweigh old.
                *h += bonus - *h * bonus.abs() / HISTORY_MAX;
            };
            update(code, bonus);
            for &m in tried {
                update(G::move_code(m), -bonus);
            }
        }
    }

    /// The horizon: the static evaluation, or with quiescence on, noisy moves resolved with stand-pat.
    fn quiescence(&mut self, ply: u32, mut alpha: Score, beta: Score) -> Score {
        let p = ply as usize;
        self.td.ensure_ply(p);
        if let Some(score) = self.enter_node(ply) {
            return score;
        }
        // The table: a bound that decides ends the node; a stored evaluation saves computing it.
        let use_table = self.options.quiescence_table && self.options.table && self.options.quiescence;
        let key = if use_table { self.game.table_key().0 } else { Key::ZERO };
        let mut tt_eval = None;
        let probe = if use_table {
            self.probes += 1;
            let probe = self.table.probe(key, ply);
            if let Some(e) = probe.hit {
                self.hits += 1;
                if e.decides(alpha, beta) {
                    return e.score;
                }
                tt_eval = e.eval;
            }
            Some(probe)
        } else {
            None
        };
        // In check, standing pat is no option: every evasion is searched.
        let in_check = self.options.quiescence && ply < MAX_PLY - 1 && self.game.in_check();
        let static_eval =
            if in_check { None } else { Some(tt_eval.unwrap_or_else(|| self.evaluator.evaluate(&self.game))) };
        let stand_pat = static_eval.unwrap_or(-INFINITY);
        if !self.options.quiescence || stand_pat >= beta || ply >= MAX_PLY - 1 {
            if let (Some(probe), true) = (probe, stand_pat >= beta && stand_pat > -INFINITY) {
                self.table.store(probe.slot, key, ply, 0, Bound::Lower, stand_pat, static_eval, None);
            }
            return stand_pat;
        }
        let alpha_orig = alpha;
        alpha = alpha.max(stand_pat);
        let mut moves = std::mem::take(&mut self.td.moves[p]);
        moves.clear();
        if in_check {
            self.game.legal_moves(&mut moves);
        } else {
            self.game.noisy_moves(&mut moves);
        }
        if moves.is_empty() {
            self.td.moves[p] = moves;
            // (In check without a move: the game's outcome, which `enter_node` reports before we get here.)
            return stand_pat;
        }
        let mut order = std::mem::take(&mut self.td.order[p]);
        order.clear();
        order.extend(moves.iter().map(|&m| self.evaluator.move_order(&self.game, m)));
        let mut best = stand_pat;
        for i in 0..moves.len() {
            pick_best(&mut moves, &mut order, i);
            let mv = moves[i];
            self.play(mv);
            let score = -self.quiescence(ply + 1, -beta, -alpha);
            self.undo(mv);
            if self.stopped {
                break;
            }
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
        self.td.moves[p] = moves;
        self.td.order[p] = order;
        if let Some(probe) = probe.filter(|_| !self.stopped && best > -INFINITY) {
            let bound = Bound::of(best, alpha_orig, beta);
            self.table.store(probe.slot, key, ply, 0, bound, best, static_eval, None);
        }
        best
    }
}
