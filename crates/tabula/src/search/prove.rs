//! The proof search behind [`Searcher::solve`](super::Searcher::solve): alpha-beta to the end of the game.
//!
//! A solve asks one question many times, "is the score above this threshold?", and each answer is proved by a
//! search of the whole remaining game. That search needs the table, the game's tactics and move ordering,
//! and nothing else: no horizon, so no quiescence, extensions, reductions or pruning by evaluation; no
//! principal variation, killers or history (they break Connect Four's centre-first ties and triple its
//! node count); no repetitions, since a game that bounds its remaining plies cannot repeat. Leaving all
//! that out saves a sixth of the instructions per node of [`negamax`](super::worker::Worker::negamax) on
//! Connect Four (callgrind), which matters because a solve is nothing but nodes.
//!
//! The window narrows as bounds come in: from the plies left (no win or loss sooner than the rules
//! allow), from the table (an upper bound lowers beta, a lower bound raises alpha), and from the game's
//! tactics (no loss before four plies when a move avoids losing at once, at most a draw for a side that
//! can no longer make a line). Every result it stores is proven: it holds at any depth.

use super::node::Taken;
use super::ordering::MovePicker;
use super::shared::DEFER_DEPTH;
use super::stack::{split, Frame, NO_CODE};
use super::worker::{Tally, Worker};
use crate::game::{Evaluator, Game, HookedGame, WinningMove};
use crate::score::{loss_in, win_in, Score, DRAW, MAX_PLY};
use crate::tt::{Bound, Record};

impl<G: Game, E: Evaluator<G>, const FULL: bool, const SMP: bool> Worker<'_, G, E, FULL, SMP> {
    /// `mv` played, proved, taken back: the child's score for this node.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn prove_child(
        &mut self,
        stack: &mut [Frame<G::Move>],
        mv: G::Move,
        depth: i32,
        ply: u32,
        alpha: Score,
        beta: Score,
        safe: bool,
    ) -> Score {
        self.game.play(mv);
        let score = -self.prove(stack, depth - 1, ply + 1, -beta, -alpha, safe);
        self.game.undo(mv);
        score
    }

    /// Fail-soft alpha-beta to the end of the game: the exact score if it lies within (`alpha`, `beta`),
    /// else a bound on the side it fell. `depth` is at least the plies left in the game; `safe` says the parent
    /// chose this move among its non-losing moves, so that this node has no win at once.
    pub fn prove(
        &mut self,
        stack: &mut [Frame<G::Move>],
        depth: i32,
        ply: u32,
        mut alpha: Score,
        mut beta: Score,
        safe: bool,
    ) -> Score {
        debug_assert!(alpha < beta);
        let options = self.cx.options;
        let (frame, below) = split(stack);

        // Step 1. Count the node; stop; game over.
        let cuts_at_entry = self.cuts;
        self.count_node();
        if self.stopped {
            return 0;
        }
        if let Some(outcome) = self.game.outcome() {
            return outcome.score_at(ply);
        }
        debug_assert!(depth > 0, "the game ends within the plies it said were left");
        if ply >= MAX_PLY - 1 {
            self.cuts += 1;
            return self.cx.evaluator.evaluate(&self.game);
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

        // Step 3. The table: its bound narrows the window, and its move goes first. (Probed and stored here
        // rather than through `Worker::probe` and `Worker::store_result`, whose table key and probe travel
        // together: that costs 9 % more instructions on the bench's Connect Four solves, callgrind.)
        let use_table = options.table;
        let tk = if use_table { Some(self.game.table_key()) } else { None };
        let mut table_code = NO_CODE;
        let mut slot = None;
        if let Some(tk) = tk {
            self.counts.probes += 1;
            let probe = self.cx.table.probe(tk.key, ply);
            slot = Some(probe.slot);
            if let Some(e) = probe.hit {
                self.counts.hits += 1;
                if let Some(code) = e.move_code {
                    table_code = G::actual_move_code(code, tk.symmetry);
                }
                // (Not at the root, which must find the move that achieves its score.)
                if ply > 0 && e.reaches(depth) {
                    match e.bound {
                        Bound::Exact => {
                            self.counts.cutoffs += 1;
                            return e.score;
                        }
                        Bound::Lower => alpha = alpha.max(e.score),
                        Bound::Upper => beta = beta.min(e.score),
                    }
                    if alpha >= beta {
                        self.counts.cutoffs += 1;
                        return if e.bound == Bound::Lower { alpha } else { beta };
                    }
                }
            }
        }

        // Step 4. Tactics: win at once; a side that can no longer win; only moves that do not lose at once.
        frame.moves.clear();
        let mut generated = false;
        if options.tactics {
            let win_now = if safe { WinningMove::NoneExists } else { self.game.winning_move() };
            let mut ceiling = beta;
            match win_now {
                WinningMove::Found(_) => return win_in(ply + 1),
                // No win at once, and the opponent answers any move: a win needs three plies at least.
                WinningMove::NoneExists => ceiling = ceiling.min(win_in(ply + 3)),
                WinningMove::NotChecked => {}
            }
            let winners = self.game.possible_winners();
            if !winners.opponent {
                alpha = alpha.max(DRAW);
                if alpha >= beta {
                    return alpha;
                }
            }
            if !winners.side_to_move {
                ceiling = ceiling.min(DRAW);
            }
            beta = beta.min(ceiling);
            if alpha >= beta {
                return beta;
            }
            if depth >= 2 {
                if let Some(n) = self.game.non_losing_moves(&mut frame.moves) {
                    generated = true;
                    if n == 0 {
                        return loss_in(ply + 2);
                    }
                    alpha = alpha.max(loss_in(ply + 4));
                    if alpha >= beta {
                        return alpha;
                    }
                }
            }
        }
        if !generated {
            self.game.legal_moves(&mut frame.moves);
        }
        debug_assert!(!frame.moves.is_empty(), "a game that is not over has a legal move");

        // Step 5. Search the moves: the table move, then the evaluator's hint (the game's own order breaking
        // ties). Once the table move has not cut off, every other child's bucket is fetched at once, so that the
        // memory latencies overlap. In a parallel solve, a move whose position another thread is searching
        // waits until the others are done (simplified ABDADA): the threads spread over the tree instead of
        // searching the same nodes side by side, and by the time the deferred move comes up its result is
        // usually in the table.
        let mut picker = MovePicker::new(&mut frame.moves, table_code, G::move_code);
        let mut tally = Tally::new(alpha, beta);
        let defer = self.cx.shared.defers() && depth >= DEFER_DEPTH;
        frame.deferred.clear();
        let mut cutoff = false;
        while let Some((i, mv)) = picker.next(
            &mut frame.moves,
            &mut frame.scores,
            |moves, scores, _| {
                if use_table {
                    for &m in moves {
                        if let Some(key) = self.game.child_table_key(m) {
                            self.cx.table.prefetch(key);
                        }
                    }
                }
                self.hints(moves, scores);
            },
            |mv| self.cx.evaluator.move_order(&self.game, mv),
        ) {
            let child = if defer { self.game.child_table_key(mv) } else { None };
            let score = if let Some(child) = child {
                if i > 0 && self.cx.shared.is_busy(child) {
                    frame.deferred.push((i, mv));
                    continue;
                }
                self.cx.shared.set_busy(child, true);
                let score = self.prove_child(below, mv, depth, ply, tally.alpha, tally.beta, generated);
                self.cx.shared.set_busy(child, false);
                score
            } else {
                self.prove_child(below, mv, depth, ply, tally.alpha, tally.beta, generated)
            };
            if self.stopped {
                break;
            }
            if self.take(&mut tally, ply, mv, score) == Taken::Cutoff {
                cutoff = true;
                break;
            }
        }
        if !cutoff && !self.stopped && !frame.deferred.is_empty() {
            for j in 0..frame.deferred.len() {
                let (_, mv) = frame.deferred[j];
                let score = self.prove_child(below, mv, depth, ply, tally.alpha, tally.beta, generated);
                if self.stopped || self.take(&mut tally, ply, mv, score) == Taken::Cutoff {
                    break;
                }
            }
        }
        if self.stopped {
            return 0;
        }

        // Step 6. Store the result with its bound: proven, since every line ran to the end of the game (unless
        // one ran into MAX_PLY).
        if let (Some(tk), Some(slot)) = (tk, slot) {
            let Tally { best, best_move, alpha_orig, beta, .. } = tally;
            let move_code = best_move.map(|m| G::canonical_move_code(G::move_code(m), tk.symmetry));
            let record = Record::searched(depth, best, alpha_orig, beta, move_code, self.cuts == cuts_at_entry);
            self.cx.table.store(slot, tk.key, ply, record);
        }
        tally.best
    }
}
