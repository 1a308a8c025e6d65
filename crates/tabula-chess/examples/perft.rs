//! Prints the perft count and speed of a position:
//! `cargo run --release -p tabula-chess --example perft -- <depth> [fen]` (start position by default).

use std::time::Instant;
use tabula_chess::perft::perft;
use tabula_chess::Position;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(5);
    let fen: Vec<String> = args.collect();
    let mut pos = if fen.is_empty() {
        Position::startpos()
    } else {
        Position::from_fen(&fen.join(" ")).unwrap_or_else(|e| panic!("{e}"))
    };
    let start = Instant::now();
    let nodes = perft(&mut pos, depth);
    let seconds = start.elapsed().as_secs_f64();
    println!("perft {depth}: {nodes} nodes in {seconds:.3} s, {:.1} Mnodes/s", nodes as f64 / seconds / 1e6);
}
