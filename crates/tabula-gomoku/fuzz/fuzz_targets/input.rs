//! Feeds arbitrary text to the move-list reader under every rule and to a Gomocup session (commands that make
//! the engine think are left out, to keep each run short): errors are fine, panics are not.
//! Run with `cargo fuzz run input` from the crate directory (nightly).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_gomoku::{Board, Rule, Session};

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
        for line in text.lines().take(64) {
            let command = line.trim_start().to_ascii_uppercase();
            if ["BEGIN", "TURN", "DONE", "RESTART"].iter().any(|c| command.starts_with(c)) {
                continue;
            }
            let _ = session.handle(line);
        }
    });
});

thread_local! {
    static SESSION: std::cell::RefCell<Session> = std::cell::RefCell::new(Session::new());
}
