//! [`Position`]: a validated chess position with make/undo, and the [`CastlingRights`] it carries.
//!
//! A position is built from a [`Setup`] (or FEN) by [`Position::from_setup`], which rejects impossible positions
//! with a [`PositionError`]. From then on it changes only through [`Position::play`] / [`Position::play_unchecked`]
//! and [`Position::undo`]; every change goes through a mutator that XORs the Polyglot key in the same place it
//! changes the state, so [`Position::key`] is never stale and never recomputed.
//!
//! The en-passant square is kept only when a pawn of the side to move stands ready to capture on it (the rule
//! Polyglot hashes by), so two positions with the same key also have the same FEN up to the move clocks.
//!
//! # Examples
//!
//! ```
//! use tabula_chess::Position;
//!
//! let mut pos = Position::startpos();
//! let start_key = pos.key();
//! for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
//!     pos.play(pos.parse_uci(uci).unwrap()).unwrap();
//! }
//! assert_eq!(pos.key(), start_key); // same placement, rights and side to move
//! pos.undo();
//! assert_eq!(pos.to_fen(), "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 3 2");
//! ```

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
pub use crate::castling::{CastlingRights, CastlingSide};
use crate::moves::Move;
use crate::setup::Setup;
use crate::types::{Color, File, Piece, Rank, Role, Square};
use crate::zobrist;
use tabula::Key;
use tabula_board::KingProblem;
use tabula_board::MoveError;

/// Why a [`Setup`] is not a legal chess position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side without a king, or with more than one.
    #[error(transparent)]
    Kings(#[from] KingProblem<Color>),
    /// A side has more than 16 pieces or more than 8 pawns.
    #[error("{0:?} has too many pieces (more than 16, or more than 8 pawns)")]
    TooManyPieces(Color),
    /// A pawn stands on the first or eighth rank.
    #[error("pawn on {0}, a back rank")]
    PawnOnBackRank(Square),
    /// The side that just moved left its own king in check.
    #[error("the side not to move is in check")]
    OppositeCheck,
    /// More than two pieces give check, which no legal move can produce.
    #[error("the king is attacked by {0} pieces; no legal move gives more than two checks")]
    TooManyCheckers(u32),
    /// A castling right without its king on the back rank and its rook there on that side of the king.
    #[error("{0:?} may castle {1:?} but its king or rook is not on its starting square")]
    InvalidCastlingRights(Color, CastlingSide),
    /// An en-passant square that no double pawn push can have produced.
    #[error("en-passant square {0} does not follow a double pawn push")]
    InvalidEnPassant(Square),
}

/// What [`Position::undo`] needs to restore that the move itself does not say.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    /// The piece that moved (the king when castling; for a null move, nothing reads it).
    piece: Piece,
    captured: Option<Piece>,
    castling: CastlingRights,
    ep_square: Option<Square>,
    halfmove_clock: u32,
    checkers: Bitboard,
}

/// A legal chess position with its own history of moves for [`undo`](Position::undo).
#[derive(Clone)]
pub struct Position {
    board: Board,
    turn: Color,
    castling: CastlingRights,
    ep_square: Option<Square>,
    halfmove_clock: u32,
    fullmove_number: u32,
    /// Key of everything but the placement: side to move, castling rights, en passant.
    state_key: Key,
    /// The pieces giving check to the side to move.
    checkers: Bitboard,
    /// The castling rights lost when a piece moves from or to each square: the starting squares of the kings
    /// and castling rooks.
    rights_lost: [u8; 64],
    /// For each castling right held at the start, by `2 * color + side`: the squares to test.
    castling_paths: [CastlingPath; 4],
    history: Vec<Undo>,
}

/// The pieces one move took off the board and put on it (see [`Position::placement_change`]).
pub type PlacementChange = tabula_board::PlacementChange<Piece>;

/// What castling with one rook needs, computed once per position set up.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CastlingPath {
    /// The rook's square.
    pub rook: Square,
    /// The squares king and rook cross or land on, but their own: they must be empty.
    pub empty: Bitboard,
    /// The squares the king crosses and lands on: none may be attacked.
    pub king_path: Bitboard,
}

tabula_board::position_accessors!(Position, Board, Color, Bitboard);

impl Position {
    /// Validates `setup`.
    ///
    /// An en-passant square is checked (a double push must have produced it) and then dropped if no pawn of the
    /// side to move stands beside the pushed pawn. A full-move number of 0 is read as 1.
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
            if board.by_color(color).count() > 16 || board.by_piece(Piece::new(color, Role::Pawn)).count() > 8 {
                return Err(PositionError::TooManyPieces(color));
            }
        }
        let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
        if let Some(sq) = (board.by_role(Role::Pawn) & back_ranks).first() {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        let mut rights_lost = [0u8; 64];
        let unused = CastlingPath { rook: Square::A1, empty: Bitboard::EMPTY, king_path: Bitboard::EMPTY };
        let mut castling_paths = [unused; 4];
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(file) = setup.castling.rook_file(color, side) {
                    let rank = color.back_rank();
                    let king = board.king_of(color).expect("checked above");
                    let rook = Square::from_coords(file, rank);
                    let on_its_side = match side {
                        CastlingSide::KingSide => file > king.file(),
                        CastlingSide::QueenSide => file < king.file(),
                    };
                    if king.rank() != rank
                        || !on_its_side
                        || board.piece_at(rook) != Some(Piece::new(color, Role::Rook))
                    {
                        return Err(PositionError::InvalidCastlingRights(color, side));
                    }
                    let bit = 1 << (2 * color.index() + side.index());
                    rights_lost[king.index()] |= bit;
                    rights_lost[rook.index()] |= bit;
                    let king_to = Square::from_coords(side.king_to_file(), rank);
                    let rook_to = Square::from_coords(side.rook_to_file(), rank);
                    let king_path = attacks::between(king, king_to).with(king_to);
                    let rook_path = attacks::between(rook, rook_to).with(rook_to);
                    let empty = (king_path | rook_path).without(king).without(rook);
                    castling_paths[2 * color.index() + side.index()] = CastlingPath { rook, empty, king_path };
                }
            }
        }
        let us = setup.turn;
        let them = us.flip();
        let their_king = board.king_of(them).expect("checked above");
        if (board.attackers_to(their_king, board.occupied()) & board.by_color(us)).any() {
            return Err(PositionError::OppositeCheck);
        }
        let our_king = board.king_of(us).expect("checked above");
        let checkers = board.attackers_to(our_king, board.occupied()) & board.by_color(them);
        if checkers.count() > 2 {
            return Err(PositionError::TooManyCheckers(checkers.count()));
        }
        let mut ep_square = None;
        if let Some(ep) = setup.ep_square {
            // The pawn that moved two squares stands in front of `ep`, and the two squares it crossed are empty.
            let pushed = ep.offset(0, if us == Color::White { -1 } else { 1 });
            let origin = ep.offset(0, if us == Color::White { 1 } else { -1 });
            let valid = ep.rank() == Rank::Sixth.relative_to(us)
                && !board.occupied().contains(ep)
                && origin.is_some_and(|o| !board.occupied().contains(o))
                && pushed.is_some_and(|p| board.piece_at(p) == Some(Piece::new(them, Role::Pawn)));
            if !valid {
                return Err(PositionError::InvalidEnPassant(ep));
            }
            if (attacks::pawn(them, ep) & board.by_piece(Piece::new(us, Role::Pawn))).any() {
                ep_square = Some(ep);
            }
        }
        let mut pos = Position {
            board: board.clone(),
            turn: Color::White,
            castling: CastlingRights::NONE,
            ep_square: None,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number.max(1),
            state_key: zobrist::WHITE_TO_MOVE,
            checkers,
            rights_lost,
            castling_paths,
            history: Vec::with_capacity(64),
        };
        if us == Color::Black {
            pos.flip_turn();
        }
        pos.set_castling(setup.castling);
        pos.set_ep_square(ep_square);
        Ok(pos)
    }

    /// Start position `number` (0 to 959) of Chess960; see [`Setup::chess960`]. `None` past 959.
    pub fn chess960(number: u32) -> Option<Position> {
        Setup::chess960(number).map(|setup| Position::from_setup(&setup).expect("Chess960 start positions are legal"))
    }

    /// Whether castling here needs Chess960: a castling right held with a king off the e-file or a rook off the
    /// a- and h-files. (Without such a right the game plays the same under either rule.)
    pub fn is_chess960(&self) -> bool {
        Color::ALL.into_iter().any(|color| {
            let king_on_e = self.board.king_of(color).is_some_and(|k| k.file() == File::E);
            CastlingSide::ALL.into_iter().any(|side| {
                self.castling.rook_file(color, side).is_some_and(|f| f != side.rook_from_file() || !king_on_e)
            })
        })
    }

    /// The position as an unvalidated [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            turn: self.turn,
            castling: self.castling,
            ep_square: self.ep_square,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
        }
    }

    // ---- Accessors ------------------------------------------------------------------------------------------

    /// The squares castling of `color` on `side` tests (meaningful while the right is held).
    #[inline(always)]
    pub(crate) fn castling_path(&self, color: Color, side: CastlingSide) -> &CastlingPath {
        &self.castling_paths[2 * color.index() + side.index()]
    }

    /// The castling rights left.
    #[inline(always)]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// The en-passant square, when a pawn of the side to move could capture onto it.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The square of the side to move's king.
    #[inline(always)]
    pub fn our_king(&self) -> Square {
        (self.board.by_role(Role::King) & self.board.by_color(self.turn)).single()
    }

    /// The Polyglot key of the position.
    #[inline(always)]
    pub fn key(&self) -> Key {
        self.board.key() ^ self.state_key
    }

    /// The Polyglot key computed from scratch, to check the incremental [`key`](Position::key).
    pub fn key_from_scratch(&self) -> Key {
        let mut key = self.board.key_from_scratch();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if self.castling.has(color, side) {
                    key ^= zobrist::castling(color, side);
                }
            }
        }
        if let Some(ep) = self.ep_square {
            key ^= zobrist::en_passant(ep.file());
        }
        if self.turn == Color::White {
            key ^= zobrist::WHITE_TO_MOVE;
        }
        key
    }

    /// Number of moves that [`undo`](Position::undo) can take back.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// The moves played since the position was set up, oldest first.
    pub fn moves_played(&self) -> impl DoubleEndedIterator<Item = Move> + '_ {
        self.history.iter().map(|undo| undo.mv)
    }

    /// What the move `ply` of the history (0 the first, below [`history_len`](Position::history_len)) took
    /// off the board and put on it; nothing for a null move.
    ///
    /// # Panics
    ///
    /// If `ply` is not below the history's length.
    pub fn placement_change(&self, ply: usize) -> PlacementChange {
        let undo = &self.history[ply];
        let mut change = PlacementChange::default();
        let (mv, piece) = (undo.mv, undo.piece);
        if mv == Move::NULL {
            return change;
        }
        let (from, to) = (mv.from(), mv.to());
        change.remove(piece, from);
        if mv.is_castling() {
            let side = mv.castling_side().expect("castling");
            let rank = from.rank();
            let rook = Piece::new(piece.color, Role::Rook);
            change.remove(rook, to);
            change.add(piece, Square::from_coords(side.king_to_file(), rank));
            change.add(rook, Square::from_coords(side.rook_to_file(), rank));
            return change;
        }
        if let Some(captured) = undo.captured {
            change.remove(captured, to);
        } else if piece.role == Role::Pawn && Some(to) == undo.ep_square {
            change.remove(Piece::new(piece.color.flip(), Role::Pawn), Square::from_coords(to.file(), from.rank()));
        }
        change.add(Piece::new(piece.color, mv.promotion().unwrap_or(piece.role)), to);
        change
    }

    // ---- State mutators: each XORs the key where it changes the state -------------------------------------

    #[inline(always)]
    fn flip_turn(&mut self) {
        self.turn = self.turn.flip();
        self.state_key ^= zobrist::WHITE_TO_MOVE;
    }

    #[inline(always)]
    fn set_castling(&mut self, rights: CastlingRights) {
        let mut changed = self.castling.bits() ^ rights.bits();
        while changed != 0 {
            let bit = changed.trailing_zeros() as usize;
            self.state_key ^= zobrist::castling(Color::ALL[bit / 2], CastlingSide::ALL[bit % 2]);
            changed &= changed - 1;
        }
        self.castling = rights;
    }

    #[inline(always)]
    fn set_ep_square(&mut self, ep: Option<Square>) {
        if let Some(old) = self.ep_square {
            self.state_key ^= zobrist::en_passant(old.file());
        }
        if let Some(new) = ep {
            self.state_key ^= zobrist::en_passant(new.file());
        }
        self.ep_square = ep;
    }

    /// Recomputes the checkers of the side to move (after a move or a pass).
    #[inline(always)]
    fn update_checkers(&mut self) {
        let king = self.our_king();
        self.checkers = self.board.attackers_to(king, self.board.occupied()) & self.board.by_color(self.turn.flip());
    }

    // ---- Make and undo -------------------------------------------------------------------------------------

    /// Plays `mv` if it is legal here, reading a king's move to its castling square or onto its own rook as
    /// castling (see [`find_legal`](Position::find_legal)).
    ///
    /// # Errors
    ///
    /// [`MoveError::Illegal`] if it is not legal.
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        let Some(legal) = self.find_legal(mv) else {
            return Err(MoveError::Illegal { text: mv.to_uci(), fen: self.to_fen() });
        };
        self.play_unchecked(legal);
        Ok(())
    }

    /// Whether `mv` is one of the legal moves, exactly (castling must be a [`Move::castling`]).
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// The legal move `mv` stands for: `mv` itself if it is legal; otherwise, for a king's move without
    /// promotion, the legal castling of that king whose rook stands on the destination (the Chess960 way of
    /// writing it, `e1h1`) or whose king lands there (the standard way, `e1g1`).
    pub fn find_legal(&self, mv: Move) -> Option<Move> {
        let legal = self.legal_moves();
        if legal.contains(&mv) {
            return Some(mv);
        }
        if mv.is_castling() || mv.promotion().is_some() {
            return None;
        }
        legal
            .iter()
            .copied()
            .find(|c| c.is_castling() && c.from() == mv.from() && (c.to() == mv.to() || c.king_to() == mv.to()))
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
        let us = self.turn;
        let piece = self.board.piece_at(from).expect("a piece on the origin square");
        debug_assert_eq!(piece.color, us, "{mv} moves an opponent's piece");
        let captured = if mv.is_castling() { None } else { self.board.piece_at(to) };
        self.history.push(Undo {
            mv,
            piece,
            captured,
            castling: self.castling,
            ep_square: self.ep_square,
            halfmove_clock: self.halfmove_clock,
            checkers: self.checkers,
        });

        self.halfmove_clock += 1;
        let mut new_ep = None;
        if captured.is_some() {
            self.halfmove_clock = 0;
            self.board.remove(to);
        }
        self.board.remove(from);
        match piece.role {
            Role::Pawn => {
                self.halfmove_clock = 0;
                if Some(to) == self.ep_square {
                    // En passant: the captured pawn stands beside the origin, on the destination's file.
                    self.board.remove(Square::from_coords(to.file(), from.rank()));
                } else if from.index().abs_diff(to.index()) == 16 {
                    let crossed = Square::from_index_unchecked((from.index() + to.index()) / 2);
                    if (attacks::pawn(us, crossed) & self.board.by_piece(Piece::new(us.flip(), Role::Pawn))).any() {
                        new_ep = Some(crossed);
                    }
                }
                let role = mv.promotion().unwrap_or(Role::Pawn);
                self.board.put(to, Piece::new(us, role));
            }
            Role::King if mv.is_castling() => {
                // King takes own rook: both leave, then both land (in Chess960 the squares may overlap).
                let side = mv.castling_side().expect("castling");
                let rank = from.rank();
                let rook = self.board.remove(to);
                debug_assert_eq!(rook, Some(Piece::new(us, Role::Rook)));
                self.board.put(Square::from_coords(side.rook_to_file(), rank), Piece::new(us, Role::Rook));
                self.board.put(Square::from_coords(side.king_to_file(), rank), piece);
            }
            _ => self.board.put(to, piece),
        }
        let lost = self.rights_lost[from.index()] | self.rights_lost[to.index()];
        if self.castling.bits() & lost != 0 {
            self.set_castling(self.castling.without_bits(lost));
        }
        if self.ep_square.is_some() || new_ep.is_some() {
            self.set_ep_square(new_ep);
        }
        if us == Color::Black {
            self.fullmove_number += 1;
        }
        self.flip_turn();
        self.update_checkers();
    }

    /// Takes back the last move played and returns it (`None` if there is none).
    pub fn undo(&mut self) -> Option<Move> {
        let undo = self.history.pop()?;
        let mv = undo.mv;
        let (from, to) = (mv.from(), mv.to());
        self.flip_turn();
        let us = self.turn;
        if us == Color::Black {
            self.fullmove_number -= 1;
        }
        if mv.is_castling() {
            let side = mv.castling_side().expect("castling");
            let rank = from.rank();
            let king = self.board.remove(Square::from_coords(side.king_to_file(), rank));
            let rook = self.board.remove(Square::from_coords(side.rook_to_file(), rank));
            self.board.put(from, king.expect("the castled king"));
            self.board.put(to, rook.expect("the castled rook"));
        } else {
            self.undo_move(mv, us, undo.ep_square);
        }
        if let Some(captured) = undo.captured {
            self.board.put(to, captured);
        }
        if self.castling != undo.castling {
            self.set_castling(undo.castling);
        }
        if self.ep_square != undo.ep_square {
            self.set_ep_square(undo.ep_square);
        }
        self.halfmove_clock = undo.halfmove_clock;
        self.checkers = undo.checkers;
        Some(mv)
    }

    /// Puts back the piece `mv` (not castling) moved, and a pawn taken en passant.
    #[inline(always)]
    fn undo_move(&mut self, mv: Move, us: Color, ep_square: Option<Square>) {
        let (from, to) = (mv.from(), mv.to());
        let moved = self.board.remove(to).expect("the moved piece on the destination");
        match moved.role {
            _ if mv.promotion().is_some() => self.board.put(from, Piece::new(us, Role::Pawn)),
            Role::Pawn => {
                self.board.put(from, moved);
                if Some(to) == ep_square {
                    self.board.put(Square::from_coords(to.file(), from.rank()), Piece::new(us.flip(), Role::Pawn));
                }
            }
            _ => self.board.put(from, moved),
        }
    }

    /// Passes the turn (a "null move" for search): the en-passant right lapses, the clocks advance.
    ///
    /// # Panics
    ///
    /// In debug builds, if the side to move is in check.
    pub fn play_null(&mut self) {
        debug_assert!(!self.is_check(), "null move while in check");
        self.history.push(Undo {
            mv: Move::NULL,
            piece: Piece::new(self.turn, Role::King),
            captured: None,
            castling: self.castling,
            ep_square: self.ep_square,
            halfmove_clock: self.halfmove_clock,
            checkers: self.checkers,
        });
        self.set_ep_square(None);
        self.halfmove_clock += 1;
        if self.turn == Color::Black {
            self.fullmove_number += 1;
        }
        self.flip_turn();
        self.update_checkers();
    }

    /// Takes back a [`play_null`](Position::play_null).
    ///
    /// # Panics
    ///
    /// In debug builds, if the last move was not a null move.
    pub fn undo_null(&mut self) {
        let undo = self.history.pop().expect("a null move to take back");
        debug_assert_eq!(undo.mv, Move::NULL);
        self.flip_turn();
        if self.turn == Color::Black {
            self.fullmove_number -= 1;
        }
        self.set_ep_square(undo.ep_square);
        self.halfmove_clock = undo.halfmove_clock;
        self.checkers = undo.checkers;
    }

    /// Parses a UCI move and checks that it is legal here. Castling may be written either way: as the king's
    /// move (`e1g1`) or as the king taking its rook (`e1h1`, as under `UCI_Chess960`).
    ///
    /// # Errors
    ///
    /// [`MoveError::Syntax`] if the text is not a move, [`MoveError::Illegal`] if the move is not legal here.
    pub fn parse_uci(&self, uci: &str) -> Result<Move, MoveError> {
        let mv = Move::from_uci(uci)?;
        self.find_legal(mv).ok_or_else(|| MoveError::Illegal { text: uci.to_owned(), fen: self.to_fen() })
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    /// Whether the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_move()
    }

    /// Whether neither side has the material to mate by any sequence of legal moves: bare kings, a single minor
    /// piece, or bishops all on squares of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let b = &self.board;
        if (b.by_role(Role::Pawn) | b.orthogonal_sliders()).any() {
            return false;
        }
        let minors = b.by_role(Role::Knight) | b.by_role(Role::Bishop);
        if minors.count() <= 1 {
            return true;
        }
        const DARK: Bitboard = Bitboard::from_bits(0xaa55_aa55_aa55_aa55);
        let bishops = b.by_role(Role::Bishop);
        b.by_role(Role::Knight).is_empty() && ((bishops & DARK).is_empty() || (bishops & !DARK).is_empty())
    }
}
