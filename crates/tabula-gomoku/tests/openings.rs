//! The opening sets the matches are played from (`data/openings-*.txt`): every line a game in progress under
//! every rule, of its set's number of stones, and no opening twice.

use tabula_gomoku::{Board, Rule};

const SETS: [(&str, &str, usize, usize); 5] = [
    ("openings-freestyle.txt", include_str!("../data/openings-freestyle.txt"), 4, 50),
    ("openings-freestyle-wide.txt", include_str!("../data/openings-freestyle-wide.txt"), 4, 50),
    ("openings-freestyle-balanced.txt", include_str!("../data/openings-freestyle-balanced.txt"), 3, 50),
    ("openings-standard-balanced.txt", include_str!("../data/openings-standard-balanced.txt"), 3, 49),
    ("openings-renju-balanced.txt", include_str!("../data/openings-renju-balanced.txt"), 3, 50),
];

#[test]
fn every_opening_is_a_game_in_progress_under_every_rule() {
    for (name, text, stones, count) in SETS {
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).collect();
        assert_eq!(lines.len(), count, "{name}");
        for line in &lines {
            for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
                let board = Board::from_moves(15, 15, rule, line).unwrap_or_else(|e| panic!("{name}: {line}: {e}"));
                assert_eq!(board.moves().len(), stones, "{name}: {line}");
                assert_eq!(board.winner(), None, "{name}: {line}");
            }
        }
        let mut unique = lines.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), lines.len(), "{name}: an opening twice");
    }
}
