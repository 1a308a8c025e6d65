//! Xiangqi as the lab's commands see it ([`Xiangqi`]), in a module of its own so that the commands' modules and
//! the group's root all read it without depending on each other. As the self-play games play it, see
//! [`gen`](super::gen).

use crate::nnue;
use std::sync::Arc;
use tabula_xiangqi::engine::eval::evaluate;
use tabula_xiangqi::engine::nnue::{embedded_network, Network, XiangqiGeometry};
use tabula_xiangqi::Position;

/// Where Fairy-Stockfish is, unless `--fairy-stockfish` says otherwise.
pub const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";

/// Xiangqi as the lab's data and training commands see it. As the network's trainer reads it: every position
/// kept, compared with the hand-written evaluation and the engine's embedded network (`<embedded>`).
pub struct Xiangqi;

impl nnue::Game for Xiangqi {
    const NAME: &'static str = "xiangqi";
    /// A pawn, as in the hand-written evaluation (chess's networks use the tapered evaluation's fitted 113).
    const SCALE: f32 = 100.0;
    const EVALUATION: &'static str = "the hand-written evaluation";
    type Geometry = XiangqiGeometry;
    type Position = Position;

    fn from_fen(fen: &str) -> Option<Position> {
        Position::from_fen(fen).ok()
    }

    fn evaluate(pos: &Position) -> i32 {
        evaluate(pos)
    }

    fn embedded() -> Option<Arc<Network>> {
        embedded_network()
    }
}
