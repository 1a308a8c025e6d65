//! Polyglot opening books: [`Book`] reads a `.bin` file, lists a position's moves with their weights and picks
//! one by weight.
//!
//! A book is a sequence of 16-byte big-endian entries sorted by key: the position's Polyglot key (8 bytes), the
//! move (2 bytes: destination file and rank, origin file and rank, promotion), a weight (2 bytes) and a learn
//! field (4 bytes). Castling is stored as the king taking its own rook (`e1h1`), as [`Move`] keeps it.
//!
//! # Examples
//!
//! ```
//! use tabula_chess::book::{Book, BookEntry};
//! use tabula_chess::Position;
//!
//! let pos = Position::startpos();
//! let e4 = pos.parse_uci("e2e4").unwrap();
//! let d4 = pos.parse_uci("d2d4").unwrap();
//! let mut bytes = Vec::new();
//! for (mv, weight) in [(e4, 3), (d4, 1)] {
//!     let entry = BookEntry { key: pos.key().as_u64(), raw_move: BookEntry::encode_move(mv), weight, learn: 0 };
//!     bytes.extend_from_slice(&entry.to_bytes());
//! }
//! let book = Book::from_bytes(&bytes).unwrap();
//! let moves = book.moves(&pos);
//! assert_eq!(moves.len(), 2);
//! assert_eq!((moves[0].mv, moves[0].weight), (e4, 3));
//! // Picking by weight: three chances in four for e4.
//! assert_eq!(book.pick(&pos, 0), Some(e4));
//! assert_eq!(book.pick(&pos, 3), Some(d4));
//! ```

use crate::moves::Move;
use crate::position::Position;
use crate::types::{File, Rank, Role, Square};
use std::path::Path;

/// Why a book could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be read.
    #[error("cannot read book {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The size is not a multiple of 16 bytes.
    #[error("a Polyglot book is a sequence of 16-byte entries, but this one has {0} bytes")]
    Size(usize),
    /// The file was read but is not a book.
    #[error("cannot read book {path}: {error}")]
    Content {
        /// The file.
        path: String,
        /// What is wrong with its bytes.
        error: Box<BookError>,
    },
}

/// One book entry as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The Polyglot key of the position.
    pub key: u64,
    /// The move in Polyglot's encoding (see [`BookEntry::encode_move`]).
    pub raw_move: u16,
    /// How often (or how strongly) the move is recommended.
    pub weight: u16,
    /// Learning data, unused here.
    pub learn: u32,
}

impl BookEntry {
    /// Reads an entry from its 16 big-endian bytes.
    pub fn from_bytes(bytes: &[u8; 16]) -> BookEntry {
        let be = |range: std::ops::Range<usize>| bytes[range].iter().fold(0u64, |acc, &b| acc << 8 | b as u64);
        BookEntry { key: be(0..8), raw_move: be(8..10) as u16, weight: be(10..12) as u16, learn: be(12..16) as u32 }
    }

    /// The 16 big-endian bytes of the entry.
    pub fn to_bytes(&self) -> [u8; 16] {
        let mut out = [0u8; 16];
        out[0..8].copy_from_slice(&self.key.to_be_bytes());
        out[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        out[10..12].copy_from_slice(&self.weight.to_be_bytes());
        out[12..16].copy_from_slice(&self.learn.to_be_bytes());
        out
    }

    /// Polyglot's encoding of `mv`: destination file in bits 0–2, rank in 3–5, origin file in 6–8, rank in
    /// 9–11, promotion (1 knight to 4 queen) in 12–14; castling as the king taking its rook.
    pub fn encode_move(mv: Move) -> u16 {
        let (from, to) = (mv.from().index() as u16, mv.to().index() as u16);
        let promotion = mv.promotion().map_or(0, |r| r.index() as u16);
        (to & 7) | (to >> 3) << 3 | (from & 7) << 6 | (from >> 3) << 9 | promotion << 12
    }

    /// Decodes [`raw_move`](BookEntry::raw_move) for `pos`: the legal move it stands for, if any.
    pub fn decode_move(&self, pos: &Position) -> Option<Move> {
        let m = self.raw_move as u32;
        let square = |file: u32, rank: u32| Some(Square::from_coords(File::new(file)?, Rank::new(rank)?));
        let (from, to) = (square((m >> 6) & 7, (m >> 9) & 7)?, square(m & 7, (m >> 3) & 7)?);
        let board = pos.board();
        let king = board.piece_at(from).filter(|p| p.role == Role::King);
        let own_rook =
            board.piece_at(to).is_some_and(|p| p.role == Role::Rook && Some(p.color) == king.map(|k| k.color));
        let mv = match (m >> 12) & 7 {
            0 if own_rook => Move::castling(from, to),
            0 => Move::new(from, to),
            p => {
                let role = Role::from_index(p as usize).filter(|r| !matches!(r, Role::Pawn | Role::King))?;
                Move::with_promotion(from, to, role)
            }
        };
        pos.is_legal(mv).then_some(mv)
    }
}

/// A move found in a book for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its weight.
    pub weight: u16,
    /// The learn field.
    pub learn: u32,
}

/// A Polyglot opening book held in memory.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: Vec<BookEntry>,
}

impl Book {
    /// Reads the book at `path`.
    ///
    /// # Errors
    ///
    /// [`BookError::Io`] if the file cannot be read, [`BookError::Content`] if it is not made of 16-byte
    /// entries; both name the file.
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| BookError::Io { path: path.display().to_string(), source })?;
        Book::from_bytes(&bytes)
            .map_err(|error| BookError::Content { path: path.display().to_string(), error: Box::new(error) })
    }

    /// Reads a book from its bytes. Entries out of order are sorted.
    ///
    /// # Errors
    ///
    /// [`BookError::Size`] if the length is not a multiple of 16.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() % 16 != 0 {
            return Err(BookError::Size(bytes.len()));
        }
        let mut entries: Vec<BookEntry> =
            bytes.chunks_exact(16).map(|c| BookEntry::from_bytes(c.try_into().expect("16 bytes"))).collect();
        if !entries.windows(2).all(|w| w[0].key <= w[1].key) {
            entries.sort_by_key(|e| e.key);
        }
        Ok(Book { entries })
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The legal moves the book gives for `pos`, heaviest first (ties in book order).
    pub fn moves(&self, pos: &Position) -> Vec<BookMove> {
        let key = pos.key().as_u64();
        let start = self.entries.partition_point(|e| e.key < key);
        let mut moves: Vec<BookMove> = self.entries[start..]
            .iter()
            .take_while(|e| e.key == key)
            .filter_map(|e| e.decode_move(pos).map(|mv| BookMove { mv, weight: e.weight, learn: e.learn }))
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.weight));
        moves
    }

    /// A move chosen with probability proportional to its weight, `random` being any number (taken modulo the
    /// total weight). If every weight is zero, the moves are equally likely. `None` if the book has no move here.
    pub fn pick(&self, pos: &Position, random: u64) -> Option<Move> {
        let moves = self.moves(pos);
        let total: u64 = moves.iter().map(|m| m.weight as u64).sum();
        if total == 0 {
            return (!moves.is_empty()).then(|| moves[(random % moves.len() as u64) as usize].mv);
        }
        let mut r = random % total;
        for m in &moves {
            if r < m.weight as u64 {
                return Some(m.mv);
            }
            r -= m.weight as u64;
        }
        None
    }

    /// One line per move, `e2e4 weight 50 (62.5%)`, heaviest first: what `tabula book` prints.
    pub fn describe(&self, pos: &Position) -> Vec<String> {
        let moves = self.moves(pos);
        let total: u64 = moves.iter().map(|m| m.weight as u64).sum::<u64>().max(1);
        moves
            .iter()
            .map(|m| format!("{} weight {} ({:.1}%)", m.mv, m.weight, 100.0 * m.weight as f64 / total as f64))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_is_stored_as_king_takes_rook() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        for (uci, stored) in [("e1g1", "e1h1"), ("e1c1", "e1a1")] {
            let mv = pos.parse_uci(uci).unwrap();
            let raw = BookEntry::encode_move(mv);
            let entry = BookEntry { key: pos.key().as_u64(), raw_move: raw, weight: 1, learn: 0 };
            let expected = Move::from_uci(stored).unwrap();
            assert_eq!(raw, BookEntry::encode_move(expected));
            assert_eq!(entry.decode_move(&pos), Some(mv));
            assert_eq!(BookEntry::from_bytes(&entry.to_bytes()), entry);
        }
    }

    #[test]
    fn bad_sizes_and_unknown_positions() {
        assert!(matches!(Book::from_bytes(&[0; 17]), Err(BookError::Size(17))));
        assert!(Book::open("/nonexistent/book.bin").is_err());
        // A file of the wrong size is named with what is wrong with it.
        let file = std::env::temp_dir().join(format!("tabula-book-size-{}.bin", std::process::id()));
        std::fs::write(&file, [0; 17]).unwrap();
        let error = Book::open(&file).unwrap_err();
        std::fs::remove_file(&file).unwrap();
        assert!(matches!(&error, BookError::Content { error, .. } if matches!(**error, BookError::Size(17))));
        let message = error.to_string();
        assert!(message.contains(&file.display().to_string()) && message.contains("17 bytes"), "{message}");
        let book = Book::from_bytes(&[]).unwrap();
        assert!(book.is_empty());
        assert_eq!(book.pick(&Position::startpos(), 7), None);
        // An entry whose move is illegal in the position is ignored.
        let entry = BookEntry { key: Position::startpos().key().as_u64(), raw_move: 0x0fff, weight: 5, learn: 0 };
        let book = Book::from_bytes(&entry.to_bytes()).unwrap();
        assert!(book.moves(&Position::startpos()).is_empty());
    }
}
