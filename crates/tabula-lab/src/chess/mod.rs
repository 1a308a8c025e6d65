//! Data, tuning and training for the chess evaluation (Texel's method) and its network:
//!
//! ```text
//! cargo run --release -p tabula-lab -- chess COMMAND ...
//!
//! chess gen OUT [--games N] [--nodes N] [--threads N]
//! chess label IN OUT [--depth D] [--threads N] [--stockfish PATH] [--resume]
//! chess fit LABELLED [--epochs N] [--l2 X] > weights.rs
//! chess wdl-gen OUT [--games N] [--nodes N] [--threads N]
//! chess wdl-fit SAMPLES
//! chess nnue-gen OUT [--games N] [--nodes N] [--threads N] [--first N] [--stockfish PATH] [--stockfish-go GO]
//! chess nnue-label IN OUT [--go GO] [--threads N] [--stockfish PATH] [--resume]
//! chess nnue-loss DATA NET... [--share X]
//! chess nnue-fit DATA OUT [--epochs N] [--share X] [--scale CP] [--threads N] [--no-mirror] [--start NET] [--rate R]
//!      [--buckets N] [--keep-best]
//! chess openings OUT [--count N] [--nodes N] [--margin CP] [--first N]
//! ```
//!
//! `gen`, `wdl-gen`, `nnue-gen`, `label` and `nnue-label` also run as shards of a cluster job (`--shard K/N
//! --result FILE --job ID` instead of `OUT`; see [`shard`](crate::shard)).
//!
//! `chess help COMMAND` gives each command's options and defaults; each command's module says what it reads
//! and writes. The tapered evaluation's weights come from `gen`, `label` and `fit`; the win/draw/loss model's
//! from `wdl-gen` and `wdl-fit`; the network's from `nnue-gen`, `nnue-label` and `nnue-fit`.
//!
//! What the commands share is in one place each: the self-play games and their varied starts
//! ([`self_play`]), Stockfish as a process and the threads that label positions with it ([`stockfish`]), and
//! the network in floating point with its gradient ([`trainer`]).

mod fit;
mod gen;
mod label;
mod nnue_fit;
mod nnue_gen;
mod nnue_label;
mod nnue_loss;
mod openings;
mod self_play;
mod stockfish;
mod trainer;
mod wdl_fit;
mod wdl_gen;

/// The tuning and training tools of the chess evaluation.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Self-play games from varied starts; writes `FEN;result` per quiet position (for `label`).
    Gen(self_play::SelfPlay),
    /// Appends Stockfish's expected score for white at `depth` to each `FEN;result` line.
    Label(label::Args),
    /// Fits the tapered evaluation's weights to labelled positions and prints them as Rust source.
    Fit(fit::Args),
    /// Self-play games; writes `score;phase;result` samples for the win/draw/loss model.
    WdlGen(self_play::SelfPlay),
    /// Fits the win/draw/loss model's constants to `wdl-gen` samples.
    WdlFit(wdl_fit::Args),
    /// Self-play games numbered from `first`; writes the network's data, `FEN;score;result` per quiet position.
    NnueGen(nnue_gen::Args),
    /// Replaces each line's score by Stockfish's after `go GO`, dropping positions whose best move is a
    /// capture or a promotion.
    NnueLabel(nnue_label::Args),
    /// The loss of the tapered evaluation and of each network (a file, or `<embedded>`) on all of `DATA`.
    NnueLoss(nnue_loss::Args),
    /// Trains the network on `DATA` and writes its weights file `OUT`.
    NnueFit(nnue_fit::Training),
    /// Writes `count` distinct roughly balanced opening positions as EPD.
    Openings(openings::Args),
}

/// Runs `command`.
pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Gen(games) => gen::run(&games),
        Command::Label(args) => label::run(&args),
        Command::Fit(args) => fit::run(&args),
        Command::WdlGen(games) => wdl_gen::run(&games),
        Command::WdlFit(args) => wdl_fit::run(&args),
        Command::NnueGen(args) => nnue_gen::run(args),
        Command::NnueLabel(args) => nnue_label::run(args),
        Command::NnueLoss(args) => nnue_loss::run(&args),
        Command::NnueFit(training) => nnue_fit::run(&training),
        Command::Openings(args) => openings::run(&args),
    }
}
