//! Fits the Gomoku evaluation's weights to a stronger engine's judgement, in three steps:
//!
//! ```text
//! cargo run --release -p tabula-gomoku --example eval_tune -- COMMAND ...
//!
//! eval_tune gen OUT [--games N] [--ms MS] [--seed S] [--rule R] [--threads N]
//! eval_tune label IN OUT --engine CMD [--ms MS] [--rule R] [--threads N]
//! eval_tune hand OUT
//! eval_tune fit LABELLED OUT [--start WEIGHTS] [--epochs N] [--rate R] [--l2 X] [--share X] [--no-mates] [--rule R]
//! eval_tune review GAMES --player NAME --engine CMD [--ms MS] [--opening N] [--lost] [--rule R] [--threads N]
//! eval_tune probe GAMES --player NAME --colour C --engine CMD... --judge CMD [--ms MS] [--judge-ms MS]
//!     [--judge-scale X] [--info K:KEY=VALUE...] [--first N] [--opening N] [--lost] [--rule R] [--threads N]
//! ```
//!
//! Every command works on 15×15 boards under one rule, `--rule` (freestyle, standard or renju; freestyle by
//! default): a data file does not say its rule, so each step of one data set is given the same.
//!
//! - `gen` plays the engine against itself (`--ms` milliseconds a move) from the balanced openings of
//!   `data/openings-freestyle.txt` (under renju, those black's forbidden points allow), each followed by up to
//!   four random moves, and writes every position after the opening that the evaluation's tactics do not
//!   settle and the side to move is not forced in, with the game's result for the side to move:
//!   `moves;result` (1, 0.5 or 0).
//! - `label` asks a Gomocup engine that reports its search as Rapfi does (`MESSAGE ... | Eval V | ...`, the
//!   value for the side to move) for its evaluation of each position at `--ms` milliseconds a move, by `BOARD`,
//!   and appends it: `moves;result;value`. One engine process per thread.
//! - `hand` writes the hand-set weights the first fit started from ([`Weights::hand_set`]).
//! - `fit` minimises the mean squared error between `sigmoid(K · eval)` and the target
//!   `share · sigmoid(value / 200) + (1 − share) · result` (Rapfi's win rate is `sigmoid(value / 200)`) over the
//!   weights of [`Weights`], starting from the embedded ones or a `--start` file, after fitting `K` to them (Adam on the exact
//!   gradient, full batch, with an L2 pull of strength `l2` towards the start), and writes the new weights file.
//!   Every tenth block of 500 positions (whole games, most of them) is held out and its error reported;
//!   `--no-mates` leaves out the positions the outside engine reports a forced win or loss in.
//!
//! And to find where games are lost, by the same outside engine's judgement:
//!
//! - `review` plays through the games of a `tabula match` record (`-o` of a Gomoku match, 15×15)
//!   and, at each move of `--player` after the opening's `--opening` stones, asks the outside engine for the
//!   position before the move (its value for the player and its own choice) and after it (its value for the
//!   opponent): a line per move with the change, marking a forced win let go and a move into a forced loss,
//!   and a summary. A game is followed until the player's position is a forced loss.
//! - `probe` compares engines on the positions where `--player` was to move as `--colour` in its first
//!   `--first` moves after the opening: each engine (any Gomocup command, so two builds or two settings) is
//!   given `--ms` milliseconds a position, and the outside engine (`--judge`) values the position after each
//!   move chosen, and after its own choice. The values are read as win rates (`sigmoid(value / 200)`, a forced
//!   result 1 or 0) and each engine's mean is compared with the first engine's on the same positions (a move
//!   two engines share is valued once, so only different choices count). `--info 2:tabula_weights=w.txt`
//!   sends the second engine `INFO tabula_weights w.txt` after the start. This measures a change where the
//!   games are decided, in minutes, where a match needs hundreds of games to see it. The judge may also be
//!   `pbrain-tabula` (its `MESSAGE ... score S`), with `--judge-scale` turning its values into Rapfi's units:
//!   a second judge, to tell a better move from the judge preferring its own kind of move.

use anyhow::{bail, Context};
use clap::Parser;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;
use tabula::game::{Game, HookedGame};
use tabula::rng::Rng;
use tabula::search::Limits;
use tabula::tune::{golden_min, next_block, on_threads};
use tabula_gomoku::engine::eval::{Features, Weights, CLASSES};
use tabula_gomoku::{Board, Color, Engine, Point, Rule};
use tabula_protocol::process::Process;

/// The data and fitting tools of the Gomoku evaluation.
#[derive(Parser)]
#[command(name = "eval_tune", about = "Data and fitting for the Gomoku evaluation")]
enum Command {
    /// Self-play positions with the game's result: `moves;result`.
    Gen {
        /// Output file.
        out: String,
        /// Games to play.
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Milliseconds a move.
        #[arg(long, default_value_t = 30)]
        ms: u64,
        /// Seed of the random starts.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The rule: freestyle, standard or renju.
        #[arg(long, default_value = "freestyle")]
        rule: Rule,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Appends an outside engine's evaluation to each `moves;result` line.
    Label {
        /// `moves;result` lines.
        input: String,
        /// Output file.
        out: String,
        /// The engine's command line.
        #[arg(long)]
        engine: String,
        /// Milliseconds a position.
        #[arg(long, default_value_t = 60)]
        ms: u64,
        /// The rule: freestyle, standard or renju.
        #[arg(long, default_value = "freestyle")]
        rule: Rule,
        /// Engines run at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Reviews one player's moves in a `tabula match` record by an outside engine's values.
    Review {
        #[command(flatten)]
        selection: Selection,
        /// The reviewing engine's command line.
        #[arg(long)]
        engine: String,
        /// Milliseconds a position.
        #[arg(long, default_value_t = 1000)]
        ms: u64,
        /// Engines run at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Compares engines' choices in one player's early positions of a record by an outside engine's values.
    Probe {
        #[command(flatten)]
        selection: Selection,
        /// The player's colour in the games taken: `black` or `white`.
        #[arg(long)]
        colour: String,
        /// An engine to compare (a Gomocup command line); give two or more.
        #[arg(long = "engine", required = true)]
        engines: Vec<String>,
        /// The judging engine's command line.
        #[arg(long)]
        judge: String,
        /// `K:KEY=VALUE`: `INFO KEY VALUE` for the K-th engine (from 1), after the others.
        #[arg(long)]
        info: Vec<String>,
        /// Milliseconds a position for the compared engines.
        #[arg(long, default_value_t = 1000)]
        ms: u64,
        /// Milliseconds a position for the judge.
        #[arg(long, default_value_t = 500)]
        judge_ms: u64,
        /// Rapfi's value units in one of the judge's: a value `v` is the win rate `sigmoid(scale · v / 200)`
        /// (1 for Rapfi; about 0.16 for `pbrain-tabula`, its evaluation's fitted scale). A reported win or
        /// loss is not scaled.
        #[arg(long, default_value_t = 1.0)]
        judge_scale: f64,
        /// The player's moves taken from each game, after the opening.
        #[arg(long, default_value_t = 3)]
        first: usize,
        /// Positions worked on at once (each with its own engines).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Writes the hand-set weights the first fit started from.
    Hand {
        /// The weights file to write.
        out: String,
    },
    /// Fits the weights to `moves;result;value` lines and writes the weights file.
    Fit {
        /// Labelled positions.
        input: String,
        /// The weights file to write.
        out: String,
        /// Full-batch Adam steps.
        #[arg(long, default_value_t = 800)]
        epochs: usize,
        /// The pull towards the starting weights (10⁻⁷ already holds them within a few units of the start).
        #[arg(long, default_value_t = 0.0)]
        l2: f64,
        /// The outside evaluation's share of the target; the game result has the rest.
        #[arg(long, default_value_t = 0.75)]
        share: f64,
        /// Adam's step, in sixteenths of a unit (a quarter of it for the last quarter of the steps).
        #[arg(long, default_value_t = 64.0)]
        rate: f64,
        /// The weights file to start from (as `hand` writes); the embedded weights if absent.
        #[arg(long)]
        start: Option<String>,
        /// Leave out the positions the outside engine reports a forced win or loss in.
        #[arg(long)]
        no_mates: bool,
        /// The rule: freestyle, standard or renju.
        #[arg(long, default_value = "freestyle")]
        rule: Rule,
    },
}

/// The games of a `tabula match` record that `review` and `probe` look at, and the moves in them.
#[derive(clap::Args)]
struct Selection {
    /// The games, as `tabula match -o` writes them.
    games: String,
    /// The player looked at, named as the record names it.
    #[arg(long)]
    player: String,
    /// The stones of each game's opening, not looked at.
    #[arg(long, default_value_t = 4)]
    opening: usize,
    /// Only the games the player lost.
    #[arg(long)]
    lost: bool,
    /// The rule the games were played under: freestyle, standard or renju.
    #[arg(long, default_value = "freestyle")]
    rule: Rule,
}

impl Selection {
    /// The games the player played (only those it lost, with `lost`), with its seat: 0 black, 1 white.
    fn read(&self) -> anyhow::Result<Vec<(Record, usize)>> {
        let games: Vec<(Record, usize)> = read_records(&self.games)?
            .into_iter()
            .filter_map(|r| {
                let seat = r.names.iter().position(|n| *n == self.player)?;
                let won = r.result == ["1-0", "0-1"][seat];
                (!self.lost || (!won && r.result != "1/2-1/2")).then_some((r, seat))
            })
            .collect();
        if games.is_empty() {
            bail!("{}: no game of {:?}{}", self.games, self.player, if self.lost { " lost" } else { "" });
        }
        Ok(games)
    }
}

fn main() -> anyhow::Result<()> {
    match Command::parse() {
        Command::Gen { out, games, ms, seed, rule, threads } => gen(&out, games, ms, seed, rule, threads),
        Command::Label { input, out, engine, ms, rule, threads } => label(&input, &out, &engine, ms, rule, threads),
        Command::Review { selection, engine, ms, threads } => review(&ReviewOptions { selection, engine, ms, threads }),
        Command::Probe { selection, colour, engines, judge, info, ms, judge_ms, judge_scale, first, threads } => {
            let seat = match colour.as_str() {
                "black" => 0,
                "white" => 1,
                _ => bail!("--colour is black or white, not {colour:?}"),
            };
            let mut infos = Vec::new();
            for text in &info {
                let parsed =
                    text.split_once(':').and_then(|(k, kv)| Some((k.parse::<usize>().ok()?, kv.split_once('=')?)));
                match parsed {
                    Some((k, (key, value))) if (1..=engines.len()).contains(&k) && !key.is_empty() => {
                        infos.push((k - 1, format!("INFO {key} {value}")))
                    }
                    _ => bail!("--info {text:?}: expected K:KEY=VALUE, K an engine from 1 to {}", engines.len()),
                }
            }
            probe(&ProbeOptions { selection, seat, engines, infos, judge, ms, judge_ms, judge_scale, first, threads })
        }
        Command::Hand { out } => {
            std::fs::write(&out, Weights::hand_set().to_text()).with_context(|| format!("cannot write {out}"))
        }
        Command::Fit { input, out, epochs, l2, share, rate, start, no_mates, rule } => {
            let start = match start {
                Some(path) => Weights::read(path.as_ref())?,
                None => tabula_gomoku::engine::eval::embedded_weights(),
            };
            fit(&input, &out, &start, &FitOptions { epochs, l2, share, rate, no_mates, rule })
        }
    }
}

/// The text lines of a data file; a line that is not text is reported and left out.
fn read_lines(path: &str) -> anyhow::Result<Vec<String>> {
    Ok(tabula_protocol::lines::read_lines(path, |bad| eprintln!("{path}: {bad}; left out"))?)
}

/// A shared output file, written a block of lines at a time.
struct Output(Mutex<(String, BufWriter<File>)>);

impl Output {
    fn create(path: &str) -> anyhow::Result<Output> {
        let file = File::create(path).with_context(|| format!("cannot create {path}"))?;
        Ok(Output(Mutex::new((path.to_owned(), BufWriter::new(file)))))
    }

    fn write(&self, lines: &[String]) -> anyhow::Result<()> {
        let mut guard = self.0.lock().expect("no panic while writing");
        let (path, file) = &mut *guard;
        for line in lines {
            writeln!(file, "{line}").with_context(|| format!("cannot write {path}"))?;
        }
        file.flush().with_context(|| format!("cannot write {path}"))
    }
}

/// `gen`: self-play games from the balanced openings with a few random moves after them.
fn gen(out: &str, games: usize, ms: u64, seed: u64, rule: Rule, threads: usize) -> anyhow::Result<()> {
    let openings: Vec<&str> = include_str!("../data/openings-freestyle.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let out = Output::create(out)?;
    let next = AtomicUsize::new(0);
    let written = AtomicUsize::new(0);
    on_threads(threads, || -> anyhow::Result<()> {
        let mut engine = Engine::new(16);
        loop {
            let game = next.fetch_add(1, Ordering::Relaxed);
            if game >= games {
                return Ok(());
            }
            let mut rng = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(game as u64));
            let opening = openings[rng.below(openings.len())];
            // An opening may break a rule stricter than freestyle (a forbidden point of renju's black): the next.
            let Ok(mut board) = Board::from_moves(15, 15, rule, opening) else { continue };
            let mut moves = Vec::new();
            for _ in 0..rng.below(5) {
                moves.clear();
                board.legal_moves(&mut moves);
                if let Some(&p) = rng.pick(&moves) {
                    board.play(p)?;
                }
            }
            engine.clear();
            let mut positions: Vec<(String, Color)> = Vec::new();
            while board.winner().is_none() && !board.is_full() {
                if !board.in_check() && Features::of(&board).is_some() {
                    positions.push((board.format_moves(board.moves()), board.side_to_move()));
                }
                let thought = engine.think(&board, &Limits::time(Duration::from_millis(ms)));
                let Some(best) = thought.best else { bail!("no move in {}", board.format_moves(board.moves())) };
                board.play(best)?;
            }
            let winner = board.winner();
            let lines: Vec<String> = positions
                .into_iter()
                .map(|(moves, side)| {
                    let result = match winner {
                        None => 0.5,
                        Some(w) if w == side => 1.0,
                        Some(_) => 0.0,
                    };
                    format!("{moves};{result}")
                })
                .collect();
            out.write(&lines)?;
            let total = written.fetch_add(lines.len(), Ordering::Relaxed) + lines.len();
            eprintln!("game {} done, {total} positions", game + 1);
        }
    })
}

/// The value given to a reported win (`+M15`, `win in 7`) or loss: a win rate of 1 or 0 to six decimals
/// (never scaled).
const MATE_VALUE: i32 = 3_000;

/// The value the last `MESSAGE` line among `answer` reports: Rapfi's `Eval V` (`+M15` a win), or
/// `pbrain-tabula`'s `score S` (`score win in 7` a win); a value other than a win or loss is multiplied by
/// `scale` (Rapfi's units in one of the engine's).
fn reported_value(answer: &[String], scale: f64) -> Option<i32> {
    let value = |word: &str| word.parse::<i32>().ok().map(|v| (f64::from(v) * scale).round() as i32);
    answer.iter().rev().find_map(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(at) = words.iter().position(|&w| w == "Eval") {
            let word = *words.get(at + 1)?;
            return match word.get(..2) {
                Some("+M") => Some(MATE_VALUE),
                Some("-M") => Some(-MATE_VALUE),
                _ => value(word),
            };
        }
        let at = words.iter().position(|&w| w == "score")?;
        match *words.get(at + 1)? {
            "win" => Some(MATE_VALUE),
            "loss" => Some(-MATE_VALUE),
            word => value(word),
        }
    })
}

/// Waits until the engine takes commands again after a move. An engine may print its move a moment before it
/// is ready for the next command (Rapfi drops a command that arrives in between), so after a short pause
/// `ABOUT` is asked until it is answered.
fn settle(engine: &mut Process) -> anyhow::Result<()> {
    for attempt in 1..=20 {
        std::thread::sleep(Duration::from_millis(2 * attempt));
        match engine.ask("ABOUT", Duration::from_millis(100), |l| l.trim_start().starts_with("name=")) {
            Ok(_) => return Ok(()),
            Err(tabula_protocol::process::EngineError::Timeout(..)) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    bail!("the engine does not answer ABOUT")
}

/// A Gomocup engine (15×15, one rule) asked for its move and value in one position after another, with the
/// memory a Gomocup match gives (350 MB).
struct GomocupEngine {
    process: Process,
    /// Rapfi's value units in one of the engine's ([`reported_value`]).
    scale: f64,
}

impl GomocupEngine {
    /// Starts `command` on `rule`, thinking `ms` milliseconds a position; its values are taken as in Rapfi's
    /// units.
    fn start(command: &str, ms: u64, rule: Rule) -> anyhow::Result<GomocupEngine> {
        let argv = tabula_protocol::process::split_command(command)?;
        let mut engine = Process::spawn(&argv)?;
        engine.ask("START 15", Self::PATIENCE, |l| l.trim() == "OK").context("the engine does not start")?;
        let turn = format!("INFO timeout_turn {ms}");
        let rule = format!("INFO rule {}", rule.gomocup_code());
        for info in [&rule, &turn, "INFO timeout_match 1000000000", "INFO max_memory 367001600"] {
            engine.send(info)?;
        }
        Ok(GomocupEngine { process: engine, scale: 1.0 })
    }

    /// The same engine, its values read as `scale` of Rapfi's units each.
    fn with_scale(mut self, scale: f64) -> GomocupEngine {
        self.scale = scale;
        self
    }

    /// Sends an `INFO` line and fails if the engine answers it with `ERROR` (asking `ABOUT` to be sure
    /// every answer has come).
    fn inform(&mut self, info: &str) -> anyhow::Result<()> {
        self.process.send(info)?;
        let answer = self.process.ask("ABOUT", Self::PATIENCE, |l| l.trim_start().starts_with("name="))?;
        match answer.iter().find(|l| l.starts_with("ERROR")) {
            Some(error) => bail!("{info}: {error}"),
            None => Ok(()),
        }
    }

    /// How long a position may take before the engine is given up on.
    const PATIENCE: Duration = Duration::from_secs(60);

    /// The engine's move in `board` and the value it reports for the side to move, if it reports one; a
    /// win at once is a forced win whether reported or not (an engine may play a five without searching).
    fn ask(&mut self, board: &Board) -> anyhow::Result<(Point, Option<i32>)> {
        let is_move = |l: &str| l.trim().split(',').all(|n| n.parse::<u8>().is_ok());
        let answer = self.process.ask(&board.gomocup_board(), Self::PATIENCE, is_move)?;
        settle(&mut self.process)?;
        let last = answer.last().map(|l| l.trim()).unwrap_or_default();
        let best = board.parse_point(last).with_context(|| format!("the engine answered {last:?}"))?;
        let mut after = board.clone();
        after.play(best).with_context(|| format!("the engine answered {last:?}"))?;
        let wins = after.winner() == Some(board.side_to_move());
        Ok((best, if wins { Some(MATE_VALUE) } else { reported_value(&answer, self.scale) }))
    }
}

impl Drop for GomocupEngine {
    fn drop(&mut self) {
        let _ = self.process.send("END");
    }
}

/// `label`: each position's value by an outside engine.
fn label(input: &str, out: &str, command: &str, ms: u64, rule: Rule, threads: usize) -> anyhow::Result<()> {
    const BLOCK: usize = 200;
    let lines = read_lines(input)?;
    let out = Output::create(out)?;
    let next = AtomicUsize::new(0);
    let kept = AtomicUsize::new(0);
    on_threads(threads, || -> anyhow::Result<()> {
        let mut judge = GomocupEngine::start(command, ms, rule)?;
        while let Some((first, block)) = next_block(&lines, &next, BLOCK) {
            let mut written = Vec::new();
            for entry in block {
                let moves = entry.split(';').next().unwrap_or_default();
                let Ok(board) = Board::from_moves(15, 15, rule, moves) else { continue };
                match judge.ask(&board).with_context(|| format!("no move for {moves}"))? {
                    (_, Some(value)) => written.push(format!("{entry};{value}")),
                    (_, None) => eprintln!("no value for {moves}"),
                }
            }
            out.write(&written)?;
            let k = kept.fetch_add(written.len(), Ordering::Relaxed) + written.len();
            eprintln!("{k} labelled ({} read)", (first + BLOCK).min(lines.len()));
        }
        Ok(())
    })
}

/// One game of a `tabula match` record.
struct Record {
    /// Where its header is, `file:line`.
    at: String,
    round: String,
    /// The players, black first.
    names: [String; 2],
    /// `1-0`, `0-1` or `1/2-1/2`.
    result: String,
    moves: String,
}

/// The games of a `tabula match` Gomoku record: a header `# Round R Black "B" White "W" Result T (reason)`,
/// the moves on the next line, blank lines between games.
fn read_records(path: &str) -> anyhow::Result<Vec<Record>> {
    let lines = read_lines(path)?;
    let mut records = Vec::new();
    let mut lines = lines.iter().enumerate().filter(|(_, l)| !l.trim().is_empty());
    while let Some((n, header)) = lines.next() {
        let at = format!("{path}:{}", n + 1);
        let parts: Vec<&str> = header.split('"').collect();
        let round = parts[0].strip_prefix("# Round ").and_then(|r| r.strip_suffix(" Black "));
        let result = parts.get(4).and_then(|r| r.strip_prefix(" Result ")).and_then(|r| r.split_whitespace().next());
        let (Some(round), Some(result), 5, Some(&" White ")) = (round, result, parts.len(), parts.get(2)) else {
            bail!("{at}: not a game's header (# Round R Black \"B\" White \"W\" Result T): {header}");
        };
        let Some((_, moves)) = lines.next() else { bail!("{at}: the game has no moves line") };
        let names = [parts[1].to_owned(), parts[3].to_owned()];
        records.push(Record { at, round: round.to_owned(), names, result: result.to_owned(), moves: moves.clone() });
    }
    Ok(records)
}

/// What `review` looks at and how.
struct ReviewOptions {
    selection: Selection,
    engine: String,
    ms: u64,
    threads: usize,
}

/// What the review of one game found.
#[derive(Default)]
struct Findings {
    /// The player's seat: 0 black, 1 white.
    seat: usize,
    moves: usize,
    /// The player's value before its first reviewed move.
    start: Option<i32>,
    /// The changes of the moves whose values are both short of a forced result.
    changes: Vec<i32>,
    /// Moves that let a forced win go where the outside engine chose another move.
    wins_let_go: usize,
    /// Moves into a forced loss where the outside engine chose another move, and the first of them.
    into_loss: usize,
    first_into_loss: Option<usize>,
}

/// `review`: the player's moves in each game, valued by an outside engine before and after.
fn review(options: &ReviewOptions) -> anyhow::Result<()> {
    let games = options.selection.read()?;
    let next = AtomicUsize::new(0);
    let all = Mutex::new(Vec::new());
    on_threads(options.threads, || -> anyhow::Result<()> {
        let mut judge = GomocupEngine::start(&options.engine, options.ms, options.selection.rule)?;
        while let Some((_, block)) = next_block(&games, &next, 1) {
            let (record, seat) = &block[0];
            let (report, findings) = review_game(&mut judge, record, *seat, &options.selection)?;
            print!("{report}");
            all.lock().expect("no panic while held").push(findings);
        }
        Ok(())
    })?;
    let all = all.into_inner().expect("no panic while held");
    for (seat, colour) in ["black", "white"].iter().enumerate() {
        let of: Vec<&Findings> = all.iter().filter(|f| f.seat == seat).collect();
        if !of.is_empty() {
            println!("as {colour}: {}", summary(&of));
        }
    }
    Ok(())
}

/// One line on the findings of several games.
fn summary(games: &[&Findings]) -> String {
    let median = |mut v: Vec<i32>| {
        v.sort_unstable();
        v.get(v.len() / 2).copied().unwrap_or(0)
    };
    let starts: Vec<i32> = games.iter().filter_map(|f| f.start).collect();
    let changes: Vec<i32> = games.iter().flat_map(|f| f.changes.iter().copied()).collect();
    let firsts: Vec<i32> = games.iter().filter_map(|f| f.first_into_loss).map(|p| p as i32).collect();
    let mean_change = changes.iter().map(|&x| f64::from(x)).sum::<f64>() / changes.len().max(1) as f64;
    format!(
        "{} games, {} moves; the value at the first move {:+} (median); a move's change {:+.0} (mean of the {} \
         short of a forced result); {} forced wins let go, in {} games; {} moves into a forced loss, in {} games{}",
        games.len(),
        games.iter().map(|f| f.moves).sum::<usize>(),
        median(starts),
        mean_change,
        changes.len(),
        games.iter().map(|f| f.wins_let_go).sum::<usize>(),
        games.iter().filter(|f| f.wins_let_go > 0).count(),
        games.iter().map(|f| f.into_loss).sum::<usize>(),
        firsts.len(),
        if firsts.is_empty() { String::new() } else { format!(" (the first at move {}, median)", median(firsts)) },
    )
}

/// One game's review, as text, and what it found. A forced win let go or a forced loss entered by the move
/// the outside engine chose as well is marked but not counted: its own search had not seen it yet.
fn review_game(
    judge: &mut GomocupEngine,
    record: &Record,
    seat: usize,
    selection: &Selection,
) -> anyhow::Result<(String, Findings)> {
    let (opening, rule) = (selection.opening, selection.rule);
    let board = Board::from_moves(15, 15, rule, &record.moves)
        .with_context(|| format!("{}: the moves are not a {rule} game", record.at))?;
    let moves = board.moves().to_vec();
    let colour = ["black", "white"][seat];
    let mut report = format!("# Round {}: {} as {colour}, {}\n", record.round, record.names[seat], record.result);
    let mut findings = Findings { seat, ..Findings::default() };
    let mut position = Board::new(15, 15, rule)?;
    for (ply, &played) in moves.iter().enumerate() {
        let reviewed = ply >= opening && ply % 2 == seat && ply + 1 < moves.len();
        let asked = |judge: &mut GomocupEngine, position: &Board, ply: usize| {
            judge.ask(position).with_context(|| format!("{}: ply {}", record.at, ply + 1))
        };
        let before = if reviewed { Some(asked(judge, &position, ply)?) } else { None };
        position.play(played)?;
        let Some((best, before)) = before else { continue };
        let (_, after) = asked(judge, &position, ply + 1)?;
        let (Some(before), Some(after)) = (before, after.map(|v| -v)) else {
            bail!("{}: the engine reports no value (`MESSAGE ... Eval V`)", record.at);
        };
        findings.moves += 1;
        findings.start.get_or_insert(before);
        let own = best == played;
        let event = if before == MATE_VALUE && after < MATE_VALUE {
            findings.wins_let_go += usize::from(!own);
            Some("a forced win let go")
        } else if before > -MATE_VALUE && after == -MATE_VALUE {
            if !own {
                findings.into_loss += 1;
                findings.first_into_loss.get_or_insert(ply + 1);
            }
            Some("into a forced loss")
        } else {
            if before.abs() < MATE_VALUE && after.abs() < MATE_VALUE {
                findings.changes.push(after - before);
            }
            None
        };
        let note = match event {
            Some(event) if own => format!("  {event}, by its choice too"),
            Some(event) => format!("  {event}"),
            None => String::new(),
        };
        let (p, b) = (board.format_point(played), board.format_point(best));
        report += &format!("{:>4} {p:<4} {before:>6} -> {after:>6}  (its choice {b}){note}\n", ply + 1);
        if before == -MATE_VALUE {
            break;
        }
    }
    Ok((report, findings))
}

/// What `probe` compares and how.
struct ProbeOptions {
    selection: Selection,
    /// The player's seat in the games taken: 0 black, 1 white.
    seat: usize,
    engines: Vec<String>,
    /// `INFO` lines for the engines, by index.
    infos: Vec<(usize, String)>,
    judge: String,
    ms: u64,
    judge_ms: u64,
    judge_scale: f64,
    first: usize,
    threads: usize,
}

/// A judged value as a win rate for the side it is given for.
fn win_rate(value: i32) -> f64 {
    sigmoid(f64::from(value) / 200.0)
}

/// `probe`: each engine's choice in the player's early positions, valued by the judge.
fn probe(options: &ProbeOptions) -> anyhow::Result<()> {
    if options.engines.len() < 2 {
        bail!("give two engines or more to compare");
    }
    let Selection { games: path, player, opening, lost, rule } = &options.selection;
    let mut positions: Vec<String> = Vec::new();
    for (record, _) in options.selection.read()?.iter().filter(|&&(_, s)| s == options.seat) {
        let board = Board::from_moves(15, 15, *rule, &record.moves)
            .with_context(|| format!("{}: the moves are not a {rule} game", record.at))?;
        let moves = board.moves();
        let plies = (*opening..moves.len()).filter(|p| p % 2 == options.seat).take(options.first);
        positions.extend(plies.map(|ply| board.format_moves(&moves[..ply])));
    }
    positions.sort();
    positions.dedup();
    if positions.is_empty() {
        let lost = if *lost { " in a game lost" } else { "" };
        bail!("{path}: no position of {player:?} as {}{lost}", ["black", "white"][options.seat]);
    }
    eprintln!("{} positions", positions.len());
    let next = AtomicUsize::new(0);
    let rows = Mutex::new(Vec::new());
    on_threads(options.threads, || -> anyhow::Result<()> {
        let mut judge = GomocupEngine::start(&options.judge, options.judge_ms, *rule)?.with_scale(options.judge_scale);
        let mut engines = options
            .engines
            .iter()
            .map(|e| GomocupEngine::start(e, options.ms, *rule))
            .collect::<anyhow::Result<Vec<_>>>()?;
        for (k, info) in &options.infos {
            engines[*k].inform(info).with_context(|| format!("the engine {}", options.engines[*k]))?;
        }
        while let Some((at, block)) = next_block(&positions, &next, 1) {
            let (line, rates) = probe_position(&mut judge, &mut engines, &block[0], *rule)?;
            println!("{line}");
            rows.lock().expect("no panic while held").push((at, rates));
        }
        Ok(())
    })?;
    let mut rows = rows.into_inner().expect("no panic while held");
    rows.sort_by_key(|&(at, _)| at);
    let rates: Vec<Vec<f64>> = rows.into_iter().map(|(_, r)| r).collect();
    let n = rates.len() as f64;
    let names = options.engines.iter().chain(std::iter::once(&options.judge));
    for (k, name) in names.enumerate() {
        let mean = rates.iter().map(|r| r[k]).sum::<f64>() / n;
        let diffs: Vec<f64> = rates.iter().map(|r| r[k] - r[0]).collect();
        let d = diffs.iter().sum::<f64>() / n;
        let sd = (diffs.iter().map(|x| (x - d).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
        let differ = diffs.iter().filter(|&&x| x != 0.0).count();
        let against = if k == 0 {
            String::new()
        } else {
            format!(
                "; against the first {:+.1} ± {:.1} points ({differ} choices differ)",
                100.0 * d,
                196.0 * sd / n.sqrt()
            )
        };
        let role = if k == options.engines.len() { "judge's own choice" } else { "engine" };
        println!("{role} {name}: the player's win rate after the move {:.1} % (mean of {n}){against}", 100.0 * mean);
    }
    Ok(())
}

/// One position probed: a line on it, and the player's win rate after each engine's move and the judge's own.
fn probe_position(
    judge: &mut GomocupEngine,
    engines: &mut [GomocupEngine],
    moves: &str,
    rule: Rule,
) -> anyhow::Result<(String, Vec<f64>)> {
    let board = Board::from_moves(15, 15, rule, moves)?;
    let (own, before) = judge.ask(&board).with_context(|| format!("the judge, at {moves}"))?;
    let mut choices = Vec::new();
    for engine in engines.iter_mut() {
        choices.push(engine.ask(&board).with_context(|| format!("an engine, at {moves}"))?.0);
    }
    choices.push(own);
    let mut valued: Vec<(Point, i32)> = Vec::new();
    let mut line = format!("{moves}  before {}", before.map_or("?".into(), |v| v.to_string()));
    let mut rates = Vec::new();
    for &choice in &choices {
        let value = match valued.iter().find(|&&(p, _)| p == choice) {
            Some(&(_, v)) => v,
            None => {
                let mut after = board.clone();
                after.play(choice)?;
                let value = if after.winner().is_some() {
                    Some(-MATE_VALUE)
                } else {
                    judge.ask(&after).with_context(|| format!("the judge, at {moves} {choice:?}"))?.1
                };
                let Some(value) = value.map(|v| -v) else {
                    bail!("the judge reports no value (`MESSAGE ... Eval V` or `score S`)")
                };
                valued.push((choice, value));
                value
            }
        };
        line += &format!("  {} {value}", board.format_point(choice));
        rates.push(win_rate(value));
    }
    Ok((line, rates))
}

/// One labelled position: its evaluation terms and the target.
struct Sample {
    features: Features,
    target: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The weights as one flat vector: `mine`, `theirs`, `my_best`, `their_best`.
fn flat(w: &Weights) -> Vec<f64> {
    [&w.mine, &w.theirs, &w.my_best, &w.their_best].iter().flat_map(|v| v.iter().map(|&x| x as f64)).collect()
}

fn unflat(x: &[f64]) -> Weights {
    let part = |k: usize| std::array::from_fn(|c| x[k * CLASSES + c].round() as i32);
    Weights { mine: part(0), theirs: part(1), my_best: part(2), their_best: part(3) }
}

/// The evaluation of a sample in units, with the flat weights `w` (as `Weights::evaluate`, unrounded).
fn evaluate(s: &Sample, w: &[f64]) -> f64 {
    let f = &s.features;
    let mut sum: f64 = f.mine.iter().map(|&c| w[c as usize]).sum::<f64>()
        + f.theirs.iter().map(|&c| w[CLASSES + c as usize]).sum::<f64>();
    sum += f.my_best.map_or(0.0, |c| w[2 * CLASSES + c as usize]) + w[3 * CLASSES + f.their_best as usize];
    sum / Weights::SCALE as f64
}

fn mse(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    samples.iter().map(|s| (sigmoid(k * evaluate(s, w)) - s.target).powi(2)).sum::<f64>() / samples.len() as f64
}

/// The gradient of [`mse`] over `samples`, split over two threads.
fn gradient(samples: &[Sample], w: &[f64], k: f64) -> Vec<f64> {
    let part = |chunk: &[Sample]| {
        let mut g = vec![0.0; w.len()];
        for s in chunk {
            let p = sigmoid(k * evaluate(s, w));
            let d = 2.0 * (p - s.target) * p * (1.0 - p) * k / Weights::SCALE as f64;
            let f = &s.features;
            for &c in &f.mine {
                g[c as usize] += d;
            }
            for &c in &f.theirs {
                g[CLASSES + c as usize] += d;
            }
            if let Some(c) = f.my_best {
                g[2 * CLASSES + c as usize] += d;
            }
            g[3 * CLASSES + f.their_best as usize] += d;
        }
        g
    };
    let half = samples.len() / 2;
    let (a, b) = std::thread::scope(|sc| {
        let h = sc.spawn(|| part(&samples[..half]));
        let b = part(&samples[half..]);
        (h.join().expect("no panic"), b)
    });
    a.iter().zip(&b).map(|(x, y)| (x + y) / samples.len() as f64).collect()
}

/// `fit`: the weights that best predict the labelled positions.
/// The settings of `fit`.
struct FitOptions {
    epochs: usize,
    l2: f64,
    share: f64,
    rate: f64,
    no_mates: bool,
    rule: Rule,
}

fn fit(input: &str, out: &str, start: &Weights, options: &FitOptions) -> anyhow::Result<()> {
    let FitOptions { epochs, l2, share, rate, no_mates, rule } = *options;
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for (i, line) in read_lines(input)?.iter().enumerate() {
        let fields: Vec<&str> = line.split(';').collect();
        let [moves, result, value] = fields[..] else { continue };
        let (Ok(board), Ok(result), Ok(value)) =
            (Board::from_moves(15, 15, rule, moves), result.parse::<f64>(), value.parse::<f64>())
        else {
            continue;
        };
        if no_mates && value.abs() >= MATE_VALUE as f64 {
            continue;
        }
        let Some(features) = Features::of(&board) else { continue };
        let target = share * sigmoid(value / 200.0) + (1.0 - share) * result;
        let sample = Sample { features, target };
        if (i / 500) % 10 == 9 {
            valid.push(sample)
        } else {
            train.push(sample)
        }
    }
    if train.is_empty() || valid.is_empty() {
        bail!("too few positions in {input}");
    }
    let start = flat(start);
    let hand = flat(&Weights::hand_set());
    let k = golden_min(0.0001, 0.05, |k| mse(&train, &start, k));
    eprintln!(
        "{} training, {} held out; K = {k:.5}; error {:.6} / {:.6} (hand-set {:.6} / {:.6})",
        train.len(),
        valid.len(),
        mse(&train, &start, k),
        mse(&valid, &start, k),
        mse(&train, &hand, k),
        mse(&valid, &hand, k)
    );
    let mut w = start.clone();
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
    for epoch in 1..=epochs {
        let rate = if epoch < epochs * 3 / 4 { rate } else { rate / 4.0 };
        let mut g = gradient(&train, &w, k);
        for (gi, (wi, si)) in g.iter_mut().zip(w.iter().zip(&start)) {
            *gi += 2.0 * l2 * (wi - si);
        }
        for i in 0..w.len() {
            m[i] = b1 * m[i] + (1.0 - b1) * g[i];
            v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            w[i] -= rate * mh / (vh.sqrt() + eps);
        }
        if epoch % 50 == 0 || epoch == epochs {
            eprintln!("epoch {epoch}: error {:.6} / {:.6}", mse(&train, &w, k), mse(&valid, &w, k));
        }
    }
    std::fs::write(out, unflat(&w).to_text()).with_context(|| format!("cannot write {out}"))
}
