//! Gomoku: the evaluation's data and fit ([`tune`]), balanced openings for matches ([`openings`]) and the
//! engine's speed ([`bench`](mod@bench)).
//!
//! ```text
//! cargo run --release -p tabula-lab -- gomoku tune COMMAND ...
//! cargo run --release -p tabula-lab -- gomoku openings [count] [stones] [rule] [size] [ms] [seed]
//! cargo run --release -p tabula-lab -- gomoku bench
//! ```

mod bench;
mod openings;
mod tune;

/// The Gomoku tools.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Data and fitting for the Gomoku evaluation.
    Tune {
        #[command(subcommand)]
        command: tune::Command,
    },
    /// Prints balanced openings: random stones near the centre that the engine scores near zero.
    Openings(openings::Args),
    /// The engine's speed: deterministic searches with their node counts and nodes per second.
    Bench(bench::Args),
}

/// Runs `command`.
pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Tune { command } => tune::run(command),
        Command::Openings(args) => openings::run(&args),
        Command::Bench(args) => bench::run(&args),
    }
}
