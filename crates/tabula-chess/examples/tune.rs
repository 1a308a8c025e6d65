//! Tunes the evaluation's weights on data (Texel's method), in three steps:
//!
//! ```text
//! cargo run --release -p tabula-chess --example tune -- COMMAND ...
//!
//! tune gen OUT [--games N] [--nodes N] [--threads N]
//! tune label IN OUT [--depth D] [--threads N] [--stockfish PATH] [--resume]
//! tune fit LABELLED [--epochs N] [--l2 X] > weights.rs
//! tune wdl-gen OUT [--games N] [--nodes N] [--threads N]
//! tune wdl-fit SAMPLES
//! tune nnue-gen OUT [--games N] [--nodes N] [--threads N] [--first N] [--stockfish PATH] [--stockfish-go GO]
//! tune nnue-label IN OUT [--go GO] [--threads N] [--stockfish PATH] [--resume]
//! tune nnue-loss DATA NET... [--share X]
//! tune nnue-fit DATA OUT [--epochs N] [--share X] [--scale CP] [--threads N] [--no-mirror] [--start NET] [--rate R]
//!      [--buckets N] [--keep-best]
//! tune openings OUT [--count N] [--nodes N] [--margin CP] [--first N]
//! ```
//!
//! `tune help COMMAND` gives each command's options and defaults.
//!
//! - `gen` plays the engine against itself at a fixed node budget per move from varied starts (a few random plies from
//!   the start position or from `tests/data/openings.epd`) and writes quiet positions (not in check, the engine's move
//!   neither a capture nor a promotion, no decisive score) with the game's result: `FEN;result` where the result is 1,
//!   0.5 or 0 for white. A game ends at a draw by the rules, after 400 plies, when the search scores it decisive or
//!   beyond ±1,500 centipawns for six plies running, and on reaching an ending against a bare king (won for the
//!   stronger side, drawn if it has knights alone), whose positions the network leaves to the tapered evaluation.
//! - `label` asks Stockfish (`UCI_ShowWDL`) for the expected score of each position at a fixed depth and appends it:
//!   `FEN;result;expected` (white's point of view), dropping positions whose best move is a capture or a promotion.
//! - `fit` minimises the mean squared error between `sigmoid(K * eval)` and the blend `3/4 expected + 1/4 result` over
//!   the evaluation's linear weights (Adam on the exact gradient of the traced features, with an L2 pull of strength
//!   `l2` towards the current weights), after fitting the scale `K` to the current weights, and prints the new weights
//!   as the Rust source of `src/eval/weights.rs`. A twentieth of the positions, in blocks of whole games, is held out
//!   and its error reported.
//! - `wdl-gen` plays the same self-play games as `gen` and writes, for each quiet position, the search's score for the
//!   side to move, the game phase and how the game ended for the side to move: `score;phase;result`.
//! - `wdl-fit` fits the win/draw/loss model of `tabula_chess::engine::wdl` to such samples by maximum likelihood (coordinate
//!   descent, a golden-section search per constant) and prints its constants, the log-loss against a model that ignores
//!   the score, and observed against predicted chances by score.
//! - `nnue-gen` plays the same self-play games as `gen`, numbered from `--first` (0 by default; each number seeds its
//!   own random start, so runs with disjoint ranges add new games), and writes the training data of the network
//!   (`nnue-fit` below): `FEN;score;result` per quiet position, where `score` is the search's score in centipawns and
//!   `result` the game's result (1, 0.5 or 0), both from white's point of view. With `--stockfish` the engine plays
//!   Stockfish instead of itself (white in the even-numbered games, Stockfish searching `go {stockfish-go}`,
//!   `nodes 5000` by default, one thread), and the lines are the quiet positions where Stockfish is to move, scored
//!   by its own search: positions the engine's play leads to against a stronger opponent, labelled as they are
//!   played.
//! - `nnue-label` replaces the score of each `FEN;score;result` line with Stockfish's after `go {go}` (`--go "depth 8"`
//!   by default; one Stockfish of one thread per thread), white's point of view, a mate as ±3,000, and drops the
//!   positions whose best move by Stockfish is a capture or a promotion. `label` and `nnue-label` write each block
//!   of 1,000 positions as it finishes; with `--resume` either goes on with the output of a run that was stopped,
//!   skipping the positions it holds (those dropped for a capture are asked again).
//! - `nnue-fit` trains the network of `tabula_chess::engine::eval::nnue` on such data and writes its weights file: Adam on
//!   minibatches of 4,096 positions, `--epochs` passes (20 by default; the learning rate 10⁻³, a tenth of it for the
//!   last fifth), minimising the squared error between `sigmoid(y)` and the target `share · sigmoid(score / scale) + (1
//!   − share) · result` for the side to move (`share` 0.75 by default, `scale` 113 centipawns, the tapered evaluation's
//!   fitted scale; the network evaluates `y · scale`). The last twentieth of the file is held out and its loss reported
//!   per epoch; the rest is trained on twice, as given and mirrored left to right, unless `--no-mirror` is given. Given
//!   a `--start` network (a file or `<embedded>`), training goes on from its weights at a tenth of the learning rate
//!   instead of from random ones; `--rate` sets the rate either way. The start network may be narrower than this
//!   build's (`HIDDEN`): the neurons it lacks start with random input weights and no output weight, so that training
//!   begins from its evaluations. The tapered evaluation's and the embedded
//!   network's losses on the held-out positions are reported first. The weights written are the last pass's, or
//!   with `--keep-best` those of the pass with the lowest held-out loss (a wide network on little data overfits
//!   after a few passes).
//! - `nnue-loss` reports the loss of the tapered evaluation and of each network file (`<embedded>` for the crate's own)
//!   on all of `DATA`, with the targets of `nnue-fit` at that `--share` and scale 113: data from games no network was
//!   trained on compares networks fairly (a network has learnt its own training games' results).
//! - `openings` writes `--count` (1,000 by default) distinct roughly balanced opening positions as EPD, for self-play
//!   matches that need more openings than `tests/data/openings.epd` has (an SPRT runs to thousands of games): the
//!   random starts of `gen`, numbered from `--first`, kept when the engine's search of `--nodes` (20,000 by default)
//!   scores them within `--margin` centipawns (50 by default) of even.
//!
//! The first network came from `nnue-gen d1.txt --games 3200 --nodes 5000 --first 1000000` (288,000 positions in 26
//! minutes, about 660,000 an hour on one niced core) and `nnue-gen d2.txt --games 27100 --nodes 1000 --first 2000000`
//! (2,430,000 positions in 34 minutes, about 4.2 million an hour) by the tapered engine, concatenated (`d2` first, so
//! that the held-out tail is of the deeper searches), and `nnue-fit d12.txt default.tbnn --epochs 12` (6.7 minutes on
//! two threads beside the generator; 33 s a pass over 5.2 million positions with their mirror images). The second added
//! `nnue-gen d4.txt --games 39100 --nodes 1000 --first 5000000` by the engine on the first network (3,620,000 positions
//! in 37 minutes), `d4`, `d2` and `d1` concatenated in that order, and `nnue-fit d421.txt second.tbnn --epochs 12
//! --threads 1` (13.3 minutes on one thread; 5.46 million positions once the endings against a bare king are left out).
//! The third went on from the second: `nnue-gen d6.txt --games 100000 --nodes 1000 --first 11000000` stopped after
//! about 20,800 games (1.88 million positions), `nnue-label d6.txt s6.txt` (1.75 million kept) and `nnue-fit s6.txt
//! third.tbnn --epochs 12 --share 1 --threads 1 --start second.tbnn` (3.7 minutes on one thread). The fourth went on
//! from the third: `nnue-gen d7.txt --games 100000 --nodes 1000 --first 12000000` by the engine on the third, stopped
//! after about 10,700 games (970,000 positions), `nnue-label d7.txt s7.txt` (912,000 kept, 32 minutes), `s6.txt` and
//! `s7.txt` concatenated in that order and `nnue-fit s67.txt fourth.tbnn --epochs 12 --share 1 --threads 1 --start
//! third.tbnn` (5 minutes on one thread for 2.37 million positions). The fifth went on from the fourth: `nnue-gen
//! d8.txt --games 100000 --nodes 1000 --threads 1 --first 13000000` and the same from 13,500,000 beside it, both
//! stopped (about 18,200 games, 1.66 million positions), `nnue-label` over both (1.56 million kept, 52 minutes),
//! `s6.txt`, `s7.txt` and `s8.txt` concatenated in that order and `nnue-fit s678.txt fifth.tbnn --epochs 12 --share 1
//! --threads 2 --start fourth.tbnn` (6 minutes on two threads for 3.76 million positions). The sixth, in the crate
//! (`src/eval/default.tbnn`), went on from the fifth on its own self-play alone (the older labelled files were not
//! kept): the same two generators from 14,000,000 and 14,500,000, stopped at 2.18 million positions, `nnue-label` (2.05
//! million kept, 70 minutes) and `nnue-fit s9.txt sixth.tbnn --epochs 12 --share 1 --threads 2 --start '<embedded>'` (3
//! minutes for 1.82 million positions).
//!
//! The weights in the crate came from `gen games.txt --games 3800 --nodes 6000`, `label games.txt labelled.txt --depth
//! 7` (Stockfish 15.1; 286,000 positions) and `fit labelled.txt --epochs 1000`: mean squared error 0.0368 -> 0.0293 on
//! the fitted positions and 0.0369 -> 0.0308 on the held-out ones. Against the hand-set weights they replaced, the
//! tuned evaluation scored +79 +/- 50 Elo in self-play (3 s + 0.03 s, 157 games from balanced openings).

use anyhow::Context;
use clap::Parser;
use std::collections::HashSet;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;
use tabula::game::{Game, Outcome};
use tabula::rng::Rng;
use tabula::score::is_decisive;
use tabula::search::Limits;
use tabula::tune::{golden_min, next_block, on_threads};
use tabula_chess::engine::eval::against_bare_king;
use tabula_chess::engine::eval::nnue::DEFAULT_SCALE;
use tabula_chess::engine::{Engine, EnginePosition};
use tabula_chess::{Color, Epd, Position, Role};
use tabula_protocol::process::Process;

/// The FEN of a data line: its first `;` field (the whole line if it has no other).
fn fen_of(line: &str) -> &str {
    line.split_once(';').map_or(line, |(fen, _)| fen)
}

/// The text lines of a data file; a line that is not text is reported and left out.
fn read_lines(path: &str) -> anyhow::Result<Vec<String>> {
    Ok(tabula_protocol::lines::read_lines(path, |bad| eprintln!("{path}: {bad}; left out"))?)
}

/// A new output file written line by line through a buffer; its errors name the file.
struct Output {
    path: String,
    file: BufWriter<File>,
}

impl Output {
    /// Creates (or truncates) the file `path`.
    fn create(path: &str) -> anyhow::Result<Output> {
        let file = File::create(path).with_context(|| format!("cannot create {path}"))?;
        Ok(Output { path: path.to_owned(), file: BufWriter::new(file) })
    }

    /// Goes on with the file `path` of an interrupted run: keeps its whole lines (a line cut off by the
    /// interruption is dropped), appends after them, and gives each kept line's first `;` field (its FEN).
    fn resume(path: &str) -> anyhow::Result<(Output, HashSet<String>)> {
        let text = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(e).with_context(|| format!("cannot read {path}")),
        };
        let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let done = String::from_utf8_lossy(&text[..whole]).lines().map(|l| fen_of(l).to_owned()).collect();
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open {path}"))?;
        file.set_len(whole as u64).with_context(|| format!("cannot write {path}"))?;
        Ok((Output { path: path.to_owned(), file: BufWriter::new(file) }, done))
    }

    /// Writes `text` and a newline.
    fn line(&mut self, text: impl std::fmt::Display) -> anyhow::Result<()> {
        writeln!(self.file, "{text}").with_context(|| format!("cannot write {}", self.path))
    }

    /// Writes out what the buffer holds.
    fn flush(&mut self) -> anyhow::Result<()> {
        self.file.flush().with_context(|| format!("cannot write {}", self.path))
    }
}

/// The tuning and training tools of the chess evaluation.
#[derive(Parser)]
#[command(name = "tune", about = "Data, tuning and training for the chess evaluation and its network")]
enum Command {
    /// Self-play games from varied starts; writes `FEN;result` per quiet position (for `label`).
    Gen(SelfPlay),
    /// Appends Stockfish's expected score for white at `depth` to each `FEN;result` line.
    Label {
        /// `FEN;result` lines, as `gen` writes them.
        input: String,
        /// The file to write: `FEN;result;expected`.
        out: String,
        #[arg(long, default_value_t = 8)]
        depth: u64,
        #[arg(long, default_value_t = 2)]
        threads: usize,
        #[arg(long, default_value = "/usr/games/stockfish")]
        stockfish: String,
        /// Go on with the `out` of an interrupted run: keep its lines, skip the positions they hold, append.
        #[arg(long)]
        resume: bool,
    },
    /// Fits the tapered evaluation's weights to labelled positions and prints them as Rust source.
    Fit {
        /// `FEN;result;expected` lines, as `label` writes them.
        labelled: String,
        #[arg(long, default_value_t = 400)]
        epochs: usize,
        /// The strength of the pull towards the current weights.
        #[arg(long, default_value_t = 0.0)]
        l2: f64,
    },
    /// Self-play games; writes `score;phase;result` samples for the win/draw/loss model.
    WdlGen(SelfPlay),
    /// Fits the win/draw/loss model's constants to `wdl-gen` samples.
    WdlFit {
        /// `score;phase;result` lines, as `wdl-gen` writes them.
        samples: String,
    },
    /// Self-play games numbered from `first`; writes the network's data, `FEN;score;result` per quiet position.
    NnueGen {
        /// The file to write: `FEN;score;result`, white's point of view.
        out: String,
        /// How many games to play.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// The node budget of each move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// The number of the first game (each number seeds its own start).
        #[arg(long, default_value_t = 0)]
        first: u64,
        /// Play against this Stockfish instead of self-play (the engine white in even-numbered games), and write
        /// the positions where Stockfish is to move, scored by its own search of `--stockfish-go`.
        #[arg(long)]
        stockfish: Option<String>,
        /// Stockfish's search of each move, as a UCI `go` command's arguments.
        #[arg(long, default_value = "nodes 5000")]
        stockfish_go: String,
    },
    /// Replaces each line's score by Stockfish's after `go GO`, dropping positions whose best move is a
    /// capture or a promotion.
    NnueLabel {
        /// `FEN;score;result` lines, as `nnue-gen` writes them.
        input: String,
        /// The file to write, the same lines with Stockfish's scores.
        out: String,
        /// Stockfish's search of each position, as a UCI `go` command's arguments (positions whose best move
        /// is a capture or a promotion are left out).
        #[arg(long, default_value = "depth 8", conflicts_with = "static_eval")]
        go: String,
        /// Score each position by Stockfish's static evaluation instead (its `eval` command; positions in
        /// check are left out), printed in pawns and read as this many centipawns a pawn: 115 brings Stockfish
        /// 15.1's to the scale of its search's scores (fitted on 3,000 positions against `go depth 8`).
        #[arg(long)]
        static_eval: Option<f64>,
        #[arg(long, default_value_t = 2)]
        threads: usize,
        #[arg(long, default_value = "/usr/games/stockfish")]
        stockfish: String,
        /// Go on with the `out` of an interrupted run: keep its lines, skip the positions they hold, append.
        #[arg(long)]
        resume: bool,
    },
    /// The loss of the tapered evaluation and of each network (a file, or `<embedded>`) on all of `DATA`.
    NnueLoss {
        /// `FEN;score;result` lines.
        data: String,
        /// Network files, `<embedded>` for the crate's own.
        #[arg(required = true)]
        nets: Vec<String>,
        /// The share of the score in the target, the rest being the game's result.
        #[arg(long, default_value_t = 0.75)]
        share: f32,
    },
    /// Trains the network on `DATA` and writes its weights file `OUT`.
    NnueFit(nnue_fit::Training),
    /// Writes `count` distinct roughly balanced opening positions as EPD.
    Openings {
        /// The EPD file to write.
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
    },
}

/// The games of `gen` and `wdl-gen` and where their lines go.
#[derive(clap::Args)]
struct SelfPlay {
    /// The file to write.
    out: String,
    /// How many games to play.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// The node budget of each move.
    #[arg(long, default_value_t = 4000)]
    nodes: u64,
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

fn main() -> anyhow::Result<()> {
    match Command::parse() {
        Command::Gen(games) => gen(&games, |q, result| format!("{};{result}", q.fen)),
        Command::Label { input, out, depth, threads, stockfish, resume } => {
            label(&input, &out, depth, threads, &stockfish, resume)
        }
        Command::Fit { labelled, epochs, l2 } => fit::run(&labelled, epochs, l2),
        Command::WdlGen(games) => gen(&games, wdl::sample_line),
        Command::WdlFit { samples } => wdl::fit(&samples),
        Command::NnueGen { out, games, nodes, threads, first, stockfish, stockfish_go } => {
            let opponent = stockfish.map(|path| Opponent { path, go: stockfish_go });
            gen_from(&out, first..first.saturating_add(games), nodes, threads, opponent.as_ref(), |q, result| {
                let white_score = if q.white_to_move { q.score } else { -q.score };
                format!("{};{white_score};{result}", q.fen)
            })
        }
        Command::NnueLabel { input, out, go, static_eval, threads, stockfish, resume } => {
            let scorer = static_eval.map_or(Scorer::Search(go), Scorer::Static);
            nnue_label(&input, &out, &scorer, threads, &stockfish, resume)
        }
        Command::NnueLoss { data, nets, share } => {
            nnue_fit::losses(&data, &nets.iter().map(String::as_str).collect::<Vec<_>>(), share, DEFAULT_SCALE as f32)
        }
        Command::NnueFit(training) => nnue_fit::run(&training),
        Command::Openings { out, count, nodes, margin, first } => balanced_openings(&out, count, nodes, margin, first),
    }
}

/// A number in `0..n` from the core's seeded generator, reduced by remainder as when the crate's weights were
/// generated, so that `gen` repeats those games.
fn below(rng: &mut Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

fn openings() -> Vec<Position> {
    let text = include_str!("../tests/data/openings.epd");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let epd = Epd::parse(l).expect("the opening book is EPD");
            Position::from_setup(&epd.setup).expect("opening positions are legal")
        })
        .collect()
}

/// A varied start: some random plies from the start position or from a book opening, with a legal move left.
fn random_start(rng: &mut Rng, book: &[Position]) -> Option<Position> {
    let (mut pos, plies) = if below(rng, 2) == 0 {
        (Position::startpos(), 6 + below(rng, 5))
    } else {
        (book[below(rng, book.len())].clone(), 2 + below(rng, 3))
    };
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos.play_unchecked(moves.as_slice()[below(rng, moves.len())]);
    }
    pos.has_legal_move().then(|| Position::from_fen(&pos.to_fen()).expect("a legal position"))
}

fn repeated_three_times(pos: &Position) -> bool {
    let key = pos.key();
    let mut back = pos.clone();
    let mut seen = 1;
    for _ in 0..pos.halfmove_clock().min(pos.history_len() as u32) {
        back.undo();
        if back.key() == key {
            seen += 1;
        }
    }
    seen >= 3
}

/// A quiet position met in self-play, with what the engine's search made of it.
struct Quiet {
    fen: String,
    /// The search's score for the side to move.
    score: i32,
    /// The game phase (0 to 24).
    phase: i32,
    white_to_move: bool,
}

/// Another engine to play against instead of self-play: Stockfish at `path`, searching each move with `go {go}`.
struct Opponent {
    path: String,
    go: String,
}

/// A running [`Opponent`] and the side it plays in the current game.
struct Rival {
    process: Process,
    go: String,
    color: Color,
}

impl Rival {
    fn start(opponent: &Opponent) -> anyhow::Result<Rival> {
        let process = start_stockfish(&opponent.path, &[])?;
        Ok(Rival { process, go: opponent.go.clone(), color: Color::White })
    }

    /// Its move in the game that went from `start` to `pos` by `moves`, with its score for the side to move.
    fn answer(&mut self, start: &str, moves: &[tabula_chess::Move], pos: &Position) -> anyhow::Result<Verdict> {
        let mut question = format!("position fen {start}");
        if !moves.is_empty() {
            question.push_str(" moves");
            for mv in moves {
                question.push(' ');
                question.push_str(&mv.to_uci());
            }
        }
        question.push_str(&format!("\ngo {}", self.go));
        let answer = self.process.ask(&question, STOCKFISH_PATIENCE, |l| l.starts_with("bestmove"))?;
        verdict(pos, &answer).with_context(|| format!("Stockfish gave no legal move in {}", pos.to_fen()))
    }
}

/// One self-play game, or with a `rival` one against it: the quiet positions met (against a rival, those where it
/// is to move, scored by its search) and the result for white.
fn self_play(
    engine: &mut Engine,
    mut pos: Position,
    nodes: u64,
    mut rival: Option<&mut Rival>,
) -> anyhow::Result<(Vec<Quiet>, f64)> {
    engine.clear_hash();
    if let Some(rival) = rival.as_mut() {
        rival.process.send("ucinewgame")?;
    }
    let (start, mut played) = (pos.to_fen(), Vec::new());
    let mut quiet = Vec::new();
    let mut decisive_run = 0;
    let result = loop {
        if let Some(outcome) = pos.outcome() {
            let white_to_move = pos.turn() == Color::White;
            break match outcome {
                Outcome::Draw => 0.5,
                Outcome::Loss if white_to_move => 0.0,
                _ => 1.0,
            };
        }
        if repeated_three_times(&pos) || pos.history_len() > 400 {
            break 0.5;
        }
        // An ending against a bare king is the tapered evaluation's (the network's trainer leaves it out), and
        // its result is as good as known: won, unless the stronger side has knights alone, which cannot force
        // mate. (At a thousand nodes a game could spend its last hundred plies there.)
        if against_bare_king(&pos) {
            let b = pos.board();
            let knights_only = (b.by_role(Role::Pawn) | b.by_role(Role::Bishop) | b.orthogonal_sliders()).is_empty();
            let won = if b.by_color(Color::Black).count() == 1 { 1.0 } else { 0.0 };
            break if knights_only { 0.5 } else { won };
        }
        let (mv, score, kept) = match rival.as_mut().filter(|r| r.color == pos.turn()) {
            Some(rival) => {
                let v = rival.answer(&start, &played, &pos)?;
                let Some(score) = v.score else { break 0.5 };
                (v.best, if score.abs() >= MATE_CP { mate_score(score) } else { score }, true)
            }
            None => {
                let r = engine.search(&EnginePosition::new(pos.clone()), Limits::nodes(nodes), |_| {});
                let Some(mv) = r.best_move else { break 0.5 };
                (mv, r.score, rival.is_none())
            }
        };
        let white_score = if pos.turn() == Color::White { score } else { -score };
        // Adjudicate long-won games to save time; their later positions add little.
        decisive_run = if white_score.abs() > 1500 { decisive_run + 1 } else { 0 };
        if decisive_run >= 6 || is_decisive(score) {
            break if white_score > 0 { 1.0 } else { 0.0 };
        }
        if kept && !pos.is_check() && !pos.is_capture(mv) && mv.promotion().is_none() {
            let (phase, white_to_move) = (tabula_chess::engine::eval::phase(&pos), pos.turn() == Color::White);
            quiet.push(Quiet { fen: pos.to_fen(), score, phase, white_to_move });
        }
        pos.play_unchecked(mv);
        played.push(mv);
    };
    Ok((quiet, result))
}

/// A decisive score of the engine's scale for a mate Stockfish reports (as ±[`MATE_CP`]), so that the game is
/// adjudicated as the engine's own mate scores adjudicate it.
fn mate_score(score: i32) -> i32 {
    if score > 0 {
        tabula::score::win_in(1)
    } else {
        tabula::score::loss_in(1)
    }
}

/// Plays the self-play games `games` asks for (numbered from 0) and writes a line to its file for each quiet
/// position, as `line` makes it from the position and the game's result for white.
fn gen(games: &SelfPlay, line: fn(&Quiet, f64) -> String) -> anyhow::Result<()> {
    gen_from(&games.out, 0..games.games, games.nodes, games.threads, None, line)
}

/// Writes `count` distinct random starts (numbered from `first`) that a search of `nodes` scores within
/// `margin` centipawns of even, one EPD line each.
fn balanced_openings(out: &str, count: usize, nodes: u64, margin: i32, first: u64) -> anyhow::Result<()> {
    let book = openings();
    let mut engine = Engine::new(16);
    let mut seen = std::collections::HashSet::new();
    let mut w = Output::create(out)?;
    let mut tried = 0;
    for n in first.. {
        if seen.len() >= count {
            break;
        }
        tried += 1;
        let mut rng = Rng::new(0x0be9_0000 + n);
        let Some(start) = random_start(&mut rng, &book) else { continue };
        engine.clear_hash();
        let r = engine.search(&EnginePosition::new(start.clone()), Limits::nodes(nodes), |_| {});
        if r.score.abs() > margin || !seen.insert(start.key()) {
            continue;
        }
        w.line(start.to_epd())?;
    }
    w.flush()?;
    eprintln!("{} openings kept of {tried} starts", seen.len());
    Ok(())
}

/// [`gen`] for the games numbered in `games`.
fn gen_from(
    out: &str,
    games: std::ops::Range<u64>,
    nodes: u64,
    threads: usize,
    opponent: Option<&Opponent>,
    line: fn(&Quiet, f64) -> String,
) -> anyhow::Result<()> {
    let out = Mutex::new(Output::create(out)?);
    let next = AtomicUsize::new(games.start as usize);
    let book = openings();
    let positions = AtomicUsize::new(0);
    on_threads(threads, || -> anyhow::Result<()> {
        let mut engine = Engine::new(8);
        let mut rival = opponent.map(Rival::start).transpose()?;
        loop {
            let game = next.fetch_add(1, Ordering::Relaxed);
            if game as u64 >= games.end {
                break;
            }
            let mut rng = Rng::new(0x7ab1_0000 + game as u64);
            let Some(start) = random_start(&mut rng, &book) else { continue };
            if let Some(rival) = rival.as_mut() {
                // The engine takes white in even-numbered games.
                rival.color = if game % 2 == 0 { Color::Black } else { Color::White };
            }
            let (quiet, result) = self_play(&mut engine, start, nodes, rival.as_mut())?;
            let mut w = out.lock().expect("no panics while writing");
            for q in &quiet {
                w.line(line(q, result))?;
            }
            let total = positions.fetch_add(quiet.len(), Ordering::Relaxed) + quiet.len();
            if game % 100 == 99 {
                eprintln!("{} games, {total} positions", game + 1);
                w.flush()?;
            }
        }
        Ok(())
    })?;
    out.into_inner().expect("no panics while writing").flush()
}

/// What Stockfish made of a position: its best move, its last reported score for the side to move (a mate
/// counted as [`MATE_CP`] centipawns) and its win/draw/loss per mille when it reported them.
struct Verdict {
    best: tabula_chess::Move,
    score: Option<i32>,
    wdl: Option<(f64, f64, f64)>,
}

/// The centipawns a mate score stands for in the network's data: far past the sigmoid's knee.
const MATE_CP: i32 = 3000;

fn verdict(pos: &Position, answer: &[String]) -> Option<Verdict> {
    let (mut best, mut score, mut wdl) = (None, None, None);
    for line in answer {
        let words: Vec<&str> = line.split_whitespace().collect();
        let after = |key: &str, k: usize| words.iter().position(|&w| w == key).and_then(|at| words.get(at + k));
        if let Some(at) = words.iter().position(|&w| w == "wdl") {
            let n = |k: usize| words.get(at + k).and_then(|w| w.parse::<f64>().ok()).unwrap_or(0.0);
            wdl = Some((n(1), n(2), n(3)));
        }
        match (after("score", 1).copied(), after("score", 2).and_then(|n| n.parse::<i32>().ok())) {
            (Some("cp"), Some(cp)) => score = Some(cp.clamp(-MATE_CP, MATE_CP)),
            (Some("mate"), Some(n)) => score = Some(if n > 0 { MATE_CP } else { -MATE_CP }),
            _ => {}
        }
        if words.first() == Some(&"bestmove") {
            best = words.get(1).and_then(|m| pos.parse_uci(m).ok());
        }
    }
    best.map(|best| Verdict { best, score, wdl })
}

/// How long to wait for any one answer of Stockfish's.
const STOCKFISH_PATIENCE: Duration = Duration::from_secs(600);

/// Stockfish at `path`, past the UCI handshake, with one thread, 16 MiB of table and the `options` given (as
/// `NAME value VALUE`).
fn start_stockfish(path: &str, options: &[&str]) -> anyhow::Result<Process> {
    let mut process = Process::spawn(&[path.to_string()])?;
    process.ask("uci", STOCKFISH_PATIENCE, |l| l == "uciok").context("Stockfish does not speak UCI")?;
    for option in ["Threads value 1", "Hash value 16"].iter().chain(options) {
        process.send(&format!("setoption name {option}"))?;
    }
    Ok(process)
}

/// Asks Stockfish (one thread each, `threads` of them) about the position that opens each line of `input`
/// (`FEN;...`) and writes the line `ask` makes of the entry from the engine's answers (none to leave the entry
/// out), in the input's order block by block.
fn ask_stockfish(
    input: &str,
    out: &str,
    threads: usize,
    stockfish: &str,
    resume: bool,
    ask: impl Fn(&mut Process, &str, &Position) -> anyhow::Result<Option<String>> + Sync,
) -> anyhow::Result<()> {
    const BLOCK: usize = 1000;
    let mut lines = read_lines(input)?;
    let out = if resume {
        let (output, done) = Output::resume(out)?;
        let before = lines.len();
        lines.retain(|l| !done.contains(fen_of(l)));
        eprintln!("{out}: {} positions done, {} of {before} left to ask", done.len(), lines.len());
        output
    } else {
        Output::create(out)?
    };
    let out = Mutex::new(out);
    let next = AtomicUsize::new(0);
    let kept = AtomicUsize::new(0);
    on_threads(threads, || -> anyhow::Result<()> {
        let mut engine = start_stockfish(stockfish, &["UCI_ShowWDL value true"])?;
        while let Some((first, block)) = next_block(&lines, &next, BLOCK) {
            let mut written = Vec::new();
            for entry in block {
                let Ok(pos) = Position::from_fen(fen_of(entry)) else { continue };
                written.extend(ask(&mut engine, entry, &pos)?);
            }
            let mut w = out.lock().expect("no panics while writing");
            for l in &written {
                w.line(l)?;
            }
            w.flush()?;
            let k = kept.fetch_add(written.len(), Ordering::Relaxed) + written.len();
            eprintln!("{k} labelled ({} read)", (first + BLOCK).min(lines.len()));
        }
        let _ = engine.send("quit");
        Ok(())
    })
}

/// Stockfish's verdict after `go {go}` on `pos` (given by `fen`), unless its best move is a capture or a
/// promotion (the position is not quiet).
fn quiet_verdict(engine: &mut Process, fen: &str, pos: &Position, go: &str) -> anyhow::Result<Option<Verdict>> {
    let answer = engine
        .ask(&format!("position fen {fen}\ngo {go}"), STOCKFISH_PATIENCE, |l| l.starts_with("bestmove"))
        .with_context(|| format!("Stockfish gave no best move for {fen}"))?;
    Ok(verdict(pos, &answer).filter(|v| !pos.is_capture(v.best) && v.best.promotion().is_none()))
}

/// `label`: Stockfish's expected score for white at `depth` after each `FEN;result` line.
fn label(input: &str, out: &str, depth: u64, threads: usize, stockfish: &str, resume: bool) -> anyhow::Result<()> {
    let go = format!("depth {depth}");
    ask_stockfish(input, out, threads, stockfish, resume, |engine, entry, pos| {
        let Some(v) = quiet_verdict(engine, fen_of(entry), pos, &go)? else { return Ok(None) };
        let Some((w, d, l)) = v.wdl.filter(|(w, d, l)| w + d + l > 0.0) else { return Ok(None) };
        let mut expected = (w + d / 2.0) / (w + d + l);
        if pos.turn() == Color::Black {
            expected = 1.0 - expected;
        }
        Ok(Some(format!("{entry};{expected:.3}")))
    })
}

/// How `nnue-label` scores a position.
#[derive(Clone, Debug)]
enum Scorer {
    /// Stockfish's search: `go` with these arguments.
    Search(String),
    /// Stockfish's static evaluation (its `eval` command, a debugging command of Stockfish's and not UCI),
    /// printed in pawns and read as this many centipawns a pawn.
    Static(f64),
}

/// `nnue-label`: each `FEN;score;result` line of the network's data with the score replaced by Stockfish's
/// (white's point of view, centipawns): its search's, for quiet positions only, or its static evaluation's.
fn nnue_label(
    input: &str,
    out: &str,
    scorer: &Scorer,
    threads: usize,
    stockfish: &str,
    resume: bool,
) -> anyhow::Result<()> {
    ask_stockfish(input, out, threads, stockfish, resume, |engine, entry, pos| {
        let fields: Vec<&str> = entry.split(';').collect();
        let [fen, _, result] = fields[..] else { return Ok(None) };
        let white = match scorer {
            Scorer::Search(go) => {
                let Some(score) = quiet_verdict(engine, fen, pos, go)?.and_then(|v| v.score) else { return Ok(None) };
                if pos.turn() == Color::White {
                    score
                } else {
                    -score
                }
            }
            Scorer::Static(cp_per_pawn) => {
                let answer = engine
                    .ask(&format!("position fen {fen}\neval"), STOCKFISH_PATIENCE, |l| {
                        l.starts_with("Final evaluation")
                    })
                    .with_context(|| format!("Stockfish gave no static evaluation for {fen}"))?;
                // `Final evaluation       +0.25 (white side) [...]`, or `none (in check)`.
                let pawns = answer.last().and_then(|l| l.split_whitespace().nth(2)).and_then(|v| v.parse::<f64>().ok());
                let Some(pawns) = pawns else { return Ok(None) };
                ((pawns * cp_per_pawn).round() as i32).clamp(-MATE_CP, MATE_CP)
            }
        };
        Ok(Some(format!("{fen};{white};{result}")))
    })
}

mod fit {
    use tabula_chess::engine::eval::{features, Evaluation, Trace};
    use tabula_chess::Position;

    /// The weight of Stockfish's expected score in the target; the game result has the rest.
    const EXPECTED_SHARE: f64 = 0.75;

    struct Sample {
        trace: Trace,
        target: f64,
    }

    fn sigmoid(k: f64, eval: f64) -> f64 {
        1.0 / (1.0 + (-k * eval).exp())
    }

    fn mse(samples: &[Sample], weights: &[[f64; 2]], k: f64) -> f64 {
        let sum: f64 = samples.iter().map(|s| (sigmoid(k, s.trace.evaluate(weights)) - s.target).powi(2)).sum();
        sum / samples.len() as f64
    }

    /// The gradient of the mean squared error over `samples`, split over two threads.
    fn gradient(samples: &[Sample], weights: &[[f64; 2]], k: f64) -> Vec<[f64; 2]> {
        let half = samples.len() / 2;
        let part = |chunk: &[Sample]| {
            let mut g = vec![[0.0; 2]; weights.len()];
            for s in chunk {
                let p = sigmoid(k, s.trace.evaluate(weights));
                let d = (p - s.target) * p * (1.0 - p) * k;
                let phase = s.trace.phase as f64 / 24.0;
                let (dm, de) = (d * phase, d * (1.0 - phase) * s.trace.endgame_scale);
                for &(i, n) in &s.trace.features {
                    g[i as usize][0] += dm * n as f64;
                    g[i as usize][1] += de * n as f64;
                }
            }
            g
        };
        let (a, b) = std::thread::scope(|sc| {
            let h = sc.spawn(|| part(&samples[..half]));
            let b = part(&samples[half..]);
            (h.join().expect("no panic"), b)
        });
        a.iter()
            .zip(&b)
            .map(|(x, y)| [(x[0] + y[0]) / samples.len() as f64, (x[1] + y[1]) / samples.len() as f64])
            .collect()
    }

    pub fn run(path: &str, epochs: usize, regularisation: f64) -> anyhow::Result<()> {
        let eval = Evaluation;
        let mut samples = Vec::new();
        for line in super::read_lines(path)? {
            let fields: Vec<&str> = line.split(';').collect();
            let [fen, result, expected] = fields[..] else { continue };
            let (Ok(pos), Ok(result), Ok(expected)) =
                (Position::from_fen(fen), result.parse::<f64>(), expected.parse::<f64>())
            else {
                continue;
            };
            let target = EXPECTED_SHARE * expected + (1.0 - EXPECTED_SHARE) * result;
            samples.push(Sample { trace: eval.trace(&pos), target });
        }
        // Every twentieth block of 1,000 positions (about a dozen whole games) is held out to check that the
        // fit generalises.
        let (mut train, mut valid) = (Vec::new(), Vec::new());
        for (i, s) in samples.into_iter().enumerate() {
            if (i / 1000) % 20 == 19 {
                valid.push(s)
            } else {
                train.push(s)
            }
        }
        let mut weights: Vec<[f64; 2]> = Evaluation::weights().iter().map(|&[m, e]| [m as f64, e as f64]).collect();
        let start = weights.clone();
        // The scale of the sigmoid that fits the current weights best.
        let k = super::golden_min(0.0005, 0.02, |k| mse(&train, &weights, k));
        eprintln!(
            "{} training, {} held out; K = {k:.5}; error {:.6} / {:.6}",
            train.len(),
            valid.len(),
            mse(&train, &weights, k),
            mse(&valid, &weights, k)
        );
        // Adam.
        let (b1, b2, eps) = (0.9, 0.999, 1e-8);
        let mut m = vec![[0.0; 2]; weights.len()];
        let mut v = vec![[0.0; 2]; weights.len()];
        for epoch in 1..=epochs {
            let lr = if epoch < epochs * 3 / 4 { 2.0 } else { 0.5 };
            let mut g = gradient(&train, &weights, k);
            // L2 pull towards the starting weights, so that rarely seen features stay near them.
            for (gi, (w, w0)) in g.iter_mut().zip(weights.iter().zip(&start)) {
                gi[0] += 2.0 * regularisation * (w[0] - w0[0]);
                gi[1] += 2.0 * regularisation * (w[1] - w0[1]);
            }
            for i in 0..weights.len() {
                for j in 0..2 {
                    m[i][j] = b1 * m[i][j] + (1.0 - b1) * g[i][j];
                    v[i][j] = b2 * v[i][j] + (1.0 - b2) * g[i][j] * g[i][j];
                    let mh = m[i][j] / (1.0 - b1.powi(epoch as i32));
                    let vh = v[i][j] / (1.0 - b2.powi(epoch as i32));
                    weights[i][j] -= lr * mh / (vh.sqrt() + eps);
                }
            }
            if epoch % 50 == 0 || epoch == epochs {
                eprintln!("epoch {epoch}: error {:.6} / {:.6}", mse(&train, &weights, k), mse(&valid, &weights, k));
            }
        }
        print_weights(&weights, path, k);
        Ok(())
    }

    fn print_weights(weights: &[[f64; 2]], data: &str, k: f64) {
        let name = std::path::Path::new(data).file_name().map_or(data.into(), |n| n.to_string_lossy());
        println!("//! The evaluation's weights: `[middlegame, endgame]` per feature, in the order of `features`.");
        println!("//!");
        println!(
            "//! Tuned by `examples/tune.rs` (`fit {name}`, sigmoid scale K = {k:.5}); regenerate rather than edit."
        );
        println!();
        println!("#[rustfmt::skip]");
        println!("pub(super) const WEIGHTS: [[i16; 2]; super::features::COUNT] = [");
        for &(group, start, len) in &features::GROUPS {
            if len == 0 {
                continue;
            }
            println!("    // {group}");
            for row in (start..start + len).step_by(8) {
                let cells: Vec<String> = (row..(row + 8).min(start + len))
                    .map(|i| format!("[{}, {}],", weights[i][0].round() as i16, weights[i][1].round() as i16))
                    .collect();
                println!("    {}", cells.join(" "));
            }
        }
        println!("];");
    }
}

mod wdl {
    use super::Quiet;
    use std::collections::BTreeMap;
    use tabula_chess::engine::wdl::{Model, MODEL};

    /// A sample line for `wdl-fit`: the score and phase, and the result for the side to move.
    pub fn sample_line(q: &Quiet, white_result: f64) -> String {
        let result = if q.white_to_move { white_result } else { 1.0 - white_result };
        format!("{};{};{result}", q.score, q.phase)
    }

    /// Wins, draws and losses seen at each (score, phase).
    type Counts = BTreeMap<(i32, i32), [f64; 3]>;

    /// The mean negative log-likelihood of the outcomes under `model`.
    fn log_loss(counts: &Counts, model: &Model) -> f64 {
        let (mut sum, mut n) = (0.0, 0.0);
        for (&(score, phase), outcomes) in counts {
            let (w, d, l) = model.chances(score as f64, phase);
            for (count, p) in outcomes.iter().zip([w, d, l]) {
                sum -= count * p.max(1e-9).ln();
                n += count;
            }
        }
        sum / n
    }

    pub fn fit(path: &str) -> anyhow::Result<()> {
        let mut counts = Counts::new();
        let mut total = [0.0; 3];
        for line in super::read_lines(path)? {
            let fields: Vec<&str> = line.split(';').collect();
            let [score, phase, result] = fields[..] else { continue };
            let (Ok(score), Ok(phase), Ok(result)) =
                (score.parse::<i32>(), phase.parse::<i32>(), result.parse::<f64>())
            else {
                continue;
            };
            // Scores beyond ±20 pawns say nothing more; positions are pooled by 5 centipawns.
            let key = ((score.clamp(-2000, 2000) + 2002) / 5 * 5 - 2000, phase);
            let outcome = if result > 0.75 {
                0
            } else if result > 0.25 {
                1
            } else {
                2
            };
            counts.entry(key).or_default()[outcome] += 1.0;
            total[outcome] += 1.0;
        }
        let n: f64 = total.iter().sum();
        // A model that ignores the score: the base rates of wins, draws and losses.
        let base = -total.iter().map(|&c| if c > 0.0 { c * (c / n).ln() } else { 0.0 }).sum::<f64>() / n;
        // The fit starts from a model with the same constants at every phase (the one in the crate may be
        // far from these samples).
        let mut model = Model { a: [200.0; 4], b: [150.0; 4] };
        eprintln!(
            "{n} positions ({:.1}% won, {:.1}% drawn, {:.1}% lost); log-loss {base:.4} ignoring the score, {:.4} with the model in the crate",
            100.0 * total[0] / n,
            100.0 * total[1] / n,
            100.0 * total[2] / n,
            log_loss(&counts, &MODEL)
        );
        for round in 0..30 {
            for k in 0..4 {
                let with = |values: [f64; 4], x: f64| {
                    let mut v = values;
                    v[k] = x;
                    v
                };
                model.a[k] =
                    super::golden_min(0.0, 3000.0, |x| log_loss(&counts, &Model { a: with(model.a, x), ..model }));
                model.b[k] =
                    super::golden_min(1.0, 3000.0, |x| log_loss(&counts, &Model { b: with(model.b, x), ..model }));
            }
            if round % 5 == 4 {
                eprintln!("round {}: log-loss {:.5} {model:?}", round + 1, log_loss(&counts, &model));
            }
        }
        let list = |v: [f64; 4]| v.map(|x| format!("{x:.1}")).join(", ");
        println!("pub const MODEL: Model = Model {{ a: [{}], b: [{}] }};", list(model.a), list(model.b));
        println!("log-loss {:.4} (ignoring the score: {base:.4})", log_loss(&counts, &model));
        // Observed against predicted, by score (all phases together).
        println!("score      positions  observed W/D/L %      predicted W/D/L %");
        for lo in (-600..600).step_by(100) {
            let (mut seen, mut predicted, mut m) = ([0.0; 3], [0.0; 3], 0.0);
            for (&(score, phase), outcomes) in counts.range((lo, i32::MIN)..(lo + 100, i32::MIN)) {
                let (w, d, l) = model.chances(score as f64, phase);
                let k: f64 = outcomes.iter().sum();
                for i in 0..3 {
                    seen[i] += outcomes[i];
                }
                predicted[0] += k * w;
                predicted[1] += k * d;
                predicted[2] += k * l;
                m += k;
            }
            if m > 0.0 {
                let pc =
                    |x: [f64; 3]| format!("{:4.1} {:4.1} {:4.1}", 100.0 * x[0] / m, 100.0 * x[1] / m, 100.0 * x[2] / m);
                println!("{lo:>5}..{:<5} {m:>8}   {}      {}", lo + 100, pc(seen), pc(predicted));
            }
        }
        Ok(())
    }
}

/// The network's trainer (`nnue-fit`): the network of `tabula_chess::engine::eval::nnue` in `f32`, trained by Adam on
/// minibatches to predict, through `sigmoid(y)`, a blend of the search's score (as `sigmoid(score / scale)`)
/// and the game's result, then quantised into a weights file.
///
/// Hand-written rather than on a tensor library: the network is one hidden layer over sparse inputs (about 30
/// of 768 active per side), so forward and backward passes touch only the active columns, a few dozen lines
/// each; a dense framework would multiply zeros, and this loop is checked against finite differences below.
mod nnue_fit {
    use anyhow::{bail, Context};
    use std::sync::Arc;
    use std::time::Instant;
    use tabula::game::Evaluator;
    use tabula::rng::Rng;
    use tabula_chess::engine::eval::against_bare_king;
    use tabula_chess::engine::eval::nnue::{
        names_embedded, KingLayout, Layers, Network, DEFAULT_SCALE, HIDDEN, INPUTS, MAX_BUCKETS, QA, QB,
    };
    use tabula_chess::{Color, Position};

    const H: usize = HIDDEN;

    fn sigmoid(x: f32) -> f32 {
        1.0 / (1.0 + (-x).exp())
    }
    /// The most a first-layer weight or bias may grow (in real units) so that the quantised accumulators stay
    /// within `i16` (the loader's bound: a bias plus 32 weights).
    const FIRST_LAYER_CLIP: f32 = 1.98;
    const BIAS_CLIP: f32 = 60.0;
    /// The output weights' bound: the output sum stays far within `i32`.
    const OUTPUT_CLIP: f32 = 2.0;

    /// Training positions: the active features from each side's point of view, side to move, target.
    #[derive(Default)]
    pub struct Data {
        /// The inputs the features are of.
        kings: KingLayout,
        /// `[white's view, black's view]` per piece.
        features: Vec<[u16; 2]>,
        /// Where each position's features start in `features` (one more entry than positions).
        starts: Vec<u32>,
        black_to_move: Vec<bool>,
        /// The expected score for the side to move.
        targets: Vec<f32>,
    }

    impl Data {
        pub fn len(&self) -> usize {
            self.targets.len()
        }

        /// No positions yet, their features to be those of the king layout `kings`.
        pub fn new(kings: KingLayout) -> Data {
            Data { kings, ..Data::default() }
        }

        pub fn push(&mut self, pos: &Position, target_for_side_to_move: f32) {
            if self.starts.is_empty() {
                self.starts.push(0);
            }
            let board = pos.board();
            let [white, black] = self.kings.views(pos);
            for sq in board.occupied() {
                let piece = board.piece_at(sq).expect("occupied");
                let [w, b] = [white.feature(Color::White, piece, sq), black.feature(Color::Black, piece, sq)];
                self.features.push([w as u16, b as u16]);
            }
            self.starts.push(self.features.len() as u32);
            self.black_to_move.push(pos.turn() == Color::Black);
            self.targets.push(target_for_side_to_move);
        }

        /// The number of pieces of position `i`.
        fn pieces(&self, i: usize) -> u32 {
            self.starts[i + 1] - self.starts[i]
        }

        /// The features of position `i` from the side to move's point of view and the other's.
        fn views(&self, i: usize) -> (impl Iterator<Item = usize> + '_, impl Iterator<Item = usize> + '_) {
            let span = &self.features[self.starts[i] as usize..self.starts[i + 1] as usize];
            let us = self.black_to_move[i] as usize;
            (span.iter().map(move |f| f[us] as usize), span.iter().map(move |f| f[1 - us] as usize))
        }
    }

    /// The network in `f32`.
    #[derive(Clone)]
    pub struct Params {
        /// The inputs of the first layer.
        pub kings: KingLayout,
        /// Input by input, `H` each, king bucket by king bucket; with more than one king bucket, one more set of
        /// [`INPUTS`] (the *factor*) that every bucket's inputs add to, so that what holds wherever the king
        /// stands is learnt from every position (merged into each bucket's weights by
        /// [`quantise`](Params::quantise)).
        pub w1: Vec<f32>,
        pub b1: Vec<f32>,
        /// Output bucket by bucket, `2 * H` each: side to move's `H`, then the other's.
        pub w2: Vec<f32>,
        /// One per output bucket.
        pub b2: Vec<f32>,
    }

    /// Which of the neurons of `layers` are silent: no weight in or out and no bias, so never active.
    pub fn silent_neurons(layers: &Layers) -> Vec<bool> {
        let h = layers.hidden;
        (0..h)
            .map(|j| {
                layers.bias[j] == 0
                    && layers.weights.iter().skip(j).step_by(h).all(|&w| w == 0)
                    && layers.out_weights.iter().skip(j).step_by(h).all(|&w| w == 0)
            })
            .collect()
    }

    /// The sets of [`INPUTS`] first-layer weights a trainer keeps for `kings`: one per king bucket, and the
    /// factor where there are several.
    fn input_sets(kings: &KingLayout) -> usize {
        let n = kings.buckets();
        if n > 1 {
            n + 1
        } else {
            1
        }
    }

    impl Params {
        pub fn random(rng: &mut Rng, buckets: usize, kings: KingLayout) -> Params {
            let mut uniform = |scale: f64| ((rng.unit() * 2.0 - 1.0) * scale) as f32;
            Params {
                kings,
                w1: (0..INPUTS * input_sets(&kings) * H).map(|_| uniform(0.15)).collect(),
                b1: (0..H).map(|_| uniform(0.1) + 0.1).collect(),
                w2: (0..2 * H * buckets).map(|_| uniform(0.1)).collect(),
                b2: vec![0.0; buckets],
            }
        }

        /// The real-valued weights of a quantised network's layers (the inverse of
        /// [`quantise`](Params::quantise) up to rounding), to go on training it, with `buckets` output buckets
        /// and the king layout `kings`: the network's own, or copies of the output neuron of a network with one
        /// bucket (which evaluate as it does); the network's own king layout, or from the plain layout (one
        /// set of inputs, no mirroring) any other, the plain weights becoming the factor that every king bucket
        /// starts from. A network may have fewer hidden neurons than `H`: those it lacks start with random input
        /// weights (drawn from `rng`) and no output weight, so that the wider network evaluates as the narrower
        /// one until it learns. So do its silent neurons, with no weight in or out and no bias (a narrower
        /// network read at this build's width has them): never active, they would never learn.
        pub fn from_layers(
            layers: &Layers,
            buckets: usize,
            kings: KingLayout,
            rng: &mut Rng,
        ) -> anyhow::Result<Params> {
            let (h, given) = (layers.hidden, layers.out_bias.len());
            if h > H {
                bail!("a network of {h} hidden neurons cannot start one of {H}");
            }
            if given != buckets && given != 1 {
                bail!("a network of {given} output buckets cannot start one of {buckets}");
            }
            if layers.kings != kings && layers.kings != KingLayout::PLAIN {
                bail!("a network of {} king buckets cannot start another king layout", layers.kings.buckets());
            }
            let real = |w: i16, q: i32| f32::from(w) / q as f32;
            let random = Params::random(rng, 1, kings);
            // At this build's width the neurons the network lacks are silent too, and all silent ones start
            // afresh.
            let wide = layers.widened(H);
            let silent = silent_neurons(&wide);
            let given_w1: Vec<f32> = wide
                .weights
                .iter()
                .enumerate()
                .map(|(at, &w)| if silent[at % H] { random.w1[at] } else { real(w, QA) })
                .collect();
            let set = INPUTS * H;
            let w1 = match (input_sets(&kings), layers.kings == kings) {
                (1, _) => given_w1,
                // Each bucket's own weights, no factor yet.
                (_, true) => [given_w1, vec![0.0; set]].concat(),
                // The plain weights as the factor under empty buckets.
                (sets, false) => [vec![0.0; (sets - 1) * set], given_w1].concat(),
            };
            let b1 = (0..H).map(|j| if silent[j] { random.b1[j] } else { real(wide.bias[j], QA) }).collect();
            // A silent neuron's output weights are zeros already.
            let w2: Vec<f32> = wide.out_weights.iter().map(|&w| real(w, QB)).collect();
            let b2: Vec<f32> = layers.out_bias.iter().map(|&b| b as f32 / (QA * QB) as f32).collect();
            let copies = buckets / given;
            Ok(Params { kings, w1, b1, w2: w2.repeat(copies), b2: b2.repeat(copies) })
        }

        pub fn buckets(&self) -> usize {
            self.b2.len()
        }

        fn zeros(buckets: usize, kings: KingLayout) -> Params {
            Params {
                kings,
                w1: vec![0.0; INPUTS * input_sets(&kings) * H],
                b1: vec![0.0; H],
                w2: vec![0.0; 2 * H * buckets],
                b2: vec![0.0; buckets],
            }
        }

        /// Where position `i`'s output neuron's weights start in `w2`, and its bucket.
        fn output_of(&self, data: &Data, i: usize) -> (usize, usize) {
            let bucket = Network::bucket_of(data.pieces(i), self.buckets());
            (bucket * 2 * H, bucket)
        }

        /// The rows of `w1` that input `f` adds: its own, and its factor's if there is one.
        fn rows(&self, f: usize) -> impl Iterator<Item = usize> {
            let factor = (input_sets(&self.kings) > 1).then(|| self.kings.buckets() * INPUTS + f % INPUTS);
            std::iter::once(f).chain(factor)
        }

        fn accumulate(&self, features: impl Iterator<Item = usize>, acc: &mut [f32; H]) {
            acc.copy_from_slice(&self.b1);
            for row in features.flat_map(|f| self.rows(f)) {
                for (a, w) in acc.iter_mut().zip(&self.w1[row * H..(row + 1) * H]) {
                    *a += w;
                }
            }
        }

        /// The output `y` for position `i` (its accumulators left in `acc`).
        pub fn forward(&self, data: &Data, i: usize, acc: &mut [[f32; H]; 2]) -> f32 {
            let (us, them) = data.views(i);
            self.accumulate(us, &mut acc[0]);
            self.accumulate(them, &mut acc[1]);
            let (at, bucket) = self.output_of(data, i);
            let mut y = self.b2[bucket];
            for (side, a) in acc.iter().enumerate() {
                for (x, w) in a.iter().zip(&self.w2[at + side * H..at + (side + 1) * H]) {
                    y += x.clamp(0.0, 1.0) * w;
                }
            }
            y
        }

        /// Adds the gradient of `(sigmoid(y) - target)^2` at position `i` to `grad`; returns the loss.
        fn backward(&self, data: &Data, i: usize, acc: &mut [[f32; H]; 2], grad: &mut Params) -> f32 {
            let y = self.forward(data, i, acc);
            let p = sigmoid(y);
            let error = p - data.targets[i];
            let dy = 2.0 * error * p * (1.0 - p);
            let (at, bucket) = self.output_of(data, i);
            grad.b2[bucket] += dy;
            let (us, them) = data.views(i);
            let mut dacc = [0.0f32; H];
            for (side, features) in [(0, Box::new(us) as Box<dyn Iterator<Item = usize>>), (1, Box::new(them))] {
                let w2 = &self.w2[at + side * H..at + (side + 1) * H];
                let g2 = &mut grad.w2[at + side * H..at + (side + 1) * H];
                for j in 0..H {
                    let a = acc[side][j];
                    g2[j] += dy * a.clamp(0.0, 1.0);
                    dacc[j] = if a > 0.0 && a < 1.0 { dy * w2[j] } else { 0.0 };
                    grad.b1[j] += dacc[j];
                }
                for row in features.flat_map(|f| self.rows(f)) {
                    for (g, d) in grad.w1[row * H..(row + 1) * H].iter_mut().zip(&dacc) {
                        *g += d;
                    }
                }
            }
            error * error
        }

        fn values_mut(&mut self) -> impl Iterator<Item = (&mut f32, f32)> {
            let w1 = self.w1.iter_mut().map(|w| (w, FIRST_LAYER_CLIP));
            let b1 = self.b1.iter_mut().map(|w| (w, BIAS_CLIP));
            let w2 = self.w2.iter_mut().map(|w| (w, OUTPUT_CLIP));
            w1.chain(b1).chain(w2).chain(self.b2.iter_mut().map(|b| (b, 100.0)))
        }

        fn values(&self) -> impl Iterator<Item = f32> + '_ {
            self.w1.iter().chain(&self.b1).chain(&self.w2).chain(&self.b2).copied()
        }

        /// The quantised network with `scale` centipawns per unit (see the module documentation of
        /// `eval::nnue`).
        pub fn quantise(&self, scale: f32) -> Network {
            let q = |xs: &[f32], scale: i32| -> Vec<i16> {
                xs.iter().map(|&w| (w * scale as f32).round() as i16).collect()
            };
            let out_bias: Vec<i32> = self.b2.iter().map(|b| (b * (QA * QB) as f32).round() as i32).collect();
            // Each king bucket's weights with the factor's added, kept within the clip bound.
            let set = INPUTS * H;
            let w1: Vec<f32> = match input_sets(&self.kings) {
                1 => self.w1.clone(),
                sets => {
                    let (buckets, factor) = self.w1.split_at((sets - 1) * set);
                    let merged = buckets.iter().zip(factor.iter().cycle());
                    merged.map(|(w, f)| (w + f).clamp(-FIRST_LAYER_CLIP, FIRST_LAYER_CLIP)).collect()
                }
            };
            let layers = Layers {
                hidden: H,
                kings: self.kings,
                weights: q(&w1, QA),
                bias: q(&self.b1, QA),
                out_weights: q(&self.w2, QB),
                out_bias,
                scale: scale as i32,
            };
            Network::from_layers(&layers).expect("the clipped weights are in range")
        }
    }

    /// The mean loss over `data` (split over `threads`).
    pub fn loss(params: &Params, data: &Data, threads: usize) -> f64 {
        let chunk = data.len().div_ceil(threads.max(1)).max(1);
        let starts: Vec<usize> = (0..data.len()).step_by(chunk).collect();
        let total: f64 = std::thread::scope(|s| {
            let handles: Vec<_> = starts
                .iter()
                .map(|&start| {
                    s.spawn(move || {
                        let mut acc = [[0.0; H]; 2];
                        (start..(start + chunk).min(data.len()))
                            .map(|i| {
                                let p = sigmoid(params.forward(data, i, &mut acc));
                                f64::from((p - data.targets[i]).powi(2))
                            })
                            .sum::<f64>()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("no panic")).sum()
        });
        total / data.len().max(1) as f64
    }

    /// Reads `FEN;score;result` lines (white's point of view) into training data with targets
    /// `share * sigmoid(score / scale) + (1 - share) * result` for the side to move, leaving out the endings
    /// against a bare king, which the engine never asks the network about.
    /// Also returns the FEN of each position kept.
    fn read(path: &str, share: f32, scale: f32, kings: KingLayout) -> anyhow::Result<(Data, Vec<String>)> {
        let mut data = Data::new(kings);
        let mut fens = Vec::new();
        let mut bare = 0;
        for line in super::read_lines(path)? {
            let fields: Vec<&str> = line.split(';').collect();
            let [fen, score, result] = fields[..] else { continue };
            let (Ok(pos), Ok(score), Ok(result)) =
                (Position::from_fen(fen), score.parse::<f32>(), result.parse::<f32>())
            else {
                eprintln!("{path}: not FEN;score;result: {line}");
                continue;
            };
            if against_bare_king(&pos) {
                bare += 1;
                continue;
            }
            let white = share * sigmoid(score / scale) + (1.0 - share) * result;
            data.push(&pos, if pos.turn() == Color::White { white } else { 1.0 - white });
            fens.push(fen.to_owned());
        }
        eprintln!("{path}: {} positions, {bare} against a bare king left out", fens.len());
        Ok((data, fens))
    }

    /// Prints the loss of the tapered evaluation and of each network on the positions `fens` with their
    /// targets for the side to move.
    fn report_losses(fens: &[String], targets: &[f32], scale: f32, networks: &[(&str, Arc<Network>)], what: &str) {
        // Each position is set up as it is evaluated: a network's accumulators make an evaluated position
        // dozens of kilobytes, too many to keep for a million positions.
        let loss = |evaluate: &dyn Fn(&Position) -> i32| {
            let sum: f64 = fens
                .iter()
                .zip(targets)
                .map(|(fen, &target)| {
                    let pos = Position::from_fen(fen).expect("read before");
                    f64::from((sigmoid(evaluate(&pos) as f32 / scale) - target).powi(2))
                })
                .sum();
            sum / fens.len().max(1) as f64
        };
        let tapered = loss(&|pos| tabula_chess::engine::eval::Evaluation.evaluate(pos));
        eprintln!("the tapered evaluation's {what}loss: {tapered:.6}");
        for (name, net) in networks {
            eprintln!("{name}'s {what}loss: {:.6}", loss(&|pos| net.evaluate(pos)));
        }
    }

    /// The network file `name`, or the crate's own for `<embedded>`.
    fn open_network(name: &str) -> anyhow::Result<Arc<Network>> {
        Network::named(name).with_context(|| format!("cannot read the network {name}"))
    }

    /// `nnue-loss`: the loss of the tapered evaluation and of each network file (`<embedded>` for the one in
    /// the crate) on every position of `path`, with the targets of `nnue-fit`.
    pub fn losses(path: &str, nets: &[&str], share: f32, scale: f32) -> anyhow::Result<()> {
        let (data, fens) = read(path, share, scale, KingLayout::PLAIN)?;
        let networks = nets.iter().map(|&n| Ok((n, open_network(n)?))).collect::<anyhow::Result<Vec<_>>>()?;
        report_losses(&fens, &data.targets, scale, &networks, "");
        Ok(())
    }

    /// What `nnue-fit` trains on, how, and where it writes the network.
    #[derive(clap::Args)]
    pub struct Training {
        /// `FEN;score;result` lines, as `nnue-gen` or `nnue-label` writes them.
        pub data: String,
        /// The network file to write.
        pub out: String,
        #[arg(long, default_value_t = 20)]
        pub epochs: usize,
        /// The share of the score in the target, the rest being the game's result.
        #[arg(long, default_value_t = 0.75)]
        pub share: f32,
        /// Centipawns per unit of the network's output.
        #[arg(long, default_value_t = DEFAULT_SCALE as f32)]
        pub scale: f32,
        #[arg(long, default_value_t = 2)]
        pub threads: usize,
        /// Train on the positions as given only, not also mirrored left to right.
        #[arg(long)]
        pub no_mirror: bool,
        /// Go on from this network's weights (a file, or `<embedded>`) instead of random ones; a narrower
        /// network's missing neurons start with random input weights and no output weight.
        #[arg(long)]
        pub start: Option<String>,
        /// The learning rate (10⁻³ from random weights, 10⁻⁴ from a start network by default).
        #[arg(long)]
        pub rate: Option<f32>,
        /// Output buckets (by the number of pieces): by default the start network's, or 8 from random weights.
        /// A network of one bucket starts each of more buckets.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_BUCKETS as i64))]
        pub buckets: Option<u32>,
        /// Write the weights of the pass with the lowest held-out loss rather than the last pass's.
        #[arg(long)]
        pub keep_best: bool,
        /// The king layout of the first layer's inputs (`plain`, `mirrored` or `four`; see
        /// `KingLayout::NAMED`): by default the start network's, or plain. A plain network starts any other,
        /// its weights becoming the factor every king bucket adds to.
        #[arg(long, value_parser = parse_kings)]
        pub kings: Option<KingLayout>,
    }

    fn parse_kings(name: &str) -> Result<KingLayout, String> {
        KingLayout::named(name).ok_or_else(|| {
            let names: Vec<&str> = KingLayout::NAMED.iter().map(|(n, _)| *n).collect();
            format!("no king layout {name:?}: one of {}", names.join(", "))
        })
    }

    /// Trains on `data` for `epochs` and writes the weights file `out`: from random weights, or from the
    /// network `start` (a file, or `<embedded>`) at a tenth of the learning rate, unless `rate` is given.
    pub fn run(training: &Training) -> anyhow::Result<()> {
        let Training {
            data: ref path,
            ref out,
            epochs,
            share,
            scale,
            threads,
            no_mirror,
            ref start,
            rate,
            buckets,
            keep_best,
            kings,
        } = *training;
        let started = Instant::now();
        // A file may be narrower than this build's networks: the trainer widens it.
        let start = match start {
            None => None,
            Some(name) if names_embedded(name) => Some((name, Network::embedded().to_layers())),
            Some(name) => {
                let bytes = std::fs::read(name).with_context(|| format!("cannot read {name}"))?;
                Some((name, Layers::from_bytes(&bytes).with_context(|| format!("cannot read the network {name}"))?))
            }
        };
        let kings = kings.or(start.as_ref().map(|(_, layers)| layers.kings)).unwrap_or_default();
        // Mirroring the positions left to right doubles them for the plain layout; a mirrored layout sees a
        // position and its mirror image alike, and a king bucket need not hold for the mirrored king.
        let mirror = !no_mirror && kings == KingLayout::PLAIN;
        let (all, fens) = read(path, share, scale, kings)?;
        if all.len() < 20 {
            bail!("{path}: {} positions are too few to train on and hold out a twentieth", all.len());
        }
        // The last twentieth of the file (the latest games) is held out.
        let cut = all.len() - all.len() / 20;
        let (mut train, mut valid) = (Data::new(kings), Data::new(kings));
        for i in 0..all.len() {
            let part = if i < cut { &mut train } else { &mut valid };
            // The network sees the placement alone, which is as good mirrored left to right (castling rights
            // aside): the training positions count twice, once mirrored (a square's file bits flipped).
            let copies = if i < cut && mirror { 2 } else { 1 };
            for copy in 0..copies {
                if part.starts.is_empty() {
                    part.starts.push(0);
                }
                let span = &all.features[all.starts[i] as usize..all.starts[i + 1] as usize];
                let flip = if copy == 1 { 7 } else { 0 };
                part.features.extend(span.iter().map(|&[w, b]| [w ^ flip, b ^ flip]));
                part.starts.push(part.features.len() as u32);
                part.black_to_move.push(all.black_to_move[i]);
                part.targets.push(all.targets[i]);
            }
        }
        eprintln!("{} training, {} held out, read in {:.1?}", train.len(), valid.len(), started.elapsed());
        // The tapered evaluation's and the embedded network's losses on the held-out positions, for comparison.
        let embedded = [("the embedded network", Network::embedded())];
        report_losses(&fens[cut..], &all.targets[cut..], scale, &embedded, "held-out ");
        let mut rng = Rng::new(0x6e6e_7565);
        let (mut params, default_rate) = match start {
            None => (Params::random(&mut rng, buckets.map_or(8, |b| b as usize), kings), 1e-3),
            Some((start, layers)) => {
                // The weights mean `y · scale` centipawns: another scale would change every evaluation.
                if layers.scale as f32 != scale {
                    bail!("{start} has scale {}, training asks for {scale}", layers.scale);
                }
                let silent = silent_neurons(&layers).iter().filter(|&&s| s).count();
                if layers.hidden < H || silent > 0 {
                    eprintln!(
                        "{start} has {} hidden neurons, {silent} of them silent: {} start afresh",
                        layers.hidden,
                        H - layers.hidden + silent
                    );
                }
                let buckets = buckets.map_or(layers.out_bias.len(), |b| b as usize);
                (Params::from_layers(&layers, buckets, kings, &mut rng)?, 1e-4)
            }
        };
        eprintln!("{} output buckets, {} king buckets", params.buckets(), kings.buckets());
        let rate = rate.unwrap_or(default_rate);
        let mut adam = Adam::new(&params);
        let mut order: Vec<u32> = (0..train.len() as u32).collect();
        const BATCH: usize = 4_096;
        // The pass with the lowest held-out loss so far, its number and its weights (with `keep_best`).
        let mut best: Option<(f64, usize, Params)> = None;
        for epoch in 1..=epochs {
            // A tenth of the rate for the last fifth of the epochs.
            let lr = if epoch * 5 <= epochs * 4 { rate } else { rate / 10.0 };
            rng.shuffle(&mut order);
            let mut train_loss = 0.0;
            for batch in order.chunks(BATCH) {
                let (grad, batch_loss) = gradient(&params, &train, batch, threads);
                train_loss += batch_loss;
                adam.step(&mut params, &grad, lr, batch.len());
            }
            let held_out = loss(&params, &valid, threads);
            eprintln!(
                "epoch {epoch}: loss {:.6} train, {held_out:.6} held out ({:.0?})",
                train_loss / train.len() as f64,
                started.elapsed()
            );
            if keep_best && !best.as_ref().is_some_and(|(lowest, _, _)| *lowest <= held_out) {
                best = Some((held_out, epoch, params.clone()));
            }
        }
        if let Some((held_out, epoch, kept)) = best {
            eprintln!("keeping pass {epoch} (held-out loss {held_out:.6})");
            params = kept;
        }
        let net = params.quantise(scale);
        std::fs::write(out, net.to_bytes()).with_context(|| format!("cannot write {out}"))?;
        // How far quantisation moves the evaluations, on held-out positions.
        let (mut diff, mut n) = (0.0, 0);
        let mut acc = [[0.0; H]; 2];
        for (i, fen) in fens.iter().enumerate().skip(cut).take(2000) {
            let pos = Position::from_fen(fen).expect("read before");
            let real = params.forward(&all, i, &mut acc) * scale;
            diff += (real - net.evaluate(&pos) as f32).abs();
            n += 1;
        }
        eprintln!("wrote {out}; quantised evaluations differ by {:.2} cp on average", diff / n.max(1) as f32);
        Ok(())
    }

    /// The summed gradient and loss of the positions `batch` of `data`, split over `threads`.
    fn gradient(params: &Params, data: &Data, batch: &[u32], threads: usize) -> (Params, f64) {
        let chunk = batch.len().div_ceil(threads.max(1)).max(1);
        let parts: Vec<(Params, f64)> = std::thread::scope(|s| {
            let handles: Vec<_> = batch
                .chunks(chunk)
                .map(|part| {
                    s.spawn(move || {
                        let mut grad = Params::zeros(params.buckets(), params.kings);
                        let mut acc = [[0.0; H]; 2];
                        let loss: f64 = part
                            .iter()
                            .map(|&i| f64::from(params.backward(data, i as usize, &mut acc, &mut grad)))
                            .sum();
                        (grad, loss)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("no panic")).collect()
        });
        let mut parts = parts.into_iter();
        let (mut total, mut loss) =
            parts.next().unwrap_or_else(|| (Params::zeros(params.buckets(), params.kings), 0.0));
        for (grad, l) in parts {
            for ((t, _), g) in total.values_mut().zip(grad.values()) {
                *t += g;
            }
            loss += l;
        }
        (total, loss)
    }

    /// Adam's moments, one per parameter.
    struct Adam {
        m: Vec<f32>,
        v: Vec<f32>,
        t: i32,
    }

    impl Adam {
        fn new(params: &Params) -> Adam {
            let n = params.values().count();
            Adam { m: vec![0.0; n], v: vec![0.0; n], t: 0 }
        }

        /// One step on the mean of the summed gradient `grad` over `n` positions; weights stay within their
        /// clip bounds.
        fn step(&mut self, params: &mut Params, grad: &Params, lr: f32, n: usize) {
            let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
            self.t += 1;
            let (c1, c2) = (1.0 - b1.powi(self.t), 1.0 - b2.powi(self.t));
            let scale = 1.0 / n as f32;
            for (((w, clip), g), (m, v)) in
                params.values_mut().zip(grad.values()).zip(self.m.iter_mut().zip(self.v.iter_mut()))
            {
                let g = g * scale;
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *w = (*w - lr * (*m / c1) / ((*v / c2).sqrt() + eps)).clamp(-clip, clip);
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use tabula_chess::engine::eval::nnue::feature;

        fn from_network(net: &Network, buckets: usize) -> anyhow::Result<Params> {
            Params::from_layers(&net.to_layers(), buckets, *net.kings(), &mut Rng::new(0))
        }

        /// A network of half the width starts a full one that evaluates as it does: checked against the
        /// narrow network's output computed here from its layers in floating point.
        #[test]
        fn a_narrower_network_starts_a_wider_one_that_evaluates_alike() {
            let wide = Params::random(&mut Rng::new(5), 8, KingLayout::PLAIN).quantise(113.0).to_layers();
            // Keep the first half of the neurons of each layer.
            let h = H / 2;
            let narrow = Layers {
                hidden: h,
                weights: wide.weights.chunks_exact(H).flat_map(|c| c[..h].to_vec()).collect(),
                bias: wide.bias[..h].to_vec(),
                out_weights: wide.out_weights.chunks_exact(H).flat_map(|c| c[..h].to_vec()).collect(),
                ..wide.clone()
            };
            let widened = Params::from_layers(&narrow, 8, KingLayout::PLAIN, &mut Rng::new(6)).unwrap().quantise(113.0);
            for fen in [
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            ] {
                let pos = Position::from_fen(fen).unwrap();
                let views = [pos.turn(), pos.turn().flip()].map(|side| {
                    let board = pos.board();
                    let mut acc: Vec<f32> = narrow.bias.iter().map(|&b| f32::from(b) / QA as f32).collect();
                    for sq in board.occupied() {
                        let f = feature(side, board.piece_at(sq).unwrap(), sq);
                        for (a, &w) in acc.iter_mut().zip(&narrow.weights[f * h..(f + 1) * h]) {
                            *a += f32::from(w) / QA as f32;
                        }
                    }
                    acc
                });
                let bucket = Network::bucket_of(pos.board().occupied().count(), 8);
                let out = &narrow.out_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
                let mut y = narrow.out_bias[bucket] as f32 / (QA * QB) as f32;
                for (x, &w) in views.concat().iter().zip(out) {
                    y += x.clamp(0.0, 1.0) * f32::from(w) / QB as f32;
                }
                let expected = y * 113.0;
                let got = widened.evaluate(&pos) as f32;
                assert!((got - expected).abs() <= 2.0, "{fen}: {got} against {expected}");
            }
            // The narrow network read at full width (its other neurons silent, as `Network::from_bytes` reads a
            // narrower file) starts the same network: the silent neurons start afresh rather than never learn.
            let read_wide = Params::from_layers(&narrow.widened(H), 8, KingLayout::PLAIN, &mut Rng::new(6)).unwrap();
            let fresh = Params::from_layers(&narrow, 8, KingLayout::PLAIN, &mut Rng::new(6)).unwrap();
            assert_eq!((read_wide.w1, read_wide.b1), (fresh.w1.clone(), fresh.b1));
            assert_eq!((read_wide.w2, read_wide.b2), (fresh.w2, fresh.b2));
            assert!(fresh.w1[h..H].iter().any(|&w| w != 0.0));
            // A wider network cannot start a narrower one.
            let mut too_wide = narrow.clone();
            too_wide.hidden = H + 1;
            assert!(Params::from_layers(&too_wide, 8, KingLayout::PLAIN, &mut Rng::new(6)).is_err());
        }

        #[test]
        fn a_network_read_back_quantises_to_itself() {
            for buckets in [1, 8] {
                let params = Params::random(&mut Rng::new(3), buckets, KingLayout::PLAIN);
                let net = params.quantise(113.0);
                assert_eq!(net.buckets(), buckets);
                let back = from_network(&net, buckets).unwrap();
                assert_eq!(back.quantise(113.0).to_bytes(), net.to_bytes());
            }
            let embedded = Network::embedded();
            let scale = embedded.scale() as f32;
            let back = from_network(&embedded, embedded.buckets()).unwrap();
            assert_eq!(back.quantise(scale).to_bytes(), embedded.to_bytes());
            // One bucket starts eight that evaluate alike; eight cannot start three.
            let one = Params::random(&mut Rng::new(4), 1, KingLayout::PLAIN).quantise(113.0);
            let eight = from_network(&one, 8).unwrap().quantise(113.0);
            for fen in [
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            ] {
                let pos = Position::from_fen(fen).unwrap();
                assert_eq!(eight.evaluate(&pos), one.evaluate(&pos), "{fen}");
            }
            assert!(from_network(&eight, 3).is_err());
        }

        #[test]
        fn gradient_matches_finite_differences() {
            let mut data = Data::default();
            for (fen, target) in [
                ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0.55),
                ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1", 0.3),
                ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 0.8),
            ] {
                data.push(&Position::from_fen(fen).unwrap(), target);
            }
            let mut rng = Rng::new(5);
            let params = Params::random(&mut rng, 8, KingLayout::PLAIN);
            // The first two positions (32 pieces) are read by the last bucket, the third (10) by the third.
            assert_eq!(data.pieces(2), 10);
            let (top, third) = (7 * 2 * H, 2 * 2 * H);
            let batch: Vec<u32> = (0..data.len() as u32).collect();
            let (grad, _) = gradient(&params, &data, &batch, 2);
            let total = |p: &Params| loss(p, &data, 1) * data.len() as f64;
            // Parameters the positions touch: a first-layer weight of a white pawn on e2 (both views of it),
            // a bias, output weights of both sides, the output bias.
            let e2 = feature(
                Color::White,
                tabula_chess::Piece::new(Color::White, tabula_chess::Role::Pawn),
                "e2".parse::<tabula_chess::Square>().unwrap(),
            );
            let probes: Vec<(&str, usize)> = vec![
                ("w1", e2 * H + 3),
                ("w1", e2 * H + 100),
                ("b1", 7),
                ("w2", top + 11),
                ("w2", top + H + 20),
                ("w2", third + 5),
                ("w2", third + H + 30),
                ("b2", 7),
                ("b2", 2),
            ];
            for (name, i) in probes {
                let get = |p: &mut Params| -> *mut f32 {
                    match name {
                        "w1" => &mut p.w1[i],
                        "b1" => &mut p.b1[i],
                        "w2" => &mut p.w2[i],
                        _ => &mut p.b2[i],
                    }
                };
                let h = 1e-3f32;
                let (mut up, mut down) = (params.clone(), params.clone());
                // SAFETY: each pointer is into the parameters it came from, which live through the writes.
                unsafe {
                    *get(&mut up) += h;
                    *get(&mut down) -= h;
                }
                let numeric = (total(&up) - total(&down)) / (2.0 * f64::from(h));
                let mut copy = grad.clone();
                let analytic = f64::from(unsafe { *get(&mut copy) });
                assert!(
                    (numeric - analytic).abs() <= 1e-3 + 1e-2 * analytic.abs(),
                    "{name}[{i}]: numeric {numeric}, analytic {analytic}"
                );
            }
        }

        #[test]
        fn a_symmetric_plain_network_starts_king_buckets_that_evaluate_alike() {
            // Left-right symmetric first-layer weights: a mirrored layout sees what the plain one sees.
            let mut params = Params::random(&mut Rng::new(12), 8, KingLayout::PLAIN);
            let given = params.w1.clone();
            for f in 0..INPUTS {
                for j in 0..H {
                    params.w1[f * H + j] = (given[f * H + j] + given[(f ^ 7) * H + j]) / 2.0;
                }
            }
            let plain = params.quantise(113.0);
            for kings in [KingLayout::MIRRORED, KingLayout::FOUR] {
                let started = Params::from_layers(&plain.to_layers(), 8, kings, &mut Rng::new(0)).unwrap();
                assert_eq!(started.w1.len(), INPUTS * H * input_sets(&kings));
                let net = started.quantise(113.0);
                assert_eq!(net.kings(), &kings);
                let mut rng = Rng::new(13);
                for plies in [0, 9, 30, 70, 120] {
                    let mut pos = Position::startpos();
                    for _ in 0..plies {
                        let moves = pos.legal_moves();
                        if moves.is_empty() {
                            break;
                        }
                        pos.play_unchecked(moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]);
                    }
                    assert_eq!(net.evaluate(&pos), plain.evaluate(&pos), "{}", pos.to_fen());
                }
                // Read back, it goes on as it was: bucket weights merged, no factor left.
                let again = Params::from_layers(&net.to_layers(), 8, kings, &mut Rng::new(0)).unwrap();
                assert_eq!(again.quantise(113.0).to_bytes(), net.to_bytes());
            }
            // Another layout cannot start a different one.
            let four = Params::random(&mut Rng::new(14), 8, KingLayout::FOUR).quantise(113.0);
            assert!(Params::from_layers(&four.to_layers(), 8, KingLayout::MIRRORED, &mut Rng::new(0)).is_err());
        }

        #[test]
        fn the_factor_learns_from_every_king_bucket() {
            let mut data = Data::new(KingLayout::FOUR);
            // Kings at home, castled and walked up: three king buckets, and both sides of the board.
            for (fen, target) in [
                ("r3k2r/pppq1ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 0 1", 0.55),
                ("r4rk1/pppq1ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPPQ1PPP/R4RK1 b - - 0 1", 0.3),
                ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 0.8),
            ] {
                data.push(&Position::from_fen(fen).unwrap(), target);
            }
            let params = Params::random(&mut Rng::new(15), 8, KingLayout::FOUR);
            let batch: Vec<u32> = (0..data.len() as u32).collect();
            let (grad, _) = gradient(&params, &data, &batch, 2);
            let total = |p: &Params| loss(p, &data, 1) * data.len() as f64;
            // A white pawn on e2... as white sees it with the king on e1 (bucket 0) and g1 (bucket 1); the
            // factor's row of that input.
            let pawn = feature(
                Color::White,
                tabula_chess::Piece::new(Color::White, tabula_chess::Role::Pawn),
                "f2".parse::<tabula_chess::Square>().unwrap(),
            );
            let factor = 4 * INPUTS + pawn;
            // A neuron both kings' pawns move (one inside its clipped range in both positions).
            let j = (0..H)
                .find(|&j| grad.w1[pawn * H + j] != 0.0 && grad.w1[(INPUTS + pawn) * H + j] != 0.0)
                .expect("some neuron is open in both positions");
            for row in [pawn, INPUTS + pawn, factor] {
                let i = row * H + j;
                let h = 1e-3f32;
                let (mut up, mut down) = (params.clone(), params.clone());
                up.w1[i] += h;
                down.w1[i] -= h;
                let numeric = (total(&up) - total(&down)) / (2.0 * f64::from(h));
                let analytic = f64::from(grad.w1[i]);
                assert!(analytic != 0.0, "row {row} untouched");
                assert!(
                    (numeric - analytic).abs() <= 1e-3 + 1e-2 * analytic.abs(),
                    "row {row}: numeric {numeric}, analytic {analytic}"
                );
            }
            // The factor's gradient is the sum of its buckets'.
            let sum = grad.w1[pawn * H + j] + grad.w1[(INPUTS + pawn) * H + j];
            assert!((grad.w1[factor * H + j] - sum).abs() <= 1e-6 + 1e-4 * sum.abs());
        }

        #[test]
        fn quantised_network_follows_the_real_one() {
            let mut data = Data::default();
            let pos =
                Position::from_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8").unwrap();
            data.push(&pos, 0.5);
            let params = Params::random(&mut Rng::new(9), 8, KingLayout::PLAIN);
            let real = params.forward(&data, 0, &mut [[0.0; H]; 2]) * 113.0;
            let quantised = params.quantise(113.0).evaluate(&pos) as f32;
            // Rounding each of ~200,000 weights moves the output by a few centipawns at most.
            assert!((real - quantised).abs() < 8.0, "{real} against {quantised}");
        }
    }
}
