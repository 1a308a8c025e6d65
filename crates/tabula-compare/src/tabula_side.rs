//! [`Four`] for Tabula: the [`Game`] and [`Evaluator`] wrappers and the search the comparison runs.

use crate::{heuristic, Four, Report, Value};
use std::time::Instant;
use tabula::game::{Evaluator, Game, Outcome};
use tabula::score::{self, Score};
use tabula::search::{Limits, SearchOptions, Searcher};
use tabula::zobrist::Key;

impl Game for Four {
    type Move = u8;

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        self.moves(moves);
    }
    fn play(&mut self, col: u8) {
        Four::play(self, col);
    }
    fn undo(&mut self, col: u8) {
        Four::undo(self, col);
    }
    fn outcome(&self) -> Option<Outcome> {
        if self.winner_just_moved() {
            Some(Outcome::Loss)
        } else {
            self.is_full().then_some(Outcome::Draw)
        }
    }
    fn key(&self) -> Key {
        Key(Four::key(self))
    }
    fn move_code(col: u8) -> u16 {
        col as u16
    }
}

/// The comparison's heuristic as a Tabula [`Evaluator`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Heuristic;

impl Evaluator<Four> for Heuristic {
    fn evaluate(&self, four: &Four) -> Score {
        heuristic(four) as Score
    }
}

/// Which of Tabula's settings to search with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Config {
    /// The transposition table and principal variation search only, as minimax-rs's defaults have.
    Matched,
    /// The table, principal variation search and the history heuristic: the fastest setting here, still
    /// the lean search.
    History,
    /// Tabula's default options.
    Defaults,
}

/// Table size in MiB, the same on both sides.
pub const TABLE_MIB: usize = 16;

/// Searches `four` to `depth` with a fresh searcher (a new table) on `threads` threads; only the search is timed.
pub fn search(four: &Four, depth: u32, config: Config, threads: usize) -> Report {
    let options = match config {
        Config::Matched => SearchOptions::table_and_pvs(),
        Config::History => SearchOptions::table_and_pvs().with_history(true),
        Config::Defaults => SearchOptions::default(),
    };
    let mut searcher = Searcher::with_table_size(Heuristic, TABLE_MIB).with_options(options.with_threads(threads));
    let start = Instant::now();
    let result = searcher.search(four, Limits::depth(depth), |_| {});
    let time = start.elapsed();
    let value = match score::plies_to_end(result.score) {
        Some(p) if p > 0 => Value::Win,
        Some(_) => Value::Loss,
        None => Value::Heuristic(result.score),
    };
    Report { value, best_move: result.best_move, nodes: result.nodes, time }
}
