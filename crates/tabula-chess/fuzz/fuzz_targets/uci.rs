//! Feeds arbitrary bytes through the line reader to a UCI session, as the serving harness does: every line
//! is answered without a panic, a line that is not text with `info string error: line N ...`. Commands
//! that search (`go`, `bench`) are left out to keep each run short. Run with `cargo fuzz run uci` from the
//! crate directory (nightly); `fuzz/seeds/uci` holds the transcript test's bad bytes to start from.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_chess::engine::uci::UciSession;
use tabula_protocol::lines::LineReader;
use tabula_protocol::server::answer_read;

fuzz_target!(|data: &[u8]| {
    // One session for the whole run: creating one allocates the engine's table.
    SESSION.with_borrow_mut(|session| {
        for line in LineReader::with_limit(data, 512).take(64) {
            let line = line.expect("memory does not fail");
            let first = line.as_deref().map_or("", |l| l.split_whitespace().next().unwrap_or(""));
            // A big table or many threads would only measure the allocator.
            let costly = line.as_deref().is_ok_and(|l| l.to_ascii_lowercase().contains("hash") || l.contains("hread"));
            if ["go", "bench", "quit"].contains(&first) || (first == "setoption" && costly) {
                continue;
            }
            let answer = answer_read(session, line.as_deref());
            if let Err(bad) = &line {
                assert_eq!(answer, [format!("info string error: {bad}")]);
            }
        }
    });
});

thread_local! {
    static SESSION: std::cell::RefCell<UciSession> = std::cell::RefCell::new(UciSession::new());
}
