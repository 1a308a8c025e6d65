//! `predictor`: fits the move predictor's strengths to game records, and measures a predictor on records it
//! did not learn from.
//!
//! ```text
//! # Fit on every game but the last tenth of each file's, write the strengths, report the held-out accuracy:
//! go predictor fit strengths.txt games.sgf [more.sgf ...] [--passes 20] [--min-shape 20] [--min-large 0] \
//!     [--hold-out 0.1] [--skip 0]
//! # How well a strengths file (or `embedded`, `embedded-19`, or `uniform`) predicts the moves of some records:
//! go predictor accuracy embedded games.sgf [--skip 0]
//! ```
//!
//! A file may hold one game or a collection (`tabula match -o games.sgf` writes one); every game tree's
//! main line is read, and games with an illegal move are skipped with a note. `--skip N` leaves out each
//! game's first N moves (an opening the players did not choose). `fit` writes the strengths file that
//! `tabula_go::engine::predictor::Predictor::from_text` reads (`tabula-go` embeds two: `data/predictor.txt`
//! for small boards, `data/predictor-19.txt` for large ones), and prints the accuracy (first choice, first
//! five, log-likelihood a move) of the uniform and the fitted predictors on standard output; `accuracy` prints
//! the same for the predictor given.

use anyhow::anyhow;
use tabula_go::engine::predictor::{accuracy, fit, samples, Predictor, Sample};
use tabula_go::sgf::{game_trees, GameRecord};

/// The predictor's two commands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Fits the strengths on every game but the last `--hold-out` share of each file's, writes them to `OUT`
    /// and reports the accuracy on the games held out.
    Fit {
        /// The strengths file to write.
        out: String,
        /// Game records (SGF), one game or a collection each.
        #[arg(required = true)]
        files: Vec<String>,
        /// Passes of the fit over the positions.
        #[arg(long, default_value_t = 20)]
        passes: usize,
        /// Shapes seen fewer times than this among the candidates share one strength (`shape other`).
        #[arg(long, default_value_t = 20)]
        min_shape: usize,
        /// A large shape played this often or more gets a strength of its own (0: none does).
        #[arg(long, default_value_t = 0)]
        min_large: usize,
        /// The share of each file's games held out, the last ones (from 0 to below 1).
        #[arg(long, default_value_t = 0.1, value_parser = share)]
        hold_out: f64,
        /// Each game's first moves left out.
        #[arg(long, default_value_t = 0)]
        skip: usize,
    },
    /// How well a strengths file (or `embedded`, `embedded-19`, or `uniform`) predicts the moves of the records.
    Accuracy {
        /// A strengths file, `embedded` (the small boards' strengths), `embedded-19` (the large boards') or
        /// `uniform`.
        strengths: String,
        /// Game records (SGF), one game or a collection each.
        #[arg(required = true)]
        files: Vec<String>,
        /// Each game's first moves left out.
        #[arg(long, default_value_t = 0)]
        skip: usize,
    },
}

/// A share from 0 to below 1.
fn share(text: &str) -> Result<f64, String> {
    text.parse().ok().filter(|h| (0.0..1.0).contains(h)).ok_or_else(|| "takes a share from 0 to below 1".into())
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

/// Runs `command`.
pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Fit { out, files, passes, min_shape, min_large, hold_out, skip } => {
            let (train, test) = read(&files, hold_out, skip).map_err(anyhow::Error::msg)?;
            let start = std::time::Instant::now();
            let predictor = fit(&train, passes, min_shape, if min_large == 0 { usize::MAX } else { min_large });
            eprintln!("fitted in {:.1} s", start.elapsed().as_secs_f64());
            std::fs::write(&out, predictor.to_text()).map_err(|e| anyhow!("{out}: {e}"))?;
            report("uniform, held out", &Predictor::uniform(), &test);
            report("fitted, learnt", &predictor, &train);
            report("fitted, held out", &predictor, &test);
        }
        Command::Accuracy { strengths, files, skip } => {
            let predictor = match strengths.as_str() {
                "embedded" => Predictor::default(),
                "embedded-19" => Predictor::clone(&Predictor::embedded_for(19)),
                "uniform" => Predictor::uniform(),
                path => {
                    let text = std::fs::read_to_string(path).map_err(|e| anyhow!("{path}: {e}"))?;
                    Predictor::from_text(&text).map_err(|e| anyhow!("{path}: {e}"))?
                }
            };
            let (all, _) = read(&files, 0.0, skip).map_err(anyhow::Error::msg)?;
            report(&strengths, &predictor, &all);
        }
    }
    Ok(())
}
