//! The UCI session written once: [`UciSession`], generic over a [`Dialect`] (what a game's engine says beyond
//! the protocol: its own options, move notation, board display and `bench`), on a [`Core`] that holds what
//! every session of the UCI family keeps (the engine, the position, the flags of the running search) and that
//! UCCI's session uses too.
//!
//! The session answers `uci`, `isready`, `setoption name <id> [value <x>]` (`Hash`, `Threads`, `Clear Hash`,
//! `Move Overhead`, then the dialect's options), `ucinewgame`, `position startpos|fen <fen> [moves ...]`, `go`
//! (with `searchmoves` and `go perft <depth>`), `stop`, `ponderhit`, `quit`, `d` and `bench [depth]`; an unknown
//! or malformed command is answered with `info string ...` and otherwise ignored. As a [`Protocol`] it runs in
//! the harness of [`server`](crate::server): `go` searches on the engine thread and input meanwhile is handled
//! as [`uci::busy`](crate::uci::busy) says.
//!
//! # Examples
//!
//! A game's dialect is a few lines; the games' `uci` modules are the full examples (chess's with an opening
//! book, `MultiPV`, WDL and a strength limiter, xiangqi's as Pikafish speaks it).
//!
//! ```
//! use tabula_protocol::uci_session::{Dialect, UciSession};
//! # use tabula_protocol::uci_session::{Core, SearchJob, UciPosition};
//! # use tabula_protocol::uci::{CommandError, SearchControl};
//! # use std::sync::Mutex;
//! # use std::time::Duration;
//! # use tabula::game::{Evaluator, Game, Outcome};
//! # use tabula::search::{Engine, Playable, SearchOptions};
//! # use tabula::{Key, Score};
//! # #[derive(Clone, Debug, PartialEq)]
//! # struct Pile(u64);
//! # impl Game for Pile {
//! #     type Move = u64;
//! #     fn legal_moves(&self, moves: &mut Vec<u64>) { moves.extend((1..=2).filter(|&t| t <= self.0)); }
//! #     fn play(&mut self, take: u64) { self.0 -= take; }
//! #     fn undo(&mut self, take: u64) { self.0 += take; }
//! #     fn outcome(&self) -> Option<Outcome> { (self.0 == 0).then_some(Outcome::Loss) }
//! #     fn key(&self) -> Key { Key(self.0.wrapping_mul(0x9e37_79b9_7f4a_7c15)) }
//! #     fn move_code(take: u64) -> u16 { take as u16 }
//! # }
//! # #[derive(Default)]
//! # struct Blind;
//! # impl Evaluator<Pile> for Blind { fn evaluate(&self, _: &Pile) -> Score { 0 } }
//! # impl Playable for Pile {
//! #     type Evaluation = Blind;
//! #     fn engine_options(threads: usize) -> SearchOptions { SearchOptions::default().with_threads(threads) }
//! #     fn history_keys(&self) -> Vec<Key> { Vec::new() }
//! #     fn bench_positions() -> Vec<Pile> { vec![Pile(10)] }
//! # }
//! # impl UciPosition for Pile {
//! #     fn startpos() -> Pile { Pile(10) }
//! #     fn from_fen(fen: &str) -> Result<Pile, CommandError> {
//! #         fen.parse().map(Pile).map_err(CommandError::fen)
//! #     }
//! #     fn to_fen(&self) -> String { self.0.to_string() }
//! #     fn side_to_move(&self) -> usize { 0 }
//! # }
//! /// Moves are the number of stones taken.
//! struct Stones;
//!
//! impl Dialect for Stones {
//!     type Position = Pile;
//!     type Extra = ();
//! #   const NAME: &'static str = "Stones";
//! #   const FAILED_BESTMOVE: &'static str = "bestmove (none)";
//! #   fn options(&self) -> Vec<String> { Vec::new() }
//! #   fn set_option(&mut self, _: &Mutex<Engine<Pile>>, _: &str, _: Option<String>)
//! #       -> Result<Option<Vec<String>>, CommandError> { Ok(None) }
//! #   fn parse_move(&self, pos: &Pile, text: &str) -> Option<u64> { text.parse().ok().filter(|&t| (1..=2).contains(&t) && t <= pos.0) }
//! #   fn notation(&self, mv: u64) -> String { mv.to_string() }
//! #   fn display(&self, pos: &Pile) -> Vec<String> { vec![format!("{} stones", pos.0)] }
//! #   fn bench(&self, _: &[&str]) -> Result<Vec<String>, CommandError> { Ok(Vec::new()) }
//! #   fn extra(&mut self) {}
//! #   fn run(engine: &Mutex<Engine<Pile>>, job: &SearchJob<Pile, ()>, control: &SearchControl, out: &mut dyn FnMut(String)) {
//! #       tabula_protocol::uci_session::run_plain(engine, job, control, out, |m| m.to_string());
//! #   }
//!     // ... the options, the notation, the display, `bench` and the search's lines.
//! }
//!
//! let mut session = UciSession::with_dialect(Stones);
//! assert_eq!(session.handle("isready"), ["readyok"]);
//! session.handle("position fen 7 moves 2 1");
//! assert_eq!(session.handle("d"), ["4 stones"]);
//! assert_eq!(session.handle("go perft 2").last().unwrap(), "Nodes searched: 4");
//! assert!(session.handle("go depth 4").last().unwrap().starts_with("bestmove "));
//! ```

use crate::lines::BadLine;
use crate::server::{Action, Busy, Input, Protocol, Search};
use crate::uci::{
    self as shared, check_value, number_value, split_option, split_position, CommandError, GoLimits, PositionArgs,
    SearchControl,
};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tabula::game::Game;
use tabula::search::{Engine, Playable, Request};

/// The table size a session starts with, in MiB.
pub const DEFAULT_HASH: usize = 16;
/// The largest table `Hash` may ask for, in MiB.
pub const MAX_HASH: usize = 4096;
/// The most search threads `Threads` may ask for.
pub const MAX_THREADS: usize = 64;
/// `Move Overhead` before it is set, in milliseconds.
pub const DEFAULT_OVERHEAD: u64 = 30;
/// [`UciSession::handle`] cannot be told to stop, so it caps an unlimited search at this depth.
pub const UNLIMITED_DEPTH: u32 = 6;

/// A position a session of the UCI family can set up: an engine's game, read from and written to FEN.
pub trait UciPosition: Playable<Move: Send + Sync, Evaluation: Send> + Clone + Send + Sync + 'static {
    /// The game's start position.
    fn startpos() -> Self;

    /// Reads and validates a FEN.
    ///
    /// # Errors
    ///
    /// [`CommandError::Fen`] with the game's error.
    fn from_fen(fen: &str) -> Result<Self, CommandError>;

    /// The position's FEN.
    fn to_fen(&self) -> String;

    /// The side to move: 0 for the first player (White, Red), whose clock is `wtime`, 1 for the second.
    fn side_to_move(&self) -> usize;
}

/// A search to run: the position, what `go` asked, the root moves allowed, notes to print first, and what the
/// dialect adds (`X`).
#[derive(Clone, Debug)]
pub struct SearchJob<P: Game, X> {
    /// The position to search, with the moves that led to it.
    pub position: P,
    /// Depth, nodes, mate, the time plan, `infinite` and `ponder`.
    pub limits: GoLimits,
    /// The root moves to consider (empty: all).
    pub root_moves: Vec<P::Move>,
    /// Lines to print before the search starts (reports of malformed parts of the command).
    pub notes: Vec<String>,
    /// The dialect's own settings for this search.
    pub extra: X,
}

/// What every session of the UCI family keeps: the engine, the position and the flags of the running search.
pub struct Core<P: UciPosition> {
    /// The engine, shared with the search thread.
    pub engine: Arc<Mutex<Engine<P>>>,
    /// The current position.
    pub position: P,
    /// Cleared by `ponderhit`; shared with the running search.
    pub pondering: Arc<AtomicBool>,
    /// Whether the running search ends only when told.
    pub unbounded: bool,
}

impl<P: UciPosition> Default for Core<P> {
    fn default() -> Self {
        Core::new()
    }
}

impl<P: UciPosition> Core<P> {
    /// The start position and an engine with the default table.
    pub fn new() -> Core<P> {
        Core {
            engine: Arc::new(Mutex::new(Engine::new(DEFAULT_HASH))),
            position: P::startpos(),
            pondering: Arc::default(),
            unbounded: false,
        }
    }

    /// The engine, even if a search panicked holding it.
    pub fn lock_engine(&self) -> MutexGuard<'_, Engine<P>> {
        lock(&self.engine)
    }

    /// Sets the position from `position`'s words; an illegal move is reported (by `report`) and the position
    /// stops before it. `parse` reads a move in the protocol's notation.
    ///
    /// # Errors
    ///
    /// A FEN that does not read.
    pub fn set_position(
        &mut self,
        start: &PositionArgs<'_>,
        parse: impl Fn(&P, &str) -> Option<P::Move>,
        report: impl Fn(CommandError) -> String,
    ) -> Result<Vec<String>, CommandError> {
        let mut pos = match &start.fen {
            None => P::startpos(),
            Some(fen) => P::from_fen(fen)?,
        };
        let mut reply = Vec::new();
        for &text in start.moves {
            match parse(&pos, text) {
                Some(mv) => pos.play(mv),
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
    pub fn start<J: Send + 'static, O: Send + 'static>(
        &mut self,
        job: J,
        limits: &GoLimits,
        run: impl FnOnce(&Mutex<Engine<P>>, &J, &SearchControl, &mut dyn FnMut(String)) -> O + Send + 'static,
    ) -> Action<O> {
        self.unbounded = limits.is_unbounded();
        self.pondering = Arc::new(AtomicBool::new(limits.ponder));
        let (engine, pondering) = (Arc::clone(&self.engine), Arc::clone(&self.pondering));
        Action::Search(Search::new(move |stop, emit| {
            let control = SearchControl { stop: Arc::clone(stop), pondering };
            run(&engine, &job, &control, emit)
        }))
    }

    /// `perft` divided by root move (each written by `notation`), then the total, as Stockfish-family engines
    /// print it.
    pub fn perft(&self, depth: u32, notation: impl Fn(P::Move) -> String) -> Vec<String> {
        let mut pos = self.position.clone();
        let mut lines = Vec::new();
        let mut total = u64::from(depth == 0);
        if depth > 0 {
            for (mv, count) in tabula::perft::divide(&mut pos, depth) {
                lines.push(format!("{}: {count}", notation(mv)));
                total += count;
            }
        }
        lines.push(String::new());
        lines.push(format!("Nodes searched: {total}"));
        lines
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What a game's engine says beyond the protocol: the small trait [`UciSession`] is generic over.
pub trait Dialect: Send + Sized + 'static {
    /// The game.
    type Position: UciPosition;
    /// The dialect's settings a search takes along.
    type Extra: Send + Sync + 'static;
    /// The engine's name in `id name`.
    const NAME: &'static str;
    /// The answer to a `go` whose search panicked.
    const FAILED_BESTMOVE: &'static str;

    /// The `option` lines after `Move Overhead`, in the order `uci` lists them.
    fn options(&self) -> Vec<String>;

    /// Sets one of the dialect's options: the lines to answer, or `None` if it has no option `name`.
    ///
    /// # Errors
    ///
    /// A value the option does not take.
    fn set_option(
        &mut self,
        engine: &Mutex<Engine<Self::Position>>,
        name: &str,
        value: Option<String>,
    ) -> Result<Option<Vec<String>>, CommandError>;

    /// Reads a move of `position ... moves` and `searchmoves`: `None` unless legal in `pos`.
    fn parse_move(&self, pos: &Self::Position, text: &str) -> Option<<Self::Position as Game>::Move>;

    /// Writes a move as the dialect's options ask.
    fn notation(&self, mv: <Self::Position as Game>::Move) -> String;

    /// The clock policy for a move overhead of `overhead`.
    fn clock_policy(&self, overhead: Duration) -> tabula::clock::Policy {
        tabula::clock::Policy::new(overhead)
    }

    /// The lines of `d`.
    fn display(&self, pos: &Self::Position) -> Vec<String>;

    /// `bench [depth]`.
    ///
    /// # Errors
    ///
    /// A depth that does not read.
    fn bench(&self, args: &[&str]) -> Result<Vec<String>, CommandError>;

    /// A move to answer `go` with at once, without searching (an opening book's).
    fn instant_move(
        &mut self,
        _pos: &Self::Position,
        _limits: &GoLimits,
        _root_moves: &[<Self::Position as Game>::Move],
    ) -> Option<<Self::Position as Game>::Move> {
        None
    }

    /// The settings of the next search.
    fn extra(&mut self) -> Self::Extra;

    /// Runs `job` on `engine` under `control`, sending the `info` lines and the final `bestmove` to `out`.
    fn run(
        engine: &Mutex<Engine<Self::Position>>,
        job: &SearchJob<Self::Position, Self::Extra>,
        control: &SearchControl,
        out: &mut dyn FnMut(String),
    );
}

/// The search of a plain dialect: the notes, one `info` line per iteration and `bestmove` (`bestmove (none)`
/// without a legal move), moves written by `notation`.
pub fn run_plain<P: UciPosition, X>(
    engine: &Mutex<Engine<P>>,
    job: &SearchJob<P, X>,
    control: &SearchControl,
    out: &mut dyn FnMut(String),
    notation: impl Fn(P::Move) -> String,
) {
    for note in &job.notes {
        out(note.clone());
    }
    let mut engine = lock(engine);
    let result = shared::run_timed(
        &job.limits,
        control,
        |limits, on_iteration| {
            engine.search(&job.position, Request::new(limits.clone()).with_root_moves(&job.root_moves), on_iteration)
        },
        &mut |it| out(shared::info_line(it, &notation)),
    );
    out(shared::bestmove_line(&result, &notation).unwrap_or_else(|| "bestmove (none)".to_owned()));
}

/// The depth of `bench [depth]`: `default` without one.
///
/// # Errors
///
/// [`CommandError::BadValue`] for anything but a depth from 1 to 30.
pub fn bench_depth(args: &[&str], default: u32) -> Result<u32, CommandError> {
    match args.first() {
        None => Ok(default),
        Some(v) => v.parse::<u32>().ok().filter(|d| (1..=30).contains(d)).ok_or(CommandError::bad(
            "bench",
            "a depth from 1 to 30",
            Some(v),
        )),
    }
}

/// The lines `bench` ends with: the time, the nodes and the speed.
pub fn bench_lines(nodes: u64, time: Duration) -> [String; 3] {
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
    [
        format!("Total time (ms) : {}", time.as_millis()),
        format!("Nodes searched  : {nodes}"),
        format!("Nodes/second    : {nps}"),
    ]
}

/// The lines `d` ends with, after the board: a blank line, the FEN, the key in hex and the squares of the
/// pieces giving check.
pub fn position_lines<S: std::fmt::Display>(
    fen: String,
    key: tabula::Key,
    checkers: impl IntoIterator<Item = S>,
) -> [String; 4] {
    let checkers: Vec<String> = checkers.into_iter().map(|s| s.to_string()).collect();
    [
        String::new(),
        format!("Fen: {fen}"),
        format!("Key: {:016X}", key.as_u64()),
        format!("Checkers: {}", checkers.join(" ")),
    ]
}

/// What a command asks for.
enum Parsed<J> {
    /// Print these lines (possibly none).
    Reply(Vec<String>),
    /// Start this search.
    Search(Box<J>),
    /// Stop serving.
    Quit,
}

/// The state of a UCI conversation: the core, the move overhead and the dialect's own state.
pub struct UciSession<D: Dialect> {
    core: Core<D::Position>,
    overhead: Duration,
    dialect: D,
}

impl<D: Dialect + Default> UciSession<D> {
    /// A session at the starting position with the dialect's default options.
    pub fn new() -> UciSession<D> {
        UciSession::with_dialect(D::default())
    }
}

impl<D: Dialect + Default> Default for UciSession<D> {
    fn default() -> Self {
        UciSession::new()
    }
}

impl<D: Dialect> UciSession<D> {
    /// A session of `dialect` at the starting position.
    pub fn with_dialect(dialect: D) -> UciSession<D> {
        UciSession { core: Core::new(), overhead: Duration::from_millis(DEFAULT_OVERHEAD), dialect }
    }

    /// The current position.
    pub fn position(&self) -> &D::Position {
        &self.core.position
    }

    /// The engine, shared with the search thread.
    pub fn engine(&self) -> Arc<Mutex<Engine<D::Position>>> {
        Arc::clone(&self.core.engine)
    }

    /// The dialect.
    pub fn dialect(&self) -> &D {
        &self.dialect
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
                D::run(&self.core.engine, &job, &SearchControl::default(), &mut |line| out.push(line));
                out
            }
        }
    }

    /// Interprets one line: the lines to answer, a search to start, or the end.
    fn parse(&mut self, line: &str) -> Parsed<SearchJob<D::Position, D::Extra>> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&first, args)) = words.split_first() else {
            return Parsed::Reply(Vec::new());
        };
        let reply = match first {
            "uci" => Ok(self.identify()),
            "isready" => Ok(vec!["readyok".to_owned()]),
            "debug" | "register" | "stop" | "ponderhit" => Ok(Vec::new()),
            "quit" => return Parsed::Quit,
            "ucinewgame" => {
                self.core.lock_engine().clear_hash();
                self.core.position = D::Position::startpos();
                Ok(Vec::new())
            }
            "setoption" => self.set_option(args),
            "position" => match split_position(args) {
                Some(start) => {
                    let dialect = &self.dialect;
                    self.core.set_position(&start, |pos, text| dialect.parse_move(pos, text), |e| e.to_info())
                }
                None => Err(CommandError::Position(args.join(" "))),
            },
            "go" => return self.go(args),
            "d" => Ok(self.dialect.display(&self.core.position)),
            "bench" => self.dialect.bench(args),
            _ => Err(CommandError::Unknown(first.to_owned())),
        };
        Parsed::Reply(reply.unwrap_or_else(|e| vec![e.to_info()]))
    }

    fn identify(&self) -> Vec<String> {
        let mut lines = vec![
            format!("id name {}", D::NAME),
            "id author the Tabula authors".to_owned(),
            format!("option name Hash type spin default {DEFAULT_HASH} min 1 max {MAX_HASH}"),
            format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
            "option name Clear Hash type button".to_owned(),
            format!("option name Move Overhead type spin default {DEFAULT_OVERHEAD} min 0 max 5000"),
        ];
        lines.extend(self.dialect.options());
        lines.push("uciok".to_owned());
        lines
    }

    fn set_option(&mut self, args: &[&str]) -> Result<Vec<String>, CommandError> {
        let (name, value) = split_option(args)?;
        let number = |min: u64, max: u64| number_value(&name, value.as_deref(), min, max);
        match name.to_ascii_lowercase().as_str() {
            "hash" => self.core.lock_engine().set_hash(number(1, MAX_HASH as u64)? as usize),
            "threads" => {
                let threads = number(1, MAX_THREADS as u64)? as usize;
                self.core.lock_engine().set_threads(threads);
            }
            "clear hash" => self.core.lock_engine().clear_hash(),
            "move overhead" => self.overhead = Duration::from_millis(number(0, 5000)?),
            // Pondering is the GUI's decision (`go ponder`); the option only says the engine can.
            "ponder" => {
                check_value(&name, value.as_deref())?;
            }
            _ => {
                return self
                    .dialect
                    .set_option(&self.core.engine, &name, value)?
                    .ok_or(CommandError::UnknownOption(name))
            }
        }
        Ok(Vec::new())
    }

    fn go(&mut self, args: &[&str]) -> Parsed<SearchJob<D::Position, D::Extra>> {
        let go = shared::parse_go(args, self.core.position.side_to_move(), self.dialect.clock_policy(self.overhead));
        if let Some(perft) = go.perft {
            return Parsed::Reply(match perft {
                Ok(depth) => self.core.perft(depth, |mv| self.dialect.notation(mv)),
                Err(e) => vec![CommandError::from(e).to_info()],
            });
        }
        let mut notes: Vec<String> = go.errors.into_iter().map(|e| CommandError::from(e).to_info()).collect();
        let pos = &self.core.position;
        let mut root_moves = Vec::new();
        for text in &go.search_moves {
            match self.dialect.parse_move(pos, text) {
                Some(mv) => root_moves.push(mv),
                None => notes.push(CommandError::IllegalMove { mv: text.to_owned(), fen: pos.to_fen() }.to_info()),
            }
        }
        let limits = go.limits;
        if let Some(mv) = self.dialect.instant_move(pos, &limits, &root_moves) {
            let mv = self.dialect.notation(mv);
            notes.push(format!("info string book move {mv}"));
            notes.push(format!("bestmove {mv}"));
            return Parsed::Reply(notes);
        }
        let extra = self.dialect.extra();
        Parsed::Search(Box::new(SearchJob { position: pos.clone(), limits, root_moves, notes, extra }))
    }
}

/// The session in the serving harness: `go` searches on the engine thread; while it runs, `isready` is
/// answered at once, `stop` and `ponderhit` act on the search, a bad line is reported, `quit` and (during an
/// infinite or pondering search) any other command stop it first, and the rest wait for it to end.
impl<D: Dialect> Protocol for UciSession<D> {
    type Outcome = ();

    fn command(&mut self, line: &str) -> Action<()> {
        match self.parse(line) {
            Parsed::Reply(lines) => Action::Reply(lines),
            Parsed::Quit => Action::Quit(Vec::new()),
            Parsed::Search(job) => {
                let limits = job.limits.clone();
                self.core.start(*job, &limits, D::run)
            }
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
            None => vec!["info string error: the search failed".to_owned(), D::FAILED_BESTMOVE.to_owned()],
        }
    }
}
