//! [`Network`]: the first layer's columns and the output neurons, the evaluation of a position from scratch or
//! along a line of play ([`Accumulators`]), and the kernels that compute both.

use crate::file::Layers;
use crate::{
    color_index, ColorOf, Embedded, Geometry, KingLayout, NetError, NetPosition, View, HIDDEN, MAX_BUCKETS, MAX_PIECES,
    MAX_PIECE_KINDS, QA, QB, SCALES,
};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tabula_board::{Bitboard, ColoredPiece, PlacementChange};

/// One side's weights or accumulator, aligned for SIMD loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Column(pub [i16; HIDDEN]);

impl Default for Column {
    fn default() -> Column {
        Column([0; HIDDEN])
    }
}

/// Both sides' accumulators of a position, indexed by the colour's number (the side whose point of view).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Accumulator(pub [Column; 2]);

/// The kernel that computes the output layer, chosen when a network is loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain Rust.
    Scalar,
    /// AVX2 intrinsics (x86-64, detected at run time).
    Avx2,
}

impl Kernel {
    /// The fastest kernel this processor runs.
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Kernel::Avx2;
        }
        Kernel::Scalar
    }
}

/// One output neuron: its weights for the side to move's accumulator, then the other's, and its bias.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Output {
    /// The weights, side to move's first.
    pub weights: [Column; 2],
    /// The bias.
    pub bias: i32,
}

/// A network with integer weights for board `B`; see the [crate documentation](crate).
#[derive(Clone, Debug)]
pub struct Network<B: Geometry> {
    /// Which inputs each side's pieces are seen through.
    kings: KingLayout<B>,
    /// The first layer's weight column of each input, king bucket by king bucket.
    weights: Box<[Column]>,
    bias: Column,
    /// The output neuron of each bucket.
    outputs: Box<[Output]>,
    /// Centipawns per unit of output.
    scale: i32,
    kernel: Kernel,
    /// Tells accumulators computed with another network apart.
    id: u64,
}

fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl<B: Geometry> Network<B> {
    /// A network of the [plain](KingLayout::PLAIN) king layout from its integer weights: `weights` holds
    /// [`Geometry::INPUTS`] columns of [`HIDDEN`] (input by input), `bias` [`HIDDEN`] values, `out_weights` each output
    /// bucket's `2 ×` [`HIDDEN`] (bucket by bucket, the side to move's then the other's) and `out_bias` each
    /// bucket's bias; `scale` is the centipawns per unit of output.
    ///
    /// # Errors
    ///
    /// As [`from_layers`](Network::from_layers).
    pub fn new(
        weights: &[i16],
        bias: &[i16],
        out_weights: &[i16],
        out_bias: &[i32],
        scale: i32,
    ) -> Result<Network<B>, NetError> {
        Network::from_layers(&Layers {
            hidden: HIDDEN,
            kings: KingLayout::PLAIN,
            weights: weights.to_vec(),
            bias: bias.to_vec(),
            out_weights: out_weights.to_vec(),
            out_bias: out_bias.to_vec(),
            scale,
        })
    }

    /// A network from its layers, [`HIDDEN`] neurons wide.
    ///
    /// # Errors
    ///
    /// [`NetError::Shape`] if a vector has the wrong length for [`HIDDEN`] neurons and the layers' king
    /// buckets, [`NetError::Buckets`] for no bucket or more than [`MAX_BUCKETS`], [`NetError::Quantisation`] for
    /// a scale outside [`SCALES`], [`NetError::Range`] if the weights could overflow the integer arithmetic.
    pub fn from_layers(layers: &Layers<B>) -> Result<Network<B>, NetError> {
        let Layers { kings, ref weights, ref bias, ref out_weights, ref out_bias, scale, .. } = *layers;
        let buckets = out_bias.len();
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(NetError::Buckets(buckets as u32));
        }
        let inputs = B::INPUTS * kings.buckets();
        if weights.len() != inputs * HIDDEN || bias.len() != HIDDEN || out_weights.len() != 2 * HIDDEN * buckets {
            return Err(NetError::Shape {
                inputs: (weights.len() / HIDDEN.max(1)) as u32,
                hidden: bias.len() as u32,
                takes: B::INPUTS as u32,
            });
        }
        if !SCALES.contains(&scale) {
            return Err(NetError::Quantisation { qa: QA as u32, qb: QB as u32, scale: scale as u32 });
        }
        let largest = |xs: &[i16]| xs.iter().map(|&w| i32::from(w).abs()).max().unwrap_or(0);
        // No accumulator leaves i16, whatever 32 pieces stand on the board.
        if largest(bias) + MAX_PIECES * largest(weights) > i32::from(i16::MAX) {
            return Err(NetError::Range("a bias plus 32 first-layer weights may leave the 16-bit range"));
        }
        // The output sum stays within i32.
        let largest_bias = out_bias.iter().map(|b| i64::from(*b).abs()).max().unwrap_or(0);
        let bound = 2 * HIDDEN as i64 * i64::from(QA) * i64::from(largest(out_weights)) + largest_bias;
        if bound > i64::from(i32::MAX) {
            return Err(NetError::Range("the output sum may leave the 32-bit range"));
        }
        let column = |xs: &[i16]| Column(xs.try_into().expect("HIDDEN values"));
        let outputs = out_weights
            .chunks_exact(2 * HIDDEN)
            .zip(out_bias)
            .map(|(w, &bias)| Output { weights: [column(&w[..HIDDEN]), column(&w[HIDDEN..])], bias })
            .collect();
        Ok(Network {
            kings,
            weights: weights.chunks_exact(HIDDEN).map(column).collect(),
            bias: column(bias),
            outputs,
            scale,
            kernel: Kernel::detect(),
            id: next_id(),
        })
    }

    /// Reads a weights file.
    ///
    /// # Errors
    ///
    /// [`NetError::Io`] if it cannot be read, else as [`from_bytes`](Network::from_bytes).
    pub fn open(path: impl AsRef<Path>) -> Result<Network<B>, NetError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| NetError::Io { path: path.display().to_string(), source })?;
        Network::from_bytes(&bytes)
    }

    /// Parses a weights file (see the [crate documentation](crate) for the format). A network narrower than
    /// this build's [`HIDDEN`] is [widened](Layers::widened) with neurons that change nothing: it evaluates as
    /// it did in its own width (at this width's cost), and [`to_bytes`](Network::to_bytes) writes it wide.
    ///
    /// # Errors
    ///
    /// A [`NetError`] naming the first field that is wrong: magic, version, sizes (a network wider than
    /// [`HIDDEN`] among them), quantisation, length, checksum, then the weights' range.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network<B>, NetError> {
        let layers = Layers::parse(bytes)?;
        if layers.hidden > HIDDEN {
            return Err(NetError::Shape {
                inputs: B::INPUTS as u32,
                hidden: layers.hidden as u32,
                takes: B::INPUTS as u32,
            });
        }
        Network::from_layers(&layers.widened(HIDDEN))
    }

    /// The weights file of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_layers().to_bytes()
    }

    /// The same network computing its output with `kernel` (to compare kernels).
    ///
    /// # Panics
    ///
    /// If this processor cannot run `kernel`.
    pub fn with_kernel(mut self, kernel: Kernel) -> Network<B> {
        assert!(kernel == Kernel::Scalar || kernel == Kernel::detect(), "{kernel:?} is not available here");
        self.kernel = kernel;
        self
    }

    /// The integer weights, laid out as in the weights file: what a trainer starts from to refine a network.
    pub fn to_layers(&self) -> Layers<B> {
        let flat = |columns: &mut dyn Iterator<Item = &Column>| columns.flat_map(|c| c.0).collect::<Vec<i16>>();
        Layers {
            hidden: HIDDEN,
            kings: self.kings,
            weights: flat(&mut self.weights.iter()),
            bias: self.bias.0.to_vec(),
            out_weights: flat(&mut self.outputs.iter().flat_map(|o| &o.weights)),
            out_bias: self.outputs.iter().map(|o| o.bias).collect(),
            scale: self.scale,
        }
    }

    /// The number of output buckets.
    pub fn buckets(&self) -> usize {
        self.outputs.len()
    }

    /// Which inputs each side's pieces are seen through.
    pub fn kings(&self) -> &KingLayout<B> {
        &self.kings
    }

    /// The output bucket of a position with `pieces` pieces on the board (kings included), for a network of
    /// `buckets` buckets: the counts from 2 to 32 split into `buckets` runs of (nearly) equal length, fewest
    /// pieces first (more than 32 count as 32; no buckets gives 0).
    pub fn bucket_of(pieces: u32, buckets: usize) -> usize {
        (pieces.saturating_sub(2) as usize * buckets / (MAX_PIECES as usize - 1)).min(buckets.saturating_sub(1))
    }

    /// The output bucket of `pos`: [`bucket_of`](Network::bucket_of) its number of pieces.
    pub fn bucket<P: NetPosition<Geometry = B>>(&self, pos: &P) -> usize {
        Network::<B>::bucket_of(pos.occupied().count(), self.outputs.len())
    }

    /// Centipawns per unit of output.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The kernel that computes the output.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The accumulators of `pos` computed from scratch.
    pub fn accumulator<P: NetPosition<Geometry = B>>(&self, pos: &P) -> Accumulator {
        let mut acc = Accumulator::default();
        for side in B::Piece::COLORS {
            self.refresh(pos, side, &mut acc.0[color_index::<B>(side)]);
        }
        acc
    }

    /// `side`'s accumulator of `pos` into `column`, from the one it last had in its view in `seen` (a
    /// [`Stack`]'s, made for this network), which is brought up to date.
    fn refresh_from_seen<P: NetPosition<Geometry = B>>(
        &self,
        pos: &P,
        side: ColorOf<B>,
        seen: &mut [Seen<B>],
        column: &mut Column,
    ) {
        let s = color_index::<B>(side);
        let view = self.kings.views(pos)[s];
        let last = &mut seen[s * self.kings.views_per_side() + self.kings.view_index(view)];
        for (i, &piece) in B::PIECES.iter().enumerate() {
            let (now, then) = (pos.by_piece(piece), last.pieces[i]);
            for (squares, sign) in [(now & !then, 1), (then & !now, -1)] {
                for sq in squares {
                    let w = &self.weights[view.feature(side, piece, sq)];
                    for (a, w) in last.column.0.iter_mut().zip(&w.0) {
                        *a = a.wrapping_add(sign * w);
                    }
                }
            }
            last.pieces[i] = now;
        }
        *column = last.column;
    }

    /// `side`'s accumulator of `pos` computed from scratch into `column`.
    fn refresh<P: NetPosition<Geometry = B>>(&self, pos: &P, side: ColorOf<B>, column: &mut Column) {
        let view = self.kings.views(pos)[color_index::<B>(side)];
        *column = self.bias;
        for sq in pos.occupied() {
            let piece = pos.piece_at(sq).expect("occupied");
            for (a, w) in column.0.iter_mut().zip(&self.weights[view.feature(side, piece, sq)].0) {
                *a += w;
            }
        }
    }

    /// The evaluation of the accumulators `acc` with `turn` to move by the output neuron of `bucket`, in
    /// centipawns for the side to move.
    ///
    /// # Panics
    ///
    /// If `bucket` is not below [`buckets`](Network::buckets).
    pub fn output(&self, acc: &Accumulator, turn: ColorOf<B>, bucket: usize) -> i32 {
        let t = color_index::<B>(turn);
        let (us, them) = (&acc.0[t], &acc.0[1 - t]);
        let Output { weights: [w_us, w_them], bias } = &self.outputs[bucket];
        let sum = match self.kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the kernel is AVX2 only where `Kernel::detect` found it (`with_kernel` checks the same).
            Kernel::Avx2 => unsafe { simd::crelu_dot_avx2(us, w_us, them, w_them) },
            _ => simd::crelu_dot_scalar(us, w_us, them, w_them),
        };
        ((i64::from(sum) + i64::from(*bias)) * i64::from(self.scale) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of `pos` in centipawns for the side to move, its accumulators computed from scratch (for
    /// a position evaluated once; a search keeps them along its line with
    /// [`evaluate_along`](Network::evaluate_along)).
    pub fn evaluate<P: NetPosition<Geometry = B>>(&self, pos: &P) -> i32 {
        self.output(&self.accumulator(pos), pos.turn(), self.bucket(pos))
    }

    /// The evaluation of `pos` in centipawns for the side to move, with `accumulators`, those of `pos`'s line
    /// of play (see [`Accumulators`]), brought up to date.
    pub fn evaluate_along<P: NetPosition<Geometry = B>>(&self, pos: &P, accumulators: &Accumulators<B>) -> i32 {
        // Uncontended: a line of play is searched by one thread (the lock only makes sharing one safe).
        let mut stack = accumulators.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let acc = stack.update(self, pos);
        self.output(acc, pos.turn(), self.bucket(pos))
    }

    /// `to = from` with the features of the step's change taken off and put on, for the step's sides; the
    /// other sides' accumulators in `to` are left as they were.
    fn apply(&self, from: &Accumulator, to: &mut Accumulator, step: &Step<B>) {
        match self.kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the kernel is AVX2 only where `Kernel::detect` found it (`with_kernel` checks the same).
            Kernel::Avx2 => unsafe { self.apply_avx2(from, to, step) },
            _ => self.apply_loops(from, to, step),
        }
    }

    /// [`apply`](Network::apply)'s loops compiled for AVX2: the same integer arithmetic, twice as wide as the
    /// baseline's vectors.
    ///
    /// # Safety
    ///
    /// The processor must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn apply_avx2(&self, from: &Accumulator, to: &mut Accumulator, step: &Step<B>) {
        self.apply_loops(from, to, step)
    }

    #[inline(always)]
    fn apply_loops(&self, from: &Accumulator, to: &mut Accumulator, step: &Step<B>) {
        let Step { change, views, sides } = *step;
        for perspective in B::Piece::COLORS {
            let p = color_index::<B>(perspective);
            if !sides[p] {
                continue;
            }
            let columns = |list: &[(B::Piece, crate::SquareOf<B>)]| {
                let mut out = [&self.bias; 2];
                for (slot, &(piece, sq)) in out.iter_mut().zip(list) {
                    *slot = &self.weights[views[p].feature(perspective, piece, sq)];
                }
                out
            };
            let (removed, added) = (columns(change.removed()), columns(change.added()));
            match (change.removed_len, change.added_len) {
                (1, 1) => simd::update::<1, 1>(&from.0[p], &mut to.0[p], removed, added),
                (2, 1) => simd::update::<2, 1>(&from.0[p], &mut to.0[p], removed, added),
                (2, 2) => simd::update::<2, 2>(&from.0[p], &mut to.0[p], removed, added),
                _ => to.0[p] = from.0[p],
            }
        }
    }
}

/// One ply of a walk up the accumulators: the pieces the move changed, seen through each side's view, for
/// the sides (indexed by the colour's number) that are walked.
struct Step<'a, B: Geometry> {
    change: &'a PlacementChange<B::Piece>,
    views: [View<B>; 2],
    sides: [bool; 2],
}

/// Accumulators past this many plies behind are recomputed rather than walked up to.
const REFRESH_PLIES: usize = 16;

/// The accumulators of the positions along a position's history: entry `i` belongs to the position after
/// `i` moves of the history. Those from `base` to `top` are up to date, for the network numbered `net`.
#[derive(Clone, Debug)]
struct Stack<B: Geometry> {
    entries: Vec<Accumulator>,
    base: usize,
    top: usize,
    net: u64,
    /// The accumulator each side last had in each of its views, for the network `net`.
    seen: Vec<Seen<B>>,
}

impl<B: Geometry> Default for Stack<B> {
    fn default() -> Stack<B> {
        Stack { entries: Vec::new(), base: 1, top: 0, net: 0, seen: Vec::new() }
    }
}

/// A side's accumulator as it last was in one of its views, with the pieces it was computed for: a side whose
/// view changes starts from the one it last had in the new view and takes off and puts on only the pieces that
/// differ, where a refresh from scratch puts on every piece (Stockfish's accumulator caches, after the
/// "Finny tables" of Koivisto).
#[derive(Clone, Debug)]
struct Seen<B: Geometry> {
    column: Column,
    /// The pieces counted in `column`, in the order of [`Geometry::PIECES`].
    pieces: [Bitboard<crate::SquareOf<B>>; MAX_PIECE_KINDS],
}

impl<B: Geometry> Stack<B> {
    /// The accumulator of `pos`, computed incrementally from the highest one up to date, or from scratch.
    fn update<P: NetPosition<Geometry = B>>(&mut self, net: &Network<B>, pos: &P) -> &Accumulator {
        let n = pos.history_len();
        if self.entries.len() <= n {
            self.entries.resize(n + 1 + 32, Accumulator::default());
        }
        if self.net != net.id {
            let blank = Seen { column: net.bias, pieces: [Bitboard::EMPTY; MAX_PIECE_KINDS] };
            self.seen = vec![blank; 2 * net.kings.views_per_side()];
        }
        if self.net != net.id || self.base > self.top || n - self.top > REFRESH_PLIES {
            for side in B::Piece::COLORS {
                net.refresh_from_seen(pos, side, &mut self.seen, &mut self.entries[n].0[color_index::<B>(side)]);
            }
            (self.base, self.top, self.net) = (n, n, net.id);
        } else if self.top < n {
            // A side whose king moves to another bucket, or across the middle of a mirrored layout, sees every
            // piece through other inputs: its accumulator is computed afresh at `n`, the other side's walked up.
            // Each ply is walked through the views at `n`: wrong for a side whose view changes on the way, but
            // that side is computed afresh, and the positions walked past are then given up (below).
            let (mut afresh, views) = ([false; 2], net.kings.views(pos));
            for ply in self.top..n {
                let change = pos.placement_change(ply);
                if let Some(side) = net.kings.side_whose_view_changes(&change) {
                    afresh[color_index::<B>(side)] = true;
                }
                let (done, rest) = self.entries.split_at_mut(ply + 1);
                net.apply(&done[ply], &mut rest[0], &Step { change: &change, views, sides: afresh.map(|a| !a) });
            }
            for side in B::Piece::COLORS.into_iter().filter(|&side| afresh[color_index::<B>(side)]) {
                net.refresh_from_seen(pos, side, &mut self.seen, &mut self.entries[n].0[color_index::<B>(side)]);
            }
            // The positions walked past hold that side's accumulator half done.
            if afresh.contains(&true) && n - self.top > 1 {
                self.base = n;
            }
            self.top = n;
        }
        debug_assert_eq!(self.entries[n], net.accumulator(pos), "stale accumulator at {}", pos.to_text());
        &self.entries[n]
    }
}

/// The network accumulators of the positions along one line of play: a search thread's, kept beside the
/// position it plays and takes back moves on (see the [crate documentation](crate)). Entry `i` belongs to the
/// position after `i` moves of the position's history; only the networks read them
/// ([`Network::evaluate_along`]), and whoever takes a move back marks those past the history's end as stale
/// ([`forget_after`](Accumulators::forget_after)).
#[derive(Debug)]
pub struct Accumulators<B: Geometry>(Mutex<Stack<B>>);

impl<B: Geometry> Default for Accumulators<B> {
    fn default() -> Accumulators<B> {
        Accumulators(Mutex::new(Stack::default()))
    }
}

impl<B: Geometry> Clone for Accumulators<B> {
    fn clone(&self) -> Accumulators<B> {
        Accumulators(Mutex::new(self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()))
    }
}

impl<B: Geometry> Accumulators<B> {
    /// Marks the accumulators of positions after `plies` moves of the history as stale: a move was taken back.
    #[inline(always)]
    pub fn forget_after(&mut self, plies: usize) {
        let stack = self.0.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner());
        stack.top = stack.top.min(plies);
    }

    /// The accumulator kept for the position after `plies` moves of the history, if it is up to date (for
    /// tests that compare it with one computed from scratch).
    pub fn up_to_date(&self, plies: usize) -> Option<Accumulator> {
        let stack = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        (stack.base <= plies && plies <= stack.top).then(|| stack.entries[plies])
    }
}

impl<B: Embedded> Network<B> {
    /// The network the game embeds, parsed once.
    pub fn embedded() -> Arc<Network<B>> {
        B::embedded()
    }

    /// The network `name` stands for: the embedded one for [`EMBEDDED_NAME`](crate::EMBEDDED_NAME) or an empty
    /// name, else the weights file of that path (as the engine's `EvalFile` option and the trainer name
    /// networks).
    ///
    /// # Errors
    ///
    /// As [`open`](Network::open).
    pub fn named(name: &str) -> Result<Arc<Network<B>>, NetError> {
        if crate::names_embedded(name) {
            Ok(Network::embedded())
        } else {
            Network::open(name).map(Arc::new)
        }
    }
}

/// The kernels: the accumulator update (plain loops the compiler vectorises, for AVX2 too when
/// [`Network::apply`] is compiled for it) and the output layer's clipped ReLU and dot product, in scalar code
/// and with AVX2.
mod simd {
    use super::{Column, HIDDEN, QA};

    /// `to = from - removed[..R] + added[..A]`.
    #[inline(always)]
    pub fn update<const R: usize, const A: usize>(
        from: &Column,
        to: &mut Column,
        removed: [&Column; 2],
        added: [&Column; 2],
    ) {
        for i in 0..HIDDEN {
            let mut v = from.0[i];
            for r in removed.iter().take(R) {
                v = v.wrapping_sub(r.0[i]);
            }
            for a in added.iter().take(A) {
                v = v.wrapping_add(a.0[i]);
            }
            to.0[i] = v;
        }
    }

    /// `Σ clamp(us, 0, QA) · w_us + Σ clamp(them, 0, QA) · w_them`.
    pub fn crelu_dot_scalar(us: &Column, w_us: &Column, them: &Column, w_them: &Column) -> i32 {
        let dot = |a: &Column, w: &Column| -> i32 {
            a.0.iter().zip(&w.0).map(|(&a, &w)| i32::from(a).clamp(0, QA) * i32::from(w)).sum()
        };
        dot(us, w_us) + dot(them, w_them)
    }

    /// [`crelu_dot_scalar`] with AVX2: 16 lanes of `i16` clipped, then multiplied and added in pairs into
    /// `i32` (`vpmaddwd`), which is exact here because a clipped value times a weight and the sum of two such
    /// products fit `i32` (the loader bounds the weights).
    ///
    /// # Safety
    ///
    /// The processor must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub unsafe fn crelu_dot_avx2(us: &Column, w_us: &Column, them: &Column, w_them: &Column) -> i32 {
        use std::arch::x86_64::*;
        let zero = _mm256_setzero_si256();
        let ceiling = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for (a, w) in [(us, w_us), (them, w_them)] {
            for i in (0..HIDDEN).step_by(16) {
                // SAFETY: `i + 16 <= HIDDEN`, so each 32-byte load stays inside its column.
                let x = _mm256_loadu_si256(a.0.as_ptr().add(i).cast());
                let y = _mm256_loadu_si256(w.0.as_ptr().add(i).cast());
                let clipped = _mm256_min_epi16(_mm256_max_epi16(x, zero), ceiling);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(clipped, y));
            }
        }
        let halves = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        let pairs = _mm_add_epi32(halves, _mm_shuffle_epi32(halves, 0b01_00_11_10));
        let total = _mm_add_epi32(pairs, _mm_shuffle_epi32(pairs, 0b10_11_00_01));
        _mm_cvtsi128_si32(total)
    }
}
