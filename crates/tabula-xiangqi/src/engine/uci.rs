//! UCI for xiangqi as Pikafish speaks it: [`UciSession`], the protocol's logic (a line in, the lines to answer
//! out), served by the shared harness of `tabula_protocol::server` ([`run_stdio`]).
//!
//! Commands: `uci`, `isready`, `setoption name <id> [value <x>]` (options `Hash`, `Threads`, `Clear Hash`,
//! `Move Overhead`, `Ponder`, `Evaluation`, `EvalFile`), `ucinewgame`, `position startpos|fen <fen> [moves
//! ...]`, `go` with `wtime btime winc binc movestogo depth nodes movetime mate infinite ponder searchmoves`
//! (Red's clock is `wtime`), `stop`, `ponderhit`, `quit`, and the extras `go perft <depth>`, `d` (show the
//! position) and `bench [depth]`.
//! Moves are ICCS coordinates (`h2e2`: files a–i, ranks 0–9 from Red's side); FENs are xiangqi FENs (Red
//! uppercase, `w` or `r` for Red to move). An unknown or malformed command is answered with `info string ...`
//! and otherwise ignored; a `go` always ends with a `bestmove` (`bestmove (none)` when there is no legal move,
//! as Pikafish writes it).
//!
//! The engine is [`Engine`]: the moves of `position ... moves` are the game's history, so repetitions are
//! ruled by the Asian rules in the search (a perpetual check or chase loses for the side that makes it), and
//! 120 plies without a capture draw.
//!
//! `Evaluation` chooses the evaluation, `nnue` (a network, the default: the embedded one) or `classical` (the
//! hand-written one); `EvalFile` loads another network's weights file (`TBNN`, see
//! [`nnue`](crate::engine::nnue)), `<embedded>` the embedded one again. A file that cannot be used (a chess
//! network, say) is reported and changes nothing.
//!
//! While a search runs, `isready` is answered, `stop` and `ponderhit` act on it, a bad line (invalid UTF-8, a
//! NUL byte, more than 64 KiB) is answered with `info string error: ...` (UCI has no error reply), `quit` and,
//! during an infinite or pondering search, any other command stop it first; the rest wait for it to end. The
//! end of input stops a running search, which still answers `bestmove`.
//!
//! # Examples
//!
//! ```
//! use tabula_protocol::server::Connection;
//! use tabula_xiangqi::engine::uci::UciSession;
//!
//! let mut session = UciSession::new();
//! assert_eq!(session.handle("isready"), ["readyok"]);
//! session.handle("position startpos moves h2e2 h9g7");
//! let reply = session.handle("go depth 3");
//! assert!(reply[0].starts_with("info depth 1 "));
//! assert!(reply.last().unwrap().starts_with("bestmove "));
//!
//! let engine = Connection::open(UciSession::new());
//! engine.send(b"uci\n\xff\nisready\ngo infinite\n");
//! let (_, out) = engine.close(); // the end of input stops the search
//! assert!(out.contains("uciok\ninfo string error: line 2 is not valid UTF-8"));
//! assert!(out.contains("readyok") && out.contains("bestmove"));
//! ```

use crate::engine::{Engine, EngineEvaluation, EnginePosition, BENCH_POSITIONS};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{File, Rank, Square};
use std::sync::Mutex;
use tabula_nnue::EvalOptions;
use tabula_protocol::server;
pub use tabula_protocol::uci::CommandError;
use tabula_protocol::uci::SearchControl;
pub use tabula_protocol::uci_session::UNLIMITED_DEPTH;
use tabula_protocol::uci_session::{self as session, Dialect};

/// The engine's name in `id name`.
pub const ENGINE_NAME: &str = concat!("Tabula ", env!("CARGO_PKG_VERSION"));
/// Depth of the `bench` command without an argument.
pub const BENCH_DEPTH: u32 = 7;

/// The state of a UCI conversation: the shared session on the [`Pikafish`] dialect.
pub type UciSession = session::UciSession<Pikafish>;

/// A search to run: the position, what `go` asked, the root moves allowed.
pub type SearchJob = session::SearchJob<EnginePosition, ()>;

/// UCI as Pikafish speaks it: ICCS moves, xiangqi FENs, and beyond the protocol's options `Ponder` and the
/// evaluation's (`Evaluation`, `EvalFile`).
#[derive(Default)]
pub struct Pikafish {
    eval: EvalOptions<Position>,
}

impl Dialect for Pikafish {
    type Position = EnginePosition;
    type Extra = ();
    const NAME: &'static str = ENGINE_NAME;
    const FAILED_BESTMOVE: &'static str = "bestmove (none)";

    fn options(&self) -> Vec<String> {
        let mut options = vec!["option name Ponder type check default false".to_owned()];
        options.extend(EvalOptions::<Position>::uci_options());
        options
    }

    fn set_option(
        &mut self,
        engine: &Mutex<Engine>,
        name: &str,
        value: Option<String>,
    ) -> Result<Option<Vec<String>>, CommandError> {
        self.eval.set_option(engine, name, value.as_deref().unwrap_or_default())
    }

    fn parse_move(&self, pos: &EnginePosition, text: &str) -> Option<Move> {
        pos.position().parse_iccs(text).ok()
    }

    fn notation(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn display(&self, pos: &EnginePosition) -> Vec<String> {
        display(pos.position())
    }

    fn bench(&self, args: &[&str]) -> Result<Vec<String>, CommandError> {
        bench(args, &self.eval.evaluation())
    }

    fn extra(&mut self) {}

    fn run(engine: &Mutex<Engine>, job: &SearchJob, control: &SearchControl, out: &mut dyn FnMut(String)) {
        run_search(engine, job, control, out);
    }
}

/// The board drawn with letters, Red at the bottom, then the FEN, the key and the checkers.
fn display(pos: &Position) -> Vec<String> {
    let board = pos.board();
    let mut lines = Vec::new();
    for rank in Rank::ALL.iter().rev() {
        let mut row = format!("{} ", rank.to_char());
        for file in File::ALL {
            row.push(board.piece_at(Square::from_coords(file, *rank)).map_or('.', |p| p.to_char()));
            row.push(' ');
        }
        lines.push(row.trim_end().to_owned());
    }
    lines.push("  a b c d e f g h i".to_owned());
    lines.extend(tabula_protocol::uci_session::position_lines(pos.to_fen(), pos.key(), pos.checkers()));
    lines
}

/// The `bench` command: a fixed set of searches with `evaluation`, their total node count and speed.
pub(crate) fn bench(args: &[&str], evaluation: &EngineEvaluation) -> Result<Vec<String>, CommandError> {
    let depth = session::bench_depth(args, BENCH_DEPTH)?;
    let (nodes, time) = Engine::bench_with(depth, || evaluation.clone());
    let mut lines = vec![format!(
        "info string bench depth {depth} positions {} evaluation {}",
        BENCH_POSITIONS.len(),
        evaluation.kind().name_in::<Position>()
    )];
    lines.extend(session::bench_lines(nodes, time));
    Ok(lines)
}

/// Runs `job` on `engine` under `control`, sending `info` lines and the final `bestmove` to `out`. The clock,
/// `stop` and `ponderhit` are handled as [`run_timed`](tabula_protocol::uci::run_timed) says.
pub fn run_search(engine: &Mutex<Engine>, job: &SearchJob, control: &SearchControl, out: &mut dyn FnMut(String)) {
    session::run_plain(engine, job, control, out, |m: Move| m.to_string());
}

/// Serves UCI on standard input and output until `quit` or the end of input.
///
/// # Errors
///
/// An error reading standard input.
pub fn run_stdio() -> std::io::Result<()> {
    server::serve_stdio(&mut UciSession::new())
}
