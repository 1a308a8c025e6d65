//! VCF and VCT: known wins and non-wins, and every win claimed on random positions checked by the
//! independent verifier.

mod common;

use common::random_game;
use tabula_gomoku::engine::verify::verify_win;
use tabula_gomoku::{Board, Rule, ThreatKind, ThreatSolver};

const LIMIT: u64 = 200_000;

fn board(rule: Rule, moves: &str) -> Board {
    Board::from_moves(15, 15, rule, moves).unwrap()
}

/// (rule, moves, kind, depth, winning first moves or empty for "no win").
const CASES: &[(Rule, &str, ThreatKind, u32, &[&str])] = &[
    // Two fours at once: row h8-j8 (g8 white) and column k9-k11 (k12 white) meet at k8.
    (Rule::Freestyle, "h8 g8 i8 k12 j8 a1 k9 o1 k10 a15 k11 o15", ThreatKind::Vcf, 3, &["k8"]),
    // In renju k8 is a double four, forbidden for black: no VCF is left.
    (Rule::Renju, "h8 g8 i8 k12 j8 a1 k9 o1 k10 a15 k11 o15", ThreatKind::Vcf, 6, &[]),
    // An open three to move is already a VCF: the straight four next.
    (Rule::Freestyle, "h8 a1 i8 o1 j8 a15", ThreatKind::Vcf, 3, &["g8", "k8"]),
    // An open two is not even a VCT within three attacking moves.
    (Rule::Freestyle, "h8 a1 i8 o1", ThreatKind::Vct, 3, &[]),
    // Two open twos crossing at j8: a double three, a VCT in freestyle, forbidden for black in renju.
    (Rule::Freestyle, "h8 a1 i8 o1 j9 a15 j10 o15", ThreatKind::Vct, 4, &["j8"]),
    (Rule::Standard, "h8 a1 i8 o1 j9 a15 j10 o15", ThreatKind::Vct, 4, &["j8"]),
    // A blocked three and nothing else: no win.
    (Rule::Freestyle, "h8 g8 i8 a1 j8 o1", ThreatKind::Vct, 4, &[]),
    // Four-three (allowed in renju): k8 makes the row four and the column open three, then a straight four.
    (Rule::Renju, "h8 g8 i8 a1 j8 o1 k9 a15 k10 o15", ThreatKind::Vcf, 4, &["k8"]),
    (Rule::Renju, "h8 g8 i8 a1 j8 o1 k9 a15 k10 o15", ThreatKind::Vct, 4, &["k8"]),
];

#[test]
fn known_wins_and_non_wins() {
    for &(rule, moves, kind, depth, wins) in CASES {
        let b = board(rule, moves);
        let mut solver = ThreatSolver::new(4);
        let found = solver.find(&b, kind, depth, LIMIT).map(|p| b.format_point(p));
        match found {
            None => assert!(wins.is_empty(), "{rule} {moves} {kind:?}: no win found, expected {wins:?}"),
            Some(p) => {
                assert!(wins.contains(&p.as_str()), "{rule} {moves} {kind:?}: found {p}, expected {wins:?}");
                verify_win(&b, kind, &mut solver, depth).unwrap_or_else(|e| panic!("{rule} {moves}: {e}"));
            }
        }
        assert!(!solver.aborted(), "{rule} {moves}: out of nodes");
    }
}

fn claimed_wins_verify(kinds: &[(ThreatKind, u32, u64)], games: u64, rules: &[Rule]) -> usize {
    let mut checked = 0;
    for &rule in rules {
        for seed in 0..games {
            let b = random_game(rule, seed * 7 + rule as u64, 12 + (seed % 16) as usize);
            for &(kind, depth, nodes) in kinds {
                let mut solver = ThreatSolver::new(2);
                if solver.find(&b, kind, depth, nodes).is_some() {
                    verify_win(&b, kind, &mut solver, depth).unwrap_or_else(|e| panic!("{rule} {b:?} {kind:?}: {e}"));
                    checked += 1;
                }
            }
        }
    }
    checked
}

#[test]
fn every_claimed_vcf_verifies() {
    let checked = claimed_wins_verify(&[(ThreatKind::Vcf, 12, 20_000)], 40, &Rule::ALL);
    assert!(checked > 0, "no VCF found in the sample");
}

#[test]
fn every_claimed_vct_verifies() {
    claimed_wins_verify(&[(ThreatKind::Vct, 3, 3_000)], 12, &Rule::ALL);
}

#[test]
#[ignore = "slow: cargo test -p tabula-gomoku --release --test threats -- --ignored"]
fn every_claimed_win_verifies_long() {
    claimed_wins_verify(&[(ThreatKind::Vcf, 20, 200_000), (ThreatKind::Vct, 5, 50_000)], 200, &Rule::ALL);
}
