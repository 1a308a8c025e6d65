//! The engine: threats first, then the core's alpha-beta, with defence against the opponent's threats.
//!
//! [`Engine::think`] takes a position and [`Limits`] and answers with a [`Thought`]:
//!
//! 1. a won or lost position needs no thought; an empty board gets the centre;
//! 2. a VCF for the side to move, then a VCT: a win found here is a proof, returned with its winning line;
//! 3. the opponent's threat: would it win by a VCF or VCT if it could move now? If so, the candidate moves
//!    are tried against it (the points of its winning line first, then the side to move's fours, then the
//!    best by the evaluator's order) for a VCF and a VCT of the opponent's (a move that stops a VCF may
//!    leave a VCT), each with a node budget that grows while time is left; the moves proved to refute it stay
//!    at the root, or if none is, those whose search was cut short;
//! 4. the core [`Searcher`] (iterative deepening alpha-beta with the transposition table) among those moves
//!    on the remaining time.
//!
//! With a clock, each threat search stops at its share of the move's time (the side to move's own by 5 % and
//! 15 % of it, the opponent's by 25 %, the refutations by 55 %); without one, at a fixed node budget.
//!
//! Beside it, on the rules of the crate's root modules:
//!
//! - [`eval`]: the [`Eval`] evaluator.
//! - [`policy`]: the engine's evaluator, [`Eval`] plus threat-space knowledge ([`ThreatOptions`]).
//! - [`threats`]: VCF and VCT solvers with their own keyed table; [`verify`] checks their wins independently.
//! - [`gomocup`]: the Gomocup (Piskvork) protocol as a [`Session`](gomocup::Session) that maps a line to the
//!   lines to answer.
//! - [`front`]: the game's [`Front`](tabula_protocol::front::Front), for the terminal and the web page.
//!
//! # Examples
//!
//! ```
//! use tabula::search::Limits;
//! use tabula_gomoku::{Board, Engine, Rule};
//!
//! // Black has an open three on row 8; the engine finds the win by continuous fours and threes.
//! let board = Board::from_moves(15, 15, Rule::Freestyle, "h8 a1 i8 o1 j8 a15").unwrap();
//! let mut engine = Engine::new(8);
//! let thought = engine.think(&board, &Limits::depth(4));
//! let line = thought.win.expect("a forced win");
//! assert!(["g8", "k8"].contains(&board.format_point(line[0]).as_str()));
//! ```
//!
//! ```
//! use tabula::search::Limits;
//! use tabula_gomoku::{Board, Engine, Rule};
//!
//! // White must block black's four at l8 (h8 i8 j8 k8 with g8 white).
//! let board = Board::from_moves(15, 15, Rule::Standard, "h8 g8 i8 a1 j8 a3 k8").unwrap();
//! let mut engine = Engine::new(4);
//! let thought = engine.think(&board, &Limits::depth(3));
//! assert_eq!(board.format_point(thought.best.unwrap()), "l8");
//! ```

pub mod eval;
pub mod front;
pub mod gomocup;
pub mod policy;
pub mod threats;
pub mod verify;

use crate::board::{Board, Point};
use crate::engine::eval::{Eval, Weights};
use crate::engine::policy::{Policy, ThreatOptions};
use crate::engine::threats::{ThreatCache, ThreatKind, ThreatSolver};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabula::game::{Evaluator, HookedGame};
use tabula::score::{win_in, Score};
use tabula::search::{Iteration, Limits, Request, SearchOptions, SearchResult, Searcher};

/// What the engine concluded about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move to play (`None` only if the game is over).
    pub best: Option<Point>,
    /// Its score for the side to move (decisive when a win or loss was proved).
    pub score: Score,
    /// The principal variation, the winning line when one was found.
    pub pv: Vec<Point>,
    /// Nodes searched: alpha-beta and threat searches together.
    pub nodes: u64,
    /// Depth of the last completed alpha-beta iteration (0 if a threat search decided).
    pub depth: u32,
    /// The winning line (attacker and defender moves alternating, ending in five) if a forced win was found.
    pub win: Option<Vec<Point>>,
    /// Time taken.
    pub elapsed: Duration,
}

/// What the search for the opponent's threat after a candidate move found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// The opponent still wins.
    Loses,
    /// The opponent has no win within the depths searched.
    Refutes,
    /// The search was cut short without finding a win.
    Undecided,
}

/// A gomoku engine: a searcher with its transposition table and a threat solver with its own cache.
pub struct Engine {
    searcher: Searcher<Board, Policy>,
    threats: ThreatSolver,
}

/// Threat-search node budget when the limits give no time.
const DEFAULT_THREAT_NODES: u64 = 20_000;
/// Longest VCF and VCT searched, in attacking moves.
const VCF_DEPTH: u32 = 16;
const VCT_DEPTH: u32 = 10;
/// How many candidate moves are tried against the opponent's threat.
const DEFENCE_CANDIDATES: usize = 32;
/// The divisor of the late-move reductions' ln(depth)·ln(index), in hundredths (the core's usual is 225).
const LMR_DIVISOR: i32 = 100;
/// Reverse futility pruning's margin per ply, in evaluation units: a non-PV node six plies or fewer from the
/// horizon, not in check (no five to make or to block), whose static evaluation beats beta by this much per
/// ply returns the evaluation. About 0.3 of a logistic unit per ply (the evaluation fitted to Rapfi's win rates puts a
/// logistic unit at about 1,370 units), as Rapfi's own margin is; measured by self-play (the crate's README
/// section).
const REVERSE_FUTILITY_MARGIN: i32 = 400;
/// The inner VCF ([`Policy`]'s winning plan) is searched at nodes this many plies or more from the horizon:
/// at the two and three plies before it, where the search's forced replies find short wins by fours on their
/// own, it took a third of the alpha-beta search's time and changed its tree by 1 % (the `bench` example's
/// depth-8 searches: 923,325 nodes in 0.67 times the time with 4, 935,251 with 2). Measured by self-play (the
/// crate's README section).
const PLAN_DEPTH: i32 = 4;
/// The share of a move's time by which each threat search must be done, counted from the start: the side to
/// move's own VCF, its VCT, the opponent's threat, and the moves that refute it. The alpha-beta search has
/// the rest.
const OWN_VCF_SHARE: f64 = 0.05;
const OWN_VCT_SHARE: f64 = 0.15;
const THREAT_SHARE: f64 = 0.25;
const REFUTATION_SHARE: f64 = 0.55;

impl Engine {
    /// An engine with a table of `table_mib` mebibytes (the threat cache takes a quarter more).
    pub fn new(table_mib: usize) -> Engine {
        let threats = ThreatSolver::with_cache(Arc::new(ThreatCache::new((table_mib / 4).max(1))));
        let options = ThreatOptions::default();
        let policy = Policy::new(options, Some(threats.cache().clone()));
        // Late-move reductions and pruning: with the evaluator's ordering (what a stone makes for either side)
        // the late moves of a node are seldom the best, and cutting them reaches two plies deeper in the same
        // time (mean depth 6.4 instead of 4.2 at 300 ms on tests/data/vct-defence.txt). Reductions of
        // ln(depth)·ln(index), Rapfi's freestyle size, rather than the core's usual ln·ln/2.25: +25 ± 27 Elo in
        // 600 games of self-play (the book's record `2026-12-07-gomoku-reductions`). Reverse futility
        // on top of them.
        let search = SearchOptions::default()
            .with_killers(true)
            .with_table_depth(1)
            .with_lmr(true)
            .with_lmr_divisor(LMR_DIVISOR)
            .with_late_move_pruning(true)
            .with_futility_margin(Some(REVERSE_FUTILITY_MARGIN))
            .with_plan_depth(PLAN_DEPTH);
        let searcher = Searcher::with_table_size(policy, table_mib.max(1)).with_options(options.search_options(search));
        Engine { searcher, threats }
    }

    /// The threat-space knowledge the alpha-beta search uses (see [`Policy`]).
    pub fn set_threat_options(&mut self, options: ThreatOptions) {
        self.set_policy(options, self.weights().clone(), self.order().cloned());
    }

    /// The search's evaluator with `options`, `weights` and move `order`, on the threat solver's cache.
    fn set_policy(&mut self, options: ThreatOptions, weights: Arc<Weights>, order: Option<Arc<Weights>>) {
        let policy = Policy::new(options, Some(self.threats.cache().clone())).with_weights(weights).with_order(order);
        self.searcher.set_evaluator(policy);
        let search = options.search_options(self.searcher.options().clone());
        self.searcher.set_options(search);
    }

    /// Sets one of the alpha-beta search's options by its name ([`SearchOptions::set`]); a refused name or
    /// value changes nothing.
    pub fn set_search_option(&mut self, name: &str, value: &str) -> Result<(), tabula::search::OptionError> {
        let mut options = self.searcher.options().clone();
        options.set(name, value)?;
        self.searcher.set_options(options);
        Ok(())
    }

    /// The search's options in force.
    pub fn search_options(&self) -> &SearchOptions {
        self.searcher.options()
    }

    /// The threat-space hooks in force.
    pub fn threat_options(&self) -> ThreatOptions {
        self.searcher.evaluator().options()
    }

    /// Evaluates with `weights` (a file `tabula-lab gomoku tune fit` wrote, say) instead of the embedded ones;
    /// the table is cleared, its scores being the old evaluation's.
    pub fn set_weights(&mut self, weights: Arc<Weights>) {
        self.set_policy(self.threat_options(), weights, self.order().cloned());
        self.clear();
    }

    /// Orders the search's moves by `order` (a file `tabula-lab gomoku tune order` wrote) instead of the
    /// hand-set order, or by the hand-set order again for `None`.
    pub fn set_order(&mut self, order: Option<Arc<Weights>>) {
        self.set_policy(self.threat_options(), self.weights().clone(), order);
    }

    /// The fitted move order in force, if any.
    pub fn order(&self) -> Option<&Arc<Weights>> {
        self.searcher.evaluator().order()
    }

    /// The evaluation's weights in force.
    pub fn weights(&self) -> &Arc<Weights> {
        self.searcher.evaluator().weights()
    }

    /// Search threads sharing the table.
    pub fn set_threads(&mut self, threads: usize) {
        let mut options = self.searcher.options().clone();
        options.threads = threads.max(1);
        self.searcher.set_options(options);
    }

    /// Searches with the transposition table or without it (to measure what it saves); the threat search keeps
    /// its own cache either way.
    pub fn set_table_use(&mut self, on: bool) {
        let options = self.searcher.options().clone().with_table(on);
        self.searcher.set_options(options);
    }

    /// Replaces the table and the threat cache by new ones of about `table_mib` mebibytes in total.
    pub fn resize(&mut self, table_mib: usize) {
        let table_mib = table_mib.max(2);
        self.searcher.set_table(Arc::new(tabula::TranspositionTable::new(table_mib * 4 / 5)));
        self.threats = ThreatSolver::with_cache(Arc::new(ThreatCache::new((table_mib / 5).max(1))));
        self.set_threat_options(self.threat_options());
    }

    /// Forgets everything learnt (between games).
    pub fn clear(&mut self) {
        self.searcher.table().clear();
        self.threats.cache().clear();
    }

    /// Thinks about `board` within `limits`. See the [module documentation](self).
    pub fn think(&mut self, board: &Board, limits: &Limits) -> Thought {
        self.think_with(board, limits, |_| {})
    }

    /// [`think`](Self::think), calling `on_iteration` after each completed alpha-beta iteration.
    pub fn think_with(
        &mut self,
        board: &Board,
        limits: &Limits,
        on_iteration: impl FnMut(&Iteration<Point>),
    ) -> Thought {
        let start = Instant::now();
        let mut thought =
            Thought { best: None, score: 0, pv: Vec::new(), nodes: 0, depth: 0, win: None, elapsed: Duration::ZERO };
        // Step 1. Nothing to think about.
        if board.winner().is_some() || board.is_full() {
            return thought;
        }
        if board.moves().is_empty() {
            thought.best = Some(board.center());
            thought.pv = vec![board.center()];
            return thought;
        }
        // With a clock, each threat search stops at its share of the time; without one, at a node budget.
        let budget = if limits.hard_time.is_some() { u64::MAX } else { DEFAULT_THREAT_NODES };
        let by = |share: f64| limits.hard_time.map(|t| start + t.mul_f64(share));
        // Step 2. A proved win by threats.
        for (kind, depth, share) in
            [(ThreatKind::Vcf, VCF_DEPTH, OWN_VCF_SHARE), (ThreatKind::Vct, VCT_DEPTH, OWN_VCT_SHARE)]
        {
            self.threats.set_deadline(by(share));
            let line = self.threats.solve(board, kind, depth, budget);
            thought.nodes += self.threats.nodes();
            if let Some(line) = line.filter(|l| !l.is_empty()) {
                thought.best = Some(line[0]);
                thought.score = win_in(line.len() as u32);
                thought.pv = line.clone();
                thought.win = Some(line);
                thought.elapsed = start.elapsed();
                return thought;
            }
        }
        // Step 3. The opponent's threat: if it could move now and win by threats, only the moves after which
        // it cannot are searched.
        self.threats.set_deadline(by(THREAT_SHARE));
        let mut passed = board.clone();
        passed.pass();
        let threat = self.threat(&passed, budget, &mut thought.nodes);
        let mut safe = Vec::new();
        if let Some((_, line, nodes)) = threat {
            let deadline = by(REFUTATION_SHARE);
            self.threats.set_deadline(deadline);
            let budgets = if budget == u64::MAX { ((nodes * 3 / 2).max(1_000), u64::MAX) } else { (budget, budget) };
            safe = self.refutations(board, &line, budgets, deadline, &mut thought.nodes);
        }
        self.threats.set_deadline(None);
        // Step 4. Alpha-beta on the time left.
        let mut search_limits = limits.clone();
        let left = |t: Duration| t.saturating_sub(start.elapsed()).mul_f64(0.9).max(Duration::from_millis(5));
        search_limits.soft_time = limits.soft_time.map(left);
        search_limits.hard_time = limits.hard_time.map(left);
        let result = self.searcher.search(board, Request::new(search_limits).with_root_moves(&safe), on_iteration);
        thought.nodes += result.nodes;
        thought.depth = result.depth;
        thought.score = result.score;
        thought.pv = result.pv.clone();
        thought.best = result.best_move;
        thought.elapsed = start.elapsed();
        thought
    }

    /// The alpha-beta search of step 4 alone, on all the moves, without the threat searches before it: what the
    /// evaluation, move ordering and the search's own threat hooks cost (benchmarks, analysis).
    pub fn search_only(&mut self, board: &Board, limits: &Limits) -> SearchResult<Point> {
        self.searcher.search(board, limits, |_| {})
    }

    /// The side to move's forced win by threats in `board` (a VCF, else a VCT): its kind, its line and the
    /// nodes it took to find.
    fn threat(&mut self, board: &Board, budget: u64, nodes: &mut u64) -> Option<(ThreatKind, Vec<Point>, u64)> {
        for (kind, depth) in [(ThreatKind::Vcf, VCF_DEPTH), (ThreatKind::Vct, VCT_DEPTH)] {
            let line = self.threats.solve(board, kind, depth, budget);
            *nodes += self.threats.nodes();
            if let Some(line) = line.filter(|l| !l.is_empty()) {
                return Some((kind, line, self.threats.nodes()));
            }
        }
        None
    }

    /// The side to move's candidate moves after which the opponent's win by threats (here by the line `line`)
    /// is not found, by a VCF or a VCT: the points of the line first (the attacker's, then the replies), then
    /// the side to move's fours, then the best by the evaluator's order. Each is searched with `first` nodes,
    /// then those still undecided with four times as many, and so on up to `last` or until the solver's
    /// deadline; candidates the deadline leaves unsearched are left out. The moves proved to refute the threat
    /// if there are any, else those left undecided; empty if none stands.
    fn refutations(
        &mut self,
        board: &Board,
        line: &[Point],
        (first, last): (u64, u64),
        deadline: Option<Instant>,
        nodes: &mut u64,
    ) -> Vec<Point> {
        let me = board.side_to_move();
        let mut moves = Vec::new();
        if board.non_losing_moves(&mut moves).unwrap_or(0) == 0 {
            return Vec::new();
        }
        let eval = Eval;
        let rank = |m: Point| {
            let attacker = line.iter().step_by(2).position(|&p| p == m);
            let reply = line.iter().skip(1).step_by(2).position(|&p| p == m);
            let four = board.patterns(m, me).iter().any(|p| p.is_four());
            match (attacker, reply, four) {
                (Some(i), _, _) => (0, i as i32),
                (_, Some(i), _) => (1, i as i32),
                (_, _, true) => (2, -eval.move_order(board, m)),
                _ => (3, -eval.move_order(board, m)),
            }
        };
        moves.sort_by_cached_key(|&m| rank(m));
        moves.truncate(DEFENCE_CANDIDATES);
        // Each candidate: None until searched, then whether it still stands: it refutes the threat, or its
        // search was cut short (it is searched again with more nodes while there is time).
        let mut verdicts: Vec<Option<Verdict>> = vec![None; moves.len()];
        let mut b = board.clone();
        let mut budget = first;
        let late = || deadline.is_some_and(|d| Instant::now() >= d);
        'widen: while budget <= last {
            let open = |v: &Option<Verdict>| matches!(v, None | Some(Verdict::Undecided));
            for (&m, verdict) in moves.iter().zip(verdicts.iter_mut()).filter(|(_, v)| open(v)) {
                b.play_unchecked(m);
                let lost = b.winner().is_none() && self.threat_of(&b, budget);
                *nodes += self.threats.nodes();
                b.undo_unchecked(m);
                let cut = self.threats.aborted();
                if cut && late() {
                    break 'widen;
                }
                *verdict = Some(match (lost, cut) {
                    (true, _) => Verdict::Loses,
                    (false, false) => Verdict::Refutes,
                    (false, true) => Verdict::Undecided,
                });
            }
            if !verdicts.iter().any(open) {
                break;
            }
            budget = budget.saturating_mul(4);
        }
        // The moves proved to refute it, if any; else those whose search was cut short.
        let proved = verdicts.contains(&Some(Verdict::Refutes));
        let standing = |v: &Option<Verdict>| match v {
            Some(Verdict::Refutes) => true,
            Some(Verdict::Undecided) => !proved,
            _ => false,
        };
        moves.into_iter().zip(verdicts).filter(|(_, v)| standing(v)).map(|(m, _)| m).collect()
    }

    /// Whether the side to move in `board` wins by a VCF or a VCT within `nodes` nodes each; the solver says
    /// whether the last search was cut short. (A move that stops a VCF may leave a VCT: both are asked.)
    fn threat_of(&mut self, board: &Board, nodes: u64) -> bool {
        ThreatKind::ALL.iter().any(|&k| {
            let depth = if k == ThreatKind::Vcf { VCF_DEPTH } else { VCT_DEPTH };
            self.threats.find(board, k, depth, nodes).is_some()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rule;

    #[test]
    fn blocks_an_open_three_that_would_become_a_vcf() {
        // White to move; black has an open three h8 i8 j8: white must play g8 or k8 (or f8/l8).
        let board = Board::from_moves(15, 15, Rule::Freestyle, "h8 h9 i8 a1 j8").unwrap();
        let mut engine = Engine::new(8);
        let t = engine.think(&board, &Limits::time(Duration::from_millis(300)));
        let best = board.format_point(t.best.unwrap());
        assert!(["g8", "k8", "f8", "l8"].contains(&best.as_str()), "{best}");
    }
}
