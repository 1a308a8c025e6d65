//! What a game must tell a search: the [`Game`] trait (rules) and the [`Evaluator`] trait (judgement and
//! search policy). The [guide](crate::guide) walks through writing one.
//!
//! A game is a two-player, zero-sum, perfect-information game whose players alternate. [`Game`] says which
//! moves exist, how to make and undo them, when the game is over and what the position's key is: six required
//! items, and a few optional ones that describe the game (how many move codes there are, what perft counts).
//! An [`Evaluator`] scores positions that are not over and hints which moves to try first.
//!
//! Everything else a search can use is a [hook](hooks), and both traits name theirs in one place, a constant
//! (`HOOKS`) that lists them: a game that names none gets the lean search, and a hook it names is used wherever
//! a search can use it. The rules stay one type; a different engine is a different evaluator.
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
//! let value = tabula::search::minimax(&mut Nim { stones: 12 }, &Blind, 20).score;
//! assert_eq!(value, tabula::score::loss_in(6));
//! ```

use crate::score::{self, Score};
use crate::zobrist::Key;
use std::fmt::Debug;

pub mod hooks;

pub use hooks::{EvaluatorHooks, HookedEvaluator, HookedGame, Hooks, PieceTo, Repetition, Symmetries};

/// How a finished game ended, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move has won.
    Win,
    /// The side to move has lost.
    Loss,
    /// Nobody won.
    Draw,
    /// The game ended with the side to move ahead by this many units of the game's own (discs, half
    /// points...): behind if negative, level if zero. A larger margin is better whenever it comes; every
    /// margin ranks below a [`Win`](Outcome::Win) and above a [`Loss`](Outcome::Loss). Exact solvers bisect
    /// over the margins [`remaining`](crate::game::HookedGame::remaining) allows.
    Margin(i32),
}

impl Outcome {
    /// The score of this outcome reached `ply` plies from the root.
    #[inline(always)]
    pub const fn score_at(self, ply: u32) -> Score {
        match self {
            Outcome::Win => score::win_in(ply),
            Outcome::Loss => score::loss_in(ply),
            Outcome::Draw => score::DRAW,
            Outcome::Margin(m) if m > 0 => score::win_by(m as u32),
            Outcome::Margin(m) if m < 0 => score::loss_by(m.unsigned_abs()),
            Outcome::Margin(_) => score::DRAW,
        }
    }

    /// The same outcome seen by the other player.
    pub const fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Margin(m) => Outcome::Margin(-m),
        }
    }
}

/// What [`winning_move`](crate::game::HookedGame::winning_move) found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinningMove<M> {
    /// The game does not look (the default): the search assumes nothing.
    NotChecked,
    /// No move wins at once: the earliest win is three plies away.
    NoneExists,
    /// This move wins at once.
    Found(M),
}

/// Which players could still win, whatever is played (see [`possible_winners`](crate::game::HookedGame::possible_winners)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Winners {
    /// The side to move could still win.
    pub side_to_move: bool,
    /// Its opponent could still win.
    pub opponent: bool,
}

impl Winners {
    /// Both players could still win: nothing is proved.
    pub const BOTH: Winners = Winners { side_to_move: true, opponent: true };
}

/// Which of a game's symmetries maps a position to the form the table stores it under (0: the identity).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symmetry(pub u8);

impl Symmetry {
    /// The identity: the position is stored as it is.
    pub const IDENTITY: Symmetry = Symmetry(0);
}

/// The key under which the table stores a position, and the symmetry that maps the position to that form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableKey {
    /// The key of the canonical form (usually the smallest key among the position's symmetric images).
    pub key: Key,
    /// The symmetry that maps the position to its canonical form.
    pub symmetry: Symmetry,
}

/// What is left of a game that is sure to end (see [`remaining`](crate::game::HookedGame::remaining)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Remaining {
    /// At most this many plies, forced passes included, until the game ends.
    pub plies: u32,
    /// At most this margin when it ends; 0 for games that end by [`Outcome::Win`], [`Outcome::Loss`] or
    /// [`Outcome::Draw`] only.
    pub margin: u32,
}

/// The rules of a two-player alternating game, as a search needs them.
///
/// A position changes only through [`play`](Game::play) and [`undo`](Game::undo), which must keep
/// [`key`](Game::key) up to date incrementally. Moves given to `play` come from `legal_moves` of the same
/// position; `undo` receives the last move played. Whatever `undo` needs to restore (a captured piece, the
/// castling rights, a ko point) lives in the game itself, usually on a stack of its own that `play` pushes
/// and `undo` pops, or in the move. A forced pass (Othello, Go) is an ordinary legal move; it is not
/// [`null_move`](crate::game::HookedGame::null_move), which only serves pruning.
///
/// Six items are required; every other item is an optional hook that a search may use (see the [module
/// documentation](self)). Each hook states a fact about the rules and must be exact: the searches stay equal to
/// [`minimax`](crate::search::minimax) only if the hooks tell the truth, which
/// [`verify::check_all`](crate::search::verify::check_all) tests.
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

    /// Whether play has ended here: by default whenever [`outcome`](Game::outcome) gives a result. A game whose
    /// rules draw a position that play may still go on from (a draw a player claims, such as chess's
    /// fifty-move rule, or one an arbiter declares) answers `false` there while it has legal moves: a search
    /// asked at such a position still chooses a move, scoring the rule's result only below the root.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The Zobrist key of the position (side to move included where it matters).
    fn key(&self) -> Key;

    /// A compact code for `mv`, below [`MOVE_CODES`](Game::MOVE_CODES), distinct among the legal moves of any
    /// one position. The transposition table stores it as the best move.
    fn move_code(mv: Self::Move) -> u16;

    /// An upper bound on move codes (exclusive, at most 65,535); searches size their per-move tables (history)
    /// by it, so a game with few codes should say so.
    const MOVE_CODES: usize = 1 << 16;

    /// The search hooks the game gives: none by default. A game names the ones it has, the rest left to
    /// [`Hooks::NONE`]:
    ///
    /// ```ignore
    /// const HOOKS: Hooks<Self> = Hooks { in_check: Some(Position::is_check), ..Hooks::NONE };
    /// ```
    ///
    /// See [`hooks`] for what each buys.
    const HOOKS: Hooks<Self> = Hooks::NONE;

    // ---- Perft ---------------------------------------------------------------------------------------------------

    /// The moves [`perft`](crate::perft) counts below this position: by default none once
    /// [`outcome`](Game::outcome) says the game is over, else the [legal moves](Game::legal_moves). Chess and
    /// xiangqi override it with their generator alone: it yields nothing in a mated position, and perft counts
    /// on through draws by the move counters, as the published counts do.
    #[inline]
    fn perft_moves(&self, moves: &mut Vec<Self::Move>) {
        if self.outcome().is_none() {
            self.legal_moves(moves);
        }
    }

    /// How many moves [`perft_moves`](Game::perft_moves) gives, for perft's last ply (`scratch`, empty, may
    /// hold them): by default it generates them. A game that counts without listing overrides it.
    #[inline]
    fn perft_count(&self, scratch: &mut Vec<Self::Move>) -> u64 {
        self.perft_moves(scratch);
        scratch.len() as u64
    }
}

/// Judges positions of `G` and sets the search's policy for it.
///
/// Only [`evaluate`](Evaluator::evaluate) is required. The other items are policy: they decide what the
/// search looks at first or longer, never what the rules allow. The move-order hints are methods;
/// everything else is a [hook](hooks) named in [`HOOKS`](Evaluator::HOOKS).
pub trait Evaluator<G: Game>: Sync {
    /// How good the position looks for the side to move, strictly within `±score::DECISIVE`.
    fn evaluate(&self, game: &G) -> Score;

    /// A hint for move ordering, for a legal move not yet played: higher is tried first.
    ///
    /// The searcher orders a node's moves as: the table's move; moves hinted at [`PRIORITY`] or more (good
    /// captures, say), by hint; killer moves; the counter move; the rest by hint plus the history heuristic
    /// (which lies within ±16,384, three times that with the continuation history); moves hinted at
    /// `-PRIORITY` or less last, and near the horizon, with
    /// [`losing_move_pruning`](crate::search::SearchOptions::losing_move_pruning), not at all. Equal scores
    /// keep the order of [`legal_moves`](Game::legal_moves). The default hints nothing.
    #[inline(always)]
    fn move_order(&self, _game: &G, _mv: G::Move) -> i32 {
        0
    }

    /// The [`move_order`](Evaluator::move_order) hints of a node's `moves`, in order, appended to `hints`;
    /// the searcher asks for a node's moves at once. By default each move's hint alone; an evaluator whose
    /// hints share work within a node (chess: the squares the opponent attacks) overrides it, giving the
    /// same hints, or [`DEFERRED`] for a move whose hint is dear to work out and is either 0 or losing.
    #[inline(always)]
    fn move_orders(&self, game: &G, moves: &[G::Move], hints: &mut Vec<i32>) {
        hints.extend(moves.iter().map(|&mv| self.move_order(game, mv)));
    }

    /// The search hooks the evaluator gives: none by default (see [`EvaluatorHooks`]).
    const HOOKS: EvaluatorHooks<G, Self> = EvaluatorHooks::NONE;
}

/// Move-order hints at or beyond `±PRIORITY` rank before killer moves (or after everything, if negative);
/// see [`Evaluator::move_order`].
pub const PRIORITY: i32 = 1 << 20;

/// The hint [`Evaluator::move_orders`] may give a move whose own hint is dear to work out and is either 0 or
/// `-PRIORITY` or below (in chess a quiet move onto a square the opponent attacks: 0 unless an exchange
/// evaluation finds that it loses material). The searcher orders the move as if its hint were 0 and asks
/// [`move_order`](Evaluator::move_order) for the real one only when the move would be the next one tried, so
/// that a node cut off before it never pays for it; the order is the same as with every hint worked out.
pub const DEFERRED: i32 = i32::MIN;
