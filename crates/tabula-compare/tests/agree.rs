//! Both crates find the same root value of every position (at a depth that keeps the test quick; the
//! `versus` example checks depth 16).

use tabula_compare::{minimax_side, same_value, tabula_side, Four, POSITIONS, TUNED_POSITIONS};

#[test]
fn root_values_agree() {
    for p in POSITIONS.into_iter().chain(TUNED_POSITIONS) {
        let four: Four = p.parse().unwrap();
        for depth in [1, 4, 9] {
            let theirs = minimax_side::search(&four, depth, minimax_side::Config::Matched, 1);
            for (config, threads) in [
                (tabula_side::Config::Matched, 1),
                (tabula_side::Config::Defaults, 1),
                (tabula_side::Config::Matched, 2),
                (tabula_side::Config::Defaults, 2),
            ] {
                let ours = tabula_side::search(&four, depth, config, threads);
                assert!(
                    same_value(ours.value, theirs.value),
                    "{p} depth {depth} {config:?} x{threads}: {ours:?} vs {theirs:?}"
                );
            }
        }
    }
}
