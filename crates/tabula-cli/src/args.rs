//! The arguments several commands share: the variant of a game, how hard its engine thinks, how a board is
//! drawn (the three together for playing and analyzing), who plays a side.

use anyhow::Result;
use clap::ValueEnum;
use std::io::IsTerminal;
use std::time::Duration;
use tabula::search::Limits;
use tabula_protocol::front::{Charset, EngineConfig, Front, Setup};
use tabula_protocol::terminal::Side;

/// The variant: settings a game does not have are refused.
#[derive(Clone, Debug, clap::Args)]
pub struct SetupArgs {
    /// Board size (Gomoku: 15 by default; Go: 9).
    #[arg(long)]
    pub size: Option<usize>,
    /// Gomoku's rule: freestyle (the default), standard or renju.
    #[arg(long)]
    pub rule: Option<String>,
    /// Go's komi (7 by default).
    #[arg(long)]
    pub komi: Option<f64>,
}

impl SetupArgs {
    pub fn setup(&self) -> Setup {
        Setup { size: self.size, rule: self.rule.clone(), komi: self.komi }
    }
}

/// How hard the engine thinks.
#[derive(Clone, Debug, clap::Args)]
pub struct EngineArgs {
    /// Deepest iteration, in plies.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Time per move, in seconds.
    #[arg(long, alias = "move-time")]
    pub time: Option<f64>,
    /// Node budget per move (playouts for Go).
    #[arg(long, alias = "playouts")]
    pub nodes: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Search without the transposition table (to see what it saves).
    #[arg(long)]
    pub no_table: bool,
}

impl EngineArgs {
    pub fn config(&self) -> EngineConfig {
        EngineConfig { hash_mib: self.hash, threads: self.threads.max(1), table: !self.no_table }
    }

    /// The limits given, or the game's default when none is.
    pub fn limits<G: Front>(&self) -> Result<Limits> {
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
pub enum CharsetChoice {
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
pub struct DrawArgs {
    /// The characters boards are drawn with.
    #[arg(long, value_enum, default_value_t = CharsetChoice::Auto, env = "TABULA_CHARSET")]
    pub charset: CharsetChoice,
}

impl DrawArgs {
    pub fn charset(&self) -> Charset {
        match self.charset {
            CharsetChoice::Auto => Charset::detect(std::io::stdout().is_terminal(), |name| std::env::var(name).ok()),
            CharsetChoice::Unicode => Charset::Unicode,
            CharsetChoice::Ascii => Charset::Ascii,
        }
    }
}

/// What playing or analyzing a position takes: the variant, how hard the engine thinks, how the board is drawn.
#[derive(Clone, Debug, clap::Args)]
pub struct GameArgs {
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub setup: SetupArgs,
    #[command(flatten)]
    pub draw: DrawArgs,
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Player {
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

impl SetupArgs {
    /// No variant given: each game's own.
    pub fn none() -> SetupArgs {
        SetupArgs { size: None, rule: None, komi: None }
    }
}
