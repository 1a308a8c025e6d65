//! The [`board_front!`](crate::board_front) macro: the parts of `tabula_protocol::front::Front` that chess
//! and xiangqi give alike, around the items a game says itself (its name, its notation, its board drawn); and
//! the board drawn, as text ([`board_text`]) and as cells ([`marks`]), and the pieces on their squares
//! ([`placement`]), for any square.
//!
//! The macro expands in the game's crate, which depends on `tabula-protocol` for its front (the board layer
//! does not).
//!
//! # Examples
//!
//! ```
//! use tabula_board::front::{board_text, cell, marks, placement};
//! # tabula_board::coordinate!(
//! #     /// A column.
//! #     Column, "file", 2, [A, B], b'a'
//! # );
//! # tabula_board::coordinate!(
//! #     /// A row.
//! #     Row, "rank", 2, [R1, R2], b'1'
//! # );
//! # tabula_board::square!(
//! #     /// A cell.
//! #     Cell, Column, Row, u64, fold_case: false, "a cell"
//! # );
//! use tabula_board::Square;
//!
//! // A 2×2 board with a king on a2.
//! let piece_at = |sq: Cell| (sq == Cell::from_coords(Column::A, Row::R2)).then_some('K');
//! assert_eq!(board_text(piece_at, |_| None), "2  K .\n1  . .\n   a b\n");
//! assert_eq!(marks(piece_at, |c| c.to_string()), ["K", "", "", ""]);
//! assert_eq!(cell(Cell::from_coords(Column::B, Row::R1)), 3);
//! assert_eq!(placement(piece_at).count(), 1);
//! ```

use crate::coords::{Coordinate, Square};

/// Each piece `piece_at` finds, with its square, in the order of the squares.
pub fn placement<S: Square, P>(piece_at: impl Fn(S) -> Option<P>) -> impl Iterator<Item = (S, P)> {
    (0..S::COUNT).map(S::from_index_unchecked).filter_map(move |sq| Some((sq, piece_at(sq)?)))
}

/// The cell of `sq` on a board drawn with the last rank at the top, cells counted row by row from the top left.
pub fn cell<S: Square>(sq: S) -> usize {
    (S::Rank::COUNT - 1 - sq.rank().index()) * S::File::COUNT + sq.file().index()
}

/// What each [`cell`] of the board shows: `mark` of the piece `piece_at` finds on its square, empty text on an
/// empty square.
pub fn marks<S: Square, P>(piece_at: impl Fn(S) -> Option<P>, mark: impl Fn(P) -> String) -> Vec<String> {
    let mut marks = vec![String::new(); S::COUNT];
    for (sq, piece) in placement(piece_at) {
        marks[cell(sq)] = mark(piece);
    }
    marks
}

/// The board as text, the last rank at the top: a line a rank, its name then the character `piece_char` gives
/// for each square (`.` for an empty one), each followed by what `after` gives for the rank (a river, say);
/// then the files' names.
pub fn board_text<S: Square>(
    piece_char: impl Fn(S) -> Option<char>,
    after: impl Fn(S::Rank) -> Option<&'static str>,
) -> String {
    let mut text = String::new();
    for &rank in S::Rank::ALL.iter().rev() {
        text += &format!("{rank} ");
        for &file in S::File::ALL {
            text.push(' ');
            text.push(piece_char(S::from_coords(file, rank)).unwrap_or('.'));
        }
        text.push('\n');
        text += after(rank).unwrap_or("");
    }
    text += "  ";
    for file in S::File::ALL {
        text += &format!(" {file}");
    }
    text + "\n"
}

/// Implements `tabula_protocol::front::Front` for `$position`, thought about by `$engine` (a
/// `tabula::search::Engine` the front configures), with the Zobrist key set `$keys` (a slice), then the items
/// given.
///
/// The shared parts: a position is written as FEN, read from FEN or `startpos`, and the game has no variant
/// settings; scores read as "mate in N" or centipawns; the engine gets the hash size, threads and table use of
/// the configuration; the key quality is that of `$keys`.
#[macro_export]
macro_rules! board_front {
    ($position:ident, $engine:ty, $keys:expr, { $($items:tt)* }) => {
        impl ::tabula_protocol::front::Front for $position {
            const POSITION_HELP: &'static str = "a FEN, or `startpos`";
            const WORDING: ::tabula::score::Wording =
                ::tabula::score::Wording { distance: ::tabula::score::Distance::Mate, unit: "cp", margin_unit: "" };
            type Engine = $engine;

            fn start(setup: &::tabula_protocol::front::Setup) -> Result<$position, ::tabula_protocol::front::FrontError> {
                setup.allow(Self::NAME, &[])?;
                Ok($position::startpos())
            }

            fn parse_position(
                text: &str,
                setup: &::tabula_protocol::front::Setup,
            ) -> Result<$position, ::tabula_protocol::front::FrontError> {
                setup.allow(Self::NAME, &[])?;
                match text.trim() {
                    "" | "startpos" => Ok($position::startpos()),
                    fen => $position::from_fen(fen).map_err(|e| ::tabula_protocol::front::FrontError::position(fen, e)),
                }
            }

            fn position_text(&self) -> String {
                self.to_fen()
            }

            fn engine(config: &::tabula_protocol::front::EngineConfig) -> $engine {
                let mut engine = <$engine>::new(config.hash_mib);
                engine.set_threads(config.threads);
                engine.set_table_use(config.table);
                engine
            }

            fn key_quality() -> ::tabula::quality::QualityReport {
                ::tabula::quality::check($keys)
            }

            $($items)*
        }
    };
}
