//! The solver on Pons's three sets, and search speed from the start position.
//!
//! `cargo bench -p tabula-connect4 --bench solver`
//! (each iteration solves a fixed sample of the set with a fresh table of 2 MiB, which stays in the caches,
//! and of 64 MiB, which holds more but costs a cache miss a probe; see `tabula-lab connect4 solve-set` for
//! whole-set means.)

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use tabula::search::Searcher;
use tabula_connect4::{Solver, Standard, Threats};

fn sample(name: &str, count: usize) -> Vec<Standard> {
    let path = format!("{}/tests/data/{name}.txt", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .take(count)
        .map(|l| l.split_whitespace().next().expect("moves").parse().expect("valid position"))
        .collect()
}

fn solver(c: &mut Criterion) {
    let mut group = c.benchmark_group("connect4 solve");
    group.sample_size(10);
    for (name, count) in [("end", 200), ("mid", 20), ("begin", 1)] {
        let positions = sample(name, count);
        for mib in [2, 64] {
            let mut solver = Solver::new(mib);
            group.throughput(Throughput::Elements(count as u64));
            group.bench_with_input(BenchmarkId::new(name, format!("{mib} MiB")), &positions, |b, positions| {
                b.iter(|| {
                    solver.clear();
                    positions.iter().map(|p| solver.solve(p).score).sum::<i32>()
                })
            });
        }
    }
    group.finish();
}

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("connect4 search");
    group.sample_size(10);
    let mut searcher = Searcher::with_table_size(Threats, 16);
    let nodes = searcher.search_depth(&Standard::new(), 12).nodes;
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("start depth 12 (nodes/s)", |b| {
        b.iter(|| {
            searcher.table().clear();
            black_box(searcher.search_depth(&Standard::new(), 12).nodes)
        })
    });
    group.finish();
}

criterion_group!(benches, solver, search);
criterion_main!(benches);
