//! The comparison's positions are the ones the documented procedure draws from the documented seed, and none
//! of them is one the presets were chosen on.

use tabula_compare::{fresh_positions, Four, FRESH_SEED, POSITIONS, TUNED_POSITIONS};

#[test]
fn the_positions_are_drawn_from_the_seed() {
    assert_eq!(fresh_positions(POSITIONS.len(), FRESH_SEED), POSITIONS);
    for p in POSITIONS {
        assert!(!TUNED_POSITIONS.contains(&p), "{p}");
        let four: Four = p.parse().unwrap();
        assert!(!four.winner_just_moved() && (8..=13).contains(&p.len()), "{p}");
    }
}
