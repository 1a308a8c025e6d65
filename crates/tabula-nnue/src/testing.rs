//! Generic checks that the games' own tests run on their networks (the `testing` feature, for
//! dev-dependencies): accumulators kept along random games equal fresh ones with every kernel, and a board's
//! named king layouts reach every input they hold.

use crate::{Accumulators, Geometry, Kernel, KingLayout, NetPosition, Network, SquareOf};
use tabula::rng::Rng;
use tabula::Game;
use tabula_board::{ColoredPiece, Square};

/// Where and how long [`check_incremental_along_walks`] walks.
pub struct Walks<'a, P: Game> {
    /// The positions each walk starts from, in turn.
    pub starts: &'a [P],
    /// The number of walks.
    pub walks: usize,
    /// The steps of each walk.
    pub steps: usize,
    /// The null move, for walks that pass now and then.
    pub null: Option<P::Move>,
    /// Whether the null move may be played (not in check, say).
    pub may_pass: fn(&P) -> bool,
    /// The seed of the random choices.
    pub seed: u64,
}

/// Walks random games forward and back with `net` computing with the portable kernel and with the fastest
/// this processor runs, each keeping its own [`Accumulators`] along the walk: a random legal move (or now and
/// then the null move), or one time in four (or when there is no move) the last move taken back. At two steps
/// in three (so that several plies sometimes pass between evaluations) each kernel's evaluation along the walk
/// must equal the evaluation from scratch, and its accumulators up to date must equal those computed afresh.
///
/// # Panics
///
/// At the first step where one of these differs, naming the position.
pub fn check_incremental_along_walks<P>(net: &Network<P::Geometry>, walks: &Walks<P>)
where
    P: Game + NetPosition,
{
    let kernels = [Kernel::Scalar, Kernel::detect()].map(|kernel| net.clone().with_kernel(kernel));
    let mut rng = Rng::new(walks.seed);
    let mut moves = Vec::new();
    for walk in 0..walks.walks {
        let mut pos = walks.starts[walk % walks.starts.len()].clone();
        let mut lines: [Accumulators<P::Geometry>; 2] = Default::default();
        let mut played = Vec::new();
        for step in 0..walks.steps {
            moves.clear();
            pos.legal_moves(&mut moves);
            if moves.is_empty() || (!played.is_empty() && rng.below(4) == 0) {
                let Some(mv) = played.pop() else { break };
                pos.undo(mv);
                lines.iter_mut().for_each(|line| line.forget_after(pos.history_len()));
            } else {
                let mv = match walks.null {
                    Some(null) if rng.below(10) == 0 && (walks.may_pass)(&pos) => null,
                    _ => moves[rng.below(moves.len())],
                };
                pos.play(mv);
                played.push(mv);
            }
            if (step + walk) % 3 == 1 {
                continue;
            }
            for (net, line) in kernels.iter().zip(&lines) {
                let acc = net.accumulator(&pos);
                let fresh = net.output(&acc, pos.turn(), net.bucket(&pos));
                let kernel = net.kernel();
                assert_eq!(net.evaluate_along(&pos, line), fresh, "{kernel:?}: {}", pos.to_text());
                assert_eq!(net.evaluate(&pos), fresh, "{kernel:?}: {}", pos.to_text());
                assert_eq!(line.up_to_date(pos.history_len()), Some(acc), "{kernel:?}: {}", pos.to_text());
                assert_eq!(kernels[0].output(&acc, pos.turn(), net.bucket(&pos)), fresh, "{}", pos.to_text());
            }
        }
    }
}

/// Checks the named king layouts of board `B`: each is found by its name, counts as many buckets as its map
/// names, and every input of every bucket is some piece's on some square seen by some side whose king stands on
/// one of `kings` (the squares a king may stand on).
///
/// # Panics
///
/// At the first layout that breaks one of these.
pub fn check_king_layouts<B: Geometry>(kings: &[SquareOf<B>]) {
    for &(name, layout) in KingLayout::<B>::NAMED {
        assert_eq!(KingLayout::<B>::named(name), Some(layout), "{name}");
        assert_eq!(layout.buckets(), usize::from(*layout.map().iter().max().unwrap()) + 1, "{name}");
        let mut seen = vec![false; B::INPUTS * layout.buckets()];
        for &king in kings {
            for side in B::Piece::COLORS {
                let view = layout.view(side, king);
                for &piece in B::PIECES {
                    for sq in (0..B::SQUARES).map(SquareOf::<B>::from_index_unchecked) {
                        seen[view.feature(side, piece, sq)] = true;
                    }
                }
            }
        }
        let unseen = seen.iter().filter(|&&s| !s).count();
        assert_eq!(unseen, 0, "{name}: {unseen} inputs no view reaches");
    }
    assert_eq!(KingLayout::<B>::named("no such layout"), None);
}
