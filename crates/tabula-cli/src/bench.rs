//! `tabula bench`: fixed searches of every game, each with a deterministic node count, and the speed.
//!
//! Each game's rows come from its [registry entry](crate::registry::Entry), which names this module's function
//! for the game. Node counts depend only on the code:
//! a change that keeps them equal did not change what is searched. (Go's searches are Monte Carlo with a fixed
//! number of playouts: the row names the move chosen and its win rate, which depend only on the code and the
//! seed.)

use anyhow::Result;
use std::time::{Duration, Instant};
use tabula::search::{Limits, SearchOptions, Searcher};
use tabula_connect4::{Solver, Standard, Threats};
use tabula_tictactoe::{Heuristic, TicTacToe};

/// One search of the bench: what was searched, its nodes and its time.
pub struct BenchRun {
    /// What was searched.
    pub name: String,
    /// Nodes searched (playouts for Go).
    pub nodes: u64,
    /// The time it took.
    pub time: Duration,
}

/// Times `search` (which returns its node count and, for Go, the name it adds) as the row `name`.
fn run(name: &str, search: impl FnOnce() -> u64) -> BenchRun {
    let start = Instant::now();
    let nodes = search();
    BenchRun { name: name.to_owned(), nodes, time: start.elapsed() }
}

/// Runs each game's bench (`games` yields the rows of one game at a time, searched as it is asked) and prints
/// one line per search and a total.
pub fn print(games: impl IntoIterator<Item = Vec<BenchRun>>) -> Result<()> {
    let mut total_nodes = 0u64;
    let start = Instant::now();
    let line = |name: &str, nodes: u64, secs: f64| {
        println!("{name:<40} {nodes:>12} nodes {secs:>8.3}s {:>10.0} nodes/s", nodes as f64 / secs.max(1e-9));
    };
    for rows in games {
        for row in rows {
            line(&row.name, row.nodes, row.time.as_secs_f64());
            total_nodes += row.nodes;
        }
    }
    line("total", total_nodes, start.elapsed().as_secs_f64());
    Ok(())
}

/// Tic-tac-toe: the whole game searched from the start.
pub fn tictactoe(hash: usize) -> Vec<BenchRun> {
    vec![run("tictactoe search depth 9", || {
        Searcher::with_table_size(Heuristic, hash).search_depth(&TicTacToe::new(), 9).nodes
    })]
}

/// Mid-game Connect Four positions from Pons's test set (the first ten of `mid.txt`).
const CONNECT4_MID: [&str; 10] = [
    "5556526744252171625646276",
    "775463462234262",
    "43336446242637",
    "735247462726135",
    "524211752413555652",
    "76421411735611",
    "2265737612745465255727",
    "5725115537661443417",
    "64375533366123",
    "2273241466327246324",
];

/// Opening positions from Pons's begin set (the first three of `begin.txt`).
const CONNECT4_BEGIN: [&str; 3] = ["4666726156164", "37614122671", "4765664276676"];

/// Connect Four: a depth-limited search from the start, and exact solves of middle games and openings.
pub fn connect4(hash: usize) -> Vec<BenchRun> {
    let solve = |positions: &[&str]| {
        let mut solver = Solver::<7, 6>::new(hash);
        positions.iter().map(|p| solver.solve(&p.parse::<Standard>().expect("valid position")).nodes).sum()
    };
    vec![
        run("connect4 search depth 14", || {
            // Connect Four orders by threats; killers and history only get in the way (1.8 times the nodes).
            let options = SearchOptions::default().with_killers(false).with_history(false);
            Searcher::with_table_size(Threats, hash).with_options(options).search_depth(&Standard::new(), 14).nodes
        }),
        run("connect4 solve 10 mid positions", || solve(&CONNECT4_MID)),
        run("connect4 solve 3 begin positions", || solve(&CONNECT4_BEGIN)),
    ]
}

/// Chess: the UCI `bench` (the engine's bench positions at its bench depth, each with a fresh table).
pub fn chess(_hash: usize) -> Vec<BenchRun> {
    let depth = tabula_chess::engine::uci::BENCH_DEPTH;
    let (nodes, time) = tabula_chess::engine::Engine::bench(depth);
    let name = format!("chess {} positions depth {depth}", tabula_chess::engine::BENCH_POSITIONS.len());
    vec![BenchRun { name, nodes, time }]
}

/// Xiangqi: the UCI `bench`, likewise.
pub fn xiangqi(_hash: usize) -> Vec<BenchRun> {
    let depth = tabula_xiangqi::engine::uci::BENCH_DEPTH;
    let (nodes, time) = tabula_xiangqi::engine::Engine::bench(depth);
    let name = format!("xiangqi {} positions depth {depth}", tabula_xiangqi::engine::BENCH_POSITIONS.len());
    vec![BenchRun { name, nodes, time }]
}

/// Four balanced freestyle openings (from the crate's opening book).
const GOMOKU_OPENINGS: [&str; 4] = ["f10 h10 j8 g6", "f10 i9 i6 h6", "f7 g8 i7 j7", "j8 i7 g10 f8"];

/// Gomoku: the engine's move (threat searches, then alpha-beta) and its alpha-beta alone, on the openings.
pub fn gomoku(hash: usize) -> Vec<BenchRun> {
    use tabula_gomoku::{Board, Engine, Rule};
    let boards: Vec<Board> = GOMOKU_OPENINGS
        .iter()
        .map(|moves| Board::from_moves(15, 15, Rule::Freestyle, moves).expect("a valid opening"))
        .collect();
    vec![
        run("gomoku 4 openings, engine depth 6", || {
            boards.iter().map(|b| Engine::new(hash).think(b, &Limits::depth(6)).nodes).sum()
        }),
        run("gomoku 4 openings, alpha-beta depth 8", || {
            boards.iter().map(|b| Engine::new(hash).search_only(b, &Limits::depth(8)).nodes).sum()
        }),
    ]
}

/// Go: Monte Carlo tree search from the empty 9×9 and 19×19 boards, one thread, a fixed number of playouts.
pub fn go(_hash: usize) -> Vec<BenchRun> {
    use tabula_go::engine::mcts::{Budget, Config, Mcts};
    use tabula_go::{Position, Rules};
    [(9, 4_000), (19, 1_000)]
        .into_iter()
        .map(|(size, playouts)| {
            let position = Position::new(size, Rules::default()).expect("a valid board size");
            let start = Instant::now();
            let analysis = Mcts::new(Config { threads: 1, ..Config::default() }).search(
                &position,
                position.to_move(),
                Budget::playouts(playouts),
            );
            let best = analysis.best.to_gtp();
            let name = format!("go {size}x{size} {playouts} playouts: {best} {:.3}", analysis.win_rate);
            BenchRun { name, nodes: analysis.playouts, time: start.elapsed() }
        })
        .collect()
}
