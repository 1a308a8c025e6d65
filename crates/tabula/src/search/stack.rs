//! The search stack: one [`Frame`] per ply, holding that ply's moves, their ordering scores, its principal
//! variation and its killer moves.
//!
//! A node borrows its own frame and hands the rest of the stack to its children
//! (`let (frame, below) = stack.split_first_mut()`), so each ply's buffers are its own for as long as the
//! node runs: nothing is taken out and put back, and nothing passes from parent to child except through the
//! arguments of the call. The buffers keep their capacity between searches, so a warm search allocates
//! nothing.

use crate::score::MAX_PLY;

/// No move code: an empty killer slot.
pub(super) const NO_CODE: u16 = u16::MAX;

/// One ply's working state.
pub(super) struct Frame<M> {
    /// The node's moves, the table move first once known.
    pub moves: Vec<M>,
    /// Ordering scores, parallel to `moves` from the first scored move on.
    pub scores: Vec<i32>,
    /// Moves put off because another thread was searching them, with their places among the moves.
    pub deferred: Vec<(usize, M)>,
    /// The principal variation from this node (PV nodes only).
    pub pv: Vec<M>,
    /// The two most recent moves that caused a cutoff at this ply.
    pub killers: [u16; 2],
    /// The static evaluation of the node two plies up, the same side to move (`None` if it was in check or
    /// not evaluated), for the [`improving`](super::SearchOptions::improving) option.
    pub eval_before: Option<i32>,
}

impl<M> Frame<M> {
    fn new() -> Self {
        Frame {
            moves: Vec::new(),
            scores: Vec::new(),
            deferred: Vec::new(),
            pv: Vec::new(),
            killers: [NO_CODE; 2],
            eval_before: None,
        }
    }
}

/// A frame for every ply a search can reach, and one to spare for the children of the deepest.
pub(super) struct Stack<M> {
    frames: Vec<Frame<M>>,
}

impl<M> Stack<M> {
    /// An empty stack.
    pub fn new() -> Self {
        Stack { frames: (0..=MAX_PLY as usize + 1).map(|_| Frame::new()).collect() }
    }

    /// The frames, from the root down, with killers cleared for a new search.
    pub fn fresh(&mut self) -> &mut [Frame<M>] {
        for f in &mut self.frames {
            f.killers = [NO_CODE; 2];
            f.pv.clear();
            f.eval_before = None;
        }
        &mut self.frames
    }

    /// The frames as the last search left them (the root's principal variation in the first).
    pub fn frames(&mut self) -> &mut [Frame<M>] {
        &mut self.frames
    }
}

/// Splits off the node's own frame: the node's frame and its children's stack.
#[inline(always)]
pub(super) fn split<M>(stack: &mut [Frame<M>]) -> (&mut Frame<M>, &mut [Frame<M>]) {
    stack.split_first_mut().expect("the stack has a frame for every ply up to MAX_PLY")
}

/// Sets `frame`'s principal variation to `mv` followed by the child's.
#[inline]
pub(super) fn update_pv<M: Copy>(frame: &mut Frame<M>, mv: M, child: &[Frame<M>]) {
    frame.pv.clear();
    frame.pv.push(mv);
    if let Some(c) = child.first() {
        frame.pv.extend_from_slice(&c.pv);
    }
}
