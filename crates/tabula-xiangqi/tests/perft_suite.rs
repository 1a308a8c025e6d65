//! Reproduces the start position's counts and every count of `tests/data/perft.epd` (each checked against
//! Fairy-Stockfish). Counts up to [`DEFAULT_LIMIT`] leaves run by default; the deep ones are ignored:
//! `cargo test --release -p tabula-xiangqi --test perft_suite -- --ignored`.

use tabula_board::testing::{check_perft, check_perft_counts, check_perft_hashed, perft_cases, PerftCase};
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
    check_perft_hashed(&suite(), |count| count <= 2_000_000);
}

#[test]
#[ignore = "slow: cargo test --release -p tabula-xiangqi --test perft_suite -- --ignored"]
fn hashed_perft_deep() {
    let mut table = PerftTable::new(1 << 22);
    let mut pos = Position::startpos();
    assert_eq!(perft_hashed(&mut pos, 6, &mut table), 5_392_831_844);
}

/// The start position's counts, with and without bulk counting, leave no history behind; hashed counts
/// stay exact with a tiny table.
#[test]
fn startpos_counts() {
    let middlegame = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w";
    let hashed = (Position::from_fen(middlegame).unwrap(), 3, 43_929);
    let pos = check_perft_counts(Position::startpos(), &[1, 44, 1920, 79_666], hashed);
    assert_eq!(pos.history_len(), 0);
}
