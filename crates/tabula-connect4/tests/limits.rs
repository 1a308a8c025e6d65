//! The searcher's limits and reports on a game big enough not to finish: Connect Four from the start.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabula::search::{Limits, SearchOptions, Searcher};
use tabula_connect4::{Standard, Threats};

#[test]
fn node_limit_stops_the_search() {
    let mut s = Searcher::with_table_size(Threats, 4);
    let r = s.search(&Standard::new(), Limits::nodes(20_000), |_| {});
    assert!(r.best_move.is_some());
    // Threads look at the budget every 1,024 nodes.
    assert!(r.nodes >= 20_000 && r.nodes < 20_000 + 2_048, "{}", r.nodes);
}

#[test]
fn time_limit_stops_the_search() {
    let mut s = Searcher::with_table_size(Threats, 4);
    let start = Instant::now();
    let r = s.search(&Standard::new(), Limits::time(Duration::from_millis(200)), |_| {});
    assert!(r.best_move.is_some());
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn external_stop_flag_stops_every_thread() {
    let mut s = Searcher::with_table_size(Threats, 4);
    s.set_options(SearchOptions::default().with_threads(2));
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits::until_stopped(stop.clone());
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        stop.store(true, Ordering::Relaxed);
    });
    let r = s.search(&Standard::new(), &limits, |_| {});
    setter.join().unwrap();
    assert!(r.best_move.is_some());
}

#[test]
fn iterations_report_growing_depth_and_nodes() {
    let mut s = Searcher::with_table_size(Threats, 4);
    let mut seen = Vec::new();
    s.search(&Standard::new(), Limits::depth(8), |it| seen.push((it.depth, it.nodes, it.pv.len(), it.hashfull)));
    assert_eq!(seen.iter().map(|x| x.0).collect::<Vec<_>>(), (1..=8).collect::<Vec<_>>());
    assert!(seen.windows(2).all(|w| w[0].1 <= w[1].1));
    assert!(seen.iter().all(|&(depth, _, pv, _)| pv >= 1 && pv <= depth as usize));
    // The best first move is the centre.
    let r = s.search_depth(&Standard::new(), 10);
    assert_eq!(r.best_move, Some(3));
}
