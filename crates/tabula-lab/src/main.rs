//! `tabula-lab`: the tools that make and measure the engines' data, grouped by game, one module per command.
//!
//! ```text
//! cargo run --release -p tabula-lab -- GROUP COMMAND [ARGS]
//!
//! tabula-lab chess    gen | label | fit | wdl-gen | wdl-fit | nnue-gen | nnue-label | nnue-loss | nnue-fit | openings
//! tabula-lab gomoku   tune (gen | label | hand | fit | review | probe) | openings | bench
//! tabula-lab go       predictor (fit | accuracy) | playouts | vs-gnugo
//! tabula-lab kmc      recall
//! tabula-lab connect4 solve-set
//! tabula-lab xiangqi  nnue-gen | nnue-label | nnue-loss | nnue-fit | openings
//! ```
//!
//! `tabula-lab GROUP help COMMAND` gives a command's options and defaults; each command's module says what it
//! reads and writes. The games' own verbs (play, perft, the protocols, `kmc run`) are the `tabula` command's.

mod chess;
mod connect4;
mod data;
mod go;
mod gomoku;
mod kmc;
mod nnue;
mod openings;
mod peer;
mod selfplay;
mod shard;
mod texel;
mod xiangqi;

use clap::Parser;

/// The lab's commands, by game.
#[derive(Parser)]
#[command(name = "tabula-lab", about = "Training, labelling, tuning and measurements for Tabula's engines")]
enum Group {
    /// Data, tuning and training for the chess evaluation and its network.
    Chess {
        #[command(subcommand)]
        command: chess::Command,
    },
    /// The Gomoku evaluation's data and fit, balanced openings, the engine's speed.
    Gomoku {
        #[command(subcommand)]
        command: gomoku::Command,
    },
    /// Go's move predictor, playout speed, and matches against GNU Go.
    Go {
        #[command(subcommand)]
        command: go::Command,
    },
    /// Kinetic Monte Carlo: the state recall experiment.
    Kmc {
        #[command(subcommand)]
        command: kmc::Command,
    },
    /// Data and training for xiangqi's network evaluation.
    Xiangqi {
        #[command(subcommand)]
        command: xiangqi::Command,
    },
    /// Connect Four: solving sets of positions.
    #[command(name = "connect4")]
    Connect4 {
        #[command(subcommand)]
        command: connect4::Command,
    },
}

fn main() -> anyhow::Result<()> {
    match Group::parse() {
        Group::Chess { command } => chess::run(command),
        Group::Gomoku { command } => gomoku::run(command),
        Group::Go { command } => go::run(command),
        Group::Kmc { command } => kmc::run(command),
        Group::Xiangqi { command } => xiangqi::run(command),
        Group::Connect4 { command } => connect4::run(command),
    }
}

#[cfg(test)]
mod tests {
    use super::Group;
    use clap::{CommandFactory, Parser};

    #[test]
    fn the_command_line_is_consistent() {
        Group::command().debug_assert();
    }

    /// The command lines the modules and the records of past runs give parse as they did when the tools were
    /// examples, with only the prefix changed.
    #[test]
    fn documented_command_lines_parse() {
        for line in [
            "chess gen games.txt --games 3800 --nodes 6000",
            "chess label games.txt labelled.txt --depth 7",
            "chess fit labelled.txt --epochs 1000",
            "chess wdl-gen w.txt --games 500 --nodes 6000",
            "chess nnue-gen d8.txt --games 100000 --nodes 1000 --threads 1 --first 13000000",
            "chess nnue-gen s.txt --stockfish /usr/games/stockfish",
            "chess nnue-label d6.txt s6.txt --resume",
            "chess nnue-label d6.txt s6.txt --static-eval 115",
            "chess nnue-gen --games 1000 --nodes 1000 --shard 3/8 --result r/shard-0003.result --job 5e1f",
            "chess label games.txt --shard 0/2 --result r/shard-0000.result",
            "chess nnue-loss s9.txt <embedded> sixth.tbnn --share 1",
            "chess nnue-fit s9.txt sixth.tbnn --epochs 12 --share 1 --threads 2 --start <embedded> --kings four",
            "chess openings o.epd --count 2000 --nodes 20000 --margin 40 --first 1000",
            "chess help nnue-fit",
            "gomoku tune gen g1.txt --games 400 --ms 25 --seed 1",
            "gomoku tune label g1.txt l1.txt --engine pbrain-rapfi --ms 50",
            "gomoku tune hand hand.txt",
            "gomoku tune fit l1.txt eval-weights.txt --start hand.txt --epochs 800 --rate 64 --l2 0",
            "gomoku tune review games.txt --player tabula --engine pbrain-rapfi --lost --rule renju",
            "gomoku tune probe games.txt --player tabula --colour black --engine a --engine b --judge c --info 2:k=v",
            "gomoku tune help probe",
            "gomoku openings 50 4 freestyle 15 300 1",
            "gomoku openings",
            "gomoku bench",
            "gomoku bench --order order.txt",
            "gomoku tune order l1.txt order.txt --epochs 300 --rate 0.05 --l2 0 --rule renju",
            "go predictor fit strengths.txt a.sgf b.sgf --passes 20 --min-shape 20 --hold-out 0.1 --skip 4",
            "go predictor accuracy embedded games.sgf --skip 4",
            "go playouts 5",
            "go playouts --count 2000",
            "go vs-gnugo --games 50 --level 1 --time 0.3 --threads 2 --seed 1 --exploration 0.5 --verbose",
            "kmc recall --energy pair --steps 10_000_000 --temperatures 1073,773,373 --trial-energies off",
            "connect4 solve-set mid.txt 2 100 2",
            "xiangqi nnue-fit x.txt x.tbnn --epochs 12 --kings palace --scale 100 --start first.tbnn --keep-best",
            "xiangqi nnue-loss x.txt first.tbnn second.tbnn --share 1",
            "xiangqi help nnue-fit",
        ] {
            let words = std::iter::once("tabula-lab").chain(line.split(' '));
            if let Err(e) = Group::try_parse_from(words) {
                // `help COMMAND` asks clap to print the command's help, which it reports as an error kind.
                assert_eq!(e.kind(), clap::error::ErrorKind::DisplayHelp, "{line}: {e}");
            }
        }
    }
}
