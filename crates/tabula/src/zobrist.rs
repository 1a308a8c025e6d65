//! Zobrist keys: a random number per feature of a position, a position's key the XOR of its present features.
//!
//! A feature is a (site, kind) pair such as "white king on e1", or a single extra such as "black to move" or
//! "white may castle short". Because XOR is its own inverse, making a move updates the key with one XOR per
//! feature that appears or disappears, and undoing the move applies the same XORs again.
//!
//! Keys are generated at compile time by [`SplitMix64`] (the core's [`rng`](crate::rng)) from a fixed seed, so they are part of the API: the same
//! seed gives the same keys on every machine and in every release.
//!
//! # Examples
//!
//! The textbook demonstration: an 8×8 board with 12 piece kinds, a king moved one square and back.
//!
//! ```
//! use tabula::zobrist::{Key, Layout, ZobristKeys};
//!
//! const LAYOUT: Layout = Layout::new(64, 12, 1); // 64 squares, 12 piece kinds, one extra: side to move
//! const KEYS: ZobristKeys<Key, { LAYOUT.len() }> = ZobristKeys::<Key, { LAYOUT.len() }>::generate(0x7AB);
//! const WHITE_KING: usize = 5;
//! const BLACK_KING: usize = 11;
//! const E1: usize = 4;
//! const E2: usize = 12;
//! const E8: usize = 60;
//!
//! let hash = |pieces: &[(usize, usize)]| {
//!     pieces.iter().fold(Key::ZERO, |key, &(square, kind)| key ^ KEYS[LAYOUT.feature(square, kind)])
//! };
//! let start = hash(&[(E1, WHITE_KING), (E8, BLACK_KING)]);
//!
//! // Ke1-e2: one XOR takes the king off e1, one puts it on e2; the side to move flips too.
//! let mut key = start;
//! key ^= KEYS[LAYOUT.feature(E1, WHITE_KING)];
//! key ^= KEYS[LAYOUT.feature(E2, WHITE_KING)];
//! key ^= KEYS[LAYOUT.extra(0)];
//! assert_eq!(key, hash(&[(E2, WHITE_KING), (E8, BLACK_KING)]) ^ KEYS[LAYOUT.extra(0)]);
//! assert_ne!(key, start);
//!
//! // Undo: the same three XORs in any order.
//! key ^= KEYS[LAYOUT.extra(0)];
//! key ^= KEYS[LAYOUT.feature(E2, WHITE_KING)];
//! key ^= KEYS[LAYOUT.feature(E1, WHITE_KING)];
//! assert_eq!(key, start);
//! ```
//!
//! # The lesson's numbers
//!
//! GeeksforGeeks' Zobrist hashing lesson fills a `[8][8][12]` table (row, column, piece `PNBRQKpnbrqk`) in
//! that order from C++'s `mt19937 mt(01234567)` (an octal seed) through `uniform_int_distribution<unsigned long
//! long>(0, UINT64_MAX)`, which in GCC's library joins two 32-bit outputs, the first as the high half. It
//! hashes a board, moves the white king one square left and back, and prints three numbers. The same steps
//! here, with the same generator, print the same numbers:
//!
//! ```
//! use tabula::zobrist::Key;
//!
//! let mut mt = rand_mt::Mt::new(0o1234567);
//! let mut next = || Key((mt.next_u32() as u64) << 32 | mt.next_u32() as u64);
//! let mut table = [[[Key::ZERO; 12]; 8]; 8];
//! for row in table.iter_mut() {
//!     for square in row.iter_mut() {
//!         for key in square.iter_mut() {
//!             *key = next();
//!         }
//!     }
//! }
//! let board = ["---K----", "-R----Q-", "--------", "-P----p-", "-----p--", "--------", "p---b--q", "----n--k"];
//! let piece = |c: char| "PNBRQKpnbrqk".find(c);
//! let mut key = Key::ZERO;
//! for (i, row) in board.iter().enumerate() {
//!     for (j, c) in row.chars().enumerate() {
//!         if let Some(k) = piece(c) {
//!             key ^= table[i][j][k];
//!         }
//!     }
//! }
//! assert_eq!(key.0, 14226429382419125366);
//! let king = piece('K').unwrap();
//! key ^= table[0][3][king]; // the king leaves [0][3]
//! key ^= table[0][2][king]; // and arrives on [0][2]
//! assert_eq!(key.0, 15124945578233295113);
//! key ^= table[0][2][king]; // undo: the same two XORs
//! key ^= table[0][3][king];
//! assert_eq!(key.0, 14226429382419125366);
//! ```

pub use crate::rng::SplitMix64;
use std::fmt;
use std::ops::{BitXor, BitXorAssign, Index};

/// A 64-bit Zobrist key. `Debug` and `Display` print it as 16 hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Key(pub u64);

/// A 128-bit Zobrist key, for uses where 64 bits collide too often (very long histories, huge caches).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Key128(pub u128);

impl Key {
    /// The key of the empty set of features.
    pub const ZERO: Key = Key(0);

    /// The key as a plain integer.
    pub const fn as_u64(self) -> u64 {
        self.0
    }
}

impl Key128 {
    /// The key of the empty set of features.
    pub const ZERO: Key128 = Key128(0);

    /// The key as a plain integer.
    pub const fn as_u128(self) -> u128 {
        self.0
    }

    /// The low 64 bits, as a [`Key`] usable with the transposition table.
    pub const fn to_key(self) -> Key {
        Key(self.0 as u64)
    }
}

macro_rules! key_ops {
    ($key:ty, $width:literal) => {
        impl BitXor for $key {
            type Output = $key;
            #[inline(always)]
            fn bitxor(self, rhs: $key) -> $key {
                Self(self.0 ^ rhs.0)
            }
        }
        impl BitXorAssign for $key {
            #[inline(always)]
            fn bitxor_assign(&mut self, rhs: $key) {
                self.0 ^= rhs.0;
            }
        }
        impl fmt::Debug for $key {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({:0width$x})", stringify!($key), self.0, width = $width)
            }
        }
        impl fmt::Display for $key {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{:0width$x}", self.0, width = $width)
            }
        }
        impl fmt::LowerHex for $key {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::LowerHex::fmt(&self.0, f)
            }
        }
    };
}
key_ops!(Key, 16);
key_ops!(Key128, 32);

/// How a key set is laid out: `sites × kinds` feature keys followed by `extras` single keys.
///
/// Feature `(site, kind)` has index `site * kinds + kind`; extra `i` has index `sites * kinds + i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Number of sites (squares, cells, lattice sites).
    pub sites: usize,
    /// Number of kinds a site can hold (piece kinds, colours, species), not counting "empty".
    pub kinds: usize,
    /// Number of single keys after the features (side to move, castling rights, ...).
    pub extras: usize,
}

impl Layout {
    /// A layout of `sites × kinds` features and `extras` single keys.
    pub const fn new(sites: usize, kinds: usize, extras: usize) -> Self {
        Self { sites, kinds, extras }
    }

    /// Total number of keys.
    pub const fn len(&self) -> usize {
        self.sites * self.kinds + self.extras
    }

    /// Whether the layout has no keys at all.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Index of the key of `kind` standing on `site`.
    #[inline(always)]
    pub const fn feature(&self, site: usize, kind: usize) -> usize {
        debug_assert!(site < self.sites && kind < self.kinds);
        site * self.kinds + kind
    }

    /// Index of the single key number `i`.
    #[inline(always)]
    pub const fn extra(&self, i: usize) -> usize {
        debug_assert!(i < self.extras);
        self.sites * self.kinds + i
    }
}

/// `N` Zobrist keys of type `K` ([`Key`] or [`Key128`]), generated at compile time or given as literals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZobristKeys<K, const N: usize> {
    keys: [K; N],
}

impl<K, const N: usize> ZobristKeys<K, N> {
    /// Keys given as literals (for standard sets such as Polyglot's).
    pub const fn from_keys(keys: [K; N]) -> Self {
        Self { keys }
    }

    /// All keys, in index order.
    pub const fn as_slice(&self) -> &[K] {
        &self.keys
    }

    /// Number of keys.
    pub const fn len(&self) -> usize {
        N
    }

    /// Whether there are no keys.
    pub const fn is_empty(&self) -> bool {
        N == 0
    }
}

impl<const N: usize> ZobristKeys<Key, N> {
    /// `N` keys drawn from [`SplitMix64`] started at `seed`. Never zero, never repeated.
    pub const fn generate(seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let mut keys = [Key::ZERO; N];
        let mut i = 0;
        while i < N {
            let mut k = rng.next();
            // SplitMix64 outputs are distinct within a period; zero is the only value to skip.
            while k == 0 {
                k = rng.next();
            }
            keys[i] = Key(k);
            i += 1;
        }
        Self { keys }
    }

    /// The key at `index`, usable in `const` contexts.
    #[inline(always)]
    pub const fn get(&self, index: usize) -> Key {
        self.keys[index]
    }
}

impl<const N: usize> ZobristKeys<Key128, N> {
    /// `N` 128-bit keys, each two consecutive [`SplitMix64`] outputs (high word first) from `seed`.
    pub const fn generate(seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let mut keys = [Key128::ZERO; N];
        let mut i = 0;
        while i < N {
            let hi = rng.next() as u128;
            let lo = rng.next() as u128;
            keys[i] = Key128(hi << 64 | lo);
            i += 1;
        }
        Self { keys }
    }

    /// The key at `index`, usable in `const` contexts.
    #[inline(always)]
    pub const fn get(&self, index: usize) -> Key128 {
        self.keys[index]
    }
}

impl<K, const N: usize> Index<usize> for ZobristKeys<K, N> {
    type Output = K;
    #[inline(always)]
    fn index(&self, index: usize) -> &K {
        &self.keys[index]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_deterministic_and_const() {
        const A: ZobristKeys<Key, 100> = ZobristKeys::<Key, 100>::generate(42);
        let b = ZobristKeys::<Key, 100>::generate(42);
        assert_eq!(A, b);
        assert_ne!(A, ZobristKeys::<Key, 100>::generate(43));
        assert!(A.as_slice().iter().all(|k| k.0 != 0));
    }

    #[test]
    fn keys_print_in_hex() {
        assert_eq!(format!("{}", Key(0x463b96181691fc9c)), "463b96181691fc9c");
        assert_eq!(format!("{:?}", Key(0xab)), "Key(00000000000000ab)");
        assert_eq!(format!("{}", Key128(1)), format!("{:032x}", 1));
    }

    #[test]
    fn layout_indices_are_dense() {
        let l = Layout::new(3, 2, 2);
        assert_eq!(l.len(), 8);
        let mut seen = vec![false; l.len()];
        for s in 0..3 {
            for k in 0..2 {
                seen[l.feature(s, k)] = true;
            }
        }
        seen[l.extra(0)] = true;
        seen[l.extra(1)] = true;
        assert!(seen.iter().all(|&x| x));
    }
}
