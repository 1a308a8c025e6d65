//! Chess's self-play games (`gen`, `wdl-gen`, `nnue-gen`; the games themselves are
//! [`selfplay`](crate::selfplay)'s) and the random starts `openings` judges.
//!
//! The varied starts are a few random plies from the start position or from `tests/data/openings.epd` of
//! `tabula-chess`. Besides the rules, a game ends at a threefold repetition (drawn) and on reaching an ending
//! against a bare king (won for the stronger side, drawn if it has knights alone), whose positions the network
//! leaves to the tapered evaluation. The opponent of `nnue-gen --stockfish` is Stockfish.

use super::game::Chess;
use crate::selfplay::{gen_games, DataGame, Quiet};
use tabula::game::{Game, Outcome};
use tabula::rng::Rng;
use tabula_chess::engine::eval::against_bare_king;
use tabula_chess::engine::EnginePosition;
use tabula_chess::{Color, Epd, Move, Position, Role};

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

/// Chess as the self-play games play it: the engine searches an [`EnginePosition`]; Stockfish is the opponent.
impl DataGame for Chess {
    type Position = Position;
    type Searched = EnginePosition;

    fn searched(pos: &Position) -> EnginePosition {
        EnginePosition::new(pos.clone())
    }

    fn book() -> Vec<Position> {
        openings()
    }

    fn random_start(rng: &mut Rng, book: &[Position]) -> Option<Position> {
        random_start(rng, book)
    }

    fn ended(pos: &Position) -> Option<f64> {
        if let Some(outcome) = pos.outcome() {
            let white_to_move = pos.turn() == Color::White;
            return Some(match outcome {
                Outcome::Draw => 0.5,
                Outcome::Loss if white_to_move => 0.0,
                _ => 1.0,
            });
        }
        if repeated_three_times(pos) || pos.history_len() > 400 {
            return Some(0.5);
        }
        // An ending against a bare king is the tapered evaluation's (the network's trainer leaves it out), and
        // its result is as good as known: won, unless the stronger side has knights alone, which cannot force
        // mate. (At a thousand nodes a game could spend its last hundred plies there.)
        if against_bare_king(pos) {
            let b = pos.board();
            let knights_only = (b.by_role(Role::Pawn) | b.by_role(Role::Bishop) | b.orthogonal_sliders()).is_empty();
            let won = if b.by_color(Color::Black).count() == 1 { 1.0 } else { 0.0 };
            return Some(if knights_only { 0.5 } else { won });
        }
        None
    }

    fn quiet(pos: &Position, mv: Move) -> bool {
        !pos.is_check() && !pos.is_capture(mv) && mv.promotion().is_none()
    }

    fn play(pos: &mut Position, mv: Move) {
        pos.play_unchecked(mv);
    }

    fn first_to_move(pos: &Position) -> bool {
        pos.turn() == Color::White
    }

    fn fen(pos: &Position) -> String {
        pos.to_fen()
    }

    fn opening_line(pos: &Position) -> String {
        pos.to_epd()
    }

    fn plies(pos: &Position) -> usize {
        pos.history_len()
    }

    fn phase(pos: &Position) -> i32 {
        tabula_chess::engine::eval::phase(pos)
    }

    fn peer_move(mv: Move) -> String {
        mv.to_uci()
    }

    fn parse_peer_move(pos: &Position, text: &str) -> Option<Move> {
        pos.parse_uci(text).ok()
    }
}

/// Plays the self-play games `games` asks for (numbered from 0) and writes a line to its file for each quiet
/// position, as `line` makes it from the position and the game's result for white.
pub fn gen(games: &SelfPlay, line: fn(&Quiet, f64) -> String) -> anyhow::Result<()> {
    let plan = (0, games.games, games.nodes, games.threads);
    gen_games::<Chess>(games.out.as_deref(), &games.shard, plan, None, line)
}
