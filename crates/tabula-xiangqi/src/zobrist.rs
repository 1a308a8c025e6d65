//! The Zobrist keys of xiangqi: one key per (square, piece) and one for Black to move, generated at compile time
//! by the core's [`ZobristKeys::generate`] from a fixed seed, so every machine and every release computes the
//! same keys.
//!
//! | index        | feature                                                        |
//! |--------------|----------------------------------------------------------------|
//! | 0..1260      | `piece` on `sq`: `14 * sq + piece.index()` (Red roles 0–6, Black 7–13) |
//! | 1260         | Black to move                                                  |
//!
//! Nothing else enters the key: xiangqi has no castling or en-passant rights, and the move clocks do not change
//! which moves are legal.
//!
//! # Examples
//!
//! ```
//! use tabula_xiangqi::{zobrist, Position};
//!
//! let pos = Position::startpos();
//! assert_eq!(pos.key(), pos.key_from_scratch());
//! assert_eq!(zobrist::KEYS.len(), 1261);
//! assert!(tabula::quality::check(zobrist::KEYS.as_slice()).is_sound());
//! ```

use crate::types::{Piece, Role, Square};
use tabula::zobrist::{Key, Layout, ZobristKeys};
use tabula_board::Man;

/// The layout: 90 squares × 14 pieces, and one extra key for the side to move.
pub const LAYOUT: Layout = Layout::new(Square::COUNT, Piece::COUNT, 1);

/// The seed the keys are drawn from ("XIANGQI" in ASCII).
pub const SEED: u64 = 0x0058_4941_4E47_5149;

const GENERATED: ZobristKeys<Key, { LAYOUT.len() }> = ZobristKeys::<Key, { LAYOUT.len() }>::generate(SEED);

/// Every key, in [`LAYOUT`] order.
pub static KEYS: ZobristKeys<Key, { LAYOUT.len() }> = GENERATED;

/// A piece's key on each point, from [`KEYS`]; its placement's key is their XOR.
impl Man for Piece {
    type Square = Square;
    const KING: Role = Role::King;

    #[inline(always)]
    fn key(self, sq: Square) -> Key {
        KEYS[LAYOUT.feature(sq.index(), self.index())]
    }
}

/// The key XORed in when Black is to move.
pub const BLACK_TO_MOVE: Key = GENERATED.get(LAYOUT.extra(0));
