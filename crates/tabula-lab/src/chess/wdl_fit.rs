//! `wdl-fit`: fits the win/draw/loss model of `tabula_chess::engine::wdl` to the samples of `wdl-gen`:
//!
//! ```text
//! chess wdl-fit SAMPLES
//! ```
//!
//! `SAMPLES` holds `score;phase;result` lines as `wdl-gen` writes them. The fit maximises the likelihood of the
//! outcomes by coordinate descent (a golden-section search per constant, 30 rounds from a model with the same
//! constants at every phase) and prints the model's constants as Rust source, its log-loss against a model
//! that ignores the score, and the observed against the predicted chances by score, on standard output
//! (progress on standard error).

use crate::data::read_lines;
use std::collections::BTreeMap;
use tabula::tune::golden_min;
use tabula_chess::engine::wdl::{Model, MODEL};

/// The samples `wdl-fit` fits to.
#[derive(clap::Args)]
pub struct Args {
    /// `score;phase;result` lines, as `wdl-gen` writes them.
    samples: String,
}

/// Wins, draws and losses seen at each (score, phase).
type Counts = BTreeMap<(i32, i32), [f64; 3]>;

/// The mean negative log-likelihood of the outcomes under `model`.
fn log_loss(counts: &Counts, model: &Model) -> f64 {
    let (mut sum, mut n) = (0.0, 0.0);
    for (&(score, phase), outcomes) in counts {
        let (w, d, l) = model.chances(score as f64, phase);
        for (count, p) in outcomes.iter().zip([w, d, l]) {
            sum -= count * p.max(1e-9).ln();
            n += count;
        }
    }
    sum / n
}

/// Runs `wdl-fit`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let path = &args.samples;
    let mut counts = Counts::new();
    let mut total = [0.0; 3];
    for line in read_lines(path)? {
        let fields: Vec<&str> = line.split(';').collect();
        let [score, phase, result] = fields[..] else { continue };
        let (Ok(score), Ok(phase), Ok(result)) = (score.parse::<i32>(), phase.parse::<i32>(), result.parse::<f64>())
        else {
            continue;
        };
        // Scores beyond ±20 pawns say nothing more; positions are pooled by 5 centipawns.
        let key = ((score.clamp(-2000, 2000) + 2002) / 5 * 5 - 2000, phase);
        let outcome = if result > 0.75 {
            0
        } else if result > 0.25 {
            1
        } else {
            2
        };
        counts.entry(key).or_default()[outcome] += 1.0;
        total[outcome] += 1.0;
    }
    let n: f64 = total.iter().sum();
    // A model that ignores the score: the base rates of wins, draws and losses.
    let base = -total.iter().map(|&c| if c > 0.0 { c * (c / n).ln() } else { 0.0 }).sum::<f64>() / n;
    // The fit starts from a model with the same constants at every phase (the one in the crate may be
    // far from these samples).
    let mut model = Model { a: [200.0; 4], b: [150.0; 4] };
    eprintln!(
        "{n} positions ({:.1}% won, {:.1}% drawn, {:.1}% lost); log-loss {base:.4} ignoring the score, {:.4} with the model in the crate",
        100.0 * total[0] / n,
        100.0 * total[1] / n,
        100.0 * total[2] / n,
        log_loss(&counts, &MODEL)
    );
    for round in 0..30 {
        for k in 0..4 {
            let with = |values: [f64; 4], x: f64| {
                let mut v = values;
                v[k] = x;
                v
            };
            model.a[k] = golden_min(0.0, 3000.0, |x| log_loss(&counts, &Model { a: with(model.a, x), ..model }));
            model.b[k] = golden_min(1.0, 3000.0, |x| log_loss(&counts, &Model { b: with(model.b, x), ..model }));
        }
        if round % 5 == 4 {
            eprintln!("round {}: log-loss {:.5} {model:?}", round + 1, log_loss(&counts, &model));
        }
    }
    let list = |v: [f64; 4]| v.map(|x| format!("{x:.1}")).join(", ");
    println!("pub const MODEL: Model = Model {{ a: [{}], b: [{}] }};", list(model.a), list(model.b));
    println!("log-loss {:.4} (ignoring the score: {base:.4})", log_loss(&counts, &model));
    // Observed against predicted, by score (all phases together).
    println!("score      positions  observed W/D/L %      predicted W/D/L %");
    for lo in (-600..600).step_by(100) {
        let (mut seen, mut predicted, mut m) = ([0.0; 3], [0.0; 3], 0.0);
        for (&(score, phase), outcomes) in counts.range((lo, i32::MIN)..(lo + 100, i32::MIN)) {
            let (w, d, l) = model.chances(score as f64, phase);
            let k: f64 = outcomes.iter().sum();
            for i in 0..3 {
                seen[i] += outcomes[i];
            }
            predicted[0] += k * w;
            predicted[1] += k * d;
            predicted[2] += k * l;
            m += k;
        }
        if m > 0.0 {
            let pc =
                |x: [f64; 3]| format!("{:4.1} {:4.1} {:4.1}", 100.0 * x[0] / m, 100.0 * x[1] / m, 100.0 * x[2] / m);
            println!("{lo:>5}..{:<5} {m:>8}   {}      {}", lo + 100, pc(seen), pc(predicted));
        }
    }
    Ok(())
}
