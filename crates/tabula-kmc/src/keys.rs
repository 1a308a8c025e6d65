//! Zobrist keys for (site, species) pairs, generated at run time because the lattice size is only known then.
//!
//! Two independent key sets are drawn: the *primary* key identifies a state in the recall cache, the *check* key
//! is stored beside it in verify mode, so that two states sharing a primary key (a real 64-bit collision) are
//! told apart and counted. Both come from the core's [`SplitMix64`] with the fixed seeds [`PRIMARY_SEED`] and
//! [`CHECK_SEED`], in the same way as the core's `ZobristKeys::generate` (zero skipped): key
//! `site · kinds + species` is the next output of the generator. The vacancy is a species of its own (the last), so
//! a vacancy–atom exchange changes the key by exactly four XORs; [`ZobristTable::exchange`] gives them as one word
//! per key, two pairs XORed in advance.
//!
//! # Examples
//!
//! ```
//! use tabula_kmc::keys::ZobristTable;
//!
//! let table = ZobristTable::new(16, 3); // 16 sites, 2 species + the vacancy
//! let a = table.primary(5, 1);
//! assert_ne!(a, table.primary(5, 2));
//! assert_ne!(a, table.check(5, 1)); // the check set is independent
//! assert_eq!(a, ZobristTable::new(16, 3).primary(5, 1)); // and everything is deterministic
//! ```

use tabula::zobrist::{Key, Layout, SplitMix64};

/// Seed of the primary key set ("kmc-keys" in ASCII).
pub const PRIMARY_SEED: u64 = 0x6B6D_632D_6B65_7973;
/// Seed of the independent check key set used in verify mode ("kmc-chck" in ASCII).
pub const CHECK_SEED: u64 = 0x6B6D_632D_6368_636B;

/// `len` non-zero keys from [`SplitMix64`] started at `seed`, as the core's `ZobristKeys::generate` draws them.
pub fn generate_keys(len: usize, seed: u64) -> Vec<Key> {
    let mut rng = SplitMix64::new(seed);
    (0..len)
        .map(|_| loop {
            let k = rng.next();
            if k != 0 {
                break Key(k);
            }
        })
        .collect()
}

/// The primary and check keys of every (site, species) pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZobristTable {
    layout: Layout,
    primary: Vec<Key>,
    check: Vec<Key>,
    /// Per (site, species), both keys of the vacancy there XOR both keys of the species there: what a key changes by
    /// when the species takes the place of a vacancy on the site, or leaves one. Primary and check side by side, so
    /// that an exchange reads two pairs.
    vacate: Vec<(Key, Key)>,
}

impl ZobristTable {
    /// Keys for `sites` sites and `kinds` species (the vacancy included).
    /// The vacancy is the last species, `kinds − 1`.
    pub fn new(sites: usize, kinds: usize) -> Self {
        let layout = Layout::new(sites, kinds, 0);
        let primary = generate_keys(layout.len(), PRIMARY_SEED);
        let check = generate_keys(layout.len(), CHECK_SEED);
        let vacate = (0..layout.len())
            .map(|i| {
                let vacancy = i - i % kinds + kinds - 1;
                (primary[vacancy] ^ primary[i], check[vacancy] ^ check[i])
            })
            .collect();
        Self { layout, primary, check, vacate }
    }

    /// The layout: feature `(site, species)` has index `site · kinds + species`.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Primary key of `species` on `site`.
    #[inline(always)]
    pub fn primary(&self, site: usize, species: usize) -> Key {
        self.primary[self.layout.feature(site, species)]
    }

    /// Check key of `species` on `site`.
    #[inline(always)]
    pub fn check(&self, site: usize, species: usize) -> Key {
        self.check[self.layout.feature(site, species)]
    }

    /// What the (primary, check) keys change by when the vacancy on `vacancy_site` exchanges with the atom of
    /// `species` on `atom_site`: the four keys of each set XORed together.
    #[inline(always)]
    pub fn exchange(&self, vacancy_site: usize, atom_site: usize, species: usize) -> (Key, Key) {
        let there = self.vacate[self.layout.feature(vacancy_site, species)];
        let here = self.vacate[self.layout.feature(atom_site, species)];
        (there.0 ^ here.0, there.1 ^ here.1)
    }

    /// All primary keys, in layout order (for [`tabula::quality::check`]).
    pub fn primary_keys(&self) -> &[Key] {
        &self.primary
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_match_the_core_generator() {
        let core = tabula::zobrist::ZobristKeys::<Key, 300>::generate(PRIMARY_SEED);
        assert_eq!(generate_keys(300, PRIMARY_SEED), core.as_slice());
    }

    #[test]
    fn an_exchange_changes_each_key_by_its_four_keys() {
        let table = ZobristTable::new(10, 3);
        for (v, a, x) in [(0, 1, 0), (4, 9, 1), (7, 2, 1)] {
            let four = |k: &dyn Fn(usize, usize) -> Key| k(v, 2) ^ k(v, x) ^ k(a, x) ^ k(a, 2);
            let (primary, check) = table.exchange(v, a, x);
            assert_eq!(primary, four(&|s, k| table.primary(s, k)));
            assert_eq!(check, four(&|s, k| table.check(s, k)));
        }
    }

    #[test]
    fn key_sets_are_sound() {
        let table = ZobristTable::new(2 * 6 * 6 * 6, 3);
        let report = tabula::quality::check(table.primary_keys());
        assert!(report.is_sound(), "{report}");
    }
}
