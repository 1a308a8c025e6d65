//! What the threads of one search share: the stop signal and the limits that raise it, node and table
//! counters, the deepest completed iteration, and (in a parallel solve) the positions being searched.
//!
//! Each thread counts in plain integers ([`Counts`]) and adds them to the shared atomics every
//! [`CHECK_EVERY`] nodes, when it also looks at the clock and the stop flags, so that a node pays one
//! increment and one mask test.

use super::limits::Limits;
use super::result::{Line, SearchResult, TableUse};
use crate::score::{is_decisive, Score};
use crate::zobrist::Key;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Entries of the table of positions being searched by several threads (a power of two).
const BUSY_SLOTS: usize = 1 << 12;

/// Several threads defer the moves another thread is searching only this far from the horizon (or, solving,
/// from the end of the game): nearer it, marking positions costs more than the work it spares. On the
/// comparison with minimax-rs two threads took 0.61–0.67 times one thread's time at 6, about the same at 3 and 4.
pub(super) const DEFER_DEPTH: i32 = 6;

/// How often (in nodes) a thread reports its counts and looks at the limits.
pub(super) const CHECK_EVERY: u64 = 1024;

/// A thread's own counts, reported to [`Shared`] now and then.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Counts {
    pub nodes: u64,
    pub probes: u64,
    pub hits: u64,
    pub cutoffs: u64,
}

/// A completed iteration, as the deepest so far of any thread.
#[derive(Clone, Debug)]
pub(super) struct Completed<M> {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub exact: bool,
    pub best_move: Option<M>,
    pub pv: Vec<M>,
    /// The best root moves, best first; the first is `score` and `pv`.
    pub lines: Vec<Line<M>>,
}

impl<M> Completed<M> {
    /// No iteration: no move, a score of 0 at depth 0.
    pub fn none() -> Completed<M> {
        Completed { depth: 0, seldepth: 0, score: 0, exact: false, best_move: None, pv: Vec::new(), lines: Vec::new() }
    }

    /// The result of a search whose deepest completed iteration this is, with its totals.
    pub fn into_result(self, nodes: u64, table: TableUse, elapsed: Duration) -> SearchResult<M> {
        let Completed { depth, seldepth, score, exact, best_move, pv, lines } = self;
        SearchResult { best_move, score, exact, depth, seldepth, pv, lines, nodes, table, elapsed }
    }
}

/// The time limits of a search. They count from its start; while it ponders they wait, and when it is
/// released the time spent pondering counts (UCI `ponderhit`: what the engine thought on the opponent's time
/// is thinking done for this move).
struct Clock {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// Set while pondering: the limits wait.
    ponder: Option<Arc<AtomicBool>>,
    /// When the ponder flag was first seen cleared, in nanoseconds after `start` plus one (0: not yet).
    released: AtomicU64,
}

impl Clock {
    /// Whether the limits are a clock's, a soft limit short of the hard one, rather than a fixed time for
    /// the move (soft and hard alike, UCI's `movetime`), which is spent whole.
    fn is_managed(&self) -> bool {
        self.soft.is_some_and(|soft| self.hard.map_or(true, |hard| soft < hard))
    }

    /// How long after the start the search was released from pondering: zero for a search that never
    /// pondered, `None` while it ponders.
    fn released(&self) -> Option<Duration> {
        let Some(ponder) = &self.ponder else { return Some(Duration::ZERO) };
        let released = self.released.load(Relaxed);
        if released != 0 {
            return Some(Duration::from_nanos(released - 1));
        }
        if ponder.load(Relaxed) {
            return None;
        }
        let now = self.start.elapsed().as_nanos() as u64 + 1;
        // The first thread to see the flag cleared sets the moment for all.
        let released = match self.released.compare_exchange(0, now, Relaxed, Relaxed) {
            Ok(_) => now,
            Err(earlier) => earlier,
        };
        Some(Duration::from_nanos(released - 1))
    }

    /// Whether `limit` has passed since the start, the search no longer pondering.
    fn passed(&self, limit: Option<Duration>) -> bool {
        limit.is_some_and(|limit| self.released().is_some() && self.start.elapsed() >= limit)
    }

    /// Whether the search was released from pondering with its soft limit already spent: it has thought
    /// long enough, and answers at once with its last complete iteration.
    fn released_late(&self) -> bool {
        self.ponder.is_some() && self.soft.is_some_and(|soft| self.released().is_some_and(|at| at >= soft))
    }
}

/// State shared by the threads of one search.
pub(super) struct Shared<M> {
    /// Raised by any thread when the search must end; every thread stops at its next check.
    pub stop: AtomicBool,
    external: Option<Arc<AtomicBool>>,
    node_limit: Option<u64>,
    clock: Clock,
    /// The deepest iteration the search may start.
    pub max_depth: u32,
    nodes: AtomicU64,
    probes: AtomicU64,
    hits: AtomicU64,
    cutoffs: AtomicU64,
    /// The deepest iteration completed by any thread, and how many before it had the same best move.
    best: Mutex<Deepest<M>>,
    /// With time scaling, its score unit (see [`SearchOptions::time_scaling`](super::SearchOptions)).
    time_scaling: Option<Score>,
    /// The soft limit's scale in thousandths, set as iterations complete.
    soft_scale: AtomicU32,
    /// The root has a single move to choose: the soft limit is [`SINGLE_REPLY_SHARE`] of itself.
    single_reply: bool,
    /// Its depth, for the threads to look at without the lock.
    completed_depth: AtomicU32,
    /// Keys of the positions some thread is searching now, in a search or solve of several threads (empty
    /// with one): another thread defers them and works elsewhere (simplified ABDADA).
    busy: Box<[AtomicU64]>,
}

/// The deepest completed iteration so far and the count time scaling keeps beside it, under one lock so
/// that no thread sees them disagree.
struct Deepest<M> {
    iteration: Option<Completed<M>>,
    /// How many iterations before it in a row had the same best move.
    stable: u32,
}

/// A soft limit scale of one, in the thousandths [`Shared`] keeps it in.
const SCALE_ONE: u32 = 1000;

/// The share of its soft limit a search with a single root move takes: enough for a few iterations (a
/// score and an expected reply to show), not the time of a real choice.
const SINGLE_REPLY_SHARE: f64 = 0.05;

/// The soft limit's scale after an iteration whose best move the `stable` iterations before it also had,
/// whose score is `now` after `before` (see [`SearchOptions::time_scaling`](super::SearchOptions)).
fn time_scale(stable: u32, before: Score, now: Score, unit: Score) -> f64 {
    // A new best move wants the time to see it confirmed; one that has stood for long needs little more.
    const STABILITY: [f64; 7] = [1.8, 1.4, 1.15, 1.0, 0.9, 0.8, 0.7];
    let stability = STABILITY[(stable as usize).min(STABILITY.len() - 1)];
    // A falling score may be a threat the search is just seeing; a won or lost game needs no more time.
    let fall = if is_decisive(before) || is_decisive(now) { 0 } else { before.saturating_sub(now) };
    let falling = (1.0 + f64::from(fall) / (2.0 * f64::from(unit))).clamp(0.85, 1.5);
    stability * falling
}

impl<M: Clone + PartialEq> Shared<M> {
    /// The shared state of a search within `limits` that started at `start` and may go `max_depth` deep.
    pub fn new(limits: &Limits, start: Instant, max_depth: u32) -> Self {
        Shared {
            stop: AtomicBool::new(false),
            external: limits.stop.clone(),
            node_limit: limits.nodes,
            clock: Clock {
                start,
                soft: limits.soft_time,
                hard: limits.hard_time,
                ponder: limits.ponder.clone(),
                released: AtomicU64::new(0),
            },
            max_depth,
            nodes: AtomicU64::new(0),
            probes: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            cutoffs: AtomicU64::new(0),
            best: Mutex::new(Deepest { iteration: None, stable: 0 }),
            time_scaling: None,
            soft_scale: AtomicU32::new(SCALE_ONE),
            single_reply: false,
            completed_depth: AtomicU32::new(0),
            busy: Box::new([]),
        }
    }

    /// The same with a table of the positions being searched, for a search or solve of several threads.
    pub fn with_busy_slots(mut self) -> Self {
        self.busy = (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect();
        self
    }

    /// The same with the soft limit scaled by the search's course, `unit` being the score's fall that adds
    /// half to it (see [`SearchOptions::time_scaling`](super::SearchOptions)); `None`, or a fixed time for
    /// the move, keeps it fixed.
    pub fn with_time_scaling(mut self, unit: Option<Score>) -> Self {
        self.time_scaling = unit.filter(|&u| u > 0 && self.clock.is_managed());
        self
    }

    /// Whether the search runs on a clock (a soft limit short of the hard one), whose soft limit may follow
    /// the search, rather than on a fixed time for the move.
    pub fn runs_a_clock(&self) -> bool {
        self.clock.is_managed()
    }

    /// The same for a root with a single move to choose, on a clock: its soft limit shrinks to a small
    /// share, so that a forced move does not take the time of a choice. The hard limit stays; a fixed
    /// time for the move is spent whole.
    pub fn with_single_reply(mut self) -> Self {
        self.single_reply = self.clock.is_managed();
        self
    }

    /// Whether threads mark the positions they are searching (see [`Shared::with_busy_slots`]).
    #[inline]
    pub fn defers(&self) -> bool {
        !self.busy.is_empty()
    }

    fn busy_slot(&self, key: Key) -> &AtomicU64 {
        &self.busy[key.0 as usize & (self.busy.len() - 1)]
    }

    /// Whether another thread is searching the position with table key `key`.
    #[inline]
    pub fn is_busy(&self, key: Key) -> bool {
        self.busy_slot(key).load(Relaxed) == key.0
    }

    /// Marks the position with table key `key` as being searched, or no longer.
    #[inline]
    pub fn set_busy(&self, key: Key, busy: bool) {
        let slot = self.busy_slot(key);
        if busy {
            slot.store(key.0, Relaxed);
        } else {
            // Leave the slot alone if another position has taken it since.
            let _ = slot.compare_exchange(key.0, 0, Relaxed, Relaxed);
        }
    }

    /// Adds a thread's counts since its last report (`reported` is updated).
    pub fn report(&self, counts: &Counts, reported: &mut Counts) {
        self.nodes.fetch_add(counts.nodes - reported.nodes, Relaxed);
        if counts.probes != reported.probes {
            self.probes.fetch_add(counts.probes - reported.probes, Relaxed);
            self.hits.fetch_add(counts.hits - reported.hits, Relaxed);
            self.cutoffs.fetch_add(counts.cutoffs - reported.cutoffs, Relaxed);
        }
        *reported = *counts;
    }

    /// Whether a hard limit has been reached (raising the stop flag if so).
    pub fn must_stop(&self) -> bool {
        if self.stop.load(Relaxed)
            || self.external.as_ref().is_some_and(|e| e.load(Relaxed))
            || self.node_limit.is_some_and(|n| self.nodes.load(Relaxed) >= n)
            || self.clock.passed(self.clock.hard)
            || self.clock.released_late()
        {
            self.stop.store(true, Relaxed);
            return true;
        }
        false
    }

    /// Whether the soft time limit (scaled, with time scaling) has passed: no new iteration should start.
    pub fn soft_time_passed(&self) -> bool {
        let soft = self.clock.soft.map(|soft| soft.mul_f64(self.soft_scale()));
        self.clock.passed(soft.map(|soft| self.clock.hard.map_or(soft, |hard| soft.min(hard))))
    }

    /// The soft limit's scale: 1 without time scaling, a small share for a single root move.
    fn soft_scale(&self) -> f64 {
        let share = if self.single_reply { SINGLE_REPLY_SHARE } else { 1.0 };
        share * f64::from(self.soft_scale.load(Relaxed)) / f64::from(SCALE_ONE)
    }

    /// Nodes reported so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }

    /// Table use reported so far.
    pub fn table_use(&self) -> TableUse {
        TableUse {
            probes: self.probes.load(Relaxed),
            hits: self.hits.load(Relaxed),
            cutoffs: self.cutoffs.load(Relaxed),
        }
    }

    /// Records a completed iteration if it is deeper than every other so far (or as deep and proved), and
    /// with time scaling rescales the soft limit.
    pub fn publish(&self, completed: Completed<M>) {
        let mut guard = self.best.lock().expect("no thread panics holding it");
        let Deepest { iteration: best, stable } = &mut *guard;
        let deeper = best.as_ref().map_or(true, |b| (completed.depth, completed.exact) > (b.depth, b.exact));
        if !deeper {
            return;
        }
        self.completed_depth.fetch_max(completed.depth, Relaxed);
        if let (Some(unit), Some(before)) = (self.time_scaling, best.as_ref()) {
            *stable = if before.best_move == completed.best_move { *stable + 1 } else { 0 };
            let scale = time_scale(*stable, before.score, completed.score, unit);
            self.soft_scale.store((scale * f64::from(SCALE_ONE)).round() as u32, Relaxed);
        }
        *best = Some(completed);
    }

    /// The deepest completed iteration of any thread.
    pub fn best(&self) -> Option<Completed<M>> {
        self.best.lock().expect("no thread panics holding it").iteration.clone()
    }

    /// Depth of the deepest completed iteration (0: none).
    pub fn best_depth(&self) -> u32 {
        self.completed_depth.load(Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pondering_holds_the_clock_and_counts_its_time_when_released() {
        let ponder = Arc::new(AtomicBool::new(true));
        let limits = Limits::default().with_time(Duration::ZERO, Duration::ZERO).with_ponder(Arc::clone(&ponder));
        let shared: Shared<u8> = Shared::new(&limits, Instant::now(), 10);
        // Limits of zero would stop at once, but the search ponders.
        assert!(shared.clock.released().is_none());
        assert!(!shared.must_stop() && !shared.soft_time_passed());
        ponder.store(false, Relaxed);
        let released = shared.clock.released().expect("released");
        // The moment is kept, whatever the flag does later; the time spent pondering counts.
        ponder.store(true, Relaxed);
        assert_eq!(shared.clock.released(), Some(released));
        assert!(shared.soft_time_passed() && shared.must_stop());

        // Released before the soft limit: a normal search, whose soft limit counts from the start.
        let ponder = Arc::new(AtomicBool::new(true));
        let hour = Duration::from_secs(3600);
        let limits = Limits::default().with_time(Duration::from_millis(300), hour).with_ponder(Arc::clone(&ponder));
        let start = Instant::now();
        let shared: Shared<u8> = Shared::new(&limits, start, 10);
        ponder.store(false, Relaxed);
        assert!(!shared.must_stop() && shared.clock.released().unwrap() < Duration::from_millis(300));
        std::thread::sleep(Duration::from_millis(310));
        assert!(shared.soft_time_passed() && !shared.clock.released_late() && !shared.must_stop());

        // Released after it: the search stops at once.
        let ponder = Arc::new(AtomicBool::new(true));
        let limits = Limits::default().with_time(Duration::from_millis(10), hour).with_ponder(Arc::clone(&ponder));
        let shared: Shared<u8> = Shared::new(&limits, Instant::now(), 10);
        std::thread::sleep(Duration::from_millis(20));
        assert!(!shared.must_stop());
        ponder.store(false, Relaxed);
        assert!(shared.clock.released_late() && shared.must_stop());
    }

    /// An iteration at `depth` with best move `best` and `score`.
    fn iteration(depth: u32, best: u8, score: Score) -> Completed<u8> {
        Completed { depth, seldepth: depth, score, exact: false, best_move: Some(best), pv: vec![best], lines: vec![] }
    }

    /// The soft limit's scale is `expected`, to the thousandth it is kept in.
    fn assert_scale(shared: &Shared<u8>, expected: f64) {
        assert!(
            (shared.soft_scale() - expected).abs() < 1e-9 + 0.5 / f64::from(SCALE_ONE),
            "{} != {expected}",
            shared.soft_scale()
        );
    }

    #[test]
    fn time_scaling_follows_the_best_move_and_the_score() {
        let hour = Duration::from_secs(3600);
        let limits = Limits::default().with_time(Duration::from_millis(100), hour);
        let shared: Shared<u8> = Shared::new(&limits, Instant::now(), 64).with_time_scaling(Some(20));
        shared.publish(iteration(1, 7, 0));
        // One iteration says nothing yet.
        assert_scale(&shared, 1.0);
        // The same move iteration after iteration, the score steady: less and less time.
        let mut last = f64::INFINITY;
        for depth in 2..=8 {
            shared.publish(iteration(depth, 7, 0));
            assert!(shared.soft_scale() <= last);
            last = shared.soft_scale();
        }
        assert_scale(&shared, 0.7);
        // A new best move: the most time.
        shared.publish(iteration(9, 3, 0));
        assert_scale(&shared, 1.8);
        // Kept once, the score falling by twice the unit: the falling factor's most.
        shared.publish(iteration(10, 3, -40));
        assert_scale(&shared, 1.4 * 1.5);
        // Rising by the unit: a little less.
        shared.publish(iteration(11, 3, -20));
        assert_scale(&shared, 1.15 * 0.85);
        // A shallower iteration of another thread changes nothing.
        shared.publish(iteration(5, 9, -500));
        assert_scale(&shared, 1.15 * 0.85);
        // Decisive scores are not falls.
        shared.publish(iteration(12, 3, -crate::score::win_by(3)));
        assert_scale(&shared, 1.0);
    }

    #[test]
    fn the_scaled_soft_limit_stops_at_the_hard_one() {
        let limits = Limits::default().with_time(Duration::from_millis(30), Duration::from_millis(40));
        let start = Instant::now();
        let shared: Shared<u8> = Shared::new(&limits, start, 64).with_time_scaling(Some(20));
        shared.publish(iteration(1, 1, 0));
        shared.publish(iteration(2, 2, 0));
        assert_scale(&shared, 1.8);
        std::thread::sleep(Duration::from_millis(35));
        // 1.8 times 30 ms would be 54 ms; the hard limit of 40 ms bounds it.
        assert!(!shared.soft_time_passed() || start.elapsed() >= Duration::from_millis(40));
        std::thread::sleep(Duration::from_millis(10));
        assert!(shared.soft_time_passed());
        // Without time scaling the limit is fixed whatever the iterations say.
        let shared: Shared<u8> = Shared::new(&limits, start, 64);
        shared.publish(iteration(1, 1, 0));
        shared.publish(iteration(2, 2, 0));
        assert_scale(&shared, 1.0);
    }

    #[test]
    fn a_single_reply_takes_a_small_share_of_the_soft_limit() {
        let limits = Limits::default().with_time(Duration::from_millis(400), Duration::from_secs(3600));
        let start = Instant::now();
        let single: Shared<u8> = Shared::new(&limits, start, 64).with_time_scaling(Some(20)).with_single_reply();
        let choice: Shared<u8> = Shared::new(&limits, start, 64).with_time_scaling(Some(20));
        for shared in [&single, &choice] {
            shared.publish(iteration(1, 1, 0));
            shared.publish(iteration(2, 1, 0));
        }
        // 5 % of 400 ms, times the stability factor after one stable iteration (1.4): 28 ms.
        std::thread::sleep(Duration::from_millis(40));
        assert!(single.soft_time_passed() && !single.must_stop());
        assert!(!choice.soft_time_passed() || start.elapsed() >= Duration::from_millis(560));
    }

    #[test]
    fn without_pondering_the_clock_runs_from_the_start() {
        let start = Instant::now();
        let limits = Limits::default().with_time(Duration::ZERO, Duration::from_secs(3600));
        let shared: Shared<u8> = Shared::new(&limits, start, 10);
        assert_eq!(shared.clock.released(), Some(Duration::ZERO));
        assert!(shared.soft_time_passed() && !shared.must_stop());
    }
}
