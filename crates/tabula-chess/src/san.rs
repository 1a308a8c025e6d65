//! Standard Algebraic Notation: `Nf3`, `exd5`, `O-O`, `e8=Q+`, `Rad1`, `Qh4#`.
//!
//! Writing disambiguates by file, then by rank, then by both, as FIDE's rules ask, and appends `+` for check and
//! `#` for mate. Reading is forgiving: it ignores `+`, `#`, `!` and `?` suffixes, accepts `0-0` for `O-O`, a
//! promotion with or without `=`, and redundant disambiguation; it rejects ambiguous and illegal moves.
//!
//! # Examples
//!
//! ```
//! use tabula_chess::Position;
//!
//! let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
//! let mv = pos.parse_san("O-O").unwrap();
//! assert_eq!(mv.to_string(), "e1g1");
//! assert_eq!(pos.san(mv), "O-O");
//! assert_eq!(pos.san(pos.parse_uci("a1a8").unwrap()), "Rxa8+");
//!
//! let pos = Position::from_fen("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1").unwrap();
//! assert!(pos.parse_san("Rd1").is_err()); // either rook can go there
//! assert_eq!(pos.parse_san("Rad1").unwrap().to_string(), "a1d1");
//! ```

use crate::castling::CastlingSide;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{File, Rank, Role, Square};

/// A SAN move that cannot be read in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// The text is not SAN.
    #[error("invalid SAN {san:?}: {reason}")]
    Syntax {
        /// The text read.
        san: String,
        /// What was expected.
        reason: &'static str,
    },
    /// No legal move fits.
    #[error("no legal move matches {0:?}")]
    Illegal(String),
    /// Several legal moves fit.
    #[error("{0:?} is ambiguous")]
    Ambiguous(String),
}

impl Position {
    /// The move in SAN, with `+` or `#` when it checks or mates.
    ///
    /// # Panics
    ///
    /// May panic or give nonsense if `mv` is not legal here.
    pub fn san(&self, mv: Move) -> String {
        let mut san = self.san_without_suffix(mv);
        let mut after = self.clone();
        after.play_unchecked(mv);
        if after.is_check() {
            san.push(if after.has_legal_move() { '+' } else { '#' });
        }
        san
    }

    fn san_without_suffix(&self, mv: Move) -> String {
        if let Some(side) = mv.castling_side() {
            return if side == CastlingSide::KingSide { "O-O" } else { "O-O-O" }.to_owned();
        }
        let role = self.moved_piece(mv).expect("a piece on the origin square").role;
        let capture = self.is_capture(mv);
        let mut san = String::with_capacity(8);
        if role == Role::Pawn {
            if capture {
                san.push(mv.from().file().to_char());
            }
        } else {
            san.push(role.to_char().to_ascii_uppercase());
            // Other pieces of the same role that may also move to the destination.
            let mut rivals = MoveList::new();
            self.legal_moves_into(&mut rivals);
            let rivals: Vec<Square> = rivals
                .iter()
                .filter(|o| o.to() == mv.to() && o.from() != mv.from())
                .filter(|o| self.moved_piece(**o).map(|p| p.role) == Some(role))
                .map(|o| o.from())
                .collect();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|s| s.file() == mv.from().file());
                let same_rank = rivals.iter().any(|s| s.rank() == mv.from().rank());
                if !same_file {
                    san.push(mv.from().file().to_char());
                } else if !same_rank {
                    san.push(mv.from().rank().to_char());
                } else {
                    san.push_str(&mv.from().to_string());
                }
            }
        }
        if capture {
            san.push('x');
        }
        san.push_str(&mv.to().to_string());
        if let Some(promotion) = mv.promotion() {
            san.push('=');
            san.push(promotion.to_char().to_ascii_uppercase());
        }
        san
    }

    /// Reads a SAN move and finds the one legal move it names.
    ///
    /// # Errors
    ///
    /// [`SanError::Syntax`] if the text is not SAN, [`SanError::Illegal`] if no legal move fits,
    /// [`SanError::Ambiguous`] if several do.
    pub fn parse_san(&self, san: &str) -> Result<Move, SanError> {
        let syntax = |reason| SanError::Syntax { san: san.to_owned(), reason };
        let text = san.trim_end_matches(['+', '#', '!', '?']);
        if !text.is_ascii() || text.is_empty() {
            return Err(syntax("expected a non-empty ASCII move"));
        }
        let castle = match text {
            "O-O" | "0-0" => Some(CastlingSide::KingSide),
            "O-O-O" | "0-0-0" => Some(CastlingSide::QueenSide),
            _ => None,
        };
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        if let Some(side) = castle {
            return moves
                .iter()
                .copied()
                .find(|&mv| mv.castling_side() == Some(side))
                .ok_or_else(|| SanError::Illegal(san.to_owned()));
        }

        let mut rest = text.as_bytes();
        let role = match rest[0] {
            b'N' | b'B' | b'R' | b'Q' | b'K' => {
                let role = Role::from_char(rest[0] as char).expect("a piece letter");
                rest = &rest[1..];
                role
            }
            _ => Role::Pawn,
        };
        let mut promotion = None;
        if let Some((&last, head)) = rest.split_last() {
            if let Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) = Role::from_char(last as char) {
                if last.is_ascii_uppercase() {
                    promotion = Some(r);
                    rest = head.strip_suffix(b"=").unwrap_or(head);
                }
            }
        }
        if rest.len() < 2 {
            return Err(syntax("expected a destination square"));
        }
        let (head, dest) = rest.split_at(rest.len() - 2);
        let to: Square = std::str::from_utf8(dest)
            .ok()
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| syntax("expected a destination square such as e4"))?;
        let head = head.strip_suffix(b"x").unwrap_or(head);
        let (mut from_file, mut from_rank) = (None, None);
        for &c in head {
            if let (Some(f), None, None) = (File::from_char(c as char), from_file, from_rank) {
                from_file = Some(f);
            } else if let (Some(r), None) = (Rank::from_char(c as char), from_rank) {
                from_rank = Some(r);
            } else {
                return Err(syntax("expected an optional origin file and rank, then an optional x"));
            }
        }

        let mut found = None;
        for &mv in moves.iter() {
            let fits = mv.to() == to
                && mv.promotion() == promotion
                && self.moved_piece(mv).map(|p| p.role) == Some(role)
                && from_file.map_or(true, |f| mv.from().file() == f)
                && from_rank.map_or(true, |r| mv.from().rank() == r)
                && !mv.is_castling();
            if fits {
                if found.is_some() {
                    return Err(SanError::Ambiguous(san.to_owned()));
                }
                found = Some(mv);
            }
        }
        found.ok_or_else(|| SanError::Illegal(san.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_standard_san() {
        let cases = [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3", "Nf3"),
            ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5", "exd5"),
            ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6", "exf6"),
            ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b8=Q+"),
            ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", "b8=N"),
            ("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4", "Qh4#"),
            ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", "O-O-O"),
            ("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1d1", "Rad1"),
            ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "a1d1", "Rd1"),
            ("4k3/8/8/N7/8/8/8/N3K3 w - - 0 1", "a1b3", "N1b3"),
            ("6k1/8/8/8/Q2Q4/8/8/Q3K3 w - - 0 1", "a4d1", "Qa4d1"),
            ("4k3/8/8/4N3/8/8/8/4K1N1 w - - 0 1", "g1f3", "Ngf3"),
        ];
        for (fen, uci, san) in cases {
            let pos = Position::from_fen(fen).unwrap();
            let mv = pos.parse_uci(uci).unwrap();
            assert_eq!(pos.san(mv), san, "{fen} {uci}");
            assert_eq!(pos.parse_san(san), Ok(mv), "{fen} {san}");
        }
    }

    #[test]
    fn reads_loose_san_and_rejects_bad() {
        let pos = Position::startpos();
        assert_eq!(pos.parse_san("e4!?").unwrap().to_string(), "e2e4");
        assert_eq!(pos.parse_san("Ng1f3").unwrap().to_string(), "g1f3");
        assert!(matches!(pos.parse_san("e5"), Err(SanError::Illegal(_))));
        assert!(matches!(pos.parse_san("O-O"), Err(SanError::Illegal(_))));
        for bad in ["", "+", "Z4", "Nf", "Nf9", "Nxxf3", "e4e4e4", "é4"] {
            assert!(matches!(pos.parse_san(bad), Err(SanError::Syntax { .. })), "{bad}");
        }
        let pos = Position::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(pos.parse_san("b8Q").unwrap().to_string(), "b7b8q");
        assert!(matches!(pos.parse_san("b8"), Err(SanError::Illegal(_))));
    }
}
