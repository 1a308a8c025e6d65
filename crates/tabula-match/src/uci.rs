//! The UCI engine driver both UCI games of the match runner (chess, xiangqi) share: the handshake, `go` with
//! the clocks and the engine's reply with its last score, the `position` command, the game loop ([`play`], for
//! any [`UciGame`]) and the PGN record's tags and move text.
//!
//! # Examples
//!
//! ```
//! use tabula_match::uci::{position_command, Eval};
//!
//! let eval = Eval::read("info depth 12 score cp 35 nodes 100 pv e2e4").unwrap();
//! assert_eq!(eval.to_string(), "+0.35/12");
//! assert_eq!(position_command(&None, ["e2e4".to_owned()]), "position startpos moves e2e4");
//! ```

use crate::{forfeit, Clock, EngineOption, Finished, GameInfo, GameResult, MatchGame, OpeningError, Player};
use std::time::{Duration, Instant};
use tabula_protocol::process::{EngineError, Process};

/// How long an engine may take to answer `uci` or `isready`.
pub const HANDSHAKE: Duration = Duration::from_secs(10);

/// The `position` command for the game from `start` (a FEN, or `None` for the start position) through `moves`,
/// written as the engine reads them.
pub fn position_command(start: &Option<String>, moves: impl IntoIterator<Item = String>) -> String {
    let mut command = match start {
        Some(fen) => format!("position fen {fen}"),
        None => "position startpos".to_string(),
    };
    for (i, mv) in moves.into_iter().enumerate() {
        command.push_str(if i == 0 { " moves " } else { " " });
        command.push_str(&mv);
    }
    command
}

/// `uci`, the options as `setoption`, then `isready`.
pub fn handshake(process: &mut Process, options: &[EngineOption]) -> Result<(), EngineError> {
    process.send("uci")?;
    let deadline = Instant::now() + HANDSHAKE;
    process.wait_for(deadline, HANDSHAKE, |l| l.trim() == "uciok")?;
    for option in options {
        process.send(&format!("setoption name {}", option.joined(" value ")))?;
    }
    is_ready(process)
}

/// `isready`, and the wait for `readyok`.
pub fn is_ready(process: &mut Process) -> Result<(), EngineError> {
    process.send("isready")?;
    process.wait_for(Instant::now() + HANDSHAKE, HANDSHAKE, |l| l.trim() == "readyok").map(|_| ())
}

/// An engine's answer to `go`.
pub struct Reply {
    /// The move as written.
    pub text: String,
    /// The whole `bestmove` line.
    pub line: String,
    /// The time it took.
    pub elapsed: Duration,
    /// The last score the engine reported for its first line, if any.
    pub eval: Option<Eval>,
}

impl Reply {
    /// The record's comment on the move: score and depth if reported, and the time taken.
    pub fn comment(&self) -> String {
        let time = format!("{:.3}s", self.elapsed.as_secs_f64());
        match self.eval {
            Some(eval) => format!("{eval} {time}"),
            None => time,
        }
    }
}

/// A score and depth from an `info` line, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eval {
    /// Centipawns, or with `mate` the moves to mate (negative: being mated).
    pub score: i32,
    /// Whether the score is a mate distance.
    pub mate: bool,
    /// The nominal depth of the search that gave it.
    pub depth: u32,
}

impl Eval {
    /// The score and depth of an `info` line about the first line of play (no `multipv`, or `multipv 1`), if
    /// it has both.
    pub fn read(line: &str) -> Option<Eval> {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return None;
        }
        let (mut depth, mut score, mut mate) = (None, None, false);
        while let Some(word) = words.next() {
            match word {
                "depth" => depth = words.next().and_then(|d| d.parse().ok()),
                // The guard reads the line's number: a line other than the first ends the reading.
                "multipv" if words.next() != Some("1") => return None,
                "score" => {
                    mate = match words.next() {
                        Some("cp") => false,
                        Some("mate") => true,
                        _ => return None,
                    };
                    score = words.next().and_then(|s| s.parse().ok());
                }
                // The rest of the line is moves or free text.
                "pv" | "string" => break,
                _ => {}
            }
        }
        Some(Eval { score: score?, mate, depth: depth? })
    }
}

impl std::fmt::Display for Eval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = if self.score < 0 { '-' } else { '+' };
        let n = self.score.unsigned_abs();
        if self.mate {
            write!(f, "{sign}M{n}/{}", self.depth)
        } else {
            write!(f, "{sign}{}.{:02}/{}", n / 100, n % 100, self.depth)
        }
    }
}

/// The `go` command for the engine in `seat`, which plays the first colour (White, Red) if `first_colour`: each
/// side's clock that runs (`wtime`/`winc` the first colour's; at time odds one side may have none), then the
/// seat's fixed time, depth and nodes.
fn go_command(clock: &Clock, seat: usize, first_colour: bool) -> String {
    let tc = clock.control(seat);
    let mut go = "go".to_string();
    if clock.left(seat).is_some() {
        // Seats are the colours in order only from the first colour to move; map by colour instead.
        let first = if first_colour { seat } else { 1 - seat };
        for (side, colour) in [(first, 'w'), (1 - first, 'b')] {
            if let Some(left) = clock.left(side) {
                let increment = clock.control(side).increment.as_millis();
                go.push_str(&format!(" {colour}time {} {colour}inc {increment}", left.as_millis()));
            }
        }
    }
    if let Some(t) = tc.movetime {
        go.push_str(&format!(" movetime {}", t.as_millis()));
    }
    if let Some(d) = tc.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = tc.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    go
}

/// Sends `go` with the clocks to the engine in `seat`, which plays the first colour if `first_colour`, and waits
/// for its `bestmove` within the time it has, keeping the last score it reports on the way.
pub fn go(process: &mut Process, clock: &Clock, seat: usize, first_colour: bool) -> Result<Reply, EngineError> {
    let go = go_command(clock, seat, first_colour);
    let allowed = clock.allowance(seat);
    let started = Instant::now();
    process.send(&go)?;
    let mut eval = None;
    let line = process.wait_for(started + allowed, allowed, |l| {
        eval = Eval::read(l).or(eval);
        l.split_whitespace().next() == Some("bestmove")
    })?;
    let elapsed = started.elapsed();
    let text = line.split_whitespace().nth(1).unwrap_or("").to_string();
    Ok(Reply { text, line, elapsed, eval })
}

/// What the game loop [`play`] and the record need of a game played over UCI: its openings, positions and moves,
/// how an engine writes moves, and the referee. Every such game is a [`MatchGame`] through this game loop.
pub trait UciGame: Sync {
    /// The game's name.
    const NAME: &'static str;
    /// One opening.
    type Opening: Clone + Send + Sync;
    /// A position.
    type Position: Clone;
    /// A move.
    type Move: Copy;
    /// How one engine writes moves, learnt before its first game.
    type Notation: Copy;
    /// What the referee keeps of the game beyond its position (the positions seen, say).
    type Memory;

    /// Reads openings from the text of an opening file called `source` (see [`MatchGame::parse_openings`]).
    ///
    /// # Errors
    ///
    /// [`OpeningError`] naming the source and line.
    fn openings(text: &str, source: &str) -> Result<Vec<Self::Opening>, OpeningError>;

    /// The opening used without an opening file.
    fn default_opening() -> Self::Opening;

    /// The opening's FEN, or `None` for the start position.
    fn fen(opening: &Self::Opening) -> &Option<String>;
    /// The position the game starts from.
    fn start(opening: &Self::Opening) -> Self::Position;
    /// Whether the first colour (White, Red) is to move in `pos`.
    fn first_colour(pos: &Self::Position) -> bool;
    /// What an engine is sent before the `ucinewgame` of its first game, and the notation it then speaks.
    ///
    /// # Errors
    ///
    /// The engine's failure to answer.
    fn greet(process: &mut Process, opening: &Self::Opening) -> Result<Self::Notation, EngineError>;
    /// `mv` as an engine speaking `notation` reads it.
    fn write(notation: Self::Notation, mv: Self::Move) -> String;
    /// The move of an engine's reply, legal in `pos`.
    ///
    /// # Errors
    ///
    /// [`EngineError::Garbage`] for text that is no move, [`EngineError::Illegal`] for an illegal one.
    fn read(notation: Self::Notation, pos: &Self::Position, reply: &Reply) -> Result<Self::Move, EngineError>;
    /// Plays the legal `mv` in `pos`.
    fn make(pos: &mut Self::Position, mv: Self::Move);
    /// The referee's memory of a game that starts at `start`.
    fn remember(start: &Self::Position) -> Self::Memory;
    /// The result of `pos`, just reached by a move of `seat`, if the rules end the game there: the result by
    /// seat, the reason and the PGN termination.
    fn referee(
        memory: &mut Self::Memory,
        pos: &Self::Position,
        seat: usize,
    ) -> Option<(GameResult, String, &'static str)>;
    /// The record's `Variant` tag, if any.
    fn variant(opening: &Self::Opening) -> Option<&'static str>;
    /// The FEN of `pos`.
    fn to_fen(pos: &Self::Position) -> String;
    /// The move number of `pos`.
    fn fullmove_number(pos: &Self::Position) -> u32;
    /// `mv`, legal in `pos`, as the record writes it.
    fn notate(pos: &Self::Position, mv: Self::Move) -> String;
}

/// A UCI game's match: the UCI greeting, and the game loop [`play`].
impl<G: UciGame> MatchGame for G {
    type Opening = G::Opening;

    fn name(&self) -> &'static str {
        G::NAME
    }

    fn parse_openings(&self, text: &str, source: &str) -> Result<Vec<G::Opening>, OpeningError> {
        G::openings(text, source)
    }

    fn default_opening(&self) -> G::Opening {
        G::default_opening()
    }

    fn handshake(&self, process: &mut Process, options: &[EngineOption]) -> Result<(), EngineError> {
        handshake(process, options)
    }

    fn play(&self, players: [&mut Player; 2], opening: &G::Opening, info: &GameInfo) -> Finished {
        play::<G>(players, opening, info)
    }
}

/// Plays one game of `G` over UCI, as [`MatchGame::play`] does: each engine is greeted and sent `ucinewgame`
/// before its first move, then asked for a move with `position` and `go` on the clock; a failure forfeits the
/// game, the referee or `--max-moves` ends it.
pub fn play<G: UciGame>(mut players: [&mut Player; 2], opening: &G::Opening, info: &GameInfo) -> Finished {
    let start = G::start(opening);
    let mut pos = start.clone();
    // Seat 0 moves first: it plays the first colour unless the opening has the second to move.
    let first_seat = if G::first_colour(&pos) { 0 } else { 1 };
    let mut clock = Clock::seated(&info.tc);
    let mut memory = G::remember(&pos);
    let mut moves: Vec<G::Move> = Vec::new();
    let mut comments: Vec<String> = Vec::new();
    let mut notations: [Option<G::Notation>; 2] = [None; 2];
    let (result, reason, termination) = 'game: loop {
        let seat = moves.len() % 2;
        let step = (|| -> Result<(G::Move, String), EngineError> {
            let process = players[seat].ensure(handshake)?;
            let notation = match notations[seat] {
                Some(notation) => notation,
                None => {
                    let notation = G::greet(process, opening)?;
                    process.send("ucinewgame")?;
                    is_ready(process)?;
                    notations[seat] = Some(notation);
                    notation
                }
            };
            process.send(&position_command(G::fen(opening), moves.iter().map(|&mv| G::write(notation, mv))))?;
            let reply = go(process, &clock, seat, G::first_colour(&pos))?;
            let mv = G::read(notation, &pos, &reply)?;
            clock.charge(seat, reply.elapsed)?;
            Ok((mv, reply.comment()))
        })();
        match step {
            Err(e) => {
                let termination =
                    if matches!(e, EngineError::Timeout(_)) { "time forfeit" } else { "rules infraction" };
                let (result, reason) = forfeit(&mut players, seat, &e);
                break 'game (result, reason, termination);
            }
            Ok((mv, comment)) => {
                moves.push(mv);
                comments.push(comment);
                G::make(&mut pos, mv);
                let move_limit = || {
                    let reached = info.max_moves.is_some_and(|m| moves.len() >= 2 * m as usize);
                    reached.then(|| (GameResult::Draw, "adjudicated: move limit".to_string(), "adjudication"))
                };
                if let Some(end) = G::referee(&mut memory, &pos, seat).or_else(move_limit) {
                    break 'game end;
                }
            }
        }
    };
    let record = record::<G>(&start, opening, &moves, &comments, first_seat, info, result, &reason, termination);
    Finished { result, reason, record, spent: clock.take_spent() }
}

/// The game as PGN: the tags (with the variant, and the FEN of a set-up start), then the moves as the game
/// writes them, each with its comment.
#[allow(clippy::too_many_arguments)]
pub fn record<G: UciGame>(
    start: &G::Position,
    opening: &G::Opening,
    moves: &[G::Move],
    comments: &[String],
    first_seat: usize,
    info: &GameInfo,
    result: GameResult,
    reason: &str,
    termination: &str,
) -> String {
    let token = result_token(result, first_seat);
    let mut extra = Vec::new();
    if let Some(variant) = G::variant(opening) {
        extra.push(("Variant", variant.to_string()));
    }
    if G::fen(opening).is_some() {
        extra.push(("FEN", G::to_fen(start)));
        extra.push(("SetUp", "1".to_string()));
    }
    let mut out = tags(info, first_seat, token, termination, &extra);
    let mut pos = start.clone();
    let mut plies = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        plies.push(Ply {
            first_colour: G::first_colour(&pos),
            number: G::fullmove_number(&pos),
            text: G::notate(&pos, mv),
            comment: comments.get(i).cloned(),
        });
        G::make(&mut pos, mv);
    }
    out.push_str(&movetext(&plies, reason, token));
    out
}

/// The PGN result token for a result by seat.
pub fn result_token(result: GameResult, white_seat: usize) -> &'static str {
    match result {
        GameResult::Draw => "1/2-1/2",
        GameResult::Win(s) if s == white_seat => "1-0",
        GameResult::Win(_) => "0-1",
    }
}

/// One move of a game record: whether the first colour (White, Red) made it, its move number, how it is
/// written, the comment after it.
pub struct Ply {
    /// Whether the first colour made the move.
    pub first_colour: bool,
    /// Its move number.
    pub number: u32,
    /// The move as the record writes it.
    pub text: String,
    /// The comment after it.
    pub comment: Option<String>,
}

/// The PGN move text: numbered moves (a second colour's move numbered when it opens the record or follows a
/// comment), their comments, the reason as a final comment, the result token, wrapped at 79 columns, and the
/// blank line that ends the record.
pub fn movetext(plies: &[Ply], reason: &str, token: &str) -> String {
    // A comment ends at the first `}`, so one inside the text is written as `)`.
    let braced = |comment: &str| format!("{{{}}}", comment.replace('}', ")"));
    let mut text = String::new();
    let mut after_comment = true;
    for ply in plies {
        if ply.first_colour {
            text.push_str(&format!("{}. ", ply.number));
        } else if after_comment {
            text.push_str(&format!("{}... ", ply.number));
        }
        text.push_str(&ply.text);
        text.push(' ');
        after_comment = ply.comment.is_some();
        if let Some(comment) = &ply.comment {
            text.push_str(&braced(comment));
            text.push(' ');
        }
    }
    text.push_str(&format!("{} {token}", braced(reason)));
    let mut out = wrap(&text, 79);
    out.push_str("\n\n");
    out
}

/// The PGN tag section (seven-tag roster, `Termination`, `TimeControl`, then `extra`) and the blank line after
/// it; the first colour (White, Red) is `white_seat`'s.
pub fn tags(info: &GameInfo, white_seat: usize, token: &str, termination: &str, extra: &[(&str, String)]) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", value.replace('\\', "\\\\").replace('"', "\\\"")));
    };
    tag("Event", "tabula match");
    tag("Site", "?");
    tag("Date", &info.date);
    tag("Round", &info.round.to_string());
    tag("White", &info.names[white_seat]);
    tag("Black", &info.names[1 - white_seat]);
    tag("Result", token);
    tag("Termination", termination);
    // PGN's `TimeControl` is both sides'; at time odds each side's goes in `WhiteTimeControl` and
    // `BlackTimeControl` instead, as other match managers write them.
    let [white, black] = [&info.tc[white_seat], &info.tc[1 - white_seat]];
    if white == black {
        tag("TimeControl", &white.pgn_tag());
    } else {
        tag("WhiteTimeControl", &white.pgn_tag());
        tag("BlackTimeControl", &black.pgn_tag());
    }
    for (name, value) in extra {
        tag(name, value);
    }
    out.push('\n');
    out
}

/// Wraps words to lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split(' ') {
        if line > 0 && line + 1 + word.len() > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}

/// The game information of the records the games' tests write.
#[cfg(test)]
pub(crate) fn test_info() -> GameInfo {
    GameInfo {
        names: ["A".into(), "B".into()],
        round: 1,
        tc: [crate::TimeControl::default(); 2],
        max_moves: None,
        date: "2026.01.02".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_sends_each_sides_clock_by_colour() {
        let [long, short] = ["40+0.4", "10+0.1"].map(|t| crate::TimeControl::parse_base_increment(t).unwrap());
        let clock = Clock::seated(&[long, short]);
        // Seat 1 to move, playing White (the first colour): its clock is `wtime`.
        assert_eq!(go_command(&clock, 1, true), "go wtime 10000 winc 100 btime 40000 binc 400");
        assert_eq!(go_command(&clock, 0, true), "go wtime 40000 winc 400 btime 10000 binc 100");
        assert_eq!(go_command(&clock, 0, false), "go wtime 10000 winc 100 btime 40000 binc 400");
        // A side with a fixed time per move and no clock is sent only its own limit.
        let st =
            crate::TimeControl { movetime: Some(Duration::from_millis(250)), depth: Some(9), ..Default::default() };
        let clock = Clock::seated(&[long, st]);
        assert_eq!(go_command(&clock, 1, false), "go movetime 250 depth 9");
        assert_eq!(go_command(&clock, 0, true), "go wtime 40000 winc 400");
    }

    #[test]
    fn info_lines_give_the_first_lines_score() {
        let read = Eval::read;
        let eval = |score, mate, depth| Some(Eval { score, mate, depth });
        assert_eq!(read("info depth 12 seldepth 18 score cp 31 nodes 9 pv e2e4 e7e5"), eval(31, false, 12));
        assert_eq!(read("info depth 9 multipv 1 score cp -105 lowerbound pv e2e4"), eval(-105, false, 9));
        assert_eq!(read("info depth 20 score mate -3 pv e1e2"), eval(-3, true, 20));
        assert_eq!(read("info depth 9 multipv 2 score cp 40 pv d2d4"), None);
        assert_eq!(read("info depth 9 currmove e2e4 currmovenumber 1"), None);
        assert_eq!(read("info string depth 3 score cp 5"), None);
        assert_eq!(read("info depth x score cp 5"), None);
        assert_eq!(read("bestmove e2e4"), None);
        let text = |score, mate| Eval { score, mate, depth: 7 }.to_string();
        assert_eq!(
            [text(31, false), text(-5, false), text(-120, false), text(0, false)],
            ["+0.31/7", "-0.05/7", "-1.20/7", "+0.00/7"]
        );
        assert_eq!([text(3, true), text(-2, true)], ["+M3/7", "-M2/7"]);
    }
}
