//! `order`: the move order that best predicts an outside engine's moves, written as a weights file:
//!
//! ```text
//! gomoku tune order LABELLED OUT [--epochs N] [--rate R] [--l2 X] [--rule R]
//! ```
//!
//! `LABELLED` holds `moves;result;value;move` lines as `label` writes them: the outside engine's move in each
//! position. A move's order hint is `mine[c] + theirs[t]` (in sixteenths), `c` the class of its point for the
//! side to move and `t` for the opponent (`tabula_gomoku::engine::eval::Weights::move_order`), and its chance
//! of being the engine's move is a softmax of the hints over the position's candidate points at a
//! temperature `T`. `T` is first fitted to the hand-set order (a stone's value for the side to move plus
//! four fifths of its value for the opponent, the engine's own), so that the fitted hints come out on the
//! hand-set order's scale; then the weights are fitted by full-batch Adam on the exact gradient of the mean
//! log-likelihood (`--epochs` steps of `--rate` nats, an L2 pull of `--l2` towards the hand-set order).
//! Positions that the evaluation's tactics settle, or where the side to move must block a four, are left
//! out. Every tenth block of 500 positions is held out; for it and the training positions, standard error
//! gets the log-likelihood (nats a move) and how often the engine's move is ranked first and within the
//! first three, for the hand-set order and the fit. `OUT` is read by `tabula-gomoku` (`INFO tabula_order`).

use crate::data::read_lines;
use crate::texel::{mean_gradient, rate_at, Adam, Split};
use anyhow::{bail, Context};
use tabula::game::Game;
use tabula::tune::golden_min;
use tabula_gomoku::board::Forced;
use tabula_gomoku::engine::eval::{point_classes, Features, Weights, CLASSES};
use tabula_gomoku::{Board, Rule};

/// What `order` fits to, and how.
#[derive(clap::Args)]
pub struct Args {
    /// Labelled positions with the outside engine's move.
    input: String,
    /// The weights file to write.
    out: String,
    /// Full-batch Adam steps.
    #[arg(long, default_value_t = 300)]
    epochs: usize,
    /// Adam's step, in nats (a quarter of it for the last quarter of the steps).
    #[arg(long, default_value_t = 0.05)]
    rate: f64,
    /// The pull towards the hand-set order.
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
    /// The rule: freestyle, standard or renju.
    #[arg(long, default_value = "freestyle")]
    rule: Rule,
}

/// One position: each candidate point's two classes, and which candidate the engine played.
struct Sample {
    classes: Vec<(u16, u16)>,
    chosen: usize,
}

/// The weights as one flat vector of nats: `mine` then `theirs`.
fn flat(w: &Weights, temperature: f64) -> Vec<f64> {
    let scale = f64::from(Weights::SCALE) * temperature;
    w.mine.iter().chain(&w.theirs).map(|&x| f64::from(x) / scale).collect()
}

fn unflat(x: &[f64], temperature: f64) -> Weights {
    let scale = f64::from(Weights::SCALE) * temperature;
    let mut w = Weights::zero();
    for c in 0..CLASSES {
        w.mine[c] = (x[c] * scale).round() as i32;
        w.theirs[c] = (x[CLASSES + c] * scale).round() as i32;
    }
    w
}

/// The candidates' chances under weights `w` (nats), and their hints.
fn chances(s: &Sample, w: &[f64]) -> Vec<f64> {
    let hints: Vec<f64> = s.classes.iter().map(|&(m, t)| w[m as usize] + w[CLASSES + t as usize]).collect();
    let top = hints.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = hints.iter().map(|h| (h - top).exp()).collect();
    let sum: f64 = exps.iter().sum();
    exps.into_iter().map(|e| e / sum).collect()
}

/// Mean log-likelihood (nats a move), and the shares of positions whose chosen move ranks first and within
/// the first three.
fn quality(samples: &[Sample], w: &[f64]) -> (f64, f64, f64) {
    let (mut ll, mut first, mut three) = (0.0, 0usize, 0usize);
    for s in samples {
        let p = chances(s, w);
        ll += p[s.chosen].max(1e-300).ln();
        let better = p.iter().filter(|&&q| q > p[s.chosen]).count();
        first += (better == 0) as usize;
        three += (better < 3) as usize;
    }
    let n = samples.len().max(1) as f64;
    (ll / n, first as f64 / n, three as f64 / n)
}

fn report(name: &str, split: &Split<Sample>, w: &[f64]) -> String {
    let (ll, a1, a3) = quality(&split.valid, w);
    let (tl, t1, t3) = quality(&split.train, w);
    format!(
        "{name}: held out {ll:.3} nats, first {:.1} %, top three {:.1} % (training {tl:.3}, {:.1} %, {:.1} %)",
        100.0 * a1,
        100.0 * a3,
        100.0 * t1,
        100.0 * t3
    )
}

/// The gradient of the negative log-likelihood summed over `samples`.
fn gradient(samples: &[Sample], w: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; 2 * CLASSES];
    for s in samples {
        for (p, &(m, t)) in chances(s, w).iter().zip(&s.classes) {
            g[m as usize] += p;
            g[CLASSES + t as usize] += p;
        }
        let (m, t) = s.classes[s.chosen];
        g[m as usize] -= 1.0;
        g[CLASSES + t as usize] -= 1.0;
    }
    g
}

/// The position of a `moves;result;value;move` line, if it is one the order matters in.
fn sample(line: &str, rule: Rule) -> Option<Sample> {
    let fields: Vec<&str> = line.split(';').collect();
    let [moves, _, _, chosen, ..] = fields[..] else { return None };
    let board = Board::from_moves(15, 15, rule, moves).ok()?;
    let chosen = board.parse_point(chosen).ok()?;
    if board.forced() != Forced::Free || Features::of(&board).is_none() {
        return None;
    }
    let mut moves = Vec::new();
    board.legal_moves(&mut moves);
    let at = moves.iter().position(|&p| p == chosen)?;
    let classes = moves
        .iter()
        .map(|p| {
            let (m, t) = point_classes(&board, *p);
            (m as u16, t as u16)
        })
        .collect();
    Some(Sample { classes, chosen: at })
}

/// `order`: fits the move order to the outside engine's moves and writes it.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let Args { ref input, ref out, epochs, rate, l2, rule } = *args;
    let mut split = Split::new(500, 10);
    let mut skipped = 0;
    for (i, line) in read_lines(input)?.iter().enumerate() {
        match sample(line, rule) {
            Some(s) => split.push(i, s),
            None => skipped += 1,
        }
    }
    if split.train.is_empty() || split.valid.is_empty() {
        bail!("too few positions with a move in {input} (each line `moves;result;value;move`)");
    }
    let hand = Weights::hand_order();
    let temperature = golden_min(1.0, 2_000.0, |t| -quality(&split.train, &flat(&hand, t)).0);
    let start = flat(&hand, temperature);
    eprintln!(
        "{} training, {} held out, {skipped} lines left out; temperature {temperature:.1} hint units a nat",
        split.train.len(),
        split.valid.len()
    );
    eprintln!("{}", report("hand-set", &split, &start));
    let mut w = start.clone();
    let mut adam = Adam::new(&start, l2);
    for epoch in 1..=epochs {
        let g = mean_gradient(&split.train, |part| gradient(part, &w));
        adam.step(&mut w, &g, rate_at(rate, epoch, epochs));
        if epoch % 50 == 0 || epoch == epochs {
            eprintln!("{}", report(&format!("epoch {epoch}"), &split, &w));
        }
    }
    let mut text = format!(
        "# Gomoku move order (sixteenths of a hint; my_best and their_best unused), fitted to an engine's moves\n\
         # in {} positions of {input}: tabula-lab gomoku tune order, {epochs} steps of {rate}, l2 {l2}\n",
        split.train.len()
    );
    text.push_str(&unflat(&w, temperature).to_text());
    std::fs::write(out, text).with_context(|| format!("cannot write {out}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples() -> Vec<Sample> {
        let lines = [
            "h8 i9 h9 h10 g8;1;100;f7",
            "h8 i9 h9 h10 g8 f7;0;-50;j8",
            "h8 i9 h9 h10 g8 f7 j8;1;10;k7",
            "h8 i9 h9;1;0;h10",
        ];
        lines.iter().filter_map(|l| sample(l, Rule::Freestyle)).collect()
    }

    #[test]
    fn the_gradient_is_the_log_likelihoods() {
        let samples = samples();
        assert_eq!(samples.len(), 4, "every line is a position the order matters in");
        let mut w = flat(&Weights::hand_order(), 150.0);
        for (k, x) in w.iter_mut().enumerate() {
            *x += (k % 7) as f64 * 0.01;
        }
        let g = gradient(&samples, &w);
        let n = samples.len() as f64;
        let loss = |w: &[f64]| -quality(&samples, w).0 * n;
        let mut checked = 0;
        for s in &samples {
            for &(m, t) in &s.classes {
                for k in [m as usize, CLASSES + t as usize] {
                    let h = 1e-5;
                    let (mut up, mut down) = (w.clone(), w.clone());
                    up[k] += h;
                    down[k] -= h;
                    let numeric = (loss(&up) - loss(&down)) / (2.0 * h);
                    assert!((numeric - g[k]).abs() < 1e-5, "weight {k}: {numeric} against {}", g[k]);
                    checked += 1;
                }
            }
        }
        assert!(checked > 50);
    }

    #[test]
    fn a_line_without_a_legal_move_of_its_position_is_left_out() {
        assert!(sample("h8 i9 h9 h10 g8;1;100", Rule::Freestyle).is_none(), "no move");
        assert!(sample("h8 i9 h9 h10 g8;1;100;h8", Rule::Freestyle).is_none(), "an occupied point");
        assert!(sample("h8 i9 h9 h10 g8;1;100;a1", Rule::Freestyle).is_none(), "not a candidate");
        assert!(sample("h8 i9 h9 h10 g8;1;100;zz", Rule::Freestyle).is_none(), "not a point");
    }

    #[test]
    fn the_written_order_reads_back_as_the_fit() {
        let w = flat(&Weights::hand_order(), 150.0);
        let back = unflat(&w, 150.0);
        assert_eq!(back, Weights::hand_order());
    }
}
