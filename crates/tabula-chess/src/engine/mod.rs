//! The engine side of chess, behind the default feature `engine`: the evaluations, the search set up to play,
//! the game's front and the UCI session. Nothing outside this module imports from it: the rest of the crate is
//! the rules, notation and keys.
//!
//! - [`eval`]: the evaluations (the network of [`eval::nnue`], the default, and the tapered one) and static
//!   exchange evaluation.
//! - [`position`]: [`EnginePosition`], the position the engine searches: a [`Position`] with the network's
//!   accumulators along its line of play.
//! - [`front`]: the game's front for the terminal, the protocols and the web page.
//! - [`uci`]: the UCI protocol as a session (its clock and time plan are `tabula_protocol::uci`'s, shared by the
//!   protocols of the UCI family, on the core's [`tabula::clock`]).
//! - [`strength`]: the strength limiter's levels and Elo calibration.
//! - [`wdl`]: the chances of a win, a draw and a loss by the score.
//!
//! [`Engine`] is the core's [`tabula::search::Engine`] for [`EnginePosition`], the network machinery's
//! position with accumulators ([`tabula_nnue::engine`]), which plays what chess says here as its [`NetGame`]:
//! the tapered evaluation as the classical one beside the embedded network (together the chess
//! [`EngineEvaluation`]), the search options that play chess well, the keys of the game's own history (so that
//! repetitions count) and the positions of [`Engine::bench`].
//!
//! # Examples
//!
//! ```
//! use tabula::search::Limits;
//! use tabula_chess::engine::{Engine, EnginePosition};
//! use tabula_chess::Position;
//!
//! let mut engine = Engine::new(8);
//! // Mate in one: the rook goes to the back rank.
//! let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
//! let result = engine.search(&EnginePosition::new(pos), &Limits::depth(4), |_| {});
//! assert_eq!(result.best_move.unwrap().to_string(), "a1a8");
//! assert_eq!(tabula::score::uci_string(result.score), "mate 1");
//! ```

use crate::position::Position;
#[cfg(doc)]
use eval::EngineEvaluation;
pub use position::EnginePosition;
use std::sync::Arc;
use std::time::Duration;
use tabula::clock::Policy;
use tabula::search::SearchOptions;
use tabula::Key;
use tabula_nnue::NetGame;

pub mod eval;
pub mod front;
pub mod position;
pub mod strength;
pub mod uci;
pub mod wdl;

/// Reverse futility margin per ply, in centipawns.
const FUTILITY_MARGIN: i32 = 90;
/// Futility margin per ply for pruning quiet moves, in centipawns.
const MOVE_FUTILITY_MARGIN: i32 = 100;

/// How the engine spends its clock: the core's defaults for an iterative-deepening search (`Policy::new`).
/// In self-play at 2 s + 0.02 s a soft share of 0.75 instead of 0.6 lost about 44 Elo, 0.5 was even, and 20
/// moves to go instead of 30 (a quarter more time over the first ten moves, less later) about +7 ± 12 over
/// two runs, not shown, and 15 (half as much again early) lost 28 ± 20 (the README's SPRT table). The move
/// overhead is the session's (`Move Overhead`).
pub const CLOCK_POLICY: Policy = Policy::new(Duration::ZERO);

/// The positions `bench` searches: opening, middlegames with tactics, endings.
pub const BENCH_POSITIONS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    "2r3k1/pp3ppp/2n1b3/3p4/3P4/2PB1N2/P4PPP/4R1K1 w - - 0 20",
    "r1b1kb1r/pp3ppp/2n1pn2/q7/2BP4/2N2N2/PP3PPP/R1BQK2R w KQkq - 2 9",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
];

/// A chess engine: the core's [`Engine`](tabula::search::Engine) with the chess evaluation and options, searching
/// [`EnginePosition`]s.
pub type Engine = tabula::search::Engine<EnginePosition>;

/// The engine's evaluations, options, history, benchmark and setup.
impl NetGame for Position {
    type Classical = eval::Evaluation;
    const CLASSICAL_NAME: &'static str = "tapered";

    const BENCH_POSITIONS: &'static [&'static str] = &BENCH_POSITIONS;

    fn embedded_network() -> Option<Arc<eval::nnue::Network>> {
        Some(eval::nnue::Network::embedded())
    }

    /// Against a bare king the tapered evaluation's mop-up drives the king to the edge; the network, trained
    /// on positions of whole games, scores such endings flatly and fails to mate.
    #[inline]
    fn classical_only(&self) -> bool {
        eval::against_bare_king(self)
    }

    /// The search options the engine plays with on `threads` threads.
    fn engine_options(threads: usize) -> SearchOptions {
        SearchOptions::playing(threads)
            .with_futility_margin(Some(FUTILITY_MARGIN))
            .with_move_futility_margin(Some(MOVE_FUTILITY_MARGIN))
            .with_aspiration(Some(25))
    }

    fn history_keys(&self) -> Vec<Key> {
        history_keys(self)
    }

    fn startpos() -> Position {
        Position::startpos()
    }

    fn from_fen(fen: &str) -> Result<Position, tabula_protocol::uci::CommandError> {
        Position::from_fen(fen).map_err(tabula_protocol::uci::CommandError::fen)
    }
}

/// The keys of the positions before `pos` in its own history, oldest first.
pub fn history_keys(pos: &Position) -> Vec<Key> {
    let mut back = pos.clone();
    let mut keys = Vec::with_capacity(pos.history_len());
    while back.undo().is_some() {
        keys.push(back.key());
    }
    keys.reverse();
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::EngineEvaluation;
    use tabula::score::{is_decisive, DRAW};
    use tabula::search::{Limits, Playable, Request};

    /// The position of `fen`, as the engine searches it.
    fn game(fen: &str) -> EnginePosition {
        EnginePosition::new(Position::from_fen(fen).unwrap())
    }

    #[test]
    fn finds_tactics_and_mates() {
        let mut engine = Engine::new(8);
        // Win the queen with a knight fork.
        let pos = game("q3k3/8/8/1N6/8/8/4P3/4K3 w - - 0 1");
        let r = engine.search(&pos, Limits::depth(6), |_| {});
        assert_eq!(r.best_move.unwrap().to_string(), "b5c7");
        // A queen won: well ahead (the network's scores flatten out beyond a few hundred centipawns).
        assert!(r.score > 100, "{}", r.score);
        // Mate in two with a rook and king.
        let pos = game("k7/8/1K6/8/8/8/8/7R w - - 0 1");
        let r = engine.search(&pos, Limits::depth(6), |_| {});
        assert!(is_decisive(r.score) && r.score > 0, "{}", r.score);
    }

    #[test]
    fn probcut_saves_nodes_and_keeps_the_tactics() {
        use crate::engine::eval::nnue::Network;
        use tabula::search::Searcher;
        // ProbCut is off in the engine: with the ninth network it showed no gain in self-play at a margin of 200
        // centipawns (-17.7 +/- 17.7 Elo) or 300 (-2.5 +/- 20.3; the README's SPRT table). The core's mechanism is
        // tested here on chess, at the margin the engine played with before.
        let searcher = |probcut: bool| {
            let margin = Some(200).filter(|_| probcut);
            Searcher::with_table_size(EngineEvaluation::network(Network::embedded()), 8)
                .with_options(EnginePosition::engine_options(1).with_probcut_margin(margin))
        };
        // The same searches with ProbCut and without: fewer nodes over the bench positions at depth 10 ... (The
        // tree at one depth is a chaotic sum: with the ninth network ProbCut saves 2 % at depth 8, 7 % at 10 and
        // 13-15 % at 12 and 13, but searches 12 % more at depth 9, where its cuts move which lines get re-searched.)
        let (mut with, mut without) = (0, 0);
        for pos in EnginePosition::bench_positions() {
            with += searcher(true).search_depth(&pos, 10).nodes;
            without += searcher(false).search_depth(&pos, 10).nodes;
        }
        assert!(with < without, "{with} nodes with ProbCut, {without} without");
        // ... and the knight fork still found.
        let fork = game("q3k3/8/8/1N6/8/8/4P3/4K3 w - - 0 1");
        assert_eq!(searcher(true).search_depth(&fork, 8).best_move.unwrap().to_string(), "b5c7");
    }

    #[test]
    fn repetition_through_the_game_history_is_a_draw() {
        // Black is a queen down; Kh8 repeats a position of the game, which the search scores as a draw.
        let mut pos = Position::from_fen("6k1/8/8/8/8/8/8/1Q4K1 b - - 0 1").unwrap();
        for mv in ["g8h8", "g1h1", "h8g8", "h1g1"] {
            pos.play(pos.parse_uci(mv).unwrap()).unwrap();
        }
        let keys = history_keys(&pos);
        assert_eq!(keys.len(), 4);
        assert_eq!(keys[0], pos.key());
        let mut engine = Engine::new(8);
        let r = engine.search(&EnginePosition::new(pos.clone()), Limits::depth(5), |_| {});
        assert_eq!((r.best_move.unwrap().to_string(), r.score), ("g8h8".to_owned(), DRAW));
        // Without the history the same position is simply lost.
        let fresh = game(&pos.to_fen());
        assert!(engine.search(&fresh, Limits::depth(5), |_| {}).score < -300);
    }

    #[test]
    fn a_line_cut_short_gets_the_reply_from_the_table() {
        let pos = EnginePosition::new(Position::startpos());
        let mut engine = Engine::new(8);
        let deep = engine.search(&pos, Limits::depth(6), |_| {});
        assert_eq!(engine.table_move(&pos), deep.best_move);
        // A search of one ply, whose line ends after its move: the reply is the table's, from the deep search.
        let mut iterations = Vec::new();
        let only = Request::new(Limits::depth(1)).with_root_moves(&deep.pv[..1]);
        let r = engine.search(&pos, only, |it| iterations.push(it.pv.clone()));
        assert_eq!(iterations, [deep.pv[..1].to_vec()]);
        assert_eq!(r.pv, deep.pv[..2], "{:?} {:?}", r.pv, deep.pv);
        // No reply after a mate.
        let mate = game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(engine.search(&mate, Limits::depth(3), |_| {}).pv.len(), 1);
    }

    #[test]
    fn search_moves_restrict_the_root() {
        let pos = EnginePosition::new(Position::startpos());
        let only = pos.position().parse_uci("a2a3").unwrap();
        let r = Engine::new(8).search(&pos, Request::new(Limits::depth(4)).with_root_moves(&[only]), |_| {});
        assert_eq!(r.best_move, Some(only));
    }

    #[test]
    fn a_forced_move_under_a_clock_is_played_quickly() {
        // In check from the queen, the king's only move is to take it.
        let forced = game("k7/pp6/8/8/8/8/6q1/4R2K w - - 0 1");
        let clock = Limits::default().with_time(Duration::from_secs(4), Duration::from_secs(20));
        let r = Engine::new(8).search(&forced, &clock, |_| {});
        assert_eq!(r.best_move.unwrap().to_string(), "h1g2");
        // A twentieth of the soft limit, times at most 1.8 for a new best move: well under a second.
        assert!(r.elapsed < Duration::from_millis(1500), "{:?}", r.elapsed);
        assert!(r.depth >= 2 && r.pv.len() >= 2, "depth {} pv {:?}", r.depth, r.pv);
        // A fixed move time is spent as asked.
        let r = Engine::new(8).search(&forced, Limits::time(Duration::from_millis(300)), |_| {});
        assert!(r.elapsed >= Duration::from_millis(290), "{:?}", r.elapsed);
    }

    #[test]
    fn a_new_game_starts_as_a_fresh_engine_would() {
        let middlegame = game(BENCH_POSITIONS[2]);
        let ending = game(BENCH_POSITIONS[3]);
        let fresh = Engine::new(8).search(&ending, Limits::depth(8), |_| {});
        let mut engine = Engine::new(8);
        engine.search(&middlegame, Limits::depth(8), |_| {});
        engine.search(&ending, Limits::depth(6), |_| {});
        // What the searches learned (the table, the correction history) is forgotten by a new game.
        engine.clear_hash();
        let again = engine.search(&ending, Limits::depth(8), |_| {});
        assert_eq!((again.nodes, again.best_move, again.score), (fresh.nodes, fresh.best_move, fresh.score));
    }
}
