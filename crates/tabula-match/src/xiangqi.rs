//! Xiangqi over UCI: the driver (as for chess: `uci`, `ucinewgame`, `position ... moves ...`, `go` with the
//! clock, Red's as `wtime`), the referee on [`tabula_xiangqi::Position`] and PGN-style records with moves in
//! ICCS coordinates, each followed by the mover's score, depth and time in a comment as in chess records.
//!
//! The referee is Tabula's rules ([`tabula_xiangqi::repetition::adjudicate`]): the side without a legal move
//! loses (checkmate or stalemate); a position occurring for the third time since the last capture is ruled by
//! the Asian rules, a perpetual check or chase losing for the side that forced it and any other repetition
//! drawn; 120 plies without a capture draw; `--max-moves` adjudicates a draw.
//!
//! Engines write squares in one of two ways: ranks 0–9 (ICCS, as Pikafish and Tabula do) or ranks 1–10 (as
//! Fairy-Stockfish does). At the start of each game each engine is sent `uci` again and its answer read: an
//! engine that offers the `UCI_Variant` option is a Fairy-Stockfish, spoken to in its coordinates and set to
//! `UCI_Variant xiangqi`; every other engine in ICCS.
//!
//! # Examples
//!
//! ```
//! use tabula_match::xiangqi::Xiangqi;
//! use tabula_match::MatchGame;
//!
//! let text = "# two\nstartpos\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1 # h3e3\n";
//! assert_eq!(Xiangqi.parse_openings(text, "o.txt").unwrap().len(), 2);
//! let err = Xiangqi.parse_openings("not a fen\n", "o.txt").unwrap_err();
//! assert!(err.to_string().starts_with("o.txt, line 1"));
//! ```

use crate::uci::{Reply, UciGame, HANDSHAKE};
use crate::{opening_lines, GameResult, OpeningError};
use std::time::Instant;
use tabula_protocol::process::{EngineError, Process};
use tabula_xiangqi::repetition::{adjudicate, Ending, Ruling, Violation};
use tabula_xiangqi::{Color, Move, Position};

/// A position ends the game at its third occurrence.
const OCCURRENCES: u32 = 3;

/// Xiangqi matches over UCI.
#[derive(Clone, Copy, Debug, Default)]
pub struct Xiangqi;

/// A xiangqi opening: the starting FEN (`None` for the standard start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XiangqiOpening {
    /// The FEN, or `None` for the initial position.
    pub fen: Option<String>,
}

/// How an engine writes squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coordinates {
    /// ICCS, ranks 0–9.
    Iccs,
    /// Fairy-Stockfish's, ranks 1–10.
    Fairy,
}

impl Coordinates {
    fn write(self, mv: Move) -> String {
        match self {
            Coordinates::Iccs => mv.to_iccs(),
            Coordinates::Fairy => mv.to_fairy(),
        }
    }

    fn parse(self, text: &str) -> Result<Move, tabula_xiangqi::MoveError> {
        match self {
            Coordinates::Iccs => Move::from_iccs(text),
            Coordinates::Fairy => Move::from_fairy(text),
        }
    }
}

/// `uci` again, to learn the engine's coordinates from its options; a Fairy-Stockfish is set to xiangqi.
fn coordinates(process: &mut Process) -> Result<Coordinates, EngineError> {
    process.send("uci")?;
    let deadline = Instant::now() + HANDSHAKE;
    let mut fairy = false;
    process.wait_for(deadline, HANDSHAKE, |l| {
        fairy |= l.trim_start().starts_with("option name UCI_Variant ");
        l.trim() == "uciok"
    })?;
    if fairy {
        process.send("setoption name UCI_Variant value xiangqi")?;
        return Ok(Coordinates::Fairy);
    }
    Ok(Coordinates::Iccs)
}

/// The result of the position after a move by `seat`, if the rules end the game: by seat, the reason, the PGN
/// termination.
fn referee(pos: &Position, seat: usize) -> Option<(GameResult, String, &'static str)> {
    let verdict = adjudicate(pos, OCCURRENCES)?;
    // The side to move is the seat that did not just move.
    let result = match verdict.winner {
        None => GameResult::Draw,
        Some(winner) if winner == pos.turn() => GameResult::Win(1 - seat),
        Some(_) => GameResult::Win(seat),
    };
    let reason = match verdict.ending {
        Ending::NoLegalMove if pos.is_check() => "checkmate".to_string(),
        Ending::NoLegalMove => "stalemate (no legal move)".to_string(),
        Ending::MoveLimit => "60-move rule (120 plies without a capture)".to_string(),
        Ending::Repetition(found) => match found.ruling() {
            Ruling::Draw => "repetition".to_string(),
            Ruling::Loss { offender, violation } => {
                let how = match violation {
                    Violation::PerpetualCheck => "perpetual check",
                    Violation::PerpetualChase => "perpetual chase",
                    Violation::CheckAndChase => "perpetual check and chase",
                };
                format!("{how} by {offender:?}")
            }
        },
    };
    Some((result, reason, "normal"))
}

/// Each engine speaks the coordinates it was found to speak; the position keeps the history the referee
/// rules repetitions on. The record is PGN with `[Variant "xiangqi"]`, moves in ICCS coordinates.
impl UciGame for Xiangqi {
    type Position = Position;
    type Move = Move;
    type Notation = Coordinates;
    type Memory = ();
    type Opening = XiangqiOpening;
    const NAME: &'static str = "xiangqi";

    fn openings(text: &str, source: &str) -> Result<Vec<XiangqiOpening>, OpeningError> {
        opening_lines(text)
            .map(|(line, l)| {
                // A FEN holds no '#': what follows one is a comment.
                let l = l.split('#').next().unwrap_or("").trim();
                if l == "startpos" {
                    return Ok(XiangqiOpening { fen: None });
                }
                let error = |message: String| OpeningError { source_name: source.to_string(), line, message };
                let pos = Position::from_fen(l).map_err(|e| error(format!("not a xiangqi FEN: {e}")))?;
                if !pos.has_legal_move() {
                    return Err(error("the position has no legal move".to_string()));
                }
                Ok(XiangqiOpening { fen: Some(pos.to_fen()) })
            })
            .collect()
    }

    fn default_opening() -> XiangqiOpening {
        XiangqiOpening { fen: None }
    }

    fn fen(opening: &XiangqiOpening) -> &Option<String> {
        &opening.fen
    }

    fn start(opening: &XiangqiOpening) -> Position {
        let start = opening.fen.as_deref().and_then(|fen| Position::from_fen(fen).ok());
        start.unwrap_or_else(Position::startpos)
    }

    fn first_colour(pos: &Position) -> bool {
        pos.turn() == Color::Red
    }

    fn greet(process: &mut Process, _: &XiangqiOpening) -> Result<Coordinates, EngineError> {
        coordinates(process)
    }

    fn write(coordinates: Coordinates, mv: Move) -> String {
        coordinates.write(mv)
    }

    fn read(coordinates: Coordinates, pos: &Position, reply: &Reply) -> Result<Move, EngineError> {
        let mv = coordinates.parse(&reply.text).map_err(|_| EngineError::Garbage(reply.line.clone()))?;
        if !pos.is_legal(mv) {
            return Err(EngineError::Illegal(reply.text.clone()));
        }
        Ok(mv)
    }

    fn make(pos: &mut Position, mv: Move) {
        pos.play_unchecked(mv);
    }

    fn remember(_: &Position) {}

    fn referee(_: &mut (), pos: &Position, seat: usize) -> Option<(GameResult, String, &'static str)> {
        referee(pos, seat)
    }

    fn variant(_: &XiangqiOpening) -> Option<&'static str> {
        Some("xiangqi")
    }

    fn to_fen(pos: &Position) -> String {
        pos.to_fen()
    }

    fn fullmove_number(pos: &Position) -> u32 {
        pos.fullmove_number()
    }

    fn notate(_: &Position, mv: Move) -> String {
        mv.to_iccs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::{record, test_info as info};

    fn play(pos: &mut Position, iccs: &[&str]) -> Vec<Move> {
        iccs.iter()
            .map(|t| {
                let mv = pos.parse_iccs(t).unwrap();
                pos.play_unchecked(mv);
                mv
            })
            .collect()
    }

    #[test]
    fn the_referee_rules_by_the_asian_rules() {
        // Perpetual check: Red (seat 0) checks from a8 and a9 until the position occurs a third time.
        let mut pos = Position::from_fen("9/4k4/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
        let line = ["a0a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8"];
        play(&mut pos, &line);
        assert!(referee(&pos, 1).is_none());
        play(&mut pos, &["a9a8"]);
        let (result, reason, _) = referee(&pos, 0).unwrap();
        assert_eq!((result, reason.as_str()), (GameResult::Win(1), "perpetual check by Red"));
        // Idle shuffling is a draw.
        let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1").unwrap();
        play(&mut pos, &["e1f2", "d9d8", "f2e1", "d8d9", "e1f2", "d9d8", "f2e1", "d8d9"]);
        assert_eq!(referee(&pos, 1).unwrap().0, GameResult::Draw);
        // No legal move left (here a stalemate, which loses in xiangqi): the seat that moved wins.
        let mut pos = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/3K1R3 w - - 0 1").unwrap();
        let mate = Position::legal_moves(&pos)
            .iter()
            .copied()
            .find(|&mv| {
                let mut after = pos.clone();
                after.play_unchecked(mv);
                !after.has_legal_move()
            })
            .unwrap();
        pos.play_unchecked(mate);
        let (result, reason, _) = referee(&pos, 0).unwrap();
        assert_eq!(result, GameResult::Win(0));
        // (The runner counts a reason with " loses" in it as a forfeit.)
        assert_eq!(reason, "stalemate (no legal move)");
        // The 60-move rule.
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 b - - 120 80").unwrap();
        assert_eq!(referee(&pos, 0).unwrap().0, GameResult::Draw);
    }

    #[test]
    fn records_name_the_variant_and_the_start() {
        let start =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1").unwrap();
        let mut pos = start.clone();
        let moves = play(&mut pos, &["h9g7", "h0g2"]);
        let opening = XiangqiOpening { fen: Some(start.to_fen()) };
        let text = record::<Xiangqi>(&start, &opening, &moves, &[], 1, &info(), GameResult::Draw, "agreed", "normal");
        assert!(text.contains("[White \"B\"]\n[Black \"A\"]"), "{text}");
        assert!(text.contains("[Variant \"xiangqi\"]") && text.contains("[SetUp \"1\"]"), "{text}");
        assert!(text.contains("1... h9g7 2. h0g2 {agreed} 1/2-1/2"), "{text}");
    }

    #[test]
    fn coordinates_round_trip() {
        let mv = Move::from_iccs("b0c2").unwrap();
        for c in [Coordinates::Iccs, Coordinates::Fairy] {
            assert_eq!(c.parse(&c.write(mv)), Ok(mv));
        }
        assert_eq!(Coordinates::Fairy.write(mv), "b1c3");
    }
}
