//! Othello (Reversi) on Tabula's core: the game of the guide (`tabula::guide`), from the six required items to
//! the hooks that pay for it, with an exact endgame solver that finds the disc margin.
//!
//! ```sh
//! cargo run --release -p tabula --example othello                # solve a random position with 14 empties
//! cargo run --release -p tabula --example othello -- solve 16 7  # 16 empties, random seed 7
//! cargo run --release -p tabula --example othello -- measure 14 20  # what each piece buys, on 20 positions
//! ```

use std::fmt;
use std::time::{Duration, Instant};
use tabula::game::{Evaluator, Game, Hooks, Outcome, Remaining};
use tabula::score::{describe, Distance, Score, Wording};
use tabula::search::{alphabeta, SearchOptions, Searcher};
use tabula::zobrist::{Key, SplitMix64, ZobristKeys};

/// A square `0..64` (`a1` is 0, `h1` 7, `a8` 56), or [`PASS`].
pub type Move = u8;
/// The move of a side that has no other: it passes the turn.
pub const PASS: Move = 64;

/// One key per (square, colour), black first, and one for white to move.
const KEYS: ZobristKeys<Key, 129> = ZobristKeys::<Key, 129>::generate(0x0007_E110);
const WHITE_TO_MOVE: usize = 128;

const NOT_FILE_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_FILE_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The discs of `discs` moved one step in direction `d` (of eight), those that would leave the board dropped.
#[inline(always)]
fn shift(discs: u64, d: usize) -> u64 {
    match d {
        0 => (discs << 1) & NOT_FILE_A,
        1 => (discs >> 1) & NOT_FILE_H,
        2 => discs << 8,
        3 => discs >> 8,
        4 => (discs << 9) & NOT_FILE_A,
        5 => (discs << 7) & NOT_FILE_H,
        6 => (discs >> 7) & NOT_FILE_A,
        _ => (discs >> 9) & NOT_FILE_H,
    }
}

/// The squares where the owner of `me` may play: each flanks a line of `opp`'s discs.
fn legal(me: u64, opp: u64) -> u64 {
    let empty = !(me | opp);
    let mut moves = 0;
    for d in 0..8 {
        let mut line = shift(me, d) & opp;
        for _ in 0..5 {
            line |= shift(line, d) & opp;
        }
        moves |= shift(line, d) & empty;
    }
    moves
}

/// The discs of `opp` that a disc of `me` on `square` turns over.
fn flips(me: u64, opp: u64, square: Move) -> u64 {
    let mut flipped = 0;
    for d in 0..8 {
        let mut line = 0;
        let mut x = shift(1 << square, d);
        while x & opp != 0 {
            line |= x;
            x = shift(x, d);
        }
        if x & me != 0 {
            flipped |= line;
        }
    }
    flipped
}

/// An Othello position. Undo information (the discs each move turned over) lives on a stack of its own:
/// [`Game::undo`] receives only the move.
#[derive(Clone, Debug)]
pub struct Othello {
    /// Discs of the side to move and of the other side.
    me: u64,
    opp: u64,
    black_to_move: bool,
    key: Key,
    /// The discs each move turned over, last move last (0 for a pass).
    turned: Vec<u64>,
}

impl Default for Othello {
    fn default() -> Self {
        Self::new()
    }
}

impl Othello {
    /// The start: d5 and e4 black, d4 and e5 white, black to move.
    pub fn new() -> Othello {
        let (black, white) = (1 << 35 | 1 << 28, 1 << 27 | 1 << 36);
        let mut game = Othello { me: black, opp: white, black_to_move: true, key: Key::ZERO, turned: Vec::new() };
        game.key = game.key_from_scratch();
        game
    }

    /// The key computed from all the discs, for tests of the incremental one.
    pub fn key_from_scratch(&self) -> Key {
        let (black, white) = self.black_white();
        let mut key = if self.black_to_move { Key::ZERO } else { KEYS[WHITE_TO_MOVE] };
        for (colour, discs) in [black, white].into_iter().enumerate() {
            for sq in 0..64 {
                if discs >> sq & 1 != 0 {
                    key ^= KEYS[2 * sq + colour];
                }
            }
        }
        key
    }

    fn black_white(&self) -> (u64, u64) {
        if self.black_to_move {
            (self.me, self.opp)
        } else {
            (self.opp, self.me)
        }
    }

    /// Empty squares.
    pub fn empties(&self) -> u32 {
        64 - (self.me | self.opp).count_ones()
    }

    /// The position after the moves of `text` (`f5 d6 c3 pass ...`) from the start.
    ///
    /// # Errors
    ///
    /// The first word that is not a legal move here, with its number.
    pub fn from_moves(text: &str) -> Result<Othello, String> {
        let mut game = Othello::new();
        let mut moves = Vec::new();
        for (i, word) in text.split_whitespace().enumerate() {
            moves.clear();
            game.legal_moves(&mut moves);
            let mv = parse_move(word).filter(|m| moves.contains(m));
            let mv = mv.ok_or_else(|| format!("move {}: `{word}` is not a legal move here", i + 1))?;
            game.play(mv);
        }
        Ok(game)
    }

    /// A position reached by random legal moves from the start, with `empties` empty squares left (or fewer,
    /// if the game ended first), and the game not over unless it ended.
    pub fn random(empties: u32, rng: &mut SplitMix64) -> Othello {
        let mut game = Othello::new();
        let mut moves = Vec::new();
        while game.empties() > empties && game.outcome().is_none() {
            moves.clear();
            game.legal_moves(&mut moves);
            game.play(moves[(rng.next() % moves.len() as u64) as usize]);
        }
        game
    }
}

/// `d3` → square; `pass` → [`PASS`].
pub fn parse_move(text: &str) -> Option<Move> {
    if text.eq_ignore_ascii_case("pass") {
        return Some(PASS);
    }
    let b = text.as_bytes();
    match b {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some((r - b'1') * 8 + (f - b'a')),
        _ => None,
    }
}

/// A square as `d3`, or `pass`.
pub fn format_move(mv: Move) -> String {
    if mv == PASS {
        "pass".into()
    } else {
        format!("{}{}", (b'a' + mv % 8) as char, mv / 8 + 1)
    }
}

/// The keys a disc placed on `mv` changes, by black if `black` (else by white), turning the discs `turned`: its own
/// key, and each turned disc's from the other colour to the mover's. Playing the move XORs them in; taking it back
/// XORs them out.
fn move_keys(mv: Move, turned: u64, black: bool) -> Key {
    let (mine, theirs) = if black { (0, 1) } else { (1, 0) };
    let mut key = KEYS[2 * mv as usize + mine];
    let mut t = turned;
    while t != 0 {
        let sq = t.trailing_zeros() as usize;
        key ^= KEYS[2 * sq + mine] ^ KEYS[2 * sq + theirs];
        t &= t - 1;
    }
    key
}

impl Game for Othello {
    type Move = Move;
    const MOVE_CODES: usize = 65;

    /// A side with no square to play passes; a game neither side can move in is over and has no moves.
    fn legal_moves(&self, moves: &mut Vec<Move>) {
        let mut squares = legal(self.me, self.opp);
        if squares == 0 {
            if legal(self.opp, self.me) != 0 {
                moves.push(PASS);
            }
            return;
        }
        while squares != 0 {
            moves.push(squares.trailing_zeros() as Move);
            squares &= squares - 1;
        }
    }

    fn play(&mut self, mv: Move) {
        let mut turned = 0;
        if mv != PASS {
            turned = flips(self.me, self.opp, mv);
            self.me |= turned | 1 << mv;
            self.opp &= !turned;
            self.key ^= move_keys(mv, turned, self.black_to_move);
        }
        self.turned.push(turned);
        std::mem::swap(&mut self.me, &mut self.opp);
        self.black_to_move = !self.black_to_move;
        self.key ^= KEYS[WHITE_TO_MOVE];
    }

    fn undo(&mut self, mv: Move) {
        let turned = self.turned.pop().expect("a move to take back");
        std::mem::swap(&mut self.me, &mut self.opp);
        self.black_to_move = !self.black_to_move;
        self.key ^= KEYS[WHITE_TO_MOVE];
        if mv != PASS {
            self.me &= !(turned | 1 << mv);
            self.opp |= turned;
            self.key ^= move_keys(mv, turned, self.black_to_move);
        }
    }

    /// Over when neither side can move: the margin is the side to move's discs less the other side's.
    fn outcome(&self) -> Option<Outcome> {
        if legal(self.me, self.opp) != 0 || legal(self.opp, self.me) != 0 {
            return None;
        }
        Some(Outcome::Margin(self.me.count_ones() as i32 - self.opp.count_ones() as i32))
    }

    fn key(&self) -> Key {
        self.key
    }

    fn move_code(mv: Move) -> u16 {
        mv as u16
    }

    const HOOKS: Hooks<Othello> = Hooks { remaining: Some(Othello::remaining), ..Hooks::NONE };
}

impl Othello {
    /// Every ply fills a square or passes, and two passes in a row end the game: at most two plies per empty
    /// square, and one more. The margin is at most the 64 squares.
    pub fn remaining(&self) -> Option<Remaining> {
        Some(Remaining { plies: 2 * self.empties() + 1, margin: 64 })
    }
}

/// Square weights: corners good, the squares next to them bad while the corner is empty.
const WEIGHTS: [i32; 64] = {
    let row = [
        [20, -3, 2, 2, 2, 2, -3, 20],
        [-3, -7, -1, -1, -1, -1, -7, -3],
        [2, -1, 1, 0, 0, 1, -1, 2],
        [2, -1, 0, 1, 1, 0, -1, 2],
    ];
    let mut w = [0; 64];
    let mut i = 0;
    while i < 64 {
        let (r, c) = (i / 8, i % 8);
        w[i] = row[if r < 4 { r } else { 7 - r }][c];
        i += 1;
    }
    w
};

/// Judgement in discs: square weights and mobility, and, for move ordering, the corners first and the moves
/// that leave the opponent fewest replies ("fastest first", the classic endgame ordering).
#[derive(Clone, Copy, Debug, Default)]
pub struct SquareWeights {
    /// Leave move ordering to the game's order (to measure what the hints buy).
    pub no_hints: bool,
}

impl Evaluator<Othello> for SquareWeights {
    fn evaluate(&self, game: &Othello) -> Score {
        let weigh = |discs: u64| -> i32 {
            let mut sum = 0;
            let mut d = discs;
            while d != 0 {
                sum += WEIGHTS[d.trailing_zeros() as usize];
                d &= d - 1;
            }
            sum
        };
        let mobility = legal(game.me, game.opp).count_ones() as i32 - legal(game.opp, game.me).count_ones() as i32;
        weigh(game.me) - weigh(game.opp) + 2 * mobility
    }

    fn move_order(&self, game: &Othello, mv: Move) -> i32 {
        if self.no_hints || mv == PASS {
            return 0;
        }
        let turned = flips(game.me, game.opp, mv);
        let me = game.me | turned | 1 << mv;
        let opp = game.opp & !turned;
        16 * WEIGHTS[mv as usize] - 64 * legal(opp, me).count_ones() as i32
    }
}

/// How Othello's scores read: margins in discs.
pub const WORDING: Wording = Wording { distance: Distance::Moves, unit: "", margin_unit: "discs" };

impl fmt::Display for Othello {
    /// Rows from 8 down, `X` black, `O` white, `.` empty, `*` a legal move of the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (black, white) = self.black_white();
        let moves = legal(self.me, self.opp);
        for r in (0..8).rev() {
            write!(f, "{} ", r + 1)?;
            for c in 0..8 {
                let bit = 1u64 << (r * 8 + c);
                let ch = if black & bit != 0 {
                    'X'
                } else if white & bit != 0 {
                    'O'
                } else if moves & bit != 0 {
                    '*'
                } else {
                    '.'
                };
                write!(f, "{ch} ")?;
            }
            writeln!(f)?;
        }
        write!(f, "  a b c d e f g h   {} to move", if self.black_to_move { "X" } else { "O" })
    }
}

/// Solves `count` random positions with `empties` empty squares with each setting and prints nodes and time.
fn measure(empties: u32, count: usize) {
    let mut rng = SplitMix64::new(2026);
    let positions: Vec<Othello> =
        (0..count).map(|_| Othello::random(empties, &mut rng)).filter(|g| g.outcome().is_none()).collect();
    println!("{} positions with {empties} empty squares, one thread, a 16 MiB table:", positions.len());
    let settings: [(&str, SquareWeights, SearchOptions); 3] = [
        ("required items only, no hints", SquareWeights { no_hints: true }, SearchOptions::solver()),
        ("+ move-order hints", SquareWeights::default(), SearchOptions::solver()),
        ("+ hints, table off", SquareWeights::default(), SearchOptions::solver().with_table(false)),
    ];
    let mut scores = Vec::new();
    for (name, evaluator, options) in settings {
        let (mut nodes, mut time) = (0, Duration::ZERO);
        let mut these = Vec::new();
        for game in &positions {
            let mut searcher = Searcher::with_table_size(evaluator, 16).with_options(options.clone());
            let start = Instant::now();
            let solution = searcher.solve_score(game);
            time += start.elapsed();
            nodes += solution.nodes;
            these.push(solution.score);
        }
        println!("  {name:<32} {nodes:>12} nodes {:>9.3} s", time.as_secs_f64());
        scores.push(these);
    }
    assert!(scores.windows(2).all(|w| w[0] == w[1]), "every setting finds the same scores");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    if args.first().map(String::as_str) == Some("measure") {
        measure(number(1, 14) as u32, number(2, 20) as usize);
        return;
    }
    let empties = number(1, 14) as u32;
    let game = Othello::random(empties, &mut SplitMix64::new(number(2, 1)));
    println!("{game}\n");
    let mut searcher = Searcher::with_table_size(SquareWeights::default(), 64).with_options(SearchOptions::solver());
    let start = Instant::now();
    let solution = searcher.solve(&game);
    let pv: Vec<String> = solution.pv.iter().map(|&m| format_move(m)).collect();
    println!("score      {}", describe(solution.score, true, &WORDING));
    println!("best move  {}", solution.best_move.map_or("-".into(), format_move));
    println!("line       {}", pv.join(" "));
    println!("nodes      {} in {:.3} s", solution.nodes, start.elapsed().as_secs_f64());
    if empties <= 10 {
        let check = alphabeta(&mut game.clone(), &SquareWeights::default(), 2 * empties + 1);
        println!("alpha-beta {} ({} nodes)", describe(check.score, true, &WORDING), check.nodes);
    }
}
