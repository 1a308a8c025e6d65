//! Tabula's core side by side with the [`minimax`] crate (minimax-rs), the search a Rust developer would
//! otherwise pick.
//!
//! [`Four`] is Connect Four written the way a user of either crate would write it for themselves: two `u64`
//! bitboards, moves in centre-first order, a 64-bit Zobrist key kept by XOR, and a small heuristic
//! ([`heuristic`]). It knows nothing of either crate; [`tabula_side`] and [`minimax_side`] wrap it for each
//! crate's traits in about twenty lines each (Tabula's wrapper gives the six required items of its `Game` and
//! nothing more: no hooks, not even the number of move codes), and [`POSITIONS`] are the mid-game positions
//! both search, drawn at random from a seed; [`TUNED_POSITIONS`], the ones Tabula's presets were chosen on, are
//! held out as a check. `cargo run --release -p tabula-compare --example versus` prints both crates' times and
//! node counts side by side on both sets; `tests/agree.rs` checks that they find the same root values.
//!
//! (It is deliberately not `tabula-connect4`'s board: that one plugs Connect Four's tactics and mirror
//! symmetry into Tabula's hooks, which minimax-rs has no way to use.)
//!
//! # Examples
//!
//! ```
//! use tabula_compare::{minimax_side, tabula_side, Four};
//!
//! let four: Four = "4453".parse().unwrap();
//! let ours = tabula_side::search(&four, 6, tabula_side::Config::Matched, 1);
//! let theirs = minimax_side::search(&four, 6, minimax_side::Config::Matched, 1);
//! assert!(tabula_compare::same_value(ours.value, theirs.value));
//! ```
#![deny(missing_docs)]

use std::fmt;
use std::str::FromStr;

pub mod minimax_side;
pub mod tabula_side;

/// Columns from the centre outwards.
pub const CENTRE_FIRST: [u8; 7] = [3, 2, 4, 1, 5, 0, 6];
const HEIGHT: u32 = 6;
/// Bits per column: six cells and a spare bit on top, so that shifts never wrap into the next column.
const STRIDE: u32 = HEIGHT + 1;
const BOTTOM: u64 = 0b0000001_0000001_0000001_0000001_0000001_0000001_0000001;
const BOARD: u64 = BOTTOM * 0b111111;

/// One random key per (cell bit, player), from SplitMix64 with a fixed seed.
const KEYS: [[u64; 2]; 49] = {
    let mut keys = [[0; 2]; 49];
    let mut state: u64 = 0x5EED;
    let mut i = 0;
    while i < 98 {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        keys[i / 2][i % 2] = z ^ (z >> 31);
        i += 1;
    }
    keys
};

/// A Connect Four position: each player's stones, the column heights and the key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Four {
    stones: [u64; 2],
    heights: [u8; 7],
    moves: u8,
    key: u64,
}

/// Whether `bits` holds four in a row in any direction.
fn has_four(bits: u64) -> bool {
    [1, STRIDE, STRIDE - 1, STRIDE + 1].iter().any(|&d| {
        let pairs = bits & (bits >> d);
        pairs & (pairs >> (2 * d)) != 0
    })
}

/// The empty cells (anywhere on the board) that would complete four for the owner of `bits`.
fn completing_cells(bits: u64, empty: u64) -> u64 {
    let mut cells = 0;
    for d in [1, STRIDE, STRIDE - 1, STRIDE + 1] {
        let two_up = (bits >> d) & (bits >> (2 * d));
        let two_down = (bits << d) & (bits << (2 * d));
        cells |= two_up & (bits >> (3 * d)); // the cell below three
        cells |= two_down & (bits << (3 * d)); // the cell above three
        cells |= two_up & (bits << d); // one below, two above
        cells |= two_down & (bits >> d); // two below, one above
    }
    cells & empty
}

impl Four {
    /// The player to move: 0 moved first.
    pub fn to_move(&self) -> usize {
        (self.moves & 1) as usize
    }

    /// The Zobrist key.
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Whether `col` (0..7) has room.
    pub fn can_play(&self, col: u8) -> bool {
        self.heights[col as usize] < HEIGHT as u8
    }

    /// The legal moves in centre-first order; none once the game is over.
    pub fn moves(&self, moves: &mut Vec<u8>) {
        if self.winner_just_moved() || self.is_full() {
            return;
        }
        moves.extend(CENTRE_FIRST.iter().copied().filter(|&c| self.can_play(c)));
    }

    /// Drops a stone of the player to move into `col`.
    pub fn play(&mut self, col: u8) {
        let bit = (col as u32 * STRIDE + self.heights[col as usize] as u32) as usize;
        let player = self.to_move();
        self.stones[player] |= 1 << bit;
        self.key ^= KEYS[bit][player];
        self.heights[col as usize] += 1;
        self.moves += 1;
    }

    /// Takes back the stone on top of `col`.
    pub fn undo(&mut self, col: u8) {
        self.moves -= 1;
        self.heights[col as usize] -= 1;
        let bit = (col as u32 * STRIDE + self.heights[col as usize] as u32) as usize;
        let player = self.to_move();
        self.stones[player] &= !(1 << bit);
        self.key ^= KEYS[bit][player];
    }

    /// Whether the player who just moved has four in a row.
    pub fn winner_just_moved(&self) -> bool {
        self.moves > 0 && has_four(self.stones[self.to_move() ^ 1])
    }

    /// Whether every cell is taken.
    pub fn is_full(&self) -> bool {
        self.moves as u32 == 7 * HEIGHT
    }
}

/// The heuristic both crates evaluate with, for the player to move: 3 × (empty cells that would complete four
/// for them − for the opponent) + (their stones in the centre column − the opponent's).
pub fn heuristic(four: &Four) -> i16 {
    let me = four.to_move();
    let empty = BOARD & !(four.stones[0] | four.stones[1]);
    let threats = |p: usize| completing_cells(four.stones[p], empty).count_ones() as i16;
    let centre = |p: usize| (four.stones[p] & (0b111111 << (3 * STRIDE))).count_ones() as i16;
    3 * (threats(me) - threats(me ^ 1)) + centre(me) - centre(me ^ 1)
}

/// Why a move sequence was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

impl FromStr for Four {
    type Err = ParseError;

    /// Reads the 1-based columns played, such as `"4453"`.
    fn from_str(s: &str) -> Result<Four, ParseError> {
        let mut four = Four::default();
        for (i, c) in s.trim().chars().enumerate() {
            let col = c
                .to_digit(10)
                .filter(|d| (1..=7).contains(d))
                .ok_or_else(|| ParseError(format!("move {}: `{c}` is not a column from 1 to 7", i + 1)))?
                as u8
                - 1;
            if four.winner_just_moved() || !four.can_play(col) {
                return Err(ParseError(format!("move {}: column {} cannot be played", i + 1, col + 1)));
            }
            four.play(col);
        }
        Ok(four)
    }
}

/// The comparison's positions: twenty of the early middle game (8 to 13 stones) that no setting of Tabula's
/// was chosen on, drawn by [`fresh_positions`] from [`FRESH_SEED`] (a test checks that it still draws these).
pub const POSITIONS: [&str; 20] = [
    "327172354",
    "442625735",
    "63531116361",
    "7262363514736",
    "376634534",
    "31623717",
    "4476522513",
    "432221743",
    "43774616",
    "166614712",
    "54212346",
    "243776573",
    "7464644132134",
    "247665315563",
    "63371453716",
    "3421727643",
    "327562317",
    "5665252356",
    "11344526437",
    "73177341",
];

/// The seed [`POSITIONS`] were drawn from.
pub const FRESH_SEED: u64 = 0x007A_B0CA_2026_1206;

/// The positions the comparison used until the defaults were settled, held out since as a check: the first
/// twenty of Pascal Pons's `begin` test set (8 to 13 stones). Tabula's option presets were measured and chosen
/// on these, so figures on them flatter it.
pub const TUNED_POSITIONS: [&str; 20] = [
    "4666726156164",
    "37614122671",
    "4765664276676",
    "132526564",
    "6327574526",
    "77667134",
    "1577164315556",
    "47643612471",
    "425166515",
    "31526133762",
    "143422335751",
    "5676664323667",
    "71546624",
    "73777356653",
    "33514774475",
    "247465567",
    "71361657655",
    "51225377",
    "77536234",
    "73745743",
];

/// `count` positions of the early middle game drawn at random from `seed`: each is a game of uniformly random
/// moves from the empty board, stopped after 8 to 13 stones (also drawn), and kept if the game is not over,
/// neither side has a win at once, and it is none of the positions drawn before nor of [`TUNED_POSITIONS`].
/// Returned as the columns played (1-based).
pub fn fresh_positions(count: usize, seed: u64) -> Vec<String> {
    let mut rng = tabula::rng::Rng::new(seed);
    let mut drawn: Vec<String> = Vec::new();
    let mut moves = Vec::new();
    while drawn.len() < count {
        let stones = 8 + rng.below(6);
        let mut four = Four::default();
        let mut played = String::new();
        for _ in 0..stones {
            moves.clear();
            four.moves(&mut moves);
            let Some(&col) = rng.pick(&moves) else { break };
            four.play(col);
            played.push(char::from(b'1' + col));
        }
        let empty = BOARD & !(four.stones[0] | four.stones[1]);
        let can_win = |p: usize| completing_cells(four.stones[p], empty) & playable(&four) != 0;
        let open = played.len() == stones && !four.winner_just_moved() && !can_win(0) && !can_win(1);
        if open && !drawn.contains(&played) && !TUNED_POSITIONS.contains(&played.as_str()) {
            drawn.push(played);
        }
    }
    drawn
}

/// The cells a stone can drop into now: the lowest empty cell of each column with room.
fn playable(four: &Four) -> u64 {
    (0..7u8)
        .filter(|&c| four.can_play(c))
        .fold(0, |cells, c| cells | 1 << (c as u32 * STRIDE + four.heights[c as usize] as u32))
}

/// A search's root value as both crates can state it: a heuristic value, or a forced win or loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A heuristic value for the player to move.
    Heuristic(i32),
    /// The player to move wins by force.
    Win,
    /// The player to move loses by force.
    Loss,
}

/// Whether two root values agree (each crate writes decisive values its own way: Tabula counts the plies to
/// the end, minimax-rs does not, so only the side that wins is compared).
pub fn same_value(a: Value, b: Value) -> bool {
    a == b
}

/// What one crate's search of one position gave.
#[derive(Clone, Copy, Debug)]
pub struct Report {
    /// The root value.
    pub value: Value,
    /// The move chosen (0-based column).
    pub best_move: Option<u8>,
    /// Nodes searched, as the crate counts them.
    pub nodes: u64,
    /// Wall time.
    pub time: std::time::Duration,
}

/// The Rust examples of the front page, the crate READMEs that have none of their own crate to run them in, and
/// the book, compiled and run as doctests of this crate: it is not published, so it may read files outside its
/// directory, and it depends on the core the examples use. `tests/docs.rs` checks that every page with a Rust
/// example is listed here.
#[cfg(doctest)]
pub mod book {
    #[doc = include_str!("../../../README.md")]
    pub struct FrontPage;
    #[doc = include_str!("../../../docs/src/rust/writing-a-game.md")]
    pub struct WritingAGame;
    #[doc = include_str!("../../../docs/src/rust/presets.md")]
    pub struct Presets;
    #[doc = include_str!("../../../docs/src/rust/hooks.md")]
    pub struct Hooks;
}
