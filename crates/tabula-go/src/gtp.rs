//! The Go Text Protocol, version 2, as a session that turns one input line into one response.
//!
//! [`GtpSession::handle`] does the preprocessing the specification asks for (control characters other
//! than HT and LF dropped, HT turned into a space, `#` comments and empty lines ignored), reads an optional
//! numeric id, runs the command, and frames the answer as `=id result` or `?id message`, ending with an
//! empty line. The session never stops on bad input. It does no terminal I/O: a binary feeds it lines and
//! prints what it returns. `loadsgf` reads the file through a loader that defaults to the file system and
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
//! use tabula_go::gtp::GtpSession;
//!
//! let mut gtp = GtpSession::new();
//! assert_eq!(gtp.handle("1 boardsize 9"), "=1\n\n");
//! assert_eq!(gtp.handle("play black e5  # the centre"), "=\n\n");
//! assert_eq!(gtp.handle("2 play white E5"), "?2 illegal move\n\n");
//! assert_eq!(gtp.handle("play white i9"), "? invalid coordinate\n\n");
//! assert_eq!(gtp.handle("final_score"), "= B+81\n\n");
//! assert_eq!(gtp.handle(""), ""); // empty lines get no answer
//! ```

use crate::coords::{Color, Move, Point};
use crate::mcts::{Config, Mcts};
use crate::picker::{Decision, MovePicker, RandomPicker, Request};
use crate::position::{Position, Rules};
use crate::scoring::{area_score, fixed_handicap, max_fixed_handicap};
use crate::sgf::GameRecord;
use std::fmt::Write;
use tabula::rng::Rng;

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
];

/// Reads the file `loadsgf` names.
pub type SgfLoader = Box<dyn FnMut(&str) -> std::io::Result<String> + Send>;

/// Time settings as the controller gave them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeSettings {
    /// Main time in seconds.
    pub main_time: u32,
    /// Byo-yomi period in seconds.
    pub byo_yomi_time: u32,
    /// Stones per byo-yomi period (0: no byo-yomi).
    pub byo_yomi_stones: u32,
}

/// A GTP session: the game, the rules, a move picker and the clock settings.
pub struct GtpSession<P: MovePicker = Mcts> {
    game: Position,
    rules: Rules,
    picker: P,
    rng: Rng,
    loader: SgfLoader,
    finished: bool,
    time: TimeSettings,
    time_left: [Option<(u32, u32)>; 2],
}

/// A failed command: its message.
type Failure = &'static str;

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
            picker,
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
    /// line that is empty or only a comment.
    pub fn handle(&mut self, line: &str) -> String {
        // Step 1. Preprocessing.
        let cleaned: String = line
            .chars()
            .filter(|&c| !c.is_control() || c == '\t' || c == '\n')
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let cleaned = cleaned.split('#').next().unwrap_or("");
        let mut words = cleaned.split_whitespace().peekable();
        if words.peek().is_none() {
            return String::new();
        }
        // Step 2. Optional id, command, arguments.
        let id = match words.peek() {
            Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => words.next().map(str::to_string),
            _ => None,
        };
        let id = id.unwrap_or_default();
        let Some(command) = words.next() else {
            return format!("?{id} syntax error\n\n");
        };
        let args: Vec<&str> = words.collect();
        // Step 3. Run and frame.
        match self.run(command, &args) {
            Ok(result) if result.is_empty() => format!("={id}\n\n"),
            Ok(result) => format!("={id} {result}\n\n"),
            Err(message) => format!("?{id} {message}\n\n"),
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
            ("genmove" | "kgs-genmove_cleanup", [color]) => {
                let color = Color::from_gtp(color).ok_or("syntax error")?;
                match self.pick(color, command == "kgs-genmove_cleanup") {
                    Some(mv) => {
                        self.game.play(mv, color).expect("picked moves are legal");
                        Ok(mv.to_gtp().to_uppercase())
                    }
                    None => Ok("resign".into()),
                }
            }
            ("reg_genmove", [color]) => {
                let color = Color::from_gtp(color).ok_or("syntax error")?;
                Ok(self.pick(color, false).map_or("resign".into(), |mv| mv.to_gtp().to_uppercase()))
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

    /// The picker's move for `color`, a pass if it is illegal, or `None` to resign.
    fn pick(&mut self, color: Color, cleanup: bool) -> Option<Move> {
        let request = Request { settings: self.time, time_left: self.time_left[color.index()], cleanup };
        match self.picker.decide(&self.game, color, &request) {
            Decision::Play(mv) if self.game.is_legal(mv, color) => Some(mv),
            Decision::Play(_) => Some(Move::Pass),
            Decision::Resign => None,
        }
    }

    /// The move picker.
    pub fn picker_mut(&mut self) -> &mut P {
        &mut self.picker
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
