//! The machinery on a small board whose views are not XORs of the square's index (as xiangqi's are not): 3
//! files × 4 ranks, a man and a king a side, the other side's view turning rank `r` to `3 - r` and the mirror
//! turning file `f` to `2 - f`. Chess's own tests (in `tabula-chess`) run the same machinery on chess.

use crate::*;
use tabula::rng::Rng;
use tabula::Key;
use tabula_board::{coordinate, square, Placement};

coordinate!(
    /// A column.
    Column3, "file", 3, [A, B, C], b'a'
);
coordinate!(
    /// A row.
    Row4, "rank", 4, [R1, R2, R3, R4], b'1'
);
square!(
    /// A cell of the small board.
    Cell, Column3, Row4, u64, fold_case: false, "expected a file a-c then a rank 1-4"
);
tabula_board::pieces! {
    /// A side.
    Side { Light = 'w', Dark = 'b' }
    /// What a piece is.
    Kind { Man = 'm', King = 'k' }
    /// A piece.
    Token
}

impl Man for Token {
    type Square = Cell;
    const KING: Kind = Kind::King;
    fn key(self, sq: Cell) -> Key {
        Key(0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(1 + (sq.index() * Token::COUNT + self.index()) as u64))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Small;

/// Bucket by the own king's rank (seen from its side): 0 on the first two ranks, 1 on the third, 2 on the last.
const BY_RANK: KingLayout<Small> = {
    let mut map = [0u8; MAX_SQUARES];
    let mut sq = 0;
    while sq < 12 {
        map[sq] = [0, 0, 1, 2][sq / 3];
        sq += 1;
    }
    KingLayout::from_map(true, map)
};

impl Geometry for Small {
    type Piece = Token;
    const KING_LAYOUTS: &'static [(&'static str, KingLayout<Small>)] =
        &[("plain", KingLayout::PLAIN), ("mirrored", KingLayout::MIRRORED), ("by-rank", BY_RANK)];

    fn orientation(flip: bool, mirror: bool) -> usize {
        usize::from(flip) | usize::from(mirror) << 1
    }

    fn orient(sq: usize, orientation: usize) -> usize {
        let (mut file, mut rank) = (sq % 3, sq / 3);
        if orientation & 1 != 0 {
            rank = 3 - rank;
        }
        if orientation & 2 != 0 {
            file = 2 - file;
        }
        3 * rank + file
    }

    fn mirrors(king: Cell) -> bool {
        king.index() % 3 == 0
    }
}

/// A position of the small board with its history: any piece of the side to move goes to any square but its own
/// pieces' and the kings', or the side passes.
#[derive(Clone)]
struct Toy {
    board: Placement<Token, { Cell::COUNT }, { Kind::COUNT }>,
    turn: Side,
    history: Vec<PlacementChange<Token>>,
}

impl Toy {
    fn start() -> Toy {
        let mut board = Placement::empty();
        for (sq, color, kind) in [
            (1, Side::Light, Kind::King),
            (0, Side::Light, Kind::Man),
            (10, Side::Dark, Kind::King),
            (11, Side::Dark, Kind::Man),
        ] {
            board.put(Cell::from_index_unchecked(sq), Token::new(color, kind));
        }
        Toy { board, turn: Side::Light, history: Vec::new() }
    }

    fn play_random(&mut self, rng: &mut Rng) {
        let mut change = PlacementChange::default();
        let own: Vec<Cell> = self.board.by_color(self.turn).into_iter().collect();
        let from = own[rng.below(own.len())];
        let targets: Vec<Cell> = Cell::ALL
            .into_iter()
            .filter(|&sq| self.board.piece_at(sq).is_none_or(|p| p.color() != self.turn && p.role() != Kind::King))
            .collect();
        if rng.below(8) != 0 && !targets.is_empty() {
            let to = targets[rng.below(targets.len())];
            let piece = self.board.remove(from).expect("own piece");
            change.remove(piece, from);
            if let Some(captured) = self.board.remove(to) {
                change.remove(captured, to);
            }
            self.board.put(to, piece);
            change.add(piece, to);
        }
        self.history.push(change);
        self.turn = self.turn.flip();
    }

    fn undo(&mut self) {
        let change = self.history.pop().expect("a move to take back");
        for &(_, sq) in change.added() {
            self.board.remove(sq);
        }
        for &(piece, sq) in change.removed() {
            self.board.put(sq, piece);
        }
        self.turn = self.turn.flip();
    }

    /// The position mirrored left to right.
    fn mirrored(&self) -> Toy {
        let mut board = Placement::empty();
        for sq in self.board.occupied() {
            board.put(Cell::from_index_unchecked(Small::orient(sq.index(), 2)), self.board.piece_at(sq).unwrap());
        }
        Toy { board, turn: self.turn, history: Vec::new() }
    }
}

impl NetPosition for Toy {
    type Geometry = Small;
    fn turn(&self) -> Side {
        self.turn
    }
    fn occupied(&self) -> Bitboard<Cell> {
        self.board.occupied()
    }
    fn piece_at(&self, sq: Cell) -> Option<Token> {
        self.board.piece_at(sq)
    }
    fn by_piece(&self, piece: Token) -> Bitboard<Cell> {
        self.board.by_piece(piece)
    }
    fn king_of(&self, color: Side) -> Option<Cell> {
        self.board.king_of(color)
    }
    fn history_len(&self) -> usize {
        self.history.len()
    }
    fn placement_change(&self, ply: usize) -> PlacementChange<Token> {
        self.history[ply]
    }
    fn to_text(&self) -> String {
        format!(
            "{:?} to move, {:?}",
            self.turn,
            self.board.occupied().into_iter().map(|sq| (sq, self.board.piece_at(sq))).collect::<Vec<_>>()
        )
    }
}

fn random_network(kings: KingLayout<Small>, seed: u64) -> Network<Small> {
    Network::from_layers(&Layers::random(kings, seed)).unwrap()
}

#[test]
fn views_turn_and_mirror_the_board_without_a_xor() {
    assert_eq!(Small::INPUTS, 48);
    let plain = KingLayout::<Small>::PLAIN;
    let [light, dark] = plain.views(&Toy::start());
    let man = |side| Token::new(side, Kind::Man);
    // A light man on a1 seen by light is a dark man on a4 seen by dark.
    let (a1, a4) = (Cell::from_index_unchecked(0), Cell::from_index_unchecked(9));
    assert_eq!(light.feature(Side::Light, man(Side::Light), a1), dark.feature(Side::Dark, man(Side::Dark), a4));
    assert_eq!(dark.feature(Side::Dark, man(Side::Light), a1), 12 * 2 + 9);
    // A king on file a is seen on file c: the same bucket, the board mirrored.
    let (king_a2, king_c2) = (Cell::from_index_unchecked(3), Cell::from_index_unchecked(5));
    let (mirrored, straight) = (BY_RANK.view(Side::Light, king_a2), BY_RANK.view(Side::Light, king_c2));
    assert_eq!(mirrored.offset(), straight.offset());
    assert_eq!(
        mirrored.feature(Side::Light, man(Side::Light), a1),
        straight.feature(Side::Light, man(Side::Light), Cell::from_index_unchecked(2))
    );
    // The dark king on its own third rank (rank 2 of the board) is in bucket 1.
    assert_eq!(BY_RANK.view(Side::Dark, Cell::from_index_unchecked(4)).offset(), Small::INPUTS);
    assert_eq!(KingLayout::<Small>::named("by-rank"), Some(BY_RANK));
}

#[test]
fn files_hold_the_boards_king_map_and_round_trip() {
    for &(name, kings) in KingLayout::<Small>::NAMED {
        let net = random_network(kings, 3);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_len(2, &kings), "{name}");
        if kings.sees_kings() {
            assert_eq!(header_len::<Small>(VERSION), 40 + 12);
            assert_eq!(&bytes[40..52], kings.map(), "{name}");
        }
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 48);
        let again = Network::<Small>::from_bytes(&bytes).unwrap();
        assert_eq!(again.to_layers(), net.to_layers(), "{name}");
        let pos = Toy::start();
        assert_eq!(again.evaluate(&pos), net.evaluate(&pos));
    }
    assert!(KingLayout::<Small>::new(false, &[0; 64], 1).is_none(), "a chess-sized map is not this board's");
}

#[test]
fn incremental_accumulators_match_fresh_ones() {
    for &(name, kings) in KingLayout::<Small>::NAMED {
        let net = random_network(kings, 7);
        let scalar = net.clone().with_kernel(Kernel::Scalar);
        let mut rng = Rng::new(11);
        for game in 0..20 {
            let mut pos = Toy::start();
            let mut line = Accumulators::default();
            net.evaluate_along(&pos, &line);
            for step in 0..150 {
                if pos.history_len() > 0 && rng.below(4) == 0 {
                    pos.undo();
                    line.forget_after(pos.history_len());
                } else {
                    pos.play_random(&mut rng);
                }
                if (step + game) % 3 != 1 {
                    let acc = net.accumulator(&pos);
                    let fresh = net.output(&acc, pos.turn(), net.bucket(&pos));
                    assert_eq!(net.evaluate_along(&pos, &line), fresh, "{name}: {}", pos.to_text());
                    assert_eq!(line.up_to_date(pos.history_len()), Some(acc), "{name}: {}", pos.to_text());
                    assert_eq!(scalar.output(&acc, pos.turn(), net.bucket(&pos)), fresh, "{name}");
                }
            }
        }
    }
}

#[test]
fn a_mirrored_layout_sees_a_position_and_its_mirror_image_alike() {
    // With an odd number of files a king on the middle one is not mirrored (as a xiangqi king on file e is
    // not): only positions whose kings both stand off it are seen as their mirror images are.
    let (mirrored, plain) = (random_network(BY_RANK, 13), random_network(KingLayout::PLAIN, 13));
    let mut rng = Rng::new(17);
    let (mut off_middle, mut plain_differs) = (0, 0);
    let mut pos = Toy::start();
    for _ in 0..400 {
        pos.play_random(&mut rng);
        let image = pos.mirrored();
        if Side::ALL.into_iter().all(|side| pos.king_of(side).is_some_and(|k| k.index() % 3 != 1)) {
            assert_eq!(mirrored.evaluate(&pos), mirrored.evaluate(&image), "{}", pos.to_text());
            off_middle += 1;
        }
        plain_differs += usize::from(plain.evaluate(&pos) != plain.evaluate(&image));
    }
    assert!(off_middle > 50 && plain_differs > 100, "{off_middle} {plain_differs}");
}
