//! A lock-free transposition table of cache-line buckets, shared by any number of search threads.
//!
//! # Layout
//!
//! The table is an array of [`BUCKET_ENTRIES`] = 4-entry buckets of 64 bytes, aligned to a cache line, so a probe
//! touches one line. The entries are an anonymous memory mapping of their own rather than a heap allocation: it
//! goes back to the system when the table is dropped (tables made one after another do not pile up in the
//! allocator's heap), and from 2 MiB up it is aligned to 2 MiB and, on Linux, advised to be backed by huge pages. A
//! probe is a random access the size of the table away; on 4 KiB pages it also misses the processor's address-
//! translation cache and walks the page tables, while a 16 MiB table on 2 MiB pages needs eight translations, which
//! stay cached (on the comparison with minimax-rs, 0.9 times the search time). Every page is touched when the table
//! is made, so that no search pays for its first use. A key picks its bucket by multiply-high (`key * buckets >>
//! 64`), so any size works, not only powers of two. Each entry is two 64-bit words:
//!
//! | word    | bits   | field                                                          |
//! |---------|--------|----------------------------------------------------------------|
//! | `check` | 0..64  | the full key XOR `data` (Hyatt–Mann lockless check)            |
//! | `data`  | 0..16  | best move: the game's move code + 1, 0 for none                |
//! | `data`  | 16..32 | score (`i16`), decisive scores relative to the node            |
//! | `data`  | 32..48 | static evaluation (`i16`), `i16::MIN` for none                 |
//! | `data`  | 48..56 | depth in plies (`u8`)                                          |
//! | `data`  | 56..58 | bound: 0 empty, 1 upper, 2 lower, 3 exact                      |
//! | `data`  | 58     | proven: the score holds at any depth (the search that wrote it reached the end of every line) |
//! | `data`  | 59..64 | generation (age) of the search that wrote it, modulo 32        |
//!
//! Threads read and write the two words with relaxed atomics, so there is no data race and no `unsafe`. A
//! reader accepts an entry only if `check ^ data` equals its key; an entry torn by two concurrent writers
//! (the check of one, the data of another) fails that test and is treated as a miss.
//!
//! # Replacement
//!
//! A store goes to the entry already holding the key if there is one, else to an empty entry, else to the
//! entry with the lowest `depth - 8 × age`, where age is how many searches ago it was written: deeper and
//! newer entries survive. An entry for the same key is overwritten unless the new result is shallower by more
//! than [`KEEP_DEPTH_MARGIN`] plies from the same search and not exact; a new result without a move keeps
//! the old move.
//!
//! # Examples
//!
//! ```
//! use tabula::tt::{Bound, Record, TranspositionTable};
//! use tabula::zobrist::Key;
//!
//! let table = TranspositionTable::new(1);
//! let key = Key(0x1234_5678_9abc_def0);
//! let probe = table.probe(key, 0);
//! assert!(probe.hit.is_none());
//! let record = Record { depth: 7, bound: Bound::Exact, score: 25, eval: None, move_code: Some(3), proven: false };
//! table.store(probe.slot, key, 0, record);
//! let hit = table.probe(key, 0).hit.unwrap();
//! assert_eq!((hit.depth, hit.score, hit.bound, hit.move_code), (7, 25, Bound::Exact, Some(3)));
//! ```

use crate::score::{self, Score};
use crate::zobrist::Key;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// Entries per bucket.
pub const BUCKET_ENTRIES: usize = 4;
/// A same-key entry deeper than the new result by more than this many plies is kept (unless the new one is
/// exact or the old one is from an earlier search).
pub const KEEP_DEPTH_MARGIN: u8 = 3;
/// Generations wrap at this value.
const GENERATIONS: u8 = 32;
/// The first bit of the generation in `data`.
const GENERATION_SHIFT: u32 = 59;
/// The proven flag in `data`.
const PROVEN: u64 = 1 << 58;

/// What kind of bound a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The true score is at most the stored score (all moves failed low).
    Upper = 1,
    /// The true score is at least the stored score (a move failed high).
    Lower = 2,
    /// The stored score is the true score at the stored depth.
    Exact = 3,
}

impl Bound {
    /// The bound a fail-soft search result `score` is for the window (`alpha`, `beta`) it was searched with:
    /// at least `beta` a lower bound, at most `alpha` an upper bound, strictly inside exact.
    pub fn of(score: Score, alpha: Score, beta: Score) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    fn from_bits(bits: u64) -> Option<Bound> {
        match bits & 3 {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// A search result: what [`TranspositionTable::store`] writes and, from the entry, what a probe finds
/// ([`Probe::hit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Depth in plies the score was searched to.
    pub depth: u8,
    /// What kind of bound the score is.
    pub bound: Bound,
    /// The score, from the side to move's point of view, at the storing ply (in a probe's hit, converted to
    /// the probing ply).
    pub score: Score,
    /// The static evaluation, if known.
    pub eval: Option<Score>,
    /// The best move's code, if any (a new result without one keeps the stored move).
    pub move_code: Option<u16>,
    /// Whether the score holds at any depth: the search that stored it reached the end of every line it
    /// looked at (no horizon, no pruning that guesses).
    pub proven: bool,
}

impl Record {
    /// The record of a node searched `depth` plies deep within the window (`alpha`, `beta`) that scored `score`:
    /// the bound follows from where the score fell ([`Bound::of`]), the best move is kept unless the node failed
    /// low (an upper bound has no best move), and no evaluation is stored.
    #[inline(always)]
    pub fn searched(
        depth: i32,
        score: Score,
        alpha: Score,
        beta: Score,
        move_code: Option<u16>,
        proven: bool,
    ) -> Record {
        let bound = Bound::of(score, alpha, beta);
        Record {
            depth: depth.clamp(0, 255) as u8,
            bound,
            score,
            eval: None,
            move_code: move_code.filter(|_| bound != Bound::Upper),
            proven,
        }
    }

    /// Whether the stored score settles a search of the window (`alpha`, `beta`) by itself: exact, a lower
    /// bound at or above `beta`, or an upper bound at or below `alpha` (depth not considered).
    pub fn decides(&self, alpha: Score, beta: Score) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }

    /// Whether the score answers a search `depth` plies deep: searched at least that deep, or proven.
    #[inline(always)]
    pub fn reaches(&self, depth: i32) -> bool {
        self.proven || self.depth as i32 >= depth
    }
}

/// [`Slot::entry`] of a probe that missed: the store picks the entry to replace.
const CHOOSE_AT_STORE: usize = usize::MAX;

/// Where a probe would write: a bucket and an entry in it (or, after a miss, the bucket only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    bucket: usize,
    entry: usize,
}

/// The answer to [`TranspositionTable::probe`].
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    /// The entry for the key, if the table holds one, its score converted to the probing ply.
    pub hit: Option<Record>,
    /// Where to store a result for the key.
    pub slot: Slot,
}

/// An entry. All-zero bytes are a valid entry, the empty one.
struct AtomicEntry {
    check: AtomicU64,
    data: AtomicU64,
}

/// The size of a huge page on the systems that have them by default (x86-64 and AArch64 Linux).
const HUGE_PAGE: usize = 2 << 20;
/// The size of a small page, at most.
const SMALL_PAGE: usize = 4 << 10;

/// The table's memory: `len` zeroed entries in an anonymous mapping of their own, aligned to a cache line,
/// and to [`HUGE_PAGE`] when that large, with huge pages advised on Linux. Every page is touched when the
/// table is made, so that a search does not pay for the system's zeroing of them.
struct Entries {
    /// The mapping, kept for its lifetime: unmapped on drop.
    _map: memmap2::MmapMut,
    first: std::ptr::NonNull<AtomicEntry>,
    len: usize,
}

// SAFETY: `Entries` owns its mapping as a `Box<[AtomicEntry]>` owns its memory and hands out only shared
// references to entries, which are atomics: sending or sharing it is as sound as for a boxed slice of atomics.
unsafe impl Send for Entries {}
// SAFETY: as above.
unsafe impl Sync for Entries {}

impl Entries {
    /// `len` empty entries. Panics if the system has no memory for them, naming the size.
    fn zeroed(len: usize) -> Self {
        let bytes = len.checked_mul(std::mem::size_of::<AtomicEntry>()).expect("the table's size fits in memory");
        let align = if bytes >= HUGE_PAGE { HUGE_PAGE } else { BUCKET_BYTES };
        let mut map = memmap2::MmapOptions::new()
            .len(bytes + align)
            .map_anon()
            .unwrap_or_else(|e| panic!("cannot map {bytes} bytes for the transposition table: {e}"));
        let start = map.as_ptr().align_offset(align);
        #[cfg(target_os = "linux")]
        if align == HUGE_PAGE {
            // Advice only: without transparent huge pages the table works the same on small pages.
            let _ = map.advise_range(memmap2::Advice::HugePage, start, bytes);
        }
        for page in map[start..start + bytes].chunks_mut(SMALL_PAGE) {
            page[0] = 0;
        }
        // From the mutable view, so that the atomics may write through it; `start` is below `align`.
        let first = std::ptr::NonNull::new(map.as_mut_ptr().wrapping_add(start).cast::<AtomicEntry>())
            .expect("a mapping is not at address zero");
        Entries { _map: map, first, len }
    }
}

impl std::ops::Deref for Entries {
    type Target = [AtomicEntry];

    #[inline(always)]
    fn deref(&self) -> &[AtomicEntry] {
        // SAFETY: `first` points into the mapping, which lives as long as `self` and holds `len` entries past
        // it (it is `align` bytes longer than they need, and they start below `align`); it is aligned for
        // `AtomicEntry` (16 divides 64); the bytes were zero, a valid entry, and are written only through the
        // atomics, so shared references to them are sound.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }
}

/// A bucket: entries that share a cache line.
type Bucket = [AtomicEntry; BUCKET_ENTRIES];
/// The size of a bucket and of a cache line.
const BUCKET_BYTES: usize = 64;

const _: () = assert!(std::mem::size_of::<AtomicEntry>() == 16);
const _: () = assert!(std::mem::size_of::<Bucket>() == BUCKET_BYTES);

/// Counts of table operations. The default, [`NoCounters`], compiles to nothing.
pub trait TableCounters: Default + Send + Sync {
    /// A probe was made.
    fn probe(&self) {}
    /// A probe found its key.
    fn hit(&self) {}
    /// A store was made.
    fn store(&self) {}
    /// A store evicted a valid entry of another key.
    fn overwrite(&self) {}
    /// The counts so far.
    fn snapshot(&self) -> CounterSnapshot {
        CounterSnapshot::default()
    }
    /// Sets the counts to zero.
    fn reset(&self) {}
}

/// Counter values at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CounterSnapshot {
    /// Probes made.
    pub probes: u64,
    /// Probes that found their key.
    pub hits: u64,
    /// Stores made.
    pub stores: u64,
    /// Stores that evicted another key's valid entry.
    pub overwrites: u64,
}

/// No counting at all.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoCounters;
impl TableCounters for NoCounters {}

/// Relaxed atomic counters.
#[derive(Debug, Default)]
pub struct AtomicCounters {
    probes: AtomicU64,
    hits: AtomicU64,
    stores: AtomicU64,
    overwrites: AtomicU64,
}

impl TableCounters for AtomicCounters {
    fn probe(&self) {
        self.probes.fetch_add(1, Relaxed);
    }
    fn hit(&self) {
        self.hits.fetch_add(1, Relaxed);
    }
    fn store(&self) {
        self.stores.fetch_add(1, Relaxed);
    }
    fn overwrite(&self) {
        self.overwrites.fetch_add(1, Relaxed);
    }
    fn snapshot(&self) -> CounterSnapshot {
        CounterSnapshot {
            probes: self.probes.load(Relaxed),
            hits: self.hits.load(Relaxed),
            stores: self.stores.load(Relaxed),
            overwrites: self.overwrites.load(Relaxed),
        }
    }
    fn reset(&self) {
        for c in [&self.probes, &self.hits, &self.stores, &self.overwrites] {
            c.store(0, Relaxed);
        }
    }
}

/// The transposition table. See the [module documentation](self) for the layout and replacement policy.
pub struct TranspositionTable<C: TableCounters = NoCounters> {
    /// The entries, `BUCKET_ENTRIES` per bucket.
    entries: Entries,
    buckets: usize,
    generation: AtomicU8,
    counters: C,
}

const NO_EVAL: i16 = i16::MIN;

#[inline(always)]
fn pack(record: &Record, score: Score, generation: u8) -> u64 {
    let mv = record.move_code.map_or(0, |c| c as u64 + 1) & 0xFFFF;
    let score = score as i16 as u16 as u64;
    let eval = record.eval.map_or(NO_EVAL, |e| e as i16) as u16 as u64;
    let proven = if record.proven { PROVEN } else { 0 };
    mv | score << 16
        | eval << 32
        | (record.depth as u64) << 48
        | (record.bound as u64) << 56
        | proven
        | (generation as u64) << GENERATION_SHIFT
}

#[inline(always)]
fn unpack(data: u64, ply: u32) -> Option<Record> {
    let bound = Bound::from_bits(data >> 56)?;
    let mv = (data & 0xFFFF) as u16;
    let eval = (data >> 32) as u16 as i16;
    Some(Record {
        depth: (data >> 48) as u8,
        bound,
        score: score::from_table((data >> 16) as u16 as i16 as Score, ply),
        eval: (eval != NO_EVAL).then_some(eval as Score),
        move_code: (mv != 0).then(|| mv - 1),
        proven: data & PROVEN != 0,
    })
}

impl TranspositionTable<NoCounters> {
    /// A table of `mib` mebibytes (at least one bucket), without counters.
    pub fn new(mib: usize) -> Self {
        Self::with_counters(mib)
    }
}

impl<C: TableCounters> TranspositionTable<C> {
    /// A table of `mib` mebibytes (at least one bucket), with counters of type `C`.
    pub fn with_counters(mib: usize) -> Self {
        Self::with_buckets(Self::buckets_for(mib))
    }

    /// A table of exactly `buckets` buckets (at least one).
    pub fn with_buckets(buckets: usize) -> Self {
        let buckets = buckets.max(1);
        let entries = Entries::zeroed(buckets * BUCKET_ENTRIES);
        Self { entries, buckets, generation: AtomicU8::new(0), counters: C::default() }
    }

    fn buckets_for(mib: usize) -> usize {
        (mib.saturating_mul(1 << 20) / BUCKET_BYTES).max(1)
    }

    /// Bucket `index` (below `self.buckets`).
    #[inline(always)]
    fn bucket(&self, index: usize) -> &Bucket {
        let start = index * BUCKET_ENTRIES;
        self.entries[start..start + BUCKET_ENTRIES].try_into().expect("a bucket is BUCKET_ENTRIES entries")
    }

    /// Resizes to `mib` mebibytes; the table is empty afterwards.
    pub fn resize(&mut self, mib: usize) {
        *self = Self::with_buckets(Self::buckets_for(mib));
    }

    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.buckets * BUCKET_BYTES
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.buckets * BUCKET_ENTRIES
    }

    /// Empties the table and resets the generation and the counters.
    pub fn clear(&self) {
        for e in self.entries.iter() {
            e.check.store(0, Relaxed);
            e.data.store(0, Relaxed);
        }
        self.generation.store(0, Relaxed);
        self.counters.reset();
    }

    /// Starts a new search: entries written from now on are one generation newer.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation.store((g + 1) % GENERATIONS, Relaxed);
    }

    /// The current generation.
    pub fn generation(&self) -> u8 {
        self.generation.load(Relaxed)
    }

    /// The counters.
    pub fn counters(&self) -> &C {
        &self.counters
    }

    #[inline(always)]
    fn bucket_index(&self, key: Key) -> usize {
        ((key.0 as u128 * self.buckets as u128) >> 64) as usize
    }

    /// Hints the processor to fetch `key`'s bucket into cache. Cheap; call it as soon as a key is known, so
    /// that several probes' memory latencies overlap.
    #[inline(always)]
    pub fn prefetch(&self, key: Key) {
        let bucket: *const Bucket = self.bucket(self.bucket_index(key));
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch never faults and does not change program state; the pointer is in bounds anyway.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(bucket.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    /// Looks `key` up. `ply` is the distance from the root, to convert decisive scores.
    #[inline]
    pub fn probe(&self, key: Key, ply: u32) -> Probe {
        self.counters.probe();
        let index = self.bucket_index(key);
        let bucket = self.bucket(index);
        for (i, e) in bucket.iter().enumerate() {
            let data = e.data.load(Relaxed);
            // An empty entry has no bound, so `data` is 0 and no key can match it.
            if data != 0 && e.check.load(Relaxed) ^ data == key.0 {
                self.counters.hit();
                return Probe { hit: unpack(data, ply), slot: Slot { bucket: index, entry: i } };
            }
        }
        // The entry to replace is chosen when (and if) a result is stored.
        Probe { hit: None, slot: Slot { bucket: index, entry: CHOOSE_AT_STORE } }
    }

    /// The entry a new key replaces: an empty one, else the one with the lowest `depth - 8 × age`. (The key
    /// itself may have arrived in the bucket since the probe missed it, from another thread or a transposition
    /// within the search; it is rare, and a second entry for a key is harmless, so it is not looked for.)
    #[inline]
    fn victim(&self, bucket: &Bucket) -> usize {
        let generation = self.generation();
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, e) in bucket.iter().enumerate() {
            let data = e.data.load(Relaxed);
            if data == 0 {
                return i;
            }
            let age = generation.wrapping_sub((data >> GENERATION_SHIFT) as u8) % GENERATIONS;
            let worth = (data >> 48 & 0xFF) as i32 - 8 * age as i32;
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        victim
    }

    /// Stores a result for `key` in `slot` (from a probe of the same key). `ply` converts wins and losses in
    /// plies to the node.
    #[inline]
    pub fn store(&self, slot: Slot, key: Key, ply: u32, record: Record) {
        debug_assert!(record.score.abs() < score::INFINITY);
        let Record { depth, bound, score, .. } = record;
        let bucket = self.bucket(slot.bucket);
        let entry = if slot.entry == CHOOSE_AT_STORE { self.victim(bucket) } else { slot.entry };
        let e = &bucket[entry];
        let old_data = e.data.load(Relaxed);
        let old_check = e.check.load(Relaxed);
        let generation = self.generation();
        let old_bound = old_data >> 56 & 3;
        let mut record = record;
        if old_bound != 0 && old_check ^ old_data == key.0 {
            // Same position: keep a deeper result from this search unless the new one is exact or proven.
            let old_depth = (old_data >> 48) as u8;
            let old_generation = (old_data >> GENERATION_SHIFT) as u8;
            if bound != Bound::Exact
                && !record.proven
                && old_generation == generation
                && old_depth > depth.saturating_add(KEEP_DEPTH_MARGIN)
            {
                return;
            }
            if record.move_code.is_none() && old_data & 0xFFFF != 0 {
                record.move_code = Some((old_data & 0xFFFF) as u16 - 1);
            }
        } else if old_bound != 0 {
            self.counters.overwrite();
        }
        self.counters.store();
        let data = pack(&record, score::to_table(score, ply), generation);
        e.data.store(data, Relaxed);
        e.check.store(key.0 ^ data, Relaxed);
    }

    /// Permille of a sample of entries that were written by the current search (as UCI's `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.min(1000 / BUCKET_ENTRIES);
        let generation = self.generation();
        let used: usize = (0..sample)
            .flat_map(|b| self.bucket(b).iter())
            .filter(|e| {
                let d = e.data.load(Relaxed);
                d >> 56 & 3 != 0 && (d >> GENERATION_SHIFT) as u8 == generation
            })
            .count();
        (used * 1000 / (sample * BUCKET_ENTRIES)) as u32
    }
}

impl<C: TableCounters> std::fmt::Debug for TranspositionTable<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("buckets", &self.buckets)
            .field("generation", &self.generation())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{loss_in, win_in};
    use std::sync::atomic::AtomicBool;

    fn rec(depth: u8, bound: Bound, score: Score, eval: Option<Score>, move_code: Option<u16>) -> Record {
        Record { depth, bound, score, eval, move_code, proven: false }
    }

    /// Keys that all land in bucket 0 of a one-bucket table.
    fn key(i: u64) -> Key {
        Key(i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    #[test]
    fn any_size_in_mib_and_hashfull() {
        for mib in [1, 3, 5] {
            let t = TranspositionTable::new(mib);
            assert_eq!(t.size_bytes(), mib << 20);
            assert_eq!(t.hashfull(), 0);
        }
        let t = TranspositionTable::new(1);
        for i in 0..100_000 {
            let k = key(i);
            let p = t.probe(k, 0);
            t.store(p.slot, k, 0, rec(1, Bound::Exact, 0, None, None));
        }
        assert!(t.hashfull() > 900, "{}", t.hashfull());
        t.new_search();
        assert_eq!(t.hashfull(), 0, "hashfull counts only the current generation");
        t.clear();
        assert!((0..100).all(|i| t.probe(key(i), 0).hit.is_none()));
    }

    #[test]
    fn buckets_start_on_cache_lines() {
        for buckets in [1, 3, 1000] {
            let t: TranspositionTable = TranspositionTable::with_buckets(buckets);
            for b in [0, buckets / 2, buckets - 1] {
                assert_eq!(t.bucket(b).as_ptr() as usize % BUCKET_BYTES, 0);
            }
        }
    }

    #[test]
    fn fields_round_trip() {
        let t = TranspositionTable::new(1);
        let k = key(5);
        for (score, eval, mv) in [(-31_000, Some(-5), Some(0)), (123, None, None), (0, Some(31_999), Some(65_534))] {
            let p = t.probe(k, 0);
            t.store(p.slot, k, 0, rec(200, Bound::Lower, score, eval, mv));
            let e = t.probe(k, 0).hit.unwrap();
            assert_eq!((e.depth, e.bound, e.score, e.eval), (200, Bound::Lower, score, eval));
            if mv.is_some() {
                assert_eq!(e.move_code, mv);
            }
        }
    }

    #[test]
    fn proven_flag_round_trips_and_outlives_a_shallower_result() {
        let t: TranspositionTable = TranspositionTable::with_buckets(1);
        let k = key(3);
        let p = t.probe(k, 0);
        t.store(p.slot, k, 0, Record { proven: true, ..rec(2, Bound::Upper, -7, None, None) });
        let e = t.probe(k, 0).hit.unwrap();
        assert!(e.proven && e.reaches(40) && !rec_entry_reaches(&e));
        let p = t.probe(k, 0);
        t.store(p.slot, k, 0, rec(9, Bound::Lower, 3, None, None));
        assert!(!t.probe(k, 0).hit.unwrap().proven);
    }

    fn rec_entry_reaches(e: &Record) -> bool {
        Record { proven: false, ..*e }.reaches(3)
    }

    #[test]
    fn mate_scores_round_trip_across_plies() {
        let t = TranspositionTable::new(1);
        let k = key(9);
        // A win 3 plies below a node at ply 10 is a win at ply 13 from the root.
        let p = t.probe(k, 10);
        t.store(p.slot, k, 10, rec(5, Bound::Exact, win_in(13), None, None));
        assert_eq!(t.probe(k, 10).hit.unwrap().score, win_in(13));
        // Read at ply 4 (a transposition nearer the root), the same node is 3 plies from the win.
        assert_eq!(t.probe(k, 4).hit.unwrap().score, win_in(7));
        let p = t.probe(k, 2);
        t.store(p.slot, k, 2, rec(9, Bound::Exact, loss_in(8), None, None));
        assert_eq!(t.probe(k, 20).hit.unwrap().score, loss_in(26));
    }

    #[test]
    fn replacement_prefers_deeper_and_newer() {
        let t: TranspositionTable = TranspositionTable::with_buckets(1);
        // Fill the bucket with depths 10, 2, 7, 5.
        for (i, d) in [(1, 10), (2, 2), (3, 7), (4, 5)] {
            let p = t.probe(key(i), 0);
            t.store(p.slot, key(i), 0, rec(d, Bound::Exact, 0, None, None));
        }
        // A fifth key replaces the shallowest (depth 2).
        let p = t.probe(key(5), 0);
        t.store(p.slot, key(5), 0, rec(1, Bound::Exact, 0, None, None));
        assert!(t.probe(key(2), 0).hit.is_none());
        assert!([1, 3, 4, 5].iter().all(|&i| t.probe(key(i), 0).hit.is_some()));
        // Two searches later the old entries are worth depth - 16: the depth-10 one (-6) outlives the
        // others but goes before any new entry, even a depth-1 one.
        t.new_search();
        t.new_search();
        for i in 6..=8 {
            let p = t.probe(key(i), 0);
            t.store(p.slot, key(i), 0, rec(1, Bound::Exact, 0, None, None));
        }
        assert!(t.probe(key(1), 0).hit.is_some(), "the deepest old entry goes last");
        let p = t.probe(key(9), 0);
        t.store(p.slot, key(9), 0, rec(1, Bound::Exact, 0, None, None));
        assert!(t.probe(key(1), 0).hit.is_none(), "old deep entries age out");
        assert!((6..=9).all(|i| t.probe(key(i), 0).hit.is_some()));
    }

    #[test]
    fn same_key_keeps_deeper_result_and_old_move() {
        let t: TranspositionTable = TranspositionTable::with_buckets(1);
        let k = key(1);
        let p = t.probe(k, 0);
        t.store(p.slot, k, 0, rec(12, Bound::Lower, 50, None, Some(7)));
        let p = t.probe(k, 0);
        t.store(p.slot, k, 0, rec(3, Bound::Upper, -10, None, None));
        let e = t.probe(k, 0).hit.unwrap();
        assert_eq!((e.depth, e.score), (12, 50), "shallow bound does not replace a deep one");
        let p = t.probe(k, 0);
        t.store(p.slot, k, 0, rec(3, Bound::Exact, -10, None, None));
        let e = t.probe(k, 0).hit.unwrap();
        assert_eq!((e.depth, e.score, e.move_code), (3, -10, Some(7)), "exact replaces, move kept");
        t.new_search();
        let p = t.probe(k, 0);
        t.store(p.slot, k, 0, rec(1, Bound::Upper, 1, None, Some(2)));
        assert_eq!(t.probe(k, 0).hit.unwrap().depth, 1, "an older generation is always replaced");
    }

    #[test]
    fn counters_count() {
        let t: TranspositionTable<AtomicCounters> = TranspositionTable::with_counters(1);
        let p = t.probe(key(1), 0);
        t.store(p.slot, key(1), 0, rec(1, Bound::Exact, 0, None, None));
        t.probe(key(1), 0);
        let s = t.counters().snapshot();
        assert_eq!((s.probes, s.hits, s.stores, s.overwrites), (2, 1, 1, 0));
        let small: TranspositionTable<AtomicCounters> = TranspositionTable::with_buckets(1);
        for i in 0..5 {
            let p = small.probe(key(i), 0);
            small.store(p.slot, key(i), 0, rec(1, Bound::Exact, 0, None, None));
        }
        assert_eq!(small.counters().snapshot().overwrites, 1);
    }

    /// Many threads write entries whose data is a function of the key into the same bucket; every hit a
    /// reader accepts must carry the data written for its key, never another key's.
    #[test]
    fn concurrent_hammering_never_yields_a_torn_hit() {
        let t: TranspositionTable = TranspositionTable::with_buckets(1);
        let stop = AtomicBool::new(false);
        let bad = AtomicU64::new(0);
        let hits = AtomicU64::new(0);
        let expected = |k: u64| ((k % 200) as u8, (k % 20_000) as Score - 10_000);
        std::thread::scope(|s| {
            for thread in 0..4u64 {
                let (t, stop, bad, hits) = (&t, &stop, &bad, &hits);
                s.spawn(move || {
                    let mut i = thread;
                    while !stop.load(Relaxed) {
                        i = i.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        let k = key(i % 64);
                        let (depth, score) = expected(k.0);
                        let p = t.probe(k, 0);
                        if let Some(e) = p.hit {
                            hits.fetch_add(1, Relaxed);
                            if (e.depth, e.score, e.move_code) != (depth, score, Some(depth as u16)) {
                                bad.fetch_add(1, Relaxed);
                            }
                        }
                        t.store(p.slot, k, 0, rec(depth, Bound::Exact, score, None, Some(depth as u16)));
                        if thread == 0 && t.generation() == 0 && i % 7 == 0 {
                            t.new_search();
                        }
                    }
                });
            }
            std::thread::sleep(std::time::Duration::from_millis(300));
            stop.store(true, Relaxed);
        });
        assert!(hits.load(Relaxed) > 1000);
        assert_eq!(bad.load(Relaxed), 0);
    }
}
