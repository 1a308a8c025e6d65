//! `hand`: writes the hand-set weights the first fit started from (`Weights::hand_set` of
//! `tabula_gomoku::engine::eval`), as a weights file that `fit --start` reads:
//!
//! ```text
//! gomoku tune hand OUT
//! ```

use anyhow::Context;
use tabula_gomoku::engine::eval::Weights;

/// Where `hand` writes.
#[derive(clap::Args)]
pub struct Args {
    /// The weights file to write.
    out: String,
}

/// Runs `hand`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let out = &args.out;
    std::fs::write(out, Weights::hand_set().to_text()).with_context(|| format!("cannot write {out}"))
}
