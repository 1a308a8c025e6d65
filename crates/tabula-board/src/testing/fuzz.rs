//! What the board games' fuzz targets share: arbitrary bytes fed to a protocol session as the serving harness
//! feeds it, and a move read from arbitrary text played and taken back.

use std::any::Any;
use std::cell::RefCell;
use std::fmt::Debug;
use tabula::{Game, Key};
use tabula_protocol::lines::LineReader;
use tabula_protocol::server::{answer_read, Protocol};

thread_local! {
    /// One session of each type for the whole run: creating one allocates the engine's table.
    static SESSIONS: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// Feeds `data` through the line reader (at most 64 lines of at most 512 bytes) to this thread's session of
/// type `P`, made by `new` the first time: every line is answered without a panic, a line that is not text with
/// `info string error: line N ...`. Commands that search (`go`, `bench`) and options that allocate (a big table,
/// many threads) are left out to keep each run short.
///
/// # Panics
///
/// If the session answers a line that is not text otherwise.
pub fn feed_session<P: Protocol + 'static>(new: fn() -> P, data: &[u8]) {
    SESSIONS.with_borrow_mut(|sessions| {
        let index = match sessions.iter().position(|s| s.is::<P>()) {
            Some(index) => index,
            None => {
                sessions.push(Box::new(new()));
                sessions.len() - 1
            }
        };
        let session = sessions[index].downcast_mut::<P>().expect("the session of this type");
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
}

/// Plays `mv`, read from outside, in `pos`, takes it back and plays it again: it must be legal, the key after it
/// must be the key from scratch, and the undo must give back the position.
///
/// # Panics
///
/// If one of these fails.
pub fn check_play_and_undo<G: Game + Clone + PartialEq + Debug>(
    pos: &mut G,
    mv: G::Move,
    key_from_scratch: fn(&G) -> Key,
) {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(moves.contains(&mv), "a parsed move is legal");
    let before = pos.clone();
    pos.play(mv);
    assert_eq!(pos.key(), key_from_scratch(pos));
    pos.undo(mv);
    assert_eq!(pos, &before);
    pos.play(mv);
}
