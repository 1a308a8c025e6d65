//! `bench`: the Gomoku engine's speed, deterministic searches with their node counts and nodes per second.
//!
//! ```text
//! gomoku bench [--order FILE] [--threat NAME=VALUE ...] [--search NAME=VALUE ...]
//! ```
//!
//! On the positions of `tabula-gomoku`'s `tests/data/vct-defence.txt` (middle games from matches against
//! Wine), a line each on standard output:
//!
//! - **threats**: the VCT of the side to move after the move the engine played there (10 attacking moves at
//!   most, 2 M nodes per position), the threat solver alone;
//! - **alpha-beta**: the engine's search to depth 4 (threat searches included), one thread;
//! - **alpha-beta alone**: the engine's alpha-beta search to depth 8 without the threat searches before it,
//!   where the evaluation, move ordering and make/undo weigh as they do in play (the depth-4 searches above
//!   are mostly threat search).
//!
//! Node counts depend only on the code, so a change that keeps them equal did not change what is searched.
//! `--order FILE` runs the engine's searches with a fitted move order (`gomoku tune order`), so the nodes
//! each order needs for the same depths can be compared. `--threat NAME=VALUE` sets one of the engine's
//! threat options for its searches (`trivial_last=1`, `inner_vcf=5000`; the names of
//! [`ThreatOptions::set`]), as `pbrain-tabula` takes them by `INFO tabula_NAME VALUE`; `--search NAME=VALUE`
//! one of its search options (`losing_move_pruning=4`; [`SearchOptions::set`](tabula::search::SearchOptions::set)),
//! as `INFO tabula_search_NAME VALUE` does.

use anyhow::Context;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use tabula::search::Limits;
use tabula_gomoku::engine::eval::Weights;
use tabula_gomoku::engine::policy::ThreatOptions;
use tabula_gomoku::{Board, Engine, Rule, ThreatKind, ThreatSolver};

/// What `bench` runs with.
#[derive(clap::Args)]
pub struct Args {
    /// A move order file for the engine's searches (the hand-set order if absent).
    #[arg(long)]
    order: Option<PathBuf>,
    /// A threat option for the engine's searches, NAME=VALUE (`trivial_last=1`); repeat for more.
    #[arg(long = "threat", value_name = "NAME=VALUE")]
    threats: Vec<String>,
    /// A search option for the engine's searches, NAME=VALUE (`losing_move_pruning=4`); repeat for more.
    #[arg(long = "search", value_name = "NAME=VALUE")]
    search: Vec<String>,
}

/// `NAME=VALUE` as its two halves, or an error naming `flag`.
fn name_value<'a>(flag: &str, setting: &'a str) -> anyhow::Result<(&'a str, &'a str)> {
    let (name, value) = setting.split_once('=').with_context(|| format!("{flag} `{setting}`: expected NAME=VALUE"))?;
    Ok((name.trim(), value.trim()))
}

/// The engine's default threat options with `settings` (`NAME=VALUE` each) applied.
fn threat_options(settings: &[String]) -> anyhow::Result<ThreatOptions> {
    let mut options = ThreatOptions::default();
    for setting in settings {
        let (name, value) = name_value("--threat", setting)?;
        options.set(name, value).with_context(|| format!("--threat `{setting}`"))?;
    }
    Ok(options)
}

fn positions() -> Vec<(Board, String)> {
    include_str!("../../../tabula-gomoku/tests/data/vct-defence.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut words = l.splitn(3, ' ');
            let rule: Rule = words.next().and_then(|r| r.parse().ok()).expect("a rule");
            let played = words.next().expect("the move played").to_string();
            let board = Board::from_moves(15, 15, rule, words.next().unwrap_or("")).expect("a position");
            (board, played)
        })
        .collect()
}

fn report(name: &str, nodes: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    println!("{name:<28} {nodes:>12} nodes {secs:>8.3}s {:>10.0} nodes/s", nodes as f64 / secs.max(1e-9));
}

/// Runs `bench`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let order = match &args.order {
        Some(path) => Some(Arc::new(Weights::read(Path::new(path)).context("--order")?)),
        None => None,
    };
    let threats = threat_options(&args.threats)?;
    let positions = positions();
    let engine = || {
        let mut engine = Engine::new(16);
        engine.set_order(order.clone());
        engine.set_threat_options(threats);
        for setting in &args.search {
            let (name, value) = name_value("--search", setting)?;
            engine.set_search_option(name, value).with_context(|| format!("--search `{setting}`"))?;
        }
        anyhow::Ok(engine)
    };
    engine()?; // the settings are good before anything is timed

    let start = Instant::now();
    let mut nodes = 0;
    let mut wins = 0;
    for (board, played) in &positions {
        let mut after = board.clone();
        after.play(after.parse_point(played).expect("a point")).expect("a legal move");
        let mut solver = ThreatSolver::new(16);
        wins += solver.find(&after, ThreatKind::Vct, 10, 2_000_000).is_some() as usize;
        nodes += solver.nodes();
    }
    report(&format!("threats ({wins}/{} VCT)", positions.len()), nodes, start);

    engine_line("alpha-beta depth 4", &positions, engine, |engine, board| {
        engine.think(board, &Limits::depth(4)).nodes
    })?;
    engine_line("alpha-beta alone, depth 8", &positions, engine, |engine, board| {
        engine.search_only(board, &Limits::depth(8)).nodes
    })
}

/// Reports `search` (which returns its nodes) run by a fresh engine from `engine` on each position.
fn engine_line(
    name: &str,
    positions: &[(Board, String)],
    engine: impl Fn() -> anyhow::Result<Engine>,
    search: impl Fn(&mut Engine, &Board) -> u64,
) -> anyhow::Result<()> {
    let start = Instant::now();
    let mut nodes = 0;
    for (board, _) in positions {
        nodes += search(&mut engine()?, board);
    }
    report(name, nodes, start);
    Ok(())
}
