//! Chess over UCI: the driver (`uci`, `ucinewgame`, `position ... moves ...`, `go` with the clock), the
//! referee on [`tabula_chess::Position`] (checkmate, stalemate, fifty-move rule, threefold repetition by
//! key, insufficient material, optional move-limit adjudication) and PGN records.
//!
//! Each move in a record carries a comment with the mover's last reported score and depth and the time the
//! move took, as cutechess-cli writes them: `{+0.35/12 0.412s}` (pawns from the mover's side, depth), `{-M3/20
//! 1.030s}` (mated in three moves), `{0.412s}` (no score reported). A black move after a comment is numbered
//! again (`1... e5`), as PGN's export format asks.
//!
//! Openings are FEN or EPD lines (`#` starts a comment line). If any of them needs Chess960 castling (X-FEN or
//! Shredder-FEN rights with king or rooks off their standard files), the whole match is played as Chess960: each
//! engine gets `setoption name UCI_Chess960 value true` before its first game, moves are exchanged in that
//! notation (castling as the king taking its rook), and records carry `[Variant "Chess960"]`.
//!
//! # Examples
//!
//! ```
//! use tabula_match::chess::Chess;
//! use tabula_match::MatchGame;
//!
//! let openings = Chess.parse_openings("# two\nstartpos\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n", "o.epd").unwrap();
//! assert_eq!(openings.len(), 2);
//! let err = Chess.parse_openings("not a fen\n", "o.epd").unwrap_err();
//! assert!(err.to_string().starts_with("o.epd, line 1"));
//! ```

use crate::{
    forfeit, opening_lines, Clock, EngineOption, Finished, GameInfo, GameResult, MatchGame, OpeningError, Player,
};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use tabula_chess::{Color, Epd, Move, Position};
use tabula_protocol::process::{EngineError, Process};

/// How long an engine may take to answer `uci` or `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// Chess matches over UCI.
#[derive(Clone, Copy, Debug, Default)]
pub struct Chess;

/// A chess opening: the starting FEN (`None` for the standard start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChessOpening {
    /// The FEN, or `None` for the initial position.
    pub fen: Option<String>,
    /// Whether the match is played as Chess960 (some opening of it needs Chess960 castling).
    pub chess960: bool,
}

/// `uci`, the options as `setoption`, then `isready`.
pub(crate) fn handshake(process: &mut Process, options: &[EngineOption]) -> Result<(), EngineError> {
    process.send("uci")?;
    let deadline = Instant::now() + HANDSHAKE;
    process.wait_for(deadline, HANDSHAKE, |l| l.trim() == "uciok")?;
    for option in options {
        process.send(&format!("setoption name {}", option.joined(" value ")))?;
    }
    is_ready(process)
}

pub(crate) fn is_ready(process: &mut Process) -> Result<(), EngineError> {
    process.send("isready")?;
    process.wait_for(Instant::now() + HANDSHAKE, HANDSHAKE, |l| l.trim() == "readyok").map(|_| ())
}

/// Asks `process` for a move in `pos` (reached from `start` by `moves`) and returns it, legal, with the
/// engine's reply.
fn ask(
    process: &mut Process,
    start: &Option<String>,
    moves: &[String],
    pos: &Position,
    clock: &Clock,
    seat: usize,
) -> Result<(Move, Reply), EngineError> {
    let mut command = match start {
        Some(fen) => format!("position fen {fen}"),
        None => "position startpos".to_string(),
    };
    if !moves.is_empty() {
        command.push_str(" moves ");
        command.push_str(&moves.join(" "));
    }
    process.send(&command)?;
    let reply = go(process, clock, seat, pos.turn() == Color::White)?;
    Move::from_uci(&reply.text).map_err(|_| EngineError::Garbage(reply.line.clone()))?;
    let mv = pos.parse_uci(&reply.text).map_err(|_| EngineError::Illegal(reply.text.clone()))?;
    Ok((mv, reply))
}

/// An engine's answer to `go`.
pub(crate) struct Reply {
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
pub(crate) struct Eval {
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

/// Sends `go` with the clocks (the first colour's, White's or Red's, as `wtime`) to the engine in `seat`, which
/// plays the first colour if `first_colour`, and waits for its `bestmove` within the time it has, keeping the
/// last score it reports on the way.
pub(crate) fn go(process: &mut Process, clock: &Clock, seat: usize, first_colour: bool) -> Result<Reply, EngineError> {
    let tc = clock.control();
    let mut go = "go".to_string();
    if let (Some(_), Some(_)) = (clock.left(0), clock.left(1)) {
        // Seats are the colours in order only from the first colour to move; map by colour instead.
        let first = if first_colour { seat } else { 1 - seat };
        let ms = |d: Option<Duration>| d.unwrap_or_default().as_millis();
        go.push_str(&format!(
            " wtime {} btime {} winc {} binc {}",
            ms(clock.left(first)),
            ms(clock.left(1 - first)),
            tc.increment.as_millis(),
            tc.increment.as_millis()
        ));
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

/// The outcome of the position after a move, if the game is over.
fn adjudicate(
    pos: &Position,
    seen: &HashMap<u64, u32>,
    info: &GameInfo,
    plies: usize,
) -> Option<(GameResult, &'static str, &'static str)> {
    if pos.is_checkmate() {
        return Some((GameResult::Draw, "checkmate", "normal"));
    }
    if pos.is_stalemate() {
        return Some((GameResult::Draw, "stalemate", "normal"));
    }
    if pos.is_insufficient_material() {
        return Some((GameResult::Draw, "insufficient material", "normal"));
    }
    if pos.halfmove_clock() >= 100 {
        return Some((GameResult::Draw, "fifty-move rule", "normal"));
    }
    if seen.get(&pos.key().0).copied().unwrap_or(0) >= 3 {
        return Some((GameResult::Draw, "threefold repetition", "normal"));
    }
    if info.max_moves.is_some_and(|m| plies >= 2 * m as usize) {
        return Some((GameResult::Draw, "adjudicated: move limit", "adjudication"));
    }
    None
}

impl MatchGame for Chess {
    type Opening = ChessOpening;

    fn name(&self) -> &'static str {
        "chess"
    }

    fn parse_openings(&self, text: &str, source: &str) -> Result<Vec<ChessOpening>, OpeningError> {
        let mut openings = opening_lines(text)
            .map(|(line, l)| {
                if l == "startpos" {
                    return Ok(ChessOpening { fen: None, chess960: false });
                }
                let error = |message: String| OpeningError { source_name: source.to_string(), line, message };
                let epd = Epd::parse(l).map_err(|e| error(format!("not a FEN or EPD position: {e}")))?;
                let pos = Position::from_setup(&epd.setup).map_err(|e| error(format!("illegal position: {e}")))?;
                if !pos.has_legal_move() {
                    return Err(error("the position has no legal move".to_string()));
                }
                Ok(ChessOpening { fen: Some(pos.to_fen()), chess960: pos.is_chess960() })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if openings.iter().any(|o| o.chess960) {
            for opening in &mut openings {
                opening.chess960 = true;
            }
        }
        Ok(openings)
    }

    fn default_opening(&self) -> ChessOpening {
        ChessOpening { fen: None, chess960: false }
    }

    fn handshake(&self, process: &mut Process, options: &[EngineOption]) -> Result<(), EngineError> {
        handshake(process, options)
    }

    fn play(&self, mut players: [&mut Player; 2], opening: &ChessOpening, info: &GameInfo) -> Finished {
        let start = match &opening.fen {
            Some(fen) => Position::from_fen(fen).ok().and_then(|p| Position::from_setup(&p.to_setup()).ok()),
            None => Some(Position::startpos()),
        };
        let mut pos = start.unwrap_or_else(Position::startpos);
        let start_pos = pos.clone();
        // Seat 0 moves first: it is White unless the opening has Black to move.
        let white_seat = if pos.turn() == Color::White { 0 } else { 1 };
        let mut clock = Clock::new(&info.tc);
        let mut moves: Vec<String> = Vec::new();
        let mut comments: Vec<String> = Vec::new();
        let mut seen: HashMap<u64, u32> = HashMap::new();
        *seen.entry(pos.key().0).or_default() += 1;
        let mut started = [false; 2];
        let (result, reason, termination) = 'game: loop {
            let seat = moves.len() % 2;
            let step = (|| -> Result<(Move, String), EngineError> {
                let process = players[seat].ensure(handshake)?;
                if !started[seat] {
                    if opening.chess960 {
                        process.send("setoption name UCI_Chess960 value true")?;
                    }
                    process.send("ucinewgame")?;
                    is_ready(process)?;
                    started[seat] = true;
                }
                let (mv, reply) = ask(process, &opening.fen, &moves, &pos, &clock, seat)?;
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
                    moves.push(mv.to_uci_in(opening.chess960));
                    comments.push(comment);
                    pos.play_unchecked(mv);
                    *seen.entry(pos.key().0).or_default() += 1;
                    if let Some((result, reason, termination)) = adjudicate(&pos, &seen, info, moves.len()) {
                        let result = if reason == "checkmate" { GameResult::Win(seat) } else { result };
                        break 'game (result, reason.to_string(), termination);
                    }
                }
            }
        };
        let record = pgn(&start_pos, opening, &moves, &comments, white_seat, info, result, &reason, termination);
        Finished { result, reason, record, spent: clock.take_spent() }
    }
}

/// The PGN result token for a result by seat.
pub(crate) fn result_token(result: GameResult, white_seat: usize) -> &'static str {
    match result {
        GameResult::Draw => "1/2-1/2",
        GameResult::Win(s) if s == white_seat => "1-0",
        GameResult::Win(_) => "0-1",
    }
}

#[allow(clippy::too_many_arguments)]
fn pgn(
    start: &Position,
    opening: &ChessOpening,
    moves: &[String],
    comments: &[String],
    white_seat: usize,
    info: &GameInfo,
    result: GameResult,
    reason: &str,
    termination: &str,
) -> String {
    let token = result_token(result, white_seat);
    let mut extra = Vec::new();
    if opening.chess960 {
        extra.push(("Variant", "Chess960".to_string()));
    }
    if opening.fen.is_some() {
        extra.push(("FEN", start.to_fen()));
        extra.push(("SetUp", "1".to_string()));
    }
    let mut out = tags(info, white_seat, token, termination, &extra);
    let mut pos = start.clone();
    let mut plies = Vec::new();
    for (i, uci) in moves.iter().enumerate() {
        let Ok(mv) = pos.parse_uci(uci) else { break };
        plies.push(Ply {
            first_colour: pos.turn() == Color::White,
            number: pos.fullmove_number(),
            text: pos.san(mv),
            comment: comments.get(i).cloned(),
        });
        pos.play_unchecked(mv);
    }
    out.push_str(&movetext(&plies, reason, token));
    out
}

/// One move of a game record: whether the first colour (White, Red) made it, its move number, how it is
/// written, the comment after it.
pub(crate) struct Ply {
    pub first_colour: bool,
    pub number: u32,
    pub text: String,
    pub comment: Option<String>,
}

/// The PGN move text: numbered moves (a second colour's move numbered when it opens the record or follows a
/// comment), their comments, the reason as a final comment, the result token, wrapped at 79 columns, and the
/// blank line that ends the record.
pub(crate) fn movetext(plies: &[Ply], reason: &str, token: &str) -> String {
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
pub(crate) fn tags(
    info: &GameInfo,
    white_seat: usize,
    token: &str,
    termination: &str,
    extra: &[(&str, String)],
) -> String {
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
    tag("TimeControl", &info.tc.pgn_tag());
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TimeControl;

    fn info() -> GameInfo {
        GameInfo {
            names: ["A".into(), "B".into()],
            round: 3,
            tc: TimeControl::default(),
            max_moves: None,
            date: "2026.01.02".into(),
        }
    }

    #[test]
    fn pgn_has_tags_and_san() {
        let start = Position::startpos();
        let moves: Vec<String> = ["f2f3", "e7e5", "g2g4", "d8h4"].iter().map(|s| s.to_string()).collect();
        let opening = Chess.default_opening();
        let text = pgn(&start, &opening, &moves, &[], 0, &info(), GameResult::Win(1), "checkmate", "normal");
        assert!(text.contains("[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]"), "{text}");
        assert!(text.contains("1. f3 e5 2. g4 Qh4# {checkmate} 0-1"), "{text}");
        assert!(!text.contains("SetUp"));
    }

    #[test]
    fn moves_carry_their_comments() {
        let start = Position::startpos();
        let moves: Vec<String> = ["e2e4", "e7e5", "g1f3"].iter().map(|s| s.to_string()).collect();
        let comments = ["+0.31/12 0.412s".to_string(), "0.020s".to_string()];
        let opening = Chess.default_opening();
        let text = pgn(&start, &opening, &moves, &comments, 0, &info(), GameResult::Draw, "agreed", "normal");
        assert!(text.contains("1. e4 {+0.31/12 0.412s} 1... e5 {0.020s} 2. Nf3 {agreed} 1/2-1/2"), "{text}");
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

    #[test]
    fn pgn_from_black_to_move() {
        let start = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let moves = vec!["e7e5".to_string()];
        let opening = ChessOpening { fen: Some(start.to_fen()), chess960: false };
        let text =
            pgn(&start, &opening, &moves, &[], 1, &info(), GameResult::Draw, "adjudicated: move limit", "adjudication");
        assert!(text.contains("[White \"B\"]") && text.contains("[SetUp \"1\"]"), "{text}");
        assert!(text.contains("1... e5 {adjudicated: move limit} 1/2-1/2"), "{text}");
    }

    #[test]
    fn chess960_openings_make_a_chess960_match() {
        let text = "startpos\nbqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\n";
        let openings = Chess.parse_openings(text, "960.epd").unwrap();
        assert!(openings.iter().all(|o| o.chess960));
        assert_eq!(
            openings[1].fen.as_deref(),
            Some("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9")
        );
        assert!(Chess.parse_openings("startpos\n", "o.epd").unwrap().iter().all(|o| !o.chess960));
        // Castling in the record: SAN from either notation, and the variant named.
        let start = Position::from_fen("1r2k3/8/8/8/8/8/8/1R2K3 w Bb - 0 1").unwrap();
        let opening = ChessOpening { fen: Some(start.to_fen()), chess960: true };
        let moves = vec!["e1b1".to_string(), "b8a8".to_string()];
        let text = pgn(&start, &opening, &moves, &[], 0, &info(), GameResult::Draw, "agreed", "normal");
        assert!(text.contains("[Variant \"Chess960\"]"), "{text}");
        assert!(text.contains("1. O-O-O Ra8 {agreed}"), "{text}");
    }

    #[test]
    fn bad_openings_name_the_line() {
        let err = Chess.parse_openings("startpos\n\n8/8/8/8/8/8/8/8 w - -\n", "book.epd").unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.to_string().contains("book.epd"));
    }
}
