//! UCI for xiangqi as Pikafish speaks it: [`UciSession`], the protocol's logic (a line in, the lines to answer
//! out), served by the shared harness of `tabula_protocol::server` ([`run_stdio`]).
//!
//! Commands: `uci`, `isready`, `setoption name <id> [value <x>]` (options `Hash`, `Threads`, `Clear Hash`,
//! `Move Overhead`, `Ponder`), `ucinewgame`, `position startpos|fen <fen> [moves ...]`, `go` with `wtime btime
//! winc binc movestogo depth nodes movetime mate infinite ponder searchmoves` (Red's clock is `wtime`), `stop`,
//! `ponderhit`, `quit`, and the extras `go perft <depth>`, `d` (show the position) and `bench [depth]`.
//! Moves are ICCS coordinates (`h2e2`: files a–i, ranks 0–9 from Red's side); FENs are xiangqi FENs (Red
//! uppercase, `w` or `r` for Red to move). An unknown or malformed command is answered with `info string ...`
//! and otherwise ignored; a `go` always ends with a `bestmove` (`bestmove (none)` when there is no legal move,
//! as Pikafish writes it).
//!
//! The engine is [`Engine`]: the moves of `position ... moves` are the game's history, so repetitions are
//! ruled by the Asian rules in the search (a perpetual check or chase loses for the side that makes it), and
//! 120 plies without a capture draw.
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
//! use tabula_xiangqi::uci::UciSession;
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

use crate::engine::{Engine, BENCH_POSITIONS};
use crate::moves::Move;
use crate::perft;
use crate::position::Position;
use crate::types::{File, Rank, Square};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tabula_protocol::lines::BadLine;
use tabula_protocol::server::{self, Action, Busy, Input, Protocol, Search};
use tabula_protocol::uci::{
    self as shared, check_value, number_value, split_option, split_position, ArgError, GoLimits,
};
use tabula_protocol::uci::{PositionArgs, SearchControl};

/// The engine's name in `id name`.
pub const ENGINE_NAME: &str = concat!("Tabula ", env!("CARGO_PKG_VERSION"));
/// Depth of the `bench` command without an argument.
pub const BENCH_DEPTH: u32 = 7;
/// [`UciSession::handle`] cannot be told to stop, so it caps an unlimited search at this depth.
pub const UNLIMITED_DEPTH: u32 = 6;
pub(crate) const DEFAULT_HASH: usize = 16;
pub(crate) const MAX_HASH: usize = 4096;
pub(crate) const MAX_THREADS: usize = 64;
const DEFAULT_OVERHEAD: u64 = 30;

pub use tabula_protocol::uci::CommandError;

/// A search to run: the position, what `go` asked, the root moves allowed.
#[derive(Clone, Debug)]
pub struct SearchJob {
    /// The position to search, with the moves that led to it.
    pub position: Position,
    /// Depth, nodes, mate, the time plan, `infinite` and `ponder`.
    pub limits: GoLimits,
    /// The root moves to consider (empty: all).
    pub root_moves: Vec<Move>,
    /// Lines to print before the search starts (reports of malformed parts of the command).
    pub notes: Vec<String>,
}

/// The state shared by the xiangqi sessions (UCI and UCCI): the engine, its table, the position and the flags
/// of the running search.
pub(crate) struct Core {
    pub engine: Arc<Mutex<Engine>>,
    pub position: Position,
    pub threads: usize,
    /// Cleared by `ponderhit`; shared with the running search.
    pub pondering: Arc<AtomicBool>,
    /// Whether the running search ends only when told.
    pub unbounded: bool,
}

impl Core {
    pub fn new() -> Core {
        Core {
            engine: Arc::new(Mutex::new(Engine::new(DEFAULT_HASH))),
            position: Position::startpos(),
            threads: 1,
            pondering: Arc::default(),
            unbounded: false,
        }
    }

    pub fn lock_engine(&self) -> MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Sets the position from `position`'s words; an illegal move is reported and the position stops before
    /// it. `parse` reads a move in the protocol's notation.
    pub fn set_position(
        &mut self,
        start: &PositionArgs<'_>,
        parse: impl Fn(&Position, &str) -> Option<Move>,
        report: impl Fn(CommandError) -> String,
    ) -> Result<Vec<String>, CommandError> {
        let mut pos = match &start.fen {
            None => Position::startpos(),
            Some(fen) => Position::from_fen(fen).map_err(CommandError::fen)?,
        };
        let mut reply = Vec::new();
        for &text in start.moves {
            match parse(&pos, text) {
                Some(mv) => pos.play_unchecked(mv),
                None => {
                    let err = CommandError::IllegalMove { mv: text.to_owned(), fen: pos.to_fen() };
                    reply.push(format!("{}; the position stops before it", report(err)));
                    break;
                }
            }
        }
        self.position = pos;
        Ok(reply)
    }

    /// Starts `job` on the engine thread: `run` gets the engine, the job and the search's flags.
    pub fn start<O: Send + 'static>(
        &mut self,
        job: SearchJob,
        run: impl FnOnce(&Mutex<Engine>, &SearchJob, &SearchControl, &mut dyn FnMut(String)) -> O + Send + 'static,
    ) -> Action<O> {
        self.unbounded = job.limits.is_unbounded();
        self.pondering = Arc::new(AtomicBool::new(job.limits.ponder));
        let (engine, pondering) = (Arc::clone(&self.engine), Arc::clone(&self.pondering));
        Action::Search(Search::new(move |stop, emit| {
            let control = SearchControl { stop: Arc::clone(stop), pondering };
            run(&engine, &job, &control, emit)
        }))
    }

    /// The board drawn with letters, Red at the bottom, then the FEN, the key and the checkers.
    pub fn display(&self) -> Vec<String> {
        let board = self.position.board();
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
        lines.push(String::new());
        lines.push(format!("Fen: {}", self.position.to_fen()));
        lines.push(format!("Key: {:016X}", self.position.key().as_u64()));
        let checkers: Vec<String> = self.position.checkers().into_iter().map(|s| s.to_string()).collect();
        lines.push(format!("Checkers: {}", checkers.join(" ")));
        lines
    }

    /// `perft` divided by root move, then the total, as Stockfish-family engines print it.
    pub fn perft(&self, depth: u32) -> Vec<String> {
        let mut pos = self.position.clone();
        let mut lines = Vec::new();
        let mut total = u64::from(depth == 0);
        if depth > 0 {
            for (mv, count) in perft::divide(&mut pos, depth) {
                lines.push(format!("{mv}: {count}"));
                total += count;
            }
        }
        lines.push(String::new());
        lines.push(format!("Nodes searched: {total}"));
        lines
    }
}

/// The `bench` command: a fixed set of searches, their total node count and speed.
pub(crate) fn bench(args: &[&str]) -> Result<Vec<String>, ArgError> {
    let depth = match args.first() {
        None => BENCH_DEPTH,
        Some(v) => v.parse::<u32>().ok().filter(|d| (1..=30).contains(d)).ok_or(ArgError::new(
            "bench",
            "a depth from 1 to 30",
            Some(v),
        ))?,
    };
    let (nodes, time) = Engine::bench(depth);
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
    Ok(vec![
        format!("info string bench depth {depth} positions {}", BENCH_POSITIONS.len()),
        format!("Total time (ms) : {}", time.as_millis()),
        format!("Nodes searched  : {nodes}"),
        format!("Nodes/second    : {nps}"),
    ])
}

/// What a command asks for.
enum Parsed {
    Reply(Vec<String>),
    Search(Box<SearchJob>),
    Quit,
}

/// The state of a UCI conversation: options, the current position and the engine.
pub struct UciSession {
    core: Core,
    overhead: Duration,
}

impl Default for UciSession {
    fn default() -> Self {
        UciSession::new()
    }
}

impl UciSession {
    /// A session at the starting position with default options.
    pub fn new() -> UciSession {
        UciSession { core: Core::new(), overhead: Duration::from_millis(DEFAULT_OVERHEAD) }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.core.position
    }

    /// Handles one line and returns the answer; a `go` is searched here to the end (an unlimited one to
    /// [`UNLIMITED_DEPTH`]), so this suits scripts and tests. `quit` returns nothing.
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        match self.parse(line) {
            Parsed::Reply(lines) => lines,
            Parsed::Quit => Vec::new(),
            Parsed::Search(mut job) => {
                job.limits.bound(UNLIMITED_DEPTH);
                let mut out = Vec::new();
                run_search(&self.core.engine, &job, &SearchControl::default(), &mut |line| out.push(line));
                out
            }
        }
    }

    fn parse(&mut self, line: &str) -> Parsed {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&first, args)) = words.split_first() else {
            return Parsed::Reply(Vec::new());
        };
        let reply = match first {
            "uci" => Ok(identify()),
            "isready" => Ok(vec!["readyok".to_owned()]),
            "debug" | "register" | "stop" | "ponderhit" => Ok(Vec::new()),
            "quit" => return Parsed::Quit,
            "ucinewgame" => {
                self.core.lock_engine().clear_hash();
                self.core.position = Position::startpos();
                Ok(Vec::new())
            }
            "setoption" => self.set_option(args),
            "position" => match split_position(args) {
                Some(start) => self.core.set_position(&start, |pos, text| pos.parse_iccs(text).ok(), |e| info(&e)),
                None => Err(CommandError::Position(args.join(" "))),
            },
            "go" => return self.go(args),
            "d" => Ok(self.core.display()),
            "bench" => bench(args).map_err(CommandError::from),
            _ => Err(CommandError::Unknown(first.to_owned())),
        };
        Parsed::Reply(reply.unwrap_or_else(|e| vec![info(&e)]))
    }

    fn set_option(&mut self, args: &[&str]) -> Result<Vec<String>, CommandError> {
        let (name, value) = split_option(args)?;
        let number = |min: u64, max: u64| number_value(&name, value.as_deref(), min, max);
        match name.to_ascii_lowercase().as_str() {
            "hash" => self.core.lock_engine().set_hash(number(1, MAX_HASH as u64)? as usize),
            "threads" => {
                self.core.threads = number(1, MAX_THREADS as u64)? as usize;
                let threads = self.core.threads;
                self.core.lock_engine().set_threads(threads);
            }
            "clear hash" => self.core.lock_engine().clear_hash(),
            "move overhead" => self.overhead = Duration::from_millis(number(0, 5000)?),
            // Pondering is the GUI's decision (`go ponder`); the option only says the engine can.
            "ponder" => {
                check_value(&name, value.as_deref())?;
            }
            _ => return Err(CommandError::UnknownOption(name)),
        }
        Ok(Vec::new())
    }

    fn go(&mut self, args: &[&str]) -> Parsed {
        let side = self.core.position.turn().index();
        let go = shared::parse_go(args, side, tabula::clock::Policy::new(self.overhead));
        if let Some(perft) = go.perft {
            return Parsed::Reply(match perft {
                Ok(depth) => self.core.perft(depth),
                Err(e) => vec![info(&e.into())],
            });
        }
        let mut notes: Vec<String> = go.errors.into_iter().map(|e| info(&e.into())).collect();
        let pos = &self.core.position;
        let mut root_moves = Vec::new();
        for text in &go.search_moves {
            match pos.parse_iccs(text) {
                Ok(mv) => root_moves.push(mv),
                Err(_) => notes.push(info(&CommandError::IllegalMove { mv: text.to_owned(), fen: pos.to_fen() })),
            }
        }
        Parsed::Search(Box::new(SearchJob { position: pos.clone(), limits: go.limits, root_moves, notes }))
    }
}

fn identify() -> Vec<String> {
    [
        format!("id name {ENGINE_NAME}"),
        "id author the Tabula authors".to_owned(),
        format!("option name Hash type spin default {DEFAULT_HASH} min 1 max {MAX_HASH}"),
        format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
        "option name Clear Hash type button".to_owned(),
        format!("option name Move Overhead type spin default {DEFAULT_OVERHEAD} min 0 max 5000"),
        "option name Ponder type check default false".to_owned(),
        "uciok".to_owned(),
    ]
    .into()
}

/// The `info string` line reporting `error`.
fn info(error: &CommandError) -> String {
    error.to_info()
}

/// Runs `job` on `engine` under `control`, sending `info` lines and the final `bestmove` to `out`. The clock,
/// `stop` and `ponderhit` are handled as [`shared::run_timed`] says.
pub fn run_search(engine: &Mutex<Engine>, job: &SearchJob, control: &SearchControl, out: &mut dyn FnMut(String)) {
    for note in &job.notes {
        out(note.clone());
    }
    let mut engine = engine.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let result = shared::run_timed(
        &job.limits,
        control,
        |limits, on_iteration| engine.search(&job.position, limits, &job.root_moves, on_iteration),
        &mut |it| out(shared::info_line(it, |m: Move| m.to_string())),
    );
    out(shared::bestmove_line(&result, |m: Move| m.to_string()).unwrap_or_else(|| "bestmove (none)".to_owned()));
}

/// The session in the serving harness: `go` searches on the engine thread; input meanwhile is handled as
/// [`shared::busy`] says.
impl Protocol for UciSession {
    type Outcome = ();

    fn command(&mut self, line: &str) -> Action<()> {
        match self.parse(line) {
            Parsed::Reply(lines) => Action::Reply(lines),
            Parsed::Quit => Action::Quit(Vec::new()),
            Parsed::Search(job) => self.core.start(*job, run_search),
        }
    }

    fn bad_line(&mut self, bad: &BadLine) -> Vec<String> {
        vec![format!("info string error: {bad}")]
    }

    fn busy(&mut self, input: Input<'_>) -> Busy {
        shared::busy(input, self.core.unbounded, &self.core.pondering, |bad| vec![format!("info string error: {bad}")])
    }

    fn finish(&mut self, outcome: Option<()>) -> Vec<String> {
        // A search that panicked printed no `bestmove`; the GUI still waits for one.
        match outcome {
            Some(()) => Vec::new(),
            None => vec!["info string error: the search failed".to_owned(), "bestmove (none)".to_owned()],
        }
    }
}

/// Serves UCI on standard input and output until `quit` or the end of input.
///
/// # Errors
///
/// An error reading standard input.
pub fn run_stdio() -> std::io::Result<()> {
    server::serve_stdio(&mut UciSession::new())
}
