//! Stockfish as the chess commands use it: the peer of [`peer`](crate::peer) at its Debian path, its answers
//! read as chess moves ([`verdict`], [`quiet_verdict`]), and the labelling threads of `label` and `nnue-label`
//! ([`ask_stockfish`]) on chess positions.

use crate::peer::{ask_move, ask_peer, Labellers, PeerSpec};
use tabula_chess::Position;
use tabula_protocol::process::Process;

pub use crate::peer::{MATE_CP, PATIENCE as STOCKFISH_PATIENCE};

/// Stockfish's verdict on a chess position.
pub type Verdict = crate::peer::Verdict<tabula_chess::Move>;

/// Where Stockfish is, unless `--stockfish` says otherwise.
pub const STOCKFISH: &str = "/usr/games/stockfish";

/// Stockfish's verdict on `pos` from its `answer` (the lines up to `bestmove`), if it gave a legal move.
pub fn verdict(pos: &Position, answer: &[String]) -> Option<Verdict> {
    crate::peer::verdict(answer, |m| pos.parse_uci(m).ok())
}

/// Asks Stockfish at `path` (with `UCI_ShowWDL`) about each line of `input`, as [`ask_peer`] does.
pub fn ask_stockfish(
    input: &str,
    out: Option<&str>,
    labellers: &Labellers,
    path: &str,
    ask: impl Fn(&mut Process, &str, &Position) -> anyhow::Result<Option<String>> + Sync,
) -> anyhow::Result<()> {
    let peer = PeerSpec { path, options: &["UCI_ShowWDL value true"] };
    ask_peer(input, out, labellers, &peer, |fen| Position::from_fen(fen).ok(), ask)
}

/// Stockfish's verdict after `go {go}` on `pos` (given by `fen`), unless its best move is a capture or a
/// promotion (the position is not quiet).
pub fn quiet_verdict(engine: &mut Process, fen: &str, pos: &Position, go: &str) -> anyhow::Result<Option<Verdict>> {
    let answer = ask_move(engine, &format!("fen {fen}"), go)?;
    Ok(verdict(pos, &answer).filter(|v| !pos.is_capture(v.best) && v.best.promotion().is_none()))
}
