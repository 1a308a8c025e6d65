//! Fairy-Stockfish as a live oracle, where it is installed (`.ci/run` installs it): along random games from the
//! start position and from the perft suite's positions, the same legal moves, the same perft 3 below each of
//! them, and the same position after each move.

#[allow(dead_code)] // the protocol tests use more of it
mod common;

use tabula_xiangqi::perft::divide;
use tabula_xiangqi::Position;

const STARTS: [&str; 4] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1",
];

/// The placement and side to move of a FEN (the clocks are counted differently by different programs).
fn position_fields(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

#[test]
fn fairy_stockfish_agrees_along_random_games() {
    let Some(mut fairy) = common::Fairy::start("the comparison with Fairy-Stockfish") else {
        return;
    };
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut plies = 0;
    for game in 0..12 {
        let start = Position::from_fen(STARTS[game % STARTS.len()]).unwrap();
        let mut pos = start.clone();
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..60 {
            fairy.set_position(&start.to_fen(), &moves);
            let (mut theirs, total) = fairy.perft(3);
            let mut ours: Vec<(String, u64)> =
                divide(&mut pos, 3).into_iter().map(|(mv, n)| (mv.to_fairy(), n)).collect();
            theirs.sort();
            ours.sort();
            assert_eq!(ours, theirs, "{}", pos.to_fen());
            assert_eq!(ours.iter().map(|(_, n)| n).sum::<u64>(), total);
            assert_eq!(position_fields(&fairy.fen()), position_fields(&pos.to_fen()), "after {moves:?}");
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[random() as usize % legal.len()];
            moves.push(mv.to_fairy());
            pos.play_unchecked(mv);
            plies += 1;
        }
    }
    assert!(plies > 300, "only {plies} plies compared");
}
