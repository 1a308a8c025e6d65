//! `nnue-gen`: the network's training data, from the same self-play games as `gen` (see
//! [`self_play`](super::self_play)) or from games against Stockfish:
//!
//! ```text
//! chess nnue-gen OUT [--games N] [--nodes N] [--threads N] [--first N] [--stockfish PATH] [--stockfish-go GO]
//! ```
//!
//! `--games` (1,000) games at `--nodes` (5,000) a move, numbered from `--first` (0 by default; each number
//! seeds its own random start, so runs with disjoint ranges add new games), on `--threads` (1). Each line of
//! `OUT` is `FEN;score;result` for a quiet position, where `score` is the search's score in centipawns and
//! `result` the game's result (1, 0.5 or 0), both from white's point of view: the data of `nnue-fit`, or of
//! `nnue-label` to score again. With `--stockfish` the engine plays Stockfish instead of itself (white in the
//! even-numbered games, Stockfish searching `go {stockfish-go}`, `nodes 5000` by default, one thread), and the
//! lines are the quiet positions where Stockfish is to move, scored by its own search: positions the engine's
//! play leads to against a stronger opponent, labelled as they are played. With `--shard K/N --result FILE` it
//! plays shard K's part of the games, on one thread, into a cluster job's result file (see
//! [`shard`](crate::shard)).

use super::game::Chess;
use crate::selfplay::{NetworkGames, Opponent};

/// The games `nnue-gen` plays, the opponent if any, and where their lines go.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    games: NetworkGames,
    /// Play against this Stockfish instead of self-play (the engine white in even-numbered games), and write
    /// the positions where Stockfish is to move, scored by its own search of `--stockfish-go`.
    #[arg(long)]
    stockfish: Option<String>,
    /// Stockfish's search of each move, as a UCI `go` command's arguments.
    #[arg(long, default_value = "nodes 5000")]
    stockfish_go: String,
}

/// Runs `nnue-gen`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args { games, stockfish, stockfish_go } = args;
    games.run::<Chess>(stockfish.map(|path| Opponent { path, go: stockfish_go }).as_ref())
}
