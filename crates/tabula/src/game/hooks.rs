//! The search hooks: what a game or an evaluator may tell a search beyond the rules, declared in one place.
//!
//! A game opts into hooks by naming them in its [`Game::HOOKS`] constant, and an evaluator in its
//! [`Evaluator::HOOKS`]; whatever is left out is [`None`] and costs nothing: the search leaves out every feature
//! that would have nothing to work with (see [`SearchOptions::for_hooks`]). A game that names no hook runs the
//! lean search under the default options. The hooks come in groups, each a fact about the rules:
//!
//! | group | game hooks ([`Hooks`]) | what the search gains |
//! |---|---|---|
//! | tactics | [`winning_move`](Hooks::winning_move), [`non_losing_moves`](Hooks::non_losing_moves), [`possible_winners`](Hooks::possible_winners), [`in_check`](Hooks::in_check) | wins and losses one move away cost no search; forced replies cost no depth |
//! | null move | [`null_move`](Hooks::null_move) | null-move pruning |
//! | symmetry | [`symmetry`](Hooks::symmetry) | symmetric positions share table entries |
//! | prefetch | [`child_table_key`](Hooks::child_table_key) | children's table entries fetched ahead |
//! | repetition | [`repetition`](Hooks::repetition) | repeated positions scored by the rules |
//! | end | [`remaining`](Hooks::remaining) | exact solving, with margins |
//! | move order | [`piece_to`](Hooks::piece_to) | the continuation history |
//!
//! and the evaluator's ([`EvaluatorHooks`]): [`noisy_moves`](EvaluatorHooks::noisy_moves) for quiescence,
//! [`noisy_gain`](EvaluatorHooks::noisy_gain) for its delta pruning, [`is_tactical`](EvaluatorHooks::is_tactical)
//! for reductions and pruning, [`winning_plan`](EvaluatorHooks::winning_plan) and
//! [`threat_replies`](EvaluatorHooks::threat_replies) for the tactics, and
//! [`correction_key`](EvaluatorHooks::correction_key) for the correction history.
//!
//! Each hook states a fact and must be exact: the searches stay equal to [`minimax`](crate::search::minimax)
//! only if the hooks tell the truth, which [`verify::check_all`](crate::search::verify::check_all) tests. The
//! [`HookedGame`] and [`HookedEvaluator`] traits, implemented for every game and evaluator, ask a hook and answer
//! as its absence means where it is missing; the searches ask through them.
//!
//! Because the hooks are constants, a search compiled for a game knows which it has: a missing hook's branch is
//! compiled out, and a named one is called directly, not through a pointer.
//!
//! # Examples
//!
//! Nim with one heap, which knows when the side to move can take the last stones at once.
//!
//! ```
//! use tabula::game::{Evaluator, Game, HookedGame, Hooks, Outcome, WinningMove};
//! use tabula::score::Score;
//! use tabula::zobrist::{Key, ZobristKeys};
//!
//! const KEYS: ZobristKeys<Key, 33> = ZobristKeys::<Key, 33>::generate(7);
//!
//! #[derive(Clone)]
//! struct Nim { stones: usize }
//!
//! impl Nim {
//!     fn take_all(&self) -> WinningMove<usize> {
//!         if (1..=3).contains(&self.stones) { WinningMove::Found(self.stones) } else { WinningMove::NoneExists }
//!     }
//! }
//!
//! impl Game for Nim {
//!     type Move = usize;
//!     fn legal_moves(&self, moves: &mut Vec<usize>) { moves.extend((1..=3).filter(|&t| t <= self.stones)); }
//!     fn play(&mut self, take: usize) { self.stones -= take; }
//!     fn undo(&mut self, take: usize) { self.stones += take; }
//!     fn outcome(&self) -> Option<Outcome> { (self.stones == 0).then_some(Outcome::Loss) }
//!     fn key(&self) -> Key { KEYS[self.stones] }
//!     fn move_code(take: usize) -> u16 { take as u16 }
//!     const HOOKS: Hooks<Nim> = Hooks { winning_move: Some(Nim::take_all), ..Hooks::NONE };
//! }
//!
//! assert_eq!(Nim { stones: 3 }.winning_move(), WinningMove::Found(3));
//! assert!(!Nim { stones: 3 }.in_check()); // not named: the default answer
//! ```
//!
//! [`SearchOptions::for_hooks`]: crate::search::SearchOptions::for_hooks

// The hooks' types are their signatures, spelled out where a game author reads them.
#![allow(clippy::type_complexity)]

use super::{Evaluator, Game, Outcome, Remaining, Symmetry, TableKey, Winners, WinningMove};
use crate::score::Score;
use crate::zobrist::Key;

/// The search hooks of a game `G`, each [`None`] unless the game names it in [`Game::HOOKS`]. See the [module
/// documentation](self).
pub struct Hooks<G: Game> {
    // ---- Tactics --------------------------------------------------------------------------------------------
    /// Whether the side to move can win with its next move. [`WinningMove::NoneExists`] is a promise: the
    /// search then knows no win can come sooner than three plies.
    pub winning_move: Option<fn(&G) -> WinningMove<G::Move>>,

    /// Appends the legal moves after which the opponent cannot win at once, in the order
    /// [`legal_moves`](Game::legal_moves) would give them, and returns how many it appended (0: every move
    /// loses at once); `None` where the game does not know, leaving the buffer alone. Asked only when the side
    /// to move has no win at once.
    pub non_losing_moves: Option<fn(&G, &mut Vec<G::Move>) -> Option<usize>>,

    /// Which players could still win at all, whatever is played: a `false` only when the rules prove it
    /// impossible (every line blocked, say). Exact solvers then bound the score by a draw; depth-limited
    /// searches ignore it, so that their values stay those of minimax.
    pub possible_winners: Option<fn(&G) -> Winners>,

    /// Whether the side to move is in check, or under whatever immediate threat the rules force it to answer
    /// (a four in Gomoku). With the [`check_extension`](crate::search::SearchOptions::check_extension) option
    /// the search extends moves that give check; quiescence answers a check with every move that does not
    /// lose at once instead of standing pat; reductions and pruning leave such nodes alone.
    pub in_check: Option<fn(&G) -> bool>,

    // ---- Null move --------------------------------------------------------------------------------------------
    /// A move that passes the turn, if passing here is a sound test of the position for null-move pruning
    /// (`None` in zugzwang-prone positions, in check). The search plays it with [`play`](Game::play) and takes it
    /// back with [`undo`](Game::undo); it is never a legal move.
    pub null_move: Option<fn(&G) -> Option<G::Move>>,

    // ---- Symmetry and prefetch ----------------------------------------------------------------------------------
    /// The position's symmetries: mirror-symmetric games store a position under the smaller of its key and its
    /// mirror's, so that both halves of the tree share entries.
    pub symmetry: Option<Symmetries<G>>,

    /// The [table key](HookedGame::table_key) of the position after a move, computed without playing it (one
    /// XOR per feature): the search fetches children's table entries ahead of time. `None` from the function
    /// where it cannot tell for that move.
    pub child_table_key: Option<fn(&G, G::Move) -> Option<Key>>,

    // ---- Repetition -------------------------------------------------------------------------------------------
    /// That positions can repeat, and how a repetition is ruled.
    pub repetition: Option<Repetition<G>>,

    // ---- End ----------------------------------------------------------------------------------------------------
    /// How much is left of the game, if it is sure to end: at most how many plies and at most what margin.
    /// Exact solvers ([`Searcher::solve`](crate::search::Searcher::solve)) need it to size the range of
    /// possible scores; iterative deepening stops once a search reaches the end of every line.
    pub remaining: Option<fn(&G) -> Option<Remaining>>,

    // ---- Move order ---------------------------------------------------------------------------------------------
    /// Which piece each move moves and where, for the [continuation
    /// history](crate::search::SearchOptions::continuation_history).
    pub piece_to: Option<PieceTo<G>>,
}

impl<G: Game> Hooks<G> {
    /// No hook at all: what a game that names none has.
    pub const NONE: Hooks<G> = Hooks {
        winning_move: None,
        non_losing_moves: None,
        possible_winners: None,
        in_check: None,
        null_move: None,
        symmetry: None,
        child_table_key: None,
        repetition: None,
        remaining: None,
        piece_to: None,
    };

    /// Whether any tactical hook that a depth-limited search asks is named (not
    /// [`possible_winners`](Hooks::possible_winners), which only solvers ask).
    pub const fn has_tactics(&self) -> bool {
        self.winning_move.is_some() || self.non_losing_moves.is_some() || self.in_check.is_some()
    }
}

/// A game's symmetries (see [`Hooks::symmetry`]).
pub struct Symmetries<G: Game> {
    /// The key under which the table stores the position, and the symmetry that maps the position to that
    /// form (usually the smallest key among the position's symmetric images).
    pub table_key: fn(&G) -> TableKey,
    /// The code of a move in the canonical form of the position, from its code in the position as it is, the
    /// symmetry being the position's [`TableKey::symmetry`].
    pub canonical_move_code: fn(u16, Symmetry) -> u16,
    /// The inverse of `canonical_move_code`: the code in the position as it is, from its code in the
    /// canonical form.
    pub actual_move_code: fn(u16, Symmetry) -> u16,
}

/// How a game's positions repeat (see [`Hooks::repetition`]).
pub struct Repetition<G: Game> {
    /// Plies played since the last irreversible move: the search looks for a repeated position within that
    /// window.
    pub reversible_plies: fn(&G) -> usize,
    /// The result for the side to move when the position repeats the one `cycle` plies back (an even
    /// number). Xiangqi, for one, rules a perpetual check or chase lost for the side that made it. The search
    /// never stores a result that depends on a ruling other than a draw in the table, since it holds only on
    /// this path.
    pub outcome: fn(&G, usize) -> Outcome,
}

impl<G: Game> Repetition<G> {
    /// Repetitions within `reversible_plies` that are draws, as in chess.
    pub const fn draws(reversible_plies: fn(&G) -> usize) -> Repetition<G> {
        fn draw<G>(_: &G, _: usize) -> Outcome {
            Outcome::Draw
        }
        Repetition { reversible_plies, outcome: draw::<G> }
    }
}

/// Which piece a move moves, whose it is and where it goes (see [`Hooks::piece_to`]).
pub struct PieceTo<G: Game> {
    /// An upper bound on the codes (exclusive, at most 4,096, or a search of the game does not build; the
    /// continuation history has this many squared entries).
    pub codes: usize,
    /// The code of a legal move: the same for every move taking the same piece to the same square, whatever
    /// the position.
    pub code: fn(&G, G::Move) -> u16,
}

/// The search hooks of an evaluator `E` of `G`, each [`None`] unless the evaluator names it in
/// [`Evaluator::HOOKS`]. They are policy: they decide what the search looks at first or longer, never what the
/// rules allow. See the [module documentation](self).
pub struct EvaluatorHooks<G: Game, E: ?Sized> {
    /// Appends the noisy moves (captures, promotions...) that quiescence search should resolve. Without this
    /// hook the horizon is the evaluation.
    pub noisy_moves: Option<fn(&E, &G, &mut Vec<G::Move>)>,

    /// The most a noisy move (legal here, not yet played) can win by itself on the evaluation's scale: in chess
    /// the value of the piece it takes, and a promotion's gain. With
    /// [`quiescence_delta`](crate::search::SearchOptions::quiescence_delta), quiescence leaves out a move that
    /// could not lift the static evaluation to alpha even so. `None` from the function: unknown, always
    /// searched.
    pub noisy_gain: Option<fn(&E, &G, G::Move) -> Option<Score>>,

    /// Whether a move (legal here, not yet played) is tactical: a capture, a promotion, a four — a move that
    /// late-move reductions and pruning must leave alone. Without this hook no move is.
    pub is_tactical: Option<fn(&E, &G, G::Move) -> bool>,

    /// A move the evaluator's own analysis proves winning (a threat-space search, a tablebase), if it knows
    /// one. At nodes [`plan_depth`](crate::search::SearchOptions::plan_depth) plies or more from the horizon
    /// (two by default) where the side to move is not forced, the search then tries this move only. Asked only
    /// when the [`tactics`](crate::search::SearchOptions::tactics) option is on.
    pub winning_plan: Option<fn(&E, &G) -> Option<G::Move>>,

    /// Appends the moves that answer a threat of the opponent's the evaluator knows, where every other legal
    /// move loses (in Gomoku an open three: any move but a parry or a four of one's own lets it become an open
    /// four), and returns how many it appended; `None` from the function when it knows no such threat, leaving
    /// the buffer alone. At nodes two plies or more from the horizon where the side to move is not forced and
    /// has no [winning plan](EvaluatorHooks::winning_plan), the search then tries these moves only (all of them
    /// if there are none). Asked only when the [`tactics`](crate::search::SearchOptions::tactics) option is on.
    pub threat_replies: Option<fn(&E, &G, &mut Vec<G::Move>) -> Option<usize>>,

    /// A key of the part of the position (with the side to move) the evaluation's errors follow, in chess
    /// the pawns: with the [`correction_history`](crate::search::SearchOptions::correction_history) option
    /// the search learns, per key, how far its searched scores fall from [`evaluate`](Evaluator::evaluate)
    /// and corrects the evaluation by that. Any 64-bit value; positions that share it share a correction.
    /// `None` from the function: no correction there.
    pub correction_key: Option<fn(&E, &G) -> Option<u64>>,
}

impl<G: Game, E: ?Sized> EvaluatorHooks<G, E> {
    /// No hook at all: what an evaluator that names none has.
    pub const NONE: EvaluatorHooks<G, E> = EvaluatorHooks {
        noisy_moves: None,
        noisy_gain: None,
        is_tactical: None,
        winning_plan: None,
        threat_replies: None,
        correction_key: None,
    };
}

/// The hooks of [`Game::HOOKS`] as methods, each answering as a missing hook means where the game names none.
/// Implemented for every game; the searches ask the hooks through it.
pub trait HookedGame: Game {
    /// [`Hooks::winning_move`], or [`WinningMove::NotChecked`].
    fn winning_move(&self) -> WinningMove<Self::Move>;
    /// [`Hooks::non_losing_moves`], or `None` (the buffer left alone).
    fn non_losing_moves(&self, moves: &mut Vec<Self::Move>) -> Option<usize>;
    /// [`Hooks::possible_winners`], or [`Winners::BOTH`].
    fn possible_winners(&self) -> Winners;
    /// [`Hooks::in_check`], or `false`.
    fn in_check(&self) -> bool;
    /// [`Hooks::null_move`], or `None`.
    fn null_move(&self) -> Option<Self::Move>;
    /// The key under which the table stores this position ([`Symmetries::table_key`]), or the key itself
    /// under the identity.
    fn table_key(&self) -> TableKey;
    /// [`Hooks::child_table_key`], or `None`.
    fn child_table_key(&self, mv: Self::Move) -> Option<Key>;
    /// [`Symmetries::canonical_move_code`], or `code` itself.
    fn canonical_move_code(code: u16, symmetry: Symmetry) -> u16;
    /// [`Symmetries::actual_move_code`], or `code` itself.
    fn actual_move_code(code: u16, symmetry: Symmetry) -> u16;
    /// [`Repetition::reversible_plies`], or `None`: positions never repeat.
    fn reversible_plies(&self) -> Option<usize>;
    /// [`Repetition::outcome`], or a draw.
    fn repetition_outcome(&self, cycle: usize) -> Outcome;
    /// [`Hooks::remaining`], or `None`.
    fn remaining(&self) -> Option<Remaining>;
    /// [`PieceTo::code`], or 0.
    fn piece_to(&self, mv: Self::Move) -> u16;
    /// [`PieceTo::codes`], or 0: the game has none.
    const PIECE_TO_CODES: usize;
}

// (Plain matches rather than `Option`'s combinators: a combinator is not always inlined, and the hook is then
// called through its pointer, which cost Connect Four's solver 2 % more instructions.)
#[allow(clippy::manual_map)]
impl<G: Game> HookedGame for G {
    #[inline(always)]
    fn winning_move(&self) -> WinningMove<G::Move> {
        match G::HOOKS.winning_move {
            Some(hook) => hook(self),
            None => WinningMove::NotChecked,
        }
    }

    #[inline(always)]
    fn non_losing_moves(&self, moves: &mut Vec<G::Move>) -> Option<usize> {
        match G::HOOKS.non_losing_moves {
            Some(hook) => hook(self, moves),
            None => None,
        }
    }

    #[inline(always)]
    fn possible_winners(&self) -> Winners {
        match G::HOOKS.possible_winners {
            Some(hook) => hook(self),
            None => Winners::BOTH,
        }
    }

    #[inline(always)]
    fn in_check(&self) -> bool {
        match G::HOOKS.in_check {
            Some(hook) => hook(self),
            None => false,
        }
    }

    #[inline(always)]
    fn null_move(&self) -> Option<G::Move> {
        match G::HOOKS.null_move {
            Some(hook) => hook(self),
            None => None,
        }
    }

    #[inline(always)]
    fn table_key(&self) -> TableKey {
        match &G::HOOKS.symmetry {
            Some(symmetries) => (symmetries.table_key)(self),
            None => TableKey { key: self.key(), symmetry: Symmetry::IDENTITY },
        }
    }

    #[inline(always)]
    fn child_table_key(&self, mv: G::Move) -> Option<Key> {
        match G::HOOKS.child_table_key {
            Some(hook) => hook(self, mv),
            None => None,
        }
    }

    #[inline(always)]
    fn canonical_move_code(code: u16, symmetry: Symmetry) -> u16 {
        match &G::HOOKS.symmetry {
            Some(symmetries) => (symmetries.canonical_move_code)(code, symmetry),
            None => code,
        }
    }

    #[inline(always)]
    fn actual_move_code(code: u16, symmetry: Symmetry) -> u16 {
        match &G::HOOKS.symmetry {
            Some(symmetries) => (symmetries.actual_move_code)(code, symmetry),
            None => code,
        }
    }

    #[inline(always)]
    fn reversible_plies(&self) -> Option<usize> {
        match &G::HOOKS.repetition {
            Some(repetition) => Some((repetition.reversible_plies)(self)),
            None => None,
        }
    }

    #[inline(always)]
    fn repetition_outcome(&self, cycle: usize) -> Outcome {
        match &G::HOOKS.repetition {
            Some(repetition) => (repetition.outcome)(self, cycle),
            None => Outcome::Draw,
        }
    }

    #[inline(always)]
    fn remaining(&self) -> Option<Remaining> {
        match G::HOOKS.remaining {
            Some(hook) => hook(self),
            None => None,
        }
    }

    #[inline(always)]
    fn piece_to(&self, mv: G::Move) -> u16 {
        match &G::HOOKS.piece_to {
            Some(piece_to) => (piece_to.code)(self, mv),
            None => 0,
        }
    }

    const PIECE_TO_CODES: usize = match &G::HOOKS.piece_to {
        Some(piece_to) => piece_to.codes,
        None => 0,
    };
}

/// The hooks of [`Evaluator::HOOKS`] as methods, each answering as a missing hook means where the evaluator
/// names none. Implemented for every evaluator; the searches ask the hooks through it.
pub trait HookedEvaluator<G: Game>: Evaluator<G> {
    /// [`EvaluatorHooks::noisy_moves`], or nothing appended.
    fn noisy_moves(&self, game: &G, moves: &mut Vec<G::Move>);
    /// [`EvaluatorHooks::noisy_gain`], or `None`.
    fn noisy_gain(&self, game: &G, mv: G::Move) -> Option<Score>;
    /// [`EvaluatorHooks::is_tactical`], or `false`.
    fn is_tactical(&self, game: &G, mv: G::Move) -> bool;
    /// [`EvaluatorHooks::winning_plan`], or `None`.
    fn winning_plan(&self, game: &G) -> Option<G::Move>;
    /// [`EvaluatorHooks::threat_replies`], or `None` (the buffer left alone).
    fn threat_replies(&self, game: &G, moves: &mut Vec<G::Move>) -> Option<usize>;
    /// [`EvaluatorHooks::correction_key`], or `None`.
    fn correction_key(&self, game: &G) -> Option<u64>;
}

impl<G: Game, E: Evaluator<G> + ?Sized> HookedEvaluator<G> for E {
    #[inline(always)]
    fn noisy_moves(&self, game: &G, moves: &mut Vec<G::Move>) {
        if let Some(hook) = E::HOOKS.noisy_moves {
            hook(self, game, moves);
        }
    }

    #[inline(always)]
    fn noisy_gain(&self, game: &G, mv: G::Move) -> Option<Score> {
        match E::HOOKS.noisy_gain {
            Some(hook) => hook(self, game, mv),
            None => None,
        }
    }

    #[inline(always)]
    fn is_tactical(&self, game: &G, mv: G::Move) -> bool {
        match E::HOOKS.is_tactical {
            Some(hook) => hook(self, game, mv),
            None => false,
        }
    }

    #[inline(always)]
    fn winning_plan(&self, game: &G) -> Option<G::Move> {
        match E::HOOKS.winning_plan {
            Some(hook) => hook(self, game),
            None => None,
        }
    }

    #[inline(always)]
    fn threat_replies(&self, game: &G, moves: &mut Vec<G::Move>) -> Option<usize> {
        match E::HOOKS.threat_replies {
            Some(hook) => hook(self, game, moves),
            None => None,
        }
    }

    #[inline(always)]
    fn correction_key(&self, game: &G) -> Option<u64> {
        match E::HOOKS.correction_key {
            Some(hook) => hook(self, game),
            None => None,
        }
    }
}
