//! What every search does at a node, whatever else it does: the outcome that ends a line there, mate-distance
//! pruning, and the fail-soft update of the best score by a child's.

use crate::game::{Game, Outcome};
use crate::score::{loss_in, win_in, Score};

/// The outcome that ends a line of search at `ply`: the game's, except at the root of a position that a rule
/// has drawn but play may go on from ([`Game::is_over`] false), whose moves every search still searches.
#[inline(always)]
pub(crate) fn line_outcome<G: Game>(game: &G, ply: u32) -> Option<Outcome> {
    game.outcome().filter(|_| ply > 0 || game.is_over())
}

/// What a move's score did to a node's [`Tally`](super::worker::Tally), in increasing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Taken {
    /// Nothing: it is no better than the best so far.
    Nothing,
    /// A new best move, at or below alpha.
    Best,
    /// A new best move that raised alpha: the node's principal variation follows it.
    Raised,
    /// A new best move at or above beta: the node is cut off.
    Cutoff,
}

impl Taken {
    /// Takes a child's `score` into a fail-soft node's `best` score so far and its window (`alpha`, `beta`): a
    /// new best raises `best`, and `alpha` too if it lies above it.
    #[inline(always)]
    pub fn fail_soft(score: Score, best: &mut Score, alpha: &mut Score, beta: Score) -> Taken {
        if score <= *best {
            return Taken::Nothing;
        }
        *best = score;
        if score <= *alpha {
            return Taken::Best;
        }
        *alpha = score;
        if score >= beta {
            Taken::Cutoff
        } else {
            Taken::Raised
        }
    }
}

/// Mate distance pruning at `ply`: nothing can beat a win on the next ply or lose before this one. Narrows
/// (`alpha`, `beta`) to the scores still possible; `Some(alpha)` if that closes the window.
#[inline(always)]
pub(super) fn mate_distance(ply: u32, alpha: &mut Score, beta: &mut Score) -> Option<Score> {
    *alpha = (*alpha).max(loss_in(ply));
    *beta = (*beta).min(win_in(ply + 1));
    (*alpha >= *beta).then_some(*alpha)
}
