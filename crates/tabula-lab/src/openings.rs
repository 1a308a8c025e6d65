//! `openings`: distinct, roughly balanced opening positions for self-play matches that need more openings than
//! a game's test book has (an SPRT runs to thousands of games), for any game the self-play games play
//! ([`DataGame`]):
//!
//! ```text
//! chess openings OUT [--count N] [--nodes N] [--margin CP] [--first N]
//! xiangqi openings OUT [--count N] [--nodes N] [--margin CP] [--first N]
//! ```
//!
//! The game's random starts ([`DataGame::random_start`]), numbered from `--first` (0) and seeded apart from the
//! data games' (so that no match opening is a start the networks were trained from), each kept when the
//! engine's search of `--nodes` (20,000 by default) scores it within `--margin` centipawns (50 by default) of
//! even and no kept start has its key, until `--count` (1,000) are kept. `OUT` holds one line a position
//! ([`DataGame::opening_line`]); how many starts were tried is reported on standard error.

use crate::data::Output;
use crate::selfplay::DataGame;
use tabula::game::Game;
use tabula::rng::Rng;
use tabula::search::{Engine, Limits};

/// How many openings `openings` writes, how it judges them, and where.
#[derive(clap::Args)]
pub struct Args {
    /// The file to write: one opening a line (EPD for chess, FEN for xiangqi).
    out: String,
    #[arg(long, default_value_t = 1000)]
    count: usize,
    /// The search's node budget for judging a start.
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// How far from even, in centipawns, a start may be scored.
    #[arg(long, default_value_t = 50)]
    margin: i32,
    #[arg(long, default_value_t = 0)]
    first: u64,
}

/// Writes `count` distinct random starts of `G` (numbered from `first`) that a search of `nodes` scores within
/// `margin` centipawns of even, one line each.
pub fn run<G: DataGame>(args: &Args) -> anyhow::Result<()> {
    let Args { ref out, count, nodes, margin, first } = *args;
    let book = G::book();
    let mut engine = Engine::<G::Searched>::new(16);
    let mut seen = std::collections::HashSet::new();
    let mut w = Output::create(out)?;
    let mut tried = 0;
    for n in first.. {
        if seen.len() >= count {
            break;
        }
        tried += 1;
        let mut rng = Rng::new(0x0be9_0000 + n);
        let Some(start) = G::random_start(&mut rng, &book) else { continue };
        engine.clear_hash();
        let searched = G::searched(&start);
        let r = engine.search(&searched, Limits::nodes(nodes), |_| {});
        if r.score.abs() > margin || !seen.insert(searched.key()) {
            continue;
        }
        w.line(G::opening_line(&start))?;
    }
    w.flush()?;
    eprintln!("{} openings kept of {tried} starts", seen.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Chess;
    use crate::xiangqi::Xiangqi;
    use clap::Parser;

    #[derive(Parser)]
    struct Line {
        #[command(flatten)]
        args: Args,
    }

    /// The lines `openings` writes for `G` with `words` after the file.
    fn openings<G: DataGame>(name: &str, words: &[&str]) -> Vec<String> {
        let out = std::env::temp_dir().join(format!("tabula-lab-openings-{name}-{}.txt", std::process::id()));
        let out = out.to_str().unwrap();
        let line = Line::try_parse_from(["openings", out].iter().chain(words)).unwrap();
        run::<G>(&line.args).unwrap();
        let text = std::fs::read_to_string(out).unwrap();
        std::fs::remove_file(out).unwrap();
        text.lines().map(str::to_owned).collect()
    }

    /// Each game's openings are as many as asked, distinct, legal, and scored near even by a search of their own
    /// budget; another `--first` gives others.
    #[test]
    fn openings_are_distinct_legal_and_near_even() {
        let xiangqi = openings::<Xiangqi>("xiangqi", &["--count", "6", "--nodes", "2000", "--margin", "40"]);
        assert_eq!(xiangqi.len(), 6);
        let mut engine = Engine::<<Xiangqi as DataGame>::Searched>::new(16);
        let mut keys = std::collections::HashSet::new();
        for fen in &xiangqi {
            let pos = tabula_xiangqi::Position::from_fen(fen).unwrap();
            assert!(pos.has_legal_move(), "{fen}");
            assert!(keys.insert(pos.key()), "{fen} twice");
            engine.clear_hash();
            let r = engine.search(&Xiangqi::searched(&pos), Limits::nodes(2000), |_| {});
            assert!(r.score.abs() <= 40, "{fen}: {}", r.score);
        }
        let later = openings::<Xiangqi>("xiangqi-later", &["--count", "6", "--nodes", "2000", "--first", "1000"]);
        assert!(later.iter().all(|fen| !xiangqi.contains(fen)), "{later:?}");
        let chess = openings::<Chess>("chess", &["--count", "3", "--nodes", "2000"]);
        assert_eq!(chess.len(), 3);
        for epd in &chess {
            tabula_chess::Epd::parse(epd).unwrap();
        }
    }
}
