//! Choosing a move for `genmove`: the [`MovePicker`] trait, and a uniformly random player.
//!
//! A stronger player (Monte Carlo tree search, say) implements [`MovePicker`] and plugs into the GTP
//! session in place of [`RandomPicker`].
//!
//! # Examples
//!
//! ```
//! use tabula_go::coords::{Color, Move};
//! use tabula_go::engine::picker::{MovePicker, RandomPicker};
//! use tabula_go::position::{Position, Rules};
//!
//! let mut game = Position::new(9, Rules::default()).unwrap();
//! let mut picker = RandomPicker::new(42);
//! let mv = picker.pick(&game, Color::Black);
//! assert!(matches!(mv, Move::Play(_)));
//! game.play(mv, Color::Black).unwrap();
//! ```

use crate::coords::{Color, Move, Point};
use crate::position::Position;
use tabula::clock::Clock;
use tabula::rng::Rng;

/// Chooses a move for a player.
pub trait MovePicker {
    /// A legal move (or [`Move::Pass`]) for `color` in `position`; `color` need not be the side to move.
    fn pick(&mut self, position: &Position, color: Color) -> Move;

    /// What `genmove` plays: by default [`pick`](MovePicker::pick)'s move. A player may use the clock in
    /// `request`, resign, or (when `request.cleanup` is set) keep playing until dead stones are captured.
    fn decide(&mut self, position: &Position, color: Color, request: &Request) -> Decision {
        let _ = request;
        Decision::Play(self.pick(position, color))
    }

    /// Sets one of the player's parameters by name, for GTP's `tabula-set-param` (tuning by matches).
    ///
    /// # Errors
    ///
    /// A short message when the name is unknown (the default: the player has none) or the value does not
    /// fit.
    fn set_param(&mut self, name: &str, value: &str) -> Result<(), &'static str> {
        let _ = (name, value);
        Err("unknown parameter")
    }
}

/// What a `genmove` knows besides the position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// The player's clock, from the controller's time settings and `time_left` (empty: no limit).
    pub clock: Clock,
    /// `kgs-genmove_cleanup`: do not pass while dead enemy stones remain on the board.
    pub cleanup: bool,
}

/// A `genmove` answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play this move (or pass).
    Play(Move),
    /// Give up the game.
    Resign,
}

/// Whether `point` is an empty point all of whose neighbours are stones of `color`: filling it would only
/// take away one of that player's own eyes.
pub fn is_own_eye(position: &Position, point: Point, color: Color) -> bool {
    let board = position.board();
    board.get(point).is_none() && board.neighbors(point).all(|n| board.get(n) == Some(color))
}

/// Plays a uniformly random legal move that does not fill one of its own single-point eyes, and passes
/// when there is none.
#[derive(Clone, Debug)]
pub struct RandomPicker {
    rng: Rng,
}

impl RandomPicker {
    /// A random player seeded with `seed`: the same seed gives the same moves.
    pub fn new(seed: u64) -> RandomPicker {
        RandomPicker { rng: Rng::new(seed) }
    }
}

impl MovePicker for RandomPicker {
    fn pick(&mut self, position: &Position, color: Color) -> Move {
        let candidates: Vec<Point> = position
            .board()
            .points()
            .filter(|&p| !is_own_eye(position, p, color) && position.is_legal(Move::Play(p), color))
            .collect();
        if candidates.is_empty() {
            Move::Pass
        } else {
            Move::Play(candidates[self.rng.below(candidates.len())])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Rules;

    #[test]
    fn random_games_end_with_both_players_passing() {
        let mut game = Position::new(5, Rules::default()).unwrap();
        let mut picker = RandomPicker::new(1);
        let mut plies = 0;
        while !game.is_over() && plies < 1000 {
            let mv = picker.pick(&game, game.to_move());
            game.play(mv, game.to_move()).unwrap();
            plies += 1;
        }
        assert!(game.is_over(), "a random game on 5x5 ends within 1000 plies");
    }
}
