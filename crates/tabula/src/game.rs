//! What a game must tell a search: the [`Game`] trait (rules) and the [`Evaluator`] trait (judgement).
//!
//! A game is a two-player, zero-sum, perfect-information game whose players alternate. [`Game`] says which
//! moves exist, how to make and undo them, when the game is over and what the position's key is. Optional
//! hooks, all with defaults, give a search more to work with: immediate wins and moves that do not lose at
//! once, noisy moves for quiescence, a null move, a symmetry to share table entries, repetition history.
//! An [`Evaluator`] scores positions that are not over and hints at which moves to try first.
//!
//! # Examples
//!
//! Nim with one heap: take one, two or three stones; whoever takes the last stone wins.
//!
//! ```
//! use tabula::game::{Evaluator, Game, Outcome};
//! use tabula::score::Score;
//! use tabula::zobrist::{Key, ZobristKeys};
//!
//! const KEYS: ZobristKeys<Key, 33> = ZobristKeys::<Key, 33>::generate(7);
//!
//! #[derive(Clone)]
//! struct Nim { stones: usize }
//!
//! impl Game for Nim {
//!     type Move = usize;
//!     fn legal_moves(&self, moves: &mut Vec<usize>) {
//!         moves.extend((1..=3).filter(|&take| take <= self.stones));
//!     }
//!     fn play(&mut self, take: usize) { self.stones -= take; }
//!     fn undo(&mut self, take: usize) { self.stones += take; }
//!     // The player who took the last stone won, so the side to move has lost.
//!     fn outcome(&self) -> Option<Outcome> { (self.stones == 0).then_some(Outcome::Loss) }
//!     fn key(&self) -> Key { KEYS[self.stones] }
//!     fn move_code(take: usize) -> u16 { take as u16 }
//! }
//!
//! struct Blind;
//! impl Evaluator<Nim> for Blind {
//!     fn evaluate(&self, _: &Nim) -> Score { 0 }
//! }
//!
//! // Multiples of four are lost for the side to move.
//! let value = tabula::search::minimax(&mut Nim { stones: 12 }, &Blind, 20);
//! assert_eq!(value, tabula::score::loss_in(6));
//! ```

use crate::score::{self, Score};
use crate::zobrist::Key;
use std::fmt::Debug;

/// How a finished game ended, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move has won.
    Win,
    /// The side to move has lost.
    Loss,
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The score of this outcome reached `ply` plies from the root.
    #[inline(always)]
    pub const fn score_at(self, ply: u32) -> Score {
        match self {
            Outcome::Win => score::win_in(ply),
            Outcome::Loss => score::loss_in(ply),
            Outcome::Draw => score::DRAW,
        }
    }

    /// The same outcome seen by the other player.
    pub const fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
        }
    }
}

/// The rules of a two-player alternating game, as a search needs them.
///
/// A position changes only through [`play`](Game::play) and [`undo`](Game::undo), which must keep
/// [`key`](Game::key) up to date incrementally. Moves given to `play` come from `legal_moves` of the same
/// position; `undo` receives the last move played.
pub trait Game: Clone + Send {
    /// A move, small and cheap to copy.
    type Move: Copy + Eq + Debug + Send;

    /// Appends every legal move to `moves` (which the caller has emptied). Empty only if the game is over.
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// Makes a legal move.
    fn play(&mut self, mv: Self::Move);

    /// Takes back `mv`, the last move played.
    fn undo(&mut self, mv: Self::Move);

    /// The result if the game is over, from the side to move's point of view.
    fn outcome(&self) -> Option<Outcome>;

    /// The Zobrist key of the position (side to move included where it matters).
    fn key(&self) -> Key;

    /// A compact code for `mv`, below `u16::MAX`, distinct among the legal moves of any one position.
    /// The transposition table stores it as the best move.
    fn move_code(mv: Self::Move) -> u16;

    /// An upper bound on move codes (exclusive); searches size their per-move tables (history) by it.
    const MOVE_CODES: usize = 1 << 16;

    // ---- Optional hooks --------------------------------------------------------------------------------

    /// Set to `true` if [`winning_move`](Game::winning_move) really looks for wins in one move: the search
    /// then trusts a `None` and knows no win can come sooner than three plies away.
    const FINDS_IMMEDIATE_WINS: bool = false;

    /// A move that wins at once, if the game knows a cheap way to find one.
    fn winning_move(&self) -> Option<Self::Move> {
        None
    }

    /// Appends the legal moves after which the opponent cannot win at once, in the order
    /// [`legal_moves`](Game::legal_moves) would give them. Returns `false` if the game does not implement
    /// this (the buffer is then left empty and the search uses `legal_moves`). An empty list with `true`
    /// means every move loses at once. Called only when the side to move has no immediate win.
    fn non_losing_moves(&self, _moves: &mut Vec<Self::Move>) -> bool {
        false
    }

    /// Appends the noisy moves (captures, promotions, ...) that quiescence search should resolve.
    fn noisy_moves(&self, _moves: &mut Vec<Self::Move>) {}

    /// Whether the side to move is in check (or under whatever immediate threat the game's rules force it to
    /// answer). With [`SearchOptions::check_extension`](crate::search::SearchOptions::check_extension) the
    /// search extends moves that give check; quiescence answers a check with every legal move instead of
    /// standing pat; late-move reductions and futility pruning leave such nodes alone. `false` by default.
    fn in_check(&self) -> bool {
        false
    }

    /// Whether `mv` (legal here, not yet played) is tactical: a capture, a promotion, anything
    /// [`SearchOptions::lmr`](crate::search::SearchOptions::lmr) must not reduce. `false` by default.
    fn is_tactical(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Whether passing the turn is a sound way to test the position here (false in zugzwang-prone positions).
    fn null_move_allowed(&self) -> bool {
        false
    }

    /// Passes the turn. Called only when [`null_move_allowed`](Game::null_move_allowed) says so.
    fn play_null(&mut self) {}

    /// Takes back a pass.
    fn undo_null(&mut self) {}

    /// The key under which the table stores this position, and which of the game's symmetries maps the
    /// position to that canonical form (0: identity). Mirror-symmetric games return the smaller of the
    /// key and the mirrored key so that both halves of the tree share entries.
    #[inline(always)]
    fn table_key(&self) -> (Key, u8) {
        (self.key(), 0)
    }

    /// The [`table_key`](Game::table_key) of the position after `mv`, used to prefetch and peek at children's
    /// table entries. The default plays and takes back the move; a game that can compute the key directly
    /// (one XOR per feature) should.
    #[inline(always)]
    fn child_table_key(&mut self, mv: Self::Move) -> Key {
        self.play(mv);
        let key = self.table_key().0;
        self.undo(mv);
        key
    }

    /// Maps a move code through symmetry `symmetry` (into the canonical frame when `to_canonical`, out of it
    /// otherwise). Identity by default.
    #[inline(always)]
    fn transform_move_code(code: u16, _symmetry: u8, _to_canonical: bool) -> u16 {
        code
    }

    /// Plies played since the last irreversible move, if positions of this game can repeat. The search then
    /// scores a repeated position within that window as a draw. `None`: positions never repeat.
    fn reversible_plies(&self) -> Option<usize> {
        None
    }

    /// Whether the side to move, and whether the opponent, could still win at all, whatever is played: `false`
    /// only when the rules prove it impossible (every line blocked, say). Exact solvers then bound the score
    /// by a draw. Depth-limited searches ignore it, so that their values stay those of minimax.
    #[inline(always)]
    fn possible_winners(&self) -> (bool, bool) {
        (true, true)
    }

    /// An upper bound on the plies left in the game, if the game is bounded. Exact solvers use it to size the
    /// range of possible scores.
    fn max_plies_remaining(&self) -> Option<u32> {
        None
    }
}

/// Judges positions of `G` that are not over.
pub trait Evaluator<G: Game>: Sync {
    /// How good the position looks for the side to move, strictly within `±score::DECISIVE`.
    fn evaluate(&self, game: &G) -> Score;

    /// A hint for move ordering: higher is tried first. Called for each legal move before it is played.
    #[inline(always)]
    fn move_order(&self, _game: &G, _mv: G::Move) -> i32 {
        0
    }
}
