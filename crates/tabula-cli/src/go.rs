//! `tabula play go` and `tabula analyze go`.

use crate::play::Player;
use anyhow::{anyhow, Context, Result};
use std::io::{BufRead, Write};
use std::path::Path;
use std::time::Duration;
use tabula_go::mcts::{Budget, Config, Mcts};
use tabula_go::scoring::area_score;
use tabula_go::{Move, Position, Rules};

/// Go options.
#[derive(Clone, Debug, clap::Args)]
pub struct GoArgs {
    /// Komi.
    #[arg(long, default_value_t = 7.0)]
    pub komi: f64,
    /// Seconds per engine move.
    #[arg(long = "move-time", default_value_t = 1.0)]
    pub move_time: f64,
    /// Playouts per engine move instead of a time (reproducible with one thread).
    #[arg(long)]
    pub playouts: Option<u64>,
}

impl GoArgs {
    fn budget(&self) -> Budget {
        match self.playouts {
            Some(n) => Budget::playouts(n),
            None => Budget::time(Duration::from_secs_f64(self.move_time)),
        }
    }
}

fn line(pv: &[Move]) -> String {
    pv.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

fn result(position: &Position) -> String {
    area_score(position.board()).result(position.komi())
}

/// Plays Go in the terminal.
pub fn play(first: Player, second: Player, size: usize, args: &GoArgs, threads: usize) -> Result<()> {
    let mut position = Position::new(size, Rules::default()).map_err(|e| anyhow!("{e}"))?;
    position.set_komi(args.komi);
    let mut mcts = Mcts::new(Config { threads: threads.max(1), ..Config::default() });
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        println!("\n{}\n", position.board());
        if position.is_over() {
            println!("Both players passed: {} (area scoring, every stone counted alive).", result(&position));
            return Ok(());
        }
        let color = position.to_move();
        let player = if color == tabula_go::Color::Black { first } else { second };
        let mv = match player {
            Player::Engine => {
                let a = mcts.search(&position, color, args.budget());
                println!(
                    "{color:?} plays {} (win rate {:.1}%, {} playouts, pv {})",
                    a.best,
                    100.0 * a.win_rate,
                    a.playouts,
                    line(&a.pv)
                );
                if a.resign {
                    println!("{color:?} resigns.");
                    return Ok(());
                }
                a.best
            }
            Player::Human => loop {
                print!("{color:?} to move (`d4`, `pass`, `quit`): ");
                std::io::stdout().flush()?;
                let Some(text) = lines.next() else { return Ok(()) };
                let text = text?;
                if matches!(text.trim(), "quit" | "exit") {
                    return Ok(());
                }
                match Move::from_gtp(text.trim(), position.size()) {
                    Ok(mv) => match position.clone().play(mv, color) {
                        Ok(()) => break mv,
                        Err(e) => println!("{e}"),
                    },
                    Err(e) => println!("{e}"),
                }
            },
        };
        position.play(mv, color).map_err(|e| anyhow!("{e}"))?;
    }
}

/// Analyzes the last position of an SGF game.
pub fn analyze(file: &Path, args: &GoArgs, threads: usize) -> Result<()> {
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let record = tabula_go::sgf::GameRecord::parse(&text).with_context(|| format!("in {}", file.display()))?;
    let position = record.replay(Rules::default(), None).with_context(|| format!("in {}", file.display()))?;
    println!("{}\n", position.board());
    if position.is_over() {
        println!("The game is over: {}.", result(&position));
        return Ok(());
    }
    let a = tabula_go::mcts::analyze(&position, args.budget(), threads.max(1));
    println!("{:?} to move", position.to_move());
    println!("best move  {}", a.best);
    println!("win rate   {:.1}%", 100.0 * a.win_rate);
    println!("playouts   {}", a.playouts);
    println!("pv         {}", line(&a.pv));
    for c in a.candidates.iter().take(5) {
        println!("  {:<5} {:>7} visits  {:>5.1}%", c.mv.to_string(), c.visits, 100.0 * c.win_rate);
    }
    Ok(())
}
