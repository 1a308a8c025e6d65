//! `openings`: balanced openings for matches, random stones near the centre that the engine scores near zero.
//!
//! ```text
//! gomoku openings [count] [stones] [rule] [size] [ms] [seed]
//! ```
//!
//! Prints `count` move lists on standard output, one a line (default 50 openings of 4 stones, freestyle,
//! 15×15, 300 ms, seed 1): stones alternate black and white within the central 5×5 square; an opening is kept
//! when neither side has a four or an open three, and a search of `ms` milliseconds scores it within
//! ±[`BALANCE`] for the side to move (`--within` sets another bound: a looser one finds openings sooner, for a
//! quick tuning set). `tabula-gomoku`'s `data/openings-freestyle.txt` came from
//! `gomoku openings 50 4 freestyle 15 300 1`, and its `data/openings-freestyle-wide.txt` from
//! `gomoku openings 50 4 freestyle 15 150 9 --within 300`.
//!
//! `--judge CMD` has an outside Gomocup engine judge instead (15×15 only): the engine is asked for its move in
//! each quiet opening at `ms` milliseconds, and the opening is kept when the value it reports for the side to
//! move (Rapfi's `Eval`, in its own units; see [`gomocup`](super::tune::gomocup)) is within `--within`. An
//! engine stronger than Tabula sees advantages Tabula's short search does not: openings Tabula scores even may
//! be won for one side by the stronger engine's judgement, and a match on them then measures the colours more
//! than the engines (Rapfi against itself wins 99 games in 100 as black on `data/openings-freestyle.txt`).
//! `data/openings-freestyle-balanced.txt` came from `gomoku openings 50 3 freestyle 15 1000 31 --within 60
//! --judge ./pbrain-rapfi`: with white to move on three stones, a quarter of the quiet openings are that even
//! by Rapfi's judgement, with black to move on four, two in a hundred; `data/openings-standard-balanced.txt` and
//! `data/openings-renju-balanced.txt` the same under those rules (`gomoku openings 50 3 standard 15 1000 51
//! --within 60 --judge ./pbrain-rapfi`, and `renju … 41`). A line on standard error counts the openings tried,
//! the quiet ones and the kept ones.

use super::tune::gomocup::GomocupEngine;
use anyhow::{bail, Context};
use std::time::Duration;
use tabula::search::Limits;
use tabula::zobrist::SplitMix64;
use tabula_gomoku::Pattern;
use tabula_gomoku::{Board, Color, Engine, Point, Rule};

/// How many openings, of how many stones, under which rule, and how they are judged.
#[derive(clap::Args)]
pub struct Args {
    /// How many openings to print.
    #[arg(default_value_t = 50)]
    count: usize,
    /// The stones of each opening.
    #[arg(default_value_t = 4)]
    stones: usize,
    /// The rule: freestyle, standard or renju.
    #[arg(default_value = "freestyle")]
    rule: Rule,
    /// The board's side.
    #[arg(default_value_t = 15)]
    size: usize,
    /// Milliseconds of search to judge an opening.
    #[arg(default_value_t = 300)]
    ms: u64,
    /// The seed of the random stones.
    #[arg(default_value_t = 1)]
    seed: u64,
    /// The largest score for the side to move an opening may have: in evaluation units, or in the judge's.
    #[arg(long, default_value_t = BALANCE)]
    within: i32,
    /// An outside Gomocup engine's command line to judge the openings instead of Tabula's search.
    #[arg(long)]
    judge: Option<String>,
}

/// Who scores an opening: Tabula's own search, or an outside engine.
enum Judge {
    Tabula(Box<Engine>),
    Outside(GomocupEngine),
}

impl Judge {
    /// The score of `board` for the side to move after `ms` milliseconds, if the judge gives one.
    fn score(&mut self, board: &Board, ms: u64) -> anyhow::Result<Option<i32>> {
        Ok(match self {
            Judge::Tabula(engine) => {
                engine.clear();
                Some(engine.think(board, &Limits::time(Duration::from_millis(ms))).score)
            }
            Judge::Outside(engine) => engine.ask(board).context("the judge gave no move")?.1,
        })
    }
}

/// The largest score an opening may have by default, in evaluation units (a logistic unit of win rate is about
/// 1,370 of them: 40 is a win rate within 1 % of an even game's).
const BALANCE: i32 = 40;

/// Whether either side could make a four or an open three anywhere: such openings are not quiet.
fn quiet(board: &Board) -> bool {
    let mut moves = Vec::new();
    tabula::game::Game::legal_moves(board, &mut moves);
    moves.iter().all(|&p| {
        [Color::Black, Color::White]
            .iter()
            .all(|&c| board.patterns(p, c).iter().all(|&pat| !pat.is_four() && pat != Pattern::FlexThree))
    })
}

/// Runs `openings`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let Args { count, stones, rule, size, ms, seed, within, ref judge } = *args;
    if stones > 25 {
        bail!("{stones} stones do not fit in the central 5×5 square");
    }
    let mut judge = match judge {
        Some(_) if size != 15 => bail!("an outside judge plays on 15×15 only"),
        Some(command) => Judge::Outside(GomocupEngine::start(command, ms, rule)?),
        None => Judge::Tabula(Box::new(Engine::new(16))),
    };
    let mut rng = SplitMix64::new(seed);
    let (mut tried, mut quiet_ones) = (0, 0);
    let mut kept = std::collections::HashSet::new();
    let centre = size / 2;
    while kept.len() < count {
        tried += 1;
        let mut board = Board::new(size, size, rule)?;
        while board.moves().len() < stones {
            let x = centre - 2 + (rng.next() % 5) as usize;
            let y = centre - 2 + (rng.next() % 5) as usize;
            let p = Point::new(x as u8, y as u8);
            if board.is_legal(p) {
                board.play(p).expect("checked legal");
            }
        }
        if !quiet(&board) || kept.contains(board.moves()) {
            continue;
        }
        quiet_ones += 1;
        if judge.score(&board, ms)?.is_some_and(|score| score.abs() <= within) {
            println!("{}", board.format_moves(board.moves()));
            kept.insert(board.moves().to_vec());
        }
    }
    eprintln!("{tried} openings tried, {quiet_ones} quiet, {} kept", kept.len());
    Ok(())
}
