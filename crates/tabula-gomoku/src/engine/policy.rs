//! The engine's search policy: [`Policy`], the evaluator the alpha-beta plays Gomoku with — [`Eval`]'s judgement
//! (with the embedded weights, or others: [`Policy::with_weights`]) plus threat-space knowledge, each piece
//! switched by [`ThreatOptions`]:
//!
//! - **Forced replies.** A side that can make five makes it, and a side facing the opponent's four blocks it:
//!   the board reports such a node [in check](tabula::game::HookedGame::in_check) and lists the one move
//!   ([`Board::forced`]). With the core's check extension (which [`ThreatOptions::search_options`] switches
//!   on with this option) a four costs the attacker no depth, and quiescence answers a four with its block
//!   and makes a five when it can, so lines of fours end in exact win and loss scores.
//! - **VCF at inner nodes.** Where the search has the core's
//!   [`plan_depth`](tabula::search::SearchOptions::plan_depth) plies or more left (the [`Engine`](crate::Engine)
//!   asks from four) and the side to move is not forced,
//!   a bounded VCF ([`ThreatSolver`]) on the threat search's own keyed table ([`ThreatCache`], shared by the
//!   search threads): a side with one plays its first move only
//!   ([`winning_plan`](tabula::game::HookedEvaluator::winning_plan)). A side whose opponent has a VCF finds out one ply
//!   later, at the opponent's node.
//! - **VCF at the horizon.** Quiescence plays the first move of the side to move's VCF (its one
//!   [noisy move](tabula::game::HookedEvaluator::noisy_moves)); with the forced reply after each four, the line runs to the
//!   five and gives an exact score. (Playing every four in quiescence instead explodes: both sides' fours
//!   alternate without end.)
//!
//! The rules stay one type, [`Board`]; a different engine is a different evaluator.
//!
//! # Examples
//!
//! ```
//! use std::sync::Arc;
//! use tabula::game::Evaluator;
//! use tabula_gomoku::engine::policy::{Policy, ThreatOptions};
//! use tabula_gomoku::engine::threats::ThreatCache;
//! use tabula_gomoku::{Board, Rule};
//!
//! // Black to move has an open three (h8 i8 j8): an open four next, then five.
//! let board = Board::from_moves(15, 15, Rule::Freestyle, "h8 a1 i8 a3 j8 a5").unwrap();
//! let policy = Policy::new(ThreatOptions::default(), Some(Arc::new(ThreatCache::new(1))));
//! let plan = policy.winning_plan(&board).expect("black wins by fours");
//! assert!(board.is_legal(plan));
//! ```

use crate::board::{Board, Point, Shape};
use crate::engine::eval::{shared_weights, Eval, Weights};
use crate::engine::threats::{self, ThreatCache, ThreatKind, ThreatSolver};
use crate::pattern::Pattern;
use std::sync::Arc;
use tabula::game::{Evaluator, EvaluatorHooks, PRIORITY};
use tabula::score::Score;
use tabula::search::SearchOptions;

/// Most attacking moves of a VCF in the search: the node budget is what bounds it in practice.
const VCF_DEPTH: u32 = 12;

/// Why [`ThreatOptions::set`] refused a name or a value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ThreatOptionError {
    /// No threat option has this name.
    #[error("no threat option `{0}` (one of {names})", names = ThreatOptions::NAMES.join(", "))]
    Unknown(String),
    /// The value does not fit the option.
    #[error("bad value `{value}` for the threat option `{name}` (expected {expected})")]
    BadValue {
        /// The option.
        name: String,
        /// The value given.
        value: String,
        /// What the option takes.
        expected: &'static str,
    },
}

impl ThreatOptionError {
    /// What the option takes, or for an unknown name that it must be an option's.
    pub fn expected(&self) -> &'static str {
        match self {
            ThreatOptionError::Unknown(_) => "a threat option's name",
            ThreatOptionError::BadValue { expected, .. } => expected,
        }
    }
}

/// Which threat-space knowledge the search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreatOptions {
    /// Answer a five to make or stop at once, at every depth, and extend fours (the search's check extension).
    pub forced_replies: bool,
    /// Node budget of the VCF searched in quiescence (0: none).
    pub horizon_vcf_nodes: u64,
    /// Node budget of the VCF searched at inner nodes with `plan_depth` plies or more left (0: none; needs
    /// `forced_replies`).
    pub inner_vcf_nodes: u64,
    /// Where the opponent has an open three (a point that would make it an open four, or two fours), search
    /// only the moves that parry it and the side to move's own fours, at inner nodes with two plies or more
    /// left: every other move loses to the open four.
    pub parry_threes: bool,
    /// Where the opponent has no open-four threat but a four-three point (one stone making a four and an open
    /// three), search only the moves that parry every such point and the side to move's own fours, at inner
    /// nodes with two plies or more left: any other move loses to the four-three in three moves.
    pub parry_four_threes: bool,
    /// Rank the points that make nothing for either side (no line with an open two or better, for the side to
    /// move or its opponent) after every other move, as [losing moves](tabula::game::PRIORITY) are ranked, so
    /// that the search's [`losing_move_pruning`](SearchOptions::losing_move_pruning) prunes them near the
    /// horizon (Rapfi's classical search prunes such trivial moves within four plies of it).
    pub trivial_last: bool,
}

impl Default for ThreatOptions {
    /// Forced replies, a 1,000-node inner VCF and no horizon VCF, the best of the settings measured by matches
    /// at 10 s + 0.1 s (see the crate's section in the workspace README); and threes parried, measured with
    /// the engine's other changes of the same round against Wine (the README's Peers section).
    fn default() -> Self {
        ThreatOptions {
            forced_replies: true,
            horizon_vcf_nodes: 0,
            inner_vcf_nodes: 1_000,
            parry_threes: true,
            parry_four_threes: false,
            trivial_last: false,
        }
    }
}

impl ThreatOptions {
    /// Every piece off: the search sees the plain rules.
    pub const OFF: ThreatOptions = ThreatOptions {
        forced_replies: false,
        horizon_vcf_nodes: 0,
        inner_vcf_nodes: 0,
        parry_threes: false,
        parry_four_threes: false,
        trivial_last: false,
    };

    /// The names [`set`](Self::set) takes, one per field: the node budgets as `horizon_vcf` and `inner_vcf`.
    pub const NAMES: [&'static str; 6] =
        ["forced_replies", "horizon_vcf", "inner_vcf", "parry_threes", "parry_four_threes", "trivial_last"];

    /// Sets the option called `name` (one of [`NAMES`](Self::NAMES)) from text: a whole number, where a switch
    /// is on unless it is 0 and a negative node budget is 0. For a protocol's options and the lab's tools, so
    /// that one binary can be measured with one option changed.
    ///
    /// # Errors
    ///
    /// [`ThreatOptionError`] for an unknown name or a value that is not a whole number.
    ///
    /// # Examples
    ///
    /// ```
    /// use tabula_gomoku::engine::policy::ThreatOptions;
    ///
    /// let mut options = ThreatOptions::default();
    /// options.set("inner_vcf", "5000").unwrap();
    /// options.set("trivial_last", "1").unwrap();
    /// assert_eq!((options.inner_vcf_nodes, options.trivial_last), (5000, true));
    /// assert!(options.set("inner_vcf", "many").is_err() && options.set("outer_vcf", "1").is_err());
    /// // Every listed name is one it sets.
    /// assert!(ThreatOptions::NAMES.iter().all(|name| options.set(name, "0").is_ok()));
    /// assert_eq!(options, ThreatOptions::OFF);
    /// ```
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ThreatOptionError> {
        let number = |expected: &'static str| {
            value.trim().parse::<i64>().map(|v| v.max(0) as u64).map_err(|_| ThreatOptionError::BadValue {
                name: name.to_string(),
                value: value.to_string(),
                expected,
            })
        };
        let flag = || number("0 or 1").map(|v| v != 0);
        match name {
            "forced_replies" => self.forced_replies = flag()?,
            "horizon_vcf" => self.horizon_vcf_nodes = number("a node budget")?,
            "inner_vcf" => self.inner_vcf_nodes = number("a node budget")?,
            "parry_threes" => self.parry_threes = flag()?,
            "parry_four_threes" => self.parry_four_threes = flag()?,
            "trivial_last" => self.trivial_last = flag()?,
            _ => return Err(ThreatOptionError::Unknown(name.to_string())),
        }
        Ok(())
    }

    /// `options` with the search's check extension (which forced replies rest on) set by these options.
    pub fn search_options(&self, options: SearchOptions) -> SearchOptions {
        options.with_check_extension(self.forced_replies)
    }
}

/// The engine's evaluator: [`Eval`] plus the threat searches of [`ThreatOptions`]. See the [module
/// documentation](self).
#[derive(Clone)]
pub struct Policy {
    options: ThreatOptions,
    cache: Option<Arc<ThreatCache>>,
    weights: Arc<Weights>,
    order: Option<Arc<Weights>>,
}

impl Policy {
    /// The policy `options` asks for, with the embedded evaluation weights; the VCF searches need a `cache`.
    pub fn new(options: ThreatOptions, cache: Option<Arc<ThreatCache>>) -> Policy {
        Policy { options, cache, weights: shared_weights(), order: None }
    }

    /// This policy evaluating with `weights` instead (a file from `tabula-lab gomoku tune fit`, say).
    #[must_use]
    pub fn with_weights(mut self, weights: Arc<Weights>) -> Policy {
        self.weights = weights;
        self
    }

    /// This policy ordering moves by `order` read as a move order ([`Weights::move_order`], a file from
    /// `tabula-lab gomoku tune order`), or by the hand-set order ([`Eval`]'s) for `None`.
    #[must_use]
    pub fn with_order(mut self, order: Option<Arc<Weights>>) -> Policy {
        self.order = order;
        self
    }

    /// The fitted move order in force, if any.
    pub fn order(&self) -> Option<&Arc<Weights>> {
        self.order.as_ref()
    }

    /// The options in force.
    pub fn options(&self) -> ThreatOptions {
        self.options
    }

    /// The evaluation's weights.
    pub fn weights(&self) -> &Arc<Weights> {
        &self.weights
    }

    /// The first move of a VCF for the side to move, within `budget` nodes.
    fn vcf(&self, board: &Board, budget: u64) -> Option<Point> {
        let cache = self.cache.as_ref().filter(|_| budget > 0)?;
        ThreatSolver::with_cache(cache.clone()).find(board, ThreatKind::Vcf, VCF_DEPTH, budget)
    }
}

impl Evaluator<Board> for Policy {
    fn evaluate(&self, board: &Board) -> Score {
        self.weights.evaluate(board)
    }

    fn move_order(&self, board: &Board, mv: Point) -> i32 {
        let hint = match &self.order {
            Some(order) => order.move_order(board, mv),
            None => Eval.move_order(board, mv),
        };
        if self.options.trivial_last && is_trivial(board, mv) {
            // Below -PRIORITY, in the hints' own order.
            -2 * PRIORITY + hint.clamp(-PRIORITY / 2, PRIORITY / 2)
        } else {
            hint
        }
    }

    /// Quiescence resolves a win by continuous fours; fours are tactical; the winning plan and the parries of
    /// open threes as the options say.
    const HOOKS: EvaluatorHooks<Board, Policy> = EvaluatorHooks {
        noisy_moves: Some(Policy::noisy_moves),
        is_tactical: Some(|_, board, mv| makes_four(board, mv)),
        winning_plan: Some(Policy::winning_plan),
        threat_replies: Some(Policy::threat_replies),
        ..EvaluatorHooks::NONE
    };
}

impl Policy {
    /// A win by continuous fours within the horizon's budget, if the threat search finds one.
    pub fn noisy_moves(&self, board: &Board, moves: &mut Vec<Point>) {
        moves.extend(self.vcf(board, self.options.horizon_vcf_nodes));
    }

    /// A win by continuous fours within the inner budget (with forced replies on).
    pub fn winning_plan(&self, board: &Board) -> Option<Point> {
        if !self.options.forced_replies {
            return None;
        }
        self.vcf(board, self.options.inner_vcf_nodes)
    }

    /// The parries of the opponent's open threes and the side to move's own fours, as the threat search's
    /// defender has them; where there is no open three, of its four-three points (with `parry_four_threes`).
    pub fn threat_replies(&self, board: &Board, moves: &mut Vec<Point>) -> Option<usize> {
        let me = board.side_to_move();
        // (An open-four point, or one of two fours, is a four point too; so is a four-three point.)
        if !self.options.parry_threes || !board.has_shape(me.opponent(), Shape::Four) {
            return None;
        }
        let replies = threats::defences(board, ThreatKind::Vct)
            .or_else(|| self.options.parry_four_threes.then(|| threats::four_three_defences(board)).flatten())?;
        let before = moves.len();
        moves.extend(replies.into_iter().filter(|p| board.is_legal_at(p.index(), me)));
        Some(moves.len() - before)
    }
}

/// Whether `mv` makes nothing along any line for either side: no open two or better.
fn is_trivial(board: &Board, mv: Point) -> bool {
    let weak = |color| board.patterns_at(mv.index(), color).iter().all(|&p| p < Pattern::FlexTwo);
    weak(board.side_to_move()) && weak(board.side_to_move().opponent())
}

/// Whether `mv` makes a four (or five) for the side to move: a tactical move.
fn makes_four(board: &Board, mv: Point) -> bool {
    board.patterns_at(mv.index(), board.side_to_move()).iter().any(|p| p.is_four())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rule;
    use tabula::game::HookedGame;
    use tabula::search::{minimax, Searcher};

    #[test]
    fn forced_replies_keep_minimax_values_at_two_plies_and_more() {
        // The forced-reply restriction is the core's tactics on the board's hooks: exact from two plies up.
        for (rule, moves) in [
            (Rule::Freestyle, "c3 c4 d3 d4 e3"),
            (Rule::Standard, "c3 b2 d4 e5 b4 a1 e6"),
            (Rule::Renju, "c3 d3 c4 d5 c5"),
            (Rule::Freestyle, "b2 f6 c3 f5 d4 f4"),
        ] {
            let board = Board::from_moves(7, 7, rule, moves).unwrap();
            for depth in 2..=3 {
                let plain = minimax(&mut board.clone(), &Eval, depth).score;
                let options = SearchOptions::default().value_keeping();
                let mut searcher = Searcher::with_table_size(Eval, 1).with_options(options);
                assert_eq!(searcher.search_depth(&board, depth).score, plain, "{rule} {moves} depth {depth}");
            }
            assert!(board.in_check() || board.forced() == crate::board::Forced::Free);
        }
    }

    #[test]
    fn the_policy_evaluates_with_its_weights() {
        let board = Board::from_moves(15, 15, Rule::Freestyle, "h8 i9 h9 h10 g8").unwrap();
        let hand = Arc::new(Weights::hand_set());
        let policy = Policy::new(ThreatOptions::default(), None);
        assert_eq!(policy.evaluate(&board), Eval.evaluate(&board));
        let policy = policy.with_weights(hand.clone());
        assert_eq!(policy.evaluate(&board), hand.evaluate(&board));
        assert_ne!(hand.evaluate(&board), Eval.evaluate(&board));
    }
}
