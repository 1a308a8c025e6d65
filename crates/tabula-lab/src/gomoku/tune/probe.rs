//! `probe`: compares engines' choices in one player's early positions of a `tabula match` record, by an
//! outside engine's values:
//!
//! ```text
//! gomoku tune probe GAMES --player NAME --colour C --engine CMD... --judge CMD [--ms MS] [--judge-ms MS]
//!     [--judge-scale X] [--info K:KEY=VALUE...] [--first N] [--opening N] [--lost] [--rule R] [--threads N]
//! ```
//!
//! The positions are those where `--player` was to move as `--colour` in its first `--first` moves (3) after
//! the opening (`--opening` stones, 4) of the games of `GAMES` (see [`records`](super::records)). Each engine
//! (any Gomocup command, so two builds or two settings) is given `--ms` milliseconds a position (1,000), and
//! the outside engine (`--judge`, `--judge-ms` a position, 500) values the position after each move chosen,
//! and after its own choice. The values are read as win rates (`sigmoid(value / 200)`, a forced result 1 or 0;
//! see [`gomocup`](super::gomocup)) and each engine's mean is compared with the first engine's on the same
//! positions (a move two engines share is valued once, so only different choices count). `--info
//! 2:tabula_weights=w.txt` sends the second engine `INFO tabula_weights w.txt` after the start. This measures
//! a change where the games are decided, in minutes, where a match needs hundreds of games to see it. The
//! judge may also be `pbrain-tabula` (its `MESSAGE ... score S`), with `--judge-scale` turning its values into
//! Rapfi's units: a second judge, to tell a better move from the judge preferring its own kind of move.
//!
//! Standard output gets a line a position (the moves, the judge's value before, each choice and its value
//! after) and a line an engine and one for the judge's own choice with the mean win rate.

use super::gomocup::{win_rate, GomocupEngine, MATE_VALUE};
use super::records::Selection;
use anyhow::{bail, Context};
use std::sync::atomic::AtomicUsize;
use std::sync::Mutex;
use tabula::tune::{next_block, on_threads};
use tabula_gomoku::{Board, Point, Rule};

/// What `probe` compares, and how.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    selection: Selection,
    /// The player's colour in the games taken: `black` or `white`.
    #[arg(long)]
    colour: String,
    /// An engine to compare (a Gomocup command line); give two or more.
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    /// The judging engine's command line.
    #[arg(long)]
    judge: String,
    /// `K:KEY=VALUE`: `INFO KEY VALUE` for the K-th engine (from 1), after the others.
    #[arg(long)]
    info: Vec<String>,
    /// Milliseconds a position for the compared engines.
    #[arg(long, default_value_t = 1000)]
    ms: u64,
    /// Milliseconds a position for the judge.
    #[arg(long, default_value_t = 500)]
    judge_ms: u64,
    /// Rapfi's value units in one of the judge's: a value `v` is the win rate `sigmoid(scale · v / 200)`
    /// (1 for Rapfi; about 0.16 for `pbrain-tabula`, its evaluation's fitted scale). A reported win or
    /// loss is not scaled.
    #[arg(long, default_value_t = 1.0)]
    judge_scale: f64,
    /// The player's moves taken from each game, after the opening.
    #[arg(long, default_value_t = 3)]
    first: usize,
    /// Positions worked on at once (each with its own engines).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// Runs `probe`: reads the colour and the `INFO` lines, then probes.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args { selection, colour, engines, judge, info, ms, judge_ms, judge_scale, first, threads } = args;
    let seat = match colour.as_str() {
        "black" => 0,
        "white" => 1,
        _ => bail!("--colour is black or white, not {colour:?}"),
    };
    let mut infos = Vec::new();
    for text in &info {
        let parsed = text.split_once(':').and_then(|(k, kv)| Some((k.parse::<usize>().ok()?, kv.split_once('=')?)));
        match parsed {
            Some((k, (key, value))) if (1..=engines.len()).contains(&k) && !key.is_empty() => {
                infos.push((k - 1, format!("INFO {key} {value}")))
            }
            _ => bail!("--info {text:?}: expected K:KEY=VALUE, K an engine from 1 to {}", engines.len()),
        }
    }
    probe(&ProbeOptions { selection, seat, engines, infos, judge, ms, judge_ms, judge_scale, first, threads })
}

/// What `probe` compares and how.
struct ProbeOptions {
    selection: Selection,
    /// The player's seat in the games taken: 0 black, 1 white.
    seat: usize,
    engines: Vec<String>,
    /// `INFO` lines for the engines, by index.
    infos: Vec<(usize, String)>,
    judge: String,
    ms: u64,
    judge_ms: u64,
    judge_scale: f64,
    first: usize,
    threads: usize,
}

/// `probe`: each engine's choice in the player's early positions, valued by the judge.
fn probe(options: &ProbeOptions) -> anyhow::Result<()> {
    if options.engines.len() < 2 {
        bail!("give two engines or more to compare");
    }
    let Selection { games: path, player, opening, lost, rule } = &options.selection;
    let mut positions: Vec<String> = Vec::new();
    for (record, _) in options.selection.read()?.iter().filter(|&&(_, s)| s == options.seat) {
        let board = Board::from_moves(15, 15, *rule, &record.moves)
            .with_context(|| format!("{}: the moves are not a {rule} game", record.at))?;
        let moves = board.moves();
        let plies = (*opening..moves.len()).filter(|p| p % 2 == options.seat).take(options.first);
        positions.extend(plies.map(|ply| board.format_moves(&moves[..ply])));
    }
    positions.sort();
    positions.dedup();
    if positions.is_empty() {
        let lost = if *lost { " in a game lost" } else { "" };
        bail!("{path}: no position of {player:?} as {}{lost}", ["black", "white"][options.seat]);
    }
    eprintln!("{} positions", positions.len());
    let next = AtomicUsize::new(0);
    let rows = Mutex::new(Vec::new());
    on_threads(options.threads, || -> anyhow::Result<()> {
        let mut judge = GomocupEngine::start(&options.judge, options.judge_ms, *rule)?.with_scale(options.judge_scale);
        let mut engines = options
            .engines
            .iter()
            .map(|e| GomocupEngine::start(e, options.ms, *rule))
            .collect::<anyhow::Result<Vec<_>>>()?;
        for (k, info) in &options.infos {
            engines[*k].inform(info).with_context(|| format!("the engine {}", options.engines[*k]))?;
        }
        while let Some((at, block)) = next_block(&positions, &next, 1) {
            let (line, rates) = probe_position(&mut judge, &mut engines, &block[0], *rule)?;
            println!("{line}");
            rows.lock().expect("no panic while held").push((at, rates));
        }
        Ok(())
    })?;
    let mut rows = rows.into_inner().expect("no panic while held");
    rows.sort_by_key(|&(at, _)| at);
    let rates: Vec<Vec<f64>> = rows.into_iter().map(|(_, r)| r).collect();
    let n = rates.len() as f64;
    let names = options.engines.iter().chain(std::iter::once(&options.judge));
    for (k, name) in names.enumerate() {
        let mean = rates.iter().map(|r| r[k]).sum::<f64>() / n;
        let diffs: Vec<f64> = rates.iter().map(|r| r[k] - r[0]).collect();
        let d = diffs.iter().sum::<f64>() / n;
        let sd = (diffs.iter().map(|x| (x - d).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
        let differ = diffs.iter().filter(|&&x| x != 0.0).count();
        let against = if k == 0 {
            String::new()
        } else {
            format!(
                "; against the first {:+.1} ± {:.1} points ({differ} choices differ)",
                100.0 * d,
                196.0 * sd / n.sqrt()
            )
        };
        let role = if k == options.engines.len() { "judge's own choice" } else { "engine" };
        println!("{role} {name}: the player's win rate after the move {:.1} % (mean of {n}){against}", 100.0 * mean);
    }
    Ok(())
}

/// One position probed: a line on it, and the player's win rate after each engine's move and the judge's own.
fn probe_position(
    judge: &mut GomocupEngine,
    engines: &mut [GomocupEngine],
    moves: &str,
    rule: Rule,
) -> anyhow::Result<(String, Vec<f64>)> {
    let board = Board::from_moves(15, 15, rule, moves)?;
    let (own, before) = judge.ask(&board).with_context(|| format!("the judge, at {moves}"))?;
    let mut choices = Vec::new();
    for engine in engines.iter_mut() {
        choices.push(engine.ask(&board).with_context(|| format!("an engine, at {moves}"))?.0);
    }
    choices.push(own);
    let mut valued: Vec<(Point, i32)> = Vec::new();
    let mut line = format!("{moves}  before {}", before.map_or("?".into(), |v| v.to_string()));
    let mut rates = Vec::new();
    for &choice in &choices {
        let value = match valued.iter().find(|&&(p, _)| p == choice) {
            Some(&(_, v)) => v,
            None => {
                let mut after = board.clone();
                after.play(choice)?;
                let value = if after.winner().is_some() {
                    Some(-MATE_VALUE)
                } else {
                    judge.ask(&after).with_context(|| format!("the judge, at {moves} {choice:?}"))?.1
                };
                let Some(value) = value.map(|v| -v) else {
                    bail!("the judge reports no value (`MESSAGE ... Eval V` or `score S`)")
                };
                valued.push((choice, value));
                value
            }
        };
        line += &format!("  {} {value}", board.format_point(choice));
        rates.push(win_rate(value));
    }
    Ok((line, rates))
}
