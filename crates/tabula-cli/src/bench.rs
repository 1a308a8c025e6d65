//! `tabula bench`: fixed searches with a deterministic node count.

use anyhow::Result;
use std::time::Instant;
use tabula::search::{SearchOptions, Searcher};
use tabula_connect4::{Solver, Standard, Threats};
use tabula_tictactoe::{Heuristic, TicTacToe};

/// Mid-game Connect Four positions from Pons's test set (the first ten of `mid.txt`).
const CONNECT4_MID: [&str; 10] = [
    "5556526744252171625646276",
    "775463462234262",
    "43336446242637",
    "735247462726135",
    "524211752413555652",
    "76421411735611",
    "2265737612745465255727",
    "5725115537661443417",
    "64375533366123",
    "2273241466327246324",
];

/// Opening positions from Pons's begin set (the first three of `begin.txt`).
const CONNECT4_BEGIN: [&str; 3] = ["4666726156164", "37614122671", "4765664276676"];

/// Runs the bench and prints one line per search and a total.
pub fn run(hash: usize) -> Result<()> {
    let mut total_nodes = 0u64;
    let start_all = Instant::now();
    let mut line = |name: &str, nodes: u64, secs: f64| {
        println!("{name:<32} {nodes:>12} nodes {:>8.3}s {:>10.0} nodes/s", secs, nodes as f64 / secs.max(1e-9));
        total_nodes += nodes;
    };

    let start = Instant::now();
    let mut ttt = Searcher::with_table_size(Heuristic, hash);
    let r = ttt.search_depth(&TicTacToe::new(), 9);
    line("tictactoe search depth 9", r.nodes, start.elapsed().as_secs_f64());

    let start = Instant::now();
    // Connect Four orders by threats; killers and history only get in the way (1.8 times the nodes).
    let options = SearchOptions::default().with_killers(false).with_history(false);
    let mut c4 = Searcher::with_table_size(Threats, hash).with_options(options);
    let r = c4.search_depth(&Standard::new(), 14);
    line("connect4 search depth 14", r.nodes, start.elapsed().as_secs_f64());

    let start = Instant::now();
    let mut solver = Solver::<7, 6>::new(hash);
    let mut nodes = 0;
    for p in CONNECT4_MID {
        let board: Standard = p.parse().expect("valid position");
        nodes += solver.solve(&board).nodes;
    }
    line("connect4 solve 10 mid positions", nodes, start.elapsed().as_secs_f64());

    let start = Instant::now();
    let mut solver = Solver::<7, 6>::new(hash);
    let mut nodes = 0;
    for p in CONNECT4_BEGIN {
        let board: Standard = p.parse().expect("valid position");
        nodes += solver.solve(&board).nodes;
    }
    line("connect4 solve 3 begin positions", nodes, start.elapsed().as_secs_f64());

    let secs = start_all.elapsed().as_secs_f64();
    println!("{:<32} {total_nodes:>12} nodes {secs:>8.3}s {:>10.0} nodes/s", "total", total_nodes as f64 / secs);
    Ok(())
}
