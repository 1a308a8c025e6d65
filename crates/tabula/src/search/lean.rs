//! The lean search: negamax with the table, principal variation search, the evaluator's move hints and the
//! history heuristic, and nothing else, for option sets where every other feature is off
//! ([`SearchOptions::is_lean`]).
//!
//! It is the full search with everything that is off taken out, not merely skipped: no tactics, no
//! quiescence, no pruning, no killers, no ordering pass when the moves' scores are all alike. The
//! nodes one ply above the horizon evaluate their children in place, in the game's order, instead of calling
//! a node for each, and a child's table bucket is fetched as soon as the move is made, while the child looks
//! at the game's end and orders its moves.
//!
//! [`SearchOptions::is_lean`]: super::SearchOptions::is_lean

use super::node::{mate_distance, Taken};
use super::ordering::QuietOrder;
use super::shared::DEFER_DEPTH;
use super::stack::{split, update_pv, Frame, NO_CODE};
use super::worker::{Tally, Worker};
use crate::game::{Evaluator, Game, HookedGame};
use crate::score::{Score, MAX_PLY};
use crate::tt::Probe;

impl<G: Game, E: Evaluator<G>, const FULL: bool, const SMP: bool> Worker<'_, G, E, FULL, SMP> {
    /// Fail-soft negamax with the table and PVS: the score of the position searched `depth` (at least 1) plies
    /// deep within (`alpha`, `beta`).
    pub(super) fn lean(
        &mut self,
        stack: &mut [Frame<G::Move>],
        depth: i32,
        ply: u32,
        mut alpha: Score,
        mut beta: Score,
        pv: bool,
    ) -> Score {
        debug_assert!(depth >= 1 && alpha < beta);
        let options = self.cx.options;
        let (frame, below) = split(stack);
        if pv {
            frame.pv.clear();
        }

        // Step 1. Count the node; stop; game over; repetition.
        if let Some(score) = self.enter_node(ply) {
            return score;
        }
        let (cuts_at_entry, rulings_at_entry) = (self.cuts, self.rulings);

        // Step 2. Mate distance pruning.
        if let Some(score) = mate_distance(ply, &mut alpha, &mut beta) {
            return score;
        }

        // Step 3. The moves, ordered by their hints and history, before the table's answer is looked at: the
        // parent fetched this node's bucket as it played the move, and this work overlaps the fetch. A node
        // that then cuts off on the table wastes it and the search is still quicker: 0.95 times the time on
        // the comparison with minimax-rs (ordering after the table's move was searched, as the full search
        // does, took 2 % fewer nodes). The root keeps to the moves asked for. One ply above the horizon the
        // moves keep the game's order: there a cutoff spares only evaluations in place, which cost less than
        // ordering (on the comparison, with history, 1.5 % more nodes for 18 % fewer instructions).
        frame.moves.clear();
        self.game.legal_moves(&mut frame.moves);
        if ply == 0 && self.root_is_restricted() {
            self.restrict_root(&mut frame.moves);
        }
        let side = (ply & 1) as usize;
        if frame.moves.len() > 1 && depth > 1 {
            self.order_moves(frame, side);
        }
        // Step 4. The table: its move goes first; at non-PV nodes a deep enough bound that decides ends the node.
        let probe = if depth >= options.table_depth { self.probe(ply) } else { None };
        let mut table_code = NO_CODE;
        if let Some((tk, Probe { hit: Some(e), .. })) = probe {
            if let Some(code) = e.move_code {
                table_code = G::actual_move_code(code, tk.symmetry);
            }
            if !pv && ply > 0 && e.reaches(depth) && e.decides(alpha, beta) {
                self.counts.cutoffs += 1;
                self.cuts += !e.proven as u64;
                return e.score;
            }
        }

        // The table's move first, the others in their order (rotated, not swapped).
        debug_assert!(!frame.moves.is_empty(), "a game that is not over has a legal move");
        if table_code != NO_CODE {
            if let Some(t) = frame.moves.iter().position(|&m| G::move_code(m) == table_code) {
                frame.moves[..=t].rotate_right(1);
            }
        }
        let leaves = depth == 1 || ply + 1 >= MAX_PLY - 1;
        let children_probe = probe.is_some() && depth > options.table_depth;
        if children_probe && !leaves && frame.moves.len() > 1 && self.game.child_table_key(frame.moves[0]).is_some() {
            for &mv in &frame.moves {
                if let Some(key) = self.game.child_table_key(mv) {
                    self.cx.table.prefetch(key);
                }
            }
        }

        // Step 5. Search the moves; PVS searches all but the first with a null window. With several threads,
        // a move whose position another thread is searching waits until the others are done (simplified
        // ABDADA): the threads spread over the tree instead of searching one subtree side by side, and by the
        // time a deferred move comes up its value is often in the table.
        let defer = SMP && depth >= DEFER_DEPTH;
        if defer {
            frame.deferred.clear();
        }
        let mut tally = Tally::new(alpha, beta);
        // The moves, then the deferred ones.
        let (count, mut end) = (frame.moves.len(), frame.moves.len());
        let mut i = 0;
        while i < end {
            let first_pass = !SMP || i < count;
            let mv = if first_pass { frame.moves[i] } else { frame.deferred[i - count].1 };
            self.play(mv);
            let marks = defer && first_pass && i > 0;
            let Some(busy) = self.claim_child(frame, i, mv, !leaves && children_probe, !leaves && marks) else {
                end += 1;
                i += 1;
                continue;
            };
            let score = if leaves {
                -self.leaf(ply + 1)
            } else if i == 0 || !options.pvs {
                -self.lean(below, depth - 1, ply + 1, -tally.beta, -tally.alpha, pv)
            } else {
                let s = -self.lean(below, depth - 1, ply + 1, -tally.alpha - 1, -tally.alpha, false);
                if s > tally.alpha && s < tally.beta && pv {
                    -self.lean(below, depth - 1, ply + 1, -tally.beta, -tally.alpha, true)
                } else {
                    s
                }
            };
            self.leave_child(mv, busy);
            if self.stopped {
                break;
            }
            let taken = self.take(&mut tally, ply, mv, score);
            if taken >= Taken::Raised && pv {
                if leaves {
                    frame.pv.clear();
                    frame.pv.push(mv);
                } else {
                    update_pv(frame, mv, below);
                }
            }
            if taken == Taken::Cutoff {
                if options.history {
                    // The moves before it in the first pass count as tried.
                    let index = if first_pass { i } else { frame.deferred[i - count].0 };
                    debug_assert!(frame.moves[index] == mv);
                    self.reward(frame, index, depth, side, NO_CODE, None);
                }
                break;
            }
            i += 1;
        }
        self.settle_root(ply, frame, tally.best_move);
        if self.stopped {
            return 0;
        }

        // Step 6. Store the result with its bound, unless it rests on a repetition ruling or is a restricted
        // root's.
        let storable = self.rulings == rulings_at_entry && !(ply == 0 && self.root_is_restricted());
        self.store_result(probe, storable, ply, depth, &tally, None, self.cuts == cuts_at_entry);
        tally.best
    }

    /// A node at the horizon: the game's end, a repetition, or the evaluation.
    #[inline(always)]
    pub(super) fn leaf(&mut self, ply: u32) -> Score {
        if let Some(score) = self.enter_node(ply) {
            return score;
        }
        self.cuts += 1;
        self.cx.evaluator.evaluate(&self.game)
    }

    /// Orders `frame.moves` by the evaluator's hints and (with the option) their history, highest first, ties
    /// in the game's order; does nothing if the scores are all alike.
    fn order_moves(&self, frame: &mut Frame<G::Move>, side: usize) {
        frame.scores.clear();
        let quiet = QuietOrder { killers: [NO_CODE; 2], counter: NO_CODE, side, preceding: None };
        self.score_moves(&frame.moves, &mut frame.scores, None, &quiet);
        let first = frame.scores[0];
        if frame.scores.iter().all(|&s| s == first) {
            return;
        }
        // Insertion sort: stable, and quick on the few moves of a node. (The two slices of one length let the
        // compiler drop the bounds checks.)
        let moves = &mut frame.moves[..];
        let scores = &mut frame.scores[..moves.len()];
        for j in 1..moves.len() {
            let (mv, score) = (moves[j], scores[j]);
            let mut k = j;
            while k > 0 && scores[k - 1] < score {
                moves[k] = moves[k - 1];
                scores[k] = scores[k - 1];
                k -= 1;
            }
            moves[k] = mv;
            scores[k] = score;
        }
    }
}
