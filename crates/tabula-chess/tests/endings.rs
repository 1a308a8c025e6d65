//! Won endings against a bare king must be won on the board: the engine plays both sides at a small node
//! budget a move (the defender searching as hard as the attacker), and the game must end in mate before the
//! fifty-move rule, with either evaluation. Mate itself is the rules' verdict (`Position::is_checkmate`),
//! and the starts are far from mate: the defending king in the centre, the attacking king on the far side.

use tabula::search::Limits;
use tabula_chess::engine::eval::{EngineEvaluation, EvalKind};
use tabula_chess::engine::{Engine, EnginePosition};
use tabula_chess::Position;

/// Nodes a move: about a fortieth of a second.
const NODES: u64 = 30_000;

/// Starts with white to move and black's king alone in the middle of the board.
const STARTS: [(&str, &str); 6] = [
    ("KQ vs K", "8/8/8/3k4/8/8/8/QK6 w - - 0 1"),
    ("KQ vs K, kings apart", "7K/8/8/8/3k4/8/8/1Q6 w - - 0 1"),
    ("KR vs K", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"),
    ("KR vs K, rook in the corner", "8/8/3k4/8/8/8/8/K6R w - - 0 1"),
    ("KBB vs K", "8/8/8/3k4/8/8/8/2B1KB2 w - - 0 1"),
    ("KRR vs K, from the other side", "8/8/4k3/8/8/8/8/R3K2R w - - 0 1"),
];

/// Plays `fen` out with the engine on both sides; the number of moves white needed to mate, or what went wrong.
fn play_out(engine: &mut Engine, fen: &str) -> Result<u32, String> {
    let mut pos = Position::from_fen(fen).map_err(|e| e.to_string())?;
    engine.clear_hash();
    for ply in 0..200u32 {
        if pos.is_checkmate() {
            return if ply % 2 == 1 { Ok(ply.div_ceil(2)) } else { Err("white was mated".into()) };
        }
        if pos.halfmove_clock() >= 100 {
            return Err(format!("fifty moves without mate, at {}", pos.to_fen()));
        }
        let result = engine.search(&EnginePosition::new(pos.clone()), Limits::nodes(NODES), |_| {});
        let Some(mv) = result.best_move else {
            return Err(format!("no move (stalemate?) at {}", pos.to_fen()));
        };
        pos.play(mv).map_err(|e| e.to_string())?;
    }
    Err("no end in 200 plies".into())
}

fn converts_with(kind: EvalKind) {
    let mut engine = Engine::new(16);
    engine.set_evaluation(EngineEvaluation::of_kind(kind).expect("chess embeds a network"));
    let mut failures = Vec::new();
    for (name, fen) in STARTS {
        match play_out(&mut engine, fen) {
            Ok(moves) => eprintln!("{}: {name}: mate in {moves} moves", kind.name_in::<Position>()),
            Err(why) => failures.push(format!("{name}: {why}")),
        }
    }
    assert!(failures.is_empty(), "{}: {failures:#?}", kind.name_in::<Position>());
}

#[test]
fn the_network_mates_a_bare_king() {
    converts_with(EvalKind::Nnue);
}

#[test]
fn the_tapered_evaluation_mates_a_bare_king() {
    converts_with(EvalKind::Classical);
}
