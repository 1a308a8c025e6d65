//! One thread's search: iterative deepening, aspiration windows, negamax alpha-beta with the table and
//! quiescence.
//!
//! A [`Worker`] is generic over `FULL`: the full search reads every option, the lean one
//! (`FULL = false`, chosen when [`SearchOptions::is_lean`] holds) compiles out everything but the table,
//! principal variation search and aspiration windows, so that a node pays for no feature that is off.
//!
//! Every node keeps count of the lines it cut short ([`Worker::cuts`]): a leaf evaluated at the horizon, a
//! pruning that guesses, a table cutoff on a result that was itself cut short, a repetition. A node that
//! added none has a proved value; it is stored as such and used at any depth, and an iteration whose root
//! cut nothing is exact and ends the search.

use super::limits::Limits;
use super::options::SearchOptions;
use super::ordering::{
    add_killer, lmr_reduction, move_score, History, MovePicker, Pending, Preceding, QuietOrder, NO_PRECEDING,
};
use super::result::Line;
use super::shared::{Completed, Counts, Shared, CHECK_EVERY, DEFER_DEPTH};
use super::stack::{split, update_pv, Frame, NO_CODE};
use crate::game::{Evaluator, Game, Outcome, TableKey, WinningMove, DEFERRED, PRIORITY};
use crate::score::{self, is_decisive, loss_in, win_in, Score, INFINITY, MAX_PLY};
use crate::tt::{Bound, Probe, Record, TranspositionTable};
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
    /// The parent chose the move among its [non-losing moves](Game::non_losing_moves): this node has no win
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
    /// With [`multi_pv`](SearchOptions::multi_pv) above one, each iteration searches the root once per line,
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
        let wanted = self.cx.options.multi_pv.max(1);
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
        if let Some(outcome) = super::line_outcome(&self.game, ply) {
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

    /// Fail-soft negamax: the score of the position searched `depth` plies deep within (`alpha`, `beta`).
    pub fn negamax(
        &mut self,
        stack: &mut [Frame<G::Move>],
        mut depth: i32,
        ply: u32,
        mut alpha: Score,
        mut beta: Score,
        kind: Kind,
    ) -> Score {
        debug_assert!(-INFINITY <= alpha && alpha < beta && beta <= INFINITY);
        let options = self.cx.options;

        // Step 1. The horizon; count the node; stop; game over; repetition.
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.horizon(stack, ply, alpha, beta);
        }
        if !FULL {
            return self.lean(stack, depth, ply, alpha, beta, kind.pv);
        }
        if kind.pv {
            stack[0].pv.clear();
        }
        if let Some(score) = self.enter_node(ply) {
            return score;
        }
        let (cuts_at_entry, rulings_at_entry) = (self.cuts, self.rulings);

        // Step 2. Mate distance pruning: nothing can beat a win on the next ply or lose before this one.
        alpha = alpha.max(loss_in(ply));
        beta = beta.min(win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Step 3. The table: its move goes first; at non-PV nodes a deep enough bound that decides ends the node.
        // (A node leaving a move out is not the position the table knows: it neither cuts off on the entry
        // nor stores, nor runs the game's tactics or a null move.)
        let excluding = FULL && kind.excluded != NO_CODE;
        let probe = if depth >= options.table_depth { self.probe(ply) } else { None };
        let mut table_code = NO_CODE;
        let mut static_eval = None;
        if let Some((tk, Probe { hit: Some(e), .. })) = probe {
            static_eval = e.eval;
            if let Some(code) = e.move_code.filter(|_| !excluding) {
                table_code = G::actual_move_code(code, tk.symmetry);
            }
            if !kind.pv && ply > 0 && !excluding && e.reaches(depth) && e.decides(alpha, beta) {
                self.counts.cutoffs += 1;
                self.cuts += !e.proven as u64;
                return e.score;
            }
        }

        // Step 3b. Singular extension: when no other move comes near the table move's stored lower bound (a
        // search without it, half as deep, fails low under the bound less a margin), the table move is
        // searched a ply deeper; when that search beats beta anyway, several moves do, and the node is cut.
        // The table move's extension: a ply deeper where it is singular, a ply shallower (with
        // `singular_reduction`) where it is not and its bound beats beta.
        let mut table_extension = 0;
        if let (Some(min_depth), Some((_, Probe { hit: Some(e), .. }))) = (options.singular_depth, probe) {
            // (At least a ply of search without the move: the horizon's quiescence would not leave it out.)
            let candidate = FULL && ply > 0 && !excluding && depth >= min_depth.max(3) && table_code != NO_CODE;
            if candidate && e.bound != Bound::Upper && e.depth as i32 >= depth - 3 && !is_decisive(e.score) {
                let singular_beta = e.score - options.singular_margin * depth;
                let without = Kind { pv: false, excluded: table_code, ..kind };
                let score = self.negamax(stack, (depth - 1) / 2, ply, singular_beta - 1, singular_beta, without);
                if self.stopped {
                    return 0;
                }
                if score < singular_beta {
                    table_extension = 1;
                } else if singular_beta >= beta {
                    self.cuts += 1;
                    return singular_beta;
                } else if options.singular_reduction && e.score >= beta {
                    table_extension = -1;
                }
            }
        }

        // Step 3c. Razoring: far enough below alpha near the horizon, a node whose quiescence search cannot
        // reach alpha either is taken to fail low.
        let in_check = FULL && self.game.in_check();
        let razoring = FULL && !kind.pv && ply > 0 && !in_check && !excluding && depth <= options.razor_depth;
        if let Some(margin) = options.razor_margin.filter(|_| razoring && !is_decisive(alpha)) {
            if self.static_eval(&mut static_eval) + margin * depth < alpha {
                let score = self.quiescence_entered(stack, ply, alpha, alpha + 1);
                if self.stopped {
                    return 0;
                }
                if score <= alpha && !is_decisive(score) {
                    self.cuts += 1;
                    return score;
                }
            }
        }
        let (frame, below) = split(stack);

        // Step 4. The game's tactics: win at once; keep only the moves that do not lose at once; the
        // evaluator's winning plan.
        frame.moves.clear();
        // Whether `frame.moves` already holds the moves, and whether none of them lets the opponent win at once.
        let (mut generated, mut safe_children) = (false, false);
        // (A restricted root keeps to its moves: the hooks would offer others.)
        if FULL && options.tactics && !excluding && !(ply == 0 && self.root_is_restricted()) {
            let win_now = if kind.safe { WinningMove::NoneExists } else { self.game.winning_move() };
            match win_now {
                WinningMove::Found(mv) => {
                    if ply == 0 {
                        self.root_best = Some(mv);
                    }
                    if kind.pv {
                        frame.pv.push(mv);
                    }
                    return win_in(ply + 1);
                }
                WinningMove::NoneExists => {
                    beta = beta.min(win_in(ply + 3));
                    if alpha >= beta {
                        return beta;
                    }
                }
                WinningMove::NotChecked => {}
            }
            // (At one ply from the horizon the replies are leaves, so restricting them would change values,
            // except where checks are extended anyway.)
            if depth >= 2 || (in_check && options.check_extension) {
                if let Some(n) = self.game.non_losing_moves(&mut frame.moves) {
                    (generated, safe_children) = (true, true);
                    if n == 0 {
                        if ply == 0 {
                            self.game.legal_moves(&mut frame.moves);
                            self.root_best = frame.moves.first().copied();
                            frame.pv.extend(self.root_best);
                        }
                        return loss_in(ply + 2);
                    }
                    // Some move does not lose at once, so the earliest loss is four plies away.
                    alpha = alpha.max(loss_in(ply + 4));
                    if alpha >= beta {
                        return alpha;
                    }
                }
            }
            if depth >= 2 && !in_check {
                let mut planned = false;
                let plan = if depth >= options.plan_depth { self.cx.evaluator.winning_plan(&self.game) } else { None };
                if let Some(plan) = plan {
                    if !generated || frame.moves.contains(&plan) {
                        frame.moves.clear();
                        frame.moves.push(plan);
                        (generated, planned) = (true, true);
                        // The plan proves a win, not the quickest one: the value is the evaluator's.
                        self.cuts += 1;
                    }
                }
                // The replies follow the moves already listed, which then give way to them.
                let listed = frame.moves.len();
                if !planned && self.cx.evaluator.threat_replies(&self.game, &mut frame.moves).is_some_and(|n| n > 0) {
                    frame.moves.drain(..listed);
                    generated = true;
                    // The moves left out lose, though maybe not within the depth left: the value is the
                    // evaluator's.
                    self.cuts += 1;
                }
            }
        }

        // Step 5. Whether the side to move stands better than two plies before (unknown counts as better):
        // where it does not, reverse futility asks a margin more (and late moves may be reduced more, step 9).
        // Reverse futility: far enough above beta near the horizon, assume a move keeps it there.
        let mut improving = true;
        if FULL && options.improving {
            let eval = (!in_check).then(|| self.static_eval(&mut static_eval));
            if let (Some(eval), Some(before)) = (eval, frame.eval_before) {
                improving = eval > before;
            }
            if let Some(grandchildren) = below.get_mut(1) {
                grandchildren.eval_before = eval;
            }
        }
        let prunable = FULL && !kind.pv && ply > 0 && !in_check && !is_decisive(beta);
        // (A node leaving a move out is not the position whose score the table holds.)
        let table_bound = match probe {
            Some((_, Probe { hit: Some(e), .. })) if options.table_eval && !excluding && !is_decisive(e.score) => {
                Some((e.score, e.bound))
            }
            _ => None,
        };
        if let Some(margin) = options.futility_margin.filter(|_| prunable && depth <= options.futility_depth) {
            let eval = beyond(self.static_eval(&mut static_eval), table_bound);
            if eval - margin * (depth + !improving as i32) >= beta {
                self.cuts += 1;
                return eval;
            }
        }

        // Step 6. Null move: if passing still fails high, a real move will too.
        if FULL && options.null_move && prunable && !excluding && depth >= 3 {
            if let Some(null) = self.game.null_move() {
                let eval = beyond(self.static_eval(&mut static_eval), table_bound);
                if eval >= beta {
                    let above = options.null_move_eval_step.map_or(0, |step| ((eval - beta) / step.max(1)).min(3));
                    let reduction = options.null_move_reduction + depth / 4 + above;
                    self.play(null);
                    let after_null = Kind { cut: !kind.cut, ..Kind::AFTER_NULL };
                    let score = -self.negamax(below, depth - 1 - reduction, ply + 1, -beta, -beta + 1, after_null);
                    self.undo(null);
                    if self.stopped {
                        return 0;
                    }
                    if score >= beta {
                        self.cuts += 1;
                        return if is_decisive(score) { beta } else { score };
                    }
                }
            }
        }

        // Step 6b. ProbCut: a noisy move whose search four plies shallower beats beta by a margin would very
        // likely beat beta at full depth too. (Not where the game's tactics chose the moves, nor where the table
        // holds a score below that bar from a search nearly as deep.)
        let probcut = prunable && !excluding && !generated && depth >= options.probcut_depth;
        if let Some(margin) = options.probcut_margin.filter(|_| probcut) {
            let probcut_beta = beta + margin;
            let table_below = matches!(probe, Some((_, Probe { hit: Some(e), .. }))
                if e.depth as i32 >= depth - 3 && e.score < probcut_beta);
            if !is_decisive(probcut_beta) && !table_below {
                if let Some(score) = self.probcut(frame, below, depth, ply, probcut_beta, kind) {
                    self.cuts += 1;
                    // (A win found on the way keeps its distance.)
                    return if is_decisive(score) { score } else { score - margin };
                }
                if self.stopped {
                    return 0;
                }
            }
        }

        // Step 7. No table move this far from the horizon: search a ply shallower.
        if FULL && options.iir && depth >= options.iir_depth && table_code == NO_CODE && ply > 0 {
            depth -= 1;
        }

        // Step 8. The moves; the root's restricted to the ones asked for; children's table entries fetched
        // ahead, and looked up for a cutoff (enhanced transposition cutoffs).
        if !generated {
            self.game.legal_moves(&mut frame.moves);
        }
        if ply == 0 && self.root_is_restricted() {
            self.restrict_root(&mut frame.moves);
        }
        debug_assert!(!frame.moves.is_empty(), "a game that is not over has a legal move");
        if let (Some((tk, probe)), true) = (probe, depth > options.table_depth.max(1) && frame.moves.len() > 1) {
            if self.game.child_table_key(frame.moves[0]).is_some() {
                for &mv in &frame.moves {
                    if let Some(key) = self.game.child_table_key(mv) {
                        self.cx.table.prefetch(key);
                    }
                }
                if FULL && options.etc && !kind.pv && !excluding && depth >= options.etc_depth {
                    if let Some(score) = self.enhanced_cutoff(frame, ply, depth, beta, tk, probe) {
                        return score;
                    }
                }
            }
        }

        // Step 9. Search the moves, best first; PVS searches all but the first with a null window, late quiet
        // moves (with LMR) shallower first.
        let mut picker = MovePicker::new(&mut frame.moves, table_code, G::move_code);
        let side = (ply & 1) as usize;
        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        // Whether a move's quietness matters (computing it costs a killer lookup and a hook call).
        let judges_quiet = FULL && (options.lmr || options.late_move_pruning || options.move_futility_margin.is_some());
        let child = Kind::child(safe_children);
        let counter = if options.counter_moves { self.history.counter(side, kind.prev) } else { NO_CODE };
        let continuation = FULL && self.follows_continuations();
        // With several threads, a move whose position another thread is searching comes after the others
        // (simplified ABDADA; see the lean search).
        let defer = SMP && depth >= DEFER_DEPTH;
        if defer {
            frame.deferred.clear();
        }
        let mut next_deferred = 0;
        loop {
            let killers = frame.killers;
            let preceding = continuation.then_some(&kind.preceding);
            let (i, mv, first_pass) = if let Some((i, mv)) = picker.next(
                &mut frame.moves,
                &mut frame.scores,
                |moves, scores, pending| {
                    let quiet = QuietOrder { killers, counter, side, preceding };
                    self.score_moves(moves, scores, pending, &quiet)
                },
                |mv| self.cx.evaluator.move_order(&self.game, mv),
            ) {
                (i, mv, true)
            } else if defer && next_deferred < frame.deferred.len() {
                next_deferred += 1;
                let (i, mv) = frame.deferred[next_deferred - 1];
                (i, mv, false)
            } else {
                break;
            };
            let code = G::move_code(mv);
            if excluding && code == kind.excluded {
                continue;
            }
            let piece_to = if continuation { self.game.piece_to(mv) } else { NO_CODE };
            let child = child.after(code, piece_to, &kind);
            let killer = options.killers && killers.contains(&code);
            let quiet = judges_quiet && !in_check && !killer && !self.cx.evaluator.is_tactical(&self.game, mv);

            // Step 9a. Late quiet moves at shallow non-PV nodes, once some move has been found that does not
            // lose: skip those that come too late, or that cannot lift a poor static evaluation to alpha.
            if quiet && prunable && best_move.is_some() && !(is_decisive(best) && best < 0) {
                if options.late_move_pruning && depth <= options.lmp_depth && i >= 3 + (depth * depth) as usize {
                    self.cuts += 1;
                    continue;
                }
                if let Some(margin) = options.move_futility_margin.filter(|_| depth <= options.futility_depth) {
                    let eval = self.static_eval(&mut static_eval);
                    if eval + margin * (depth + 1) <= alpha {
                        self.cuts += 1;
                        continue;
                    }
                }
            }

            // Losing moves (by the evaluator's hint) near the horizon, likewise.
            if let (Some(limit), true) = (options.losing_move_pruning, prunable && best_move.is_some()) {
                let losing = picker.score_of(i, frame.moves.len(), &frame.scores).is_some_and(|s| s <= -PRIORITY);
                if losing && depth <= limit && !(is_decisive(best) && best < 0) {
                    self.cuts += 1;
                    continue;
                }
            }

            // Step 9b. Search it.
            self.play(mv);
            let gives_check = FULL && options.check_extension && self.game.in_check();
            let extension =
                if code == table_code && table_extension != 0 { table_extension } else { gives_check as i32 };
            let new_depth = depth - 1 + extension;
            // The child probes the table first thing: start fetching its bucket now. Its key also marks it busy.
            let prefetch = options.table && new_depth >= options.table_depth;
            let marks = defer && first_pass && i > 0;
            let key = (prefetch || marks).then(|| self.game.table_key().key);
            if let (true, Some(key)) = (prefetch, key) {
                self.cx.table.prefetch(key);
            }
            let mut busy = None;
            if let (true, Some(key)) = (marks, key) {
                if self.cx.shared.is_busy(key) {
                    self.undo(mv);
                    frame.deferred.push((i, mv));
                    continue;
                }
                self.cx.shared.set_busy(key, true);
                busy = Some(key);
            }
            let score = if i == 0 || !options.pvs {
                // (Below a PV node the first move leads to a PV node; below any other, kinds alternate.)
                let first = Kind { pv: kind.pv, cut: !kind.pv && !kind.cut, ..child };
                -self.negamax(below, new_depth, ply + 1, -beta, -alpha, first)
            } else {
                let reducible = FULL
                    && options.lmr
                    && quiet
                    && !gives_check
                    && depth >= options.lmr_depth
                    && i >= options.lmr_moves + kind.pv as usize;
                // About ln(depth)·ln(index)/2, one less at PV nodes, one more where not improving (with
                // `lmr_improving`), less for a good history.
                let mut reduction = if reducible { lmr_reduction(depth, i) - kind.pv as i32 } else { 0 };
                if reducible && options.lmr_improving && !improving {
                    reduction += 1;
                }
                if let (true, true, Some(divisor)) = (reducible, options.history, options.lmr_history) {
                    let history = self.history.quiet(side, code, continuation.then_some((&kind.preceding, piece_to)));
                    reduction -= history / divisor.max(1);
                }
                if let (true, true, Some(more)) = (reducible, kind.cut, options.cut_node_reduction) {
                    reduction += more;
                }
                let reduction = reduction.min(new_depth - 1).max(0);
                // A reduced search expects the move to be refuted; a full-depth one alternates.
                let full = Kind { cut: !kind.cut, ..child };
                let first = if reduction > 0 { Kind { cut: true, ..child } } else { full };
                let mut s = -self.negamax(below, new_depth - reduction, ply + 1, -alpha - 1, -alpha, first);
                if s > alpha && reduction > 0 {
                    s = -self.negamax(below, new_depth, ply + 1, -alpha - 1, -alpha, full);
                }
                if s > alpha && s < beta && kind.pv {
                    -self.negamax(below, new_depth, ply + 1, -beta, -alpha, Kind { pv: true, ..child })
                } else {
                    s
                }
            };
            if let Some(key) = busy {
                self.cx.shared.set_busy(key, false);
            }
            self.undo(mv);
            if self.stopped {
                break;
            }

            // Step 9c. A new best move; a cutoff.
            if score > best {
                best = score;
                best_move = Some(mv);
                if ply == 0 && score > alpha_orig {
                    self.root_best = Some(mv);
                }
                if score > alpha {
                    alpha = score;
                    if kind.pv {
                        update_pv(frame, mv, below);
                    }
                    if alpha >= beta {
                        if options.killers || options.history || options.counter_moves {
                            let preceding = continuation.then_some(&kind.preceding);
                            // (The picker leaves each move where it handed it out.)
                            debug_assert!(frame.moves[i] == mv);
                            self.reward(frame, i, depth, side, kind.prev, preceding);
                        }
                        break;
                    }
                }
            }
        }
        if ply == 0 && self.root_best.is_none() {
            self.root_best = best_move;
            if frame.pv.is_empty() {
                frame.pv.extend(best_move);
            }
        }
        if self.stopped {
            return 0;
        }

        // Step 10. Teach the correction history how far the static evaluation was off, where the bound says
        // which way (a cutoff at or below the evaluation, or a fail-low at or above it, says nothing). Store the
        // result with its bound, unless it rests on a repetition ruling or is a restricted root's, which is
        // not the position's.
        if let (true, Some(raw)) = (FULL && options.correction_history && !in_check && !excluding, static_eval) {
            let quiet = best_move.map_or(true, |mv| !self.cx.evaluator.is_tactical(&self.game, mv));
            if let (true, Some(key)) = (quiet && !is_decisive(best), self.cx.evaluator.correction_key(&self.game)) {
                let eval = raw + self.history.correction(key);
                let (upper, lower) = (best <= alpha_orig, best >= beta);
                let says_nothing = (lower && best <= eval) || (upper && best >= eval);
                if !says_nothing {
                    self.history.learn_correction(key, best - raw, depth);
                }
            }
        }
        let storable = self.rulings == rulings_at_entry && !excluding && !(ply == 0 && self.root_is_restricted());
        if let (Some((tk, probe)), true) = (probe, storable) {
            // (Exact only strictly inside the window, possible only when it is wider than a null window.)
            let move_code = best_move.map(|m| G::canonical_move_code(G::move_code(m), tk.symmetry));
            let proven = self.cuts == cuts_at_entry;
            let record =
                Record { eval: static_eval, ..Record::searched(depth, best, alpha_orig, beta, move_code, proven) };
            self.cx.table.store(probe.slot, tk.key, ply, record);
        }
        best
    }

    /// The node's static evaluation, corrected (see [`corrected`](Self::corrected)): `raw` holds the
    /// evaluator's, from the table or computed here once (and then kept for the table).
    #[inline]
    fn static_eval(&self, raw: &mut Option<Score>) -> Score {
        let eval = *raw.get_or_insert_with(|| self.cx.evaluator.evaluate(&self.game));
        self.corrected(eval)
    }

    /// The evaluator's `eval` of the position, with the correction history's correction (with that option).
    #[inline]
    fn corrected(&self, eval: Score) -> Score {
        if !FULL || !self.cx.options.correction_history {
            return eval;
        }
        match self.cx.evaluator.correction_key(&self.game) {
            Some(key) => (eval + self.history.correction(key)).clamp(1 - score::DECISIVE, score::DECISIVE - 1),
            None => eval,
        }
    }

    /// Enhanced transposition cutoff: a child already known to be bad enough for the opponent refutes this node
    /// without a search. Returns the refutation's score.
    fn enhanced_cutoff(
        &mut self,
        frame: &Frame<G::Move>,
        ply: u32,
        depth: i32,
        beta: Score,
        tk: TableKey,
        probe: Probe,
    ) -> Option<Score> {
        for &mv in &frame.moves {
            let key = self.game.child_table_key(mv)?;
            let Some(e) = self.cx.table.probe(key, ply + 1).hit else {
                continue;
            };
            if e.reaches(depth - 1) && e.bound != Bound::Lower && -e.score >= beta {
                self.cuts += !e.proven as u64;
                let code = G::canonical_move_code(G::move_code(mv), tk.symmetry);
                let record = Record {
                    depth: depth.clamp(0, 255) as u8,
                    bound: Bound::Lower,
                    score: -e.score,
                    eval: None,
                    move_code: Some(code),
                    proven: e.proven,
                };
                self.cx.table.store(probe.slot, tk.key, ply, record);
                if ply == 0 {
                    self.root_best = Some(mv);
                }
                return Some(-e.score);
            }
        }
        None
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
    fn follows_continuations(&self) -> bool {
        let options = self.cx.options;
        options.history && options.continuation_history && G::PIECE_TO_CODES > 0
    }

    /// ProbCut's searches (step 6b of [`negamax`](Self::negamax)): the noisy moves, best first, each through
    /// quiescence and then, if that beats `probcut_beta`, four plies shallower than the node with a null window
    /// at `probcut_beta`. The first score at or above it, if any. Leaves `frame.moves` empty.
    fn probcut(
        &mut self,
        frame: &mut Frame<G::Move>,
        below: &mut [Frame<G::Move>],
        depth: i32,
        ply: u32,
        probcut_beta: Score,
        kind: Kind,
    ) -> Option<Score> {
        frame.moves.clear();
        self.cx.evaluator.noisy_moves(&self.game, &mut frame.moves);
        frame.scores.clear();
        self.hints(&frame.moves, &mut frame.scores);
        let continuation = self.follows_continuations();
        let mut found = None;
        for i in 0..frame.moves.len() {
            super::ordering::pick_best(&mut frame.moves, &mut frame.scores, i);
            let mv = frame.moves[i];
            let piece_to = if continuation { self.game.piece_to(mv) } else { NO_CODE };
            let child = Kind { cut: !kind.cut, ..Kind::child(false) }.after(G::move_code(mv), piece_to, &kind);
            self.play(mv);
            let mut score = -self.quiescence(below, ply + 1, -probcut_beta, -probcut_beta + 1);
            if score >= probcut_beta && !self.stopped {
                score = -self.negamax(below, depth - 4, ply + 1, -probcut_beta, -probcut_beta + 1, child);
            }
            self.undo(mv);
            if self.stopped {
                break;
            }
            if score >= probcut_beta {
                found = Some(score);
                break;
            }
        }
        frame.moves.clear();
        found
    }

    /// A node at the horizon: the lean search evaluates it, the full one runs quiescence.
    #[inline]
    fn horizon(&mut self, stack: &mut [Frame<G::Move>], ply: u32, alpha: Score, beta: Score) -> Score {
        // No line continues from the horizon: a parent copying this frame's line must not find an old one.
        stack[0].pv.clear();
        if FULL {
            return self.quiescence(stack, ply, alpha, beta);
        }
        self.leaf(ply)
    }

    /// The horizon: the static evaluation, or with quiescence on, noisy moves resolved with stand-pat. With
    /// check extension on, a side in check does not stand pat: it wins at once if it can, else every move that
    /// does not lose at once is searched.
    fn quiescence(&mut self, stack: &mut [Frame<G::Move>], ply: u32, alpha: Score, beta: Score) -> Score {
        if let Some(score) = self.enter_node(ply) {
            return score;
        }
        self.quiescence_entered(stack, ply, alpha, beta)
    }

    /// [`Worker::quiescence`] at a node already entered (counted, and found neither over nor repeated), as
    /// razoring's is.
    fn quiescence_entered(&mut self, stack: &mut [Frame<G::Move>], ply: u32, mut alpha: Score, beta: Score) -> Score {
        let options = self.cx.options;
        let (frame, below) = split(stack);
        let (cuts_at_entry, rulings_at_entry) = (self.cuts, self.rulings);
        // The table: a bound that decides ends the node; a stored evaluation saves computing it.
        let probe = if options.quiescence_table && options.quiescence { self.probe(ply) } else { None };
        let mut tt_eval = None;
        if let Some((_, Probe { hit: Some(e), .. })) = probe {
            if e.decides(alpha, beta) {
                self.counts.cutoffs += 1;
                self.cuts += !e.proven as u64;
                return e.score;
            }
            tt_eval = e.eval;
        }
        let in_check = options.check_extension && options.quiescence && ply < MAX_PLY - 1 && self.game.in_check();
        if in_check && options.tactics {
            if let WinningMove::Found(_) = self.game.winning_move() {
                return win_in(ply + 1);
            }
        }
        let static_eval =
            if in_check { None } else { Some(tt_eval.unwrap_or_else(|| self.cx.evaluator.evaluate(&self.game))) };
        let stand_pat = static_eval.map_or(-INFINITY, |eval| self.corrected(eval));
        if !options.quiescence || stand_pat >= beta || ply >= MAX_PLY - 1 {
            self.cuts += 1;
            if let (Some((tk, probe)), true) = (probe, stand_pat >= beta && stand_pat > -INFINITY) {
                let record = Record {
                    depth: 0,
                    bound: Bound::Lower,
                    score: stand_pat,
                    eval: static_eval,
                    move_code: None,
                    proven: false,
                };
                self.cx.table.store(probe.slot, tk.key, ply, record);
            }
            return stand_pat;
        }
        if !in_check {
            // Standing pat is a guess about the quiet moves left out.
            self.cuts += 1;
        }
        let alpha_orig = alpha;
        alpha = alpha.max(stand_pat);
        frame.moves.clear();
        if in_check {
            let listed = if options.tactics { self.game.non_losing_moves(&mut frame.moves) } else { None };
            match listed {
                Some(0) => return loss_in(ply + 2),
                Some(_) => {}
                None => self.game.legal_moves(&mut frame.moves),
            }
        } else {
            self.cx.evaluator.noisy_moves(&self.game, &mut frame.moves);
        }
        if frame.moves.is_empty() {
            // (In check without a move: the game's outcome, which `enter_node` reports before we get here.)
            return stand_pat;
        }
        frame.scores.clear();
        self.hints(&frame.moves, &mut frame.scores);
        let mut best = stand_pat;
        for i in 0..frame.moves.len() {
            super::ordering::pick_best(&mut frame.moves, &mut frame.scores, i);
            let mv = frame.moves[i];
            // Delta pruning: a capture that cannot reach alpha even with a margin to spare, unless it checks.
            let reach = match (options.quiescence_delta, in_check) {
                (Some(delta), false) => {
                    self.cx.evaluator.noisy_gain(&self.game, mv).map(|gain| stand_pat + gain + delta)
                }
                _ => None,
            };
            self.play(mv);
            if let Some(reach) = reach.filter(|&reach| reach <= alpha && !self.game.in_check()) {
                self.undo(mv);
                self.cuts += 1;
                best = best.max(reach);
                continue;
            }
            let score = -self.quiescence(below, ply + 1, -beta, -alpha);
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
        // (A check answered in quiescence can repeat a position: a ruling on it holds only on this path.)
        let ruled = self.rulings != rulings_at_entry;
        if let Some((tk, probe)) = probe.filter(|_| !self.stopped && !ruled && best > -INFINITY) {
            let proven = self.cuts == cuts_at_entry;
            let record = Record { eval: static_eval, ..Record::searched(0, best, alpha_orig, beta, None, proven) };
            self.cx.table.store(probe.slot, tk.key, ply, record);
        }
        best
    }
}

/// The evaluation `eval`, or the table's score where its bound (`table_bound`: score and bound) says the
/// searched score lies beyond it.
#[inline]
fn beyond(eval: Score, table_bound: Option<(Score, Bound)>) -> Score {
    match table_bound {
        Some((score, bound)) if (bound != Bound::Upper && score > eval) || (bound != Bound::Lower && score < eval) => {
            score
        }
        _ => eval,
    }
}

/// The iteration a search may go to under `limits`: the depth limit, else [`MAX_PLY`] - 1.
pub(super) fn max_depth(limits: &Limits) -> u32 {
    limits.depth.unwrap_or(MAX_PLY).clamp(1, MAX_PLY - 1)
}
