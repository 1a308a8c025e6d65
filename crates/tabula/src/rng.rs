//! One seeded random number generator for the whole workspace: [`SplitMix64`] for the raw bits (also what
//! the Zobrist keys are drawn from, at compile time), and [`Rng`] over it for the everyday draws: a number
//! below a bound, a shuffle, a pick from a slice.
//!
//! The same seed gives the same numbers on every machine and in every release, so a random game, an opening
//! shuffle or a self-play run can be repeated from its seed. [`Rng::from_clock`] is for the few choices that
//! should differ from run to run (which book move to play).
//!
//! # Examples
//!
//! ```
//! use tabula::rng::Rng;
//!
//! let mut rng = Rng::new(42);
//! let roll = rng.below(6);
//! assert!(roll < 6);
//! assert_eq!(Rng::new(42).below(6), roll); // the seed fixes the sequence
//!
//! let mut cards = [1, 2, 3, 4, 5];
//! rng.shuffle(&mut cards);
//! cards.sort();
//! assert_eq!(cards, [1, 2, 3, 4, 5]);
//! assert!(rng.pick(&cards).is_some_and(|c| cards.contains(c)));
//! assert_eq!(rng.pick::<u8>(&[]), None);
//! ```

/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014):
/// `state += 0x9E3779B97F4A7C15`, then two xor-shift-multiply rounds. Every output is a bijection of the
/// state, so a run of outputs never repeats a value; usable in `const` contexts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started at `seed`.
    pub const fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub const fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// A seeded random number generator: [`SplitMix64`] with the draws games and tools need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(SplitMix64);

impl Rng {
    /// A generator started at `seed`: the same seed, the same numbers.
    pub const fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed))
    }

    /// A generator seeded from the system clock, for choices that should vary from run to run.
    pub fn from_clock() -> Rng {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos());
        Rng::new(nanos as u64 ^ (nanos >> 64) as u64)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next()
    }

    /// A number in `0..n` by multiply-and-shift (Lemire): no division, and a bias of at most `n / 2^64`.
    ///
    /// # Panics
    ///
    /// In debug builds, if `n` is zero.
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0, "below(0) has no answer");
        ((self.0.next() as u128 * n as u128) >> 64) as usize
    }

    /// A number in `[0, 1)` with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.0.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Puts `items` in a uniformly random order (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }

    /// A uniformly chosen element of `items`, or `None` if it is empty.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        (!items.is_empty()).then(|| &items[self.below(items.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_reference_outputs() {
        // Reference values of SplitMix64 seeded with 0 (as in the xoshiro authors' reference C code).
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next(), 0xe220a8397b1dcdaf);
        assert_eq!(rng.next(), 0x6e789e6aa1b965f4);
        assert_eq!(rng.next(), 0x06c45d188009454f);
    }

    #[test]
    fn draws_stay_in_range_and_cover_it() {
        let mut rng = Rng::new(3);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7)] += 1;
        }
        // Each face about 1,000 times: far outside 800..1200 would mean a broken reduction.
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        assert!((0..1000).map(|_| rng.unit()).all(|u| (0.0..1.0).contains(&u)));
    }

    #[test]
    fn shuffles_are_permutations_and_repeatable() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        Rng::new(9).shuffle(&mut a);
        Rng::new(9).shuffle(&mut b);
        assert_eq!(a, b);
        assert_ne!(a, (0..50).collect::<Vec<_>>());
        a.sort_unstable();
        assert_eq!(a, (0..50).collect::<Vec<_>>());
    }
}
