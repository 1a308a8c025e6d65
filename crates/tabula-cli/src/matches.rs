//! `tabula match`: two engines play a match refereed by Tabula's rules.

use anyhow::{Context, Result};
use std::path::PathBuf;
use std::time::Duration;
use tabula_match::stats::Sprt;
use tabula_match::{MatchConfig, MatchGame, TimeControl};

/// The games a match can be played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MatchGameName {
    /// Chess over UCI.
    Chess,
    /// Gomoku over the Gomocup protocol.
    Gomoku,
    /// Go over GTP.
    Go,
}

/// The options of `tabula match`.
#[derive(Clone, Debug, clap::Args)]
pub struct MatchArgs {
    /// The game.
    #[arg(long, value_enum)]
    game: MatchGameName,
    /// An engine's command line; give it twice. The first engine's score, Elo and SPRT are reported.
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    /// Names for the engines in records and tables (twice, in engine order).
    #[arg(long = "name")]
    names: Vec<String>,
    /// Clock per side: base+increment in seconds (`10+0.1`).
    #[arg(long)]
    tc: Option<String>,
    /// Fixed time per move in seconds.
    #[arg(long)]
    st: Option<String>,
    /// Fixed depth per move (UCI).
    #[arg(long)]
    depth: Option<u32>,
    /// Fixed nodes per move (UCI).
    #[arg(long)]
    nodes: Option<u64>,
    /// Milliseconds allowed beyond the clock before a move counts as late.
    #[arg(long, default_value_t = 100)]
    margin: u64,
    /// Seconds a move may take with neither clock nor fixed time before the engine counts as hung.
    #[arg(long, default_value_t = 30)]
    watchdog: u64,
    /// Openings: FEN/EPD lines (chess), move lists (Gomoku, Go), one per line. Each is played twice, colours
    /// swapped.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Passes over the opening list.
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    /// Stop after this many games.
    #[arg(long)]
    games: Option<usize>,
    /// Shuffle the openings (with `--seed`).
    #[arg(long)]
    random: bool,
    /// Seed for `--random`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Adjudicate after this many moves per side (a draw in chess and Gomoku, the area score in Go).
    #[arg(long)]
    max_moves: Option<u32>,
    /// Stop when the SPRT decides: `elo0=0 elo1=5 alpha=0.05 beta=0.05`.
    #[arg(long, num_args = 1..)]
    sprt: Vec<String>,
    /// Use game pairs (pentanomial) for the SPRT.
    #[arg(long)]
    pentanomial: bool,
    /// Gomoku board size.
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// Gomoku rule: freestyle, standard or renju.
    #[arg(long, default_value = "freestyle")]
    rule: String,
    /// Write the game records here instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
}

impl MatchArgs {
    fn config(&self) -> Result<MatchConfig> {
        let [first, second] = self.engines.as_slice() else {
            anyhow::bail!("give exactly two engines (`--engine \"<command>\"` twice), got {}", self.engines.len());
        };
        let names = match self.names.as_slice() {
            [] => None,
            [a, b] => Some([a.clone(), b.clone()]),
            other => anyhow::bail!("give two names (`--name` twice), got {}", other.len()),
        };
        let mut tc = match &self.tc {
            Some(text) => TimeControl::parse_base_increment(text)?,
            None => TimeControl::default(),
        };
        if let Some(text) = &self.st {
            tc.movetime = Some(TimeControl::parse_seconds(text)?);
        }
        tc.depth = self.depth;
        tc.nodes = self.nodes;
        tc.margin = Duration::from_millis(self.margin);
        tc.watchdog = Duration::from_secs(self.watchdog);
        let sprt = if self.sprt.is_empty() { None } else { Some(Sprt::parse(self.sprt.iter().map(String::as_str))?) };
        Ok(MatchConfig {
            engines: [first.clone(), second.clone()],
            names,
            tc,
            max_moves: self.max_moves,
            concurrency: self.concurrency,
            rounds: self.rounds,
            games: self.games,
            shuffle: self.random.then_some(self.seed),
            sprt,
            pentanomial: self.pentanomial,
        })
    }
}

/// Runs the match: records to `--output` or standard output, the live line to standard error, then the
/// final table to standard output.
pub fn run(args: &MatchArgs) -> Result<()> {
    let config = args.config()?;
    match args.game {
        MatchGameName::Chess => play(&tabula_match::chess::Chess, args, &config),
        MatchGameName::Gomoku => {
            let rule = args.rule.parse().map_err(|e| anyhow::anyhow!("bad rule `{}`: {e}", args.rule))?;
            tabula_gomoku::Board::new(args.size, args.size, rule)
                .map_err(|e| anyhow::anyhow!("bad board size {}: {e}", args.size))?;
            play(&tabula_match::gomoku::Gomoku { size: args.size, rule }, args, &config)
        }
        MatchGameName::Go => {
            anyhow::bail!("`tabula match` plays chess and Gomoku for now; Go (GTP) is not implemented yet")
        }
    }
}

fn play<G: MatchGame>(game: &G, args: &MatchArgs, config: &MatchConfig) -> Result<()> {
    let openings = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            game.parse_openings(&text, &path.display().to_string())?
        }
        None => Vec::new(),
    };
    let mut records: Box<dyn std::io::Write> = match &args.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => Box::new(std::io::stdout()),
    };
    let summary = tabula_match::run(game, openings, config, &mut records, &mut std::io::stderr())?;
    records.flush()?;
    drop(records);
    print!("{summary}");
    Ok(())
}
