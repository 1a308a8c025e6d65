//! Reproduces every count of `tests/data/perft.epd` (each checked against Fairy-Stockfish). Counts up to
//! [`DEFAULT_LIMIT`] leaves run by default; the deep ones are ignored:
//! `cargo test --release -p tabula-xiangqi --test perft_suite -- --ignored`.

use tabula_xiangqi::perft::{perft, perft_hashed, PerftTable};
use tabula_xiangqi::Position;

/// Entries with more leaves than this only run with `--ignored`.
const DEFAULT_LIMIT: u64 = 10_000_000;

const SUITE: &str = include_str!("data/perft.epd");

/// (line number, position, depth, expected count) for every `;D<depth> <count>` of the suite.
fn suite() -> Vec<(usize, Position, u32, u64)> {
    let mut cases = Vec::new();
    for (i, line) in SUITE.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#')) {
        let mut parts = line.split(';');
        let fen = parts.next().expect("a FEN before the first ';'");
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        for op in parts {
            let (opcode, count) = op.trim().split_once(' ').expect("an operation `D<depth> <count>`");
            let depth = opcode.strip_prefix('D').and_then(|d| d.parse().ok()).expect("a D<depth> opcode");
            cases.push((i + 1, pos.clone(), depth, count.trim().parse().expect("a leaf count")));
        }
    }
    assert_eq!(cases.len(), 56, "the suite has 56 counts");
    cases
}

fn check(filter: impl Fn(u64) -> bool) {
    let mut failures = Vec::new();
    for (line, mut pos, depth, expected) in suite().into_iter().filter(|case| filter(case.3)) {
        let got = perft(&mut pos, depth);
        if got != expected {
            failures.push(format!("line {line} {pos} depth {depth}: expected {expected}, got {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn shallow_counts() {
    check(|count| count <= DEFAULT_LIMIT);
}

#[test]
#[ignore = "slow (5.5 billion leaves): cargo test --release -p tabula-xiangqi --test perft_suite -- --ignored"]
fn deep_counts() {
    check(|count| count > DEFAULT_LIMIT);
}

#[test]
fn hashed_perft_matches_the_suite() {
    let mut table = PerftTable::new(1 << 16);
    for (line, mut pos, depth, expected) in suite().into_iter().filter(|case| case.3 <= 2_000_000) {
        assert_eq!(perft_hashed(&mut pos, depth, &mut table), expected, "line {line} depth {depth}");
    }
}

#[test]
#[ignore = "slow: cargo test --release -p tabula-xiangqi --test perft_suite -- --ignored"]
fn hashed_perft_deep() {
    let mut table = PerftTable::new(1 << 22);
    let mut pos = Position::startpos();
    assert_eq!(perft_hashed(&mut pos, 6, &mut table), 5_392_831_844);
}
