//! Transposition table probe + store on random keys, from a table that fits in cache to one that does not.
//!
//! `cargo bench -p tabula --bench table`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use tabula::tt::{Bound, Record, TranspositionTable};
use tabula::zobrist::{Key, SplitMix64};

fn record(depth: u8, bound: Bound, score: i32, eval: Option<i32>, move_code: Option<u16>) -> Record {
    Record { depth, bound, score, eval, move_code, proven: false }
}

fn probe_store(c: &mut Criterion) {
    let mut group = c.benchmark_group("table probe+store");
    group.sample_size(20);
    group.warm_up_time(std::time::Duration::from_millis(500));
    group.measurement_time(std::time::Duration::from_secs(2));
    const BATCH: u64 = 4096;
    group.throughput(Throughput::Elements(BATCH));
    for mib in [1, 16, 256, 1024] {
        let table = TranspositionTable::new(mib);
        // Fill the table first so that probes see a realistic mix of hits, misses and replacements.
        let mut rng = SplitMix64::new(mib as u64);
        for _ in 0..table.capacity() {
            let key = Key(rng.next());
            let p = table.probe(key, 0);
            table.store(p.slot, key, 0, record(4, Bound::Exact, 1, None, Some(1)));
        }
        group.bench_with_input(BenchmarkId::from_parameter(format!("{mib} MiB")), &table, |b, table| {
            b.iter(|| {
                let mut hits = 0u32;
                for _ in 0..BATCH {
                    let key = Key(rng.next());
                    let p = table.probe(key, 3);
                    hits += u32::from(p.hit.is_some());
                    table.store(p.slot, key, 3, record(5, Bound::Lower, 7, Some(3), Some(2)));
                }
                black_box(hits)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, probe_store);
criterion_main!(benches);
