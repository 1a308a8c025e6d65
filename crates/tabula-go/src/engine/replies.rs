//! Last good replies with forgetting: the playouts' memory of which answer to a move won.
//!
//! After each playout, every move of the side that won is stored as that side's reply to the move before
//! it, and to the two moves before it; every move of the side that lost removes itself where it is stored
//! as such a reply. The playout policy, after its answers to ataris, plays the stored reply to the last two
//! moves if there is one and it is a sensible move (legal, no own eye, no big self-atari), else the stored
//! reply to the last move. A reply so lives while it keeps winning and is forgotten at its first loss, so
//! the table follows what the tree's current lines need. (The policy is Drake's *last good reply*, with the
//! forgetting of Baier and Drake, "The Power of Forgetting: Improving the Last-Good-Reply Policy in Monte
//! Carlo Go", 2010.)
//!
//! A [`Replies`] belongs to one search thread: it keeps the line of the current iteration (the two moves
//! of the game before the root, the tree's moves, then the playout's) and its two tables, by the mover's
//! colour and the padded indices of the previous moves. Passes are never stored as replies.
//!
//! # Examples
//!
//! ```
//! use tabula_go::coords::Color;
//! use tabula_go::engine::replies::Replies;
//!
//! let mut replies = Replies::new(11 * 11);
//! replies.begin(0, 0, Color::Black);
//! for index in [13, 14, 15, 16] {
//!     replies.push(index);
//! }
//! replies.learn(Some(Color::White));
//! // White answered 13 with 14 and 15 with 16, and won: those are white's replies now.
//! assert_eq!(replies.reply(Color::White, 13, 13), [0, 14]);
//! assert_eq!(replies.reply(Color::White, 14, 15), [16, 16]);
//! // Black lost: it keeps nothing.
//! assert_eq!(replies.reply(Color::Black, 13, 14), [0, 0]);
//! ```

use crate::coords::Color;
use crate::engine::playout::NO_POINT;

/// The reply tables of one search thread and the line of its current iteration.
#[derive(Clone, Debug)]
pub struct Replies {
    cells: usize,
    /// Reply to one move: `[colour × cells + last]`.
    one: Vec<u16>,
    /// Reply to two moves: `[(colour × cells + previous) × cells + last]`.
    two: Vec<u16>,
    /// The iteration's moves, from the two before the root on.
    line: Vec<u16>,
    /// The colour of `line[0]`'s mover.
    first: Color,
}

impl Replies {
    /// Empty tables for a playout board of `cells` padded indices.
    pub fn new(cells: usize) -> Replies {
        Replies {
            cells,
            one: vec![NO_POINT; 2 * cells],
            two: vec![NO_POINT; 2 * cells * cells],
            line: Vec::with_capacity(4 * cells),
            first: Color::Black,
        }
    }

    /// Starts an iteration's line: the game's move before the last and its last move (padded indices,
    /// [`NO_POINT`] for a pass or none), with `to_move` to play at the root.
    pub fn begin(&mut self, previous: u16, last: u16, to_move: Color) {
        self.line.clear();
        self.line.push(previous);
        self.line.push(last);
        self.first = to_move;
    }

    /// The next move of the line, by the side whose turn it is.
    #[inline]
    pub fn push(&mut self, index: u16) {
        self.line.push(index);
    }

    /// `color`'s stored replies to `previous` then `last`: the reply to both moves and the reply to `last`
    /// alone, [`NO_POINT`] where there is none.
    #[inline]
    pub fn reply(&self, color: Color, previous: u16, last: u16) -> [u16; 2] {
        let by_last = color.index() * self.cells + last as usize;
        let by_both = (color.index() * self.cells + previous as usize) * self.cells + last as usize;
        [self.two[by_both], self.one[by_last]]
    }

    /// Learns from the line's result: `winner` keeps its moves as replies, the other side forgets its own;
    /// an even result (`None`) teaches nothing.
    pub fn learn(&mut self, winner: Option<Color>) {
        let Some(winner) = winner else { return };
        let cells = self.cells;
        for k in 2..self.line.len() {
            let mv = self.line[k];
            if mv == NO_POINT {
                continue;
            }
            // line[0] and line[1] were played before the root, by the side not to move and the side to move
            // in turn; the root's mover plays line[2].
            let color = if k % 2 == 0 { self.first } else { self.first.opponent() };
            let (previous, last) = (self.line[k - 2] as usize, self.line[k - 1] as usize);
            let by_last = color.index() * cells + last;
            let by_both = (color.index() * cells + previous) * cells + last;
            if color == winner {
                self.one[by_last] = mv;
                self.two[by_both] = mv;
            } else {
                if self.one[by_last] == mv {
                    self.one[by_last] = NO_POINT;
                }
                if self.two[by_both] == mv {
                    self.two[by_both] = NO_POINT;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_losing_reply_is_forgotten_and_a_winning_one_replaces_it() {
        let mut r = Replies::new(121);
        r.begin(NO_POINT, 20, Color::White);
        r.push(30); // white answers 20 with 30
        r.push(40);
        r.learn(Some(Color::White));
        assert_eq!(r.reply(Color::White, NO_POINT, 20), [30, 30]);
        // The same answer loses: forgotten from both tables.
        r.begin(NO_POINT, 20, Color::White);
        r.push(30);
        r.learn(Some(Color::Black));
        assert_eq!(r.reply(Color::White, NO_POINT, 20), [NO_POINT, NO_POINT]);
        // Another answer wins; losing with a different move does not remove it.
        r.begin(5, 20, Color::White);
        r.push(31);
        r.learn(Some(Color::White));
        r.begin(5, 20, Color::White);
        r.push(32);
        r.learn(Some(Color::Black));
        assert_eq!(r.reply(Color::White, 5, 20), [31, 31]);
        assert_eq!(r.reply(Color::White, NO_POINT, 20), [NO_POINT, 31]);
    }

    #[test]
    fn passes_are_not_replies_and_an_even_result_teaches_nothing() {
        let mut r = Replies::new(121);
        // Black passes and white answers the pass; white wins.
        r.begin(NO_POINT, 20, Color::Black);
        r.push(NO_POINT);
        r.push(21);
        r.learn(Some(Color::White));
        assert_eq!(r.reply(Color::Black, NO_POINT, 20), [NO_POINT, NO_POINT]);
        assert_eq!(r.reply(Color::White, 20, NO_POINT), [21, 21]);
        r.begin(1, 2, Color::Black);
        r.push(3);
        r.learn(None);
        assert_eq!(r.reply(Color::Black, 1, 2), [NO_POINT, NO_POINT]);
    }
}
