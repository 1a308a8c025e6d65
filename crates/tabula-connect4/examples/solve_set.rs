//! Solves a file of positions (`moves score` per line) and prints mean time and nodes per position.
//!
//! `cargo run --release -p tabula-connect4 --example solve_set -- tests/data/mid.txt [table MiB] [limit] [threads]`
//! (2 MiB by default: a table that stays in the caches is faster on these sets than a larger one)

use std::time::Instant;
use tabula_connect4::{Solver, Standard};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: solve_set FILE [MIB] [LIMIT] [THREADS]");
    let mib = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let limit = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(usize::MAX);
    let text = std::fs::read_to_string(path).expect("readable file");
    let mut solver = Solver::new(mib);
    if let Some(threads) = args.get(4).and_then(|a| a.parse().ok()) {
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
}
