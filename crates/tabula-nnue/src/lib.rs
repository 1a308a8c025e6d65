//! An efficiently updated neural network evaluation (NNUE) for Tabula's bitboard games, generic over the board:
//! [`Network`], its weights file format and the [`Accumulators`] a search keeps along its line of play. A game
//! says what its board looks like to a network ([`Geometry`]: squares, roles, how a square turns with the side
//! and mirrors left to right) and what the network reads of its positions ([`NetPosition`]); everything else —
//! the accumulators and their SIMD kernels, the king layouts, the file format — is this crate's, once.
//!
//! # The network
//!
//! `2 × roles × squares` inputs (chess 2 × 6 × 64 = 768, xiangqi 2 × 7 × 90 = 1260), one per (piece colour,
//! role, square), seen from each side: from the first side's point of view the feature of a piece is
//! `squares * (roles * c + r) + s` with `c` 0 for the first side's pieces and 1 for the other's, `r` the role's
//! index and `s` the square's; from the other side's point of view the colours swap and the board turns top to
//! bottom ([`Geometry::orient`]). Each side's features feed a layer of [`HIDDEN`] neurons (the *accumulator*:
//! the layer's bias plus the weight columns of the pieces on the board, both sides sharing one set of weights).
//! The two accumulators, the side to move's first, pass a clipped ReLU and meet an output neuron. A network has
//! one output neuron or several, the *output buckets* (at most [`MAX_BUCKETS`]): a position is evaluated by the
//! neuron of its bucket, chosen by the number of pieces on the board ([`Network::bucket`]), so that the same
//! accumulators are read one way in the middlegame and another in the ending. The buckets cost nothing to
//! update, since the first layer is shared.
//!
//! A network may also see each side's pieces through its own king (the *king layout*, [`KingLayout`]): the
//! board mirrored left to right when that king stands on the left half ([`Geometry::mirrors`]), so that it is
//! always seen on the right, and a set of inputs for each of a few regions of the king's squares (the *king
//! buckets*), so that the first layer weighs a piece by where its own king stands. The plain layout, one set and
//! no mirroring, is that of the files of versions 1 and 2.
//!
//! Because a move changes at most four features, the accumulators are updated as the Zobrist key is: by adding
//! and subtracting the weight columns of the features the move changes ([`NetPosition::placement_change`]). The
//! accumulators are not the position's: a search keeps them along its line of play, in [`Accumulators`] beside
//! the position it plays and takes back moves on, so that the rules know nothing of any network. The update is
//! lazy: making and taking back moves costs nothing; when a network evaluates a position
//! ([`Network::evaluate_along`]), it brings the accumulators up to date from the last position it evaluated on
//! the same line of play, or from scratch. A king moving to another bucket, or across the middle of a mirrored
//! layout, changes every input of its side: that side's accumulator is computed afresh, from the one it last had
//! in its new view.
//!
//! # The engine
//!
//! A game's engine plays a network through [`engine`], once for every game: [`EnginePosition`], the position
//! a search walks with its accumulators; [`NetEvaluation`], the network or the game's own evaluation; and
//! [`EvalOptions`], the protocol options `Evaluation` and `EvalFile` that choose. A game states what is its own
//! (its classical evaluation, the network it embeds, its search options, bench positions and setup) as a
//! [`NetGame`].
//!
//! # Quantisation
//!
//! The network is trained in floating point and stored in integers. With `QA` = [`QA`] and `QB` = [`QB`]: the
//! first layer's weights and biases are `round(QA * w)` as `i16`, so an accumulator is `QA` times the real one
//! and the clipped ReLU clips to `0..=QA`; the output weights are `round(QB * w)` as `i16` and the output bias
//! `round(QA * QB * b)` as `i32`. The output sum is thus `QA * QB` times the real output `y`, and the evaluation
//! in centipawns is `y * scale`, rounded towards zero, with the network's own scale (stored in its file; the
//! trainer's default is [`DEFAULT_SCALE`]): the network is trained so that `sigmoid(y)` predicts the expected
//! score and `sigmoid(cp / scale)` is how the trainer reads the search's scores. All inference is integer
//! arithmetic, so the SIMD kernel and the scalar one give the same results exactly.
//!
//! # The weights file (version 3)
//!
//! Little-endian throughout; `n` is the board's number of squares and `inputs` its inputs per king bucket
//! ([`Geometry::INPUTS`]):
//!
//! | bytes | content |
//! | --- | --- |
//! | 4 | magic `TBNN` |
//! | 4 | version, `u32` (3) |
//! | 4 | inputs per king bucket, `u32` (`inputs`: 768 for chess) |
//! | 4 | hidden neurons per side, `u32` ([`HIDDEN`]) |
//! | 4 | output buckets, `u32` (1 to [`MAX_BUCKETS`]) |
//! | 4 | king buckets `k`, `u32` (1 to [`MAX_KING_BUCKETS`]) |
//! | 4 | mirroring, `u32` (1 to mirror the board so that each side's king stands on the right half, else 0) |
//! | 12 | `QA`, `QB` and the scale (centipawns per unit of output), `u32` each |
//! | `n` | the king bucket of each square of a side's own king, seen from its side (square 0 first), after mirroring (chess: 64 bytes, a1 first) |
//! | 2 × `inputs` × k × hidden | first layer weights, `i16`, king bucket by king bucket, input by input (each input's column of `hidden`) |
//! | 2 × hidden | first layer biases, `i16` |
//! | 2 × 2 × hidden × buckets | output weights, `i16`, bucket by bucket: the side to move's accumulator's, then the other's |
//! | 4 × buckets | output biases, `i32`, bucket by bucket |
//! | 8 | checksum, `u64`: FNV-1a of every byte before it |
//!
//! Version 2 is the same without the king layout's fields (the two counts' `u32`s and the `n` bytes): one king
//! bucket, no mirroring. Version 1 is version 2 without the output buckets' field: one output neuron.
//! [`Network::from_bytes`] reads all three and checks each field and the sizes that keep the integer arithmetic
//! from overflowing (see [`NetError`]); [`Network::to_bytes`] writes version 2 for the plain layout, else
//! version 3. A file states its inputs, so a network of one board is refused by another.
//!
//! # Examples
//!
//! A board of two squares, each side a king and a man, with a network whose inputs weigh a man 100 and a king
//! nothing:
//!
//! ```
//! use tabula::Key;
//! use tabula_board::{coordinate, square, Bitboard, ColoredPiece, Man, Placement, PlacementChange, Square};
//! use tabula_nnue::{Geometry, KingLayout, NetPosition, Network, DEFAULT_SCALE, HIDDEN, QA};
//!
//! coordinate!(
//!     /// A column.
//!     Column, "file", 2, [A, B], b'a'
//! );
//! coordinate!(
//!     /// A row.
//!     Row, "rank", 1, [R1], b'1'
//! );
//! square!(
//!     /// A cell.
//!     Cell, Column, Row, u64, fold_case: false, "expected a or b, then 1"
//! );
//! tabula_board::pieces! {
//!     /// A side.
//!     Color { Light = 'w', Dark = 'b' }
//!     /// What a piece is.
//!     Role { Man = 'm', King = 'k' }
//!     /// A piece.
//!     Piece
//! }
//! impl Man for Piece {
//!     type Square = Cell;
//!     const KING: Role = Role::King;
//!     fn key(self, sq: Cell) -> Key {
//!         Key(1 + (sq.index() * Piece::COUNT + self.index()) as u64)
//!     }
//! }
//!
//! #[derive(Clone, Copy, Debug, PartialEq, Eq)]
//! struct Strip;
//! impl Geometry for Strip {
//!     type Piece = Piece;
//!     const KING_LAYOUTS: &'static [(&'static str, KingLayout<Strip>)] = &[("plain", KingLayout::PLAIN)];
//!     fn orientation(flip: bool, mirror: bool) -> usize {
//!         usize::from(flip) | usize::from(mirror)
//!     }
//!     fn orient(sq: usize, orientation: usize) -> usize {
//!         sq ^ orientation
//!     }
//!     fn mirrors(king: Cell) -> bool {
//!         king.index() == 0
//!     }
//! }
//!
//! struct Board(Placement<Piece, { Cell::COUNT }, { Role::COUNT }>, Color);
//! impl NetPosition for Board {
//!     type Geometry = Strip;
//!     fn turn(&self) -> Color {
//!         self.1
//!     }
//!     fn occupied(&self) -> Bitboard<Cell> {
//!         self.0.occupied()
//!     }
//!     fn piece_at(&self, sq: Cell) -> Option<Piece> {
//!         self.0.piece_at(sq)
//!     }
//!     fn by_piece(&self, piece: Piece) -> Bitboard<Cell> {
//!         self.0.by_piece(piece)
//!     }
//!     fn king_of(&self, color: Color) -> Option<Cell> {
//!         self.0.king_of(color)
//!     }
//!     fn history_len(&self) -> usize {
//!         0
//!     }
//!     fn placement_change(&self, _ply: usize) -> PlacementChange<Piece> {
//!         PlacementChange::default()
//!     }
//!     fn to_text(&self) -> String {
//!         String::from("a strip")
//!     }
//! }
//!
//! // Input `2 * (2 * c + r) + s`: an own man (c 0, r 0) weighs +100 / QA in each neuron, an other's -100 / QA.
//! let mut weights = vec![0i16; Strip::INPUTS * HIDDEN];
//! for (input, w) in [(0, 1), (1, 1), (4, -1), (5, -1)] {
//!     weights[input * HIDDEN..(input + 1) * HIDDEN].fill(w * 100);
//! }
//! // The output reads the side to move's accumulator alone.
//! let (bias, out) = (vec![QA as i16 / 2; HIDDEN], [vec![1i16; HIDDEN], vec![0; HIDDEN]].concat());
//! let net = Network::<Strip>::new(&weights, &bias, &out, &[0], DEFAULT_SCALE).unwrap();
//! let mut board = Board(Placement::empty(), Color::Light);
//! board.0.put(Cell::from_index_unchecked(0), Piece::new(Color::Light, Role::King));
//! board.0.put(Cell::from_index_unchecked(1), Piece::new(Color::Dark, Role::King));
//! let level = net.evaluate(&board);
//! // A man of the side to move raises its accumulator by 100.
//! let mut ahead = Board(board.0.clone(), Color::Light);
//! ahead.0.remove(Cell::from_index_unchecked(1));
//! ahead.0.put(Cell::from_index_unchecked(1), Piece::new(Color::Light, Role::Man));
//! assert!(net.evaluate(&ahead) > level);
//! assert_eq!(Network::<Strip>::from_bytes(&net.to_bytes()).unwrap().evaluate(&ahead), net.evaluate(&ahead));
//! ```
#![deny(missing_docs)]

pub mod engine;
mod file;
mod kings;
mod network;

pub use engine::{EnginePosition, EvalKind, EvalOptions, NetEvaluation, NetGame, NoNetwork, NETWORK_BOUND};
pub use file::{checksum, file_len, header_len, quantisation_at, Layers, NetError};
pub use kings::{KingLayout, View, MAX_KING_BUCKETS, MAX_SQUARES};
pub use network::{Accumulator, Accumulators, Column, Kernel, Network, Output};

#[cfg(feature = "testing")]
pub mod testing;
#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::Arc;
use tabula_board::{Bitboard, ColoredPiece, Man, PlacementChange, Square};

/// Neurons of the first layer, per side.
pub const HIDDEN: usize = 256;
/// The first layer's quantisation: an accumulator is `QA` times the real value, clipped to `0..=QA`.
pub const QA: i32 = 255;
/// The output layer's quantisation.
pub const QB: i32 = 512;
/// Centipawns per unit of a network's output (the output's `sigmoid` is the expected score) that the trainer
/// uses unless told otherwise; a network's file states its own.
pub const DEFAULT_SCALE: i32 = 113;
/// The scales a file may state.
pub const SCALES: std::ops::RangeInclusive<i32> = 1..=10_000;
/// The newest file format version, which [`Network::to_bytes`] writes for a network with a king layout other
/// than [`KingLayout::PLAIN`] (version 2 otherwise); [`Network::from_bytes`] reads versions 1 to 3.
pub const VERSION: u32 = 3;
/// The most output buckets a network may have.
pub const MAX_BUCKETS: usize = 16;
/// The most hidden neurons per side a file may state (files of other widths than [`HIDDEN`] are read as
/// [`Layers`], to start a wider network from).
pub const MAX_HIDDEN: usize = 4_096;
/// The most pieces a position has (chess and xiangqi alike): the accumulators' bound on how many columns add
/// up, and the top of the output buckets' range of piece counts.
pub const MAX_PIECES: i32 = 32;
/// The most kinds of piece (colour and role) a board may have: chess has 12, xiangqi 14.
pub const MAX_PIECE_KINDS: usize = 16;
/// The name of the embedded network where a network is named ([`Network::named`]).
pub const EMBEDDED_NAME: &str = "<embedded>";

/// Whether `name` stands for the embedded network rather than a file: [`EMBEDDED_NAME`] or an empty name.
pub fn names_embedded(name: &str) -> bool {
    name.is_empty() || name == EMBEDDED_NAME
}

/// The square type of a geometry's board.
pub type SquareOf<B> = <<B as Geometry>::Piece as Man>::Square;
/// The colour type of a geometry's pieces.
pub type ColorOf<B> = <<B as Geometry>::Piece as ColoredPiece>::Color;
/// The piece type of a geometry.
pub type PieceOf<B> = <B as Geometry>::Piece;
/// A set of a geometry's squares.
pub type BitboardOf<B> = Bitboard<SquareOf<B>>;
/// What a move of a geometry's board changes ([`NetPosition::placement_change`]).
pub type ChangeOf<B> = PlacementChange<<B as Geometry>::Piece>;

/// What a network needs to know of a game's board: its pieces and squares, how many of each, and how a square
/// turns when the board is seen from the other side or mirrored left to right. A game implements it on a
/// marker type of its own; [`Network`], [`KingLayout`] and [`Accumulators`] are generic over it, monomorphised
/// so that the inner loops know the board's sizes at compile time.
pub trait Geometry: Copy + fmt::Debug + Eq + Send + Sync + 'static {
    /// The game's piece, which also names its square type ([`Man::Square`]).
    type Piece: Man;
    /// The number of squares (chess 64, xiangqi 90), at most [`MAX_SQUARES`]: the piece's square type's.
    const SQUARES: usize = <<Self::Piece as Man>::Square as Square>::COUNT;
    /// The number of roles (chess 6, xiangqi 7): the piece type's.
    const ROLES: usize = <Self::Piece as ColoredPiece>::ROLES;
    /// Inputs per side and king bucket: colour (own, other) × role × square.
    const INPUTS: usize = 2 * Self::ROLES * Self::SQUARES;
    /// Every piece, at most [`MAX_PIECE_KINDS`] of them: the piece type's.
    const PIECES: &'static [Self::Piece] = <Self::Piece as ColoredPiece>::ALL;
    /// The king layouts of this board that a trainer takes by name (see [`KingLayout::named`]).
    const KING_LAYOUTS: &'static [(&'static str, KingLayout<Self>)];

    /// The orientation of a view: a value [`orient`](Geometry::orient) reads, for a board turned top to bottom
    /// (`flip`, the second side's view) and mirrored left to right (`mirror`). The plain view's is 0.
    fn orientation(flip: bool, mirror: bool) -> usize;
    /// The index of the square of index `sq` in the view of `orientation` (chess: `sq ^ orientation`, with 56
    /// for the flip and 7 for the mirror).
    fn orient(sq: usize, orientation: usize) -> usize;
    /// Whether a king on `king` stands on the half of the board a mirrored layout mirrors (chess: files a to d).
    fn mirrors(king: SquareOf<Self>) -> bool;
}

/// A geometry whose game embeds a network: what [`Network::embedded`] and [`Network::named`] give.
pub trait Embedded: Geometry {
    /// The embedded network, parsed once.
    fn embedded() -> Arc<Network<Self>>;
}

/// What a network reads of a game's position: where the pieces stand, who is to move, and what each move of its
/// history changed, so that the accumulators follow the position's line of play.
pub trait NetPosition {
    /// The board the network sees.
    type Geometry: Geometry;

    /// The side to move.
    fn turn(&self) -> ColorOf<Self::Geometry>;
    /// Every occupied square.
    fn occupied(&self) -> Bitboard<SquareOf<Self::Geometry>>;
    /// The piece on `sq`, if any.
    fn piece_at(&self, sq: SquareOf<Self::Geometry>) -> Option<<Self::Geometry as Geometry>::Piece>;
    /// The squares of `piece`.
    fn by_piece(&self, piece: <Self::Geometry as Geometry>::Piece) -> Bitboard<SquareOf<Self::Geometry>>;
    /// The square of `color`'s king, if any.
    fn king_of(&self, color: ColorOf<Self::Geometry>) -> Option<SquareOf<Self::Geometry>>;
    /// The number of moves played since the position was set up.
    fn history_len(&self) -> usize;
    /// What move `ply` of the history (below [`history_len`](NetPosition::history_len)) took off the board
    /// and put on it; nothing for a null move.
    fn placement_change(&self, ply: usize) -> PlacementChange<<Self::Geometry as Geometry>::Piece>;
    /// The position as text, for the messages of failed checks (FEN).
    fn to_text(&self) -> String;
}

/// Implements [`NetPosition`] for a board game's position type on `$geometry`, from the accessors the board
/// layer's positions share (`board()`, whose placement gives the pieces and kings, `turn()`, `history_len()`,
/// `to_fen()`) and the game's own `placement_change(ply)`: chess writes
/// `tabula_nnue::net_position!(Position, ChessGeometry);`.
#[macro_export]
macro_rules! net_position {
    ($position:ty, $geometry:ty) => {
        impl $crate::NetPosition for $position {
            type Geometry = $geometry;

            #[inline(always)]
            fn turn(&self) -> $crate::ColorOf<$geometry> {
                <$position>::turn(self)
            }

            #[inline(always)]
            fn occupied(&self) -> $crate::BitboardOf<$geometry> {
                self.board().occupied()
            }

            #[inline(always)]
            fn piece_at(&self, sq: $crate::SquareOf<$geometry>) -> Option<$crate::PieceOf<$geometry>> {
                self.board().piece_at(sq)
            }

            #[inline(always)]
            fn by_piece(&self, piece: $crate::PieceOf<$geometry>) -> $crate::BitboardOf<$geometry> {
                self.board().by_piece(piece)
            }

            #[inline(always)]
            fn king_of(&self, color: $crate::ColorOf<$geometry>) -> Option<$crate::SquareOf<$geometry>> {
                self.board().king_of(color)
            }

            #[inline(always)]
            fn history_len(&self) -> usize {
                <$position>::history_len(self)
            }

            #[inline(always)]
            fn placement_change(&self, ply: usize) -> $crate::ChangeOf<$geometry> {
                <$position>::placement_change(self, ply)
            }

            fn to_text(&self) -> String {
                self.to_fen()
            }
        }
    };
}

/// The number of `color`: 0 or 1.
#[inline(always)]
fn color_index<B: Geometry>(color: ColorOf<B>) -> usize {
    B::Piece::color_index(color)
}

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
