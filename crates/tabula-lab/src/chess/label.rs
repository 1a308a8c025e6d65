//! `label`: asks Stockfish (`UCI_ShowWDL`) for the expected score of each position at a fixed depth and appends
//! it, the data `fit` fits the tapered evaluation's weights to:
//!
//! ```text
//! chess label IN OUT [--depth D] [--threads N] [--stockfish PATH] [--resume]
//! ```
//!
//! `IN` holds `FEN;result` lines as `gen` writes them; each line of `OUT` is `FEN;result;expected`, the
//! expected score (`(win + draw / 2) / total` of Stockfish's win/draw/loss per mille after `go depth D`, 8 by
//! default) from white's point of view. Positions whose best move is a capture or a promotion are dropped.
//! One Stockfish of one thread runs per thread (`--threads`, 2); `OUT` is written a block of 1,000 positions
//! at a time, and `--resume` goes on with the `OUT` of a run that was stopped, skipping the positions it holds
//! (see [`stockfish`](super::stockfish)).

use super::stockfish::{ask_stockfish, quiet_verdict, STOCKFISH};
use crate::data::first_field;
use crate::peer::Labellers;
use tabula_chess::Color;

/// What `label` reads and writes.
#[derive(clap::Args)]
pub struct Args {
    /// `FEN;result` lines, as `gen` writes them.
    input: String,
    /// The file to write: `FEN;result;expected`.
    #[arg(required_unless_present = "result")]
    out: Option<String>,
    #[arg(long, default_value_t = 8)]
    depth: u64,
    #[arg(long, default_value = STOCKFISH)]
    stockfish: String,
    #[command(flatten)]
    labellers: Labellers,
}

/// `label`: Stockfish's expected score for white at `depth` after each `FEN;result` line.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let Args { input, out, depth, stockfish, labellers } = args;
    let go = format!("depth {depth}");
    ask_stockfish(input, out.as_deref(), labellers, stockfish, |engine, entry, pos| {
        let Some(v) = quiet_verdict(engine, first_field(entry), pos, &go)? else { return Ok(None) };
        let Some((w, d, l)) = v.wdl.filter(|(w, d, l)| w + d + l > 0.0) else { return Ok(None) };
        let mut expected = (w + d / 2.0) / (w + d + l);
        if pos.turn() == Color::Black {
            expected = 1.0 - expected;
        }
        Ok(Some(format!("{entry};{expected:.3}")))
    })
}
