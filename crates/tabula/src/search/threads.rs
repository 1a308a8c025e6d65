//! Lazy SMP with deferred moves: several threads search the same root and share what they learn through the
//! table.
//!
//! Every thread runs its own iterative deepening; none waits for another. The main thread and the even-numbered
//! helpers start at depth 1, the odd-numbered helpers at depth 2, and after each iteration a thread moves on to the
//! depth after the deepest any thread has completed, so a thread that falls behind skips ahead instead of
//! repeating finished work. Within an iteration the threads keep out of each other's way by simplified ABDADA: a
//! thread marks the positions it is searching (at least [`DEFER_DEPTH`] plies from the horizon) in a small shared
//! table of keys, and a node puts off every move but its first whose position another thread has marked, searching
//! it after the others, when its value is often in the table. The search answers with the deepest completed
//! iteration of any thread, and ends as soon as one thread completes the last depth (or proves the value).
//!
//! Measured on the comparison with minimax-rs (Connect Four to depth 16, two free cores): two threads take
//! 0.63–0.72 times one thread's time with the table and PVS, and 0.74–0.77 times with the default options; without
//! the deferral, with a helper kept one depth ahead of the main thread instead, they took 1.05–1.19 and 0.8–1.05
//! times (`cargo run --release -p tabula-compare --example versus -- --only threads`).
//!
//! [`DEFER_DEPTH`]: super::shared::DEFER_DEPTH

use super::ordering::History;
use super::shared::{Completed, Counts};
use super::stack::Stack;
use super::worker::{Context, Worker};
use crate::game::{Evaluator, Game};
use crate::zobrist::Key;
use std::sync::atomic::Ordering::Relaxed;

/// A thread's buffers, kept between searches so that a warm search allocates nothing.
pub(super) struct ThreadData<M> {
    pub stack: Stack<M>,
    pub history: History,
    /// The keys of the positions before the root, then of the search path.
    pub keys: Vec<Key>,
}

impl<M> ThreadData<M> {
    pub fn new() -> Self {
        ThreadData { stack: Stack::new(), history: History::new(), keys: Vec::new() }
    }

    /// Ready for a search of a game with `move_codes` codes (and `pieces_to` piece-to codes for the
    /// continuation history, 0 for none) whose earlier positions have `keys`; the history, counter-move
    /// and continuation tables are cleared only if `history` or `corrections` is set (they are sized on first
    /// use); the correction history, kept if `corrections` is set, is made ready.
    pub fn prepare(&mut self, history: bool, move_codes: usize, pieces_to: usize, corrections: bool, keys: &[Key]) {
        if history || corrections {
            self.history.reset(move_codes, pieces_to, corrections);
        }
        self.keys.clear();
        self.keys.extend_from_slice(keys);
    }
}

/// The depth a thread starts its iterative deepening at (0: the main thread).
pub(super) fn start_depth(thread: usize) -> u32 {
    1 + (thread % 2) as u32
}

/// Runs iterative deepening on `data.len()` threads (the first is the main thread, which reports to
/// `on_iteration`), the full search or the lean one. Returns when every thread has stopped. One thread runs
/// a search compiled without the deferral (`cx.shared` must have busy slots for more).
pub(super) fn search<G: Game, E: Evaluator<G>>(
    game: &G,
    cx: Context<'_, G, E>,
    data: &mut [ThreadData<G::Move>],
    lean: bool,
    on_iteration: &mut dyn FnMut(&Completed<G::Move>, Counts),
) {
    debug_assert_eq!(data.len() > 1, cx.shared.defers(), "several threads, and only they, mark busy positions");
    match (lean, data.len() > 1) {
        (true, false) => run::<G, E, false, false>(game, cx, data, on_iteration),
        (true, true) => run::<G, E, false, true>(game, cx, data, on_iteration),
        (false, false) => run::<G, E, true, false>(game, cx, data, on_iteration),
        (false, true) => run::<G, E, true, true>(game, cx, data, on_iteration),
    }
}

fn run<G: Game, E: Evaluator<G>, const FULL: bool, const SMP: bool>(
    game: &G,
    cx: Context<'_, G, E>,
    data: &mut [ThreadData<G::Move>],
    on_iteration: &mut dyn FnMut(&Completed<G::Move>, Counts),
) {
    let (main, helpers) = data.split_first_mut().expect("at least one thread");
    std::thread::scope(|scope| {
        for (i, td) in helpers.iter_mut().enumerate() {
            let game = game.clone();
            scope.spawn(move || {
                let ThreadData { stack, history, keys } = td;
                let mut worker = Worker::<G, E, FULL, SMP>::new(game, cx, history, keys, false);
                worker.iterate(stack.fresh(), start_depth(i + 1), &mut |_, _| {});
            });
        }
        let ThreadData { stack, history, keys } = main;
        let mut worker = Worker::<G, E, FULL, SMP>::new(game.clone(), cx, history, keys, true);
        worker.iterate(stack.fresh(), start_depth(0), on_iteration);
        cx.shared.stop.store(true, Relaxed);
    });
}
