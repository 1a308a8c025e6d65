//! Data and training for xiangqi's network evaluation:
//!
//! ```text
//! cargo run --release -p tabula-lab -- xiangqi COMMAND ...
//!
//! xiangqi nnue-gen OUT [--games N] [--nodes N] [--threads N] [--first N] [--fairy-stockfish PATH] [--peer-go GO]
//! xiangqi nnue-label IN OUT [--go GO] [--threads N] [--fairy-stockfish PATH] [--resume]
//! ```
//!
//! `nnue-gen` and `nnue-label` also run as shards of a cluster job (`--shard K/N --result FILE --job ID` instead
//! of `OUT`; see [`shard`](crate::shard)). The data is chess's format (`FEN;score;result`, Red's point of
//! view), played by the same self-play games ([`selfplay`](crate::selfplay)) and labelled by the same peer
//! threads ([`peer`](crate::peer)), with Fairy-Stockfish as the peer.

mod gen;
mod label;

/// The data and training tools of xiangqi's network.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Self-play games numbered from `first`; writes the network's data, `FEN;score;result` per quiet position.
    NnueGen(gen::Args),
    /// Replaces each line's score by Fairy-Stockfish's after `go GO`, dropping positions whose best move is a
    /// capture.
    NnueLabel(label::Args),
}

/// Runs `command`.
pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::NnueGen(args) => gen::run(args),
        Command::NnueLabel(args) => label::run(args),
    }
}

/// Where Fairy-Stockfish is, unless `--fairy-stockfish` says otherwise.
const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";
