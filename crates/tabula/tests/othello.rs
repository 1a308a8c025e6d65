//! The guide's Othello: keys, moves and passes, and the exact endgame solve (by disc margin) against minimax.

#[path = "../examples/othello.rs"]
#[allow(dead_code)]
mod othello;

use othello::{Othello, SquareWeights, PASS};
use tabula::game::{Game, Outcome};
use tabula::search::{minimax, verify, SearchOptions, Searcher};
use tabula::zobrist::SplitMix64;

/// The exact solve finds minimax's value, margin and all, on random positions with 10 to 12 empty squares;
/// its best move and every move of its line keep that value.
#[test]
fn endgame_solve_agrees_with_minimax() {
    let mut rng = SplitMix64::new(17);
    let mut solver = Searcher::with_table_size(SquareWeights::default(), 4).with_options(SearchOptions::solver());
    let mut checked = 0;
    for empties in [10, 10, 10, 11, 11, 12] {
        let game = Othello::random(empties, &mut rng);
        if game.outcome().is_some() {
            continue;
        }
        let plies = game.remaining().unwrap().plies;
        let expected = minimax(&mut game.clone(), &SquareWeights::default(), plies);
        let solution = solver.solve(&game);
        assert_eq!(solution.score, expected.score, "{game}");
        // The line is legal, ends the game, and ends it with the score found.
        let mut line = game.clone();
        let mut moves = Vec::new();
        for &mv in &solution.pv {
            moves.clear();
            line.legal_moves(&mut moves);
            assert!(moves.contains(&mv), "{mv} illegal in\n{line}");
            line.play(mv);
        }
        let outcome = line.outcome().expect("the line plays the game out");
        let sign = if solution.pv.len() % 2 == 0 { 1 } else { -1 };
        assert_eq!(outcome.score_at(0) * sign, expected.score, "{game}\n{line}");
        checked += 1;
        // Minimax visits every line; the solver a small part of them.
        assert!(solution.nodes * 10 < expected.nodes, "{} vs {}", solution.nodes, expected.nodes);
    }
    assert!(checked >= 5);
}

/// Every search configuration agrees with minimax at fixed depths in the middle game, passes included.
#[test]
fn every_option_set_matches_minimax() {
    let mut rng = SplitMix64::new(5);
    for plies in [8, 20, 40] {
        let mut game = Othello::new();
        let mut moves = Vec::new();
        for _ in 0..plies {
            moves.clear();
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.play(moves[(rng.next() % moves.len() as u64) as usize]);
        }
        for depth in 1..=4 {
            verify::check_all(&game, &SquareWeights::default(), depth).unwrap_or_else(|m| panic!("{m}\n{game}"));
        }
    }
}

/// The incremental key equals the key from scratch after random moves and undos; a pass flips only the side.
#[test]
fn keys_are_kept_incrementally() {
    let mut rng = SplitMix64::new(3);
    for _ in 0..20 {
        let mut game = Othello::new();
        let mut played = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..80 {
            if rng.next() % 3 == 0 {
                if let Some(mv) = played.pop() {
                    game.undo(mv);
                }
            } else {
                moves.clear();
                game.legal_moves(&mut moves);
                let Some(&mv) = moves.get((rng.next() % moves.len().max(1) as u64) as usize) else { continue };
                game.play(mv);
                played.push(mv);
            }
            assert_eq!(game.key(), game.key_from_scratch());
        }
    }
    assert_eq!(Othello::new().outcome(), None);
}

/// A side that cannot play passes, and the pass is its only move; a game neither side can play in is over,
/// by the disc margin.
#[test]
fn passes_are_moves_and_the_end_is_a_margin() {
    let mut rng = SplitMix64::new(9);
    let (mut passes, mut ends) = (0, 0);
    let mut moves = Vec::new();
    for _ in 0..200 {
        let mut game = Othello::new();
        loop {
            moves.clear();
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                let Some(Outcome::Margin(m)) = game.outcome() else { panic!("no move, yet not over:\n{game}") };
                assert!(m.abs() <= 64);
                ends += 1;
                break;
            }
            if moves.contains(&PASS) {
                assert_eq!(moves, [PASS]);
                let key = game.key();
                game.play(PASS);
                assert!(game.outcome().is_none(), "after a pass the other side can move");
                game.undo(PASS);
                assert_eq!(game.key(), key);
                passes += 1;
            }
            game.play(moves[(rng.next() % moves.len() as u64) as usize]);
        }
    }
    assert!(passes > 0 && ends == 200, "{passes} passes");
}
