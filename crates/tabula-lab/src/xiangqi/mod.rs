//! Data and training for xiangqi's network evaluation (`tabula_xiangqi::engine::nnue`):
//!
//! ```text
//! cargo run --release -p tabula-lab -- xiangqi COMMAND ...
//!
//! xiangqi nnue-gen OUT [--games N] [--nodes N] [--threads N] [--first N] [--fairy-stockfish PATH] [--peer-go GO]
//! xiangqi nnue-label IN OUT [--go GO] [--threads N] [--fairy-stockfish PATH] [--resume]
//! xiangqi nnue-loss DATA NET... [--share X]
//! xiangqi nnue-fit DATA OUT [--epochs N] [--share X] [--scale CP] [--threads N] [--no-mirror] [--start NET] [--rate R]
//!      [--buckets N] [--keep-best] [--kings plain|mirrored|palace]
//! xiangqi openings OUT [--count N] [--nodes N] [--margin CP] [--first N]
//! ```
//!
//! The data is chess's format: `FEN;score;result` lines, the score in centipawns (a pawn is 100 in xiangqi's
//! evaluation too, the default `--scale`) and the result (1, 0.5, 0), both from Red's point of view. It is played
//! by the same self-play games as chess's ([`selfplay`](crate::selfplay)) and labelled by the same peer threads
//! ([`peer`](crate::peer)), with Fairy-Stockfish as the peer; `nnue-gen` and `nnue-label` also run as shards of a
//! cluster job (`--shard K/N --result FILE --job ID` instead of `OUT`; see [`shard`](crate::shard)).
//! `nnue-loss` and `nnue-fit` are the [network trainer's](crate::nnue) commands, as chess has them, on xiangqi's
//! board ([`Xiangqi`]); the positions are compared with the hand-written evaluation
//! (`tabula_xiangqi::engine::eval`) and with the engine's embedded network, which `<embedded>` names (as
//! `nnue-fit --start` or an `nnue-loss` file). `openings` writes the openings of self-play matches, as chess's does.
//! `xiangqi help COMMAND` gives each command's options and defaults.

mod game;
mod gen;
mod label;

use crate::nnue;
pub use game::Xiangqi;

/// The data and training tools of xiangqi's network. The variants name the commands (`nnue-gen`, ...), as
/// chess's do, so they share the prefix.
#[derive(clap::Subcommand)]
#[allow(clippy::enum_variant_names)]
pub enum Command {
    /// Self-play games numbered from `first`; writes the network's data, `FEN;score;result` per quiet position.
    NnueGen(gen::Args),
    /// Replaces each line's score by Fairy-Stockfish's after `go GO`, dropping positions whose best move is a
    /// capture.
    NnueLabel(label::Args),
    /// The loss of the hand-written evaluation and of each network file on all of `DATA`.
    NnueLoss(nnue::loss::Args),
    /// Trains the network on `DATA` and writes its weights file `OUT`.
    NnueFit(nnue::fit::Training<Xiangqi>),
    /// Distinct random starts that the engine scores within `--margin` centipawns of even, one FEN a line: the
    /// openings of self-play matches.
    Openings(crate::openings::Args),
}

/// Runs `command`.
pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::NnueGen(args) => gen::run(args),
        Command::NnueLabel(args) => label::run(args),
        Command::NnueLoss(args) => nnue::loss::run::<Xiangqi>(&args),
        Command::NnueFit(training) => nnue::fit::run::<Xiangqi>(&training),
        Command::Openings(args) => crate::openings::run::<Xiangqi>(&args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::{evaluation_loss, read, Game};
    use clap::Parser;
    use tabula::rng::Rng;
    use tabula_board::testing::random_game;
    use tabula_xiangqi::engine::eval::evaluate;
    use tabula_xiangqi::engine::nnue::{KingLayout, Network, PALACE};
    use tabula_xiangqi::{Color, Position};

    /// A xiangqi command line.
    #[derive(Parser)]
    struct Line {
        #[command(subcommand)]
        command: Command,
    }

    /// Runs the command line `words` (after `xiangqi`).
    fn run_line(words: &[&str]) {
        run(Line::try_parse_from(std::iter::once("xiangqi").chain(words.iter().copied())).unwrap().command).unwrap();
    }

    /// `nnue-fit` on 40 positions of random games, scored by the hand-written evaluation: two passes write a
    /// file that loads as a xiangqi network of the layout asked for, with a lower loss on the positions than
    /// the random weights they start from (the same weights, written after no pass).
    #[test]
    fn nnue_fit_trains_a_xiangqi_network_in_two_passes() {
        let dir = std::env::temp_dir().join(format!("tabula-lab-xiangqi-nnue-fit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
        let mut rng = Rng::new(21);
        let lines: Vec<String> = (0..40)
            .map(|_| {
                let choices: Vec<usize> = (0..rng.below(60)).map(|_| rng.next_u64() as usize).collect();
                let pos = random_game(Position::startpos(), &choices);
                let red = if pos.turn() == Color::Red { evaluate(&pos) } else { -evaluate(&pos) };
                let result = if red > 150 {
                    "1"
                } else if red < -150 {
                    "0"
                } else {
                    "0.5"
                };
                format!("{};{red};{result}", pos.to_fen())
            })
            .collect();
        let data = path("positions.txt");
        std::fs::write(&data, lines.join("\n") + "\n").unwrap();
        let (positions, fens) = read::<Xiangqi>(&data, 0.75, Xiangqi::SCALE, KingLayout::PLAIN, false).unwrap();
        assert_eq!(fens.len(), 40);
        let loss = |file: &str| {
            let net = Network::open(file).unwrap();
            evaluation_loss::<Xiangqi>(&fens, positions.targets(), Xiangqi::SCALE, &|pos| net.evaluate(pos))
        };
        for (kings, layout) in [("plain", KingLayout::PLAIN), ("palace", PALACE)] {
            let (start, trained) = (path(&format!("{kings}-0.tbnn")), path(&format!("{kings}-2.tbnn")));
            run_line(&["nnue-fit", &data, &start, "--epochs", "0", "--kings", kings]);
            run_line(&["nnue-fit", &data, &trained, "--epochs", "2", "--kings", kings]);
            let net = Network::open(&trained).unwrap();
            assert_eq!((net.kings(), net.scale()), (&layout, 100));
            let (before, after) = (loss(&start), loss(&trained));
            assert!(after < before, "{kings}: loss {after} after two passes, {before} before");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
