//! The engine side of xiangqi, behind the default feature `engine`: the evaluation, the search set up to play,
//! the game's front and its protocol sessions. Nothing outside this module imports from it: the rest of the
//! crate is the rules, notation and keys.
//!
//! - [`eval`]: the static evaluation, and [`eval::Evaluation`], the evaluator the core's searches use.
//! - [`nnue`]: the board as the neural network machinery sees it, and the network the engine embeds and
//!   evaluates with by default.
//! - [`see`]: static exchange evaluation and the capture order.
//! - [`front`]: the game's front for the terminal, the protocols and the web page.
//! - [`uci`]: UCI as Pikafish speaks it; [`ucci`]: UCCI as ElephantEye speaks it.
//!
//! [`Engine`] is the core's [`tabula::search::Engine`] for [`EnginePosition`], the network machinery's
//! position with accumulators ([`tabula_nnue::engine`]), which plays what xiangqi says here as its
//! [`NetGame`]: the hand-written [`Evaluation`] as the classical one beside a network (the default)
//! (together the [`EngineEvaluation`]), the search options below, the keys of the game's own history (so that
//! repetitions count, ruled by the Asian rules through
//! [`Game::repetition_outcome`](tabula::game::HookedGame::repetition_outcome)) and the positions of
//! [`Engine::bench`].
//!
//! The options: the core's set for playing ([`SearchOptions::playing`], the options chess's self-play kept,
//! which gained here too: the book's xiangqi network record) with xiangqi's own futility margins and
//! aspiration window; quiescence on the captures that do not lose material (ordered most valuable victim
//! first, least valuable attacker; those that lose material by [`see`] after the quiet moves, and pruned
//! near the horizon); the null move not in check nor without a rook, horse or cannon; the pawns as the
//! correction key.
//!
//! # Examples
//!
//! ```
//! use tabula::search::Limits;
//! use tabula_xiangqi::engine::{Engine, EnginePosition};
//! use tabula_xiangqi::Position;
//!
//! let mut engine = Engine::new(8);
//! // Mate in one: the rook takes the last free point of the black king's rank.
//! let pos = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/3K1R3 w - - 0 1").unwrap();
//! let result = engine.search(&EnginePosition::new(pos), &Limits::depth(4), |_| {});
//! assert_eq!(tabula::score::uci_string(result.score), "mate 1");
//! ```

use crate::position::Position;
use eval::Evaluation;
use std::sync::Arc;
use tabula::search::SearchOptions;
use tabula::Key;
use tabula_nnue::NetGame;

pub mod eval;
pub mod front;
pub mod nnue;
pub mod see;
pub mod ucci;
pub mod uci;

/// Reverse futility margin per ply (a pawn is 100).
const FUTILITY_MARGIN: i32 = 100;
/// Futility margin per ply for pruning quiet moves.
const MOVE_FUTILITY_MARGIN: i32 = 110;

/// The positions `bench` searches: the start, middlegames with tactics, endings.
pub const BENCH_POSITIONS: [&str; 6] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
];

/// A xiangqi engine: the core's [`Engine`](tabula::search::Engine) with the xiangqi evaluations and options,
/// searching [`EnginePosition`]s.
pub type Engine = tabula::search::Engine<EnginePosition>;

/// The position the engine searches: a [`Position`] with a network's accumulators along its line of play.
pub type EnginePosition = tabula_nnue::EnginePosition<Position>;

/// The evaluator the engine plays with: the hand-written [`Evaluation`] or a network; move ordering and
/// quiescence are [`Evaluation`]'s either way.
pub type EngineEvaluation = tabula_nnue::NetEvaluation<Position>;

/// Which evaluation the engine plays with, by the name the `Evaluation` option gives it: `classical` (the
/// hand-written [`Evaluation`]) or `nnue` (the default: the embedded network).
pub type EvalKind = tabula_nnue::EvalKind;

/// The engine's evaluations, options, history, benchmark and setup.
impl NetGame for Position {
    type Classical = Evaluation;
    const CLASSICAL_NAME: &'static str = "classical";

    const BENCH_POSITIONS: &'static [&'static str] = &BENCH_POSITIONS;

    fn embedded_network() -> Option<Arc<nnue::Network>> {
        nnue::embedded_network()
    }

    /// The search options the engine plays with on `threads` threads.
    fn engine_options(threads: usize) -> SearchOptions {
        SearchOptions::playing(threads)
            .with_futility_margin(Some(FUTILITY_MARGIN))
            .with_move_futility_margin(Some(MOVE_FUTILITY_MARGIN))
            .with_aspiration(Some(30))
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
    pos.history().iter().map(|record| record.key).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::score::{is_decisive, loss_in, DRAW};
    use tabula::search::{Limits, Request};

    #[test]
    fn finds_tactics() {
        let mut engine = Engine::new(8);
        // An undefended rook is taken.
        let pos = Position::from_fen("4k4/9/9/9/2r6/9/9/2R6/9/3K5 w - - 0 1").unwrap();
        let r = engine.search(&EnginePosition::new(pos.clone()), Limits::depth(5), |_| {});
        assert_eq!(r.best_move.unwrap().to_string(), "c2c5");
        // A rook up against a bare king: far ahead (the network scores it 500, the hand-written evaluation more).
        assert!(r.score >= 400, "{}", r.score);
        // Mate with two rooks.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/R2K5 w - - 0 1").unwrap();
        let r = engine.search(&EnginePosition::new(pos.clone()), Limits::depth(6), |_| {});
        assert!(is_decisive(r.score) && r.score > 0, "{}", r.score);
    }

    /// The position after `iccs` from `fen`, with those moves as its history.
    fn after(fen: &str, iccs: &[&str]) -> Position {
        let mut pos = Position::from_fen(fen).unwrap();
        for text in iccs {
            pos.play(pos.parse_iccs(text).unwrap()).unwrap();
        }
        pos
    }

    #[test]
    fn repetitions_are_ruled_through_the_game_history() {
        let mut engine = Engine::new(8);
        // The red rook has checked from a8 and a9 while the black king stepped between e8 and e9: checking
        // again from a8 repeats the position by perpetual check, and loses at once.
        let pos = after("9/4k4/9/9/9/9/9/9/9/R2K5 w", &["a0a8", "e8e9", "a8a9", "e9e8"]);
        let again = pos.parse_iccs("a9a8").unwrap();
        let r = engine.search(
            &EnginePosition::new(pos.clone()),
            Request::new(Limits::depth(4)).with_root_moves(&[again]),
            |_| {},
        );
        assert_eq!(r.score, loss_in(1));
        // Without the history the same move is no repetition (and rook and king win against a bare king).
        let fresh = Position::from_fen(&pos.to_fen()).unwrap();
        let r = engine.search(
            &EnginePosition::new(fresh),
            Request::new(Limits::depth(4)).with_root_moves(&[again]),
            |_| {},
        );
        assert!(r.score > 0, "{}", r.score);
        // Advisors and kings shuffling without check or chase: the repetition is a draw.
        let pos = after("3k5/9/9/9/9/9/9/9/4A4/3AK4 w", &["e1f2", "d9d8", "f2e1", "d8d9"]);
        let again = pos.parse_iccs("e1f2").unwrap();
        assert_eq!(
            engine
                .search(
                    &EnginePosition::new(pos.clone()),
                    Request::new(Limits::depth(4)).with_root_moves(&[again]),
                    |_| {}
                )
                .score,
            DRAW
        );
    }

    #[test]
    fn a_network_searches_and_its_accumulators_stay_true() {
        use crate::engine::nnue::{Layers, Network, PALACE};
        use tabula::game::{Evaluator, Game};
        use tabula_nnue::NETWORK_BOUND;
        let net = Arc::new(Network::from_layers(&Layers::random(PALACE, 23)).unwrap());
        let eval = EngineEvaluation::network(Arc::clone(&net));
        let fresh = |game: &EnginePosition| net.evaluate(game.position()).clamp(-NETWORK_BOUND, NETWORK_BOUND);
        let mut engine = Engine::new(8);
        engine.set_evaluation(eval.clone());
        let mut classical = Engine::new(8);
        let mut differs = 0;
        for fen in BENCH_POSITIONS {
            let mut game = EnginePosition::new(Position::from_fen(fen).unwrap());
            let r = engine.search(&game, Limits::depth(5), |_| {});
            assert!(game.position().is_legal(r.best_move.unwrap()), "{fen}");
            differs += usize::from(classical.search(&game, Limits::depth(5), |_| {}).score != r.score);
            // Along the principal variation and back, the position's own accumulators give the network's
            // evaluation from scratch, and hold the accumulator computed afresh.
            let check = |game: &EnginePosition| {
                assert_eq!(eval.evaluate(game), fresh(game), "{}", game.position().to_fen());
                let history = game.position().history_len();
                assert_eq!(game.accumulators().up_to_date(history), Some(net.accumulator(game.position())));
            };
            check(&game);
            for &mv in &r.pv {
                game.play(mv);
                check(&game);
            }
            for &mv in r.pv.iter().rev() {
                game.undo(mv);
                check(&game);
            }
        }
        assert!(differs > 0, "the network scores as the classical evaluation does");
    }

    #[test]
    fn search_moves_restrict_the_root() {
        let pos = Position::startpos();
        let only = pos.parse_iccs("a3a4").unwrap();
        let r = Engine::new(8).search(
            &EnginePosition::new(pos.clone()),
            Request::new(Limits::depth(4)).with_root_moves(&[only]),
            |_| {},
        );
        assert_eq!(r.best_move, Some(only));
    }
}
