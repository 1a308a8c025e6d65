//! Defence against the opponent's threats (`tests/data/vct-defence.txt`): positions from lost games where the
//! engine's move let the opponent win by a VCT. The engine must now play a move after which the threat solver,
//! searching far deeper than the engine does, proves no win for the opponent.

use std::sync::Arc;
use tabula::game::{Game, HookedGame};
use tabula::search::Limits;
use tabula_gomoku::engine::policy::{Policy, ThreatOptions};
use tabula_gomoku::engine::threats::ThreatCache;
use tabula_gomoku::{Board, Color, Engine, Point, Rule, ThreatKind, ThreatSolver};

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

/// The points within four steps of `p` along its four lines, on the board.
fn on_lines(board: &Board, p: Point) -> Vec<Point> {
    let mut out = Vec::new();
    for (dx, dy) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
        for k in (-4..=4).filter(|&k| k != 0) {
            let (x, y) = (i32::from(p.x) + k * dx, i32::from(p.y) + k * dy);
            if (0..board.width() as i32).contains(&x) && (0..board.height() as i32).contains(&y) {
                out.push(Point::new(x as u8, y as u8));
            }
        }
    }
    out
}

/// Whether `them` (not to move in `board`) has two points that make five, all of them on `t`'s lines: found by
/// playing each, after a move of the side to move's on a far empty corner, and asking the rules for a winner.
fn two_fives_through(board: &mut Board, t: Point, them: Color) -> bool {
    let lines = on_lines(board, t);
    let far = |board: &Board, c: Point| {
        [(0, 0), (14, 0), (0, 14), (14, 14)].into_iter().map(|(x, y)| Point::new(x, y)).find(|&d| {
            let (dx, dy) = (i32::from(d.x) - i32::from(c.x), i32::from(d.y) - i32::from(c.y));
            board.is_empty_point(d) && (dx.abs() > 4 || dy.abs() > 4) && !lines.contains(&d)
        })
    };
    let mut fives = 0;
    let empty: Vec<Point> = lines.iter().copied().filter(|&c| board.is_empty_point(c)).collect();
    for c in empty {
        let Some(d) = far(board, c) else { continue };
        board.play(d).unwrap();
        if board.play(c).is_ok() {
            fives += (board.winner() == Some(them)) as usize;
            board.take_back();
        }
        board.take_back();
        if fives >= 2 {
            return true;
        }
    }
    false
}

/// Where the opponent has an open three, the policy's threat replies leave out only moves that lose to it: after
/// any other move, the opponent has a move that makes two fives at once (checked by playing them out on the
/// rules, not with the pattern tables the replies come from).
#[test]
fn threat_replies_leave_out_only_moves_that_lose_to_an_open_four() {
    let policy = Policy::new(ThreatOptions::default(), Some(Arc::new(ThreatCache::new(1))));
    let (mut checked, mut left_out) = (0, 0);
    // Every position along the recorded games, until a dozen have a three to parry.
    let boards = load().into_iter().flat_map(|p| {
        let moves = p.board.moves().to_vec();
        (6..=moves.len()).map(move |n| {
            let mut board = Board::new(15, 15, p.board.rule()).unwrap();
            moves[..n].iter().for_each(|&m| board.play(m).unwrap());
            board
        })
    });
    for mut board in boards {
        if board.in_check() {
            continue;
        }
        let mut replies = Vec::new();
        let Some(n) = policy.threat_replies(&board, &mut replies).filter(|&n| n > 0) else { continue };
        assert_eq!(n, replies.len());
        let me = board.side_to_move();
        let mut moves = Vec::new();
        board.legal_moves(&mut moves);
        for m in moves.into_iter().filter(|m| !replies.contains(m)) {
            left_out += 1;
            board.play(m).unwrap();
            let mut targets = Vec::new();
            board.legal_moves(&mut targets);
            let lost = targets.into_iter().any(|t| {
                board.play(t).unwrap();
                let won = board.winner().is_some() || two_fives_through(&mut board, t, me.opponent());
                board.take_back();
                won
            });
            board.take_back();
            let moves = board.format_moves(board.moves());
            assert!(lost, "{moves}: {} was left out but does not lose to an open four", board.format_point(m));
        }
        checked += 1;
        if checked == 12 {
            break;
        }
    }
    assert_eq!(checked, 12, "positions with an open three to parry");
    assert!(left_out > 12 * 20, "only {left_out} moves left out in 12 positions");
}

/// Where the opponent has no open three but a four-three point, the policy's threat replies (with
/// `parry_four_threes`) leave out moves that lose: after them the opponent wins by continuous
/// fours, found by the threat solver and replayed by the independent check of `verify`; all but a few. (The
/// restriction is not a proof: a move that prepares a four of the defender's can survive.)
#[test]
fn four_three_replies_leave_out_moves_that_lose_to_fours() {
    let cache = Some(Arc::new(ThreatCache::new(1)));
    let options = ThreatOptions { parry_four_threes: true, ..ThreatOptions::default() };
    let policy = Policy::new(options, cache.clone());
    let without = Policy::new(ThreatOptions::default(), cache);
    let mut solver = ThreatSolver::new(16);
    let (mut checked, mut left_out, mut survivors) = (0, 0, Vec::new());
    // The self-play positions of the evaluation's held-out data (freestyle).
    let boards = include_str!("data/rapfi-values.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| Board::from_moves(15, 15, Rule::Freestyle, l.split(';').next().unwrap()).unwrap());
    for mut board in boards {
        if board.winner().is_some() || board.in_check() || without.threat_replies(&board, &mut Vec::new()).is_some() {
            continue;
        }
        let mut replies = Vec::new();
        let Some(n) = policy.threat_replies(&board, &mut replies) else { continue };
        assert_eq!(n, replies.len());
        let mut moves = Vec::new();
        board.legal_moves(&mut moves);
        for m in moves.into_iter().filter(|m| !replies.contains(m)) {
            left_out += 1;
            board.play(m).unwrap();
            let text = board.format_moves(board.moves());
            if solver.find(&board, ThreatKind::Vcf, 8, JUDGE_NODES).is_some() {
                tabula_gomoku::engine::verify::verify_win(&board, ThreatKind::Vcf, &mut solver, 8)
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
            } else {
                survivors.push(text);
            }
            board.take_back();
        }
        checked += 1;
        if checked == 40 {
            break;
        }
    }
    assert_eq!(checked, 40, "positions with a four-three point to parry");
    assert!(left_out > 40 * 20, "only {left_out} moves left out in 40 positions");
    // (17 of 3,141 when this was written, in 7 positions: moves that prepare a four of the defender's.)
    assert!(survivors.len() * 100 <= left_out, "{} of {left_out} left out survive: {survivors:#?}", survivors.len());
}
