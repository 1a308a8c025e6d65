//! The state-recall cache: what was computed for a state (its energy and every event's rate), found again by the
//! state's Zobrist key.
//!
//! Layout: buckets of [`WAYS`] slots, as many as the bound holds; a key picks its bucket by the high bits of its
//! product with the number of buckets (a multiply and a shift, for any number) and may sit in any slot of it. A
//! bucket's keys and stamps fill one 64-byte cache line, so a probe that misses reads one line; each slot's record
//! lies in a second array:
//!
//! | where  | field    | type        | meaning                                                          |
//! |--------|----------|-------------|------------------------------------------------------------------|
//! | bucket | `key`    | `u64`       | the state's primary Zobrist key                                  |
//! | bucket | `stamp`  | `u64`       | clock when stored ([`Replacement::Oldest`]) or last used ([`Replacement::Lru`]); 0 = empty |
//! | record | `check`  | `u64`       | the independent check key (compared only in verify mode)         |
//! | record | `energy` | `i64`       | the state's energy in neV                                        |
//! | record | `rates`  | `[f64; events]` | the events' rates as the simulation keeps them (running sums in event order, the last the total) |
//!
//! The memory bound counts both: the number of buckets is the largest whose slots ([`StateCache::entry_bytes`]
//! each) fit in `mib` MiB. A fraction of one MiB is fine: recalls are mostly of recent states, and a cache that
//! stays in the processor's own caches probes faster.
//!
//! When a bucket is full the [`Replacement`] policy picks the slot to overwrite. In verify mode a slot whose
//! primary key matches but check key does not is a *collision*: two different states share 64 key bits; it is
//! counted and treated as a miss.
//!
//! # Examples
//!
//! ```
//! use tabula_kmc::cache::{Replacement, StateCache};
//!
//! let mut cache = StateCache::new(1.0, 8, true, Replacement::Lru).unwrap();
//! assert!(cache.lookup(42, 7).is_none());
//! let stored = cache.store(42, 7, -1_000, &[1.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0]);
//! let hit = cache.lookup(42, 7).unwrap();
//! assert_eq!((hit.energy, hit.rates[1]), (-1_000, 3.0));
//! assert_eq!(cache.probe(42, 7), Some(stored)); // the slot, to read without copying
//! assert_eq!(cache.rates(stored)[0], 1.0);
//! assert!(cache.lookup(42, 8).is_none()); // same key, different check key: a collision
//! assert_eq!((cache.counters().lookups, cache.counters().recalls, cache.counters().collisions), (4, 2, 1));
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;

/// Slots per bucket.
pub const WAYS: usize = 4;

/// Which slot of a full bucket a new state replaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Replacement {
    /// The least recently used (stored or recalled) slot: keeps the states the trajectory keeps coming back to.
    #[default]
    Lru,
    /// The slot stored longest ago, whatever its use since (first in, first out).
    Oldest,
}

impl fmt::Display for Replacement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Replacement::Lru => "lru",
            Replacement::Oldest => "oldest",
        })
    }
}

/// Counters of the cache's work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheCounters {
    /// Lookups made.
    pub lookups: u64,
    /// Lookups that returned a stored state.
    pub recalls: u64,
    /// Lookups whose primary key matched a slot holding a different state (verify mode only).
    pub collisions: u64,
    /// States stored.
    pub stores: u64,
    /// Stores that overwrote another state.
    pub evictions: u64,
}

impl CacheCounters {
    /// Share of lookups that recalled a state (0 when there were none).
    pub fn recall_rate(&self) -> f64 {
        share(self.recalls, self.lookups)
    }
}

/// `part` as a share of `whole`: 0 when `whole` is.
pub(crate) fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// The cache cannot be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{mib} MiB holds no bucket of {WAYS} states with {events} events each ({bytes} bytes per state)")]
pub struct CacheSizeError {
    /// The bound asked for.
    pub mib: f64,
    /// Events per state.
    pub events: usize,
    /// Bytes per state.
    pub bytes: usize,
}

/// The keys and stamps of one bucket: one cache line, so a probe that misses reads one line.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Bucket {
    keys: [u64; WAYS],
    /// 0 = empty.
    stamps: [u64; WAYS],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

impl Bucket {
    /// The way holding `key`, if any. The ways are compared all at once rather than in a loop that stops at the
    /// match: where a recalled state sits is random, and a loop's exit would be a branch mispredicted that often.
    /// Only the keys are compared: an empty way's key is 0, so the stamps (0 when empty) are looked at only for
    /// the key 0.
    #[inline]
    fn find(&self, key: u64) -> Option<usize> {
        let mut matches = (0..WAYS).fold(0u32, |m, w| m | u32::from(self.keys[w] == key) << w);
        if key == 0 {
            matches &= (0..WAYS).fold(0u32, |m, w| m | u32::from(self.stamps[w] != 0) << w);
        }
        (matches != 0).then(|| matches.trailing_zeros() as usize)
    }
}

/// Words of a slot's record before its rates: check key and energy (as `f64` bit patterns).
const HEADER: usize = 2;

/// A recalled state: a copy of its energy, and its rates in the cache.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recalled<'a> {
    /// Energy in neV.
    pub energy: i64,
    /// The rates as stored, in the event order.
    pub rates: &'a [f64],
}

/// Where a state is held: valid until the next [`StateCache::store`], which may overwrite it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot(usize);

/// A bounded table of computed states, keyed by Zobrist key.
#[derive(Clone, Debug)]
pub struct StateCache {
    buckets: Vec<Bucket>,
    /// Per slot, `HEADER + events` words: check and energy, then the rates, contiguous so that a
    /// recall or a store touches one short run of memory. Integers are kept as `f64` bit patterns, which
    /// moves do not alter.
    records: Vec<f64>,
    events: usize,
    /// Number of buckets.
    count: usize,
    verify: bool,
    policy: Replacement,
    clock: u64,
    occupied: usize,
    counters: CacheCounters,
}

impl StateCache {
    /// Bytes one state takes: its key, stamp, check key, energy and rates.
    pub const fn entry_bytes(events: usize) -> usize {
        std::mem::size_of::<Bucket>() / WAYS + (HEADER + events) * std::mem::size_of::<f64>()
    }

    /// A cache of at most `mib` MiB for states with `events` events each.
    ///
    /// # Errors
    ///
    /// [`CacheSizeError`] if `mib` MiB cannot hold one bucket.
    pub fn new(mib: f64, events: usize, verify: bool, policy: Replacement) -> Result<Self, CacheSizeError> {
        let bytes = Self::entry_bytes(events);
        // A float-to-integer cast saturates (and takes NaN to 0), so any `mib` gives a count or the error below.
        let fit = (mib * (1 << 20) as f64) as usize / (bytes * WAYS);
        if fit == 0 {
            return Err(CacheSizeError { mib, events, bytes });
        }
        Ok(Self {
            buckets: vec![Bucket::default(); fit],
            records: vec![0.0; fit * WAYS * (HEADER + events)],
            events,
            count: fit,
            verify,
            policy,
            clock: 0,
            occupied: 0,
            counters: CacheCounters::default(),
        })
    }

    /// The bucket of `key`.
    #[inline(always)]
    fn bucket_of(&self, key: u64) -> usize {
        ((u128::from(key) * self.count as u128) >> 64) as usize
    }

    /// Number of states the cache can hold.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * WAYS
    }

    /// Number of states held.
    pub fn len(&self) -> usize {
        self.occupied
    }

    /// Whether no state is held.
    pub fn is_empty(&self) -> bool {
        self.occupied == 0
    }

    /// Bytes allocated for buckets and records.
    pub fn memory_bytes(&self) -> usize {
        self.capacity() * Self::entry_bytes(self.events)
    }

    /// The counters so far.
    pub fn counters(&self) -> CacheCounters {
        self.counters
    }

    /// Events per state.
    pub fn events(&self) -> usize {
        self.events
    }

    /// Whether check keys are compared.
    pub fn verifies(&self) -> bool {
        self.verify
    }

    /// The slot of the state stored under `key` (and `check`, in verify mode), if any; counted as a lookup.
    #[inline]
    pub fn probe(&mut self, key: u64, check: u64) -> Option<Slot> {
        self.counters.lookups += 1;
        self.clock += 1;
        let b = self.bucket_of(key);
        let bucket = &mut self.buckets[b];
        let way = bucket.find(key)?;
        let slot = b * WAYS + way;
        if self.verify && self.records[slot * (HEADER + self.events)].to_bits() != check {
            self.counters.collisions += 1;
            return None;
        }
        if self.policy == Replacement::Lru {
            bucket.stamps[way] = self.clock;
        }
        self.counters.recalls += 1;
        Some(Slot(slot))
    }

    /// The energy held in `slot`.
    #[inline]
    pub fn energy(&self, slot: Slot) -> i64 {
        self.records[slot.0 * (HEADER + self.events) + 1].to_bits() as i64
    }

    /// The rates held in `slot`.
    #[inline]
    pub fn rates(&self, slot: Slot) -> &[f64] {
        let start = slot.0 * (HEADER + self.events) + HEADER;
        &self.records[start..start + self.events]
    }

    /// The state stored under `key` (and `check`, in verify mode), if any: [`StateCache::probe`] and a read.
    #[inline]
    pub fn lookup(&mut self, key: u64, check: u64) -> Option<Recalled<'_>> {
        let slot = self.probe(key, check)?;
        Some(Recalled { energy: self.energy(slot), rates: self.rates(slot) })
    }

    /// Stores a state, replacing a slot with the same key, else an empty slot, else the policy's victim; returns
    /// its slot.
    ///
    /// # Panics
    ///
    /// If `rates` does not hold exactly the cache's number of events.
    pub fn store(&mut self, key: u64, check: u64, energy: i64, rates: &[f64]) -> Slot {
        assert_eq!(rates.len(), self.events, "a state has {} events", self.events);
        self.clock += 1;
        self.counters.stores += 1;
        let b = self.bucket_of(key);
        let bucket = &mut self.buckets[b];
        let way = bucket.find(key).or_else(|| (0..WAYS).find(|&w| bucket.stamps[w] == 0)).unwrap_or_else(|| {
            self.counters.evictions += 1;
            (0..WAYS).min_by_key(|&w| bucket.stamps[w]).expect("WAYS > 0")
        });
        if bucket.stamps[way] == 0 {
            self.occupied += 1;
        }
        bucket.keys[way] = key;
        bucket.stamps[way] = self.clock;
        let slot = b * WAYS + way;
        let stride = HEADER + self.events;
        let record = &mut self.records[slot * stride..(slot + 1) * stride];
        record[0] = f64::from_bits(check);
        record[1] = f64::from_bits(energy as u64);
        record[HEADER..].copy_from_slice(rates);
        Slot(slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_bound_is_respected() {
        for mib in [1, 3, 64] {
            let bound = mib << 20;
            for events in [6, 8, 12, 24] {
                let c = StateCache::new(mib as f64, events, false, Replacement::Lru).unwrap();
                assert!(c.memory_bytes() <= bound);
                assert!(
                    c.memory_bytes() + WAYS * StateCache::entry_bytes(events) > bound,
                    "one more bucket would not fit"
                );
                assert_eq!(c.capacity() % WAYS, 0);
            }
        }
        assert!(StateCache::new(0.0, 8, false, Replacement::Lru).is_err());
    }

    #[test]
    fn full_bucket_evicts_by_policy() {
        let rates = [0.5; 8];
        for policy in [Replacement::Lru, Replacement::Oldest] {
            let mut c = StateCache::new(1.0, 8, false, policy).unwrap();
            // Five keys in bucket 0 (the smallest keys go there): the fifth evicts one.
            for k in 0..WAYS as u64 {
                c.store(k, 0, k as i64, &rates);
            }
            assert!(c.lookup(0, 0).is_some()); // key 0 is now the most recently used
            c.store(WAYS as u64, 0, 9, &rates);
            assert_eq!(c.counters().evictions, 1);
            assert_eq!(c.len(), WAYS);
            let zero_survived = c.lookup(0, 0).is_some();
            let one_survived = c.lookup(1, 0).is_some();
            match policy {
                Replacement::Lru => assert!(zero_survived && !one_survived),
                Replacement::Oldest => assert!(!zero_survived && one_survived),
            }
        }
    }

    #[test]
    fn counters_add_up_and_collisions_need_verify() {
        let rates = [1.0; 6];
        let mut plain = StateCache::new(1.0, 6, false, Replacement::Lru).unwrap();
        let mut verify = StateCache::new(1.0, 6, true, Replacement::Lru).unwrap();
        for c in [&mut plain, &mut verify] {
            c.store(5, 1, 0, &rates);
            c.lookup(5, 1);
            c.lookup(5, 2);
            c.lookup(6, 1);
        }
        let (p, v) = (plain.counters(), verify.counters());
        assert_eq!((p.lookups, p.recalls, p.collisions, p.stores), (3, 2, 0, 1));
        assert_eq!((v.lookups, v.recalls, v.collisions, v.stores), (3, 1, 1, 1));
        assert!((v.recall_rate() - 1.0 / 3.0).abs() < 1e-12);
        // Storing the same key again replaces, it does not grow the cache.
        verify.store(5, 2, 0, &rates);
        assert_eq!(verify.len(), 1);
    }
}
