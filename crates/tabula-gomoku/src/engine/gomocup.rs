//! The Gomocup (Piskvork) protocol as a [`Session`]: one line in, the lines to answer out.
//!
//! Supported commands: `START size`, `RECTSTART w,h`, `RESTART`, `BEGIN`, `TURN x,y`, `BOARD` ... `x,y,field`
//! ... `DONE`, `TAKEBACK x,y`, `INFO key value`, `END`, `ABOUT`. Anything else gets `UNKNOWN`, a known
//! command with bad arguments `ERROR`, and the session keeps serving. Lines may end in CRLF or LF;
//! commands are case-insensitive. `INFO` keys: `timeout_turn`, `timeout_match`, `time_left` (milliseconds),
//! `max_memory` (bytes, 0 for no limit), `game_type`, `rule` (bit 1: exactly five, bit 4: renju; otherwise
//! freestyle), `folder`, `thread_num`; other keys are ignored as the protocol asks. Tabula's own keys set the
//! search's threat-space hooks ([`ThreatOptions`]): `tabula_forced_replies` (0 or 1), `tabula_horizon_vcf`
//! and `tabula_inner_vcf` (node budgets, 0 for none), `tabula_parry_threes`, `tabula_parry_four_threes` and
//! `tabula_trivial_last` (0 or 1); `tabula_weights` reads the evaluation's weights from the file the rest of the
//! line names (as `tabula-lab gomoku tune fit` writes them; no file: the embedded ones); `tabula_order` orders
//! the search's moves by the fitted move order the file names (as `tabula-lab gomoku tune order` writes it; no
//! file: the hand-set order); and
//! `tabula_search_NAME` sets the alpha-beta search's option `NAME`
//! ([`SearchOptions::set`](tabula::search::SearchOptions::set): `INFO tabula_search_counter_moves 1`,
//! `INFO tabula_search_singular_depth none`); an unknown option or a bad value is answered `ERROR`.
//!
//! [`Session::handle`] thinks to the end, for scripts and tests. [`run_stdio`] serves the session in the
//! shared harness of `tabula_protocol::server`: the engine thinks on its own thread while input is still
//! read, `END` stops a search at once (the move is still answered), other lines wait for the move, a line
//! that is not text (bad UTF-8, a NUL byte, more than 64 KiB) is answered `ERROR line N ...`, the end of
//! input stops a running search, and answers end in CRLF.
//!
//! # Examples
//!
//! ```
//! use tabula_gomoku::Session;
//!
//! let mut session = Session::new();
//! assert_eq!(session.handle("START 15\r\n"), ["OK"]);
//! session.handle("INFO timeout_turn 200");
//! let reply = session.handle("TURN 7,7");
//! let last = reply.last().unwrap();
//! assert!(last.contains(',') && !last.starts_with("ERROR"));
//! assert!(session.handle("FOO").last().unwrap().starts_with("UNKNOWN"));
//! assert!(session.handle("TURN 99,99").last().unwrap().starts_with("ERROR"));
//! ```
//!
//! Served, with bad bytes:
//!
//! ```
//! use tabula_gomoku::Session;
//! use tabula_protocol::server::Connection;
//!
//! let engine = Connection::open(Session::new());
//! engine.send(b"START 15\r\nTURN \xff\nABOUT\r\n");
//! let (_, out) = engine.close();
//! assert!(out.starts_with("OK\r\nERROR line 2 is not valid UTF-8 (byte 0xff at column 6)\r\nname="));
//! ```

use crate::board::{Board, Point, Rule, MAX_SIZE, MIN_SIZE};
use crate::engine::eval::{shared_weights, Weights};
use crate::engine::policy::ThreatOptions;
use crate::engine::Engine;
use crate::engine::Thought;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tabula::clock::{Clock, Policy};
use tabula::score::plies_to_end;
use tabula::search::Limits;
use tabula_protocol::lines::BadLine;
use tabula_protocol::server::{self, Action, Busy, Input, Protocol, Search};
use thiserror::Error;

/// The engine's self-description for `ABOUT`.
pub const ABOUT: &str = concat!(
    "name=\"tabula\", version=\"",
    env!("CARGO_PKG_VERSION"),
    "\", author=\"The Tabula authors\", country=\"Unknown\""
);

/// The prefix of the `INFO` keys that set a search option by its name.
const SEARCH_OPTION: &str = "tabula_search_";

/// What is wrong with a protocol line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProtocolError {
    /// A command the protocol knows, with arguments that do not parse.
    #[error("{command}: cannot read `{argument}` ({expected})")]
    BadArgument {
        /// The command.
        command: &'static str,
        /// The argument as written.
        argument: String,
        /// What was expected.
        expected: &'static str,
    },
    /// A weights file (`INFO tabula_weights`) that cannot be used; the weights in force stay.
    #[error("INFO tabula_weights: {0}")]
    Weights(String),
    /// A move-order file (`INFO tabula_order`) that cannot be used; the order in force stays.
    #[error("INFO tabula_order: {0}")]
    Order(String),
    /// A search option (`INFO tabula_search_NAME`) that does not exist or a value that does not fit it; the
    /// options in force stay.
    #[error("INFO: {0}")]
    SearchOption(#[from] tabula::search::OptionError),
    /// A command that needs a game before `START`.
    #[error("{0}: no game started (send START first)")]
    NoGame(&'static str),
    /// The move or position cannot be played.
    #[error("{0}")]
    Move(#[from] crate::board::MoveError),
}

/// How the engine spends its clock: its threat searches run before the alpha-beta search and may overshoot,
/// so soft and hard are one limit at 0.8 of the move's share and 0.8 of a fixed turn time; 20 ms are kept
/// per move for the answer, and a move gets at least 5 ms. A timed match is shared over 4 more moves, the
/// early moves taking most of the clock: games are decided in their first twenty moves or so, and against
/// Rapfi the games as white are lost by the third or fourth move (15 moves left Tabula 7 s of 10 unused at
/// the end of a game while its opponents spent half their clocks on their first move; 7 moves then played
/// 29 ± 30 Elo worse than 4 in 510 self-play games at 5 s + 0.05 s, the crate's README section).
pub const CLOCK_POLICY: Policy = Policy::new(Duration::from_millis(20))
    .with_moves_left(4)
    .with_shares(0.8, 0.8)
    .with_fixed(0.8)
    .with_minimum(Duration::from_millis(5));

/// The weights file `path` names (an `INFO` line's value), `None` for no path; a file that cannot be used is
/// the error `refused` makes of the reason.
fn weights_file(path: &str, refused: fn(String) -> ProtocolError) -> Result<Option<Arc<Weights>>, ProtocolError> {
    if path.is_empty() {
        return Ok(None);
    }
    Weights::read(Path::new(path)).map(|w| Some(Arc::new(w))).map_err(|e| refused(e.to_string()))
}

/// The turn time taken for `timeout_turn 0` ("play as fast as possible"), in milliseconds.
const FAST_TURN: u64 = 100;

/// Time and memory limits from `INFO`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Info {
    /// Milliseconds per move (0: as fast as possible).
    pub timeout_turn: u64,
    /// Milliseconds for the whole match (0: no limit).
    pub timeout_match: u64,
    /// Milliseconds left in the match.
    pub time_left: u64,
    /// Memory limit in bytes (0: none).
    pub max_memory: u64,
    /// Search threads.
    pub threads: usize,
}

impl Default for Info {
    fn default() -> Self {
        Info { timeout_turn: 5_000, timeout_match: 0, time_left: u64::MAX, max_memory: 0, threads: 1 }
    }
}

/// A Gomocup session. See the [module documentation](self).
pub struct Session {
    board: Option<Board>,
    rule: Rule,
    info: Info,
    /// Shared with the engine thread while it thinks.
    engine: Arc<Mutex<Engine>>,
    table_mib: usize,
    /// `Some` between `BOARD` and `DONE`: the stones read so far (point, field).
    pending: Option<Vec<(Point, u8)>>,
    ended: bool,
}

/// What a command asks for: lines to answer, or the engine's move.
enum Reply {
    Lines(Vec<String>),
    Think,
}

impl Default for Session {
    fn default() -> Self {
        Self::new()
    }
}

/// The table size when `max_memory` sets no limit.
const DEFAULT_TABLE_MIB: usize = 64;

fn arg_error(command: &'static str, argument: &str, expected: &'static str) -> ProtocolError {
    ProtocolError::BadArgument { command, argument: argument.to_string(), expected }
}

/// `x,y` as two numbers.
fn parse_pair(command: &'static str, text: &str) -> Result<(usize, usize), ProtocolError> {
    let bad = || arg_error(command, text, "x,y with two non-negative integers");
    let (a, b) = text.trim().split_once(',').ok_or_else(bad)?;
    Ok((a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?))
}

impl Session {
    /// A session with no game yet.
    pub fn new() -> Session {
        Session {
            board: None,
            rule: Rule::Freestyle,
            info: Info::default(),
            engine: Arc::new(Mutex::new(Engine::new(DEFAULT_TABLE_MIB))),
            table_mib: DEFAULT_TABLE_MIB,
            pending: None,
            ended: false,
        }
    }

    fn engine(&self) -> MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether `END` was received.
    pub fn is_ended(&self) -> bool {
        self.ended
    }

    /// The current position, if a game was started.
    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    /// The limits in force.
    pub fn info(&self) -> Info {
        self.info
    }

    /// The threat-space hooks of the engine's search (set by Tabula's `INFO tabula_*` keys).
    pub fn threat_options(&self) -> ThreatOptions {
        self.engine().threat_options()
    }

    /// The options of the engine's alpha-beta search (set by `INFO tabula_search_NAME`).
    pub fn search_options(&self) -> tabula::search::SearchOptions {
        self.engine().search_options().clone()
    }

    /// The evaluation's weights in force (set by `INFO tabula_weights`).
    pub fn weights(&self) -> Arc<Weights> {
        self.engine().weights().clone()
    }

    /// The fitted move order in force (set by `INFO tabula_order`), if any.
    pub fn order(&self) -> Option<Arc<Weights>> {
        self.engine().order().cloned()
    }

    /// Handles one line from the manager and returns the lines to answer (possibly none), thinking to the end
    /// when the engine is to move.
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        server::answer(self, line)
    }

    /// Interprets one line.
    fn respond(&mut self, line: &str) -> Reply {
        let line = line.trim_end_matches(['\r', '\n']).trim();
        if line.is_empty() {
            return Reply::Lines(Vec::new());
        }
        if self.pending.is_some() {
            return self.board_line(line);
        }
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let result = match command.to_ascii_uppercase().as_str() {
            "START" => self.start(rest),
            "RECTSTART" => self.rectstart(rest),
            "RESTART" => self.restart(),
            "BEGIN" => self.begin(),
            "TURN" => self.turn(rest),
            "BOARD" => self.board_start(),
            "TAKEBACK" => self.takeback(rest),
            "INFO" => self.set_info(rest),
            "END" => {
                self.ended = true;
                Ok(Reply::Lines(Vec::new()))
            }
            "ABOUT" => Ok(Reply::Lines(vec![ABOUT.to_string()])),
            _ => return Reply::Lines(vec![format!("UNKNOWN command `{command}`")]),
        };
        result.unwrap_or_else(|e| Reply::Lines(vec![format!("ERROR {e}")]))
    }

    fn new_board(&mut self, width: usize, height: usize) -> Result<Reply, ProtocolError> {
        let board = Board::new(width, height, self.rule)?;
        self.board = Some(board);
        self.engine().clear();
        Ok(ok())
    }

    fn start(&mut self, rest: &str) -> Result<Reply, ProtocolError> {
        let size: usize = rest.parse().map_err(|_| arg_error("START", rest, "a board size"))?;
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(arg_error("START", rest, "a size from 5 to 22"));
        }
        self.new_board(size, size)
    }

    fn rectstart(&mut self, rest: &str) -> Result<Reply, ProtocolError> {
        let (w, h) = parse_pair("RECTSTART", rest)?;
        self.new_board(w, h)
    }

    fn restart(&mut self) -> Result<Reply, ProtocolError> {
        let board = self.board.as_ref().ok_or(ProtocolError::NoGame("RESTART"))?;
        let (w, h) = (board.width(), board.height());
        self.new_board(w, h)
    }

    fn game(&mut self, command: &'static str) -> Result<&mut Board, ProtocolError> {
        self.board.as_mut().ok_or(ProtocolError::NoGame(command))
    }

    fn point(&mut self, command: &'static str, text: &str) -> Result<Point, ProtocolError> {
        let (x, y) = parse_pair(command, text)?;
        let board = self.game(command)?;
        if x >= board.width() || y >= board.height() {
            return Err(crate::board::MoveError::OffBoard {
                text: text.to_string(),
                width: board.width(),
                height: board.height(),
            }
            .into());
        }
        Ok(Point::new(x as u8, y as u8))
    }

    fn begin(&mut self) -> Result<Reply, ProtocolError> {
        let board = self.game("BEGIN")?;
        if !board.moves().is_empty() {
            return Err(arg_error("BEGIN", "", "an empty board"));
        }
        Ok(Reply::Think)
    }

    fn turn(&mut self, rest: &str) -> Result<Reply, ProtocolError> {
        let p = self.point("TURN", rest)?;
        self.game("TURN")?.play(p)?;
        Ok(Reply::Think)
    }

    fn takeback(&mut self, rest: &str) -> Result<Reply, ProtocolError> {
        let p = self.point("TAKEBACK", rest)?;
        let board = self.game("TAKEBACK")?;
        if board.stone(p).is_none() {
            return Err(arg_error("TAKEBACK", rest, "a point that holds a stone"));
        }
        if board.moves().last() == Some(&p) {
            board.take_back();
        } else {
            // Not the last move: replay the game without it (colours follow the new order).
            let mut rebuilt = Board::new(board.width(), board.height(), board.rule())?;
            for &m in board.moves().iter().filter(|&&m| m != p) {
                rebuilt.play_unchecked(m);
            }
            *board = rebuilt;
        }
        Ok(ok())
    }

    fn set_info(&mut self, rest: &str) -> Result<Reply, ProtocolError> {
        let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let value = value.trim();
        let number = |name: &'static str| -> Result<u64, ProtocolError> {
            value.parse::<i64>().map(|v| v.max(0) as u64).map_err(|_| arg_error("INFO", value, name))
        };
        let key = key.to_ascii_lowercase();
        // Tabula's own keys, for matches between settings: the threat-space hooks of the search.
        if let Some(name) = key.strip_prefix("tabula_").filter(|n| ThreatOptions::NAMES.contains(n)) {
            let mut options = self.threat_options();
            options.set(name, value).map_err(|e| arg_error("INFO", value, e.expected()))?;
            self.engine().set_threat_options(options);
            return Ok(Reply::Lines(Vec::new()));
        }
        match key.as_str() {
            "timeout_turn" => self.info.timeout_turn = number("milliseconds")?,
            "timeout_match" => self.info.timeout_match = number("milliseconds")?,
            "time_left" => self.info.time_left = number("milliseconds")?,
            "max_memory" => {
                self.info.max_memory = number("bytes")?;
                let mib = if self.info.max_memory == 0 {
                    DEFAULT_TABLE_MIB
                } else {
                    // Half the allowance for the tables leaves room for the program and its buffers.
                    ((self.info.max_memory / 2) >> 20).clamp(1, 1024) as usize
                };
                if mib != self.table_mib {
                    self.table_mib = mib;
                    self.engine().resize(mib);
                }
            }
            // The evaluation's weights from a file (the rest of the line), or the embedded ones if none.
            "tabula_weights" => {
                let weights = weights_file(value, ProtocolError::Weights)?.unwrap_or_else(shared_weights);
                self.engine().set_weights(weights);
            }
            // A fitted move order from a file (the rest of the line), or the hand-set order if none.
            "tabula_order" => {
                let order = weights_file(value, ProtocolError::Order)?;
                self.engine().set_order(order);
            }
            "thread_num" => {
                self.info.threads = number("a thread count")?.clamp(1, 64) as usize;
                let threads = self.info.threads;
                self.engine().set_threads(threads);
            }
            "rule" => {
                self.rule = Rule::from_gomocup_code(number("a rule bitmask")?);
                if let Some(board) = &self.board {
                    self.board = Some(board.with_rule(self.rule)?);
                }
            }
            "game_type" => {
                number("a game type")?;
            }
            // Any option of the alpha-beta search by its name, `INFO tabula_search_counter_moves 1`: one
            // binary matched against itself with one option changed.
            name if name.starts_with(SEARCH_OPTION) => {
                self.engine().set_search_option(&name[SEARCH_OPTION.len()..], value)?;
            }
            _ => {}
        }
        Ok(Reply::Lines(Vec::new()))
    }

    fn board_start(&mut self) -> Result<Reply, ProtocolError> {
        self.game("BOARD")?;
        self.pending = Some(Vec::new());
        Ok(Reply::Lines(Vec::new()))
    }

    /// A line inside `BOARD` ... `DONE`.
    fn board_line(&mut self, line: &str) -> Reply {
        if line.eq_ignore_ascii_case("DONE") {
            let stones = self.pending.take().unwrap_or_default();
            return self.board_done(stones).unwrap_or_else(|e| Reply::Lines(vec![format!("ERROR {e}")]));
        }
        let parsed = (|| {
            let (pair, field) = line.rsplit_once(',').ok_or_else(|| arg_error("BOARD", line, "x,y,field"))?;
            let field: u8 = field.trim().parse().map_err(|_| arg_error("BOARD", line, "field 1, 2 or 3"))?;
            if !(1..=3).contains(&field) {
                return Err(arg_error("BOARD", line, "field 1, 2 or 3"));
            }
            let p = self.point("BOARD", pair)?;
            Ok((p, field))
        })();
        match parsed {
            Ok(stone) => {
                self.pending.get_or_insert_with(Vec::new).push(stone);
                Reply::Lines(Vec::new())
            }
            Err(e) => {
                // A malformed line ends the position: the manager will send it again.
                self.pending = None;
                Reply::Lines(vec![format!("ERROR {e}")])
            }
        }
    }

    fn board_done(&mut self, stones: Vec<(Point, u8)>) -> Result<Reply, ProtocolError> {
        let board = self.game("BOARD")?;
        // Field 1 is ours, 2 the opponent's; 3 (a winning line in continuous games) counts as the opponent's.
        let own: Vec<Point> = stones.iter().filter(|s| s.1 == 1).map(|s| s.0).collect();
        let theirs: Vec<Point> = stones.iter().filter(|s| s.1 != 1).map(|s| s.0).collect();
        // We move next: with equal counts we are black, with one stone fewer white.
        let (black, white) = if own.len() == theirs.len() {
            (own, theirs)
        } else if theirs.len() == own.len() + 1 {
            (theirs, own)
        } else {
            return Err(arg_error(
                "BOARD",
                &format!("{} own, {} opponent", own.len(), theirs.len()),
                "balanced counts",
            ));
        };
        let mut fresh = Board::new(board.width(), board.height(), board.rule())?;
        for (k, &b) in black.iter().enumerate() {
            for p in std::iter::once(b).chain(white.get(k).copied()) {
                if !fresh.is_empty_point(p) {
                    return Err(crate::board::MoveError::Occupied(p).into());
                }
                fresh.play_unchecked(p);
            }
        }
        if fresh.winner().is_some() {
            return Err(crate::board::MoveError::GameOver.into());
        }
        *board = fresh;
        Ok(Reply::Think)
    }

    /// The clock `INFO` describes: `timeout_turn` as a fixed time per move (0, "as fast as possible", as
    /// 100 ms), and in a timed match (`timeout_match` not 0) `time_left` as the time on the clock.
    pub fn clock(&self) -> Clock {
        let ms = Duration::from_millis;
        let turn = if self.info.timeout_turn == 0 { FAST_TURN } else { self.info.timeout_turn };
        let timed = self.info.timeout_match > 0 && self.info.time_left != u64::MAX;
        Clock { move_time: Some(ms(turn)), remaining: timed.then(|| ms(self.info.time_left)), ..Clock::default() }
    }

    /// The engine's search for the move, to run on the engine thread.
    fn think(&mut self) -> Action<Thought> {
        let Some(board) = self.board.clone() else {
            return Action::Reply(vec!["ERROR no game".to_string()]);
        };
        let budget = CLOCK_POLICY.budget(&self.clock()).expect("a fixed time per move is always set");
        let engine = Arc::clone(&self.engine);
        Action::Search(Search::new(move |stop, _emit| {
            let limits = budget.apply(Limits::default()).with_stop(Arc::clone(stop));
            engine.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).think(&board, &limits)
        }))
    }

    /// The move thought of: played, with a `MESSAGE` saying how it was found.
    fn play_thought(&mut self, thought: Thought) -> Vec<String> {
        let Some(board) = self.board.as_mut() else {
            return vec!["ERROR no game".to_string()];
        };
        let Some(best) = thought.best else {
            return vec!["ERROR the game is over".to_string()];
        };
        board.play_unchecked(best);
        let score = match plies_to_end(thought.score) {
            Some(p) if p > 0 => format!("win in {p}"),
            Some(p) => format!("loss in {}", -p),
            None => thought.score.to_string(),
        };
        let line = thought.win.as_ref().unwrap_or(&thought.pv);
        vec![
            format!(
                "MESSAGE depth {} score {} nodes {} time {} pv {}",
                thought.depth,
                score,
                thought.nodes,
                thought.elapsed.as_millis(),
                line.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" ")
            ),
            best.to_string(),
        ]
    }
}

fn ok() -> Reply {
    Reply::Lines(vec!["OK".to_string()])
}

/// The session in the serving harness: the engine thinks on its own thread; `END` stops it and ends the
/// session once the move is answered; other lines, bad ones included, wait for the move.
impl Protocol for Session {
    type Outcome = Thought;

    const NEWLINE: &'static str = "\r\n";

    fn command(&mut self, line: &str) -> Action<Thought> {
        match self.respond(line) {
            Reply::Lines(lines) if self.ended => Action::Quit(lines),
            Reply::Lines(lines) => Action::Reply(lines),
            Reply::Think => self.think(),
        }
    }

    /// `ERROR line N ...`; inside `BOARD` ... `DONE` it also drops the position, as a malformed stone does.
    fn bad_line(&mut self, bad: &BadLine) -> Vec<String> {
        self.pending = None;
        vec![format!("ERROR {bad}")]
    }

    fn busy(&mut self, input: Input<'_>) -> Busy {
        match input {
            Input::Line(line) if line.trim().eq_ignore_ascii_case("END") => Busy::StopThenServe,
            _ => Busy::Wait,
        }
    }

    fn finish(&mut self, thought: Option<Thought>) -> Vec<String> {
        match thought {
            Some(thought) => self.play_thought(thought),
            None => vec!["ERROR the search failed".to_string()],
        }
    }
}

/// Serves a new [`Session`] on standard input and output until `END` or the end of input.
///
/// # Errors
///
/// An error reading standard input.
pub fn run_stdio() -> std::io::Result<()> {
    server::serve_stdio(&mut Session::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hard(session: &Session) -> Duration {
        CLOCK_POLICY.budget(&session.clock()).unwrap().hard
    }

    #[test]
    fn info_sets_the_clock() {
        let ms = Duration::from_millis;
        let mut session = Session::new();
        // The default turn time, 5 s: 80% of it less 20 ms.
        assert_eq!(hard(&session), ms(3_980));
        // A match clock with timeout_match 0 sets no limit: time_left is ignored.
        session.handle("INFO time_left 1000");
        assert_eq!(session.clock().remaining, None);
        assert_eq!(hard(&session), ms(3_980));
        // In a timed match, the time left shares out over 4 moves.
        session.handle("INFO timeout_match 180000");
        session.handle("INFO time_left 16080");
        assert_eq!(session.clock().remaining, Some(ms(16_080)));
        // (16,080 ms less 20 ms for each of those moves) / 4 moves * 0.8, within the turn's 3,980.
        assert_eq!(hard(&session), ms(3_200));
        // Nothing left: the least a move gets.
        session.handle("INFO time_left 0");
        assert_eq!(hard(&session), ms(5));
        // timeout_turn 0: as fast as possible.
        session.handle("INFO timeout_match 0");
        session.handle("INFO timeout_turn 0");
        assert_eq!(hard(&session), ms(60));
    }
}
