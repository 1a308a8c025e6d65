//! [`Placement`]: where the pieces stand, as a square-indexed mailbox and bitboards by colour and by role, with the
//! Zobrist key of the placement kept up to date by the only two methods that change it ([`Placement::put`] and
//! [`Placement::remove`]).
//!
//! Chess's and xiangqi's boards are each a placement of their own pieces, with the attack queries of their rules
//! on top (xiangqi's also keeps the occupancy of each rank and file for its line tables). A game makes its piece
//! type a [`Man`]: the [`pieces!`](macro@crate::pieces) macro gives the colour and role half ([`ColoredPiece`]),
//! and the game says on which squares it stands and what each (piece, square) pair's key is.
//!
//! # Examples
//!
//! ```
//! use tabula::Key;
//! use tabula_board::{coordinate, square, Man, Placement, Square};
//!
//! coordinate!(
//!     /// A column.
//!     Column, "file", 3, [A, B, C], b'a'
//! );
//! coordinate!(
//!     /// A row.
//!     Row, "rank", 3, [R1, R2, R3], b'1'
//! );
//! square!(
//!     /// A cell of a 3×3 board.
//!     Cell, Column, Row, u64, fold_case: false, "expected a file a-c then a rank 1-3"
//! );
//! tabula_board::pieces! {
//!     /// A side.
//!     Color { Light = 'w', Dark = 'b' }
//!     /// What a piece is.
//!     Role { Man = 'm', King = 'k' }
//!     /// A piece.
//!     Piece
//! }
//!
//! impl Man for Piece {
//!     type Square = Cell;
//!     const KING: Role = Role::King;
//!     fn key(self, sq: Cell) -> Key {
//!         Key(0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(1 + (sq.index() * Piece::COUNT + self.index()) as u64))
//!     }
//! }
//!
//! let mut board = Placement::<Piece, { Cell::COUNT }, { Role::COUNT }>::empty();
//! let king = Piece::new(Color::Light, Role::King);
//! board.put(Cell::from_coords(Column::B, Row::R1), king);
//! assert_eq!(board.king_of(Color::Light), Some(Cell::from_coords(Column::B, Row::R1)));
//! assert_eq!(board.kings(Color::Dark), 0);
//! assert_eq!(board.key(), board.key_from_scratch());
//! assert_eq!(board.remove(Cell::from_coords(Column::B, Row::R1)), Some(king));
//! assert_eq!(board.key(), Key::ZERO);
//! ```

use crate::bitboard::Bitboard;
use crate::coords::Square;
use std::fmt;
use std::hash::Hash;
use tabula::Key;

/// A piece as a colour and a role, each numbered from 0: what the [`pieces!`](macro@crate::pieces) macro declares.
pub trait ColoredPiece: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static {
    /// The sides.
    type Color: Copy + Eq + fmt::Debug;
    /// The kinds of piece.
    type Role: Copy + Eq + fmt::Debug;
    /// Every side, in order.
    const COLORS: [Self::Color; 2];
    /// The number of roles.
    const ROLES: usize;
    /// Every piece: the first side's roles in order, then the second's.
    const ALL: &'static [Self];

    /// The piece of `color` and `role`.
    fn of(color: Self::Color, role: Self::Role) -> Self;
    /// Whose piece it is.
    fn color(self) -> Self::Color;
    /// What it is.
    fn role(self) -> Self::Role;
    /// The number of `color`: 0 or 1.
    fn color_index(color: Self::Color) -> usize;
    /// The number of `role`, from 0.
    fn role_index(role: Self::Role) -> usize;
}

/// A piece a [`Placement`] holds: which squares it stands on, which role is the king, and its Zobrist keys.
pub trait Man: ColoredPiece {
    /// The board's squares.
    type Square: Square;
    /// The role of which each side has exactly one in a legal position.
    const KING: Self::Role;

    /// The key XORed into the placement's key while this piece stands on `sq`.
    fn key(self, sq: Self::Square) -> Key;
}

/// A placement of pieces of type `M`, legal or not, on `SQUARES` squares with `ROLES` roles (the square's and
/// the role's counts: a stable array length cannot be read from the traits).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Placement<M: Man, const SQUARES: usize, const ROLES: usize> {
    mailbox: [Option<M>; SQUARES],
    by_color: [Bitboard<M::Square>; 2],
    by_role: [Bitboard<M::Square>; ROLES],
    occupied: Bitboard<M::Square>,
    key: Key,
}

impl<M: Man, const SQUARES: usize, const ROLES: usize> Placement<M, SQUARES, ROLES> {
    /// A placement without pieces.
    pub const fn empty() -> Self {
        Placement {
            mailbox: [None; SQUARES],
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; ROLES],
            occupied: Bitboard::EMPTY,
            key: Key::ZERO,
        }
    }

    /// Places `piece` on the empty square `sq`, updating mailbox, bitboards and key together.
    ///
    /// # Panics
    ///
    /// In debug builds, if `sq` is occupied.
    #[inline(always)]
    pub fn put(&mut self, sq: M::Square, piece: M) {
        debug_assert!(self.mailbox[sq.index()].is_none(), "put on the occupied {sq}");
        self.mailbox[sq.index()] = Some(piece);
        self.toggle(sq, piece);
    }

    /// Takes the piece off `sq` and returns it (`None`, changing nothing, if the square is empty).
    #[inline(always)]
    pub fn remove(&mut self, sq: M::Square) -> Option<M> {
        let piece = self.mailbox[sq.index()].take()?;
        self.toggle(sq, piece);
        Some(piece)
    }

    #[inline(always)]
    fn toggle(&mut self, sq: M::Square, piece: M) {
        let bit = Bitboard::from_square(sq);
        self.by_color[M::color_index(piece.color())] ^= bit;
        self.by_role[M::role_index(piece.role())] ^= bit;
        self.occupied ^= bit;
        self.key ^= piece.key(sq);
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: M::Square) -> Option<M> {
        self.mailbox[sq.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard<M::Square> {
        self.occupied
    }

    /// The squares of `color`'s pieces.
    #[inline(always)]
    pub fn by_color(&self, color: M::Color) -> Bitboard<M::Square> {
        self.by_color[M::color_index(color)]
    }

    /// The squares of pieces of `role`, both colours.
    #[inline(always)]
    pub fn by_role(&self, role: M::Role) -> Bitboard<M::Square> {
        self.by_role[M::role_index(role)]
    }

    /// The squares of `piece`.
    #[inline(always)]
    pub fn by_piece(&self, piece: M) -> Bitboard<M::Square> {
        self.by_color(piece.color()) & self.by_role(piece.role())
    }

    /// The square of `color`'s king (the lowest one if there are several), if any.
    #[inline(always)]
    pub fn king_of(&self, color: M::Color) -> Option<M::Square> {
        self.by_piece(M::of(color, M::KING)).first()
    }

    /// How many kings `color` has.
    pub fn kings(&self, color: M::Color) -> u32 {
        self.by_piece(M::of(color, M::KING)).count()
    }

    /// The Zobrist key of the placement alone (no side to move or other state).
    #[inline(always)]
    pub fn key(&self) -> Key {
        self.key
    }

    /// The key recomputed from the mailbox, to check the incremental [`key`](Placement::key).
    pub fn key_from_scratch(&self) -> Key {
        self.occupied.into_iter().filter_map(|sq| Some(self.piece_at(sq)?.key(sq))).fold(Key::ZERO, |a, b| a ^ b)
    }

    /// The first problem with the kings, if any: a side without a king, or with more than one.
    pub fn king_problem(&self) -> Option<KingProblem<M::Color>> {
        M::COLORS.into_iter().find_map(|color| match self.kings(color) {
            0 => Some(KingProblem::Missing(color)),
            1 => None,
            _ => Some(KingProblem::TooMany(color)),
        })
    }
}

impl<M: Man, const SQUARES: usize, const ROLES: usize> Default for Placement<M, SQUARES, ROLES> {
    fn default() -> Self {
        Placement::empty()
    }
}

/// The pieces one move took off a placement and put on it (each at most two), for evaluations updated
/// incrementally: a normal move takes its piece off the origin and puts it (or its promotion) on the
/// destination, a capture also takes the captured piece, castling moves both king and rook.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacementChange<M: Man> {
    /// The pieces taken off, with their squares; the first `removed_len` entries count.
    pub removed: [(M, M::Square); 2],
    /// How many of `removed` count.
    pub removed_len: usize,
    /// The pieces put on, with their squares; the first `added_len` entries count.
    pub added: [(M, M::Square); 2],
    /// How many of `added` count.
    pub added_len: usize,
}

impl<M: Man> Default for PlacementChange<M> {
    /// No change.
    fn default() -> PlacementChange<M> {
        // A filler the lengths leave out: the first side's king on the first square.
        let none = (M::of(M::COLORS[0], M::KING), M::Square::from_index_unchecked(0));
        PlacementChange { removed: [none; 2], removed_len: 0, added: [none; 2], added_len: 0 }
    }
}

impl<M: Man> PlacementChange<M> {
    /// Records `piece` taken off `sq`.
    ///
    /// # Panics
    ///
    /// If two pieces were taken off already.
    pub fn remove(&mut self, piece: M, sq: M::Square) {
        self.removed[self.removed_len] = (piece, sq);
        self.removed_len += 1;
    }

    /// Records `piece` put on `sq`.
    ///
    /// # Panics
    ///
    /// If two pieces were put on already.
    pub fn add(&mut self, piece: M, sq: M::Square) {
        self.added[self.added_len] = (piece, sq);
        self.added_len += 1;
    }

    /// The pieces taken off.
    pub fn removed(&self) -> &[(M, M::Square)] {
        &self.removed[..self.removed_len]
    }

    /// The pieces put on.
    pub fn added(&self) -> &[(M, M::Square)] {
        &self.added[..self.added_len]
    }
}

/// What is wrong with a placement's kings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KingProblem<C: fmt::Debug> {
    /// The side has no king.
    #[error("{0:?} has no king")]
    Missing(C),
    /// The side has more than one.
    #[error("{0:?} has more than one king")]
    TooMany(C),
}
