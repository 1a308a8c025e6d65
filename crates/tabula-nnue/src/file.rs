//! The weights file: [`Layers`], its integer contents of any width, the layout's lengths and offsets, and
//! [`NetError`], why bytes are not a file this build can use (see the [crate documentation](crate) for the
//! format).

use crate::{Geometry, KingLayout, HIDDEN, MAX_BUCKETS, MAX_HIDDEN, MAX_KING_BUCKETS, QA, QB, SCALES, VERSION};

const MAGIC: &[u8; 4] = b"TBNN";

/// The length of a file of board `B` with [`HIDDEN`] neurons, `buckets` output buckets and the king layout
/// `kings`.
pub const fn file_len<B: Geometry>(buckets: usize, kings: &KingLayout<B>) -> usize {
    header_len::<B>(version_for(kings)) + body_len::<B>(HIDDEN, buckets, kings.buckets()) + 8
}

/// The oldest file version that can hold the king layout `kings`.
const fn version_for<B: Geometry>(kings: &KingLayout<B>) -> u32 {
    if kings.sees_kings() {
        VERSION
    } else {
        2
    }
}

/// The length of the header of a file of board `B` and `version`: up to the first layer's weights.
pub const fn header_len<B: Geometry>(version: u32) -> usize {
    match version {
        1 => 28,
        2 => 32,
        _ => 40 + B::SQUARES,
    }
}

/// Where the quantisation fields (`QA`, `QB`, the scale) start in a file of `version`.
pub const fn quantisation_at(version: u32) -> usize {
    match version {
        1 => 16,
        2 => 20,
        _ => 28,
    }
}

const fn body_len<B: Geometry>(hidden: usize, buckets: usize, kings: usize) -> usize {
    2 * B::INPUTS * kings * hidden + 2 * hidden + buckets * (4 * hidden + 4)
}

/// The checksum a file ends with: FNV-1a of `bytes`.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

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
    /// Inputs other than the board's ([`Geometry::INPUTS`]), or more hidden neurons than this build's
    /// [`HIDDEN`] (for [`Layers`], than [`MAX_HIDDEN`]).
    #[error(
        "network has {inputs} inputs and {hidden} hidden neurons, this build takes {takes} inputs and at most \
         {HIDDEN} hidden neurons"
    )]
    Shape {
        /// Inputs in the file.
        inputs: u32,
        /// Hidden neurons per side in the file.
        hidden: u32,
        /// Inputs the board takes.
        takes: u32,
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
/// [`Network`](crate::Network) is made from ([`Network::from_bytes`](crate::Network::from_bytes) takes widths up
/// to this build's [`HIDDEN`]), and what a trainer reads to start a network, a wider one among them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layers<B: Geometry> {
    /// Hidden neurons per side.
    pub hidden: usize,
    /// Which inputs each side's pieces are seen through.
    pub kings: KingLayout<B>,
    /// The first layer: [`Geometry::INPUTS`] columns of `hidden` weights for each king bucket, input by input.
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

impl<B: Geometry> Layers<B> {
    /// Parses a weights file (see the [crate documentation](crate) for the format) of any width.
    ///
    /// # Errors
    ///
    /// A [`NetError`] naming the first field that is wrong: magic, version, sizes, quantisation, length,
    /// checksum. The weights' range is [`Network::new`](crate::Network::new)'s to check.
    pub fn from_bytes(bytes: &[u8]) -> Result<Layers<B>, NetError> {
        Layers::parse(bytes)
    }

    /// Layers of [`HIDDEN`] neurons, the king layout `kings` and two output buckets, with random weights (from
    /// `seed`) small enough for the loader and large enough to tell positions apart: what tests of a game's
    /// network start from.
    pub fn random(kings: KingLayout<B>, seed: u64) -> Layers<B> {
        let mut rng = tabula::rng::Rng::new(seed);
        let mut small = |n: usize, range: u64| -> Vec<i16> {
            (0..n).map(|_| (rng.next_u64() % (2 * range + 1)) as i16 - range as i16).collect()
        };
        Layers {
            hidden: HIDDEN,
            kings,
            weights: small(B::INPUTS * kings.buckets() * HIDDEN, 400),
            bias: small(HIDDEN, 400),
            out_weights: small(2 * HIDDEN * 2, 300),
            out_bias: vec![1000, -1000],
            scale: crate::DEFAULT_SCALE,
        }
    }

    /// The same network `hidden` neurons wide: the neurons added have no weight in or out and no bias, so
    /// that they are always 0 and every evaluation stays the same.
    ///
    /// # Panics
    ///
    /// If `hidden` is narrower than these layers.
    pub fn widened(&self, hidden: usize) -> Layers<B> {
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
    /// If the vectors' lengths do not agree with `hidden`, [`Geometry::INPUTS`] and the king buckets.
    pub fn to_bytes(&self) -> Vec<u8> {
        let (hidden, buckets, kings) = (self.hidden, self.out_bias.len(), self.kings.buckets());
        assert_eq!(
            (self.weights.len(), self.bias.len(), self.out_weights.len()),
            (B::INPUTS * kings * hidden, hidden, 2 * hidden * buckets),
            "layers of {hidden} hidden neurons, {kings} king buckets and {buckets} buckets"
        );
        let version = version_for(&self.kings);
        let mut out = Vec::with_capacity(header_len::<B>(version) + body_len::<B>(hidden, buckets, kings) + 8);
        out.extend_from_slice(MAGIC);
        let mut header = vec![version, B::INPUTS as u32, hidden as u32, buckets as u32];
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
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Parses a weights file.
    pub(crate) fn parse(bytes: &[u8]) -> Result<Layers<B>, NetError> {
        if bytes.len() < 8 || &bytes[..4] != MAGIC {
            return Err(NetError::Magic(bytes[..bytes.len().min(4)].to_vec()));
        }
        let u32_at = |at: usize| bytes.get(at..at + 4).map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")));
        let version = u32_at(4).expect("checked length");
        if !(1..=VERSION).contains(&version) {
            return Err(NetError::Version(version));
        }
        let too_short = |expected| NetError::Length { expected, found: bytes.len() };
        let header = header_len::<B>(version);
        let (Some(inputs), Some(hidden)) = (u32_at(8), u32_at(12)) else { return Err(too_short(header)) };
        let width = hidden as usize;
        if inputs as usize != B::INPUTS || !(1..=MAX_HIDDEN).contains(&width) {
            return Err(NetError::Shape { inputs, hidden, takes: B::INPUTS as u32 });
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
            let (Some(count), Some(mirror), Some(map)) = (u32_at(20), u32_at(24), bytes.get(40..40 + B::SQUARES))
            else {
                return Err(too_short(header));
            };
            if mirror > 1 {
                return Err(NetError::Kings(count));
            }
            KingLayout::new(mirror == 1, map, count as usize).ok_or(NetError::Kings(count))?
        };
        let at = quantisation_at(version);
        let (Some(qa), Some(qb), Some(scale)) = (u32_at(at), u32_at(at + 4), u32_at(at + 8)) else {
            return Err(too_short(header));
        };
        if (qa as i32, qb as i32) != (QA, QB) || !SCALES.contains(&(scale as i32)) {
            return Err(NetError::Quantisation { qa, qb, scale });
        }
        let body = body_len::<B>(hidden, buckets, kings.buckets());
        let expected = header + body + 8;
        if bytes.len() != expected {
            return Err(too_short(expected));
        }
        let (contents, stored) = bytes.split_at(expected - 8);
        let stored = u64::from_le_bytes(stored.try_into().expect("8 bytes"));
        let computed = checksum(contents);
        if stored != computed {
            return Err(NetError::Checksum { stored, computed });
        }
        let (body, biases) = contents[header..].split_at(body - 4 * buckets);
        let mut values = body.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]]));
        let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<i16>>();
        Ok(Layers {
            hidden,
            kings,
            weights: take(B::INPUTS * kings.buckets() * hidden),
            bias: take(hidden),
            out_weights: take(2 * hidden * buckets),
            out_bias: biases.chunks_exact(4).map(|b| i32::from_le_bytes(b.try_into().expect("4 bytes"))).collect(),
            scale: scale as i32,
        })
    }
}
