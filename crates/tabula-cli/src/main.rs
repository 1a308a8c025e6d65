//! `tabula`: play, analyze, solve, benchmark and check the keys of Tabula's games, speak their protocols and
//! serve the web page. This file maps the command line onto the [`registry`] of games, where each game
//! is named once and every verb comes from; the verbs themselves live in [`terminal_verbs`] and the libraries.

mod args;
mod bench;
mod cluster;
mod matches;
mod registry;
mod terminal_verbs;

use anyhow::{Context, Result};
use args::{GameArgs, Player, SetupArgs};
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Parser, Subcommand, ValueEnum};
use registry::{Entry, GtpSettings};
use std::path::PathBuf;
use tabula_protocol::front::EngineConfig;

#[derive(Parser)]
#[command(name = "tabula", version, about = "Zobrist hashing, transposition tables and alpha-beta search, for games")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The command line's choice of a game among the registry's, those that `offers` what the command needs.
fn game_names(offers: fn(&Entry) -> bool) -> PossibleValuesParser {
    let games = registry::games().into_iter().filter(offers);
    PossibleValuesParser::new(games.map(|e| PossibleValue::new(e.name).help(e.about)))
}

/// Every game.
fn any(_: &Entry) -> bool {
    true
}

#[derive(Subcommand)]
enum Command {
    /// Play in the terminal: human against engine, or engine against engine.
    Play {
        /// The game.
        #[arg(value_parser = game_names(any))]
        game: String,
        /// Who plays the side that moves first.
        #[arg(long, value_enum, default_value_t = Player::Human)]
        first: Player,
        /// Who plays the other side.
        #[arg(long, value_enum, default_value_t = Player::Engine)]
        second: Player,
        /// Start from this position (as `analyze` reads it) instead of the initial one.
        #[arg(long)]
        position: Option<String>,
        #[command(flatten)]
        args: GameArgs,
    },
    /// Analyze a position: best move, score, principal variation, nodes, table use, time.
    Analyze {
        /// The game.
        #[arg(value_parser = game_names(any))]
        game: String,
        /// The position: tic-tac-toe cells played (`519`) or a board (`o...x...x`); Connect Four columns played
        /// (`4453`); a chess or xiangqi FEN; Gomoku moves (`h8 i9`); Go moves (`d4 e5`) or SGF. A file holding it is
        /// read.
        #[arg(default_value = "")]
        position: String,
        /// Solve exactly: every move's value (games small enough: tictactoe, connect4).
        #[arg(long)]
        solve: bool,
        #[command(flatten)]
        args: GameArgs,
    },
    /// Solve positions read one per line (from FILE or standard input): `position value`.
    Solve {
        /// The game.
        #[arg(value_parser = game_names(Entry::is_solvable))]
        game: String,
        /// Positions file; standard input if absent.
        file: Option<PathBuf>,
        /// Win / draw / loss only (1, 0, -1).
        #[arg(long)]
        weak: bool,
        /// Append nodes and microseconds to each line.
        #[arg(long)]
        stats: bool,
        /// Transposition table size in MiB. A small table that stays in the processor's caches solves
        /// Connect Four positions of eight stones or more fastest; give positions with fewer stones more.
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
        #[arg(value_parser = game_names(any))]
        game: String,
    },
    /// The Zobrist key of a position (chess: the Polyglot key).
    Hash {
        /// The game.
        #[arg(value_parser = game_names(any))]
        game: String,
        /// The position (as `analyze` reads it).
        position: String,
        #[command(flatten)]
        setup: SetupArgs,
    },
    /// Count the leaves of the move tree from a position to a depth (chess by default).
    Perft {
        /// The position (`startpos` for chess's initial position).
        position: String,
        /// Depth in plies.
        depth: u32,
        /// The game.
        #[arg(long, default_value = "chess", value_parser = game_names(any))]
        game: String,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Count through a transposition table of this many MiB keyed by the Zobrist key.
        #[arg(long)]
        hash: Option<usize>,
        #[command(flatten)]
        setup: SetupArgs,
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
        /// The game (one whose engine speaks UCI).
        #[arg(long, default_value = "chess", value_parser = game_names(any))]
        game: String,
    },
    /// Speak the Universal Chinese Chess Interface (xiangqi, as ElephantEye speaks it) on standard input and
    /// output.
    Ucci {
        /// The game (one whose engine speaks UCCI).
        #[arg(long, default_value = "xiangqi", value_parser = game_names(any))]
        game: String,
    },
    /// Speak the Gomocup (Piskvork) protocol on standard input and output; `pbrain-tabula` is the same engine
    /// under the name Piskvork's manager asks for.
    Gomocup {
        /// The game (one whose engine speaks the Gomocup protocol).
        #[arg(long, default_value = "gomoku", value_parser = game_names(any))]
        game: String,
    },
    /// Serve a web page to play every game and watch the keys and the table at work.
    Serve {
        /// The port (0: any free one).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The address to listen on; other machines reach the page only if this is not a loopback address.
        #[arg(long, default_value = "127.0.0.1")]
        host: std::net::IpAddr,
        /// Open the page in the default browser.
        #[arg(long)]
        open: bool,
    },
    /// List a position's moves in a Polyglot opening book, with their weights.
    Book {
        /// The book (`.bin`).
        file: PathBuf,
        /// The position as FEN (`startpos` for the initial position).
        fen: String,
    },
    /// Play a match between two engines (UCI, GTP or Gomocup), refereed by Tabula's rules, with Elo and SPRT.
    Match {
        /// The game.
        #[arg(long, value_parser = game_names(Entry::has_referee))]
        game: String,
        #[command(flatten)]
        args: Box<matches::MatchArgs>,
    },
    /// Lattice kinetic Monte Carlo with Zobrist state recall.
    Kmc {
        #[command(subcommand)]
        action: KmcAction,
    },
    /// Long jobs (matches, KMC ensembles, training data) as shards of a Slurm job array: submit, follow,
    /// status, merge, cancel.
    Cluster {
        #[command(subcommand)]
        action: cluster::ClusterAction,
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
    /// Run an ensemble study (configurations × temperatures × seeds, a trajectory each) and write its table of
    /// means with their errors and its plot; with --shard, one trajectory as a shard of a cluster job.
    Study {
        /// The study file (TOML: configs, temperatures, seeds, steps, mode).
        study: PathBuf,
        /// Where the table (table.txt), the trajectories (trajectories.txt) and the plot (ensemble.svg) go.
        #[arg(long, short, default_value = "kmc-study")]
        output: PathBuf,
        #[command(flatten)]
        shard: tabula_cluster::shard::ShardArgs,
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
        eprintln!("error: {}", report(&e));
        std::process::exit(1);
    }
}

/// An error and its causes in one line, each cause once: a cause whose text its error's message already
/// holds (`cannot read FILE: REASON`, where REASON is the cause) is not repeated.
fn report(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain().map(ToString::to_string) {
        if line.is_empty() {
            line = cause;
        } else if !line.contains(&cause) {
            line = format!("{line}: {cause}");
        }
    }
    line
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Play { game, first, second, position, args } => {
            let sides = [first.into(), second.into()];
            registry::find(&game)?.verbs().play(position.as_deref().unwrap_or(""), sides, &args)
        }
        Command::Analyze { game, position, solve: true, args } => {
            registry::find(&game)?.solver()?.analyze(&position, &args)
        }
        Command::Analyze { game, position, solve: false, args } => {
            registry::find(&game)?.verbs().analyze(&position, &args)
        }
        Command::Solve { game, file, weak, stats, hash, threads } => {
            let config = EngineConfig { hash_mib: hash, threads: threads.max(1), table: true };
            registry::find(&game)?.solver()?.solve(file.as_deref(), weak, stats, &config)
        }
        Command::Hash { game, position, setup } => {
            println!("{}", registry::find(&game)?.verbs().hash(&position, &setup)?);
            Ok(())
        }
        Command::Perft { position, depth, game, divide, hash, setup } => {
            registry::find(&game)?.verbs().perft(&position, depth, divide, hash, &setup)
        }
        Command::Keys { game } => {
            let report = registry::find(&game)?.verbs().keys();
            println!("{report}");
            anyhow::ensure!(report.is_sound(), "the key set has defects");
            Ok(())
        }
        Command::Bench { hash } => bench::print(registry::games().iter().map(|entry| entry.bench(hash))),
        Command::Gtp { threads, playouts, move_time } => {
            registry::find("go")?.gtp()?(&GtpSettings { threads, playouts, move_time })
        }
        Command::Uci { game } => Ok(registry::find(&game)?.uci()?()?),
        Command::Ucci { game } => Ok(registry::find(&game)?.ucci()?()?),
        Command::Gomocup { game } => Ok(registry::find(&game)?.gomocup()?()?),
        Command::Serve { port, host, open } => serve(std::net::SocketAddr::new(host, port), open),
        Command::Book { file, fen } => {
            let book = tabula_chess::book::Book::open(&file)?;
            let position = terminal_verbs::position::<tabula_chess::Position>(&fen, &SetupArgs::none())?;
            let lines = book.describe(&position);
            if lines.is_empty() {
                println!("no book moves");
            }
            lines.iter().for_each(|line| println!("{line}"));
            Ok(())
        }
        Command::Match { game, args } => registry::find(&game)?.referee()?(&args),
        Command::Kmc { action } => kmc(action),
        Command::Cluster { action } => cluster::run(action),
    }
}

/// `tabula kmc`.
fn kmc(action: KmcAction) -> Result<()> {
    match action {
        KmcAction::Example => {
            print!("{}", tabula_kmc::example_config());
            Ok(())
        }
        KmcAction::Energy { potential, style, structure } => {
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
        KmcAction::Potential { name } => {
            let potential = match name {
                PotentialName::FeCu => tabula_kmc::analytic::ackland_fe_cu(),
                PotentialName::ZhouFeCu => tabula_kmc::analytic::zhou_2004(&["Fe", "Cu"], 5.6, 2000, 2000)?,
            };
            print!("{}", potential.to_file_text());
            Ok(())
        }
        KmcAction::Study { study, output, shard } => cluster::kmc_study(&study, &output, &shard),
        KmcAction::Run { config, output } => {
            let text = tabula_protocol::lines::read_text_file(&config)?;
            let config = tabula_kmc::Config::from_toml(&text).with_context(|| format!("in {}", config.display()))?;
            let progress = std::io::IsTerminal::is_terminal(&std::io::stderr());
            let summary = tabula_kmc::run(&config, &output, progress)?;
            println!("{summary}");
            Ok(())
        }
    }
}

/// `tabula serve`: the page until the process is interrupted.
fn serve(addr: std::net::SocketAddr, open: bool) -> Result<()> {
    tabula_web::run(addr, registry::web_catalog(), tabula_web::Limits::default(), |bound| {
        let url = format!("http://{bound}/");
        println!("Tabula is served at {url} (Ctrl-C to stop)");
        if open {
            if let Err(e) = open::that_detached(&url) {
                eprintln!("could not open a browser: {e}");
            }
        }
    })
    .with_context(|| format!("cannot serve on {addr}"))
}
