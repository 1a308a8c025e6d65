//! Analysis and play on top of the core searcher: the parts `analyze` and `play` share.

use crate::games::{format_pv, CliGame};
use std::time::Duration;
use tabula::score::describe;
use tabula::search::{Iteration, Limits, SearchOptions, SearchResult, Searcher};

/// How hard the engine thinks.
#[derive(Clone, Debug, clap::Args)]
pub struct EngineArgs {
    /// Deepest iteration, in plies.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Time per move, in seconds.
    #[arg(long)]
    pub time: Option<f64>,
    /// Node budget per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Search threads (Lazy SMP).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Search without the transposition table (to see what it saves).
    #[arg(long)]
    pub no_table: bool,
}

impl EngineArgs {
    /// The limits; one second per move if none is given.
    pub fn limits(&self) -> Limits {
        let mut limits = Limits { depth: self.depth, nodes: self.nodes, ..Limits::default() };
        if let Some(t) = self.time {
            limits = limits.with_time(Duration::from_secs_f64(t), Duration::from_secs_f64(t));
        }
        if limits.depth.is_none() && limits.nodes.is_none() && limits.hard_time.is_none() {
            limits = limits.with_time(Duration::from_secs(1), Duration::from_secs(1));
        }
        limits
    }

    /// A searcher configured by these arguments.
    pub fn searcher<G: CliGame>(&self) -> Searcher<G, G::Eval> {
        let options = SearchOptions::default().with_threads(self.threads.max(1)).with_table(!self.no_table);
        Searcher::with_table_size(G::Eval::default(), self.hash).with_options(options)
    }
}

/// One line per iteration: depth, score, nodes, speed, table use and the principal variation.
pub fn print_iteration<G: CliGame>(it: &Iteration<G::Move>) {
    println!(
        "depth {:>2} seldepth {:>2} score {:<10} nodes {:>11} nps {:>10} hashfull {:>4} time {:>7.3}s pv {}",
        it.depth,
        it.seldepth,
        describe(it.score, it.exact, &G::WORDING),
        it.nodes,
        it.nps,
        it.hashfull,
        it.elapsed.as_secs_f64(),
        format_pv::<G>(&it.pv)
    );
}

/// Searches `game` and prints each iteration.
pub fn think<G: CliGame>(
    searcher: &mut Searcher<G, G::Eval>,
    game: &G,
    limits: &Limits,
    verbose: bool,
) -> SearchResult<G::Move> {
    searcher.search(game, limits, |it| {
        if verbose {
            print_iteration::<G>(it)
        }
    })
}
