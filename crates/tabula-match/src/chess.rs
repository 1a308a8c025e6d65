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

use crate::uci::{Reply, UciGame};
use crate::{opening_lines, GameResult, OpeningError};
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

/// The outcome of the position after a move, if the game is over (checkmate counted a draw here: the caller
/// knows who moved).
fn adjudicate(pos: &Position, seen: &HashMap<u64, u32>) -> Option<(GameResult, &'static str)> {
    if pos.is_checkmate() {
        return Some((GameResult::Draw, "checkmate"));
    }
    if pos.is_stalemate() {
        return Some((GameResult::Draw, "stalemate"));
    }
    if pos.is_insufficient_material() {
        return Some((GameResult::Draw, "insufficient material"));
    }
    if pos.halfmove_clock() >= 100 {
        return Some((GameResult::Draw, "fifty-move rule"));
    }
    if seen.get(&pos.key().0).copied().unwrap_or(0) >= 3 {
        return Some((GameResult::Draw, "threefold repetition"));
    }
    None
}

/// Engines speak Chess960's notation (castling as the king taking its rook) if the match is Chess960; the
/// referee counts the positions seen for threefold repetition.
impl UciGame for Chess {
    type Position = Position;
    type Move = Move;
    type Notation = bool;
    type Memory = HashMap<u64, u32>;
    type Opening = ChessOpening;
    const NAME: &'static str = "chess";

    fn openings(text: &str, source: &str) -> Result<Vec<ChessOpening>, OpeningError> {
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

    fn default_opening() -> ChessOpening {
        ChessOpening { fen: None, chess960: false }
    }

    fn fen(opening: &ChessOpening) -> &Option<String> {
        &opening.fen
    }

    fn start(opening: &ChessOpening) -> Position {
        let start = match &opening.fen {
            Some(fen) => Position::from_fen(fen).ok().and_then(|p| Position::from_setup(&p.to_setup()).ok()),
            None => Some(Position::startpos()),
        };
        start.unwrap_or_else(Position::startpos)
    }

    fn first_colour(pos: &Position) -> bool {
        pos.turn() == Color::White
    }

    fn greet(process: &mut Process, opening: &ChessOpening) -> Result<bool, EngineError> {
        if opening.chess960 {
            process.send("setoption name UCI_Chess960 value true")?;
        }
        Ok(opening.chess960)
    }

    fn write(chess960: bool, mv: Move) -> String {
        mv.to_uci_in(chess960)
    }

    fn read(_: bool, pos: &Position, reply: &Reply) -> Result<Move, EngineError> {
        Move::from_uci(&reply.text).map_err(|_| EngineError::Garbage(reply.line.clone()))?;
        pos.parse_uci(&reply.text).map_err(|_| EngineError::Illegal(reply.text.clone()))
    }

    fn make(pos: &mut Position, mv: Move) {
        pos.play_unchecked(mv);
    }

    fn remember(start: &Position) -> HashMap<u64, u32> {
        HashMap::from([(start.key().0, 1)])
    }

    fn referee(
        seen: &mut HashMap<u64, u32>,
        pos: &Position,
        seat: usize,
    ) -> Option<(GameResult, String, &'static str)> {
        *seen.entry(pos.key().0).or_default() += 1;
        let (result, reason) = adjudicate(pos, seen)?;
        let result = if reason == "checkmate" { GameResult::Win(seat) } else { result };
        Some((result, reason.to_string(), "normal"))
    }

    fn variant(opening: &ChessOpening) -> Option<&'static str> {
        opening.chess960.then_some("Chess960")
    }

    fn to_fen(pos: &Position) -> String {
        pos.to_fen()
    }

    fn fullmove_number(pos: &Position) -> u32 {
        pos.fullmove_number()
    }

    fn notate(pos: &Position, mv: Move) -> String {
        pos.san(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::{record, test_info as info};
    use crate::MatchGame;

    /// The moves written in `uci` from `start`.
    fn moves(start: &Position, uci: &[&str]) -> Vec<Move> {
        let mut pos = start.clone();
        let play = |text: &&str| {
            let mv = pos.parse_uci(text).unwrap();
            pos.play_unchecked(mv);
            mv
        };
        uci.iter().map(play).collect()
    }

    /// The record of a game from `start` through the moves written in `uci`.
    fn pgn(
        start: &Position,
        opening: &ChessOpening,
        uci: &[&str],
        comments: &[String],
        white_seat: usize,
        ending: (GameResult, &str, &str),
    ) -> String {
        let (result, reason, termination) = ending;
        let moves = moves(start, uci);
        record::<Chess>(start, opening, &moves, comments, white_seat, &info(), result, reason, termination)
    }

    #[test]
    fn pgn_has_tags_and_san() {
        let start = Position::startpos();
        let moves = ["f2f3", "e7e5", "g2g4", "d8h4"];
        let opening = Chess.default_opening();
        let text = pgn(&start, &opening, &moves, &[], 0, (GameResult::Win(1), "checkmate", "normal"));
        assert!(text.contains("[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]"), "{text}");
        assert!(text.contains("1. f3 e5 2. g4 Qh4# {checkmate} 0-1"), "{text}");
        assert!(!text.contains("SetUp"));
    }

    #[test]
    fn time_odds_tag_each_side() {
        let start = Position::startpos();
        let opening = Chess.default_opening();
        let [long, short] = ["40+0.4", "10+0.1"].map(|t| crate::TimeControl::parse_base_increment(t).unwrap());
        let info = crate::GameInfo { tc: [long, short], ..info() };
        let moves = moves(&start, &["e2e4"]);
        let ending = (GameResult::Draw, "agreed", "normal");
        let text = record::<Chess>(&start, &opening, &moves, &[], 1, &info, ending.0, ending.1, ending.2);
        assert!(text.contains("[WhiteTimeControl \"10+0.1\"]\n[BlackTimeControl \"40+0.4\"]"), "{text}");
        assert!(!text.contains("[TimeControl "), "{text}");
        let text = pgn(&start, &opening, &["e2e4"], &[], 0, ending);
        assert!(text.contains("[TimeControl \"-\"]"), "{text}");
    }

    #[test]
    fn moves_carry_their_comments() {
        let start = Position::startpos();
        let moves = ["e2e4", "e7e5", "g1f3"];
        let comments = ["+0.31/12 0.412s".to_string(), "0.020s".to_string()];
        let opening = Chess.default_opening();
        let text = pgn(&start, &opening, &moves, &comments, 0, (GameResult::Draw, "agreed", "normal"));
        assert!(text.contains("1. e4 {+0.31/12 0.412s} 1... e5 {0.020s} 2. Nf3 {agreed} 1/2-1/2"), "{text}");
    }

    #[test]
    fn pgn_from_black_to_move() {
        let start = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let opening = ChessOpening { fen: Some(start.to_fen()), chess960: false };
        let ending = (GameResult::Draw, "adjudicated: move limit", "adjudication");
        let text = pgn(&start, &opening, &["e7e5"], &[], 1, ending);
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
        let text = pgn(&start, &opening, &["e1b1", "b8a8"], &[], 0, (GameResult::Draw, "agreed", "normal"));
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
