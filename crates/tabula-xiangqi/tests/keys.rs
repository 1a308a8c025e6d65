//! Zobrist keys: incremental against from-scratch keys through random moves and undos, transpositions, and the
//! quality of the key set.

use tabula_board::testing::{check_keys_through_random_walks, play_line, Rules};
use tabula_xiangqi::{zobrist, Position};

const RULES: Rules<Position> = Rules {
    from_fen: |fen| Position::from_fen(fen).unwrap(),
    to_fen: Position::to_fen,
    key_from_scratch: Position::key_from_scratch,
};

/// A small deterministic generator for random games.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        let mut rng = tabula::zobrist::SplitMix64::new(self.0);
        self.0 = rng.next();
        (self.0 % n as u64) as usize
    }
}

#[test]
fn incremental_key_equals_key_from_scratch_through_random_moves_and_undos() {
    let starts = [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    ];
    let mut rng = Rng(7);
    check_keys_through_random_walks(&RULES, &starts, 30, 150, &mut |n| rng.below(n));
}

#[test]
fn transpositions_share_a_key() {
    let play = |moves: &[&str]| play_line(Position::startpos(), moves, |pos, iccs| pos.parse_iccs(iccs).unwrap());
    let a = play(&["h2e2", "h9g7", "b0c2", "b9c7"]);
    let b = play(&["b0c2", "b9c7", "h2e2", "h9g7"]);
    assert_eq!(a.key(), b.key());
    assert_eq!(a.board(), b.board());
    // Moving a rook back and forth returns the same key.
    let c = play(&["h2e2", "h9g7", "b0c2", "b9c7", "a0a1", "a9a8", "a1a0", "a8a9"]);
    assert_eq!(c.key(), a.key());
    // A rook's triangle loses a tempo: the same placement with Black to move has another key.
    let f = play(&["h2e2", "h9g7", "b0c2", "b9c7", "a0a1", "a9a8", "a1a2", "a8a9", "a2a0"]);
    assert_eq!(f.board(), a.board());
    assert_ne!(f.key(), a.key());
    assert_eq!(f.key(), a.key() ^ zobrist::BLACK_TO_MOVE);
}

#[test]
fn the_key_set_is_sound() {
    let report = tabula::quality::check(zobrist::KEYS.as_slice());
    assert!(report.is_sound(), "{report}");
    assert_eq!(report.keys, 90 * 14 + 1);
    assert_eq!(report.rank, 64);
}
