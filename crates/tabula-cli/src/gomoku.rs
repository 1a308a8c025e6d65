//! `tabula play gomoku` and `tabula analyze gomoku`.

use crate::engine::EngineArgs;
use crate::play::Player;
use anyhow::{anyhow, Result};
use std::io::{BufRead, Write};
use tabula::score::uci_string;
use tabula::search::Iteration;
use tabula_gomoku::{Board, Engine, Point, Rule, Thought};

fn engine(args: &EngineArgs) -> Engine {
    let mut engine = Engine::new(args.hash);
    engine.set_threads(args.threads.max(1));
    engine
}

fn line(board: &Board, points: &[Point]) -> String {
    points.iter().map(|&p| board.format_point(p)).collect::<Vec<_>>().join(" ")
}

fn print_iteration(board: &Board, it: &Iteration<Point>) {
    println!(
        "depth {:>2} score {:<10} nodes {:>10} nps {:>9} time {:>6.2}s pv {}",
        it.depth,
        uci_string(it.score),
        it.nodes,
        it.nps,
        it.elapsed.as_secs_f64(),
        line(board, &it.pv)
    );
}

fn report(board: &Board, thought: &Thought) {
    if let Some(win) = &thought.win {
        println!("forced win: {}", line(board, win));
    }
}

/// Plays Gomoku in the terminal.
pub fn play(rule: Rule, size: usize, first: Player, second: Player, args: &EngineArgs) -> Result<()> {
    let mut board = Board::new(size, size, rule).map_err(|e| anyhow!("{e}"))?;
    let mut engine = engine(args);
    let limits = args.limits();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut turn = 0usize;
    loop {
        println!("\n{board}\n");
        if let Some(winner) = board.winner() {
            println!("{winner:?} wins.");
            return Ok(());
        }
        if board.is_full() {
            println!("Draw: the board is full.");
            return Ok(());
        }
        let player = if turn % 2 == 0 { first } else { second };
        match player {
            Player::Engine => {
                let thought = engine.think_with(&board, &limits, |it| print_iteration(&board, it));
                let p = thought.best.ok_or_else(|| anyhow!("the engine found no move"))?;
                println!(
                    "{:?} plays {} (score {}, depth {}, {} nodes, {:.2}s)",
                    board.side_to_move(),
                    board.format_point(p),
                    uci_string(thought.score),
                    thought.depth,
                    thought.nodes,
                    thought.elapsed.as_secs_f64()
                );
                report(&board, &thought);
                board.play(p).map_err(|e| anyhow!("{e}"))?;
            }
            Player::Human => loop {
                print!("{:?} to move (`h8` or `7,7`; `undo`, `quit`): ", board.side_to_move());
                std::io::stdout().flush()?;
                let Some(text) = lines.next() else { return Ok(()) };
                let text = text?;
                match text.trim() {
                    "quit" | "exit" => return Ok(()),
                    "undo" => {
                        board.take_back();
                        board.take_back();
                        turn += 2;
                        println!("\n{board}\n");
                    }
                    t => match board.parse_point(t).and_then(|p| board.play(p)) {
                        Ok(()) => break,
                        Err(e) => println!("{e}"),
                    },
                }
            },
        }
        turn += 1;
    }
}

/// Analyzes a Gomoku position given as a move list.
pub fn analyze(rule: Rule, size: usize, moves: &str, args: &EngineArgs) -> Result<()> {
    let board = Board::from_moves(size, size, rule, moves).map_err(|e| anyhow!("bad move list `{moves}`: {e}"))?;
    println!("{board}\n");
    if board.winner().is_some() || board.is_full() {
        println!("The game is over.");
        return Ok(());
    }
    let mut engine = engine(args);
    let thought = engine.think_with(&board, &args.limits(), |it| print_iteration(&board, it));
    println!();
    println!("best move  {}", thought.best.map(|p| board.format_point(p)).unwrap_or_else(|| "-".into()));
    println!("score      {}", uci_string(thought.score));
    println!("depth      {}", thought.depth);
    println!("pv         {}", line(&board, &thought.pv));
    println!("nodes      {}", thought.nodes);
    println!("time       {:.3}s", thought.elapsed.as_secs_f64());
    report(&board, &thought);
    Ok(())
}
