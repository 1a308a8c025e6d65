//! `gen`: self-play positions with the game's result, the data `label` labels:
//!
//! ```text
//! gomoku tune gen OUT [--games N] [--ms MS] [--seed S] [--rule R] [--threads N]
//! ```
//!
//! The engine plays itself (`--ms` milliseconds a move, 30 by default) from the balanced openings of
//! `tabula-gomoku`'s `data/openings-freestyle.txt` (under renju, those black's forbidden points allow), each
//! followed by up to four random moves (`--seed`, 1 by default), `--games` (1,000) games on `--threads` (1).
//! Each line of `OUT` is a position after the opening that the evaluation's tactics do not settle and the
//! side to move is not forced in, with the game's result for the side to move: `moves;result` (1, 0.5 or 0).
//! A game's lines are written when it ends.

use crate::data::Output;
use anyhow::bail;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;
use tabula::game::{Game, HookedGame};
use tabula::rng::Rng;
use tabula::search::Limits;
use tabula::tune::on_threads;
use tabula_gomoku::engine::eval::Features;
use tabula_gomoku::{Board, Color, Engine, Rule};

/// The games `gen` plays and where their positions go.
#[derive(clap::Args)]
pub struct Args {
    /// Output file.
    out: String,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Milliseconds a move.
    #[arg(long, default_value_t = 30)]
    ms: u64,
    /// Seed of the random starts.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The rule: freestyle, standard or renju.
    #[arg(long, default_value = "freestyle")]
    rule: Rule,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// `gen`: self-play games from the balanced openings with a few random moves after them.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let Args { ref out, games, ms, seed, rule, threads } = *args;
    let openings: Vec<&str> = include_str!("../../../../tabula-gomoku/data/openings-freestyle.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let out = Mutex::new(Output::create(out)?);
    let next = AtomicUsize::new(0);
    let written = AtomicUsize::new(0);
    on_threads(threads, || -> anyhow::Result<()> {
        let mut engine = Engine::new(16);
        loop {
            let game = next.fetch_add(1, Ordering::Relaxed);
            if game >= games {
                return Ok(());
            }
            let mut rng = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(game as u64));
            let opening = openings[rng.below(openings.len())];
            // An opening may break a rule stricter than freestyle (a forbidden point of renju's black): the next.
            let Ok(mut board) = Board::from_moves(15, 15, rule, opening) else { continue };
            let mut moves = Vec::new();
            for _ in 0..rng.below(5) {
                moves.clear();
                board.legal_moves(&mut moves);
                if let Some(&p) = rng.pick(&moves) {
                    board.play(p)?;
                }
            }
            engine.clear();
            let mut positions: Vec<(String, Color)> = Vec::new();
            while board.winner().is_none() && !board.is_full() {
                if !board.in_check() && Features::of(&board).is_some() {
                    positions.push((board.format_moves(board.moves()), board.side_to_move()));
                }
                let thought = engine.think(&board, &Limits::time(Duration::from_millis(ms)));
                let Some(best) = thought.best else { bail!("no move in {}", board.format_moves(board.moves())) };
                board.play(best)?;
            }
            let winner = board.winner();
            let lines: Vec<String> = positions
                .into_iter()
                .map(|(moves, side)| {
                    let result = match winner {
                        None => 0.5,
                        Some(w) if w == side => 1.0,
                        Some(_) => 0.0,
                    };
                    format!("{moves};{result}")
                })
                .collect();
            out.lock().expect("no panic while writing").block(&lines)?;
            let total = written.fetch_add(lines.len(), Ordering::Relaxed) + lines.len();
            eprintln!("game {} done, {total} positions", game + 1);
        }
    })
}
