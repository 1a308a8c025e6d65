//! Key-quality checks for any Zobrist key set.
//!
//! Two positions collide when the XOR of the features that differ between them is zero. The smallest such
//! defects are a zero key (a feature that changes nothing), two equal keys, three keys that XOR to zero, and
//! two pairs of keys with the same XOR. [`check`] looks for all of them, and reports the GF(2) rank of the set
//! (a set of more than 64 random 64-bit keys should span all 64 dimensions) and the balance of each bit.
//!
//! # Examples
//!
//! ```
//! use tabula::quality;
//! use tabula::zobrist::{Key, ZobristKeys};
//!
//! let keys = ZobristKeys::<Key, 781>::generate(1);
//! let report = quality::check(keys.as_slice());
//! assert!(report.is_sound());
//! assert_eq!(report.rank, 64);
//! ```

use crate::zobrist::{Key, Key128};
use std::collections::HashMap;
use std::fmt;

/// Pair XORs are sorted in memory to find quadruples; above this many keys that step is skipped.
pub const MAX_KEYS_FOR_QUADRUPLES: usize = 3000;

/// An integer type a key is made of.
pub trait KeyBits: Copy + Eq + Ord + std::hash::Hash + std::ops::BitXor<Output = Self> {
    /// Width in bits.
    const BITS: u32;
    /// The zero value.
    const ZERO: Self;
    /// Number of one bits.
    fn ones(self) -> u32;
    /// Bit `i`.
    fn bit(self, i: u32) -> bool;
    /// The highest set bit, if any.
    fn top_bit(self) -> Option<u32>;
}

macro_rules! key_bits {
    ($t:ty) => {
        impl KeyBits for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            fn ones(self) -> u32 {
                self.count_ones()
            }
            fn bit(self, i: u32) -> bool {
                self >> i & 1 == 1
            }
            fn top_bit(self) -> Option<u32> {
                (self != 0).then(|| <$t>::BITS - 1 - self.leading_zeros())
            }
        }
    };
}
key_bits!(u64);
key_bits!(u128);

/// Something that can be checked as a key.
pub trait AsKeyBits {
    /// The integer the key is made of.
    type Bits: KeyBits;
    /// The key's bits.
    fn bits(&self) -> Self::Bits;
}
impl AsKeyBits for Key {
    type Bits = u64;
    fn bits(&self) -> u64 {
        self.0
    }
}
impl AsKeyBits for Key128 {
    type Bits = u128;
    fn bits(&self) -> u128 {
        self.0
    }
}
impl AsKeyBits for u64 {
    type Bits = u64;
    fn bits(&self) -> u64 {
        *self
    }
}

/// What [`check`] found. Index lists are capped at 16 examples each; the counts are exact.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QualityReport {
    /// Number of keys checked.
    pub keys: usize,
    /// Width of a key in bits.
    pub bits: u32,
    /// Indices of keys equal to zero.
    pub zeros: Vec<usize>,
    /// Number of pairs of equal keys.
    pub duplicate_count: usize,
    /// Examples of equal pairs.
    pub duplicates: Vec<(usize, usize)>,
    /// Number of triples of distinct keys whose XOR is zero.
    pub triple_count: usize,
    /// Examples of such triples.
    pub triples: Vec<(usize, usize, usize)>,
    /// Number of pairs of disjoint pairs with equal XOR (four keys XOR to zero); `None` if skipped.
    pub quadruple_count: Option<usize>,
    /// Examples of such quadruples.
    pub quadruples: Vec<[usize; 4]>,
    /// Dimension of the span of the keys over GF(2).
    pub rank: u32,
    /// Smallest Hamming distance between two keys.
    pub min_distance: u32,
    /// Largest deviation, over all bit positions, of the share of keys with that bit set from one half.
    pub max_bit_bias: f64,
}

impl QualityReport {
    /// No zero key, no duplicate, no triple and no quadruple (when checked) that XORs to zero, and full rank.
    pub fn is_sound(&self) -> bool {
        self.zeros.is_empty()
            && self.duplicate_count == 0
            && self.triple_count == 0
            && self.quadruple_count.unwrap_or(0) == 0
            && self.rank == self.bits.min(self.keys as u32)
    }
}

impl fmt::Display for QualityReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "keys            {} of {} bits", self.keys, self.bits)?;
        writeln!(f, "zero keys       {}", self.zeros.len())?;
        writeln!(f, "duplicate pairs {}", self.duplicate_count)?;
        writeln!(f, "xor-zero triples {}", self.triple_count)?;
        match self.quadruple_count {
            Some(n) => writeln!(f, "xor-zero quads  {n}")?,
            None => writeln!(f, "xor-zero quads  not checked (more than {MAX_KEYS_FOR_QUADRUPLES} keys)")?,
        }
        writeln!(f, "GF(2) rank      {} (full: {})", self.rank, self.bits.min(self.keys as u32))?;
        writeln!(f, "min distance    {} bits", self.min_distance)?;
        writeln!(f, "max bit bias    {:.4}", self.max_bit_bias)?;
        write!(f, "verdict         {}", if self.is_sound() { "sound" } else { "DEFECTIVE" })
    }
}

const EXAMPLES: usize = 16;

/// Checks a key set for zero keys, duplicates, XOR-zero triples and quadruples, rank, distance and bias.
///
/// Cost: O(n²) time for triples and distance, O(n²) memory for quadruples (skipped above
/// [`MAX_KEYS_FOR_QUADRUPLES`] keys).
pub fn check<K: AsKeyBits>(keys: &[K]) -> QualityReport {
    let bits: Vec<K::Bits> = keys.iter().map(AsKeyBits::bits).collect();
    let n = bits.len();
    let mut report = QualityReport { keys: n, bits: K::Bits::BITS, ..Default::default() };

    report.zeros = (0..n).filter(|&i| bits[i] == K::Bits::ZERO).collect();

    let mut index: HashMap<K::Bits, Vec<usize>> = HashMap::with_capacity(n);
    for (i, &k) in bits.iter().enumerate() {
        index.entry(k).or_default().push(i);
    }
    for same in index.values().filter(|v| v.len() > 1) {
        for (a, &i) in same.iter().enumerate() {
            for &j in &same[a + 1..] {
                report.duplicate_count += 1;
                if report.duplicates.len() < EXAMPLES {
                    report.duplicates.push((i, j));
                }
            }
        }
    }
    report.duplicates.sort_unstable();

    // Triples: k_i ^ k_j == k_m with i < j < m.
    let mut min_distance = if n > 1 { K::Bits::BITS } else { 0 };
    for i in 0..n {
        for j in i + 1..n {
            let x = bits[i] ^ bits[j];
            min_distance = min_distance.min(x.ones());
            if let Some(ms) = index.get(&x) {
                for &m in ms.iter().filter(|&&m| m > j) {
                    report.triple_count += 1;
                    if report.triples.len() < EXAMPLES {
                        report.triples.push((i, j, m));
                    }
                }
            }
        }
    }
    report.min_distance = min_distance;

    if n <= MAX_KEYS_FOR_QUADRUPLES {
        let mut pairs: Vec<(K::Bits, u32, u32)> = Vec::with_capacity(n * n.saturating_sub(1) / 2);
        for i in 0..n {
            for j in i + 1..n {
                pairs.push((bits[i] ^ bits[j], i as u32, j as u32));
            }
        }
        pairs.sort_unstable();
        let mut count = 0;
        let mut start = 0;
        while start < pairs.len() {
            let mut end = start + 1;
            while end < pairs.len() && pairs[end].0 == pairs[start].0 {
                end += 1;
            }
            for a in start..end {
                for b in a + 1..end {
                    let (_, i, j) = pairs[a];
                    let (_, k, l) = pairs[b];
                    // Pairs sharing a key are triples or duplicates, counted above.
                    if i != k && i != l && j != k && j != l {
                        count += 1;
                        if report.quadruples.len() < EXAMPLES {
                            report.quadruples.push([i as usize, j as usize, k as usize, l as usize]);
                        }
                    }
                }
            }
            start = end;
        }
        report.quadruple_count = Some(count);
    }

    report.rank = rank(&bits);

    if n > 0 {
        report.max_bit_bias = (0..K::Bits::BITS)
            .map(|b| {
                let ones = bits.iter().filter(|k| k.bit(b)).count();
                (ones as f64 / n as f64 - 0.5).abs()
            })
            .fold(0.0, f64::max);
    }
    report
}

/// Rank over GF(2) by Gaussian elimination on a basis indexed by leading bit.
fn rank<B: KeyBits>(keys: &[B]) -> u32 {
    let mut basis: Vec<Option<B>> = vec![None; B::BITS as usize];
    let mut rank = 0;
    for &k in keys {
        let mut x = k;
        while let Some(top) = x.top_bit() {
            match basis[top as usize] {
                Some(b) => x = x ^ b,
                None => {
                    basis[top as usize] = Some(x);
                    rank += 1;
                    break;
                }
            }
        }
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_kind_of_defect() {
        let mut keys: Vec<u64> =
            crate::zobrist::ZobristKeys::<Key, 40>::generate(9).as_slice().iter().map(|k| k.0).collect();
        assert!(check(&keys).is_sound());
        keys[3] = 0;
        keys[5] = keys[4];
        keys[8] = keys[6] ^ keys[7];
        keys[13] = keys[10] ^ keys[11] ^ keys[12];
        let r = check(&keys);
        assert_eq!(r.zeros, vec![3]);
        assert_eq!(r.duplicate_count, 1);
        assert_eq!(r.duplicates, vec![(4, 5)]);
        assert!(r.triples.contains(&(6, 7, 8)));
        assert!(r.quadruple_count.unwrap() >= 1);
        assert!(!r.is_sound());
    }

    #[test]
    fn rank_counts_independent_keys() {
        assert_eq!(rank(&[1u64, 2, 3]), 2);
        assert_eq!(rank(&[1u64, 2, 4, 8]), 4);
        assert_eq!(rank::<u64>(&[]), 0);
    }

    #[test]
    fn wide_keys_are_checked_too() {
        let keys = crate::zobrist::ZobristKeys::<Key128, 200>::generate(5);
        let r = check(keys.as_slice());
        assert!(r.is_sound(), "{r}");
        assert_eq!(r.rank, 128);
    }
}
