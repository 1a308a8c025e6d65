//! Go over GTP: the driver (`protocol_version`, `boardsize`, `clear_board`, `komi`, `time_settings`,
//! `play`, `time_left`, `genmove`), the referee on [`tabula_go::Position`] (occupied points, suicide, ko and
//! superko, resignation, two passes scored by Tromp–Taylor area with komi, optional move-limit adjudication
//! by the same score) and SGF records.
//!
//! Openings are SGF game trees (a file holding one game or a collection of several; the main line, setup
//! stones `AB`/`AW`, `PL`, `SZ` and `KM` are used) or GTP move lists, one per line (`D4 C3 pass`, Black
//! first). An SGF opening must be on the match's board size; its `KM`, when present, replaces the match's
//! komi for its games. Setup and handicap stones are sent with `play`, one stone after another: every engine
//! supports it, and it claims no handicap compensation, which area scoring by Tromp–Taylor does not give.
//!
//! # Time controls
//!
//! GTP v2 knows Canadian byo-yomi in whole seconds (`time_settings main period stones`), and no increment.
//! A Fischer clock `base+inc` is sent as main time `base` followed by periods of `inc` seconds for one stone
//! (absolute time when the increment is under a second), and before each `genmove` the clock's real time as
//! main time (`time_left colour seconds 0`). Every figure is rounded down. The engine's picture is then
//! never more generous than the clock: after spending all of its main time the Fischer clock holds the
//! increment, which is what the engine expects a period to give, and time saved in a period is banked,
//! which the engine does not count on. A fixed time per move `t` is sent as no main time and periods of
//! `t` seconds for one stone. Whatever the engine is told, the match's clock decides losses on time.
//!
//! # Examples
//!
//! ```
//! use tabula_match::go::Go;
//! use tabula_match::MatchGame;
//!
//! let go = Go::new(9, 7.0).unwrap();
//! let openings = go.parse_openings("# two openings\nE5 C3\nD4 pass F6\n", "o.txt").unwrap();
//! assert_eq!(openings.len(), 2);
//! let openings = go.parse_openings("(;GM[1]SZ[9]KM[6.5]AB[cc][gg];W[ee])", "o.sgf").unwrap();
//! assert_eq!(openings[0].position().komi(), 6.5);
//! let err = go.parse_openings("E5\nE5 E5\n", "o.txt").unwrap_err();
//! assert!(err.to_string().starts_with("o.txt, line 2: move 2 `E5`"), "{err}");
//! ```

use crate::{
    forfeit, opening_lines, Clock, EngineOption, Finished, GameInfo, GameResult, MatchGame, OpeningError, Player,
    TimeControl,
};
use std::time::{Duration, Instant};
use tabula_go::scoring::area_score;
use tabula_go::sgf::{game_trees, GameRecord, GameTree, SgfError};
use tabula_go::{Color, Move, Position, Rules};
use tabula_protocol::process::{EngineError, Process};
use thiserror::Error;

/// How long an engine may take over a command other than `genmove`.
const COMMAND: Duration = Duration::from_secs(10);

/// Go matches over GTP.
#[derive(Clone, Copy, Debug)]
pub struct Go {
    size: usize,
    komi: f64,
    rules: Rules,
}

/// Settings a Go match cannot be played with.
#[derive(Clone, Copy, Debug, PartialEq, Error)]
pub enum GoSettingsError {
    /// A board side outside 2..=25.
    #[error("bad board size {0} for Go (expected 2 to 25)")]
    Size(usize),
    /// Komi that is not a finite number.
    #[error("bad komi {0} (expected a number such as 7 or 6.5)")]
    Komi(f64),
}

/// A Go opening: the position after its setup and moves, its komi included.
#[derive(Clone, Debug)]
pub struct GoOpening {
    start: Position,
}

impl GoOpening {
    /// The position the games of this opening start from.
    pub fn position(&self) -> &Position {
        &self.start
    }
}

impl Go {
    /// Go on a `size`×`size` board with `komi`, under the default rules (positional superko, no suicide).
    ///
    /// # Errors
    ///
    /// [`GoSettingsError`] for a size outside 2..=25 or a komi that is not finite.
    pub fn new(size: usize, komi: f64) -> Result<Go, GoSettingsError> {
        Go::with_rules(size, komi, Rules::default())
    }

    /// Go with other rules: the ko rule and whether suicide of several stones is allowed. GTP cannot tell
    /// engines the rules; they are assumed to know.
    ///
    /// # Errors
    ///
    /// As [`Go::new`].
    pub fn with_rules(size: usize, komi: f64, rules: Rules) -> Result<Go, GoSettingsError> {
        Position::new(size, rules).map_err(|_| GoSettingsError::Size(size))?;
        if !komi.is_finite() {
            return Err(GoSettingsError::Komi(komi));
        }
        Ok(Go { size, komi, rules })
    }

    fn empty(&self) -> Position {
        let mut position = Position::new(self.size, self.rules).expect("the size was checked by Go::new");
        position.set_komi(self.komi);
        position
    }

    /// One move list: GTP vertices or `pass`, Black first, colours alternating.
    fn parse_move_list(&self, text: &str) -> Result<Position, String> {
        let mut position = self.empty();
        for (i, word) in text.split_whitespace().enumerate() {
            let color = position.to_move();
            let mv = Move::from_gtp(word, self.size).map_err(|e| format!("move {} `{word}`: {e}", i + 1))?;
            position.play(mv, color).map_err(|e| format!("move {} `{word}`: {e}", i + 1))?;
        }
        Ok(position)
    }

    /// One SGF game tree, `tree`, whose own `KM` is used when `has_komi`.
    fn parse_sgf_tree(&self, tree: &GameTree<'_>) -> Result<Position, SgfOpeningError> {
        let record = GameRecord::parse(tree.text).map_err(SgfOpeningError::Sgf)?;
        if record.size != self.size {
            return Err(SgfOpeningError::Size(record.size));
        }
        let mut position = record.replay(self.rules, None).map_err(SgfOpeningError::Sgf)?;
        if !tree.has_komi {
            position.set_komi(self.komi);
        }
        Ok(position)
    }

    /// The SGF game trees of `text`.
    fn parse_sgf(&self, text: &str, source: &str) -> Result<Vec<GoOpening>, OpeningError> {
        let error = |line: usize, message: String| OpeningError { source_name: source.to_string(), line, message };
        let mut openings = Vec::new();
        for tree in game_trees(text) {
            let tree =
                tree.map_err(|offset| error(line_at(text, offset), "expected `(` to start an SGF game tree".into()))?;
            let position = self.parse_sgf_tree(&tree).map_err(|e| {
                let line = match &e {
                    SgfOpeningError::Sgf(SgfError::Unexpected { offset, .. }) => line_at(text, tree.start + offset),
                    _ => line_at(text, tree.start),
                };
                error(line, e.to_string())
            })?;
            if position.is_over() {
                return Err(error(line_at(text, tree.start), "the opening ends the game (two passes)".into()));
            }
            openings.push(GoOpening { start: position });
        }
        Ok(openings)
    }

    /// Sends `boardsize`, `clear_board`, `komi`, the time settings and the setup stones of a new game.
    fn new_game(&self, process: &mut Process, start: &Position, tc: &TimeControl) -> Result<(), EngineError> {
        command(process, &format!("boardsize {}", self.size))?;
        command(process, "clear_board")?;
        command(process, &format!("komi {}", start.komi()))?;
        if let Some(settings) = time_settings(tc) {
            command(process, &settings)?;
        }
        for (point, color) in start.setup_stones() {
            command(process, &format!("play {} {}", color.to_gtp(), point.to_gtp()))?;
        }
        Ok(())
    }
}

/// Why an SGF opening cannot be used.
#[derive(Debug, Error)]
enum SgfOpeningError {
    #[error("{0}")]
    Sgf(SgfError),
    #[error("the record is {0}×{0} (SZ, 19 when absent) but the match is played on another size")]
    Size(usize),
}

/// The line (from 1) of byte `offset` of `text`.
fn line_at(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

/// The `time_settings` command for a time control, if it has a clock or a fixed time per move.
pub fn time_settings(tc: &TimeControl) -> Option<String> {
    let whole = |d: Duration| d.as_secs();
    match (tc.base, tc.movetime) {
        (Some(base), _) => {
            let increment = whole(tc.increment);
            let stones = u64::from(increment > 0);
            Some(format!("time_settings {} {increment} {stones}", whole(base)))
        }
        (None, Some(t)) => Some(format!("time_settings 0 {} 1", whole(t))),
        (None, None) => None,
    }
}

/// The `time_left` command for `seat`, playing `color`, before its move.
pub fn time_left(clock: &Clock, seat: usize, color: Color) -> Option<String> {
    match (clock.left(seat), clock.control(seat).movetime) {
        (Some(left), _) => Some(format!("time_left {} {} 0", color.to_gtp(), left.as_secs())),
        (None, Some(t)) => Some(format!("time_left {} {} 1", color.to_gtp(), t.as_secs())),
        (None, None) => None,
    }
}

/// Sends `text` and waits at most [`COMMAND`] for a successful answer.
fn command(process: &mut Process, text: &str) -> Result<String, EngineError> {
    process.ask_gtp(text, Instant::now() + COMMAND, COMMAND)
}

/// What an engine answered to `genmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    /// A legal move or a pass.
    Play(Move),
    /// `resign`.
    Resign,
}

/// Judges the answer `text` to `genmove` for `color` in `position`.
///
/// # Errors
///
/// [`EngineError::Illegal`] for a vertex off the board or a move the rules forbid (occupied, suicide, ko,
/// superko), with the reason; [`EngineError::Garbage`] for anything else.
fn judge(position: &Position, color: Color, text: &str) -> Result<Answer, EngineError> {
    if text.eq_ignore_ascii_case("resign") {
        return Ok(Answer::Resign);
    }
    match Move::from_gtp(text, position.size()) {
        Ok(mv) => match position.check(mv, color) {
            Ok(()) => Ok(Answer::Play(mv)),
            Err(e) => Err(EngineError::Illegal(format!("{text} ({e})"))),
        },
        Err(_) if looks_like_vertex(text) => Err(EngineError::Illegal(format!("{text} (off the board)"))),
        Err(_) => Err(EngineError::Garbage(format!("= {text}"))),
    }
}

/// A letter and a row number: a vertex, on some board if not this one.
fn looks_like_vertex(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && !chars.as_str().is_empty()
        && chars.as_str().len() <= 3
        && chars.all(|c| c.is_ascii_digit())
}

/// How a game ended, for the record's `RE`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Ending {
    /// Scored by area: Black's lead after komi.
    Score(f64),
    /// The colour resigned.
    Resign(Color),
    /// The colour lost on time.
    Time(Color),
    /// The colour forfeited (crash, illegal move, garbage, refusal).
    Forfeit(Color),
}

impl Ending {
    /// The SGF result: `B+R`, `W+3.5`, `B+T`, `W+F`, or `0` for a draw.
    fn token(self) -> String {
        let win = |loser: Color, how: &str| format!("{}+{how}", loser.opponent().to_sgf());
        match self {
            Ending::Score(margin) if margin > 0.0 => format!("B+{margin}"),
            Ending::Score(margin) if margin < 0.0 => format!("W+{}", -margin),
            Ending::Score(_) => "0".to_string(),
            Ending::Resign(loser) => win(loser, "R"),
            Ending::Time(loser) => win(loser, "T"),
            Ending::Forfeit(loser) => win(loser, "F"),
        }
    }
}

fn colour_name(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

impl MatchGame for Go {
    type Opening = GoOpening;

    fn name(&self) -> &'static str {
        "go"
    }

    fn parse_openings(&self, text: &str, source: &str) -> Result<Vec<GoOpening>, OpeningError> {
        if text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}').starts_with('(') {
            return self.parse_sgf(text, source);
        }
        opening_lines(text)
            .map(|(line, l)| {
                let error = |message: String| OpeningError { source_name: source.to_string(), line, message };
                let start = self.parse_move_list(l).map_err(error)?;
                if start.is_over() {
                    return Err(error("the opening ends the game (two passes)".to_string()));
                }
                Ok(GoOpening { start })
            })
            .collect()
    }

    fn default_opening(&self) -> GoOpening {
        GoOpening { start: self.empty() }
    }

    /// `protocol_version`, then each option as the command `NAME VALUE`, each answered with `=`.
    fn handshake(&self, process: &mut Process, options: &[EngineOption]) -> Result<(), EngineError> {
        command(process, "protocol_version")?;
        for option in options {
            command(process, &option.joined(" "))?;
        }
        Ok(())
    }

    fn play(&self, mut players: [&mut Player; 2], opening: &GoOpening, info: &GameInfo) -> Finished {
        let start = &opening.start;
        let mut position = start.clone();
        // Seat 0 moves first after the opening.
        let first = position.to_move();
        let seat_of = |color: Color| usize::from(color != first);
        let mut clock = Clock::seated(&info.tc);
        // The moves of `position` each engine has been sent; `None` until it has been set up for this game.
        let mut known: [Option<usize>; 2] = [None; 2];
        let mut plies = 0usize;
        let (result, reason, ending) = loop {
            let color = position.to_move();
            let seat = seat_of(color);
            debug_assert_eq!(seat, plies % 2, "seats alternate");
            let step = (|| -> Result<Answer, EngineError> {
                let process = players[seat].ensure(|p, o| self.handshake(p, o))?;
                if known[seat].is_none() {
                    self.new_game(process, start, clock.control(seat))?;
                    known[seat] = Some(0);
                }
                for (c, mv) in position.moves().skip(known[seat].unwrap_or(0)) {
                    command(process, &format!("play {} {}", c.to_gtp(), mv.to_gtp()))?;
                }
                known[seat] = Some(position.move_count());
                if let Some(text) = time_left(&clock, seat, color) {
                    command(process, &text)?;
                }
                let allowed = clock.allowance(seat);
                let started = Instant::now();
                let answer = process.ask_gtp(&format!("genmove {}", color.to_gtp()), started + allowed, allowed)?;
                clock.charge(seat, started.elapsed())?;
                judge(&position, color, &answer)
            })();
            match step {
                Err(e) => {
                    let ending =
                        if matches!(e, EngineError::Timeout(_)) { Ending::Time(color) } else { Ending::Forfeit(color) };
                    let (result, reason) = forfeit(&mut players, seat, &e);
                    break (result, reason, ending);
                }
                Ok(Answer::Resign) => {
                    break (
                        GameResult::Win(1 - seat),
                        format!("{} resigns", colour_name(color)),
                        Ending::Resign(color),
                    );
                }
                Ok(Answer::Play(mv)) => {
                    position.play_unchecked(mv, color);
                    // The engine played its own move when it chose it.
                    known[seat] = Some(position.move_count());
                    plies += 1;
                    let limit = info.max_moves.is_some_and(|m| plies >= 2 * m as usize);
                    if position.is_over() || limit {
                        let margin = area_score(position.board()).margin(position.komi());
                        let result = match margin {
                            m if m > 0.0 => GameResult::Win(seat_of(Color::Black)),
                            m if m < 0.0 => GameResult::Win(seat_of(Color::White)),
                            _ => GameResult::Draw,
                        };
                        let ending = Ending::Score(margin);
                        let reason = if position.is_over() {
                            format!("two passes, area score {}", ending.token())
                        } else {
                            format!("adjudicated: move limit, area score {}", ending.token())
                        };
                        break (result, reason, ending);
                    }
                }
            }
        };
        let seats = [seat_of(Color::Black), seat_of(Color::White)];
        let record = sgf(&position, seats, info, ending, &reason);
        Finished { result, reason, record, spent: clock.take_spent() }
    }
}

/// The game as an SGF FF\[4\] record, written by `tabula_go`'s one SGF writer: `seats` are Black's and White's
/// (their names and time controls are `info`'s by seat); the reason is the root comment; a blank line follows.
fn sgf(position: &Position, seats: [usize; 2], info: &GameInfo, ending: Ending, reason: &str) -> String {
    let mut record = GameRecord::from_position(position);
    record.set_info("CA", "UTF-8");
    record.set_info("AP", format!("tabula:{}", env!("CARGO_PKG_VERSION")));
    record.set_info("RU", "Tromp-Taylor");
    record.set_info("EV", "tabula match");
    record.set_info("RO", info.round.to_string());
    record.set_info("DT", info.date.replace('.', "-"));
    record.set_info("PB", info.names[seats[0]].as_str());
    record.set_info("PW", info.names[seats[1]].as_str());
    let [black, white] = seats.map(|seat| &info.tc[seat]);
    if black == white {
        match (black.base, black.movetime) {
            (Some(base), _) => {
                record.set_info("TM", base.as_secs_f64().to_string());
                if !black.increment.is_zero() {
                    let increment = black.increment.as_secs_f64();
                    record.set_info("OT", format!("{increment} s added after each move (Fischer)"));
                }
            }
            (None, Some(t)) => record.set_info("OT", format!("{} s per move", t.as_secs_f64())),
            (None, None) => {}
        }
    } else {
        // SGF's TM is one time for both players: a match at time odds says each side's in OT instead.
        record.set_info("OT", format!("time odds: Black {black}, White {white}"));
    }
    let setup = &record.setup;
    let first = record.moves.first().map_or(position.to_move(), |m| m.color);
    if setup.len() >= 2 && first == Color::White && setup.iter().all(|s| s.1 == Color::Black) {
        record.handicap = setup.len();
    }
    record.result = Some(ending.token());
    record.comment = Some(reason.to_string());
    record.to_sgf() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(s: &str, size: usize) -> Move {
        Move::from_gtp(s, size).unwrap()
    }

    fn info() -> GameInfo {
        GameInfo {
            names: ["A]".into(), "B".into()],
            round: 2,
            tc: [TimeControl::parse_base_increment("10+0.5").unwrap(); 2],
            max_moves: None,
            date: "2026.01.02".into(),
        }
    }

    #[test]
    fn judges_answers() {
        let go = Go::new(9, 7.0).unwrap();
        let position = go.parse_move_list("E5").unwrap();
        assert_eq!(judge(&position, Color::White, "resign"), Ok(Answer::Resign));
        assert_eq!(judge(&position, Color::White, "PASS"), Ok(Answer::Play(Move::Pass)));
        assert_eq!(judge(&position, Color::White, "d4"), Ok(Answer::Play(m("D4", 9))));
        let occupied = judge(&position, Color::White, "E5").unwrap_err();
        assert_eq!(occupied.to_string(), "illegal move `E5 (E5 is occupied)`");
        assert!(
            matches!(judge(&position, Color::White, "T19"), Err(EngineError::Illegal(t)) if t.contains("off the board"))
        );
        assert!(matches!(judge(&position, Color::White, "banana"), Err(EngineError::Garbage(_))));
        assert!(matches!(judge(&position, Color::White, ""), Err(EngineError::Garbage(_))));
    }

    #[test]
    fn superko_is_illegal() {
        // A ko on 4×4: black takes at C3, both pass, and white's retake at B3 would repeat the board.
        let go = Go::new(4, 0.5).unwrap();
        // Two passes end a match's game, but the rules still judge a move after them.
        let position = go.parse_move_list("B4 C4 A3 B3 pass D3 B2 C2 C3 pass pass").unwrap();
        let err = judge(&position, Color::White, "B3").unwrap_err();
        assert!(err.to_string().contains("superko"), "{err}");
    }

    #[test]
    fn time_settings_round_down_and_fit_fischer() {
        let tc = TimeControl::parse_base_increment("10.7+2.5").unwrap();
        assert_eq!(time_settings(&tc).unwrap(), "time_settings 10 2 1");
        let tc = TimeControl::parse_base_increment("10+0.1").unwrap();
        assert_eq!(time_settings(&tc).unwrap(), "time_settings 10 0 0");
        let st = TimeControl { movetime: Some(Duration::from_millis(2500)), ..TimeControl::default() };
        assert_eq!(time_settings(&st).unwrap(), "time_settings 0 2 1");
        assert_eq!(time_settings(&TimeControl::default()), None);
        let mut clock = Clock::new(&tc);
        clock.charge(0, Duration::from_millis(3500)).unwrap();
        assert_eq!(time_left(&clock, 0, Color::White).unwrap(), "time_left white 6 0");
        assert_eq!(time_left(&Clock::new(&st), 1, Color::Black).unwrap(), "time_left black 2 1");
    }

    #[test]
    fn sgf_openings_collections_and_errors() {
        let go = Go::new(9, 7.0).unwrap();
        let text = "(;GM[1]SZ[9]KM[5.5]C[a comment with KM[ and \\] inside]AB[cc][gg];W[ee](;B[dd])(;B[ff]))\n\
                    \n(;SZ[9]AB[ee]AW[dd]PL[B])\n";
        let openings = go.parse_openings(text, "o.sgf").unwrap();
        assert_eq!(openings.len(), 2);
        let first = openings[0].position();
        assert_eq!((first.komi(), first.move_count(), first.to_move()), (5.5, 2, Color::White));
        let second = openings[1].position();
        assert_eq!((second.komi(), second.move_count(), second.to_move()), (7.0, 0, Color::Black));
        for (text, line, needle) in [
            ("(;SZ[9];B[ee])\n(;SZ[19])", 2, "19×19"),
            ("(;SZ[9];B[ee])\n\n(;SZ[9];B[ee];W[ee])", 3, "occupied"),
            ("(;SZ[9]\n;B[ee]x)", 2, "unexpected 'x'"),
            ("(;SZ[9];B[ee])\njunk", 2, "expected `(`"),
            ("(;SZ[9];B[ee]", 1, "unexpected end"),
            ("(;SZ[9];B[];W[])", 1, "two passes"),
        ] {
            let err = go.parse_openings(text, "o.sgf").unwrap_err();
            assert_eq!(err.line, line, "{text}: {err}");
            assert!(err.to_string().contains(needle), "{text}: {err}");
        }
    }

    #[test]
    fn move_list_errors_name_the_move() {
        let go = Go::new(9, 7.0).unwrap();
        let err = go.parse_openings("E5 C3\n# comment\nE5 Z1\n", "o.txt").unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.to_string().contains("move 2 `Z1`"), "{err}");
        assert!(go.parse_openings("pass pass\n", "o.txt").unwrap_err().to_string().contains("two passes"));
        assert!(Go::new(1, 7.0).is_err());
        assert!(Go::new(9, f64::NAN).is_err());
    }

    #[test]
    fn records_are_sgf_that_reads_back() {
        let go = Go::new(9, 7.0).unwrap();
        let start = go.parse_openings("(;SZ[9]AB[cc][gg])", "o.sgf").unwrap().remove(0);
        let mut position = start.position().clone();
        position.play(m("E5", 9), Color::White).unwrap();
        position.play(Move::Pass, Color::Black).unwrap();
        let text = sgf(&position, [0, 1], &info(), Ending::Resign(Color::White), "White resigns");
        assert!(text.contains("PB[A\\]]PW[B]"), "{text}");
        assert!(text.contains("RE[B+R]") && text.contains("HA[2]") && text.contains("PL[W]"), "{text}");
        assert!(text.contains("TM[10]OT[0.5 s added"), "{text}");
        assert!(text.starts_with("(;FF[4]GM[1]SZ[9]KM[7]AP[tabula:") && text.ends_with(")\n\n"), "{text}");
        let record = GameRecord::parse(&text).unwrap();
        assert_eq!(record.result.as_deref(), Some("B+R"));
        assert_eq!(record.comment.as_deref(), Some("White resigns"));
        let replayed = record.replay(Rules::default(), None).unwrap();
        assert_eq!(replayed.key(), position.key());
        assert_eq!(Ending::Score(-3.5).token(), "W+3.5");
        assert_eq!(Ending::Score(0.0).token(), "0");
        assert_eq!(Ending::Time(Color::Black).token(), "W+T");
        assert_eq!(Ending::Forfeit(Color::White).token(), "B+F");
    }

    #[test]
    fn records_at_time_odds_name_each_colours_clock() {
        let go = Go::new(9, 7.0).unwrap();
        let position = go.parse_move_list("E5").unwrap();
        let [long, short] = ["40+1", "10+1"].map(|t| TimeControl::parse_base_increment(t).unwrap());
        // Seat 1 (B) plays Black with the short clock.
        let info = GameInfo { tc: [long, short], ..info() };
        let text = sgf(&position, [1, 0], &info, Ending::Resign(Color::White), "White resigns");
        assert!(text.contains("PB[B]PW[A\\]]"), "{text}");
        assert!(text.contains("OT[time odds: Black 10+1s, White 40+1s]") && !text.contains("TM["), "{text}");
        let clock = Clock::seated(&info.tc);
        assert_eq!(time_left(&clock, 1, Color::Black).unwrap(), "time_left black 10 0");
        assert_eq!(time_left(&clock, 0, Color::White).unwrap(), "time_left white 40 0");
    }
}
