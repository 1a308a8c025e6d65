//! Every search configuration against plain minimax on random Connect Four positions, and the keys.

use proptest::prelude::*;
use tabula::game::{Game, HookedGame};
use tabula::search::{verify, Limits, Request};
use tabula::zobrist::SplitMix64;
use tabula_connect4::{Board, Standard, Threats};

/// A position after `plies` random moves that does not end the game.
fn random_position(rng: &mut SplitMix64, plies: usize) -> Standard {
    let mut board = Standard::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        board.legal_moves(&mut moves);
        let mv = moves[(rng.next() % moves.len() as u64) as usize];
        board.play(mv);
        if board.outcome().is_some() {
            board.undo(mv);
            break;
        }
    }
    board
}

#[test]
fn every_option_set_matches_minimax() {
    let mut rng = SplitMix64::new(4);
    for i in 0..24 {
        let board = random_position(&mut rng, 4 + i);
        for depth in 1..=5 {
            if let Err(m) = verify::check_all(&board, &Threats, depth) {
                panic!("{m}\n{board}");
            }
        }
    }
}

#[test]
fn deeper_near_the_end() {
    // Near the end the horizon reaches the terminal positions, so mate scores are compared too.
    let mut rng = SplitMix64::new(11);
    for _ in 0..6 {
        let board = random_position(&mut rng, 30);
        if let Err(m) = verify::check_all(&board, &Threats, 7) {
            panic!("{m}\n{board}");
        }
    }
}

#[test]
fn other_board_sizes_work() {
    let mut board = Board::<5, 4>::new();
    board.play_sequence("3324").unwrap();
    for depth in 1..=6 {
        verify::check_all(&board, &Threats, depth).unwrap();
    }
    let mut solver = tabula_connect4::Solver::<4, 4>::new(4);
    // 4×4 Connect Four is a draw.
    assert_eq!(solver.solve(&Board::<4, 4>::new()).score, 0);
}

proptest! {
    /// The incremental keys equal the keys computed from scratch after any sequence of moves and undos.
    #[test]
    fn incremental_keys_match_scratch(choices in prop::collection::vec((0u8..7, any::<bool>()), 0..60)) {
        let mut board = Standard::new();
        let mut played = Vec::new();
        for (col, undo) in choices {
            if undo {
                if let Some(c) = played.pop() {
                    board.undo(c);
                }
            } else if board.outcome().is_none() && board.can_play(col) {
                board.play(col);
                played.push(col);
            }
            let (key, mirror) = board.key_from_scratch();
            prop_assert_eq!(board.key(), key);
            let table_key = board.table_key().key;
            prop_assert_eq!(table_key, key.min(mirror));
        }
    }

    /// Two move orders that reach one position give one key; a mirrored position gives the same table key.
    #[test]
    fn transpositions_and_mirrors_share_keys(cols in prop::collection::vec(0u8..7, 2..12)) {
        let seq: String = cols.iter().map(|c| char::from(b'1' + c)).collect();
        let Ok(a) = seq.parse::<Standard>() else { return Ok(()) };
        // Swapping two moves of the same player keeps the position if both stay legal.
        if cols.len() >= 3 && cols[0] != cols[2] {
            let mut swapped = cols.clone();
            swapped.swap(0, 2);
            let seq2: String = swapped.iter().map(|c| char::from(b'1' + c)).collect();
            if let Ok(b) = seq2.parse::<Standard>() {
                if a.to_string() == b.to_string() {
                    prop_assert_eq!(a.key(), b.key());
                }
            }
        }
        let mirrored: String = cols.iter().map(|c| char::from(b'1' + (6 - c))).collect();
        let m: Standard = mirrored.parse().unwrap();
        prop_assert_eq!(a.table_key().key, m.table_key().key);
    }
}

/// A restricted root keeps to its moves even where the tactical hooks know a win elsewhere: with a win at
/// once in columns 3 and 7, `searchmoves`-style root moves and MultiPV's exclusions are obeyed.
#[test]
fn restricted_roots_keep_to_their_moves() {
    let board: Standard = "445566".parse().unwrap();
    let mut searcher = tabula::search::Searcher::with_table_size(Threats, 1);
    // (Columns are 0-based in the move type, 1-based in the notation.)
    let only_first = Request::new(Limits::depth(6)).with_root_moves(&[0]);
    assert_eq!(searcher.search(&board, only_first, |_| {}).best_move, Some(0));
    let lines = searcher.search(&board, Request::new(Limits::depth(6)).with_lines(3), |_| {}).lines;
    let firsts: Vec<_> = lines.iter().map(|l| l.pv[0]).collect();
    assert_eq!(lines.len(), 3);
    assert!(firsts[..2].contains(&2) && firsts[..2].contains(&6), "{lines:?}");
    assert!(lines[0].score == lines[1].score && lines[1].score > lines[2].score, "{lines:?}");
}
