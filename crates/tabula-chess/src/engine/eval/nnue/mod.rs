//! An efficiently updated neural network evaluation (NNUE): [`Network`], its weights file format and the
//! [`Accumulators`] a search keeps along its line of play.
//!
//! # The network
//!
//! 768 inputs, one per (piece colour, role, square), seen from each side: from white's point of view the
//! feature of a piece is `64 * (6 * c + r) + s` with `c` 0 for white's pieces and 1 for black's, `r` the
//! [`Role`](crate::Role) index (pawn 0 to king 5) and `s` the square index (a1 0, h8 63); from black's point of view the
//! colours swap and the board flips top to bottom (`s ^ 56`). Each side's features feed a layer of
//! [`HIDDEN`] neurons (the *accumulator*: the layer's bias plus the weight columns of the pieces on the
//! board, both sides sharing one set of weights). The two accumulators, the side to move's first, pass a
//! clipped ReLU and meet an output neuron. A network has one output neuron or several, the *output buckets*
//! (at most [`MAX_BUCKETS`]): a position is evaluated by the neuron of its bucket, chosen by the number of
//! pieces on the board ([`Network::bucket`]), so that the same accumulators are read one way in the
//! middlegame and another in the ending. The buckets cost nothing to update, since the first layer is shared.
//!
//! A network may also see each side's pieces through its own king (the *king layout*, [`KingLayout`]): the
//! board mirrored left to right when that king stands on files a to d, so that it is always seen on files e to
//! h, and a set of [`INPUTS`] inputs for each of a few regions of the king's squares (the *king buckets*), so
//! that the first layer weighs a piece by where its own king stands. The plain layout, one set and no
//! mirroring, is that of the files of versions 1 and 2.
//!
//! Because a move changes at most four features, the accumulators are updated as the Zobrist key is: by
//! adding and subtracting the weight columns of the features the move changes ([`Position::placement_change`]).
//! The accumulators are not the position's: a search keeps them along its line of play, in [`Accumulators`]
//! beside the position it plays and takes back moves on (the engine's
//! [`EnginePosition`](crate::engine::EnginePosition)), so that the rules know nothing of any network. The
//! update is lazy: making and taking back moves costs nothing; when a network evaluates a position
//! ([`Network::evaluate_along`]), it brings the accumulators up to date from the last position it evaluated on
//! the same line of play, or from scratch. A king moving to another bucket, or across the middle of a mirrored
//! layout, changes every input of its side: that side's accumulator is computed afresh.
//!
//! # Quantisation
//!
//! The network is trained in floating point and stored in integers. With `QA` = [`QA`] and `QB` = [`QB`]:
//! the first layer's weights and biases are `round(QA * w)` as `i16`, so an accumulator is `QA` times the
//! real one and the clipped ReLU clips to `0..=QA`; the output weights are `round(QB * w)` as `i16` and the
//! output bias `round(QA * QB * b)` as `i32`. The output sum is thus `QA * QB` times the real output `y`, and
//! the evaluation in centipawns is `y * scale`, rounded towards zero, with the network's own scale (stored in
//! its file; the trainer's default is [`DEFAULT_SCALE`]): the network is trained so that `sigmoid(y)` predicts
//! the expected score and `sigmoid(cp / scale)` is how the trainer reads the search's scores. All inference is integer arithmetic, so the SIMD kernel and
//! the scalar one give the same results exactly.
//!
//! # The weights file (version 3)
//!
//! Little-endian throughout:
//!
//! | bytes | content |
//! | --- | --- |
//! | 4 | magic `TBNN` |
//! | 4 | version, `u32` (3) |
//! | 4 | inputs per king bucket, `u32` (768) |
//! | 4 | hidden neurons per side, `u32` ([`HIDDEN`]) |
//! | 4 | output buckets, `u32` (1 to [`MAX_BUCKETS`]) |
//! | 4 | king buckets `k`, `u32` (1 to [`MAX_KING_BUCKETS`]) |
//! | 4 | mirroring, `u32` (1 to mirror the board so that each side's king stands on files e to h, else 0) |
//! | 12 | `QA`, `QB` and the scale (centipawns per unit of output), `u32` each |
//! | 64 | the king bucket of each square of a side's own king, seen from its side (a1 first), after mirroring |
//! | 2 × 768 × k × hidden | first layer weights, `i16`, king bucket by king bucket, input by input (each input's column of `hidden`) |
//! | 2 × hidden | first layer biases, `i16` |
//! | 2 × 2 × hidden × buckets | output weights, `i16`, bucket by bucket: the side to move's accumulator's, then the other's |
//! | 4 × buckets | output biases, `i32`, bucket by bucket |
//! | 8 | checksum, `u64`: FNV-1a of every byte before it |
//!
//! Version 2 is the same without the king layout's fields (the two counts' `u32`s and the 64 bytes): one king
//! bucket, no mirroring. Version 1 is version 2 without the output buckets' field: one output neuron.
//! [`Network::from_bytes`] reads all three and checks each field and the sizes that keep the integer arithmetic
//! from overflowing (see [`NetError`]); [`Network::to_bytes`] writes version 2 for the plain layout, else
//! version 3.
//!
//! # The embedded network
//!
//! [`Network::embedded`] (`default.tbnn`) was trained by `tabula-lab chess` in nine rounds. The first two
//! learnt from our own data: quiet positions of self-play from random starts, each with the search's score
//! and the game's result (`nnue-gen`) — 3.62 million by the engine on the first network and 2.72 million by
//! the tapered evaluation — less the endings against a bare king, which the engine leaves to the tapered
//! evaluation: 5.46 million, fitted for 12 passes with the positions also mirrored left to right (`nnue-fit`,
//! scale 113, target three quarters score and one quarter result). The third went on from those weights at a
//! tenth of the learning rate, on 1.56 million new positions of the engine's self-play scored by Stockfish
//! 15.1 at depth 8 (`nnue-label`), with Stockfish's score as the whole target. On 37,311 positions of games
//! no network saw, its loss against Stockfish's scores is 0.0184, against 0.0234 for the second round's
//! network and 0.0256 for the tapered evaluation; in self-play it scored +139 ± 49 Elo against the second.
//! The fourth went on from the third in the same way on those positions and 0.81 million more from the
//! third's own self-play (2.37 million): loss 0.0180 on the same unseen positions, +69 ± 30 Elo in self-play
//! against the third. The fifth went on from the fourth on those and 1.56 million more from the fourth's
//! self-play (3.76 million): loss 0.0175, +37 ± 22 Elo in self-play against the fourth.
//! The sixth went on from the fifth on 1.82 million new positions of the fifth's self-play alone: loss
//! 0.01554 against the fifth's 0.01579 on the held-out new games, +19 ± 15 Elo in self-play against the fifth.
//! The seventh went on from the sixth with eight output buckets, each starting as the sixth's one output
//! neuron, on those positions and 1.67 million more from the sixth's self-play (3.49 million): loss 0.01493
//! against the sixth's 0.01534 on the held-out new games, +23 ± 15 Elo in self-play against the sixth.
//! The eighth went on from the seventh on 1.41 million new positions of the seventh's self-play, most of them
//! at 4,000 nodes a move (stronger play than the 1,000 of the rounds before): loss 0.015418 against the
//! seventh's 0.015609 on the held-out 4,000-node games, +21.5 ± 15.0 Elo in self-play against the seventh
//! and about +21 ± 22 beside it against Stockfish 15.1 at `UCI_Elo` 2500.
//! The ninth went on from the eighth into the four-bucket king layout ([`KingLayout::FOUR`], the eighth's
//! weights as the factor every bucket shares), on 6.65 million positions scored by Stockfish 15.1's static
//! evaluation (`nnue-label --static-eval 115`): 5.08 million new positions of the eighth's self-play at 1,000
//! nodes a move and 1.57 million of the two rounds before, relabelled; 10 passes, 11 minutes on one thread.
//! Loss 0.012721 against the eighth's 0.014352 on 67,682 held-out positions scored by Stockfish's search at
//! depth 8, +68 ± 43 Elo in self-play against the eighth, and 109.5 / 200 (+33 ± 39 Elo) against Stockfish
//! 15.1 at `UCI_Elo` 2500 at 10 s + 0.1 s.
//!
//! # Examples
//!
//! ```
//! use tabula_chess::engine::eval::nnue::Network;
//! use tabula_chess::Position;
//!
//! let net = Network::embedded();
//! let start = net.evaluate(&Position::startpos());
//! assert!(start.abs() < 100, "{start}");
//! // A queen up is a lot better for the side that has it, whoever is to move.
//! let white_up = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
//! let black_down = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
//! assert!(net.evaluate(&white_up) > 300 && net.evaluate(&black_down) < -300);
//!
//! // The file round-trips.
//! let again = Network::from_bytes(&net.to_bytes()).unwrap();
//! assert_eq!(again.evaluate(&white_up), net.evaluate(&white_up));
//! ```

use crate::position::Position;
use crate::types::{Color, Piece, Square};

mod kings;
pub use kings::{KingLayout, View, INPUTS, MAX_KING_BUCKETS};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Neurons of the first layer, per side.
pub const HIDDEN: usize = 256;
/// The first layer's quantisation: an accumulator is `QA` times the real value, clipped to `0..=QA`.
pub const QA: i32 = 255;
/// The output layer's quantisation.
pub const QB: i32 = 512;
/// Centipawns per unit of a network's output (the output's `sigmoid` is the expected score) that the trainer
/// uses unless told otherwise; a network's file states its own.
pub const DEFAULT_SCALE: i32 = 113;
/// The scales a file may state.
pub const SCALES: std::ops::RangeInclusive<i32> = 1..=10_000;
/// The newest file format version, which [`Network::to_bytes`] writes for a network with a king layout other
/// than [`KingLayout::PLAIN`] (version 2 otherwise); [`Network::from_bytes`] reads versions 1 to 3.
pub const VERSION: u32 = 3;
/// The most output buckets a network may have.
pub const MAX_BUCKETS: usize = 16;
/// The name of the embedded network where a network is named ([`Network::named`]).
pub const EMBEDDED_NAME: &str = "<embedded>";

/// Whether `name` stands for the embedded network rather than a file: [`EMBEDDED_NAME`] or an empty name.
pub fn names_embedded(name: &str) -> bool {
    name.is_empty() || name == EMBEDDED_NAME
}

/// The most pieces a position has: the accumulators' bound on how many columns add up.
const MAX_PIECES: i32 = 32;

const MAGIC: &[u8; 4] = b"TBNN";

/// The length of a file with [`HIDDEN`] neurons, `buckets` output buckets and the king layout `kings`.
pub const fn file_len(buckets: usize, kings: &KingLayout) -> usize {
    header_len(version_for(kings)) + body_len(HIDDEN, buckets, kings.buckets()) + 8
}

/// The most hidden neurons per side a file may state (files of other widths than [`HIDDEN`] are read as
/// [`Layers`], to start a wider network from).
pub const MAX_HIDDEN: usize = 4_096;

/// The oldest file version that can hold the king layout `kings`.
const fn version_for(kings: &KingLayout) -> u32 {
    if kings.sees_kings() {
        VERSION
    } else {
        2
    }
}

const fn header_len(version: u32) -> usize {
    match version {
        1 => 28,
        2 => 32,
        _ => 40 + 64,
    }
}

/// Where the quantisation fields (`QA`, `QB`, the scale) start in a file of `version`.
const fn quantisation_at(version: u32) -> usize {
    match version {
        1 => 16,
        2 => 20,
        _ => 28,
    }
}

const fn body_len(hidden: usize, buckets: usize, kings: usize) -> usize {
    2 * INPUTS * kings * hidden + 2 * hidden + buckets * (4 * hidden + 4)
}

/// The network the engine embeds (trained by `tabula-lab chess nnue-fit`).
static EMBEDDED: &[u8] = include_bytes!("../default.tbnn");

/// Why bytes are not a weights file this build can use.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The file could not be read.
    #[error("cannot read network file {path}: {source}")]
    Io {
        /// The path given.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file does not start with `TBNN`.
    #[error("not a network file: it starts with {0:?}, not \"TBNN\"")]
    Magic(Vec<u8>),
    /// A format version this build does not read.
    #[error("network file version {0}, this build reads versions 1 and {VERSION}")]
    Version(u32),
    /// An output bucket count outside `1..=`[`MAX_BUCKETS`].
    #[error("network has {0} output buckets, this build reads 1 to {MAX_BUCKETS}")]
    Buckets(u32),
    /// A king layout with a bucket count outside `1..=`[`MAX_KING_BUCKETS`], a square mapped beyond it, or a
    /// mirroring flag other than 0 or 1.
    #[error("network has a king layout of {0} buckets that does not hold together (1 to {MAX_KING_BUCKETS} buckets, each square's below the count, mirroring 0 or 1)")]
    Kings(u32),
    /// Inputs other than [`INPUTS`], or more hidden neurons than this build's [`HIDDEN`] (for [`Layers`],
    /// than [`MAX_HIDDEN`]).
    #[error(
        "network has {inputs} inputs and {hidden} hidden neurons, this build takes {INPUTS} inputs and at most \
         {HIDDEN} hidden neurons"
    )]
    Shape {
        /// Inputs in the file.
        inputs: u32,
        /// Hidden neurons per side in the file.
        hidden: u32,
    },
    /// The quantisation constants differ from this build's.
    #[error("network quantised with QA {qa}, QB {qb}, scale {scale}; this build uses QA {QA}, QB {QB}, a scale of 1 to 10000")]
    Quantisation {
        /// `QA` in the file.
        qa: u32,
        /// `QB` in the file.
        qb: u32,
        /// The scale in the file.
        scale: u32,
    },
    /// The file is shorter or longer than its header says.
    #[error("network file has {found} bytes, its header implies {expected}")]
    Length {
        /// The length the header implies.
        expected: usize,
        /// The file's length.
        found: usize,
    },
    /// The checksum does not match the contents.
    #[error("network file checksum {stored:#018x} does not match its contents ({computed:#018x})")]
    Checksum {
        /// The checksum stored in the file.
        stored: u64,
        /// The checksum of the contents.
        computed: u64,
    },
    /// Weights so large that the accumulators or the output sum could overflow.
    #[error("network weights out of range: {0}")]
    Range(&'static str),
}

/// The integer contents of a weights file of any width up to [`MAX_HIDDEN`], laid out as in the file: what a
/// [`Network`] is made from ([`Network::from_bytes`] takes widths up to this build's [`HIDDEN`]), and what a
/// trainer reads to start a network, a wider one among them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layers {
    /// Hidden neurons per side.
    pub hidden: usize,
    /// Which inputs each side's pieces are seen through.
    pub kings: KingLayout,
    /// The first layer: [`INPUTS`] columns of `hidden` weights for each king bucket, input by input.
    pub weights: Vec<i16>,
    /// The first layer's `hidden` biases.
    pub bias: Vec<i16>,
    /// Each output bucket's `2 × hidden` weights, bucket by bucket (the side to move's, then the other's).
    pub out_weights: Vec<i16>,
    /// Each output bucket's bias.
    pub out_bias: Vec<i32>,
    /// Centipawns per unit of output.
    pub scale: i32,
}

impl Layers {
    /// Parses a weights file (see the [module documentation](self) for the format) of any width.
    ///
    /// # Errors
    ///
    /// A [`NetError`] naming the first field that is wrong: magic, version, sizes, quantisation, length,
    /// checksum. The weights' range is [`Network::new`]'s to check.
    pub fn from_bytes(bytes: &[u8]) -> Result<Layers, NetError> {
        Layers::parse(bytes)
    }

    /// The same network `hidden` neurons wide: the neurons added have no weight in or out and no bias, so
    /// that they are always 0 and every evaluation stays the same.
    ///
    /// # Panics
    ///
    /// If `hidden` is narrower than these layers.
    pub fn widened(&self, hidden: usize) -> Layers {
        assert!(hidden >= self.hidden, "{} neurons cannot widen to {hidden}", self.hidden);
        // Each input's column, and each bucket's two halves of output weights, runs of `self.hidden` values.
        let pad = |runs: &[i16]| -> Vec<i16> {
            runs.chunks_exact(self.hidden.max(1))
                .flat_map(|run| run.iter().copied().chain(std::iter::repeat(0).take(hidden - self.hidden)))
                .collect()
        };
        Layers {
            hidden,
            kings: self.kings,
            weights: pad(&self.weights),
            bias: pad(&self.bias),
            out_weights: pad(&self.out_weights),
            out_bias: self.out_bias.clone(),
            scale: self.scale,
        }
    }

    /// The weights file of these layers: version 2 for the [plain](KingLayout::PLAIN) king layout, else
    /// version 3.
    ///
    /// # Panics
    ///
    /// If the vectors' lengths do not agree with `hidden`, [`INPUTS`] and the king buckets.
    pub fn to_bytes(&self) -> Vec<u8> {
        let (hidden, buckets, kings) = (self.hidden, self.out_bias.len(), self.kings.buckets());
        assert_eq!(
            (self.weights.len(), self.bias.len(), self.out_weights.len()),
            (INPUTS * kings * hidden, hidden, 2 * hidden * buckets),
            "layers of {hidden} hidden neurons, {kings} king buckets and {buckets} buckets"
        );
        let version = version_for(&self.kings);
        let mut out = Vec::with_capacity(header_len(version) + body_len(hidden, buckets, kings) + 8);
        out.extend_from_slice(MAGIC);
        let mut header = vec![version, INPUTS as u32, hidden as u32, buckets as u32];
        if version == 3 {
            header.extend([kings as u32, u32::from(self.kings.mirror())]);
        }
        for n in header.into_iter().chain([QA as u32, QB as u32, self.scale as u32]) {
            out.extend_from_slice(&n.to_le_bytes());
        }
        if version == 3 {
            out.extend_from_slice(self.kings.map());
        }
        for w in self.weights.iter().chain(&self.bias).chain(&self.out_weights) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.out_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let checksum = fnv1a(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Parses a weights file.
    fn parse(bytes: &[u8]) -> Result<Layers, NetError> {
        if bytes.len() < 8 || &bytes[..4] != MAGIC {
            return Err(NetError::Magic(bytes[..bytes.len().min(4)].to_vec()));
        }
        let u32_at = |at: usize| bytes.get(at..at + 4).map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")));
        let version = u32_at(4).expect("checked length");
        if !(1..=VERSION).contains(&version) {
            return Err(NetError::Version(version));
        }
        let too_short = |expected| NetError::Length { expected, found: bytes.len() };
        let header = header_len(version);
        let (Some(inputs), Some(hidden)) = (u32_at(8), u32_at(12)) else { return Err(too_short(header)) };
        let width = hidden as usize;
        if inputs as usize != INPUTS || !(1..=MAX_HIDDEN).contains(&width) {
            return Err(NetError::Shape { inputs, hidden });
        }
        let hidden = hidden as usize;
        let buckets = if version == 1 { Some(1) } else { u32_at(16) };
        let Some(buckets) = buckets else { return Err(too_short(header)) };
        if !(1..=MAX_BUCKETS as u32).contains(&buckets) {
            return Err(NetError::Buckets(buckets));
        }
        let buckets = buckets as usize;
        let kings = if version < 3 {
            KingLayout::PLAIN
        } else {
            let (Some(count), Some(mirror), Some(map)) = (u32_at(20), u32_at(24), bytes.get(40..104)) else {
                return Err(too_short(header));
            };
            if mirror > 1 {
                return Err(NetError::Kings(count));
            }
            KingLayout::new(mirror == 1, map.try_into().expect("64 bytes"), count as usize)
                .ok_or(NetError::Kings(count))?
        };
        let at = quantisation_at(version);
        let (Some(qa), Some(qb), Some(scale)) = (u32_at(at), u32_at(at + 4), u32_at(at + 8)) else {
            return Err(too_short(header));
        };
        if (qa as i32, qb as i32) != (QA, QB) || !SCALES.contains(&(scale as i32)) {
            return Err(NetError::Quantisation { qa, qb, scale });
        }
        let body = body_len(hidden, buckets, kings.buckets());
        let expected = header + body + 8;
        if bytes.len() != expected {
            return Err(too_short(expected));
        }
        let (contents, stored) = bytes.split_at(expected - 8);
        let stored = u64::from_le_bytes(stored.try_into().expect("8 bytes"));
        let computed = fnv1a(contents);
        if stored != computed {
            return Err(NetError::Checksum { stored, computed });
        }
        let (body, biases) = contents[header..].split_at(body - 4 * buckets);
        let mut values = body.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]]));
        let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<i16>>();
        Ok(Layers {
            hidden,
            kings,
            weights: take(INPUTS * kings.buckets() * hidden),
            bias: take(hidden),
            out_weights: take(2 * hidden * buckets),
            out_bias: biases.chunks_exact(4).map(|b| i32::from_le_bytes(b.try_into().expect("4 bytes"))).collect(),
            scale: scale as i32,
        })
    }
}

/// One side's weights or accumulator, aligned for SIMD loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Column(pub [i16; HIDDEN]);

impl Default for Column {
    fn default() -> Column {
        Column([0; HIDDEN])
    }
}

/// Both sides' accumulators of a position, indexed by [`Color::index`] (the side whose point of view).
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

/// A network with integer weights; see the [module documentation](self).
#[derive(Clone, Debug)]
pub struct Network {
    /// Which inputs each side's pieces are seen through.
    kings: KingLayout,
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

/// The feature of `piece` on `sq` from `perspective`'s point of view in the [plain](KingLayout::PLAIN) layout.
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    KingLayout::PLAIN.view(perspective, Square::A1).feature(perspective, piece, sq)
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl Network {
    /// A network of the [plain](KingLayout::PLAIN) king layout from its integer weights: `weights` holds
    /// [`INPUTS`] columns of [`HIDDEN`] (input by input), `bias` [`HIDDEN`] values, `out_weights` each output
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
    ) -> Result<Network, NetError> {
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
    pub fn from_layers(layers: &Layers) -> Result<Network, NetError> {
        let Layers { kings, ref weights, ref bias, ref out_weights, ref out_bias, scale, .. } = *layers;
        let buckets = out_bias.len();
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(NetError::Buckets(buckets as u32));
        }
        let inputs = INPUTS * kings.buckets();
        if weights.len() != inputs * HIDDEN || bias.len() != HIDDEN || out_weights.len() != 2 * HIDDEN * buckets {
            return Err(NetError::Shape { inputs: (weights.len() / HIDDEN.max(1)) as u32, hidden: bias.len() as u32 });
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

    /// The network the engine embeds, parsed once.
    pub fn embedded() -> Arc<Network> {
        static NET: OnceLock<Arc<Network>> = OnceLock::new();
        NET.get_or_init(|| Arc::new(Network::from_bytes(EMBEDDED).expect("the embedded network is valid"))).clone()
    }

    /// The network `name` stands for: the embedded one for [`EMBEDDED_NAME`] or an empty name, else the weights
    /// file of that path (as the engine's `EvalFile` option and the trainer name networks).
    ///
    /// # Errors
    ///
    /// As [`open`](Network::open).
    pub fn named(name: &str) -> Result<Arc<Network>, NetError> {
        if names_embedded(name) {
            Ok(Network::embedded())
        } else {
            Network::open(name).map(Arc::new)
        }
    }

    /// Reads a weights file.
    ///
    /// # Errors
    ///
    /// [`NetError::Io`] if it cannot be read, else as [`from_bytes`](Network::from_bytes).
    pub fn open(path: impl AsRef<Path>) -> Result<Network, NetError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| NetError::Io { path: path.display().to_string(), source })?;
        Network::from_bytes(&bytes)
    }

    /// Parses a weights file (see the [module documentation](self) for the format). A network narrower than
    /// this build's [`HIDDEN`] is [widened](Layers::widened) with neurons that change nothing: it evaluates as
    /// it did in its own width (at this width's cost), and [`to_bytes`](Network::to_bytes) writes it wide.
    ///
    /// # Errors
    ///
    /// A [`NetError`] naming the first field that is wrong: magic, version, sizes (a network wider than
    /// [`HIDDEN`] among them), quantisation, length, checksum, then the weights' range.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let layers = Layers::parse(bytes)?;
        if layers.hidden > HIDDEN {
            return Err(NetError::Shape { inputs: INPUTS as u32, hidden: layers.hidden as u32 });
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
    pub fn with_kernel(mut self, kernel: Kernel) -> Network {
        assert!(kernel == Kernel::Scalar || kernel == Kernel::detect(), "{kernel:?} is not available here");
        self.kernel = kernel;
        self
    }

    /// The integer weights, laid out as in the weights file: what a trainer starts from to refine a network.
    pub fn to_layers(&self) -> Layers {
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
    pub fn kings(&self) -> &KingLayout {
        &self.kings
    }

    /// The output bucket of a position with `pieces` pieces on the board (kings included), for a network of
    /// `buckets` buckets: the counts from 2 to 32 split into `buckets` runs of (nearly) equal length, fewest
    /// pieces first (more than 32 count as 32; no buckets gives 0).
    pub fn bucket_of(pieces: u32, buckets: usize) -> usize {
        (pieces.saturating_sub(2) as usize * buckets / 31).min(buckets.saturating_sub(1))
    }

    /// The output bucket of `pos`: [`bucket_of`](Network::bucket_of) its number of pieces.
    pub fn bucket(&self, pos: &Position) -> usize {
        Network::bucket_of(pos.board().occupied().count(), self.outputs.len())
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
    pub fn accumulator(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator::default();
        for side in Color::ALL {
            self.refresh(pos, side, &mut acc.0[side.index()]);
        }
        acc
    }

    /// `side`'s accumulator of `pos` into `column`, from the one it last had in its view in `seen` (a
    /// [`Stack`]'s, made for this network), which is brought up to date.
    fn refresh_from_seen(&self, pos: &Position, side: Color, seen: &mut [Seen], column: &mut Column) {
        let view = self.kings.views(pos)[side.index()];
        let last = &mut seen[side.index() * self.kings.views_per_side() + self.kings.view_index(view)];
        for (i, piece) in Piece::ALL.into_iter().enumerate() {
            let (now, then) = (pos.board().by_piece(piece), last.pieces[i]);
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
    fn refresh(&self, pos: &Position, side: Color, column: &mut Column) {
        let view = self.kings.views(pos)[side.index()];
        *column = self.bias;
        for sq in pos.board().occupied() {
            let piece = pos.board().piece_at(sq).expect("occupied");
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
    pub fn output(&self, acc: &Accumulator, turn: Color, bucket: usize) -> i32 {
        let (us, them) = (&acc.0[turn.index()], &acc.0[turn.flip().index()]);
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
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.accumulator(pos), pos.turn(), self.bucket(pos))
    }

    /// The evaluation of `pos` in centipawns for the side to move, with `accumulators`, those of `pos`'s line
    /// of play (see [`Accumulators`]), brought up to date.
    pub fn evaluate_along(&self, pos: &Position, accumulators: &Accumulators) -> i32 {
        // Uncontended: a line of play is searched by one thread (the lock only makes sharing one safe).
        let mut stack = accumulators.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let acc = stack.update(self, pos);
        self.output(acc, pos.turn(), self.bucket(pos))
    }

    /// `to = from` with the features of the step's change taken off and put on, for the step's sides; the
    /// other sides' accumulators in `to` are left as they were.
    fn apply(&self, from: &Accumulator, to: &mut Accumulator, step: &Step) {
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
    unsafe fn apply_avx2(&self, from: &Accumulator, to: &mut Accumulator, step: &Step) {
        self.apply_loops(from, to, step)
    }

    #[inline(always)]
    fn apply_loops(&self, from: &Accumulator, to: &mut Accumulator, step: &Step) {
        let Step { change, views, sides } = *step;
        for perspective in Color::ALL {
            let p = perspective.index();
            if !sides[p] {
                continue;
            }
            let columns = |list: &[(Piece, Square)]| {
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
/// the sides (indexed by [`Color::index`]) that are walked.
struct Step<'a> {
    change: &'a crate::position::PlacementChange,
    views: [View; 2],
    sides: [bool; 2],
}

/// Accumulators past this many plies behind are recomputed rather than walked up to.
const REFRESH_PLIES: usize = 16;

/// The accumulators of the positions along a [`Position`]'s history: entry `i` belongs to the position after
/// `i` moves of the history. Those from `base` to `top` are up to date, for the network numbered `net`.
#[derive(Clone, Debug)]
struct Stack {
    entries: Vec<Accumulator>,
    base: usize,
    top: usize,
    net: u64,
    /// The accumulator each side last had in each of its views, for the network `net`.
    seen: Vec<Seen>,
}

impl Default for Stack {
    fn default() -> Stack {
        Stack { entries: Vec::new(), base: 1, top: 0, net: 0, seen: Vec::new() }
    }
}

/// A side's accumulator as it last was in one of its views, with the pieces it was computed for: a side whose
/// view changes starts from the one it last had in the new view and takes off and puts on only the pieces that
/// differ, where a refresh from scratch puts on every piece (Stockfish's accumulator caches, after the
/// "Finny tables" of Koivisto).
#[derive(Clone, Debug)]
struct Seen {
    column: Column,
    /// The pieces counted in `column`, in the order of [`Piece::ALL`].
    pieces: [crate::Bitboard; 12],
}

impl Stack {
    /// The accumulator of `pos`, computed incrementally from the highest one up to date, or from scratch.
    fn update(&mut self, net: &Network, pos: &Position) -> &Accumulator {
        let n = pos.history_len();
        if self.entries.len() <= n {
            self.entries.resize(n + 1 + 32, Accumulator::default());
        }
        if self.net != net.id {
            let blank = Seen { column: net.bias, pieces: [crate::Bitboard::EMPTY; 12] };
            self.seen = vec![blank; 2 * net.kings.views_per_side()];
        }
        if self.net != net.id || self.base > self.top || n - self.top > REFRESH_PLIES {
            for side in Color::ALL {
                net.refresh_from_seen(pos, side, &mut self.seen, &mut self.entries[n].0[side.index()]);
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
                    afresh[side.index()] = true;
                }
                let (done, rest) = self.entries.split_at_mut(ply + 1);
                net.apply(&done[ply], &mut rest[0], &Step { change: &change, views, sides: afresh.map(|a| !a) });
            }
            for side in Color::ALL.into_iter().filter(|side| afresh[side.index()]) {
                net.refresh_from_seen(pos, side, &mut self.seen, &mut self.entries[n].0[side.index()]);
            }
            // The positions walked past hold that side's accumulator half done.
            if afresh.contains(&true) && n - self.top > 1 {
                self.base = n;
            }
            self.top = n;
        }
        debug_assert_eq!(self.entries[n], net.accumulator(pos), "stale accumulator at {}", pos.to_fen());
        &self.entries[n]
    }
}

/// The network accumulators of the positions along one line of play: a search thread's, kept beside the
/// position it plays and takes back moves on (see the [module documentation](self) and
/// [`EnginePosition`](crate::engine::EnginePosition)). Entry `i` belongs to the position after `i` moves of the
/// position's history; only the networks read them ([`Network::evaluate_along`]), and whoever takes a move back
/// marks those past the history's end as stale ([`forget_after`](Accumulators::forget_after)).
#[derive(Debug, Default)]
pub struct Accumulators(Mutex<Stack>);

impl Clone for Accumulators {
    fn clone(&self) -> Accumulators {
        Accumulators(Mutex::new(self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()))
    }
}

impl Accumulators {
    /// Marks the accumulators of positions after `plies` moves of the history as stale: a move was taken back.
    #[inline(always)]
    pub fn forget_after(&mut self, plies: usize) {
        let stack = self.0.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner());
        stack.top = stack.top.min(plies);
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

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::rng::Rng;

    fn random_game(rng: &mut Rng, plies: usize) -> Position {
        let choices: Vec<usize> = (0..plies).map(|_| rng.next_u64() as usize).collect();
        tabula_board::testing::random_game(Position::startpos(), &choices)
    }

    #[test]
    fn incremental_accumulators_match_fresh_ones() {
        let net = Network::embedded();
        let mut rng = Rng::new(19);
        for game in 0..60 {
            let mut pos = Position::from_fen(match game % 3 {
                0 => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                1 => "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                _ => "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            })
            .unwrap();
            let mut line = Accumulators::default();
            net.evaluate_along(&pos, &line);
            // Random walks forward and back, with null moves, evaluating now and then.
            for _ in 0..120 {
                let moves = pos.legal_moves();
                let back = pos.history_len() > 0 && rng.next_u64() % 4 == 0;
                if back || moves.is_empty() {
                    if pos.history_len() == 0 {
                        break;
                    }
                    if pos.moves_played().last() == Some(crate::Move::NULL) {
                        pos.undo_null();
                    } else {
                        pos.undo();
                    }
                    line.forget_after(pos.history_len());
                } else if !pos.is_check() && rng.next_u64() % 10 == 0 {
                    pos.play_null();
                } else {
                    pos.play_unchecked(moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]);
                }
                if rng.next_u64() % 3 == 0 {
                    let fresh = net.output(&net.accumulator(&pos), pos.turn(), net.bucket(&pos));
                    assert_eq!(net.evaluate_along(&pos, &line), fresh, "{}", pos.to_fen());
                    assert_eq!(net.evaluate(&pos), fresh, "{}", pos.to_fen());
                    let stack = line.0.lock().unwrap();
                    assert_eq!(stack.entries[pos.history_len()], net.accumulator(&pos), "{}", pos.to_fen());
                }
            }
        }
    }

    #[test]
    fn kernels_agree() {
        let net = Network::embedded();
        let scalar = (*net).clone().with_kernel(Kernel::Scalar);
        let fast = (*net).clone().with_kernel(Kernel::detect());
        let mut rng = Rng::new(7);
        for game in 0..200 {
            let pos = random_game(&mut rng, game % 80);
            let acc = net.accumulator(&pos);
            let bucket = net.bucket(&pos);
            assert_eq!(
                scalar.output(&acc, pos.turn(), bucket),
                fast.output(&acc, pos.turn(), bucket),
                "{}",
                pos.to_fen()
            );
        }
        // Along games, each kernel updating its own accumulators move by move.
        for _ in 0..20 {
            let (mut a, mut b) = (Position::startpos(), Position::startpos());
            let (line_a, line_b) = (Accumulators::default(), Accumulators::default());
            for _ in 0..80 {
                assert_eq!(scalar.evaluate_along(&a, &line_a), fast.evaluate_along(&b, &line_b), "{}", a.to_fen());
                let moves = a.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
                a.play_unchecked(mv);
                b.play_unchecked(mv);
            }
        }
        // Extreme accumulators and weights within the loader's bounds: clipping at both ends.
        let mut acc = Accumulator::default();
        for (i, v) in acc.0.iter_mut().flat_map(|c| c.0.iter_mut()).enumerate() {
            *v = [i16::MIN, -1, 0, 1, 254, 255, 256, i16::MAX][i % 8];
        }
        for bucket in 0..net.buckets() {
            assert_eq!(scalar.output(&acc, Color::White, bucket), fast.output(&acc, Color::White, bucket));
            assert_eq!(scalar.output(&acc, Color::Black, bucket), fast.output(&acc, Color::Black, bucket));
        }
    }

    #[test]
    fn files_round_trip_and_bad_files_are_named() {
        let net = Network::embedded();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_len(net.buckets(), net.kings()));
        assert_eq!(bytes, EMBEDDED);
        assert!(matches!(Network::from_bytes(b"PK\x03\x04rest"), Err(NetError::Magic(m)) if m == b"PK\x03\x04"));
        assert!(matches!(Network::from_bytes(b"TB"), Err(NetError::Magic(_))));
        let mut bad = bytes.clone();
        bad[4] = 4;
        assert!(matches!(Network::from_bytes(&bad), Err(NetError::Version(4))));
        let mut bad = bytes.clone();
        bad[12..16].copy_from_slice(&128u32.to_le_bytes());
        assert!(matches!(Network::from_bytes(&bad), Err(NetError::Length { .. })));
        // A file of another width is read as layers (to start a wider network from); a narrower one is read as
        // a network too, widened by neurons that change nothing: it evaluates as the full-width network whose
        // other neurons are silenced, and writes itself at full width.
        let wide = Layers::from_bytes(&bytes).unwrap();
        let h = HIDDEN / 2;
        let narrow = Layers {
            hidden: h,
            weights: wide.weights.chunks_exact(HIDDEN).flat_map(|c| c[..h].to_vec()).collect(),
            bias: wide.bias[..h].to_vec(),
            out_weights: wide.out_weights.chunks_exact(HIDDEN).flat_map(|c| c[..h].to_vec()).collect(),
            ..wide.clone()
        };
        let narrow_file = narrow.to_bytes();
        assert_eq!(Layers::from_bytes(&narrow_file).unwrap(), narrow);
        let read = Network::from_bytes(&narrow_file).unwrap();
        let silenced = Layers {
            weights: wide.weights.chunks_exact(HIDDEN).flat_map(|c| [&c[..h], &[0; HIDDEN][h..]].concat()).collect(),
            bias: [&wide.bias[..h], &[0; HIDDEN][h..]].concat(),
            out_weights: wide
                .out_weights
                .chunks_exact(HIDDEN)
                .flat_map(|c| [&c[..h], &[0; HIDDEN][h..]].concat())
                .collect(),
            ..wide.clone()
        };
        assert_eq!(read.to_bytes(), silenced.to_bytes());
        assert_eq!(narrow.widened(HIDDEN), silenced);
        let mut rng = Rng::new(5);
        let silenced = Network::from_bytes(&silenced.to_bytes()).unwrap();
        let mut differ = 0;
        for plies in [0, 8, 30, 90] {
            let pos = random_game(&mut rng, plies);
            assert_eq!(read.evaluate(&pos), silenced.evaluate(&pos));
            differ += usize::from(read.evaluate(&pos) != net.evaluate(&pos));
        }
        assert!(differ > 0, "half the neurons silenced changes evaluations");
        // Wider than this build's networks: layers only.
        let wider = narrow.widened(2 * HIDDEN).to_bytes();
        assert_eq!(Layers::from_bytes(&wider).unwrap().hidden, 2 * HIDDEN);
        assert!(
            matches!(Network::from_bytes(&wider), Err(NetError::Shape { inputs: 768, hidden }) if hidden as usize == 2 * HIDDEN)
        );
        let mut bad = bytes.clone();
        bad[12..16].copy_from_slice(&(MAX_HIDDEN as u32 + 1).to_le_bytes());
        assert!(matches!(Layers::from_bytes(&bad), Err(NetError::Shape { .. })));
        for buckets in [0u32, 17] {
            let mut bad = bytes.clone();
            bad[16..20].copy_from_slice(&buckets.to_le_bytes());
            assert!(matches!(Network::from_bytes(&bad), Err(NetError::Buckets(b)) if b == buckets));
        }
        let mut bad = bytes.clone();
        let version = version_of(&bytes);
        let at = quantisation_at(version);
        bad[at + 4..at + 8].copy_from_slice(&100u32.to_le_bytes());
        assert!(matches!(Network::from_bytes(&bad), Err(NetError::Quantisation { qb: 100, .. })));
        let mut bad = bytes.clone();
        bad[at + 8..at + 12].copy_from_slice(&0u32.to_le_bytes());
        assert!(matches!(Network::from_bytes(&bad), Err(NetError::Quantisation { scale: 0, .. })));
        let expected = file_len(net.buckets(), net.kings());
        assert!(
            matches!(Network::from_bytes(&bytes[..1000]), Err(NetError::Length { expected: e, found: 1000 }) if e == expected)
        );
        // Another bucket count asks for another length.
        let mut bad = bytes.clone();
        bad[16..20].copy_from_slice(&(net.buckets() as u32 % 8 + 1).to_le_bytes());
        assert!(matches!(Network::from_bytes(&bad), Err(NetError::Length { .. })));
        let mut bad = bytes.clone();
        bad[5000] ^= 1;
        assert!(matches!(Network::from_bytes(&bad), Err(NetError::Checksum { .. })));
        let err = Network::open("no/such/file.tbnn").unwrap_err();
        assert!(err.to_string().contains("no/such/file.tbnn"), "{err}");
        // Weights that could overflow are refused.
        let mut weights = vec![0i16; INPUTS * HIDDEN];
        weights[3] = 2000;
        assert!(matches!(
            Network::new(&weights, &[0; HIDDEN], &[0; 2 * HIDDEN], &[0], DEFAULT_SCALE),
            Err(NetError::Range(_))
        ));
        assert!(Network::new(&weights[1..], &[0; HIDDEN], &[0; 2 * HIDDEN], &[0], DEFAULT_SCALE).is_err());
        weights[3] = 0;
        assert!(matches!(
            Network::new(&weights, &[0; HIDDEN], &[0; 2 * HIDDEN], &[0, 0], DEFAULT_SCALE),
            Err(NetError::Shape { .. })
        ));
        assert!(matches!(Network::new(&weights, &[0; HIDDEN], &[], &[], DEFAULT_SCALE), Err(NetError::Buckets(0))));
    }

    /// A version-1 file: the version-2 layout of a one-bucket network without the buckets' field.
    fn version_one(net: &Network) -> Vec<u8> {
        assert_eq!(net.buckets(), 1);
        let v2 = net.to_bytes();
        let mut v1 = v2[..16].to_vec();
        v1[4] = 1;
        v1.extend_from_slice(&v2[20..]);
        mend_checksum(&mut v1);
        v1
    }

    /// Rewrites a file's last eight bytes as the checksum of the rest.
    fn mend_checksum(bytes: &mut [u8]) {
        let end = bytes.len() - 8;
        let checksum = fnv1a(&bytes[..end]);
        bytes[end..].copy_from_slice(&checksum.to_le_bytes());
    }

    /// The version field of a weights file.
    fn version_of(bytes: &[u8]) -> u32 {
        u32::from_le_bytes(bytes[4..8].try_into().unwrap())
    }

    #[test]
    fn version_one_files_read_as_one_bucket() {
        let mut rng = Rng::new(11);
        let small = |rng: &mut Rng, n: usize, range: u64| -> Vec<i16> {
            (0..n).map(|_| (rng.next_u64() % (2 * range + 1)) as i16 - range as i16).collect()
        };
        let one = Network::new(
            &small(&mut rng, INPUTS * HIDDEN, 500),
            &small(&mut rng, HIDDEN, 500),
            &small(&mut rng, 2 * HIDDEN, 200),
            &[1234],
            DEFAULT_SCALE,
        )
        .unwrap();
        let old = version_one(&one);
        assert_eq!(old.len(), file_len(1, &KingLayout::PLAIN) - 4);
        let read = Network::from_bytes(&old).unwrap();
        assert_eq!(read.to_bytes(), one.to_bytes());
        assert!(matches!(Network::from_bytes(&old[..old.len() - 1]), Err(NetError::Length { .. })));
        // Eight buckets: each position is read by its own bucket's neuron; a network whose buckets are all the
        // first one's evaluates as the one-bucket network does.
        let layers = one.to_layers();
        let out_weights = layers.out_weights.repeat(8);
        let same =
            Network::new(&layers.weights, &layers.bias, &out_weights, &[layers.out_bias[0]; 8], DEFAULT_SCALE).unwrap();
        let mut other_biases = [layers.out_bias[0]; 8];
        other_biases[7] += 5 * QA * QB;
        let shifted = Network::new(&layers.weights, &layers.bias, &out_weights, &other_biases, DEFAULT_SCALE).unwrap();
        assert_eq!(Network::from_bytes(&shifted.to_bytes()).unwrap().to_bytes(), shifted.to_bytes());
        for plies in [0, 10, 60, 200] {
            let pos = random_game(&mut rng, plies);
            assert_eq!(same.evaluate(&pos), one.evaluate(&pos));
            let pieces = pos.board().occupied().count();
            let moved = shifted.evaluate(&pos) - one.evaluate(&pos);
            // The top bucket (30 to 32 pieces) is 5 units of output higher: 5 × scale centipawns, give or take
            // the rounding towards zero.
            if pieces >= 30 {
                assert!((moved - 5 * DEFAULT_SCALE).abs() <= 1, "{moved} at {pieces} pieces");
            } else {
                assert_eq!(moved, 0, "{pieces} pieces");
            }
        }
    }

    #[test]
    fn damaged_files_are_refused_without_a_panic() {
        // The embedded network's file and a four-bucket one.
        for good in [Network::embedded().to_bytes(), random_network(KingLayout::FOUR, 29).to_bytes()] {
            refuses_damaged_copies_of(&good);
        }
    }

    fn refuses_damaged_copies_of(good: &[u8]) {
        let version = version_of(good);
        let good = good.to_vec();
        let mut rng = Rng::new(23);
        let below = |rng: &mut Rng, n: usize| (rng.next_u64() % n as u64) as usize;
        for round in 0..1_000 {
            let mut bytes = good.clone();
            match round % 4 {
                // Cut anywhere.
                0 => bytes.truncate(below(&mut rng, good.len())),
                // Any header field, the checksum mended so that the field itself is judged.
                1 | 2 => {
                    let at = below(&mut rng, header_len(version));
                    bytes[at] = rng.next_u64() as u8;
                    if round % 4 == 2 {
                        bytes[16..20].copy_from_slice(&(below(&mut rng, 20) as u32).to_le_bytes());
                        let extra = 2 * 2 * HIDDEN + 4;
                        bytes.resize(bytes.len() + extra * below(&mut rng, 12), 0);
                    }
                    mend_checksum(&mut bytes);
                }
                // Large weights with a mended checksum: refused for their range or read.
                _ => {
                    for _ in 0..8 {
                        let at = header_len(version) + below(&mut rng, good.len() - header_len(version) - 8);
                        bytes[at] = rng.next_u64() as u8;
                    }
                    mend_checksum(&mut bytes);
                }
            }
            if let Ok(net) = Network::from_bytes(&bytes) {
                let pos = random_game(&mut rng, round % 50);
                net.evaluate(&pos);
            }
        }
    }

    #[test]
    fn buckets_split_the_piece_counts_evenly() {
        assert!((2..=32).all(|pieces| Network::bucket_of(pieces, 1) == 0));
        let counts: Vec<usize> =
            (0..8).map(|b| (2..=32).filter(|&pieces| Network::bucket_of(pieces, 8) == b).count()).collect();
        assert_eq!(counts.iter().sum::<usize>(), 31);
        assert!(counts.iter().all(|&c| (3..=5).contains(&c)), "{counts:?}");
        assert_eq!((Network::bucket_of(2, 8), Network::bucket_of(32, 8), Network::bucket_of(40, 8)), (0, 7, 7));
        assert_eq!((Network::bucket_of(0, 8), Network::bucket_of(20, 0)), (0, 0));
        assert!((2..32).all(|p| Network::bucket_of(p + 1, 8) >= Network::bucket_of(p, 8)));
    }

    #[test]
    fn features_mirror() {
        // A white knight on b1 seen by white is a black knight on b8 seen by black.
        let wn = Piece::new(Color::White, crate::Role::Knight);
        let bn = Piece::new(Color::Black, crate::Role::Knight);
        assert_eq!(feature(Color::White, wn, Square::B1), feature(Color::Black, bn, Square::B8));
        assert_eq!(feature(Color::White, wn, Square::B1), 64 + 1);
        assert_eq!(feature(Color::Black, wn, Square::B1), 64 * 7 + 57);
        // Mirrored positions evaluate the same for the side to move.
        let net = Network::embedded();
        let mut rng = Rng::new(3);
        for plies in 0..40 {
            let pos = random_game(&mut rng, plies);
            let setup = pos.to_setup();
            let mirrored = crate::Setup {
                board: setup.board.mirrored(),
                turn: setup.turn.flip(),
                castling: crate::CastlingRights::NONE,
                ep_square: None,
                ..setup
            };
            let Ok(mirrored) = Position::from_setup(&mirrored) else { continue };
            assert_eq!(net.evaluate(&pos), net.evaluate(&mirrored), "{}", pos.to_fen());
        }
    }

    /// A network of `kings` layout with random weights small enough for the loader.
    fn random_network(kings: KingLayout, seed: u64) -> Network {
        let mut rng = Rng::new(seed);
        let mut small = |n: usize, range: u64| -> Vec<i16> {
            (0..n).map(|_| (rng.next_u64() % (2 * range + 1)) as i16 - range as i16).collect()
        };
        let layers = Layers {
            hidden: HIDDEN,
            kings,
            weights: small(INPUTS * kings.buckets() * HIDDEN, 400),
            bias: small(HIDDEN, 400),
            out_weights: small(2 * HIDDEN * 2, 300),
            out_bias: vec![1000, -1000],
            scale: DEFAULT_SCALE,
        };
        Network::from_layers(&layers).unwrap()
    }

    #[test]
    fn king_layouts_update_incrementally_and_round_trip() {
        for (name, kings) in KingLayout::NAMED {
            let net = random_network(kings, 31);
            let again = Network::from_bytes(&net.to_bytes()).unwrap();
            assert_eq!(again.to_layers(), net.to_layers(), "{name}");
            assert_eq!(net.to_bytes().len(), file_len(2, &kings), "{name}");
            if kings != KingLayout::PLAIN {
                // The king layout's fields are checked: the bucket count, the mirroring flag, the map.
                let bytes = net.to_bytes();
                assert_eq!(version_of(&bytes), VERSION);
                let map_h8 = header_len(VERSION) - 1;
                for (at, value) in [(20, 0u32), (20, 33), (24, 2), (map_h8, 9)] {
                    let mut bad = bytes.clone();
                    if at == map_h8 {
                        bad[at] = value as u8;
                    } else {
                        bad[at..at + 4].copy_from_slice(&value.to_le_bytes());
                    }
                    mend_checksum(&mut bad);
                    assert!(matches!(Network::from_bytes(&bad), Err(NetError::Kings(_))), "{name}: {value} at {at}");
                }
                // More king buckets than the weights hold: the length is wrong.
                let mut bad = bytes.clone();
                bad[20..24].copy_from_slice(&(kings.buckets() as u32 + 1).to_le_bytes());
                mend_checksum(&mut bad);
                assert!(matches!(Network::from_bytes(&bad), Err(NetError::Length { .. })), "{name}");
            }
            let mut rng = Rng::new(37);
            // Kings walk the board in endings, crossing buckets and the middle; openings castle.
            for (game, fen) in [
                "8/8/3k4/8/8/4K3/8/8 w - - 0 1",
                "r3k2r/pppq1ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
                "4k3/2p5/8/3K4/8/8/5P2/8 w - - 0 1",
            ]
            .into_iter()
            .cycle()
            .take(30)
            .enumerate()
            {
                let mut pos = Position::from_fen(fen).unwrap();
                let mut line = Accumulators::default();
                net.evaluate_along(&pos, &line);
                for step in 0..100 {
                    let moves = pos.legal_moves();
                    if (pos.history_len() > 0 && rng.next_u64() % 4 == 0) || moves.is_empty() {
                        if pos.history_len() == 0 {
                            break;
                        }
                        pos.undo();
                        line.forget_after(pos.history_len());
                    } else {
                        pos.play_unchecked(moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]);
                    }
                    // Sometimes several plies pass between evaluations.
                    if (step + game) % 3 != 1 {
                        let fresh = net.output(&net.accumulator(&pos), pos.turn(), net.bucket(&pos));
                        assert_eq!(net.evaluate_along(&pos, &line), fresh, "{name}: {}", pos.to_fen());
                    }
                }
            }
        }
    }

    #[test]
    fn a_mirrored_layout_sees_a_position_and_its_mirror_image_alike() {
        let net = random_network(KingLayout::FOUR, 41);
        let plain = random_network(KingLayout::PLAIN, 41);
        let mut rng = Rng::new(43);
        let mut plain_differs = 0;
        for plies in 0..60 {
            let pos = random_game(&mut rng, plies);
            let setup = pos.to_setup();
            let mut board = crate::Board::empty();
            for sq in setup.board.occupied() {
                board.put(Square::from_index_unchecked(sq.index() ^ 7), setup.board.piece_at(sq).unwrap());
            }
            let mirrored = crate::Setup { board, castling: crate::CastlingRights::NONE, ep_square: None, ..setup };
            let Ok(mirrored) = Position::from_setup(&mirrored) else { continue };
            assert_eq!(net.evaluate(&pos), net.evaluate(&mirrored), "{}", pos.to_fen());
            plain_differs += usize::from(plain.evaluate(&pos) != plain.evaluate(&mirrored));
        }
        assert!(plain_differs > 30, "{plain_differs}");
    }
}
