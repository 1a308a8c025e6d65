//! `nnue-loss`: the loss of the game's own evaluation and of each network file on all of a data file:
//!
//! ```text
//! chess nnue-loss DATA NET... [--share X]
//! xiangqi nnue-loss DATA NET... [--share X]
//! ```
//!
//! `DATA` holds `FEN;score;result` lines; each `NET` is a network file, or `<embedded>` for the game's own
//! (chess's). The targets are those of `nnue-fit` at that `--share` (0.75 by default) and the game's default
//! scale (chess 113, xiangqi 100), the positions the game leaves out (chess's endings against a bare king) left
//! out; the own evaluation is chess's tapered one, xiangqi's hand-written one. The losses go to standard error.
//! Data from games no network was trained on compares networks fairly (a network has learnt its own training
//! games' results).

use super::{open_network, read, report_losses, Game};
use tabula_nnue::KingLayout;

/// The data and the networks `nnue-loss` compares.
#[derive(clap::Args)]
pub struct Args {
    /// `FEN;score;result` lines.
    data: String,
    /// Network files, `<embedded>` for the game's own.
    #[arg(required = true)]
    nets: Vec<String>,
    /// The share of the score in the target, the rest being the game's result.
    #[arg(long, default_value_t = 0.75)]
    share: f32,
}

/// `nnue-loss`: the loss of the game's evaluation and of each network file (`<embedded>` for the one the game
/// embeds) on every position of the data file, with the targets of `nnue-fit`.
pub fn run<G: Game>(args: &Args) -> anyhow::Result<()> {
    let (data, fens) = read::<G>(&args.data, args.share, G::SCALE, KingLayout::PLAIN, false)?;
    let networks =
        args.nets.iter().map(|n| Ok((n.as_str(), open_network::<G>(n)?))).collect::<anyhow::Result<Vec<_>>>()?;
    report_losses::<G>(&fens, data.targets(), G::SCALE, &networks, "");
    Ok(())
}
