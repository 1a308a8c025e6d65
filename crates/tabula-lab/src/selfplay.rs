//! The self-play games of the networks' data, for any game that says what it plays with ([`DataGame`]):
//! chess's `gen`, `wdl-gen` and `nnue-gen`, xiangqi's `nnue-gen`.
//!
//! The engine plays itself at a fixed node budget per move from varied starts, each game number seeding its own
//! start ([`DataGame::random_start`]). The positions kept are the quiet ones ([`DataGame::quiet`]: not in check,
//! the engine's move no capture, no decisive score), each with the engine's score, and the game's result for the
//! first player. A game ends by the rules and the game's own adjudications ([`DataGame::ended`]), after 400
//! plies (a draw), and when the search scores it decisive or beyond ±1,500 centipawns for six plies running.
//!
//! Against an [`Opponent`] (a peer engine over UCI, for `nnue-gen --stockfish` and `--fairy-stockfish`) the
//! engine plays the first colour in the even-numbered games, and the positions kept are the quiet ones where
//! the opponent is to move, scored by its own search.

use crate::data::Output;
use crate::peer::{Verdict, MATE_CP};
use anyhow::Context;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use tabula::game::Game;
use tabula::rng::Rng;
use tabula::score::is_decisive;
use tabula::search::{Engine, Limits, Playable};
use tabula::tune::on_threads;
use tabula_protocol::process::Process;

/// A move of game `G`.
pub type MoveOf<G> = <<G as DataGame>::Searched as Game>::Move;

/// What the self-play games need of a game.
pub trait DataGame {
    /// The rules' position.
    type Position: Clone + Send + Sync;
    /// The position the engine searches: the rules' own, or one with a network's accumulators.
    type Searched: Playable;

    /// The position the engine searches for `pos`.
    fn searched(pos: &Self::Position) -> Self::Searched;
    /// The positions the random starts begin from besides the game's start, read once.
    fn book() -> Vec<Self::Position>;
    /// A varied start drawn by `rng`, with a legal move left.
    fn random_start(rng: &mut Rng, book: &[Self::Position]) -> Option<Self::Position>;
    /// The result for the first player (1, 0.5, 0) if the game is over at `pos`: by the rules, or as good as
    /// decided by the game's own adjudication.
    fn ended(pos: &Self::Position) -> Option<f64>;
    /// Whether `pos`, where `mv` is played, is quiet: not in check, `mv` neither a capture nor a promotion.
    fn quiet(pos: &Self::Position, mv: MoveOf<Self>) -> bool;
    /// Plays the legal `mv` in `pos`.
    fn play(pos: &mut Self::Position, mv: MoveOf<Self>);
    /// Whether the first player (White, Red) is to move in `pos`.
    fn first_to_move(pos: &Self::Position) -> bool;
    /// The FEN of `pos`.
    fn fen(pos: &Self::Position) -> String;
    /// `pos` as a line of a match's opening file (`openings`): its FEN unless the game says otherwise.
    fn opening_line(pos: &Self::Position) -> String {
        Self::fen(pos)
    }
    /// The number of moves played since the game's start.
    fn plies(pos: &Self::Position) -> usize;
    /// The game's phase at `pos` for the win/draw/loss model, where the game has one (0 otherwise).
    fn phase(_pos: &Self::Position) -> i32 {
        0
    }

    /// What an opponent at `path` is sent after the UCI handshake to play this game (as `NAME value VALUE`).
    fn peer_options() -> &'static [&'static str] {
        &[]
    }
    /// `mv` as the opponent writes it.
    fn peer_move(mv: MoveOf<Self>) -> String;
    /// The opponent's move `text`, if legal in `pos`.
    fn parse_peer_move(pos: &Self::Position, text: &str) -> Option<MoveOf<Self>>;
}

/// The plies after which a game is drawn.
const MAX_PLIES: usize = 400;

/// A quiet position met in self-play, with what the engine's search made of it.
pub struct Quiet {
    pub fen: String,
    /// The search's score for the side to move.
    pub score: i32,
    /// The game phase (see [`DataGame::phase`]).
    pub phase: i32,
    /// Whether the first player is to move.
    pub first_to_move: bool,
}

/// Another engine to play against instead of self-play: the peer at `path`, searching each move with `go {go}`.
pub struct Opponent {
    pub path: String,
    pub go: String,
}

/// A running [`Opponent`] and whether it plays the first colour in the current game.
struct Rival {
    process: Process,
    go: String,
    first: bool,
}

impl Rival {
    fn start<G: DataGame>(opponent: &Opponent) -> anyhow::Result<Rival> {
        let process = crate::peer::start(&opponent.path, G::peer_options())?;
        Ok(Rival { process, go: opponent.go.clone(), first: true })
    }

    /// Its move in the game that went from `start` to `pos` by `moves`, with its score for the side to move.
    fn answer<G: DataGame>(
        &mut self,
        start: &str,
        moves: &[MoveOf<G>],
        pos: &G::Position,
    ) -> anyhow::Result<Verdict<MoveOf<G>>> {
        let mut position = format!("fen {start}");
        if !moves.is_empty() {
            position.push_str(" moves");
            for &mv in moves {
                position.push(' ');
                position.push_str(&G::peer_move(mv));
            }
        }
        let answer = crate::peer::ask_move(&mut self.process, &position, &self.go)?;
        crate::peer::verdict(&answer, |m| G::parse_peer_move(pos, m))
            .with_context(|| format!("the opponent gave no legal move in {}", G::fen(pos)))
    }
}

/// One self-play game from `pos`, or with a `rival` one against it: the quiet positions met (against a rival,
/// those where it is to move, scored by its search) and the result for the first player.
fn self_play<G: DataGame>(
    engine: &mut Engine<G::Searched>,
    mut pos: G::Position,
    nodes: u64,
    mut rival: Option<&mut Rival>,
) -> anyhow::Result<(Vec<Quiet>, f64)> {
    engine.clear_hash();
    if let Some(rival) = rival.as_mut() {
        rival.process.send("ucinewgame")?;
    }
    let (start, mut played) = (G::fen(&pos), Vec::new());
    let mut quiet = Vec::new();
    let mut decisive_run = 0;
    let result = loop {
        if let Some(result) = G::ended(&pos) {
            break result;
        }
        if G::plies(&pos) > MAX_PLIES {
            break 0.5;
        }
        let first_to_move = G::first_to_move(&pos);
        let rival_to_move = rival.as_ref().is_some_and(|r| r.first == first_to_move);
        let (mv, score, kept) = match rival.as_mut().filter(|_| rival_to_move) {
            Some(rival) => {
                let v = rival.answer::<G>(&start, &played, &pos)?;
                let Some(score) = v.score else { break 0.5 };
                (v.best, if score.abs() >= MATE_CP { mate_score(score) } else { score }, true)
            }
            None => {
                let r = engine.search(&G::searched(&pos), Limits::nodes(nodes), |_| {});
                let Some(mv) = r.best_move else { break 0.5 };
                (mv, r.score, rival.is_none())
            }
        };
        let first_score = if first_to_move { score } else { -score };
        // Adjudicate long-won games to save time; their later positions add little. Against an opponent, the
        // engine's own decisive score waits for the run: it may be a win by a repetition ruling (a perpetual
        // check the opponent would have to give), which the opponent avoids.
        decisive_run = if first_score.abs() > 1500 { decisive_run + 1 } else { 0 };
        let trusted = rival.is_none() || rival_to_move;
        if decisive_run >= 6 || (is_decisive(score) && trusted) {
            break if first_score > 0 { 1.0 } else { 0.0 };
        }
        if kept && G::quiet(&pos, mv) {
            quiet.push(Quiet { fen: G::fen(&pos), score, phase: G::phase(&pos), first_to_move });
        }
        G::play(&mut pos, mv);
        played.push(mv);
    };
    Ok((quiet, result))
}

/// A decisive score of the engine's scale for a mate the opponent reports (as ±[`MATE_CP`]), so that the game
/// is adjudicated as the engine's own mate scores adjudicate it.
fn mate_score(score: i32) -> i32 {
    if score > 0 {
        tabula::score::win_in(1)
    } else {
        tabula::score::loss_in(1)
    }
}

/// The games one data command plays: their numbers, the node budget of each of the engine's moves, the threads,
/// the opponent if any.
pub struct Games<'a> {
    pub numbers: std::ops::Range<u64>,
    pub nodes: u64,
    pub threads: usize,
    pub opponent: Option<&'a Opponent>,
}

/// Plays `games` of `G` and writes a line to `out` for each quiet position, as `line` makes it from the
/// position and the game's result for the first player.
pub fn gen_from<G: DataGame>(
    out: &str,
    games: &Games,
    line: impl Fn(&Quiet, f64) -> String + Sync,
) -> anyhow::Result<()> {
    let out = Mutex::new(Output::create(out)?);
    let next = AtomicUsize::new(games.numbers.start as usize);
    let book = G::book();
    let positions = AtomicUsize::new(0);
    on_threads(games.threads, || -> anyhow::Result<()> {
        let mut engine = Engine::<G::Searched>::new(8);
        let mut rival = games.opponent.map(Rival::start::<G>).transpose()?;
        loop {
            let game = next.fetch_add(1, Ordering::Relaxed);
            if game as u64 >= games.numbers.end {
                break;
            }
            let mut rng = Rng::new(0x7ab1_0000 + game as u64);
            let Some(start) = G::random_start(&mut rng, &book) else { continue };
            if let Some(rival) = rival.as_mut() {
                // The engine takes the first colour in even-numbered games.
                rival.first = game % 2 == 1;
            }
            let (quiet, result) = self_play::<G>(&mut engine, start, games.nodes, rival.as_mut())?;
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

/// The networks' data line of a quiet position: `FEN;score;result`, score and result from the first player's
/// point of view.
pub fn network_line(q: &Quiet, result: f64) -> String {
    let first_score = if q.first_to_move { q.score } else { -q.score };
    format!("{};{first_score};{result}", q.fen)
}

/// The games of a network data command (`nnue-gen`) and where their lines go.
#[derive(clap::Args)]
pub struct NetworkGames {
    /// The file to write: `FEN;score;result`, the first player's (White's, Red's) point of view.
    #[arg(required_unless_present = "result")]
    out: Option<String>,
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
    #[command(flatten)]
    shard: tabula_cluster::shard::ShardArgs,
}

impl NetworkGames {
    /// Plays the games of `G`, against `opponent` if one is given, into the networks' data lines.
    pub fn run<G: DataGame>(&self, opponent: Option<&Opponent>) -> anyhow::Result<()> {
        let plan = (self.first, self.games, self.nodes, self.threads);
        gen_games::<G>(self.out.as_deref(), &self.shard, plan, opponent, network_line)
    }
}

/// The games of a data command, as a shard of a cluster job or into `out`: shard `K/N` plays its part of the
/// `count` games numbered from `first` on one thread.
pub fn gen_games<G: DataGame>(
    out: Option<&str>,
    shard: &tabula_cluster::shard::ShardArgs,
    (first, count, nodes, threads): (u64, u64, u64, usize),
    opponent: Option<&Opponent>,
    line: impl Fn(&Quiet, f64) -> String + Sync,
) -> anyhow::Result<()> {
    match (shard.target(), out) {
        (Some(target), _) => crate::shard::write_lines(&target, |out| {
            let games = Games { numbers: crate::shard::items(&target, first, count), nodes, threads: 1, opponent };
            gen_from::<G>(out, &games, &line)
        }),
        (None, Some(out)) => {
            let games = Games { numbers: first..first.saturating_add(count), nodes, threads, opponent };
            gen_from::<G>(out, &games, line)
        }
        (None, None) => anyhow::bail!("give the file to write, or --shard and --result"),
    }
}
