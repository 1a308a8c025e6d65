//! What the crate's unit tests share.

use crate::coords::Color;

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
