//! Perft speed: the start position to depth 5 and Kiwipete to depth 4, with and without bulk counting of the
//! last ply. Run with `cargo bench -p tabula-chess`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tabula_chess::perft::{perft, perft_without_bulk};
use tabula_chess::Position;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn bench(c: &mut Criterion) {
    let cases = [
        ("startpos", Position::startpos(), 5, 4_865_609),
        ("kiwipete", Position::from_fen(KIWIPETE).unwrap(), 4, 4_085_603),
    ];
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, pos, depth, nodes) in cases {
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name} {depth} bulk"), |b| {
            let mut pos = pos.clone();
            b.iter(|| assert_eq!(perft(&mut pos, depth), nodes))
        });
        group.bench_function(format!("{name} {depth} no bulk"), |b| {
            let mut pos = pos.clone();
            b.iter(|| assert_eq!(perft_without_bulk(&mut pos, depth), nodes))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
