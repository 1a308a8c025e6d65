//! The Go Text Protocol, version 2, as a session that turns one input line into one response.
//!
//! [`GtpSession::handle`] does the preprocessing the specification asks for (control characters other
//! than HT and LF dropped, HT turned into a space, `#` comments and empty lines ignored), reads an optional
//! numeric id, runs the command, and frames the answer as `=id result` or `?id message`, ending with an
//! empty line. The session never stops on bad input. It does no terminal I/O: [`run_stdio`] serves it on
//! standard input and output in the shared harness of `tabula_protocol::server`, where `genmove` thinks on
//! the engine thread while input is still read (and answered in order afterwards), a line that is not text
//! (bad UTF-8, a NUL byte, more than 64 KiB) is answered `? line N ...` with the line's id when one can be
//! read, and the end of input ends the session once a running `genmove` has answered. `loadsgf` reads the file through a loader that defaults to the file system and
//! can be replaced ([`GtpSession::set_sgf_loader`]).
//!
//! `genmove` asks a [`MovePicker`]: by default the Monte Carlo tree search ([`Mcts`]), thinking within the
//! clock that `time_settings` and `time_left` give (one second a move without them), resigning lost games
//! and, for `kgs-genmove_cleanup`, not passing while dead enemy stones remain. [`GtpSession::random`] plays
//! random moves instead. `final_status_list` has no dead-stone analysis: every stone is
//! reported alive, none dead or in seki, and `final_score` counts every stone on the board.
//!
//! # Examples
//!
//! ```
//! use tabula_go::engine::gtp::GtpSession;
//!
//! let mut gtp = GtpSession::new();
//! assert_eq!(gtp.handle("1 boardsize 9"), "=1\n\n");
//! assert_eq!(gtp.handle("play black e5  # the centre"), "=\n\n");
//! assert_eq!(gtp.handle("2 play white E5"), "?2 illegal move\n\n");
//! assert_eq!(gtp.handle("play white i9"), "? invalid coordinate\n\n");
//! assert_eq!(gtp.handle("final_score"), "= B+81\n\n");
//! assert_eq!(gtp.handle(""), ""); // empty lines get no answer
//! ```
//!
//! Served, with bad bytes:
//!
//! ```
//! use tabula_go::engine::gtp::GtpSession;
//! use tabula_protocol::server::Connection;
//!
//! let engine = Connection::open(GtpSession::random(1));
//! engine.send(b"1 boardsize 9\r\n2 \xff\n3 name\n");
//! let (_, out) = engine.close();
//! assert_eq!(out, "=1\n\n?2 line 2 is not valid UTF-8 (byte 0xff at column 3)\n\n=3 Tabula\n\n");
//! ```

use crate::coords::{Color, Move, Point};
use crate::engine::mcts::{Config, Mcts};
use crate::engine::picker::{Decision, MovePicker, RandomPicker, Request};
use crate::position::{Position, Rules};
use crate::scoring::{area_score, fixed_handicap, max_fixed_handicap};
use crate::sgf::GameRecord;
use std::fmt::Write;
use std::sync::{Arc, Mutex};
use tabula::rng::Rng;
use tabula_protocol::lines::BadLine;
use tabula_protocol::server::{self, Action, Protocol, Search};

pub use crate::engine::time::TimeSettings;

/// Every command the session knows, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "time_settings",
    "time_left",
    "loadsgf",
    "reg_genmove",
    "kgs-genmove_cleanup",
    "tabula-set-param",
];

/// Reads the file `loadsgf` names.
pub type SgfLoader = Box<dyn FnMut(&str) -> std::io::Result<String> + Send>;

/// A GTP session: the game, the rules, a move picker and the clock settings.
pub struct GtpSession<P: MovePicker = Mcts> {
    game: Position,
    rules: Rules,
    /// Shared with the engine thread while a `genmove` thinks.
    picker: Arc<Mutex<P>>,
    /// The `genmove` being thought about: its id, colour and command.
    pending: Option<(String, Color, Genmove)>,
    rng: Rng,
    loader: SgfLoader,
    finished: bool,
    time: TimeSettings,
    time_left: [Option<(u32, u32)>; 2],
}

/// A failed command: its message.
type Failure = &'static str;

/// The commands that ask the picker for a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Genmove {
    /// `genmove`: play the move.
    Play,
    /// `kgs-genmove_cleanup`: play it, capturing dead stones before passing.
    Cleanup,
    /// `reg_genmove`: only say it.
    Say,
}

/// A response, `=id result` or `?id message` and the closing empty line, as the lines to print.
fn frame(id: &str, result: Result<String, String>) -> Vec<String> {
    let text = match result {
        Ok(result) if result.is_empty() => format!("={id}"),
        Ok(result) => format!("={id} {result}"),
        Err(message) => format!("?{id} {message}"),
    };
    text.split('\n').map(str::to_string).chain([String::new()]).collect()
}

impl GtpSession<Mcts> {
    /// A session on a 19×19 board with the default rules (positional superko, no suicide) and the Monte
    /// Carlo tree search player with its default [`Config`].
    pub fn new() -> Self {
        GtpSession::with_picker(Mcts::new(Config::default()), Rules::default())
    }
}

impl Default for GtpSession<Mcts> {
    fn default() -> Self {
        GtpSession::new()
    }
}

impl GtpSession<RandomPicker> {
    /// A session with the default rules and a random player seeded with `seed`.
    pub fn random(seed: u64) -> Self {
        GtpSession::with_picker(RandomPicker::new(seed), Rules::default())
    }
}

impl<P: MovePicker> GtpSession<P> {
    /// A session on a 19×19 board with `rules`, asking `picker` for `genmove`.
    pub fn with_picker(picker: P, rules: Rules) -> Self {
        GtpSession {
            game: Position::new(19, rules).expect("19 is a valid size"),
            rules,
            picker: Arc::new(Mutex::new(picker)),
            pending: None,
            rng: Rng::new(0x6770),
            loader: Box::new(|path| std::fs::read_to_string(path)),
            finished: false,
            time: TimeSettings::default(),
            time_left: [None; 2],
        }
    }

    /// Replaces how `loadsgf` reads a file (tests use an in-memory map).
    pub fn set_sgf_loader(&mut self, loader: impl FnMut(&str) -> std::io::Result<String> + Send + 'static) {
        self.loader = Box::new(loader);
    }

    /// The game as it stands.
    pub fn position(&self) -> &Position {
        &self.game
    }

    /// Whether `quit` has been received.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The time settings last given.
    pub fn time_settings(&self) -> TimeSettings {
        self.time
    }

    /// The time left last reported for `color`: seconds and stones.
    pub fn time_left(&self, color: Color) -> Option<(u32, u32)> {
        self.time_left[color.index()]
    }

    /// Runs one line and returns the full response (ending with an empty line), or an empty string for a
    /// line that is empty or only a comment. A `genmove` thinks here, to the end.
    pub fn handle(&mut self, line: &str) -> String
    where
        P: Send + 'static,
    {
        server::answer(self, line).into_iter().map(|l| l + "\n").collect()
    }

    /// Interprets one line: the response, or a `genmove` to think about.
    fn respond(&mut self, line: &str) -> Action<Decision>
    where
        P: Send + 'static,
    {
        // Step 1. Preprocessing.
        let cleaned: String = line
            .chars()
            .filter(|&c| !c.is_control() || c == '\t' || c == '\n')
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let cleaned = cleaned.split('#').next().unwrap_or("");
        let mut words = cleaned.split_whitespace().peekable();
        if words.peek().is_none() {
            return Action::Reply(Vec::new());
        }
        // Step 2. Optional id, command, arguments.
        let id = match words.peek() {
            Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => words.next().map(str::to_string),
            _ => None,
        };
        let id = id.unwrap_or_default();
        let Some(command) = words.next() else {
            return Action::Reply(frame(&id, Err("syntax error".into())));
        };
        let args: Vec<&str> = words.collect();
        // Step 3. A move to think about goes to the engine thread; the rest is answered here.
        let genmove = match command {
            "genmove" => Some(Genmove::Play),
            "kgs-genmove_cleanup" => Some(Genmove::Cleanup),
            "reg_genmove" => Some(Genmove::Say),
            _ => None,
        };
        if let (Some(kind), [color]) = (genmove, args.as_slice()) {
            let Some(color) = Color::from_gtp(color) else {
                return Action::Reply(frame(&id, Err("syntax error".into())));
            };
            let request =
                Request { clock: self.time.clock(self.time_left[color.index()]), cleanup: kind == Genmove::Cleanup };
            let (game, picker) = (self.game.clone(), Arc::clone(&self.picker));
            self.pending = Some((id, color, kind));
            return Action::Search(Search::new(move |_stop, _emit| {
                picker.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).decide(&game, color, &request)
            }));
        }
        let quit = command == "quit";
        let response = frame(&id, self.run(command, &args).map_err(str::to_string));
        if quit && self.finished {
            Action::Quit(response)
        } else {
            Action::Reply(response)
        }
    }

    fn run(&mut self, command: &str, args: &[&str]) -> Result<String, Failure> {
        let size = self.game.size();
        match (command, args) {
            ("protocol_version", []) => Ok("2".into()),
            ("name", []) => Ok("Tabula".into()),
            ("version", []) => Ok(env!("CARGO_PKG_VERSION").into()),
            ("known_command", [name]) => Ok(COMMANDS.contains(name).to_string()),
            ("list_commands", []) => Ok(COMMANDS.join("\n")),
            ("quit", []) => {
                self.finished = true;
                Ok(String::new())
            }
            ("boardsize", [n]) => {
                let n: usize = n.parse().map_err(|_| "syntax error")?;
                let komi = self.game.komi();
                self.game = Position::new(n, self.rules).map_err(|_| "unacceptable size")?;
                self.game.set_komi(komi);
                Ok(String::new())
            }
            ("clear_board", []) => {
                self.clear();
                Ok(String::new())
            }
            ("komi", [k]) => {
                let k: f64 = k.parse().ok().filter(|k: &f64| k.is_finite()).ok_or("syntax error")?;
                self.game.set_komi(k);
                Ok(String::new())
            }
            ("play", [color, vertex]) => {
                let color = Color::from_gtp(color).ok_or("syntax error")?;
                let mv = Move::from_gtp(vertex, size).map_err(|_| "invalid coordinate")?;
                self.game.play(mv, color).map_err(|_| "illegal move")?;
                Ok(String::new())
            }
            ("undo", []) => self.game.undo().map(|_| String::new()).ok_or("cannot undo"),
            ("showboard", []) => Ok(self.diagram()),
            ("final_score", []) => Ok(area_score(self.game.board()).result(self.game.komi())),
            ("final_status_list", [status]) => match *status {
                "alive" => {
                    let board = self.game.board();
                    let stones: Vec<String> =
                        board.points().filter(|&p| board.get(p).is_some()).map(Point::to_gtp).collect();
                    Ok(stones.join(" "))
                }
                "dead" | "seki" => Ok(String::new()),
                _ => Err("syntax error"),
            },
            ("fixed_handicap", [n]) => {
                let n: usize = n.parse().map_err(|_| "syntax error")?;
                self.require_empty_board()?;
                let points = fixed_handicap(size, n).map_err(|_| "invalid number of stones")?;
                self.place_handicap(&points)
            }
            ("place_free_handicap", [n]) => {
                let n: usize = n.parse().map_err(|_| "syntax error")?;
                self.require_empty_board()?;
                if n < 2 || n >= size * size {
                    return Err("invalid number of stones");
                }
                let mut points = fixed_handicap(size, n.min(max_fixed_handicap(size))).unwrap_or_default();
                while points.len() < n {
                    let p = Point::new(self.rng.below(size), self.rng.below(size));
                    if !points.contains(&p) {
                        points.push(p);
                    }
                }
                self.place_handicap(&points)
            }
            ("set_free_handicap", vertices) if !vertices.is_empty() => {
                self.require_empty_board()?;
                let mut points = Vec::new();
                for v in vertices {
                    let p = Point::from_gtp(v, size).map_err(|_| "bad vertex list")?;
                    if points.contains(&p) {
                        return Err("bad vertex list");
                    }
                    points.push(p);
                }
                if points.len() < 2 || points.len() >= size * size {
                    return Err("bad vertex list");
                }
                self.place_handicap(&points).map(|_| String::new())
            }
            ("time_settings", [main, byo, stones]) => {
                let parse = |s: &str| s.parse::<u32>().map_err(|_| "syntax error");
                self.time = TimeSettings {
                    main_time: parse(main)?,
                    byo_yomi_time: parse(byo)?,
                    byo_yomi_stones: parse(stones)?,
                };
                Ok(String::new())
            }
            ("time_left", [color, time, stones]) => {
                let color = Color::from_gtp(color).ok_or("syntax error")?;
                let parse = |s: &str| s.parse::<u32>().map_err(|_| "syntax error");
                self.time_left[color.index()] = Some((parse(time)?, parse(stones)?));
                Ok(String::new())
            }
            ("loadsgf", [file, rest @ ..]) if rest.len() <= 1 => {
                let upto = match rest {
                    [n] => Some(n.parse::<usize>().map_err(|_| "syntax error")?.saturating_sub(1)),
                    _ => None,
                };
                let text = (self.loader)(file).map_err(|_| "cannot load file")?;
                let record = GameRecord::parse(&text).map_err(|_| "cannot load file")?;
                self.game = record.replay(self.rules, upto).map_err(|_| "cannot load file")?;
                Ok(String::new())
            }
            ("tabula-set-param", [name, value]) => {
                let mut picker = self.picker.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                picker.set_param(name, value).map(|()| String::new())
            }
            _ if COMMANDS.contains(&command) => Err("syntax error"),
            _ => Err("unknown command"),
        }
    }

    fn clear(&mut self) {
        let komi = self.game.komi();
        self.game = Position::new(self.game.size(), self.rules).expect("size was valid");
        self.game.set_komi(komi);
    }

    fn require_empty_board(&self) -> Result<(), Failure> {
        if self.game.board().is_empty() && self.game.move_count() == 0 {
            Ok(())
        } else {
            Err("board not empty")
        }
    }

    fn place_handicap(&mut self, points: &[Point]) -> Result<String, Failure> {
        for &p in points {
            if self.game.set_stone(p, Some(Color::Black)).is_err() {
                self.clear();
                return Err("bad vertex list");
            }
        }
        self.game.set_to_move(Color::White);
        Ok(points.iter().map(|p| p.to_gtp()).collect::<Vec<_>>().join(" "))
    }

    /// The move picker (not while a `genmove` thinks on another thread).
    pub fn picker_mut(&mut self) -> &mut P {
        Arc::get_mut(&mut self.picker)
            .expect("no genmove is thinking")
            .get_mut()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The board as text, top row first, with coordinates and prisoners; starts with a newline so that the
    /// diagram begins on a line of its own.
    fn diagram(&self) -> String {
        let board = self.game.board();
        let size = board.size();
        let letters: Vec<String> = (0..size).map(|c| Point::new(c, 0).to_gtp()[..1].to_string()).collect();
        let header = format!("   {}", letters.join(" "));
        let mut out = format!("\n{header}\n");
        for row in (0..size).rev() {
            let _ = write!(out, "{:>2}", row + 1);
            for c in 0..size {
                let p = Point::new(c, row);
                let mark = match board.get(p) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                let _ = write!(out, " {mark}");
            }
            let _ = write!(out, " {}", row + 1);
            match row {
                r if r == size - 1 => {
                    let _ = write!(out, "    WHITE (O) has captured {} stones", board.prisoners(Color::Black));
                }
                r if r + 2 == size => {
                    let _ = write!(out, "    BLACK (X) has captured {} stones", board.prisoners(Color::White));
                }
                _ => {}
            }
            out.push('\n');
        }
        out.push_str(&header);
        out
    }
}

/// The session in the serving harness: `genmove` thinks on the engine thread; every other line waits for
/// it, as GTP answers in order.
impl<P: MovePicker + Send + 'static> Protocol for GtpSession<P> {
    type Outcome = Decision;

    fn command(&mut self, line: &str) -> Action<Decision> {
        self.respond(line)
    }

    /// `? line N ...`, with the line's id if it starts with one.
    fn bad_line(&mut self, bad: &BadLine) -> Vec<String> {
        let id: String = bad.head.chars().take_while(char::is_ascii_digit).collect();
        let id = if bad.head[id.len()..].starts_with([' ', '\t']) { id } else { String::new() };
        frame(&id, Err(bad.to_string()))
    }

    /// The move: played (a pass if the picker's move is illegal) and framed, or `resign`.
    fn finish(&mut self, decision: Option<Decision>) -> Vec<String> {
        let Some((id, color, kind)) = self.pending.take() else { return Vec::new() };
        let mv = match decision {
            None => return frame(&id, Err("the move search failed".into())),
            Some(Decision::Resign) => return frame(&id, Ok("resign".into())),
            Some(Decision::Play(mv)) if self.game.is_legal(mv, color) => mv,
            Some(Decision::Play(_)) => Move::Pass,
        };
        if kind != Genmove::Say {
            self.game.play(mv, color).expect("the move was checked as legal");
        }
        frame(&id, Ok(mv.to_gtp().to_uppercase()))
    }
}

/// Serves `session` on standard input and output until `quit` or the end of input.
///
/// # Errors
///
/// An error reading standard input.
pub fn run_stdio<P: MovePicker + Send + 'static>(session: &mut GtpSession<P>) -> std::io::Result<()> {
    server::serve_stdio(session)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn genmove_in_a_gtp_session() {
        let picker = Mcts::new(Config { threads: 1, playouts: Some(300), ..Config::default() });
        let mut gtp = GtpSession::with_picker(picker, Rules::default());
        gtp.handle("boardsize 7");
        gtp.handle("komi 7");
        for color in ["b", "w", "b", "w"] {
            let answer = gtp.handle(&format!("genmove {color}"));
            assert!(answer.starts_with("= ") && !answer.contains("PASS"), "{answer:?}");
        }
        assert_eq!(gtp.position().move_count(), 4);
    }
}
