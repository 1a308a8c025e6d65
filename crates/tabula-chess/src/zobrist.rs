//! Polyglot Zobrist keys: the 781 standard Random64 numbers of the Polyglot opening-book format, so that
//! [`Position::key`](crate::Position::key) equals the key Polyglot books are indexed by.
//!
//! The numbers live in `data/polyglot-random64.txt` and are parsed by a `const fn` when the crate compiles:
//! no runtime parsing, no global initialisation. Layout:
//!
//! | index       | feature                                                                     |
//! |-------------|-----------------------------------------------------------------------------|
//! | 0..768      | piece `kind` on square `sq`: `64 * kind + sq`, kinds bp wp bn wn bb wb br wr bq wq bk wk |
//! | 768..772    | castling rights: white short, white long, black short, black long            |
//! | 772..780    | en-passant file a..h (only when a pawn of the side to move stands beside)  |
//! | 780         | White to move                                                               |
//!
//! # Examples
//!
//! ```
//! use tabula::Key;
//! use tabula_chess::Position;
//!
//! assert_eq!(Position::startpos().key(), Key(0x463b96181691fc9c));
//! assert_eq!(tabula_chess::zobrist::POLYGLOT.len(), 781);
//! ```

use crate::castling::CastlingSide;
use crate::types::{Color, File, Piece, Role, Square};
use tabula::zobrist::{Key, ZobristKeys};
use tabula_board::Man;

/// Number of Polyglot keys.
pub const KEY_COUNT: usize = 781;

const SOURCE: &str = include_str!("../data/polyglot-random64.txt");

/// Parses the key file: `#` lines are comments, every other non-empty line is one hexadecimal key.
const fn parse_keys(text: &str) -> [Key; KEY_COUNT] {
    let bytes = text.as_bytes();
    let mut keys = [Key::ZERO; KEY_COUNT];
    let mut count = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'#' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if bytes[i].is_ascii_hexdigit() {
            let mut value = 0u64;
            let mut digits = 0;
            while i < bytes.len() && bytes[i].is_ascii_hexdigit() {
                let d = match bytes[i] {
                    b'0'..=b'9' => bytes[i] - b'0',
                    b'a'..=b'f' => bytes[i] - b'a' + 10,
                    _ => bytes[i] - b'A' + 10,
                };
                value = value << 4 | d as u64;
                digits += 1;
                i += 1;
            }
            assert!(digits == 16, "a Polyglot key has 16 hex digits");
            assert!(count < KEY_COUNT, "more than 781 keys");
            keys[count] = Key(value);
            count += 1;
        } else {
            i += 1;
        }
    }
    assert!(count == KEY_COUNT, "fewer than 781 keys");
    keys
}

/// The 781 Polyglot Random64 keys in file order.
pub static POLYGLOT: ZobristKeys<Key, KEY_COUNT> = ZobristKeys::from_keys(parse_keys(SOURCE));

const KEYS: [Key; KEY_COUNT] = parse_keys(SOURCE);
const _: () = assert!(KEYS[0].0 == 0x9d39247e33776d41 && KEYS[780].0 == 0xf8d626aaaf278509);

/// `PIECE[color][role][square]`, rearranged from Polyglot's `64 * kind + square` for direct lookup.
static PIECE: [[[Key; 64]; 6]; 2] = {
    let mut table = [[[Key::ZERO; 64]; 6]; 2];
    let mut color = 0;
    while color < 2 {
        let mut role = 0;
        while role < 6 {
            // Polyglot's kinds alternate black, white: kind = 2 * role + (1 if white).
            let kind = 2 * role + (1 - color);
            let mut sq = 0;
            while sq < 64 {
                table[color][role][sq] = KEYS[64 * kind + sq];
                sq += 1;
            }
            role += 1;
        }
        color += 1;
    }
    table
};

/// A piece's Polyglot key on each square; its placement's key is their XOR.
impl Man for Piece {
    type Square = Square;
    const KING: Role = Role::King;

    #[inline(always)]
    fn key(self, sq: Square) -> Key {
        PIECE[self.color.index()][self.role.index()][sq.index()]
    }
}

/// The key of one castling right.
#[inline(always)]
pub fn castling(color: Color, side: CastlingSide) -> Key {
    KEYS[768 + 2 * color.index() + side.index()]
}

/// The key of an en-passant file.
#[inline(always)]
pub fn en_passant(file: File) -> Key {
    KEYS[772 + file.index()]
}

/// The key XORed in when White is to move.
pub const WHITE_TO_MOVE: Key = KEYS[780];
