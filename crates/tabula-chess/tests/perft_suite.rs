//! Reproduces every count of `tests/data/perftsuite.epd` and of the Chess960 suite `tests/data/chess960.epd`.
//! Counts up to [`DEFAULT_LIMIT`] leaves run by default; the deep ones are ignored:
//! `cargo test --release -p tabula-chess -- --ignored`.

use tabula_chess::perft::{perft, perft_hashed, PerftTable};
use tabula_chess::{Epd, Position};

/// Entries with more leaves than this only run with `--ignored`.
const DEFAULT_LIMIT: u64 = 10_000_000;

const STANDARD: &str = include_str!("data/perftsuite.epd");
const CHESS960: &str = include_str!("data/chess960.epd");

/// (line number, FEN, depth, expected count) for every `;D<depth> <count>` operation of a suite.
fn suite(text: &str) -> Vec<(usize, Position, u32, u64)> {
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#')) {
        let epd = Epd::parse(line).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        let pos = Position::from_setup(&epd.setup).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        for op in &epd.operations {
            let depth = op.opcode.strip_prefix('D').and_then(|d| d.parse().ok()).expect("a D<depth> opcode");
            let count = op.operand.parse().expect("a leaf count");
            cases.push((i + 1, pos.clone(), depth, count));
        }
    }
    assert!(cases.len() > 700, "the suite has more than 700 counts");
    cases
}

fn check(text: &str, filter: impl Fn(u64) -> bool) {
    let mut failures = Vec::new();
    for (line, mut pos, depth, expected) in suite(text).into_iter().filter(|case| filter(case.3)) {
        let got = perft(&mut pos, depth);
        if got != expected {
            failures.push(format!("line {line} {pos} depth {depth}: expected {expected}, got {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn shallow_counts() {
    check(STANDARD, |count| count <= DEFAULT_LIMIT);
}

#[test]
#[ignore = "slow: cargo test --release -p tabula-chess -- --ignored"]
fn deep_counts() {
    check(STANDARD, |count| count > DEFAULT_LIMIT);
}

#[test]
fn chess960_shallow_counts() {
    check(CHESS960, |count| count <= DEFAULT_LIMIT);
}

#[test]
#[ignore = "slow: cargo test --release -p tabula-chess -- --ignored"]
fn chess960_deep_counts() {
    check(CHESS960, |count| count > DEFAULT_LIMIT);
}

#[test]
fn hashed_perft_matches_the_suite() {
    let mut table = PerftTable::new(1 << 16);
    for (line, mut pos, depth, expected) in
        suite(STANDARD).into_iter().chain(suite(CHESS960)).filter(|case| case.3 <= 200_000)
    {
        assert_eq!(perft_hashed(&mut pos, depth, &mut table), expected, "line {line} depth {depth}");
    }
}

#[test]
#[ignore = "slow: cargo test --release -p tabula-chess -- --ignored"]
fn hashed_perft_deep() {
    let mut table = PerftTable::new(1 << 22);
    let mut pos = Position::startpos();
    assert_eq!(perft_hashed(&mut pos, 7, &mut table), 3_195_901_860);
}
