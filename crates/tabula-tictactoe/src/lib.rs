//! Tic-tac-toe on Tabula's core: the smallest complete example of a [`Game`] with keys, symmetry and tactics.
//!
//! Cells are numbered 0..9 row by row from the top left; in text they are `1`..`9` (as on a phone keypad
//! turned upside down: `1 2 3` is the top row). A position is written as the sequence of cells played,
//! `5 1 9`, or as a nine-character board, `xo..x...o` (`.` empty), in which case the side to move follows
//! from the counts.
//!
//! The key set has a key per (cell, mark). The board keeps eight keys at once, one for each symmetry of the
//! square, each updated by one XOR per move, so the table can store every position under the smallest of its
//! eight keys and an eighth of the tree does for all of it.
//!
//! # Examples
//!
//! ```
//! use tabula::score::DRAW;
//! use tabula::search::minimax;
//! use tabula_tictactoe::{Heuristic, TicTacToe};
//!
//! let mut game = TicTacToe::new();
//! assert_eq!(minimax(&mut game, &Heuristic, 9).score, DRAW);
//! let game: TicTacToe = "5 1 9".parse().unwrap();
//! assert_eq!(game.to_string(), "o..\n.x.\n..x");
//! ```
#![deny(missing_docs)]

pub mod front;
use std::fmt;
use std::str::FromStr;
use tabula::game::{Evaluator, Game, Hooks, Outcome, PieceTo, Remaining, Symmetries, Symmetry, TableKey, WinningMove};
use tabula::score::Score;
use tabula::zobrist::{Key, Layout, ZobristKeys};

/// The key layout: 9 cells × 2 marks.
pub const LAYOUT: Layout = Layout::new(9, 2, 0);
/// The keys, generated at compile time.
pub const KEYS: ZobristKeys<Key, { LAYOUT.len() }> = ZobristKeys::<Key, { LAYOUT.len() }>::generate(0x0071_777A_C70E);

const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];
const FULL: u16 = 0o777;

/// The eight symmetries of the square as cell permutations: `SYMMETRIES[s][cell]` is where `cell` goes.
pub const SYMMETRIES: [[u8; 9]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8], // identity
    [2, 5, 8, 1, 4, 7, 0, 3, 6], // rotate 90
    [8, 7, 6, 5, 4, 3, 2, 1, 0], // rotate 180
    [6, 3, 0, 7, 4, 1, 8, 5, 2], // rotate 270
    [2, 1, 0, 5, 4, 3, 8, 7, 6], // mirror left-right
    [6, 7, 8, 3, 4, 5, 0, 1, 2], // mirror top-bottom
    [0, 3, 6, 1, 4, 7, 2, 5, 8], // transpose
    [8, 5, 2, 7, 4, 1, 6, 3, 0], // anti-transpose
];

/// The inverse of each symmetry.
const INVERSE: [usize; 8] = [0, 3, 2, 1, 4, 5, 6, 7];

/// A mark: `X` moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// The first player.
    X,
    /// The second player.
    O,
}

impl Mark {
    /// Both marks.
    pub const ALL: [Mark; 2] = [Mark::X, Mark::O];
    /// Number of marks.
    pub const COUNT: usize = 2;
}

/// A cell, 0..9, row by row from the top left.
pub type Cell = u8;

/// A tic-tac-toe position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    marks: [u16; 2],
    /// `keys[s]` is the key of the board mapped through symmetry `s`.
    keys: [Key; 8],
}

impl Default for TicTacToe {
    fn default() -> Self {
        Self::new()
    }
}

/// Why a position could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// A move was not a cell number 1..9.
    BadCell(String),
    /// A move named an occupied cell.
    Occupied(u8),
    /// A move came after the game was over.
    GameOver(u8),
    /// A nine-character board had a character other than `x`, `o` or `.`, or the wrong length.
    BadBoard(String),
    /// A board's mark counts cannot arise in a game (O ahead of X, or X two ahead).
    BadCounts,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::BadCell(s) => write!(f, "`{s}` is not a cell: expected a number from 1 to 9"),
            ParseError::Occupied(c) => write!(f, "cell {c} is already taken"),
            ParseError::GameOver(c) => write!(f, "the game is already over before cell {c}"),
            ParseError::BadBoard(s) => {
                write!(f, "`{s}` is not a board: expected nine characters of `x`, `o` and `.`")
            }
            ParseError::BadCounts => write!(f, "impossible mark counts: X moves first and the players alternate"),
        }
    }
}

impl std::error::Error for ParseError {}

impl TicTacToe {
    /// The empty board, X to move.
    pub const fn new() -> Self {
        Self { marks: [0, 0], keys: [Key::ZERO; 8] }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Mark {
        if self.stones() % 2 == 0 {
            Mark::X
        } else {
            Mark::O
        }
    }

    /// Number of marks on the board.
    pub fn stones(&self) -> u32 {
        (self.marks[0] | self.marks[1]).count_ones()
    }

    /// The mark on `cell`, if any.
    pub fn get(&self, cell: Cell) -> Option<Mark> {
        let bit = 1 << cell;
        if self.marks[0] & bit != 0 {
            Some(Mark::X)
        } else if self.marks[1] & bit != 0 {
            Some(Mark::O)
        } else {
            None
        }
    }

    /// Plays `cell` after checking it.
    ///
    /// # Errors
    ///
    /// If the cell is out of range or occupied, or the game is over.
    pub fn try_play(&mut self, cell: Cell) -> Result<(), ParseError> {
        if cell >= 9 {
            return Err(ParseError::BadCell((cell + 1).to_string()));
        }
        if self.outcome().is_some() {
            return Err(ParseError::GameOver(cell + 1));
        }
        if self.get(cell).is_some() {
            return Err(ParseError::Occupied(cell + 1));
        }
        self.toggle(cell, self.side_to_move());
        Ok(())
    }

    /// Adds or removes `mark` on `cell`; the only place the board and its keys change.
    #[inline]
    fn toggle(&mut self, cell: Cell, mark: Mark) {
        self.marks[mark as usize] ^= 1 << cell;
        for (s, key) in self.keys.iter_mut().enumerate() {
            *key ^= KEYS[LAYOUT.feature(SYMMETRIES[s][cell as usize] as usize, mark as usize)];
        }
    }

    /// The key computed from scratch (for tests of the incremental update).
    pub fn key_from_scratch(&self) -> Key {
        (0..9)
            .filter_map(|c| self.get(c).map(|m| KEYS[LAYOUT.feature(c as usize, m as usize)]))
            .fold(Key::ZERO, |a, b| a ^ b)
    }

    fn has_line(bits: u16) -> bool {
        LINES.iter().any(|&l| l & !bits == 0)
    }

    /// Empty cells that would complete a line for `mark`.
    fn threats(&self, mark: Mark) -> u16 {
        let own = self.marks[mark as usize];
        let empty = !(self.marks[0] | self.marks[1]) & FULL;
        let mut t = 0;
        for &l in &LINES {
            let missing = l & !own;
            if missing.count_ones() == 1 && missing & empty != 0 {
                t |= missing;
            }
        }
        t
    }

    /// Every reachable position, terminal ones included (5,478 of them), in breadth-first order.
    pub fn all_positions() -> Vec<TicTacToe> {
        let mut seen = std::collections::HashSet::new();
        let mut out = vec![TicTacToe::new()];
        seen.insert(TicTacToe::new().marks);
        let mut i = 0;
        let mut moves = Vec::new();
        while i < out.len() {
            let g = out[i].clone();
            i += 1;
            if g.outcome().is_some() {
                continue;
            }
            moves.clear();
            g.legal_moves(&mut moves);
            for &m in &moves {
                let mut next = g.clone();
                next.play(m);
                if seen.insert(next.marks) {
                    out.push(next);
                }
            }
        }
        out
    }
}

impl Game for TicTacToe {
    type Move = Cell;
    const MOVE_CODES: usize = 9;

    fn legal_moves(&self, moves: &mut Vec<Cell>) {
        let mut empty = !(self.marks[0] | self.marks[1]) & FULL;
        while empty != 0 {
            moves.push(empty.trailing_zeros() as Cell);
            empty &= empty - 1;
        }
    }

    fn play(&mut self, cell: Cell) {
        debug_assert!(self.get(cell).is_none());
        self.toggle(cell, self.side_to_move());
    }

    fn undo(&mut self, cell: Cell) {
        let mark = self.get(cell).expect("undo of an empty cell");
        self.toggle(cell, mark);
    }

    fn outcome(&self) -> Option<Outcome> {
        // Only the player who just moved can have a line.
        let last = self.side_to_move() as usize ^ 1;
        if Self::has_line(self.marks[last]) {
            Some(Outcome::Loss)
        } else if self.marks[0] | self.marks[1] == FULL {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    #[inline]
    fn key(&self) -> Key {
        self.keys[0]
    }

    fn move_code(cell: Cell) -> u16 {
        cell as u16
    }

    /// Lines to complete or block, the board's eight symmetries, the cells left, and piece-to codes.
    const HOOKS: Hooks<TicTacToe> = Hooks {
        winning_move: Some(winning_move),
        non_losing_moves: Some(non_losing_moves),
        symmetry: Some(Symmetries { table_key, canonical_move_code, actual_move_code }),
        remaining: Some(|game| Some(Remaining { plies: 9 - game.stones(), margin: 0 })),
        piece_to: Some(PieceTo { codes: 18, code: piece_to }),
        ..Hooks::NONE
    };
}

/// The mark (X 0, O 1) times 9 plus the cell.
fn piece_to(game: &TicTacToe, cell: Cell) -> u16 {
    game.side_to_move() as u16 * 9 + cell as u16
}

/// A cell that completes a line for the side to move.
fn winning_move(game: &TicTacToe) -> WinningMove<Cell> {
    match game.threats(game.side_to_move()) {
        0 => WinningMove::NoneExists,
        t => WinningMove::Found(t.trailing_zeros() as Cell),
    }
}

/// Every empty cell when the opponent threatens nothing, the block of its one threat, none against two.
fn non_losing_moves(game: &TicTacToe, moves: &mut Vec<Cell>) -> Option<usize> {
    let t = game.threats(match game.side_to_move() {
        Mark::X => Mark::O,
        Mark::O => Mark::X,
    });
    let before = moves.len();
    match t.count_ones() {
        0 => game.legal_moves(moves),
        1 => moves.push(t.trailing_zeros() as Cell),
        _ => {}
    }
    Some(moves.len() - before)
}

/// The smallest of the eight symmetric images' keys.
#[inline]
fn table_key(game: &TicTacToe) -> TableKey {
    let mut best = 0;
    for s in 1..8 {
        if game.keys[s] < game.keys[best] {
            best = s;
        }
    }
    TableKey { key: game.keys[best], symmetry: Symmetry(best as u8) }
}

fn canonical_move_code(code: u16, symmetry: Symmetry) -> u16 {
    SYMMETRIES[symmetry.0 as usize][code as usize] as u16
}

fn actual_move_code(code: u16, symmetry: Symmetry) -> u16 {
    SYMMETRIES[INVERSE[symmetry.0 as usize]][code as usize] as u16
}

/// A simple evaluation: lines still open to the side to move minus lines open to the opponent, and a move
/// ordering that prefers the centre, then corners.
#[derive(Clone, Copy, Debug, Default)]
pub struct Heuristic;

impl Evaluator<TicTacToe> for Heuristic {
    fn evaluate(&self, game: &TicTacToe) -> Score {
        let me = game.side_to_move() as usize;
        let open = |blocker: u16| LINES.iter().filter(|&&l| l & blocker == 0).count() as Score;
        open(game.marks[me ^ 1]) - open(game.marks[me])
    }

    fn move_order(&self, _: &TicTacToe, cell: Cell) -> i32 {
        [2, 1, 2, 1, 3, 1, 2, 1, 2][cell as usize]
    }
}

impl FromStr for TicTacToe {
    type Err = ParseError;

    /// Reads `"5 1 9"` (cells 1..9 played in order, separated by spaces or commas, or run together as `519`)
    /// or a nine-character board `"xo..x...o"`.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let s = s.trim();
        let is_board = s.chars().count() == 9 && s.chars().all(|c| matches!(c, 'x' | 'o' | 'X' | 'O' | '.' | '-'));
        if is_board && s.chars().any(|c| !c.is_ascii_digit()) {
            let mut g = TicTacToe::new();
            for (cell, c) in s.chars().enumerate() {
                match c {
                    'x' | 'X' => g.toggle(cell as Cell, Mark::X),
                    'o' | 'O' => g.toggle(cell as Cell, Mark::O),
                    _ => {}
                }
            }
            let (x, o) = (g.marks[0].count_ones(), g.marks[1].count_ones());
            if !(x == o || x == o + 1) {
                return Err(ParseError::BadCounts);
            }
            return Ok(g);
        }
        let mut g = TicTacToe::new();
        let tokens: Vec<String> = if s.contains([' ', ',']) {
            s.split([' ', ',']).filter(|t| !t.is_empty()).map(str::to_string).collect()
        } else {
            s.chars().map(String::from).collect()
        };
        for t in tokens {
            match t.parse::<u8>() {
                Ok(n @ 1..=9) => g.try_play(n - 1)?,
                _ => {
                    return Err(if t.chars().all(|c| c.is_ascii_digit()) {
                        ParseError::BadCell(t)
                    } else {
                        ParseError::BadBoard(s.to_string())
                    })
                }
            }
        }
        Ok(g)
    }
}

impl fmt::Display for TicTacToe {
    /// Three rows of `x`, `o` and `.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..3 {
            if row > 0 {
                writeln!(f)?;
            }
            for col in 0..3 {
                let c = match self.get(row * 3 + col) {
                    Some(Mark::X) => 'x',
                    Some(Mark::O) => 'o',
                    None => '.',
                };
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// Formats a move as its cell number 1..9.
pub fn move_to_string(cell: Cell) -> String {
    (cell + 1).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::game::HookedGame;
    use tabula::quality;
    use tabula::search::{alphabeta, minimax, Searcher};

    #[test]
    fn there_are_5478_positions() {
        assert_eq!(TicTacToe::all_positions().len(), 5478);
    }

    #[test]
    fn keys_are_sound() {
        assert!(quality::check(KEYS.as_slice()).is_sound());
    }

    #[test]
    fn incremental_keys_match_scratch_and_symmetries() {
        for g in TicTacToe::all_positions() {
            assert_eq!(g.key(), g.key_from_scratch());
            // The key under symmetry s is the plain key of the transformed board.
            for (map, &key) in SYMMETRIES.iter().zip(&g.keys) {
                let mut t = TicTacToe::new();
                for c in 0..9u8 {
                    if let Some(m) = g.get(c) {
                        t.toggle(map[c as usize], m);
                    }
                }
                assert_eq!(t.key(), key);
            }
        }
    }

    #[test]
    fn symmetry_maps_round_trip() {
        for s in 0..8u8 {
            for c in 0..9u16 {
                let there = TicTacToe::canonical_move_code(c, Symmetry(s));
                assert_eq!(TicTacToe::actual_move_code(there, Symmetry(s)), c);
            }
        }
    }

    #[test]
    fn parse_and_errors() {
        let g: TicTacToe = "5 1 9".parse().unwrap();
        assert_eq!(g.to_string(), "o..\n.x.\n..x");
        assert_eq!("519".parse::<TicTacToe>().unwrap(), g);
        assert_eq!("o...x...x".parse::<TicTacToe>().unwrap(), g);
        assert_eq!("5 5".parse::<TicTacToe>(), Err(ParseError::Occupied(5)));
        assert_eq!("0".parse::<TicTacToe>(), Err(ParseError::BadCell("0".into())));
        assert_eq!("1 4 2 5 3 6".parse::<TicTacToe>(), Err(ParseError::GameOver(6)));
        assert_eq!("oo.......".parse::<TicTacToe>(), Err(ParseError::BadCounts));
        assert!("hello".parse::<TicTacToe>().is_err());
    }

    #[test]
    fn start_is_a_draw_for_every_search() {
        let mut g = TicTacToe::new();
        assert_eq!(minimax(&mut g, &Heuristic, 9).score, 0);
        assert_eq!(alphabeta(&mut g, &Heuristic, 9).score, 0);
        let mut s = Searcher::with_table_size(Heuristic, 1);
        assert_eq!(s.search_depth(&g, 9).score, 0);
        assert_eq!(s.solve(&g).score, 0);
    }
}

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
