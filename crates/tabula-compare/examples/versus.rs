//! Tabula's core against minimax-rs, side by side: the same Connect Four struct, heuristic, depth and table
//! size, one fresh search per position.
//!
//! ```sh
//! cargo run --release -p tabula-compare --example versus -- [--depth 16] [--rounds 3] [--set fresh|tuned|both]
//!     [--only tabula|minimax|history|defaults|threads]
//! ```
//!
//! Each round searches every position of each set with every configuration in turn (so that a busy machine
//! slows them alike); a table per set gives each configuration's median round. The fresh set
//! ([`POSITIONS`](tabula_compare::POSITIONS)) is the comparison; the tuned one
//! ([`TUNED_POSITIONS`](tabula_compare::TUNED_POSITIONS)) is the check. `--only` runs one crate's matched configuration
//! (or another of Tabula's) alone, for its peak memory or a profile (the process's high-water mark, from `/proc/self/status` where there is one).

use std::time::Duration;
use tabula_compare::{minimax_side, same_value, tabula_side, Four, Report, POSITIONS, TUNED_POSITIONS};

#[derive(Clone, Copy, PartialEq)]
enum Run {
    Minimax,
    TabulaMatched(usize),
    TabulaHistory,
    TabulaDefaults(usize),
}

impl Run {
    fn name(self) -> String {
        match self {
            Run::Minimax => "minimax-rs, table + null window".into(),
            Run::TabulaMatched(t) => format!("Tabula, table + PVS, {t} thread{}", if t > 1 { "s" } else { "" }),
            Run::TabulaHistory => "Tabula, table + PVS + history".into(),
            Run::TabulaDefaults(t) => format!("Tabula, default options, {t} thread{}", if t > 1 { "s" } else { "" }),
        }
    }

    fn search(self, four: &Four, depth: u32) -> Report {
        match self {
            Run::Minimax => minimax_side::search(four, depth, minimax_side::Config::Matched, 1),
            Run::TabulaMatched(t) => tabula_side::search(four, depth, tabula_side::Config::Matched, t),
            Run::TabulaHistory => tabula_side::search(four, depth, tabula_side::Config::History, 1),
            Run::TabulaDefaults(t) => tabula_side::search(four, depth, tabula_side::Config::Defaults, t),
        }
    }
}

fn peak_memory() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.trim_start_matches("VmHWM:").trim().to_string())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value_of = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let depth: u32 = value_of("--depth").map_or(16, |d| d.parse().expect("--depth takes a number"));
    let rounds: usize = value_of("--rounds").map_or(3, |r| r.parse().expect("--rounds takes a number"));
    let sets: Vec<(&str, &[&str])> = match value_of("--set").as_deref() {
        Some("fresh") => vec![("fresh", &POSITIONS)],
        Some("tuned") => vec![("tuned (held out)", &TUNED_POSITIONS)],
        Some("both") | None => vec![("fresh", &POSITIONS), ("tuned (held out)", &TUNED_POSITIONS)],
        Some(other) => panic!("--set takes fresh, tuned or both, not {other}"),
    };
    let runs: Vec<Run> = match value_of("--only").as_deref() {
        Some("tabula") => vec![Run::TabulaMatched(1)],
        Some("minimax") => vec![Run::Minimax],
        Some("history") => vec![Run::TabulaHistory],
        Some("defaults") => vec![Run::TabulaDefaults(1)],
        Some("threads") => {
            vec![Run::TabulaMatched(1), Run::TabulaMatched(2), Run::TabulaDefaults(1), Run::TabulaDefaults(2)]
        }
        Some(other) => panic!("--only takes tabula, minimax, history, defaults or threads, not {other}"),
        None => {
            vec![
                Run::Minimax,
                Run::TabulaMatched(1),
                Run::TabulaHistory,
                Run::TabulaDefaults(1),
                Run::TabulaMatched(2),
                Run::TabulaDefaults(2),
            ]
        }
    };
    // times[set][run][round], nodes[set][run]
    let mut times = vec![vec![Vec::new(); runs.len()]; sets.len()];
    let mut nodes = vec![vec![0u64; runs.len()]; sets.len()];
    let mut disagreements = 0;
    for round in 0..rounds {
        for (s, (_, set)) in sets.iter().enumerate() {
            let mut round_time = vec![Duration::ZERO; runs.len()];
            for text in set.iter() {
                let four: Four = text.parse().expect("valid position");
                let reports: Vec<Report> = runs.iter().map(|r| r.search(&four, depth)).collect();
                for (i, r) in reports.iter().enumerate() {
                    round_time[i] += r.time;
                    if round == 0 {
                        nodes[s][i] += r.nodes;
                    }
                    if !same_value(r.value, reports[0].value) {
                        disagreements += 1;
                        eprintln!(
                            "{text}: {} says {:?}, {} says {:?}",
                            runs[0].name(),
                            reports[0].value,
                            runs[i].name(),
                            r.value
                        );
                    }
                }
            }
            for (i, t) in round_time.into_iter().enumerate() {
                times[s][i].push(t);
            }
        }
    }
    let median = |v: &mut Vec<Duration>| {
        v.sort();
        v[v.len() / 2]
    };
    for (s, (name, set)) in sets.iter().enumerate() {
        println!(
            "{name}: {} positions, depth {depth}, {} MiB tables, median of {rounds} rounds",
            set.len(),
            tabula_side::TABLE_MIB
        );
        let base = median(&mut times[s][0].clone());
        for (i, run) in runs.iter().enumerate() {
            let t = median(&mut times[s][i]);
            println!(
                "  {:<36} {:>9.3} s {:>13} nodes {:>6.2} M nodes/s {:>6.2}× the first",
                run.name(),
                t.as_secs_f64(),
                nodes[s][i],
                nodes[s][i] as f64 / t.as_secs_f64() / 1e6,
                t.as_secs_f64() / base.as_secs_f64()
            );
        }
    }
    if let Some(peak) = peak_memory() {
        println!("peak memory of this process: {peak}");
    }
    if disagreements > 0 {
        eprintln!("{disagreements} root values disagree");
        std::process::exit(1);
    }
    println!("every root value agrees");
}
