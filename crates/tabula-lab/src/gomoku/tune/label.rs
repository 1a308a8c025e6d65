//! `label`: each position's value by an outside engine, the data `fit` fits to:
//!
//! ```text
//! gomoku tune label IN OUT --engine CMD [--ms MS] [--rule R] [--threads N]
//! ```
//!
//! `IN` holds `moves;result` lines as `gen` writes them. A Gomocup engine that reports its search as Rapfi
//! does (`MESSAGE ... | Eval V | ...`, the value for the side to move; see [`gomocup`](super::gomocup)) is asked
//! for its evaluation of each position at `--ms` milliseconds a move (60 by default), by `BOARD`, and each line
//! of `OUT` is the input line with the value and the engine's move appended: `moves;result;value;move` (`fit`
//! reads the value, `order` the move). One engine process runs per
//! thread (`--threads`, 1); `OUT` is written a block of 200 positions at a time.

use super::gomocup::GomocupEngine;
use crate::data::{read_lines, Output};
use anyhow::Context;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use tabula::tune::{next_block, on_threads};
use tabula_gomoku::{Board, Rule};

/// The positions `label` sends to the outside engine, and the engine.
#[derive(clap::Args)]
pub struct Args {
    /// `moves;result` lines.
    input: String,
    /// Output file.
    out: String,
    /// The engine's command line.
    #[arg(long)]
    engine: String,
    /// Milliseconds a position.
    #[arg(long, default_value_t = 60)]
    ms: u64,
    /// The rule: freestyle, standard or renju.
    #[arg(long, default_value = "freestyle")]
    rule: Rule,
    /// Engines run at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// `label`: each position's value by an outside engine.
pub fn run(args: &Args) -> anyhow::Result<()> {
    const BLOCK: usize = 200;
    let Args { ref input, ref out, engine: ref command, ms, rule, threads } = *args;
    let lines = read_lines(input)?;
    let out = Mutex::new(Output::create(out)?);
    let next = AtomicUsize::new(0);
    let kept = AtomicUsize::new(0);
    on_threads(threads, || -> anyhow::Result<()> {
        let mut judge = GomocupEngine::start(command, ms, rule)?;
        while let Some((first, block)) = next_block(&lines, &next, BLOCK) {
            let mut written = Vec::new();
            for entry in block {
                let moves = entry.split(';').next().unwrap_or_default();
                let Ok(board) = Board::from_moves(15, 15, rule, moves) else { continue };
                match judge.ask(&board).with_context(|| format!("no move for {moves}"))? {
                    (mv, Some(value)) => written.push(format!("{entry};{value};{}", board.format_point(mv))),
                    (_, None) => eprintln!("no value for {moves}"),
                }
            }
            out.lock().expect("no panic while writing").block(&written)?;
            let k = kept.fetch_add(written.len(), Ordering::Relaxed) + written.len();
            eprintln!("{k} labelled ({} read)", (first + BLOCK).min(lines.len()));
        }
        Ok(())
    })
}
