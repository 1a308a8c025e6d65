//! Feeds arbitrary text to the position reader: it may refuse it but never panic, and a position it reads has
//! keys equal to the keys computed from scratch.
//! Run with `cargo fuzz run position` from the crate directory (nightly).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula::game::Game;
use tabula_connect4::Standard;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(board) = text.parse::<Standard>() {
        assert_eq!(board.key(), board.key_from_scratch().0);
        let _ = board.to_string();
    }
});
