//! The oracles: plain minimax, and alpha-beta without a table or move ordering, which every other search is
//! tested against.

use super::node::{line_outcome, Taken};
use super::result::Counted;
#[cfg(doc)]
use super::Request;
use crate::game::{Evaluator, Game};
use crate::score::INFINITY;

/// Plain minimax in negamax form: every move searched to `depth` plies, no pruning, no table.
/// The oracle the other searches are tested against. Terminal positions score by
/// [`Outcome::score_at`](crate::game::Outcome::score_at) at their ply, leaves at depth 0 by the evaluator; a
/// root that a rule has drawn but [is not over](Game::is_over) is searched like any other, as every search does.
pub fn minimax<G: Game, E: Evaluator<G>>(game: &mut G, evaluator: &E, depth: u32) -> Counted {
    let mut nodes = 0;
    let score = minimax_node(game, evaluator, depth, 0, &mut nodes);
    Counted { score, nodes }
}

/// Each legal move's value as [`minimax`] at `depth` (at least 1) sees it from the root, with the nodes of its subtree,
/// in the game's move order: the oracle for the lines of a search asked for [several](Request::lines). The root's value is
/// the best of them.
///
/// # Panics
///
/// If `depth` is 0.
pub fn minimax_moves<G: Game, E: Evaluator<G>>(game: &mut G, evaluator: &E, depth: u32) -> Vec<(G::Move, Counted)> {
    assert!(depth > 0, "a move's value needs a depth of at least one ply");
    let mut moves = Vec::new();
    if !game.is_over() {
        game.legal_moves(&mut moves);
    }
    moves
        .into_iter()
        .map(|mv| {
            let mut nodes = 0;
            game.play(mv);
            let score = -minimax_node(game, evaluator, depth - 1, 1, &mut nodes);
            game.undo(mv);
            (mv, Counted { score, nodes })
        })
        .collect()
}

/// Minimax of the node at `ply`, `depth` plies deep.
fn minimax_node<G: Game, E: Evaluator<G>>(game: &mut G, evaluator: &E, depth: u32, ply: u32, nodes: &mut u64) -> i32 {
    *nodes += 1;
    if let Some(outcome) = line_outcome(game, ply) {
        return outcome.score_at(ply);
    }
    if depth == 0 {
        return evaluator.evaluate(game);
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    debug_assert!(!moves.is_empty(), "a game that is not over has a legal move");
    let mut best = -INFINITY;
    for mv in moves {
        game.play(mv);
        best = best.max(-minimax_node(game, evaluator, depth - 1, ply + 1, nodes));
        game.undo(mv);
    }
    best
}

/// Alpha-beta in negamax form, fail-soft, without a table or move ordering. Returns the same value as
/// [`minimax`] at the same depth, usually from far fewer nodes.
pub fn alphabeta<G: Game, E: Evaluator<G>>(game: &mut G, evaluator: &E, depth: u32) -> Counted {
    struct Run<'e, E> {
        evaluator: &'e E,
        nodes: u64,
    }
    impl<E> Run<'_, E> {
        fn go<G: Game>(&mut self, game: &mut G, depth: u32, ply: u32, mut alpha: i32, beta: i32) -> i32
        where
            E: Evaluator<G>,
        {
            self.nodes += 1;
            if let Some(outcome) = line_outcome(game, ply) {
                return outcome.score_at(ply);
            }
            if depth == 0 {
                return self.evaluator.evaluate(game);
            }
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            let mut best = -INFINITY;
            for mv in moves {
                game.play(mv);
                let score = -self.go(game, depth - 1, ply + 1, -beta, -alpha);
                game.undo(mv);
                if Taken::fail_soft(score, &mut best, &mut alpha, beta) == Taken::Cutoff {
                    break;
                }
            }
            best
        }
    }
    let mut run = Run { evaluator, nodes: 0 };
    let score = run.go(game, depth, 0, -INFINITY, INFINITY);
    Counted { score, nodes: run.nodes }
}
