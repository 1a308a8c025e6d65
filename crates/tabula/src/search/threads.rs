//! Lazy SMP: several threads search the same root and share what they learn through the table.
//!
//! Every thread runs its own iterative deepening; none waits for another. They diverge because the table fills in
//! different orders, and they are spread over two depths from the start: the main thread and the even-numbered helpers
//! start at depth 1, the odd-numbered helpers at depth 2. After each iteration a thread moves on to the depth after the
//! deepest any thread has completed, so a thread that falls behind skips ahead instead of repeating finished work, and
//! a helper goes at least one depth beyond the one the main thread is searching, so that the two do not search one
//! iteration side by side (two threads to depth 16 on the minimax-rs comparison: 0.87–0.89× → 0.80–0.81× minimax-rs's
//! time, one thread 0.75–0.78×). The search answers with the deepest completed iteration of any thread, and ends as
//! soon as one thread completes the last depth (or proves the value).

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

    /// Ready for a search of a game with `move_codes` codes whose earlier positions have `keys`; the history
    /// table is cleared only if `history` is on (it is sized on first use).
    pub fn prepare(&mut self, history: bool, move_codes: usize, keys: &[Key]) {
        if history {
            self.history.reset(move_codes);
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
/// `on_iteration`), the full search or the lean one. Returns when every thread has stopped.
pub(super) fn search<G: Game, E: Evaluator<G>>(
    game: &G,
    cx: Context<'_, G, E>,
    data: &mut [ThreadData<G::Move>],
    lean: bool,
    on_iteration: &mut dyn FnMut(&Completed<G::Move>, Counts),
) {
    if lean {
        run::<G, E, false>(game, cx, data, on_iteration)
    } else {
        run::<G, E, true>(game, cx, data, on_iteration)
    }
}

fn run<G: Game, E: Evaluator<G>, const FULL: bool>(
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
                let mut worker = Worker::<G, E, FULL>::new(game, cx, history, keys, false);
                worker.iterate(stack.fresh(), start_depth(i + 1), &mut |_, _| {});
            });
        }
        let ThreadData { stack, history, keys } = main;
        let mut worker = Worker::<G, E, FULL>::new(game.clone(), cx, history, keys, true);
        worker.iterate(stack.fresh(), start_depth(0), on_iteration);
        cx.shared.stop.store(true, Relaxed);
    });
}
