//! Which inputs each side's pieces are seen through: the [`KingLayout`] of a network and the [`View`] it gives a
//! side from where that side's king stands.

use crate::position::{PlacementChange, Position};
use crate::types::{Color, Piece, Role, Square};

/// Inputs per side and king bucket: colour (own, other) × role × square.
pub const INPUTS: usize = 768;
/// The most king buckets (input sets) a network may have.
pub const MAX_KING_BUCKETS: usize = 32;

/// How each side's own king chooses the inputs its pieces are seen through: the *king buckets* (each a full
/// set of [`INPUTS`] inputs, so that the first layer can weigh a piece by where its own king stands) and
/// whether the board is mirrored left to right when that king stands on files a to d (so that a king is always
/// seen on files e to h, and a position and its mirror image are one set of inputs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingLayout {
    mirror: bool,
    /// The bucket of each square of the side's own king, seen from its side (rank 1 its own back rank) and
    /// after the mirroring: with `mirror`, the entries of files a to d are never read.
    map: [u8; 64],
    buckets: u8,
}

/// Which inputs one side's pieces are seen through, fixed by where that side's king stands: see
/// [`KingLayout::view`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// What a square's index is XORed with: 56 turns the board top to bottom, 7 mirrors it left to right.
    flip: usize,
    /// The first input of the king's bucket.
    offset: usize,
}

impl Default for KingLayout {
    /// [`KingLayout::PLAIN`].
    fn default() -> KingLayout {
        KingLayout::PLAIN
    }
}

impl View {
    /// The input of `piece` on `sq` seen from `perspective` through this view.
    #[inline(always)]
    pub fn feature(self, perspective: Color, piece: Piece, sq: Square) -> usize {
        let colour = usize::from(piece.color != perspective);
        self.offset + 64 * (6 * colour + piece.role.index()) + (sq.index() ^ self.flip)
    }
}

impl KingLayout {
    /// One set of inputs, no mirroring: the layout of version 1 and 2 files.
    pub const PLAIN: KingLayout = KingLayout { mirror: false, map: [0; 64], buckets: 1 };
    /// One set of inputs, mirrored so that each side's king stands on files e to h.
    pub const MIRRORED: KingLayout = KingLayout { mirror: true, map: [0; 64], buckets: 1 };
    /// Mirrored, with four king buckets: the king at home in the centre (e1, f1), castled short (g1, h1), on
    /// the second rank, and further up.
    pub const FOUR: KingLayout = KingLayout::mirrored_by_rank_and_wing([[0, 1], [2, 2], [3, 3]]);

    /// The named layouts, as the trainer takes them.
    pub const NAMED: [(&'static str, KingLayout); 3] =
        [("plain", KingLayout::PLAIN), ("mirrored", KingLayout::MIRRORED), ("four", KingLayout::FOUR)];

    /// A mirrored layout whose bucket for a king on rank 1, rank 2 and above (rows of `by_rank`) is the first
    /// entry of its row on files e and f (and d and c), the second on g and h (and b and a).
    const fn mirrored_by_rank_and_wing(by_rank: [[u8; 2]; 3]) -> KingLayout {
        let mut map = [0u8; 64];
        let mut buckets = 0;
        let mut sq = 0;
        while sq < 64 {
            let (rank, file) = (sq / 8, sq % 8);
            let row = if rank < 2 { rank } else { 2 };
            let wing = if file == 0 || file == 1 || file == 6 || file == 7 { 1 } else { 0 };
            map[sq] = by_rank[row][wing];
            if map[sq] + 1 > buckets {
                buckets = map[sq] + 1;
            }
            sq += 1;
        }
        KingLayout { mirror: true, map, buckets }
    }

    /// The layout named `name` in [`NAMED`](KingLayout::NAMED).
    pub fn named(name: &str) -> Option<KingLayout> {
        KingLayout::NAMED.iter().find(|(n, _)| *n == name).map(|&(_, layout)| layout)
    }

    /// A layout from its parts, as a file states them; `None` for no bucket or more than
    /// [`MAX_KING_BUCKETS`], or a square mapped to a bucket beyond the count.
    pub fn new(mirror: bool, map: [u8; 64], buckets: usize) -> Option<KingLayout> {
        let holds = (1..=MAX_KING_BUCKETS).contains(&buckets) && map.iter().all(|&b| usize::from(b) < buckets);
        holds.then_some(KingLayout { mirror, map, buckets: buckets as u8 })
    }

    /// The number of king buckets.
    pub const fn buckets(&self) -> usize {
        self.buckets as usize
    }

    /// Whether the board is mirrored so that each side's king stands on files e to h.
    pub fn mirror(&self) -> bool {
        self.mirror
    }

    /// The bucket of each square of the side's own king (see the type's documentation).
    pub fn map(&self) -> &[u8; 64] {
        &self.map
    }

    /// Whether where a king stands changes its side's view: false for the plain layout only.
    #[inline(always)]
    pub const fn sees_kings(&self) -> bool {
        self.mirror || self.buckets > 1
    }

    /// The inputs `perspective`'s pieces are seen through when its king stands on `king`.
    #[inline(always)]
    pub fn view(&self, perspective: Color, king: Square) -> View {
        let mut flip = if perspective == Color::White { 0 } else { 56 };
        if self.mirror && king.index() % 8 < 4 {
            flip ^= 7;
        }
        View { flip, offset: INPUTS * usize::from(self.map[king.index() ^ flip]) }
    }

    /// The number of views a side may have: two (mirrored or not) for each king bucket.
    pub(super) fn views_per_side(&self) -> usize {
        2 * self.buckets()
    }

    /// The number of `view` below [`views_per_side`](KingLayout::views_per_side).
    #[inline(always)]
    pub(super) fn view_index(&self, view: View) -> usize {
        2 * (view.offset / INPUTS) + usize::from(view.flip & 7 != 0)
    }

    /// The views of both sides in `pos`, indexed by [`Color::index`].
    #[inline(always)]
    pub fn views(&self, pos: &Position) -> [View; 2] {
        // The plain layout's views do not depend on the kings: no need to find them.
        let king = |side| if self.sees_kings() { pos.board().king_of(side) } else { None };
        Color::ALL.map(|side| self.view(side, king(side).unwrap_or(Square::A1)))
    }

    /// The side whose view a change of placement changes (its king moving to another bucket or across the
    /// board's middle), if any.
    #[inline(always)]
    pub(super) fn side_whose_view_changes(&self, change: &PlacementChange) -> Option<Color> {
        if !self.sees_kings() {
            return None;
        }
        let (&(piece, from), &(_, to)) = (change.removed().first()?, change.added().first()?);
        (piece.role == Role::King && self.view(piece.color, from) != self.view(piece.color, to)).then_some(piece.color)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_layouts_map_each_square_below_their_count() {
        for (name, layout) in KingLayout::NAMED {
            assert_eq!(KingLayout::named(name), Some(layout));
            assert_eq!(layout.buckets(), usize::from(*layout.map().iter().max().unwrap()) + 1, "{name}");
            // Every input of every bucket is used by some view.
            let mut seen = vec![false; INPUTS * layout.buckets()];
            for king in Square::ALL {
                for side in Color::ALL {
                    let view = layout.view(side, king);
                    for piece in Piece::ALL {
                        for sq in Square::ALL {
                            seen[view.feature(side, piece, sq)] = true;
                        }
                    }
                }
            }
            assert!(seen.iter().all(|&s| s), "{name}");
        }
        assert_eq!(KingLayout::named("five"), None);
        // Castling short moves the king between buckets of the four-bucket layout; so does crossing the middle.
        let four = KingLayout::FOUR;
        assert_ne!(four.view(Color::White, Square::E1), four.view(Color::White, Square::G1));
        assert_eq!(four.view(Color::White, Square::E1), four.view(Color::White, Square::F1));
        assert_ne!(four.view(Color::Black, Square::D8), four.view(Color::Black, Square::E8));
        // A king on b1 is seen as one on g1: the same bucket, the board mirrored.
        let (b1, g1) = (four.view(Color::White, Square::B1), four.view(Color::White, Square::G1));
        assert_eq!((b1.offset, b1.flip), (g1.offset, g1.flip ^ 7));
        assert!(KingLayout::new(true, [4; 64], 4).is_none() && KingLayout::new(true, [0; 64], 0).is_none());
    }
}
