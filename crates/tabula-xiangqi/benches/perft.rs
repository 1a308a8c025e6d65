//! Perft speed: the start position to depth 5 (133,312,995 leaves) and to depth 4 with and without bulk
//! counting of the last ply. Run with `cargo bench -p tabula-xiangqi`; from the command line, `tabula perft --game
//! xiangqi startpos 5` (Fairy-Stockfish counts the same with `go perft 5` under `UCI_Variant xiangqi`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tabula_xiangqi::perft::{perft, perft_without_bulk};
use tabula_xiangqi::Position;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let start = Position::startpos();
    group.throughput(Throughput::Elements(133_312_995));
    group.bench_function("startpos 5 bulk", |b| {
        let mut pos = start.clone();
        b.iter(|| assert_eq!(perft(&mut pos, 5), 133_312_995))
    });
    group.throughput(Throughput::Elements(3_290_240));
    group.bench_function("startpos 4 bulk", |b| {
        let mut pos = start.clone();
        b.iter(|| assert_eq!(perft(&mut pos, 4), 3_290_240))
    });
    group.bench_function("startpos 4 no bulk", |b| {
        let mut pos = start.clone();
        b.iter(|| assert_eq!(perft_without_bulk(&mut pos, 4), 3_290_240))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
