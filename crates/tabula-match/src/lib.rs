//! Engine-versus-engine matches refereed by Tabula's own rules: chess and xiangqi over UCI, Go over GTP and
//! Gomoku over the Gomocup protocol, with time controls, openings played twice with colours swapped, several games at
//! once, Elo, LOS and the SPRT.
//!
//! - [`stats`]: Elo with its 95 % error, LOS, draw rate, the SPRT (trinomial and pentanomial).
//! - engines run as child processes through `tabula_protocol::process` (deadlines, crash and hang
//!   detection, restarts).
//! - [`chess`], [`xiangqi`], [`go`], [`gomoku`]: each game's referee and protocol driver, behind [`MatchGame`].
//! - [`runner`]: the match: openings, pairs, concurrency, restarts, the live line and the final table.
//! - [`shard`]: a range of the match's pairs played on its own, its result, and the merge of such results into
//!   the table one process prints.
//!
//! An engine that crashes, hangs, sends garbage, plays an illegal move or runs out of time loses that game
//! with the reason recorded; its process is killed and started again for the next game.
//!
//! Engines take options ([`EngineOption`]): a UCI `setoption`, a Gomocup `INFO` line or a GTP command.
//!
//! # Examples
//!
//! ```
//! use std::time::Duration;
//! use tabula_match::{Clock, TimeControl};
//!
//! let tc = TimeControl::parse_base_increment("10+0.1").unwrap();
//! assert_eq!(tc.base, Some(Duration::from_secs(10)));
//! let mut clock = Clock::new(&tc);
//! assert!(clock.charge(0, Duration::from_secs(3)).is_ok());
//! assert_eq!(clock.left(0), Some(Duration::from_millis(7100)));
//! assert!(clock.charge(1, Duration::from_secs(11)).is_err());
//! ```
#![deny(missing_docs)]

pub mod chess;
pub mod go;
pub mod gomoku;
pub mod runner;
pub mod shard;
pub mod stats;
pub mod uci;
pub mod xiangqi;

use std::fmt;
use std::time::Duration;
use tabula_protocol::process::{EngineError, Process};
use thiserror::Error;

pub use runner::{run, MatchConfig, MatchError, Summary, TimeUse, TIME_STRETCHES};

/// How long a side may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time for the whole game per side, if a clock is used.
    pub base: Option<Duration>,
    /// Time added after each move.
    pub increment: Duration,
    /// A fixed time for each move.
    pub movetime: Option<Duration>,
    /// A fixed depth (UCI only).
    pub depth: Option<u32>,
    /// A fixed node count (UCI only).
    pub nodes: Option<u64>,
    /// Grace allowed beyond the clock before a move counts as late.
    pub margin: Duration,
    /// With neither clock nor fixed time: how long a move may take before the engine counts as hung.
    pub watchdog: Duration,
}

impl Default for TimeControl {
    fn default() -> TimeControl {
        TimeControl {
            base: None,
            increment: Duration::ZERO,
            movetime: None,
            depth: None,
            nodes: None,
            margin: Duration::from_millis(100),
            watchdog: Duration::from_secs(30),
        }
    }
}

/// A time control that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad time control `{0}` (expected seconds, or base+increment in seconds such as `10+0.1`)")]
pub struct TimeControlError(pub String);

fn seconds(text: &str, whole: &str) -> Result<Duration, TimeControlError> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| TimeControlError(whole.to_string()))
}

impl TimeControl {
    /// Parses `base+increment` in seconds (`40`, `10+0.1`) into a clock time control.
    ///
    /// # Errors
    ///
    /// [`TimeControlError`] naming the text.
    pub fn parse_base_increment(text: &str) -> Result<TimeControl, TimeControlError> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        Ok(TimeControl {
            base: Some(seconds(base, text)?),
            increment: seconds(increment, text)?,
            ..TimeControl::default()
        })
    }

    /// Parses a number of seconds for a fixed time per move.
    ///
    /// # Errors
    ///
    /// [`TimeControlError`] naming the text.
    pub fn parse_seconds(text: &str) -> Result<Duration, TimeControlError> {
        seconds(text, text)
    }

    /// The PGN `TimeControl` tag value: `base+inc` or `1/movetime` in seconds, `-` without a clock.
    pub fn pgn_tag(&self) -> String {
        match (self.base, self.movetime) {
            (Some(base), _) => format!("{}+{}", base.as_secs_f64(), self.increment.as_secs_f64()),
            (None, Some(t)) => format!("1/{}", t.as_secs_f64()),
            _ => "-".to_string(),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(base) = self.base {
            parts.push(format!("{}+{}s", base.as_secs_f64(), self.increment.as_secs_f64()));
        }
        if let Some(t) = self.movetime {
            parts.push(format!("{}s/move", t.as_secs_f64()));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("{n} nodes"));
        }
        if parts.is_empty() {
            parts.push("no limit".to_string());
        }
        f.write_str(&parts.join(", "))
    }
}

/// Both sides' clocks during one game. Seat 0 moves first.
///
/// Each seat has its own time control: the same one in an even match, different ones in a match at time odds.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: [TimeControl; 2],
    left: [Option<Duration>; 2],
    spent: [Vec<Duration>; 2],
}

impl Clock {
    /// Full clocks for a new game, both seats on `tc`.
    pub fn new(tc: &TimeControl) -> Clock {
        Clock::seated(&[*tc; 2])
    }

    /// Full clocks for a new game, each seat on its own time control (by seat).
    pub fn seated(tc: &[TimeControl; 2]) -> Clock {
        Clock { tc: *tc, left: tc.map(|tc| tc.base), spent: [Vec::new(), Vec::new()] }
    }

    /// Both seats' times per move, taken out of the clock (for [`Finished::spent`]).
    pub fn take_spent(&mut self) -> [Vec<Duration>; 2] {
        std::mem::take(&mut self.spent)
    }

    /// Time left on `seat`'s clock, if a clock is used.
    pub fn left(&self, seat: usize) -> Option<Duration> {
        self.left[seat]
    }

    /// `seat`'s time control.
    pub fn control(&self, seat: usize) -> &TimeControl {
        &self.tc[seat]
    }

    /// How long `seat` may take over its next move before it loses on time (the margin included).
    pub fn allowance(&self, seat: usize) -> Duration {
        let tc = &self.tc[seat];
        let limit = match (self.left[seat], tc.movetime) {
            (Some(left), Some(t)) => left.min(t),
            (Some(left), None) => left,
            (None, Some(t)) => t,
            (None, None) => return tc.watchdog,
        };
        limit + tc.margin
    }

    /// Charges `seat` for a move that took `elapsed`, adding the increment.
    ///
    /// # Errors
    ///
    /// [`EngineError::Timeout`] when the move took longer than [`Clock::allowance`].
    pub fn charge(&mut self, seat: usize, elapsed: Duration) -> Result<(), EngineError> {
        let allowed = self.allowance(seat);
        if elapsed > allowed {
            return Err(EngineError::Timeout(allowed));
        }
        if let Some(left) = self.left[seat].as_mut() {
            *left = left.saturating_sub(elapsed) + self.tc[seat].increment;
        }
        self.spent[seat].push(elapsed);
        Ok(())
    }
}

/// An option for an engine: `NAME=VALUE`, or a bare `NAME`.
///
/// Each protocol sends it its own way: UCI as `setoption name NAME value VALUE` between `uciok` and
/// `isready` (a bare name is a button); Gomocup as `INFO NAME VALUE` after `START`; GTP as the command
/// `NAME VALUE` after `protocol_version`, which the engine must answer with `=`.
///
/// # Examples
///
/// ```
/// use tabula_match::EngineOption;
///
/// let (engines, option) = EngineOption::parse_targeted("2:UCI_Elo=1500").unwrap();
/// assert_eq!(engines, [1]);
/// assert_eq!(option.to_string(), "UCI_Elo=1500");
/// let (engines, option) = EngineOption::parse_targeted("each:Clear Hash").unwrap();
/// assert_eq!((engines.as_slice(), option.value), (&[0, 1][..], None));
/// assert!(EngineOption::parse_targeted("3:Hash=1").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// The UCI option name, Gomocup `INFO` key or GTP command.
    pub name: String,
    /// The value, if any.
    pub value: Option<String>,
}

/// An `--option` that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "bad engine option `{0}` (expected ENGINE:NAME=VALUE or ENGINE:NAME, ENGINE being 1, 2 or each, such as \
     `1:Hash=64`)"
)]
pub struct OptionError(pub String);

impl EngineOption {
    /// Parses `ENGINE:NAME=VALUE` or `ENGINE:NAME`, where ENGINE is `1`, `2` or `each`; returns the engine
    /// indices from 0 and the option. Name and value are trimmed; the value may contain `=`.
    ///
    /// # Errors
    ///
    /// [`OptionError`] for another engine, an empty name, or a line break or other control character
    /// (which would smuggle a second command into the protocol).
    pub fn parse_targeted(text: &str) -> Result<(Vec<usize>, EngineOption), OptionError> {
        let error = || OptionError(text.to_string());
        let (engine, option) = text.split_once(':').ok_or_else(error)?;
        let engines = match engine.trim() {
            "1" => vec![0],
            "2" => vec![1],
            "each" => vec![0, 1],
            _ => return Err(error()),
        };
        let (name, value) = match option.split_once('=') {
            Some((name, value)) => (name.trim(), Some(value.trim().to_string())),
            None => (option.trim(), None),
        };
        if name.is_empty() || text.chars().any(char::is_control) {
            return Err(error());
        }
        Ok((engines, EngineOption { name: name.to_string(), value }))
    }

    /// The name and the value separated by `separator`, or the name alone.
    pub(crate) fn joined(&self, separator: &str) -> String {
        match &self.value {
            Some(value) => format!("{}{separator}{value}", self.name),
            None => self.name.clone(),
        }
    }
}

/// `NAME=VALUE` or `NAME`.
impl fmt::Display for EngineOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.joined("="))
    }
}

/// One engine of a match: its command, its options and, while it runs, its process.
#[derive(Debug)]
pub struct Player {
    /// The name shown in records and tables.
    pub name: String,
    /// The command line, split into words.
    pub command: Vec<String>,
    /// Options sent when the engine starts (or, for Gomocup, at the start of each game).
    pub options: Vec<EngineOption>,
    /// The running process, if started.
    pub process: Option<Process>,
    /// How many times the engine was started.
    pub starts: u32,
}

impl Player {
    /// A player that starts `command` when first needed.
    pub fn new(name: impl Into<String>, command: Vec<String>) -> Player {
        Player { name: name.into(), command, options: Vec::new(), process: None, starts: 0 }
    }

    /// The same player with `options`.
    pub fn with_options(mut self, options: Vec<EngineOption>) -> Player {
        self.options = options;
        self
    }

    /// The running process, starting it (and running `handshake` on it with the player's options) if
    /// needed.
    ///
    /// # Errors
    ///
    /// The error of the start or of the handshake; the process is then dropped.
    pub fn ensure(
        &mut self,
        handshake: impl FnOnce(&mut Process, &[EngineOption]) -> Result<(), EngineError>,
    ) -> Result<&mut Process, EngineError> {
        if self.process.is_none() {
            let mut process = Process::spawn(&self.command)?;
            self.starts += 1;
            handshake(&mut process, &self.options)?;
            self.process = Some(process);
        }
        Ok(self.process.as_mut().expect("just started"))
    }

    /// Stops the engine; the next [`Player::ensure`] starts a fresh one.
    pub fn kill(&mut self) {
        self.process = None;
    }
}

/// The result of a game by seat (seat 0 moves first: White in chess, Black in Go and Gomoku).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The seat won.
    Win(usize),
    /// A draw.
    Draw,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// The result.
    pub result: GameResult,
    /// Why the game ended: `checkmate`, `time forfeit`, `illegal move`, ...
    pub reason: String,
    /// The game in its game's format (PGN, SGF or a move list), ending in a newline.
    pub record: String,
    /// The time each seat's moves took, in order (the moves its clock was charged for).
    pub spent: [Vec<Duration>; 2],
}

/// What a referee knows about the game it plays.
#[derive(Clone, Debug)]
pub struct GameInfo {
    /// Names by seat.
    pub names: [String; 2],
    /// The round (game number from 1).
    pub round: usize,
    /// The time controls by seat (equal unless the match is at time odds).
    pub tc: [TimeControl; 2],
    /// Adjudicate a draw (chess, Gomoku) or a score (Go) after this many moves by each side, if set.
    pub max_moves: Option<u32>,
    /// The date, `YYYY.MM.DD`.
    pub date: String,
}

/// An opening file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{source_name}, line {line}: {message}")]
pub struct OpeningError {
    /// The file (or other source) name.
    pub source_name: String,
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// A game that a match can be played in: its openings, its protocol and its rules.
pub trait MatchGame: Sync {
    /// One opening.
    type Opening: Clone + Send + Sync;

    /// The game's name.
    fn name(&self) -> &'static str;

    /// Reads openings from the text of an opening file called `source`.
    ///
    /// # Errors
    ///
    /// [`OpeningError`] naming the source and line.
    fn parse_openings(&self, text: &str, source: &str) -> Result<Vec<Self::Opening>, OpeningError>;

    /// The opening used without an opening file.
    fn default_opening(&self) -> Self::Opening;

    /// What a freshly started engine is sent before its first game: the protocol's greeting and, where the
    /// protocol sends them then, the options. The runner also runs it once on each engine before the match,
    /// so that a wrong command or a refused option stops the match at once.
    ///
    /// # Errors
    ///
    /// The engine's failure to answer as the protocol says.
    fn handshake(&self, process: &mut Process, options: &[EngineOption]) -> Result<(), EngineError>;

    /// Plays one game: `players[0]` moves first. Engine failures lose the game for that engine, whose process
    /// is killed; this never fails as a whole.
    fn play(&self, players: [&mut Player; 2], opening: &Self::Opening, info: &GameInfo) -> Finished;
}

/// How a referee reports an engine failure: that seat loses, its engine is killed.
pub(crate) fn forfeit(players: &mut [&mut Player; 2], seat: usize, error: &EngineError) -> (GameResult, String) {
    players[seat].kill();
    let reason = match error {
        EngineError::Timeout(_) => format!("{} loses on time", players[seat].name),
        e => format!("{} loses: {e}", players[seat].name),
    };
    (GameResult::Win(1 - seat), reason)
}

/// Today's date as `YYYY.MM.DD` (UTC), from the system clock.
pub fn today() -> String {
    let days = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400);
    // Howard Hinnant's civil-from-days.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Reads an opening file's non-empty lines that are not comments (`#`), with their line numbers from 1.
pub(crate) fn opening_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse_and_charge() {
        assert!(TimeControl::parse_base_increment("x+1").is_err());
        assert!(TimeControl::parse_base_increment("-1").is_err());
        let tc = TimeControl { movetime: Some(Duration::from_millis(50)), ..TimeControl::default() };
        let mut clock = Clock::new(&tc);
        assert_eq!(clock.allowance(0), Duration::from_millis(150));
        assert!(clock.charge(0, Duration::from_millis(140)).is_ok());
        assert!(matches!(clock.charge(0, Duration::from_millis(151)), Err(EngineError::Timeout(_))));
        assert_eq!(TimeControl::parse_base_increment("10+0.1").unwrap().pgn_tag(), "10+0.1");
    }

    #[test]
    fn seats_at_time_odds_keep_their_own_clocks() {
        let slow = TimeControl::parse_base_increment("4+1").unwrap();
        let fast = TimeControl::parse_base_increment("1+0.25").unwrap();
        let mut clock = Clock::seated(&[slow, fast]);
        assert_eq!((clock.left(0), clock.left(1)), (Some(Duration::from_secs(4)), Some(Duration::from_secs(1))));
        assert_eq!(clock.allowance(1), Duration::from_millis(1100));
        assert!(matches!(clock.charge(1, Duration::from_millis(1200)), Err(EngineError::Timeout(_))));
        clock.charge(0, Duration::from_secs(2)).unwrap();
        clock.charge(1, Duration::from_millis(500)).unwrap();
        assert_eq!(clock.left(0), Some(Duration::from_secs(3)));
        assert_eq!(clock.left(1), Some(Duration::from_millis(750)));
        assert_eq!((clock.control(0), clock.control(1)), (&slow, &fast));
    }

    #[test]
    fn date_is_plausible() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.as_str() >= "2024.01.01");
    }
}

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
