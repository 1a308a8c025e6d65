//! Reproduces every count of `tests/data/perftsuite.epd` and of the Chess960 suite `tests/data/chess960.epd`.
//! Counts up to [`DEFAULT_LIMIT`] leaves run by default; the deep ones are ignored:
//! `cargo test --release -p tabula-chess -- --ignored`.

use tabula_board::testing::{check_perft, perft_cases, PerftCase};
use tabula_chess::perft::{perft_hashed, PerftTable};
use tabula_chess::{Epd, Position};

/// Entries with more leaves than this only run with `--ignored`.
const DEFAULT_LIMIT: u64 = 10_000_000;

const STANDARD: &str = include_str!("data/perftsuite.epd");
const CHESS960: &str = include_str!("data/chess960.epd");

/// Every `;D<depth> <count>` operation of a suite.
fn suite(text: &str) -> Vec<PerftCase<Position>> {
    let cases = perft_cases(text, |line| {
        let epd = Epd::parse(line).map_err(|e| e.to_string())?;
        Position::from_setup(&epd.setup).map_err(|e| e.to_string())
    });
    assert!(cases.len() > 700, "the suite has more than 700 counts");
    cases
}

fn check(text: &str, filter: impl Fn(u64) -> bool) {
    check_perft(&suite(text), filter);
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
    for case in suite(STANDARD).into_iter().chain(suite(CHESS960)).filter(|case| case.count <= 200_000) {
        let (mut pos, depth) = (case.position, case.depth);
        assert_eq!(perft_hashed(&mut pos, depth, &mut table), case.count, "line {} depth {depth}", case.line);
    }
}

#[test]
#[ignore = "slow: cargo test --release -p tabula-chess -- --ignored"]
fn hashed_perft_deep() {
    let mut table = PerftTable::new(1 << 22);
    let mut pos = Position::startpos();
    assert_eq!(perft_hashed(&mut pos, 7, &mut table), 3_195_901_860);
}
