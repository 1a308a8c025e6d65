//! [`EnginePosition`]: the position the engine searches, a [`Position`] with the network's accumulators along
//! its line of play.
//!
//! The rules' [`Position`] knows nothing of any network: it records what each move changed on the board
//! ([`Position::placement_change`]), a fact of the rules. The accumulators a network updates from those changes
//! are the evaluator's state, and belong to the line of play one search thread walks: the engine searches this
//! wrapper, which owns a position and its accumulators and plays the [`Game`](tabula::game::Game) by
//! delegation. The wrapper is the network machinery's, the same for every game
//! ([`tabula_nnue::engine`]); what chess adds to it (the tapered evaluation as the classical one, the search
//! options, the bench positions) is its [`NetGame`](tabula_nnue::NetGame), in [`crate::engine`].
//!
//! The wrapper changes only through [`Game::play`](tabula::game::Game::play) and
//! [`Game::undo`](tabula::game::Game::undo), which keep the accumulators' record of the line in step with the
//! position's history; the position itself is read with [`position`](EnginePosition::position).
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
//! let eval = EngineEvaluation::network(Network::embedded());
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

use crate::position::Position;

/// A [`Position`] with the network's accumulators along its line of play. See the [module
/// documentation](self).
pub type EnginePosition = tabula_nnue::EnginePosition<Position>;

impl AsRef<Position> for Position {
    fn as_ref(&self) -> &Position {
        self
    }
}
