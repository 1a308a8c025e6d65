//! `tabula play` and `tabula analyze`.

use crate::engine::{think, EngineArgs};
use crate::games::{format_pv, CliGame};
use anyhow::Result;
use clap::ValueEnum;
use std::io::{BufRead, Write};
use tabula::game::Outcome;
use tabula::score::describe;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Player {
    /// Moves typed at the terminal.
    Human,
    /// The engine.
    Engine,
}

/// Plays a game in the terminal.
pub fn run<G: CliGame>(first: Player, second: Player, position: Option<&str>, args: &EngineArgs) -> Result<()> {
    let mut game = match position {
        Some(p) => G::parse_position(p)?,
        None => G::default(),
    };
    let mut searcher = args.searcher::<G>();
    let limits = args.limits();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut history: Vec<G::Move> = Vec::new();
    // Which side moves first in this position: sides alternate from the starting position given.
    let mut turn = 0usize;
    loop {
        println!("\n{game}\n");
        if let Some(outcome) = game.outcome() {
            let text = match outcome {
                Outcome::Draw => "Draw.".to_string(),
                // The side to move has lost: the previous mover won.
                Outcome::Loss => format!("{} to move has lost.", game.side_to_move()),
                Outcome::Win => format!("{} to move has won.", game.side_to_move()),
                Outcome::Margin(m) => format!("{} to move ends {m:+}.", game.side_to_move()),
            };
            println!("{text}");
            return Ok(());
        }
        let player = if turn % 2 == 0 { first } else { second };
        let mv = match player {
            Player::Engine => {
                let result = think(&mut searcher, &game, &limits, true);
                let mv = result.best_move.expect("a game that is not over has a move");
                println!(
                    "{} plays {} (score {}, depth {}, {} nodes, {:.2}s)",
                    game.side_to_move(),
                    G::format_move(mv),
                    describe(result.score, result.exact, &G::WORDING),
                    result.depth,
                    result.nodes,
                    result.elapsed.as_secs_f64()
                );
                mv
            }
            Player::Human => loop {
                print!("{} to move, {} (or `undo`, `quit`): ", game.side_to_move(), G::MOVE_HELP);
                std::io::stdout().flush()?;
                let Some(line) = lines.next() else { return Ok(()) };
                let line = line?;
                match line.trim() {
                    "quit" | "exit" => return Ok(()),
                    "undo" => {
                        // Take back the human's last move and the engine's answer.
                        for _ in 0..2 {
                            if let Some(m) = history.pop() {
                                game.undo(m);
                                turn += 1;
                            }
                        }
                        println!("\n{game}\n");
                        continue;
                    }
                    text => match game.parse_move(text) {
                        Ok(mv) => break mv,
                        Err(e) => println!("{e}"),
                    },
                }
            },
        };
        game.play(mv);
        history.push(mv);
        turn += 1;
    }
}

/// Analyzes one position with a limited search.
pub fn analyze<G: CliGame>(position: &str, args: &EngineArgs) -> Result<()> {
    let game = G::parse_position(position)?;
    println!("{game}\n");
    if game.outcome().is_some() {
        println!("The game is over.");
        return Ok(());
    }
    let mut searcher = args.searcher::<G>();
    let result = think(&mut searcher, &game, &args.limits(), true);
    let hit_rate = 100.0 * result.table.hit_rate();
    println!();
    println!("best move  {}", result.best_move.map(G::format_move).unwrap_or_else(|| "-".into()));
    println!("score      {}", describe(result.score, result.exact, &G::WORDING));
    println!("depth      {} (seldepth {})", result.depth, result.seldepth);
    println!("pv         {}", format_pv::<G>(&result.pv));
    println!("nodes      {}", result.nodes);
    println!("table hits {:.1}% of {} probes, {} cutoffs", hit_rate, result.table.probes, result.table.cutoffs);
    println!("time       {:.3}s", result.elapsed.as_secs_f64());
    Ok(())
}
