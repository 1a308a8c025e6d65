//! Feeds arbitrary bytes through the line reader to a GTP session with the random player, as the serving
//! harness does: every line gets a framed answer (or none, if empty or a comment), a line that is not text
//! a `?` answer, and none panics. Run with `cargo fuzz run gtp` from the crate directory (nightly);
//! `fuzz/seeds/gtp` holds the transcript test's bad bytes to start from.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_go::GtpSession;
use tabula_protocol::lines::LineReader;
use tabula_protocol::server::answer_read;

fuzz_target!(|data: &[u8]| {
    let mut session = GtpSession::random(0);
    for line in LineReader::with_limit(data, 512).take(64) {
        let line = line.expect("memory does not fail");
        let answer = answer_read(&mut session, line.as_deref());
        if let Some(first) = answer.first() {
            assert!(first.starts_with('=') || first.starts_with('?'), "{answer:?}");
            assert_eq!(answer.last().map(String::as_str), Some(""), "{answer:?}");
        }
        if line.is_err() {
            assert!(answer[0].starts_with('?'), "{answer:?}");
        }
    }
});
