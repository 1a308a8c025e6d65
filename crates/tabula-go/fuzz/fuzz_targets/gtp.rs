//! Feeds arbitrary lines to a GTP session with the random player: every line gets an answer, none panics.
//! Run with `cargo fuzz run gtp` from the crate directory (nightly).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_go::GtpSession;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut session = GtpSession::random(0);
    for line in text.lines().take(64) {
        let answer = session.handle(line);
        assert!(answer.is_empty() || answer.ends_with("\n\n"), "{answer:?}");
    }
});
