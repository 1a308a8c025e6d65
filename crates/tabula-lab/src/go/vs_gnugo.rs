//! `vs-gnugo`: plays the Monte Carlo tree search against GNU Go on 9×9 (komi 7, Chinese rules), colours
//! alternating.
//!
//! ```text
//! go vs-gnugo [--games 50] [--level 1] [--time 0.3] [--playouts N] [--threads 2] [--seed 1]
//!     [--gnugo /usr/games/gnugo] [--exploration C] [--equivalence K] [--verbose]
//! ```
//!
//! Our engine runs in-process with a fixed time (or playout count) per move; GNU Go runs as
//! `gnugo --mode gtp --level L --chinese-rules --komi 7`, through the engine-process driver of
//! `tabula-protocol`. A game ends by resignation or two passes and is adjudicated by our own area scoring; GNU
//! Go's `final_score` is printed beside it, and games where the two disagree on the winner are counted. The two
//! differ when GNU Go passes with stones on the board that it considers dead: a bare-board area count keeps
//! them, GNU Go removes them; the summary gives both tallies. Standard output gets a line a game and the
//! summary; with `--verbose`, each game's moves, win rates and both final boards as well.

use std::time::{Duration, Instant};
use tabula_go::coords::{Color, Move};
use tabula_go::engine::mcts::{Budget, Config, Mcts};
use tabula_go::engine::picker::Decision;
use tabula_go::position::{Position, Rules};
use tabula_go::scoring::area_score;
use tabula_protocol::process::{EngineError, Process};

/// The match `vs-gnugo` plays.
#[derive(clap::Args)]
pub struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 50)]
    games: usize,
    /// GNU Go's level.
    #[arg(long, default_value_t = 1)]
    level: u32,
    /// Seconds a move for our engine.
    #[arg(long = "time", default_value_t = 0.3)]
    seconds: f64,
    /// A fixed number of playouts a move for our engine instead of a time.
    #[arg(long)]
    playouts: Option<u64>,
    /// Our engine's search threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// The seed of the first game's search (one more each game).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The search's exploration constant (the engine's default if absent).
    #[arg(long)]
    exploration: Option<f64>,
    /// The search's RAVE equivalence (the engine's default if absent).
    #[arg(long = "equivalence")]
    rave_equivalence: Option<f64>,
    /// Print each game's moves, win rates and final boards.
    #[arg(long)]
    verbose: bool,
    /// GNU Go's program.
    #[arg(long = "gnugo", default_value = "/usr/games/gnugo")]
    program: String,
}

/// GNU Go over GTP, through the shared engine-process driver.
struct GnuGo(Process);

impl GnuGo {
    fn start(program: &str, level: u32, komi: f64) -> GnuGo {
        let command =
            [program, "--mode", "gtp", "--level", &level.to_string(), "--chinese-rules", "--komi", &komi.to_string()];
        GnuGo(Process::spawn(&command.map(str::to_string)).unwrap_or_else(|e| panic!("{e}")))
    }

    /// Sends one command: the text after `=`, or the engine's refusal; a crash or a minute's silence ends the run.
    fn send(&mut self, command: &str) -> Result<String, EngineError> {
        let patience = Duration::from_secs(60);
        match self.0.ask_gtp(command, Instant::now() + patience, patience) {
            Err(e @ (EngineError::Crashed | EngineError::Timeout(_))) => panic!("gnugo after {command:?}: {e}"),
            answer => answer,
        }
    }
}

/// Runs `vs-gnugo`.
pub fn run(args: &Args) {
    let Args { games, level, seconds, playouts, threads, seed, exploration, rave_equivalence, verbose, ref program } =
        *args;
    let defaults = Config::default();
    let exploration: f64 = exploration.unwrap_or(defaults.exploration);
    let rave_equivalence: f64 = rave_equivalence.unwrap_or(defaults.rave_equivalence);
    let (size, komi) = (9, 7.0);
    let budget = match playouts {
        Some(n) => Budget::playouts(n),
        None => Budget::time(Duration::from_secs_f64(seconds)),
    };
    println!(
        "tabula vs gnugo level {level}: {games} games, 9x9, komi {komi}, {budget:?} per move, {threads} threads, \
         exploration {exploration}, RAVE equivalence {rave_equivalence}"
    );
    let mut gnugo = GnuGo::start(program, level, komi);
    gnugo.send(&format!("boardsize {size}")).unwrap();
    let (mut wins, mut as_black, mut as_white, mut disagreements) = (0, [0, 0], [0, 0], 0);
    // Wins when games that end by two passes are scored by GNU Go, which removes the stones it thinks dead.
    let mut wins_by_gnugo = 0;
    let (mut our_playouts, mut our_moves) = (0u64, 0u64);
    let start = Instant::now();
    for game in 0..games {
        let ours = if game % 2 == 0 { Color::Black } else { Color::White };
        gnugo.send("clear_board").unwrap();
        let mut position = Position::new(size, Rules::default()).unwrap();
        position.set_komi(komi);
        let mut mcts =
            Mcts::new(Config { threads, seed: seed + game as u64, exploration, rave_equivalence, ..Config::default() });
        let mut resigned = None;
        while !position.is_over() && position.move_count() < 300 {
            let color = position.to_move();
            if color == ours {
                let analysis = mcts.search(&position, color, budget);
                our_playouts += analysis.playouts;
                our_moves += 1;
                if verbose {
                    let pv: Vec<String> = analysis.pv.iter().take(6).map(|m| m.to_gtp()).collect();
                    println!(
                        "  {} {:.3} {} playouts, pv {}",
                        color.to_gtp(),
                        analysis.win_rate,
                        analysis.playouts,
                        pv.join(" ")
                    );
                }
                let decision = if analysis.resign { Decision::Resign } else { Decision::Play(analysis.best) };
                match decision {
                    Decision::Resign => {
                        resigned = Some(color);
                        break;
                    }
                    Decision::Play(mv) => {
                        position.play(mv, color).expect("the engine plays legal moves");
                        gnugo.send(&format!("play {} {}", color.to_gtp(), mv.to_gtp())).unwrap();
                    }
                }
            } else {
                let answer = gnugo.send(&format!("genmove {}", color.to_gtp())).unwrap();
                if answer.eq_ignore_ascii_case("resign") {
                    resigned = Some(color);
                    break;
                }
                let mv = Move::from_gtp(&answer, size).unwrap();
                if verbose {
                    println!("  gnugo {answer}");
                }
                if position.play(mv, color).is_err() {
                    println!("  gnugo's {answer} is illegal here (superko): counted as a pass");
                    position.play(Move::Pass, color).unwrap();
                    // GNU Go has the stone on its board: take it back so that the two boards agree.
                    gnugo.send("undo").unwrap();
                    gnugo.send(&format!("play {} pass", color.to_gtp())).unwrap();
                }
            }
        }
        let margin = area_score(position.board()).margin(komi);
        let winner = match resigned {
            Some(loser) => Some(loser.opponent()),
            None if margin > 0.0 => Some(Color::Black),
            None if margin < 0.0 => Some(Color::White),
            None => None,
        };
        if verbose {
            println!("{}", position.board());
            println!("gnugo's board:\n{}", gnugo.send("showboard").unwrap_or_default());
        }
        let gnugo_score = gnugo.send("final_score").unwrap_or_default();
        let gnugo_winner = match gnugo_score.chars().next() {
            Some('B') => Some(Color::Black),
            Some('W') => Some(Color::White),
            _ => None,
        };
        if resigned.is_none() && gnugo_winner != winner {
            disagreements += 1;
        }
        let won = winner == Some(ours);
        wins += won as usize;
        wins_by_gnugo += if resigned.is_some() { won } else { gnugo_winner == Some(ours) } as usize;
        let tally = if ours == Color::Black { &mut as_black } else { &mut as_white };
        tally[!won as usize] += 1;
        let how = match resigned {
            Some(loser) => format!("{} resigned", loser.to_gtp()),
            None => format!("area {} (gnugo: {gnugo_score})", area_score(position.board()).result(komi)),
        };
        println!(
            "game {:>3}: tabula {:<5} {} after {} moves, {how}; total {wins}/{}",
            game + 1,
            ours.to_gtp(),
            if won { "wins " } else { "loses" },
            position.move_count(),
            game + 1
        );
    }
    println!(
        "tabula {wins}-{} against gnugo level {level} ({:.0} %): as black {}-{}, as white {}-{}; scoring \
         disagreements with gnugo {disagreements} ({wins_by_gnugo}-{} by gnugo's final_score); {:.0} playouts \
         per move; {:.0} s",
        games - wins,
        100.0 * wins as f64 / games.max(1) as f64,
        as_black[0],
        as_black[1],
        as_white[0],
        as_white[1],
        games - wins_by_gnugo,
        our_playouts as f64 / our_moves.max(1) as f64,
        start.elapsed().as_secs_f64()
    );
}
