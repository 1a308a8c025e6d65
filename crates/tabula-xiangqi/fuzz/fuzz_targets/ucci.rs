//! Feeds arbitrary bytes through the line reader to a xiangqi UCCI session, as the serving harness does: every line
//! is answered without a panic, a line that is not text with `info string error: line N ...` (see
//! [`feed_session`](tabula_board::testing::fuzz::feed_session)). Run with `cargo fuzz run ucci` from the crate
//! directory (nightly); `fuzz/seeds/ucci` holds the transcript test's bad bytes to start from.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_board::testing::fuzz::feed_session;
use tabula_xiangqi::engine::ucci::UcciSession;

fuzz_target!(|data: &[u8]| feed_session(UcciSession::new, data));
