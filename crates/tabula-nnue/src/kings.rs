//! Which inputs each side's pieces are seen through: the [`KingLayout`] of a network and the [`View`] it gives a
//! side from where that side's king stands.

use crate::{color_index, ColorOf, Geometry, SquareOf};
use std::marker::PhantomData;
use tabula_board::{ColoredPiece, Man, PlacementChange, Square};

/// The most king buckets (input sets) a network may have.
pub const MAX_KING_BUCKETS: usize = 32;
/// The most squares a board may have (the king map's storage; xiangqi has 90).
pub const MAX_SQUARES: usize = 128;

/// How each side's own king chooses the inputs its pieces are seen through: the *king buckets* (each a full set
/// of [`Geometry::INPUTS`] inputs, so that the first layer can weigh a piece by where its own king stands) and
/// whether the board is mirrored left to right when that king stands on the mirrored half
/// ([`Geometry::mirrors`]; so that a king is always seen on the other half, and a position and its mirror image
/// are one set of inputs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingLayout<B: Geometry> {
    mirror: bool,
    /// The bucket of each square of the side's own king, seen from its side (square 0 on its own back rank) and
    /// after the mirroring: with `mirror`, the entries of the mirrored half are never read. Entries from
    /// [`Geometry::SQUARES`] on are 0.
    map: [u8; MAX_SQUARES],
    buckets: u8,
    board: PhantomData<B>,
}

/// Which inputs one side's pieces are seen through, fixed by where that side's king stands: see
/// [`KingLayout::view`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View<B: Geometry> {
    /// How a square's index turns ([`Geometry::orient`]).
    orientation: usize,
    /// Whether the board is mirrored left to right.
    mirrored: bool,
    /// The first input of the king's bucket.
    offset: usize,
    board: PhantomData<B>,
}

impl<B: Geometry> Default for KingLayout<B> {
    /// [`KingLayout::PLAIN`].
    fn default() -> KingLayout<B> {
        KingLayout::PLAIN
    }
}

impl<B: Geometry> View<B> {
    /// The input of `piece` on `sq` seen from `perspective` through this view.
    #[inline(always)]
    pub fn feature(self, perspective: ColorOf<B>, piece: B::Piece, sq: SquareOf<B>) -> usize {
        let colour = usize::from(piece.color() != perspective);
        self.offset
            + B::SQUARES * (B::ROLES * colour + B::Piece::role_index(piece.role()))
            + B::orient(sq.index(), self.orientation)
    }

    /// The first input of the view's king bucket.
    pub fn offset(self) -> usize {
        self.offset
    }

    /// How the view turns a square's index ([`Geometry::orient`]).
    pub fn orientation(self) -> usize {
        self.orientation
    }
}

impl<B: Geometry> KingLayout<B> {
    /// One set of inputs, no mirroring: the layout of version 1 and 2 files.
    pub const PLAIN: KingLayout<B> = KingLayout::from_map(false, [0; MAX_SQUARES]);
    /// One set of inputs, mirrored so that each side's king stands on the half that is not mirrored.
    pub const MIRRORED: KingLayout<B> = KingLayout::from_map(true, [0; MAX_SQUARES]);
    /// The named layouts of the board, as the trainer takes them.
    pub const NAMED: &'static [(&'static str, KingLayout<B>)] = B::KING_LAYOUTS;

    /// A layout from its map (the first [`Geometry::SQUARES`] entries; see the type's documentation), with as
    /// many buckets as the map names, for a board's named layouts.
    ///
    /// # Panics
    ///
    /// If the map names a bucket beyond [`MAX_KING_BUCKETS`] (at compile time for a constant).
    pub const fn from_map(mirror: bool, map: [u8; MAX_SQUARES]) -> KingLayout<B> {
        let mut buckets = 0;
        let mut sq = 0;
        while sq < MAX_SQUARES {
            if map[sq] + 1 > buckets {
                buckets = map[sq] + 1;
            }
            sq += 1;
        }
        assert!(buckets as usize <= MAX_KING_BUCKETS, "too many king buckets");
        KingLayout { mirror, map, buckets, board: PhantomData }
    }

    /// The layout named `name` in [`NAMED`](KingLayout::NAMED).
    pub fn named(name: &str) -> Option<KingLayout<B>> {
        KingLayout::NAMED.iter().find(|(n, _)| *n == name).map(|&(_, layout)| layout)
    }

    /// A layout from its parts, as a file states them (`map` the bucket of each of the board's squares); `None`
    /// for a map of another length than the board's squares, no bucket or more than [`MAX_KING_BUCKETS`], or a
    /// square mapped to a bucket beyond the count.
    pub fn new(mirror: bool, map: &[u8], buckets: usize) -> Option<KingLayout<B>> {
        let holds = map.len() == B::SQUARES
            && (1..=MAX_KING_BUCKETS).contains(&buckets)
            && map.iter().all(|&b| usize::from(b) < buckets);
        let mut full = [0; MAX_SQUARES];
        full[..map.len().min(MAX_SQUARES)].copy_from_slice(&map[..map.len().min(MAX_SQUARES)]);
        holds.then_some(KingLayout { mirror, map: full, buckets: buckets as u8, board: PhantomData })
    }

    /// The number of king buckets.
    pub const fn buckets(&self) -> usize {
        self.buckets as usize
    }

    /// Whether the board is mirrored so that each side's king stands on the half that is not mirrored.
    pub fn mirror(&self) -> bool {
        self.mirror
    }

    /// The bucket of each square of the side's own king (see the type's documentation), one per square.
    pub fn map(&self) -> &[u8] {
        &self.map[..B::SQUARES]
    }

    /// Whether where a king stands changes its side's view: false for the plain layout only.
    #[inline(always)]
    pub const fn sees_kings(&self) -> bool {
        self.mirror || self.buckets > 1
    }

    /// The inputs `perspective`'s pieces are seen through when its king stands on `king`.
    #[inline(always)]
    pub fn view(&self, perspective: ColorOf<B>, king: SquareOf<B>) -> View<B> {
        let mirrored = self.mirror && B::mirrors(king);
        let orientation = B::orientation(color_index::<B>(perspective) == 1, mirrored);
        let offset = B::INPUTS * usize::from(self.map[B::orient(king.index(), orientation)]);
        View { orientation, mirrored, offset, board: PhantomData }
    }

    /// The number of views a side may have: two (mirrored or not) for each king bucket.
    pub(crate) fn views_per_side(&self) -> usize {
        2 * self.buckets()
    }

    /// The number of `view` below [`views_per_side`](KingLayout::views_per_side).
    #[inline(always)]
    pub(crate) fn view_index(&self, view: View<B>) -> usize {
        2 * (view.offset / B::INPUTS) + usize::from(view.mirrored)
    }

    /// The views of both sides in `pos`, indexed by the colour's number.
    #[inline(always)]
    pub fn views<P: crate::NetPosition<Geometry = B>>(&self, pos: &P) -> [View<B>; 2] {
        // The plain layout's views do not depend on the kings: no need to find them.
        let king = |side| if self.sees_kings() { pos.king_of(side) } else { None };
        B::Piece::COLORS.map(|side| self.view(side, king(side).unwrap_or(SquareOf::<B>::from_index_unchecked(0))))
    }

    /// The side whose view a change of placement changes (its king moving to another bucket or across the
    /// board's middle), if any.
    #[inline(always)]
    pub(crate) fn side_whose_view_changes(&self, change: &PlacementChange<B::Piece>) -> Option<ColorOf<B>> {
        if !self.sees_kings() {
            return None;
        }
        let (&(piece, from), &(_, to)) = (change.removed().first()?, change.added().first()?);
        (piece.role() == B::Piece::KING && self.view(piece.color(), from) != self.view(piece.color(), to))
            .then_some(piece.color())
    }
}
