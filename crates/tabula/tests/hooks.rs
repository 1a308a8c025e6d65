//! A game and evaluator that name no hooks (`Game::HOOKS`, `Evaluator::HOOKS`) are searched by the lean
//! search under the default options, with minimax's values; a hook one of them names is used.

use tabula::game::{Evaluator, EvaluatorHooks, Game, Hooks, Outcome};
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
    assert!(SearchOptions::default().for_hooks::<Nim, Guess>().is_lean());
    for stones in [7, 12, 20, 33, 50] {
        for depth in 1..=6 {
            let game = Nim { stones, moves: 0 };
            verify::check_all(&game, &Guess, depth).unwrap_or_else(|m| panic!("{stones} stones: {m}"));
            let mut searcher = Searcher::with_table_size(Guess, 1);
            let result = searcher.search(&game, Limits::depth(depth), |_| {});
            assert_eq!(result.score, minimax(&mut game.clone(), &Guess, depth).score, "{stones} stones, depth {depth}");
        }
    }
}

/// Nim that says the side to move is in check on an odd heap: the one hook it names.
#[derive(Clone, Debug)]
struct Checked(Nim);

impl Checked {
    fn odd(&self) -> bool {
        self.0.stones % 2 == 1
    }
}

impl Game for Checked {
    type Move = usize;
    const HOOKS: Hooks<Checked> = Hooks { in_check: Some(Checked::odd), ..Hooks::NONE };

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
}

#[derive(Clone, Copy, Debug)]
struct Blind;

impl Evaluator<Checked> for Blind {
    fn evaluate(&self, _: &Checked) -> Score {
        0
    }
}

#[test]
fn a_named_hook_keeps_the_features_that_use_it() {
    let options = SearchOptions::default().for_hooks::<Checked, Blind>();
    // Checks are extended and answered in quiescence; nothing else has work.
    assert!(options.check_extension && options.quiescence && !options.is_lean());
    assert!(!options.tactics && !options.null_move);
    // An extended check reaches past the horizon: a depth-1 search sees more than one ply.
    let mut searcher = Searcher::with_table_size(Blind, 1);
    let result = searcher.search(&Checked(Nim { stones: 9, moves: 0 }), Limits::depth(1), |_| {});
    assert!(result.seldepth > 1, "seldepth {}", result.seldepth);
}

/// Knows the wins of one take and says so by a plan, noting how many moves into the game it was asked.
#[derive(Clone, Debug, Default)]
struct Planner {
    asked_at: std::sync::Arc<std::sync::Mutex<Vec<usize>>>,
}

impl Planner {
    fn plan(&self, nim: &Nim) -> Option<usize> {
        self.asked_at.lock().unwrap().push(nim.moves);
        [1, 2, 5].into_iter().find(|&take| take == nim.stones)
    }
}

impl Evaluator<Nim> for Planner {
    const HOOKS: EvaluatorHooks<Nim, Planner> =
        EvaluatorHooks { winning_plan: Some(Planner::plan), ..EvaluatorHooks::NONE };

    fn evaluate(&self, nim: &Nim) -> Score {
        Guess.evaluate(nim)
    }
}

#[test]
fn the_plan_is_asked_only_as_far_from_the_horizon_as_the_option_says() {
    let depth = 7;
    for plan_depth in [2, 4, 6, 8] {
        let planner = Planner::default();
        let options = SearchOptions::default().with_plan_depth(plan_depth);
        let mut searcher = Searcher::with_table_size(planner.clone(), 1).with_options(options);
        searcher.search(&Nim { stones: 40, moves: 0 }, Limits::depth(depth), |_| {});
        let asked = planner.asked_at.lock().unwrap().clone();
        // A node `moves` plies from the root is at most `depth - moves` plies from the horizon.
        assert!(asked.iter().all(|&ply| depth as i32 - ply as i32 >= plan_depth), "{plan_depth}: {asked:?}");
        assert_eq!(asked.is_empty(), plan_depth > depth as i32, "{plan_depth}");
    }
}
