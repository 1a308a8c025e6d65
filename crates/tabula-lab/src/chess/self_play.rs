//! The self-play games of `gen`, `wdl-gen` and `nnue-gen`, and the random starts `openings` judges.
//!
//! The engine plays itself at a fixed node budget per move from varied starts: a few random plies from the
//! start position or from `tests/data/openings.epd` of `tabula-chess`, each game number seeding its own start.
//! The positions kept are the quiet ones (not in check, the engine's move neither a capture nor a promotion,
//! no decisive score), each with the engine's score, and the game's result for white. A game ends at a draw by
//! the rules, after 400 plies, when the search scores it decisive or beyond ±1,500 centipawns for six plies
//! running, and on reaching an ending against a bare king (won for the stronger side, drawn if it has knights
//! alone), whose positions the network leaves to the tapered evaluation.
//!
//! Against an [`Opponent`] (Stockfish, for `nnue-gen --stockfish`) the engine plays white in the
//! even-numbered games, and the positions kept are the quiet ones where the opponent is to move, scored by its
//! own search.

use super::stockfish::{start_stockfish, verdict, Verdict, MATE_CP, STOCKFISH_PATIENCE};
use crate::data::Output;
use anyhow::Context;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use tabula::game::{Game, Outcome};
use tabula::rng::Rng;
use tabula::score::is_decisive;
use tabula::search::Limits;
use tabula::tune::on_threads;
use tabula_chess::engine::eval::against_bare_king;
use tabula_chess::engine::{Engine, EnginePosition};
use tabula_chess::{Color, Epd, Position, Role};
use tabula_protocol::process::Process;

/// The games of `gen` and `wdl-gen` and where their lines go.
#[derive(clap::Args)]
pub struct SelfPlay {
    /// The file to write.
    #[arg(required_unless_present = "result")]
    out: Option<String>,
    /// How many games to play.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// The node budget of each move.
    #[arg(long, default_value_t = 4000)]
    nodes: u64,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    #[command(flatten)]
    shard: tabula_cluster::shard::ShardArgs,
}

/// A number in `0..n` from the core's seeded generator, reduced by remainder as when the crate's weights were
/// generated, so that `gen` repeats those games.
fn below(rng: &mut Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// The positions of `tabula-chess`'s opening book, `tests/data/openings.epd`.
pub fn openings() -> Vec<Position> {
    let text = include_str!("../../../tabula-chess/tests/data/openings.epd");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let epd = Epd::parse(l).expect("the opening book is EPD");
            Position::from_setup(&epd.setup).expect("opening positions are legal")
        })
        .collect()
}

/// A varied start: some random plies from the start position or from a book opening, with a legal move left.
pub fn random_start(rng: &mut Rng, book: &[Position]) -> Option<Position> {
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
pub struct Quiet {
    pub fen: String,
    /// The search's score for the side to move.
    pub score: i32,
    /// The game phase (0 to 24).
    pub phase: i32,
    pub white_to_move: bool,
}

/// Another engine to play against instead of self-play: Stockfish at `path`, searching each move with `go {go}`.
pub struct Opponent {
    pub path: String,
    pub go: String,
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
pub fn gen(games: &SelfPlay, line: fn(&Quiet, f64) -> String) -> anyhow::Result<()> {
    match (games.shard.target(), &games.out) {
        (Some(target), _) => crate::shard::write_lines(&target, |out| {
            gen_from(out, crate::shard::items(&target, 0, games.games), games.nodes, 1, None, line)
        }),
        (None, Some(out)) => gen_from(out, 0..games.games, games.nodes, games.threads, None, line),
        (None, None) => anyhow::bail!("give the file to write, or --shard and --result"),
    }
}

/// [`gen`] for the games numbered in `games`, against `opponent` if one is given.
pub fn gen_from(
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
