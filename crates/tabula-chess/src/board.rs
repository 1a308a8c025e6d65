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
use std::ops::{Deref, DerefMut};
use tabula_board::Placement;

/// A placement of chess pieces, legal or not: the board layer's [`Placement`] (mailbox, bitboards by colour and
/// role, and the key, all through `Deref`) with chess's starting placements and attack queries on top.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Board(Placement<Piece, { Square::COUNT }, { Role::COUNT }>);

impl Deref for Board {
    type Target = Placement<Piece, { Square::COUNT }, { Role::COUNT }>;

    #[inline(always)]
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl DerefMut for Board {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl Board {
    /// A board without pieces.
    pub const fn empty() -> Board {
        Board(Placement::empty())
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

    /// Whether `color` has a piece other than pawns and its king.
    #[inline(always)]
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        (self.by_color(color) & !(self.by_role(Role::Pawn) | self.by_role(Role::King))).any()
    }

    /// Bishops and queens of both colours.
    #[inline(always)]
    pub fn diagonal_sliders(&self) -> Bitboard {
        self.by_role(Role::Bishop) | self.by_role(Role::Queen)
    }

    /// Rooks and queens of both colours.
    #[inline(always)]
    pub fn orthogonal_sliders(&self) -> Bitboard {
        self.by_role(Role::Rook) | self.by_role(Role::Queen)
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

    /// The placement mirrored top to bottom with colours swapped (for symmetry tests).
    pub fn mirrored(&self) -> Board {
        let mut board = Board::empty();
        for sq in self.occupied() {
            let piece = self.piece_at(sq).expect("occupied");
            board.put(sq.flip_vertical(), Piece::new(piece.color.flip(), piece.role));
        }
        board
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
