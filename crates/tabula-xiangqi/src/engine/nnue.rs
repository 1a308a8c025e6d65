//! Xiangqi on the efficiently updated neural network machinery ([`tabula_nnue`]): the board as a network sees
//! it ([`XiangqiGeometry`]), xiangqi's king layouts, what a network reads of a [`Position`], and the network
//! the engine embeds ([`EMBEDDED`]). The engine evaluates with the embedded network by default, or with another
//! network file (the protocols' `Evaluation` and `EvalFile` options, see [`super::uci`] and [`super::ucci`]), or
//! with the hand-written evaluation ([`super::eval`], `Evaluation` `classical`).
//!
//! # The embedded network
//!
//! [`EMBEDDED`] is `default.tbnn` beside this module, read through [`embedded_network`]; the default of
//! `Evaluation` is `nnue` exactly when a network is embedded, and `EvalFile` defaults to `<embedded>`. It is the
//! second round's network, trained by `tabula-lab xiangqi nnue-fit` with the `mirrored` layout and 8 output
//! buckets on 1,068,056 quiet positions of 8,000 self-play games of the engine on the hand-written evaluation
//! (`tabula-lab xiangqi nnue-gen`, 5,000 nodes a move, games 0 to 7,999), each scored by the search and
//! the game's result (three quarters score, one quarter result), the positions also mirrored left to right;
//! the pass with the lowest loss on the held-out games was kept (the fifth of ten): held-out loss 0.013744,
//! against 0.020851 for the hand-written evaluation. Against the first round's network (4,800 of the same
//! games) it scored +52.5 ± 31.3 Elo in self-play at 2 s + 0.02 s over 367 games. The commands are in the
//! book's record of the xiangqi network rounds.
//!
//! # The network
//!
//! 2 × 7 × 90 = 1260 inputs per king bucket, one per (piece colour, role, point), seen from each side: from
//! Red's point of view the feature of a piece is `90 * (7 * c + r) + s` with `c` 0 for Red's pieces and 1 for
//! Black's, `r` the [`Role`](crate::Role) index (king 0 to pawn 6) and `s` the point's index (`9 * rank + file`, a0 0, i9
//! 89); from Black's the colours swap and the board turns top to bottom (rank `r` to `9 - r`). A mirrored
//! layout mirrors the board left to right (file `f` to `8 - f`) when the side's king stands on files a to d, so
//! that it is always seen on files e to i. With nine files the mirror is not exact: a king on file e is never
//! mirrored, so a position with a king there and its mirror image are two sets of inputs. The weights file is
//! the generic one (`TBNN`, see [`tabula_nnue`]), its king map 90 bytes, a0 first; a file states its inputs, so
//! a chess network (768) is refused here and a xiangqi one by chess.
//!
//! The named layouts ([`KingLayout::NAMED`]): `plain` (one set of inputs, no mirroring), `mirrored` (one set,
//! mirrored) and [`PALACE`] (mirrored, a set for each point of the palace as the mirror folds it).
//!
//! # Examples
//!
//! ```
//! use tabula_xiangqi::engine::nnue::{KingLayout, Layers, Network, XiangqiGeometry, PALACE};
//! use tabula_xiangqi::Position;
//! use tabula_nnue::Geometry;
//!
//! assert_eq!(XiangqiGeometry::INPUTS, 1260);
//! // A network with random weights in the palace layout: its file round-trips.
//! let net = Network::from_layers(&Layers::random(PALACE, 1)).unwrap();
//! let again = Network::from_bytes(&net.to_bytes()).unwrap();
//! let pos = Position::startpos();
//! assert_eq!(again.evaluate(&pos), net.evaluate(&pos));
//! assert_eq!(KingLayout::named("palace"), Some(PALACE));
//! ```

use crate::position::Position;
use crate::types::{File, Piece, Square};
use std::sync::{Arc, OnceLock};
use tabula_nnue::{Geometry, MAX_SQUARES};

pub use tabula_nnue::{Kernel, NetError};

/// Xiangqi's board as a network sees it: 90 points, 7 roles, the view from Black turned top to bottom (rank
/// `r` to `9 - r`) and the mirror image left to right (file `f` to `8 - f`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct XiangqiGeometry;

/// A xiangqi network.
pub type Network = tabula_nnue::Network<XiangqiGeometry>;
/// A xiangqi network's integer layers, as its weights file holds them.
pub type Layers = tabula_nnue::Layers<XiangqiGeometry>;
/// A xiangqi king layout (the named ones: [`KingLayout::PLAIN`], [`KingLayout::MIRRORED`] and [`PALACE`]).
pub type KingLayout = tabula_nnue::KingLayout<XiangqiGeometry>;

/// The orientation's bit for the board turned top to bottom.
const FLIP: usize = 1;
/// The orientation's bit for the board mirrored left to right.
const MIRROR: usize = 2;

impl Geometry for XiangqiGeometry {
    type Piece = Piece;
    const KING_LAYOUTS: &'static [(&'static str, KingLayout)] =
        &[("plain", KingLayout::PLAIN), ("mirrored", KingLayout::MIRRORED), ("palace", PALACE)];

    #[inline(always)]
    fn orientation(flip: bool, mirror: bool) -> usize {
        (if flip { FLIP } else { 0 }) | (if mirror { MIRROR } else { 0 })
    }

    #[inline(always)]
    fn orient(sq: usize, orientation: usize) -> usize {
        // Nine files and ten ranks: neither turn is a XOR of the index.
        let (file, rank) = (sq % File::COUNT, sq / File::COUNT);
        let file = if orientation & MIRROR != 0 { File::COUNT - 1 - file } else { file };
        let rank = if orientation & FLIP != 0 { 9 - rank } else { rank };
        File::COUNT * rank + file
    }

    #[inline(always)]
    fn mirrors(king: Square) -> bool {
        king.file() < File::E
    }
}

/// Mirrored, with a king bucket for each of the six points the mirror leaves of the palace: the king on the
/// centre file on its back rank (0), one up (1), two up (2), and on the side file (file f, or d mirrored) at
/// the same three heights (3 to 5). The king never leaves its palace, and where it stands there is what
/// decides how exposed it is (to a cannon on its file, a horse beside the palace, a rook on an open rank), so
/// each point gets inputs of its own; the mirror halves the side files' buckets, since a king on d and one on f
/// face mirror-image dangers. Six sets of 1260 inputs: a file of 3.9 MB.
pub const PALACE: KingLayout = {
    let mut map = [0u8; MAX_SQUARES];
    let mut rank = 0;
    while rank < 3 {
        // From the king's own side, after the mirror: the centre file e (4), the side file f (5); the
        // mirrored half's entries (file d) are never read, and are set as their images for a readable map.
        map[9 * rank + 4] = rank as u8;
        map[9 * rank + 5] = 3 + rank as u8;
        map[9 * rank + 3] = 3 + rank as u8;
        rank += 1;
    }
    KingLayout::from_map(true, map)
};

tabula_nnue::net_position!(Position, XiangqiGeometry);

/// The weights file of the network the engine embeds (`default.tbnn`, the second round's; see [The embedded
/// network](self#the-embedded-network)).
pub const EMBEDDED: Option<&[u8]> = Some(include_bytes!("default.tbnn"));

/// The network the engine embeds, parsed once: `None` while [`EMBEDDED`] is.
///
/// # Panics
///
/// If the embedded file is not a valid xiangqi network (a test reads it).
pub fn embedded_network() -> Option<Arc<Network>> {
    static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    NET.get_or_init(|| {
        EMBEDDED.map(|bytes| Arc::new(Network::from_bytes(bytes).expect("the embedded network is valid")))
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Color, Move, Role};
    use tabula::rng::Rng;
    use tabula_nnue::testing::{check_incremental_along_walks, check_king_layouts, Walks};
    use tabula_nnue::{file_len, header_len, VERSION};

    fn random_network(kings: KingLayout, seed: u64) -> Network {
        Network::from_layers(&Layers::random(kings, seed)).unwrap()
    }

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    /// Positions whose kings walk their palaces: the start, a middlegame, endings with few pieces.
    fn starts() -> Vec<Position> {
        [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
            "3k5/9/9/9/9/9/9/9/3p5/4K1R2 w - - 0 1",
        ]
        .map(|fen| Position::from_fen(fen).unwrap())
        .to_vec()
    }

    #[test]
    fn views_turn_and_mirror_the_board_without_a_xor() {
        let plain = KingLayout::PLAIN.views(&Position::startpos());
        let [red, black] = plain;
        let pawn = |color| Piece::new(color, Role::Pawn);
        // A red pawn on a3 seen by Red is a black pawn on a6 seen by Black.
        assert_eq!(
            red.feature(Color::Red, pawn(Color::Red), sq("a3")),
            black.feature(Color::Black, pawn(Color::Black), sq("a6"))
        );
        assert_eq!(red.feature(Color::Red, pawn(Color::Red), sq("a3")), 90 * 6 + 27);
        // Black sees a red pawn on c3 as an other side's pawn on its own c6.
        assert_eq!(black.feature(Color::Black, pawn(Color::Red), sq("c3")), 90 * (7 + 6) + 9 * 6 + 2);
        assert_eq!(XiangqiGeometry::orient(sq("b2").index(), MIRROR), sq("h2").index());
        assert_eq!(XiangqiGeometry::orient(sq("b2").index(), FLIP | MIRROR), sq("h7").index());
        // A king on d1 is seen as one on f1: the same bucket, the board mirrored; e1 is its own bucket.
        let (d1, f1, e1) =
            (PALACE.view(Color::Red, sq("d1")), PALACE.view(Color::Red, sq("f1")), PALACE.view(Color::Red, sq("e1")));
        assert_eq!(d1.offset(), f1.offset());
        assert_eq!((d1.orientation(), f1.orientation()), (MIRROR, 0));
        assert_ne!(e1.offset(), f1.offset());
        // Black's king on e8 (one up from its back rank) is in the bucket of Red's on e1.
        assert_eq!(PALACE.view(Color::Black, sq("e8")).offset(), e1.offset());
        assert_eq!(PALACE.view(Color::Black, sq("d8")).orientation(), FLIP | MIRROR);
    }

    #[test]
    fn king_layouts_reach_every_input_from_the_palace() {
        let palaces: Vec<Square> =
            Square::ALL.into_iter().filter(|&sq| Color::ALL.iter().any(|&color| sq.in_palace(color))).collect();
        assert_eq!(palaces.len(), 18);
        check_king_layouts::<XiangqiGeometry>(&palaces);
        assert_eq!(PALACE.buckets(), 6);
        // Each bucket is one point of the palace, and the two side files share theirs.
        let buckets: Vec<usize> = palaces.iter().map(|&king| PALACE.view(Color::Red, king).offset() / 1260).collect();
        assert_eq!(&buckets[..9], [3, 0, 3, 4, 1, 4, 5, 2, 5]);
    }

    #[test]
    fn incremental_accumulators_match_fresh_ones() {
        let starts = starts();
        for (i, &(_, kings)) in KingLayout::NAMED.iter().enumerate() {
            let walks = Walks {
                starts: &starts,
                walks: 24,
                steps: 120,
                null: Some(Move::NULL),
                may_pass: |pos| !pos.is_check(),
                seed: 19 + i as u64,
            };
            check_incremental_along_walks(&random_network(kings, 7), &walks);
        }
    }

    #[test]
    fn a_mirrored_layout_sees_a_position_and_its_mirror_image_alike() {
        // Exact where neither king stands on file e, which is never mirrored.
        let mut rng = Rng::new(43);
        for kings in [KingLayout::MIRRORED, PALACE] {
            let (mirrored, plain) = (random_network(kings, 41), random_network(KingLayout::PLAIN, 41));
            let (mut off_centre, mut on_centre_differs, mut plain_differs) = (0, 0, 0);
            for game in 0..300 {
                let mut pos = starts()[game % 4].clone();
                for _ in 0..rng.below(80) {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play_unchecked(moves.as_slice()[rng.below(moves.len())]);
                }
                let image = pos.mirrored_left_right();
                let same = mirrored.evaluate(&pos) == mirrored.evaluate(&image);
                if Color::ALL.into_iter().all(|color| pos.king(color).file() != File::E) {
                    assert!(same, "{}", pos.to_fen());
                    off_centre += 1;
                } else {
                    on_centre_differs += usize::from(!same);
                }
                plain_differs += usize::from(plain.evaluate(&pos) != plain.evaluate(&image));
            }
            assert!(
                off_centre > 20 && on_centre_differs > 20 && plain_differs > 150,
                "{off_centre} {on_centre_differs} {plain_differs}"
            );
        }
    }

    #[test]
    fn files_hold_the_palace_map_round_trip_and_name_other_boards() {
        for &(name, kings) in KingLayout::NAMED {
            let net = random_network(kings, 3);
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), file_len(2, &kings), "{name}");
            assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 1260, "{name}");
            if kings.sees_kings() {
                // Version 3: the 40 bytes of fields, then the 90-byte king map.
                assert_eq!(header_len::<XiangqiGeometry>(VERSION), 40 + 90);
                assert_eq!(&bytes[40..130], kings.map(), "{name}");
            }
            let again = Network::from_bytes(&bytes).unwrap();
            assert_eq!(again.to_layers(), net.to_layers(), "{name}");
            for pos in starts() {
                assert_eq!(again.evaluate(&pos), net.evaluate(&pos), "{name}");
            }
        }
        assert!(KingLayout::new(true, &[0; 64], 1).is_none(), "a chess-sized map is not this board's");
        // A file stating 768 inputs (chess's count) is refused, and the message names both counts; the check
        // on real chess files is the command line crate's (`tests/networks.rs`), which sees both games.
        let mut bytes = random_network(KingLayout::PLAIN, 5).to_bytes();
        bytes[8..12].copy_from_slice(&768u32.to_le_bytes());
        let end = bytes.len() - 8;
        let sum = tabula_nnue::checksum(&bytes[..end]);
        bytes[end..].copy_from_slice(&sum.to_le_bytes());
        let err = Network::from_bytes(&bytes).unwrap_err();
        assert!(matches!(err, NetError::Shape { inputs: 768, takes: 1260, .. }), "{err:?}");
        assert!(err.to_string().contains("768") && err.to_string().contains("1260"), "{err}");
    }
}
