//! Chess's [`Front`]: positions in FEN (or `startpos`), moves in SAN for display and SAN or UCI coordinates
//! when read, scores as "mate in N" or centipawns, the engine of [`engine`](crate::engine), perft by the fast
//! generator of [`perft`](crate::perft).

use crate::engine::Engine;
use crate::moves::Move;
use crate::perft::{perft, perft_hashed};
use crate::position::Position;
use crate::types::{Color, Square};
use crate::zobrist::POLYGLOT;
use tabula::perft::PerftTable;
use tabula::quality::QualityReport;
use tabula::score::{Distance, Wording};
use tabula_protocol::front::{EngineConfig, Front, FrontError, Setup};

impl Front for Position {
    const NAME: &'static str = "chess";
    const POSITION_HELP: &'static str = "a FEN, or `startpos`";
    const MOVE_HELP: &'static str = "a move in SAN (`Nf3`, `O-O`) or UCI coordinates (`g1f3`)";
    const WORDING: Wording = Wording { distance: Distance::Mate, unit: "cp", margin_unit: "" };
    type Engine = Engine;

    fn start(setup: &Setup) -> Result<Position, FrontError> {
        setup.allow(Self::NAME, &[])?;
        Ok(Position::startpos())
    }

    fn parse_position(text: &str, setup: &Setup) -> Result<Position, FrontError> {
        setup.allow(Self::NAME, &[])?;
        match text.trim() {
            "" | "startpos" => Ok(Position::startpos()),
            fen => Position::from_fen(fen).map_err(|e| FrontError::position(fen, e)),
        }
    }

    /// Eight ranks from White's side, White's pieces in capitals, then the FEN.
    fn board_text(&self) -> String {
        let mut text = String::new();
        for rank in (0..8).rev() {
            text += &format!("{} ", rank + 1);
            for file in 0..8 {
                let square = Square::new(rank * 8 + file).expect("on the board");
                let c = self.board().piece_at(square).map_or('.', |p| p.to_char());
                text.push(' ');
                text.push(c);
            }
            text.push('\n');
        }
        text + "   a b c d e f g h\n\n" + &self.to_fen()
    }

    fn position_text(&self) -> String {
        self.to_fen()
    }

    fn move_text(&self, mv: Move) -> String {
        self.san(mv)
    }

    /// UCI coordinates, castling as the king taking its rook where the position needs Chess960.
    fn coordinate_text(&self, mv: Move) -> String {
        mv.to_uci_in(self.is_chess960())
    }

    /// SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`) or UCI coordinates (`g1f3`, `e7e8q`).
    fn parse_move(&self, text: &str) -> Result<Move, FrontError> {
        let text = text.trim();
        self.parse_san(text).or_else(|san| self.parse_uci(text).map_err(|_| FrontError::bad_move(text, san)))
    }

    fn side_name(&self) -> String {
        match self.turn() {
            Color::White => "White".into(),
            Color::Black => "Black".into(),
        }
    }

    fn result_text(&self) -> Option<String> {
        let side = self.side_name();
        let other = if self.turn() == Color::White { "Black" } else { "White" };
        if self.is_checkmate() {
            Some(format!("{side} is checkmated: {other} wins."))
        } else if self.is_stalemate() {
            Some(format!("{side} is stalemated: draw."))
        } else if self.halfmove_clock() >= 100 {
            Some("Draw by the fifty-move rule.".into())
        } else if self.is_insufficient_material() {
            Some("Draw: neither side can mate.".into())
        } else {
            tabula::Game::outcome(self).map(|_| "Draw by repetition.".into())
        }
    }

    fn engine(config: &EngineConfig) -> Engine {
        let mut engine = Engine::new(config.hash_mib);
        engine.set_threads(config.threads);
        engine
    }

    fn perft(&mut self, depth: u32, table: Option<&mut PerftTable>) -> u64 {
        match table {
            Some(table) => perft_hashed(self, depth, table),
            None => perft(self, depth),
        }
    }

    fn key_quality() -> QualityReport {
        tabula::quality::check(POLYGLOT.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::search::Limits;
    use tabula_protocol::terminal;

    #[test]
    fn a_mate_in_two_reads_as_mate_with_the_line_in_san() {
        // Two rooks against a bare king: Ra7 then Rb8 mate (one of several mates in two).
        let pos = Position::parse_position("6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1", &Setup::default()).unwrap();
        let mut engine = Position::engine(&EngineConfig { hash_mib: 4, ..EngineConfig::default() });
        let mut out = Vec::new();
        terminal::analyze(&pos, &mut engine, &Limits::depth(5), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("score      mate in 2"), "{text}");
        // The line ends with the mate: nothing is played after it.
        let pv = text.lines().find(|l| l.starts_with("pv")).unwrap();
        assert!(pv.ends_with('#'), "{text}");
    }

    #[test]
    fn moves_are_read_in_san_or_uci_and_positions_in_fen() {
        let pos = Position::startpos();
        assert_eq!(pos.parse_move("Nf3").unwrap(), pos.parse_move("g1f3").unwrap());
        assert!(pos.parse_move("Nf6").is_err());
        assert!(Position::parse_position("8/8/8 w - - 0 1", &Setup::default()).is_err());
        assert!(Position::start(&Setup { komi: Some(7.0), ..Setup::default() }).is_err());
        assert_eq!(Position::parse_position(&pos.position_text(), &Setup::default()).unwrap(), pos);
    }
}
