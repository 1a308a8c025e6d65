//! Reproduces the start position's counts and every count of `tests/data/perftsuite.epd` and of the Chess960
//! suite `tests/data/chess960.epd`.
//! Counts up to [`DEFAULT_LIMIT`] leaves run by default; the deep ones are ignored:
//! `cargo test --release -p tabula-chess -- --ignored`.

use tabula_board::testing::{check_perft, check_perft_counts, check_perft_hashed, perft_cases, PerftCase};
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

/// Both suites' counts that `filter` keeps.
fn check(filter: impl Fn(u64) -> bool) {
    for text in [STANDARD, CHESS960] {
        check_perft(&suite(text), &filter);
    }
}

#[test]
fn shallow_counts() {
    check(|count| count <= DEFAULT_LIMIT);
}

#[test]
#[ignore = "slow: cargo test --release -p tabula-chess -- --ignored"]
fn deep_counts() {
    check(|count| count > DEFAULT_LIMIT);
}

#[test]
fn hashed_perft_matches_the_suite() {
    let cases: Vec<_> = suite(STANDARD).into_iter().chain(suite(CHESS960)).collect();
    check_perft_hashed(&cases, |count| count <= 200_000);
}

#[test]
#[ignore = "slow: cargo test --release -p tabula-chess -- --ignored"]
fn hashed_perft_deep() {
    let mut table = PerftTable::new(1 << 22);
    let mut pos = Position::startpos();
    assert_eq!(perft_hashed(&mut pos, 7, &mut table), 3_195_901_860);
}

/// The start position's counts, with and without bulk counting; hashed counts stay exact with a tiny table.
#[test]
fn startpos_counts() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let hashed = (Position::from_fen(kiwipete).unwrap(), 3, 97_862);
    check_perft_counts(Position::startpos(), &[1, 20, 400, 8902, 197_281], hashed);
}
