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
//!      [--buckets N] [--keep-best] [--kings LAYOUT]
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
//! ([`self_play`]), and Stockfish as a process and the threads that label positions with it ([`stockfish`]).
//! `nnue-fit` and `nnue-loss` are the [network trainer's](crate::nnue), which xiangqi shares; what it reads of
//! chess is [`Chess`]'s.
//!
//! # How the embedded networks were trained
//!
//! The first network came from `nnue-gen d1.txt --games 3200 --nodes 5000 --first 1000000` (288,000 positions in 26
//! minutes, about 660,000 an hour on one niced core) and `nnue-gen d2.txt --games 27100 --nodes 1000 --first 2000000`
//! (2,430,000 positions in 34 minutes, about 4.2 million an hour) by the tapered engine, concatenated (`d2` first, so
//! that the held-out tail is of the deeper searches), and `nnue-fit d12.txt default.tbnn --epochs 12` (6.7 minutes on
//! two threads beside the generator; 33 s a pass over 5.2 million positions with their mirror images). The second added
//! `nnue-gen d4.txt --games 39100 --nodes 1000 --first 5000000` by the engine on the first network (3,620,000 positions
//! in 37 minutes), `d4`, `d2` and `d1` concatenated in that order, and `nnue-fit d421.txt second.tbnn --epochs 12
//! --threads 1` (13.3 minutes on one thread; 5.46 million positions once the endings against a bare king are left out).
//! The third went on from the second: `nnue-gen d6.txt --games 100000 --nodes 1000 --first 11000000` stopped after
//! about 20,800 games (1.88 million positions), `nnue-label d6.txt s6.txt` (1.75 million kept) and `nnue-fit s6.txt
//! third.tbnn --epochs 12 --share 1 --threads 1 --start second.tbnn` (3.7 minutes on one thread). The fourth went on
//! from the third: `nnue-gen d7.txt --games 100000 --nodes 1000 --first 12000000` by the engine on the third, stopped
//! after about 10,700 games (970,000 positions), `nnue-label d7.txt s7.txt` (912,000 kept, 32 minutes), `s6.txt` and
//! `s7.txt` concatenated in that order and `nnue-fit s67.txt fourth.tbnn --epochs 12 --share 1 --threads 1 --start
//! third.tbnn` (5 minutes on one thread for 2.37 million positions). The fifth went on from the fourth: `nnue-gen
//! d8.txt --games 100000 --nodes 1000 --threads 1 --first 13000000` and the same from 13,500,000 beside it, both
//! stopped (about 18,200 games, 1.66 million positions), `nnue-label` over both (1.56 million kept, 52 minutes),
//! `s6.txt`, `s7.txt` and `s8.txt` concatenated in that order and `nnue-fit s678.txt fifth.tbnn --epochs 12 --share 1
//! --threads 2 --start fourth.tbnn` (6 minutes on two threads for 3.76 million positions). The sixth, in the crate
//! (`src/eval/default.tbnn`), went on from the fifth on its own self-play alone (the older labelled files were not
//! kept): the same two generators from 14,000,000 and 14,500,000, stopped at 2.18 million positions, `nnue-label` (2.05
//! million kept, 70 minutes) and `nnue-fit s9.txt sixth.tbnn --epochs 12 --share 1 --threads 2 --start '<embedded>'` (3
//! minutes for 1.82 million positions).

mod fit;
mod game;
mod gen;
mod label;
mod nnue_gen;
mod nnue_label;
mod self_play;
mod stockfish;
mod wdl_fit;
mod wdl_gen;

use crate::nnue;
pub use game::Chess;

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
    NnueLoss(nnue::loss::Args),
    /// Trains the network on `DATA` and writes its weights file `OUT`.
    NnueFit(nnue::fit::Training<Chess>),
    /// Writes `count` distinct roughly balanced opening positions as EPD.
    Openings(crate::openings::Args),
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
        Command::NnueLoss(args) => nnue::loss::run::<Chess>(&args),
        Command::NnueFit(training) => nnue::fit::run::<Chess>(&training),
        Command::Openings(args) => crate::openings::run::<Chess>(&args),
    }
}
