//! Polyglot keys: the reference values, incremental against from-scratch keys, transpositions, key quality.

use tabula::Key;
use tabula_board::testing::{check_keys_through_random_walks, play_line, Rules};
use tabula_chess::{zobrist, Position};

const RULES: Rules<Position> = Rules {
    from_fen: |fen| Position::from_fen(fen).unwrap(),
    to_fen: Position::to_fen,
    key_from_scratch: Position::key_from_scratch,
};

/// The Polyglot reference positions and keys (the moves e4 d5 e5 f5 Ke2 Kf7 from the start, and a4 b5 h4 b4 c4
/// bxc3 Ra3 from it).
const REFERENCE: [(&str, u64); 9] = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9c),
    ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196),
    ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0),
    ("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4),
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78),
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652a607ca3f242c1),
    ("rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00fdd303c946bdd9),
    ("rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c8123ea7b067637),
    ("rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5c3f9b829b279560),
];

#[test]
fn polyglot_reference_keys_from_fen() {
    for (fen, key) in REFERENCE {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(pos.key(), Key(key), "{fen}");
        assert_eq!(pos.key_from_scratch(), Key(key), "{fen}");
    }
}

#[test]
fn polyglot_reference_keys_by_playing_the_moves() {
    // Each line of moves, and after which ply (1 = after the first move) each reference position is reached.
    type Line<'a> = (&'a [&'a str], &'a [(usize, usize)]);
    let lines: [Line; 2] = [
        (&["e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"], &[(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)]),
        (&["a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"], &[(5, 7), (7, 8)]),
    ];
    for (moves, checked) in lines {
        let mut pos = Position::startpos();
        let mut keys = vec![pos.key()];
        for uci in moves {
            pos.play(pos.parse_uci(uci).unwrap()).unwrap();
            keys.push(pos.key());
        }
        for &(ply, index) in checked {
            assert_eq!(keys[ply], Key(REFERENCE[index].1), "after reaching {}", REFERENCE[index].0);
        }
        for _ in moves {
            pos.undo();
        }
        assert_eq!(pos.key(), Key(REFERENCE[0].1));
    }
}

#[test]
fn incremental_key_equals_key_from_scratch_through_random_moves_and_undos() {
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    let mut rng = tabula::rng::Rng::new(7);
    check_keys_through_random_walks(&RULES, &starts, 40, 120, &mut |n| rng.below(n));
}

#[test]
fn transpositions_share_a_key() {
    let play = |moves: &[&str]| play_line(Position::startpos(), moves, |pos, uci| pos.parse_uci(uci).unwrap());
    let a = play(&["g1f3", "g8f6", "b1c3", "b8c6"]);
    let b = play(&["b1c3", "b8c6", "g1f3", "g8f6"]);
    assert_eq!(a.key(), b.key());
    let c = play(&["e2e4", "e7e5", "g1f3"]);
    let d = play(&["g1f3", "e7e5", "e2e4"]);
    assert_eq!(c.key(), d.key());
    // Same placement but a lost castling right: different keys.
    let e = play(&["g1f3", "g8f6", "h1g1", "h8g8", "g1h1", "g8h8"]);
    let developed = play(&["g1f3", "g8f6"]);
    assert_eq!(e.board(), developed.board());
    assert_ne!(e.key(), developed.key());
    // A double push that no pawn can take en passant transposes with two single pushes.
    // (The bishop's triangle f1-e2-d3-f1 loses the tempo the double push gained.)
    let f = play(&["e2e4", "g8f6", "f1e2", "f6g8", "e2d3", "g8f6", "d3f1", "f6g8"]);
    let g = play(&["e2e3", "g8f6", "e3e4", "f6g8"]);
    assert_eq!(f.board(), g.board());
    assert_eq!(f.key(), g.key());
}

#[test]
fn polyglot_keys_are_sound() {
    let report = tabula::quality::check(zobrist::POLYGLOT.as_slice());
    assert!(report.is_sound(), "{report}");
    assert_eq!(report.keys, 781);
}
