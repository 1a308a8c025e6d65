//! Stockfish as a peer for the tests that run where it is installed.

use std::time::Duration;
use tabula_board::testing::peer::Peer;

const PATH: &str = "/usr/games/stockfish";
/// Far more than any question the tests ask takes.
const PATIENCE: Duration = Duration::from_secs(120);

/// Starts Stockfish and waits for `uciok`; `None` (with a note naming `test`) where it is not installed.
pub fn stockfish(test: &str) -> Option<Peer> {
    let stockfish = Peer::start(&[PATH], "stockfish", PATIENCE);
    if stockfish.is_none() {
        eprintln!("note: {PATH} not installed; skipping {test}");
    }
    stockfish
}
