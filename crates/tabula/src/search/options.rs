//! What the [`Searcher`](super::Searcher) does: every option declared once, with its default, its value in
//! the solver preset, whether the lean search may run with it, and the values the differential tests try.
//!
//! Presets: [`SearchOptions::default`] (heuristic play), [`SearchOptions::solver`] (exact solving),
//! [`SearchOptions::table_and_pvs`] (the table and principal variation search, nothing else) and
//! [`SearchOptions::verification`] (the option sets [`verify::check_all`](super::verify::check_all) compares
//! with minimax). Each option has a builder method, so a variation reads as a chain:
//!
//! ```
//! use tabula::search::SearchOptions;
//!
//! let options = SearchOptions::default().with_threads(2).with_lmr(true).with_futility_depth(4);
//! assert!(options.table && options.lmr && options.threads == 2);
//! ```
//!
//! A new option is one more line in the declaration below: it joins the presets, the builder and, through
//! its test values, the verification matrix. Options that change values at a fixed depth (pruning,
//! extensions) are tried only switched off there; the thresholds that tune them are options too, so each
//! game can set its own.

use crate::game::{Evaluator, Game};
use crate::score::Score;

/// Declares the options: doc, name, builder, type, default, solver value, lean value (`None`: the lean
/// search runs with any value), test values.
macro_rules! declare_options {
    ($(
        $(#[doc = $doc:expr])*
        $name:ident / $with:ident : $ty:ty = $default:expr,
            solver $solver:expr, lean $lean:expr, verify [$($verify:expr),+ $(,)?];
    )*) => {
        /// Which techniques the [`Searcher`](super::Searcher) uses, and their thresholds. See the [module
        /// documentation](self) for the presets and the builder.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct SearchOptions {
            $( $(#[doc = $doc])* pub $name: $ty, )*
        }

        impl Default for SearchOptions {
            /// Everything that helps a depth- or time-limited search of a typical game.
            fn default() -> Self {
                Self { $( $name: $default, )* }
            }
        }

        impl SearchOptions {
            /// Everything off but the table, the tactical hooks and check extension: the fastest setting for
            /// exact solving ([`Searcher::solve`](super::Searcher::solve) runs its own lean proof search with it).
            pub fn solver() -> Self {
                Self { $( $name: $solver, )* }
            }

            $(
                #[doc = concat!("Sets [`", stringify!($name), "`](Self::", stringify!($name), ").")]
                #[must_use]
                pub fn $with(mut self, value: $ty) -> Self {
                    self.$name = value;
                    self
                }
            )*

            /// Whether the lean search can run these options: only the table, PVS, aspiration windows, the
            /// history heuristic and threads are on, so that a node pays for nothing else.
            pub fn is_lean(&self) -> bool {
                true $( && { let lean: Option<$ty> = $lean; lean.map_or(true, |v| self.$name == v) } )*
            }

            /// These options with every one that may change the value of a fixed-depth search set to its
            /// value-keeping test value.
            #[must_use]
            pub fn value_keeping(mut self) -> Self {
                $(
                    let values: &[$ty] = &[$($verify),+];
                    if values.len() == 1 {
                        self.$name = values[0].clone();
                    }
                )*
                self
            }

            /// The options' names, in declaration order: those [`set`](Self::set) takes.
            pub const NAMES: &'static [&'static str] = &[$( stringify!($name), )*];

            /// Sets the option called `name` (a field's name, `counter_moves`) from text: `true`/`false` (or
            /// `1`/`0`, `on`/`off`) for a switch, a number for a threshold, and for an optional one also `none`
            /// (or `off`) to leave it out. For a protocol's options, so that one binary can be matched against
            /// itself with one option changed.
            pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
                $(
                    if name == stringify!($name) {
                        self.$name = <$ty as OptionValue>::parse(value.trim()).ok_or_else(|| OptionError::BadValue {
                            name: name.to_owned(),
                            value: value.to_owned(),
                            expected: <$ty as OptionValue>::EXPECTED,
                        })?;
                        return Ok(());
                    }
                )*
                Err(OptionError::Unknown(name.to_owned()))
            }

            /// How many test values each option has, in declaration order.
            fn test_value_counts() -> Vec<usize> {
                vec![$( { let values: &[$ty] = &[$($verify),+]; values.len() }, )*]
            }

            /// The index of each option's value among its test values (0 if it is not among them).
            fn test_choice(&self) -> Vec<usize> {
                vec![$( {
                    let values: &[$ty] = &[$($verify),+];
                    values.iter().position(|v| *v == self.$name).unwrap_or(0)
                }, )*]
            }

            /// The option set that takes test value `choice[i]` for the `i`-th option.
            fn from_test_values(choice: &[usize]) -> Self {
                let mut i = 0;
                let mut next = || {
                    i += 1;
                    choice[i - 1]
                };
                Self { $( $name: { let values: &[$ty] = &[$($verify),+]; values[next()].clone() }, )* }
            }
        }
    };
}

/// Why [`SearchOptions::set`] refused a name or a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// The value does not fit the option.
    BadValue {
        /// The option.
        name: String,
        /// The value given.
        value: String,
        /// What the option takes.
        expected: &'static str,
    },
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "no search option is called `{name}`"),
            OptionError::BadValue { name, value, expected } => {
                write!(f, "search option `{name}` takes {expected}, not `{value}`")
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// An option's value read from text.
trait OptionValue: Sized {
    /// What the text must be, for the error.
    const EXPECTED: &'static str;
    fn parse(text: &str) -> Option<Self>;
}

impl OptionValue for bool {
    const EXPECTED: &'static str = "true or false";
    fn parse(text: &str) -> Option<bool> {
        match text.to_ascii_lowercase().as_str() {
            "true" | "1" | "on" => Some(true),
            "false" | "0" | "off" => Some(false),
            _ => None,
        }
    }
}

impl OptionValue for i32 {
    const EXPECTED: &'static str = "a whole number";
    fn parse(text: &str) -> Option<i32> {
        text.parse().ok()
    }
}

impl OptionValue for usize {
    const EXPECTED: &'static str = "a count from 0";
    fn parse(text: &str) -> Option<usize> {
        text.parse().ok()
    }
}

impl OptionValue for Option<i32> {
    const EXPECTED: &'static str = "a whole number or none";
    fn parse(text: &str) -> Option<Option<i32>> {
        match text.to_ascii_lowercase().as_str() {
            "none" | "off" => Some(None),
            number => number.parse().ok().map(Some),
        }
    }
}

declare_options! {
    // ---- The table and the window ----
    /// Probe and store the transposition table.
    table / with_table: bool = true, solver true, lean None, verify [false, true];
    /// Nodes at least this many plies from the horizon probe and store the table; the frontier nearer than
    /// that searches without it. A probe is a memory access the size of the table away; at the last plies
    /// before a cheap evaluation it can cost more time than the nodes it saves.
    /// On by default (2): on the comparison with minimax-rs (Connect Four to depth 16) skipping the table
    /// one ply from the horizon searches 1.26 times the nodes in 0.8 times the time. Chess, xiangqi and
    /// Gomoku, whose frontier nodes go on into quiescence or threat searches, use 1.
    table_depth / with_table_depth: i32 = 2, solver 1, lean None, verify [1, 2];
    /// Principal variation search: null windows for all but the first move, re-searched on a fail high.
    pvs / with_pvs: bool = true, solver false, lean None, verify [false, true];
    /// Aspiration windows from this half-width around the last iteration's score (`None`: full window).
    aspiration / with_aspiration: Option<Score> = Some(50), solver None, lean None, verify [None, Some(1)];

    // ---- Move ordering ----
    /// Killer moves (two per ply) tried early. Off by default: where moves are few and a move's code names
    /// the same move in every position (Connect Four), the history orders better on its own, and killers
    /// ahead of it cost nodes (1.29 times the nodes on the comparison with minimax-rs, 1.8 times with
    /// history on Connect Four's engine). Chess, xiangqi and Gomoku turn them on.
    killers / with_killers: bool = false, solver false, lean Some(false), verify [false, true];
    /// The history heuristic for ordering quiet moves. The lean search has it too: added to the table and PVS
    /// alone, it searches 0.58 times the nodes on the comparison with minimax-rs, in 0.73–0.75 times the time.
    history / with_history: bool = true, solver false, lean None, verify [false, true];
    /// Counter moves: the move that last cut off after the opponent's move before is tried after the
    /// killers. Off by default; chess turns it on.
    counter_moves / with_counter_moves: bool = false, solver false, lean Some(false), verify [false, true];
    /// Continuation history: a quiet move's history also counts how often the same piece going to the same
    /// square ([`Game::piece_to`](crate::game::HookedGame::piece_to)) cut off after the moves one and two plies
    /// before, in ordering and (with `lmr_history`) in reductions. Needs `history`, and a game with piece-to
    /// codes. Off by default; chess turns it on.
    continuation_history / with_continuation_history: bool = false, solver false, lean Some(false), verify [false, true];
    /// Quiet rewards: only a quiet move (one the evaluator does not call
    /// [tactical](crate::game::HookedEvaluator::is_tactical)) that cuts off becomes a killer or counter move and
    /// gains history, and only the quiet moves tried before it lose history (they are what the histories
    /// order). Off: every move that cuts off counts, and every move tried before it. Chess turns it on.
    quiet_rewards / with_quiet_rewards: bool = false, solver false, lean Some(false), verify [false, true];

    // ---- The game's tactics ----
    /// The game's tactical hooks ([`Game::winning_move`](crate::game::HookedGame::winning_move),
    /// [`non_losing_moves`](crate::game::HookedGame::non_losing_moves), ...) and the evaluator's
    /// [`winning_plan`](crate::game::HookedEvaluator::winning_plan) and
    /// [`threat_replies`](crate::game::HookedEvaluator::threat_replies).
    tactics / with_tactics: bool = true, solver true, lean Some(false), verify [false, true];
    /// Nodes at least this many plies from the horizon ask the evaluator's
    /// [`winning_plan`](crate::game::HookedEvaluator::winning_plan) (with `tactics`); nearer the horizon the
    /// search's own tactics must find the win. A plan may be dear (Gomoku's is a threat-space search at every
    /// such node) while near the horizon the forced replies find short wins anyway: Gomoku asks from 4.
    plan_depth / with_plan_depth: i32 = 2, solver 2, lean None, verify [2];
    /// Enhanced transposition cutoffs: before searching a node's moves, look each child up in the table (for
    /// games with [`child_table_key`](crate::game::HookedGame::child_table_key)). Off by default: on Connect Four it
    /// saves a quarter of the nodes but costs more time in table probes than it saves.
    etc / with_etc: bool = false, solver false, lean Some(false), verify [false, true];

    // ---- The horizon ----
    /// Quiescence search on the evaluator's [noisy moves](crate::game::HookedEvaluator::noisy_moves) at the leaves.
    /// Changes values where there are noisy moves: the differential tests use evaluators without them.
    quiescence / with_quiescence: bool = true, solver false, lean Some(false), verify [false, true];
    /// Quiescence nodes probe the table (cutting off on a bound that decides, reusing a stored evaluation)
    /// and store their result at depth 0. Worth it where noisy moves are many (chess); pure cost in games
    /// without noisy moves, where the leaf is the evaluation. Needs `table` and `quiescence`.
    quiescence_table / with_quiescence_table: bool = false, solver false, lean Some(false), verify [false, true];
    /// Delta pruning with this margin: quiescence nodes not in check leave out a noisy move that does not give
    /// check and whose [gain](crate::game::HookedEvaluator::noisy_gain) plus the margin cannot lift the static
    /// evaluation to alpha. `None`: off.
    quiescence_delta / with_quiescence_delta: Option<Score> = None, solver None, lean None, verify [None];
    /// Extend by one ply every move that leaves the opponent [in check](crate::game::HookedGame::in_check).
    /// Changes values at a fixed depth.
    check_extension / with_check_extension: bool = true, solver true, lean Some(false), verify [false];

    // ---- Pruning and reductions (each changes values at a fixed depth) ----
    /// Null-move pruning where the game offers a [null move](crate::game::HookedGame::null_move).
    null_move / with_null_move: bool = true, solver false, lean Some(false), verify [false];
    /// Late-move reductions: at PVS null-window nodes, quiet moves (not
    /// [tactical](crate::game::HookedEvaluator::is_tactical), not killers, not giving or escaping check) tried late
    /// are searched shallower first, and again at full depth only if they beat alpha.
    lmr / with_lmr: bool = false, solver false, lean Some(false), verify [false];
    /// With late-move reductions and history on: a move's reduction shrinks by its history score divided by
    /// this (grows, for a negative score), so that moves that often cut off are searched deeper. `None`: off.
    lmr_history / with_lmr_history: Option<i32> = None, solver None, lean Some(None), verify [None];
    /// With late-move reductions and `improving` on: at a node whose side to move stands no better than two
    /// plies before, late moves are reduced a ply more.
    lmr_improving / with_lmr_improving: bool = false, solver false, lean Some(false), verify [false];
    /// With late-move reductions on: at an expected cut node (a null-window node whose parent expects its
    /// move to be refuted there: the late moves of a PV node, and every other ply below them), late moves are
    /// reduced this many plies more, as the first moves usually refute. `None`: off.
    cut_node_reduction / with_cut_node_reduction: Option<i32> = None, solver None, lean Some(None), verify [None];
    /// Reverse futility pruning with this margin per ply: a non-PV node up to `futility_depth` plies from
    /// the horizon, not in check, whose static evaluation beats beta by the margin times the depth, returns
    /// the evaluation. `None`: off.
    futility_margin / with_futility_margin: Option<Score> = None, solver None, lean Some(None), verify [None];
    /// Razoring with this margin per ply: at non-PV nodes up to `razor_depth` plies from the horizon, not in
    /// check, whose static evaluation plus the margin times the depth falls short of alpha, the quiescence
    /// search (a null window at alpha) decides: if it does not reach alpha either, its score is the node's.
    /// `None`: off.
    razor_margin / with_razor_margin: Option<Score> = None, solver None, lean Some(None), verify [None];
    /// Late-move pruning: at non-PV nodes up to `lmp_depth` plies from the horizon, not in check, quiet moves
    /// after the first `3 + depth^(lmp_power / 100)` (`3 + depth²` by default) are not searched once a move has
    /// saved the node from a loss.
    late_move_pruning / with_late_move_pruning: bool = false, solver false, lean Some(false), verify [false];
    /// With late-move pruning and `improving` on: at a node whose side to move stands no better than two plies
    /// before, half as many moves are searched before the pruning starts.
    lmp_improving / with_lmp_improving: bool = false, solver false, lean Some(false), verify [false];
    /// Futility pruning of moves with this margin per ply: at non-PV nodes up to `futility_depth` plies from
    /// the horizon, not in check, whose static evaluation plus the margin times (depth + 1) cannot reach
    /// alpha, quiet moves after the first are not searched. `None`: off.
    move_futility_margin / with_move_futility_margin: Option<Score> = None, solver None, lean Some(None), verify [None];
    /// Improving: where the static evaluation is no better than two plies before (same side to move), reverse
    /// futility asks one margin more (and, with `lmr_improving`, late moves are reduced a ply more); where it
    /// is better, it works as without this option. Needs the evaluation at every node not in check.
    /// (Late-move pruning of half the moves where the evaluation is not improving, as some engines do, cost
    /// chess a won rook ending and two Win-at-Chess positions.)
    improving / with_improving: bool = false, solver false, lean Some(false), verify [false];
    /// Reverse futility and the null move judge a node by the table's score instead of the static
    /// evaluation where the stored bound says the searched score lies beyond the evaluation (above it, for a
    /// lower bound; below, for an upper one). Changes values at a fixed depth.
    table_eval / with_table_eval: bool = false, solver false, lean Some(false), verify [false];
    /// Correction history: the static evaluation (at every node and at quiescence's stand-pat) is corrected by
    /// how far searched scores of positions with the same [correction
    /// key](crate::game::HookedEvaluator::correction_key) (in chess, the pawns and the side to move) lately fell
    /// from it. Each node not in check whose score is not decisive and whose best move is quiet teaches it,
    /// deeper searches more, where its bound says which way the evaluation erred. It carries over from search
    /// to search until [`Searcher::clear`](super::Searcher::clear). Needs an evaluator with correction keys.
    /// Changes values at a fixed depth.
    correction_history / with_correction_history: bool = false, solver false, lean Some(false), verify [false];
    /// Losing-move pruning: at non-PV nodes up to this many plies from the horizon, not in check, moves the
    /// evaluator hints at [`-PRIORITY`](crate::game::PRIORITY) or less (in chess captures that lose material
    /// and under-promotions) are not searched once a move has saved the node from a loss. `None`: off.
    losing_move_pruning / with_losing_move_pruning: Option<i32> = None, solver None, lean Some(None), verify [None];
    /// Singular extension at nodes this many plies from the horizon and further (at least 3; not the root):
    /// when the table holds a lower bound for its move searched at most three plies shallower, the other
    /// moves are searched half as deep against that bound less `singular_margin` per ply; if all fail, the
    /// table move is searched a ply deeper, and if the search beats beta anyway, the node is cut. `None`: off.
    singular_depth / with_singular_depth: Option<i32> = None, solver None, lean Some(None), verify [None];
    /// With singular extensions on: where the other moves do not all fail (the table move is not singular)
    /// and the table's lower bound already beats beta, the table move is searched a ply shallower instead
    /// (another move would likely cut off too).
    singular_reduction / with_singular_reduction: bool = false, solver false, lean Some(false), verify [false];
    /// ProbCut with this margin: at non-PV nodes `probcut_depth` or more plies from the horizon, not in check,
    /// each noisy move (the evaluator's [`noisy_moves`](crate::game::HookedEvaluator::noisy_moves)) is searched, first
    /// by quiescence, then four plies shallower, with a null window at beta plus the margin; the first to beat
    /// it ends the node with its score less the margin. Not where the table holds a score below beta plus the
    /// margin from a search at most three plies shallower. `None`: off.
    probcut_margin / with_probcut_margin: Option<Score> = None, solver None, lean Some(None), verify [None];
    /// Internal iterative reduction: a node `iir_depth` or more plies from the horizon with no move from the
    /// table is searched a ply shallower (its ordering is poor, and the next visit will have a table move).
    iir / with_iir: bool = false, solver false, lean Some(false), verify [false];

    // ---- Thresholds of the above, for each game to tune ----
    /// Reverse futility and move futility apply this many plies from the horizon and closer.
    futility_depth / with_futility_depth: i32 = 6, solver 6, lean None, verify [6];
    /// Razoring applies this many plies from the horizon and closer.
    razor_depth / with_razor_depth: i32 = 2, solver 2, lean None, verify [2];
    /// Late-move pruning applies this many plies from the horizon and closer.
    lmp_depth / with_lmp_depth: i32 = 6, solver 6, lean None, verify [6];
    /// Late-move pruning's count grows as the depth to this power, in hundredths: 200 is `3 + depth²` (1, 2, 3
    /// plies: 4, 7, 12 moves); a game whose move order is good prunes sooner with less (132: 4, 5, 7).
    lmp_power / with_lmp_power: i32 = 200, solver 200, lean None, verify [200];
    /// ProbCut applies this many plies from the horizon and further (at least 5 makes sense: its searches are
    /// four plies shallower).
    probcut_depth / with_probcut_depth: i32 = 5, solver 5, lean None, verify [5];
    /// Internal iterative reduction applies this many plies from the horizon and further.
    iir_depth / with_iir_depth: i32 = 4, solver 4, lean None, verify [4];
    /// Late-move reductions apply this many plies from the horizon and further ...
    lmr_depth / with_lmr_depth: i32 = 3, solver 3, lean None, verify [3];
    /// ... to the moves after this many.
    lmr_moves / with_lmr_moves: usize = 3, solver 3, lean None, verify [3];
    /// Late-move reductions are about ln(depth)·ln(index) divided by this, in hundredths (225: by 2.25; the Gomoku
    /// engine divides by 100, as Rapfi's freestyle search does).
    lmr_divisor / with_lmr_divisor: i32 = 225, solver 225, lean None, verify [225];
    /// The margin of a singular extension's search, per ply of depth, in the evaluation's units.
    singular_margin / with_singular_margin: Score = 2, solver 2, lean None, verify [2];
    /// Null-move searches are this many plies shallower than a normal child, plus one per four plies of depth.
    null_move_reduction / with_null_move_reduction: i32 = 2, solver 2, lean None, verify [2];
    /// Null-move searches are a ply shallower still for each this much by which the static evaluation beats
    /// beta, at most three plies more (a position far above beta needs a shallower proof). `None`: off.
    null_move_eval_step / with_null_move_eval_step: Option<Score> = None, solver None, lean Some(None), verify [None];
    /// Enhanced transposition cutoffs are tried this many plies from the horizon and further.
    etc_depth / with_etc_depth: i32 = 4, solver 4, lean None, verify [4];

    // ---- Time ----
    /// Time scaling: under a clock, the soft limit (past which no new iteration starts) follows the search.
    /// It grows while the best root move is new and shrinks while it stays the same (1.8 times the limit
    /// after a change, 0.7 times once six iterations in a row have kept the move), and it grows as the
    /// score falls from one iteration to the next, by half for a fall of this much (at most 1.5 times;
    /// at least 0.85 times as the score rises). Never past the hard limit. A unit of zero or below, like
    /// `None`, keeps the soft limit fixed; so does a fixed time for the move (soft and hard limits equal,
    /// UCI's `movetime`), which is spent whole. (Under a clock, whatever this option, a root with a single
    /// legal move takes a twentieth of its soft limit.)
    time_scaling / with_time_scaling: Option<Score> = None, solver None, lean None, verify [None];

    // ---- Threads ----
    /// Search threads sharing the table (Lazy SMP; a parallel solve defers positions another thread is
    /// searching). At least one.
    threads / with_threads: usize = 1, solver 1, lean None, verify [1, 2];
}

impl SearchOptions {
    /// The set a game engine plays with, every option chess's self-play SPRTs kept (the book's chess search
    /// trials) at the values they were measured with, for a game with a static evaluation that names its tactical
    /// moves and its correction keys, hints losing moves at [`-PRIORITY`](crate::game::PRIORITY), and gives
    /// piece-to codes: killers, counter moves, continuation history and quiet rewards; the table probed from one
    /// ply before the horizon and in quiescence; late-move reductions by history (a ply per 8,192) and a ply
    /// more where not improving (history lies within ±16,384, and in a search of a second a tenth of the moves
    /// reduced lie below −600 and a tenth above 1,800, so this moves few; a ply per 1,024 lost); check extension; reverse futility (asking a margin more where not improving)
    /// and late-move pruning; correction history and the table's score in pruning; losing moves pruned within
    /// three plies of the horizon; the null move a ply shallower per 200 units the evaluation beats beta by;
    /// singular extensions from seven plies; and time scaling by a fall of 30. The margins are each game's own
    /// (`futility_margin`, `move_futility_margin`, `aspiration`), left at their defaults here; chess and
    /// xiangqi set theirs.
    pub fn playing(threads: usize) -> Self {
        Self::default()
            .with_threads(threads.max(1))
            .with_killers(true)
            .with_counter_moves(true)
            .with_continuation_history(true)
            .with_quiet_rewards(true)
            .with_table_depth(1)
            .with_lmr(true)
            .with_lmr_history(Some(8192))
            .with_lmr_improving(true)
            .with_check_extension(true)
            .with_late_move_pruning(true)
            .with_improving(true)
            .with_correction_history(true)
            .with_table_eval(true)
            .with_losing_move_pruning(Some(3))
            .with_quiescence_table(true)
            .with_null_move_eval_step(Some(200))
            .with_singular_depth(Some(7))
            .with_time_scaling(Some(30))
    }

    /// The table and principal variation search and nothing else: what a small game with a plain evaluation
    /// wants, and the lean search with nothing for a node to pay for.
    pub fn table_and_pvs() -> Self {
        let mut options = Self::default().value_keeping();
        options.aspiration = None;
        options.killers = false;
        options.history = false;
        options.tactics = false;
        options.quiescence = false;
        debug_assert!(options.is_lean());
        options
    }

    /// The option sets the differential tests compare with minimax, each with the number of lines to ask for
    /// ([`Request::lines`](super::Request::lines): 1 or 3): every triple of test values of any three options
    /// (the lines counting as one) appears in some set (a covering array of strength three, built greedily and
    /// deterministically), and the value-keeping parts of the three presets, with one line, are among them.
    /// Sets with two threads keep the table. Built once (it takes a good part of a second) and kept.
    pub fn verification() -> &'static [(SearchOptions, usize)] {
        static SETS: std::sync::OnceLock<Vec<(SearchOptions, usize)>> = std::sync::OnceLock::new();
        SETS.get_or_init(Self::covering_sets)
    }

    /// The sets of [`verification`](Self::verification), built.
    fn covering_sets() -> Vec<(SearchOptions, usize)> {
        const LINES: [usize; 2] = [1, 3];
        let mut counts = Self::test_value_counts();
        // The lines are one more dimension, after the options.
        counts.push(LINES.len());
        let options = counts.len() - 1;
        let varied: Vec<usize> = (0..counts.len()).filter(|&i| counts[i] > 1).collect();
        // Every combination of the varied options' test values, the others at their only value.
        let mut candidates = Vec::new();
        let total: usize = varied.iter().map(|&i| counts[i]).product();
        for mut n in 0..total {
            let mut choice = vec![0; counts.len()];
            for &i in &varied {
                choice[i] = n % counts[i];
                n /= counts[i];
            }
            if Self::from_test_values(&choice[..options]).is_sound() {
                candidates.push(choice);
            }
        }
        // The triples of options, and for each the values they take: a triple of values (option a = x,
        // option b = y, option c = z) is a slot in a flat table, so that counting what a candidate would cover
        // allocates nothing.
        let mut triples = Vec::new();
        for (ai, &a) in varied.iter().enumerate() {
            for (bi, &b) in varied.iter().enumerate().skip(ai + 1) {
                for &c in &varied[bi + 1..] {
                    triples.push([a, b, c]);
                }
            }
        }
        let m = counts.iter().copied().max().unwrap_or(1);
        let slot = |t: usize, choice: &[usize]| {
            let [a, b, c] = triples[t];
            ((t * m + choice[a]) * m + choice[b]) * m + choice[c]
        };
        // The triples some sound set covers, less those the presets cover.
        let mut uncovered = vec![false; triples.len() * m * m * m];
        for choice in &candidates {
            for t in 0..triples.len() {
                uncovered[slot(t, choice)] = true;
            }
        }
        let mut sets = Vec::new();
        for preset in [Self::default().value_keeping(), Self::solver().value_keeping(), Self::table_and_pvs()] {
            let mut choice = preset.test_choice();
            choice.push(0);
            for t in 0..triples.len() {
                uncovered[slot(t, &choice)] = false;
            }
            sets.push((preset, LINES[0]));
        }
        let mut left = uncovered.iter().filter(|&&u| u).count();
        while left > 0 {
            let best = candidates
                .iter()
                .max_by_key(|c| {
                    let new = (0..triples.len()).filter(|&t| uncovered[slot(t, c)]).count();
                    (new, std::cmp::Reverse(*c))
                })
                .expect("every uncovered triple comes from a candidate");
            for t in 0..triples.len() {
                let s = slot(t, best);
                left -= uncovered[s] as usize;
                uncovered[s] = false;
            }
            sets.push((Self::from_test_values(&best[..options]), LINES[best[options]]));
        }
        sets
    }

    /// These options with every feature turned off that the hooks of `G` and `E` give nothing to do: what a
    /// search of `G` with `E` does under these options, and [`is_lean`](Self::is_lean) on the result tells
    /// whether the lean search runs. A game and evaluator that name no hook get the lean search under the
    /// defaults. Each feature turned off would have done nothing (see the [hooks](crate::game::hooks)):
    ///
    /// - the tactics, without a winning move, non-losing moves, winning plan or threat replies;
    /// - the null move, without a null move;
    /// - check extension, without checks;
    /// - quiescence (and its table), without noisy moves or checks; ProbCut, without noisy moves; delta
    ///   pruning, without the noisy moves' gains;
    /// - the correction history, without a correction key; the continuation history, without piece-to codes.
    #[must_use]
    pub fn for_hooks<G: Game, E: Evaluator<G>>(mut self) -> Self {
        let (game, evaluator) = (&G::HOOKS, &E::HOOKS);
        let tactics = game.winning_move.is_some()
            || game.non_losing_moves.is_some()
            || evaluator.winning_plan.is_some()
            || evaluator.threat_replies.is_some();
        let checks = game.in_check.is_some();
        let noisy = evaluator.noisy_moves.is_some();
        self.tactics &= tactics;
        self.null_move &= game.null_move.is_some();
        self.check_extension &= checks;
        self.quiescence &= noisy || (checks && self.check_extension);
        self.quiescence_table &= self.quiescence;
        if !noisy {
            self.probcut_margin = None;
        }
        if evaluator.noisy_gain.is_none() {
            self.quiescence_delta = None;
        }
        self.correction_history &= evaluator.correction_key.is_some();
        self.continuation_history &= game.piece_to.is_some();
        self
    }

    /// Whether the combination makes sense: threads share results through the table.
    fn is_sound(&self) -> bool {
        self.threads == 1 || self.table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_differ_where_they_should() {
        let d = SearchOptions::default();
        assert!(d.table && d.pvs && d.history && !d.killers && d.null_move && !d.lmr && d.table_depth == 2);
        let s = SearchOptions::solver();
        assert!(s.table && s.tactics && !s.pvs && !s.killers && !s.null_move);
        let t = SearchOptions::table_and_pvs();
        assert!(t.table && t.pvs && t.is_lean() && !d.is_lean());
        assert_eq!(SearchOptions::default().with_table(false).with_threads(3).threads, 3);
    }

    #[test]
    fn options_are_set_by_name_and_bad_names_and_values_are_refused() {
        let mut o = SearchOptions::default();
        o.set("counter_moves", "true").unwrap();
        o.set("lmr", "1").unwrap();
        o.set("futility_margin", "400").unwrap();
        o.set("aspiration", "none").unwrap();
        o.set("lmr_moves", " 5 ").unwrap();
        o.set("null_move", "off").unwrap();
        let expected = SearchOptions::default()
            .with_counter_moves(true)
            .with_lmr(true)
            .with_futility_margin(Some(400))
            .with_aspiration(None)
            .with_lmr_moves(5)
            .with_null_move(false);
        assert_eq!(o, expected);
        // Every declared name is taken, with a value of its type.
        assert!(SearchOptions::NAMES.len() > 40 && SearchOptions::NAMES.contains(&"singular_depth"));
        for name in SearchOptions::NAMES {
            let ok = ["1", "true", "none"].iter().any(|v| SearchOptions::default().set(name, v).is_ok());
            assert!(ok, "{name}");
        }
        assert_eq!(o.set("no_such", "1"), Err(OptionError::Unknown("no_such".into())));
        let err = o.set("lmr", "maybe").unwrap_err();
        assert_eq!(err.to_string(), "search option `lmr` takes true or false, not `maybe`");
        assert!(o.set("lmr_moves", "-1").is_err() && o.set("futility_margin", "x").is_err());
        assert_eq!(o, expected, "a refused value changes nothing");
    }

    #[test]
    fn verification_covers_every_triple_of_test_values() {
        let trials = SearchOptions::verification();
        assert!(trials.len() >= 8 && trials.len() <= 40, "{} sets", trials.len());
        assert!(trials.iter().any(|&(_, lines)| lines == 1) && trials.iter().any(|&(_, lines)| lines == 3));
        let sets: Vec<&SearchOptions> = trials.iter().map(|(options, _)| options).collect();
        assert!(sets.iter().all(|s| s.threads == 1 || s.table));
        assert!(sets.iter().any(|s| s.is_lean()) && sets.iter().any(|s| !s.is_lean()));
        assert!(sets.iter().all(|s| !s.null_move && !s.lmr && !s.check_extension));
        // Spot-check some triples.
        for (table, killers, threads) in [(true, true, 2), (false, false, 1), (true, false, 2)] {
            assert!(sets.iter().any(|s| s.table == table && s.killers == killers && s.threads == threads));
        }
        for (pvs, asp, etc) in [(false, Some(1), true), (true, None, false), (true, Some(1), true)] {
            assert!(sets.iter().any(|s| s.pvs == pvs && s.aspiration == asp && s.etc == etc));
        }
    }
}
