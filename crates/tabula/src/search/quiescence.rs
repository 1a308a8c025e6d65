//! The full search's horizon: quiescence, which resolves the evaluator's noisy moves (standing pat on the
//! static evaluation) and, with check extension, answers a check with every move that does not lose at once.

use super::node::Taken;
use super::stack::{split, Frame};
use super::worker::Worker;
use crate::game::{Evaluator, Game, HookedEvaluator, HookedGame, WinningMove};
use crate::score::{loss_in, win_in, Score, INFINITY, MAX_PLY};
use crate::tt::{Bound, Probe, Record};

impl<G: Game, E: Evaluator<G>, const FULL: bool, const SMP: bool> Worker<'_, G, E, FULL, SMP> {
    /// A node at the horizon: the lean search evaluates it, the full one runs quiescence.
    #[inline]
    pub(super) fn horizon(&mut self, stack: &mut [Frame<G::Move>], ply: u32, alpha: Score, beta: Score) -> Score {
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
    pub(super) fn quiescence(&mut self, stack: &mut [Frame<G::Move>], ply: u32, alpha: Score, beta: Score) -> Score {
        if let Some(score) = self.enter_node(ply) {
            return score;
        }
        self.quiescence_entered(stack, ply, alpha, beta)
    }

    /// [`Worker::quiescence`] at a node already entered (counted, and found neither over nor repeated), as
    /// razoring's is.
    pub(super) fn quiescence_entered(
        &mut self,
        stack: &mut [Frame<G::Move>],
        ply: u32,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
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
            if Taken::fail_soft(score, &mut best, &mut alpha, beta) == Taken::Cutoff {
                break;
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
