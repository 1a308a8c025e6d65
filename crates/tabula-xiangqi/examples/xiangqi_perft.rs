//! Prints the perft count and speed of a position:
//! `cargo run --release -p tabula-xiangqi --example xiangqi_perft -- [--divide|--hashed] [--fairy] <depth> [fen]`
//! (the start position by default). `--divide` prints the count below each move, `--hashed` counts through a
//! table keyed by the Zobrist key, and `--fairy` runs Fairy-Stockfish's `go perft` on the same position after
//! ours, for the comparison in one run.

#[path = "../tests/common/mod.rs"]
#[allow(dead_code)] // the tests use more of it
mod common;

use std::time::Instant;
use tabula_xiangqi::perft::{divide, perft, perft_hashed, PerftTable};
use tabula_xiangqi::Position;

fn report(who: &str, depth: u32, nodes: u64, start: Instant) {
    let seconds = start.elapsed().as_secs_f64();
    println!("{who} perft {depth}: {nodes} nodes in {seconds:.3} s, {:.1} Mnodes/s", nodes as f64 / seconds / 1e6);
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut flag = |name: &str| args.iter().position(|a| a == name).map(|i| args.remove(i)).is_some();
    let (split, hashed, fairy) = (flag("--divide"), flag("--hashed"), flag("--fairy"));
    let depth: u32 = args.first().and_then(|d| d.parse().ok()).unwrap_or(5);
    let fen = args.get(1..).unwrap_or_default().join(" ");
    let mut pos =
        if fen.is_empty() { Position::startpos() } else { Position::from_fen(&fen).unwrap_or_else(|e| panic!("{e}")) };
    let start = Instant::now();
    let nodes = if split {
        let moves = divide(&mut pos, depth);
        for (mv, n) in &moves {
            println!("{mv}: {n}");
        }
        moves.iter().map(|(_, n)| n).sum()
    } else if hashed {
        perft_hashed(&mut pos, depth, &mut PerftTable::new(1 << 22))
    } else {
        perft(&mut pos, depth)
    };
    report("tabula", depth, nodes, start);
    if fairy {
        let Some(mut engine) = common::Fairy::start("the Fairy-Stockfish run") else {
            return;
        };
        engine.set_position(&pos.to_fen(), &[]);
        let start = Instant::now();
        let (_, nodes) = engine.perft(depth);
        report("fairy-stockfish", depth, nodes, start);
    }
}
