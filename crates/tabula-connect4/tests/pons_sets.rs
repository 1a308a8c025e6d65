//! Every score of Pascal Pons's benchmark sets, reproduced exactly (see `tests/data/README.md`).

use std::time::Instant;
use tabula_connect4::{Solver, Standard};

fn load(name: &str) -> Vec<(String, i32)> {
    let path = format!("{}/tests/data/{name}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (moves, score) = l.split_once(' ').expect("`moves score`");
            (moves.to_string(), score.trim().parse().expect("integer score"))
        })
        .collect()
}

fn check_set(name: &str, strong: bool) {
    check_set_with(name, strong, 1, usize::MAX);
}

fn check_set_with(name: &str, strong: bool, threads: usize, limit: usize) {
    let set: Vec<_> = load(name).into_iter().take(limit).collect();
    let mut solver = Solver::new(64);
    let mut options = solver.searcher().options().clone();
    options.threads = threads;
    solver.searcher().set_options(options);
    let start = Instant::now();
    let mut nodes = 0;
    for (moves, expected) in &set {
        let board: Standard = moves.parse().unwrap();
        let solution = if strong { solver.solve(&board) } else { solver.solve_weak(&board) };
        let expected = if strong { *expected } else { expected.signum() };
        assert_eq!(solution.score, expected, "{name}: {moves}");
        nodes += solution.nodes;
    }
    let n = set.len() as f64;
    eprintln!(
        "{name} ({}): {} positions, {:.1} us and {:.0} nodes per position",
        if strong { "strong" } else { "weak" },
        set.len(),
        start.elapsed().as_secs_f64() * 1e6 / n,
        nodes as f64 / n
    );
}

#[test]
fn end_set_strong() {
    check_set("end", true);
}

#[test]
fn end_set_weak() {
    check_set("end", false);
}

#[test]
fn mid_set_strong() {
    check_set("mid", true);
}

#[test]
fn mid_set_weak() {
    check_set("mid", false);
}

#[test]
#[ignore = "slow (about a minute): cargo test --release -p tabula-connect4 -- --ignored"]
fn begin_set_strong() {
    check_set("begin", true);
}

#[test]
#[ignore = "slow (about a minute): cargo test --release -p tabula-connect4 -- --ignored"]
fn begin_set_weak() {
    check_set("begin", false);
}

/// The score of a position is the best of its columns' scores, for a sample of the mid set.
#[test]
fn analysis_agrees_with_solve() {
    let mut solver = Solver::new(16);
    for (moves, expected) in load("mid").into_iter().step_by(50) {
        let board: Standard = moves.parse().unwrap();
        let best = solver.analyze(&board).into_iter().flatten().max().unwrap();
        assert_eq!(best, expected, "{moves}");
    }
}

/// Two threads sharing the table give the same exact scores.
#[test]
fn two_threads_solve_exactly() {
    check_set_with("mid", true, 2, 200);
    check_set_with("begin", true, 2, 3);
}
