//! Balanced openings for matches: random stones near the centre that the engine scores near zero.
//!
//! `cargo run --release -p tabula-gomoku --example openings -- [count] [stones] [rule] [size] [ms] [seed]`
//! prints `count` move lists (default 50 openings of 4 stones, freestyle, 15×15, 300 ms, seed 1): stones
//! alternate black and white within the central 5×5 square; an opening is kept when neither side has a
//! four or an open three, and a search of `ms` milliseconds scores it within ±[`BALANCE`] for the side to
//! move.

use std::time::Duration;
use tabula::search::Limits;
use tabula::zobrist::SplitMix64;
use tabula_gomoku::Pattern;
use tabula_gomoku::{Board, Color, Engine, Point, Rule};

/// The largest score (in evaluation units, an open two is about 10) an opening may have.
const BALANCE: i32 = 40;

fn arg<T: std::str::FromStr>(args: &[String], i: usize, default: T) -> T {
    args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
}

/// Whether either side could make a four or an open three anywhere: such openings are not quiet.
fn quiet(board: &Board) -> bool {
    let mut moves = Vec::new();
    tabula::game::Game::legal_moves(board, &mut moves);
    moves.iter().all(|&p| {
        [Color::Black, Color::White]
            .iter()
            .all(|&c| board.patterns(p, c).iter().all(|&pat| !pat.is_four() && pat != Pattern::FlexThree))
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let count: usize = arg(&args, 1, 50);
    let stones: usize = arg(&args, 2, 4);
    let rule: Rule = arg(&args, 3, Rule::Freestyle);
    let size: usize = arg(&args, 4, 15);
    let ms: u64 = arg(&args, 5, 300);
    let mut rng = SplitMix64::new(arg(&args, 6, 1));
    let mut engine = Engine::new(16);
    let mut found = 0;
    let centre = size / 2;
    while found < count {
        let mut board = Board::new(size, size, rule).expect("a valid size");
        while board.moves().len() < stones {
            let x = centre - 2 + (rng.next() % 5) as usize;
            let y = centre - 2 + (rng.next() % 5) as usize;
            let p = Point::new(x as u8, y as u8);
            if board.is_legal(p) {
                board.play(p).expect("checked legal");
            }
        }
        if !quiet(&board) {
            continue;
        }
        engine.clear();
        let thought = engine.think(&board, &Limits::time(Duration::from_millis(ms)));
        if thought.score.abs() <= BALANCE {
            println!("{}", board.format_moves(board.moves()));
            found += 1;
        }
    }
}
