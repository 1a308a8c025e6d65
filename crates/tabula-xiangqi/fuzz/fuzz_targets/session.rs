//! What the `uci` and `ucci` targets share: arbitrary bytes fed through the line reader to a session, as the
//! serving harness does. Every line is answered without a panic, a line that is not text with `info string
//! error: line N ...`. Commands that search (`go`, `bench`) are left out to keep each run short.

use tabula_protocol::lines::LineReader;
use tabula_protocol::server::{answer_read, Protocol};

/// Feeds `data` to `session`, at most 64 lines of at most 512 bytes.
pub fn feed<P: Protocol>(session: &mut P, data: &[u8]) {
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
}
