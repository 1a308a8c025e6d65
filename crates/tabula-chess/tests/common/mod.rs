//! Stockfish as a peer for the tests that run where it is installed, driven by the shared engine-process
//! driver (so that a crash or a hang fails the test with a message instead of blocking it).

use std::time::Duration;
use tabula_protocol::process::Process;

const PATH: &str = "/usr/games/stockfish";
/// Far more than any question the tests ask takes.
const PATIENCE: Duration = Duration::from_secs(120);

/// A Stockfish process spoken to over UCI.
pub struct Stockfish(Process);

impl Stockfish {
    /// Starts Stockfish and waits for `uciok`; `None` (with a note naming `test`) where it is not installed.
    pub fn start(test: &str) -> Option<Stockfish> {
        if !std::path::Path::new(PATH).exists() {
            eprintln!("note: {PATH} not installed; skipping {test}");
            return None;
        }
        let process = Process::spawn(&[PATH.to_owned()]).unwrap_or_else(|e| panic!("{e}"));
        let mut stockfish = Stockfish(process);
        stockfish.ask("uci", "uciok");
        Some(stockfish)
    }

    /// Sends `cmd` and returns the lines (trimmed) up to and including the first that starts with `until`.
    pub fn ask(&mut self, cmd: &str, until: &str) -> Vec<String> {
        let lines = self.0.ask(cmd, PATIENCE, |line| line.starts_with(until));
        let lines = lines.unwrap_or_else(|e| panic!("stockfish after {cmd:?}: {e}"));
        lines.into_iter().map(|line| line.trim().to_owned()).collect()
    }
}

impl Drop for Stockfish {
    fn drop(&mut self) {
        let _ = self.0.send("quit");
    }
}
