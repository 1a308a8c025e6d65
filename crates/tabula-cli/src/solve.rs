//! `tabula solve connect4` and `tabula analyze connect4 --solve`.

use anyhow::{Context, Result};
use clap::ValueEnum;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{BufReader, IsTerminal, Read, Write};
use std::path::Path;
use std::time::Instant;
use tabula_connect4::{Solver, Standard};
use tabula_protocol::lines::LineReader;

/// Games that can be solved exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SolveGame {
    /// Connect Four, 7×6.
    Connect4,
}

/// Solves positions one per line. A bad line is reported on standard error with its number and the
/// reason, and the rest go on; the exit status is non-zero if any line was bad.
pub fn run(file: Option<&Path>, weak: bool, stats: bool, hash: usize, threads: usize) -> Result<()> {
    let (input, total): (Box<dyn Read>, Option<u64>) = match file {
        Some(path) => {
            let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let lines = bytes.split(|&b| b == b'\n').filter(|l| !l.trim_ascii().is_empty()).count() as u64;
            (Box::new(std::io::Cursor::new(bytes)), Some(lines))
        }
        None => (Box::new(std::io::stdin()), None),
    };
    let progress = match total {
        Some(n) if std::io::stderr().is_terminal() => {
            let bar = ProgressBar::new(n);
            bar.set_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} positions, {per_sec}, eta {eta}")
                    .expect("valid template"),
            );
            bar
        }
        _ => ProgressBar::hidden(),
    };
    let mut solver = Solver::<7, 6>::new(hash);
    let mut options = solver.searcher().options().clone();
    options.threads = threads.max(1);
    solver.searcher().set_options(options);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut bad_lines = 0usize;
    let mut reader = LineReader::new(BufReader::new(input));
    while let Some(line) = reader.read_line().context("reading positions")? {
        let i = reader.line_number() - 1;
        let line = match line {
            Ok(line) => line,
            Err(bad) => {
                progress.suspend(|| eprintln!("{bad}"));
                bad_lines += 1;
                continue;
            }
        };
        // Accept `moves` or `moves expected-score` (the benchmark files' format).
        let Some(moves) = line.split_whitespace().next() else { continue };
        let board: Standard = match moves.parse() {
            Ok(b) => b,
            Err(e) => {
                progress.suspend(|| eprintln!("line {}: `{moves}`: {e}", i + 1));
                bad_lines += 1;
                continue;
            }
        };
        if tabula::Game::outcome(&board).is_some() {
            progress.suspend(|| eprintln!("line {}: `{moves}`: the game is already over", i + 1));
            bad_lines += 1;
            continue;
        }
        let start = Instant::now();
        let solution = if weak { solver.solve_weak(&board) } else { solver.solve(&board) };
        let micros = start.elapsed().as_micros();
        let written = if stats {
            writeln!(out, "{moves} {} {} {micros}", solution.score, solution.nodes)
        } else {
            writeln!(out, "{moves} {}", solution.score)
        };
        if written.is_err() {
            break; // the reader went away (`| head`)
        }
        progress.inc(1);
    }
    progress.finish_and_clear();
    if bad_lines > 0 {
        anyhow::bail!("{bad_lines} line(s) could not be solved");
    }
    Ok(())
}

/// The exact score of every column.
pub fn analyze_columns(position: &str, hash: usize) -> Result<()> {
    let board: Standard = position.parse().with_context(|| format!("bad Connect Four position `{position}`"))?;
    println!("{board}\n");
    let mut solver = Solver::new(hash);
    let start = Instant::now();
    let scores = solver.analyze(&board);
    let cells: Vec<String> = scores.iter().map(|s| s.map_or("  .".into(), |v| format!("{v:>3}"))).collect();
    println!("{}", cells.join(" "));
    if let Some((col, best)) = scores
        .iter()
        .enumerate()
        .filter_map(|(c, s)| s.map(|v| (c, v)))
        .max_by_key(|&(c, v)| (v, -(c as i32 - 3).abs()))
    {
        let verdict = match best {
            0 => "a draw".to_string(),
            s if s > 0 => format!("a win for the side to move (score {s})"),
            s => format!("a loss for the side to move (score {s})"),
        };
        println!("\nbest column {}: {verdict}; {:.3}s", col + 1, start.elapsed().as_secs_f64());
    }
    Ok(())
}
