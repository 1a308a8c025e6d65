//! Go: the move predictor's fit and accuracy ([`predictor`]), playout speed ([`playouts`]) and matches against
//! GNU Go ([`vs_gnugo`]).
//!
//! ```text
//! cargo run --release -p tabula-lab -- go predictor fit OUT FILES... [--passes N] [--min-shape N] [--min-large N]
//!     [--hold-out X] [--skip N]
//! cargo run --release -p tabula-lab -- go predictor accuracy STRENGTHS FILES... [--skip N]
//! cargo run --release -p tabula-lab -- go playouts [SECONDS] [--count N]
//! cargo run --release -p tabula-lab -- go vs-gnugo [--games N] [--level L] [--time S] [--playouts N] ...
//! ```

mod playouts;
mod predictor;
mod vs_gnugo;

/// The Go tools.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Fits the move predictor's strengths to game records, or measures a predictor on records.
    Predictor {
        #[command(subcommand)]
        command: predictor::Command,
    },
    /// Playouts per second from the empty board, one thread.
    Playouts(playouts::Args),
    /// Plays the Monte Carlo tree search against GNU Go on 9×9, colours alternating.
    VsGnugo(vs_gnugo::Args),
}

/// Runs `command`.
pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Predictor { command } => predictor::run(command),
        Command::Playouts(args) => {
            playouts::run(&args);
            Ok(())
        }
        Command::VsGnugo(args) => {
            vs_gnugo::run(&args);
            Ok(())
        }
    }
}
