//! Reproduces every count of `tests/data/perft.epd` (each checked against Fairy-Stockfish). Counts up to
//! [`DEFAULT_LIMIT`] leaves run by default; the deep ones are ignored:
//! `cargo test --release -p tabula-xiangqi --test perft_suite -- --ignored`.

use tabula_board::testing::{check_perft, perft_cases, PerftCase};
use tabula_xiangqi::perft::{perft_hashed, PerftTable};
use tabula_xiangqi::Position;

/// Entries with more leaves than this only run with `--ignored`.
const DEFAULT_LIMIT: u64 = 10_000_000;

const SUITE: &str = include_str!("data/perft.epd");

/// Every `;D<depth> <count>` of the suite.
fn suite() -> Vec<PerftCase<Position>> {
    let cases = perft_cases(SUITE, Position::from_fen);
    assert_eq!(cases.len(), 56, "the suite has 56 counts");
    cases
}

fn check(filter: impl Fn(u64) -> bool) {
    check_perft(&suite(), filter);
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
    for case in suite().into_iter().filter(|case| case.count <= 2_000_000) {
        let (mut pos, depth) = (case.position, case.depth);
        assert_eq!(perft_hashed(&mut pos, depth, &mut table), case.count, "line {} depth {depth}", case.line);
    }
}

#[test]
#[ignore = "slow: cargo test --release -p tabula-xiangqi --test perft_suite -- --ignored"]
fn hashed_perft_deep() {
    let mut table = PerftTable::new(1 << 22);
    let mut pos = Position::startpos();
    assert_eq!(perft_hashed(&mut pos, 6, &mut table), 5_392_831_844);
}
