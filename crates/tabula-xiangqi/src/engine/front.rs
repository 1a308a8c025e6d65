//! Xiangqi's [`Front`](tabula_protocol::front::Front): positions in FEN (or `startpos`), moves shown in Chinese notation (炮二平五) and read
//! in ICCS coordinates (`h2e2`), WXF (`C2=5`) or Chinese, scores as "mate in N" or centipawns, the engine of
//! [`engine`](crate::engine), perft by the fast generator of [`perft`](crate::perft).

use crate::engine::Engine;
use crate::moves::Move;
use crate::notation::file_name;
use crate::position::Position;
use crate::types::{Color, File, Piece, Rank, Role, Square};
use crate::zobrist::{self, KEYS};
use tabula::search::Limits;
use tabula_board::front::{board_text, cell, marks, placement};
use tabula_board::Man;
use tabula_protocol::front::{CellStyle, Cells, Charset, Feature, FrontError, MoveCells, Report, Think};

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

/// An empty point on the Chinese board: a full-width plus, two columns wide like the pieces' characters.
const POINT: char = '＋';

/// The board in Chinese characters: each point drawn two columns wide (as terminals draw CJK characters) after
/// a space, so that every file keeps one column; Black's file names (１–９) above, Red's (九–一) and the ICCS
/// letters below, ICCS ranks on the left, the river between ranks 5 and 4.
fn chinese_board(pos: &Position) -> String {
    /// A row: a label two columns wide, then each file's two-column glyph after a space.
    fn row(label: &str, glyphs: impl IntoIterator<Item = char>) -> String {
        let mut line = format!("{label:<2}");
        for glyph in glyphs {
            line.push(' ');
            line.push(glyph);
        }
        line + "\n"
    }
    let mut text = row("", File::ALL.map(|file| file_name(file, Color::Black)));
    for rank in Rank::ALL.into_iter().rev() {
        let point = |file| pos.board().piece_at(Square::from_coords(file, rank)).map_or(POINT, character);
        text += &row(&rank.to_string(), File::ALL.map(point));
        if rank == Rank::R5 {
            text += &row("", "～～楚河～漢界～～".chars());
        }
    }
    text += &row("", File::ALL.map(|file| file_name(file, Color::Red)));
    // ICCS letters are one column wide: each stands in the first column of its file.
    text += "  ";
    for file in File::ALL {
        text += &format!(" {file} ");
    }
    text.trim_end().to_string() + "\n\n" + &pos.to_fen()
}

tabula_board::board_front!(Position, Engine, KEYS.as_slice(), {
    const NAME: &'static str = "xiangqi";
    const MOVE_HELP: &'static str = "a move in ICCS (`h2e2`), WXF (`C2=5`) or Chinese (炮二平五)";

    /// Ten ranks from Red's side, Red's pieces in capitals (FEN letters), the river between ranks 4 and 5.
    fn board_text(&self) -> String {
        let river = |rank| (rank == Rank::R5).then_some("   ~~~~~~~~~~~~~~~~~\n");
        let board = board_text(|sq: Square| Some(self.board().piece_at(sq)?.to_char()), river);
        board + "\n" + &self.to_fen()
    }

    /// In Unicode, the pieces as Chinese characters, Red's and Black's different for every role
    /// (帥仕相傌俥炮兵, 將士象馬車砲卒), so that the sides are told apart without colour.
    fn board_text_in(&self, charset: Charset) -> String {
        match charset {
            Charset::Ascii => self.board_text(),
            Charset::Unicode => chinese_board(self),
        }
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

    /// Nine files by ten ranks of points, Black's side at the top; each piece as its character.
    fn cells(&self) -> Option<Cells> {
        let marks = marks(|sq| self.board().piece_at(sq), |piece| character(piece).to_string());
        Some(Cells { width: 9, height: 10, marks, style: CellStyle::Points, drop: false, notes: Vec::new() })
    }

    fn move_cells(&self, mv: Move) -> Option<MoveCells> {
        Some(MoveCells { from: Some(cell(mv.from())), to: cell(mv.to()) })
    }

    /// Each piece on its point, and Black to move.
    fn key_features(&self) -> Vec<Feature> {
        let pieces = placement(|sq| self.board().piece_at(sq));
        let on = |(sq, piece): (Square, Piece)| Feature::new(format!("{} on {sq}", piece.name()), piece.key(sq));
        let mut features: Vec<Feature> = pieces.map(on).collect();
        if self.turn() == Color::Black {
            features.push(Feature::new("Black to move", zobrist::BLACK_TO_MOVE));
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
    use tabula_protocol::front::{Front, Setup};
    use unicode_width::UnicodeWidthChar;

    /// The characters of a line drawn in a terminal, each with the column it starts at (wide characters take
    /// two), spaces left out.
    fn columns(line: &str) -> Vec<(usize, char)> {
        let mut column = 0;
        let mut placed = Vec::new();
        for c in line.chars() {
            if c != ' ' {
                placed.push((column, c));
            }
            column += c.width().expect("a printable character");
        }
        placed
    }

    /// The piece placement (FEN's first field) read back from the Chinese board, each point found by the
    /// column of its file's letter, each character told apart by side as Chinese boards print them.
    fn placement_drawn(text: &str) -> String {
        let lines: Vec<&str> = text.lines().collect();
        let letters = columns(lines[13]);
        let files: Vec<char> = letters.iter().map(|&(_, c)| c).collect();
        assert_eq!(files, "abcdefghi".chars().collect::<Vec<_>>(), "{text}");
        let at = |line: &str| -> Vec<char> {
            let placed = columns(line);
            letters
                .iter()
                .map(|(column, _)| placed.iter().find(|(c, _)| c == column).map_or('?', |&(_, glyph)| glyph))
                .collect()
        };
        // Black's file numbers above, Red's below, each over its ICCS letter.
        assert_eq!(at(lines[0]).into_iter().collect::<String>(), "１２３４５６７８９", "{text}");
        assert_eq!(at(lines[12]).into_iter().collect::<String>(), "九八七六五四三二一", "{text}");
        assert_eq!(at(lines[6]).into_iter().collect::<String>(), "～～楚河～漢界～～", "{text}");
        let width = |line: &str| line.chars().map(|c| c.width().unwrap()).sum::<usize>();
        let mut ranks = Vec::new();
        for (row, line) in lines[1..12].iter().enumerate().filter(|&(row, _)| row != 5) {
            assert_eq!(width(line), width(lines[0]), "row {row} of\n{text}");
            let rank = 9 - ranks.len();
            assert_eq!(columns(line)[0], (0, char::from_digit(rank as u32, 10).unwrap()), "{text}");
            let mut fen = String::new();
            for glyph in at(line) {
                let letter = match glyph {
                    '＋' => '1',
                    _ => {
                        let red = "帥仕相傌俥炮兵".chars().position(|c| c == glyph);
                        let black = "將士象馬車砲卒".chars().position(|c| c == glyph);
                        match (red, black) {
                            (Some(i), None) => "KABNRCP".as_bytes()[i] as char,
                            (None, Some(i)) => "kabnrcp".as_bytes()[i] as char,
                            _ => panic!("`{glyph}` on rank {rank} is no piece of one side:\n{text}"),
                        }
                    }
                };
                fen.push(letter);
            }
            ranks.push(fen);
        }
        // Runs of empty points as FEN counts them.
        let mut placement = ranks.join("/");
        for n in (2..=9).rev() {
            placement = placement.replace(&"1".repeat(n), &n.to_string());
        }
        placement
    }

    #[test]
    fn the_chinese_board_puts_each_piece_on_its_file_and_rank() {
        let data = include_str!("../../tests/data/perft.epd");
        let fens = data.lines().map(|line| line.split(';').next().unwrap().trim());
        for fen in fens.filter(|fen| !fen.is_empty()) {
            let pos = Position::from_fen(fen).unwrap();
            let text = pos.board_text_in(Charset::Unicode);
            assert_eq!(placement_drawn(&text), fen.split(' ').next().unwrap(), "{fen}");
            assert!(text.ends_with(&pos.to_fen()));
            assert_eq!(pos.board_text_in(Charset::Ascii), pos.board_text());
            assert!(pos.board_text().is_ascii());
        }
        let start = Position::startpos().board_text_in(Charset::Unicode);
        assert!(start.lines().nth(1).unwrap().ends_with("車 馬 象 士 將 士 象 馬 車"), "{start}");
        assert!(start.lines().nth(11).unwrap().ends_with("俥 傌 相 仕 帥 仕 相 傌 俥"), "{start}");
    }

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
