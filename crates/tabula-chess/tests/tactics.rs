//! Tactics from "Win at Chess" (`tests/data/wac.epd`): the engine must find the key move of most positions
//! within a small node budget. Each position's best move (`bm`, in SAN) is Reinfeld's, kept only where
//! Stockfish agrees; the test guards the search and evaluation against changes that blind them to tactics.

use tabula::search::Limits;
use tabula_chess::engine::{Engine, EnginePosition};
use tabula_chess::fen::Epd;
use tabula_chess::Position;

/// Nodes per position.
const NODES: u64 = 200_000;
/// The share of positions that must be solved, in percent. The engine solves 69 of the 80 (86 %) at this
/// budget: 77 with counter moves and losing-move pruning, then 72 with singular extensions, which spend
/// nodes at a fixed budget and gain at a clock, 71 with continuation history, 74 with losing quiet moves
/// put last and with the null move's reduction by margin, 73 with late moves reduced more where not
/// improving, 74 with the third network and with the fourth, 73 with the fifth, 72 with the correction
/// history and the table's score in pruning, 71 with the histories learning from quiet cutoffs only, 72
/// with the sixth network and with the seventh (output buckets), 68 with ProbCut (four sacrifices whose
/// captures it judges four plies short; it gains at a clock), 69 with the eighth network. A change that
/// costs more is a regression.
const REQUIRED_PERCENT: usize = 85;

#[test]
fn win_at_chess() {
    let text = include_str!("data/wac.epd");
    let mut engine = Engine::new(16);
    let (mut solved, mut total, mut missed) = (0, 0, Vec::new());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let epd = Epd::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        let pos = Position::from_setup(&epd.setup).unwrap_or_else(|e| panic!("{line}: {e}"));
        let id = epd.operation("id").unwrap_or("?").to_owned();
        let best: Vec<_> = epd
            .operation("bm")
            .expect("a bm operation")
            .split_whitespace()
            .map(|san| pos.parse_san(san).unwrap_or_else(|e| panic!("{id}: {san}: {e}")))
            .collect();
        engine.clear_hash();
        let result = engine.search(&EnginePosition::new(pos.clone()), Limits::nodes(NODES), |_| {});
        total += 1;
        if result.best_move.is_some_and(|mv| best.contains(&mv)) {
            solved += 1;
        } else {
            missed.push(id);
        }
    }
    eprintln!("win at chess: solved {solved} of {total} at {NODES} nodes; missed {missed:?}");
    assert!(total >= 50, "only {total} positions");
    assert!(solved * 100 >= total * REQUIRED_PERCENT, "solved {solved} of {total}; missed {missed:?}");
}
