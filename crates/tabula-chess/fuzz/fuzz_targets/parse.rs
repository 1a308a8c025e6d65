//! Feeds arbitrary text to the FEN, EPD, UCI and SAN parsers: none may panic, and whatever parses as a position
//! must survive move generation, every legal move made and taken back, and a FEN round trip.
//! Run with `cargo fuzz run parse` from the crate directory (nightly).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_board::testing::fuzz::check_play_and_undo;
use tabula_chess::{Epd, Move, Position};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // The first line is a FEN, the rest are moves in UCI or SAN.
    let mut lines = text.lines();
    let fen = lines.next().unwrap_or("");
    let _ = Epd::parse(fen);
    let mut pos = Position::from_fen(fen).unwrap_or_default();
    assert_eq!(Position::from_fen(&pos.to_fen()).as_ref(), Ok(&pos));
    for line in lines {
        let _ = Move::from_uci(line);
        let mv = pos.parse_uci(line).or_else(|_| pos.parse_san(line).map_err(|_| ()));
        if let Ok(mv) = mv {
            check_play_and_undo(&mut pos, mv, Position::key_from_scratch);
        }
    }
    for &mv in pos.legal_moves().iter() {
        let _ = pos.san(mv);
    }
});
