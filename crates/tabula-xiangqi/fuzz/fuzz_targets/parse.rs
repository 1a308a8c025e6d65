//! Feeds arbitrary text to the FEN, ICCS, Fairy-Stockfish and WXF/Chinese parsers: none may panic, whatever
//! parses as a position must survive a FEN round trip, and every move read must be legal, keep the key right,
//! and undo cleanly; the repetition rules then judge the game played.
//! Run with `cargo fuzz run parse` from the crate directory (nightly).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_board::testing::fuzz::check_play_and_undo;
use tabula_xiangqi::{repetition, Move, Position};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // The first line is a FEN, the rest are moves in any of the notations.
    let mut lines = text.lines();
    let mut pos = Position::from_fen(lines.next().unwrap_or("")).unwrap_or_default();
    assert_eq!(Position::from_fen(&pos.to_fen()).as_ref(), Ok(&pos));
    for line in lines {
        let _ = (Move::from_iccs(line), Move::from_fairy(line));
        let mv = pos.parse_iccs(line).or_else(|_| pos.parse_fairy(line)).or_else(|_| pos.parse_notation(line));
        if let Ok(mv) = mv {
            check_play_and_undo(&mut pos, mv, Position::key_from_scratch);
            let _ = repetition::adjudicate(&pos, 2);
        }
    }
    for &mv in pos.legal_moves().iter() {
        assert_eq!(pos.parse_notation(&pos.wxf(mv)), Ok(mv));
        assert_eq!(pos.parse_notation(&pos.chinese(mv)), Ok(mv));
    }
});
