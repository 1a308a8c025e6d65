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

pub use hooks::{HookedEvaluator, HookedGame};

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

// The hooks' types are their signatures, spelled out where a game author reads them (hence the lints' allowance
// of complex types).
/// The search hooks of a game `G`, each [`None`] unless the game names it in [`Game::HOOKS`]. See [`hooks`] for what each buys.
#[allow(clippy::type_complexity)]
pub struct Hooks<G: Game> {
    // ---- Tactics --------------------------------------------------------------------------------------------
    /// Whether the side to move can win with its next move. [`WinningMove::NoneExists`] is a promise: the
    /// search then knows no win can come sooner than three plies.
    pub winning_move: Option<fn(&G) -> WinningMove<G::Move>>,

    /// Appends the legal moves after which the opponent cannot win at once, in the order
    /// [`legal_moves`](Game::legal_moves) would give them, and returns how many it appended (0: every move
    /// loses at once); `None` where the game does not know, leaving the buffer alone. Asked only when the side
    /// to move has no win at once.
    pub non_losing_moves: Option<fn(&G, &mut Vec<G::Move>) -> Option<usize>>,

    /// Which players could still win at all, whatever is played: a `false` only when the rules prove it
    /// impossible (every line blocked, say). Exact solvers then bound the score by a draw; depth-limited
    /// searches ignore it, so that their values stay those of minimax.
    pub possible_winners: Option<fn(&G) -> Winners>,

    /// Whether the side to move is in check, or under whatever immediate threat the rules force it to answer
    /// (a four in Gomoku). With the [`check_extension`](crate::search::SearchOptions::check_extension) option
    /// the search extends moves that give check; quiescence answers a check with every move that does not
    /// lose at once instead of standing pat; reductions and pruning leave such nodes alone.
    pub in_check: Option<fn(&G) -> bool>,

    // ---- Null move --------------------------------------------------------------------------------------------
    /// A move that passes the turn, if passing here is a sound test of the position for null-move pruning
    /// (`None` in zugzwang-prone positions, in check). The search plays it with [`play`](Game::play) and takes it
    /// back with [`undo`](Game::undo); it is never a legal move.
    pub null_move: Option<fn(&G) -> Option<G::Move>>,

    // ---- Symmetry and prefetch ----------------------------------------------------------------------------------
    /// The position's symmetries: mirror-symmetric games store a position under the smaller of its key and its
    /// mirror's, so that both halves of the tree share entries.
    pub symmetry: Option<Symmetries<G>>,

    /// The [table key](HookedGame::table_key) of the position after a move, computed without playing it (one
    /// XOR per feature): the search fetches children's table entries ahead of time. `None` from the function
    /// where it cannot tell for that move.
    pub child_table_key: Option<fn(&G, G::Move) -> Option<Key>>,

    // ---- Repetition -------------------------------------------------------------------------------------------
    /// That positions can repeat, and how a repetition is ruled.
    pub repetition: Option<Repetition<G>>,

    // ---- End ----------------------------------------------------------------------------------------------------
    /// How much is left of the game, if it is sure to end: at most how many plies and at most what margin.
    /// Exact solvers ([`Searcher::solve`](crate::search::Searcher::solve)) need it to size the range of
    /// possible scores; iterative deepening stops once a search reaches the end of every line.
    pub remaining: Option<fn(&G) -> Option<Remaining>>,

    // ---- Move order ---------------------------------------------------------------------------------------------
    /// Which piece each move moves and where, for the [continuation
    /// history](crate::search::SearchOptions::continuation_history).
    pub piece_to: Option<PieceTo<G>>,
}

impl<G: Game> Hooks<G> {
    /// No hook at all: what a game that names none has.
    pub const NONE: Hooks<G> = Hooks {
        winning_move: None,
        non_losing_moves: None,
        possible_winners: None,
        in_check: None,
        null_move: None,
        symmetry: None,
        child_table_key: None,
        repetition: None,
        remaining: None,
        piece_to: None,
    };

    /// Whether any tactical hook that a depth-limited search asks is named (not
    /// [`possible_winners`](Hooks::possible_winners), which only solvers ask).
    pub const fn has_tactics(&self) -> bool {
        self.winning_move.is_some() || self.non_losing_moves.is_some() || self.in_check.is_some()
    }
}

/// A game's symmetries (see [`Hooks::symmetry`]).
pub struct Symmetries<G: Game> {
    /// The key under which the table stores the position, and the symmetry that maps the position to that
    /// form (usually the smallest key among the position's symmetric images).
    pub table_key: fn(&G) -> TableKey,
    /// The code of a move in the canonical form of the position, from its code in the position as it is, the
    /// symmetry being the position's [`TableKey::symmetry`].
    pub canonical_move_code: fn(u16, Symmetry) -> u16,
    /// The inverse of `canonical_move_code`: the code in the position as it is, from its code in the
    /// canonical form.
    pub actual_move_code: fn(u16, Symmetry) -> u16,
}

/// How a game's positions repeat (see [`Hooks::repetition`]).
pub struct Repetition<G: Game> {
    /// Plies played since the last irreversible move: the search looks for a repeated position within that
    /// window.
    pub reversible_plies: fn(&G) -> usize,
    /// The result for the side to move when the position repeats the one `cycle` plies back (an even
    /// number). Xiangqi, for one, rules a perpetual check or chase lost for the side that made it. The search
    /// never stores a result that depends on a ruling other than a draw in the table, since it holds only on
    /// this path.
    pub outcome: fn(&G, usize) -> Outcome,
}

impl<G: Game> Repetition<G> {
    /// Repetitions within `reversible_plies` that are draws, as in chess.
    pub const fn draws(reversible_plies: fn(&G) -> usize) -> Repetition<G> {
        fn draw<G>(_: &G, _: usize) -> Outcome {
            Outcome::Draw
        }
        Repetition { reversible_plies, outcome: draw::<G> }
    }
}

/// Which piece a move moves, whose it is and where it goes (see [`Hooks::piece_to`]).
pub struct PieceTo<G: Game> {
    /// An upper bound on the codes (exclusive, at most 4,096, or a search of the game does not build; the
    /// continuation history has this many squared entries).
    pub codes: usize,
    /// The code of a legal move: the same for every move taking the same piece to the same square, whatever
    /// the position.
    pub code: fn(&G, G::Move) -> u16,
}

/// The search hooks of an evaluator `E` of `G`, each [`None`] unless the evaluator names it in
/// [`Evaluator::HOOKS`]. They are policy: they decide what the search looks at first or longer, never what the
/// rules allow. See [`hooks`] for what each buys.
#[allow(clippy::type_complexity)]
pub struct EvaluatorHooks<G: Game, E: ?Sized> {
    /// Appends the noisy moves (captures, promotions...) that quiescence search should resolve. Without this
    /// hook the horizon is the evaluation.
    pub noisy_moves: Option<fn(&E, &G, &mut Vec<G::Move>)>,

    /// The most a noisy move (legal here, not yet played) can win by itself on the evaluation's scale: in chess
    /// the value of the piece it takes, and a promotion's gain. With
    /// [`quiescence_delta`](crate::search::SearchOptions::quiescence_delta), quiescence leaves out a move that
    /// could not lift the static evaluation to alpha even so. `None` from the function: unknown, always
    /// searched.
    pub noisy_gain: Option<fn(&E, &G, G::Move) -> Option<Score>>,

    /// Whether a move (legal here, not yet played) is tactical: a capture, a promotion, a four — a move that
    /// late-move reductions and pruning must leave alone. Without this hook no move is.
    pub is_tactical: Option<fn(&E, &G, G::Move) -> bool>,

    /// A move the evaluator's own analysis proves winning (a threat-space search, a tablebase), if it knows
    /// one. At nodes [`plan_depth`](crate::search::SearchOptions::plan_depth) plies or more from the horizon
    /// (two by default) where the side to move is not forced, the search then tries this move only. Asked only
    /// when the [`tactics`](crate::search::SearchOptions::tactics) option is on.
    pub winning_plan: Option<fn(&E, &G) -> Option<G::Move>>,

    /// Appends the moves that answer a threat of the opponent's the evaluator knows, where every other legal
    /// move loses (in Gomoku an open three: any move but a parry or a four of one's own lets it become an open
    /// four), and returns how many it appended; `None` from the function when it knows no such threat, leaving
    /// the buffer alone. At nodes two plies or more from the horizon where the side to move is not forced and
    /// has no [winning plan](EvaluatorHooks::winning_plan), the search then tries these moves only (all of them
    /// if there are none). Asked only when the [`tactics`](crate::search::SearchOptions::tactics) option is on.
    pub threat_replies: Option<fn(&E, &G, &mut Vec<G::Move>) -> Option<usize>>,

    /// A key of the part of the position (with the side to move) the evaluation's errors follow, in chess
    /// the pawns: with the [`correction_history`](crate::search::SearchOptions::correction_history) option
    /// the search learns, per key, how far its searched scores fall from [`evaluate`](Evaluator::evaluate)
    /// and corrects the evaluation by that. Any 64-bit value; positions that share it share a correction.
    /// `None` from the function: no correction there.
    pub correction_key: Option<fn(&E, &G) -> Option<u64>>,
}

impl<G: Game, E: ?Sized> EvaluatorHooks<G, E> {
    /// No hook at all: what an evaluator that names none has.
    pub const NONE: EvaluatorHooks<G, E> = EvaluatorHooks {
        noisy_moves: None,
        noisy_gain: None,
        is_tactical: None,
        winning_plan: None,
        threat_replies: None,
        correction_key: None,
    };
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
