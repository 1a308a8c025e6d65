//! Legal move generation.
//!
//! Moves are generated legal, not generated and then tested: pieces pinned to their king move only along the pin
//! line, in check every piece but the king must capture the checker or block, in double check only the king
//! moves, the king never steps onto an attacked square (its own square removed from the blockers, so it cannot
//! retreat along a checking ray), and castling (standard or Chess960) needs the squares king and rook cross or
//! land on empty but for themselves and no attack on the king's path. En passant, the one move that takes two pieces off a line at once, is checked by looking for a
//! slider that sees the king once both pawns are gone.
//!
//! Generation is organised as one destination set per piece, which lets [`Position::count_legal_moves`] count
//! the moves of the last perft ply with a population count instead of making them.
//!
//! # Examples
//!
//! ```
//! use tabula_chess::Position;
//!
//! let pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 20);
//! assert_eq!(pos.count_legal_moves(), 20);
//!
//! // The white pawn on e5 may not take d6 en passant: the rook on a5 would see the king on h5.
//! let pos = Position::from_fen("8/8/8/r2pP2K/8/8/8/k7 w - d6 0 1").unwrap();
//! assert!(pos.legal_moves().iter().all(|mv| mv.to_string() != "e5d6"));
//! ```

use crate::attacks;
use crate::bitboard::{Bitboard, PawnSets};
use crate::castling::CastlingSide;
use crate::moves::{Move, MoveList};
use crate::position::{CastlingPath, Position};
use crate::types::{Color, Piece, Rank, Role, Square};
use tabula_board::MoveSink;

/// A slider's attacks from a square with the given blockers ([`attacks::bishop`], [`attacks::rook`]).
type Slide = fn(Square, Bitboard) -> Bitboard;

/// A set of legal moves of one role: either one piece's moves (`shift == 0`: every move starts from `from`), or
/// pawn moves made set-wise, each starting `shift` squares before its destination.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PieceMoves {
    pub role: Role,
    pub from: Square,
    pub to: Bitboard,
    pub shift: i8,
    /// Pawn moves onto the last rank: each destination is four moves.
    pub promotion: bool,
    /// Castling: each destination is the square of a rook the king castles with.
    pub castling: bool,
}

impl PieceMoves {
    #[inline(always)]
    fn piece(role: Role, from: Square, to: Bitboard) -> PieceMoves {
        PieceMoves { role, from, to, shift: 0, promotion: false, castling: false }
    }

    /// The origin of the move to `to`.
    #[inline(always)]
    fn origin(&self, to: Square) -> Square {
        if self.shift == 0 {
            self.from
        } else {
            Square::from_index_unchecked((to.index() as i32 - self.shift as i32) as usize)
        }
    }

    /// Number of moves, counting each promotion destination four times.
    #[inline(always)]
    fn count(&self) -> u64 {
        let n = self.to.count() as u64;
        if self.promotion {
            4 * n
        } else {
            n
        }
    }

    #[inline(always)]
    fn push_into<S: MoveSink<Move>>(&self, sink: &mut S) {
        if self.promotion {
            for to in self.to {
                for role in Role::PROMOTIONS {
                    sink.push_move(Move::with_promotion(self.origin(to), to, role));
                }
            }
        } else if self.castling {
            for to in self.to {
                sink.push_move(Move::castling(self.from, to));
            }
        } else {
            for to in self.to {
                sink.push_move(Move::new(self.origin(to), to));
            }
        }
    }
}

impl Position {
    /// Whether a piece of `by` attacks `sq`, with `occupied` as the blockers.
    #[inline(always)]
    fn is_attacked(&self, sq: Square, occupied: Bitboard, by: Color) -> bool {
        let b = self.board();
        let theirs = b.by_color(by);
        (attacks::knight(sq) & theirs & b.by_role(Role::Knight)).any()
            || (attacks::pawn(by.flip(), sq) & theirs & b.by_role(Role::Pawn)).any()
            || (attacks::king(sq) & theirs & b.by_role(Role::King)).any()
            || (attacks::bishop(sq, occupied) & theirs & b.diagonal_sliders()).any()
            || (attacks::rook(sq, occupied) & theirs & b.orthogonal_sliders()).any()
    }

    /// Our pieces that stand alone between our king and an enemy slider aiming at it.
    #[inline(always)]
    pub(crate) fn pinned(&self) -> Bitboard {
        let b = self.board();
        let king = self.our_king();
        let theirs = b.by_color(self.turn().flip());
        let snipers = (attacks::rook(king, theirs) & theirs & b.orthogonal_sliders())
            | (attacks::bishop(king, theirs) & theirs & b.diagonal_sliders());
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & b.occupied();
            if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        pinned & b.by_color(self.turn())
    }

    /// Calls `listener` with the legal destinations of each piece that has any (and possibly some empty sets);
    /// stops early and returns `true` as soon as the listener returns `true`.
    #[inline(always)]
    pub(crate) fn generate<F: FnMut(PieceMoves) -> bool>(&self, mut listener: F) -> bool {
        let b = self.board();
        let us = self.turn();
        let them = us.flip();
        let ours = b.by_color(us);
        let theirs = b.by_color(them);
        let occupied = b.occupied();
        let king = self.our_king();
        let checkers = self.checkers();

        // Step 1. King moves, castling included: never onto an attacked square.
        let without_king = occupied.without(king);
        let mut king_to = Bitboard::EMPTY;
        for to in attacks::king(king) & !ours {
            if !self.is_attacked(to, without_king, them) {
                king_to = king_to.with(to);
            }
        }
        if king_to.any() && listener(PieceMoves::piece(Role::King, king, king_to)) {
            return true;
        }
        if checkers.is_empty() && !self.castling().is_empty() {
            let mut rooks = Bitboard::EMPTY;
            for side in CastlingSide::ALL {
                if self.castling().has(us, side) {
                    let path = self.castling_path(us, side);
                    if (path.empty & occupied).is_empty() && self.castling_path_is_safe(king, path) {
                        rooks = rooks.with(path.rook);
                    }
                }
            }
            if rooks.any() && listener(PieceMoves { castling: true, ..PieceMoves::piece(Role::King, king, rooks) }) {
                return true;
            }
        }

        // Step 2. In double check only the king moves; in single check the others must capture or block.
        if checkers.more_than_one() {
            return false;
        }
        let target = match checkers.first() {
            Some(checker) => (attacks::between(king, checker) | checkers) & !ours,
            None => !ours,
        };
        let pinned = self.pinned();

        // Step 3. Knights: a pinned knight never moves.
        for from in b.by_role(Role::Knight) & ours & !pinned {
            let to = attacks::knight(from) & target;
            if to.any() && listener(PieceMoves::piece(Role::Knight, from, to)) {
                return true;
            }
        }

        // Step 4. Sliders: a pinned one stays on the line through its king and its pinner.
        let slides: [(Bitboard, Slide, Role); 2] = [
            (b.diagonal_sliders(), attacks::bishop, Role::Bishop),
            (b.orthogonal_sliders(), attacks::rook, Role::Rook),
        ];
        for (sliders, slide, role) in slides {
            for from in sliders & ours {
                let mut to = slide(from, occupied) & target;
                if pinned.contains(from) {
                    to &= attacks::line(king, from);
                }
                let role = if b.by_role(Role::Queen).contains(from) { Role::Queen } else { role };
                if to.any() && listener(PieceMoves::piece(role, from, to)) {
                    return true;
                }
            }
        }

        // Step 5. Pawns: pushes onto empty squares, captures onto enemy pieces, and en passant. Pawns that are
        // not pinned move set-wise, one shifted bitboard per kind of move; pinned ones and en passant one by one.
        let pawns = b.by_role(Role::Pawn) & ours;
        let last_rank = Bitboard::rank(Rank::Eighth.relative_to(us));
        let third_rank = Bitboard::rank(Rank::Third.relative_to(us));
        let free = pawns & !pinned;
        let forward: i8 = if us == Color::White { 8 } else { -8 };
        const NOT_A: Bitboard = Bitboard::from_bits(!0x0101_0101_0101_0101);
        const NOT_H: Bitboard = Bitboard::from_bits(!0x8080_8080_8080_8080);
        let single = free.forward(us) & !occupied;
        let double = (single & third_rank).forward(us) & !occupied;
        let toward_a = (free & NOT_A).forward(us);
        let toward_h = (free & NOT_H).forward(us);
        // (A capture toward the a-file lands one square before the push square, toward h one after.)
        let left = Bitboard::from_bits(toward_a.0 >> 1);
        let right = Bitboard::from_bits(toward_h.0 << 1);
        for (to, shift) in [
            (single & target, forward),
            (double & target, 2 * forward),
            (left & theirs & target, forward - 1),
            (right & theirs & target, forward + 1),
        ] {
            for (to, promotion) in [(to & !last_rank, false), (to & last_rank, true)] {
                if to.any()
                    && listener(PieceMoves { role: Role::Pawn, from: king, to, shift, promotion, castling: false })
                {
                    return true;
                }
            }
        }
        for from in pawns & pinned {
            let single = Bitboard::from_square(from).forward(us) & !occupied;
            let double = (single & third_rank).forward(us) & !occupied;
            let to = ((single | double) | (attacks::pawn(us, from) & theirs)) & target & attacks::line(king, from);
            if to.any() {
                let promotion = (to & last_rank).any();
                if listener(PieceMoves { role: Role::Pawn, from, to, shift: 0, promotion, castling: false }) {
                    return true;
                }
            }
        }
        if let Some(ep) = self.ep_square() {
            for from in attacks::pawn(them, ep) & pawns {
                if self.en_passant_is_legal(from, ep)
                    && listener(PieceMoves::piece(Role::Pawn, from, Bitboard::from_square(ep)))
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether no square of the king's castling path is attacked. The path is tested with king and rook off
    /// the board, which also catches the Chess960 case of a castling rook that shields the king's destination
    /// from a rook or queen behind it.
    #[inline]
    fn castling_path_is_safe(&self, king: Square, path: &CastlingPath) -> bool {
        let without = self.board().occupied().without(king).without(path.rook);
        let them = self.turn().flip();
        !path.king_path.into_iter().any(|sq| self.is_attacked(sq, without, them))
    }

    /// Whether the pawn on `from` may capture en passant onto `ep`: with both pawns gone and ours on `ep`, no
    /// enemy piece may attack the king (this covers pins along the rank, which no pin mask sees).
    fn en_passant_is_legal(&self, from: Square, ep: Square) -> bool {
        let b = self.board();
        let king = self.our_king();
        let them = self.turn().flip();
        let captured = Square::from_coords(ep.file(), from.rank());
        let occupied = (b.occupied().without(from).without(captured)).with(ep);
        let theirs = b.by_color(them).without(captured);
        (attacks::bishop(king, occupied) & theirs & b.diagonal_sliders()).is_empty()
            && (attacks::rook(king, occupied) & theirs & b.orthogonal_sliders()).is_empty()
            && (attacks::knight(king) & theirs & b.by_role(Role::Knight)).is_empty()
            && (attacks::pawn(self.turn(), king) & theirs & b.by_role(Role::Pawn)).is_empty()
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// Appends every legal move to `sink`.
    pub fn legal_moves_into<S: MoveSink<Move>>(&self, sink: &mut S) {
        self.generate(|pm| {
            pm.push_into(sink);
            false
        });
    }

    /// Appends the legal captures (en passant included) and promotions to `sink`.
    pub fn noisy_moves_into<S: MoveSink<Move>>(&self, sink: &mut S) {
        let us = self.turn();
        let theirs = self.board().by_color(us.flip());
        let ep = self.ep_square().map_or(Bitboard::EMPTY, Bitboard::from_square);
        self.generate(|mut pm| {
            if !pm.promotion {
                // (Castling's destinations are our own rooks, so it drops out here.)
                pm.to &= if pm.role == Role::Pawn { theirs | ep } else { theirs };
            }
            pm.push_into(sink);
            false
        });
    }

    /// The number of legal moves, counted without making or listing them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut count = 0;
        self.generate(|pm| {
            count += pm.count();
            false
        });
        count
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        self.generate(|pm| pm.to.any())
    }

    /// The legal moves of the piece on `from`, appended to `sink`.
    pub fn legal_moves_from<S: MoveSink<Move>>(&self, from: Square, sink: &mut S) {
        self.generate(|mut pm| {
            if pm.shift != 0 {
                pm.to = pm.to.into_iter().filter(|&to| pm.origin(to) == from).collect();
            } else if pm.from != from {
                return false;
            }
            pm.push_into(sink);
            false
        });
    }

    /// Whether `mv` is a capture here (en passant included).
    pub fn is_capture(&self, mv: Move) -> bool {
        let b = self.board();
        b.by_color(self.turn().flip()).contains(mv.to())
            || (Some(mv.to()) == self.ep_square() && b.by_role(Role::Pawn).contains(mv.from()))
    }

    /// Whether `mv` castles ([`Move::is_castling`]; kept for callers that ask the position).
    pub fn is_castling(&self, mv: Move) -> bool {
        mv.is_castling()
    }

    /// The piece that `mv` moves, if there is one on its origin.
    pub fn moved_piece(&self, mv: Move) -> Option<Piece> {
        self.board().piece_at(mv.from())
    }

    /// Whether the side to move has a piece other than pawns and its king.
    pub fn has_non_pawn_material(&self) -> bool {
        self.board().has_non_pawn_material(self.turn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POSITIONS: [&str; 4] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ];

    #[test]
    fn moves_from_one_square_are_the_legal_moves_from_it() {
        for fen in POSITIONS {
            let pos = Position::from_fen(fen).unwrap();
            let all = pos.legal_moves();
            assert_eq!(all.len() as u64, pos.count_legal_moves());
            for sq in Square::ALL {
                let mut from = Vec::new();
                pos.legal_moves_from(sq, &mut from);
                let expected: Vec<Move> = all.iter().copied().filter(|mv| mv.from() == sq).collect();
                assert_eq!(from, expected, "{fen} {sq}");
            }
        }
    }

    #[test]
    fn pins_checks_and_en_passant() {
        let count = |fen: &str| Position::from_fen(fen).unwrap().count_legal_moves();
        // Double check: only the king moves.
        assert_eq!(count("4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1"), 2);
        // The pinned knight cannot move; the pinned rook slides along the pin.
        assert_eq!(count("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1"), 4);
        assert_eq!(count("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1"), 9);
        // En passant that removes the checking pawn.
        let pos = Position::from_fen("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1").unwrap();
        assert!(pos.legal_moves().iter().any(|mv| mv.to_string() == "e4d3"));
    }
}
