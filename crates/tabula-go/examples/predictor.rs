//! Fits the move predictor's strengths to game records, and measures a predictor on records it did not
//! learn from.
//!
//! ```sh
//! # Fit on every game but the last tenth of each file's, write the strengths, report the held-out accuracy:
//! cargo run --release -p tabula-go --example predictor -- fit strengths.txt games.sgf [more.sgf ...] \
//!     [--passes 20] [--min-shape 20] [--min-large 0] [--hold-out 0.1] [--skip 0]
//! # How well a strengths file (or `embedded`, or `uniform`) predicts the moves of some records:
//! cargo run --release -p tabula-go --example predictor -- accuracy embedded games.sgf
//! ```
//!
//! A file may hold one game or a collection (`tabula match -o games.sgf` writes one); every game tree's
//! main line is read, and games with an illegal move are skipped with a note. `--skip N` leaves out each
//! game's first N moves (an opening the players did not choose).

use std::process::ExitCode;
use tabula_go::engine::predictor::{accuracy, fit, samples, Predictor, Sample};
use tabula_go::sgf::{game_trees, GameRecord};

struct Args {
    command: String,
    target: String,
    files: Vec<String>,
    passes: usize,
    min_shape: usize,
    min_large: usize,
    hold_out: f64,
    skip: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut words = std::env::args().skip(1);
    let command = words.next().ok_or("expected `fit OUT FILES...` or `accuracy STRENGTHS FILES...`")?;
    let target = words.next().ok_or("expected the strengths file after the command")?;
    let mut args =
        Args { command, target, files: Vec::new(), passes: 20, min_shape: 20, min_large: 0, hold_out: 0.1, skip: 0 };
    while let Some(word) = words.next() {
        let mut value = |name: &str| words.next().ok_or(format!("{name} needs a value"));
        match word.as_str() {
            "--passes" => args.passes = value("--passes")?.parse().map_err(|e| format!("--passes: {e}"))?,
            "--min-shape" => args.min_shape = value("--min-shape")?.parse().map_err(|e| format!("--min-shape: {e}"))?,
            "--hold-out" => {
                args.hold_out = value("--hold-out")?
                    .parse()
                    .ok()
                    .filter(|h| (0.0..1.0).contains(h))
                    .ok_or("--hold-out takes a share from 0 to below 1")?
            }
            "--min-large" => args.min_large = value("--min-large")?.parse().map_err(|e| format!("--min-large: {e}"))?,
            "--skip" => args.skip = value("--skip")?.parse().map_err(|e| format!("--skip: {e}"))?,
            _ => args.files.push(word),
        }
    }
    if args.files.is_empty() {
        return Err("no game records given".into());
    }
    Ok(args)
}

/// The samples of every game in `files` from move `skip` on, each file's games split into those to learn
/// from and the last `hold_out` share of them.
fn read(files: &[String], hold_out: f64, skip: usize) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let (mut games, mut skipped) = (0, 0);
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        let records: Vec<GameRecord> = game_trees(&text)
            .filter_map(|tree| {
                let parsed = tree
                    .map_err(|at| format!("byte {at}: no game tree"))
                    .and_then(|t| GameRecord::parse(t.text).map_err(|e| format!("byte {}: {e}", t.start)));
                parsed.map_err(|e| eprintln!("{file}: {e}; skipped")).ok()
            })
            .collect();
        let split = records.len() - (records.len() as f64 * hold_out).round() as usize;
        for (k, record) in records.iter().enumerate() {
            match samples(record, skip) {
                Ok(s) => {
                    games += 1;
                    if k < split { &mut train } else { &mut test }.extend(s);
                }
                Err(e) => {
                    skipped += 1;
                    eprintln!("{file}: game {}: {e}; skipped", k + 1);
                }
            }
        }
    }
    eprintln!("{games} games ({skipped} skipped): {} positions to fit, {} held out", train.len(), test.len());
    Ok((train, test))
}

fn report(name: &str, predictor: &Predictor, samples: &[Sample]) {
    let (first, five, log_likelihood) = accuracy(predictor, samples);
    println!(
        "{name}: {} positions, first {:.1} %, first five {:.1} %, log-likelihood {log_likelihood:.3} nats a move",
        samples.len(),
        100.0 * first,
        100.0 * five
    );
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    match args.command.as_str() {
        "fit" => {
            let (train, test) = read(&args.files, args.hold_out, args.skip)?;
            let start = std::time::Instant::now();
            let predictor =
                fit(&train, args.passes, args.min_shape, if args.min_large == 0 { usize::MAX } else { args.min_large });
            eprintln!("fitted in {:.1} s", start.elapsed().as_secs_f64());
            std::fs::write(&args.target, predictor.to_text()).map_err(|e| format!("{}: {e}", args.target))?;
            report("uniform, held out", &Predictor::uniform(), &test);
            report("fitted, learnt", &predictor, &train);
            report("fitted, held out", &predictor, &test);
        }
        "accuracy" => {
            let predictor = match args.target.as_str() {
                "embedded" => Predictor::default(),
                "uniform" => Predictor::uniform(),
                path => {
                    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
                    Predictor::from_text(&text).map_err(|e| format!("{path}: {e}"))?
                }
            };
            let (all, _) = read(&args.files, 0.0, args.skip)?;
            report(&args.target, &predictor, &all);
        }
        other => return Err(format!("unknown command {other:?}: expected fit or accuracy")),
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("predictor: {e}");
            ExitCode::FAILURE
        }
    }
}
