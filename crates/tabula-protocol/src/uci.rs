//! What the sessions of the UCI family share (chess UCI, xiangqi UCI as Pikafish speaks it, UCCI as
//! ElephantEye speaks it): the clock and how long to think ([`Clock`] → [`TimePlan`]), the limits a `go` sets
//! ([`GoLimits`]), the words of UCI's `go`, `setoption` and `position` ([`parse_go`], [`split_option`],
//! [`split_position`]), the `info` lines (with `multipv` and `wdl` when asked, [`info_lines`]) and the
//! `bestmove` line, the search run under a clock with `stop` and `ponderhit` ([`run_timed`]), and what to do
//! with input while it runs ([`busy`]). Each game's session keeps its own positions, moves and options.
//!
//! A time plan has a *soft* limit, after which no new iteration starts, and a *hard* limit, at which the search
//! is stopped wherever it is. Both leave the move overhead (the time a move takes to reach the GUI) unused, and
//! the hard limit never exceeds a fraction of the time left, so the engine does not lose on time.
//!
//! # Examples
//!
//! ```
//! use std::time::Duration;
//! use tabula::clock::Policy;
//! use tabula_protocol::uci::{parse_go, Clock};
//!
//! let policy = Policy::new(Duration::from_millis(30));
//! let clock = Clock { time: Some(Duration::from_secs(60)), increment: Duration::from_millis(500), ..Clock::default() };
//! let plan = clock.plan(policy);
//! let (soft, hard) = (plan.soft.unwrap(), plan.hard.unwrap());
//! assert!(soft <= hard && hard < Duration::from_secs(20));
//!
//! // A fixed time per move is used whole, minus the overhead.
//! let plan = Clock { movetime: Some(Duration::from_millis(1000)), ..Clock::default() }.plan(policy);
//! assert_eq!(plan.hard, Some(Duration::from_millis(970)));
//!
//! // `go` for the second player (Black) with a bad value: the rest is read, the error reported.
//! let go = parse_go(&["btime", "5000", "depth", "x", "searchmoves", "h9g7", "b9c7"], 1, Policy::new(Duration::ZERO));
//! assert_eq!(go.limits.plan.hard.is_some(), true);
//! assert_eq!(go.search_moves, ["h9g7", "b9c7"]);
//! assert_eq!(go.errors[0].to_string(), "'depth' expects a depth, got 'x'");
//! ```

use crate::lines::BadLine;
use crate::server::{Busy, Input};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;
use tabula::score::{plies_to_end, uci_string, Score};
use tabula::search::{Iteration, Limits, SearchResult};

/// The side to move's clock, as `go` gives it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left (`wtime` or `btime`).
    pub time: Option<Duration>,
    /// Increment per move (`winc` or `binc`).
    pub increment: Duration,
    /// Moves until the next time control (`movestogo`).
    pub moves_to_go: Option<u32>,
    /// Exact time for this move (`movetime`).
    pub movetime: Option<Duration>,
}

/// How long to think.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimePlan {
    /// Start no new iteration after this.
    pub soft: Option<Duration>,
    /// Stop the search at this.
    pub hard: Option<Duration>,
}

impl Clock {
    /// The plan for this clock by the game's `policy` (with its move overhead), through the one clock
    /// rule of [`tabula::clock`]. No clock and no movetime: no limit.
    pub fn plan(&self, policy: tabula::clock::Policy) -> TimePlan {
        let clock = tabula::clock::Clock {
            remaining: self.time,
            increment: self.increment,
            moves_to_go: self.moves_to_go,
            move_time: self.movetime,
            overtime: None,
        };
        match policy.budget(&clock) {
            Some(budget) => TimePlan { soft: Some(budget.soft), hard: Some(budget.hard) },
            None => TimePlan::default(),
        }
    }
}

/// A keyword whose value is missing or does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{keyword}' expects {expected}, got '{got}'")]
pub struct ArgError {
    /// The keyword.
    pub keyword: String,
    /// What it takes.
    pub expected: &'static str,
    /// What came (empty if nothing).
    pub got: String,
}

impl ArgError {
    /// The error for `keyword`, which expects `expected` and got `got`.
    pub fn new(keyword: &str, expected: &'static str, got: Option<&str>) -> ArgError {
        ArgError { keyword: keyword.to_owned(), expected, got: got.unwrap_or("").to_owned() }
    }
}

/// What was wrong with a command of a session of the UCI family; a session reports it as `info string ...`
/// ([`to_info`](CommandError::to_info)) and goes on.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// The first word is no command.
    #[error("unknown command '{0}'")]
    Unknown(String),
    /// A keyword lacks its value, or the value does not parse.
    #[error(transparent)]
    BadValue(#[from] ArgError),
    /// `position` without `startpos` or `fen`.
    #[error("position expects 'startpos' or 'fen <fen>', got '{0}'")]
    Position(String),
    /// The FEN does not parse or is not a legal position (the game's own error).
    #[error("invalid FEN: {0}")]
    Fen(Box<dyn std::error::Error + Send + Sync>),
    /// A move in `position ... moves`, `searchmoves` or `banmoves` is not legal.
    #[error("illegal move '{mv}' in {fen}")]
    IllegalMove {
        /// The move as given.
        mv: String,
        /// The position it was tried in.
        fen: String,
    },
    /// `setoption` names no option of this engine.
    #[error("unknown option '{0}'")]
    UnknownOption(String),
    /// A file an option names could not be read (the game's own error).
    #[error(transparent)]
    File(Box<dyn std::error::Error + Send + Sync>),
}

impl CommandError {
    /// A keyword's value is missing or does not parse.
    pub fn bad(keyword: &str, expected: &'static str, got: Option<&str>) -> CommandError {
        CommandError::BadValue(ArgError::new(keyword, expected, got))
    }

    /// The game's error reading a FEN.
    pub fn fen(error: impl std::error::Error + Send + Sync + 'static) -> CommandError {
        CommandError::Fen(Box::new(error))
    }

    /// The `info string` line reporting this error.
    pub fn to_info(&self) -> String {
        format!("info string {self}")
    }
}

/// Reads a numeric option's value, which must lie in `min..=max`.
///
/// # Errors
///
/// [`CommandError::BadValue`] naming the option otherwise.
pub fn number_value(name: &str, value: Option<&str>, min: u64, max: u64) -> Result<u64, CommandError> {
    value
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| CommandError::bad(name, "a number in range", value))
}

/// What a `go` asks of a search, whatever the protocol's words for it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// Depth limit (`depth`, or from `mate`).
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves is found.
    pub mate: Option<u32>,
    /// Soft and hard time limits from the clock.
    pub plan: TimePlan,
    /// `go infinite`: no answer before `stop`.
    pub infinite: bool,
    /// `go ponder`: no answer before `stop` or `ponderhit`; at `ponderhit` the time spent pondering counts
    /// as spent on this move.
    pub ponder: bool,
}

impl GoLimits {
    /// Whether nothing but `stop` ends this search.
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || self.ponder
            || (self.depth.is_none() && self.nodes.is_none() && self.mate.is_none() && self.plan.hard.is_none())
    }

    /// Caps an unbounded search at `depth`, for sessions run without anyone to send `stop`.
    pub fn bound(&mut self, depth: u32) {
        if self.is_unbounded() {
            self.depth = Some(self.depth.unwrap_or(depth).min(depth));
            (self.infinite, self.ponder) = (false, false);
        }
    }
}

/// The UCI `go` command read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// The limits.
    pub limits: GoLimits,
    /// `searchmoves`, as written (the session parses them in its position).
    pub search_moves: Vec<String>,
    /// `go perft <depth>`: the depth, or the error if it is not a number from 0 to 10.
    pub perft: Option<Result<u32, ArgError>>,
    /// The words that could not be read; the rest of the command was.
    pub errors: Vec<ArgError>,
}

/// The keywords of UCI `go` (`searchmoves` ends at the next of them).
pub const GO_KEYWORDS: [&str; 13] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// Reads the words after UCI `go` for the player `side` (0: the first player, White or Red, whose clock is
/// `wtime`/`winc`; 1: the second), planning the time by the game's clock `policy`.
pub fn parse_go(args: &[&str], side: usize, policy: tabula::clock::Policy) -> Go {
    let mut go = Go::default();
    let mut clocks = [Clock::default(), Clock::default()];
    let (mut movestogo, mut movetime) = (None, None);
    let mut i = 0;
    while i < args.len() {
        let keyword = args[i];
        let value = args.get(i + 1).copied();
        let number =
            |expected| value.and_then(|v| v.parse::<i64>().ok()).ok_or(ArgError::new(keyword, expected, value));
        let ms = |n: i64| Duration::from_millis(n.max(0) as u64);
        let limits = &mut go.limits;
        let mut step = 2;
        let parsed: Result<(), ArgError> = match keyword {
            "wtime" => number("milliseconds").map(|n| clocks[0].time = Some(ms(n))),
            "btime" => number("milliseconds").map(|n| clocks[1].time = Some(ms(n))),
            "winc" => number("milliseconds").map(|n| clocks[0].increment = ms(n)),
            "binc" => number("milliseconds").map(|n| clocks[1].increment = ms(n)),
            "movestogo" => number("a move count").map(|n| movestogo = Some(n.clamp(1, 1000) as u32)),
            "movetime" => number("milliseconds").map(|n| movetime = Some(ms(n))),
            "depth" => number("a depth").map(|n| limits.depth = Some(n.clamp(1, 200) as u32)),
            "nodes" => number("a node count").map(|n| limits.nodes = Some(n.max(1) as u64)),
            "mate" => number("a move count").map(|n| limits.mate = Some(n.clamp(1, 100) as u32)),
            "infinite" | "ponder" => {
                step = 1;
                if keyword == "infinite" {
                    limits.infinite = true;
                } else {
                    limits.ponder = true;
                }
                Ok(())
            }
            "searchmoves" => {
                step = 1;
                while let Some(&text) = args.get(i + step).filter(|w| !GO_KEYWORDS.contains(w)) {
                    go.search_moves.push(text.to_owned());
                    step += 1;
                }
                Ok(())
            }
            "perft" => {
                let depth = value.and_then(|v| v.parse::<u32>().ok()).filter(|&d| d <= 10);
                go.perft = Some(depth.ok_or(ArgError::new("perft", "a depth from 0 to 10", value)));
                Ok(())
            }
            _ => {
                step = 1;
                Err(ArgError::new("go", "a go parameter", Some(keyword)))
            }
        };
        if let Err(e) = parsed {
            go.errors.push(e);
        }
        i += step;
    }
    let mut clock = clocks[side.min(1)];
    clock.moves_to_go = movestogo;
    clock.movetime = movetime;
    go.limits.plan = clock.plan(policy);
    if let Some(m) = go.limits.mate {
        go.limits.depth = Some(go.limits.depth.unwrap_or(u32::MAX).min(2 * m));
    }
    go
}

/// Splits the words after UCI `setoption` (`name <id> [value <x>]`) into the name and the value.
///
/// # Errors
///
/// An [`ArgError`] if the words do not start with `name`.
pub fn split_option(args: &[&str]) -> Result<(String, Option<String>), ArgError> {
    if args.first() != Some(&"name") {
        return Err(ArgError::new("setoption", "'name <id> [value <x>]'", args.first().copied()));
    }
    let value_at = args.iter().position(|&w| w == "value");
    let name = args[1..value_at.unwrap_or(args.len())].join(" ");
    Ok((name, value_at.map(|i| args[i + 1..].join(" "))))
}

/// A position as `position` (UCI and UCCI alike) gives it: `startpos` or `fen <fen>`, then the moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionArgs<'a> {
    /// The FEN, `None` for the start position.
    pub fen: Option<String>,
    /// The moves after `moves`, as written.
    pub moves: &'a [&'a str],
}

/// Splits the words after `position` into the start and the moves; `None` if they are neither
/// `startpos [moves ...]` nor `fen <fen> [moves ...]`.
pub fn split_position<'a>(args: &'a [&'a str]) -> Option<PositionArgs<'a>> {
    let moves_at = args.iter().position(|&w| w == "moves").unwrap_or(args.len());
    let fen = match args.first() {
        Some(&"startpos") if moves_at == 1 => None,
        Some(&"fen") if moves_at > 1 => Some(args[1..moves_at].join(" ")),
        _ => return None,
    };
    Some(PositionArgs { fen, moves: args.get(moves_at + 1..).unwrap_or_default() })
}

/// The value of a check option: `true` or `false` (also `on` and `off`), in any case.
///
/// # Errors
///
/// An [`ArgError`] naming the option otherwise.
pub fn check_value(name: &str, value: Option<&str>) -> Result<bool, ArgError> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        Some("true" | "on") => Ok(true),
        Some("false" | "off") => Ok(false),
        other => Err(ArgError::new(name, "true or false", other)),
    }
}

/// The UCI `info` line for an iteration, moves written by `notation`.
pub fn info_line<M: Copy>(it: &Iteration<M>, notation: impl Fn(M) -> String) -> String {
    info(it, InfoStyle::default(), None, it.score, &it.pv, &notation)
}

/// What the `info` lines of an iteration show beyond depth, score, counts and line.
#[derive(Clone, Copy, Default)]
pub struct InfoStyle<'a> {
    /// One line for each of the iteration's [lines](Iteration::lines), best first, each tagged `multipv <k>`
    /// (from 1) as Stockfish writes them (`MultiPV` above one).
    pub multi_pv: bool,
    /// `wdl <win> <draw> <loss>` after the score, the chances in per mille this gives for a score
    /// (`UCI_ShowWDL`).
    pub wdl: Option<&'a dyn Fn(Score) -> [u32; 3]>,
}

/// The UCI `info` lines for an iteration in `style`, moves written by `notation`: one line, or with
/// [`InfoStyle::multi_pv`] one for each of its lines.
pub fn info_lines<M: Copy>(it: &Iteration<M>, style: InfoStyle<'_>, notation: impl Fn(M) -> String) -> Vec<String> {
    if !style.multi_pv || it.lines.is_empty() {
        return vec![info(it, style, None, it.score, &it.pv, &notation)];
    }
    it.lines.iter().enumerate().map(|(k, line)| info(it, style, Some(k + 1), line.score, &line.pv, &notation)).collect()
}

fn info<M: Copy>(
    it: &Iteration<M>,
    style: InfoStyle<'_>,
    multi_pv: Option<usize>,
    score: Score,
    pv: &[M],
    notation: &impl Fn(M) -> String,
) -> String {
    let pv: Vec<String> = pv.iter().map(|&m| notation(m)).collect();
    let tag = multi_pv.map(|k| format!(" multipv {k}")).unwrap_or_default();
    let wdl = style.wdl.map(|chances| chances(score)).map(|[w, d, l]| format!(" wdl {w} {d} {l}")).unwrap_or_default();
    format!(
        "info depth {} seldepth {}{tag} score {}{wdl} nodes {} nps {} hashfull {} time {} pv {}",
        it.depth,
        it.seldepth.max(it.depth),
        uci_string(score),
        it.nodes,
        it.nps,
        it.hashfull,
        it.elapsed.as_millis(),
        pv.join(" ")
    )
}

/// `bestmove <move> [ponder <reply>]` for a search's result, moves written by `notation`; `None` without a
/// move.
pub fn bestmove_line<M: Copy + PartialEq>(result: &SearchResult<M>, notation: impl Fn(M) -> String) -> Option<String> {
    let best = result.best_move?;
    Some(match result.pv.get(1) {
        Some(&reply) if result.pv.first() == Some(&best) => {
            format!("bestmove {} ponder {}", notation(best), notation(reply))
        }
        _ => format!("bestmove {}", notation(best)),
    })
}

/// What a session of the UCI family does with `input` while a search runs: a bad line is answered with
/// `bad_line`, `isready` with `readyok`, `stop` stops the search, `ponderhit` clears `pondering` (the
/// search becomes a normal one, see [`run_timed`]), `quit` stops the search and is then served, and any other command waits for the search to end,
/// or stops it first if the search is `unbounded` (an infinite or pondering search would never end).
pub fn busy(
    input: Input<'_>,
    unbounded: bool,
    pondering: &AtomicBool,
    bad_line: impl FnOnce(&BadLine) -> Vec<String>,
) -> Busy {
    let line = match input {
        Input::Line(line) => line,
        Input::Bad(bad) => return Busy::Answer(bad_line(bad)),
    };
    match line.split_whitespace().next().unwrap_or("") {
        "" => Busy::Answer(Vec::new()),
        "isready" => Busy::Answer(vec!["readyok".to_owned()]),
        "stop" => Busy::Stop,
        "ponderhit" => {
            pondering.store(false, Relaxed);
            Busy::Answer(Vec::new())
        }
        "quit" => Busy::StopThenServe,
        _ if unbounded => Busy::StopThenServe,
        _ => Busy::Wait,
    }
}

/// The flags a running search watches.
#[derive(Clone, Debug, Default)]
pub struct SearchControl {
    /// Set to stop the search.
    pub stop: Arc<AtomicBool>,
    /// Set while pondering; cleared by `ponderhit`.
    pub pondering: Arc<AtomicBool>,
}

/// Runs `search` under `go` and `control`: `search` is given the core's limits (depth, nodes, the soft and
/// hard time limits of the plan, the stop flag and, for `go ponder`, the ponder flag) and a callback for each
/// iteration, which passes it on to `report`.
///
/// The core keeps the clock ([`Limits`]): past the soft limit no new iteration begins, at the hard one the
/// search stops. A pondering search has no limit until `ponderhit` clears `control.pondering`; then the time
/// spent pondering counts as spent on this move (it was counted from `go`), so a search already past its
/// soft limit answers at once. A search stops too once it finds a mate within `go.mate` moves. An infinite or
/// pondering search that ends early waits for `stop` (or `ponderhit`) before it returns, so that the answer
/// comes only when the protocol allows it.
pub fn run_timed<M>(
    go: &GoLimits,
    control: &SearchControl,
    search: impl FnOnce(&Limits, &mut dyn FnMut(&Iteration<M>)) -> SearchResult<M>,
    report: &mut dyn FnMut(&Iteration<M>),
) -> SearchResult<M> {
    let mut limits =
        Limits { depth: go.depth, nodes: go.nodes, ..Limits::default() }.with_stop(Arc::clone(&control.stop));
    if let (Some(soft), Some(hard), false) = (go.plan.soft, go.plan.hard, go.infinite) {
        limits = limits.with_time(soft, hard);
    }
    if go.ponder {
        limits = limits.with_ponder(Arc::clone(&control.pondering));
    }
    let result = search(&limits, &mut |it| {
        report(it);
        let mate_found =
            go.mate.is_some_and(|m| plies_to_end(it.score).is_some_and(|p| p > 0 && (p as u32).div_ceil(2) <= m));
        if mate_found && !go.infinite && !control.pondering.load(Relaxed) {
            control.stop.store(true, Relaxed);
        }
    });
    while !control.stop.load(Relaxed) && (go.infinite || control.pondering.load(Relaxed)) {
        std::thread::sleep(Duration::from_millis(1));
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::clock::Policy;

    #[test]
    fn never_more_than_the_clock() {
        for ms in [1u64, 10, 50, 100, 1_000, 10_000, 600_000] {
            for inc in [0u64, 100, 2_000] {
                for mtg in [None, Some(1), Some(5), Some(40)] {
                    let clock = Clock {
                        time: Some(Duration::from_millis(ms)),
                        increment: Duration::from_millis(inc),
                        moves_to_go: mtg,
                        movetime: None,
                    };
                    let plan = clock.plan(Policy::new(Duration::from_millis(30)));
                    let hard = plan.hard.unwrap();
                    assert!(plan.soft.unwrap() <= hard);
                    let minimum = tabula::clock::Policy::new(Duration::ZERO).minimum;
                    assert!(hard <= Duration::from_millis(ms).max(minimum), "{clock:?} {plan:?}");
                }
            }
        }
        assert_eq!(Clock::default().plan(Policy::new(Duration::ZERO)), TimePlan::default());
    }

    #[test]
    fn go_words() {
        let go = parse_go(
            &["wtime", "1000", "btime", "2000", "winc", "10", "movestogo", "5"],
            0,
            Policy::new(Duration::ZERO),
        );
        assert!(go.errors.is_empty() && go.limits.plan.hard.unwrap() <= Duration::from_millis(1000));
        let go = parse_go(&["mate", "2", "perft", "11", "bogus", "infinite"], 0, Policy::new(Duration::ZERO));
        assert_eq!((go.limits.depth, go.limits.infinite), (Some(4), true));
        assert!(matches!(go.perft, Some(Err(_))));
        assert_eq!(go.errors.len(), 1);
        assert!(go.limits.is_unbounded());
        let mut limits = go.limits;
        limits.bound(3);
        assert_eq!((limits.depth, limits.infinite), (Some(3), false));
    }

    #[test]
    fn option_and_position_words() {
        assert_eq!(split_option(&["name", "Clear", "Hash"]), Ok(("Clear Hash".into(), None)));
        assert_eq!(split_option(&["name", "Hash", "value", "8"]), Ok(("Hash".into(), Some("8".into()))));
        assert!(split_option(&["value", "8"]).is_err());
        let words = ["fen", "4k4/9/9/9/9/9/9/9/9/3K5", "w", "moves", "d0d1"];
        let p = split_position(&words).unwrap();
        assert_eq!((p.fen.as_deref(), p.moves), (Some("4k4/9/9/9/9/9/9/9/9/3K5 w"), &["d0d1"][..]));
        assert_eq!(split_position(&["startpos"]).unwrap().moves.len(), 0);
        for bad in [&["startpos", "e2e4"][..], &["fen"], &[], &["somewhere"]] {
            assert!(split_position(bad).is_none(), "{bad:?}");
        }
        assert_eq!(check_value("x", Some("ON")), Ok(true));
        assert!(check_value("x", Some("maybe")).is_err());
    }
}
