//! `wdl-gen`: the same self-play games as `gen` (see [`self_play`](super::self_play)), writing for each quiet
//! position the search's score for the side to move, the game phase and how the game ended for the side to
//! move, the samples `wdl-fit` fits the win/draw/loss model to:
//!
//! ```text
//! chess wdl-gen OUT [--games N] [--nodes N] [--threads N]
//! ```
//!
//! Each line of `OUT` is `score;phase;result`: centipawns, 0 to 24, and 1, 0.5 or 0.

use super::self_play::{gen, SelfPlay};
use crate::selfplay::Quiet;

/// Runs `wdl-gen`.
pub fn run(games: &SelfPlay) -> anyhow::Result<()> {
    gen(games, sample_line)
}

/// A sample line for `wdl-fit`: the score and phase, and the result for the side to move.
fn sample_line(q: &Quiet, white_result: f64) -> String {
    let result = if q.first_to_move { white_result } else { 1.0 - white_result };
    format!("{};{};{result}", q.score, q.phase)
}
