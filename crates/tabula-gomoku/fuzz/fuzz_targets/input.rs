//! Feeds arbitrary text to the move-list reader under every rule, and the bytes through the line reader to a
//! Gomocup session as the serving harness does (commands that make the engine think are left out, to keep
//! each run short): errors are fine, panics are not, and a line that is not text is answered `ERROR line N`.
//! Run with `cargo fuzz run input` from the crate directory (nightly); `fuzz/seeds/input` holds the
//! transcript test's bad bytes to start from.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_gomoku::{Board, Rule, Session};
use tabula_protocol::lines::LineReader;
use tabula_protocol::server::answer_read;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for rule in ["freestyle", "standard", "renju"] {
        let rule: Rule = rule.parse().expect("a rule");
        if let Ok(board) = Board::from_moves(15, 15, rule, &text) {
            let _ = board.to_string();
        }
    }
    // One session for the whole run: creating one allocates the engine's table.
    SESSION.with_borrow_mut(|session| {
        for line in LineReader::with_limit(data, 512).take(64) {
            let line = line.expect("memory does not fail");
            let command = line.as_deref().map_or(String::new(), |l| l.trim_start().to_ascii_uppercase());
            if ["BEGIN", "TURN", "DONE", "RESTART"].iter().any(|c| command.starts_with(c)) {
                continue;
            }
            let answer = answer_read(session, line.as_deref());
            if line.is_err() {
                assert!(answer[0].starts_with("ERROR line "), "{answer:?}");
            }
        }
    });
});

thread_local! {
    static SESSION: std::cell::RefCell<Session> = std::cell::RefCell::new(Session::new());
}
