//! The full search's node: [`Worker::negamax`], fail-soft negamax with the table and every option the
//! [`SearchOptions`](super::SearchOptions) turn on, signposted step by step, and what only it uses (the
//! corrected static evaluation, enhanced transposition cutoffs, ProbCut).

use super::node::{mate_distance, Taken};
use super::ordering::{late_move_count, lmr_reduction, MovePicker, QuietOrder};
use super::shared::DEFER_DEPTH;
use super::stack::{split, update_pv, Frame, NO_CODE};
use super::worker::{Kind, Tally, Worker};
use crate::game::{Evaluator, Game, HookedEvaluator, HookedGame, TableKey, WinningMove, PRIORITY};
use crate::score::{self, is_decisive, loss_in, win_in, Score, INFINITY, MAX_PLY};
use crate::tt::{Bound, Probe, Record};

impl<G: Game, E: Evaluator<G>, const FULL: bool, const SMP: bool> Worker<'_, G, E, FULL, SMP> {
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

        // Step 2. Mate distance pruning.
        if let Some(score) = mate_distance(ply, &mut alpha, &mut beta) {
            return score;
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
        let mut tally = Tally::new(alpha, beta);
        // Whether a move's quietness matters (computing it costs a killer lookup and a hook call).
        let judges_quiet = FULL && (options.lmr || options.late_move_pruning || options.move_futility_margin.is_some());
        let child = Kind::child(safe_children);
        let counter = if options.counter_moves { self.history.counter(side, kind.prev) } else { NO_CODE };
        let continuation = FULL && self.follows_continuations();
        // Late-move pruning's count at this node, worked out when a move first could be pruned.
        let mut lmp_limit = None;
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
            if quiet && prunable && tally.best_move.is_some() && !(is_decisive(tally.best) && tally.best < 0) {
                let pruning = options.late_move_pruning && depth <= options.lmp_depth;
                if pruning
                    && i >= *lmp_limit.get_or_insert_with(|| {
                        late_move_count(depth, options.lmp_power, options.lmp_improving && !improving)
                    })
                {
                    self.cuts += 1;
                    continue;
                }
                if let Some(margin) = options.move_futility_margin.filter(|_| depth <= options.futility_depth) {
                    let eval = self.static_eval(&mut static_eval);
                    if eval + margin * (depth + 1) <= tally.alpha {
                        self.cuts += 1;
                        continue;
                    }
                }
            }

            // Losing moves (by the evaluator's hint) near the horizon, likewise.
            if let (Some(limit), true) = (options.losing_move_pruning, prunable && tally.best_move.is_some()) {
                let losing = picker.score_of(i, frame.moves.len(), &frame.scores).is_some_and(|s| s <= -PRIORITY);
                if losing && depth <= limit && !(is_decisive(tally.best) && tally.best < 0) {
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
            let Some(busy) = self.claim_child(frame, i, mv, prefetch, defer && first_pass && i > 0) else {
                continue;
            };
            let score = if i == 0 || !options.pvs {
                // (Below a PV node the first move leads to a PV node; below any other, kinds alternate.)
                let first = Kind { pv: kind.pv, cut: !kind.pv && !kind.cut, ..child };
                -self.negamax(below, new_depth, ply + 1, -tally.beta, -tally.alpha, first)
            } else {
                let reducible = FULL
                    && options.lmr
                    && quiet
                    && !gives_check
                    && depth >= options.lmr_depth
                    && i >= options.lmr_moves + kind.pv as usize;
                // About ln(depth)·ln(index)/2.25 (the divisor is `lmr_divisor`), one less at PV nodes, one more
                // where not improving (with `lmr_improving`), less for a good history.
                let mut reduction =
                    if reducible { lmr_reduction(depth, i, options.lmr_divisor) - kind.pv as i32 } else { 0 };
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
                let mut s = -self.negamax(below, new_depth - reduction, ply + 1, -tally.alpha - 1, -tally.alpha, first);
                if s > tally.alpha && reduction > 0 {
                    s = -self.negamax(below, new_depth, ply + 1, -tally.alpha - 1, -tally.alpha, full);
                }
                if s > tally.alpha && s < tally.beta && kind.pv {
                    -self.negamax(below, new_depth, ply + 1, -tally.beta, -tally.alpha, Kind { pv: true, ..child })
                } else {
                    s
                }
            };
            self.leave_child(mv, busy);
            if self.stopped {
                break;
            }

            // Step 9c. A new best move; a cutoff.
            let taken = self.take(&mut tally, ply, mv, score);
            if taken >= Taken::Raised && kind.pv {
                update_pv(frame, mv, below);
            }
            if taken == Taken::Cutoff {
                if options.killers || options.history || options.counter_moves {
                    let preceding = continuation.then_some(&kind.preceding);
                    // (The picker leaves each move where it handed it out.)
                    debug_assert!(frame.moves[i] == mv);
                    self.reward(frame, i, depth, side, kind.prev, preceding);
                }
                break;
            }
        }
        self.settle_root(ply, frame, tally.best_move);
        if self.stopped {
            return 0;
        }

        // Step 10. Teach the correction history how far the static evaluation was off, where the bound says
        // which way (a cutoff at or below the evaluation, or a fail-low at or above it, says nothing). Store the
        // result with its bound, unless it rests on a repetition ruling or is a restricted root's, which is
        // not the position's.
        if let (true, Some(raw)) = (FULL && options.correction_history && !in_check && !excluding, static_eval) {
            let quiet = tally.best_move.map_or(true, |mv| !self.cx.evaluator.is_tactical(&self.game, mv));
            if let (true, Some(key)) = (quiet && !is_decisive(tally.best), self.cx.evaluator.correction_key(&self.game))
            {
                let eval = raw + self.history.correction(key);
                let (upper, lower) = (tally.best <= tally.alpha_orig, tally.best >= tally.beta);
                let says_nothing = (lower && tally.best <= eval) || (upper && tally.best >= eval);
                if !says_nothing {
                    self.history.learn_correction(key, tally.best - raw, depth);
                }
            }
        }
        let storable = self.rulings == rulings_at_entry && !excluding && !(ply == 0 && self.root_is_restricted());
        self.store_result(probe, storable, ply, depth, &tally, static_eval, self.cuts == cuts_at_entry);
        tally.best
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
    pub(super) fn corrected(&self, eval: Score) -> Score {
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
