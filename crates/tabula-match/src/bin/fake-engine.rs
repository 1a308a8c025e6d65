//! `tabula-fake-engine`: a scripted misbehaving engine for testing the match runner.
//!
//! `tabula-fake-engine --protocol uci|gtp|gomocup --mode MODE [--after N] [--playouts N]` plays random legal
//! moves for its first N moves, then does what MODE says on every later move: `random`, `crash`, `hang`,
//! `illegal`, `garbage`, `slow`, and for GTP only `refuse` (a `?` to `genmove`) and `resign` (random moves in
//! the other protocols). `tabula` runs Tabula's own engine for the protocol, for GTP with one thread and a
//! fixed number of playouts per move if `--playouts` is given.
//!
//! The mode can also be set as an engine option, to test that options arrive: UCI `setoption name Mode
//! value crash`, Gomocup `INFO mode crash`, GTP `mode crash`.

use std::io::{BufRead, Write};
use std::time::Duration;

use tabula::rng::Rng;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Random,
    Crash,
    Hang,
    Illegal,
    Garbage,
    Slow,
    Refuse,
    Resign,
    /// Random moves; Gomocup `INFO` lines it has no use for answered with `ERROR` (as some engines do).
    Complain,
}

impl Mode {
    fn parse(name: &str) -> Option<Mode> {
        Some(match name.to_ascii_lowercase().as_str() {
            "random" | "tabula" => Mode::Random,
            "crash" => Mode::Crash,
            "hang" => Mode::Hang,
            "illegal" => Mode::Illegal,
            "garbage" => Mode::Garbage,
            "slow" => Mode::Slow,
            "refuse" => Mode::Refuse,
            "resign" => Mode::Resign,
            "complain" => Mode::Complain,
            _ => return None,
        })
    }
}

struct Fake {
    mode: Mode,
    after: usize,
    moves: usize,
    rng: Rng,
    out: std::io::Stdout,
}

impl Fake {
    fn say(&mut self, line: &str) {
        let mut out = self.out.lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    /// The mode for this move: `Random` until `after` moves were played.
    fn next_mode(&mut self, slow: Duration) -> Mode {
        self.moves += 1;
        if self.moves <= self.after {
            return Mode::Random;
        }
        match self.mode {
            Mode::Crash => std::process::exit(3),
            Mode::Hang => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
            Mode::Slow => {
                std::thread::sleep(slow * 2 + Duration::from_millis(300));
                Mode::Random
            }
            mode => mode,
        }
    }
}

fn uci(fake: &mut Fake, line: &str) {
    use tabula_chess::Position;
    thread_local!(static POS: std::cell::RefCell<Position> = std::cell::RefCell::new(Position::startpos()));
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.first().copied() {
        Some("uci") => {
            fake.say("id name fake");
            fake.say("uciok");
        }
        Some("isready") => fake.say("readyok"),
        Some("setoption") if words.get(2).is_some_and(|w| w.eq_ignore_ascii_case("mode")) => {
            if let Some(mode) = words.get(4).and_then(|w| Mode::parse(w)) {
                fake.mode = mode;
            }
        }
        Some("position") => {
            let moves_at = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
            let mut pos = if words.get(1) == Some(&"fen") {
                Position::from_fen(&words[2..moves_at].join(" ")).unwrap_or_else(|_| Position::startpos())
            } else {
                Position::startpos()
            };
            for m in words.iter().skip(moves_at + 1) {
                if let Ok(mv) = pos.parse_uci(m) {
                    pos.play_unchecked(mv);
                }
            }
            POS.with(|p| *p.borrow_mut() = pos);
        }
        Some("go") => {
            let number =
                |key: &str| words.iter().position(|w| *w == key).and_then(|i| words.get(i + 1)?.parse::<u64>().ok());
            let slow = Duration::from_millis(number("movetime").or(number("wtime")).unwrap_or(1000));
            let mode = fake.next_mode(slow);
            let reply = POS.with(|p| {
                let pos = p.borrow();
                match mode {
                    Mode::Illegal => {
                        let bad = ["a1h8", "h1a8", "e2e5", "a8a1", "d4d6", "b1b8"];
                        let mv = bad.iter().find(|m| pos.parse_uci(m).is_err()).unwrap_or(&"a1a8");
                        format!("bestmove {mv}")
                    }
                    Mode::Garbage => "bestmove !!??".to_string(),
                    _ => {
                        let moves = pos.legal_moves();
                        let mv = moves.as_slice()[fake.rng.below(moves.len())];
                        format!("bestmove {}", mv.to_uci())
                    }
                }
            });
            if mode == Mode::Garbage {
                fake.say("hello, I am not a chess engine");
            }
            fake.say("info depth 1 score cp 0");
            fake.say(&reply);
        }
        Some("quit") => std::process::exit(0),
        _ => {}
    }
}

/// The GTP fake: tracks the game with Tabula's rules so that its random moves are legal.
fn gtp(fake: &mut Fake, line: &str, game: &mut tabula_go::Position, seconds: &mut u64) {
    use tabula_go::{Color, Move, Rules};
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(&command) = words.first() else { return };
    let answer: Result<String, String> = match command {
        "protocol_version" => Ok("2".into()),
        "name" => Ok("fake".into()),
        "version" => Ok("1".into()),
        "boardsize" => match words
            .get(1)
            .and_then(|n| n.parse().ok())
            .and_then(|n| tabula_go::Position::new(n, Rules::default()).ok())
        {
            Some(g) => {
                *game = g;
                Ok(String::new())
            }
            None => Err("unacceptable size".into()),
        },
        "clear_board" => {
            *game = tabula_go::Position::new(game.size(), game.rules()).expect("size was accepted");
            Ok(String::new())
        }
        "komi" | "time_settings" => Ok(String::new()),
        "time_left" => {
            *seconds = words.get(2).and_then(|t| t.parse().ok()).unwrap_or(0);
            Ok(String::new())
        }
        "mode" => match words.get(1).and_then(|m| Mode::parse(m)) {
            Some(mode) => {
                fake.mode = mode;
                Ok(String::new())
            }
            None => Err("unknown mode".into()),
        },
        "play" => {
            let color = words.get(1).and_then(|c| Color::from_gtp(c));
            let mv = words.get(2).and_then(|m| Move::from_gtp(m, game.size()).ok());
            match (color, mv) {
                (Some(c), Some(m)) => game.play(m, c).map(|()| String::new()).map_err(|e| e.to_string()),
                _ => Err("syntax error".into()),
            }
        }
        "genmove" => {
            let color = words.get(1).and_then(|c| Color::from_gtp(c)).unwrap_or(Color::Black);
            // Slow: well over the time the controller said is left (a second when it said nothing or 0).
            let mode = fake.next_mode(Duration::from_secs((*seconds).max(1)));
            match mode {
                Mode::Illegal => {
                    // A point already taken, or off the board if none is.
                    let taken = game.board().points().find(|&p| game.board().get(p).is_some());
                    Ok(taken.map_or("Z99".to_string(), |p| p.to_gtp()))
                }
                Mode::Garbage => {
                    fake.say("I like bananas");
                    return;
                }
                Mode::Refuse => Err("not today".into()),
                Mode::Resign => Ok("resign".into()),
                _ => {
                    let mut moves = Vec::new();
                    game.legal_moves_for(color, &mut moves);
                    // Never fill an own eye, so that random games end.
                    let board = game.board();
                    moves.retain(|m| match m {
                        Move::Play(p) => !board.neighbors(*p).all(|n| board.get(n) == Some(color)),
                        Move::Pass => false,
                    });
                    let mv = if moves.is_empty() { Move::Pass } else { moves[fake.rng.below(moves.len())] };
                    game.play(mv, color).expect("legal moves are legal");
                    Ok(mv.to_gtp())
                }
            }
        }
        "quit" => {
            fake.say("=\n");
            std::process::exit(0)
        }
        _ => Err("unknown command".into()),
    };
    match answer {
        Ok(text) => fake.say(&format!("= {text}\n")),
        Err(text) => fake.say(&format!("? {text}\n")),
    }
}

fn gomocup(
    fake: &mut Fake,
    line: &str,
    board: &mut tabula_gomoku::Board,
    reading_board: &mut Option<Vec<(tabula_gomoku::Point, u8)>>,
) {
    use tabula_gomoku::{Board, Rule};
    let line = line.trim();
    let upper = line.to_ascii_uppercase();
    if let Some(stones) = reading_board.as_mut() {
        if upper == "DONE" {
            let stones = reading_board.take().unwrap_or_default();
            let mut fresh = Board::new(board.width(), board.height(), board.rule()).expect("size was accepted");
            // Own stones (1) and the opponent's (2) alternate in the order given.
            for (p, _) in stones {
                let _ = fresh.play(p);
            }
            *board = fresh;
        } else {
            let parts: Vec<u8> = line.split(',').filter_map(|t| t.trim().parse().ok()).collect();
            if let [x, y, who] = parts[..] {
                stones.push((tabula_gomoku::Point::new(x, y), who));
            }
            return;
        }
    } else if let Some(size) = upper.strip_prefix("START ") {
        match size.trim().parse().ok().and_then(|n| Board::new(n, n, Rule::Freestyle).ok()) {
            Some(b) => {
                *board = b;
                fake.say("OK");
            }
            None => fake.say("ERROR unsupported size"),
        }
        return;
    } else if upper == "BOARD" {
        *reading_board = Some(Vec::new());
        return;
    } else if let Some(mode) = upper.strip_prefix("INFO MODE ") {
        if let Some(mode) = Mode::parse(mode.trim()) {
            fake.mode = mode;
        }
        return;
    } else if let Some(code) = upper.strip_prefix("INFO RULE ") {
        // The referee's rule decides what wins and what black may play: follow it, or the boards part.
        let rule = match code.trim() {
            "1" => Rule::Standard,
            "4" => Rule::Renju,
            _ => Rule::Freestyle,
        };
        if let Ok(b) = board.with_rule(rule) {
            *board = b;
        }
        return;
    } else if let Some(at) = upper.strip_prefix("TURN ") {
        if let Ok(p) = board.parse_point(at) {
            let _ = board.play(p);
        }
    } else if upper == "END" {
        std::process::exit(0);
    } else if upper == "ABOUT" {
        fake.say("name=\"fake\"");
        return;
    } else if upper.starts_with("INFO ") && fake.mode == Mode::Complain {
        let key = upper["INFO ".len()..].split_whitespace().next().unwrap_or_default();
        fake.say(&format!("ERROR Unknown command: {key}"));
        return;
    } else if upper != "BEGIN" {
        return;
    }
    let mode = fake.next_mode(Duration::from_secs(1));
    let reply = match mode {
        Mode::Illegal => board.moves().first().map_or("99,99".to_string(), |p| p.to_string()),
        Mode::Garbage => "banana".to_string(),
        _ => {
            let empty: Vec<_> = (0..board.height())
                .flat_map(|y| (0..board.width()).map(move |x| tabula_gomoku::Point::new(x as u8, y as u8)))
                // `is_legal` only speaks of renju's forbidden points: the point must be empty as well.
                .filter(|&p| board.is_empty_point(p) && board.is_legal(p))
                .collect();
            match fake.rng.pick(&empty) {
                Some(&p) => {
                    let _ = board.play(p);
                    p.to_string()
                }
                None => "ERROR the board is full".to_string(),
            }
        }
    };
    fake.say(&reply);
}

/// Tabula's own engines, for real matches in tests (`uci` chess, `uci-xiangqi`, `gtp`, `gomocup`); Go with one
/// thread and `playouts` per move if given.
fn tabula(protocol: &str, playouts: Option<u64>) {
    match protocol {
        "gtp" => {
            use tabula_go::mcts::{Config, Mcts};
            let config = match playouts {
                Some(n) => Config { threads: 1, playouts: Some(n), ..Config::default() },
                None => Config::default(),
            };
            let mut session = tabula_go::GtpSession::with_picker(Mcts::new(config), tabula_go::Rules::default());
            let _ = tabula_go::gtp::run_stdio(&mut session);
        }
        "gomocup" => {
            let _ = tabula_gomoku::gomocup::run_stdio();
        }
        "uci-xiangqi" => {
            let _ = tabula_xiangqi::engine::uci::run_stdio();
        }
        _ => {
            let _ = tabula_chess::engine::uci::run_stdio();
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |key: &str| args.iter().position(|a| a == key).and_then(|i| args.get(i + 1)).map(String::as_str);
    let name = value("--mode").unwrap_or("random");
    let Some(mode) = Mode::parse(name) else {
        eprintln!("unknown mode {name}");
        std::process::exit(2);
    };
    if name == "tabula" {
        tabula(value("--protocol").unwrap_or("uci"), value("--playouts").and_then(|n| n.parse().ok()));
        return;
    }
    let after = value("--after").and_then(|n| n.parse().ok()).unwrap_or(0);
    let seed = Rng::from_clock().next_u64() ^ u64::from(std::process::id());
    let mut fake = Fake { mode, after, moves: 0, rng: Rng::new(seed), out: std::io::stdout() };
    let protocol = value("--protocol").unwrap_or("uci").to_string();
    let mut go = tabula_go::Position::new(9, tabula_go::Rules::default()).expect("9 is a valid size");
    let mut gomoku = tabula_gomoku::Board::new(15, 15, tabula_gomoku::Rule::Freestyle).expect("15 is a valid size");
    let mut reading = None;
    let mut seconds = 0;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        match protocol.as_str() {
            "gtp" => gtp(&mut fake, &line, &mut go, &mut seconds),
            "gomocup" => gomocup(&mut fake, &line, &mut gomoku, &mut reading),
            _ => uci(&mut fake, &line),
        }
    }
}
