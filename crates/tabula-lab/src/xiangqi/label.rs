//! `nnue-label`: replaces the score of each line of the network's data by Fairy-Stockfish's:
//!
//! ```text
//! xiangqi nnue-label IN OUT [--go GO] [--threads N] [--fairy-stockfish PATH] [--resume]
//! ```
//!
//! `IN` holds `FEN;score;result` lines as `nnue-gen` writes them; `OUT` the same lines with the score replaced
//! by Fairy-Stockfish's after `go {GO}` (`--go "depth 8"` by default), Red's point of view, a mate as ±3,000,
//! the positions whose best move by Fairy-Stockfish is a capture dropped. One Fairy-Stockfish of one thread runs
//! per thread (`--threads`, 2); `OUT` is written a block of 1,000 positions at a time, and `--resume` goes on
//! with the `OUT` of a run that was stopped, skipping the positions it holds.

use super::game::{Xiangqi, FAIRY_STOCKFISH};
use crate::peer::{ask_move, ask_peer, verdict, Labellers, PeerSpec};
use crate::selfplay::DataGame;
use tabula_xiangqi::{Color, Position};

/// What `nnue-label` reads, asks and writes.
#[derive(clap::Args)]
pub struct Args {
    /// `FEN;score;result` lines, as `nnue-gen` writes them.
    input: String,
    /// The file to write, the same lines with Fairy-Stockfish's scores.
    #[arg(required_unless_present = "result")]
    out: Option<String>,
    /// Fairy-Stockfish's search of each position, as a UCI `go` command's arguments (positions whose best move
    /// is a capture are left out).
    #[arg(long, default_value = "depth 8")]
    go: String,
    #[arg(long, default_value = FAIRY_STOCKFISH)]
    fairy_stockfish: String,
    #[command(flatten)]
    labellers: Labellers,
}

/// Runs `nnue-label`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args { input, out, go, fairy_stockfish, labellers } = args;
    let peer = PeerSpec { path: &fairy_stockfish, options: Xiangqi::peer_options() };
    let parse = |fen: &str| Position::from_fen(fen).ok();
    ask_peer(&input, out.as_deref(), &labellers, &peer, parse, |engine, entry, pos| {
        let fields: Vec<&str> = entry.split(';').collect();
        let [fen, _, result] = fields[..] else { return Ok(None) };
        let answer = ask_move(engine, &format!("fen {fen}"), &go)?;
        let Some(v) = verdict(&answer, |m| Xiangqi::parse_peer_move(pos, m)) else { return Ok(None) };
        let Some(score) = v.score.filter(|_| !pos.is_capture(v.best)) else { return Ok(None) };
        let red = if pos.turn() == Color::Red { score } else { -score };
        Ok(Some(format!("{fen};{red};{result}")))
    })
}
