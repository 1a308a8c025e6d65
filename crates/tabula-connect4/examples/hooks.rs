//! What each group of search hooks buys Connect Four's exact solver, measured: the same positions solved with
//! every hook, then with one group hidden at a time (a wrapper that forwards the required items and names every
//! hook of the board's `Game::HOOKS` but that group), and without the table.
//!
//! `cargo run --release -p tabula-connect4 --example hooks -- [positions file] [count] [table MiB]`
//! (the first 20 positions of `tests/data/mid.txt` and a 2 MiB table by default; without the tactics a solve
//! takes hundreds of times longer, so keep the count small)

use std::time::{Duration, Instant};
use tabula::game::{Evaluator, Game, HookedGame, Hooks, Outcome, Symmetries};
use tabula::search::{SearchOptions, Searcher};
use tabula::{Key, Score};
use tabula_connect4::{Column, Standard, Threats};

/// Which hook group the wrapper hides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hidden {
    Nothing,
    Tactics,
    Symmetry,
    ChildKeys,
}

/// The board with one group of hooks hidden.
#[derive(Clone)]
struct Hide<const H: u8>(Standard);

impl<const H: u8> Hide<H> {
    const HIDDEN: Hidden = [Hidden::Nothing, Hidden::Tactics, Hidden::Symmetry, Hidden::ChildKeys][H as usize];
}

impl<const H: u8> Game for Hide<H> {
    type Move = Column;
    const MOVE_CODES: usize = 7;

    fn legal_moves(&self, moves: &mut Vec<Column>) {
        self.0.legal_moves(moves)
    }
    fn play(&mut self, mv: Column) {
        self.0.play(mv)
    }
    fn undo(&mut self, mv: Column) {
        self.0.undo(mv)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn key(&self) -> Key {
        self.0.key()
    }
    fn move_code(mv: Column) -> u16 {
        mv as u16
    }

    /// The board's hooks, forwarded, less the hidden group.
    const HOOKS: Hooks<Self> = {
        let mut hooks = Hooks {
            winning_move: Some(|g: &Self| g.0.winning_move()),
            non_losing_moves: Some(|g: &Self, moves| g.0.non_losing_moves(moves)),
            possible_winners: Some(|g: &Self| g.0.possible_winners()),
            symmetry: Some(Symmetries {
                table_key: |g: &Self| g.0.table_key(),
                canonical_move_code: Standard::canonical_move_code,
                actual_move_code: Standard::actual_move_code,
            }),
            child_table_key: Some(|g: &Self, mv| g.0.child_table_key(mv)),
            remaining: Some(|g: &Self| g.0.remaining()),
            ..Hooks::NONE
        };
        match Self::HIDDEN {
            Hidden::Nothing => {}
            Hidden::Tactics => {
                hooks.winning_move = None;
                hooks.non_losing_moves = None;
                hooks.possible_winners = None;
            }
            Hidden::Symmetry => {
                hooks.symmetry = None;
                // Without symmetry the child's table key is its plain key.
                hooks.child_table_key = Some(|g: &Self, mv| {
                    let mut child = g.0.clone();
                    child.play(mv);
                    Some(child.key())
                });
            }
            Hidden::ChildKeys => hooks.child_table_key = None,
        }
        hooks
    };
}

impl<const H: u8> Evaluator<Hide<H>> for Threats {
    fn evaluate(&self, game: &Hide<H>) -> Score {
        Evaluator::<Standard>::evaluate(self, &game.0)
    }
    fn move_order(&self, game: &Hide<H>, mv: Column) -> i32 {
        Evaluator::<Standard>::move_order(self, &game.0, mv)
    }
}

/// Solves every board with a fresh table of `mib` and returns the nodes and the time.
fn solve_all<const H: u8>(boards: &[Standard], mib: usize, options: SearchOptions) -> (u64, Duration) {
    let mut searcher = Searcher::with_table_size(Threats, mib).with_options(options);
    let start = Instant::now();
    let nodes = boards.iter().map(|b| searcher.solve_score(&Hide::<H>(b.clone())).nodes).sum();
    (nodes, start.elapsed())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().map_or("crates/tabula-connect4/tests/data/mid.txt", String::as_str);
    let count: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let mib: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let boards: Vec<Standard> = text.lines().take(count).filter_map(|l| l.split(' ').next()?.parse().ok()).collect();
    println!("{} positions from {path}, {mib} MiB table, one thread", boards.len());
    let solver = SearchOptions::solver();
    let rows: [(&str, (u64, Duration)); 5] = [
        ("every hook", solve_all::<0>(&boards, mib, solver.clone())),
        ("without tactics", solve_all::<1>(&boards, mib, solver.clone())),
        ("without symmetry", solve_all::<2>(&boards, mib, solver.clone())),
        ("without child keys (no prefetch)", solve_all::<3>(&boards, mib, solver.clone())),
        ("every hook, no table", solve_all::<0>(&boards, mib, solver.with_table(false))),
    ];
    let (base_nodes, base_time) = rows[0].1;
    for (name, (nodes, time)) in rows {
        println!(
            "{name:<34} {nodes:>13} nodes ({:>6.2}×) {:>9.3} s ({:>6.2}×)",
            nodes as f64 / base_nodes as f64,
            time.as_secs_f64(),
            time.as_secs_f64() / base_time.as_secs_f64()
        );
    }
}
