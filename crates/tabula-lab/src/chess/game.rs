//! Chess as the lab's commands see it ([`Chess`]), in a module of its own so that the commands' modules and the
//! group's root all read it without depending on each other.

use crate::nnue;
use std::sync::Arc;
use tabula::game::Evaluator;
use tabula_chess::engine::eval::nnue::{ChessGeometry, Network, DEFAULT_SCALE};
use tabula_chess::engine::eval::{against_bare_king, Evaluation};
use tabula_chess::Position;

/// Chess as the lab's commands see it. As the network's trainer reads it: the tapered evaluation to compare
/// with, the embedded network, and the endings against a bare king left out (the engine leaves them to the
/// tapered evaluation). As the self-play games play it: see [`self_play`](super::self_play).
pub struct Chess;

impl nnue::Game for Chess {
    const NAME: &'static str = "chess";
    /// The tapered evaluation's fitted scale.
    const SCALE: f32 = DEFAULT_SCALE as f32;
    const EVALUATION: &'static str = "the tapered evaluation";
    const LEFT_OUT: Option<&'static str> = Some("against a bare king");
    type Geometry = ChessGeometry;
    type Position = Position;

    fn from_fen(fen: &str) -> Option<Position> {
        Position::from_fen(fen).ok()
    }

    fn leaves_out(pos: &Position) -> bool {
        against_bare_king(pos)
    }

    fn evaluate(pos: &Position) -> i32 {
        Evaluation.evaluate(pos)
    }

    fn embedded() -> Option<Arc<Network>> {
        Some(Network::embedded())
    }
}
