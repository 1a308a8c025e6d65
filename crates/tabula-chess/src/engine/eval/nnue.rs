//! Chess's efficiently updated neural network evaluation (NNUE): the [`Network`] of the generic machinery
//! ([`tabula_nnue`]) on chess's board ([`ChessGeometry`]), the [`Accumulators`] a search keeps along its line of
//! play, chess's king layouts, and the network the engine embeds.
//!
//! # The network
//!
//! 768 inputs, one per (piece colour, role, square), seen from each side: from white's point of view the
//! feature of a piece is `64 * (6 * c + r) + s` with `c` 0 for white's pieces and 1 for black's, `r` the
//! [`Role`](crate::Role) index (pawn 0 to king 5) and `s` the square index (a1 0, h8 63); from black's point of
//! view the colours swap and the board flips top to bottom (`s ^ 56`). A mirrored king layout ([`KingLayout`])
//! mirrors the board left to right (`s ^ 7`) when a side's king stands on files a to d, so that it is always
//! seen on files e to h. Everything else — the hidden layer of [`HIDDEN`] neurons per side, the output buckets,
//! the quantisation, the weights file (`TBNN`, versions 1 to 3, whose king map is 64 bytes here, a1 first) and
//! the lazy update of the accumulators from [`Position::placement_change`] — is the generic machinery's: see
//! [`tabula_nnue`]. The accumulators are not the position's: a search keeps them beside the position it plays
//! and takes back moves on (the engine's [`EnginePosition`](crate::engine::EnginePosition)), so that the rules
//! know nothing of any network.
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
//! The ninth went on from the eighth into the four-bucket king layout ([`FOUR`], the eighth's
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
use std::sync::{Arc, OnceLock};

pub use tabula_nnue::{
    file_len, names_embedded, Accumulator, Column, Kernel, NetError, Output, DEFAULT_SCALE, EMBEDDED_NAME, HIDDEN,
    MAX_BUCKETS, MAX_HIDDEN, MAX_KING_BUCKETS, QA, QB, SCALES, VERSION,
};
use tabula_nnue::{Embedded, Geometry};

/// Chess's board as a network sees it: 64 squares, 6 roles, the view from black turned top to bottom by
/// `s ^ 56` and the mirror image by `s ^ 7`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChessGeometry;

/// A chess network.
pub type Network = tabula_nnue::Network<ChessGeometry>;
/// A chess network's integer layers, as its weights file holds them.
pub type Layers = tabula_nnue::Layers<ChessGeometry>;
/// The accumulators along a chess position's line of play.
pub type Accumulators = tabula_nnue::Accumulators<ChessGeometry>;
/// A chess king layout (chess's named ones: [`KingLayout::PLAIN`], [`KingLayout::MIRRORED`] and [`FOUR`]).
pub type KingLayout = tabula_nnue::KingLayout<ChessGeometry>;
/// The inputs a chess side's pieces are seen through.
pub type View = tabula_nnue::View<ChessGeometry>;

/// Inputs per side and king bucket: colour (own, other) × role × square.
pub const INPUTS: usize = ChessGeometry::INPUTS;

impl Geometry for ChessGeometry {
    type Piece = Piece;
    const KING_LAYOUTS: &'static [(&'static str, KingLayout)] =
        &[("plain", KingLayout::PLAIN), ("mirrored", KingLayout::MIRRORED), ("four", FOUR)];

    #[inline(always)]
    fn orientation(flip: bool, mirror: bool) -> usize {
        (if flip { 56 } else { 0 }) ^ (if mirror { 7 } else { 0 })
    }

    #[inline(always)]
    fn orient(sq: usize, orientation: usize) -> usize {
        sq ^ orientation
    }

    #[inline(always)]
    fn mirrors(king: Square) -> bool {
        king.index() % 8 < 4
    }
}

/// Mirrored, with four king buckets: the king at home in the centre (e1, f1), castled short (g1, h1), on the
/// second rank, and further up.
pub const FOUR: KingLayout = mirrored_by_rank_and_wing([[0, 1], [2, 2], [3, 3]]);

/// A mirrored layout whose bucket for a king on rank 1, rank 2 and above (rows of `by_rank`) is the first entry
/// of its row on files e and f (and d and c), the second on g and h (and b and a).
const fn mirrored_by_rank_and_wing(by_rank: [[u8; 2]; 3]) -> KingLayout {
    let mut map = [0u8; tabula_nnue::MAX_SQUARES];
    let mut sq = 0;
    while sq < 64 {
        let (rank, file) = (sq / 8, sq % 8);
        let row = if rank < 2 { rank } else { 2 };
        let wing = if file == 0 || file == 1 || file == 6 || file == 7 { 1 } else { 0 };
        map[sq] = by_rank[row][wing];
        sq += 1;
    }
    KingLayout::from_map(true, map)
}

/// The network the engine embeds (trained by `tabula-lab chess nnue-fit`).
static EMBEDDED: &[u8] = include_bytes!("default.tbnn");

impl Embedded for ChessGeometry {
    fn embedded() -> Arc<Network> {
        static NET: OnceLock<Arc<Network>> = OnceLock::new();
        NET.get_or_init(|| Arc::new(Network::from_bytes(EMBEDDED).expect("the embedded network is valid"))).clone()
    }
}

tabula_nnue::net_position!(Position, ChessGeometry);

/// The feature of `piece` on `sq` from `perspective`'s point of view in the [plain](KingLayout::PLAIN) layout.
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    KingLayout::PLAIN.view(perspective, Square::A1).feature(perspective, piece, sq)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::rng::Rng;
    use tabula_nnue::testing::{check_incremental_along_walks, check_king_layouts, Walks};
    use tabula_nnue::{checksum, quantisation_at};

    /// The header's length in a chess file of `version`.
    fn header_len(version: u32) -> usize {
        tabula_nnue::header_len::<ChessGeometry>(version)
    }

    fn random_game(rng: &mut Rng, plies: usize) -> Position {
        let choices: Vec<usize> = (0..plies).map(|_| rng.next_u64() as usize).collect();
        tabula_board::testing::random_game(Position::startpos(), &choices)
    }

    #[test]
    fn incremental_accumulators_match_fresh_ones() {
        // Random walks forward and back, with null moves, evaluating now and then, with each kernel.
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ]
        .map(|fen| Position::from_fen(fen).unwrap());
        let walks = Walks {
            starts: &starts,
            walks: 60,
            steps: 120,
            null: Some(crate::Move::NULL),
            may_pass: |pos| !pos.is_check(),
            seed: 19,
        };
        check_incremental_along_walks(&Network::embedded(), &walks);
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
        // Along games each kernel updates its own accumulators: `incremental_accumulators_match_fresh_ones`.
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
            matches!(Network::from_bytes(&wider), Err(NetError::Shape { inputs: 768, hidden, .. }) if hidden as usize == 2 * HIDDEN)
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
        let sum = checksum(&bytes[..end]);
        bytes[end..].copy_from_slice(&sum.to_le_bytes());
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
        for good in [Network::embedded().to_bytes(), random_network(FOUR, 29).to_bytes()] {
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
        Network::from_layers(&Layers::random(kings, seed)).unwrap()
    }

    #[test]
    fn king_layouts_update_incrementally_and_round_trip() {
        for &(name, kings) in KingLayout::NAMED {
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
            // Kings walk the board in endings, crossing buckets and the middle; openings castle.
            let starts = [
                "8/8/3k4/8/8/4K3/8/8 w - - 0 1",
                "r3k2r/pppq1ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
                "4k3/2p5/8/3K4/8/8/5P2/8 w - - 0 1",
            ]
            .map(|fen| Position::from_fen(fen).unwrap());
            check_incremental_along_walks(
                &net,
                &Walks { starts: &starts, walks: 30, steps: 100, null: None, may_pass: |_| false, seed: 37 },
            );
        }
    }

    #[test]
    fn a_mirrored_layout_sees_a_position_and_its_mirror_image_alike() {
        let net = random_network(FOUR, 41);
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

    #[test]
    fn king_layouts_map_each_square_below_their_count() {
        check_king_layouts::<ChessGeometry>(&Square::ALL);
        // Castling short moves the king between buckets of the four-bucket layout; so does crossing the middle.
        let four = FOUR;
        assert_ne!(four.view(Color::White, Square::E1), four.view(Color::White, Square::G1));
        assert_eq!(four.view(Color::White, Square::E1), four.view(Color::White, Square::F1));
        assert_ne!(four.view(Color::Black, Square::D8), four.view(Color::Black, Square::E8));
        // A king on b1 is seen as one on g1: the same bucket, the board mirrored.
        let (b1, g1) = (four.view(Color::White, Square::B1), four.view(Color::White, Square::G1));
        assert_eq!((b1.offset(), b1.orientation()), (g1.offset(), g1.orientation() ^ 7));
        assert!(KingLayout::new(true, &[4; 64], 4).is_none() && KingLayout::new(true, &[0; 64], 0).is_none());
    }
}
