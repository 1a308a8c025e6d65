//! What the crate's unit tests share.

use crate::coords::{Color, Move};
use crate::position::{Position, Rules};

/// A ko on 4×4, black to take at C3 (white's B3 has C3 for its one liberty), stone by stone:
///
/// ```text
/// . X O .
/// X O . O
/// . X O .
/// ```
pub(crate) const KO_STONES: [(&str, Color); 7] = [
    ("B4", Color::Black),
    ("C4", Color::White),
    ("A3", Color::Black),
    ("B3", Color::White),
    ("D3", Color::White),
    ("B2", Color::Black),
    ("C2", Color::White),
];

/// The [`KO_STONES`] played on 4×4 under `rules`.
pub(crate) fn ko_position(rules: Rules) -> Position {
    let mut g = Position::new(4, rules).unwrap();
    for (s, c) in KO_STONES {
        g.play(Move::from_gtp(s, 4).unwrap(), c).unwrap();
    }
    g
}
