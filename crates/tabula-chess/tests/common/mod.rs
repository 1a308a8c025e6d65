//! Stockfish as a peer for the tests that run where it is installed.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

const PATH: &str = "/usr/games/stockfish";

/// A Stockfish process spoken to over UCI.
pub struct Stockfish {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Stockfish {
    /// Starts Stockfish and waits for `uciok`; `None` (with a note naming `test`) where it is not installed.
    pub fn start(test: &str) -> Option<Stockfish> {
        if !std::path::Path::new(PATH).exists() {
            eprintln!("note: {PATH} not installed; skipping {test}");
            return None;
        }
        let mut child = Command::new(PATH).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let mut stockfish = Stockfish { child, input, output };
        stockfish.ask("uci", "uciok");
        Some(stockfish)
    }

    /// Sends `cmd` and returns the lines (trimmed) up to and including the first that starts with `until`.
    pub fn ask(&mut self, cmd: &str, until: &str) -> Vec<String> {
        writeln!(self.input, "{cmd}").unwrap();
        self.input.flush().unwrap();
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            assert!(self.output.read_line(&mut line).unwrap() > 0, "stockfish exited");
            let done = line.starts_with(until);
            lines.push(line.trim().to_owned());
            if done {
                return lines;
            }
        }
    }
}

impl Drop for Stockfish {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}
