//! `tabula`: play, analyze, solve, benchmark and check the keys of Tabula's games.

mod bench;
mod chess;
mod engine;
mod games;
mod go;
mod gomoku;
mod matches;
mod play;
mod solve;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use engine::EngineArgs;
use games::CliGame;
use std::path::PathBuf;
use tabula_connect4::Standard;
use tabula_tictactoe::TicTacToe;

#[derive(Parser)]
#[command(name = "tabula", version, about = "Zobrist hashing, transposition tables and alpha-beta search, for games")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum GameName {
    /// Tic-tac-toe.
    Tictactoe,
    /// Connect Four, 7×6.
    Connect4,
    /// Chess (Polyglot keys).
    Chess,
    /// Go (keys for boards up to 25×25).
    Go,
    /// Gomoku (five in a row).
    Gomoku,
}

/// Gomoku's rule and board size.
#[derive(Clone, Debug, clap::Args)]
struct GomokuArgs {
    /// Gomoku rule: freestyle, standard or renju.
    #[arg(long, default_value = "freestyle")]
    rule: String,
    /// Board size (Gomoku: 15 by default; Go: 9).
    #[arg(long)]
    size: Option<usize>,
}

impl GomokuArgs {
    fn rule(&self) -> Result<tabula_gomoku::Rule> {
        self.rule.parse().map_err(|e| anyhow::anyhow!("bad rule `{}`: {e}", self.rule))
    }
}

/// The games `tabula uci` speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum UciGame {
    /// Chess.
    Chess,
    /// Xiangqi (Chinese chess), moves in ICCS coordinates.
    Xiangqi,
}

#[derive(Subcommand)]
enum Command {
    /// Play in the terminal: human against engine, or engine against engine.
    Play {
        /// The game.
        game: GameName,
        /// Who plays the first side.
        #[arg(long, value_enum, default_value_t = play::Player::Human)]
        first: play::Player,
        /// Who plays the second side.
        #[arg(long, value_enum, default_value_t = play::Player::Engine)]
        second: play::Player,
        /// Start from this position instead of the initial one.
        #[arg(long)]
        position: Option<String>,
        #[command(flatten)]
        engine: EngineArgs,
        #[command(flatten)]
        gomoku: GomokuArgs,
        #[command(flatten)]
        go: go::GoArgs,
    },
    /// Analyze a position: best move, score, principal variation, nodes, table hit rate, time.
    Analyze {
        /// The game.
        game: GameName,
        /// The position: tic-tac-toe cells played (`519`) or a board (`o...x...x`); Connect Four columns played
        /// (`4453`); Gomoku moves (`h8 i9` or `7,7 8,8`); Go: an SGF file.
        #[arg(default_value = "")]
        position: String,
        /// Connect Four: solve each column exactly instead of a limited search.
        #[arg(long)]
        solve: bool,
        #[command(flatten)]
        engine: EngineArgs,
        #[command(flatten)]
        gomoku: GomokuArgs,
        #[command(flatten)]
        go: go::GoArgs,
    },
    /// Solve Connect Four positions read one per line (from FILE or standard input): `position score`.
    Solve {
        /// The game (only connect4).
        game: solve::SolveGame,
        /// Positions file; standard input if absent.
        file: Option<PathBuf>,
        /// Win / draw / loss only (1, 0, -1).
        #[arg(long)]
        weak: bool,
        /// Append nodes and microseconds to each line.
        #[arg(long)]
        stats: bool,
        /// Transposition table size in MiB. A small table that stays in the processor's caches solves
        /// positions of eight stones or more fastest; give positions with fewer stones more.
        #[arg(long, default_value_t = 2)]
        hash: usize,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// A fixed set of searches: prints a deterministic node count and the speed.
    Bench {
        /// Transposition table size in MiB for each search.
        #[arg(long, default_value_t = 16)]
        hash: usize,
    },
    /// Key-quality report of a game's Zobrist keys.
    Keys {
        /// The game.
        game: GameName,
    },
    /// The Zobrist key of a position.
    Hash {
        /// The game (only chess).
        game: chess::HashGame,
        /// The position as FEN.
        fen: String,
    },
    /// Count the leaf nodes of the chess move tree from a position (FEN) to a depth.
    Perft {
        /// The position as FEN (`startpos` for the initial position).
        fen: String,
        /// Depth in plies.
        depth: u32,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Count through a transposition table of this many MiB keyed by the Zobrist key.
        #[arg(long)]
        hash: Option<usize>,
    },
    /// Speak the Go Text Protocol (version 2) on standard input and output.
    Gtp {
        /// Search threads (all cores by default).
        #[arg(long)]
        threads: Option<usize>,
        /// A fixed number of playouts per move, whatever the clock says (reproducible with one thread).
        #[arg(long)]
        playouts: Option<u64>,
        /// Seconds per move when the controller sends no time settings.
        #[arg(long = "move-time", default_value_t = 1.0)]
        move_time: f64,
    },
    /// Speak the Universal Chess Interface on standard input and output (xiangqi as Pikafish speaks it).
    Uci {
        /// The game: chess or xiangqi.
        #[arg(long, value_enum, default_value_t = UciGame::Chess)]
        game: UciGame,
    },
    /// Speak the Universal Chinese Chess Interface (xiangqi, as ElephantEye speaks it) on standard input and
    /// output.
    Ucci,
    /// List a position's moves in a Polyglot opening book, with their weights.
    Book {
        /// The book (`.bin`).
        file: PathBuf,
        /// The position as FEN (`startpos` for the initial position).
        fen: String,
    },
    /// Play a match between two engines (UCI, GTP or Gomocup), refereed by Tabula's rules, with Elo and SPRT.
    Match(matches::MatchArgs),
    /// Lattice kinetic Monte Carlo with Zobrist state recall.
    Kmc {
        #[command(subcommand)]
        action: KmcAction,
    },
}

#[derive(Subcommand)]
enum KmcAction {
    /// Print a commented example configuration (dilute bcc Fe–Cu with one vacancy; pair energies, and the EAM
    /// alternative).
    Example,
    /// Run a simulation from a TOML configuration.
    Run {
        /// The configuration file.
        config: PathBuf,
        /// Where frames (extended XYZ), the log (CSV), the plot and the summary go.
        #[arg(long, short, default_value = "kmc-out")]
        output: PathBuf,
    },
    /// Print the energy of an extended-XYZ structure (atoms on an sc, bcc or fcc lattice, a cubic cell) with an EAM
    /// potential file, as the KMC computes it: to compare with ASE or LAMMPS.
    Energy {
        /// A LAMMPS potential file: eam/alloy (*.eam.alloy), eam/fs (*.eam.fs) or funcfl (*.eam).
        #[arg(long)]
        potential: PathBuf,
        /// The file's style when its name does not say it: eam, eam/alloy or eam/fs.
        #[arg(long)]
        style: Option<String>,
        /// The structure (the first frame is read; `X` atoms are vacancies).
        structure: PathBuf,
    },
    /// Write a potential file tabulated from a published analytic form.
    Potential {
        /// `fe-cu`: Ackland et al. Fe and Cu Finnis–Sinclair (eam/fs), the recall experiment's;
        /// `zhou-fe-cu`: Zhou, Johnson & Wadley (2004) Fe and Cu EAM (eam/alloy).
        name: PotentialName,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PotentialName {
    /// Ackland et al. (1997, 1987) Fe–Cu Finnis–Sinclair, eam/fs.
    FeCu,
    /// Zhou, Johnson & Wadley (2004) Fe–Cu EAM, eam/alloy.
    ZhouFeCu,
}

fn main() {
    if let Err(e) = run(Cli::parse()) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Play { game, first, second, position, engine, gomoku, go } => match game {
            GameName::Go => go::play(first, second, gomoku.size.unwrap_or(9), &go, engine.threads),
            GameName::Gomoku => gomoku::play(gomoku.rule()?, gomoku.size.unwrap_or(15), first, second, &engine),
            GameName::Tictactoe => play::run::<TicTacToe>(first, second, position.as_deref(), &engine),
            GameName::Connect4 => play::run::<Standard>(first, second, position.as_deref(), &engine),
            GameName::Chess => anyhow::bail!("chess is played through a UCI graphical interface: `tabula uci`"),
        },
        Command::Analyze { game, position, solve, engine, gomoku, go } => match game {
            GameName::Go => go::analyze(std::path::Path::new(&position), &go, engine.threads),
            GameName::Gomoku => gomoku::analyze(gomoku.rule()?, gomoku.size.unwrap_or(15), &position, &engine),
            GameName::Tictactoe => play::analyze::<TicTacToe>(&position, &engine),
            GameName::Connect4 if solve => solve::analyze_columns(&position, engine.hash),
            GameName::Connect4 => play::analyze::<Standard>(&position, &engine),
            GameName::Chess => anyhow::bail!("analyze chess through `tabula uci` (`position fen ...`, `go depth N`)"),
        },
        Command::Hash { game: _, fen } => chess::hash(&fen),
        Command::Perft { fen, depth, divide, hash } => chess::perft(&fen, depth, divide, hash),
        Command::Gtp { threads, playouts, move_time } => gtp(threads, playouts, move_time),
        Command::Uci { game: UciGame::Chess } => Ok(tabula_chess::uci::run_stdio()?),
        Command::Uci { game: UciGame::Xiangqi } => Ok(tabula_xiangqi::uci::run_stdio()?),
        Command::Ucci => Ok(tabula_xiangqi::ucci::run_stdio()?),
        Command::Book { file, fen } => chess::book(&file, &fen),
        Command::Match(args) => matches::run(&args),
        Command::Kmc { action: KmcAction::Example } => {
            print!("{}", tabula_kmc::example_config());
            Ok(())
        }
        Command::Kmc { action: KmcAction::Energy { potential, style, structure } } => {
            let style = style.map(|s| s.parse()).transpose().map_err(anyhow::Error::msg)?;
            let potential = tabula_kmc::potential::EamPotential::read(&potential, style)?;
            let text =
                std::fs::read_to_string(&structure).with_context(|| format!("cannot read {}", structure.display()))?;
            let placed = tabula_kmc::structure::Structure::parse(&text)
                .and_then(|s| s.place())
                .with_context(|| format!("in {}", structure.display()))?;
            println!("{}", placed.energy(&potential)?);
            Ok(())
        }
        Command::Kmc { action: KmcAction::Potential { name } } => {
            let potential = match name {
                PotentialName::FeCu => tabula_kmc::analytic::ackland_fe_cu(),
                PotentialName::ZhouFeCu => tabula_kmc::analytic::zhou_2004(&["Fe", "Cu"], 5.6, 2000, 2000)?,
            };
            print!("{}", potential.to_file_text());
            Ok(())
        }
        Command::Kmc { action: KmcAction::Run { config, output } } => {
            let text = tabula_protocol::lines::read_text_file(&config)?;
            let config = tabula_kmc::Config::from_toml(&text).with_context(|| format!("in {}", config.display()))?;
            let progress = std::io::IsTerminal::is_terminal(&std::io::stderr());
            let summary = tabula_kmc::run(&config, &output, progress)?;
            println!("{summary}");
            Ok(())
        }
        Command::Solve { game: _, file, weak, stats, hash, threads } => {
            solve::run(file.as_deref(), weak, stats, hash, threads)
        }
        Command::Bench { hash } => bench::run(hash),
        Command::Keys { game } => {
            let report = match game {
                GameName::Tictactoe => tabula::quality::check(TicTacToe::keys()),
                GameName::Connect4 => tabula::quality::check(Standard::keys()),
                GameName::Chess => tabula::quality::check(tabula_chess::zobrist::POLYGLOT.as_slice()),
                GameName::Go => tabula::quality::check(tabula_go::board::KEYS.as_slice()),
                GameName::Gomoku => tabula::quality::check(tabula_gomoku::board::KEYS.as_slice()),
            };
            println!("{report}");
            if !report.is_sound() {
                anyhow::bail!("the key set has defects");
            }
            Ok(())
        }
    }
}

/// The Go engine over GTP on standard input and output.
fn gtp(threads: Option<usize>, playouts: Option<u64>, move_time: f64) -> Result<()> {
    use tabula_go::mcts::{Config, Mcts};
    if !(move_time.is_finite() && move_time > 0.0) {
        anyhow::bail!("--move-time must be a positive number of seconds, not {move_time}");
    }
    let defaults = Config::default();
    let config = Config {
        threads: threads.unwrap_or(defaults.threads).max(1),
        playouts,
        time_per_move: std::time::Duration::from_secs_f64(move_time),
        ..defaults
    };
    let mut session = tabula_go::GtpSession::with_picker(Mcts::new(config), tabula_go::Rules::default());
    Ok(tabula_go::gtp::run_stdio(&mut session)?)
}
