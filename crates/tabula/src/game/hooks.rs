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

use super::{Evaluator, Game, Outcome, Remaining, Symmetry, TableKey, Winners, WinningMove};
#[cfg(doc)]
use super::{EvaluatorHooks, Hooks, PieceTo, Repetition, Symmetries};
use crate::score::Score;
use crate::zobrist::Key;

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
