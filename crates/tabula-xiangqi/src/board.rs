//! [`Board`]: where the pieces stand, as a square-indexed mailbox, bitboards by colour and by role, and the
//! occupancy of each rank and file for the line tables, with the Zobrist key of the placement kept up to date by
//! the only two methods that change it ([`Board::put`] and [`Board::remove`]).
//!
//! # Examples
//!
//! ```
//! use tabula_xiangqi::{Board, Color, Piece, Role, Square};
//!
//! let mut board = Board::empty();
//! let king = Piece::new(Color::Red, Role::King);
//! let e0: Square = "e0".parse().unwrap();
//! board.put(e0, king);
//! assert_eq!(board.piece_at(e0), Some(king));
//! assert_eq!(board.king_of(Color::Red), Some(e0));
//! let key = board.key();
//! board.remove(e0);
//! board.put(e0, king);
//! assert_eq!(board.key(), key); // the same placement, the same key
//!
//! // A cannon on b2 in the start position attacks the horse on b9 over the cannon on b7.
//! let board = Board::startpos();
//! let b2: Square = "b2".parse().unwrap();
//! let cannon = Piece::new(Color::Red, Role::Cannon);
//! assert!(board.targets(b2, cannon).contains("b9".parse().unwrap()));
//! assert!(!board.targets(b2, cannon).contains("b7".parse().unwrap()));
//! ```

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::types::{Color, File, Piece, Rank, Role, Square};
use std::ops::Deref;
use tabula_board::Placement;

/// A placement of xiangqi pieces, legal or not: the board layer's [`Placement`] (mailbox, bitboards by colour and
/// role, and the key, read through `Deref`) and the occupancy of each rank and file, with xiangqi's attack queries
/// on top.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Board {
    men: Placement<Piece, { Square::COUNT }, { Role::COUNT }>,
    /// Bit `f` of `ranks[r]`: a piece on file `f` of rank `r`.
    ranks: [u16; Rank::COUNT],
    /// Bit `r` of `files[f]`: a piece on rank `r` of file `f`.
    files: [u16; File::COUNT],
}

impl Deref for Board {
    type Target = Placement<Piece, { Square::COUNT }, { Role::COUNT }>;

    #[inline(always)]
    fn deref(&self) -> &Self::Target {
        &self.men
    }
}

impl Board {
    /// A board without pieces.
    pub const fn empty() -> Board {
        Board { men: Placement::empty(), ranks: [0; Rank::COUNT], files: [0; File::COUNT] }
    }

    /// The placement of the starting position.
    pub fn startpos() -> Board {
        use Role::*;
        let mut board = Board::empty();
        let back = [Rook, Horse, Elephant, Advisor, King, Advisor, Elephant, Horse, Rook];
        for (file, role) in File::ALL.into_iter().zip(back) {
            board.put(Square::from_coords(file, Rank::R0), Piece::new(Color::Red, role));
            board.put(Square::from_coords(file, Rank::R9), Piece::new(Color::Black, role));
        }
        for file in [File::B, File::H] {
            board.put(Square::from_coords(file, Rank::R2), Piece::new(Color::Red, Cannon));
            board.put(Square::from_coords(file, Rank::R7), Piece::new(Color::Black, Cannon));
        }
        for file in [File::A, File::C, File::E, File::G, File::I] {
            board.put(Square::from_coords(file, Rank::R3), Piece::new(Color::Red, Pawn));
            board.put(Square::from_coords(file, Rank::R6), Piece::new(Color::Black, Pawn));
        }
        board
    }

    /// Places `piece` on the empty square `sq`, updating mailbox, bitboards, line occupancies and key together.
    ///
    /// # Panics
    ///
    /// In debug builds, if `sq` is occupied.
    #[inline(always)]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        self.men.put(sq, piece);
        self.toggle_lines(sq);
    }

    /// Takes the piece off `sq` and returns it (`None`, changing nothing, if the square is empty).
    #[inline(always)]
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.men.remove(sq)?;
        self.toggle_lines(sq);
        Some(piece)
    }

    #[inline(always)]
    fn toggle_lines(&mut self, sq: Square) {
        self.ranks[sq.rank().index()] ^= 1 << sq.file().index();
        self.files[sq.file().index()] ^= 1 << sq.rank().index();
    }

    /// The occupancy of `rank`: bit `f` for a piece on file `f`.
    #[inline(always)]
    pub fn rank_occupancy(&self, rank: Rank) -> u16 {
        self.ranks[rank.index()]
    }

    /// The occupancy of `file`: bit `r` for a piece on rank `r`.
    #[inline(always)]
    pub fn file_occupancy(&self, file: File) -> u16 {
        self.files[file.index()]
    }

    #[inline(always)]
    fn rank_stops(&self, sq: Square) -> attacks::LineStops {
        attacks::rank_stops(sq.file().index(), self.ranks[sq.rank().index()])
    }

    #[inline(always)]
    fn file_stops(&self, sq: Square) -> attacks::LineStops {
        attacks::file_stops(sq.rank().index(), self.files[sq.file().index()])
    }

    /// The square at index `i` along `sq`'s rank.
    #[inline(always)]
    fn on_rank(sq: Square, i: usize) -> Square {
        Square::from_index_unchecked(sq.index() - sq.file().index() + i)
    }

    /// The square at index `i` along `sq`'s file.
    #[inline(always)]
    fn on_file(sq: Square, i: usize) -> Square {
        Square::from_index_unchecked(9 * i + sq.file().index())
    }

    #[inline(always)]
    fn is(&self, sq: Square, piece: Piece) -> bool {
        self.piece_at(sq) == Some(piece)
    }

    /// The squares a rook on `sq` reaches: the empty points up to the first piece on each side, and that piece.
    #[inline(always)]
    pub fn rook_targets(&self, sq: Square) -> Bitboard {
        let (lo, hi) = self.rank_stops(sq).rook_span(9);
        let rank = Bitboard::from_bits(attacks::rank_span(lo, hi).0 << (9 * sq.rank().index()));
        let (lo, hi) = self.file_stops(sq).rook_span(10);
        let file = Bitboard::from_bits(attacks::file_span(lo, hi).0 << sq.file().index());
        (rank | file).without(sq)
    }

    /// The squares a cannon on `sq` reaches: the empty points up to the first piece on each side (its moves),
    /// and the second piece on each side (its captures, over the first).
    #[inline(always)]
    pub fn cannon_targets(&self, sq: Square) -> Bitboard {
        let rs = self.rank_stops(sq);
        let fs = self.file_stops(sq);
        let mut targets = Bitboard::EMPTY;
        let (lo, hi) = rs.slide_span(9);
        if lo <= hi {
            targets |= Bitboard::from_bits(attacks::rank_span(lo, hi).0 << (9 * sq.rank().index()));
        }
        let (lo, hi) = fs.slide_span(10);
        if lo <= hi {
            targets |= Bitboard::from_bits(attacks::file_span(lo, hi).0 << sq.file().index());
        }
        for i in [rs.second_low(), rs.second_high()].into_iter().flatten() {
            targets = targets.with(Board::on_rank(sq, i));
        }
        for i in [fs.second_low(), fs.second_high()].into_iter().flatten() {
            targets = targets.with(Board::on_file(sq, i));
        }
        targets.without(sq)
    }

    /// The squares a horse on `sq` reaches: every step whose leg is empty.
    #[inline(always)]
    pub fn horse_targets(&self, sq: Square) -> Bitboard {
        let mut targets = Bitboard::EMPTY;
        for (to, leg) in attacks::horse(sq).iter() {
            if self.piece_at(leg).is_none() {
                targets = targets.with(to);
            }
        }
        targets
    }

    /// The squares an elephant on `sq` reaches: every step whose eye is empty.
    #[inline(always)]
    pub fn elephant_targets(&self, sq: Square) -> Bitboard {
        let mut targets = Bitboard::EMPTY;
        for (to, eye) in attacks::elephant(sq).iter() {
            if self.piece_at(eye).is_none() {
                targets = targets.with(to);
            }
        }
        targets
    }

    /// The squares `piece` standing on `sq` moves to by its rules, whatever stands there and whatever it does to
    /// its own king; for a cannon, its slides and its captures over a screen. (The flying general is not a move:
    /// see [`king_attackers`](Board::king_attackers).)
    #[inline]
    pub fn targets(&self, sq: Square, piece: Piece) -> Bitboard {
        match piece.role {
            Role::Rook => self.rook_targets(sq),
            Role::Cannon => self.cannon_targets(sq),
            Role::Horse => self.horse_targets(sq),
            Role::Elephant => self.elephant_targets(sq),
            Role::Advisor => attacks::advisor(sq).to_bitboard(),
            Role::King => attacks::king(sq).to_bitboard(),
            Role::Pawn => attacks::pawn(piece.color, sq).to_bitboard(),
        }
    }

    /// The pieces of `by` that could capture on `sq` by their move rules (not checking their own king's
    /// safety, and without the flying general).
    pub fn attackers_to(&self, sq: Square, by: Color) -> Bitboard {
        let mut found = Bitboard::EMPTY;
        let rook = Piece::new(by, Role::Rook);
        let cannon = Piece::new(by, Role::Cannon);
        let (rs, fs) = (self.rank_stops(sq), self.file_stops(sq));
        for (stops, on_line) in [(rs, Board::on_rank as fn(Square, usize) -> Square), (fs, Board::on_file)] {
            for i in [stops.first_low(), stops.first_high()].into_iter().flatten() {
                let s = on_line(sq, i);
                if self.is(s, rook) {
                    found = found.with(s);
                }
            }
            for i in [stops.second_low(), stops.second_high()].into_iter().flatten() {
                let s = on_line(sq, i);
                if self.is(s, cannon) {
                    found = found.with(s);
                }
            }
        }
        let horse = Piece::new(by, Role::Horse);
        for (from, leg) in attacks::horse_attackers(sq).iter() {
            if self.is(from, horse) && self.piece_at(leg).is_none() {
                found = found.with(from);
            }
        }
        let elephant = Piece::new(by, Role::Elephant);
        for (from, eye) in attacks::elephant(sq).iter() {
            if self.is(from, elephant) && self.piece_at(eye).is_none() {
                found = found.with(from);
            }
        }
        for (role, steps) in [(Role::Advisor, attacks::advisor(sq)), (Role::King, attacks::king(sq))] {
            for (from, _) in steps.iter() {
                if self.is(from, Piece::new(by, role)) {
                    found = found.with(from);
                }
            }
        }
        let pawn = Piece::new(by, Role::Pawn);
        if let Some(from) = sq.offset(0, -by.forward()) {
            if self.is(from, pawn) {
                found = found.with(from);
            }
        }
        for df in [-1, 1] {
            if let Some(from) = sq.offset(df, 0) {
                if self.is(from, pawn) && !from.on_side_of(by) {
                    found = found.with(from);
                }
            }
        }
        found
    }

    /// The pieces of `by` that attack the king standing on `king` (of the other colour): rooks, cannons over one
    /// screen, horses with a free leg, pawns, and `by`'s own king facing it on an open file.
    #[inline(always)]
    pub fn king_attackers(&self, king: Square, by: Color) -> Bitboard {
        king_attackers::<_, false>(self, king, by)
    }

    /// Whether any piece of `by` attacks the king on `king`.
    #[inline(always)]
    pub fn is_king_attacked(&self, king: Square, by: Color) -> bool {
        king_attackers::<_, true>(self, king, by).any()
    }

    /// Whether, after the piece on `from` moved to `to` (capturing what stood there), a piece of `by` would attack
    /// the king then standing on `king`. Judged on a view of the board with the move applied, without changing
    /// it.
    #[inline(always)]
    pub(crate) fn is_king_attacked_after(&self, from: Square, to: Square, king: Square, by: Color) -> bool {
        let moved = self.piece_at(from).expect("a piece on the origin");
        let view = AfterMove { board: self, from, to, moved };
        king_attackers::<_, true>(&view, king, by).any()
    }

    /// The board mirrored across the river with the colours swapped: the same position seen from the other side.
    pub fn mirrored(&self) -> Board {
        let mut board = Board::empty();
        for sq in Square::ALL {
            if let Some(p) = self.piece_at(sq) {
                board.put(sq.flip_vertical(), Piece::new(p.color.flip(), p.role));
            }
        }
        board
    }
}

/// What the king-attack test reads of a board: the mailbox and the line occupancies. A [`Board`] is one view;
/// [`AfterMove`] is the board as a move would leave it, so that legality is tested without making the move.
trait View {
    fn at(&self, sq: Square) -> Option<Piece>;
    fn rank_bits(&self, rank: usize) -> u16;
    fn file_bits(&self, file: usize) -> u16;
}

impl View for Board {
    #[inline(always)]
    fn at(&self, sq: Square) -> Option<Piece> {
        self.piece_at(sq)
    }
    #[inline(always)]
    fn rank_bits(&self, rank: usize) -> u16 {
        self.ranks[rank]
    }
    #[inline(always)]
    fn file_bits(&self, file: usize) -> u16 {
        self.files[file]
    }
}

/// A board with the piece `moved` taken from `from` and put on `to`.
struct AfterMove<'a> {
    board: &'a Board,
    from: Square,
    to: Square,
    moved: Piece,
}

impl View for AfterMove<'_> {
    #[inline(always)]
    fn at(&self, sq: Square) -> Option<Piece> {
        if sq == self.to {
            Some(self.moved)
        } else if sq == self.from {
            None
        } else {
            self.board.piece_at(sq)
        }
    }
    #[inline(always)]
    fn rank_bits(&self, rank: usize) -> u16 {
        let mut bits = self.board.ranks[rank];
        if self.from.rank().index() == rank {
            bits &= !(1 << self.from.file().index());
        }
        if self.to.rank().index() == rank {
            bits |= 1 << self.to.file().index();
        }
        bits
    }
    #[inline(always)]
    fn file_bits(&self, file: usize) -> u16 {
        let mut bits = self.board.files[file];
        if self.from.file().index() == file {
            bits &= !(1 << self.from.rank().index());
        }
        if self.to.file().index() == file {
            bits |= 1 << self.to.rank().index();
        }
        bits
    }
}

/// The pieces of `by` attacking the king on `king` in `view`; with `ANY`, stops at the first found.
#[inline(always)]
fn king_attackers<V: View, const ANY: bool>(view: &V, king: Square, by: Color) -> Bitboard {
    let mut found = Bitboard::EMPTY;
    macro_rules! found {
        ($sq:expr) => {{
            found = found.with($sq);
            if ANY {
                return found;
            }
        }};
    }
    let rook = Some(Piece::new(by, Role::Rook));
    let cannon = Some(Piece::new(by, Role::Cannon));
    let rs = attacks::rank_stops(king.file().index(), view.rank_bits(king.rank().index()));
    for i in [rs.first_low(), rs.first_high()].into_iter().flatten() {
        let s = Board::on_rank(king, i);
        if view.at(s) == rook {
            found!(s);
        }
    }
    for i in [rs.second_low(), rs.second_high()].into_iter().flatten() {
        let s = Board::on_rank(king, i);
        if view.at(s) == cannon {
            found!(s);
        }
    }
    let fs = attacks::file_stops(king.rank().index(), view.file_bits(king.file().index()));
    let their_king = Some(Piece::new(by, Role::King));
    for i in [fs.first_low(), fs.first_high()].into_iter().flatten() {
        let s = Board::on_file(king, i);
        let piece = view.at(s);
        if piece == rook || piece == their_king {
            found!(s);
        }
    }
    for i in [fs.second_low(), fs.second_high()].into_iter().flatten() {
        let s = Board::on_file(king, i);
        if view.at(s) == cannon {
            found!(s);
        }
    }
    let horse = Some(Piece::new(by, Role::Horse));
    for (from, leg) in attacks::horse_attackers(king).iter() {
        if view.at(from) == horse && view.at(leg).is_none() {
            found!(from);
        }
    }
    // A king's palace lies on its own half, so a pawn beside it has crossed the river.
    let pawn = Some(Piece::new(by, Role::Pawn));
    for (df, dr) in [(0, -by.forward()), (-1, 0), (1, 0)] {
        if let Some(from) = king.offset(df, dr) {
            if view.at(from) == pawn {
                found!(from);
            }
        }
    }
    found
}

impl std::fmt::Debug for Board {
    /// Ten ranks of FEN letters, rank 9 first, `.` for an empty point.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Board(")?;
        for rank in Rank::ALL.iter().rev() {
            let row: String = File::ALL
                .iter()
                .map(|&file| self.piece_at(Square::from_coords(file, *rank)).map_or('.', Piece::to_char))
                .collect();
            writeln!(f, "  {row}")?;
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::tests::sq;

    #[test]
    fn start_targets() {
        let b = Board::startpos();
        let red = |role| Piece::new(Color::Red, role);
        // a1, a2, and the first pieces: its own pawn on a3 and horse on b0.
        assert_eq!(b.targets(sq("a0"), red(Role::Rook)).count(), 4);
        // a2 and c2; d1 is behind the elephant on c0.
        assert_eq!(b.targets(sq("b0"), red(Role::Horse)).count(), 2);
        // Slides a2, c2-g2, b1, b3-b6, and the capture of b9 over b7.
        assert_eq!(b.targets(sq("b2"), red(Role::Cannon)).count(), 12);
        assert_eq!(b.targets(sq("e0"), red(Role::King)).count(), 3);
        assert!(b.king_attackers(sq("e0"), Color::Black).is_empty());
        assert_eq!(b.attackers_to(sq("b9"), Color::Red), Bitboard::from_square(sq("b2")));
    }

    #[test]
    fn flying_general_and_moves_judged_in_place() {
        let mut b = Board::empty();
        b.put(sq("e0"), Piece::new(Color::Red, Role::King));
        b.put(sq("e9"), Piece::new(Color::Black, Role::King));
        assert_eq!(b.king_attackers(sq("e0"), Color::Black), Bitboard::from_square(sq("e9")));
        b.put(sq("e5"), Piece::new(Color::Red, Role::Rook));
        assert!(!b.is_king_attacked(sq("e0"), Color::Black));
        assert!(b.is_king_attacked_after(sq("e5"), sq("a5"), sq("e0"), Color::Black));
        assert!(!b.is_king_attacked_after(sq("e5"), sq("e6"), sq("e0"), Color::Black));
        assert!(!b.is_king_attacked_after(sq("e0"), sq("d0"), sq("d0"), Color::Black));
    }
}
