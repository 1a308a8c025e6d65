//! The glue of a game's validated position that chess and xiangqi share, as macros that expand in the game's
//! crate (the position is the game's own type, and so are the traits' impls):
//!
//! - [`fen_text!`](crate::fen_text): `Display` and `FromStr` through a type's FEN methods (a setup's, a
//!   position's).
//! - [`fen_position!`](crate::fen_position): a position's `startpos`, `from_fen` and `to_fen` through its
//!   setup, and `Default`, `Debug`, `Display` and `FromStr`.
//! - [`position_accessors!`](crate::position_accessors): the accessors of the state both games keep (the board,
//!   the side to move, the clocks, the checkers).
//! - [`board_game!`](crate::board_game): the parts of [`tabula::Game`] both games implement alike (the legal
//!   moves, make and undo with the null move as a pass, the key, the move codes, perft by the generator, play
//!   over when the side to move has no move), around the items a game says itself (its outcome, its hooks).
//!
//! Each names what it needs of the position's own methods; the games' tests check the results.

/// Implements `Display` (the FEN) and `FromStr` (reading one) for `$type`, through its inherent
/// `to_fen(&self) -> String` and `from_fen(&str) -> Result<$type, $error>`.
#[macro_export]
macro_rules! fen_text {
    ($type:ty, $error:ty) => {
        impl ::core::fmt::Display for $type {
            /// The FEN.
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(&self.to_fen())
            }
        }

        impl ::core::str::FromStr for $type {
            type Err = $error;

            fn from_str(s: &str) -> Result<$type, $error> {
                <$type>::from_fen(s)
            }
        }
    };
}

/// A validated position's FEN glue: `startpos`, `from_fen` and `to_fen` through `$setup` (its `startpos`,
/// `from_fen` and `to_fen`) and the position's `from_setup` and `to_setup`; `PartialEq` (equal setups),
/// `Default` (the start), `Debug` (`Position(<fen>)`) and [`fen_text!`](crate::fen_text). `$error` is the FEN error, which holds the setup's
/// validation error.
#[macro_export]
macro_rules! fen_position {
    ($position:ident, $setup:ty, $error:ty) => {
        impl PartialEq for $position {
            /// Equal setups: placement, side to move, rights and clocks. The move history is not compared.
            fn eq(&self, other: &$position) -> bool {
                self.to_setup() == other.to_setup()
            }
        }

        impl Eq for $position {}

        impl $position {
            /// The starting position.
            pub fn startpos() -> $position {
                $position::from_setup(&<$setup>::startpos()).expect("the starting position is legal")
            }

            /// Reads and validates a FEN record.
            ///
            /// # Errors
            ///
            /// The FEN error: a malformed field or too many fields, or, for a well-formed record of an illegal
            /// position, the error of [`from_setup`](Self::from_setup).
            pub fn from_fen(fen: &str) -> Result<$position, $error> {
                Ok($position::from_setup(&<$setup>::from_fen(fen)?)?)
            }

            /// The position as a FEN record.
            pub fn to_fen(&self) -> String {
                self.to_setup().to_fen()
            }
        }

        impl Default for $position {
            /// The starting position.
            fn default() -> $position {
                $position::startpos()
            }
        }

        impl ::core::fmt::Debug for $position {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({})", stringify!($position), self.to_fen())
            }
        }

        $crate::fen_text!($position, $error);
    };
}

/// The accessors of a position whose fields `board: $board`, `turn: $color`, `halfmove_clock: u32`,
/// `fullmove_number: u32` and `checkers: $bitboard` (the pieces giving check to the side to move) hold its
/// state.
#[macro_export]
macro_rules! position_accessors {
    ($position:ident, $board:ty, $color:ty, $bitboard:ty) => {
        impl $position {
            /// The placement of the pieces.
            #[inline(always)]
            pub fn board(&self) -> &$board {
                &self.board
            }

            /// The side to move.
            #[inline(always)]
            pub fn turn(&self) -> $color {
                self.turn
            }

            /// Plies since the last irreversible move (a capture; in chess, a pawn move too): what the game's
            /// move-limit rule counts.
            #[inline(always)]
            pub fn halfmove_clock(&self) -> u32 {
                self.halfmove_clock
            }

            /// The move number, starting at 1 and increased after each move of the side that moves second.
            #[inline(always)]
            pub fn fullmove_number(&self) -> u32 {
                self.fullmove_number
            }

            /// The pieces giving check to the side to move.
            #[inline(always)]
            pub fn checkers(&self) -> $bitboard {
                self.checkers
            }

            /// Whether the side to move is in check.
            #[inline(always)]
            pub fn is_check(&self) -> bool {
                self.checkers.any()
            }
        }
    };
}

/// Implements [`tabula::Game`] for a board game's `$position` with moves `$move`: the parts chess and xiangqi
/// share, then the items given (the outcome, the hooks...).
///
/// The shared parts: the legal moves are the generator's (`legal_moves_into`); `play` passes for `$move::NULL`
/// (`play_null`) and otherwise plays the move (`play_unchecked`), and `undo` takes back either (`undo_null`,
/// the inherent `undo`); play is over when the side to move has no legal move (`has_legal_move`): a draw a
/// rule declares is the players' or the referee's to claim, so an engine asked for a move there still gives
/// one; the key is the position's; a move's code is its `code()` below `$move::CODES`; perft counts with the
/// generator alone (it has no moves in a mated position, and counts on through draws by the move counters, as
/// the published counts do), the last ply without listing the moves (`count_legal_moves`).
#[macro_export]
macro_rules! board_game {
    ($position:ident, $move:ty, { $($items:tt)* }) => {
        impl ::tabula::game::Game for $position {
            type Move = $move;

            #[inline]
            fn legal_moves(&self, moves: &mut Vec<$move>) {
                self.legal_moves_into(moves);
            }

            /// Plays `mv`, or passes for the null move.
            #[inline]
            fn play(&mut self, mv: $move) {
                if mv == <$move>::NULL {
                    self.play_null();
                } else {
                    self.play_unchecked(mv);
                }
            }

            #[inline]
            fn undo(&mut self, mv: $move) {
                if mv == <$move>::NULL {
                    self.undo_null();
                } else {
                    let undone = $position::undo(self);
                    debug_assert_eq!(undone, Some(mv), "undo of a move that was not the last one played");
                }
            }

            /// Only a side without a legal move ends play.
            fn is_over(&self) -> bool {
                !self.has_legal_move()
            }

            /// The generator alone.
            #[inline]
            fn perft_moves(&self, moves: &mut Vec<$move>) {
                self.legal_moves_into(moves);
            }

            /// Counted without listing the moves.
            #[inline]
            fn perft_count(&self, _scratch: &mut Vec<$move>) -> u64 {
                self.count_legal_moves()
            }

            #[inline(always)]
            fn key(&self) -> ::tabula::Key {
                $position::key(self)
            }

            #[inline(always)]
            fn move_code(mv: $move) -> u16 {
                mv.code()
            }

            const MOVE_CODES: usize = <$move>::CODES;

            $($items)*
        }
    };
}
