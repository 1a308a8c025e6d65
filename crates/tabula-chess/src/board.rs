//! [`Board`]: where the pieces stand, as bitboards by role and by colour plus a square-indexed mailbox, with the
//! Zobrist key of the placement kept up to date by the only two methods that change it.
//!
//! # Examples
//!
//! ```
//! use tabula_chess::{Board, Color, Piece, Role, Square};
//!
//! let mut board = Board::empty();
//! let king = Piece::new(Color::White, Role::King);
//! board.put(Square::E1, king);
//! assert_eq!(board.piece_at(Square::E1), Some(king));
//! assert_eq!(board.king_of(Color::White), Some(Square::E1));
//! let key = board.key();
//! board.remove(Square::E1);
//! board.put(Square::E1, king);
//! assert_eq!(board.key(), key); // the same placement, the same key
//! ```

use crate::attacks;
use crate::bitboard::{Bitboard, PawnSets};
use crate::types::{Color, Piece, Role, Square};
use crate::zobrist;
use tabula::Key;

/// A placement of pieces, legal or not.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; Role::COUNT],
    by_color: [Bitboard; Color::COUNT],
    occupied: Bitboard,
    mailbox: [Option<Piece>; Square::COUNT],
    key: Key,
}

impl Board {
    /// A board without pieces.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; Role::COUNT],
            by_color: [Bitboard::EMPTY; Color::COUNT],
            occupied: Bitboard::EMPTY,
            mailbox: [None; Square::COUNT],
            key: Key::ZERO,
        }
    }

    /// The placement of the standard starting position.
    pub fn startpos() -> Board {
        Board::with_back_rank(&[
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ])
    }

    /// A starting placement: `back` on the first rank from the a-file, mirrored on the eighth, pawns in front.
    pub fn with_back_rank(back: &[Role; 8]) -> Board {
        let mut board = Board::empty();
        for (file, &role) in back.iter().enumerate() {
            let file = crate::File::ALL[file];
            for (color, pawn_rank, piece_rank) in [
                (Color::White, crate::Rank::Second, crate::Rank::First),
                (Color::Black, crate::Rank::Seventh, crate::Rank::Eighth),
            ] {
                board.put(Square::from_coords(file, piece_rank), Piece::new(color, role));
                board.put(Square::from_coords(file, pawn_rank), Piece::new(color, Role::Pawn));
            }
        }
        board
    }

    /// Places `piece` on the empty square `sq`, updating bitboards, mailbox and key together.
    ///
    /// # Panics
    ///
    /// In debug builds, if `sq` is occupied.
    #[inline(always)]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.mailbox[sq.index()].is_none(), "{sq} is occupied");
        let bit = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] ^= bit;
        self.by_color[piece.color.index()] ^= bit;
        self.occupied ^= bit;
        self.mailbox[sq.index()] = Some(piece);
        self.key ^= zobrist::piece(piece, sq);
    }

    /// Takes the piece off `sq` and returns it (`None` if the square was empty).
    #[inline(always)]
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.mailbox[sq.index()].take()?;
        let bit = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] ^= bit;
        self.by_color[piece.color.index()] ^= bit;
        self.occupied ^= bit;
        self.key ^= zobrist::piece(piece, sq);
        Some(piece)
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The squares of `color`'s pieces.
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of pieces of `role`, both colours.
    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of `piece`.
    #[inline(always)]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role[piece.role.index()] & self.by_color[piece.color.index()]
    }

    /// Whether `color` has a piece other than pawns and its king.
    #[inline(always)]
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        (self.by_color(color) & !(self.by_role(Role::Pawn) | self.by_role(Role::King))).any()
    }

    /// Bishops and queens of both colours.
    #[inline(always)]
    pub fn diagonal_sliders(&self) -> Bitboard {
        self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()]
    }

    /// Rooks and queens of both colours.
    #[inline(always)]
    pub fn orthogonal_sliders(&self) -> Bitboard {
        self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()]
    }

    /// The square of `color`'s king (the lowest one if there are several), if any.
    #[inline(always)]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.by_role[Role::King.index()] & self.by_color[color.index()]).first()
    }

    /// The pieces of either colour that attack `sq`, with `occupied` as the blockers.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        (attacks::rook(sq, occupied) & self.orthogonal_sliders())
            | (attacks::bishop(sq, occupied) & self.diagonal_sliders())
            | (attacks::knight(sq) & self.by_role(Role::Knight))
            | (attacks::king(sq) & self.by_role(Role::King))
            | (attacks::pawn(Color::White, sq) & self.by_piece(Piece::new(Color::Black, Role::Pawn)))
            | (attacks::pawn(Color::Black, sq) & self.by_piece(Piece::new(Color::White, Role::Pawn)))
    }

    /// The squares `color`'s pieces attack, with `occupied` as the blockers: `sq` is in it exactly when
    /// `attackers_to(sq, occupied)` holds one of `color`'s pieces. Cheaper than asking square by square when
    /// many squares are asked about.
    pub fn attacks_by(&self, color: Color, occupied: Bitboard) -> Bitboard {
        let ours = self.by_color(color);
        let mut attacked = self.by_piece(Piece::new(color, Role::Pawn)).pawn_attacks(color);
        for sq in self.by_role(Role::Knight) & ours {
            attacked |= attacks::knight(sq);
        }
        for sq in self.diagonal_sliders() & ours {
            attacked |= attacks::bishop(sq, occupied);
        }
        for sq in self.orthogonal_sliders() & ours {
            attacked |= attacks::rook(sq, occupied);
        }
        for sq in self.by_role(Role::King) & ours {
            attacked |= attacks::king(sq);
        }
        attacked
    }

    /// The Zobrist key of the placement alone (no side to move, castling or en passant).
    #[inline(always)]
    pub fn key(&self) -> Key {
        self.key
    }

    /// The placement key recomputed from scratch, for checking the incremental one.
    pub fn key_from_scratch(&self) -> Key {
        Square::ALL.iter().filter_map(|&sq| Some(zobrist::piece(self.piece_at(sq)?, sq))).fold(Key::ZERO, |a, b| a ^ b)
    }

    /// The placement mirrored top to bottom with colours swapped (for symmetry tests).
    pub fn mirrored(&self) -> Board {
        let mut board = Board::empty();
        for sq in self.occupied {
            let piece = self.mailbox[sq.index()].expect("occupied");
            board.put(sq.flip_vertical(), Piece::new(piece.color.flip(), piece.role));
        }
        board
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in crate::Rank::ALL.iter().rev() {
            for file in crate::File::ALL {
                let c = self.piece_at(Square::from_coords(file, *rank)).map_or('.', Piece::to_char);
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
