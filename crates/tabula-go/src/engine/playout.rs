//! Fast random playouts: a light board with pseudo-liberties, simple ko only, and Tromp–Taylor scoring.
//!
//! [`PlayoutBoard`] copies a [`Board`]'s stones into a flat array with a border ring (side + 2 per row), so
//! a neighbour is one addition away and never off the array. Each chain keeps its stone count and its
//! *pseudo-liberties*: the number of (stone, empty neighbour) pairs, their sum and their sum of squares.
//! A chain is in atari exactly when every pseudo-liberty is the same point, that is when
//! `sum² == count · squares`, and that point is `sum / count`; no liberty set is ever built.
//!
//! There is no superko set and no undo: a playout plays to the end on a copy and is thrown away. The policy
//! ([`PlayoutBoard::playout`]) answers the previous move first — it captures a chain the opponent left in
//! atari, and saves its own chain the opponent just put in atari by capturing an enemy chain in atari next
//! to it or by an extension that leaves two liberties and does not run into a ladder (read to its end on
//! copies of the board, [`PlayoutBoard::dies_in_ladder`]) — then captures a chain its own previous move put
//! in atari if the opponent left it there, then plays a [shape pattern](crate::engine::patterns) next to the
//! previous move, and otherwise plays a uniformly random legal move that neither fills one of its
//! own eyes nor puts a chain of several stones in atari. A player with no such move passes; two passes end
//! the playout.
//!
//! # Examples
//!
//! ```
//! use tabula_go::board::Board;
//! use tabula_go::coords::Color;
//! use tabula_go::engine::patterns::Patterns;
//! use tabula::rng::Rng;
//! use tabula_go::engine::playout::PlayoutBoard;
//!
//! let empty = PlayoutBoard::from_board(&Board::new(9).unwrap(), Color::Black);
//! let mut board = empty.clone();
//! let mut rng = Rng::new(7);
//! let patterns = Patterns::new();
//! let margin = board.playout(&mut rng, 7.0, &patterns, None);
//! // Every point ends up owned by someone or shared: black's area minus white's, minus komi.
//! assert!(margin.abs() <= 81.0 + 7.0);
//! assert!(board.is_finished());
//! ```

use crate::board::{join_chains, Board};
use crate::coords::{Color, Move, Point, MAX_SIZE};
use crate::engine::patterns::Patterns;
use std::cell::RefCell;
use tabula::rng::Rng;

/// The contents of a cell of the padded array.
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const BORDER: u8 = 3;
/// No point (no ko, no last move). Index 0 is a border corner, never a playable point.
pub const NO_POINT: u16 = 0;

#[inline(always)]
fn stone(color: Color) -> u8 {
    color.index() as u8 + 1
}

/// A chain's stones and pseudo-liberties, kept at its head; one record so that a look-up touches one
/// place. The sums fit in 32 bits (checked below).
#[derive(Clone, Copy, Debug, Default)]
struct Chain {
    stones: u16,
    plibs: u16,
    lib_sum: u32,
    lib_squares: u32,
}

/// Attacker moves a ladder reading may try before it gives up and counts the ladder as escaped: a
/// ladder across the 19×19 board's diagonal needs about 36, the attacker's wrong first tries some more.
const LADDER_BUDGET: u32 = 64;

thread_local! {
    /// Boards for the ladder reading to copy into, kept so that a reading allocates nothing.
    static POOL: RefCell<Vec<PlayoutBoard>> = const { RefCell::new(Vec::new()) };
}

/// The most pseudo-liberties a chain can have (one per pair of adjacent points) and the largest index.
const MAX_PLIBS: usize = 2 * MAX_SIZE * (MAX_SIZE - 1);
const MAX_INDEX: usize = (MAX_SIZE + 2) * (MAX_SIZE + 2);
const _: () = assert!(MAX_PLIBS * MAX_INDEX * MAX_INDEX < u32::MAX as usize && MAX_PLIBS < u16::MAX as usize);

/// A board for playouts: stones, chains with pseudo-liberties, the list of empty points and the simple ko.
#[derive(Clone, Debug)]
pub struct PlayoutBoard {
    size: usize,
    /// Side of the padded array: `size + 2`.
    width: usize,
    cells: Vec<u8>,
    /// For a stone: the head of its chain.
    head: Vec<u16>,
    /// For a stone: the next stone of its chain (circular).
    next: Vec<u16>,
    /// For a head: its chain's counts.
    chains: Vec<Chain>,
    /// The empty points, in no order, and each empty point's place in that list.
    empty: Vec<u16>,
    empty_at: Vec<u16>,
    ko: u16,
    last: u16,
    /// The move before the last: the side to move's own previous move.
    previous: u16,
    to_move: Color,
    passes: u8,
    moves: u32,
    /// Scratch marks for scoring floods.
    marks: Vec<u32>,
    generation: u32,
}

impl PlayoutBoard {
    /// Copies the stones and simple-ko point of `board`, with `to_move` to play.
    pub fn from_board(board: &Board, to_move: Color) -> PlayoutBoard {
        let size = board.size();
        let width = size + 2;
        let cells = width * width;
        let mut b = PlayoutBoard {
            size,
            width,
            cells: vec![BORDER; cells],
            head: vec![NO_POINT; cells],
            next: vec![NO_POINT; cells],
            chains: vec![Chain::default(); cells],
            empty: Vec::with_capacity(size * size),
            empty_at: vec![0; cells],
            ko: NO_POINT,
            last: NO_POINT,
            previous: NO_POINT,
            to_move,
            passes: 0,
            moves: 0,
            marks: vec![0; cells],
            generation: 0,
        };
        for p in board.points() {
            let i = b.index(p);
            b.cells[i] = EMPTY;
            b.empty_at[i] = b.empty.len() as u16;
            b.empty.push(i as u16);
        }
        // Stones go in without captures: the source board is legal, so no chain lacks a liberty.
        for p in board.points() {
            if let Some(color) = board.get(p) {
                b.put(b.index(p), stone(color));
            }
        }
        b.ko = board.ko().map_or(NO_POINT, |k| b.index(k) as u16);
        b
    }

    /// Makes `self` a copy of `other`, reusing its buffers.
    pub fn copy_from(&mut self, other: &PlayoutBoard) {
        // Field by field: a derived `clone_from` would allocate every buffer anew.
        self.size = other.size;
        self.width = other.width;
        self.cells.clone_from(&other.cells);
        self.head.clone_from(&other.head);
        self.next.clone_from(&other.next);
        self.chains.clone_from(&other.chains);
        self.empty.clone_from(&other.empty);
        self.empty_at.clone_from(&other.empty_at);
        self.ko = other.ko;
        self.last = other.last;
        self.previous = other.previous;
        self.to_move = other.to_move;
        self.passes = other.passes;
        self.moves = other.moves;
        // The scoring marks are scratch, valid only below this board's own generation, which is kept.
        self.marks.resize(other.marks.len(), 0);
    }

    /// The board side.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The padded index of a point.
    #[inline(always)]
    pub fn index(&self, point: Point) -> usize {
        (point.row() + 1) * self.width + point.column() + 1
    }

    /// The point at a padded index (which must be on the board).
    #[inline(always)]
    pub fn point(&self, index: usize) -> Point {
        Point::new(index % self.width - 1, index / self.width - 1)
    }

    /// The padded index of a move, [`NO_POINT`] for a pass.
    pub fn move_index(&self, mv: Move) -> u16 {
        match mv {
            Move::Pass => NO_POINT,
            Move::Play(p) => self.index(p) as u16,
        }
    }

    /// The move at a padded index, a pass for [`NO_POINT`].
    pub fn index_move(&self, index: u16) -> Move {
        if index == NO_POINT {
            Move::Pass
        } else {
            Move::Play(self.point(index as usize))
        }
    }

    /// Number of padded cells: the length an AMAF array for [`playout`](PlayoutBoard::playout) needs.
    pub fn cells(&self) -> usize {
        self.cells.len()
    }

    /// The player to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Moves (passes included) played on this board since it was copied from a [`Board`].
    pub fn moves_played(&self) -> u32 {
        self.moves
    }

    /// Whether two passes in a row have ended the playout.
    pub fn is_finished(&self) -> bool {
        self.passes >= 2
    }

    /// The raw contents of a padded index: 0 empty, 1 black, 2 white, 3 the border.
    #[inline(always)]
    pub(crate) fn raw_cell(&self, index: usize) -> u8 {
        self.cells[index]
    }

    /// The colour on a padded index, `None` for empty or border.
    pub fn color_at(&self, index: usize) -> Option<Color> {
        match self.cells[index] {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// The last move's padded index, [`NO_POINT`] for a pass or none known.
    pub fn last_move(&self) -> u16 {
        self.last
    }

    /// The move before the last (the side to move's own previous move), [`NO_POINT`] for a pass or none
    /// known.
    pub fn previous_move(&self) -> u16 {
        self.previous
    }

    /// Sets the last two moves (padded indices, [`NO_POINT`] for a pass or none), which a board copied from
    /// a [`Board`] does not know: the playout policy and the move features answer them.
    pub fn set_recent_moves(&mut self, last: u16, previous: u16) {
        self.last = last;
        self.previous = previous;
    }

    /// The head of the chain of the stone on padded index `i`.
    #[inline(always)]
    pub(crate) fn head_of(&self, i: usize) -> usize {
        self.head[i] as usize
    }

    /// The number of stones of the chain headed by `h`.
    #[inline(always)]
    pub(crate) fn chain_size(&self, h: usize) -> usize {
        self.chains[h].stones as usize
    }

    /// The stones of the chain headed by `h`.
    #[inline(always)]
    pub(crate) fn stones(&self, h: usize) -> impl Iterator<Item = usize> + '_ {
        let (mut s, mut done) = (h, false);
        std::iter::from_fn(move || {
            if done {
                return None;
            }
            let stone = s;
            s = self.next[s] as usize;
            done = s == h;
            Some(stone)
        })
    }

    #[inline(always)]
    pub(crate) fn neighbors(&self, i: usize) -> [usize; 4] {
        [i - 1, i + 1, i - self.width, i + self.width]
    }

    #[inline(always)]
    fn add_lib(&mut self, h: usize, lib: usize) {
        let c = &mut self.chains[h];
        c.plibs += 1;
        c.lib_sum += lib as u32;
        c.lib_squares += (lib * lib) as u32;
    }

    #[inline(always)]
    fn remove_lib(&mut self, h: usize, lib: usize) {
        let c = &mut self.chains[h];
        c.plibs -= 1;
        c.lib_sum -= lib as u32;
        c.lib_squares -= (lib * lib) as u32;
    }

    /// Whether the chain headed by `h` has exactly one liberty.
    #[inline(always)]
    pub(crate) fn in_atari(&self, h: usize) -> bool {
        let c = &self.chains[h];
        let (n, s) = (c.plibs as u64, c.lib_sum as u64);
        n > 0 && s * s == n * c.lib_squares as u64
    }

    /// The single liberty of a chain in atari.
    #[inline(always)]
    fn atari_liberty(&self, h: usize) -> usize {
        let c = &self.chains[h];
        (c.lib_sum / c.plibs as u32) as usize
    }

    /// Puts a stone, merges it with friendly neighbours and takes liberties from enemies; no captures.
    fn put(&mut self, i: usize, s: u8) {
        debug_assert_eq!(self.cells[i], EMPTY);
        let at = self.empty_at[i] as usize;
        let moved = self.empty.swap_remove(at);
        debug_assert_eq!(moved as usize, i);
        if at < self.empty.len() {
            self.empty_at[self.empty[at] as usize] = at as u16;
        }
        self.cells[i] = s;
        self.head[i] = i as u16;
        self.next[i] = i as u16;
        self.chains[i] = Chain { stones: 1, ..Chain::default() };
        for n in self.neighbors(i) {
            match self.cells[n] {
                EMPTY => self.add_lib(i, n),
                BORDER => {}
                _ => {
                    let h = self.head[n] as usize;
                    self.remove_lib(h, i);
                }
            }
        }
        for n in self.neighbors(i) {
            if self.cells[n] == s {
                let (a, b) = (self.head[i] as usize, self.head[n] as usize);
                if a != b {
                    self.merge(a, b);
                }
            }
        }
    }

    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.chains[a].stones >= self.chains[b].stones { (a, b) } else { (b, a) };
        join_chains(&mut self.head, &mut self.next, big, small);
        let small = self.chains[small];
        let big = &mut self.chains[big];
        big.stones += small.stones;
        big.plibs += small.plibs;
        big.lib_sum += small.lib_sum;
        big.lib_squares += small.lib_squares;
    }

    /// Removes the chain headed by `h`; returns its size and one of its stones.
    fn remove_chain(&mut self, h: usize) -> (usize, usize) {
        let mut s = h;
        let mut count = 0;
        loop {
            self.cells[s] = EMPTY;
            self.empty_at[s] = self.empty.len() as u16;
            self.empty.push(s as u16);
            count += 1;
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        loop {
            for n in self.neighbors(s) {
                if matches!(self.cells[n], BLACK | WHITE) {
                    let nh = self.head[n] as usize;
                    self.add_lib(nh, s);
                }
            }
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        (count, h)
    }

    /// Whether `color` may play on the empty padded index `i`: not the ko point, not suicide.
    #[inline]
    pub fn is_legal(&self, i: usize, color: Color) -> bool {
        if self.cells[i] != EMPTY || i == self.ko as usize {
            return false;
        }
        let s = stone(color);
        for n in self.neighbors(i) {
            match self.cells[n] {
                EMPTY => return true,
                BORDER => {}
                c => {
                    let h = self.head[n] as usize;
                    // Our chain keeps another liberty, or the enemy chain dies: either way a liberty.
                    if (c == s) != self.in_atari(h) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether the empty index `i` is an eye of `color`: every neighbour is its stone, and the diagonals
    /// leave it real (no enemy diagonal on the edge, at most one in the middle).
    #[inline]
    pub fn is_own_eye(&self, i: usize, color: Color) -> bool {
        let s = stone(color);
        if self.neighbors(i).iter().any(|&n| self.cells[n] != s && self.cells[n] != BORDER) {
            return false;
        }
        let w = self.width;
        let enemy = 3 - s;
        let (mut bad, mut edge) = (0, false);
        for d in [i - w - 1, i - w + 1, i + w - 1, i + w + 1] {
            match self.cells[d] {
                BORDER => edge = true,
                c if c == enemy => bad += 1,
                _ => {}
            }
        }
        bad + edge as u32 <= 1
    }

    /// Whether `color` playing `i` puts a chain of two or more stones (counting the new one) in atari with no
    /// capture.
    pub fn is_self_atari(&self, i: usize, color: Color) -> bool {
        let s = stone(color);
        self.neighbors(i).into_iter().any(|n| self.cells[n] == s) && self.liberties_after(i, color, &mut [0; 2]) <= 1
    }

    /// Plays `color` on padded index `i` (legal, see [`is_legal`](PlayoutBoard::is_legal)) or passes for
    /// [`NO_POINT`]: captures, the new ko point, the turn.
    pub fn play(&mut self, i: usize, color: Color) {
        self.moves += 1;
        self.to_move = color.opponent();
        self.previous = self.last;
        self.last = i as u16;
        self.ko = NO_POINT;
        if i == NO_POINT as usize {
            self.passes += 1;
            return;
        }
        self.passes = 0;
        debug_assert!(self.is_legal(i, color) || self.cells[i] == EMPTY);
        let s = stone(color);
        self.put(i, s);
        let enemy = 3 - s;
        let (mut captured, mut taken) = (0, 0);
        for n in self.neighbors(i) {
            if self.cells[n] == enemy && self.chains[self.head[n] as usize].plibs == 0 {
                let (count, at) = self.remove_chain(self.head[n] as usize);
                captured += count;
                taken = at;
            }
        }
        let h = self.head[i] as usize;
        if captured == 1 && self.chains[h].stones == 1 && self.in_atari(h) {
            self.ko = taken as u16;
        }
    }

    /// A response to the previous move: capture the chain it left in atari, or save one of ours it put in
    /// atari, by capturing an enemy chain in atari next to it or by extending when that leaves two or
    /// more liberties and no ladder (an extension into a fresh atari or a ladder only feeds the opponent
    /// stones).
    fn answer_last(&self, rng: &mut Rng, color: Color) -> Option<usize> {
        let last = self.last as usize;
        if last == NO_POINT as usize || self.cells[last] == EMPTY {
            return None;
        }
        let h = self.head[last] as usize;
        if self.in_atari(h) {
            let lib = self.atari_liberty(h);
            if self.is_legal(lib, color) {
                return Some(lib);
            }
        }
        let s = stone(color);
        let mut found = [0usize; 8];
        let mut count = 0;
        let mut seen = [0usize; 4];
        for (k, n) in self.neighbors(last).into_iter().enumerate() {
            if self.cells[n] != s {
                continue;
            }
            let ours = self.head[n] as usize;
            if !self.in_atari(ours) || seen.contains(&ours) {
                continue;
            }
            seen[k] = ours;
            // Counter-captures: enemy chains in atari touching ours.
            for enemy in self.enemies_in_atari(ours) {
                let lib = self.atari_liberty(enemy);
                if count < found.len() && !found[..count].contains(&lib) && self.is_legal(lib, color) {
                    found[count] = lib;
                    count += 1;
                }
            }
            // The reading refuses an extension that is illegal or leaves one liberty or none before it reads.
            let lib = self.atari_liberty(ours);
            if count < found.len() && !found[..count].contains(&lib) && !self.extension_dies(ours) {
                found[count] = lib;
                count += 1;
            }
        }
        (count > 0).then(|| found[rng.below(count)])
    }

    /// A random legal move for `color` that fills no own eye and is no big self-atari, or
    /// [`NO_POINT`] (pass).
    fn random_move(&self, rng: &mut Rng, color: Color) -> usize {
        let n = self.empty.len();
        if n == 0 {
            return NO_POINT as usize;
        }
        let start = rng.below(n);
        for k in 0..n {
            let j = if start + k < n { start + k } else { start + k - n };
            let i = self.empty[j] as usize;
            if self.is_legal(i, color) && !self.is_own_eye(i, color) && !self.is_self_atari(i, color) {
                return i;
            }
        }
        NO_POINT as usize
    }

    /// A random one of the empty points around the last move that match a shape pattern (legal, no own
    /// eye, no big self-atari, no escape into a ladder).
    fn pattern_move(&self, rng: &mut Rng, color: Color, patterns: &Patterns) -> Option<usize> {
        let last = self.last as usize;
        if last == NO_POINT as usize {
            return None;
        }
        let w = self.width;
        let mut found = [0usize; 8];
        let mut count = 0;
        for i in [last - w - 1, last - w, last - w + 1, last - 1, last + 1, last + w - 1, last + w, last + w + 1] {
            // The table holds every pattern in both colours, so black's view of the cells does for either
            // player.
            if self.cells[i] == EMPTY
                && patterns.matches(self.raw_neighborhood(i))
                && self.is_legal(i, color)
                && !self.is_own_eye(i, color)
                && !self.is_self_atari(i, color)
                && !self.escape_dies_in_ladder(i, color)
            {
                found[count] = i;
                count += 1;
            }
        }
        (count > 0).then(|| found[rng.below(count)])
    }

    /// A capture of an enemy chain in atari next to the side's own previous move: an atari the opponent
    /// left unanswered (for example because escaping runs into a ladder).
    fn take_unanswered_atari(&self, color: Color) -> Option<usize> {
        let previous = self.previous as usize;
        if previous == NO_POINT as usize || self.cells[previous] != stone(color) {
            return None;
        }
        let enemy = 3 - stone(color);
        self.neighbors(previous).into_iter().find_map(|n| {
            (self.cells[n] == enemy && self.in_atari(self.head[n] as usize))
                .then(|| self.atari_liberty(self.head[n] as usize))
                .filter(|&lib| self.is_legal(lib, color))
        })
    }

    /// Plays the policy's move for the side to move; returns the index played ([`NO_POINT`] for a pass).
    pub fn play_policy_move(&mut self, rng: &mut Rng, patterns: &Patterns) -> usize {
        let color = self.to_move;
        let i = self
            .answer_last(rng, color)
            .or_else(|| self.take_unanswered_atari(color))
            .or_else(|| self.pattern_move(rng, color, patterns))
            .unwrap_or_else(|| self.random_move(rng, color));
        self.play(i, color);
        i
    }

    /// Plays the policy to the end (two passes, or three moves per point as a safety cap) and returns
    /// black's area minus white's minus `komi`. When `amaf` is given (length [`cells`](PlayoutBoard::cells)),
    /// each point not yet marked gets the colour that played there first (1 black, 2 white).
    pub fn playout(&mut self, rng: &mut Rng, komi: f64, patterns: &Patterns, mut amaf: Option<&mut [u8]>) -> f64 {
        let limit = self.moves + 3 * (self.size * self.size) as u32;
        while !self.is_finished() && self.moves < limit {
            let color = self.to_move;
            let i = self.play_policy_move(rng, patterns);
            if let Some(amaf) = amaf.as_deref_mut() {
                if i != NO_POINT as usize && amaf[i] == 0 {
                    amaf[i] = stone(color);
                }
            }
        }
        self.area_margin(komi)
    }

    /// Tromp–Taylor area: black's minus white's, minus `komi`.
    pub fn area_margin(&mut self, komi: f64) -> f64 {
        let mut margin: i32 = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.marks.fill(0);
            self.generation = 1;
        }
        let generation = self.generation;
        let mut stack: Vec<usize> = Vec::new();
        for j in 0..self.empty.len() {
            let start = self.empty[j] as usize;
            if self.marks[start] == generation {
                continue;
            }
            self.marks[start] = generation;
            stack.push(start);
            let (mut size, mut reaches) = (0i32, 0u8);
            while let Some(q) = stack.pop() {
                size += 1;
                for n in self.neighbors(q) {
                    match self.cells[n] {
                        EMPTY if self.marks[n] != generation => {
                            self.marks[n] = generation;
                            stack.push(n);
                        }
                        BLACK => reaches |= 1,
                        WHITE => reaches |= 2,
                        _ => {}
                    }
                }
            }
            margin += match reaches {
                1 => size,
                2 => -size,
                _ => 0,
            };
        }
        for &c in &self.cells {
            margin += match c {
                BLACK => 1,
                WHITE => -1,
                _ => 0,
            };
        }
        margin as f64 - komi
    }

    /// Who owns each padded index after a finished playout under area rules: the stone's colour, or the
    /// colour of an empty point's only neighbouring colour (single-point regions; others are shared).
    pub fn owner(&self, i: usize) -> Option<Color> {
        match self.cells[i] {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            EMPTY => {
                let mut reaches = 0u8;
                for n in self.neighbors(i) {
                    match self.cells[n] {
                        BLACK => reaches |= 1,
                        WHITE => reaches |= 2,
                        _ => {}
                    }
                }
                match reaches {
                    1 => Some(Color::Black),
                    2 => Some(Color::White),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Whether `color` playing padded index `i` captures something, and how many stones.
    pub fn capture_size(&self, i: usize, color: Color) -> usize {
        let enemy = 3 - stone(color);
        let mut heads = [0usize; 4];
        let mut total = 0;
        for (k, n) in self.neighbors(i).into_iter().enumerate() {
            if self.cells[n] == enemy {
                let h = self.head[n] as usize;
                if self.in_atari(h) && !heads.contains(&h) {
                    heads[k] = h;
                    total += self.chains[h].stones as usize;
                }
            }
        }
        total
    }

    /// The size of the largest chain of `color` next to `i` that is in atari (0 if none): playing `i`
    /// may save it.
    pub fn saves_size(&self, i: usize, color: Color) -> usize {
        let s = stone(color);
        self.neighbors(i)
            .into_iter()
            .filter(|&n| self.cells[n] == s && self.in_atari(self.head[n] as usize))
            .map(|n| self.chains[self.head[n] as usize].stones as usize)
            .max()
            .unwrap_or(0)
    }

    /// Whether `color` playing `i` puts an enemy chain next to it in atari.
    pub fn gives_atari(&self, i: usize, color: Color) -> bool {
        let enemy = 3 - stone(color);
        self.neighbors(i).into_iter().any(|n| {
            self.cells[n] == enemy && {
                let h = self.head[n] as usize;
                // Two pseudo-liberties both on `i`, or exactly two real ones with `i` among them.
                !self.in_atari(h) && self.real_liberties(h, 3) == 2
            }
        })
    }

    /// The real liberties of the chain headed by `h`, counted up to `cap`.
    fn real_liberties(&self, h: usize, cap: usize) -> usize {
        let mut libs = [0usize; 8];
        self.liberties_into(h, &mut libs[..cap.min(8)])
    }

    /// Fills `libs` with the first real liberties of the chain headed by `h` (stopping when it is full);
    /// returns how many it holds.
    fn liberties_into(&self, h: usize, libs: &mut [usize]) -> usize {
        self.add_liberties(h, libs, 0, NO_POINT as usize)
    }

    /// Adds the liberties of the chain headed by `h`, other than `except`, to the `count` already in `libs`
    /// (stopping when it is full); returns how many it holds then.
    fn add_liberties(&self, h: usize, libs: &mut [usize], mut count: usize, except: usize) -> usize {
        for s in self.stones(h) {
            for n in self.neighbors(s) {
                if self.cells[n] == EMPTY && n != except && !libs[..count].contains(&n) {
                    libs[count] = n;
                    count += 1;
                    if count >= libs.len() {
                        return count;
                    }
                }
            }
        }
        count
    }

    /// The head of the chain on `n` if it is a chain of colour `enemy` in atari.
    #[inline(always)]
    fn enemy_in_atari_at(&self, n: usize, enemy: u8) -> Option<usize> {
        let h = self.head[n] as usize;
        (self.cells[n] == enemy && self.in_atari(h)).then_some(h)
    }

    /// The heads of the enemy chains in atari next to the chain headed by `h` (capturing one gives `h` a
    /// liberty), once for each stone of `h` they touch.
    fn enemies_in_atari(&self, h: usize) -> impl Iterator<Item = usize> + '_ {
        let enemy = 3 - self.cells[h];
        self.stones(h).flat_map(|s| self.neighbors(s)).filter_map(move |n| self.enemy_in_atari_at(n, enemy))
    }

    /// Whether an enemy chain next to the chain headed by `h` is in atari (as
    /// [`enemies_in_atari`](Self::enemies_in_atari), without its iterator's cost on the ladder reading's path).
    fn touches_enemy_in_atari(&self, h: usize) -> bool {
        let enemy = 3 - self.cells[h];
        self.stones(h).any(|s| self.neighbors(s).into_iter().any(|n| self.enemy_in_atari_at(n, enemy).is_some()))
    }

    /// Whether the chain headed by `h`, in atari, dies in a ladder with its owner to move: it can capture
    /// no enemy chain next to it, and extending on its liberty leaves at most two liberties, from which
    /// the opponent, atari after atari, captures it. The reading plays on copies of the board.
    pub fn dies_in_ladder(&self, h: usize) -> bool {
        !self.touches_enemy_in_atari(h) && self.extension_dies(h)
    }

    /// Whether extending the chain headed by `h` (in atari) on its liberty loses it to a ladder.
    fn extension_dies(&self, h: usize) -> bool {
        POOL.with(|pool| {
            let mut pool = pool.take();
            let dies = self.read_extension(h, &mut { LADDER_BUDGET }, &mut pool);
            POOL.set(pool);
            dies
        })
    }

    /// [`extension_dies`](Self::extension_dies), reading at most `budget` more positions (a longer
    /// reading counts as an escape) on boards taken from `pool`.
    fn read_extension(&self, h: usize, budget: &mut u32, pool: &mut Vec<PlayoutBoard>) -> bool {
        let defender = if self.cells[h] == BLACK { Color::Black } else { Color::White };
        let lib = self.atari_liberty(h);
        if !self.is_legal(lib, defender) {
            return true;
        }
        // Counted before copying the board: most extensions reach three liberties or capture.
        let mut libs = [0usize; 3];
        match self.liberties_after(lib, defender, &mut libs) {
            0 | 1 => return true,
            2 => {}
            _ => return false,
        }
        let attacker = defender.opponent();
        let mut board = pool.pop().unwrap_or_else(|| self.clone());
        let dies = libs[..2].iter().any(|&a| {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            board.copy_from(self);
            board.play(lib, defender);
            if !board.is_legal(a, attacker) {
                return false;
            }
            board.play(a, attacker);
            let h = board.head[lib] as usize;
            // The attacker's stone may itself be left in atari next to the chain: a counter-capture.
            board.in_atari(h) && !board.touches_enemy_in_atari(h) && board.read_extension(h, budget, pool)
        });
        pool.push(board);
        dies
    }

    /// The liberties (up to `libs.len()`, in `libs`) of the chain `color` would make by playing the empty
    /// point `i`, counted without playing it; a capture counts as `libs.len()`.
    pub(crate) fn liberties_after(&self, i: usize, color: Color, libs: &mut [usize]) -> usize {
        let s = stone(color);
        let mut count = 0;
        for n in self.neighbors(i) {
            match self.cells[n] {
                EMPTY => {
                    if !libs[..count].contains(&n) {
                        libs[count] = n;
                        count += 1;
                    }
                }
                BORDER => {}
                c if c == s => count = self.add_liberties(self.head[n] as usize, libs, count, i),
                _ => {
                    if self.in_atari(self.head[n] as usize) {
                        return libs.len();
                    }
                }
            }
            if count == libs.len() {
                return count;
            }
        }
        count
    }

    /// Whether `color` playing `i` extends a chain of its own in atari into a ladder that captures it.
    pub fn escape_dies_in_ladder(&self, i: usize, color: Color) -> bool {
        let s = stone(color);
        self.neighbors(i).into_iter().any(|n| {
            self.cells[n] == s && {
                let h = self.head[n] as usize;
                self.in_atari(h) && self.atari_liberty(h) == i && self.extension_dies(h)
            }
        })
    }

    /// Whether `color` playing `i` puts an enemy chain in atari that then dies in a ladder.
    pub fn starts_ladder(&self, i: usize, color: Color) -> bool {
        if !self.gives_atari(i, color) || !self.is_legal(i, color) {
            return false;
        }
        let enemy = 3 - stone(color);
        self.after(i, color, |board| {
            board.neighbors(i).into_iter().any(|n| {
                board.cells[n] == enemy && {
                    let h = board.head[n] as usize;
                    board.in_atari(h) && board.dies_in_ladder(h)
                }
            })
        })
    }

    /// `f` of the board after `color` plays the legal move `i`, on a copy taken from the reading's pool.
    fn after<T>(&self, i: usize, color: Color, f: impl FnOnce(&PlayoutBoard) -> T) -> T {
        let mut board = match POOL.with(|pool| pool.borrow_mut().pop()) {
            Some(mut board) => {
                board.copy_from(self);
                board
            }
            None => self.clone(),
        };
        board.play(i, color);
        let value = f(&board);
        POOL.with(|pool| pool.borrow_mut().push(board));
        value
    }

    /// The 3×3 neighbourhood of `i` as a 16-bit code (two bits per surrounding cell, the colours seen
    /// from `color`: 0 empty, 1 own, 2 enemy, 3 border), for pattern tables.
    pub fn neighborhood(&self, i: usize, color: Color) -> u16 {
        let code = self.raw_neighborhood(i);
        match color {
            Color::Black => code,
            // Swap the two bits of every cell: 1 (black) and 2 (white) trade places, 0 and 3 stay.
            Color::White => ((code & 0x5555) << 1) | ((code >> 1) & 0x5555),
        }
    }

    /// The 3×3 neighbourhood of `i` with the ataris around it, as a 24-bit code: three bits per
    /// surrounding cell in the order of [`neighborhood`](Self::neighborhood), the low two its colour seen
    /// from `color` and the third set for a stone directly beside `i` whose chain is in atari.
    pub fn neighborhood_with_ataris(&self, i: usize, color: Color) -> u32 {
        let w = self.width;
        let swap = color == Color::White;
        [i - w - 1, i - w, i - w + 1, i - 1, i + 1, i + w - 1, i + w, i + w + 1].into_iter().enumerate().fold(
            0u32,
            |code, (k, n)| {
                let mut v = u32::from(self.cells[n]);
                if swap && (v == 1 || v == 2) {
                    v = 3 - v;
                }
                // The orthogonal cells are the second, fourth, fifth and seventh.
                if matches!(k, 1 | 3 | 4 | 6)
                    && matches!(self.cells[n], BLACK | WHITE)
                    && self.in_atari(self.head[n] as usize)
                {
                    v |= 4;
                }
                code << 3 | v
            },
        )
    }

    /// The neighbourhood code seen from black, which is the cells' own encoding: no branch per cell.
    #[inline(always)]
    fn raw_neighborhood(&self, i: usize) -> u16 {
        let w = self.width;
        let c = &self.cells[i - w - 1..=i + w + 1];
        let (below, row, above) = (&c[..3], &c[w..w + 3], &c[2 * w..2 * w + 3]);
        [below[0], below[1], below[2], row[0], row[2], above[0], above[1], above[2]]
            .into_iter()
            .fold(0u16, |code, v| code << 2 | v as u16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{Position, Rules};
    use crate::scoring::area_score;

    #[test]
    fn playouts_keep_pseudo_liberties_exact() {
        let mut rng = Rng::new(3);
        for size in [5, 9, 13] {
            for _ in 0..20 {
                let mut b = PlayoutBoard::from_board(&Board::new(size).unwrap(), Color::Black);
                while !b.is_finished() && b.moves < 400 {
                    b.play_policy_move(&mut rng, &Patterns::new());
                    // Rebuilding from a real board gives the same chains.
                    let mut real = Board::new(size).unwrap();
                    for i in 0..b.cells() {
                        if let Some(c) = b.color_at(i) {
                            real.set(b.point(i), Some(c));
                        }
                    }
                    for i in 0..b.cells() {
                        if b.color_at(i).is_some() {
                            let h = b.head[i] as usize;
                            let exact = real.liberties(b.point(i));
                            assert_eq!(b.in_atari(h), exact == 1, "{real}");
                            assert_eq!(b.chains[h].plibs > 0, exact > 0);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn area_margin_matches_the_scoring_module() {
        let mut rng = Rng::new(9);
        for _ in 0..20 {
            let mut b = PlayoutBoard::from_board(&Board::new(7).unwrap(), Color::Black);
            let margin = b.playout(&mut rng, 0.0, &Patterns::new(), None);
            let mut real = Board::new(7).unwrap();
            for i in 0..b.cells() {
                if let Some(c) = b.color_at(i) {
                    real.set(b.point(i), Some(c));
                }
            }
            assert_eq!(margin, area_score(&real).margin(0.0));
        }
    }

    #[test]
    fn policy_moves_are_legal_under_the_full_rules_apart_from_superko() {
        let mut rng = Rng::new(12);
        for _ in 0..20 {
            let mut game = Position::new(6, Rules { ko: crate::KoRule::Simple, suicide: false }).unwrap();
            let mut b = PlayoutBoard::from_board(game.board(), Color::Black);
            while !b.is_finished() && game.move_count() < 300 {
                let color = b.to_move();
                let i = b.play_policy_move(&mut rng, &Patterns::new());
                let mv = b.index_move(i as u16);
                game.play(mv, color).unwrap();
            }
        }
    }

    #[test]
    fn a_chain_in_atari_is_saved_by_a_counter_capture() {
        // White's A4 puts black A2-A3 in atari; extending at A1 would leave one liberty, but capturing
        // white's B2-B3 at B1 saves the chain.
        let mut real = Board::new(7).unwrap();
        for (s, c) in [
            ("A2", Color::Black),
            ("A3", Color::Black),
            ("C2", Color::Black),
            ("C3", Color::Black),
            ("B4", Color::Black),
            ("B2", Color::White),
            ("B3", Color::White),
            ("A5", Color::White),
        ] {
            real.set(Point::from_gtp(s, 7).unwrap(), Some(c));
        }
        let mut b = PlayoutBoard::from_board(&real, Color::White);
        b.play(b.index(Point::from_gtp("A4", 7).unwrap()), Color::White);
        for seed in 0..10 {
            let mut rng = Rng::new(seed);
            let mut after = b.clone();
            let i = after.play_policy_move(&mut rng, &Patterns::new());
            assert_eq!(after.point(i), Point::from_gtp("B1", 7).unwrap());
        }
    }

    /// Black C3 with white B3, C2 and D4 around it on 9×9, an optional black stone, and white to play D3.
    /// GNU Go 3.8's `defend C3` after D3 answers 0 (lost to the ladder) alone and `1 C4` with black on B5.
    fn ladder(breaker: Option<&str>) -> PlayoutBoard {
        let mut real = Board::new(9).unwrap();
        let stones = [("C3", Color::Black), ("B3", Color::White), ("C2", Color::White), ("D4", Color::White)];
        for (s, c) in stones.into_iter().chain(breaker.map(|b| (b, Color::Black))) {
            real.set(Point::from_gtp(s, 9).unwrap(), Some(c));
        }
        PlayoutBoard::from_board(&real, Color::White)
    }

    #[test]
    fn ladders_are_read_to_the_edge_and_broken_by_a_stone_in_their_path() {
        let at = |b: &PlayoutBoard, s: &str| b.index(Point::from_gtp(s, 9).unwrap());
        for (breaker, dies) in [(None, true), (Some("B5"), false), (Some("A4"), false), (Some("G7"), true)] {
            let before = ladder(breaker);
            assert_eq!(before.starts_ladder(at(&before, "D3"), Color::White), dies, "{breaker:?}");
            let mut after = before.clone();
            after.play(at(&before, "D3"), Color::White);
            let c3 = after.head[at(&after, "C3")] as usize;
            assert_eq!(after.dies_in_ladder(c3), dies, "{breaker:?}");
            assert_eq!(after.escape_dies_in_ladder(at(&after, "C4"), Color::Black), dies, "{breaker:?}");
            // The playout policy's answer extends only out of a ladder that fails, and no shape pattern
            // runs into one.
            let answer = after.answer_last(&mut Rng::new(1), Color::Black);
            assert_eq!(answer, (!dies).then(|| at(&after, "C4")), "{breaker:?}");
            for seed in 0..10 {
                let pattern = after.pattern_move(&mut Rng::new(seed), Color::Black, &Patterns::new());
                assert!(!dies || pattern != Some(at(&after, "C4")), "{breaker:?}");
            }
        }
    }

    #[test]
    fn ataris_that_start_a_ladder_are_those_gnu_go_cannot_defend() {
        // Black C3 has two liberties, C4 and D3; black stones break one ladder or both. An atari starts a
        // ladder that captures exactly when GNU Go 3.8's `defend C3` after it answers 0 (no defence).
        let at = |b: &PlayoutBoard, s: &str| b.index(Point::from_gtp(s, 9).unwrap());
        let cases: [(&[&str], &[&str]); 6] = [
            (&[], &["D3", "C4"]),
            (&["B5"], &["C4"]),
            (&["A4"], &["C4"]),
            (&["G7"], &["D3", "C4"]),
            (&["E2"], &["D3"]),
            (&["B5", "E2"], &[]),
        ];
        for (breakers, capturing) in cases {
            let mut real = Board::new(9).unwrap();
            let white = [("B3", Color::White), ("C2", Color::White), ("D4", Color::White)];
            for (s, c) in white.into_iter().chain(breakers.iter().map(|&b| (b, Color::Black))) {
                real.set(Point::from_gtp(s, 9).unwrap(), Some(c));
            }
            let mut board = PlayoutBoard::from_board(&real, Color::Black);
            board.play(at(&board, "C3"), Color::Black);
            for a in ["D3", "C4"] {
                assert_eq!(
                    board.starts_ladder(at(&board, a), Color::White),
                    capturing.contains(&a),
                    "{breakers:?} {a}"
                );
            }
        }
    }

    #[test]
    fn an_unanswered_atari_is_taken() {
        // White's D3 puts black C3 in atari; black plays elsewhere (G7): white captures at C4.
        let mut board = ladder(None);
        let at = |b: &PlayoutBoard, s: &str| b.index(Point::from_gtp(s, 9).unwrap());
        board.play(at(&board, "D3"), Color::White);
        board.play(at(&board, "G7"), Color::Black);
        for seed in 0..10 {
            let mut after = board.clone();
            let i = after.play_policy_move(&mut Rng::new(seed), &Patterns::new());
            assert_eq!(i, at(&board, "C4"));
            assert_eq!(after.color_at(at(&board, "C3")), None);
        }
    }

    #[test]
    fn a_chain_left_in_atari_is_captured() {
        // White's last move at C4 has one liberty, C5: black's policy takes it.
        let mut game = Position::new(5, Rules::default()).unwrap();
        for (s, c) in [("C3", Color::Black), ("B4", Color::Black), ("D4", Color::Black)] {
            game.play(Move::from_gtp(s, 5).unwrap(), c).unwrap();
        }
        let mut b = PlayoutBoard::from_board(game.board(), Color::White);
        b.play(b.index(Point::from_gtp("C4", 5).unwrap()), Color::White);
        let mut rng = Rng::new(1);
        let i = b.play_policy_move(&mut rng, &Patterns::new());
        assert_eq!(b.point(i), Point::from_gtp("C5", 5).unwrap());
        assert_eq!(b.color_at(b.index(Point::from_gtp("C4", 5).unwrap())), None);
    }
}
