//! Attack tables, all computed at compile time: knight, king and pawn attacks, squares between and lines through
//! two squares, and rook and bishop attacks through magic bitboards.
//!
//! A slider's attacks depend only on the occupied squares of its *mask* (its rays without the board edge).
//! Multiplying those occupied squares by a per-square magic number and keeping the top bits gives a dense,
//! collision-free index into a table of precomputed attack sets ("fancy" magics: each square has its own
//! table slice of exactly `2^bits` entries). The magic numbers were found by the seeded search in this module's
//! tests (`find_magics`, run with `--ignored`); the tables themselves are filled by `const fn` when the crate
//! compiles, which also proves every magic collision-free: a bad magic is a compile error, not a wrong move.
//!
//! # Examples
//!
//! ```
//! use tabula_chess::{attacks, Bitboard, Square};
//!
//! let d4: Square = "d4".parse().unwrap();
//! let d6: Square = "d6".parse().unwrap();
//! assert_eq!(attacks::rook(d4, Bitboard::EMPTY).count(), 14);
//! // A blocker on d6 stops the ray up the d-file (d6 itself is attacked, d7 and d8 are not).
//! let blocked = attacks::rook(d4, Bitboard::from_square(d6));
//! assert_eq!(blocked.count(), 12);
//! assert!(blocked.contains(d6));
//! assert_eq!(attacks::knight(Square::A1).count(), 2);
//! assert_eq!(attacks::between(Square::A1, Square::H8).count(), 6);
//! ```

use crate::bitboard::Bitboard;
use crate::types::{Color, Piece, Role, Square};

const ROOK_DIRECTIONS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRECTIONS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const KNIGHT_STEPS: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING_STEPS: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

/// Squares one step away from each square by any of `steps`.
const fn step_table(steps: &[(i32, i32)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut bits = 0u64;
        let mut i = 0;
        while i < steps.len() {
            if let Some(to) = Square::ALL[sq].offset(steps[i].0, steps[i].1) {
                bits |= 1 << to.index();
            }
            i += 1;
        }
        table[sq] = Bitboard::from_bits(bits);
        sq += 1;
    }
    table
}

static KNIGHT: [Bitboard; 64] = step_table(&KNIGHT_STEPS);
static KING: [Bitboard; 64] = step_table(&KING_STEPS);
static PAWN: [[Bitboard; 64]; 2] = [step_table(&[(-1, 1), (1, 1)]), step_table(&[(-1, -1), (1, -1)])];

/// The squares a slider on `sq` attacks along `directions` given the occupied squares `occupied`, walking
/// square by square (the slow reference the magic tables are built from).
const fn slide(sq: Square, directions: &[(i32, i32); 4], occupied: u64) -> u64 {
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let mut current = sq;
        while let Some(next) = current.offset(directions[d].0, directions[d].1) {
            attacks |= 1 << next.index();
            if occupied >> next.index() & 1 != 0 {
                break;
            }
            current = next;
        }
        d += 1;
    }
    attacks
}

/// The squares whose occupancy matters to a slider on `sq`: its rays without the last square of each.
const fn relevant_mask(sq: Square, directions: &[(i32, i32); 4]) -> u64 {
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let mut current = sq;
        while let Some(next) = current.offset(df, dr) {
            if next.offset(df, dr).is_none() {
                break;
            }
            mask |= 1 << next.index();
            current = next;
        }
        d += 1;
    }
    mask
}

/// How to find one square's slice of the slider table.
#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// Magic numbers for rooks, one per square; see `find_magics`.
#[rustfmt::skip]
const ROOK_MAGIC_NUMBERS: [u64; 64] = [
    0x80800060809ac000, 0x2c40001000402002, 0x0200084200241080, 0x1500090020900005,
    0x3a00020008210410, 0x0300022100080400, 0x0200020041080084, 0x40800021d1000180,
    0x00a0800080204000, 0x0000401000402000, 0x0012802001100280, 0x0309001000082100,
    0x5006002004100a00, 0x0000800400800201, 0x0819000431000200, 0x04410001000040a2,
    0x0480104000200040, 0x1010064002200040, 0x6002848020001001, 0x5810018050080080,
    0x0022020010082004, 0x0840080104402090, 0x0840040010010288, 0xa00002000440812c,
    0x0040008180004120, 0x00a0108080204003, 0x0001100280200180, 0x0000220900100100,
    0x2000080080040080, 0x2040020080800400, 0x240a010080800200, 0x4008188200010044,
    0x0080002002400048, 0x10100020024002c0, 0x0098200080801000, 0x0600800800801000,
    0x0144008004800802, 0x8042000400808002, 0x0084480104000290, 0x0100802440800d00,
    0x1000800240028025, 0x2c02010080420029, 0x0452002010820040, 0x9000080010008080,
    0x6a88000400088080, 0x8040020004008080, 0x2000020004010100, 0x0a80006400820001,
    0x0080004000200440, 0x0000400620008480, 0x9084428112082200, 0x8410808800100180,
    0x0011040080080180, 0x0140800200040080, 0x2000800200010080, 0x450400441100a200,
    0x0049012202415082, 0x1814108640050021, 0x0000142000084101, 0x0000100020040901,
    0x0101000208001005, 0x000300422400080d, 0x10088230028b080c, 0x2000140448810022,
];

/// Magic numbers for bishops, one per square; see `find_magics`.
#[rustfmt::skip]
const BISHOP_MAGIC_NUMBERS: [u64; 64] = [
    0x0820284200484200, 0x400b141424014000, 0x0392240408200048, 0x1362208200140000,
    0x1210882000006020, 0x0020822061002000, 0x0011009050081000, 0x0000104208205800,
    0x0000040430c41100, 0x0040200400820046, 0x0180100102202010, 0x002034404d800000,
    0x000a2c2420610000, 0x1041024110400420, 0x000e520201844009, 0x0000504600842110,
    0xc110084051012110, 0x22a0010401320200, 0x801008010c0284f0, 0x40e60c2020204000,
    0xd106040402110024, 0x2006000020901804, 0xa201008424010460, 0x350200008a210100,
    0x3a30090040030410, 0x2008021008025800, 0x044804060a4c0080, 0x0044040000401080,
    0x0205010004104000, 0x10a0434002013000, 0x4212140082010100, 0x42022080c2004100,
    0x041c108404420410, 0x0047080ab2089010, 0x0120844101300400, 0x0001010802090040,
    0x00c0210010110040, 0x002004810202804b, 0x8044045400008080, 0x0304011140022414,
    0x402a080441c00402, 0x000ca80402891003, 0x0040c20050001104, 0x0200004208000080,
    0x4303010b24000202, 0x0420110204200a00, 0x0020840102000040, 0x0901040084804210,
    0x032e030149400440, 0x1820210802100000, 0x4002002a01100a20, 0x0890c40020880000,
    0x0094291032022060, 0x3124901142082000, 0x000408100400a008, 0x0871540084024020,
    0x1023002202024118, 0x200410426c100802, 0x1500400042080402, 0x4000020012420880,
    0x38b0018040082202, 0x0838100460040110, 0x0000580848481250, 0x1004502401042203,
];

/// Per-square magics whose slices start at `offset` in the shared table, and the offset after the last.
const fn magics(directions: &[(i32, i32); 4], numbers: &[u64; 64], mut offset: usize) -> ([Magic; 64], usize) {
    let mut magics = [Magic { mask: 0, magic: 0, shift: 0, offset: 0 }; 64];
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(Square::ALL[sq], directions);
        let bits = mask.count_ones();
        magics[sq] = Magic { mask, magic: numbers[sq], shift: 64 - bits, offset };
        offset += 1 << bits;
        sq += 1;
    }
    (magics, offset)
}

const ROOK_LAYOUT: ([Magic; 64], usize) = magics(&ROOK_DIRECTIONS, &ROOK_MAGIC_NUMBERS, 0);
const BISHOP_LAYOUT: ([Magic; 64], usize) = magics(&BISHOP_DIRECTIONS, &BISHOP_MAGIC_NUMBERS, ROOK_LAYOUT.1);
static ROOK_MAGICS: [Magic; 64] = ROOK_LAYOUT.0;
static BISHOP_MAGICS: [Magic; 64] = BISHOP_LAYOUT.0;
/// Entries in the shared slider table: 102,400 for rooks and 5,248 for bishops.
const SLIDER_TABLE_SIZE: usize = BISHOP_LAYOUT.1;
const _: () = assert!(SLIDER_TABLE_SIZE == 102_400 + 5_248);

/// Fills the slider table slices of one piece type, enumerating every subset of each mask (Carry-Rippler).
const fn fill(
    mut table: [Bitboard; SLIDER_TABLE_SIZE],
    magics: &[Magic; 64],
    directions: &[(i32, i32); 4],
) -> [Bitboard; SLIDER_TABLE_SIZE] {
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq];
        let mut subset = 0u64;
        loop {
            let attacks = slide(Square::ALL[sq], directions, subset);
            let index = m.offset + (subset.wrapping_mul(m.magic) >> m.shift) as usize;
            // Attack sets are never empty, so zero marks a free slot; two subsets may share a slot only if
            // they give the same attacks.
            assert!(table[index].0 == 0 || table[index].0 == attacks, "magic number with a harmful collision");
            table[index] = Bitboard::from_bits(attacks);
            subset = subset.wrapping_sub(m.mask) & m.mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

#[allow(long_running_const_eval)]
static SLIDER_TABLE: [Bitboard; SLIDER_TABLE_SIZE] = {
    let table = fill([Bitboard::EMPTY; SLIDER_TABLE_SIZE], &ROOK_LAYOUT.0, &ROOK_DIRECTIONS);
    fill(table, &BISHOP_LAYOUT.0, &BISHOP_DIRECTIONS)
};

/// `BETWEEN[a][b]`: the squares strictly between `a` and `b` if they share a line, else empty.
/// `LINE[a][b]`: the whole line (edge to edge) through `a` and `b` if they share one, else empty.
const fn line_tables() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[Bitboard::EMPTY; 64]; 64];
    let mut line = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = KING_STEPS[d];
            let from = Square::ALL[a];
            // The full line through `a` in this direction (both ways), `a` included.
            let mut full = 1u64 << a;
            let mut s = from;
            while let Some(next) = s.offset(df, dr) {
                full |= 1 << next.index();
                s = next;
            }
            s = from;
            while let Some(next) = s.offset(-df, -dr) {
                full |= 1 << next.index();
                s = next;
            }
            let mut gap = 0u64;
            s = from;
            while let Some(next) = s.offset(df, dr) {
                between[a][next.index()] = Bitboard::from_bits(gap);
                line[a][next.index()] = Bitboard::from_bits(full);
                gap |= 1 << next.index();
                s = next;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

const LINE_TABLES: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = line_tables();
static BETWEEN: [[Bitboard; 64]; 64] = LINE_TABLES.0;
static LINE: [[Bitboard; 64]; 64] = LINE_TABLES.1;

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks (its diagonal captures).
#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

#[inline(always)]
fn magic_lookup(magic: &Magic, occupied: Bitboard) -> Bitboard {
    let index = ((occupied.0 & magic.mask).wrapping_mul(magic.magic) >> magic.shift) as usize;
    // SAFETY-free: the index is below 2^bits by construction, so the lookup stays in the square's slice.
    SLIDER_TABLE[magic.offset + index]
}

/// Squares a rook on `sq` attacks when `occupied` holds the pieces (blockers are attacked, squares behind are not).
#[inline(always)]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK_MAGICS[sq.index()], occupied)
}

/// Squares a bishop on `sq` attacks when `occupied` holds the pieces.
#[inline(always)]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP_MAGICS[sq.index()], occupied)
}

/// Squares a queen on `sq` attacks when `occupied` holds the pieces.
#[inline(always)]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    rook(sq, occupied) | bishop(sq, occupied)
}

/// Squares `piece` on `sq` attacks when `occupied` holds the pieces.
#[inline]
pub fn attacks(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece.role {
        Role::Pawn => pawn(piece.color, sq),
        Role::Knight => knight(sq),
        Role::Bishop => bishop(sq, occupied),
        Role::Rook => rook(sq, occupied),
        Role::Queen => queen(sq, occupied),
        Role::King => king(sq),
    }
}

/// The squares strictly between `a` and `b` when they share a rank, file or diagonal; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole rank, file or diagonal through `a` and `b` (edge to edge); empty if they share none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small xorshift generator for the tests and the magic search.
    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn magic_lookups_match_the_slow_walk() {
        let mut state = 0x1234_5678_9abc_def1;
        for sq in Square::ALL {
            for _ in 0..200 {
                let occupied = xorshift(&mut state) & xorshift(&mut state);
                assert_eq!(rook(sq, Bitboard::from_bits(occupied)).0, slide(sq, &ROOK_DIRECTIONS, occupied));
                assert_eq!(bishop(sq, Bitboard::from_bits(occupied)).0, slide(sq, &BISHOP_DIRECTIONS, occupied));
            }
        }
    }

    #[test]
    fn lines_and_gaps() {
        let [a1, h8, e1, e8] = [Square::A1, Square::H8, Square::E1, Square::E8];
        assert_eq!(line(a1, h8).count(), 8);
        assert_eq!(line(e1, e8), Bitboard::file(crate::File::E));
        assert_eq!(between(e1, e8).count(), 6);
        assert_eq!(between(a1, Square::B1), Bitboard::EMPTY);
        assert_eq!(line(a1, "b3".parse().unwrap()), Bitboard::EMPTY);
        for a in Square::ALL {
            for b in Square::ALL {
                assert_eq!(between(a, b), between(b, a));
                assert_eq!(line(a, b), line(b, a));
            }
        }
        assert_eq!(pawn(Color::White, e1).count(), 2);
        assert_eq!(pawn(Color::Black, e8).count(), 2);
        assert_eq!(king(e1).count(), 5);
    }

    /// The seeded search that produced the magic numbers above: random sparse candidates, first one whose
    /// subsets never collide destructively. Prints both arrays.
    #[test]
    #[ignore = "generator, not a test: cargo test -p tabula-chess find_magics -- --ignored --nocapture"]
    fn find_magics() {
        let mut state = 0x0007_AB1C_4E55_u64;
        for (name, directions) in [("ROOK", &ROOK_DIRECTIONS), ("BISHOP", &BISHOP_DIRECTIONS)] {
            println!("const {name}_MAGIC_NUMBERS: [u64; 64] = [");
            for sq in Square::ALL {
                let mask = relevant_mask(sq, directions);
                let bits = mask.count_ones();
                let mut subsets = vec![];
                let mut subset = 0u64;
                loop {
                    subsets.push((subset, slide(sq, directions, subset)));
                    subset = subset.wrapping_sub(mask) & mask;
                    if subset == 0 {
                        break;
                    }
                }
                let mut table = vec![0u64; 1 << bits];
                let magic = loop {
                    let magic = xorshift(&mut state) & xorshift(&mut state) & xorshift(&mut state);
                    if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                        continue;
                    }
                    table.iter_mut().for_each(|t| *t = 0);
                    let good = subsets.iter().all(|&(occupied, attacks)| {
                        let i = (occupied.wrapping_mul(magic) >> (64 - bits)) as usize;
                        let free = table[i] == 0 || table[i] == attacks;
                        table[i] = attacks;
                        free
                    });
                    if good {
                        break magic;
                    }
                };
                println!("    {magic:#018x},");
            }
            println!("];");
        }
    }
}
