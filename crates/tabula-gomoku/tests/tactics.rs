//! Tactical positions (`tests/data/tactics.txt`): wins by continuous fours to find and threats to parry.
//!
//! Each line is `rule kind n moves`:
//!
//! - `win n`: the side to move has a VCF of `n` attacking moves and no shorter one; a move *solves* the
//!   position if it makes five, or makes a four after whose block the attacker still has a VCF.
//! - `defend n`: the side to move has no VCF, and `n` of its candidate moves leave the opponent a VCF; a
//!   move *solves* it if it leaves none. Some move does.
//!
//! Solutions are judged by the threat solver, whose wins [`verify_win`] checks independently. The positions
//! come from the generator below (random games whose moves are drawn among the evaluator's best six),
//! filtered to those a shallow search gets wrong or must work for.

mod common;

use common::random_game;
use std::time::Instant;
use tabula::game::{Evaluator, Game};
use tabula::search::{Limits, SearchOptions, Searcher};
use tabula_gomoku::engine::policy::{Policy, ThreatOptions};
use tabula_gomoku::engine::threats::ThreatCache;
use tabula_gomoku::engine::verify::verify_win;
use tabula_gomoku::{Board, Point, Rule, ThreatKind, ThreatSolver};

/// Depth and node budget of the VCF searches that judge a position.
const JUDGE_DEPTH: u32 = 20;
const JUDGE_NODES: u64 = 400_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Win,
    Defend,
}

struct Position {
    board: Board,
    kind: Kind,
    n: u32,
}

fn load() -> Vec<Position> {
    include_str!("data/tactics.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut words = l.splitn(4, ' ');
            let rule: Rule = words.next().unwrap().parse().unwrap();
            let kind = match words.next().unwrap() {
                "win" => Kind::Win,
                "defend" => Kind::Defend,
                k => panic!("unknown kind {k}"),
            };
            let n = words.next().unwrap().parse().unwrap();
            let board = Board::from_moves(15, 15, rule, words.next().unwrap()).unwrap();
            Position { board, kind, n }
        })
        .collect()
}

fn vcf(board: &Board, solver: &mut ThreatSolver) -> Option<Point> {
    solver.find(board, ThreatKind::Vcf, JUDGE_DEPTH, JUDGE_NODES)
}

/// The fewest attacking moves of a VCF for the side to move, each depth searched on a fresh table (a table
/// keeps wins found at any depth).
fn vcf_length(board: &Board) -> Option<u32> {
    (1..=JUDGE_DEPTH).find(|&d| ThreatSolver::new(4).find(board, ThreatKind::Vcf, d, JUDGE_NODES).is_some())
}

/// Whether `m` keeps the side to move's VCF: a five, or a four after whose block a VCF remains.
fn keeps_the_win(board: &Board, m: Point, solver: &mut ThreatSolver) -> bool {
    let mut b = board.clone();
    if b.play(m).is_err() {
        return false;
    }
    if b.winner().is_some() {
        return true;
    }
    let attacker = board.side_to_move();
    let (mine, theirs) = (b.five_points(attacker), b.five_points(attacker.opponent()));
    match (mine.as_slice(), theirs.is_empty()) {
        ([_, _, ..], true) => true,
        ([block], true) => b.play(*block).is_err() || vcf(&b, solver).is_some(),
        _ => false,
    }
}

/// Whether `m` leaves the opponent no VCF.
fn parries(board: &Board, m: Point, solver: &mut ThreatSolver) -> bool {
    let mut b = board.clone();
    if b.play(m).is_err() {
        return false;
    }
    b.winner().is_some() || vcf(&b, solver).is_none()
}

fn solves(p: &Position, m: Point, solver: &mut ThreatSolver) -> bool {
    match p.kind {
        Kind::Win => keeps_the_win(&p.board, m, solver),
        Kind::Defend => parries(&p.board, m, solver),
    }
}

/// The core searcher with the [`Policy`] of `options`, to `depth`: (move, nodes, decisive score).
fn search(board: &Board, options: ThreatOptions, depth: u32) -> (Point, u64, i32) {
    let cache = std::sync::Arc::new(ThreatCache::new(4));
    let policy = Policy::new(options, Some(cache));
    let mut searcher =
        Searcher::with_table_size(policy, 16).with_options(options.search_options(SearchOptions::default()));
    let r = searcher.search(board, Limits::depth(depth), |_| {});
    (r.best_move.unwrap(), r.nodes, r.score)
}

#[test]
fn positions_are_what_they_claim() {
    let positions = load();
    assert!(positions.len() >= 20);
    let mut solver = ThreatSolver::new(16);
    for p in &positions {
        let b = &p.board;
        assert!(b.winner().is_none(), "{b:?}");
        match p.kind {
            Kind::Win => {
                assert_eq!(vcf_length(b), Some(p.n), "{b:?}");
                verify_win(b, ThreatKind::Vcf, &mut ThreatSolver::new(4), p.n).unwrap_or_else(|e| panic!("{b:?}: {e}"));
            }
            Kind::Defend => assert!(vcf(b, &mut solver).is_none(), "{b:?}"),
        }
    }
}

#[test]
fn the_horizon_vcf_finds_every_win_at_depth_one() {
    let mut solver = ThreatSolver::new(16);
    for p in load().iter().filter(|p| p.kind == Kind::Win) {
        let horizon = ThreatOptions { horizon_vcf_nodes: 1_000, inner_vcf_nodes: 0, ..ThreatOptions::default() };
        let (m, _, score) = search(&p.board, horizon, 1);
        assert!(tabula::score::is_decisive(score) && score > 0, "{:?}: score {score}", p.board);
        assert!(solves(p, m, &mut solver), "{:?}: {}", p.board, p.board.format_point(m));
    }
}

#[test]
fn every_threat_has_a_parry_that_is_not_trivial() {
    // `ThreatOptions::trivial_last` ranks the points that make nothing for either side after all others, and
    // the search prunes them near the horizon: where the opponent threatens a VCF, that must leave a parry.
    let policy = Policy::new(ThreatOptions { trivial_last: true, ..ThreatOptions::default() }, None);
    let mut solver = ThreatSolver::new(16);
    let mut trivial = 0;
    for p in load().iter().filter(|p| p.kind == Kind::Defend) {
        let mut moves = Vec::new();
        p.board.legal_moves(&mut moves);
        let mut kept_parries = 0;
        for &m in &moves {
            let is_trivial = policy.move_order(&p.board, m) <= -tabula::game::PRIORITY;
            let parry = parries(&p.board, m, &mut solver);
            assert!(!solver.aborted(), "{:?}", p.board);
            trivial += is_trivial as usize;
            kept_parries += (!is_trivial && parry) as usize;
        }
        assert!(kept_parries > 0, "{:?}: only trivial points parry", p.board);
    }
    // The positions have trivial points to prune (328 of them; none parries).
    assert!(trivial > 100, "{trivial} trivial points");
}

/// Solved positions and nodes for each setting at each depth.
#[test]
#[ignore = "measurement: cargo test -p tabula-gomoku --release --test tactics -- --ignored --nocapture"]
fn solve_rates_and_nodes() {
    let positions = load();
    let mut solver = ThreatSolver::new(64);
    let option = |forced_replies, horizon_vcf_nodes, inner_vcf_nodes| ThreatOptions {
        forced_replies,
        horizon_vcf_nodes,
        inner_vcf_nodes,
        ..ThreatOptions::OFF
    };
    let settings = [
        ("plain", option(false, 0, 0)),
        ("forced replies", option(true, 0, 0)),
        ("forced + horizon VCF", option(true, 1_000, 0)),
        ("forced + inner VCF", option(true, 0, 1_000)),
        ("forced + horizon 200 + inner", option(true, 200, 1_000)),
        ("forced + horizon + inner VCF", option(true, 1_000, 1_000)),
        ("forced + inner VCF + parries", ThreatOptions::default()),
    ];
    for kind in [Kind::Win, Kind::Defend] {
        let set: Vec<&Position> = positions.iter().filter(|p| p.kind == kind).collect();
        println!("{kind:?}: {} positions", set.len());
        for (name, options) in settings {
            for depth in [2, 4, 6] {
                let (mut solved, mut nodes) = (0, 0);
                let start = Instant::now();
                for p in &set {
                    let (m, n, _) = search(&p.board, options, depth);
                    nodes += n;
                    solved += solves(p, m, &mut solver) as usize;
                }
                println!(
                    "  {name:<30} depth {depth}: solved {solved:>3}/{}  nodes {nodes:>10}  {:.2}s",
                    set.len(),
                    start.elapsed().as_secs_f64()
                );
            }
        }
    }
}

/// Prints candidate lines for `tests/data/tactics.txt`.
#[test]
#[ignore = "generator: cargo test -p tabula-gomoku --release --test tactics generate -- --ignored --nocapture"]
fn generate() {
    let mut solver = ThreatSolver::new(64);
    let (mut wins, mut defends) = (0, 0);
    for seed in 0..100_000u64 {
        let rule = Rule::ALL[(seed % 3) as usize];
        let b = random_game(rule, seed, 10 + (seed % 23) as usize);
        let me = b.side_to_move();
        if b.winner().is_some() || !b.five_points(me).is_empty() || !b.five_points(me.opponent()).is_empty() {
            continue;
        }
        let line = format!("{} {}", rule.name(), b.format_moves(b.moves()));
        if vcf(&b, &mut solver).is_some() {
            let n = vcf_length(&b).unwrap_or(0);
            if n >= 4 && wins < 40 && verify_win(&b, ThreatKind::Vcf, &mut solver, n).is_ok() {
                wins += 1;
                let (rule, moves) = line.split_once(' ').unwrap();
                println!("{rule} win {n} {moves}");
            }
            continue;
        }
        if solver.aborted() || defends >= 40 {
            continue;
        }
        let mut moves = Vec::new();
        b.legal_moves(&mut moves);
        let mut losing = 0;
        let mut any_parry = false;
        for &m in &moves {
            if parries(&b, m, &mut solver) && !solver.aborted() {
                any_parry = true;
            } else {
                losing += 1;
            }
        }
        if any_parry && losing * 2 >= moves.len() {
            defends += 1;
            let (rule, moves) = line.split_once(' ').unwrap();
            println!("{rule} defend {losing} {moves}");
        }
    }
}
