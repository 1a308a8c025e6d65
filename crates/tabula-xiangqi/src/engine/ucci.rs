//! UCCI, the Universal Chinese Chess Interface, as ElephantEye speaks it: [`UcciSession`], the protocol's logic,
//! served by the shared harness of `tabula_protocol::server` ([`run_stdio`]).
//!
//! Commands and answers:
//!
//! | command | answer |
//! |---|---|
//! | `ucci` | `id name`, `id author`, the options, `ucciok` |
//! | `isready` | `readyok` (also while searching) |
//! | `setoption <name> [<value>]` | nothing: `usemillisec`, `hashsize` (MiB), `threads`, `newgame`, `ponder`, `evaluation` (`classical` or `nnue`); `info string network <file> loaded` for `evalfile <file>`; the other options of the protocol (`batch`, `debug`, `usebook`, `bookfiles`, `pruning`, `randomness`, ...) are accepted and ignored |
//! | `position {fen <fen> \| startpos} [moves ...]` | nothing; clears the banned moves |
//! | `banmoves <move> ...` | nothing: the next search will not play these root moves |
//! | `go [ponder \| draw] <mode>`, mode `depth <d> \| depth infinite \| infinite \| nodes <n> \| time <t> [movestogo <m> \| increment <i>] [opptime <t> [oppmovestogo <m> \| oppincrement <i>]]` | `info depth ... score ... pv ...` per iteration, `info time ... nodes ...`, then `bestmove <m> [ponder <p>] [draw]`, or `nobestmove` |
//! | `ponderhit [draw]`, `stop` | the search's answer |
//! | `probe {fen <fen> \| startpos} [moves ...]` | `pophash [bestmove <m>] [lowerbound <v> depth <d>] [upperbound <v> depth <d>]` (also while searching) |
//! | `quit` | `bye` |
//!
//! Times are in seconds unless the GUI has set `usemillisec`. `go draw` (or `ponderhit draw`) says the opponent
//! offers a draw: the engine accepts with `bestmove <m> draw` when its score is below −150 (a pawn and a
//! half down). A ponder search that is stopped answers `nobestmove` (the guess was wrong, so the GUI sets up
//! the real position), as ElephantEye does; a position without legal moves answers `nobestmove` too. Scores
//! are in hundredths of a pawn; a forced win or loss in `n` plies is `±(10000 − n)`.
//!
//! `evaluation` and `evalfile` choose the evaluation and load a network as UCI's `Evaluation` and `EvalFile`
//! do (see [`uci`](crate::engine::uci)): the hand-written evaluation by default, `nnue` once a network is
//! loaded.
//!
//! UCCI, like UCI, has no error reply: an unknown or malformed command, and a line that is not text
//! (invalid UTF-8, a NUL byte, more than 64 KiB), are answered with `info string error: ...` and the session
//! goes on (a network file that cannot be used, or `nnue` without a network, too). Moves are ICCS coordinates
//! (`h2e2`).
//!
//! # Examples
//!
//! ```
//! use tabula_protocol::server::Connection;
//! use tabula_xiangqi::engine::ucci::UcciSession;
//!
//! let engine = Connection::open(UcciSession::new());
//! engine.send(b"ucci\nposition startpos moves h2e2\nbanmoves h9g7\ngo depth 3\nquit\n");
//! let (_, out) = engine.close();
//! assert!(out.contains("ucciok\n"));
//! let best = out.lines().find(|l| l.starts_with("bestmove")).unwrap();
//! assert!(!best.starts_with("bestmove h9g7"));
//! assert!(out.ends_with("bye\n"));
//! ```

use crate::engine::uci::{bench, CommandError, SearchJob, ENGINE_NAME};
use crate::engine::{Engine, EnginePosition, EvalKind};
use crate::moves::Move;
use crate::position::Position;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tabula::score::{is_decisive, plies_to_end, Score};
use tabula::search::{Iteration, Request};
use tabula::tt::Bound;
use tabula_nnue::EvalOptions;
use tabula_protocol::lines::BadLine;
use tabula_protocol::server::{self, Action, Busy, Input, Protocol};
use tabula_protocol::uci::{self as shared, check_value, number_value, split_position, ArgError, Clock, SearchControl};
use tabula_protocol::uci_session::{Core, DEFAULT_HASH, MAX_HASH, MAX_THREADS};

/// [`UcciSession::handle`] cannot be told to stop, so it caps an unlimited search at this depth.
pub const UNLIMITED_DEPTH: u32 = 6;
/// A drawn offer is accepted below this score.
const ACCEPT_DRAW_BELOW: Score = -150;
/// The overhead kept in reserve per move, in milliseconds.
const OVERHEAD_MS: u64 = 30;
/// The options the protocol names that this engine accepts and ignores.
const IGNORED_OPTIONS: [&str; 16] = [
    "batch",
    "debug",
    "usebook",
    "useegtb",
    "bookfiles",
    "egtbpaths",
    "evalapi",
    "idle",
    "promotion",
    "pruning",
    "knowledge",
    "randomness",
    "selectivity",
    "style",
    "repetition",
    "drawmoves",
];

/// What the search of a `go` returned.
#[derive(Debug)]
pub struct Answer {
    /// The move and the expected reply, if any.
    pub best: Option<(Move, Option<Move>)>,
    /// The score for the side to move.
    pub score: Score,
}

/// The state of a UCCI conversation.
pub struct UcciSession {
    core: Core<EnginePosition>,
    /// `evaluation` and `evalfile`.
    eval: EvalOptions<Position>,
    millis: bool,
    banned: Vec<Move>,
    /// The table, shared with the engine, so that `probe` is answered during a search.
    table: Arc<tabula::TranspositionTable>,
    /// Whether the opponent offered a draw (`go draw`, `ponderhit draw`).
    draw_offered: bool,
}

impl Default for UcciSession {
    fn default() -> Self {
        UcciSession::new()
    }
}

enum Parsed {
    Reply(Vec<String>),
    Search(Box<SearchJob>),
    Quit,
}

impl UcciSession {
    /// A session at the starting position with default options.
    pub fn new() -> UcciSession {
        let core = Core::new();
        let table = Arc::clone(core.lock_engine().table());
        UcciSession {
            core,
            eval: EvalOptions::default(),
            millis: false,
            banned: Vec::new(),
            table,
            draw_offered: false,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.core.position.position()
    }

    /// Handles one line and returns the answer; a `go` is searched here to the end (an unlimited one to
    /// [`UNLIMITED_DEPTH`]), so this suits scripts and tests.
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        match self.parse(line) {
            Parsed::Reply(lines) => lines,
            Parsed::Quit => vec!["bye".to_owned()],
            Parsed::Search(mut job) => {
                job.limits.bound(UNLIMITED_DEPTH);
                let mut out = Vec::new();
                let answer = run_search(&self.core.engine, &job, &SearchControl::default(), &mut |l| out.push(l));
                out.extend(self.finish_answer(answer, false));
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
            "ucci" => Ok(identify()),
            "isready" => Ok(vec!["readyok".to_owned()]),
            "stop" | "ponderhit" => Ok(Vec::new()),
            "quit" => return Parsed::Quit,
            "setoption" => self.set_option(args),
            "position" => {
                self.banned.clear();
                match split_position(args) {
                    Some(start) => {
                        self.core.set_position(&start, |pos, text| pos.position().parse_iccs(text).ok(), |e| info(&e))
                    }
                    None => Err(CommandError::Position(args.join(" "))),
                }
            }
            "banmoves" => self.ban(args),
            "probe" => Ok(self.probe(args)),
            "go" => return self.go(args),
            "bench" => bench(args, &self.eval.evaluation()),
            _ => Err(CommandError::Unknown(first.to_owned())),
        };
        Parsed::Reply(reply.unwrap_or_else(|e| vec![info(&e)]))
    }

    fn set_option(&mut self, args: &[&str]) -> Result<Vec<String>, CommandError> {
        let Some((&name, rest)) = args.split_first() else {
            return Err(ArgError::new("setoption", "an option name", None).into());
        };
        let value = (!rest.is_empty()).then(|| rest.join(" "));
        let number = |min: u64, max: u64| number_value(name, value.as_deref(), min, max);
        match name.to_ascii_lowercase().as_str() {
            "usemillisec" => self.millis = check_value(name, value.as_deref())?,
            "hashsize" => {
                let mib = number(1, MAX_HASH as u64)? as usize;
                let mut engine = self.core.lock_engine();
                engine.set_hash(mib);
                self.table = Arc::clone(engine.table());
            }
            "threads" => {
                let threads = number(1, MAX_THREADS as u64)? as usize;
                self.core.lock_engine().set_threads(threads);
            }
            "newgame" => {
                self.core.lock_engine().clear_hash();
                self.table = Arc::clone(self.core.lock_engine().table());
                self.core.position = EnginePosition::new(Position::startpos());
                self.banned.clear();
            }
            "ponder" | "usehash" => {
                check_value(name, value.as_deref())?;
            }
            other if IGNORED_OPTIONS.contains(&other) => {}
            _ => {
                let set = self.eval.set_option(&self.core.engine, name, value.as_deref().unwrap_or_default())?;
                return set.ok_or_else(|| CommandError::UnknownOption(name.to_owned()));
            }
        }
        Ok(Vec::new())
    }

    fn ban(&mut self, args: &[&str]) -> Result<Vec<String>, CommandError> {
        self.banned.clear();
        let pos = self.core.position.position();
        let mut reply = Vec::new();
        for &text in args {
            match pos.parse_iccs(text) {
                Ok(mv) => self.banned.push(mv),
                Err(_) => reply.push(info(&CommandError::IllegalMove { mv: text.to_owned(), fen: pos.to_fen() })),
            }
        }
        Ok(reply)
    }

    /// `pophash` with what the table holds for the position `probe` names.
    fn probe(&self, args: &[&str]) -> Vec<String> {
        let Some(start) = split_position(args) else {
            return vec![info(&CommandError::Position(args.join(" ")))];
        };
        let mut pos = match &start.fen {
            None => Position::startpos(),
            Some(fen) => match Position::from_fen(fen) {
                Ok(pos) => pos,
                Err(e) => return vec![info(&CommandError::fen(e))],
            },
        };
        for &text in start.moves {
            match pos.parse_iccs(text) {
                Ok(mv) => pos.play_unchecked(mv),
                Err(_) => {
                    return vec![info(&CommandError::IllegalMove { mv: text.to_owned(), fen: pos.to_fen() })];
                }
            }
        }
        let mut line = "pophash".to_owned();
        if let Some(e) = self.table.probe(pos.key(), 0).hit {
            if let Some(mv) = e.move_code.and_then(Move::from_code).filter(|&mv| pos.is_legal(mv)) {
                line.push_str(&format!(" bestmove {mv}"));
            }
            let value = ucci_score(e.score);
            if matches!(e.bound, Bound::Lower | Bound::Exact) {
                line.push_str(&format!(" lowerbound {value} depth {}", e.depth));
            }
            if matches!(e.bound, Bound::Upper | Bound::Exact) {
                line.push_str(&format!(" upperbound {value} depth {}", e.depth));
            }
        }
        vec![line]
    }

    fn go(&mut self, args: &[&str]) -> Parsed {
        let (go, draw, notes) = parse_go(args, self.millis);
        self.draw_offered = draw;
        let pos = self.core.position.position();
        let root_moves: Vec<Move> = if self.banned.is_empty() {
            Vec::new()
        } else {
            pos.legal_moves().iter().copied().filter(|mv| !self.banned.contains(mv)).collect()
        };
        if !self.banned.is_empty() && root_moves.is_empty() {
            let mut lines = notes;
            lines.push("nobestmove".to_owned());
            return Parsed::Reply(lines);
        }
        let position = self.core.position.clone();
        Parsed::Search(Box::new(SearchJob { position, limits: go, root_moves, notes, extra: () }))
    }

    /// The final line of a search: `bestmove` (with `draw` to accept an offered draw) or `nobestmove`.
    fn finish_answer(&mut self, answer: Answer, stopped_pondering: bool) -> Vec<String> {
        let line = match answer.best {
            _ if stopped_pondering => "nobestmove".to_owned(),
            None => "nobestmove".to_owned(),
            Some((best, reply)) => {
                let mut line = format!("bestmove {best}");
                if let Some(reply) = reply {
                    line.push_str(&format!(" ponder {reply}"));
                }
                if self.draw_offered && answer.score < ACCEPT_DRAW_BELOW {
                    line.push_str(" draw");
                }
                line
            }
        };
        self.draw_offered = false;
        vec![line]
    }
}

/// Reads the words after `go`: the limits, whether a draw is offered, and reports of words that could not be
/// read. Times are in seconds unless `millis`.
fn parse_go(args: &[&str], millis: bool) -> (shared::GoLimits, bool, Vec<String>) {
    let mut limits = shared::GoLimits::default();
    let mut clock = Clock::default();
    let mut draw = false;
    let mut notes = Vec::new();
    let unit = |n: u64| if millis { Duration::from_millis(n) } else { Duration::from_secs(n) };
    let mut i = 0;
    while i < args.len() {
        let keyword = args[i];
        let value = args.get(i + 1).copied();
        let number =
            |expected| value.and_then(|v| v.parse::<u64>().ok()).ok_or(ArgError::new(keyword, expected, value));
        let mut step = 2;
        let parsed = match keyword {
            "ponder" | "draw" | "infinite" => {
                step = 1;
                match keyword {
                    "ponder" => limits.ponder = true,
                    "draw" => draw = true,
                    _ => limits.infinite = true,
                }
                Ok(())
            }
            "depth" if value == Some("infinite") => {
                limits.infinite = true;
                Ok(())
            }
            "depth" => number("a depth or 'infinite'").map(|n| limits.depth = Some(n.clamp(1, 200) as u32)),
            "nodes" => number("a node count").map(|n| limits.nodes = Some(n.max(1))),
            "time" => number("the time left").map(|n| clock.time = Some(unit(n))),
            "movestogo" => number("a move count").map(|n| clock.moves_to_go = Some(n.clamp(1, 1000) as u32)),
            "increment" => number("the increment").map(|n| clock.increment = unit(n)),
            // The opponent's clock does not change how long this engine thinks.
            "opptime" | "oppmovestogo" | "oppincrement" => number("a number").map(|_| ()),
            _ => {
                step = 1;
                Err(ArgError::new("go", "a go parameter", Some(keyword)))
            }
        };
        if let Err(e) = parsed {
            notes.push(info(&e.into()));
        }
        i += step;
    }
    limits.plan = clock.plan(tabula::clock::Policy::new(Duration::from_millis(OVERHEAD_MS)));
    (limits, draw, notes)
}

fn identify() -> Vec<String> {
    [
        format!("id name {ENGINE_NAME}"),
        "id author the Tabula authors".to_owned(),
        "option usemillisec type check default false".to_owned(),
        format!("option hashsize type spin min 1 max {MAX_HASH} default {DEFAULT_HASH}"),
        format!("option threads type spin min 1 max {MAX_THREADS} default 1"),
        "option ponder type check default false".to_owned(),
        "option newgame type button".to_owned(),
        format!(
            "option evaluation type combo var {} var {} default {}",
            EvalKind::Nnue.name_in::<Position>(),
            EvalKind::Classical.name_in::<Position>(),
            EvalKind::default_of::<Position>().name_in::<Position>()
        ),
        format!("option evalfile type string default {}", EvalOptions::<Position>::default_file()),
        "ucciok".to_owned(),
    ]
    .into()
}

/// The `info string` line reporting `error`.
fn info(error: &CommandError) -> String {
    format!("info string error: {error}")
}

/// A score as UCCI writes it: hundredths of a pawn, a forced result in `n` plies as `±(10000 − n)`.
pub fn ucci_score(score: Score) -> i32 {
    match plies_to_end(score) {
        Some(p) if is_decisive(score) => (10_000 - p.abs().min(9_999)) * p.signum(),
        _ => score,
    }
}

/// The `info` lines of an iteration: depth, score and principal variation, then time and nodes.
fn info_lines(it: &Iteration<Move>) -> [String; 2] {
    let pv: Vec<String> = it.pv.iter().map(Move::to_string).collect();
    [
        format!("info depth {} score {} pv {}", it.depth, ucci_score(it.score), pv.join(" ")),
        format!("info time {} nodes {}", it.elapsed.as_millis(), it.nodes),
    ]
}

/// Runs `job` on `engine` under `control`, sending the `info` lines to `out`; returns the best move and its
/// expected reply (the session writes `bestmove` or `nobestmove`).
pub fn run_search(
    engine: &Mutex<Engine>,
    job: &SearchJob,
    control: &SearchControl,
    out: &mut dyn FnMut(String),
) -> Answer {
    for note in &job.notes {
        out(note.clone());
    }
    let mut engine = engine.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let result = shared::run_timed(
        &job.limits,
        control,
        |limits, on_iteration| {
            engine.search(&job.position, Request::new(limits.clone()).with_root_moves(&job.root_moves), on_iteration)
        },
        &mut |it| info_lines(it).into_iter().for_each(&mut *out),
    );
    let best = result.best_move.map(|best| {
        let reply = result.pv.get(1).copied().filter(|_| result.pv.first() == Some(&best));
        (best, reply)
    });
    Answer { best, score: result.score }
}

/// What the engine thread returns: the answer, and whether it was a ponder search stopped before `ponderhit`.
pub struct Outcome {
    answer: Answer,
    stopped_pondering: bool,
}

impl Protocol for UcciSession {
    type Outcome = Outcome;

    fn command(&mut self, line: &str) -> Action<Outcome> {
        match self.parse(line) {
            Parsed::Reply(lines) => Action::Reply(lines),
            Parsed::Quit => Action::Quit(vec!["bye".to_owned()]),
            Parsed::Search(job) => {
                let limits = job.limits.clone();
                self.core.start(*job, &limits, |engine, job: &SearchJob, control, out| {
                    let answer = run_search(engine, job, control, out);
                    Outcome { answer, stopped_pondering: control.pondering.load(Relaxed) }
                })
            }
        }
    }

    fn bad_line(&mut self, bad: &BadLine) -> Vec<String> {
        vec![format!("info string error: {bad}")]
    }

    fn busy(&mut self, input: Input<'_>) -> Busy {
        match input {
            Input::Line(line) if line.split_whitespace().next() == Some("probe") => {
                let words: Vec<&str> = line.split_whitespace().skip(1).collect();
                Busy::Answer(self.probe(&words))
            }
            Input::Line(line) if line.split_whitespace().eq(["ponderhit", "draw"]) => {
                self.draw_offered = true;
                self.core.pondering.store(false, Relaxed);
                Busy::Answer(Vec::new())
            }
            _ => shared::busy(input, self.core.unbounded, &self.core.pondering, |bad| {
                vec![format!("info string error: {bad}")]
            }),
        }
    }

    fn finish(&mut self, outcome: Option<Outcome>) -> Vec<String> {
        match outcome {
            Some(Outcome { answer, stopped_pondering }) => self.finish_answer(answer, stopped_pondering),
            None => vec!["info string error: the search failed".to_owned(), "nobestmove".to_owned()],
        }
    }
}

/// Serves UCCI on standard input and output until `quit` or the end of input.
///
/// # Errors
///
/// An error reading standard input.
pub fn run_stdio() -> std::io::Result<()> {
    server::serve_stdio(&mut UcciSession::new())
}
