//! Kinetic Monte Carlo: the state recall experiment ([`recall`]). A config's run is the `tabula kmc run` verb.
//!
//! ```text
//! cargo run --release -p tabula-lab -- kmc recall [--energy eam|pair] [--steps N] [--size N] ...
//! ```

mod recall;

/// The kinetic Monte Carlo tools.
#[derive(clap::Subcommand)]
pub enum Command {
    /// The experiment of Mason, Hudson & Sutton (2005): the same trajectories with state recall on and off.
    Recall(recall::Args),
}

/// Runs `command`.
pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Recall(args) => recall::run(&args),
    }
}
