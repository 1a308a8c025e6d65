//! Scores from the side to move's point of view, with wins and losses counted in plies.
//!
//! A heuristic score lies strictly between `-DECISIVE` and `DECISIVE`. A game won `p` plies from the root of a
//! search scores [`win_in`]`(p)` = `WIN - p`, lost scores [`loss_in`]`(p)` = `-WIN + p`: a quicker win is
//! better, a slower loss less bad. The transposition table stores decisive scores relative to the node
//! ([`to_table`] / [`from_table`]) so that an entry written at one ply reads right at another.

/// A score in score units (centipawns for chess, anything for other games), or a decisive score.
pub type Score = i32;

/// The score of a game won on the spot: the side to move has already won.
pub const WIN: Score = 32_000;
/// Bound above every score; the initial search window is `(-INFINITY, INFINITY)`.
pub const INFINITY: Score = 32_001;
/// The deepest ply a decisive score can be found at; also the deepest a search goes.
pub const MAX_PLY: u32 = 1_000;
/// Scores at or beyond `±DECISIVE` are wins and losses; heuristic scores stay strictly inside.
pub const DECISIVE: Score = WIN - MAX_PLY as Score;
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

/// Whether the score is a forced win or loss.
#[inline(always)]
pub const fn is_decisive(score: Score) -> bool {
    score >= DECISIVE || score <= -DECISIVE
}

/// For a decisive score, the number of plies until the game ends (positive: the side to move wins).
pub const fn plies_to_end(score: Score) -> Option<i32> {
    if score >= DECISIVE {
        Some(WIN - score)
    } else if score <= -DECISIVE {
        Some(-(WIN + score))
    } else {
        None
    }
}

/// Converts a score found at `ply` into the form stored in a table: decisive scores become relative to the node.
#[inline(always)]
pub const fn to_table(score: Score, ply: u32) -> Score {
    if score >= DECISIVE {
        score + ply as Score
    } else if score <= -DECISIVE {
        score - ply as Score
    } else {
        score
    }
}

/// Converts a stored score back to a score at `ply` from the root.
#[inline(always)]
pub const fn from_table(score: Score, ply: u32) -> Score {
    if score >= DECISIVE {
        score - ply as Score
    } else if score <= -DECISIVE {
        score + ply as Score
    } else {
        score
    }
}

/// Formats a score the way engines print it: `+0.35` style units are the caller's business; this gives
/// `cp N` or `mate N` (moves, not plies; negative when the side to move is mated), as UCI does.
pub fn uci_string(score: Score) -> String {
    match plies_to_end(score) {
        Some(p) if p > 0 => format!("mate {}", (p + 1) / 2),
        Some(p) => format!("mate {}", p / 2),
        None => format!("cp {score}"),
    }
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
    }

    #[test]
    fn mate_notation() {
        assert_eq!(uci_string(win_in(1)), "mate 1");
        assert_eq!(uci_string(win_in(3)), "mate 2");
        assert_eq!(uci_string(loss_in(2)), "mate -1");
        assert_eq!(uci_string(loss_in(0)), "mate 0");
        assert_eq!(uci_string(-35), "cp -35");
    }
}
