//! `tabula match`: two engines play a match refereed by Tabula's rules.

use anyhow::{Context, Result};
use std::path::PathBuf;
use std::time::Duration;
use tabula_match::stats::Sprt;
use tabula_match::{EngineOption, MatchConfig, MatchGame, TimeControl};

/// The options of `tabula match` beside the game (which the command line takes from the registry: the games
/// with a referee, each one of this module's functions).
#[derive(Clone, Debug, clap::Args)]
pub struct MatchArgs {
    /// An engine's command line; give it twice. The first engine's score, Elo and SPRT are reported.
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    /// Names for the engines in records and tables (twice, in engine order).
    #[arg(long = "name")]
    names: Vec<String>,
    /// An engine option, ENGINE:NAME=VALUE or ENGINE:NAME with ENGINE 1, 2 or each; repeat for more.
    ///
    /// UCI: `setoption name NAME value VALUE` before `isready` (a bare NAME is a button). Gomocup:
    /// `INFO NAME VALUE` after `START`. GTP: the command `NAME VALUE`, or a bare NAME as the whole command,
    /// after `protocol_version`; it must be answered with `=`. Examples: `1:UCI_Elo=1500`, `'2:Clear Hash'`,
    /// `each:Threads=1`, `2:level=10` (GTP `level 10`), `'1:kata-set-param maxVisits 100'`.
    #[arg(long = "option", value_name = "ENGINE:NAME[=VALUE]")]
    options: Vec<String>,
    /// Clock per side: base+increment in seconds (`10+0.1`). Give it twice for a match at time odds: the first
    /// engine's clock, then the second's (`--tc 40+0.4 --tc 10+0.1`).
    ///
    /// For Go, GTP knows only Canadian byo-yomi in whole seconds: `base+inc` is sent as `time_settings base
    /// inc 1` (absolute time when inc < 1 s) and `time_left` gives the real clock before each move; `--st t`
    /// as `time_settings 0 t 1`. The match's own clock decides losses on time.
    #[arg(long)]
    tc: Vec<String>,
    /// Fixed time per move in seconds; twice for time odds, as `--tc`.
    #[arg(long)]
    st: Vec<String>,
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
    /// Openings, each played twice with colours swapped: FEN/EPD lines (chess), move lists one per line
    /// (Gomoku `h8 i9`, Go `E5 C3 pass`), or for Go SGF game trees (main line, AB/AW setup, KM). A directory
    /// reads each of its files in name order.
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
    /// Board size: Gomoku 15 and Go 9 by default.
    #[arg(long)]
    size: Option<usize>,
    /// Go komi (an SGF opening's KM replaces it for that opening's games).
    #[arg(long, default_value_t = 7.0)]
    komi: f64,
    /// Gomoku rule: freestyle, standard or renju.
    #[arg(long, default_value = "freestyle")]
    rule: String,
    /// Write the game records here instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Play one shard of the match: a range of its opening pairs, the SPRT left to the merge (`tabula cluster`).
    #[command(flatten)]
    shard: tabula_cluster::shard::ShardArgs,
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
        let mut tc = [TimeControl::default(); 2];
        for (i, text) in by_engine("--tc", &self.tc)?.into_iter().enumerate() {
            if let Some(text) = text {
                tc[i] = TimeControl::parse_base_increment(text)?;
            }
        }
        for (i, text) in by_engine("--st", &self.st)?.into_iter().enumerate() {
            if let Some(text) = text {
                tc[i].movetime = Some(TimeControl::parse_seconds(text)?);
            }
        }
        for tc in &mut tc {
            tc.depth = self.depth;
            tc.nodes = self.nodes;
            tc.margin = Duration::from_millis(self.margin);
            tc.watchdog = Duration::from_secs(self.watchdog);
        }
        let sprt = if self.sprt.is_empty() { None } else { Some(Sprt::parse(self.sprt.iter().map(String::as_str))?) };
        let mut options = [Vec::new(), Vec::new()];
        for text in &self.options {
            let (engines, option) = EngineOption::parse_targeted(text)?;
            for i in engines {
                options[i].push(option.clone());
            }
        }
        Ok(MatchConfig {
            engines: [first.clone(), second.clone()],
            names,
            options,
            tc,
            max_moves: self.max_moves,
            concurrency: self.concurrency,
            rounds: self.rounds,
            games: self.games,
            shuffle: self.random.then_some(self.seed),
            sprt,
            pentanomial: self.pentanomial,
            pairs: None,
        })
    }
}

/// A setting given once for both engines or twice, one per engine in order.
fn by_engine<'a>(flag: &str, values: &'a [String]) -> Result<[Option<&'a str>; 2]> {
    match values {
        [] => Ok([None, None]),
        [both] => Ok([Some(both), Some(both)]),
        [first, second] => Ok([Some(first), Some(second)]),
        more => anyhow::bail!("give `{flag}` once for both engines or twice, one per engine; got {}", more.len()),
    }
}

// Each game's match: records to `--output` or standard output, the live line to standard error, then the final
// table to standard output.

/// A chess match over UCI.
pub fn chess(args: &MatchArgs) -> Result<()> {
    play(&tabula_match::chess::Chess, args)
}

/// A xiangqi match over UCI (ICCS coordinates, or Fairy-Stockfish's).
pub fn xiangqi(args: &MatchArgs) -> Result<()> {
    play(&tabula_match::xiangqi::Xiangqi, args)
}

/// A Gomoku match over the Gomocup protocol, on the board `--size` (15 by default) under `--rule`.
pub fn gomoku(args: &MatchArgs) -> Result<()> {
    let size = args.size.unwrap_or(15);
    let rule = args.rule.parse().map_err(|e| anyhow::anyhow!("bad rule `{}`: {e}", args.rule))?;
    tabula_gomoku::Board::new(size, size, rule).map_err(|e| anyhow::anyhow!("bad board size {size}: {e}"))?;
    play(&tabula_match::gomoku::Gomoku { size, rule }, args)
}

/// A Go match over GTP, on the board `--size` (9 by default) with `--komi`.
pub fn go(args: &MatchArgs) -> Result<()> {
    play(&tabula_match::go::Go::new(args.size.unwrap_or(9), args.komi)?, args)
}

/// The openings of a file, or of every file of a directory in name order (hidden files skipped).
fn read_openings<G: MatchGame>(game: &G, path: &std::path::Path) -> Result<Vec<G::Opening>> {
    let files = if path.is_dir() {
        let mut files = Vec::new();
        for entry in std::fs::read_dir(path).with_context(|| format!("cannot read {}", path.display()))? {
            let file = entry.with_context(|| format!("cannot read {}", path.display()))?.path();
            if file.is_file() && !file.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) {
                files.push(file);
            }
        }
        files.sort();
        if files.is_empty() {
            anyhow::bail!("no opening files in {}", path.display());
        }
        files
    } else {
        vec![path.to_path_buf()]
    };
    let mut openings = Vec::new();
    for file in files {
        let text = tabula_protocol::lines::read_text_file(&file)?;
        openings.extend(game.parse_openings(&text, &file.display().to_string())?);
    }
    Ok(openings)
}

fn play<G: MatchGame>(game: &G, args: &MatchArgs) -> Result<()> {
    let config = &args.config()?;
    let openings = match &args.openings {
        Some(path) => read_openings(game, path)?,
        None => Vec::new(),
    };
    if let Some(target) = args.shard.target() {
        return play_shard(game, openings, config, &target);
    }
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

/// Plays shard `target` of the match: its range of the schedule's pairs, all of them (the SPRT is the merge's),
/// and writes its result file (see `tabula_match::shard`).
fn play_shard<G: MatchGame>(
    game: &G,
    openings: Vec<G::Opening>,
    config: &MatchConfig,
    target: &tabula_cluster::shard::ShardTarget,
) -> Result<()> {
    let stopwatch = tabula_cluster::envelope::Stopwatch::start();
    let count = openings.len().max(1);
    let games = tabula_match::runner::pair_schedule(count, config.rounds.max(1), config.games, config.shuffle).len();
    let pairs = target.shard.range(games.div_ceil(2));
    let sprt = config.sprt.map(|s| (s, config.pentanomial));
    let nothing = tabula_match::Summary::new(tabula_match::runner::engine_names(config), None);
    let mut shard = tabula_match::shard::MatchShard::new(game.name(), games, pairs.clone(), sprt, nothing);
    if !pairs.is_empty() {
        let config = MatchConfig { pairs: Some(pairs.clone()), sprt: None, ..config.clone() };
        let summary = tabula_match::run(game, openings, &config, &mut std::io::sink(), &mut std::io::stderr())?;
        shard = tabula_match::shard::MatchShard::new(game.name(), games, pairs, sprt, summary);
    }
    target.write(tabula_match::shard::KIND, shard.body(), &shard.measured(), &stopwatch)?;
    eprintln!("shard {}: {} games, result {}", target.shard, shard.played.len(), target.result.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: MatchArgs,
    }

    fn args(extra: &[&str]) -> MatchArgs {
        let mut words = vec!["match", "--engine", "a", "--engine", "b"];
        words.extend_from_slice(extra);
        Cli::try_parse_from(words).unwrap().args
    }

    #[test]
    fn options_go_to_their_engines() {
        let config = args(&["--option", "1:UCI_Elo=1500", "--option", "each:Threads=1", "--option", "2:Clear Hash"])
            .config()
            .unwrap();
        let shown = |i: usize| config.options[i].iter().map(ToString::to_string).collect::<Vec<_>>();
        assert_eq!(shown(0), ["UCI_Elo=1500", "Threads=1"]);
        assert_eq!(shown(1), ["Threads=1", "Clear Hash"]);
        let err = args(&["--option", "Hash=64"]).config().unwrap_err();
        assert!(err.to_string().contains("bad engine option `Hash=64`"), "{err}");
        assert!(args(&["--option", "3:Hash=64"]).config().is_err());
    }

    #[test]
    fn go_openings_from_a_directory_name_the_bad_file() {
        let dir = std::env::temp_dir().join(format!("tabula-match-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.sgf"), "(;SZ[9]AB[cc][gg])").unwrap();
        std::fs::write(dir.join("b.txt"), "E5 C3\nD4\n").unwrap();
        let go = tabula_match::go::Go::new(9, 7.0).unwrap();
        assert_eq!(read_openings(&go, &dir).unwrap().len(), 3);
        std::fs::write(dir.join("c.sgf"), "(;SZ[9];B[ee]\n;W[ee])").unwrap();
        let err = read_openings(&go, &dir).unwrap_err().to_string();
        assert!(err.contains("c.sgf, line 1") && err.contains("occupied"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
        let err = read_openings(&go, &dir).unwrap_err().to_string();
        assert!(err.contains("cannot read"), "{err}");
    }

    #[test]
    fn go_settings_are_checked() {
        let err = go(&args(&["--size", "30"])).unwrap_err();
        assert!(err.to_string().contains("bad board size 30"), "{err}");
    }
}
