//! Plays the engine against Stockfish limited with `UCI_LimitStrength` / `UCI_Elo` and prints W/D/L, the score
//! and the Elo difference with its 95% error.
//!
//! ```text
//! cargo run --release -p tabula-chess --example match -- [games] [elo] [base_ms] [inc_ms] [stockfish]
//! ```
//!
//! Defaults: 64 games, Elo 1500, 10 s + 0.1 s, `/usr/games/stockfish`. Games start from the lines of
//! `tests/data/openings.txt`, each played with both colours. Our engine runs in-process through the UCI
//! session's `go` (so its time management is what plays); games are adjudicated by our rules: mate, stalemate,
//! threefold repetition, fifty moves, insufficient material, or a loss on time.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};
use tabula::game::{Game, Outcome};
use tabula_chess::uci::{run_search, Action, SearchControl, UciSession};
use tabula_chess::{Color, Move, Position};

struct Stockfish {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Stockfish {
    fn start(path: &str, elo: u32) -> std::io::Result<Stockfish> {
        let mut child = Command::new(path).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn()?;
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        let mut sf = Stockfish { child, input, output };
        sf.send("uci");
        sf.wait_for("uciok");
        for opt in ["Threads value 1", "Hash value 16", "UCI_LimitStrength value true"] {
            sf.send(&format!("setoption name {opt}"));
        }
        sf.send(&format!("setoption name UCI_Elo value {elo}"));
        sf.send("isready");
        sf.wait_for("readyok");
        Ok(sf)
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").and_then(|_| self.input.flush()).expect("stockfish is running");
    }

    fn wait_for(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            if self.output.read_line(&mut line).expect("stockfish output") == 0 {
                panic!("stockfish exited");
            }
            if line.starts_with(prefix) {
                return line.trim().to_owned();
            }
        }
    }
}

impl Drop for Stockfish {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

/// The result of one game for our engine: 1, ½ or 0, and why.
fn play_game(
    sf: &mut Stockfish,
    session: &mut UciSession,
    opening: &[String],
    we_are_white: bool,
    base: Duration,
    inc: Duration,
) -> (f64, String) {
    let mut pos = Position::startpos();
    for mv in opening {
        pos.play_unchecked(pos.parse_uci(mv).expect("opening lines are legal"));
    }
    let mut moves: Vec<String> = opening.to_vec();
    let mut keys = vec![pos.key()];
    let mut clock = [base, base];
    session.handle("ucinewgame");
    sf.send("ucinewgame");
    loop {
        if let Some(outcome) = Game::outcome(&pos) {
            let ours = (pos.turn() == Color::White) == we_are_white;
            return match (outcome, ours) {
                (Outcome::Draw, _) => (0.5, "draw by rule".into()),
                (Outcome::Loss, true) | (Outcome::Win, false) => (0.0, "mated".into()),
                _ => (1.0, "mates".into()),
            };
        }
        if keys.iter().filter(|&&k| k == pos.key()).count() >= 3 {
            return (0.5, "repetition".into());
        }
        let side = pos.turn().index();
        let ours = (pos.turn() == Color::White) == we_are_white;
        let position = format!("position startpos moves {}", moves.join(" "));
        let go = format!(
            "go wtime {} btime {} winc {} binc {}",
            clock[0].as_millis(),
            clock[1].as_millis(),
            inc.as_millis(),
            inc.as_millis()
        );
        let start = Instant::now();
        let best = if ours {
            session.handle(&position);
            let Action::Search(job) = session.command(&go) else { panic!("go starts a search") };
            let mut last = String::new();
            run_search(&session.engine(), &job, &SearchControl::default(), &mut |line| last = line);
            last.split_whitespace().nth(1).unwrap_or("0000").to_owned()
        } else {
            sf.send(&position);
            sf.send(&go);
            sf.wait_for("bestmove").split_whitespace().nth(1).unwrap_or("0000").to_owned()
        };
        let spent = start.elapsed();
        if spent > clock[side] {
            return (if ours { 0.0 } else { 1.0 }, format!("{} lost on time", if ours { "we" } else { "stockfish" }));
        }
        clock[side] = clock[side] - spent + inc;
        let mv: Move = match pos.parse_uci(&best) {
            Ok(mv) => mv,
            Err(_) => return (if ours { 0.0 } else { 1.0 }, format!("illegal move {best}")),
        };
        pos.play_unchecked(mv);
        if pos.halfmove_clock() == 0 {
            keys.clear();
        }
        keys.push(pos.key());
        moves.push(best);
    }
}

fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let games = arg(0, 64) as usize;
    let level = arg(1, 1500) as u32;
    let base = Duration::from_millis(arg(2, 10_000));
    let inc = Duration::from_millis(arg(3, 100));
    let path = args.get(4).cloned().unwrap_or_else(|| "/usr/games/stockfish".to_owned());
    let openings: Vec<Vec<String>> = include_str!("../tests/data/openings.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().map(str::to_owned).collect())
        .collect();
    let mut sf = match Stockfish::start(&path, level) {
        Ok(sf) => sf,
        Err(e) => {
            eprintln!("cannot start {path}: {e}");
            std::process::exit(2);
        }
    };
    let mut session = UciSession::new();
    session.handle("setoption name Hash value 32");
    let (mut w, mut d, mut l) = (0, 0, 0);
    let mut scores = Vec::new();
    for g in 0..games {
        let opening = &openings[(g / 2) % openings.len()];
        let white = g % 2 == 0;
        let (score, why) = play_game(&mut sf, &mut session, opening, white, base, inc);
        match score {
            s if s > 0.75 => w += 1,
            s if s < 0.25 => l += 1,
            _ => d += 1,
        }
        scores.push(score);
        println!("game {:>3} as {}: {score} ({why})   W {w} D {d} L {l}", g + 1, if white { "white" } else { "black" });
    }
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let sd = (scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n).sqrt();
    let margin = 1.96 * sd / n.sqrt();
    println!(
        "vs Stockfish UCI_Elo {level} at {:.1}+{:.2}s: {games} games, W {w} D {d} L {l}, score {:.1}%, Elo {:+.0} ± {:.0}",
        base.as_secs_f64(),
        inc.as_secs_f64(),
        100.0 * mean,
        elo(mean),
        (elo(mean + margin) - elo(mean - margin)) / 2.0
    );
}
