//! `fit`: the evaluation's weights that best predict the labelled positions, written as a weights file:
//!
//! ```text
//! gomoku tune fit LABELLED OUT [--start WEIGHTS] [--epochs N] [--rate R] [--l2 X] [--share X] [--no-mates] [--rule R]
//!                              [--threat-only] [--threat-by-colour]
//! ```
//!
//! `LABELLED` holds `moves;result;value` lines as `label` writes them (a move after them is not read). The fit
//! minimises the mean squared error between `sigmoid(K · eval)` and the target
//! `share · sigmoid(value / 200) + (1 − share) · result` (Rapfi's win rate is `sigmoid(value / 200)`) over the weights of `tabula_gomoku::engine::eval::Weights`, starting
//! from the embedded ones or a `--start` file, after fitting `K` to them (Adam on the exact gradient, full
//! batch, `--epochs` steps of `--rate` sixteenths of a unit, with an L2 pull of strength `--l2` towards the
//! start), and writes the new weights file `OUT`, which `tabula-gomoku` reads (`INFO tabula_weights`) or
//! embeds as `src/eval-weights.txt`. Every tenth block of 500 positions (whole games, most of them) is held out
//! and its error reported on standard error; `--no-mates` leaves out the positions the outside engine reports a
//! forced win or loss in. The threat-mask weights are fitted as one table for both colours unless
//! `--threat-by-colour` (renju is not symmetric); `--threat-only` fits them alone, the class weights held.

use super::gomocup::{sigmoid, MATE_VALUE};
use crate::data::read_lines;
use crate::texel::{mean_gradient, rate_at, Adam, Split};
use anyhow::{bail, Context};
use tabula::tune::golden_min;
use tabula_gomoku::engine::eval::{Features, Weights, CLASSES, THREATS};
use tabula_gomoku::{Board, Rule};

/// What `fit` fits to, from where, and how.
#[derive(clap::Args)]
pub struct Args {
    /// Labelled positions.
    input: String,
    /// The weights file to write.
    out: String,
    /// Full-batch Adam steps.
    #[arg(long, default_value_t = 800)]
    epochs: usize,
    /// The pull towards the starting weights (10⁻⁷ already holds them within a few units of the start).
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
    /// The outside evaluation's share of the target; the game result has the rest.
    #[arg(long, default_value_t = 0.75)]
    share: f64,
    /// Adam's step, in sixteenths of a unit (a quarter of it for the last quarter of the steps).
    #[arg(long, default_value_t = 64.0)]
    rate: f64,
    /// The weights file to start from (as `hand` writes); the embedded weights if absent.
    #[arg(long)]
    start: Option<String>,
    /// Leave out the positions the outside engine reports a forced win or loss in.
    #[arg(long)]
    no_mates: bool,
    /// The rule: freestyle, standard or renju.
    #[arg(long, default_value = "freestyle")]
    rule: Rule,
    /// Fit the threat-mask weights alone, holding the class weights where they start.
    #[arg(long)]
    threat_only: bool,
    /// Fit a threat-mask table for each colour to move (else one for both: black's, copied to white's).
    #[arg(long)]
    threat_by_colour: bool,
}

/// Runs `fit` from the `--start` weights, or the embedded ones.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let start = match &args.start {
        Some(path) => Weights::read(path.as_ref())?,
        None => tabula_gomoku::engine::eval::embedded_weights(),
    };
    fit(args, &start)
}

/// One labelled position: its evaluation terms, where its threat weight sits in the flat vector, and the
/// target.
struct Sample {
    features: Features,
    threat: usize,
    target: f64,
}

/// Where the threat weights start in the flat vector: after `mine`, `theirs`, `my_best` and `their_best`.
const THREAT_AT: usize = 4 * CLASSES;

/// The weights as one flat vector: `mine`, `theirs`, `my_best`, `their_best`, then the threat weights with
/// black to move and, `by_colour`, with white to move.
fn flat(w: &Weights, by_colour: bool) -> Vec<f64> {
    let tables = if by_colour { &w.threat[..] } else { &w.threat[..1] };
    [&w.mine[..], &w.theirs, &w.my_best, &w.their_best]
        .into_iter()
        .chain(tables.iter().map(|t| &t[..]))
        .flat_map(|v| v.iter().map(|&x| x as f64))
        .collect()
}

/// The weights of the flat vector `x` ([`flat`]); one threat table serves both colours unless it has two.
fn unflat(x: &[f64]) -> Weights {
    let round = |k: usize| x[k].round() as i32;
    let by_colour = x.len() > THREAT_AT + THREATS;
    let threat = |colour: usize| std::array::from_fn(|m| round(THREAT_AT + THREATS * colour * by_colour as usize + m));
    Weights {
        mine: std::array::from_fn(round),
        theirs: std::array::from_fn(|c| round(CLASSES + c)),
        my_best: std::array::from_fn(|c| round(2 * CLASSES + c)),
        their_best: std::array::from_fn(|c| round(3 * CLASSES + c)),
        threat: [threat(0), threat(1)],
    }
}

/// The evaluation of a sample in units, with the flat weights `w` (as `Weights::evaluate`, unrounded).
fn evaluate(s: &Sample, w: &[f64]) -> f64 {
    let f = &s.features;
    let mut sum: f64 = f.mine.iter().map(|&c| w[c as usize]).sum::<f64>()
        + f.theirs.iter().map(|&c| w[CLASSES + c as usize]).sum::<f64>();
    sum += f.my_best.map_or(0.0, |c| w[2 * CLASSES + c as usize]) + w[3 * CLASSES + f.their_best as usize];
    sum += w[s.threat];
    sum / Weights::SCALE as f64
}

fn mse(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    samples.iter().map(|s| (sigmoid(k * evaluate(s, w)) - s.target).powi(2)).sum::<f64>() / samples.len() as f64
}

/// The gradient of [`mse`] over `samples`, split over two threads; `threat_only`, zero for the class weights.
fn gradient(samples: &[Sample], w: &[f64], k: f64, threat_only: bool) -> Vec<f64> {
    mean_gradient(samples, |chunk| {
        let mut g = vec![0.0; w.len()];
        for s in chunk {
            let p = sigmoid(k * evaluate(s, w));
            let d = 2.0 * (p - s.target) * p * (1.0 - p) * k / Weights::SCALE as f64;
            g[s.threat] += d;
            if threat_only {
                continue;
            }
            let f = &s.features;
            for &c in &f.mine {
                g[c as usize] += d;
            }
            for &c in &f.theirs {
                g[CLASSES + c as usize] += d;
            }
            if let Some(c) = f.my_best {
                g[2 * CLASSES + c as usize] += d;
            }
            g[3 * CLASSES + f.their_best as usize] += d;
        }
        g
    })
}

/// `fit`: the weights that best predict the labelled positions.
fn fit(args: &Args, start: &Weights) -> anyhow::Result<()> {
    let Args { ref input, ref out, epochs, l2, share, rate, no_mates, rule, threat_only, threat_by_colour, .. } = *args;
    let mut split = Split::new(500, 10);
    for (i, line) in read_lines(input)?.iter().enumerate() {
        let fields: Vec<&str> = line.split(';').collect();
        let [moves, result, value, ..] = fields[..] else { continue };
        let (Ok(board), Ok(result), Ok(value)) =
            (Board::from_moves(15, 15, rule, moves), result.parse::<f64>(), value.parse::<f64>())
        else {
            continue;
        };
        if no_mates && value.abs() >= MATE_VALUE as f64 {
            continue;
        }
        let Some(features) = Features::of(&board) else { continue };
        let target = share * sigmoid(value / 200.0) + (1.0 - share) * result;
        let colour = if threat_by_colour { features.to_move.index() } else { 0 };
        let threat = THREAT_AT + colour * THREATS + features.threat as usize;
        split.push(i, Sample { features, threat, target });
    }
    if split.train.is_empty() || split.valid.is_empty() {
        bail!("too few positions in {input}");
    }
    let start = flat(start, threat_by_colour);
    let hand = flat(&Weights::hand_set(), threat_by_colour);
    let k = golden_min(0.0001, 0.05, |k| mse(&split.train, &start, k));
    let errors = |w: &[f64]| split.errors(|samples| mse(samples, w, k));
    eprintln!(
        "{} training, {} held out; K = {k:.5}; error {} (hand-set {})",
        split.train.len(),
        split.valid.len(),
        errors(&start),
        errors(&hand)
    );
    let mut w = start.clone();
    let mut adam = Adam::new(&start, l2);
    for epoch in 1..=epochs {
        let g = gradient(&split.train, &w, k, threat_only);
        adam.step(&mut w, &g, rate_at(rate, epoch, epochs));
        if epoch % 50 == 0 || epoch == epochs {
            eprintln!("epoch {epoch}: error {}", errors(&w));
        }
    }
    std::fs::write(out, unflat(&w).to_text()).with_context(|| format!("cannot write {out}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flat_vector_holds_every_weight_once() {
        let mut w = tabula_gomoku::engine::eval::embedded_weights();
        w.threat[0][5] = 7;
        w.threat[1][5] = 9;
        assert_eq!(unflat(&flat(&w, true)), w);
        // One table for both colours: black's, copied to white's.
        let tied = unflat(&flat(&w, false));
        assert_eq!((tied.threat[0][5], tied.threat[1][5]), (7, 7));
        assert_eq!((tied.mine, tied.their_best), (w.mine, w.their_best));
        assert_eq!(flat(&w, false).len() + THREATS, flat(&w, true).len());
    }
}
