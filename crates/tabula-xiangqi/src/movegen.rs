//! Legal move generation.
//!
//! Each piece's destinations come as one set ([`Board::targets`](crate::Board::targets) minus its own side's
//! squares), and the moves that could expose the king are tested on a view of the board with the move applied
//! (the board itself is not changed). Which moves could: every king move, every move out of check, and otherwise
//! a move from a point on the king's rank or file (it may uncover a rook, a cannon or the other king, or leave a
//! cannon a single screen) or diagonally next to the king (it may free a horse's leg), or a move onto the king's
//! rank or file (it may become a cannon's screen). A capture never uncovers anything, since the capturing piece
//! takes the captured one's place. All other moves are legal as generated.
//!
//! With no stalemate in xiangqi, a side without a legal move has lost; [`Position::has_legal_move`] says so.
//!
//! # Examples
//!
//! ```
//! use tabula_xiangqi::Position;
//!
//! let pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 44);
//! assert_eq!(pos.count_legal_moves(), 44);
//!
//! // The flying general: the cannon on e4 may not leave the file between the kings.
//! let pos = Position::from_fen("4k4/9/9/9/9/4C4/9/9/9/4K4 w").unwrap();
//! let e4 = "e4".parse().unwrap();
//! assert!(pos.legal_moves().iter().filter(|mv| mv.from() == e4).all(|mv| mv.to().file() == e4.file()));
//! ```

use crate::bitboard::{file_bits, rank_bits, Bitboard};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Role, Square};
use tabula_board::MoveSink;

/// For each square: every square of its rank and its file.
static LINES: [Bitboard; 90] = {
    let mut table = [Bitboard::EMPTY; 90];
    let mut i = 0;
    while i < 90 {
        let sq = Square::ALL[i];
        table[i] = Bitboard::from_bits(rank_bits(sq.rank()) | file_bits(sq.file()));
        i += 1;
    }
    table
};

/// For each square: its diagonal neighbours (the legs of horses that could attack a king there).
static DIAGONAL_NEIGHBOURS: [Bitboard; 90] = {
    let mut table = [Bitboard::EMPTY; 90];
    let mut i = 0;
    while i < 90 {
        let sq = Square::ALL[i];
        let mut bits = 0u128;
        let steps = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let mut d = 0;
        while d < 4 {
            if let Some(n) = sq.offset(steps[d].0, steps[d].1) {
                bits |= 1 << n.index();
            }
            d += 1;
        }
        table[i] = Bitboard::from_bits(bits);
        i += 1;
    }
    table
};

impl Position {
    /// Calls `listener` with each piece of the side to move that has legal moves, and the set of its legal
    /// destinations; stops early and returns `true` as soon as the listener returns `true`.
    #[inline(always)]
    pub(crate) fn generate<F: FnMut(Square, Bitboard) -> bool>(&self, listener: F) -> bool {
        self.generate_within(!Bitboard::EMPTY, listener)
    }

    /// As [`generate`](Position::generate), for the destinations in `mask` only (legality is tested for those
    /// alone).
    #[inline(always)]
    fn generate_within<F: FnMut(Square, Bitboard) -> bool>(&self, mask: Bitboard, mut listener: F) -> bool {
        let b = self.board();
        let us = self.turn();
        let them = us.flip();
        let ours = b.by_color(us);
        let king = self.king(us);
        let in_check = self.is_check();
        let king_lines = LINES[king.index()];
        let exposing = king_lines | DIAGONAL_NEIGHBOURS[king.index()];
        for from in ours {
            let piece = b.piece_at(from).expect("a piece on each square of its colour");
            let targets = b.targets(from, piece) & !ours & mask;
            if targets.is_empty() {
                continue;
            }
            let (mut legal, to_test) = if piece.role == Role::King || in_check || exposing.contains(from) {
                (Bitboard::EMPTY, targets)
            } else {
                (targets & !king_lines, targets & king_lines)
            };
            for to in to_test {
                let king_after = if piece.role == Role::King { to } else { king };
                if !b.is_king_attacked_after(from, to, king_after, them) {
                    legal = legal.with(to);
                }
            }
            if legal.any() && listener(from, legal) {
                return true;
            }
        }
        false
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// Appends every legal move to `sink`.
    pub fn legal_moves_into<S: MoveSink<Move>>(&self, sink: &mut S) {
        self.generate(|from, to| {
            for to in to {
                sink.push_move(Move::new(from, to));
            }
            false
        });
    }

    /// Appends the legal captures to `sink`.
    pub fn captures_into<S: MoveSink<Move>>(&self, sink: &mut S) {
        let theirs = self.board().by_color(self.turn().flip());
        self.generate_within(theirs, |from, to| {
            for to in to {
                sink.push_move(Move::new(from, to));
            }
            false
        });
    }

    /// The legal moves of the piece on `from`, appended to `sink`.
    pub fn legal_moves_from<S: MoveSink<Move>>(&self, from: Square, sink: &mut S) {
        self.generate(|sq, to| {
            if sq == from {
                for to in to {
                    sink.push_move(Move::new(from, to));
                }
                return true;
            }
            false
        });
    }

    /// The number of legal moves, counted without listing them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut count = 0;
        self.generate(|_, to| {
            count += u64::from(to.count());
            false
        });
        count
    }

    /// Whether the side to move has any legal move (without one it has lost).
    pub fn has_legal_move(&self) -> bool {
        self.generate(|_, to| to.any())
    }

    /// Whether the side to move has a rook, horse or cannon: the pieces that attack (without them a null move
    /// risks zugzwang).
    pub fn has_attacking_pieces(&self) -> bool {
        let b = self.board();
        let attackers = b.by_role(Role::Rook) | b.by_role(Role::Horse) | b.by_role(Role::Cannon);
        (attackers & b.by_color(self.turn())).any()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Legal moves the slow way: every move by the move rules, kept if the king is safe after making it.
    fn slow_legal_moves(pos: &Position) -> Vec<Move> {
        let b = pos.board();
        let us = pos.turn();
        let mut moves = Vec::new();
        for from in b.by_color(us) {
            let piece = b.piece_at(from).unwrap();
            for to in b.targets(from, piece) & !b.by_color(us) {
                let mut after = b.clone();
                after.remove(to);
                let p = after.remove(from).unwrap();
                after.put(to, p);
                if !after.is_king_attacked(after.king_of(us).unwrap(), us.flip()) {
                    moves.push(Move::new(from, to));
                }
            }
        }
        moves.sort();
        moves
    }

    #[test]
    fn generation_matches_making_every_move() {
        let fens = [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
            "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
            "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
        ];
        for fen in fens {
            let mut pos = Position::from_fen(fen).unwrap();
            // Along a few plies of each position, to meet checks and pins.
            for ply in 0..6 {
                let mut moves: Vec<Move> = pos.legal_moves().to_vec();
                moves.sort();
                assert_eq!(moves, slow_legal_moves(&pos), "{}", pos.to_fen());
                assert_eq!(pos.count_legal_moves(), moves.len() as u64);
                let mut captures = Vec::new();
                pos.captures_into(&mut captures);
                captures.sort();
                let expected: Vec<Move> = moves.iter().copied().filter(|&mv| pos.is_capture(mv)).collect();
                assert_eq!(captures, expected, "{}", pos.to_fen());
                for sq in Square::ALL {
                    let mut from = Vec::new();
                    pos.legal_moves_from(sq, &mut from);
                    assert!(from.iter().all(|m| m.from() == sq && moves.contains(m)));
                    assert_eq!(from.len(), moves.iter().filter(|m| m.from() == sq).count());
                }
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[(ply * 7) % moves.len()]);
            }
        }
    }

    /// The legal destinations of the piece on `from`, sorted, in ICCS.
    fn destinations(fen: &str, from: &str) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap();
        let mut moves = Vec::new();
        pos.legal_moves_from(from.parse().unwrap(), &mut moves);
        let mut to: Vec<String> = moves.iter().map(|m| m.to().to_string()).collect();
        to.sort();
        to
    }

    #[test]
    fn rules_of_movement() {
        // Flying general: the red king may not step onto the open e-file.
        assert_eq!(destinations("4k4/9/9/9/9/9/9/9/9/3K5 w", "d0"), ["d1"]);
        // The horse's leg: a1 blocks the way to b2; the way over b0 to c1 is free.
        assert_eq!(destinations("4k4/9/9/9/9/9/9/9/R8/N2K5 w", "a0"), ["c1"]);
        // The elephant's eye: d1 blocks e2. And no elephant crosses the river.
        assert_eq!(destinations("4k4/9/9/9/9/9/9/9/3R5/2BK5 w", "c0"), ["a2"]);
        assert_eq!(destinations("4k4/9/9/9/9/2B6/9/9/9/3K5 w", "c4"), ["a2", "e2"]);
        // Advisors stay in the palace.
        assert_eq!(destinations("3k5/9/9/9/9/9/9/9/9/3AK4 w", "d0"), ["e1"]);
        // Pawns: forward only before the river, sideways too after it.
        assert_eq!(destinations("4k4/9/9/9/9/9/4P4/9/9/3K5 w", "e3"), ["e4"]);
        assert_eq!(destinations("4k4/9/9/9/4P4/9/9/9/9/3K5 w", "e5"), ["d5", "e6", "f5"]);
        assert_eq!(destinations("4k4/9/9/9/9/4p4/9/9/9/3K5 b", "e4"), ["d4", "e3", "f4"]);
        // The cannon slides onto empty points and captures the rook on a7 over the horse on a5.
        assert_eq!(
            destinations("4k4/9/r8/9/n8/9/9/C8/9/3K5 w", "a2"),
            ["a0", "a1", "a3", "a4", "a7", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "i2"]
        );
        // A piece may not become the screen between an enemy cannon and its own king.
        let rook = destinations("3k5/9/9/9/4c4/9/9/R8/9/4K4 w", "a2");
        assert_eq!(rook.len(), 16);
        assert!(!rook.contains(&"e2".to_owned()));
    }
}
