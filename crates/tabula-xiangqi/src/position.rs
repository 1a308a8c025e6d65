//! [`Position`]: a validated xiangqi position with make/undo and the history of the game since it was set up.
//!
//! A position is built from a [`Setup`] (or FEN) by [`Position::from_setup`], which rejects impossible positions
//! with a [`PositionError`]. From then on it changes only through [`Position::play`] /
//! [`Position::play_unchecked`] and [`Position::undo`]; every change of the placement goes through the board's
//! mutators, which XOR the Zobrist key in the same place they change the bits, so [`Position::key`] is never
//! stale. Each move played leaves a record (the move, the piece taken, the key before it, the clock, the
//! checkers) that [`undo`](Position::undo) restores from and that the [`repetition`](crate::repetition) rules
//! read.
//!
//! # Examples
//!
//! ```
//! use tabula_xiangqi::Position;
//!
//! let mut pos = Position::startpos();
//! let start_key = pos.key();
//! for iccs in ["b0c2", "b9c7", "c2b0", "c7b9"] {
//!     pos.play(pos.parse_iccs(iccs).unwrap()).unwrap();
//! }
//! assert_eq!(pos.key(), start_key); // same placement, same side to move
//! pos.undo();
//! assert_eq!(pos.to_fen(), "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 3 2");
//! ```

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::Move;
use crate::setup::Setup;
use crate::types::{Color, Piece, Role, Square};
use crate::zobrist;
use tabula::Key;
use tabula_board::KingProblem;
use tabula_board::MoveError;

/// Why a [`Setup`] is not a legal xiangqi position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side without a king, or with more than one.
    #[error(transparent)]
    Kings(#[from] KingProblem<Color>),
    /// More pieces of one kind than a side starts with (xiangqi has no promotion).
    #[error("too many of {0:?} (at most 2 of each piece, 5 pawns)")]
    TooManyPieces(Piece),
    /// A king or advisor outside its palace points, an elephant off its seven points, or a pawn behind its
    /// starting rank or off its starting files before the river.
    #[error("{0:?} on {1}, where its moves can never bring it")]
    MisplacedPiece(Piece, Square),
    /// The side that just moved left its own king attacked (the kings facing on an open file included).
    #[error("the side not to move is in check")]
    OppositeCheck,
}

/// What [`Position::undo`] needs to restore that the move itself does not say, and what the repetition rules
/// read back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Undo {
    pub mv: Move,
    /// The piece that moved (a later move may have moved it on, or taken it); for a null move, the side's king.
    pub piece: Piece,
    pub captured: Option<Piece>,
    pub halfmove_clock: u32,
    pub checkers: Bitboard,
    /// The key of the position the move was played in.
    pub key: Key,
}

/// The pieces one move took off the board and put on it (see [`Position::placement_change`]).
pub type PlacementChange = tabula_board::PlacementChange<Piece>;

/// The move recorded for a null move (no square moves to itself otherwise).
pub(crate) const NULL_MOVE: Move = Move::NULL;

/// A legal xiangqi position with its own history of moves for [`undo`](Position::undo) and the repetition rules.
#[derive(Clone)]
pub struct Position {
    board: Board,
    turn: Color,
    halfmove_clock: u32,
    fullmove_number: u32,
    /// The pieces giving check to the side to move.
    checkers: Bitboard,
    history: Vec<Undo>,
}

tabula_board::position_accessors!(Position, Board, Color, Bitboard);

impl Position {
    /// Validates `setup`. A full-move number of 0 is read as 1.
    ///
    /// # Errors
    ///
    /// A [`PositionError`] naming the first problem found.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let board = &setup.board;
        if let Some(problem) = board.king_problem() {
            return Err(problem.into());
        }
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece::new(color, role);
                let squares = board.by_piece(piece);
                if squares.count() > role.start_count() {
                    return Err(PositionError::TooManyPieces(piece));
                }
                if let Some(sq) = (squares & !attacks::reachable(color, role)).first() {
                    return Err(PositionError::MisplacedPiece(piece, sq));
                }
            }
        }
        let mut pos = Position {
            board: board.clone(),
            turn: setup.turn,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number.max(1),
            checkers: Bitboard::EMPTY,
            history: Vec::new(),
        };
        let them = pos.turn.flip();
        if pos.board.is_king_attacked(pos.king(them), pos.turn) {
            return Err(PositionError::OppositeCheck);
        }
        pos.update_checkers();
        Ok(pos)
    }

    /// The position as an unvalidated [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            turn: self.turn,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
        }
    }

    // ---- Accessors ------------------------------------------------------------------------------------------

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.board.king_of(color).expect("a validated position has both kings")
    }

    /// The Zobrist key of the position: placement and side to move.
    #[inline(always)]
    pub fn key(&self) -> Key {
        match self.turn {
            Color::Red => self.board.key(),
            Color::Black => self.board.key() ^ zobrist::BLACK_TO_MOVE,
        }
    }

    /// The key computed from scratch, to check the incremental [`key`](Position::key).
    pub fn key_from_scratch(&self) -> Key {
        let key = self.board.key_from_scratch();
        match self.turn {
            Color::Red => key,
            Color::Black => key ^ zobrist::BLACK_TO_MOVE,
        }
    }

    /// Number of moves that [`undo`](Position::undo) can take back.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// What the move `ply` of the history (0 the first, below [`history_len`](Position::history_len)) took
    /// off the board and put on it: the mover off its origin and onto its destination, and the piece it took
    /// off the destination if any; nothing for a null move.
    ///
    /// # Panics
    ///
    /// If `ply` is not below the history's length.
    ///
    /// # Examples
    ///
    /// ```
    /// use tabula_xiangqi::{Color, Piece, Position, Role};
    ///
    /// let mut pos = Position::startpos();
    /// pos.play(pos.parse_iccs("h2h9").unwrap()).unwrap(); // the cannon takes the horse
    /// let change = pos.placement_change(0);
    /// let (cannon, horse) = (Piece::new(Color::Red, Role::Cannon), Piece::new(Color::Black, Role::Horse));
    /// let sq = |s: &str| s.parse().unwrap();
    /// assert_eq!(change.removed(), [(cannon, sq("h2")), (horse, sq("h9"))]);
    /// assert_eq!(change.added(), [(cannon, sq("h9"))]);
    /// pos.play_null();
    /// assert!(pos.placement_change(1).removed().is_empty() && pos.placement_change(1).added().is_empty());
    /// ```
    pub fn placement_change(&self, ply: usize) -> PlacementChange {
        let undo = &self.history[ply];
        let mut change = PlacementChange::default();
        if undo.mv == NULL_MOVE {
            return change;
        }
        let (from, to) = (undo.mv.from(), undo.mv.to());
        let piece = undo.piece;
        change.remove(piece, from);
        if let Some(captured) = undo.captured {
            change.remove(captured, to);
        }
        change.add(piece, to);
        change
    }

    /// The moves played since the position was set up, oldest first.
    pub fn moves_played(&self) -> impl DoubleEndedIterator<Item = Move> + '_ {
        self.history.iter().map(|undo| undo.mv)
    }

    /// The records of the moves played, oldest first.
    #[inline(always)]
    pub(crate) fn history(&self) -> &[Undo] {
        &self.history
    }

    /// Forgets the moves played: [`undo`](Position::undo) can no longer take them back. (Copies made to try
    /// moves out then carry no history.)
    pub(crate) fn forget_history(&mut self) {
        self.history.clear();
    }

    /// Recomputes the checkers of the side to move.
    #[inline(always)]
    fn update_checkers(&mut self) {
        let king = self.king(self.turn);
        self.checkers = self.board.king_attackers(king, self.turn.flip());
    }

    // ---- Make and undo -------------------------------------------------------------------------------------

    /// Plays `mv` if it is legal here.
    ///
    /// # Errors
    ///
    /// [`MoveError::Illegal`] if it is not.
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        if !self.is_legal(mv) {
            return Err(MoveError::Illegal { text: mv.to_string(), fen: self.to_fen() });
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Whether `mv` is one of the legal moves.
    pub fn is_legal(&self, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.board.piece_at(from).filter(|p| p.color == self.turn) else {
            return false;
        };
        let king = if piece.role == Role::King { to } else { self.king(self.turn) };
        self.board.targets(from, piece).contains(to)
            && !self.board.by_color(self.turn).contains(to)
            && !self.board.is_king_attacked_after(from, to, king, self.turn.flip())
    }

    /// Plays `mv`, which must be legal here (from [`legal_moves`](Position::legal_moves) or checked with
    /// [`is_legal`](Position::is_legal)).
    ///
    /// # Panics
    ///
    /// If no piece stands on the origin square. Other illegal moves leave a corrupt position (debug builds
    /// assert against some).
    pub fn play_unchecked(&mut self, mv: Move) {
        let (from, to) = (mv.from(), mv.to());
        let key = self.key();
        let piece = self.board.remove(from).expect("a piece on the origin square");
        debug_assert_eq!(piece.color, self.turn, "{mv} moves an opponent's piece");
        let captured = self.board.remove(to);
        debug_assert!(
            captured.map_or(true, |c| c.color != self.turn && c.role != Role::King),
            "{mv} takes {captured:?}"
        );
        self.history.push(Undo {
            mv,
            piece,
            captured,
            halfmove_clock: self.halfmove_clock,
            checkers: self.checkers,
            key,
        });
        self.board.put(to, piece);
        self.halfmove_clock = if captured.is_some() { 0 } else { self.halfmove_clock + 1 };
        if self.turn == Color::Black {
            self.fullmove_number += 1;
        }
        self.turn = self.turn.flip();
        self.update_checkers();
    }

    /// Takes back the last move played and returns it (`None` if there is none).
    ///
    /// # Panics
    ///
    /// In debug builds, if the last move was a null move (take it back with
    /// [`undo_null`](Position::undo_null)).
    pub fn undo(&mut self) -> Option<Move> {
        let undo = self.history.pop()?;
        debug_assert_ne!(undo.mv, NULL_MOVE, "undo of a null move");
        let (from, to) = (undo.mv.from(), undo.mv.to());
        self.turn = self.turn.flip();
        if self.turn == Color::Black {
            self.fullmove_number -= 1;
        }
        let piece = self.board.remove(to).expect("the moved piece on the destination");
        self.board.put(from, piece);
        if let Some(captured) = undo.captured {
            self.board.put(to, captured);
        }
        self.halfmove_clock = undo.halfmove_clock;
        self.checkers = undo.checkers;
        Some(undo.mv)
    }

    /// Passes the turn (a "null move" for search). The repetition rules do not look past it.
    ///
    /// # Panics
    ///
    /// In debug builds, if the side to move is in check.
    pub fn play_null(&mut self) {
        debug_assert!(!self.is_check(), "null move while in check");
        self.pass();
    }

    /// Passes the turn whether or not in check: the chase rules ask what the other side could take next if it
    /// could move again.
    pub(crate) fn pass(&mut self) {
        self.history.push(Undo {
            mv: NULL_MOVE,
            piece: Piece::new(self.turn, Role::King),
            captured: None,
            halfmove_clock: self.halfmove_clock,
            checkers: self.checkers,
            key: self.key(),
        });
        self.halfmove_clock += 1;
        if self.turn == Color::Black {
            self.fullmove_number += 1;
        }
        self.turn = self.turn.flip();
        self.update_checkers();
    }

    /// Takes back a [`play_null`](Position::play_null).
    ///
    /// # Panics
    ///
    /// If there is no move to take back; in debug builds, if the last move was not a null move.
    pub fn undo_null(&mut self) {
        let undo = self.history.pop().expect("a null move to take back");
        debug_assert_eq!(undo.mv, NULL_MOVE);
        self.turn = self.turn.flip();
        if self.turn == Color::Black {
            self.fullmove_number -= 1;
        }
        self.halfmove_clock = undo.halfmove_clock;
        self.checkers = undo.checkers;
    }

    /// Parses an ICCS move (`h2e2`, or `H2-E2`) and checks that it is legal here.
    ///
    /// # Errors
    ///
    /// [`MoveError::Syntax`] if the text is not a move, [`MoveError::Illegal`] if the move is not legal here.
    pub fn parse_iccs(&self, text: &str) -> Result<Move, MoveError> {
        self.checked(text, Move::from_iccs(text)?)
    }

    /// Parses a move in Fairy-Stockfish's coordinates (ranks 1–10, `h3e3`) and checks that it is legal here.
    ///
    /// # Errors
    ///
    /// As [`parse_iccs`](Position::parse_iccs).
    pub fn parse_fairy(&self, text: &str) -> Result<Move, MoveError> {
        self.checked(text, Move::from_fairy(text)?)
    }

    fn checked(&self, text: &str, mv: Move) -> Result<Move, MoveError> {
        if self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(MoveError::Illegal { text: text.to_owned(), fen: self.to_fen() })
        }
    }

    /// Whether the side to move is checkmated (it has lost).
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    /// Whether the side to move has no legal move without being in check: in xiangqi this loses too.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_move()
    }

    /// Whether `mv` takes a piece here.
    #[inline(always)]
    pub fn is_capture(&self, mv: Move) -> bool {
        self.board.piece_at(mv.to()).is_some()
    }

    /// The piece that `mv` moves, if there is one on its origin.
    #[inline(always)]
    pub fn moved_piece(&self, mv: Move) -> Option<Piece> {
        self.board.piece_at(mv.from())
    }

    /// The position mirrored across the river with the colours swapped (and the other side to move): the same
    /// game seen from the other side, for symmetry tests of evaluations. The history is not carried over.
    pub fn mirrored(&self) -> Position {
        let setup = Setup { board: self.board.mirrored(), turn: self.turn.flip(), ..self.to_setup() };
        Position::from_setup(&setup).expect("the mirror of a legal position is legal")
    }

    /// The position mirrored left to right (file `f` to `8 - f`), the same side to move: a position an
    /// evaluation that knows no left from right scores alike, for symmetry tests. The history is not carried
    /// over.
    pub fn mirrored_left_right(&self) -> Position {
        let mut board = Board::empty();
        for sq in self.board.occupied() {
            board.put(sq.flip_horizontal(), self.board.piece_at(sq).expect("an occupied square"));
        }
        let setup = Setup { board, ..self.to_setup() };
        Position::from_setup(&setup).expect("the mirror image of a legal position is legal")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn illegal_positions_are_typed() {
        let red = |role| Piece::new(Color::Red, role);
        let black = |role| Piece::new(Color::Black, role);
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let cases = [
            ("9/9/9/9/9/9/9/9/9/4K4 w", PositionError::Kings(KingProblem::Missing(Color::Black))),
            ("4k4/9/9/9/9/9/9/9/9/3KK4 w", PositionError::Kings(KingProblem::TooMany(Color::Red))),
            ("4k4/9/9/9/9/9/9/9/9/4K4 w", PositionError::OppositeCheck),
            ("4k4/9/9/9/9/9/9/9/9/r2K5 b", PositionError::OppositeCheck),
            ("k8/9/9/9/9/9/9/9/9/4K4 w", PositionError::MisplacedPiece(black(Role::King), sq("a9"))),
            ("4k4/9/9/9/9/9/9/9/9/K8 w", PositionError::MisplacedPiece(red(Role::King), sq("a0"))),
            ("4k4/9/9/9/9/9/9/9/9/3KA4 w", PositionError::MisplacedPiece(red(Role::Advisor), sq("e0"))),
            ("4k4/9/9/9/9/9/9/9/4B4/3K5 w", PositionError::MisplacedPiece(red(Role::Elephant), sq("e1"))),
            ("4k4/9/9/9/2B6/9/9/9/9/3K5 w", PositionError::MisplacedPiece(red(Role::Elephant), sq("c5"))),
            ("4k4/9/9/9/9/9/1P7/9/9/3K5 w", PositionError::MisplacedPiece(red(Role::Pawn), sq("b3"))),
            ("4k4/9/9/9/9/9/9/P8/9/3K5 w", PositionError::MisplacedPiece(red(Role::Pawn), sq("a2"))),
            ("4k4/9/9/9/9/9/9/9/9/3K1RRR1 w", PositionError::TooManyPieces(red(Role::Rook))),
            ("4k4/p1p1p1p1p/p8/9/9/9/9/9/9/3K5 w", PositionError::TooManyPieces(black(Role::Pawn))),
        ];
        for (fen, error) in cases {
            assert_eq!(Position::from_setup(&Setup::from_fen(fen).unwrap()), Err(error), "{fen}");
        }
        // A black pawn that crossed the river may stand anywhere there, even on Red's back rank.
        assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/9/p2K5 w").is_ok());
    }

    #[test]
    fn make_undo_restores_everything() {
        let mut pos = Position::startpos();
        let start = pos.clone();
        let mut clocks = Vec::new();
        for iccs in ["h2e2", "h9g7", "e2e6", "g7e6", "b2b9"] {
            let mv = pos.parse_iccs(iccs).unwrap();
            pos.play(mv).unwrap();
            assert_eq!(pos.key(), pos.key_from_scratch());
            clocks.push(pos.halfmove_clock());
        }
        assert_eq!(clocks, [1, 2, 0, 0, 0]);
        assert_eq!(pos.to_fen(), "rCbakab1r/9/1c5c1/p1p1n1p1p/9/9/P1P1P1P1P/9/9/RNBAKABNR b - - 0 3");
        while pos.undo().is_some() {}
        assert_eq!(pos, start);
        assert_eq!(pos.key(), start.key());
    }
}
