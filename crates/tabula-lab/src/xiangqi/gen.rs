//! `nnue-gen`: the network's training data from self-play games of the engine, or from games against
//! Fairy-Stockfish:
//!
//! ```text
//! xiangqi nnue-gen OUT [--games N] [--nodes N] [--threads N] [--first N] [--fairy-stockfish PATH] [--peer-go GO]
//! ```
//!
//! `--games` (1,000) games at `--nodes` (5,000) a move, numbered from `--first` (0 by default; each number
//! seeds its own random start, so runs with disjoint ranges add new games), on `--threads` (1). A start is 4 to
//! 8 random plies from the initial position, drawn among the moves that capture nothing, so that it stays near
//! balance; the sixty balanced openings of the matches (`tabula-xiangqi`'s `tests/data/openings.txt`) are never
//! used, so that a match from them measures on openings the data never saw. A game ends by the rules (the side
//! without a legal move loses; a third repetition is ruled by the Asian rules; 120 plies without a capture
//! draw), and as [`selfplay`](crate::selfplay) adjudicates. Each line of `OUT` is `FEN;score;result` for a
//! quiet position (not in check, the engine's move no capture), the search's score in centipawns and the
//! result (1, 0.5, 0), both from Red's point of view. With `--fairy-stockfish` the engine plays Fairy-Stockfish
//! instead of itself (Red in the even-numbered games, Fairy-Stockfish searching `go {peer-go}`), and the lines
//! are the quiet positions where Fairy-Stockfish is to move, scored by its own search. With `--shard K/N
//! --result FILE` it plays shard K's part of the games, on one thread, into a cluster job's result file.

use super::game::Xiangqi;
use crate::selfplay::{DataGame, MoveOf, NetworkGames, Opponent};
use tabula::rng::Rng;
use tabula_xiangqi::engine::EnginePosition;
use tabula_xiangqi::repetition::adjudicate;
use tabula_xiangqi::{Color, Move, Position};

/// The games `nnue-gen` plays, the opponent if any, and where their lines go.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    games: NetworkGames,
    /// Play against this Fairy-Stockfish instead of self-play (the engine Red in even-numbered games), and
    /// write the positions where it is to move, scored by its own search of `--peer-go`.
    #[arg(long)]
    fairy_stockfish: Option<String>,
    /// Fairy-Stockfish's search of each move, as a UCI `go` command's arguments.
    #[arg(long, default_value = "nodes 5000")]
    peer_go: String,
}

/// Runs `nnue-gen`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args { games, fairy_stockfish, peer_go } = args;
    games.run::<Xiangqi>(fairy_stockfish.map(|path| Opponent { path, go: peer_go }).as_ref())
}

/// A number in `0..n` from `rng`.
fn below(rng: &mut Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// Xiangqi as the self-play games play it: the engine searches the position with the network's accumulators
/// (its default evaluation is the hand-written one until a network is embedded); Fairy-Stockfish, set to xiangqi, is the opponent and writes
/// ranks 1 to 10.
impl DataGame for Xiangqi {
    type Position = Position;
    type Searched = EnginePosition;

    fn searched(pos: &Position) -> EnginePosition {
        EnginePosition::new(pos.clone())
    }

    fn book() -> Vec<Position> {
        vec![Position::startpos()]
    }

    fn random_start(rng: &mut Rng, book: &[Position]) -> Option<Position> {
        let mut pos = book[below(rng, book.len())].clone();
        for _ in 0..4 + below(rng, 5) {
            let moves = pos.legal_moves();
            let quiet: Vec<Move> = moves.as_slice().iter().copied().filter(|&mv| !pos.is_capture(mv)).collect();
            let from = if quiet.is_empty() { moves.as_slice() } else { &quiet[..] };
            if from.is_empty() {
                return None;
            }
            pos.play_unchecked(from[below(rng, from.len())]);
        }
        pos.has_legal_move().then(|| Position::from_fen(&pos.to_fen()).expect("a legal position"))
    }

    fn ended(pos: &Position) -> Option<f64> {
        let verdict = adjudicate(pos, 3)?;
        Some(match verdict.winner {
            None => 0.5,
            Some(Color::Red) => 1.0,
            Some(Color::Black) => 0.0,
        })
    }

    fn quiet(pos: &Position, mv: MoveOf<Self>) -> bool {
        !pos.is_check() && !pos.is_capture(mv)
    }

    fn play(pos: &mut Position, mv: Move) {
        pos.play_unchecked(mv);
    }

    fn first_to_move(pos: &Position) -> bool {
        pos.turn() == Color::Red
    }

    fn fen(pos: &Position) -> String {
        pos.to_fen()
    }

    fn plies(pos: &Position) -> usize {
        pos.history_len()
    }

    fn peer_options() -> &'static [&'static str] {
        &["UCI_Variant value xiangqi"]
    }

    fn peer_move(mv: Move) -> String {
        mv.to_fairy()
    }

    fn parse_peer_move(pos: &Position, text: &str) -> Option<Move> {
        pos.parse_fairy(text).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::{gen_from, network_line, Games};

    #[test]
    fn random_starts_are_legal_varied_and_repeatable() {
        let book = Xiangqi::book();
        let start = |game: u64| Xiangqi::random_start(&mut Rng::new(0x7ab1_0000 + game), &book).unwrap();
        let starts: Vec<Position> = (0..20).map(start).collect();
        for (game, pos) in starts.iter().enumerate() {
            assert!(pos.has_legal_move());
            // Nothing was captured: the starts keep every piece.
            assert_eq!(pos.board().occupied().count(), 32, "{}", pos.to_fen());
            assert_eq!(start(game as u64).to_fen(), pos.to_fen());
        }
        let distinct: std::collections::HashSet<String> = starts.iter().map(Position::to_fen).collect();
        assert!(distinct.len() >= 18, "{}", distinct.len());
    }

    #[test]
    fn self_play_writes_quiet_positions_with_scores_and_results() {
        let out = std::env::temp_dir().join(format!("tabula-lab-xiangqi-gen-{}.txt", std::process::id()));
        let games = Games { numbers: 0..2, nodes: 300, threads: 1, opponent: None };
        gen_from::<Xiangqi>(out.to_str().unwrap(), &games, network_line).unwrap();
        let text = std::fs::read_to_string(&out).unwrap();
        std::fs::remove_file(&out).unwrap();
        assert!(text.lines().count() > 10, "{text}");
        for line in text.lines() {
            let fields: Vec<&str> = line.split(';').collect();
            assert_eq!(fields.len(), 3, "{line}");
            let pos = Position::from_fen(fields[0]).unwrap();
            assert!(!pos.is_check(), "{line}");
            let score: i32 = fields[1].parse().unwrap();
            assert!(score.abs() < 30_000, "{line}");
            assert!(["1", "0.5", "0"].contains(&fields[2]), "{line}");
        }
    }
}
