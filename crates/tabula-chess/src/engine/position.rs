//! [`EnginePosition`]: the position the engine searches, a [`Position`] with the network's accumulators along
//! its line of play.
//!
//! The rules' [`Position`] knows nothing of any network: it records what each move changed on the board
//! ([`Position::placement_change`]), a fact of the rules. The accumulators a network updates from those changes
//! are the evaluator's state, and belong to the line of play one search thread walks: the engine searches this
//! wrapper, which owns a position and its [`Accumulators`] and plays the [`Game`] by delegation (its hooks are
//! the position's). The core's search clones the game for each thread, so each thread has accumulators of its
//! own, as a search thread does in Stockfish.
//!
//! The wrapper changes only through [`Game::play`] and [`Game::undo`], which keep the accumulators' record of
//! the line in step with the position's history; the position itself is read with
//! [`position`](EnginePosition::position).
//!
//! # Examples
//!
//! ```
//! use tabula::game::{Evaluator, Game};
//! use tabula_chess::engine::eval::nnue::Network;
//! use tabula_chess::engine::eval::EngineEvaluation;
//! use tabula_chess::engine::EnginePosition;
//! use tabula_chess::Position;
//!
//! let eval = EngineEvaluation::Nnue(Network::embedded());
//! let mut game = EnginePosition::new(Position::startpos());
//! let start = eval.evaluate(&game);
//! let mv = game.position().parse_uci("e2e4").unwrap();
//! game.play(mv); // the accumulators are updated from the start's when the position is next evaluated
//! let after = eval.evaluate(&game);
//! game.undo(mv);
//! assert_eq!(eval.evaluate(&game), start);
//! assert_eq!(after, Network::embedded().evaluate(&Position::from_fen(&game_after(mv)).unwrap()));
//! # fn game_after(mv: tabula_chess::Move) -> String {
//! #     let mut pos = Position::startpos();
//! #     pos.play(mv).unwrap();
//! #     pos.to_fen()
//! # }
//! ```

use crate::engine::eval::nnue::Accumulators;
use crate::moves::Move;
use crate::position::Position;
use tabula::game::{Game, HookedGame, Hooks, Outcome, PieceTo, Repetition};
use tabula::Key;

/// A [`Position`] with the network's accumulators along its line of play. See the [module
/// documentation](self).
#[derive(Clone, Debug, Default)]
pub struct EnginePosition {
    position: Position,
    accumulators: Accumulators,
}

impl EnginePosition {
    /// `position`, with no accumulators computed yet.
    pub fn new(position: Position) -> EnginePosition {
        EnginePosition { position, accumulators: Accumulators::default() }
    }

    /// The position.
    #[inline(always)]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position, the accumulators dropped.
    pub fn into_position(self) -> Position {
        self.position
    }

    /// The network's accumulators along the position's history, for the network to bring up to date.
    #[inline(always)]
    pub fn accumulators(&self) -> &Accumulators {
        &self.accumulators
    }
}

impl From<Position> for EnginePosition {
    fn from(position: Position) -> EnginePosition {
        EnginePosition::new(position)
    }
}

impl AsRef<Position> for EnginePosition {
    fn as_ref(&self) -> &Position {
        &self.position
    }
}

impl AsRef<Position> for Position {
    fn as_ref(&self) -> &Position {
        self
    }
}

impl PartialEq for EnginePosition {
    /// The positions' equality: the accumulators are a cache.
    fn eq(&self, other: &EnginePosition) -> bool {
        self.position == other.position
    }
}

impl Eq for EnginePosition {}

/// The position's rules, and after each take-back the accumulators of the positions past the history's end
/// marked stale.
impl Game for EnginePosition {
    type Move = Move;

    #[inline]
    fn legal_moves(&self, moves: &mut Vec<Move>) {
        Game::legal_moves(&self.position, moves);
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        Game::play(&mut self.position, mv);
    }

    #[inline]
    fn undo(&mut self, mv: Move) {
        Game::undo(&mut self.position, mv);
        self.accumulators.forget_after(self.position.history_len());
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(&self.position)
    }

    #[inline]
    fn is_over(&self) -> bool {
        Game::is_over(&self.position)
    }

    #[inline]
    fn key(&self) -> Key {
        Game::key(&self.position)
    }

    #[inline]
    fn move_code(mv: Move) -> u16 {
        Position::move_code(mv)
    }

    const MOVE_CODES: usize = Position::MOVE_CODES;

    #[inline]
    fn perft_moves(&self, moves: &mut Vec<Move>) {
        Game::perft_moves(&self.position, moves);
    }

    #[inline]
    fn perft_count(&self, scratch: &mut Vec<Move>) -> u64 {
        Game::perft_count(&self.position, scratch)
    }

    /// The position's hooks, each asked of the position.
    const HOOKS: Hooks<EnginePosition> = Hooks {
        in_check: Some(|game| HookedGame::in_check(&game.position)),
        null_move: Some(|game| HookedGame::null_move(&game.position)),
        repetition: Some(Repetition { reversible_plies, outcome: repetition_outcome }),
        piece_to: Some(PieceTo {
            codes: <Position as HookedGame>::PIECE_TO_CODES,
            code: |game, mv| HookedGame::piece_to(&game.position, mv),
        }),
        ..Hooks::NONE
    };
}

// The position names these hooks and no others (the forwarding above would need another).
const _: () = {
    let hooks = &Position::HOOKS;
    assert!(hooks.in_check.is_some() && hooks.null_move.is_some() && hooks.repetition.is_some());
    assert!(hooks.piece_to.is_some());
    assert!(hooks.winning_move.is_none() && hooks.non_losing_moves.is_none() && hooks.possible_winners.is_none());
    assert!(hooks.symmetry.is_none() && hooks.child_table_key.is_none() && hooks.remaining.is_none());
};

#[inline(always)]
fn reversible_plies(game: &EnginePosition) -> usize {
    HookedGame::reversible_plies(&game.position).expect("the position names the repetition hook")
}

#[inline(always)]
fn repetition_outcome(game: &EnginePosition, cycle: usize) -> Outcome {
    HookedGame::repetition_outcome(&game.position, cycle)
}
