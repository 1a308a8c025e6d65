//! A game and evaluator that declare no hooks (`Game::HOOKS`, `Evaluator::HOOKS`) are searched by the lean
//! search under the default options, with minimax's values; a game that declares none but answers one is
//! caught in debug builds.

use tabula::game::{Evaluator, Game, Outcome};
use tabula::score::Score;
use tabula::search::{minimax, verify, Limits, SearchOptions, Searcher};
use tabula::zobrist::{Key, ZobristKeys};

const KEYS: ZobristKeys<Key, 64> = ZobristKeys::<Key, 64>::generate(11);
const MOVE_KEYS: ZobristKeys<Key, 64> = ZobristKeys::<Key, 64>::generate(12);

/// Subtraction Nim with takes of 1, 2 or 5 stones (the last stone wins): losing positions are not the
/// multiples of a single number, so that a heuristic is wrong often enough to make depth matter. The moves
/// made are part of the position, so that a position is always as far from the root (as in games that add
/// a stone a move): fixed-depth minimax is then what a search with a table must return.
#[derive(Clone, Debug)]
struct Nim {
    stones: usize,
    moves: usize,
}

impl Game for Nim {
    type Move = usize;
    const MOVE_CODES: usize = 6;
    const HOOKS: bool = false;

    fn legal_moves(&self, moves: &mut Vec<usize>) {
        moves.extend([1, 2, 5].into_iter().filter(|&take| take <= self.stones));
    }
    fn play(&mut self, take: usize) {
        self.stones -= take;
        self.moves += 1;
    }
    fn undo(&mut self, take: usize) {
        self.stones += take;
        self.moves -= 1;
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.stones == 0).then_some(Outcome::Loss)
    }
    fn key(&self) -> Key {
        KEYS[self.stones] ^ MOVE_KEYS[self.moves]
    }
    fn move_code(take: usize) -> u16 {
        take as u16
    }
}

/// A guess by the remainder modulo 3, which the takes of 5 make wrong in places.
#[derive(Clone, Copy, Debug)]
struct Guess;

impl Evaluator<Nim> for Guess {
    const HOOKS: bool = false;

    fn evaluate(&self, nim: &Nim) -> Score {
        if nim.stones % 3 == 0 {
            -10
        } else {
            10 + nim.stones as Score
        }
    }
}

#[test]
fn hookless_games_keep_minimax_values_under_every_option_set() {
    assert!(SearchOptions::default().without_hooks().is_lean());
    for stones in [7, 12, 20, 33, 50] {
        for depth in 1..=6 {
            let game = Nim { stones, moves: 0 };
            verify::check_all(&game, &Guess, depth).unwrap_or_else(|m| panic!("{stones} stones: {m}"));
            let mut searcher = Searcher::with_table_size(Guess, 1);
            let result = searcher.search(&game, &Limits::depth(depth), |_| {});
            assert_eq!(result.score, minimax(&mut game.clone(), &Guess, depth).score, "{stones} stones, depth {depth}");
        }
    }
}

/// Says it has no hooks, but claims checks.
#[derive(Clone, Debug)]
struct Liar(Nim);

impl Game for Liar {
    type Move = usize;
    const HOOKS: bool = false;

    fn legal_moves(&self, moves: &mut Vec<usize>) {
        self.0.legal_moves(moves);
    }
    fn play(&mut self, take: usize) {
        self.0.play(take);
    }
    fn undo(&mut self, take: usize) {
        self.0.undo(take);
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn key(&self) -> Key {
        self.0.key()
    }
    fn move_code(take: usize) -> u16 {
        take as u16
    }
    fn in_check(&self) -> bool {
        self.0.stones % 2 == 1
    }
}

#[derive(Clone, Copy, Debug)]
struct Blind;

impl Evaluator<Liar> for Blind {
    const HOOKS: bool = false;

    fn evaluate(&self, _: &Liar) -> Score {
        0
    }
}

#[cfg(debug_assertions)]
#[test]
#[should_panic(expected = "Game::HOOKS is false")]
fn a_game_that_breaks_its_promise_is_caught_in_debug_builds() {
    let mut searcher = Searcher::with_table_size(Blind, 1);
    searcher.search(&Liar(Nim { stones: 9, moves: 0 }), &Limits::depth(4), |_| {});
}

/// Knows the wins of one take and says so by a plan, noting how many moves into the game it was asked.
#[derive(Clone, Debug, Default)]
struct Planner {
    asked_at: std::sync::Arc<std::sync::Mutex<Vec<usize>>>,
}

impl Evaluator<Nim> for Planner {
    fn evaluate(&self, nim: &Nim) -> Score {
        Guess.evaluate(nim)
    }

    fn winning_plan(&self, nim: &Nim) -> Option<usize> {
        self.asked_at.lock().unwrap().push(nim.moves);
        [1, 2, 5].into_iter().find(|&take| take == nim.stones)
    }
}

#[test]
fn the_plan_is_asked_only_as_far_from_the_horizon_as_the_option_says() {
    let depth = 7;
    for plan_depth in [2, 4, 6, 8] {
        let planner = Planner::default();
        let options = SearchOptions::default().with_plan_depth(plan_depth);
        let mut searcher = Searcher::with_table_size(planner.clone(), 1).with_options(options);
        searcher.search(&Nim { stones: 40, moves: 0 }, &Limits::depth(depth), |_| {});
        let asked = planner.asked_at.lock().unwrap().clone();
        // A node `moves` plies from the root is at most `depth - moves` plies from the horizon.
        assert!(asked.iter().all(|&ply| depth as i32 - ply as i32 >= plan_depth), "{plan_depth}: {asked:?}");
        assert_eq!(asked.is_empty(), plan_depth > depth as i32, "{plan_depth}");
    }
}
