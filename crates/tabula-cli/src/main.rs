//! `tabula`: play, analyze, solve, benchmark and check the keys of Tabula's games. Every game-generic command
//! maps its arguments onto [`tabula_protocol::terminal`] over the game's [`Front`]; this file only chooses the
//! game type.

mod bench;
mod matches;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tabula::search::Limits;
use tabula_protocol::front::{Charset, EngineConfig, Front, Setup, Solve};
use tabula_protocol::terminal::{self, Side, SolveKind};

#[derive(Parser)]
#[command(name = "tabula", version, about = "Zobrist hashing, transposition tables and alpha-beta search, for games")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Every game the command line knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum GameName {
    /// Tic-tac-toe.
    Tictactoe,
    /// Connect Four, 7×6.
    Connect4,
    /// Chess.
    Chess,
    /// Gomoku (five in a row): freestyle, standard or renju.
    Gomoku,
    /// Go, with area scoring and positional superko.
    Go,
    /// Xiangqi (Chinese chess).
    Xiangqi,
}

/// The games small enough to solve exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SolvableGame {
    /// Tic-tac-toe.
    Tictactoe,
    /// Connect Four, 7×6 (values in Pons's convention).
    Connect4,
}

/// Runs `$body` with `$G` the type of the game `$name` names.
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr) => {
        match $name {
            GameName::Tictactoe => {
                type $G = tabula_tictactoe::TicTacToe;
                $body
            }
            GameName::Connect4 => {
                type $G = tabula_connect4::Standard;
                $body
            }
            GameName::Chess => {
                type $G = tabula_chess::Position;
                $body
            }
            GameName::Gomoku => {
                type $G = tabula_gomoku::Board;
                $body
            }
            GameName::Go => {
                type $G = tabula_go::Position;
                $body
            }
            GameName::Xiangqi => {
                type $G = tabula_xiangqi::Position;
                $body
            }
        }
    };
}

/// Runs `$body` with `$G` the type of the solvable game `$name` names.
macro_rules! with_solvable {
    ($name:expr, $G:ident => $body:expr) => {
        match $name {
            SolvableGame::Tictactoe => {
                type $G = tabula_tictactoe::TicTacToe;
                $body
            }
            SolvableGame::Connect4 => {
                type $G = tabula_connect4::Standard;
                $body
            }
        }
    };
}

/// The variant: settings a game does not have are refused.
#[derive(Clone, Debug, clap::Args)]
struct SetupArgs {
    /// Board size (Gomoku: 15 by default; Go: 9).
    #[arg(long)]
    size: Option<usize>,
    /// Gomoku's rule: freestyle (the default), standard or renju.
    #[arg(long)]
    rule: Option<String>,
    /// Go's komi (7 by default).
    #[arg(long)]
    komi: Option<f64>,
}

impl SetupArgs {
    fn setup(&self) -> Setup {
        Setup { size: self.size, rule: self.rule.clone(), komi: self.komi }
    }
}

/// How hard the engine thinks.
#[derive(Clone, Debug, clap::Args)]
struct EngineArgs {
    /// Deepest iteration, in plies.
    #[arg(long)]
    depth: Option<u32>,
    /// Time per move, in seconds.
    #[arg(long, alias = "move-time")]
    time: Option<f64>,
    /// Node budget per move (playouts for Go).
    #[arg(long, alias = "playouts")]
    nodes: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Search without the transposition table (to see what it saves).
    #[arg(long)]
    no_table: bool,
}

impl EngineArgs {
    fn config(&self) -> EngineConfig {
        EngineConfig { hash_mib: self.hash, threads: self.threads.max(1), table: !self.no_table }
    }

    /// The limits given, or the game's default when none is.
    fn limits<G: Front>(&self) -> Result<Limits> {
        let mut limits = Limits { depth: self.depth, nodes: self.nodes, ..Limits::default() };
        if let Some(t) = self.time {
            anyhow::ensure!(t.is_finite() && t > 0.0, "--time must be a positive number of seconds, not {t}");
            let t = Duration::from_secs_f64(t);
            limits = limits.with_time(t, t);
        }
        Ok(if limits.depth.is_none() && limits.nodes.is_none() && limits.hard_time.is_none() {
            G::default_limits()
        } else {
            limits
        })
    }
}

/// The characters boards are drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum CharsetChoice {
    /// Unicode when standard output is a terminal and the locale (`LC_ALL`, `LC_CTYPE` or `LANG`) is UTF-8,
    /// ASCII otherwise.
    Auto,
    /// Unicode: xiangqi's pieces as Chinese characters.
    Unicode,
    /// ASCII: pieces as letters.
    Ascii,
}

/// How the board is drawn.
#[derive(Clone, Debug, clap::Args)]
struct DrawArgs {
    /// The characters boards are drawn with.
    #[arg(long, value_enum, default_value_t = CharsetChoice::Auto, env = "TABULA_CHARSET")]
    charset: CharsetChoice,
}

impl DrawArgs {
    fn charset(&self) -> Charset {
        match self.charset {
            CharsetChoice::Auto => Charset::detect(std::io::stdout().is_terminal(), |name| std::env::var(name).ok()),
            CharsetChoice::Unicode => Charset::Unicode,
            CharsetChoice::Ascii => Charset::Ascii,
        }
    }
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Player {
    /// Moves typed at the terminal.
    Human,
    /// The engine.
    Engine,
}

impl From<Player> for Side {
    fn from(p: Player) -> Side {
        match p {
            Player::Human => Side::Human,
            Player::Engine => Side::Engine,
        }
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
        engine: EngineArgs,
        #[command(flatten)]
        setup: SetupArgs,
        #[command(flatten)]
        draw: DrawArgs,
    },
    /// Analyze a position: best move, score, principal variation, nodes, table use, time.
    Analyze {
        /// The game.
        game: GameName,
        /// The position: tic-tac-toe cells played (`519`) or a board (`o...x...x`); Connect Four columns played
        /// (`4453`); a chess or xiangqi FEN; Gomoku moves (`h8 i9`); Go moves (`d4 e5`) or SGF. A file holding it is
        /// read.
        #[arg(default_value = "")]
        position: String,
        /// Solve exactly: every move's value (games small enough: tictactoe, connect4).
        #[arg(long)]
        solve: bool,
        #[command(flatten)]
        engine: EngineArgs,
        #[command(flatten)]
        setup: SetupArgs,
        #[command(flatten)]
        draw: DrawArgs,
    },
    /// Solve positions read one per line (from FILE or standard input): `position value`.
    Solve {
        /// The game.
        game: SolvableGame,
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
        game: GameName,
    },
    /// The Zobrist key of a position (chess: the Polyglot key).
    Hash {
        /// The game.
        game: GameName,
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
        #[arg(long, value_enum, default_value_t = GameName::Chess)]
        game: GameName,
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
        /// The game: chess or xiangqi.
        #[arg(long, value_enum, default_value_t = UciGame::Chess)]
        game: UciGame,
    },
    /// Speak the Universal Chinese Chess Interface (xiangqi, as ElephantEye speaks it) on standard input and
    /// output.
    Ucci,
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

/// The position text: the argument, or the contents of the file it names (SGF games, FEN files).
fn position_text(arg: &str) -> Result<String> {
    let path = Path::new(arg);
    if !arg.is_empty() && path.is_file() {
        Ok(tabula_protocol::lines::read_text_file(path)?)
    } else {
        Ok(arg.to_string())
    }
}

fn position<G: Front>(arg: &str, setup: &SetupArgs) -> Result<G> {
    let setup = setup.setup();
    Ok(if arg.trim().is_empty() { G::start(&setup)? } else { G::parse_position(&position_text(arg)?, &setup)? })
}

fn run(cli: Cli) -> Result<()> {
    // Not locked here: the protocol sessions below write from their engine threads.
    let stdout = &mut std::io::stdout();
    match cli.command {
        Command::Play { game, first, second, position: start, engine, setup, draw } => with_game!(game, G => {
            let game = position::<G>(start.as_deref().unwrap_or(""), &setup)?;
            let mut thinker = G::engine(&engine.config());
            let limits = engine.limits::<G>()?;
            let sides = [first.into(), second.into()];
            terminal::play(game, sides, &mut thinker, &limits, draw.charset(), std::io::stdin(), stdout)?;
            Ok(())
        }),
        Command::Analyze { game: name, position: text, solve, engine, setup, draw } => with_game!(name, G => {
            let game = position::<G>(&text, &setup)?;
            if solve {
                return analyze_solved(name, &text, &engine, &setup, draw.charset());
            }
            let mut thinker = G::engine(&engine.config());
            Ok(terminal::analyze(&game, &mut thinker, &engine.limits::<G>()?, draw.charset(), stdout)?)
        }),
        Command::Solve { game, file, weak, stats, hash, threads } => {
            let config = EngineConfig { hash_mib: hash, threads: threads.max(1), table: true };
            with_solvable!(game, G => solve::<G>(file.as_deref(), weak, stats, &config))
        }
        Command::Hash { game, position: text, setup } => with_game!(game, G => {
            println!("{}", position::<G>(&text, &setup)?.key_text());
            Ok(())
        }),
        Command::Perft { position: text, depth, game, divide, hash, setup } => with_game!(game, G => {
            perft(&position::<G>(&text, &setup)?, depth, divide, hash)
        }),
        Command::Keys { game } => {
            let report = with_game!(game, G => G::key_quality());
            println!("{report}");
            anyhow::ensure!(report.is_sound(), "the key set has defects");
            Ok(())
        }
        Command::Bench { hash } => bench::run(hash),
        Command::Gtp { threads, playouts, move_time } => gtp(threads, playouts, move_time),
        Command::Uci { game: UciGame::Chess } => Ok(tabula_chess::engine::uci::run_stdio()?),
        Command::Uci { game: UciGame::Xiangqi } => Ok(tabula_xiangqi::engine::uci::run_stdio()?),
        Command::Ucci => Ok(tabula_xiangqi::engine::ucci::run_stdio()?),
        Command::Serve { port, host, open } => serve(std::net::SocketAddr::new(host, port), open),
        Command::Book { file, fen } => {
            let book = tabula_chess::book::Book::open(&file)?;
            let lines = book.describe(&position::<tabula_chess::Position>(&fen, &SetupArgs::none())?);
            if lines.is_empty() {
                println!("no book moves");
            }
            lines.iter().for_each(|line| println!("{line}"));
            Ok(())
        }
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
    }
}

impl SetupArgs {
    fn none() -> SetupArgs {
        SetupArgs { size: None, rule: None, komi: None }
    }
}

/// `analyze --solve`: every move's exact value, for the games small enough.
fn analyze_solved(name: GameName, text: &str, engine: &EngineArgs, setup: &SetupArgs, charset: Charset) -> Result<()> {
    let out = &mut std::io::stdout().lock();
    let config = engine.config();
    match name {
        GameName::Tictactoe => solve_moves::<tabula_tictactoe::TicTacToe>(text, &config, setup, charset, out),
        GameName::Connect4 => solve_moves::<tabula_connect4::Standard>(text, &config, setup, charset, out),
        other => anyhow::bail!("{other:?} is too big to solve; analyze it with a limit instead"),
    }
}

fn solve_moves<G: Solve>(
    text: &str,
    config: &EngineConfig,
    setup: &SetupArgs,
    charset: Charset,
    out: &mut impl std::io::Write,
) -> Result<()> {
    let game = position::<G>(text, setup)?;
    Ok(terminal::analyze_solved(&game, &mut G::solver(config), charset, out)?)
}

/// A progress bar on standard error when it is a terminal, hidden otherwise.
fn progress_bar(len: u64, template: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(ProgressStyle::with_template(template).expect("valid template"));
    bar
}

/// Solves positions one per line. A bad line is reported on standard error with its number and the reason,
/// and the rest go on; the exit status is non-zero if any line was bad.
fn solve<G: Solve>(file: Option<&Path>, weak: bool, stats: bool, config: &EngineConfig) -> Result<()> {
    let mut solver = G::solver(config);
    let out = &mut std::io::stdout().lock();
    let setup = Setup::default();
    let kind = SolveKind { weak, stats };
    let bad = match file {
        Some(path) => {
            let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let lines = bytes.split(|&b| b == b'\n').filter(|l| !l.trim_ascii().is_empty()).count() as u64;
            let bar = progress_bar(lines, "{bar:40} {pos}/{len} positions, {per_sec}, eta {eta}");
            let report = |e: String| bar.suspend(|| eprintln!("{e}"));
            let bad = terminal::solve_lines::<G>(&bytes[..], &setup, kind, &mut solver, out, report, || bar.inc(1))?;
            bar.finish_and_clear();
            bad
        }
        None => {
            let input = std::io::stdin().lock();
            terminal::solve_lines::<G>(input, &setup, kind, &mut solver, out, |e| eprintln!("{e}"), || {})?
        }
    };
    anyhow::ensure!(bad == 0, "{bad} line(s) could not be solved");
    Ok(())
}

/// Perft, root move by root move (for `--divide` and a progress bar on a terminal).
fn perft<G: Front>(game: &G, depth: u32, divide: bool, hash: Option<usize>) -> Result<()> {
    let start = Instant::now();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let bar = if depth >= 5 {
        progress_bar(moves.len() as u64, "{bar:40} {pos}/{len} root moves, {elapsed}")
    } else {
        ProgressBar::hidden()
    };
    let count = terminal::perft_divide(game, depth, hash, |mv, n| {
        bar.inc(1);
        if divide {
            bar.suspend(|| println!("{mv}: {n}"));
        }
    });
    bar.finish_and_clear();
    if divide {
        println!();
    }
    let secs = start.elapsed().as_secs_f64();
    println!("nodes {}", count.total);
    eprintln!("time {secs:.3}s, {:.0} nodes/s", count.total as f64 / secs.max(1e-9));
    Ok(())
}

/// The games the web page offers, with the settings it lets the user choose (the first is the default).
fn web_catalog() -> tabula_web::Catalog {
    tabula_web::Catalog::new()
        .with::<tabula_tictactoe::TicTacToe>(&[])
        .with::<tabula_connect4::Standard>(&[])
        .with::<tabula_chess::Position>(&[])
        .with::<tabula_gomoku::Board>(&[("size", &["15", "19", "9"]), ("rule", &["freestyle", "standard", "renju"])])
        .with::<tabula_go::Position>(&[("size", &["9", "13", "19"]), ("komi", &["7", "6.5", "0.5"])])
        .with::<tabula_xiangqi::Position>(&[])
}

/// `tabula serve`: the page until the process is interrupted.
fn serve(addr: std::net::SocketAddr, open: bool) -> Result<()> {
    tabula_web::run(addr, web_catalog(), tabula_web::Limits::default(), |bound| {
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

/// The Go engine over GTP on standard input and output.
fn gtp(threads: Option<usize>, playouts: Option<u64>, move_time: f64) -> Result<()> {
    use tabula_go::mcts::{Config, Mcts};
    anyhow::ensure!(
        move_time.is_finite() && move_time > 0.0,
        "--move-time must be a positive number of seconds, not {move_time}"
    );
    let defaults = Config::default();
    let config = Config {
        threads: threads.unwrap_or(defaults.threads).max(1),
        playouts,
        time_per_move: Duration::from_secs_f64(move_time),
        ..defaults
    };
    let mut session = tabula_go::GtpSession::with_picker(Mcts::new(config), tabula_go::Rules::default());
    Ok(tabula_go::gtp::run_stdio(&mut session)?)
}
