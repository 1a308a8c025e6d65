//! Chess's [`Front`](tabula_protocol::front::Front): positions in FEN (or `startpos`), moves in SAN for display
//! and SAN or UCI coordinates when read, scores as "mate in N" or centipawns, the engine of
//! [`engine`](crate::engine), perft by the fast generator of [`perft`](crate::perft).

use crate::engine::Engine;
use crate::moves::Move;
use crate::position::CastlingSide;
use crate::position::Position;
use crate::types::{Color, Piece, Square};
use crate::zobrist::{self, POLYGLOT};
use tabula::search::Limits;
use tabula_board::front::{board_text, cell, marks, placement};
use tabula_board::Man;
use tabula_protocol::front::{CellStyle, Cells, Feature, FrontError, MoveCells, Report, Think};

tabula_board::board_front!(Position, Engine, POLYGLOT.as_slice(), {
    const NAME: &'static str = "chess";
    const MOVE_HELP: &'static str = "a move in SAN (`Nf3`, `O-O`) or UCI coordinates (`g1f3`)";

    /// Eight ranks from White's side, White's pieces in capitals, then the FEN.
    fn board_text(&self) -> String {
        let board = board_text(|sq: Square| Some(self.board().piece_at(sq)?.to_char()), |_| None);
        board + "\n" + &self.to_fen()
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

    /// Rank 8 at the top; FEN letters, White's in capitals.
    fn cells(&self) -> Option<Cells> {
        let marks = marks(|sq| self.board().piece_at(sq), |piece| piece.to_char().to_string());
        Some(Cells { width: 8, height: 8, marks, style: CellStyle::Checkered, drop: false, notes: Vec::new() })
    }

    /// Castling is drawn as the king's move (to the g- or c-file).
    fn move_cells(&self, mv: Move) -> Option<MoveCells> {
        Some(MoveCells { from: Some(cell(mv.from())), to: cell(mv.king_to()) })
    }

    /// Polyglot's features: each piece on its square, each castling right, the en-passant file when a capture
    /// there is possible, White to move.
    fn key_features(&self) -> Vec<Feature> {
        let pieces = placement(|sq| self.board().piece_at(sq));
        let on = |(sq, piece): (Square, Piece)| Feature::new(format!("{} on {sq}", piece.name()), piece.key(sq));
        let mut features: Vec<Feature> = pieces.map(on).collect();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if self.castling().has(color, side) {
                    let name = format!("{color:?} may castle {side:?}").replace("KingSide", "king side");
                    features
                        .push(Feature::new(name.replace("QueenSide", "queen side"), zobrist::castling(color, side)));
                }
            }
        }
        if let Some(ep) = self.ep_square() {
            features.push(Feature::new(
                format!("en passant on the {}-file", ep.file().to_char()),
                zobrist::en_passant(ep.file()),
            ));
        }
        if self.turn() == Color::White {
            features.push(Feature::new("White to move", zobrist::WHITE_TO_MOVE));
        }
        features
    }
});

/// The engine thinks about a position as [`EnginePosition`](crate::engine::EnginePosition), with accumulators
/// of its own.
impl Think<Position> for Engine {
    fn think(&mut self, game: &Position, limits: &Limits, progress: &mut dyn FnMut(&Report<Move>)) -> Report<Move> {
        tabula_nnue::engine::think(self, game, limits, progress)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::search::Limits;
    use tabula_protocol::front::Charset;
    use tabula_protocol::front::{EngineConfig, Front, Setup};
    use tabula_protocol::terminal;

    #[test]
    fn a_mate_in_two_reads_as_mate_with_the_line_in_san() {
        // Two rooks against a bare king: Ra7 then Rb8 mate (one of several mates in two).
        let pos = Position::parse_position("6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1", &Setup::default()).unwrap();
        let mut engine = Position::engine(&EngineConfig { hash_mib: 4, ..EngineConfig::default() });
        let mut out = Vec::new();
        terminal::analyze(&pos, &mut engine, &Limits::depth(5), Charset::Ascii, &mut out).unwrap();
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
