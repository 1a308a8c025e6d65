//! [`Four`] for minimax-rs: the [`minimax::Game`] and [`minimax::Evaluator`] wrappers and the search the
//! comparison runs.

use crate::{heuristic, Four, Report, Value};
use minimax::{Evaluation, IterativeOptions, IterativeSearch, Strategy, Winner, BEST_EVAL, WORST_EVAL};
use std::time::Instant;

/// minimax-rs's games are empty types naming a state and a move type.
pub struct FourGame;

impl minimax::Game for FourGame {
    type S = Four;
    type M = u8;

    fn generate_moves(four: &Four, moves: &mut Vec<u8>) -> Option<Winner> {
        let winner = Self::get_winner(four);
        if winner.is_none() {
            four.moves(moves);
        }
        winner
    }
    fn apply(four: &mut Four, col: u8) -> Option<Four> {
        four.play(col);
        None
    }
    fn undo(four: &mut Four, col: u8) {
        four.undo(col);
    }
    fn get_winner(four: &Four) -> Option<Winner> {
        if four.winner_just_moved() {
            Some(Winner::PlayerJustMoved)
        } else {
            four.is_full().then_some(Winner::Draw)
        }
    }
    fn zobrist_hash(four: &Four) -> u64 {
        four.key()
    }
    fn table_index(col: u8) -> u16 {
        col as u16
    }
    fn max_table_index() -> u16 {
        7
    }
}

/// The comparison's heuristic as a minimax-rs evaluator.
#[derive(Clone, Copy, Debug, Default)]
pub struct Heuristic;

impl minimax::Evaluator for Heuristic {
    type G = FourGame;
    fn evaluate(&self, four: &Four) -> Evaluation {
        heuristic(four)
    }
}

/// Which of minimax-rs's settings to search with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Config {
    /// The table and null-window (principal variation) search: minimax-rs's defaults, with Tabula's table size.
    Matched,
}

/// Searches `four` to `depth` with a fresh `IterativeSearch` (a new table); only the search is timed.
pub fn search(four: &Four, depth: u32, config: Config, _threads: usize) -> Report {
    let options = match config {
        Config::Matched => IterativeOptions::new()
            .with_table_byte_size(crate::tabula_side::TABLE_MIB << 20)
            .with_null_window_search(true),
    };
    let mut strategy = IterativeSearch::new(Heuristic, options);
    strategy.set_max_depth(depth as u8);
    let start = Instant::now();
    let best_move = strategy.choose_move(four);
    let time = start.elapsed();
    let value = match strategy.root_value() {
        BEST_EVAL => Value::Win,
        WORST_EVAL => Value::Loss,
        v => Value::Heuristic(v as i32),
    };
    // minimax-rs reports its node count only inside a summary line.
    let stats = strategy.stats(&mut four.clone());
    let nodes = stats
        .split("Explored ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    Report { value, best_move, nodes, time }
}
