//! `tune`: fits the Gomoku evaluation's weights to a stronger engine's judgement, and finds where games are
//! lost by that engine's judgement:
//!
//! ```text
//! cargo run --release -p tabula-lab -- gomoku tune COMMAND ...
//!
//! gomoku tune gen OUT [--games N] [--ms MS] [--seed S] [--rule R] [--threads N]
//! gomoku tune label IN OUT --engine CMD [--ms MS] [--rule R] [--threads N]
//! gomoku tune hand OUT
//! gomoku tune order LABELLED OUT [--epochs N] [--rate R] [--l2 X] [--rule R]
//! gomoku tune fit LABELLED OUT [--start WEIGHTS] [--epochs N] [--rate R] [--l2 X] [--share X] [--no-mates] [--rule R]
//! gomoku tune review GAMES --player NAME --engine CMD [--ms MS] [--opening N] [--lost] [--rule R] [--threads N]
//! gomoku tune probe GAMES --player NAME --colour C --engine CMD... --judge CMD [--ms MS] [--judge-ms MS]
//!     [--judge-scale X] [--info K:KEY=VALUE...] [--first N] [--opening N] [--lost] [--rule R] [--threads N]
//! ```
//!
//! `gomoku tune help COMMAND` gives each command's options and defaults; each command's module says what it
//! reads and writes. The weights come from three steps, `gen`, `label` and `fit` (`hand` writes the weights the
//! first fit started from), a fitted move order from `gen`, `label` and `order`; `review` and `probe` find
//! where games are lost.
//!
//! Every command works on 15×15 boards under one rule, `--rule` (freestyle, standard or renju; freestyle by
//! default): a data file does not say its rule, so each step of one data set is given the same.
//!
//! What the commands share is in one place each: an outside Gomocup engine asked for its move and value
//! ([`gomocup`]), and the games of a `tabula match` record ([`records`]).

mod fit;
mod gen;
pub(crate) mod gomocup;
mod hand;
mod label;
mod order;
mod probe;
mod records;
mod review;

/// The data and fitting tools of the Gomoku evaluation.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Self-play positions with the game's result: `moves;result`.
    Gen(gen::Args),
    /// Appends an outside engine's evaluation to each `moves;result` line.
    Label(label::Args),
    /// Reviews one player's moves in a `tabula match` record by an outside engine's values.
    Review(review::Args),
    /// Compares engines' choices in one player's early positions of a record by an outside engine's values.
    Probe(probe::Args),
    /// Writes the hand-set weights the first fit started from.
    Hand(hand::Args),
    /// Fits the weights to `moves;result;value` lines and writes the weights file.
    Fit(fit::Args),
    /// Fits the move order to the outside engine's moves of `moves;result;value;move` lines.
    Order(order::Args),
}

/// Runs `command`.
pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Gen(args) => gen::run(&args),
        Command::Label(args) => label::run(&args),
        Command::Review(args) => review::run(&args),
        Command::Probe(args) => probe::run(args),
        Command::Hand(args) => hand::run(&args),
        Command::Fit(args) => fit::run(&args),
        Command::Order(args) => order::run(&args),
    }
}
