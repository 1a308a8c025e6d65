//! `tabula hash chess` and `tabula perft`.

use anyhow::{Context, Result};
use clap::ValueEnum;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Instant;
use tabula_chess::perft::{perft as count, perft_hashed, PerftTable};
use tabula_chess::Position;

/// Games whose keys `hash` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HashGame {
    /// Chess: the Polyglot key of a FEN.
    Chess,
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn position(fen: &str) -> Result<Position> {
    let fen = if fen.trim() == "startpos" { START } else { fen };
    Position::from_fen(fen).with_context(|| format!("bad FEN `{fen}`"))
}

/// Lists the book moves of `fen` with their weights.
pub fn book(file: &std::path::Path, fen: &str) -> Result<()> {
    let book = tabula_chess::book::Book::open(file).with_context(|| format!("cannot open book {}", file.display()))?;
    let pos = position(fen)?;
    let lines = book.describe(&pos);
    if lines.is_empty() {
        println!("no book moves");
    }
    for line in lines {
        println!("{line}");
    }
    Ok(())
}

/// Prints the Polyglot key of `fen`.
pub fn hash(fen: &str) -> Result<()> {
    println!("{}", position(fen)?.key());
    Ok(())
}

/// Counts leaves, root move by root move (for `--divide` and a progress bar on a terminal), optionally
/// through a table keyed by the Zobrist key. Chess960 positions (X-FEN or Shredder-FEN) are welcome.
pub fn perft(fen: &str, depth: u32, show_divide: bool, hash: Option<usize>) -> Result<()> {
    let mut pos = position(fen)?;
    // Castling as the king taking its rook where the position needs Chess960, as engines print it there.
    let chess960 = pos.is_chess960();
    let start = Instant::now();
    // 16-byte entries.
    let mut table = hash.map(|mib| PerftTable::new((mib << 20) / 16));
    let total = if depth == 0 {
        1
    } else {
        let mut moves = Vec::new();
        tabula::Game::legal_moves(&pos, &mut moves);
        let bar = if std::io::stderr().is_terminal() && depth >= 5 {
            let bar = ProgressBar::new(moves.len() as u64);
            bar.set_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} root moves, {elapsed}").expect("template"),
            );
            bar
        } else {
            ProgressBar::hidden()
        };
        let mut total = 0;
        for mv in moves {
            tabula::Game::play(&mut pos, mv);
            let n = match table.as_mut() {
                Some(t) => perft_hashed(&mut pos, depth - 1, t),
                None => count(&mut pos, depth - 1),
            };
            tabula::Game::undo(&mut pos, mv);
            bar.inc(1);
            if show_divide {
                bar.suspend(|| println!("{}: {n}", mv.to_uci_in(chess960)));
            }
            total += n;
        }
        bar.finish_and_clear();
        if show_divide {
            println!();
        }
        total
    };
    let secs = start.elapsed().as_secs_f64();
    println!("nodes {total}");
    eprintln!("time {secs:.3}s, {:.0} nodes/s", total as f64 / secs.max(1e-9));
    Ok(())
}
