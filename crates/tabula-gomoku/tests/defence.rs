//! Defence against the opponent's threats (`tests/data/vct-defence.txt`): positions from lost games where the
//! engine's move let the opponent win by a VCT. The engine must now play a move after which the threat solver,
//! searching far deeper than the engine does, proves no win for the opponent.

use tabula::search::Limits;
use tabula_gomoku::{Board, Engine, Point, Rule, ThreatKind, ThreatSolver};

/// Depth and node budget of the searches that judge a move: far beyond what the engine spends.
const JUDGE_VCT_DEPTH: u32 = 10;
const JUDGE_NODES: u64 = 1_000_000;

struct Position {
    board: Board,
    played: Point,
}

fn load() -> Vec<Position> {
    include_str!("data/vct-defence.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut words = l.splitn(3, ' ');
            let rule: Rule = words.next().unwrap().parse().unwrap();
            let played = words.next().unwrap();
            let board = Board::from_moves(15, 15, rule, words.next().unwrap()).unwrap();
            let played = board.parse_point(played).unwrap();
            Position { board, played }
        })
        .collect()
}

/// The opponent's forced win by threats after `mv`, as the judge finds it.
fn opponent_win_after(board: &Board, mv: Point) -> Option<String> {
    let mut after = board.clone();
    after.play(mv).unwrap();
    let mut solver = ThreatSolver::new(16);
    for (kind, depth) in [(ThreatKind::Vcf, 20), (ThreatKind::Vct, JUDGE_VCT_DEPTH)] {
        if let Some(line) = solver.solve(&after, kind, depth, JUDGE_NODES) {
            return Some(format!("{kind:?} {}", after.format_moves(&line)));
        }
    }
    None
}

/// The engine's move at a fixed depth (its threat searches then have fixed node budgets: deterministic).
fn engine_move(board: &Board) -> Point {
    Engine::new(16).think(board, &Limits::depth(4)).best.expect("a move")
}

fn check(indices: &[usize]) -> Vec<String> {
    let positions = load();
    let mut failures = Vec::new();
    for &i in indices {
        let p = &positions[i];
        let moves = p.board.format_moves(p.board.moves());
        assert!(opponent_win_after(&p.board, p.played).is_some(), "{moves}: the recorded move does not lose");
        let mv = engine_move(&p.board);
        if let Some(win) = opponent_win_after(&p.board, mv) {
            failures.push(format!("{i}: {moves}: {} lets the opponent win by {win}", p.board.format_point(mv)));
        }
    }
    failures
}

#[test]
fn the_engine_no_longer_lets_the_opponent_win_by_threats() {
    let failures = check(&[0, 3, 9, 14, 20]);
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Every position: how many the engine now defends.
#[test]
#[ignore = "about a minute in release; cargo test --release -p tabula-gomoku --test defence -- --ignored --nocapture"]
fn all_positions() {
    let count = load().len();
    let failures = check(&(0..count).collect::<Vec<_>>());
    println!("{} of {count} defended; still lost:", count - failures.len());
    for f in &failures {
        println!("  {f}");
    }
}
