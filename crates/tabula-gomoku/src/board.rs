//! The board: stones, Zobrist keys, line codes and notation.
//!
//! Cells live in a 32×32 array with the board in the middle and at least five cells of wall around it, so
//! that a scan along any line stops at a wall before it can leave the array. Four things change with each
//! stone, always together in [`Board::play_unchecked`] and [`Board::undo_unchecked`]: the cell, the Zobrist
//! key (one XOR for the stone, one for the side to move), the line codes of the 32 cells that see the
//! stone within four steps (see [`pattern`](crate::pattern)), and what those cells would give each colour
//! (a five, an open four, a four, an open three), kept per colour as one bit per cell, so that finding the
//! fives and threats on the board visits only the cells that have them.
//!
//! Points are written two ways: Gomocup's 0-based `x,y` (x to the right, y down from the top left corner,
//! [`Point`]'s `Display`), and the renju notation `h8`: a column letter from `a` and a row number from 1 at
//! the bottom ([`Board::format_point`], [`Board::parse_point`]).
//!
//! # Examples
//!
//! ```
//! use tabula_gomoku::{Board, Rule};
//!
//! let mut board = Board::from_moves(15, 15, Rule::Renju, "h8 i9 7,8").unwrap();
//! assert_eq!(board.format_moves(board.moves()), "h8 i9 h7");
//! let key = board.key();
//! let last = board.take_back().unwrap();
//! board.play(last).unwrap();
//! assert_eq!(board.key(), key);
//! assert_eq!(board.key(), board.key_from_scratch());
//! ```

pub(crate) use crate::pattern::Shape;
use crate::pattern::{slot, tables, Pattern, Tables};
use crate::rules;
pub use crate::types::{Color, ParseRuleError, Rule};
use crate::types::{CELLS, DIRS, EMPTY, PAD, STRIDE, WALL};
use std::cell::Cell;
use std::fmt;
use tabula::zobrist::{Key, Layout, ZobristKeys};
use thiserror::Error;

/// The largest width and height.
pub const MAX_SIZE: usize = 22;
/// The smallest width and height.
pub const MIN_SIZE: usize = 5;
/// The key layout: 22 × 22 cells × 2 colours, then one key for "white to move".
pub const LAYOUT: Layout = Layout::new(MAX_SIZE * MAX_SIZE, 2, 1);
/// The keys, generated at compile time. A stone's key depends on its (x, y) only, not on the board size.
pub const KEYS: ZobristKeys<Key, { LAYOUT.len() }> = ZobristKeys::<Key, { LAYOUT.len() }>::generate(0x60_4D_0C_05);

/// A point of the board: `x` to the right from 0, `y` down from 0 (Gomocup's coordinates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Column, 0 on the left.
    pub x: u8,
    /// Row, 0 at the top.
    pub y: u8,
}

impl Point {
    /// The point (x, y).
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// A dense code below 484, the same on every board size.
    pub const fn code(self) -> u16 {
        self.y as u16 * MAX_SIZE as u16 + self.x as u16
    }

    /// The point with code `code`.
    pub const fn from_code(code: u16) -> Point {
        Point { x: (code % MAX_SIZE as u16) as u8, y: (code / MAX_SIZE as u16) as u8 }
    }

    #[inline(always)]
    pub(crate) const fn index(self) -> usize {
        (self.y as usize + PAD) * STRIDE + self.x as usize + PAD
    }

    #[inline(always)]
    pub(crate) const fn from_index(index: usize) -> Point {
        Point { x: (index % STRIDE - PAD) as u8, y: (index / STRIDE - PAD) as u8 }
    }
}

/// `x,y`, as Gomocup writes it.
impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// Why a board, a point or a move was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The board size is outside 5..=22.
    #[error("board size {width}x{height} is not supported (each side must be from {MIN_SIZE} to {MAX_SIZE})")]
    Size {
        /// Width asked for.
        width: usize,
        /// Height asked for.
        height: usize,
    },
    /// Text that is neither `h8` nor `x,y`.
    #[error("`{0}` is not a point (expected a column letter and a row number such as h8, or x,y such as 7,7)")]
    Syntax(String),
    /// A point off the board.
    #[error("`{text}` is off the {width}x{height} board")]
    OffBoard {
        /// The point as written.
        text: String,
        /// Board width.
        width: usize,
        /// Board height.
        height: usize,
    },
    /// The point already holds a stone.
    #[error("{0} is already occupied")]
    Occupied(Point),
    /// The game is over.
    #[error("the game is already over")]
    GameOver,
    /// A renju forbidden point for black.
    #[error("{0} is forbidden for black under renju rules")]
    Forbidden(Point),
    /// A move in a list failed.
    #[error("move {index}: {source}")]
    InList {
        /// 1-based position in the list.
        index: usize,
        /// What was wrong with it.
        source: Box<MoveError>,
    },
}

/// A gomoku position: board size, rule, stones, the moves that placed them and their key.
#[derive(Clone)]
pub struct Board {
    width: u8,
    height: u8,
    rule: Rule,
    pub(crate) cells: [u8; CELLS],
    lines: [[u16; 4]; CELLS],
    /// Per cell and direction, the [`Pattern`] a stone there would make along that line, black's in the low
    /// four bits and white's in the high four: kept with the line codes, so that reading a point's patterns
    /// (the evaluation asks them of every candidate point for both colours) costs no table lookup.
    pats: [[u8; 4]; CELLS],
    /// The stones, one bit per cell (`stones[y]` bit `x` for cell `y * STRIDE + x`): the move candidates are
    /// worked out from them by shifts (see [`for_each_candidate`](Self::for_each_candidate)).
    stones: [u32; STRIDE],
    /// Per cell, the [`Shape`]s a stone there would make: for black bit `4 * shape + k` for direction `k`,
    /// for white the same 16 bits higher (zero on stones and walls). Kept with the line codes, so that the
    /// searches for fives and threats visit only the cells that have them; both colours in one word, so that
    /// a move's update of the cells along its lines compares each cell's marks once.
    marks: [u32; CELLS],
    /// Per colour and shape, one bit per cell (`rows[..][..][y]` bit `x` for cell `y * STRIDE + x`) of the cells
    /// with that shape in some direction.
    rows: [[[u32; STRIDE]; Shape::COUNT]; 2],
    /// Per colour and shape, how many cells have it.
    counts: [[u16; Shape::COUNT]; 2],
    key: Key,
    moves: Vec<Point>,
    /// Whether the side to move is the other one than the moves say (see [`pass`](Self::pass)).
    passed: bool,
    winner: Option<Color>,
    tables: &'static Tables,
    /// The last [`Forced`] computed, with the key of the position it was computed for.
    forced: Cell<Option<(Key, Forced)>>,
}

/// What the fives one move away force the side to move to do (see [`Board::forced`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forced {
    /// Nothing: no five can be made next move by either side.
    Free,
    /// Make five here.
    Win(Point),
    /// Block the opponent's single five here.
    Block(Point),
    /// The opponent has two fives, or one that cannot be blocked legally: every move loses, blocking one of
    /// the fives (here, if that is legal) as much as any other.
    Lost(Option<Point>),
}

/// Both colours' shapes along direction `k` as [`Tables::shapes`](crate::pattern::Tables::shapes) gives them,
/// placed as a cell's mark has them: black's bit `4 * shape + k`, white's the same 16 bits higher.
#[inline(always)]
fn spread(both: u16, k: usize) -> u32 {
    let both = both as u32;
    ((both & 0x1111) | (both & 0x2222) << 15) << k
}

/// The cell `offset` steps from cell `i` (within the padded array: the modulo, a no-op for the cells the board
/// reaches, lets the compiler drop the bounds checks).
#[inline(always)]
fn along(i: usize, offset: isize) -> usize {
    i.wrapping_add_signed(offset) % CELLS
}

impl Board {
    /// An empty `width × height` board.
    ///
    /// # Errors
    ///
    /// [`MoveError::Size`] unless both sides are within 5..=22.
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, MoveError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            return Err(MoveError::Size { width, height });
        }
        let mut cells = [WALL; CELLS];
        for y in 0..height {
            for x in 0..width {
                cells[Point::new(x as u8, y as u8).index()] = EMPTY;
            }
        }
        let mut lines = [[0u16; 4]; CELLS];
        for (i, line) in lines.iter_mut().enumerate() {
            for (k, &d) in DIRS.iter().enumerate() {
                for o in (-4isize..=4).filter(|&o| o != 0) {
                    let j = i as isize + o * d;
                    if j < 0 || j >= CELLS as isize || cells[j as usize] == WALL {
                        line[k] |= (WALL as u16) << (2 * slot(o));
                    }
                }
            }
        }
        let tables = tables();
        let pats = std::array::from_fn(|i| lines[i].map(|code| (tables.cell(rule, code) >> 16) as u8));
        Ok(Board {
            width: width as u8,
            height: height as u8,
            rule,
            cells,
            lines,
            pats,
            stones: [0; STRIDE],
            marks: [0; CELLS],
            rows: [[[0; STRIDE]; Shape::COUNT]; 2],
            counts: [[0; Shape::COUNT]; 2],
            key: Key::ZERO,
            moves: Vec::new(),
            passed: false,
            winner: None,
            tables,
            forced: Cell::new(None),
        })
    }

    /// A board with `moves` (a move list, see [`Board::parse_moves`]) played in order.
    ///
    /// # Errors
    ///
    /// A bad size, or [`MoveError::InList`] naming the first move that does not parse or cannot be played.
    pub fn from_moves(width: usize, height: usize, rule: Rule, moves: &str) -> Result<Board, MoveError> {
        let mut board = Board::new(width, height, rule)?;
        for (i, point) in board.parse_moves(moves)?.into_iter().enumerate() {
            board.play(point).map_err(|e| MoveError::InList { index: i + 1, source: Box::new(e) })?;
        }
        Ok(board)
    }

    /// Width in cells.
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Height in cells.
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// The rule in force.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The same stones under another rule (replayed, so forbidden points and wins are judged anew).
    ///
    /// # Errors
    ///
    /// If a move of the game is illegal under `rule` (a renju forbidden point, a move after a five).
    pub fn with_rule(&self, rule: Rule) -> Result<Board, MoveError> {
        let mut board = Board::new(self.width(), self.height(), rule)?;
        for (i, &p) in self.moves.iter().enumerate() {
            board.play(p).map_err(|e| MoveError::InList { index: i + 1, source: Box::new(e) })?;
        }
        Ok(board)
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Point] {
        &self.moves
    }

    /// The side to move: black after an even number of moves.
    pub fn side_to_move(&self) -> Color {
        if (self.moves.len() + self.passed as usize) % 2 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The player who made five, if any.
    pub fn winner(&self) -> Option<Color> {
        self.winner
    }

    /// Whether every cell holds a stone.
    pub fn is_full(&self) -> bool {
        self.moves.len() == self.width() * self.height()
    }

    /// The incrementally kept Zobrist key.
    pub fn key(&self) -> Key {
        self.key
    }

    /// The key recomputed from the stones, for tests of the incremental one.
    pub fn key_from_scratch(&self) -> Key {
        let mut key = Key::ZERO;
        for y in 0..self.height {
            for x in 0..self.width {
                let p = Point::new(x, y);
                if let Some(c) = self.stone(p) {
                    key ^= KEYS[LAYOUT.feature(p.code() as usize, c.index())];
                }
            }
        }
        if self.side_to_move() == Color::White {
            key ^= KEYS[LAYOUT.extra(0)];
        }
        key
    }

    /// Whether `p` lies on the board.
    pub fn contains(&self, p: Point) -> bool {
        p.x < self.width && p.y < self.height
    }

    /// The stone on `p`, if any (`None` also off the board).
    pub fn stone(&self, p: Point) -> Option<Color> {
        if !self.contains(p) {
            return None;
        }
        match self.cells[p.index()] {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }

    /// Whether `p` is on the board and empty.
    pub fn is_empty_point(&self, p: Point) -> bool {
        self.contains(p) && self.cells[p.index()] == EMPTY
    }

    /// The centre point (the first move of an empty board).
    pub fn center(&self) -> Point {
        Point::new(self.width / 2, self.height / 2)
    }

    /// Plays `p` for the side to move.
    ///
    /// # Errors
    ///
    /// If `p` is off the board or occupied, the game is over, or `p` is a renju forbidden point for black.
    pub fn play(&mut self, p: Point) -> Result<(), MoveError> {
        if !self.contains(p) {
            return Err(MoveError::OffBoard { text: p.to_string(), width: self.width(), height: self.height() });
        }
        if self.cells[p.index()] != EMPTY {
            return Err(MoveError::Occupied(p));
        }
        if self.winner.is_some() || self.is_full() {
            return Err(MoveError::GameOver);
        }
        if !self.is_legal(p) {
            return Err(MoveError::Forbidden(p));
        }
        self.play_unchecked(p);
        Ok(())
    }

    /// Plays `p` for the side to move without checking it.
    ///
    /// # Panics
    ///
    /// May panic, or corrupt the position, if `p` is off the board or occupied.
    pub fn play_unchecked(&mut self, p: Point) {
        let color = self.side_to_move();
        let i = p.index();
        self.place(i, color);
        self.moves.push(p);
        self.key ^= KEYS[LAYOUT.extra(0)];
        if rules::makes_five_at(&self.cells, i, color, self.rule) {
            self.winner = Some(color);
        }
    }

    /// Takes back the last move and returns it.
    pub fn take_back(&mut self) -> Option<Point> {
        let p = *self.moves.last()?;
        self.undo_unchecked(p);
        Some(p)
    }

    /// Takes back `p`, which must be the last move played.
    ///
    /// # Panics
    ///
    /// If there is no move to take back; in debug builds also if `p` is not the last move.
    pub fn undo_unchecked(&mut self, p: Point) {
        let last = self.moves.pop().expect("a move to take back");
        debug_assert_eq!(last, p, "undo the last move");
        let color = self.side_to_move();
        self.remove(p.index(), color);
        self.key ^= KEYS[LAYOUT.extra(0)];
        self.winner = None;
    }

    /// Hands the move to the other side without a stone, as if the side to move had passed: a null move, which
    /// Gomoku's rules do not allow in a game, to ask what the opponent would do if it could move now. A second
    /// call takes the pass back. The move list stays as it is; the key changes side.
    ///
    /// # Examples
    ///
    /// ```
    /// use tabula_gomoku::{Board, Color, Rule};
    ///
    /// let mut board = Board::from_moves(15, 15, Rule::Freestyle, "h8").unwrap();
    /// let key = board.key();
    /// board.pass();
    /// assert_eq!(board.side_to_move(), Color::Black);
    /// assert_eq!(board.key(), board.key_from_scratch());
    /// board.pass();
    /// assert_eq!((board.side_to_move(), board.key()), (Color::White, key));
    /// ```
    pub fn pass(&mut self) {
        self.passed = !self.passed;
        self.key ^= KEYS[LAYOUT.extra(0)];
    }

    /// Puts a stone of `color` on the empty cell `i`, keeping key, line codes, marks and the stones' bits, but
    /// not the move list, the side to move or the winner: [`play_unchecked`](Self::play_unchecked) adds those.
    /// The threat searches use it alone to try the opponent's replies outside the move order; then
    /// [`remove`](Self::remove) must follow before any move is made or undone.
    pub(crate) fn place(&mut self, i: usize, color: Color) {
        debug_assert_eq!(self.cells[i], EMPTY, "{} is empty", Point::from_index(i));
        let c = color.as_cell() as u16;
        self.cells[i] = c as u8;
        self.key ^= KEYS[LAYOUT.feature(Point::from_index(i).code() as usize, color.index())];
        self.set_marks(i, u32::MAX, 0);
        // Each direction written out, so that the compiler unrolls the steps along it with constant shifts.
        let put = move |code: u16, slot: u32| code | c << (2 * slot);
        self.relink(i, 0, put);
        self.relink(i, 1, put);
        self.relink(i, 2, put);
        self.relink(i, 3, put);
        self.stones[i / STRIDE] |= 1 << (i % STRIDE);
    }

    /// Removes the stone of `color` from cell `i`: the exact inverse of [`place`](Self::place).
    pub(crate) fn remove(&mut self, i: usize, color: Color) {
        self.cells[i] = EMPTY;
        self.key ^= KEYS[LAYOUT.feature(Point::from_index(i).code() as usize, color.index())];
        let take = |code: u16, slot: u32| code & !(3 << (2 * slot));
        self.relink(i, 0, take);
        self.relink(i, 1, take);
        self.relink(i, 2, take);
        self.relink(i, 3, take);
        let own = self.shape_bits(i, 0) | self.shape_bits(i, 1) | self.shape_bits(i, 2) | self.shape_bits(i, 3);
        self.set_marks(i, u32::MAX, own);
        self.stones[i / STRIDE] &= !(1 << (i % STRIDE));
    }

    /// Changes the line code (by `change`, given a code and the slot of cell `i` in it) of the four cells
    /// either side of cell `i` along direction `k`, and their marks with it.
    #[inline(always)]
    fn relink(&mut self, i: usize, k: usize, change: impl Fn(u16, u32) -> u16) {
        let d = DIRS[k];
        for o in 1..=4isize {
            let (a, b) = (along(i, -o * d), along(i, o * d));
            self.lines[a][k] = change(self.lines[a][k], slot(o));
            self.lines[b][k] = change(self.lines[b][k], slot(-o));
            self.remark(a, k);
            self.remark(b, k);
        }
    }

    /// Recomputes both colours' patterns and marks of cell `i` along direction `k` from its line code.
    #[inline(always)]
    fn remark(&mut self, i: usize, k: usize) {
        let cell = self.tables.cell(self.rule, self.lines[i][k]);
        self.pats[i][k] = (cell >> 16) as u8;
        // Stones and walls keep no marks: their bits are masked off rather than branched around (which of the
        // cells along a line are empty is hard to predict).
        let empty = if self.cells[i] == EMPTY { u32::MAX } else { 0 };
        self.set_marks(i, 0x1111_1111 << k & empty, spread(cell as u16, k) & empty);
    }

    /// Both colours' marks of the empty cell `i` along direction `k` by its line code: the table interleaves
    /// the colours (black bit `4 * shape`, white the bit above); black stays in the low half of the mark,
    /// white moves up to the high half.
    #[inline(always)]
    fn shape_bits(&self, i: usize, k: usize) -> u32 {
        spread(self.tables.shapes(self.rule, self.lines[i][k]), k)
    }

    /// Replaces the bits `mask` of cell `i`'s marks by `bits`, keeping the rows and counts.
    #[inline(always)]
    fn set_marks(&mut self, i: usize, mask: u32, bits: u32) {
        let old = self.marks[i];
        let new = old & !mask | bits;
        if old == new {
            return;
        }
        self.marks[i] = new;
        // One bit per colour and shape (bit `4 * colour + shape`): whether the mark has it in some direction.
        let any = |m: u32| {
            let m = m | m >> 1 | m >> 2 | m >> 3;
            let m = (m & 0x0001_0001) | (m >> 3 & 0x0002_0002) | (m >> 6 & 0x0004_0004) | (m >> 9 & 0x0008_0008);
            (m | m >> 12) & 0xff
        };
        let (was, is) = (any(old), any(new));
        let mut changed = was ^ is;
        while changed != 0 {
            let b = changed.trailing_zeros() as usize;
            let (c, s) = (b / 4, b % 4);
            self.rows[c][s][i / STRIDE] ^= 1 << (i % STRIDE);
            self.counts[c][s] = if is >> b & 1 != 0 { self.counts[c][s] + 1 } else { self.counts[c][s] - 1 };
            changed &= changed - 1;
        }
    }

    /// Whether some cell has `shape` for `color`.
    #[inline(always)]
    pub(crate) fn has_shape(&self, color: Color, shape: Shape) -> bool {
        self.counts[color.index()][shape as usize] != 0
    }

    /// Calls `f` on every cell where `color` has one of `shapes`, row by row.
    #[inline]
    pub(crate) fn for_each_shape(&self, color: Color, shapes: &[Shape], mut f: impl FnMut(usize)) {
        if shapes.iter().all(|&s| !self.has_shape(color, s)) {
            return;
        }
        let rows = &self.rows[color.index()];
        let row = |y: usize| shapes.iter().fold(0, |acc, &s| acc | rows[s as usize][y]);
        for y in PAD..PAD + self.height as usize {
            let mut bits = row(y);
            while bits != 0 {
                f(y * STRIDE + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }

    /// What a stone of `color` on the empty point `p` would make along each of the four lines (across,
    /// down, down-right, down-left). Upper bounds near overlines; see [`pattern`](crate::pattern).
    pub fn patterns(&self, p: Point, color: Color) -> [Pattern; 4] {
        self.patterns_at(p.index(), color)
    }

    #[inline(always)]
    pub(crate) fn patterns_at(&self, i: usize, color: Color) -> [Pattern; 4] {
        let shift = 4 * color.index();
        self.pats[i].map(|both| Pattern::from_code(both >> shift & 15))
    }

    /// Whether the side to move may play `p`: an empty point of the board that is not, under renju, forbidden
    /// to black.
    pub fn is_legal(&self, p: Point) -> bool {
        self.is_empty_point(p) && self.is_legal_at(p.index(), self.side_to_move())
    }

    /// Whether `color` may play the empty cell `i`; a quick pattern filter before the exact renju check.
    pub(crate) fn is_legal_at(&self, i: usize, color: Color) -> bool {
        if !self.rule.forbids(color) {
            return true;
        }
        let pats = self.patterns_at(i, color);
        let fours = pats.iter().filter(|p| p.is_four()).count();
        let threes = pats.iter().filter(|&&p| p == Pattern::FlexThree).count();
        let suspicious = pats.iter().any(|&p| p >= Pattern::DoubleFour) || fours >= 2 || fours + threes >= 2;
        !suspicious || !rules::is_forbidden(&self.cells, i)
    }

    /// The empty cells within two steps along a line of some stone, row by row (the move candidates).
    pub(crate) fn for_each_candidate(&self, mut f: impl FnMut(usize)) {
        let s = &self.stones;
        let board = ((1u32 << self.width) - 1) << PAD;
        // The rows of walls around the board hold no stones, so rows two away from the board's are zero.
        for y in PAD..PAD + self.height as usize {
            let (row, up1, down1, up2, down2) = (s[y], s[y - 1], s[y + 1], s[y - 2], s[y + 2]);
            let across = row << 1 | row >> 1 | row << 2 | row >> 2;
            let one = up1 | down1 | up1 << 1 | up1 >> 1 | down1 << 1 | down1 >> 1;
            let two = up2 | down2 | up2 << 2 | up2 >> 2 | down2 << 2 | down2 >> 2;
            let mut bits = (across | one | two) & !row & board;
            while bits != 0 {
                f(y * STRIDE + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }

    /// Up to two points where `color` would make five (two mean the other side cannot stop both).
    pub fn five_points(&self, color: Color) -> Vec<Point> {
        let mut out = Vec::new();
        self.five_points_into(color, &mut out, usize::MAX);
        out
    }

    /// Appends to `out` the cells (as points) where `color` makes five, stopping after `limit` of them.
    /// What the fives one move away force the side to move to do: a five of its own is made, a single five
    /// of the opponent's is blocked, two of them lose. Remembered for the position last asked about.
    pub fn forced(&self) -> Forced {
        let key = self.key;
        if let Some((_, memo)) = self.forced.get().filter(|m| m.0 == key) {
            return memo;
        }
        let me = self.side_to_move();
        let mut fives = Vec::with_capacity(2);
        self.five_points_into(me, &mut fives, 1);
        let forced = if let Some(&p) = fives.first() {
            Forced::Win(p)
        } else {
            self.five_points_into(me.opponent(), &mut fives, 2);
            match fives.as_slice() {
                [] => Forced::Free,
                [block] if self.is_legal_at(block.index(), me) => Forced::Block(*block),
                _ => Forced::Lost(fives.iter().copied().find(|p| self.is_legal_at(p.index(), me))),
            }
        };
        self.forced.set(Some((key, forced)));
        forced
    }

    pub(crate) fn five_points_into(&self, color: Color, out: &mut Vec<Point>, limit: usize) {
        let start = out.len();
        self.for_each_shape(color, &[Shape::Five], |i| {
            if out.len() - start < limit && rules::would_make_five(&self.cells, i, color, self.rule) {
                out.push(Point::from_index(i));
            }
        });
    }

    // ---- Notation ------------------------------------------------------------------------------------------

    /// Parses `h8` (column letter, row from 1 at the bottom) or `x,y` (0-based, y down), checking it is on
    /// the board.
    ///
    /// # Errors
    ///
    /// [`MoveError::Syntax`] or [`MoveError::OffBoard`].
    pub fn parse_point(&self, text: &str) -> Result<Point, MoveError> {
        let t = text.trim();
        let syntax = || MoveError::Syntax(t.to_string());
        let off = || MoveError::OffBoard { text: t.to_string(), width: self.width(), height: self.height() };
        let (x, y) = if let Some((a, b)) = t.split_once(',') {
            let x: usize = a.trim().parse().map_err(|_| syntax())?;
            let y: usize = b.trim().parse().map_err(|_| syntax())?;
            (x, y)
        } else {
            let mut chars = t.chars();
            let letter = chars.next().filter(char::is_ascii_alphabetic).ok_or_else(syntax)?;
            let rest = chars.as_str();
            if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) || rest.len() > 3 {
                return Err(syntax());
            }
            let row: usize = rest.parse().map_err(|_| syntax())?;
            let x = (letter.to_ascii_lowercase() as u8 - b'a') as usize;
            if row == 0 || row > self.height() {
                return Err(off());
            }
            (x, self.height() - row)
        };
        if x >= self.width() || y >= self.height() {
            return Err(off());
        }
        Ok(Point::new(x as u8, y as u8))
    }

    /// `p` in renju notation: `h8` is (7, height − 8).
    pub fn format_point(&self, p: Point) -> String {
        format!("{}{}", (b'a' + p.x) as char, self.height() - p.y as usize)
    }

    /// Parses a move list: points (`h8` or `x,y`) separated by spaces, semicolons or newlines.
    ///
    /// # Errors
    ///
    /// [`MoveError::InList`] naming the first point that does not parse or is off the board.
    pub fn parse_moves(&self, text: &str) -> Result<Vec<Point>, MoveError> {
        text.split(|c: char| c.is_whitespace() || c == ';')
            .filter(|t| !t.is_empty())
            .enumerate()
            .map(|(i, t)| self.parse_point(t).map_err(|e| MoveError::InList { index: i + 1, source: Box::new(e) }))
            .collect()
    }

    /// A move list in renju notation, separated by spaces.
    pub fn format_moves(&self, moves: &[Point]) -> String {
        moves.iter().map(|&p| self.format_point(p)).collect::<Vec<_>>().join(" ")
    }

    /// The Gomocup `BOARD` command that puts an engine, to move, in this position: `BOARD`, a line `x,y,1` per
    /// stone of the side to move and `x,y,2` per stone of the other (Gomocup coordinates, rows from the top), in
    /// the order played, then `DONE`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tabula_gomoku::{Board, Rule};
    ///
    /// let board = Board::from_moves(15, 15, Rule::Freestyle, "h8 i9 h9").unwrap();
    /// // White to move: h8 and h9 are the other side's, i9 its own.
    /// assert_eq!(board.gomocup_board(), "BOARD\n7,7,2\n8,6,1\n7,6,2\nDONE");
    /// ```
    pub fn gomocup_board(&self) -> String {
        let mine = self.moves.len() % 2;
        let mut text = String::from("BOARD\n");
        for (i, p) in self.moves.iter().enumerate() {
            text.push_str(&format!("{p},{}\n", if i % 2 == mine { 1 } else { 2 }));
        }
        text.push_str("DONE");
        text
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({}x{} {} \"{}\")", self.width, self.height, self.rule, self.format_moves(&self.moves))
    }
}

/// A text board: `X` black, `O` white, `.` empty, the last move in brackets, coordinates around.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let last = self.moves.last().copied();
        let letters: String = (0..self.width).map(|x| format!(" {}", (b'a' + x) as char)).collect();
        writeln!(f, "   {letters}")?;
        for y in 0..self.height {
            write!(f, "{:>2} ", self.height - y)?;
            for x in 0..self.width {
                let p = Point::new(x, y);
                let c = match self.stone(p) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                if Some(p) == last {
                    write!(f, "[{c}")?;
                } else if x > 0 && Some(Point::new(x - 1, y)) == last {
                    write!(f, "]{c}")?;
                } else {
                    write!(f, " {c}")?;
                }
            }
            if last == Some(Point::new(self.width - 1, y)) {
                write!(f, "]")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn notation_round_trips_and_errors() {
        let b = Board::new(15, 15, Rule::Freestyle).unwrap();
        assert_eq!(b.parse_point("h8").unwrap(), Point::new(7, 7));
        assert_eq!(b.parse_point("a15").unwrap(), Point::new(0, 0));
        assert_eq!(b.parse_point("0,14").unwrap(), Point::new(0, 14));
        assert_eq!(b.format_point(Point::new(0, 14)), "a1");
        assert!(matches!(b.parse_point("p1"), Err(MoveError::OffBoard { .. })));
        assert!(matches!(b.parse_point("a0"), Err(MoveError::OffBoard { .. })));
        assert!(matches!(b.parse_point("15,0"), Err(MoveError::OffBoard { .. })));
        for bad in ["", "h", "8", "h8x", "-1,2", "a,b", "é3", "h99999999999999999999"] {
            assert!(b.parse_point(bad).is_err(), "{bad}");
        }
        assert!(matches!(b.parse_moves("h8 zz"), Err(MoveError::InList { index: 2, .. })));
        assert!(Board::new(4, 15, Rule::Freestyle).is_err());
        assert!(Board::new(15, 23, Rule::Freestyle).is_err());
        assert!(Board::from_moves(15, 15, Rule::Freestyle, "h8 h8").is_err());
    }

    #[test]
    fn display_shows_stones_and_last_move() {
        let b = Board::from_moves(5, 5, Rule::Freestyle, "c3 d4").unwrap();
        let text = b.to_string();
        assert!(text.contains(" 4  . . .[O]."), "{text}");
        assert!(text.contains(" 3  . . X . ."), "{text}");
    }

    #[test]
    fn five_wins_and_overline_depends_on_the_rule() {
        // Black: a8 b8 c8 d8 and f8 e8 → six in a row; white plays elsewhere.
        let moves = "a8 a1 b8 b1 c8 c1 d8 d3 f8 e2";
        for (rule, wins) in [(Rule::Freestyle, true), (Rule::Standard, false), (Rule::Renju, false)] {
            let mut b = Board::from_moves(15, 15, rule, moves).unwrap();
            let e8 = b.parse_point("e8").unwrap();
            if rule == Rule::Renju {
                assert_eq!(b.play(e8), Err(MoveError::Forbidden(e8)));
                continue;
            }
            b.play(e8).unwrap();
            assert_eq!(b.winner().is_some(), wins, "{rule}");
        }
        let mut b = Board::from_moves(15, 15, Rule::Standard, "a8 a1 b8 b1 c8 c1 d8 d1").unwrap();
        b.play(b.parse_point("e8").unwrap()).unwrap();
        assert_eq!(b.winner(), Some(Color::Black));
        assert_eq!(b.play(Point::new(9, 9)), Err(MoveError::GameOver));
    }

    /// A random walk of plays and take-backs, checking every key against one recomputed from scratch.
    fn walk(rule: Rule, width: usize, height: usize, seed: u64) {
        let mut rng = tabula::zobrist::SplitMix64::new(seed);
        let mut b = Board::new(width, height, rule).unwrap();
        for _ in 0..300 {
            if b.moves().len() > 3 && rng.next() % 4 == 0 {
                b.take_back();
            } else {
                let p = Point::new((rng.next() % width as u64) as u8, (rng.next() % height as u64) as u8);
                if b.play(p).is_err() && b.winner().is_some() {
                    b.take_back();
                }
            }
            assert_eq!(b.key(), b.key_from_scratch());
            let fresh = b.with_rule(rule).unwrap();
            assert_eq!(fresh.lines, b.lines);
            assert_eq!(fresh.stones, b.stones);
            // The candidates are the empty cells two steps or fewer along a line from a stone.
            let mut listed = Vec::new();
            b.for_each_candidate(|i| listed.push(i));
            let near = |i: usize| {
                DIRS.iter().any(|&d| [-2, -1, 1, 2].iter().any(|&n| matches!(b.cells[along(i, n * d)], 1 | 2)))
            };
            let expected: Vec<usize> = (0..CELLS).filter(|&i| b.cells[i] == EMPTY && near(i)).collect();
            assert_eq!(listed, expected);
            assert_eq!((fresh.marks, fresh.rows, fresh.counts), (b.marks, b.rows, b.counts));
            // The kept patterns are the pattern table's for the line codes, cell by cell.
            for i in 0..CELLS {
                assert_eq!(b.pats[i], b.lines[i].map(|code| (b.tables.cell(rule, code) >> 16) as u8), "{i}");
            }
            // The marks say what the line tables say of every empty cell.
            let marked =
                |i: usize, who: Color, shape: Shape| (b.marks[i] >> (16 * who.index() + 4 * shape as usize)) & 0xf != 0;
            for who in Color::ALL {
                let mut count = [0; Shape::COUNT];
                for i in 0..CELLS {
                    let pats = if b.cells[i] == EMPTY { b.patterns_at(i, who) } else { [Pattern::None; 4] };
                    let has = [
                        pats.contains(&Pattern::Five),
                        pats.iter().any(|p| p.is_open_four()),
                        pats.iter().any(|p| p.is_four()),
                        pats.contains(&Pattern::FlexThree),
                    ];
                    for shape in [Shape::Five, Shape::OpenFour, Shape::Four, Shape::Three] {
                        assert_eq!(marked(i, who, shape), has[shape as usize], "{shape:?}");
                        count[shape as usize] += has[shape as usize] as u16;
                    }
                }
                assert_eq!(b.counts[who.index()], count);
                for shape in [Shape::Five, Shape::OpenFour, Shape::Four, Shape::Three] {
                    let mut listed = Vec::new();
                    b.for_each_shape(who, &[shape], |i| listed.push(i));
                    assert_eq!(listed.len(), count[shape as usize] as usize);
                    assert!(listed.iter().all(|&i| marked(i, who, shape)));
                }
            }
        }
    }

    #[test]
    fn incremental_key_matches_key_from_scratch() {
        for (s, rule) in Rule::ALL.into_iter().enumerate() {
            walk(rule, 15, 15, s as u64);
            walk(rule, 7, 11, 10 + s as u64);
            walk(rule, 22, 5, 20 + s as u64);
        }
    }

    #[test]
    fn transpositions_share_a_key() {
        let a = Board::from_moves(15, 15, Rule::Freestyle, "h8 i9 j10 g7").unwrap();
        let b = Board::from_moves(15, 15, Rule::Freestyle, "j10 g7 h8 i9").unwrap();
        assert_eq!(a.key(), b.key());
        assert_ne!(a.key(), Board::from_moves(15, 15, Rule::Freestyle, "h8 j10 i9 g7").unwrap().key());
    }

    proptest! {
        #[test]
        fn move_lists_round_trip(w in 5usize..=22, h in 5usize..=22, raw in prop::collection::vec((0u8..22, 0u8..22), 0..40)) {
            let b = Board::new(w, h, Rule::Freestyle).unwrap();
            let points: Vec<Point> = raw.into_iter().map(|(x, y)| Point::new(x % w as u8, y % h as u8)).collect();
            let text = b.format_moves(&points);
            prop_assert_eq!(b.parse_moves(&text).unwrap(), points.clone());
            let gomocup = points.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" ");
            prop_assert_eq!(b.parse_moves(&gomocup).unwrap(), points);
        }

        #[test]
        fn parsing_never_panics(text in "\\PC{0,12}") {
            let b = Board::new(15, 15, Rule::Renju).unwrap();
            let _ = b.parse_moves(&text);
            let _ = Board::from_moves(15, 15, Rule::Renju, &text);
        }
    }
}
