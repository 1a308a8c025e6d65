//! `solve-set`: solves a file of positions and prints the mean time and nodes per position.
//!
//! ```text
//! connect4 solve-set FILE [MIB] [LIMIT] [THREADS]
//! ```
//!
//! `FILE` holds a position a line as `moves score` (the moves as digits from 1, the score the solver must
//! find), as `tabula-connect4`'s `tests/data/*.txt` do, e.g. `crates/tabula-connect4/tests/data/mid.txt`. The
//! solver gets a table of `MIB` MiB (2 by default: a table that stays in the caches is faster on these sets
//! than a larger one), solves the first `LIMIT` positions (all by default) with `THREADS` search threads (its
//! default if absent), and prints one line: positions, wrong scores, microseconds and nodes per position, and
//! millions of nodes a second.

use anyhow::Context;
use std::time::Instant;
use tabula_connect4::{Solver, Standard};

/// The set `solve-set` solves, and how.
#[derive(clap::Args)]
pub struct Args {
    /// The positions, `moves score` a line.
    file: String,
    /// The table's size in MiB.
    #[arg(default_value_t = 2)]
    mib: usize,
    /// Solve the first this many positions only.
    limit: Option<usize>,
    /// Search threads.
    threads: Option<usize>,
}

/// Runs `solve-set`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let Args { ref file, mib, limit, threads } = *args;
    let limit = limit.unwrap_or(usize::MAX);
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {file}"))?;
    let mut solver = Solver::new(mib);
    if let Some(threads) = threads {
        let mut options = solver.searcher().options().clone();
        options.threads = threads;
        solver.searcher().set_options(options);
    }
    let (mut nodes, mut n, mut wrong) = (0u64, 0usize, 0usize);
    let start = Instant::now();
    for line in text.lines().take(limit) {
        let Some((moves, score)) = line.split_once(' ') else { continue };
        let board: Standard = moves.parse().expect("valid position");
        let s = solver.solve(&board);
        nodes += s.nodes;
        n += 1;
        wrong += usize::from(s.score != score.trim().parse::<i32>().expect("score"));
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{n} positions, {wrong} wrong, {:.1} us/position, {:.0} nodes/position, {:.2} Mnodes/s",
        secs * 1e6 / n as f64,
        nodes as f64 / n as f64,
        nodes as f64 / secs / 1e6
    );
    Ok(())
}
