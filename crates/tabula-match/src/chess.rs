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

use crate::uci::{go, handshake, is_ready, movetext, position_command, result_token, tags, Ply, Reply};
use crate::{
    forfeit, opening_lines, Clock, EngineOption, Finished, GameInfo, GameResult, MatchGame, OpeningError, Player,
};
use std::collections::HashMap;
use tabula_chess::{Color, Epd, Move, Position};
use tabula_protocol::process::{EngineError, Process};

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
    process.send(&position_command(start, moves.iter().cloned()))?;
    let reply = go(process, clock, seat, pos.turn() == Color::White)?;
    Move::from_uci(&reply.text).map_err(|_| EngineError::Garbage(reply.line.clone()))?;
    let mv = pos.parse_uci(&reply.text).map_err(|_| EngineError::Illegal(reply.text.clone()))?;
    Ok((mv, reply))
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
