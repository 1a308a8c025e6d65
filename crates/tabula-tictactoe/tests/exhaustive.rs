//! Exhaustive checks over all 5,478 reachable tic-tac-toe positions.

use tabula::game::Game;
use tabula::search::{minimax, verify, SearchOptions, Searcher};
use tabula_tictactoe::{Heuristic, TicTacToe};

/// The table-backed search, solving each position to the end, agrees with minimax on every position.
#[test]
fn table_search_matches_minimax_on_every_position() {
    let positions = TicTacToe::all_positions();
    assert_eq!(positions.len(), 5478);
    let mut searcher = Searcher::new(Heuristic, 1);
    let mut solver = Searcher::new(Heuristic, 1);
    solver.set_options(SearchOptions::solver());
    for g in &positions {
        let depth = g.max_plies_remaining().unwrap();
        let expected = minimax(&mut g.clone(), &Heuristic, depth);
        // The table is shared across positions on purpose: entries from earlier positions must stay right.
        assert_eq!(searcher.search_depth(g, depth.max(1)).score, expected, "search of\n{g}");
        assert_eq!(solver.solve(g).score, expected, "solve of\n{g}");
        assert_eq!(solver.solve_weak(g).score, expected.signum(), "weak solve of\n{g}");
    }
}

/// Every option combination agrees with minimax at every fixed depth, heuristic leaves included.
#[test]
fn every_option_set_matches_minimax_at_fixed_depths() {
    let positions = TicTacToe::all_positions();
    // A deterministic sample across all stages of the game.
    for g in positions.iter().step_by(37) {
        for depth in 1..=g.max_plies_remaining().unwrap().max(1) {
            if let Err(m) = verify::check_all(g, &Heuristic, depth) {
                panic!("{m}\n{g}");
            }
        }
    }
}

#[test]
fn start_is_a_draw() {
    let mut s = Searcher::new(Heuristic, 1);
    let r = s.search_depth(&TicTacToe::new(), 9);
    assert_eq!(r.score, 0);
    assert_eq!(r.pv.len(), 9, "the principal variation plays the game out: {:?}", r.pv);
}
