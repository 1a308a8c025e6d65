//! Arbitrary bytes to a xiangqi UCI session (see `session.rs`). Run with `cargo fuzz run uci` from the crate
//! directory (nightly); `fuzz/seeds/uci` holds the transcript test's bad bytes to start from.
#![no_main]

#[path = "session.rs"]
mod session;

use libfuzzer_sys::fuzz_target;
use tabula_xiangqi::engine::uci::UciSession;

fuzz_target!(|data: &[u8]| {
    // One session for the whole run: creating one allocates the engine's table.
    SESSION.with_borrow_mut(|session| session::feed(session, data));
});

thread_local! {
    static SESSION: std::cell::RefCell<UciSession> = std::cell::RefCell::new(UciSession::new());
}
