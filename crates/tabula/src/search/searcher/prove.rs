//! The proof search behind [`Searcher::solve`](super::Searcher::solve): alpha-beta to the end of the game.
//!
//! A solve asks one question many times, "is the score above this threshold?", and each answer is proved by a
//! search of the whole remaining game. That search needs the table, the game's tactics and move ordering,
//! and nothing else: no horizon, so no quiescence, extensions, reductions or pruning by evaluation; no
//! principal variation, killers or history (they break Connect Four's centre-first ties and triple its
//! node count); no repetitions, since a game that bounds its remaining plies cannot repeat. Leaving all
//! that out saves a sixth of the instructions per node of [`negamax`](super::Worker::negamax) on Connect
//! Four (callgrind), which matters because a solve is nothing but nodes.
//!
//! The window narrows as bounds come in: from the plies left (no win or loss sooner than the rules
//! allow), from the table (an upper bound lowers beta, a lower bound raises alpha), and from the game's
//! tactics (no loss before four plies when a move avoids losing at once, at most a draw for a side that
//! can no longer make a line).

use super::{pick_best, Worker};
use crate::game::{Evaluator, Game};
use crate::score::{loss_in, win_in, Score, DRAW, MAX_PLY};
use crate::tt::Bound;
use crate::zobrist::Key;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A parallel solve defers busy moves only this far from the end of the game: nearer the leaves, marking
/// positions costs more than duplicated work.
const DEFER_DEPTH: i32 = 6;

impl<G: Game, E: Evaluator<G>> Worker<'_, G, E> {
    /// `mv` played, proved, taken back: the child's score for this node.
    #[inline(always)]
    fn prove_child(&mut self, mv: G::Move, depth: i32, ply: u32, alpha: Score, beta: Score, safe: bool) -> Score {
        self.game.play(mv);
        self.child_safe = safe;
        let score = -self.prove(depth - 1, ply + 1, -beta, -alpha);
        self.game.undo(mv);
        score
    }

    fn busy_slot(&self, key: Key) -> &AtomicU64 {
        &self.shared.busy[key.0 as usize & (self.shared.busy.len() - 1)]
    }

    /// Whether another thread is searching the position with table key `key`.
    fn is_busy(&self, key: Key) -> bool {
        self.busy_slot(key).load(Relaxed) == key.0
    }

    /// Marks the position with table key `key` as being searched, or no longer.
    fn set_busy(&self, key: Key, busy: bool) {
        let slot = self.busy_slot(key);
        if busy {
            slot.store(key.0, Relaxed);
        } else {
            // Leave the slot alone if another position has taken it since.
            let _ = slot.compare_exchange(key.0, 0, Relaxed, Relaxed);
        }
    }

    /// Fail-soft alpha-beta to the end of the game: the exact score if it lies within (`alpha`, `beta`),
    /// else a bound on the side it fell. `depth` is at least the plies left in the game.
    pub(super) fn prove(&mut self, depth: i32, ply: u32, mut alpha: Score, mut beta: Score) -> Score {
        debug_assert!(alpha < beta);
        let p = ply as usize;
        let safe = std::mem::replace(&mut self.child_safe, false);
        self.td.ensure_ply(p);

        // Step 1. Count the node; stop; game over.
        self.count_node();
        if self.stopped {
            return 0;
        }
        if let Some(outcome) = self.game.outcome() {
            return outcome.score_at(ply);
        }
        debug_assert!(depth > 0, "the game ends within the plies it said were left");
        if ply >= MAX_PLY - 1 {
            return self.evaluator.evaluate(&self.game);
        }

        // Step 2. Nothing beats a win on the next ply or loses before this one.
        // (Each bound that closes the window is returned: it is the tightest one known.)
        alpha = alpha.max(loss_in(ply));
        if alpha >= beta {
            return alpha;
        }
        beta = beta.min(win_in(ply + 1));
        if alpha >= beta {
            return beta;
        }

        // Step 3. The table: its bound narrows the window, and its move goes first.
        let use_table = self.options.table;
        let (key, symmetry) = if use_table { self.game.table_key() } else { (Key::ZERO, 0) };
        let mut tt_code = None;
        let slot = if use_table {
            self.probes += 1;
            let probe = self.table.probe(key, ply);
            if let Some(e) = probe.hit {
                self.hits += 1;
                tt_code = e.move_code.map(|code| G::transform_move_code(code, symmetry, false));
                if e.depth as i32 >= depth {
                    match e.bound {
                        Bound::Exact => return e.score,
                        Bound::Lower => alpha = alpha.max(e.score),
                        Bound::Upper => beta = beta.min(e.score),
                    }
                    if alpha >= beta {
                        return if e.bound == Bound::Lower { alpha } else { beta };
                    }
                }
            }
            Some(probe.slot)
        } else {
            None
        };

        // Step 4. Tactics: win at once; a side that can no longer win; only moves that do not lose at once.
        let mut moves = std::mem::take(&mut self.td.moves[p]);
        moves.clear();
        let mut generated = false;
        if self.options.tactics {
            if !safe && self.game.winning_move().is_some() {
                self.td.moves[p] = moves;
                return win_in(ply + 1);
            }
            let (mover, opponent) = self.game.possible_winners();
            if !opponent {
                alpha = alpha.max(DRAW);
                if alpha >= beta {
                    self.td.moves[p] = moves;
                    return alpha;
                }
            }
            let mut ceiling = if mover { beta } else { DRAW };
            if G::FINDS_IMMEDIATE_WINS {
                // No win at once, and the opponent answers any move: a win needs three plies at least.
                ceiling = ceiling.min(win_in(ply + 3));
            }
            beta = beta.min(ceiling);
            if alpha >= beta {
                self.td.moves[p] = moves;
                return beta;
            }
            if depth >= 2 && self.game.non_losing_moves(&mut moves) {
                generated = true;
                if moves.is_empty() {
                    self.td.moves[p] = moves;
                    return loss_in(ply + 2);
                }
                alpha = alpha.max(loss_in(ply + 4));
                if alpha >= beta {
                    self.td.moves[p] = moves;
                    return alpha;
                }
            }
        }
        if !generated {
            self.game.legal_moves(&mut moves);
        }
        debug_assert!(!moves.is_empty(), "a game that is not over has a legal move");

        // Step 5. Order: the table move, then the evaluator's hint (stable, so the game's own order breaks
        // ties); every child's bucket is fetched now, so that the memory latencies overlap.
        let mut sorted = 0;
        if let Some(t) = tt_code.and_then(|code| moves.iter().position(|&m| G::move_code(m) == code)) {
            moves.swap(0, t);
            sorted = 1;
        }
        let mut order = std::mem::take(&mut self.td.order[p]);
        order.clear();

        // Step 6. Search the moves. In a parallel solve, a move whose position another thread is searching
        // waits until the others are done (simplified ABDADA): the threads spread over the tree instead of
        // searching the same nodes side by side, and by the time the deferred move comes up its result is
        // usually in the table.
        let (alpha_orig, beta_orig) = (alpha, beta);
        let mut best = Score::MIN;
        let mut best_move = None;
        let defer = !self.shared.busy.is_empty() && depth >= DEFER_DEPTH;
        let mut deferred = if defer { std::mem::take(&mut self.td.deferred[p]) } else { Vec::new() };
        deferred.clear();
        let mut cutoff = false;
        for i in 0..moves.len() {
            if i == sorted && moves.len() - i > 1 {
                // Only now that the table move (if any) has not cut off: fetch the other children's buckets
                // and score the moves.
                if use_table {
                    for &mv in &moves[i..] {
                        self.table.prefetch(self.game.child_table_key(mv));
                    }
                }
                order.extend(moves[i..].iter().map(|&m| self.evaluator.move_order(&self.game, m)));
            }
            if i >= sorted && !order.is_empty() {
                pick_best(&mut moves[sorted..], &mut order, i - sorted);
            }
            let mv = moves[i];
            let score = if defer {
                let child = self.game.child_table_key(mv);
                if i > 0 && self.is_busy(child) {
                    deferred.push(mv);
                    continue;
                }
                self.set_busy(child, true);
                let score = self.prove_child(mv, depth, ply, alpha, beta, generated);
                self.set_busy(child, false);
                score
            } else {
                self.prove_child(mv, depth, ply, alpha, beta, generated)
            };
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        cutoff = true;
                        break;
                    }
                }
            }
        }
        if !cutoff && !self.stopped && !deferred.is_empty() {
            for &mv in &deferred {
                let score = self.prove_child(mv, depth, ply, alpha, beta, generated);
                if self.stopped {
                    break;
                }
                if score > best {
                    best = score;
                    best_move = Some(mv);
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
        }
        self.td.moves[p] = moves;
        self.td.order[p] = order;
        if defer {
            self.td.deferred[p] = deferred;
        }
        if self.stopped {
            return 0;
        }

        // Step 7. Store the result with its bound.
        if let Some(slot) = slot {
            let bound = Bound::of(best, alpha_orig, beta_orig);
            let code = best_move
                .filter(|_| bound != Bound::Upper)
                .map(|m| G::transform_move_code(G::move_code(m), symmetry, true));
            self.table.store(slot, key, ply, depth.clamp(0, 255) as u8, bound, best, None, code);
        }
        best
    }
}
