//! Scores from the side to move's point of view: heuristic values, forced results and their words.
//!
//! Three bands, from the top:
//!
//! | score | meaning |
//! |---|---|
//! | [`win_in`]`(p)` = `WIN - p`, from [`FORCED`] to [`WIN`] | the side to move wins `p` plies from the root |
//! | [`win_by`]`(m)`, from [`DECISIVE`] to just below [`FORCED`] | the game ends with the side to move ahead by `m` (discs, points...) |
//! | strictly between `-DECISIVE` and `DECISIVE` | a heuristic value (or [`DRAW`]) |
//!
//! and their negatives for losses. A quicker win is better, a slower loss less bad; a larger margin is better,
//! whenever the game ends. A game reports either kind of end through [`Outcome`](crate::game::Outcome).
//! The transposition table stores wins and losses in plies relative to the node ([`to_table`] /
//! [`from_table`]) so that an entry written at one ply reads right at another; margins need no conversion.
//!
//! [`describe`] puts a score in a game's words: "mate in 3", "win in 5 plies", "loss by 4 discs", "draw".
//!
//! # Examples
//!
//! ```
//! use tabula::score::{describe, loss_in, win_by, win_in, Distance, Wording};
//!
//! let chess = Wording { distance: Distance::Mate, unit: "cp", margin_unit: "" };
//! assert_eq!(describe(win_in(5), false, &chess), "mate in 3");
//! assert_eq!(describe(loss_in(4), false, &chess), "mated in 2");
//! assert_eq!(describe(35, false, &chess), "+35 cp");
//! let othello = Wording { distance: Distance::Moves, unit: "", margin_unit: "discs" };
//! assert_eq!(describe(win_by(4), true, &othello), "win by 4 discs");
//! assert_eq!(describe(0, true, &othello), "draw");
//! assert_eq!(describe(0, false, &othello), "0");
//! ```

/// A score in score units (centipawns for chess, anything for other games), or a forced result.
pub type Score = i32;

/// The score of a game won on the spot: the side to move has already won.
pub const WIN: Score = 32_000;
/// Bound above every score; the initial search window is `(-INFINITY, INFINITY)`.
pub const INFINITY: Score = 32_001;
/// The deepest ply a win in plies can be found at; also the deepest a search goes.
pub const MAX_PLY: u32 = 1_000;
/// The largest margin a score can carry; larger margins count as this one.
pub const MAX_MARGIN: u32 = 2_000;
/// The lowest score of a win in plies ([`win_in`]`(MAX_PLY)`).
pub const FORCED: Score = WIN - MAX_PLY as Score;
/// Scores at or beyond `±DECISIVE` are forced results (in plies or by a margin); heuristic scores stay
/// strictly inside.
pub const DECISIVE: Score = FORCED - MAX_MARGIN as Score;
/// A draw.
pub const DRAW: Score = 0;

/// The score of winning `ply` plies from the root.
#[inline(always)]
pub const fn win_in(ply: u32) -> Score {
    WIN - ply as Score
}

/// The score of losing `ply` plies from the root.
#[inline(always)]
pub const fn loss_in(ply: u32) -> Score {
    -WIN + ply as Score
}

/// The score of a game that ends with the side to move ahead by `margin` (at least 1; capped at
/// [`MAX_MARGIN`]).
#[inline(always)]
pub const fn win_by(margin: u32) -> Score {
    let m = if margin == 0 {
        1
    } else if margin > MAX_MARGIN {
        MAX_MARGIN
    } else {
        margin
    };
    DECISIVE + m as Score - 1
}

/// The score of a game that ends with the side to move behind by `margin` (at least 1).
#[inline(always)]
pub const fn loss_by(margin: u32) -> Score {
    -win_by(margin)
}

/// Whether the score is a forced result: a win or loss in plies, or by a margin.
#[inline(always)]
pub const fn is_decisive(score: Score) -> bool {
    score >= DECISIVE || score <= -DECISIVE
}

/// For a win or loss in plies, the number of plies until the game ends (positive: the side to move wins).
pub const fn plies_to_end(score: Score) -> Option<i32> {
    if score >= FORCED {
        Some(WIN - score)
    } else if score <= -FORCED {
        Some(-(WIN + score))
    } else {
        None
    }
}

/// For a result by a margin, the margin (positive: the side to move is ahead).
pub const fn margin(score: Score) -> Option<i32> {
    if score >= DECISIVE && score < FORCED {
        Some(score - DECISIVE + 1)
    } else if score <= -DECISIVE && score > -FORCED {
        Some(-(-score - DECISIVE + 1))
    } else {
        None
    }
}

/// Converts a score found at `ply` into the form stored in a table: wins and losses in plies become
/// relative to the node.
#[inline(always)]
pub const fn to_table(score: Score, ply: u32) -> Score {
    if score >= FORCED {
        score + ply as Score
    } else if score <= -FORCED {
        score - ply as Score
    } else {
        score
    }
}

/// Converts a stored score back to a score at `ply` from the root.
#[inline(always)]
pub const fn from_table(score: Score, ply: u32) -> Score {
    if score >= FORCED {
        score - ply as Score
    } else if score <= -FORCED {
        score + ply as Score
    } else {
        score
    }
}

/// Formats a score the way UCI engines print it: `cp N` or `mate N` (moves, not plies; negative when the side
/// to move is mated). A result by a margin, which chess does not have, prints as a large `cp`. A loss an odd
/// number of plies away (a move that loses by itself, as a forbidden repetition does in xiangqi) counts its
/// moves like a win: `mate -1` for a loss on the next ply, never `mate 0`.
pub fn uci_string(score: Score) -> String {
    match plies_to_end(score) {
        Some(0) => "mate 0".to_owned(),
        Some(p) if p > 0 => format!("mate {}", (p + 1) / 2),
        Some(p) => format!("mate -{}", (-p + 1) / 2),
        None => format!("cp {score}"),
    }
}

/// How a forced result's distance is counted in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Distance {
    /// Chess's words: "mate in N" (the winner's moves), "mated in N".
    Mate,
    /// "win in N plies", "loss in N plies".
    Plies,
    /// "win in N moves", "loss in N moves": the winner's moves, the last one included.
    Moves,
}

/// How a game puts its scores in words (see [`describe`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wording {
    /// How wins and losses in plies read.
    pub distance: Distance,
    /// The unit of heuristic scores, after the number (`"cp"`), or empty.
    pub unit: &'static str,
    /// The unit of margins (`"discs"`, `"points"`), or empty.
    pub margin_unit: &'static str,
}

impl Wording {
    /// Wins and losses in plies, scores without a unit, margins in points.
    pub const PLIES: Wording = Wording { distance: Distance::Plies, unit: "", margin_unit: "points" };
    /// Wins and losses in the winner's moves, scores without a unit, margins in points.
    pub const MOVES: Wording = Wording { distance: Distance::Moves, unit: "", margin_unit: "points" };
}

/// The score in a game's words. `exact` says the search proved the value (no line cut short by the
/// horizon): only then does a zero read "draw".
pub fn describe(score: Score, exact: bool, wording: &Wording) -> String {
    let with_unit = |n: i32, unit: &str| if unit.is_empty() { n.to_string() } else { format!("{n} {unit}") };
    if let Some(p) = plies_to_end(score) {
        let n = p.unsigned_abs();
        return match (wording.distance, p > 0) {
            (Distance::Mate, true) => format!("mate in {}", n.div_ceil(2)),
            (Distance::Mate, false) => format!("mated in {}", n / 2),
            (Distance::Plies, true) => format!("win in {n} {}", if n == 1 { "ply" } else { "plies" }),
            (Distance::Plies, false) => format!("loss in {n} {}", if n == 1 { "ply" } else { "plies" }),
            (Distance::Moves, true) => plural("win in", n.div_ceil(2), "move"),
            (Distance::Moves, false) => plural("loss in", n / 2, "move"),
        };
    }
    if let Some(m) = margin(score) {
        let side = if m > 0 { "win by" } else { "loss by" };
        return format!("{side} {}", with_unit(m.abs(), wording.margin_unit));
    }
    if exact && score == DRAW {
        return "draw".into();
    }
    let text = with_unit(score, wording.unit);
    if score > 0 {
        format!("+{text}")
    } else {
        text
    }
}

fn plural(what: &str, n: u32, unit: &str) -> String {
    format!("{what} {n} {unit}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisive_scores_round_trip_across_plies() {
        for found_at in 0..60 {
            for dist in 1..40 {
                for s in [win_in(found_at + dist), loss_in(found_at + dist)] {
                    let stored = to_table(s, found_at);
                    for read_at in 0..60 {
                        let read = from_table(stored, read_at);
                        // The distance to the end from the node is preserved.
                        assert_eq!(plies_to_end(read).unwrap().abs() - read_at as i32, dist as i32);
                    }
                }
            }
        }
        assert_eq!(to_table(123, 9), 123);
        assert_eq!(from_table(-123, 9), -123);
        // Margins are the same at every ply.
        assert_eq!(from_table(to_table(win_by(7), 3), 40), win_by(7));
    }

    #[test]
    fn bands_order_and_do_not_overlap() {
        assert!(win_in(MAX_PLY) > win_by(MAX_MARGIN));
        assert!(win_by(1) > DECISIVE - 1 && is_decisive(win_by(1)) && !is_decisive(DECISIVE - 1));
        assert!(loss_by(MAX_MARGIN) > loss_in(MAX_PLY));
        assert!(win_by(3) > win_by(2) && loss_by(3) < loss_by(2));
        for m in 1..=MAX_MARGIN {
            assert_eq!(margin(win_by(m)), Some(m as i32));
            assert_eq!(margin(loss_by(m)), Some(-(m as i32)));
            assert_eq!(plies_to_end(win_by(m)), None);
        }
        assert_eq!(margin(win_by(5000)), Some(MAX_MARGIN as i32));
        assert_eq!(margin(win_in(3)), None);
        assert_eq!(margin(100), None);
    }

    #[test]
    fn mate_notation() {
        assert_eq!(uci_string(win_in(1)), "mate 1");
        assert_eq!(uci_string(win_in(3)), "mate 2");
        assert_eq!(uci_string(loss_in(2)), "mate -1");
        assert_eq!(uci_string(loss_in(0)), "mate 0");
        assert_eq!(uci_string(loss_in(1)), "mate -1");
        assert_eq!(uci_string(loss_in(4)), "mate -2");
        assert_eq!(uci_string(-35), "cp -35");
    }

    #[test]
    fn words() {
        let plies = Wording::PLIES;
        let moves = Wording::MOVES;
        assert_eq!(describe(win_in(1), true, &plies), "win in 1 ply");
        assert_eq!(describe(win_in(1), true, &moves), "win in 1 move");
        assert_eq!(describe(win_in(5), true, &moves), "win in 3 moves");
        assert_eq!(describe(loss_in(2), true, &moves), "loss in 1 move");
        assert_eq!(describe(loss_in(6), true, &plies), "loss in 6 plies");
        assert_eq!(describe(loss_by(3), true, &plies), "loss by 3 points");
        assert_eq!(describe(-12, false, &plies), "-12");
        assert_eq!(describe(0, false, &plies), "0");
        assert_eq!(describe(0, true, &plies), "draw");
    }
}
