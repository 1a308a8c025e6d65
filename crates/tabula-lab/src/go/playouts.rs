//! `playouts`: playouts per second from the empty board, one thread: bare playouts on 9×9 and 19×19, then whole
//! tree-search iterations (walk, expansion, playout, backup) on each, the search at the komi played there (7 on
//! 9×9, 7.5 on 19×19) with the board's own move predictor.
//!
//! ```text
//! go playouts [SECONDS] [--count N]
//! ```
//!
//! Each part runs for `SECONDS` (2 by default) and prints a line on standard output: the playouts, their rate,
//! the moves in each and black's wins at komi 7 (the search: its nodes, edges and best move). With `--count N`
//! each part runs exactly N playouts from a fixed seed instead, so that an instruction count (`valgrind
//! --tool=callgrind`) measures the same work before and after a change, whatever the load.

use std::time::{Duration, Instant};
use tabula::rng::Rng;
use tabula_go::board::Board;
use tabula_go::coords::Color;
use tabula_go::engine::mcts::{Budget, Config, Mcts};
use tabula_go::engine::patterns::Patterns;
use tabula_go::engine::playout::PlayoutBoard;
use tabula_go::position::{Position, Rules};

/// How long each part runs.
#[derive(clap::Args)]
pub struct Args {
    /// Seconds each part runs.
    #[arg(default_value_t = 2.0)]
    seconds: f64,
    /// Run exactly this many playouts in each part instead, from a fixed seed.
    #[arg(long)]
    count: Option<u64>,
}

/// Runs `playouts`.
pub fn run(args: &Args) {
    let Args { seconds, count } = *args;
    let done = |start: Instant, playouts: u64| match count {
        Some(n) => playouts >= n,
        None => start.elapsed() >= Duration::from_secs_f64(seconds),
    };
    let patterns = Patterns::new();
    for size in [9, 19] {
        let empty = PlayoutBoard::from_board(&Board::new(size).unwrap(), Color::Black);
        let mut board = empty.clone();
        let mut rng = Rng::new(1);
        let (mut playouts, mut black_wins, mut moves) = (0u64, 0u64, 0u64);
        let start = Instant::now();
        while !done(start, playouts) {
            for _ in 0..if count.is_some() { 1 } else { 100 } {
                board.copy_from(&empty);
                let margin = board.playout(&mut rng, 7.0, &patterns, None);
                black_wins += (margin > 0.0) as u64;
                moves += board.moves_played() as u64;
                playouts += 1;
            }
        }
        let elapsed = start.elapsed().as_secs_f64();
        println!(
            "{size}x{size}: {playouts} playouts in {elapsed:.2} s = {:.0} playouts/s, {:.1} moves each, black wins {:.1} % at komi 7",
            playouts as f64 / elapsed,
            moves as f64 / playouts as f64,
            100.0 * black_wins as f64 / playouts as f64
        );
    }
    for (size, komi) in [(9, 7.0), (19, 7.5)] {
        let mut game = Position::new(size, Rules::default()).unwrap();
        game.set_komi(komi);
        let mut mcts = Mcts::new(Config { threads: 1, seed: 1, ..Config::default() });
        let budget = match count {
            Some(n) => Budget::playouts(n),
            None => Budget::time(Duration::from_secs_f64(seconds)),
        };
        let start = Instant::now();
        let analysis = mcts.search(&game, Color::Black, budget);
        let elapsed = start.elapsed().as_secs_f64();
        println!(
            "{size}x{size} search: {} playouts in {elapsed:.2} s = {:.0} playouts/s, {} nodes, {} edges, best {}",
            analysis.playouts,
            analysis.playouts as f64 / elapsed,
            mcts.nodes(),
            mcts.edges(),
            analysis.best.to_gtp()
        );
    }
}
