//! The evaluation against an outside judge: positions from self-play games that no fit has seen, each valued by
//! Rapfi (a Gomocup engine, its classical evaluation, 50 ms a position; `tests/data/rapfi-values.txt`, written by
//! `tabula-lab gomoku tune gen` and `label`). The embedded weights must predict Rapfi's win rates better than the
//! hand-set weights they were fitted from, each at the scale that suits it best.

use tabula::tune::golden_min;
use tabula_gomoku::engine::eval::{embedded_weights, Weights};
use tabula_gomoku::{Board, Rule};

/// Rapfi's win rate for a value: `sigmoid(value / 200)`.
fn win_rate(value: f64) -> f64 {
    1.0 / (1.0 + (-value / 200.0).exp())
}

/// The mean squared error between `sigmoid(k · eval)` and Rapfi's win rate, at the best `k`.
fn error(samples: &[(Board, f64)], weights: &Weights) -> f64 {
    let evals: Vec<(f64, f64)> = samples.iter().map(|(b, t)| (weights.evaluate(b) as f64, *t)).collect();
    let mse = |k: f64| {
        evals.iter().map(|&(e, t)| (1.0 / (1.0 + (-k * e).exp()) - t).powi(2)).sum::<f64>() / evals.len() as f64
    };
    mse(golden_min(0.0001, 0.05, mse))
}

#[test]
fn fitted_weights_predict_rapfi_better_than_the_hand_set_ones() {
    let samples: Vec<(Board, f64)> = include_str!("data/rapfi-values.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let fields: Vec<&str> = l.split(';').collect();
            let board = Board::from_moves(15, 15, Rule::Freestyle, fields[0]).expect("a position");
            (board, win_rate(fields[2].parse().expect("a value")))
        })
        .collect();
    assert!(samples.len() >= 1000);
    let (fitted, hand) = (error(&samples, &embedded_weights()), error(&samples, &Weights::hand_set()));
    println!("{} positions: error {fitted:.5} fitted, {hand:.5} hand-set", samples.len());
    assert!(fitted < 0.9 * hand, "fitted {fitted:.5}, hand-set {hand:.5}");
}
