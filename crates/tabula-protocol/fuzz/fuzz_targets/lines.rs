//! Feeds arbitrary bytes to the line reader, whole and in pieces of every size the input picks: every line
//! is text without LF or NUL and within the limit, or a bad line that says why; lines are
//! numbered one by one; reading never stops early. Run with `cargo fuzz run lines` from the crate directory
//! (nightly); `fuzz/seeds/lines` holds bad UTF-8, NUL, CRLF and over-long lines to start from.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io::BufReader;
use tabula_protocol::lines::{LineError, LineReader};

const LIMIT: usize = 64;

fuzz_target!(|data: &[u8]| {
    let whole: Vec<_> = LineReader::with_limit(data, LIMIT).map(|l| l.expect("memory does not fail")).collect();
    // The same bytes through a buffer of another size give the same lines.
    let capacity = 1 + data.first().copied().unwrap_or(0) as usize % 7;
    let pieces: Vec<_> = LineReader::with_limit(BufReader::with_capacity(capacity, data), LIMIT)
        .map(|l| l.expect("memory does not fail"))
        .collect();
    assert_eq!(whole, pieces);
    let newlines = data.iter().filter(|&&b| b == b'\n').count();
    let expected = newlines + usize::from(!data.is_empty() && !data.ends_with(b"\n"));
    assert_eq!(whole.len(), expected);
    for (i, line) in whole.iter().enumerate() {
        match line {
            Ok(text) => {
                assert!(text.len() <= LIMIT && !text.contains(['\n', '\0']));
            }
            Err(bad) => {
                assert_eq!(bad.number, i + 1);
                match bad.error {
                    LineError::TooLong { length, limit } => assert!(length > limit),
                    LineError::Nul { column } | LineError::NotUtf8 { column, .. } => assert!(column <= LIMIT),
                }
            }
        }
    }
});
