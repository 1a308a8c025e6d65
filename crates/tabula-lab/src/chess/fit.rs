//! `fit`: Texel's method for the tapered evaluation's linear weights, printed as the Rust source of
//! `tabula-chess`'s `src/eval/weights.rs`:
//!
//! ```text
//! chess fit LABELLED [--epochs N] [--l2 X] > weights.rs
//! ```
//!
//! `LABELLED` holds `FEN;result;expected` lines as `label` writes them. The fit minimises the mean squared
//! error between `sigmoid(K * eval)` and the blend `3/4 expected + 1/4 result` over the evaluation's linear
//! weights (Adam on the exact gradient of the traced features, `--epochs` steps, 400 by default, with an L2
//! pull of strength `--l2` towards the current weights), after fitting the scale `K` to the current weights,
//! and prints the new weights on standard output. A twentieth of the positions, in blocks of whole games, is
//! held out and its error reported on standard error.
//!
//! The weights in the crate came from `gen games.txt --games 3800 --nodes 6000`, `label games.txt labelled.txt
//! --depth 7` (Stockfish 15.1; 286,000 positions) and `fit labelled.txt --epochs 1000`: mean squared error
//! 0.0368 -> 0.0293 on the fitted positions and 0.0369 -> 0.0308 on the held-out ones. Against the hand-set
//! weights they replaced, the tuned evaluation scored +79 +/- 50 Elo in self-play (3 s + 0.03 s, 157 games from
//! balanced openings).

use crate::data::read_lines;
use crate::texel::{mean_gradient, rate_at, Adam, Split};
use tabula::tune::golden_min;
use tabula_chess::engine::eval::{features, Evaluation, Trace};
use tabula_chess::Position;

/// What `fit` fits to, and how.
#[derive(clap::Args)]
pub struct Args {
    /// `FEN;result;expected` lines, as `label` writes them.
    labelled: String,
    #[arg(long, default_value_t = 400)]
    epochs: usize,
    /// The strength of the pull towards the current weights.
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
}

/// The weight of Stockfish's expected score in the target; the game result has the rest.
const EXPECTED_SHARE: f64 = 0.75;

struct Sample {
    trace: Trace,
    target: f64,
}

fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * eval).exp())
}

fn mse(samples: &[Sample], weights: &[[f64; 2]], k: f64) -> f64 {
    let sum: f64 = samples.iter().map(|s| (sigmoid(k, s.trace.evaluate(weights)) - s.target).powi(2)).sum();
    sum / samples.len() as f64
}

/// The gradient of the mean squared error over `samples` (split over two threads), flat: `[middlegame,
/// endgame]` weight by weight.
fn gradient(samples: &[Sample], weights: &[[f64; 2]], k: f64) -> Vec<f64> {
    mean_gradient(samples, |chunk| {
        let mut g = vec![[0.0; 2]; weights.len()];
        for s in chunk {
            let p = sigmoid(k, s.trace.evaluate(weights));
            let d = (p - s.target) * p * (1.0 - p) * k;
            let phase = s.trace.phase as f64 / 24.0;
            let (dm, de) = (d * phase, d * (1.0 - phase) * s.trace.endgame_scale);
            for &(i, n) in &s.trace.features {
                g[i as usize][0] += dm * n as f64;
                g[i as usize][1] += de * n as f64;
            }
        }
        g.into_flattened()
    })
}

/// Runs `fit`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let Args { labelled: ref path, epochs, l2: regularisation } = *args;
    let eval = Evaluation;
    // Every twentieth block of 1,000 positions (about a dozen whole games) is held out.
    let mut split = Split::new(1000, 20);
    let mut samples = 0;
    for line in read_lines(path)? {
        let fields: Vec<&str> = line.split(';').collect();
        let [fen, result, expected] = fields[..] else { continue };
        let (Ok(pos), Ok(result), Ok(expected)) =
            (Position::from_fen(fen), result.parse::<f64>(), expected.parse::<f64>())
        else {
            continue;
        };
        let target = EXPECTED_SHARE * expected + (1.0 - EXPECTED_SHARE) * result;
        split.push(samples, Sample { trace: eval.trace(&pos), target });
        samples += 1;
    }
    let mut weights: Vec<[f64; 2]> = Evaluation::weights().iter().map(|&[m, e]| [m as f64, e as f64]).collect();
    // The scale of the sigmoid that fits the current weights best.
    let k = golden_min(0.0005, 0.02, |k| mse(&split.train, &weights, k));
    let errors = |weights: &[[f64; 2]]| split.errors(|samples| mse(samples, weights, k));
    eprintln!("{} training, {} held out; K = {k:.5}; error {}", split.train.len(), split.valid.len(), errors(&weights));
    let mut adam = Adam::new(weights.as_flattened(), regularisation);
    for epoch in 1..=epochs {
        let g = gradient(&split.train, &weights, k);
        adam.step(weights.as_flattened_mut(), &g, rate_at(2.0, epoch, epochs));
        if epoch % 50 == 0 || epoch == epochs {
            eprintln!("epoch {epoch}: error {}", errors(&weights));
        }
    }
    print_weights(&weights, path, k);
    Ok(())
}

fn print_weights(weights: &[[f64; 2]], data: &str, k: f64) {
    let name = std::path::Path::new(data).file_name().map_or(data.into(), |n| n.to_string_lossy());
    println!("//! The evaluation's weights: `[middlegame, endgame]` per feature, in the order of `features`.");
    println!("//!");
    println!("//! Tuned by `tabula-lab` (`chess fit {name}`, sigmoid scale K = {k:.5}); regenerate rather than edit.");
    println!();
    println!("#[rustfmt::skip]");
    println!("pub(super) const WEIGHTS: [[i16; 2]; super::features::COUNT] = [");
    for &(group, start, len) in &features::GROUPS {
        if len == 0 {
            continue;
        }
        println!("    // {group}");
        for row in (start..start + len).step_by(8) {
            let cells: Vec<String> = (row..(row + 8).min(start + len))
                .map(|i| format!("[{}, {}],", weights[i][0].round() as i16, weights[i][1].round() as i16))
                .collect();
            println!("    {}", cells.join(" "));
        }
    }
    println!("];");
}
