//! Connect Four: solving a set of positions and measuring the solver on it ([`solve_set`]).
//!
//! ```text
//! cargo run --release -p tabula-lab -- connect4 solve-set FILE [MIB] [LIMIT] [THREADS]
//! ```

mod solve_set;

/// The Connect Four tools.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Solves a file of positions and prints the mean time and nodes per position.
    SolveSet(solve_set::Args),
}

/// Runs `command`.
pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::SolveSet(args) => solve_set::run(&args),
    }
}
