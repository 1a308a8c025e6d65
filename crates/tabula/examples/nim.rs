//! Implementing `Game` for a new game: one-heap Nim (take 1 to 3 stones; who takes the last stone wins).
//!
//! `cargo run -p tabula --example nim -- 21`

use tabula::game::{Evaluator, Game, Outcome};
use tabula::score::{describe, Score, Wording};
use tabula::search::{Limits, Searcher};
use tabula::zobrist::{Key, ZobristKeys};

/// One key per heap size: the heap size is the whole position.
const KEYS: ZobristKeys<Key, 1001> = ZobristKeys::<Key, 1001>::generate(2024);

#[derive(Clone)]
struct Nim {
    stones: usize,
}

impl Game for Nim {
    type Move = usize;

    fn legal_moves(&self, moves: &mut Vec<usize>) {
        moves.extend((1..=3).filter(|&take| take <= self.stones));
    }
    fn play(&mut self, take: usize) {
        self.stones -= take;
    }
    fn undo(&mut self, take: usize) {
        self.stones += take;
    }
    fn outcome(&self) -> Option<Outcome> {
        // Whoever took the last stone won, so the side to move has lost.
        (self.stones == 0).then_some(Outcome::Loss)
    }
    fn key(&self) -> Key {
        KEYS[self.stones]
    }
    fn move_code(take: usize) -> u16 {
        take as u16
    }
}

/// Knows nothing: every position looks even until the search sees the end.
struct Blind;

impl Evaluator<Nim> for Blind {
    fn evaluate(&self, _: &Nim) -> Score {
        0
    }
}

fn main() {
    let stones = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(21).min(1000);
    let mut searcher = Searcher::new(Blind);
    let words = Wording::MOVES;
    let result = searcher.search(&Nim { stones }, Limits::default(), |it| {
        let score = describe(it.score, it.exact, &words);
        println!("depth {:>2} score {score:<16} nodes {:>6} pv {:?}", it.depth, it.nodes, it.pv);
    });
    println!("from {stones} stones take {:?}: {}", result.best_move, describe(result.score, result.exact, &words));
}
