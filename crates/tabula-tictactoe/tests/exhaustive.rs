//! Exhaustive checks over all 5,478 reachable tic-tac-toe positions.

use tabula::game::HookedGame;
use tabula::search::{minimax, verify, SearchOptions, Searcher};
use tabula_tictactoe::{Heuristic, TicTacToe};

/// The table-backed search, solving each position to the end, agrees with minimax on every position.
#[test]
fn table_search_matches_minimax_on_every_position() {
    let positions = TicTacToe::all_positions();
    assert_eq!(positions.len(), 5478);
    let mut searcher = Searcher::with_table_size(Heuristic, 1);
    let mut solver = Searcher::with_table_size(Heuristic, 1);
    solver.set_options(SearchOptions::solver());
    for g in &positions {
        let depth = g.remaining().unwrap().plies;
        let expected = minimax(&mut g.clone(), &Heuristic, depth).score;
        // The table is shared across positions on purpose: entries from earlier positions must stay right.
        assert_eq!(searcher.search_depth(g, depth.max(1)).score, expected, "search of\n{g}");
        assert_eq!(solver.solve(g).score, expected, "solve of\n{g}");
        assert_eq!(solver.solve_weak(g).score, expected.signum(), "weak solve of\n{g}");
    }
}

/// Two threads, which defer the moves the other thread is searching, agree with minimax on every position, in
/// the full search (default options) and the lean one (table and PVS).
#[test]
fn two_threads_match_minimax_on_every_position() {
    for options in [SearchOptions::default(), SearchOptions::table_and_pvs()] {
        let mut searcher = Searcher::with_table_size(Heuristic, 1).with_options(options.with_threads(2));
        for g in &TicTacToe::all_positions() {
            let depth = g.remaining().unwrap().plies;
            let expected = minimax(&mut g.clone(), &Heuristic, depth).score;
            searcher.clear();
            assert_eq!(searcher.search_depth(g, depth.max(1)).score, expected, "{:?}\n{g}", searcher.options());
        }
    }
}

/// Every option combination agrees with minimax at every fixed depth, heuristic leaves included.
#[test]
fn every_option_set_matches_minimax_at_fixed_depths() {
    let positions = TicTacToe::all_positions();
    // A deterministic sample across all stages of the game.
    for g in positions.iter().step_by(37) {
        for depth in 1..=g.remaining().unwrap().plies.max(1) {
            if let Err(m) = verify::check_all(g, &Heuristic, depth) {
                panic!("{m}\n{g}");
            }
        }
    }
}

#[test]
fn start_is_a_draw() {
    let mut s = Searcher::with_table_size(Heuristic, 1);
    let r = s.search_depth(&TicTacToe::new(), 9);
    assert_eq!(r.score, 0);
    assert_eq!(r.pv.len(), 9, "the principal variation plays the game out: {:?}", r.pv);
}

/// Without a depth limit, iterative deepening stops once an iteration reaches the end of every line: the
/// start is a proved draw after nine iterations, not a heuristic 0 after a thousand.
#[test]
fn unlimited_search_stops_at_the_proved_draw() {
    let mut s = Searcher::with_table_size(Heuristic, 1);
    let mut iterations = 0;
    let r = s.search(&TicTacToe::new(), tabula::search::Limits::default(), |_| iterations += 1);
    assert!(r.exact && r.score == 0, "{r:?}");
    assert!(r.depth <= 10 && iterations <= 10, "{} iterations", iterations);
    let solved = s.solve(&TicTacToe::new());
    assert_eq!((solved.score, solved.pv.len()), (0, 9), "{solved:?}");
}

/// The options that change values at a fixed depth (singular extensions and reductions, counter moves and
/// continuation history steering reductions, deeper reductions at expected cut nodes, pruning, razoring)
/// still end, searching without a depth limit, at each position's proved value: a node that leaves the table
/// move out to test it neither stores nor cuts off on the table, so nothing it finds poisons the proved
/// entries.
#[test]
fn heuristic_options_end_at_the_proved_value() {
    let options = SearchOptions::default()
        .with_killers(true)
        .with_counter_moves(true)
        .with_continuation_history(true)
        .with_lmr(true)
        .with_lmr_history(Some(8192))
        .with_improving(true)
        .with_losing_move_pruning(Some(3))
        .with_razor_margin(Some(1))
        .with_cut_node_reduction(Some(1))
        .with_singular_depth(Some(2))
        .with_singular_reduction(true);
    let mut searcher = Searcher::with_table_size(Heuristic, 1).with_options(options);
    for g in TicTacToe::all_positions().iter().step_by(5) {
        let expected = minimax(&mut g.clone(), &Heuristic, g.remaining().unwrap().plies).score;
        let r = searcher.search(g, tabula::search::Limits::default(), |_| {});
        assert!(r.exact && r.score == expected, "{:?} against {expected}\n{g}", r.score);
    }
}
