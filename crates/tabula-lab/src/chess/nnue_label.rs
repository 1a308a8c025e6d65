//! `nnue-label`: replaces the score of each line of the network's data by Stockfish's, for `nnue-fit`:
//!
//! ```text
//! chess nnue-label IN OUT [--go GO | --static-eval CP] [--threads N] [--stockfish PATH] [--resume]
//! ```
//!
//! `IN` holds `FEN;score;result` lines as `nnue-gen` writes them; `OUT` the same lines with the score
//! replaced by Stockfish's after `go {GO}` (`--go "depth 8"` by default), white's point of view, a mate as
//! ±3,000, the positions whose best move by Stockfish is a capture or a promotion dropped. With
//! `--static-eval CP` the score is Stockfish's static evaluation instead (its `eval` command; positions in
//! check are dropped), printed in pawns and read as `CP` centipawns a pawn. One Stockfish of one thread runs
//! per thread (`--threads`, 2); `OUT` is written a block of 1,000 positions at a time, and `--resume` goes on
//! with the `OUT` of a run that was stopped, skipping the positions it holds (those dropped for a capture are
//! asked again).

use super::stockfish::{ask_stockfish, quiet_verdict, MATE_CP, STOCKFISH, STOCKFISH_PATIENCE};
use crate::peer::Labellers;
use anyhow::Context;
use tabula_chess::Color;

/// What `nnue-label` reads, asks and writes.
#[derive(clap::Args)]
pub struct Args {
    /// `FEN;score;result` lines, as `nnue-gen` writes them.
    input: String,
    /// The file to write, the same lines with Stockfish's scores.
    #[arg(required_unless_present = "result")]
    out: Option<String>,
    /// Stockfish's search of each position, as a UCI `go` command's arguments (positions whose best move
    /// is a capture or a promotion are left out).
    #[arg(long, default_value = "depth 8", conflicts_with = "static_eval")]
    go: String,
    /// Score each position by Stockfish's static evaluation instead (its `eval` command; positions in
    /// check are left out), printed in pawns and read as this many centipawns a pawn: 115 brings Stockfish
    /// 15.1's to the scale of its search's scores (fitted on 3,000 positions against `go depth 8`).
    #[arg(long)]
    static_eval: Option<f64>,
    #[arg(long, default_value = STOCKFISH)]
    stockfish: String,
    #[command(flatten)]
    labellers: Labellers,
}

/// Runs `nnue-label`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args { input, out, go, static_eval, stockfish, labellers } = args;
    let scorer = static_eval.map_or(Scorer::Search(go), Scorer::Static);
    nnue_label(&input, out.as_deref(), &scorer, &labellers, &stockfish)
}

/// How `nnue-label` scores a position.
#[derive(Clone, Debug)]
enum Scorer {
    /// Stockfish's search: `go` with these arguments.
    Search(String),
    /// Stockfish's static evaluation (its `eval` command, a debugging command of Stockfish's and not UCI),
    /// printed in pawns and read as this many centipawns a pawn.
    Static(f64),
}

/// `nnue-label`: each `FEN;score;result` line of the network's data with the score replaced by Stockfish's
/// (white's point of view, centipawns): its search's, for quiet positions only, or its static evaluation's.
fn nnue_label(
    input: &str,
    out: Option<&str>,
    scorer: &Scorer,
    labellers: &Labellers,
    stockfish: &str,
) -> anyhow::Result<()> {
    ask_stockfish(input, out, labellers, stockfish, |engine, entry, pos| {
        let fields: Vec<&str> = entry.split(';').collect();
        let [fen, _, result] = fields[..] else { return Ok(None) };
        let white = match scorer {
            Scorer::Search(go) => {
                let Some(score) = quiet_verdict(engine, fen, pos, go)?.and_then(|v| v.score) else { return Ok(None) };
                if pos.turn() == Color::White {
                    score
                } else {
                    -score
                }
            }
            Scorer::Static(cp_per_pawn) => {
                let answer = engine
                    .ask(&format!("position fen {fen}\neval"), STOCKFISH_PATIENCE, |l| {
                        l.starts_with("Final evaluation")
                    })
                    .with_context(|| format!("Stockfish gave no static evaluation for {fen}"))?;
                // `Final evaluation       +0.25 (white side) [...]`, or `none (in check)`.
                let pawns = answer.last().and_then(|l| l.split_whitespace().nth(2)).and_then(|v| v.parse::<f64>().ok());
                let Some(pawns) = pawns else { return Ok(None) };
                ((pawns * cp_per_pawn).round() as i32).clamp(-MATE_CP, MATE_CP)
            }
        };
        Ok(Some(format!("{fen};{white};{result}")))
    })
}
