//! The board as the engine's alpha-beta sees it: the rules of [`Board`] plus threat-space hooks.
//!
//! [`SearchBoard`] wraps a [`Board`] and implements [`Game`] with three extra pieces of knowledge, each
//! switched by [`ThreatOptions`]:
//!
//! - **Forced replies.** A side that can make five makes it, and a side facing the opponent's four (and no
//!   five of its own) blocks it: [`Game::legal_moves`] then lists only that move and [`Game::in_check`]
//!   says so. Every other move loses at once, so the restriction keeps minimax values (a test checks it);
//!   against two fives every move loses alike, and the list holds one block.
//!   With the core's check extension a four costs the attacker no depth, and quiescence answers a four
//!   with its block and makes a five when it can, so lines of fours end in exact win and loss scores.
//! - **VCF at the horizon.** Quiescence plays the first move of the side to move's VCF, found by a bounded
//!   [`ThreatSolver`] on the threat search's own keyed table ([`ThreatCache`], shared by the search
//!   threads); with the forced reply after each four, the line runs to the five and gives an exact score.
//!   (Playing every four in quiescence instead explodes: both sides' fours alternate without end.)
//! - **VCF at inner nodes.** Where the search has two plies or more left (the core asks for
//!   [`Game::non_losing_moves`] only there), the same bounded VCF: a side with one plays its first move
//!   only. A side whose opponent has a VCF finds out one ply later, at the opponent's node.
//!
//! [`Board`]'s own [`Game`] implementation stays the plain rules, for the differential tests.
//!
//! # Examples
//!
//! ```
//! use tabula::game::Game;
//! use tabula_gomoku::search_board::{SearchBoard, ThreatOptions};
//! use tabula_gomoku::{Board, Rule};
//!
//! // Black has made four on row 8 (h8 i8 j8 k8, g8 white): white's only moves are the block l8.
//! let board = Board::from_moves(15, 15, Rule::Standard, "h8 g8 i8 a1 j8 a3 k8").unwrap();
//! let node = SearchBoard::new(board.clone(), ThreatOptions::default(), None);
//! let mut moves = Vec::new();
//! node.legal_moves(&mut moves);
//! assert!(node.in_check());
//! assert_eq!(board.format_moves(&moves), "l8");
//! ```

use crate::board::{Board, Point, MAX_SIZE};
use crate::eval::Eval;
use crate::threats::{ThreatCache, ThreatKind, ThreatSolver};
use std::cell::Cell;
use std::sync::Arc;
use tabula::game::{Evaluator, Game, Outcome};
use tabula::score::Score;
use tabula::zobrist::Key;

/// Most attacking moves of a VCF in the search: the node budget is what bounds it in practice.
const VCF_DEPTH: u32 = 12;

/// Which threat-space hooks the search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreatOptions {
    /// Restrict a side that can make five, or must block a four, to those moves, and report it as in check.
    pub forced_replies: bool,
    /// Node budget of the VCF searched in quiescence (0: none).
    pub horizon_vcf_nodes: u64,
    /// Node budget of the VCF searched at inner nodes with two plies or more left (0: none; needs
    /// `forced_replies`).
    pub inner_vcf_nodes: u64,
}

impl Default for ThreatOptions {
    /// Forced replies and a 1,000-node inner VCF, no horizon VCF: the best of the settings measured by
    /// matches at 10 s + 0.1 s (see the crate's README section in the workspace README).
    fn default() -> Self {
        ThreatOptions { forced_replies: true, horizon_vcf_nodes: 0, inner_vcf_nodes: 1_000 }
    }
}

impl ThreatOptions {
    /// Every hook off: the search sees the plain rules.
    pub const OFF: ThreatOptions = ThreatOptions { forced_replies: false, horizon_vcf_nodes: 0, inner_vcf_nodes: 0 };
}

/// What the side to move is forced to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Forced {
    /// Nothing: any move.
    Free,
    /// Make five here.
    Win(Point),
    /// Block the opponent's single four here.
    Block(Point),
    /// The opponent has two fives (or a four that cannot be blocked legally): every move loses, blocking
    /// one of the fives (here, if that is legal) as much as any other.
    Lost(Option<Point>),
}

/// A [`Board`] with the threat hooks of the engine's search. See the [module documentation](self).
#[derive(Clone)]
pub struct SearchBoard {
    board: Board,
    options: ThreatOptions,
    cache: Option<Arc<ThreatCache>>,
    /// The last [`Forced`] computed, with the key of the position it was computed for.
    forced: Cell<Option<(Key, Forced)>>,
    /// Threat-search nodes spent by this copy of the board.
    threat_nodes: Cell<u64>,
}

impl SearchBoard {
    /// `board` with the hooks `options` asks for; the inner VCF needs a `cache`.
    pub fn new(board: Board, options: ThreatOptions, cache: Option<Arc<ThreatCache>>) -> SearchBoard {
        SearchBoard { board, options, cache, forced: Cell::new(None), threat_nodes: Cell::new(0) }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The options in force.
    pub fn options(&self) -> ThreatOptions {
        self.options
    }

    /// Threat-search nodes this copy has spent.
    pub fn threat_nodes(&self) -> u64 {
        self.threat_nodes.get()
    }

    fn forced(&self) -> Forced {
        let key = self.board.key();
        if let Some((_, memo)) = self.forced.get().filter(|m| m.0 == key) {
            return memo;
        }
        let forced = self.compute_forced();
        self.forced.set(Some((key, forced)));
        forced
    }

    /// The first move of a VCF for the side to move, within `budget` nodes.
    fn vcf(&self, budget: u64) -> Option<Point> {
        let cache = self.cache.as_ref().filter(|_| budget > 0)?;
        let mut solver = ThreatSolver::with_cache(cache.clone());
        let found = solver.find(&self.board, ThreatKind::Vcf, VCF_DEPTH, budget);
        self.threat_nodes.set(self.threat_nodes.get() + solver.nodes());
        found
    }

    fn compute_forced(&self) -> Forced {
        let b = &self.board;
        let me = b.side_to_move();
        let mut fives = Vec::with_capacity(2);
        b.five_points_into(me, &mut fives, 1);
        if let Some(&p) = fives.first() {
            return Forced::Win(p);
        }
        b.five_points_into(me.opponent(), &mut fives, 2);
        match fives.as_slice() {
            [] => Forced::Free,
            [block] if b.is_legal_at(block.index(), me) => Forced::Block(*block),
            _ => Forced::Lost(fives.iter().copied().find(|p| b.is_legal_at(p.index(), me))),
        }
    }
}

impl Game for SearchBoard {
    type Move = Point;

    fn legal_moves(&self, moves: &mut Vec<Point>) {
        if self.options.forced_replies {
            match self.forced() {
                Forced::Win(p) | Forced::Block(p) | Forced::Lost(Some(p)) => {
                    moves.push(p);
                    return;
                }
                Forced::Lost(None) | Forced::Free => {}
            }
        }
        self.board.legal_moves(moves);
    }

    fn play(&mut self, mv: Point) {
        self.board.play_unchecked(mv);
    }

    fn undo(&mut self, mv: Point) {
        self.board.undo_unchecked(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.board.outcome()
    }

    fn key(&self) -> Key {
        self.board.key()
    }

    fn move_code(mv: Point) -> u16 {
        mv.code()
    }

    const MOVE_CODES: usize = MAX_SIZE * MAX_SIZE;

    const FINDS_IMMEDIATE_WINS: bool = true;

    fn winning_move(&self) -> Option<Point> {
        if self.options.forced_replies {
            return match self.forced() {
                Forced::Win(p) => Some(p),
                _ => None,
            };
        }
        self.board.winning_move()
    }

    fn non_losing_moves(&self, moves: &mut Vec<Point>) -> bool {
        if !self.options.forced_replies {
            return self.board.non_losing_moves(moves);
        }
        match self.forced() {
            Forced::Block(p) => moves.push(p),
            Forced::Lost(_) => {}
            Forced::Win(p) => moves.push(p),
            Forced::Free => match self.vcf(self.options.inner_vcf_nodes) {
                Some(p) => moves.push(p),
                None => self.board.legal_moves(moves),
            },
        }
        true
    }

    fn noisy_moves(&self, moves: &mut Vec<Point>) {
        moves.extend(self.vcf(self.options.horizon_vcf_nodes));
    }

    fn in_check(&self) -> bool {
        self.options.forced_replies && self.forced() != Forced::Free
    }

    fn is_tactical(&self, mv: Point) -> bool {
        let b = &self.board;
        b.patterns_at(mv.index(), b.side_to_move()).iter().any(|p| p.is_four())
    }

    fn max_plies_remaining(&self) -> Option<u32> {
        self.board.max_plies_remaining()
    }
}

impl Evaluator<SearchBoard> for Eval {
    fn evaluate(&self, node: &SearchBoard) -> Score {
        self.evaluate(&node.board)
    }

    fn move_order(&self, node: &SearchBoard, mv: Point) -> i32 {
        self.move_order(&node.board, mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rule;
    use tabula::search::minimax;

    #[test]
    fn forced_replies_keep_minimax_values() {
        let off = ThreatOptions::OFF;
        let forced = ThreatOptions { forced_replies: true, ..ThreatOptions::OFF };
        for (rule, moves) in [
            (Rule::Freestyle, "c3 c4 d3 d4 e3"),
            (Rule::Standard, "c3 b2 d4 e5 b4 a1 e6"),
            (Rule::Renju, "c3 d3 c4 d5 c5"),
            (Rule::Freestyle, "b2 f6 c3 f5 d4 f4"),
        ] {
            let board = Board::from_moves(7, 7, rule, moves).unwrap();
            for depth in 1..=3 {
                let plain = minimax(&mut board.clone(), &Eval, depth);
                let a = minimax(&mut SearchBoard::new(board.clone(), off, None), &Eval, depth);
                let b = minimax(&mut SearchBoard::new(board.clone(), forced, None), &Eval, depth);
                assert_eq!((a, b), (plain, plain), "{rule} {moves} depth {depth}");
            }
        }
    }
}
