//! `openings`: distinct, roughly balanced opening positions for self-play matches that need more openings
//! than `tabula-chess`'s `tests/data/openings.epd` has (an SPRT runs to thousands of games):
//!
//! ```text
//! chess openings OUT [--count N] [--nodes N] [--margin CP] [--first N]
//! ```
//!
//! The random starts of `gen` (see [`self_play`](super::self_play)), numbered from `--first` (0), each kept
//! when the engine's search of `--nodes` (20,000 by default) scores it within `--margin` centipawns (50 by
//! default) of even and no kept start has its key, until `--count` (1,000) are kept. `OUT` holds one EPD line
//! a position; how many starts were tried is reported on standard error.

use super::self_play::{openings, random_start};
use crate::data::Output;
use tabula::rng::Rng;
use tabula::search::Limits;
use tabula_chess::engine::{Engine, EnginePosition};

/// How many openings `openings` writes, how it judges them, and where.
#[derive(clap::Args)]
pub struct Args {
    /// The EPD file to write.
    out: String,
    #[arg(long, default_value_t = 1000)]
    count: usize,
    /// The search's node budget for judging a start.
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// How far from even, in centipawns, a start may be scored.
    #[arg(long, default_value_t = 50)]
    margin: i32,
    #[arg(long, default_value_t = 0)]
    first: u64,
}

/// Writes `count` distinct random starts (numbered from `first`) that a search of `nodes` scores within
/// `margin` centipawns of even, one EPD line each.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let Args { ref out, count, nodes, margin, first } = *args;
    let book = openings();
    let mut engine = Engine::new(16);
    let mut seen = std::collections::HashSet::new();
    let mut w = Output::create(out)?;
    let mut tried = 0;
    for n in first.. {
        if seen.len() >= count {
            break;
        }
        tried += 1;
        let mut rng = Rng::new(0x0be9_0000 + n);
        let Some(start) = random_start(&mut rng, &book) else { continue };
        engine.clear_hash();
        let r = engine.search(&EnginePosition::new(start.clone()), Limits::nodes(nodes), |_| {});
        if r.score.abs() > margin || !seen.insert(start.key()) {
            continue;
        }
        w.line(start.to_epd())?;
    }
    w.flush()?;
    eprintln!("{} openings kept of {tried} starts", seen.len());
    Ok(())
}
