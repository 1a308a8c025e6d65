//! The engine: threats first, then the core's alpha-beta, with defence against the opponent's threats.
//!
//! [`Engine::think`] takes a position and [`Limits`] and answers with a [`Thought`]:
//!
//! 1. a won or lost position needs no thought; an empty board gets the centre;
//! 2. a VCF for the side to move, then a VCT, each within a node budget drawn from the time limit: a win
//!    found here is a proof, returned with its winning line;
//! 3. otherwise the core [`Searcher`] (iterative deepening alpha-beta with the transposition table) on the
//!    remaining time;
//! 4. if the chosen move leaves the opponent a VCF (then, with budget left, a VCT), the engine looks for a
//!    move among its best candidates that leaves none.
//!
//! # Examples
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

use crate::board::{Board, Point};
use crate::eval::Eval;
use crate::policy::{Policy, ThreatOptions};
use crate::threats::{ThreatCache, ThreatKind, ThreatSolver};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabula::game::{Evaluator, Game};
use tabula::score::{loss_in, win_in, Score};
use tabula::search::{Iteration, Limits, SearchOptions, Searcher};

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

/// A gomoku engine: a searcher with its transposition table and a threat solver with its own cache.
pub struct Engine {
    searcher: Searcher<Board, Policy>,
    threats: ThreatSolver,
    threat_options: ThreatOptions,
    /// Threat-search nodes per millisecond of the time limit, for the budget of each threat search.
    threat_nodes_per_ms: u64,
}

/// Threat-search node budget when the limits give no time.
const DEFAULT_THREAT_NODES: u64 = 20_000;
/// Longest VCF and VCT searched, in attacking moves.
const VCF_DEPTH: u32 = 16;
const VCT_DEPTH: u32 = 6;
/// How many candidate moves the defence against a threat tries.
const DEFENCE_CANDIDATES: usize = 24;

impl Engine {
    /// An engine with a table of `table_mib` mebibytes (the threat cache takes a quarter more).
    pub fn new(table_mib: usize) -> Engine {
        let threats = ThreatSolver::with_cache(Arc::new(ThreatCache::new((table_mib / 4).max(1))));
        let options = ThreatOptions::default();
        let policy = Policy::new(options, Some(threats.cache().clone()));
        let searcher = Searcher::with_table_size(policy, table_mib.max(1))
            .with_options(options.search_options(SearchOptions::default().with_killers(true).with_table_depth(1)));
        Engine { searcher, threats, threat_options: options, threat_nodes_per_ms: 40 }
    }

    /// The threat-space knowledge the alpha-beta search uses (see [`Policy`]).
    pub fn set_threat_options(&mut self, options: ThreatOptions) {
        self.threat_options = options;
        self.searcher.set_evaluator(Policy::new(options, Some(self.threats.cache().clone())));
        let search = options.search_options(self.searcher.options().clone());
        self.searcher.set_options(search);
    }

    /// The threat-space hooks in force.
    pub fn threat_options(&self) -> ThreatOptions {
        self.threat_options
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
        self.set_threat_options(self.threat_options);
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
        let budget = limits
            .hard_time
            .map_or(DEFAULT_THREAT_NODES, |t| (t.as_millis() as u64 * self.threat_nodes_per_ms / 8).max(500));
        // Step 2. A proved win by threats.
        for (kind, depth) in [(ThreatKind::Vcf, VCF_DEPTH), (ThreatKind::Vct, VCT_DEPTH)] {
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
        // Step 3. Alpha-beta on the time left.
        let mut search_limits = limits.clone();
        let left = |t: Duration| t.saturating_sub(start.elapsed()).mul_f64(0.7).max(Duration::from_millis(5));
        search_limits.soft_time = limits.soft_time.map(left);
        search_limits.hard_time = limits.hard_time.map(left);
        let result = self.searcher.search(board, &search_limits, on_iteration);
        thought.nodes += result.nodes;
        thought.depth = result.depth;
        thought.score = result.score;
        thought.pv = result.pv.clone();
        thought.best = result.best_move;
        // Step 4. Defence: the move must not leave the opponent a forced win by threats.
        if let Some(best) = thought.best.filter(|_| result.score > loss_in(40)) {
            let mut b = board.clone();
            for kind in [ThreatKind::Vcf, ThreatKind::Vct] {
                let over_time = limits.hard_time.is_some_and(|t| start.elapsed() * 10 > t * 9);
                if over_time {
                    break;
                }
                if let Some(safe) = self.defend(&mut b, best, kind, budget / 4, &mut thought.nodes) {
                    if safe != best {
                        thought.best = Some(safe);
                        thought.pv = vec![safe];
                    }
                    break;
                }
            }
        }
        thought.elapsed = start.elapsed();
        thought
    }

    /// `best` if it leaves the opponent no win of `kind`, else the first of the best candidates that leaves
    /// none, else `best`. `None` if the answer is "keep `best`" only because nothing was threatened.
    fn defend(
        &mut self,
        board: &mut Board,
        best: Point,
        kind: ThreatKind,
        budget: u64,
        nodes: &mut u64,
    ) -> Option<Point> {
        let depth = if kind == ThreatKind::Vcf { VCF_DEPTH } else { VCT_DEPTH };
        let mut threatened = |engine: &mut Engine, board: &mut Board, m: Point| -> bool {
            board.play_unchecked(m);
            let win = board.winner().is_some();
            let lost = !win && engine.threats.find(board, kind, depth, budget).is_some();
            *nodes += engine.threats.nodes();
            board.undo_unchecked(m);
            lost
        };
        if !threatened(self, board, best) {
            return None;
        }
        let mut moves = Vec::new();
        if board.non_losing_moves(&mut moves).unwrap_or(0) == 0 {
            return Some(best);
        }
        let eval = Eval;
        let mut scored: Vec<(i32, Point)> = moves.iter().map(|&m| (eval.move_order(board, m), m)).collect();
        scored.sort_unstable_by_key(|s| std::cmp::Reverse(s.0));
        for &(_, m) in scored.iter().take(DEFENCE_CANDIDATES) {
            if m != best && !threatened(self, board, m) {
                return Some(m);
            }
        }
        Some(best)
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
