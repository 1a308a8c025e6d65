//! What the integration tests share.

use tabula::game::{Evaluator, Game};
use tabula::zobrist::SplitMix64;
use tabula_gomoku::{Board, Eval, Rule};

/// A quick random game on 15×15 under `rule`: each move drawn among the best six by the evaluator's ordering,
/// for up to `plies` moves; a move that ends the game is taken back, and the game stops there.
pub fn random_game(rule: Rule, seed: u64, plies: usize) -> Board {
    let mut rng = SplitMix64::new(seed);
    let mut b = Board::new(15, 15, rule).unwrap();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        b.legal_moves(&mut moves);
        moves.sort_by_key(|&m| std::cmp::Reverse(Eval.move_order(&b, m)));
        let pick = moves[(rng.next() % moves.len().min(6) as u64) as usize];
        b.play(pick).unwrap();
        if b.outcome().is_some() {
            b.take_back();
            break;
        }
    }
    b
}
