//! FEN and EPD: the unvalidated [`Setup`] they describe, parsing with a typed [`FenError`] naming the field at
//! fault, and formatting.
//!
//! The half-move clock and full-move number may be left out (they default to 0 and 1), as EPD-style FENs often
//! do; every other field is required.
//!
//! # Examples
//!
//! ```
//! use tabula_chess::{FenError, FenField, Position, Setup};
//!
//! let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
//! let pos = Position::from_fen(fen).unwrap();
//! assert_eq!(pos.to_fen(), fen);
//!
//! let err = Setup::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1").unwrap_err();
//! assert!(matches!(err, FenError::Field { field: FenField::SideToMove, .. }));
//! assert_eq!(err.to_string(), "invalid side to move \"x\" in FEN: expected w or b");
//!
//! // EPD: four fields, then operations.
//! let epd = tabula_chess::Epd::parse("4k3/8/8/8/8/8/8/4K2R w K - bm O-O; id \"castle\";").unwrap();
//! assert_eq!(epd.operation("id"), Some("castle"));
//! ```

use crate::board::Board;
use crate::castling::{CastlingRights, CastlingSide};
use crate::position::{Position, PositionError};
pub use crate::setup::Setup;
use crate::types::{Color, File, Piece, Rank, Role, Square};
use tabula_board::fen;

pub use tabula_board::FenField;

/// Why a FEN or EPD record cannot be read: a field at fault, too many fields, or an illegal position.
pub type FenError = tabula_board::FenError<PositionError>;

fn field_error(field: FenField, value: &str, reason: &'static str) -> FenError {
    FenError::field(field, value, reason)
}

fn parse_placement(text: &str) -> Result<Board, FenError> {
    let mut board = Board::empty();
    let letters = "unknown piece letter (expected one of PNBRQKpnbrqk)";
    fen::parse_placement(text, "square", letters, Piece::from_char, |sq, piece| board.put(sq, piece))?;
    Ok(board)
}

/// The castling field, read against the placement: `KQkq` (X-FEN: the outermost rook on that side of the king)
/// and the rook's file `A`–`H` / `a`–`h` (Shredder-FEN, or X-FEN for an inner rook), upper case for White.
fn parse_castling(text: &str, board: &Board) -> Result<CastlingRights, FenError> {
    if text == "-" {
        return Ok(CastlingRights::NONE);
    }
    if text.is_empty() {
        return Err(field_error(FenField::Castling, text, "missing"));
    }
    let mut rights = CastlingRights::NONE;
    for c in text.chars() {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let king = board.king_of(color).filter(|k| k.rank() == color.back_rank());
        let (side, file) = match c.to_ascii_lowercase() {
            'k' => (CastlingSide::KingSide, outermost_rook(board, color, king, CastlingSide::KingSide)),
            'q' => (CastlingSide::QueenSide, outermost_rook(board, color, king, CastlingSide::QueenSide)),
            'a'..='h' => {
                let file = File::from_char(c.to_ascii_lowercase()).expect("a file letter");
                let king_file = king.map_or(File::E, Square::file);
                if file == king_file {
                    return Err(field_error(FenField::Castling, text, "a castling rook's file is the king's file"));
                }
                (if file > king_file { CastlingSide::KingSide } else { CastlingSide::QueenSide }, file)
            }
            _ => {
                return Err(field_error(
                    FenField::Castling,
                    text,
                    "expected '-', letters from KQkq, or rook files A-H / a-h (Chess960)",
                ))
            }
        };
        if rights.has(color, side) {
            return Err(field_error(FenField::Castling, text, "a right is given twice"));
        }
        rights = rights.with_rook(color, side, Some(file));
    }
    Ok(rights)
}

/// The file of `color`'s outermost rook on its back rank on `side` of its king (on the back rank), or the
/// standard file when there is none (the position then rejects the right).
fn outermost_rook(board: &Board, color: Color, king: Option<Square>, side: CastlingSide) -> File {
    let rank = color.back_rank();
    let rook = Piece::new(color, Role::Rook);
    let files = File::ALL.into_iter().filter(|&f| board.piece_at(Square::from_coords(f, rank)) == Some(rook));
    let found = match (king, side) {
        (Some(k), CastlingSide::KingSide) => files.filter(|&f| f > k.file()).max(),
        (Some(k), CastlingSide::QueenSide) => files.filter(|&f| f < k.file()).min(),
        (None, _) => None,
    };
    found.unwrap_or(side.rook_from_file())
}

fn parse_ep(text: &str) -> Result<Option<Square>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    let sq: Square =
        text.parse().map_err(|_| field_error(FenField::EnPassant, text, "expected '-' or a square such as e3"))?;
    if sq.rank() != Rank::Third && sq.rank() != Rank::Sixth {
        return Err(field_error(FenField::EnPassant, text, "an en-passant square is on the third or sixth rank"));
    }
    Ok(Some(sq))
}

impl Setup {
    /// Reads a FEN record. Surrounding whitespace and runs of spaces between fields are accepted.
    ///
    /// # Errors
    ///
    /// [`FenError::Field`] naming the first malformed or missing field, or [`FenError::TooManyFields`].
    pub fn from_fen(fen: &str) -> Result<Setup, FenError> {
        let fields = fen::split_fields(fen)?;
        let mut setup = Setup::from_fields(&fields)?;
        if let Some(h) = fields.get(4) {
            setup.halfmove_clock = fen::parse_number(FenField::Halfmove, h)?;
        }
        if let Some(f) = fields.get(5) {
            setup.fullmove_number = fen::parse_number(FenField::Fullmove, f)?;
        }
        Ok(setup)
    }

    /// The first four fields (placement, side, castling, en passant); clocks at 0 and 1.
    fn from_fields(fields: &[&str]) -> Result<Setup, FenError> {
        let get = |i: usize, field| fields.get(i).copied().ok_or_else(|| FenError::missing(field));
        let board = parse_placement(get(0, FenField::Placement)?)?;
        let turn = fen::parse_side(get(1, FenField::SideToMove)?, Color::from_char, "expected w or b")?;
        let castling = parse_castling(get(2, FenField::Castling)?, &board)?;
        let ep_square = parse_ep(get(3, FenField::EnPassant)?)?;
        Ok(Setup { board, turn, castling, ep_square, halfmove_clock: 0, fullmove_number: 1 })
    }

    /// The setup as a FEN record (all six fields).
    pub fn to_fen(&self) -> String {
        format!("{} {} {}", self.to_epd_fields(), self.halfmove_clock, self.fullmove_number)
    }

    /// The four position fields shared by FEN and EPD.
    fn to_epd_fields(&self) -> String {
        let mut out = String::with_capacity(80);
        fen::write_placement(&mut out, |sq| self.board.piece_at(sq).map(Piece::to_char));
        out.push(' ');
        out.push(self.turn.to_char());
        out.push(' ');
        out.push_str(&castling_field(self.castling, &self.board));
        out.push(' ');
        match self.ep_square {
            Some(sq) => out.push_str(&sq.to_string()),
            None => out.push('-'),
        }
        out
    }
}

tabula_board::fen_text!(Setup, FenError);

/// The FEN castling field: `KQkq`, a subset in that order, or `-`; in Chess960 (X-FEN), a right whose rook is
/// not the outermost on its side of the king is written as the rook's file (`G`, `b`).
fn castling_field(rights: CastlingRights, board: &Board) -> String {
    rights.field(|color, side, file| {
        let king = board.king_of(color).filter(|k| k.rank() == color.back_rank());
        outermost_rook(board, color, king, side) == file
    })
}

tabula_board::fen_position!(Position, Setup, FenError);

impl Position {
    /// The position as the four EPD fields, without operations.
    pub fn to_epd(&self) -> String {
        self.to_setup().to_epd_fields()
    }
}

/// One EPD operation: an opcode and its operands (quotes removed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    /// The opcode, such as `bm`, `id` or `D5`.
    pub opcode: String,
    /// The operand text after the opcode, trimmed and unquoted (empty if none).
    pub operand: String,
}

/// An EPD record: a position and its operations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Epd {
    /// The position fields (clocks from `hmvc` / `fmvn` operations or FEN-style numbers, else 0 and 1).
    pub setup: Setup,
    /// The operations in order.
    pub operations: Vec<Operation>,
}

impl Epd {
    /// Reads an EPD line: four position fields, then operations each ended by `;`. Also accepted: the FEN clocks
    /// right after the four fields, and operations introduced by `;` (as in common perft suites:
    /// `<fen> ;D1 20 ;D2 400`).
    ///
    /// # Errors
    ///
    /// A [`FenError`] for the position fields.
    pub fn parse(line: &str) -> Result<Epd, FenError> {
        let line = line.trim();
        let mut rest = line;
        let mut fields = Vec::with_capacity(6);
        while fields.len() < 6 {
            rest = rest.trim_start();
            let end = rest.find(|c: char| c.is_ascii_whitespace() || c == ';').unwrap_or(rest.len());
            let token = &rest[..end];
            let is_clock = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
            if token.is_empty() || (fields.len() >= 4 && !is_clock) {
                break;
            }
            fields.push(token);
            rest = &rest[end..];
        }
        let mut setup = Setup::from_fields(&fields)?;
        if let Some(h) = fields.get(4) {
            setup.halfmove_clock = fen::parse_number(FenField::Halfmove, h)?;
        }
        if let Some(f) = fields.get(5) {
            setup.fullmove_number = fen::parse_number(FenField::Fullmove, f)?;
        }
        let mut operations = Vec::new();
        for part in split_operations(rest) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let (opcode, operand) = part.split_once(char::is_whitespace).unwrap_or((part, ""));
            let operand = operand.trim();
            let operand = operand.strip_prefix('"').and_then(|o| o.strip_suffix('"')).unwrap_or(operand);
            match opcode {
                "hmvc" => setup.halfmove_clock = fen::parse_number(FenField::Halfmove, operand)?,
                "fmvn" => setup.fullmove_number = fen::parse_number(FenField::Fullmove, operand)?,
                _ => {}
            }
            operations.push(Operation { opcode: opcode.to_owned(), operand: operand.to_owned() });
        }
        Ok(Epd { setup, operations })
    }

    /// The operand of the first operation with `opcode`.
    pub fn operation(&self, opcode: &str) -> Option<&str> {
        self.operations.iter().find(|op| op.opcode == opcode).map(|op| op.operand.as_str())
    }

    /// The record as an EPD line: four fields, then `opcode operand;` for each operation.
    pub fn to_epd(&self) -> String {
        let mut out = self.setup.to_epd_fields();
        for op in &self.operations {
            out.push(' ');
            out.push_str(&op.opcode);
            if !op.operand.is_empty() {
                out.push(' ');
                if op.operand.contains(char::is_whitespace) || op.operand.contains(';') {
                    out.push('"');
                    out.push_str(&op.operand);
                    out.push('"');
                } else {
                    out.push_str(&op.operand);
                }
            }
            out.push(';');
        }
        out
    }
}

/// Splits operations on `;` outside double quotes.
fn split_operations(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_board::testing::check_bad_fen_fields;
    use tabula_board::KingProblem;

    #[test]
    fn bad_fens_name_their_field() {
        let cases = [
            ("", FenField::Placement),
            ("8/8/8/8/8/8/8 w - - 0 1", FenField::Placement),
            ("9/8/8/8/8/8/8/8 w - - 0 1", FenField::Placement),
            ("44/8/8/8/8/8/8/8 w - - 0 1", FenField::Placement),
            ("rnbqkbnrr/8/8/8/8/8/8/8 w - - 0 1", FenField::Placement),
            ("rnbqkbn/8/8/8/8/8/8/8 w - - 0 1", FenField::Placement),
            ("x7/8/8/8/8/8/8/8 w - - 0 1", FenField::Placement),
            ("8/8/8/8/8/8/8/8", FenField::SideToMove),
            ("8/8/8/8/8/8/8/8 W - - 0 1", FenField::SideToMove),
            ("8/8/8/8/8/8/8/8 w", FenField::Castling),
            ("8/8/8/8/8/8/8/8 w KK - 0 1", FenField::Castling),
            ("8/8/8/8/8/8/8/8 w Kx - 0 1", FenField::Castling),
            ("4k3/8/8/8/8/8/8/4K2R w HK - 0 1", FenField::Castling),
            ("4k3/8/8/8/8/8/8/4K3 w E - 0 1", FenField::Castling),
            ("8/8/8/8/8/8/8/8 w - e4 0 1", FenField::EnPassant),
            ("8/8/8/8/8/8/8/8 w - e 0 1", FenField::EnPassant),
            ("8/8/8/8/8/8/8/8 w - - x 1", FenField::Halfmove),
            ("8/8/8/8/8/8/8/8 w - - -1 1", FenField::Halfmove),
            ("8/8/8/8/8/8/8/8 w - - 0 99999999999", FenField::Fullmove),
        ];
        check_bad_fen_fields(Setup::from_fen, &cases);
        assert_eq!(Setup::from_fen("8/8/8/8/8/8/8/8 w - - 0 1 x"), Err(FenError::TooManyFields(7)));
    }

    #[test]
    fn illegal_positions_are_typed() {
        let cases = [
            ("8/8/8/8/8/8/8/4K3 w - - 0 1", PositionError::Kings(KingProblem::Missing(Color::Black))),
            ("k7/8/8/8/8/8/8/4KK2 w - - 0 1", PositionError::Kings(KingProblem::TooMany(Color::White))),
            ("k6P/8/8/8/8/8/8/4K3 w - - 0 1", PositionError::PawnOnBackRank(Square::H8)),
            ("k7/8/8/8/8/8/8/R3K3 w - - 0 1", PositionError::OppositeCheck),
            (
                "k7/8/8/8/8/8/8/4K3 w K - 0 1",
                PositionError::InvalidCastlingRights(Color::White, CastlingSide::KingSide),
            ),
            ("k7/8/8/8/8/8/8/4K3 w - e6 0 1", PositionError::InvalidEnPassant("e6".parse().unwrap())),
            ("4k3/8/8/8/8/2q1r1q1/8/4K3 w - - 0 1", PositionError::TooManyCheckers(3)),
        ];
        for (fen, error) in cases {
            assert_eq!(Position::from_fen(fen), Err(FenError::Position(error)), "{fen}");
        }
    }

    #[test]
    fn clocks_are_optional_and_ep_is_normalised() {
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3").unwrap();
        assert_eq!(pos.to_fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        assert_eq!(Position::from_fen(fen).unwrap().to_fen(), fen);
    }

    #[test]
    fn epd_operations() {
        let epd = Epd::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400").unwrap();
        assert_eq!(epd.operation("D2"), Some("400"));
        assert_eq!(epd.setup, Setup::startpos());
        let line = "4k3/8/8/8/8/8/8/4K2R w K - bm O-O; id \"a; b\"; hmvc 7;";
        let epd = Epd::parse(line).unwrap();
        assert_eq!(epd.operation("id"), Some("a; b"));
        assert_eq!(epd.setup.halfmove_clock, 7);
        assert_eq!(epd.to_epd(), "4k3/8/8/8/8/8/8/4K2R w K - bm O-O; id \"a; b\"; hmvc 7;");
        assert!(Epd::parse("4k3/8/8/8/8/8/8/4K2R w").is_err());
    }
}
