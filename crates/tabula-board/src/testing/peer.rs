//! An engine the tests compare against where it is installed (Stockfish, Fairy-Stockfish), spoken to over UCI
//! through the shared engine-process driver, so that a crash or a hang fails the test with a message instead of
//! blocking it.

use std::time::Duration;
use tabula_protocol::process::Process;

/// A peer engine's process, told `quit` when dropped.
pub struct Peer {
    process: Process,
    /// The name its failures give.
    name: &'static str,
    /// How long any question may take.
    patience: Duration,
}

impl Peer {
    /// Starts the first of `programs` that runs and waits for `uciok`; `None` where none does.
    ///
    /// # Panics
    ///
    /// If the engine does not answer `uci`.
    pub fn start(programs: &[&str], name: &'static str, patience: Duration) -> Option<Peer> {
        let process = programs.iter().find_map(|program| Process::spawn(&[program.to_string()]).ok())?;
        let mut peer = Peer { process, name, patience };
        peer.ask("uci", "uciok");
        Some(peer)
    }

    /// Sends `cmd` and returns the lines (trimmed) up to and including the first that starts with `until`.
    ///
    /// # Panics
    ///
    /// If the engine fails or takes longer than its patience.
    pub fn ask(&mut self, cmd: &str, until: &str) -> Vec<String> {
        let lines = self.process.ask(cmd, self.patience, |line| line.starts_with(until));
        let lines = lines.unwrap_or_else(|e| panic!("{} after {cmd:?}: {e}", self.name));
        lines.into_iter().map(|line| line.trim().to_owned()).collect()
    }

    /// Sends `line` without waiting for an answer.
    ///
    /// # Panics
    ///
    /// If the engine cannot read it.
    pub fn send(&mut self, line: &str) {
        self.process.send(line).unwrap_or_else(|e| panic!("{} reads: {e}", self.name));
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.process.send("quit");
    }
}
