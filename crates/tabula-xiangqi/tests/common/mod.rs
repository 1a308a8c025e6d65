//! Helpers for the tests: a check that a protocol session answered with a legal move, network files written
//! for the sessions to load, and Fairy-Stockfish as a peer for the tests that run where it is installed: the Debian package `fairy-stockfish`, speaking UCI with
//! `UCI_Variant` set to xiangqi. It writes squares with ranks 1–10.

#[cfg(feature = "engine")]
use std::path::PathBuf;
use std::time::Duration;
use tabula_board::testing::peer::Peer;
#[cfg(feature = "engine")]
use tabula_xiangqi::engine::nnue::{Layers, Network, PALACE};
use tabula_xiangqi::Position;

/// Where the Debian package installs it, then the name to find on `PATH`.
const CANDIDATES: [&str; 2] = ["/usr/games/fairy-stockfish", "fairy-stockfish"];

/// Far more than any question the tests ask takes.
const PATIENCE: Duration = Duration::from_secs(300);

/// A Fairy-Stockfish process playing xiangqi.
pub struct Fairy(Peer);

impl Fairy {
    /// Starts Fairy-Stockfish in xiangqi mode; `None` (with a note naming `what`) where it is not installed.
    pub fn start(what: &str) -> Option<Fairy> {
        let Some(peer) = Peer::start(&CANDIDATES, "fairy-stockfish", PATIENCE) else {
            eprintln!("note: fairy-stockfish not installed (apt-get install fairy-stockfish); skipping {what}");
            return None;
        };
        let mut fairy = Fairy(peer);
        fairy.ask("setoption name UCI_Variant value xiangqi\nisready", "readyok");
        Some(fairy)
    }

    /// Sends `cmd` and returns the lines (trimmed) up to and including the first that starts with `until`.
    pub fn ask(&mut self, cmd: &str, until: &str) -> Vec<String> {
        self.0.ask(cmd, until)
    }

    /// Sets up `fen` followed by `moves` (in its own coordinates, ranks 1–10).
    pub fn set_position(&mut self, fen: &str, moves: &[String]) {
        let moves = if moves.is_empty() { String::new() } else { format!(" moves {}", moves.join(" ")) };
        self.0.send(&format!("position fen {fen}{moves}"));
    }

    /// `go perft depth` on the position set: each root move (in its coordinates) with its count, and the total.
    pub fn perft(&mut self, depth: u32) -> (Vec<(String, u64)>, u64) {
        let lines = self.ask(&format!("go perft {depth}"), "Nodes searched");
        let split = lines
            .iter()
            .filter_map(|l| l.split_once(": "))
            .filter(|(mv, _)| !mv.starts_with("Nodes"))
            .map(|(mv, n)| (mv.to_owned(), n.parse().expect("a count after the move")))
            .collect();
        let total = lines.last().and_then(|l| l.strip_prefix("Nodes searched: ")).expect("the total line");
        (split, total.parse().expect("a node count"))
    }

    /// The FEN of the position set, as its `d` command prints it.
    pub fn fen(&mut self) -> String {
        let lines = self.ask("d", "Checkers");
        lines.iter().find_map(|l| l.strip_prefix("Fen: ")).expect("a Fen: line").to_owned()
    }
}

/// The move a protocol session's last line (`bestmove MOVE ...`) names, asserted legal at `fen` by our own
/// generator.
pub fn assert_legal_answer(reply: &[String], fen: &str) {
    let best = reply.last().and_then(|l| l.split_whitespace().nth(1)).unwrap_or_else(|| panic!("{reply:?}"));
    let legal: Vec<String> = Position::from_fen(fen).unwrap().legal_moves().iter().map(|m| m.to_string()).collect();
    assert!(legal.iter().any(|m| m == best), "{best} not among {legal:?}: {reply:?}");
}

/// A weights file in the temporary directory, removed when dropped.
#[cfg(feature = "engine")]
pub struct TempFile(pub PathBuf);

#[cfg(feature = "engine")]
impl TempFile {
    /// `bytes` written to a file named after `name` and this process.
    pub fn new(name: &str, bytes: &[u8]) -> TempFile {
        let path = std::env::temp_dir().join(format!("tabula-xiangqi-{name}-{}.tbnn", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        TempFile(path)
    }

    /// The path as a protocol's option value.
    pub fn name(&self) -> String {
        self.0.display().to_string()
    }
}

#[cfg(feature = "engine")]
impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A xiangqi network of random weights in the palace layout, written out.
#[cfg(feature = "engine")]
pub fn random_network_file(name: &str) -> TempFile {
    TempFile::new(name, &Network::from_layers(&Layers::random(PALACE, 11)).unwrap().to_bytes())
}

/// A file of a network of chess's 768 inputs (a xiangqi file whose header says 768, its checksum made good):
/// what the loader refuses for the wrong board.
#[cfg(feature = "engine")]
pub fn chess_shaped_file(name: &str) -> TempFile {
    let mut bytes = Network::from_layers(&Layers::random(PALACE, 5)).unwrap().to_bytes();
    bytes[8..12].copy_from_slice(&768u32.to_le_bytes());
    let end = bytes.len() - 8;
    let sum = tabula_nnue::checksum(&bytes[..end]);
    bytes[end..].copy_from_slice(&sum.to_le_bytes());
    TempFile::new(name, &bytes)
}
