//! Xiangqi's [`Front`]: positions in FEN (or `startpos`), moves shown in Chinese notation (炮二平五) and read
//! in ICCS coordinates (`h2e2`), WXF (`C2=5`) or Chinese, scores as "mate in N" or centipawns, the engine of
//! [`engine`](crate::engine), perft by the fast generator of [`perft`](crate::perft).

use crate::engine::Engine;
use crate::moves::Move;
use crate::perft::{perft, perft_hashed};
use crate::position::Position;
use crate::types::{Color, Piece, Role, Square};
use crate::zobrist::{self, KEYS};
use tabula::perft::PerftTable;
use tabula::quality::QualityReport;
use tabula::score::{Distance, Wording};
use tabula_protocol::front::{CellStyle, Cells, EngineConfig, Feature, Front, FrontError, MoveCells, Setup};

/// The point of `square` on a board drawn with Black's back rank (9) at the top.
fn cell(square: Square) -> usize {
    (9 - square.rank().index()) * 9 + square.file().index()
}

/// The piece's character as boards print it: Red's and Black's differ for every role.
fn character(piece: Piece) -> char {
    let (red, black) = match piece.role {
        Role::King => ('帥', '將'),
        Role::Advisor => ('仕', '士'),
        Role::Elephant => ('相', '象'),
        Role::Horse => ('傌', '馬'),
        Role::Rook => ('俥', '車'),
        Role::Cannon => ('炮', '砲'),
        Role::Pawn => ('兵', '卒'),
    };
    if piece.color == Color::Red {
        red
    } else {
        black
    }
}

impl Front for Position {
    const NAME: &'static str = "xiangqi";
    const POSITION_HELP: &'static str = "a FEN, or `startpos`";
    const MOVE_HELP: &'static str = "a move in ICCS (`h2e2`), WXF (`C2=5`) or Chinese (炮二平五)";
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

    /// Ten ranks from Red's side, Red's pieces in capitals (FEN letters), the river between ranks 4 and 5.
    fn board_text(&self) -> String {
        let mut text = String::new();
        for rank in (0..10).rev() {
            text += &format!("{rank} ");
            for file in 0..9 {
                let square = Square::new(rank * 9 + file).expect("on the board");
                text.push(' ');
                text.push(self.board().piece_at(square).map_or('.', |p| p.to_char()));
            }
            text.push('\n');
            if rank == 5 {
                text += "   ~~~~~~~~~~~~~~~~~\n";
            }
        }
        text + "   a b c d e f g h i\n\n" + &self.to_fen()
    }

    fn position_text(&self) -> String {
        self.to_fen()
    }

    fn move_text(&self, mv: Move) -> String {
        self.chinese(mv)
    }

    fn coordinate_text(&self, mv: Move) -> String {
        mv.to_iccs()
    }

    fn parse_move(&self, text: &str) -> Result<Move, FrontError> {
        let text = text.trim();
        self.parse_iccs(text).or_else(|_| self.parse_notation(text)).map_err(|e| FrontError::bad_move(text, e))
    }

    fn side_name(&self) -> String {
        match self.turn() {
            Color::Red => "Red".into(),
            Color::Black => "Black".into(),
        }
    }

    fn engine(config: &EngineConfig) -> Engine {
        let mut engine = Engine::new(config.hash_mib);
        engine.set_threads(config.threads);
        engine.set_table_use(config.table);
        engine
    }

    fn perft(&mut self, depth: u32, table: Option<&mut PerftTable>) -> u64 {
        match table {
            Some(table) => perft_hashed(self, depth, table),
            None => perft(self, depth),
        }
    }

    fn key_quality() -> QualityReport {
        tabula::quality::check(KEYS.as_slice())
    }

    /// Nine files by ten ranks of points, Black's side at the top; each piece as its character.
    fn cells(&self) -> Option<Cells> {
        let mut marks = vec![String::new(); 90];
        for square in Square::ALL {
            if let Some(piece) = self.board().piece_at(square) {
                marks[cell(square)] = character(piece).to_string();
            }
        }
        Some(Cells { width: 9, height: 10, marks, style: CellStyle::Points, drop: false, notes: Vec::new() })
    }

    fn move_cells(&self, mv: Move) -> Option<MoveCells> {
        Some(MoveCells { from: Some(cell(mv.from())), to: cell(mv.to()) })
    }

    /// Each piece on its point, and Black to move.
    fn key_features(&self) -> Vec<Feature> {
        let mut features = Vec::new();
        for square in Square::ALL {
            if let Some(piece) = self.board().piece_at(square) {
                let name = format!("{:?} {:?} on {square}", piece.color, piece.role).to_lowercase();
                features.push(Feature::new(name, zobrist::piece(piece, square)));
            }
        }
        if self.turn() == Color::Black {
            features.push(Feature::new("Black to move", zobrist::BLACK_TO_MOVE));
        }
        features
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_in_three_notations_and_positions_in_fen() {
        let pos = Position::startpos();
        let iccs = pos.parse_move("h2e2").unwrap();
        assert_eq!(pos.parse_move("C2=5").unwrap(), iccs);
        assert_eq!(pos.parse_move("炮二平五").unwrap(), iccs);
        assert_eq!(pos.move_text(iccs), "炮二平五");
        assert_eq!(pos.coordinate_text(iccs), "h2e2");
        // Past the screen only by capturing: h2h9 takes the horse, h2h8 is no move.
        assert!(pos.parse_move("h2h9").is_ok() && pos.parse_move("h2h8").is_err());
        assert_eq!(Position::parse_position(&pos.position_text(), &Setup::default()).unwrap(), pos);
        assert!(Position::start(&Setup { size: Some(9), ..Setup::default() }).is_err());
        // The start position's first two plies: 44 moves, 1,920 lines (Fairy-Stockfish's perft).
        let count = tabula_protocol::terminal::perft_divide(&pos, 2, Some(1), |_, _| {});
        assert_eq!((count.divide.len(), count.total), (44, 1920));
    }
}
