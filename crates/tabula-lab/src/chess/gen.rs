//! `gen`: self-play games from varied starts (see [`self_play`](super::self_play)), writing each quiet
//! position with the game's result, the data `label` labels for the tapered evaluation's fit:
//!
//! ```text
//! chess gen OUT [--games N] [--nodes N] [--threads N]
//! ```
//!
//! `--games` (1,000) games numbered from 0 at `--nodes` (4,000) a move, on `--threads` (2) threads. Each line of
//! `OUT` is `FEN;result`, the result 1, 0.5 or 0 for white. The games are the ones the crate's weights were
//! generated from.

use super::self_play::{gen, SelfPlay};

/// Runs `gen`.
pub fn run(games: &SelfPlay) -> anyhow::Result<()> {
    gen(games, |q, result| format!("{};{result}", q.fen))
}
