//! `nnue-loss`: the loss of the tapered evaluation and of each network file on all of a data file:
//!
//! ```text
//! chess nnue-loss DATA NET... [--share X]
//! ```
//!
//! `DATA` holds `FEN;score;result` lines; each `NET` is a network file, or `<embedded>` for the crate's own.
//! The targets are those of `nnue-fit` at that `--share` (0.75 by default) and scale 113, the positions
//! against a bare king left out; the losses go to standard error. Data from games no network was trained on
//! compares networks fairly (a network has learnt its own training games' results).

use super::trainer::{read, report_losses};
use anyhow::Context;
use std::sync::Arc;
use tabula_chess::engine::eval::nnue::{KingLayout, Network, DEFAULT_SCALE};

/// The data and the networks `nnue-loss` compares.
#[derive(clap::Args)]
pub struct Args {
    /// `FEN;score;result` lines.
    data: String,
    /// Network files, `<embedded>` for the crate's own.
    #[arg(required = true)]
    nets: Vec<String>,
    /// The share of the score in the target, the rest being the game's result.
    #[arg(long, default_value_t = 0.75)]
    share: f32,
}

/// Runs `nnue-loss`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    losses(&args.data, &args.nets.iter().map(String::as_str).collect::<Vec<_>>(), args.share, DEFAULT_SCALE as f32)
}

/// The network file `name`, or the crate's own for `<embedded>`.
fn open_network(name: &str) -> anyhow::Result<Arc<Network>> {
    Network::named(name).with_context(|| format!("cannot read the network {name}"))
}

/// `nnue-loss`: the loss of the tapered evaluation and of each network file (`<embedded>` for the one in
/// the crate) on every position of `path`, with the targets of `nnue-fit`.
fn losses(path: &str, nets: &[&str], share: f32, scale: f32) -> anyhow::Result<()> {
    let (data, fens) = read(path, share, scale, KingLayout::PLAIN)?;
    let networks = nets.iter().map(|&n| Ok((n, open_network(n)?))).collect::<anyhow::Result<Vec<_>>>()?;
    report_losses(&fens, data.targets(), scale, &networks, "");
    Ok(())
}
