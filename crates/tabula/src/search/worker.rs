//! One thread's search: iterative deepening, aspiration windows, and what the nodes of both searches share
//! (entering a node, probing the table, taking a move's score, claiming a child from the other threads, storing
//! the result, ordering and rewarding moves). The nodes themselves are in `negamax` (the full search),
//! `quiescence` (its horizon) and `lean`.
//!
//! A [`Worker`] is generic over `FULL`: the full search reads every option, the lean one
//! (`FULL = false`, chosen when [`SearchOptions::is_lean`] holds) compiles out everything but the table,
//! principal variation search, aspiration windows and the history heuristic, so that a node pays for no
//! feature that is off.
//!
//! Every node keeps count of the lines it cut short ([`Worker::cuts`]): a leaf evaluated at the horizon, a
//! pruning that guesses, a table cutoff on a result that was itself cut short, a repetition. A node that
//! added none has a proved value; it is stored as such and used at any depth, and an iteration whose root
//! cut nothing is exact and ends the search.

use super::limits::Limits;
use super::node::Taken;
use super::options::SearchOptions;
use super::ordering::{add_killer, move_score, History, Pending, Preceding, QuietOrder, NO_PRECEDING};
use super::result::Line;
use super::shared::{Completed, Counts, Shared, CHECK_EVERY};
use super::stack::{Frame, NO_CODE};
use crate::game::{Evaluator, Game, HookedEvaluator, HookedGame, Outcome, TableKey, DEFERRED};
use crate::score::{self, is_decisive, Score, INFINITY, MAX_PLY};
use crate::tt::{Probe, Record, TranspositionTable};
use crate::zobrist::Key;
use std::sync::atomic::Ordering::Relaxed;

/// What a search's threads share and do not change: the evaluator, the table, the options, the root.
pub(super) struct Context<'a, G: Game, E> {
    pub evaluator: &'a E,
    pub table: &'a TranspositionTable,
    pub options: &'a SearchOptions,
    pub shared: &'a Shared<G::Move>,
    /// Codes of the moves the root may play (empty: every legal move).
    pub root_moves: &'a [u16],
    /// How many lines each iteration finds (at least one).
    pub lines: usize,
}

impl<G: Game, E> Clone for Context<'_, G, E> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<G: Game, E> Copy for Context<'_, G, E> {}

/// What a parent tells a child about the node it is about to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Kind {
    /// A principal-variation node: searched with an open window, its PV kept.
    pub pv: bool,
    /// The parent chose the move among its [non-losing moves](crate::game::HookedGame::non_losing_moves): this node has no win
    /// at once to look for.
    pub safe: bool,
    /// The code of the move that led here ([`NO_CODE`] at the root and after a null move).
    pub prev: u16,
    /// The piece-to codes of the move that led here and the one before it, with the continuation history on.
    pub preceding: Preceding,
    /// The code of a move this node leaves out ([`NO_CODE`]: none): the search of the other moves that
    /// decides a [singular extension](SearchOptions::singular_depth).
    pub excluded: u16,
    /// An expected cut node: a null-window node reached by a move its parent expects to be refuted here (the
    /// late moves of a PV node, their grandchildren, and so on, alternating with expected all-nodes).
    pub cut: bool,
}

impl Kind {
    /// The root: a PV node after no move.
    pub(super) const ROOT: Kind = Kind { pv: true, ..Kind::AFTER_NULL };
    /// A null-window node after a null move, which no move's history follows.
    pub(super) const AFTER_NULL: Kind =
        Kind { pv: false, safe: false, prev: NO_CODE, preceding: NO_PRECEDING, excluded: NO_CODE, cut: false };

    /// A null-window child, `safe` as the parent chose its moves; the move that leads to it is filled in
    /// for each move.
    pub(super) fn child(safe: bool) -> Kind {
        Kind { safe, ..Kind::AFTER_NULL }
    }

    /// This child kind reached from `parent` by the move of code `code` and piece-to code `piece_to`.
    pub(super) fn after(self, code: u16, piece_to: u16, parent: &Kind) -> Kind {
        Kind { prev: code, preceding: [piece_to, parent.preceding[0]], ..self }
    }
}

/// Keeps the moves whose [codes](Game::move_code) are `allowed` (UCI's `searchmoves`), unless none of them is.
pub(super) fn keep_allowed<G: Game>(moves: &mut Vec<G::Move>, allowed: &[u16]) {
    if moves.iter().any(|&m| allowed.contains(&G::move_code(m))) {
        moves.retain(|&m| allowed.contains(&G::move_code(m)));
    }
}

/// A node's search so far: the best score and move among the moves searched, and the window the best score
/// narrows.
#[derive(Clone, Copy, Debug)]
pub(super) struct Tally<M> {
    pub best: Score,
    pub best_move: Option<M>,
    pub alpha: Score,
    /// Alpha as the node was entered, which decides the bound the node stores.
    pub alpha_orig: Score,
    pub beta: Score,
}

impl<M> Tally<M> {
    /// Nothing searched yet within (`alpha`, `beta`).
    pub fn new(alpha: Score, beta: Score) -> Tally<M> {
        Tally { best: -INFINITY, best_move: None, alpha, alpha_orig: alpha, beta }
    }
}

/// One thread's search: the full search or (`FULL` false) only the lean one compiled in, and (`SMP`) the
/// deferral of moves other threads are searching compiled in or not.
pub(super) struct Worker<'a, G: Game, E, const FULL: bool, const SMP: bool> {
    pub game: G,
    pub cx: Context<'a, G, E>,
    pub history: &'a mut History,
    /// Keys of the positions before the current one, oldest first (the game before the root included).
    pub keys: &'a mut Vec<Key>,
    pub counts: Counts,
    reported: Counts,
    pub seldepth: u32,
    /// Set once a limit stops this thread, or another thread completes the iteration under way; the node it
    /// is in returns 0 and stores nothing.
    pub stopped: bool,
    /// The depth of the iteration under way.
    iteration: u32,
    /// Whether `stopped` was set because another thread completed this iteration (the search goes on).
    superseded: bool,
    /// The best root move of the iteration under way, once one beats the window.
    pub root_best: Option<G::Move>,
    /// Codes of the root moves left out of the line under way: the first moves of the lines before it.
    root_excluded: Vec<u16>,
    /// Whether this thread reports iterations.
    pub main: bool,
    /// Whether positions can repeat, so that the path's keys must be kept.
    track_keys: bool,
    /// Lines cut short so far (see the module documentation).
    pub cuts: u64,
    /// Repetitions ruled other than a draw: a result that depends on one holds only on its path and is not
    /// stored.
    pub rulings: u64,
}

impl<'a, G: Game, E: Evaluator<G>, const FULL: bool, const SMP: bool> Worker<'a, G, E, FULL, SMP> {
    pub fn new(game: G, cx: Context<'a, G, E>, history: &'a mut History, keys: &'a mut Vec<Key>, main: bool) -> Self {
        let track_keys = game.reversible_plies().is_some();
        Worker {
            game,
            cx,
            history,
            keys,
            counts: Counts::default(),
            reported: Counts::default(),
            seldepth: 0,
            stopped: false,
            iteration: 0,
            superseded: false,
            root_best: None,
            root_excluded: Vec::new(),
            main,
            track_keys,
            cuts: 0,
            rulings: 0,
        }
    }

    /// Iterative deepening from `first_depth` to the shared maximum. Each completed iteration is published to
    /// the other threads; the main thread reports the deepest one so far to `on_iteration`. A thread never
    /// starts a depth another thread has completed, so a thread that falls behind catches up.
    ///
    /// With [several lines](super::Request::lines) asked for, each iteration searches the root once per line,
    /// each time without the first moves of the lines found before (as Stockfish does), then orders the lines
    /// by score; the iteration is complete when every line is.
    pub fn iterate(
        &mut self,
        stack: &mut [Frame<G::Move>],
        first_depth: u32,
        on_iteration: &mut dyn FnMut(&Completed<G::Move>, Counts),
    ) {
        let shared = self.cx.shared;
        let line_count = self.root_line_count();
        let mut depth = first_depth;
        let mut reported_depth = 0;
        loop {
            depth = depth.max(shared.best_depth() + 1);
            if depth > shared.max_depth {
                break;
            }
            let last = shared.best().map(|b| b.lines).unwrap_or_default();
            let mut lines: Vec<Line<G::Move>> = Vec::with_capacity(line_count);
            let mut exact = true;
            self.iteration = depth;
            self.root_excluded.clear();
            for k in 0..line_count {
                let cuts = self.cuts;
                self.root_best = None;
                let score = self.aspiration(stack, depth as i32, last.get(k).map(|l| l.score));
                if self.stopped {
                    break;
                }
                // No line was cut short, or a win or loss was proved within the horizon (a quicker one would
                // have shown): the value is the game's, and deeper iterations would repeat it.
                let proved = score::plies_to_end(score).is_some_and(|p| p.unsigned_abs() <= depth);
                exact &= self.cuts == cuts || proved;
                let mut pv = stack[0].pv.clone();
                let Some(best) = self.root_best.or_else(|| pv.first().copied()) else { break };
                if pv.first() != Some(&best) {
                    pv = vec![best];
                }
                self.root_excluded.push(G::move_code(best));
                lines.push(Line { score, pv });
            }
            self.root_excluded.clear();
            let superseded = self.superseded && !shared.stop.load(Relaxed);
            if self.stopped && !superseded {
                break;
            }
            if superseded {
                // Another thread completed this depth: move on to the next without publishing.
                (self.stopped, self.superseded) = (false, false);
            } else {
                // A line searched later can score above an earlier one when pruning or the table made the
                // earlier one's value a guess; the best first (stable, so that ties keep the order they were
                // found in).
                lines.sort_by_key(|l| std::cmp::Reverse(l.score));
                let Some(first) = lines.first() else { break };
                let (score, pv) = (first.score, first.pv.clone());
                let best_move = pv.first().copied();
                shared.publish(Completed { depth, seldepth: self.seldepth, score, exact, best_move, pv, lines });
                if exact || depth >= shared.max_depth || shared.soft_time_passed() {
                    shared.stop.store(true, Relaxed);
                }
            }
            if self.main {
                self.flush();
                if let Some(best) = shared.best().filter(|b| b.depth > reported_depth) {
                    reported_depth = best.depth;
                    on_iteration(&best, self.counts);
                }
            }
            if shared.stop.load(Relaxed) {
                break;
            }
            depth += 1;
        }
        self.flush();
    }

    /// How many lines an iteration searches: the lines asked for, at most the moves the root may play.
    fn root_line_count(&self) -> usize {
        let wanted = self.cx.lines;
        if wanted == 1 {
            return 1;
        }
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        self.restrict_root(&mut moves);
        moves.len().clamp(1, wanted)
    }

    /// Whether the root is searched with fewer moves than the game allows: `searchmoves`, or the moves of the
    /// lines found before (MultiPV).
    #[inline]
    pub(super) fn root_is_restricted(&self) -> bool {
        !self.cx.root_moves.is_empty() || !self.root_excluded.is_empty()
    }

    /// Keeps the root moves the search may play: those asked for (if any of them is legal), less the ones
    /// excluded.
    pub(super) fn restrict_root(&self, moves: &mut Vec<G::Move>) {
        keep_allowed::<G>(moves, self.cx.root_moves);
        if !self.root_excluded.is_empty() {
            moves.retain(|&m| !self.root_excluded.contains(&G::move_code(m)));
        }
    }

    /// One iteration, inside a window around the last score that widens until the score falls inside it.
    fn aspiration(&mut self, stack: &mut [Frame<G::Move>], depth: i32, last: Option<Score>) -> Score {
        let root = Kind::ROOT;
        let width = self.cx.options.aspiration.filter(|_| depth >= 4);
        let (Some(width), Some(last)) = (width, last.filter(|&s| !is_decisive(s))) else {
            return self.negamax(stack, depth, 0, -INFINITY, INFINITY, root);
        };
        let mut delta = width.max(1);
        let (mut alpha, mut beta) = ((last - delta).max(-INFINITY), (last + delta).min(INFINITY));
        loop {
            let score = self.negamax(stack, depth, 0, alpha, beta, root);
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

    /// Reports this thread's counts to the shared totals.
    pub fn flush(&mut self) {
        self.cx.shared.report(&self.counts, &mut self.reported);
    }

    /// Counts a node and every [`CHECK_EVERY`] nodes looks at the limits.
    #[inline(always)]
    pub fn count_node(&mut self) {
        self.counts.nodes += 1;
        if self.counts.nodes & (CHECK_EVERY - 1) == 0 {
            self.flush();
            if self.cx.shared.must_stop() {
                self.stopped = true;
            } else if self.iteration > 0 && self.cx.shared.best_depth() >= self.iteration {
                (self.stopped, self.superseded) = (true, true);
            }
        }
    }

    /// The ruling on the current position if it repeats one within the reversible window, same side to move.
    fn repetition(&mut self) -> Option<Outcome> {
        let window = self.game.reversible_plies()?;
        let key = self.game.key();
        let n = self.keys.len();
        let back = (2..=window.min(n)).step_by(2).find(|&back| self.keys[n - back] == key)?;
        // A repetition is decided by the path, not the position: never a proved value.
        self.cuts += 1;
        let outcome = self.game.repetition_outcome(back);
        if outcome != Outcome::Draw {
            self.rulings += 1;
        }
        Some(outcome)
    }

    /// Makes a move on the search's board, keeping the path's keys.
    #[inline(always)]
    pub fn play(&mut self, mv: G::Move) {
        if self.track_keys {
            self.keys.push(self.game.key());
        }
        self.game.play(mv);
    }

    /// Takes a move back.
    #[inline(always)]
    pub fn undo(&mut self, mv: G::Move) {
        self.game.undo(mv);
        if self.track_keys {
            self.keys.pop();
        }
    }

    /// Counts a node and returns its score if the search ends here: stopped (0), game over, or a repetition.
    #[inline(always)]
    pub(super) fn enter_node(&mut self, ply: u32) -> Option<Score> {
        self.count_node();
        if self.stopped {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(outcome) = super::node::line_outcome(&self.game, ply) {
            return Some(outcome.score_at(ply));
        }
        if ply > 0 && self.track_keys {
            if let Some(ruling) = self.repetition() {
                return Some(ruling.score_at(ply));
            }
        }
        None
    }

    /// The table key and probe of the current position, if the table is on; counts the probe and the hit.
    #[inline(always)]
    pub(super) fn probe(&mut self, ply: u32) -> Option<(TableKey, Probe)> {
        if !self.cx.options.table {
            return None;
        }
        let tk = self.game.table_key();
        self.counts.probes += 1;
        let probe = self.cx.table.probe(tk.key, ply);
        self.counts.hits += probe.hit.is_some() as u64;
        Some((tk, probe))
    }

    /// Takes the `score` of `mv`, a move of the node at `ply`, into the node's `tally`; a new best root move
    /// beyond the window's lower end becomes the iteration's best.
    #[inline(always)]
    pub(super) fn take(&mut self, tally: &mut Tally<G::Move>, ply: u32, mv: G::Move, score: Score) -> Taken {
        let taken = Taken::fail_soft(score, &mut tally.best, &mut tally.alpha, tally.beta);
        if taken != Taken::Nothing {
            tally.best_move = Some(mv);
            if ply == 0 && score > tally.alpha_orig {
                self.root_best = Some(mv);
            }
        }
        taken
    }

    /// With `mv`, the `i`-th move of a node, just played: starts fetching the child's table bucket
    /// (`prefetch`, as the child probes the table first thing) and, where the node defers moves (`marks`),
    /// marks the child busy, unless another thread has marked it: then the move is taken back and deferred,
    /// and `None` returned. Otherwise the key marked busy, if any, for [`leave_child`](Self::leave_child).
    #[inline(always)]
    pub(super) fn claim_child(
        &mut self,
        frame: &mut Frame<G::Move>,
        i: usize,
        mv: G::Move,
        prefetch: bool,
        marks: bool,
    ) -> Option<Option<Key>> {
        if !prefetch && !marks {
            return Some(None);
        }
        let key = self.game.table_key().key;
        if prefetch {
            self.cx.table.prefetch(key);
        }
        if !marks {
            return Some(None);
        }
        if self.cx.shared.is_busy(key) {
            self.undo(mv);
            frame.deferred.push((i, mv));
            return None;
        }
        self.cx.shared.set_busy(key, true);
        Some(Some(key))
    }

    /// Takes back `mv` after its child's search, clearing the child's busy mark (`busy`).
    #[inline(always)]
    pub(super) fn leave_child(&mut self, mv: G::Move, busy: Option<Key>) {
        if let Some(key) = busy {
            self.cx.shared.set_busy(key, false);
        }
        self.undo(mv);
    }

    /// At the root, once its moves are searched: the best move, if no move beat the window, is still the
    /// iteration's best, with itself as the line.
    #[inline]
    pub(super) fn settle_root(&mut self, ply: u32, frame: &mut Frame<G::Move>, best_move: Option<G::Move>) {
        if ply == 0 && self.root_best.is_none() {
            self.root_best = best_move;
            if frame.pv.is_empty() {
                frame.pv.extend(best_move);
            }
        }
    }

    /// Stores the node's result from `tally` in the table slot `probe` found, with its bound, its static
    /// evaluation `eval` and whether it is `proven`, unless it is not `storable` (it rests on a repetition
    /// ruling, or the node was not the position: a restricted root, a node leaving a move out).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store_result(
        &self,
        probe: Option<(TableKey, Probe)>,
        storable: bool,
        ply: u32,
        depth: i32,
        tally: &Tally<G::Move>,
        eval: Option<Score>,
        proven: bool,
    ) {
        let (Some((tk, probe)), true) = (probe, storable) else { return };
        // (Exact only strictly inside the window, possible only when it is wider than a null window.)
        let move_code = tally.best_move.map(|m| G::canonical_move_code(G::move_code(m), tk.symmetry));
        let Tally { best, alpha_orig, beta, .. } = *tally;
        let record = Record { eval, ..Record::searched(depth, best, alpha_orig, beta, move_code, proven) };
        self.cx.table.store(probe.slot, tk.key, ply, record);
    }

    /// Fills `scores` with an ordering score for each move (see [`ordering`](super::ordering)). Given
    /// `pending`, a move the evaluator hints at [`DEFERRED`] is scored as if hinted 0 and recorded there;
    /// without, its hint is worked out now.
    #[inline]
    pub(super) fn score_moves(
        &self,
        moves: &[G::Move],
        scores: &mut Vec<i32>,
        mut pending: Option<&mut Pending>,
        quiet: &QuietOrder,
    ) {
        let QuietOrder { killers, counter, side, preceding } = *quiet;
        let options = self.cx.options;
        let killers = if FULL && options.killers { killers } else { [NO_CODE; 2] };
        let history = options.history;
        let start = scores.len();
        match pending {
            Some(_) => self.cx.evaluator.move_orders(&self.game, moves, scores),
            None => self.hints(moves, scores),
        }
        for (k, (&mv, score)) in moves.iter().zip(&mut scores[start..]).enumerate() {
            let code = G::move_code(mv);
            let mut hint = *score;
            // (Only given `pending`: `hints` worked the others out.)
            if let (DEFERRED, Some(pending)) = (hint, pending.as_mut()) {
                pending.push(k);
                hint = 0;
            }
            let continuation = preceding.map(|p| (p, self.game.piece_to(mv)));
            let h = if history { self.history.quiet(side, code, continuation) } else { 0 };
            *score = move_score(hint, code, &killers, counter, h);
        }
    }

    /// The evaluator's hints of `moves` appended to `hints`, [`DEFERRED`] ones worked out.
    #[inline]
    pub(super) fn hints(&self, moves: &[G::Move], hints: &mut Vec<i32>) {
        let start = hints.len();
        self.cx.evaluator.move_orders(&self.game, moves, hints);
        for (&mv, hint) in moves.iter().zip(&mut hints[start..]) {
            if *hint == DEFERRED {
                *hint = self.cx.evaluator.move_order(&self.game, mv);
            }
        }
    }

    /// Updates killers, history, counter moves and (given the moves `preceding`) the continuation history
    /// after the move at `frame.moves[i]` caused a cutoff, the opponent's move before being `prev`; the moves
    /// before it lose history. With [`quiet_rewards`](SearchOptions::quiet_rewards), only a quiet move counts,
    /// and only the quiet moves before it lose.
    pub(super) fn reward(
        &mut self,
        frame: &mut Frame<G::Move>,
        i: usize,
        depth: i32,
        side: usize,
        prev: u16,
        preceding: Option<&Preceding>,
    ) {
        let (evaluator, game) = (self.cx.evaluator, &self.game);
        let mv = frame.moves[i];
        let quiet_only = self.cx.options.quiet_rewards;
        if quiet_only && evaluator.is_tactical(game, mv) {
            return;
        }
        // A move's code and, for the continuation history only, its piece-to code.
        let entry = |m| (G::move_code(m), if preceding.is_some() { game.piece_to(m) } else { NO_CODE });
        let tried = frame.moves[..i].iter().filter(|&&m| !quiet_only || !evaluator.is_tactical(game, m));
        let cut = entry(mv);
        let code = cut.0;
        if self.cx.options.history {
            self.history.reward(side, preceding, cut, tried.map(|&m| entry(m)), depth);
        }
        if self.cx.options.killers {
            add_killer(&mut frame.killers, code);
        }
        if self.cx.options.counter_moves {
            self.history.set_counter(side, prev, code);
        }
    }

    /// Whether the continuation history is on and the game names its moves' piece and destination.
    pub(super) fn follows_continuations(&self) -> bool {
        let options = self.cx.options;
        options.history && options.continuation_history && G::PIECE_TO_CODES > 0
    }
}

/// The iteration a search may go to under `limits`: the depth limit, else [`MAX_PLY`] - 1.
pub(super) fn max_depth(limits: &Limits) -> u32 {
    limits.depth.unwrap_or(MAX_PLY).clamp(1, MAX_PLY - 1)
}
