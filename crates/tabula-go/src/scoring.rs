//! Area scoring (Tromp–Taylor) and handicap placement.
//!
//! A player's area is their stones plus the empty regions that touch only their stones. Every stone on the
//! board counts as alive: there is no dead-stone analysis, so games should be played out (as computer
//! games under area rules are) before they are scored.
//!
//! Fixed handicap follows the GTP 2 table: stones on the 3rd line on boards up to 12×12 and on the 4th line
//! from 13×13, corners first, then the sides, then the centre; 2 to 9 stones on odd boards from 9×9,
//! 2 to 4 stones on even boards and on 7×7, none below 7×7.
//!
//! # Examples
//!
//! ```
//! use tabula_go::board::Board;
//! use tabula_go::coords::{Color, Point};
//! use tabula_go::scoring::{area_score, fixed_handicap};
//!
//! let mut board = Board::new(3).unwrap();
//! let mut removed = Vec::new();
//! for row in 0..3 {
//!     board.place(Point::new(1, row), Color::Black, &mut removed);
//! }
//! let score = area_score(&board);
//! assert_eq!((score.black, score.white), (9, 0)); // the wall and both sides
//! assert_eq!(score.result(7.5), "B+1.5");
//!
//! let stones: Vec<String> = fixed_handicap(19, 3).unwrap().iter().map(|p| p.to_gtp()).collect();
//! assert_eq!(stones, ["D4", "Q16", "D16"]);
//! ```

use crate::board::Board;
use crate::coords::{Color, Point};
use thiserror::Error;

/// Points of area for each player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AreaScore {
    /// Black stones plus empty points reaching only black.
    pub black: u32,
    /// White stones plus empty points reaching only white.
    pub white: u32,
}

impl AreaScore {
    /// Black's lead after `komi` (negative: white leads).
    pub fn margin(self, komi: f64) -> f64 {
        self.black as f64 - self.white as f64 - komi
    }

    /// The result as GTP and SGF write it: `B+3.5`, `W+0.5` or `0` for a draw.
    pub fn result(self, komi: f64) -> String {
        let margin = self.margin(komi);
        if margin > 0.0 {
            format!("B+{margin}")
        } else if margin < 0.0 {
            format!("W+{}", -margin)
        } else {
            "0".to_string()
        }
    }
}

/// The Tromp–Taylor area score of `board`.
pub fn area_score(board: &Board) -> AreaScore {
    let mut score = AreaScore { black: 0, white: 0 };
    let mut seen = vec![false; crate::coords::MAX_POINTS];
    let mut stack = Vec::new();
    for p in board.points() {
        match board.get(p) {
            Some(Color::Black) => score.black += 1,
            Some(Color::White) => score.white += 1,
            None if !seen[p.index()] => {
                // Flood the empty region and note which colours border it.
                let (mut size, mut reaches) = (0, [false; 2]);
                seen[p.index()] = true;
                stack.push(p);
                while let Some(q) = stack.pop() {
                    size += 1;
                    for n in board.neighbors(q) {
                        match board.get(n) {
                            Some(c) => reaches[c.index()] = true,
                            None if !seen[n.index()] => {
                                seen[n.index()] = true;
                                stack.push(n);
                            }
                            None => {}
                        }
                    }
                }
                match reaches {
                    [true, false] => score.black += size,
                    [false, true] => score.white += size,
                    _ => {}
                }
            }
            None => {}
        }
    }
    score
}

/// A fixed handicap that the board size does not allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("a fixed handicap of {stones} stones is not defined on a {size}x{size} board")]
pub struct HandicapError {
    /// The board side.
    pub size: usize,
    /// The stones asked for.
    pub stones: usize,
}

/// The most fixed handicap stones a board of side `size` takes (0 if none).
pub fn max_fixed_handicap(size: usize) -> usize {
    match size {
        0..=6 => 0,
        s if s % 2 == 1 && s >= 9 => 9,
        _ => 4,
    }
}

/// The GTP fixed handicap points for `stones` stones on a board of side `size`, in the GTP table's order.
///
/// # Errors
///
/// [`HandicapError`] if `stones` is below 2 or above [`max_fixed_handicap`].
pub fn fixed_handicap(size: usize, stones: usize) -> Result<Vec<Point>, HandicapError> {
    if stones < 2 || stones > max_fixed_handicap(size) {
        return Err(HandicapError { size, stones });
    }
    let edge = if size >= 13 { 3 } else { 2 };
    let (low, mid, high) = (edge, size / 2, size - 1 - edge);
    let at = |c, r| Point::new(c, r);
    // Corners, then the left and right sides, then bottom and top; the centre joins odd counts from five.
    let mut points = vec![at(low, low), at(high, high), at(low, high), at(high, low)];
    match stones {
        2..=4 => points.truncate(stones),
        5 => points.push(at(mid, mid)),
        6 | 7 => points.extend([at(low, mid), at(high, mid)]),
        _ => points.extend([at(low, mid), at(high, mid), at(mid, low), at(mid, high)]),
    }
    if stones == 7 || stones == 9 {
        points.push(at(mid, mid));
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gtp(size: usize, n: usize) -> String {
        fixed_handicap(size, n).unwrap().iter().map(|p| p.to_gtp()).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn gtp_handicap_table() {
        assert_eq!(gtp(19, 2), "D4 Q16");
        assert_eq!(gtp(19, 4), "D4 Q16 D16 Q4");
        assert_eq!(gtp(19, 5), "D4 Q16 D16 Q4 K10");
        assert_eq!(gtp(19, 6), "D4 Q16 D16 Q4 D10 Q10");
        assert_eq!(gtp(19, 7), "D4 Q16 D16 Q4 D10 Q10 K10");
        assert_eq!(gtp(19, 8), "D4 Q16 D16 Q4 D10 Q10 K4 K16");
        assert_eq!(gtp(19, 9), "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10");
        assert_eq!(gtp(13, 5), "D4 K10 D10 K4 G7");
        assert_eq!(gtp(9, 9), "C3 G7 C7 G3 C5 G5 E3 E7 E5");
        assert_eq!(gtp(10, 4), "C3 H8 C8 H3");
        assert!(fixed_handicap(10, 5).is_err());
        assert!(fixed_handicap(19, 1).is_err());
        assert!(fixed_handicap(19, 10).is_err());
        assert!(fixed_handicap(5, 2).is_err());
    }

    #[test]
    fn shared_regions_count_for_nobody() {
        let mut b = Board::new(3).unwrap();
        let mut r = Vec::new();
        b.place(Point::new(0, 0), Color::Black, &mut r);
        b.place(Point::new(2, 2), Color::White, &mut r);
        assert_eq!(area_score(&b), AreaScore { black: 1, white: 1 });
        assert_eq!(area_score(&b).result(0.0), "0");
        assert_eq!(area_score(&b).result(0.5), "W+0.5");
    }
}
