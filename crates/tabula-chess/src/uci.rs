//! The Universal Chess Interface: [`UciSession`], the protocol's logic (a line in, the lines to answer out),
//! served by the shared harness ([`run_stdio`]), which runs searches on a thread so that `stop`, `ponderhit` and
//! `isready` are served while the engine thinks.
//!
//! Commands: `uci`, `isready`, `setoption name <id> [value <x>]` (options `Hash`, `Threads`, `Clear Hash`,
//! `Move Overhead`, `OwnBook`, `BookFile`, `Ponder`, `UCI_Chess960`, `MultiPV`, `UCI_ShowWDL`,
//! `UCI_AnalyseMode`, `Skill Level`, `UCI_LimitStrength`, `UCI_Elo`, `Evaluation`, `EvalFile`), `ucinewgame`,
//! `position startpos|fen <fen> [moves ...]`, `go` with `wtime btime winc binc movestogo depth nodes movetime
//! mate infinite ponder searchmoves`, `stop`, `ponderhit`, `quit`, and the extras `go perft <depth>`, `d` (show
//! the position) and `bench [depth]`. An unknown or malformed command is answered with `info string ...` and
//! otherwise ignored; a `go` always ends with a `bestmove`, with `ponder <move>` when the engine expects a
//! reply.
//!
//! Pondering: the GUI plays the expected reply itself (`position ... moves <best> <reply>`) and sends
//! `go ponder` with the clocks; the engine searches that position without a time limit and does not answer.
//! `ponderhit` (the opponent played the reply) makes it a normal search whose time counts from `go ponder`,
//! so that a search already past its share answers at once; `stop` (another move) makes it answer, and the
//! GUI ignores that answer. `MultiPV` N reports the N best moves at each depth, one `info ... multipv K`
//! line each. `UCI_ShowWDL` adds `wdl W D L` to each score: the chances of a win, a draw and a loss in per
//! mille by the model of [`wdl`](crate::wdl). `UCI_AnalyseMode` says the GUI analyses: the book does not
//! answer then.
//!
//! `Evaluation` chooses the evaluation, `nnue` (the network, the default) or `tapered` (the hand-written one);
//! `EvalFile` loads another network's weights file (see [`nnue`](crate::eval::nnue) for the format; the value
//! `<embedded>` goes back to the network built in). A file that cannot be used is reported and changes
//! nothing.
//!
//! Chess960: positions with X-FEN or Shredder-FEN castling rights are accepted whatever the options say, and
//! castling is read in either notation; with `UCI_Chess960` on, the engine writes castling as the king taking
//! its rook (`e1h1`), as the protocol asks, and otherwise as the king's move (`e1g1`).
//!
//! # Examples
//!
//! ```
//! use tabula_chess::uci::UciSession;
//!
//! let mut session = UciSession::new();
//! assert_eq!(session.handle("isready"), ["readyok"]);
//! session.handle("position startpos moves e2e4 e7e5");
//! let reply = session.handle("go depth 3");
//! assert!(reply[0].starts_with("info depth 1 "));
//! assert!(reply.last().unwrap().starts_with("bestmove "));
//! assert!(session.handle("frobnicate")[0].starts_with("info string unknown command"));
//! ```
//!
//! A binary serves the protocol on standard input and output with [`run_stdio`]: the session runs in the
//! shared harness of `tabula_protocol::server`, which searches on an engine thread and keeps reading, so that
//! `isready`, `stop`, `ponderhit` and `quit` are served while the engine thinks; any other command waits for
//! the search to end (an infinite or pondering search is stopped first). A line that is not text (bad
//! UTF-8, a NUL byte, more than 64 KiB) is answered with `info string error: ...` (UCI has no error reply)
//! and the session goes on; the end of input stops a running search, which still answers `bestmove`.
//!
//! ```
//! use tabula_chess::uci::UciSession;
//! use tabula_protocol::server::Connection;
//!
//! let engine = Connection::open(UciSession::new());
//! engine.send(b"uci\n\xff\nisready\ngo infinite\n");
//! let (_, out) = engine.close(); // the end of input stops the search
//! assert!(out.contains("uciok\ninfo string error: line 2 is not valid UTF-8"));
//! assert!(out.contains("readyok") && out.contains("bestmove"));
//! ```

use crate::book::{Book, BookError};
use crate::engine::Engine;
use crate::eval::nnue::{names_embedded, NetError, Network, EMBEDDED_NAME};
use crate::eval::{EngineEvaluation, EvalKind};
use crate::moves::Move;
use crate::perft;
use crate::position::Position;
use crate::strength::{self, ELO_RANGE};
use crate::types::{Color, File, Rank, Square};
use crate::wdl::MODEL;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tabula::rng::Rng;
use tabula::search::skill::{Skill, MAX_LEVEL};
use tabula::search::Iteration;
use tabula_protocol::lines::BadLine;
use tabula_protocol::server::{self, Action, Busy, Input, Protocol, Search};
pub use tabula_protocol::uci::SearchControl;
use tabula_protocol::uci::{
    self as shared, check_value, number_value, split_option, split_position, GoLimits, InfoStyle,
};

/// The engine's name in `id name`.
pub const ENGINE_NAME: &str = concat!("Tabula ", env!("CARGO_PKG_VERSION"));
/// Depth of the `bench` command without an argument.
pub const BENCH_DEPTH: u32 = 7;
/// [`UciSession::handle`] cannot be told to stop, so it caps an unlimited search at this depth.
pub const UNLIMITED_DEPTH: u32 = 6;
const DEFAULT_HASH: usize = 16;
const MAX_HASH: usize = 4096;
const MAX_THREADS: usize = 64;
const DEFAULT_OVERHEAD: u64 = 30;
/// The most lines `MultiPV` may ask for (more than any position has moves).
const MAX_MULTI_PV: usize = 256;
/// `UCI_Elo` before it is set: the middle of the range.
const DEFAULT_ELO: u32 = (*ELO_RANGE.start() + *ELO_RANGE.end()) / 2;
pub use tabula_protocol::uci::CommandError;

impl From<BookError> for CommandError {
    fn from(e: BookError) -> CommandError {
        CommandError::File(Box::new(e))
    }
}

impl From<NetError> for CommandError {
    fn from(e: NetError) -> CommandError {
        CommandError::File(Box::new(e))
    }
}

/// A search for [`run_search`] to run: what `go` asked for.
#[derive(Clone, Debug)]
pub struct SearchJob {
    /// The position to search, with the moves that led to it.
    pub position: Position,
    /// Depth, nodes, mate, the time plan, `infinite` and `ponder`.
    pub limits: GoLimits,
    /// `searchmoves`: the root moves to consider (empty: all).
    pub root_moves: Vec<Move>,
    /// Lines to print before the search starts (reports of malformed parts of the command).
    pub notes: Vec<String>,
    /// Whether to write moves in the notation of Chess960 (`UCI_Chess960`).
    pub chess960: bool,
    /// How many best moves to report (`MultiPV`): above one, each iteration's lines are tagged `multipv <k>`.
    pub multi_pv: usize,
    /// Whether `info` lines give the chances of a win, a draw and a loss (`UCI_ShowWDL`).
    pub show_wdl: bool,
    /// Play below full strength (`Skill Level`, `UCI_LimitStrength`): a node budget, and a move chosen
    /// among the best with noise.
    pub skill: Option<Skill>,
    /// Random bits for the choice of a limited strength's move.
    pub seed: u64,
}

impl SearchJob {
    /// Whether nothing but `stop` ends this search.
    pub fn is_unbounded(&self) -> bool {
        self.limits.is_unbounded()
    }
}

/// What a command asks for.
#[derive(Debug)]
enum Parsed {
    /// Print these lines (possibly none).
    Reply(Vec<String>),
    /// Start this search.
    Search(Box<SearchJob>),
    /// Stop serving.
    Quit,
}

/// The state of a UCI conversation: options, book, current position and the engine.
pub struct UciSession {
    engine: Arc<Mutex<Engine>>,
    position: Position,
    overhead: Duration,
    threads: usize,
    own_book: bool,
    book_file: String,
    book: Option<Book>,
    chess960: bool,
    multi_pv: usize,
    show_wdl: bool,
    /// `Skill Level`, 0 to 20 (full strength).
    skill_level: u32,
    /// `UCI_LimitStrength`: play at `UCI_Elo` (which then overrides `Skill Level`).
    limit_strength: bool,
    elo: u32,
    /// `UCI_AnalyseMode`: the GUI analyses rather than plays, so the book does not answer.
    analyse_mode: bool,
    /// `Evaluation`.
    eval_kind: EvalKind,
    /// The network of `EvalFile`, used when `eval_kind` is NNUE.
    network: Arc<Network>,
    rng: Rng,
    /// Cleared by `ponderhit`; shared with the running search.
    pondering: Arc<AtomicBool>,
    /// Whether the running search ends only when told.
    unbounded: bool,
}

impl Default for UciSession {
    fn default() -> Self {
        UciSession::new()
    }
}

impl UciSession {
    /// A session at the starting position with default options.
    pub fn new() -> UciSession {
        UciSession {
            engine: Arc::new(Mutex::new(Engine::new(DEFAULT_HASH))),
            position: Position::startpos(),
            overhead: Duration::from_millis(DEFAULT_OVERHEAD),
            threads: 1,
            own_book: false,
            book_file: String::new(),
            book: None,
            chess960: false,
            multi_pv: 1,
            show_wdl: false,
            skill_level: MAX_LEVEL,
            limit_strength: false,
            elo: DEFAULT_ELO,
            analyse_mode: false,
            eval_kind: EvalKind::DEFAULT,
            network: Network::embedded(),
            rng: Rng::from_clock(),
            pondering: Arc::default(),
            unbounded: false,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The engine, shared with the search thread.
    pub fn engine(&self) -> Arc<Mutex<Engine>> {
        Arc::clone(&self.engine)
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
                run_search(&self.engine, &job, &SearchControl::default(), &mut |line| out.push(line));
                out
            }
        }
    }

    /// Interprets one line: the lines to answer, a search to start, or the end.
    fn parse(&mut self, line: &str) -> Parsed {
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
                self.lock_engine().clear_hash();
                self.position = Position::startpos();
                Ok(Vec::new())
            }
            "setoption" => self.set_option(args),
            "position" => self.set_position(args),
            "go" => return self.go(args),
            "d" => Ok(self.display()),
            "bench" => bench(args, &self.evaluation()),
            _ => Err(CommandError::Unknown(first.to_owned())),
        };
        Parsed::Reply(reply.unwrap_or_else(|e| vec![e.to_info()]))
    }

    fn lock_engine(&self) -> std::sync::MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn identify(&self) -> Vec<String> {
        [
            format!("id name {ENGINE_NAME}"),
            "id author the Tabula authors".to_owned(),
            format!("option name Hash type spin default {DEFAULT_HASH} min 1 max {MAX_HASH}"),
            format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
            "option name Clear Hash type button".to_owned(),
            format!("option name Move Overhead type spin default {DEFAULT_OVERHEAD} min 0 max 5000"),
            "option name OwnBook type check default false".to_owned(),
            "option name BookFile type string default <empty>".to_owned(),
            "option name Ponder type check default false".to_owned(),
            "option name UCI_Chess960 type check default false".to_owned(),
            format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTI_PV}"),
            "option name UCI_ShowWDL type check default false".to_owned(),
            "option name UCI_AnalyseMode type check default false".to_owned(),
            format!("option name Skill Level type spin default {MAX_LEVEL} min 0 max {MAX_LEVEL}"),
            "option name UCI_LimitStrength type check default false".to_owned(),
            format!(
                "option name UCI_Elo type spin default {DEFAULT_ELO} min {} max {}",
                ELO_RANGE.start(),
                ELO_RANGE.end()
            ),
            format!(
                "option name Evaluation type combo default {} var {} var {}",
                EvalKind::DEFAULT.name(),
                EvalKind::Nnue.name(),
                EvalKind::Tapered.name()
            ),
            format!("option name EvalFile type string default {EMBEDDED_NAME}"),
            "uciok".to_owned(),
        ]
        .into()
    }

    fn set_option(&mut self, args: &[&str]) -> Result<Vec<String>, CommandError> {
        let (name, value) = split_option(args)?;
        let number = |min: u64, max: u64| number_value(&name, value.as_deref(), min, max);
        match name.to_ascii_lowercase().as_str() {
            "hash" => self.lock_engine().set_hash(number(1, MAX_HASH as u64)? as usize),
            "threads" => {
                self.threads = number(1, MAX_THREADS as u64)? as usize;
                let threads = self.threads;
                self.lock_engine().set_threads(threads);
            }
            "clear hash" => self.lock_engine().clear_hash(),
            "move overhead" => self.overhead = Duration::from_millis(number(0, 5000)?),
            "ownbook" => self.own_book = check_value(&name, value.as_deref())?,
            // Pondering is the GUI's decision (`go ponder`); the option only says the engine can.
            "ponder" => {
                check_value(&name, value.as_deref())?;
            }
            "uci_chess960" => self.chess960 = check_value(&name, value.as_deref())?,
            "uci_showwdl" => self.show_wdl = check_value(&name, value.as_deref())?,
            "uci_analysemode" => self.analyse_mode = check_value(&name, value.as_deref())?,
            "skill level" => self.skill_level = number(0, MAX_LEVEL as u64)? as u32,
            "uci_limitstrength" => self.limit_strength = check_value(&name, value.as_deref())?,
            "uci_elo" => self.elo = number(*ELO_RANGE.start() as u64, *ELO_RANGE.end() as u64)? as u32,
            "multipv" => {
                self.multi_pv = number(1, MAX_MULTI_PV as u64)? as usize;
                let lines = self.multi_pv;
                self.lock_engine().set_multi_pv(lines);
            }
            "bookfile" => {
                let file = value.unwrap_or_default();
                self.book = None;
                self.book_file = file.clone();
                if !file.is_empty() && file != "<empty>" {
                    let book = Book::open(&file)?;
                    let entries = book.len();
                    self.book = Some(book);
                    return Ok(vec![format!("info string book {file} loaded with {entries} entries")]);
                }
            }
            "evaluation" => {
                let value = value.unwrap_or_default();
                self.eval_kind = EvalKind::from_name(&value)
                    .ok_or_else(|| CommandError::bad("Evaluation", "nnue or tapered", Some(value.as_str())))?;
                self.apply_evaluation();
            }
            "evalfile" => {
                let file = value.unwrap_or_default();
                self.network = Network::named(&file)?;
                self.apply_evaluation();
                if !names_embedded(&file) {
                    return Ok(vec![format!("info string network {file} loaded")]);
                }
            }
            _ => return Err(CommandError::UnknownOption(name)),
        }
        Ok(Vec::new())
    }

    /// The evaluation `Evaluation` and `EvalFile` ask for.
    fn evaluation(&self) -> EngineEvaluation {
        match self.eval_kind {
            EvalKind::Tapered => EngineEvaluation::Tapered,
            EvalKind::Nnue => EngineEvaluation::Nnue(Arc::clone(&self.network)),
        }
    }

    /// Gives the engine the evaluation `Evaluation` and `EvalFile` ask for.
    fn apply_evaluation(&mut self) {
        let evaluation = self.evaluation();
        self.lock_engine().set_evaluation(evaluation);
    }

    /// The strength the options ask for: `UCI_Elo` with `UCI_LimitStrength`, else `Skill Level`; `None` at
    /// full strength.
    fn skill(&self) -> Option<Skill> {
        if self.limit_strength {
            strength::skill(strength::level_for_elo(self.elo))
        } else {
            strength::skill(self.skill_level as f64)
        }
    }

    /// A move in the notation the options ask for.
    fn notation(&self, mv: Move) -> String {
        mv.to_uci_in(self.chess960)
    }

    fn set_position(&mut self, args: &[&str]) -> Result<Vec<String>, CommandError> {
        let start = split_position(args).ok_or_else(|| CommandError::Position(args.join(" ")))?;
        let mut pos = match &start.fen {
            None => Position::startpos(),
            Some(fen) => Position::from_fen(fen).map_err(CommandError::fen)?,
        };
        let mut reply = Vec::new();
        for &text in start.moves {
            match pos.parse_uci(text) {
                Ok(mv) => pos.play_unchecked(mv),
                Err(_) => {
                    let err = CommandError::IllegalMove { mv: text.to_owned(), fen: pos.to_fen() };
                    reply.push(format!("{}; the position stops before it", err.to_info()));
                    break;
                }
            }
        }
        self.position = pos;
        Ok(reply)
    }

    fn go(&mut self, args: &[&str]) -> Parsed {
        let side = if self.position.turn() == Color::White { 0 } else { 1 };
        let go = shared::parse_go(args, side, crate::engine::CLOCK_POLICY.with_overhead(self.overhead));
        if let Some(perft) = go.perft {
            return Parsed::Reply(match perft {
                Ok(depth) => self.perft(depth),
                Err(e) => vec![CommandError::from(e).to_info()],
            });
        }
        let mut notes: Vec<String> = go.errors.into_iter().map(|e| CommandError::from(e).to_info()).collect();
        let mut root_moves = Vec::new();
        for text in &go.search_moves {
            match self.position.parse_uci(text) {
                Ok(mv) => root_moves.push(mv),
                Err(_) => {
                    notes.push(CommandError::IllegalMove { mv: text.to_owned(), fen: self.position.to_fen() }.to_info())
                }
            }
        }
        let limits = go.limits;
        if self.own_book && !self.analyse_mode && !limits.infinite && !limits.ponder && root_moves.is_empty() {
            if let Some(book) = &self.book {
                if let Some(mv) = book.pick(&self.position, self.rng.next_u64()) {
                    let mv = self.notation(mv);
                    notes.push(format!("info string book move {mv}"));
                    notes.push(format!("bestmove {mv}"));
                    return Parsed::Reply(notes);
                }
            }
        }
        Parsed::Search(Box::new(SearchJob {
            position: self.position.clone(),
            limits,
            root_moves,
            notes,
            chess960: self.chess960,
            multi_pv: self.multi_pv,
            show_wdl: self.show_wdl,
            skill: self.skill(),
            seed: self.rng.next_u64(),
        }))
    }

    fn perft(&self, depth: u32) -> Vec<String> {
        let mut pos = self.position.clone();
        let mut total = 0;
        let mut lines = Vec::new();
        if depth == 0 {
            total = 1;
        } else {
            for (mv, count) in perft::divide(&mut pos, depth) {
                lines.push(format!("{}: {count}", self.notation(mv)));
                total += count;
            }
        }
        lines.push(String::new());
        lines.push(format!("Nodes searched: {total}"));
        lines
    }

    fn display(&self) -> Vec<String> {
        let board = self.position.board();
        let mut lines = vec![" +---+---+---+---+---+---+---+---+".to_owned()];
        for rank in Rank::ALL.iter().rev() {
            let mut row = String::from(" |");
            for file in File::ALL {
                let c = board.piece_at(Square::from_coords(file, *rank)).map_or(' ', |p| p.to_char());
                row.push_str(&format!(" {c} |"));
            }
            row.push_str(&format!(" {}", rank.to_char()));
            lines.push(row);
            lines.push(" +---+---+---+---+---+---+---+---+".to_owned());
        }
        lines.push("   a   b   c   d   e   f   g   h".to_owned());
        lines.push(String::new());
        lines.push(format!("Fen: {}", self.position.to_fen()));
        lines.push(format!("Key: {:016X}", self.position.key().as_u64()));
        let checkers: Vec<String> = self.position.checkers().into_iter().map(|s| s.to_string()).collect();
        lines.push(format!("Checkers: {}", checkers.join(" ")));
        lines
    }
}

/// `bench [depth]`: the bench searches with the session's evaluation.
fn bench(args: &[&str], evaluation: &EngineEvaluation) -> Result<Vec<String>, CommandError> {
    let depth = match args.first() {
        None => BENCH_DEPTH,
        Some(v) => v.parse::<u32>().ok().filter(|d| (1..=30).contains(d)).ok_or(CommandError::bad(
            "bench",
            "a depth from 1 to 30",
            Some(v),
        ))?,
    };
    let (nodes, time) = Engine::bench_with(depth, || evaluation.clone());
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
    Ok(vec![
        format!(
            "info string bench depth {depth} positions {} evaluation {}",
            crate::engine::BENCH_POSITIONS.len(),
            evaluation.kind().name()
        ),
        format!("Total time (ms) : {}", time.as_millis()),
        format!("Nodes searched  : {nodes}"),
        format!("Nodes/second    : {nps}"),
    ])
}

/// The `info` line for an iteration, moves in the notation of Chess960 if `chess960`.
pub fn info_line(it: &Iteration<Move>, chess960: bool) -> String {
    shared::info_line(it, |m| m.to_uci_in(chess960))
}

/// Runs `job` on `engine` under `control`, sending `info` lines and the final `bestmove` to `out`.
/// `control.pondering` starts as `job.limits.ponder` (set it before the search can be told `ponderhit`).
/// The clock, `stop` and `ponderhit` are handled as [`shared::run_timed`] says.
pub fn run_search(engine: &Mutex<Engine>, job: &SearchJob, control: &SearchControl, out: &mut dyn FnMut(String)) {
    for note in &job.notes {
        out(note.clone());
    }
    let mut engine = engine.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let phase = crate::eval::phase(&job.position);
    let wdl = |score| {
        let chances = MODEL.wdl(score, phase);
        [chances.win, chances.draw, chances.loss]
    };
    let style = InfoStyle { multi_pv: job.multi_pv > 1, wdl: job.show_wdl.then_some(&wdl) };
    let mut limits = job.limits.clone();
    if let Some(skill) = &job.skill {
        // A limited strength searches its node budget for a few best moves to choose from.
        limits.nodes = Some(limits.nodes.map_or(skill.nodes, |n| n.min(skill.nodes)));
        engine.set_multi_pv(job.multi_pv.max(skill.lines));
    }
    let mut result = shared::run_timed(
        &limits,
        control,
        |limits, on_iteration| engine.search(&job.position, limits, &job.root_moves, on_iteration),
        &mut |it| {
            for line in shared::info_lines(it, style, |m: Move| m.to_uci_in(job.chess960)) {
                out(line);
            }
        },
    );
    if let Some(skill) = &job.skill {
        engine.set_multi_pv(job.multi_pv);
        if let Some(chosen) = skill.choose(&result.lines, job.seed) {
            (result.best_move, result.score, result.pv) = (chosen.pv.first().copied(), chosen.score, chosen.pv.clone());
        }
    }
    // No legal move (mate or stalemate): `(none)`, as Stockfish says it and GUIs and python-chess read it, not
    // the null move `0000`.
    out(shared::bestmove_line(&result, |m| m.to_uci_in(job.chess960)).unwrap_or_else(|| "bestmove (none)".to_owned()));
}

/// The session in the serving harness: `go` searches on the engine thread; while it runs, `isready` is
/// answered at once, `stop` and `ponderhit` act on the search, a bad line is reported, `quit` and (during an
/// infinite or pondering search) any other command stop it first, and the rest wait for it to end.
impl Protocol for UciSession {
    type Outcome = ();

    fn command(&mut self, line: &str) -> Action<()> {
        match self.parse(line) {
            Parsed::Reply(lines) => Action::Reply(lines),
            Parsed::Quit => Action::Quit(Vec::new()),
            Parsed::Search(job) => {
                self.unbounded = job.is_unbounded();
                self.pondering = Arc::new(AtomicBool::new(job.limits.ponder));
                let (engine, pondering) = (self.engine(), Arc::clone(&self.pondering));
                Action::Search(Search::new(move |stop, emit| {
                    let control = SearchControl { stop: Arc::clone(stop), pondering };
                    run_search(&engine, &job, &control, emit);
                }))
            }
        }
    }

    fn bad_line(&mut self, bad: &BadLine) -> Vec<String> {
        vec![format!("info string error: {bad}")]
    }

    fn busy(&mut self, input: Input<'_>) -> Busy {
        shared::busy(input, self.unbounded, &self.pondering, |bad| vec![format!("info string error: {bad}")])
    }

    fn finish(&mut self, outcome: Option<()>) -> Vec<String> {
        // A search that panicked printed no `bestmove`; the GUI still waits for one.
        match outcome {
            Some(()) => Vec::new(),
            None => vec!["info string error: the search failed".to_owned(), "bestmove 0000".to_owned()],
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
